/* check_alexander.c - the rules of "Alexander the Great" (doc/rules.md, Alexander),
 * one test per rule, then notation, FEN, perft and the exact values. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game_test.h"
#include "games/alexander.h"
#include "perft.h"
#include "util.h"
#include "variants.h"

static const Variant *V; /* set by setup() */
static const GameConfig CFG = {DEFAULT_MOVE_LIMIT};

#define START_FEN "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0"

/* Start values (White to roll), exact by an independent Python computation
 * with fractions.Fraction:
 *   P(White wins)        = 0.53500140196475773861589177862844667277...
 *   E[margin for White]  = 12/35 = 0.34285714285714285714...
 * To 10 decimals: 0.5350014020 and 0.3428571429. */
#define START_WIN 0.53500140196475773862L
#define START_MARGIN (12.0L / 35.0L)

/* Check's ck_assert_* records a checkpoint through the parent process on
 * every call (a system call each), so loops that assert millions of times use
 * REQUIRE, which only talks to Check on failure. */
#define REQUIRE(cond, ...)               \
    do {                                 \
        if (!(cond))                     \
            ck_abort_msg(__VA_ARGS__);   \
    } while (0)

static void setup(void)
{
    variants_init();
    V = variants_find("alexander");
    ck_assert_ptr_nonnull(V);
}

static Position fen_pos(const char *fen) { return game_test_fen(V, fen); }

static Position start_pos(void)
{
    Position p;
    V->startpos(&p, &CFG);
    return p;
}

/* All legal moves of p as text, space-separated, in generation order. */
static void moves_text(const Position *p, char *out, size_t size)
{
    Move m[MAX_MOVES];
    int n = V->generate(p, m);
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        char s[MOVE_STR_MAX];
        V->move_str(p, m[i], s);
        used += (size_t)snprintf(out + used, size - used, "%s%s", i ? " " : "", s);
        REQUIRE(used < size, "move list too long");
    }
}

static Position play(const Position *p, const char *text) { return game_test_play(V, p, text); }

static void assert_fen(const Position *p, const char *want)
{
    char f[FEN_MAX];
    V->to_fen(p, f);
    REQUIRE(strcmp(f, want) == 0, "FEN %s, want %s", f, want);
}

static void assert_moves(const Position *p, const char *want)
{
    char buf[4096];
    moves_text(p, buf, sizeof buf);
    ck_assert_str_eq(buf, want);
}

static void assert_all_noisy(const Position *p, bool noisy)
{
    Move m[MAX_MOVES];
    int n = V->generate(p, m);
    ck_assert_int_gt(n, 0);
    for (int i = 0; i < n; i++)
        ck_assert(V->is_noisy(p, m[i]) == noisy);
}

static long double white_margin(const Position *p)
{
    long double m;
    alexander_white_values(p, NULL, &m);
    return m;
}

static long double white_wins(const Position *p)
{
    long double w;
    alexander_white_values(p, &w, NULL);
    return w;
}

/* ------------------------------------------------------------ the rules */

START_TEST(test_phalanx_start_white_ranks_1_2_black_ranks_5_6)
{
    Position p = start_pos();
    assert_fen(&p, START_FEN);
    ck_assert_int_eq(V->side_to_move(&p), WHITE);
    ck_assert(V->is_chance(&p));
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    ck_assert_str_eq(V->name, "alexander");
    ck_assert(!V->repetition_draws);
}
END_TEST

START_TEST(test_roll_names_one_of_36_equally_likely_squares)
{
    Position p = start_pos();
    assert_moves(&p, "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3 "
                     "a4 b4 c4 d4 e4 f4 a5 b5 c5 d5 e5 f5 a6 b6 c6 d6 e6 f6");
    assert_all_noisy(&p, false);
    Move m[MAX_MOVES];
    int n = V->generate(&p, m);
    for (int i = 0; i < n; i++) {
        Position c;
        V->make(&p, m[i], &c);
        ck_assert(!V->is_chance(&c));                  /* the roll is pending */
        ck_assert_int_eq(V->side_to_move(&c), WHITE);  /* for the roller */
    }
    Position c = play(&p, "c4");
    assert_fen(&c, "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w c4 0 0");
}
END_TEST

START_TEST(test_enemy_square_any_own_piece_moves_on_and_captures)
{
    Position r = play((Position[]){start_pos()}, "c5");
    assert_moves(&r, "a1c5 b1c5 c1c5 d1c5 e1c5 f1c5 a2c5 b2c5 c2c5 d2c5 e2c5 f2c5");
    assert_all_noisy(&r, true);
    Position c = play(&r, "a1c5");
    assert_fen(&c, "bbbbbb/bbwbbb/6/6/wwwwww/1wwwww b - 1 0");
    ck_assert(V->is_chance(&c));
    ck_assert_int_eq(V->side_to_move(&c), BLACK);
}
END_TEST

START_TEST(test_empty_square_any_own_piece_moves_there)
{
    Position r = play((Position[]){start_pos()}, "c4");
    assert_moves(&r, "a1c4 b1c4 c1c4 d1c4 e1c4 f1c4 a2c4 b2c4 c2c4 d2c4 e2c4 f2c4");
    assert_all_noisy(&r, false);
    Position c = play(&r, "f2c4");
    assert_fen(&c, "bbbbbb/bbbbbb/2w3/6/wwwww1/wwwwww b - 0 0");
}
END_TEST

START_TEST(test_own_square_piece_flies_to_capture_any_enemy)
{
    Position r = play((Position[]){start_pos()}, "c2");
    assert_moves(&r, "c2a5 c2b5 c2c5 c2d5 c2e5 c2f5 c2a6 c2b6 c2c6 c2d6 c2e6 c2f6");
    assert_all_noisy(&r, true);
    /* Only the piece on the rolled square flies, and only onto an enemy. */
    ck_assert(V->parse_move(&r, "c2c4") == MOVE_NONE);
    ck_assert(V->parse_move(&r, "a1e6") == MOVE_NONE);
    Position c = play(&r, "c2e6");
    assert_fen(&c, "bbbbwb/bbbbbb/6/6/ww1www/wwwwww b - 1 0");
}
END_TEST

START_TEST(test_black_turn_follows_the_same_three_cases)
{
    Position p = fen_pos("bbbbbb/bbbbbb/2w3/6/wwwww1/wwwwww b - 0 0");
    Position own = play(&p, "a6");
    assert_moves(&own, "a6a1 a6b1 a6c1 a6d1 a6e1 a6f1 a6a2 a6b2 a6c2 a6d2 a6e2 a6c4");
    assert_all_noisy(&own, true);
    Position empty = play(&p, "f2");
    assert_moves(&empty, "a5f2 b5f2 c5f2 d5f2 e5f2 f5f2 a6f2 b6f2 c6f2 d6f2 e6f2 f6f2");
    assert_all_noisy(&empty, false);
    Position enemy = play(&p, "a1");
    assert_moves(&enemy, "a5a1 b5a1 c5a1 d5a1 e5a1 f5a1 a6a1 b6a1 c6a1 d6a1 e6a1 f6a1");
    assert_all_noisy(&enemy, true);
    Position c = play(&enemy, "f6a1");
    assert_fen(&c, "bbbbb1/bbbbbb/2w3/6/wwwww1/bwwwww w - 0 1");
    c = play(&own, "a6c4");
    assert_fen(&c, "1bbbbb/bbbbbb/2b3/6/wwwww1/wwwwww w - 0 1");
}
END_TEST

START_TEST(test_game_ends_when_all_enemy_pieces_are_captured)
{
    /* White c2 against Black d4: both the move-on capture and the flying
     * capture end the game; the margin counts the FEN's captures too. */
    Position p = fen_pos("6/6/3b2/6/2w3/6 w - 11 10");
    const char *rolls[] = {"d4", "c2"};
    for (int i = 0; i < 2; i++) {
        Position r = play(&p, rolls[i]);
        assert_moves(&r, "c2d4");
        Position c = play(&r, "c2d4");
        assert_fen(&c, "6/6/3w2/6/6/6 b - 12 10");
        int margin = -99;
        const char *reason = NULL;
        ck_assert_int_eq(V->result(&c, &margin, &reason), RESULT_WHITE_WINS);
        ck_assert_int_eq(margin, 2);
        ck_assert_str_eq(reason, "all enemy pieces captured");
        Move m[MAX_MOVES];
        ck_assert_int_eq(V->generate(&c, m), 0);
        ck_assert_uint_eq(perft_count(V, &c, 1), 0);
    }
    /* An empty square does not end it. */
    Position c = play((Position[]){play(&p, "a1")}, "c2a1");
    ck_assert_int_eq(V->result(&c, NULL, NULL), RESULT_NONE);
    /* Black wins the same way; the winner's margin may even be negative when
     * the FEN says it had captured fewer (its captures minus the loser's). */
    Position b = fen_pos("6/6/3b2/6/2w3/6 b - 7 2");
    c = play((Position[]){play(&b, "d4")}, "d4c2");
    int margin;
    ck_assert_int_eq(V->result(&c, &margin, NULL), RESULT_BLACK_WINS);
    ck_assert_int_eq(margin, 3 - 7);
}
END_TEST

START_TEST(test_a_side_without_pieces_has_lost)
{
    Position p = fen_pos("6/6/6/6/2w3/6 b - 12 3");
    int margin;
    ck_assert_int_eq(V->result(&p, &margin, NULL), RESULT_WHITE_WINS);
    ck_assert_int_eq(margin, 9);
    Move m[MAX_MOVES];
    ck_assert_int_eq(V->generate(&p, m), 0);
    ck_assert_double_eq(alexander_win_probability(&p), 0.0); /* Black to move */
    ck_assert_double_eq(alexander_expected_margin(&p), -9.0);
    ck_assert_int_eq(V->evaluate(&p), -900);
    p = fen_pos("bbb3/6/6/6/6/6 b - 0 5");
    ck_assert_int_eq(V->result(&p, &margin, NULL), RESULT_BLACK_WINS);
    ck_assert_int_eq(margin, 5);
    ck_assert_double_eq(alexander_win_probability(&p), 1.0);
    ck_assert_double_eq(alexander_expected_margin(&p), 5.0);
}
END_TEST

START_TEST(test_capturing_actions_are_noisy)
{
    /* The three cases above assert it per move; here across random games:
     * an action is noisy exactly when it removes an enemy piece. */
    uint64_t rng = 7;
    for (int g = 0; g < 50; g++) {
        Position p = start_pos();
        while (V->result(&p, NULL, NULL) == RESULT_NONE) {
            Move m[MAX_MOVES];
            int n = V->generate(&p, m);
            Move mv = m[util_random_below(&rng, (uint64_t)n)];
            Position c;
            V->make(&p, mv, &c);
            int before = V->side_to_move(&p);
            char f1[FEN_MAX], f2[FEN_MAX];
            V->to_fen(&p, f1);
            V->to_fen(&c, f2);
            int enemy_before = 0, enemy_after = 0;
            char e = before == WHITE ? 'b' : 'w';
            for (char *q = f1; *q != ' '; q++)
                enemy_before += *q == e;
            for (char *q = f2; *q != ' '; q++)
                enemy_after += *q == e;
            REQUIRE(V->is_noisy(&p, mv) == (enemy_after == enemy_before - 1), "noisy %s", f1);
            REQUIRE(enemy_after >= enemy_before - 1, "two captures in %s", f1);
            p = c;
        }
    }
}
END_TEST

/* ------------------------------------------------------ notation and FEN */

START_TEST(test_fen_round_trips)
{
    const char *fens[] = {
        START_FEN,
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w c4 0 0",
        "b2bb1/1b1w1b/w1b3/3w1b/ww2b1/1w3w b - 4 5",
        "6/2b3/6/1w2w1/4b1/w5 w b3 10 9",
        "1b4/b2w2/6/2w3/b5/w3b1 b c2 6 7",
        "wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw w - 0 0",
        "6/6/6/6/2w3/6 b - 12 3",
        "6/6/6/6/6/5b w - 35 0",
    };
    for (size_t i = 0; i < sizeof fens / sizeof *fens; i++) {
        Position p = fen_pos(fens[i]);
        assert_fen(&p, fens[i]);
    }
    /* The roll and the captures may be left out (roll due, 0 captures), and
     * spacing is free; to_fen writes the canonical form. */
    Position p = fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w");
    assert_fen(&p, START_FEN);
    ck_assert_uint_eq(V->key(&p), V->key((Position[]){start_pos()}));
    p = fen_pos("  bbbbbb/bbbbbb/6/6/wwwwww/wwwwww   b  e3 ");
    assert_fen(&p, "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww b e3 0 0");
}
END_TEST

START_TEST(test_fen_rejects_malformed_and_impossible_positions)
{
    static char longfen[3000];
    memset(longfen, 'b', sizeof longfen - 1);
    const char *bad[] = {
        "",
        "   ",
        "bbbbbb/bbbbbb/6/6/wwwwww w - 0 0",               /* 5 ranks */
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww/6 w - 0 0",      /* 7 ranks */
        "bbbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0",       /* 7 squares */
        "bbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0",         /* 5 squares */
        "bbbbbb/bbbbbb/33/6/wwwwww/wwwwww w - 0 0",       /* digits in a row */
        "bbbbbb/bbbbbb/7/6/wwwwww/wwwwww w - 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwwW w - 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwww0 w - 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww",                /* no side */
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww x - 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww white - 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w g1 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w a7 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w a 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w c4c 0 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0",          /* Black's captures */
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - -1 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 1x 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 37 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 100 0",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 13 0",       /* 24 + 13 > 36 */
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 6 7",
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 07 0",       /* leading zero */
        "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0 0",      /* trailing text */
        "6/6/6/6/6/6 w - 0 0",                            /* nobody on board */
        "6/6/6/6/2w3/6 b c2 12 3",                        /* roll after the end */
        "\x01\xff\x80/\x7f w - 0 0",
        longfen,
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        Position p;
        char err[128] = "";
        ck_assert_msg(!V->from_fen(&p, bad[i], &CFG, err, sizeof err), "accepted '%s'", bad[i]);
        ck_assert_msg(err[0] != '\0', "no reason for '%s'", bad[i]);
    }
}
END_TEST

START_TEST(test_notation_rolls_are_squares_actions_are_from_to)
{
    Position p = start_pos();
    /* At a chance node only a square is legal; at a decision node only an
     * action, never the square alone. */
    ck_assert(V->parse_move(&p, "a1c4") == MOVE_NONE);
    Position r = play(&p, "c4");
    ck_assert(V->parse_move(&r, "c4") == MOVE_NONE);
    ck_assert(V->parse_move(&r, "a1c5") == MOVE_NONE); /* not the rolled square */
    ck_assert(V->parse_move(&r, "c4a1") == MOVE_NONE);
    const char *garbage[] = {"", "c", "c44", "a1c4 ", " a1c4", "A1C4", "g1c4", "a0c4",
                             "a1c4x", "0000", "\xff\xfe", "c4\x01", "a1c7"};
    for (size_t i = 0; i < sizeof garbage / sizeof *garbage; i++) {
        ck_assert(V->parse_move(&p, garbage[i]) == MOVE_NONE);
        ck_assert(V->parse_move(&r, garbage[i]) == MOVE_NONE);
    }
    static char huge[10000];
    memset(huge, 'a', sizeof huge - 1);
    ck_assert(V->parse_move(&p, huge) == MOVE_NONE);
    ck_assert(V->parse_move(&p, NULL) == MOVE_NONE);
    /* The example game of the rule book (doc/rules.md). */
    Position g = play((Position[]){play(&p, "c4")}, "a1c4");
    g = play((Position[]){play(&g, "e5")}, "e5b2");
    assert_fen(&g, "bbbbbb/bbbb1b/2w3/6/wbwwww/1wwwww w - 0 1");
}
END_TEST

START_TEST(test_key_covers_side_roll_and_captures)
{
    uint64_t keys[] = {
        V->key((Position[]){fen_pos(START_FEN)}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww b - 0 0")}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w c4 0 0")}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w c5 0 0")}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 1 0")}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 1")}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 1 1")}),
        V->key((Position[]){fen_pos("bbbbbb/bbbbbb/6/2w3/wwwwww/wwwww1 w - 0 0")}),
    };
    int n = sizeof keys / sizeof *keys;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            ck_assert_msg(keys[i] != keys[j], "keys %d and %d collide", i, j);
}
END_TEST

START_TEST(test_diagram_shows_board_roll_captures_and_values)
{
    char d[2048];
    Position p = start_pos();
    V->diagram(&p, d, sizeof d);
    ck_assert_ptr_nonnull(strstr(d, "  6 | b  b  b  b  b  b |\n"));
    ck_assert_ptr_nonnull(strstr(d, "  1 | w  w  w  w  w  w |\n"));
    ck_assert_ptr_nonnull(strstr(d, "      a  b  c  d  e  f\n"));
    ck_assert_ptr_nonnull(strstr(d, "White to roll\n"));
    ck_assert_ptr_nonnull(strstr(d, "Captures: White 0, Black 0"));
    ck_assert_ptr_nonnull(strstr(d, "P(White wins) 0.535001, expected margin for White +0.342857"));
    ck_assert_ptr_nonnull(strstr(d, "Legend:"));
    Position r = play(&p, "c4");
    V->diagram(&r, d, sizeof d);
    ck_assert_ptr_nonnull(strstr(d, "  4 | .  . [.] .  .  . |\n"));
    ck_assert_ptr_nonnull(strstr(d, "White to act: rolled c4"));
    Position e = fen_pos("6/6/6/6/2w3/6 b - 12 3");
    V->diagram(&e, d, sizeof d);
    ck_assert_ptr_nonnull(strstr(d, "Game over: White wins, all enemy pieces captured, margin 9"));
    char small[16];
    V->diagram(&p, small, sizeof small); /* truncates without overflow */
    ck_assert_int_eq((int)strlen(small), 15);
}
END_TEST

/* ---------------------------------------------------------------- perft */

/* Depth 1-2 by hand: 36 rolls.  Each roll of an own square (12) flies to
 * any of 12 enemy pieces, each enemy square (12) or empty square (12) takes
 * any of the 12 own pieces: 3 x 144 = 432.  No turn ends the game, so depth 3
 * is 432 x 36 = 15552.  Depth 4: Black acts with b pieces against a white
 * ones in b*a + a*b + (36-a-b)*b = b(36 + a - b) ways; after the 288 white
 * captures (a=12, b=11) that is 11*37 = 407, after the 144 quiet moves 432:
 * 288*407 + 144*432 = 179424. */
START_TEST(test_perft_counts_rolls_as_plies_from_the_start)
{
    Position p = start_pos();
    const uint64_t want[] = {1, 36, 432, 15552, 179424};
    for (int d = 0; d <= 4; d++) {
        ck_assert_uint_eq(perft_count(V, &p, d), want[d]);
        ck_assert_uint_eq(perft_generic(V, &p, d), want[d]);
    }
}
END_TEST

/* Counts from an independent Python brute force (depth <= 4) that agrees
 * with a counts-only recurrence (all depths); see tests/perft/alexander.txt. */
START_TEST(test_perft_from_custom_arrangements)
{
    static const struct {
        const char *fen;
        uint64_t counts[5]; /* depth 1..5, 0 = skip */
    } cases[] = {
        {"b2bb1/1b1w1b/w1b3/3w1b/ww2b1/1w3w b - 4 5", {36, 280, 10080, 69048, 0}},
        {"6/2b3/6/1w2w1/4b1/w5 w b3 10 9", {2, 72, 76, 2736, 7368}},
        {"1b4/b2w2/6/2w3/b5/w3b1 b c2 6 7", {4, 144, 444, 15984, 59088}},
        {"6/1w2b1/6/3b2/6/w5 w d6 9 10", {2, 72, 144, 5184, 9808}},
        {"wbwbwb/bwbwbw/wbwbwb/bwbwbw/wbwbwb/bwbwbw w - 0 0", {36, 648, 23328, 407592, 0}},
        {"6/6/3b2/6/2w3/6 w - 11 11", {36, 36, 1224, 1224, 41616}},
        {"6/6/6/6/2w3/6 b - 12 3", {0, 0, 0, 0, 0}},
        {"bbbbbb/bbbbbb/bbbbbb/6/6/2w3 b - 0 0", {36, 342, 11016, 16218, 583848}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        Position p = fen_pos(cases[i].fen);
        for (int d = 1; d <= 5; d++) {
            uint64_t want = cases[i].counts[d - 1];
            if (d == 5 && want == 0)
                continue;
            ck_assert_msg(perft_count(V, &p, d) == want, "%s depth %d", cases[i].fen, d);
            if (want < 100000)
                ck_assert_uint_eq(perft_generic(V, &p, d), want);
        }
    }
}
END_TEST

/* --------------------------------------------------------- exact values */

/* 1 against 1, roller to move, p = 2/36 = 1/18 that a turn captures (either
 * square occupied); the roller makes the first capture - which ends the game
 * with margin 1 - with probability p + (1-p)^2 p + ... = p / (1 - (1-p)^2)
 * = 1 / (2 - p) = 18/35.  Expected margin 18/35 - 17/35 = 1/35. */
START_TEST(test_exact_one_against_one)
{
    Position w = fen_pos("6/6/3b2/6/2w3/6 w - 0 0");
    ck_assert_ldouble_eq_tol(white_wins(&w), 18.0L / 35, 1e-18L);
    ck_assert_ldouble_eq_tol(white_margin(&w), 1.0L / 35, 1e-18L);
    ck_assert_double_eq_tol(alexander_win_probability(&w), 18.0 / 35, 1e-15);
    ck_assert_double_eq_tol(alexander_expected_margin(&w), 1.0 / 35, 1e-15);
    Position b = fen_pos("6/6/3b2/6/2w3/6 b - 0 0");
    ck_assert_double_eq_tol(alexander_win_probability(&b), 18.0 / 35, 1e-15);
    ck_assert_double_eq_tol(alexander_expected_margin(&b), 1.0 / 35, 1e-15);
    /* Captures already made shift the margin and nothing else. */
    Position c = fen_pos("6/6/3b2/6/2w3/6 w - 5 3");
    ck_assert_double_eq_tol(alexander_expected_margin(&c), 2 + 1.0 / 35, 1e-14);
    ck_assert_double_eq_tol(alexander_win_probability(&c), 18.0 / 35, 1e-15);
    ck_assert_ldouble_eq_tol(alexander_count_white_wins(1, 1, WHITE), 18.0L / 35, 1e-18L);
    ck_assert_ldouble_eq_tol(alexander_count_white_wins(1, 1, BLACK), 17.0L / 35, 1e-18L);
}
END_TEST

/* 2 White against 1 Black, White to roll: p = 3/36 = 1/12; White captures
 * first (and wins, margin 1) with 1/(2-p) = 12/23; otherwise Black's capture
 * leaves 1 against 1 with White to roll (18/35 win with margin 1-1 = 0, else
 * Black wins 2-0): P(White) = 12/23 + 11/23 * 18/35 = 618/805 and
 * E[margin] = 12/23 - 11/23 * 17/35 * 2 = 46/805 = 2/35.  Black to roll:
 * P(White) = 11/23 + 12/23 * 18/35 ... = 601/805, margin -1/35. */
START_TEST(test_exact_two_against_one)
{
    Position w = fen_pos("6/6/3b2/6/2w2w/6 w - 0 0");
    ck_assert_ldouble_eq_tol(white_wins(&w), 618.0L / 805, 1e-18L);
    ck_assert_ldouble_eq_tol(white_margin(&w), 2.0L / 35, 1e-18L);
    Position b = fen_pos("6/6/3b2/6/2w2w/6 b - 0 0");
    ck_assert_ldouble_eq_tol(white_wins(&b), 601.0L / 805, 1e-18L);
    ck_assert_ldouble_eq_tol(white_margin(&b), -1.0L / 35, 1e-18L);
    ck_assert_double_eq_tol(alexander_win_probability(&b), 204.0 / 805, 1e-15);
    ck_assert_double_eq_tol(alexander_expected_margin(&b), 1.0 / 35, 1e-15);
    /* 1 White against 2 Black (Python fractions): 204/805, 1/35 and 187/805,
     * -2/35 for White to roll / Black to roll. */
    ck_assert_ldouble_eq_tol(alexander_count_white_wins(1, 2, WHITE), 204.0L / 805, 1e-18L);
    ck_assert_ldouble_eq_tol(alexander_count_white_wins(1, 2, BLACK), 187.0L / 805, 1e-18L);
    /* 2 against 2, White to roll: 7041/13685, margin 2/35. */
    Position t = fen_pos("6/6/3bb1/6/2w2w/6 w - 0 0");
    ck_assert_ldouble_eq_tol(white_wins(&t), 7041.0L / 13685, 1e-18L);
    ck_assert_ldouble_eq_tol(white_margin(&t), 2.0L / 35, 1e-18L);
}
END_TEST

START_TEST(test_exact_start_values)
{
    Position p = start_pos();
    ck_assert_ldouble_eq_tol(white_wins(&p), START_WIN, 1e-17L);
    ck_assert_ldouble_eq_tol(white_margin(&p), START_MARGIN, 1e-17L);
    /* The 10-decimal figures of the documentation. */
    ck_assert_double_eq_tol(alexander_win_probability(&p), 0.5350014020, 5e-11);
    ck_assert_double_eq_tol(alexander_expected_margin(&p), 0.3428571429, 5e-11);
    /* Black to roll from the phalanx is the mirror image. */
    Position b = fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww b - 0 0");
    ck_assert_ldouble_eq_tol(white_wins(&b), 1 - START_WIN, 1e-17L);
    ck_assert_double_eq_tol(alexander_win_probability(&b), 0.5350014020, 5e-11);
    ck_assert_double_eq_tol(alexander_expected_margin(&b), 0.3428571429, 5e-11);
    /* The arrangement does not matter, only the counts. */
    Position s = fen_pos("wbwbwb/bwbwbw/wbwbwb/bwbwbw/6/6 w - 0 0");
    ck_assert_ldouble_eq_tol(white_wins(&s), START_WIN, 1e-17L);
}
END_TEST

/* A martingale gives the expected margin in closed form: with White to roll,
 * Z = (cw - cb) + a/35 (Black to roll: (cw - cb) - b/35) satisfies
 * E[Z'] = Z, because the roll captures with probability (a+b)/36 and moves
 * Z by 1 + 1/35 = 36/35 when it does and the a/35 term turns into -b/35.  At
 * the end the loser (no pieces) is to roll, so Z is the final margin.  The
 * DP, computed without this shortcut, must agree for every count. */
START_TEST(test_expected_margin_is_roller_pieces_over_35)
{
    for (int a = 0; a <= 36; a++)
        for (int b = 0; a + b <= 36; b++) {
            if (a == 0 || b == 0)
                continue;
            long double dw = alexander_count_piece_difference(a, b, WHITE);
            long double db = alexander_count_piece_difference(a, b, BLACK);
            /* margin - (cw - cb) = (b - a) + E[a_final - b_final] */
            REQUIRE(fabsl(b - a + dw - a / 35.0L) < 1e-15L, "White to roll %d v %d", a, b);
            REQUIRE(fabsl(b - a + db + b / 35.0L) < 1e-15L, "Black to roll %d v %d", a, b);
        }
    Position p = fen_pos("2b3/1b4/6/w5/6/3w1w b - 6 2");
    ck_assert_double_eq_tol(alexander_expected_margin(&p), (2 - 6) + 2 / 35.0, 1e-14);
}
END_TEST

/* A pending roll fixes whether the turn captures; averaging over the 36
 * rolls gives back the chance value. */
START_TEST(test_pending_roll_value_is_the_value_after_the_turn)
{
    Position p = start_pos();
    Position empty = play(&p, "c4"), enemy = play(&p, "c5"), own = play(&p, "c2");
    ck_assert_ldouble_eq_tol(white_wins(&empty), 1 - START_WIN, 1e-17L);
    ck_assert_ldouble_eq_tol(white_wins(&enemy), alexander_count_white_wins(12, 11, BLACK), 1e-18L);
    ck_assert_ldouble_eq_tol(white_wins(&own), alexander_count_white_wins(12, 11, BLACK), 1e-18L);
    /* Python fractions: P(White | 12 v 11, Black to roll) = 0.57000280392951... */
    ck_assert_double_eq_tol(alexander_win_probability(&own), 0.5700028039295155, 1e-14);
    ck_assert_double_eq_tol(alexander_expected_margin(&own), 24.0 / 35, 1e-14);
    Move m[MAX_MOVES];
    int n = V->generate(&p, m);
    long double sw = 0, sm = 0;
    for (int i = 0; i < n; i++) {
        Position c;
        V->make(&p, m[i], &c);
        sw += white_wins(&c);
        sm += white_margin(&c);
    }
    ck_assert_ldouble_eq_tol(sw / 36, START_WIN, 1e-17L);
    ck_assert_ldouble_eq_tol(sm / 36, START_MARGIN, 1e-17L);
}
END_TEST

START_TEST(test_evaluation_is_the_exact_margin_in_centi_captures)
{
    Position p = start_pos();
    ck_assert(V->eval_is_exact(&p));
    ck_assert_int_eq(V->evaluate(&p), 34); /* 100 * 12/35 = 34.29 */
    Position b = fen_pos("bbbbbb/bbbbbb/6/6/wwwwww/wwwwww b - 0 0");
    ck_assert_int_eq(V->evaluate(&b), 34);
    Position l = fen_pos("6/6/6/6/2w3/6 b - 12 3");
    ck_assert_int_eq(V->evaluate(&l), -900);
    Position s = fen_pos("bbbbbb/bbbbbb/bbbbbb/6/6/2w3 w - 0 0");
    ck_assert_int_eq(V->evaluate(&s),
                     (int)lroundl(100 * (alexander_count_piece_difference(1, 18, WHITE) + 17)));
    char d[128];
    V->describe(&p, d, sizeof d);
    ck_assert_str_eq(d, "winprob 0.535001 margin 0.342857");
    Position own = play(&p, "c2");
    V->describe(&own, d, sizeof d);
    ck_assert_str_eq(d, "winprob 0.570003 margin 0.685714");
}
END_TEST

/* Build a FEN from square lists (indices a1 = 0 ...). */
static void make_fen(char *out, const int *white, int nw, const int *black, int nb, int side,
                     int cw, int cb)
{
    char cell[36];
    memset(cell, 0, sizeof cell);
    for (int i = 0; i < nw; i++)
        cell[white[i]] = 'w';
    for (int i = 0; i < nb; i++)
        cell[black[i]] = 'b';
    char *o = out;
    for (int r = 5; r >= 0; r--) {
        int e = 0;
        for (int f = 0; f < 6; f++) {
            char c = cell[r * 6 + f];
            if (!c) {
                e++;
                continue;
            }
            if (e)
                *o++ = (char)('0' + e);
            e = 0;
            *o++ = c;
        }
        if (e)
            *o++ = (char)('0' + e);
        if (r)
            *o++ = '/';
    }
    sprintf(o, " %c - %d %d", side == WHITE ? 'w' : 'b', cw, cb);
}

/* Bellman check of the DP against the real moves: at every chance node the
 * average over the 36 rolls of the best action's value (and of the worst
 * action's) equals the node's value, with every action of a roll worth the
 * same.  Since every policy ends the game with probability 1 the Bellman
 * equation has one solution, so this proves the DP is the game's value under
 * any play for all positions of these levels. */
static void check_bellman(const Position *p)
{
    long double w0, m0;
    alexander_white_values(p, &w0, &m0);
    Move rolls[MAX_MOVES];
    int nr = V->generate(p, rolls);
    REQUIRE(nr == 36, "%d rolls", nr);
    long double sw = 0, sm = 0;
    for (int i = 0; i < nr; i++) {
        Position r;
        V->make(p, rolls[i], &r);
        Move acts[MAX_MOVES];
        int na = V->generate(&r, acts);
        REQUIRE(na > 0, "no action");
        long double lo_w = 2, hi_w = -2, lo_m = 99, hi_m = -99;
        for (int j = 0; j < na; j++) {
            Position c;
            V->make(&r, acts[j], &c);
            long double cw, cm;
            alexander_white_values(&c, &cw, &cm);
            lo_w = cw < lo_w ? cw : lo_w;
            hi_w = cw > hi_w ? cw : hi_w;
            lo_m = cm < lo_m ? cm : lo_m;
            hi_m = cm > hi_m ? cm : hi_m;
        }
        REQUIRE(hi_w - lo_w < 1e-18L && hi_m - lo_m < 1e-18L, "unequal actions"); /* all equally good */
        long double rw, rm;
        alexander_white_values(&r, &rw, &rm);
        REQUIRE(fabsl(rw - hi_w) < 1e-18L && fabsl(rm - hi_m) < 1e-18L, "pending roll value");
        sw += hi_w;
        sm += hi_m;
    }
    REQUIRE(fabsl(sw / 36 - w0) < 1e-16L, "win %.18Lf vs %.18Lf", sw / 36, w0);
    REQUIRE(fabsl(sm / 36 - m0) < 1e-15L, "margin %.18Lf vs %.18Lf", sm / 36, m0);
}

START_TEST(test_every_action_is_equally_good_bellman_check)
{
    char fen[FEN_MAX];
    int checked = 0;
    for (int side = 0; side < 2; side++) {
        for (int x = 0; x < 36; x++)
            for (int y = 0; y < 36; y++) {
                if (x == y)
                    continue;
                make_fen(fen, &x, 1, &y, 1, side, 0, 0);
                check_bellman((Position[]){fen_pos(fen)});
                checked++;
                for (int z = y + 1; z < 36; z += 5) {  /* a sample of 2 v 1 */
                    if (z == x)
                        continue;
                    int two[2] = {y, z};
                    make_fen(fen, two, 2, &x, 1, side, 0, 0);
                    check_bellman((Position[]){fen_pos(fen)});
                    make_fen(fen, &x, 1, two, 2, side, 3, 1);
                    check_bellman((Position[]){fen_pos(fen)});
                    checked += 2;
                }
            }
    }
    /* And along random games from the phalanx. */
    uint64_t rng = 5;
    for (int g = 0; g < 20; g++) {
        Position p = start_pos();
        while (V->result(&p, NULL, NULL) == RESULT_NONE) {
            Move m[MAX_MOVES];
            if (V->is_chance(&p)) {
                check_bellman(&p);
                checked++;
            }
            int n = V->generate(&p, m);
            Position c;
            V->make(&p, m[util_random_below(&rng, (uint64_t)n)], &c);
            p = c;
        }
    }
    ck_assert_int_gt(checked, 10000);
}
END_TEST

/* Full expectimax to the end over the real moves, by value iteration from 0
 * over every position with 2 White against 1 Black (and the 1 against 1 it
 * leads to), both sides to roll: once with the players maximising their own
 * margin, once minimising it.  Both fixed points must equal the DP. */
typedef struct VIState {
    Position pos;
    int roller;
} VIState;

enum { HASH_BITS = 17, HASH_SIZE = 1 << HASH_BITS };

static int hash_find(const uint64_t *keys, const int *idx, uint64_t k)
{
    size_t h = (size_t)(k >> (64 - HASH_BITS));
    while (idx[h] >= 0) {
        if (keys[h] == k)
            return idx[h];
        h = (h + 1) & (HASH_SIZE - 1);
    }
    return -1;
}

START_TEST(test_expectimax_to_the_end_equals_dp_for_any_play)
{
    /* Enumerate the states. */
    int cap = 2 * (630 * 34 + 36 * 35);
    VIState *st = malloc((size_t)cap * sizeof *st);
    uint64_t *hkeys = malloc(HASH_SIZE * sizeof *hkeys);
    int *hidx = malloc(HASH_SIZE * sizeof *hidx);
    ck_assert(st && hkeys && hidx);
    for (int i = 0; i < HASH_SIZE; i++)
        hidx[i] = -1;
    /* Level 0: 1 v 1 after Black's capture; level 1: 2 v 1.  Each level is
     * solved after the one it falls into, White-to-roll states first. */
    int ns = 0, level_start[3] = {0, 0, 0};
    char fen[FEN_MAX];
    for (int level = 0; level < 2; level++) {
        level_start[level] = ns;
        for (int side = 0; side < 2; side++)
            for (int w1 = 0; w1 < 36; w1++)
                for (int b = 0; b < 36; b++) {
                    if (b == w1)
                        continue;
                    if (level == 0) {
                        make_fen(fen, &w1, 1, &b, 1, side, 0, 1); /* Black took one */
                        st[ns].pos = fen_pos(fen);
                        st[ns++].roller = side;
                        continue;
                    }
                    for (int w2 = w1 + 1; w2 < 36; w2++) {
                        if (w2 == b)
                            continue;
                        int two[2] = {w1, w2};
                        make_fen(fen, two, 2, &b, 1, side, 0, 0);
                        st[ns].pos = fen_pos(fen);
                        st[ns++].roller = side;
                    }
                }
    }
    level_start[2] = ns;
    ck_assert_int_eq(ns, cap);
    for (int s = 0; s < ns; s++) {
        uint64_t k = V->key(&st[s].pos);
        size_t h = (size_t)(k >> (64 - HASH_BITS));
        while (hidx[h] >= 0)
            h = (h + 1) & (HASH_SIZE - 1);
        hkeys[h] = k;
        hidx[h] = s;
    }
    /* Transitions: child >= 0 is a state, child < 0 a finished game whose
     * White margin is -child - 100. */
    int *first = malloc(((size_t)ns * 36 + 1) * sizeof *first);
    size_t child_cap = (size_t)ns * 72;
    int *child = malloc(child_cap * sizeof *child);
    ck_assert(first && child);
    size_t nc = 0;
    for (int s = 0; s < ns; s++) {
        Move rolls[MAX_MOVES];
        int nr = V->generate(&st[s].pos, rolls);
        REQUIRE(nr == 36, "%d rolls", nr);
        for (int t = 0; t < 36; t++) {
            first[s * 36 + t] = (int)nc;
            Position r;
            V->make(&st[s].pos, rolls[t], &r);
            Move acts[MAX_MOVES];
            int na = V->generate(&r, acts);
            for (int j = 0; j < na; j++) {
                Position c;
                V->make(&r, acts[j], &c);
                int margin;
                Result res = V->result(&c, &margin, NULL);
                int code;
                if (res == RESULT_WHITE_WINS)
                    code = -(margin + 100);
                else if (res == RESULT_BLACK_WINS)
                    code = -(-margin + 100);
                else {
                    code = hash_find(hkeys, hidx, V->key(&c));
                    REQUIRE(code >= 0, "child outside the enumerated states");
                }
                if (nc == child_cap) {
                    child_cap *= 2;
                    child = realloc(child, child_cap * sizeof *child);
                    ck_assert(child);
                }
                child[nc++] = code;
            }
        }
    }
    first[ns * 36] = (int)nc;

    double *best = calloc((size_t)ns, sizeof *best), *worst = calloc((size_t)ns, sizeof *worst);
    ck_assert(best && worst);
    int sweeps = 0;
    for (int level = 0; level < 2; level++) {
        double delta;
        do {
            delta = 0;
            for (int s = level_start[level]; s < level_start[level + 1]; s++) {
                bool white = st[s].roller == WHITE;
                double sum_best = 0, sum_worst = 0;
                for (int t = 0; t < 36; t++) {
                    double hi_b = -1e9, lo_b = 1e9, hi_w = -1e9, lo_w = 1e9;
                    for (int j = first[s * 36 + t]; j < first[s * 36 + t + 1]; j++) {
                        int c = child[j];
                        double vb = c >= 0 ? best[c] : -c - 100;
                        double vw = c >= 0 ? worst[c] : -c - 100;
                        hi_b = vb > hi_b ? vb : hi_b;
                        lo_b = vb < lo_b ? vb : lo_b;
                        hi_w = vw > hi_w ? vw : hi_w;
                        lo_w = vw < lo_w ? vw : lo_w;
                    }
                    sum_best += white ? hi_b : lo_b;   /* each side helps itself */
                    sum_worst += white ? lo_w : hi_w;  /* each side harms itself */
                }
                double nb = sum_best / 36, nw = sum_worst / 36;
                double d = fabs(nb - best[s]) + fabs(nw - worst[s]);
                delta = d > delta ? d : delta;
                best[s] = nb;
                worst[s] = nw;
            }
            sweeps++;
        } while (delta > 1e-12 && sweeps < 5000);
    }
    ck_assert_int_lt(sweeps, 5000);
    for (int s = 0; s < ns; s++) {
        double dp = (double)white_margin(&st[s].pos);
        REQUIRE(fabs(best[s] - dp) < 1e-10 && fabs(worst[s] - dp) < 1e-10,
                "state %d: best %.12f worst %.12f dp %.12f", s, best[s], worst[s], dp);
    }
    free(best);
    free(worst);
    free(child);
    free(first);
    free(hidx);
    free(hkeys);
    free(st);
}
END_TEST

/* Real games with different policies all reproduce the start values
 * (20000 games each; tolerances are 5 standard errors). */
START_TEST(test_monte_carlo_games_match_start_values_whatever_the_policy)
{
    const int games = 20000;
    for (int policy = 0; policy < 3; policy++) {
        uint64_t rng = 1000 + (uint64_t)policy;
        long wins = 0;
        double sum = 0;
        for (int g = 0; g < games; g++) {
            Position p = start_pos();
            int margin;
            Result res;
            while ((res = V->result(&p, &margin, NULL)) == RESULT_NONE) {
                Move m[MAX_MOVES];
                int n = V->generate(&p, m);
                int pick;
                if (V->is_chance(&p) || policy == 0)
                    pick = (int)util_random_below(&rng, (uint64_t)n);
                else if (policy == 1)
                    pick = V->side_to_move(&p) == WHITE ? 0 : n - 1;
                else
                    pick = V->side_to_move(&p) == WHITE ? n - 1 : 0;
                Position c;
                V->make(&p, m[pick], &c);
                p = c;
            }
            wins += res == RESULT_WHITE_WINS;
            sum += res == RESULT_WHITE_WINS ? margin : -margin;
        }
        double rate = (double)wins / games, mean = sum / games;
        ck_assert_msg(fabs(rate - (double)START_WIN) < 5 * 0.5 / sqrt(games),
                      "policy %d win rate %f", policy, rate);
        ck_assert_msg(fabs(mean - (double)START_MARGIN) < 5 * 3.7 / sqrt(games),
                      "policy %d mean margin %f", policy, mean);
    }
}
END_TEST

static Suite *alexander_suite(void)
{
    Suite *s = suite_create("alexander");
    TCase *rules = tcase_create("rules");
    tcase_add_checked_fixture(rules, setup, NULL);
    tcase_add_test(rules, test_phalanx_start_white_ranks_1_2_black_ranks_5_6);
    tcase_add_test(rules, test_roll_names_one_of_36_equally_likely_squares);
    tcase_add_test(rules, test_enemy_square_any_own_piece_moves_on_and_captures);
    tcase_add_test(rules, test_empty_square_any_own_piece_moves_there);
    tcase_add_test(rules, test_own_square_piece_flies_to_capture_any_enemy);
    tcase_add_test(rules, test_black_turn_follows_the_same_three_cases);
    tcase_add_test(rules, test_game_ends_when_all_enemy_pieces_are_captured);
    tcase_add_test(rules, test_a_side_without_pieces_has_lost);
    tcase_add_test(rules, test_capturing_actions_are_noisy);
    suite_add_tcase(s, rules);

    TCase *notation = tcase_create("notation");
    tcase_add_checked_fixture(notation, setup, NULL);
    tcase_set_timeout(notation, 60);
    tcase_add_test(notation, test_fen_round_trips);
    tcase_add_test(notation, test_fen_rejects_malformed_and_impossible_positions);
    tcase_add_test(notation, test_notation_rolls_are_squares_actions_are_from_to);
    tcase_add_test(notation, test_key_covers_side_roll_and_captures);
    tcase_add_test(notation, test_diagram_shows_board_roll_captures_and_values);
    suite_add_tcase(s, notation);

    TCase *perft = tcase_create("perft");
    tcase_add_checked_fixture(perft, setup, NULL);
    tcase_set_timeout(perft, 60);
    tcase_add_test(perft, test_perft_counts_rolls_as_plies_from_the_start);
    tcase_add_test(perft, test_perft_from_custom_arrangements);
    suite_add_tcase(s, perft);

    TCase *exact = tcase_create("exact");
    tcase_add_checked_fixture(exact, setup, NULL);
    tcase_set_timeout(exact, 120);
    tcase_add_test(exact, test_exact_one_against_one);
    tcase_add_test(exact, test_exact_two_against_one);
    tcase_add_test(exact, test_exact_start_values);
    tcase_add_test(exact, test_expected_margin_is_roller_pieces_over_35);
    tcase_add_test(exact, test_pending_roll_value_is_the_value_after_the_turn);
    tcase_add_test(exact, test_evaluation_is_the_exact_margin_in_centi_captures);
    tcase_add_test(exact, test_every_action_is_equally_good_bellman_check);
    tcase_add_test(exact, test_expectimax_to_the_end_equals_dp_for_any_play);
    tcase_add_test(exact, test_monte_carlo_games_match_start_values_whatever_the_policy);
    suite_add_tcase(s, exact);
    return s;
}

int main(void)
{
    Suite *s = alexander_suite();
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
