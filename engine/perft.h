/* perft.h - counting legal move sequences. */
#ifndef SIGIL_PERFT_H
#define SIGIL_PERFT_H

#include "variant.h"

#include <stdbool.h>

/* Number of legal move sequences of length depth from pos (rolls count as
 * plies; repetition is not applied).  Uses the game's own fast perft when it
 * has one, else the generic copy-make walk, counting the last ply with the
 * game's count_moves() where it has one. */
uint64_t perft_count(const Variant *v, const Position *pos, int depth);

/* The generic walk, always through generate()/make() and nothing else: the
 * reference the tests compare the fast counts with. */
uint64_t perft_generic(const Variant *v, const Position *pos, int depth);

/* The number of leaves of perft depth from pos, estimated (within a few
 * times, either way) from the exact counts of the first two or three plies
 * and their growth; exact up to depth 2, and 3 when the first two plies are
 * small.  Costs at most a perft 3 of a position whose perft 2 is at most
 * PERFT_ESTIMATE_COUNT. */
#define PERFT_ESTIMATE_COUNT 4096
uint64_t perft_estimate(const Variant *v, const Position *pos, int depth);

/* A table of counts already made: perft of (position, depth) is a function
 * of the position's bytes alone (the contract of variant.h), so an entry
 * keeps the position whole and a hit is exact, never a hash match.  Used by
 * a long perft for the subtrees it counts more than once (transpositions).
 * perft_cache_new returns NULL when there is no memory for it (the walk then
 * counts every subtree). */
typedef struct PerftCache PerftCache;
PerftCache *perft_cache_new(const Variant *v);
void perft_cache_free(PerftCache *c);
/* The count of pos to depth if the table has it. */
bool perft_cache_get(const PerftCache *c, const Position *pos, int depth, uint64_t *count);
void perft_cache_put(PerftCache *c, const Position *pos, int depth, uint64_t count);
/* A perft this deep or deeper is counted through a cache (below that the
 * table costs more than it saves). */
#define PERFT_CACHE_MIN_PERFT 8
/* Subtrees at least this deep are looked up and kept. */
#define PERFT_CACHE_MIN_DEPTH 3
/* perft_count through cache c (NULL: perft_count): subtrees down to
 * PERFT_CACHE_LEAF_DEPTH plies are walked move by move, smaller ones are
 * perft_count's. */
#define PERFT_CACHE_LEAF_DEPTH 4
uint64_t perft_count_cached(const Variant *v, const Position *pos, int depth, PerftCache *c);

#endif
