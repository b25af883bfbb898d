/* evalmodel.c - the games with a fitted evaluation (evalmodel.h). */
#include "evalmodel.h"

#include <string.h>

static const EvalModel *const models[] = {&eval_model_salto, &eval_model_pyramid,
                                          &eval_model_lupta};

const EvalModel *eval_model_find(const char *variant)
{
    for (size_t i = 0; i < sizeof models / sizeof models[0]; i++)
        if (strcmp(models[i]->variant, variant) == 0)
            return models[i];
    return NULL;
}
