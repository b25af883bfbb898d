/* perft.h - counting legal move sequences. */
#ifndef SIGIL_PERFT_H
#define SIGIL_PERFT_H

#include "variant.h"

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

#endif
