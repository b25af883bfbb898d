/* timeman.h - how long to think about one move. */
#ifndef SIGIL_TIMEMAN_H
#define SIGIL_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "search.h"

/* The time-management numbers.  None is tuned by an SPRT; what each was
 * measured with, or why it was chosen, is beside it.  The soft/hard factors
 * and the reserve were checked together in six self-play games of the
 * longest game (a move limit of 120 a side) at 10 s + 0.1 s (doc/search.md, "Limits and time", gives the command): no
 * game lost on time (four of six before), 0.16-0.18 s spent per move of the
 * 0.185 s available. */

/* Default of option Move Overhead: ms kept back from every clock for the time
 * it takes the move to reach the other side (process and pipe latency).  Not
 * tuned: a pipe round trip and a process wake-up take well under a
 * millisecond; 20 leaves room for a loaded machine. */
#define TIMEMAN_DEFAULT_OVERHEAD_MS 20
/* The overhead never takes more than 1/TIMEMAN_OVERHEAD_MAX_DIVISOR of the
 * clock, so a nearly empty clock still leaves time to think. */
#define TIMEMAN_OVERHEAD_MAX_DIVISOR 2
/* Moves the remaining clock is spread over when neither `movestogo` nor an
 * estimate of the game's length (SearchLimits.moves_left) is known.  Not
 * tuned: the usual sudden-death assumption of chess engines; every game
 * here gives an estimate, so it applies only to a game without one. */
#define TIMEMAN_DEFAULT_MOVES 30
/* The clock is never spread over more moves than this.  Not tuned: it keeps
 * the first moves of a long game from getting crumbs. */
#define TIMEMAN_MAX_MOVES 50
/* Moves added to the game's own estimate of its length, so that the clock
 * is not planned down to nothing on the last move (latency, estimates that
 * fall short).  Measured with the self-play games above. */
#define TIMEMAN_RESERVE_MOVES 5
/* The increment's share of the target: TIMEMAN_INC_NUMERATOR /
 * TIMEMAN_INC_DENOMINATOR (three quarters; the rest keeps the clock from
 * draining when moves overrun).  Not tuned. */
#define TIMEMAN_INC_NUMERATOR 3
#define TIMEMAN_INC_DENOMINATOR 4
/* No new iteration starts after target / TIMEMAN_SOFT_DIVISOR (the next one
 * would take longer than all before it together); the running one is
 * abandoned at target * TIMEMAN_HARD_FACTOR, but never past
 * 1/TIMEMAN_HARD_CEILING_DIVISOR of the usable clock (all of it on the last
 * move before a time control).  So a move costs the target on average:
 * measured with the self-play games above. */
#define TIMEMAN_SOFT_DIVISOR 2
#define TIMEMAN_HARD_FACTOR 2
#define TIMEMAN_HARD_CEILING_DIVISOR 2

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
