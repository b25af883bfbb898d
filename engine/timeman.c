/* timeman.c - soft and hard time limits from movetime or the clock.
 *
 * Clock play: spread the usable time (clock minus a latency margin) over the
 * moves to go (30 when not given), add three quarters of the increment, and
 * allow the running iteration to overrun that by up to four times, but never
 * past half of the usable time (all of it on the last move before a time
 * control).  The search stops starting iterations at the soft limit and
 * aborts at the hard one, so it never loses on time while it is fed.
 */
#include "timeman.h"

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* The latency margin: the fixed overhead, but at most half of what there is,
 * so that a nearly empty clock still leaves something to think with. */
static int64_t overhead_for(int64_t available)
{
    return min64(TIMEMAN_OVERHEAD_MS, max64(available, 0) / 2);
}

TimeBudget timeman_allocate(const SearchLimits *limits, int side)
{
    TimeBudget b = {false, 0, 0};
    if (limits->infinite)
        return b;
    if (limits->movetime > 0) {
        int64_t hard = max64(limits->movetime - overhead_for(limits->movetime), 1);
        b.timed = true;
        b.soft_ms = hard;
        b.hard_ms = hard;
        return b;
    }
    if (side < 0 || side > 1 || limits->time[side] < 0)
        return b;
    int64_t clock = limits->time[side];
    int64_t inc = max64(limits->inc[side], 0);
    int64_t usable = max64(clock - overhead_for(clock), 0);
    int moves = limits->movestogo > 0 ? limits->movestogo : TIMEMAN_DEFAULT_MOVES;
    if (moves > 50)
        moves = 50;
    int64_t soft = usable / moves + inc * 3 / 4;
    int64_t ceiling = moves == 1 ? usable : usable / 2;
    int64_t hard = min64(soft * 4, ceiling);
    b.timed = true;
    b.hard_ms = max64(hard, 1);
    b.soft_ms = max64(min64(soft, b.hard_ms), 1);
    return b;
}
