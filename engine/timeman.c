/* timeman.c - soft and hard time limits from movetime or the clock.
 *
 * Clock play: the target is the usable time (clock minus a latency margin)
 * spread over the moves still to play before the next time control or the
 * end of the game (movestogo, or the game's estimate of its remaining length
 * plus a reserve of 5, or 30; at most 30), plus three quarters of the
 * increment.  The search
 * starts no iteration after half the target (the next one would take longer
 * than all before it together) and abandons the running one at twice the
 * target, but never past half of the usable time (all of it on the last move
 * before a time control); so a move costs about the target on average and
 * the clock does not drain faster than the increment refills it.  Every
 * operation saturates: a GUI may send any 64-bit number.
 */
#include "timeman.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

static int64_t add_sat(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_add_overflow(a, b, &r) ? (b > 0 ? INT64_MAX : INT64_MIN) : r;
}

static int64_t mul_sat(int64_t a, int64_t b)
{
    int64_t r;
    return __builtin_mul_overflow(a, b, &r) ? ((a < 0) != (b < 0) ? INT64_MIN : INT64_MAX) : r;
}

/* The latency margin: the overhead, but at most half of what there is, so
 * that a nearly empty clock still leaves something to think with. */
static int64_t overhead_for(const SearchLimits *limits, int64_t available)
{
    return min64(max64(limits->move_overhead, 0), max64(available, 0) / TIMEMAN_OVERHEAD_MAX_DIVISOR);
}

static bool clock_given(const SearchLimits *limits)
{
    return limits->time[0] >= 0 || limits->time[1] >= 0 || limits->inc[0] > 0 ||
           limits->inc[1] > 0 || limits->movestogo > 0;
}

TimeBudget timeman_allocate(const SearchLimits *limits, int side)
{
    TimeBudget b = {false, 0, 0};
    if (limits->infinite)
        return b;
    if (limits->movetime > 0) {
        int64_t hard = max64(limits->movetime - overhead_for(limits, limits->movetime), 1);
        b.timed = true;
        b.soft_ms = hard;
        b.hard_ms = hard;
        return b;
    }
    if (side < 0 || side > 1 || !clock_given(limits))
        return b;
    int64_t clock = max64(limits->time[side], 0);
    int64_t inc = max64(limits->inc[side], 0);
    int64_t usable = clock - overhead_for(limits, clock);
    int moves = limits->movestogo > 0 ? limits->movestogo : 0;
    if (limits->moves_left > 0) {
        /* The game ends before the time control: spread the clock over its
         * end, with a reserve. */
        int64_t left = (int64_t)limits->moves_left + TIMEMAN_RESERVE_MOVES;
        if (moves == 0 || left < moves)
            moves = (int)min64(left, TIMEMAN_MAX_MOVES);
    }
    if (moves == 0)
        moves = TIMEMAN_DEFAULT_MOVES;
    if (moves > TIMEMAN_MAX_MOVES)
        moves = TIMEMAN_MAX_MOVES;
    /* inc * NUMERATOR / DENOMINATOR without overflow */
    int64_t inc_share = inc / TIMEMAN_INC_DENOMINATOR * TIMEMAN_INC_NUMERATOR +
                        inc % TIMEMAN_INC_DENOMINATOR * TIMEMAN_INC_NUMERATOR / TIMEMAN_INC_DENOMINATOR;
    int64_t target = add_sat(usable / moves, inc_share);
    int64_t soft = target / TIMEMAN_SOFT_DIVISOR;
    int64_t ceiling = limits->movestogo == 1 ? usable : usable / TIMEMAN_HARD_CEILING_DIVISOR;
    int64_t hard = min64(mul_sat(target, TIMEMAN_HARD_FACTOR), ceiling);
    b.timed = true;
    b.hard_ms = max64(hard, 1);
    b.soft_ms = max64(min64(soft, b.hard_ms), 1);
    return b;
}
