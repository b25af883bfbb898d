/* variants.c - the registry of games. */
#include "variants.h"

#include <ctype.h>
#include <pthread.h>
#include <string.h>
#include <strings.h>

/* One per game, defined in engine/games/; only the registry names them. */
extern const Variant variant_solomon;
extern const Variant variant_solomon_chain;
extern const Variant variant_salto;
extern const Variant variant_pyramid;
extern const Variant variant_lupta;
extern const Variant variant_alexander;

/* Registry order is the order `uci` lists them in; the first is the default. */
static const Variant *const all_variants[] = {
    &variant_solomon, &variant_solomon_chain, &variant_salto,
    &variant_pyramid, &variant_lupta,         &variant_alexander,
};
enum { ALL_COUNT = sizeof all_variants / sizeof all_variants[0] };

static const Variant *playable[ALL_COUNT];
static int playable_count;
static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_all(void)
{
    for (int i = 0; i < ALL_COUNT; i++) {
        const Variant *v = all_variants[i];
        if (!v->name || !v->generate)
            continue; /* a game that is not built yet is not offered */
        if (v->init)
            v->init();
        playable[playable_count++] = v;
    }
}

void variants_init(void) { pthread_once(&init_once, init_all); }

int variants_count(void)
{
    variants_init();
    return playable_count;
}

const Variant *variants_get(int i)
{
    variants_init();
    return i >= 0 && i < playable_count ? playable[i] : NULL;
}

const Variant *variants_find(const char *name)
{
    variants_init();
    for (int i = 0; i < playable_count; i++)
        if (strcasecmp(playable[i]->name, name) == 0)
            return playable[i];
    return NULL;
}

const Variant *variants_default(void) { return variants_get(0); }

/* Letters to change, add or remove to turn a into b (case-insensitive). */
static int edit_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAX || m >= MAX)
        return MAX;
    int row[MAX + 1];
    for (size_t j = 0; j <= m; j++)
        row[j] = (int)j;
    for (size_t i = 1; i <= n; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= m; j++) {
            int up = row[j];
            int same = tolower((unsigned char)a[i - 1]) == tolower((unsigned char)b[j - 1]);
            int best = diag + !same;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

const Variant *variants_nearest(const char *name)
{
    variants_init();
    const Variant *best = NULL;
    int best_d = 0;
    for (int i = 0; i < playable_count; i++) {
        int d = edit_distance(name, playable[i]->name);
        if (!best || d < best_d) {
            best = playable[i];
            best_d = d;
        }
    }
    int len = (int)strlen(name);
    return best && best_d * 3 <= len + 2 && best_d * 3 <= (int)strlen(best->name) + 2 ? best
                                                                                      : NULL;
}
