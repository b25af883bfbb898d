/* check_timeman.c - time management (timeman.c): the budget of a move for
 * every kind of limit, exact for any 64-bit input. */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "core_test.h"
#include "search.h"
#include "timeman.h"

START_TEST(test_timeman_untimed)
{
    SearchLimits l;
    search_limits_clear(&l);
    ck_assert(!timeman_allocate(&l, WHITE).timed);
    l.depth = 5;
    l.nodes = 1000;
    ck_assert(!timeman_allocate(&l, WHITE).timed);
    l.time[WHITE] = 5000;
    l.infinite = true;
    ck_assert(!timeman_allocate(&l, WHITE).timed);
}
END_TEST

START_TEST(test_timeman_a_clock_for_the_opponent_only_is_an_empty_clock)
{
    /* `go btime 100` with White to move: White's missing time is none, so
     * the search gets the 1 ms of an empty clock, never unlimited time. */
    SearchLimits l;
    search_limits_clear(&l);
    l.time[BLACK] = 100;
    TimeBudget b = timeman_allocate(&l, WHITE);
    ck_assert(b.timed);
    ck_assert_int_eq(b.hard_ms, 1);
    ck_assert_int_eq(b.soft_ms, 1);
    /* A lone movestogo, or the opponent's increment, is a clock too. */
    search_limits_clear(&l);
    l.movestogo = 1;
    b = timeman_allocate(&l, BLACK);
    ck_assert(b.timed);
    ck_assert_int_eq(b.hard_ms, 1);
    search_limits_clear(&l);
    l.inc[BLACK] = 1000;
    b = timeman_allocate(&l, WHITE);
    ck_assert(b.timed);
    ck_assert_int_eq(b.hard_ms, 1);
    /* The mover's own increment on an empty clock: still at most half the
     * (empty) clock, so 1 ms. */
    l.inc[WHITE] = 1000;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).hard_ms, 1);
}
END_TEST

START_TEST(test_timeman_saturates_for_any_64_bit_input)
{
    SearchLimits l;
    search_limits_clear(&l);
    /* The overflow a GUI could trigger: go wtime 2^61-1 winc 2^61-1 movestogo 1. */
    l.time[WHITE] = 2305843009213693951LL;
    l.inc[WHITE] = 2305843009213693951LL;
    l.movestogo = 1;
    TimeBudget b = timeman_allocate(&l, WHITE);
    ck_assert(b.timed);
    int64_t usable = 2305843009213693951LL - TIMEMAN_DEFAULT_OVERHEAD_MS;
    ck_assert_int_eq(b.hard_ms, usable);
    ck_assert_int_eq(b.soft_ms, (usable + 2305843009213693951LL / 4 * 3 + 3 * 3 / 4) / 2);
    /* The extremes: clock and increment at INT64_MAX, every movestogo. */
    static const int64_t big[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX / 2, INT64_MAX / 3 + 7,
                                  (int64_t)1 << 62, 1, 0};
    static const int mtg[] = {0, 1, 2, 3, 50, 51, 1000000, INT32_MAX};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        for (size_t k = 0; k < sizeof big / sizeof *big; k++)
            for (size_t m = 0; m < sizeof mtg / sizeof *mtg; m++) {
                search_limits_clear(&l);
                l.time[BLACK] = big[i];
                l.inc[BLACK] = big[k];
                l.movestogo = mtg[m];
                l.moves_left = mtg[(m + 3) % 8];
                b = timeman_allocate(&l, BLACK);
                ck_assert(b.timed);
                ck_assert_int_ge(b.soft_ms, 1);
                ck_assert_int_le(b.soft_ms, b.hard_ms);
                int64_t margin = big[i] / 2 < TIMEMAN_DEFAULT_OVERHEAD_MS
                                     ? big[i] / 2 : TIMEMAN_DEFAULT_OVERHEAD_MS;
                ck_assert_int_le(b.hard_ms, big[i] - margin > 1 ? big[i] - margin : 1);
            }
    /* movetime and the overhead at the extremes. */
    search_limits_clear(&l);
    l.movetime = INT64_MAX;
    l.move_overhead = INT64_MAX;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.hard_ms, INT64_MAX - INT64_MAX / 2);
}
END_TEST

START_TEST(test_timeman_move_overhead_and_game_length)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.time[WHITE] = 60000;
    l.move_overhead = 1000;
    TimeBudget b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 59000 / 30 / 2); /* the overhead comes off first */
    l.move_overhead = 0;
    l.movetime = 500;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.hard_ms, 500);
    /* The game's own estimate of its length replaces the 30 moves ... */
    l.movetime = 0;
    l.moves_left = 10; /* and 5 in reserve */
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 2000);
    ck_assert_int_eq(b.hard_ms, 8000);
    /* ... but never spreads the clock over more than 30 moves ... */
    l.moves_left = 400;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 60000 / 30 / 2);
    /* ... and a game ending before the time control wins over movestogo. */
    l.moves_left = 5;
    l.movestogo = 20;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 3000);
    l.moves_left = 60;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 60000 / 20 / 2);
    /* movestogo is capped like the game's estimate. */
    l.movestogo = 40;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 60000 / 30 / 2);
    /* The last estimated move still has the reserve of 5 moves; only
     * movestogo 1 (a time control right after the move) may use all of the
     * clock. */
    l.movestogo = 0;
    l.moves_left = 1;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 5000);
    ck_assert_int_eq(b.hard_ms, 20000);
    l.movestogo = 1;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 30000);
    ck_assert_int_eq(b.hard_ms, 60000);
}
END_TEST

START_TEST(test_timeman_movetime)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.movetime = 1000;
    TimeBudget b = timeman_allocate(&l, BLACK);
    ck_assert(b.timed);
    ck_assert_int_eq(b.soft_ms, 980);
    ck_assert_int_eq(b.hard_ms, 980);
    l.movetime = 10; /* the margin shrinks to half */
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.hard_ms, 5);
    l.movetime = 1;
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.hard_ms, 1);
}
END_TEST

START_TEST(test_timeman_clock)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.time[WHITE] = 60000;
    TimeBudget b = timeman_allocate(&l, WHITE);
    /* 59980 usable over 30 moves: a target of 1999, half of it soft, twice
     * it hard. */
    ck_assert_int_eq(b.soft_ms, 999);
    ck_assert_int_eq(b.hard_ms, 3998);
    /* Increment: three quarters added, but never past half the clock. */
    l.time[BLACK] = 1000;
    l.inc[BLACK] = 2000;
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.hard_ms, 490);
    ck_assert_int_eq(b.soft_ms, 490);
    l.time[BLACK] = 30000;
    l.inc[BLACK] = 400;
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.soft_ms, (29980 / 30 + 300) / 2);
    ck_assert_int_eq(b.hard_ms, (29980 / 30 + 300) * 2);
    /* movestogo */
    l.movestogo = 10;
    l.time[WHITE] = 10000;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 499);
    ck_assert_int_eq(b.hard_ms, 1996);
    l.movestogo = 1;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 4990);
    ck_assert_int_eq(b.hard_ms, 9980);
    /* An empty clock still gives 1 ms to find a move. */
    l.movestogo = 0;
    l.time[WHITE] = 0;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 1);
    ck_assert_int_eq(b.hard_ms, 1);
}
END_TEST

START_TEST(test_timeman_never_past_the_clock)
{
    SearchLimits l;
    search_limits_clear(&l);
    for (int64_t t = 0; t < 200000; t = t * 3 / 2 + 1)
        for (int64_t inc = 0; inc <= 5000; inc += 1000)
            for (int mtg = 0; mtg <= 60; mtg += 7) {
                l.time[WHITE] = t;
                l.inc[WHITE] = inc;
                l.movestogo = mtg;
                TimeBudget b = timeman_allocate(&l, WHITE);
                ck_assert(b.timed);
                ck_assert_int_ge(b.soft_ms, 1);
                ck_assert_int_le(b.soft_ms, b.hard_ms);
                int64_t margin = t / 2 < TIMEMAN_DEFAULT_OVERHEAD_MS ? t / 2 : TIMEMAN_DEFAULT_OVERHEAD_MS;
                ck_assert_int_le(b.hard_ms, t - margin > 1 ? t - margin : 1);
            }
}
END_TEST

/* ============================================================== runner */

int main(void)
{
    Suite *s = suite_create("timeman");
    TCase *tc = tcase_create("timeman");
    tcase_add_test(tc, test_timeman_untimed);
    tcase_add_test(tc, test_timeman_a_clock_for_the_opponent_only_is_an_empty_clock);
    tcase_add_test(tc, test_timeman_saturates_for_any_64_bit_input);
    tcase_add_test(tc, test_timeman_move_overhead_and_game_length);
    tcase_add_test(tc, test_timeman_movetime);
    tcase_add_test(tc, test_timeman_clock);
    tcase_add_test(tc, test_timeman_never_past_the_clock);
    suite_add_tcase(s, tc);
    return core_test_run(s);
}
