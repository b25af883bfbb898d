/* evalmodel.h - linear evaluations fitted to self-play data (doc/tuning.md).
 *
 * A game with a fitted evaluation describes each position as a short list
 * of terms (feature index, integer value), from the side to move's view,
 * plus a game phase 0..EVAL_PHASE_MAX.  Every feature has two weights, one
 * for each end of the phase, in 1/EVAL_WEIGHT_SCALE of the game's
 * evaluation unit; the evaluation is the phase blend of the two weighted
 * sums.  The weights are fitted by the trainer (tools/tune.c, `make
 * tune-<game>`) and compiled in from engine/games/<game>_weights.h.  The
 * engine and the trainer compute the same integer score with
 * eval_model_score(), so what the trainer reports is what the engine plays.
 */
#ifndef SIGIL_EVALMODEL_H
#define SIGIL_EVALMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "variant.h"

#define EVAL_PHASE_MAX 64
#define EVAL_WEIGHT_SCALE 4
#define EVAL_TERMS_MAX 160

typedef struct EvalTerms {
    int n;
    int phase; /* 0 (opening) .. EVAL_PHASE_MAX (end) */
    uint16_t index[EVAL_TERMS_MAX];
    int16_t value[EVAL_TERMS_MAX];
} EvalTerms;

typedef struct EvalModel {
    const char *variant;     /* the game's protocol name */
    int nfeatures;
    /* The terms of pos (a position of the game whose result() is NONE). */
    void (*terms)(const Position *pos, EvalTerms *t);
    /* A short name of feature i, for the generated weights file. */
    void (*feature_name)(int i, char *buf, size_t size);
} EvalModel;

/* The fitted model of a game, or NULL. */
const EvalModel *eval_model_find(const char *variant);

/* Add a term (value 0 is skipped). */
static inline void eval_term(EvalTerms *t, int index, int value)
{
    if (value != 0 && t->n < EVAL_TERMS_MAX) {
        t->index[t->n] = (uint16_t)index;
        t->value[t->n] = (int16_t)value;
        t->n++;
    }
}

/* The evaluation of terms t under weights w (w[i][0] at phase 0, w[i][1] at
 * EVAL_PHASE_MAX), in the game's unit, side to move's view, clamped to
 * +-(SCORE_EVAL_MAX - 1). */
static inline int eval_model_score(const EvalTerms *t, const int16_t (*w)[2])
{
    int32_t a = 0, b = 0;
    for (int i = 0; i < t->n; i++) {
        a += (int32_t)t->value[i] * w[t->index[i]][0];
        b += (int32_t)t->value[i] * w[t->index[i]][1];
    }
    int64_t blend = (int64_t)a * (EVAL_PHASE_MAX - t->phase) + (int64_t)b * t->phase;
    int64_t v = blend / (EVAL_PHASE_MAX * EVAL_WEIGHT_SCALE);
    if (v > SCORE_EVAL_MAX - 1)
        v = SCORE_EVAL_MAX - 1;
    if (v < -(SCORE_EVAL_MAX - 1))
        v = -(SCORE_EVAL_MAX - 1);
    return (int)v;
}

extern const EvalModel eval_model_salto;
extern const EvalModel eval_model_pyramid;
extern const EvalModel eval_model_lupta;

#endif
