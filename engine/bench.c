/* bench.c - the fixed search set whose node count signs every commit.
 *
 * For every playable game: the start position and the game's bench
 * positions (Variant.bench_fens), each searched single-threaded to the
 * game's depth (Variant.bench_depth) with a fresh 16 MB transposition
 * table.  A game without bench_fens gets the positions a deterministic
 * pseudo-random playout (SplitMix64, fixed seed) reaches after
 * BENCH_PLIES[i] plies.  The node total depends only on the code, so two
 * builds that search the same way print the same signature.
 */
#include "bench.h"

#include <inttypes.h>
#include <stdatomic.h>

#include "game.h"
#include "search.h"
#include "tt.h"
#include "util.h"
#include "variants.h"

#define BENCH_SEED 0x5167696C42656E63ULL /* "SigilBenc" */
/* The bench always searches with the default table size. */
#define BENCH_HASH_MB TT_DEFAULT_MB

/* Playout lengths of the positions after the start position. */
static const int BENCH_PLIES[] = {8, 15, 24};
enum { BENCH_PLAYOUTS = sizeof BENCH_PLIES / sizeof BENCH_PLIES[0] };

/* Depth when a game gives none (Variant.bench_depth). */
#define BENCH_DEFAULT_DEPTH 6

static int default_depth(const Variant *v)
{
    return v->bench_depth > 0 ? v->bench_depth : BENCH_DEFAULT_DEPTH;
}

/* Search the current position of g; print one line; return its nodes. */
static uint64_t bench_position(const Game *g, int index, int depth, FILE *out)
{
    const Variant *v = g->variant;
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.depth = depth;
    SearchOptions options = {1, 1, NULL, NULL};
    search_clear();
    SearchResult r = search_run(g, &limits, &options, NULL, NULL, NULL);
    char score[32], best[MOVE_STR_MAX] = "(none)";
    search_format_score(r.score, score);
    if (r.best != MOVE_NONE)
        v->move_str(&g->pos, r.best, best);
    fprintf(out, "bench %-14s #%d depth %2d nodes %10" PRIu64 " score %-10s best %s\n",
            v->name, index, r.depth, r.nodes, score, best);
    return r.nodes;
}

/* The game's own bench positions; how many were searched (a FEN the game
 * rejects is reported and skipped). */
static int bench_fens(Game *g, int depth, uint64_t *total, FILE *out)
{
    int searched = 0;
    for (int k = 0; g->variant->bench_fens[k]; k++) {
        char err[128];
        if (!game_set_fen(g, g->variant->bench_fens[k], err, sizeof err)) {
            fprintf(out, "bench %-14s #%d rejected: %s\n", g->variant->name, k + 1, err);
            continue;
        }
        *total += bench_position(g, k + 1, depth, out);
        searched++;
    }
    return searched;
}

/* Positions of a seeded random playout from the start; how many were
 * searched. */
static int bench_playout(Game *g, int depth, uint64_t *total, FILE *out)
{
    const Variant *v = g->variant;
    Move moves[MAX_MOVES];
    uint64_t rng = BENCH_SEED;
    int searched = 0;
    for (int k = 0; k < BENCH_PLAYOUTS; k++) {
        while (g->ply < BENCH_PLIES[k]) {
            int n = game_result(g, NULL, NULL) == RESULT_NONE ? v->generate(&g->pos, moves) : 0;
            if (n <= 0)
                return searched;
            game_play(g, moves[util_random_below(&rng, (uint64_t)n)]);
        }
        if (game_result(g, NULL, NULL) != RESULT_NONE)
            return searched; /* a finished game has nothing more to search */
        *total += bench_position(g, k + 1, depth, out);
        searched++;
    }
    return searched;
}

uint64_t bench_run(int depth, FILE *out)
{
    size_t old_mb = tt_size_mb();
    search_set_hash(BENCH_HASH_MB);
    uint64_t total = 0;
    int64_t start = util_now_ms();
    int positions = 0;
    for (int vi = 0; vi < variants_count(); vi++) {
        const Variant *v = variants_get(vi);
        int d = depth > 0 ? depth : default_depth(v);
        GameConfig cfg = {DEFAULT_MOVE_LIMIT};
        Game g;
        game_init(&g, v, &cfg);
        total += bench_position(&g, 0, d, out);
        positions++;
        if (v->bench_fens)
            positions += bench_fens(&g, d, &total, out);
        else
            positions += bench_playout(&g, d, &total, out);
        game_free(&g);
    }
    int64_t ms = util_now_ms() - start;
    fprintf(out, "Positions: %d\n", positions);
    fprintf(out, "Time (ms): %" PRId64 "\n", ms);
    fprintf(out, "Nodes searched: %" PRIu64 "\n", total);
    fprintf(out, "Nodes/second: %" PRIu64 "\n",
            ms > 0 ? total * 1000 / (uint64_t)ms : total * 1000);
    if (old_mb)
        search_set_hash(old_mb);
    return total;
}
