/* timeman.h - how long to think about one move. */
#ifndef SIGIL_TIMEMAN_H
#define SIGIL_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "search.h"

/* Default of option Move Overhead: ms kept back from every clock for the time
 * it takes the move to reach the other side (process and pipe latency). */
#define TIMEMAN_DEFAULT_OVERHEAD_MS 20
/* Moves the remaining clock is spread over when neither `movestogo` nor an
 * estimate of the game's length (SearchLimits.moves_left) is known. */
#define TIMEMAN_DEFAULT_MOVES 30
/* The clock is never spread over more moves than this. */
#define TIMEMAN_MAX_MOVES 50
/* Moves added to the game's own estimate of its length, so that the clock
 * is not planned down to nothing on the last move (latency, estimates that
 * fall short). */
#define TIMEMAN_RESERVE_MOVES 5

/* The time a search may use, in ms from its start. */
typedef struct TimeBudget {
    bool timed;      /* false: no time limit (depth, nodes or infinite only) */
    int64_t soft_ms; /* no new iteration starts after this */
    int64_t hard_ms; /* the running iteration is abandoned at this */
} TimeBudget;

/* The budget for the side `side` (WHITE/BLACK) under limits.  `movetime`
 * wins over the clock (soft = hard); with a clock, soft is half and hard
 * twice the move's target time.  `infinite` means untimed.  Any clock value (either
 * side's time or increment, or movestogo) makes the search timed: a missing
 * time of the mover counts as an empty clock.  soft <= hard, both >= 1, and
 * hard never exceeds the clock minus the overhead (or half of the clock when
 * that is smaller than the overhead).  Exact for every int64 input: the
 * arithmetic saturates instead of overflowing. */
TimeBudget timeman_allocate(const SearchLimits *limits, int side);

#endif
