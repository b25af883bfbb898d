/* timeman.h - how long to think about one move. */
#ifndef SIGIL_TIMEMAN_H
#define SIGIL_TIMEMAN_H

#include <stdbool.h>
#include <stdint.h>

#include "search_types.h"

/* The time-management numbers.  The ones that shape play were measured
 * under a clock (doc/search.md, "Time management measured"); the others are
 * margins and bounds, and what each guards against is beside it. */

/* Default of option Move Overhead: ms kept back from every clock for the time
 * it takes the move to reach the other side (process and pipe latency).  A
 * safety margin: a pipe round trip and a process wake-up take well under a
 * millisecond; 20 leaves room for a loaded machine. */
#define TIMEMAN_DEFAULT_OVERHEAD_MS 20
/* The overhead never takes more than 1/TIMEMAN_OVERHEAD_MAX_DIVISOR of the
 * clock, so a nearly empty clock still leaves time to think. */
#define TIMEMAN_OVERHEAD_MAX_DIVISOR 2
/* Moves the remaining clock is spread over when neither `movestogo` nor an
 * estimate of the game's length (SearchLimits.moves_left) is known: the
 * usual sudden-death assumption of chess engines.  Not measurable here:
 * every registered game gives an estimate, so it applies only to a game
 * without one. */
#define TIMEMAN_DEFAULT_MOVES 30
/* The clock is never spread over more moves than this, so the first moves
 * of a long game do not get crumbs. */
#define TIMEMAN_MAX_MOVES 30 /* SPRTs: doc/search.md, "Time management measured" */
/* Moves added to the game's own estimate of its length, so that the clock
 * is not planned down to nothing on the last move (latency, estimates that
 * fall short): a margin.  With no reserve and the old factors (soft = the
 * target, hard four times it), four of six self-play games of the race game
 * at 10 s + 0.1 s were lost on time; none with the reserve and the factors
 * below (doc/search.md, "Limits and time"). */
#define TIMEMAN_RESERVE_MOVES 5
/* The increment's share of the target: TIMEMAN_INC_NUMERATOR /
 * TIMEMAN_INC_DENOMINATOR (three quarters; the rest keeps the clock from
 * draining when moves overrun).  A margin, kept from the old rule; not
 * measured by an SPRT. */
#define TIMEMAN_INC_NUMERATOR 3
#define TIMEMAN_INC_DENOMINATOR 4
/* No new iteration starts after target / TIMEMAN_SOFT_DIVISOR (the next one
 * would take longer than all before it together); the running one is
 * abandoned at target * TIMEMAN_HARD_FACTOR, but never past
 * 1/TIMEMAN_HARD_CEILING_DIVISOR of the usable clock (all of it on the last
 * move before a time control).  So a move costs the target on average.
 * The ceiling is a bound: one move never spends more than half of what is
 * left. */
#define TIMEMAN_SOFT_DIVISOR 2 /* SPRTs: doc/search.md, "Time management measured" */
#define TIMEMAN_HARD_FACTOR 2  /* doc/search.md, "Limits and time", every SPRT's */
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
