/* game_test.h - helpers the per-game Check suites share. */
#ifndef SIGIL_GAME_TEST_H
#define SIGIL_GAME_TEST_H

#include <check.h>
#include <stdio.h>

#include "variant.h"

/* The position after the legal move named by text; the test fails if the
 * text names no legal move. */
static inline Position game_test_play(const Variant *v, const Position *p, const char *text)
{
    Move m = v->parse_move(p, text);
    ck_assert_msg(m != MOVE_NONE, "move %s not legal", text);
    Position c;
    v->make(p, m, &c);
    return c;
}

/* Both counting sums, read from describe() ("count white W black B"). */
static inline void game_test_counts(const Variant *v, const Position *p, int *white, int *black)
{
    char buf[128];
    v->describe(p, buf, sizeof buf);
    ck_assert_int_eq(sscanf(buf, "count white %d black %d", white, black), 2);
}

#endif
