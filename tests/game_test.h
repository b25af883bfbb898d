/* game_test.h - helpers the per-game Check suites share.  The interface
 * checks every game must pass (FEN and notation round trips, keys, perft,
 * results) are not here but in the contract suite (tests/contract.c). */
#ifndef SIGIL_GAME_TEST_H
#define SIGIL_GAME_TEST_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "variant.h"

/* The position of fen under the default rules; the test fails if the game
 * rejects it. */
static inline Position game_test_fen(const Variant *v, const char *fen)
{
    Position p;
    char err[128] = "";
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    ck_assert_msg(v->from_fen(&p, fen, &cfg, err, sizeof err),
                  "FEN '%s' rejected: %s", fen, err);
    return p;
}

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

/* qsort order of an array of C strings (char *). */
static inline int game_test_cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The texts of the legal moves of p that start with prefix ("" for all),
 * sorted, joined by single spaces, into out (size bytes; the test fails if
 * they do not fit). */
static inline void game_test_moves_text(const Variant *v, const Position *p, const char *prefix,
                                        char *out, size_t size)
{
    static char texts[MAX_MOVES][MOVE_STR_MAX];
    char *sorted[MAX_MOVES];
    Move moves[MAX_MOVES];
    int n = v->generate(p, moves), k = 0;
    size_t plen = strlen(prefix);
    for (int i = 0; i < n; i++) {
        v->move_str(p, moves[i], texts[k]);
        if (strncmp(texts[k], prefix, plen) == 0) {
            sorted[k] = texts[k];
            k++;
        }
    }
    qsort(sorted, (size_t)k, sizeof *sorted, game_test_cmp_str);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < k; i++) {
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", sorted[i]);
        ck_assert_msg(used < size, "move list too long");
    }
}

/* Both counting sums, read from describe() ("count white W black B"). */
static inline void game_test_counts(const Variant *v, const Position *p, int *white, int *black)
{
    char buf[128];
    v->describe(p, buf, sizeof buf);
    ck_assert_int_eq(sscanf(buf, "count white %d black %d", white, black), 2);
}

#endif
