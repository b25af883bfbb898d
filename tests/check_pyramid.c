/* check_pyramid.c - Pyramid (doc/rules.md, Pyramid), one test per rule. */
#include <check.h>

#include "game_test.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "variants.h"

static const Variant *V;
static const GameConfig CFG = {DEFAULT_MOVE_LIMIT};

#define START_FEN "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w -"
#define WHITE_HOME "a1 c1 e1 g1 b2 d2 f2 c3 e3 d4"
#define BLACK_HOME "h8 f8 d8 b8 g7 e7 c7 f6 d6 e5"

static void setup(void)
{
    variants_init();
    V = variants_find("pyramid");
    ck_assert_ptr_nonnull(V);
}

/* A FEN built by hand (not by to_fen) from square lists such as "a1 c3":
 * pieces go into an 8x8 grid that is then run-length encoded. */
static void build_fen(char *out, const char *white, const char *black,
                      char side, char pass)
{
    char grid[8][8];
    memset(grid, 0, sizeof grid);
    const char *lists[2] = {white, black};
    for (int c = 0; c < 2; c++)
        for (const char *s = lists[c]; *s;) {
            if (*s == ' ') {
                s++;
                continue;
            }
            grid[s[1] - '1'][s[0] - 'a'] = c == 0 ? 'W' : 'B';
            s += 2;
        }
    char *o = out;
    for (int r = 7; r >= 0; r--) {
        int run = 0;
        for (int f = 0; f < 8; f++) {
            if (!grid[r][f]) {
                run++;
                continue;
            }
            if (run)
                *o++ = (char)('0' + run);
            run = 0;
            *o++ = grid[r][f];
        }
        if (run)
            *o++ = (char)('0' + run);
        if (r)
            *o++ = '/';
    }
    sprintf(o, " %c %c", side, pass);
}

static Position pos_from_fen(const char *fen) { return game_test_fen(V, fen); }

static Position pos_of(const char *white, const char *black, char side,
                       char pass)
{
    char fen[FEN_MAX];
    build_fen(fen, white, black, side, pass);
    return pos_from_fen(fen);
}

/* Sorted legal moves, space separated; only those starting with prefix. */
static void moves_text(const Position *p, const char *prefix, char *out)
{
    game_test_moves_text(V, p, prefix, out, 4096);
}

#define ASSERT_MOVES(p, prefix, expected)                                   \
    do {                                                                    \
        char got_[4096];                                                    \
        moves_text(&(p), prefix, got_);                                     \
        ck_assert_str_eq(got_, expected);                                   \
    } while (0)

static Position play(const Position *p, const char *text)
{
    return game_test_play(V, p, text);
}

static void counts(const Position *p, int *w, int *b)
{
    game_test_counts(V, p, w, b);
}

/* ---- start position and pyramids ---- */

START_TEST(start_position_is_two_pyramids_of_ten)
{
    Position p;
    V->startpos(&p, &CFG);
    char fen[FEN_MAX], hand[FEN_MAX];
    V->to_fen(&p, fen);
    build_fen(hand, WHITE_HOME, BLACK_HOME, 'w', '-');
    ck_assert_str_eq(fen, hand);
    ck_assert_str_eq(fen, START_FEN);
    ck_assert_int_eq(V->side_to_move(&p), WHITE);
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    int w, b;
    counts(&p, &w, &b);
    /* 4 + 4 + 4 + 4 + 3 + 3 + 3 + 2 + 2 + 1 = 30 steps to the far pyramid */
    ck_assert_int_eq(w, 30);
    ck_assert_int_eq(b, 30);
    /* The pyramid squares are the targets: the diagram marks empty ones. */
    Position q = play(&p, "d4c5");
    char diagram[2048];
    V->diagram(&q, diagram, sizeof diagram);
    ck_assert_ptr_nonnull(strstr(diagram, " 4   .   :   .   .  4"));
    ck_assert_ptr_nonnull(strstr(diagram, "Black to move"));
    ck_assert_ptr_nonnull(strstr(diagram, "count white 30 black 30"));
}
END_TEST

START_TEST(start_moves_are_the_eleven_steps_and_jumps)
{
    Position p;
    V->startpos(&p, &CFG);
    ASSERT_MOVES(p, "", "b2a3 c1a3 c3b4 d2b4 d2f4 d4c5 e1g3 e3c5 e3f4 f2g3 g1h2");
    Position q = play(&p, "g1h2");
    ASSERT_MOVES(q, "", "b8a7 c7b6 d6c5 d6f4 d8b6 e5f4 e7c5 e7g5 f6g5 f8h6 g7h6");
}
END_TEST

/* ---- movement ---- */

START_TEST(pieces_step_only_diagonally_forward)
{
    /* White d4 in the open: only c5 and e5, never back to c3/e3.  Black f6
     * goes down the board: e5 and g5. */
    Position p = pos_of("d4 a1 c1 e1 g1 b2 d2 f2 h2 h4",
                        "h8 f8 d8 b8 g7 e7 c7 a7 h6 f6", 'w', '-');
    ASSERT_MOVES(p, "d4", "d4c5 d4e5");
    Position q = pos_of("d4 a1 c1 e1 g1 b2 d2 f2 h2 h4",
                        "h8 f8 d8 b8 g7 e7 c7 a7 h6 f6", 'b', '-');
    ASSERT_MOVES(q, "f6", "f6e5 f6g5");
    /* A step needs the square empty: h2-g3 is blocked, and so is the jump
     * over g3 (f4 is taken). */
    Position r = pos_of("h2 g3 a1 c1 e1 b2 d2 c3 e3 d4",
                        "h8 f8 d8 b8 g7 e7 c7 a7 h6 f4", 'w', '-');
    ASSERT_MOVES(r, "h2", "");
}
END_TEST

START_TEST(jump_over_own_piece)
{
    /* d4 over its own e5 onto f6 (nothing captured), and still c5. */
    Position p = pos_of("d4 e5 a1 c1 e1 g1 b2 d2 f2 h2",
                        "h8 f8 d8 b8 g7 e7 c7 a7 h6 b6", 'w', '-');
    ASSERT_MOVES(p, "d4", "d4c5 d4f6");
    Position q = play(&p, "d4f6");
    char fen[FEN_MAX], hand[FEN_MAX];
    V->to_fen(&q, fen);
    build_fen(hand, "f6 e5 a1 c1 e1 g1 b2 d2 f2 h2",
              "h8 f8 d8 b8 g7 e7 c7 a7 h6 b6", 'b', '-');
    ck_assert_str_eq(fen, hand);
}
END_TEST

START_TEST(jump_over_enemy_piece_captures_nothing)
{
    Position p = pos_of("d4 a1 c1 e1 g1 b2 d2 f2 h2 h4",
                        "c5 h8 f8 d8 b8 g7 e7 c7 a7 h6", 'w', '-');
    ASSERT_MOVES(p, "d4", "d4b6 d4e5");
    Position q = play(&p, "d4b6");
    char fen[FEN_MAX], hand[FEN_MAX];
    V->to_fen(&q, fen);
    build_fen(hand, "b6 a1 c1 e1 g1 b2 d2 f2 h2 h4",
              "c5 h8 f8 d8 b8 g7 e7 c7 a7 h6", 'b', '-');
    ck_assert_str_eq(fen, hand);
    /* The jumped piece stays; d4 is empty now, so Black's c5 simply steps
     * down to b4 or d4. */
    ASSERT_MOVES(q, "c5", "c5b4 c5d4");
}
END_TEST

START_TEST(jump_chain_may_stop_after_any_jump)
{
    /* c1 over d2 (own) to e3, over f4 (enemy) to g5, over f6 (own) to e7:
     * each landing is a move of its own; c1-b2 is a step. */
    Position p = pos_of("c1 d2 f6 a1 e1 g1 h2 a5 a7 b8",
                        "f4 d8 f8 h8 c7 g7 b6 d6 h6 c5", 'w', '-');
    ASSERT_MOVES(p, "c1", "c1b2 c1e3 c1e7 c1g5");
    Position q = play(&p, "c1e7");
    char fen[FEN_MAX], hand[FEN_MAX];
    V->to_fen(&q, fen);
    build_fen(hand, "e7 d2 f6 a1 e1 g1 h2 a5 a7 b8",
              "f4 d8 f8 h8 c7 g7 b6 d6 h6 c5", 'b', '-');
    ck_assert_str_eq(fen, hand);
}
END_TEST

START_TEST(jumping_is_never_compulsory)
{
    /* At the start White may jump (c1a3) or step (g1h2, b2a3 ...). */
    Position p;
    V->startpos(&p, &CFG);
    ck_assert(V->parse_move(&p, "c1a3") != MOVE_NONE);
    ck_assert(V->parse_move(&p, "g1h2") != MOVE_NONE);
    /* The same piece may step although it could jump: d4 above. */
    Position q = pos_of("d4 e5 a1 c1 e1 g1 b2 d2 f2 h2",
                        "h8 f8 d8 b8 g7 e7 c7 a7 h6 b6", 'w', '-');
    ck_assert(V->parse_move(&q, "d4c5") != MOVE_NONE);
}
END_TEST

START_TEST(move_is_start_and_end_whatever_the_path)
{
    /* c1 reaches c5 two ways: over b2 to a3 then over b4, or over d2 to e3
     * then over d4.  That is one move, c1c5. */
    Position p = pos_of("c1 b2 d2 b4 a1 e1 g1 f2 h2 b8",
                        "d4 d8 f8 h8 c7 g7 h6 f6 a5 e5", 'w', '-');
    ASSERT_MOVES(p, "c1", "c1a3 c1c5 c1e3");
    /* No two generated moves are ever equal, and a step (one rank) and a
     * jump chain (an even number of ranks) never share an end square. */
    uint64_t seed = 11;
    for (int game = 0; game < 200; game++) {
        Position q;
        V->startpos(&q, &CFG);
        for (;;) {
            Move moves[MAX_MOVES];
            int n = V->generate(&q, moves);
            if (!n)
                break;
            for (int i = 0; i < n; i++)
                for (int j = i + 1; j < n; j++)
                    ck_assert(moves[i] != moves[j]);
            Position c;
            V->make(&q, moves[util_random_below(&seed, (uint64_t)n)], &c);
            q = c;
        }
    }
}
END_TEST

/* ---- winning ---- */

START_TEST(filling_the_enemy_pyramid_wins_at_once)
{
    /* Nine White pieces in Black's pyramid; d4-e5 fills the tenth square. */
    Position p = pos_of("h8 f8 d8 b8 g7 e7 c7 f6 d6 d4",
                        "a1 c1 e1 g1 b2 d2 f2 c3 e3 h4", 'w', '-');
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    Move m = V->parse_move(&p, "d4e5");
    ck_assert(V->is_noisy(&p, m));
    ck_assert(!V->is_noisy(&p, V->parse_move(&p, "d4c5")));
    Position q;
    V->make(&p, m, &q);
    int margin = -1;
    const char *why = NULL;
    ck_assert_int_eq(V->result(&q, &margin, &why), RESULT_WHITE_WINS);
    ck_assert_str_eq(why, "pyramid filled");
    /* margin: the loser's count (h4 needs two steps to f2), winner's is 0 */
    ck_assert_int_eq(margin, 2);
    Move moves[MAX_MOVES];
    ck_assert_int_eq(V->generate(&q, moves), 0);
    ck_assert_int_eq(V->evaluate(&q), -(SCORE_EVAL_MAX - 1));
}
END_TEST

START_TEST(filling_wins_even_if_the_enemy_is_far_from_home)
{
    /* Black fills White's pyramid with e5-d4 while White still has two
     * pieces outside Black's pyramid (h6, c5, g5...): only the ten pieces of
     * the mover decide, at once. */
    Position p = pos_of("a7 c7 e7 g7 b6 d6 f6 h6 c5 g5",
                        "a1 c1 e1 g1 b2 d2 f2 c3 e3 e5", 'b', '-');
    Position q = play(&p, "e5d4");
    ck_assert_int_eq(V->result(&q, NULL, NULL), RESULT_BLACK_WINS);
}
END_TEST

START_TEST(no_win_before_all_ten_squares_are_filled)
{
    /* Nine White pieces in the pyramid; Black's own e5 has not left yet:
     * no win, and White cannot take e5 while it stays. */
    Position p = pos_of("h8 f8 d8 b8 g7 e7 c7 f6 d6 d4",
                        "e5 a1 c1 e1 g1 b2 d2 f2 c3 h4", 'w', '-');
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    ASSERT_MOVES(p, "", "d4c5");
    Position q = play(&p, "d4c5");
    ck_assert_int_eq(V->result(&q, NULL, NULL), RESULT_NONE);
    /* Black leaves e5 (it may also step to f4 or d4 now) ... */
    ASSERT_MOVES(q, "e5", "e5d4 e5f4");
    Position r = play(&q, "e5f4");
    ck_assert_int_eq(V->result(&r, NULL, NULL), RESULT_NONE);
    /* ... but c5 is already past e5 and pieces never go back: White's
     * only move is c5-b6, the pyramid can no longer be filled. */
    ASSERT_MOVES(r, "", "c5b6");
}
END_TEST

/* ---- passing and counting ---- */

#define STUCK_WHITE "h8 f8 d8 b8 g7 e7 c7 a7 f6 d6"

START_TEST(a_side_without_a_move_passes)
{
    /* White's ten are all blocked; Black still has h4-g3. */
    Position p = pos_of(STUCK_WHITE, "a1 c1 e1 g1 b2 d2 f2 c3 e3 h4", 'w', '-');
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    ASSERT_MOVES(p, "", "0000");
    Position q = play(&p, "0000");
    char fen[FEN_MAX];
    V->to_fen(&q, fen);
    ck_assert_str_eq(fen, "1W1W1W1W/W1W1W1W1/3W1W2/8/7B/2B1B3/1B1B1B2/B1B1B1B1 b p");
    ck_assert(V->key(&q) != V->key(&p));
    ck_assert_int_eq(V->result(&q, NULL, NULL), RESULT_NONE);
    ASSERT_MOVES(q, "", "h4g3");
    /* After Black's move the pass is forgotten: White passes again. */
    Position r = play(&q, "h4g3");
    V->to_fen(&r, fen);
    ck_assert_str_eq(fen, "1W1W1W1W/W1W1W1W1/3W1W2/8/8/2B1B1B1/1B1B1B2/B1B1B1B1 w -");
    ASSERT_MOVES(r, "", "0000");
    Position r2 = play(&r, "0000");
    Position s = play(&r2, "g3h2");
    /* Now both are stuck: White passes, Black cannot move: counting, 1-1. */
    ASSERT_MOVES(s, "", "0000");
    Position t = play(&s, "0000");
    int margin = -1;
    const char *why = NULL;
    ck_assert_int_eq(V->result(&t, &margin, &why), RESULT_DRAW);
    ck_assert_int_eq(margin, 0);
    ck_assert_str_eq(why, "counting, both sides stuck");
    Move moves[MAX_MOVES];
    ck_assert_int_eq(V->generate(&t, moves), 0); /* no second pass */
}
END_TEST

START_TEST(both_stuck_smaller_count_wins_by_the_difference)
{
    /* White left a1 at home, walled in by Black's b2 and c3: 4 steps.
     * Black's h2 needs one step to g1.  Both stuck; White to move passes,
     * then Black cannot move either: Black wins by 4 - 1 = 3. */
    Position p = pos_of("a1 h8 f8 d8 b8 g7 e7 c7 f6 d6",
                        "c1 e1 g1 b2 d2 f2 c3 e3 d4 h2", 'w', '-');
    int w, b;
    counts(&p, &w, &b);
    ck_assert_int_eq(w, 4);
    ck_assert_int_eq(b, 1);
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    ASSERT_MOVES(p, "", "0000");
    Position q = play(&p, "0000");
    int margin = -1;
    ck_assert_int_eq(V->result(&q, &margin, NULL), RESULT_BLACK_WINS);
    ck_assert_int_eq(margin, 3);
    /* The same with Black to move first: Black passes, White stuck. */
    Position r = pos_of("a1 h8 f8 d8 b8 g7 e7 c7 f6 d6",
                        "c1 e1 g1 b2 d2 f2 c3 e3 d4 h2", 'b', '-');
    Position s = play(&r, "0000");
    ck_assert_int_eq(V->result(&s, &margin, NULL), RESULT_BLACK_WINS);
    ck_assert_int_eq(margin, 3);
    /* The same position turned half a turn with colours swapped: White
     * wins by 3 (a7 needs one step to b8, Black's h8 four to d4). */
    Position t = pos_of("f8 d8 b8 g7 e7 c7 f6 d6 e5 a7",
                        "h8 a1 c1 e1 g1 b2 d2 f2 c3 e3", 'b', '-');
    Position u = play(&t, "0000");
    ck_assert_int_eq(V->result(&u, &margin, NULL), RESULT_WHITE_WINS);
    ck_assert_int_eq(margin, 3);
}
END_TEST

START_TEST(counting_distance_is_fewest_forward_steps_to_the_pyramid)
{
    /* Nine White pieces fixed: a1 c1 e1 four steps each (a1-b2-c3-d4-e5),
     * b2 d2 f2 three, c3 e3 two, h2 three (h2-g3-f4-e5): 28.  The tenth
     * piece X adds its own distance: on an empty board, X reaches a target
     * k ranks ahead iff the file difference is at most k. */
    static const struct {
        const char *sq;
        int dist;
    } white_cases[] = {
        {"g1", 4}, {"d4", 1}, {"e5", 0}, {"h4", 2}, {"a3", 3},
        {"a5", 2}, {"b6", 1}, {"a7", 1}, {"h6", 1}, {"c5", 1},
    };
    for (size_t i = 0; i < sizeof white_cases / sizeof white_cases[0]; i++) {
        char white[64];
        snprintf(white, sizeof white, "a1 c1 e1 b2 d2 f2 c3 e3 h2 %s",
                 white_cases[i].sq);
        /* Black: its pyramid without e5 (29) and g3 (one step to f2). */
        Position p = pos_of(white, "h8 f8 d8 b8 g7 e7 c7 f6 d6 g3", 'w', '-');
        int w, b;
        counts(&p, &w, &b);
        ck_assert_msg(w == 28 + white_cases[i].dist, "white on %s: %d",
                      white_cases[i].sq, w);
        ck_assert_int_eq(b, 30);
    }
    /* Black counts toward rank 1 the same way: its pyramid without e5 (29)
     * plus the tenth piece X (for X = b8: without b8, 26). */
    static const struct {
        const char *nine;
        const char *sq;
        int nine_sum, dist;
    } black_cases[] = {
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "e5", 29, 1},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "d4", 29, 0},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "h4", 29, 2},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "a5", 29, 2},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "b4", 29, 1},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "g5", 29, 2},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "h2", 29, 1},
        {"h8 f8 d8 b8 g7 e7 c7 f6 d6", "a3", 29, 1},
        {"h8 f8 d8 e5 g7 e7 c7 f6 d6", "b8", 26, 4},
    };
    for (size_t i = 0; i < sizeof black_cases / sizeof black_cases[0]; i++) {
        char black[64];
        snprintf(black, sizeof black, "%s %s", black_cases[i].nine, black_cases[i].sq);
        Position p = pos_of("a1 c1 e1 g1 b2 d2 f2 c3 e3 h6", black, 'w', '-');
        int w, b;
        counts(&p, &w, &b);
        ck_assert_msg(b == black_cases[i].nine_sum + black_cases[i].dist,
                      "black on %s: %d", black_cases[i].sq, b);
        ck_assert_int_eq(w, 30);
    }
}
END_TEST

/* ---- notation and FEN (the round trips are the contract suite's) ---- */

START_TEST(fen_format)
{
    Position p = pos_from_fen(START_FEN);
    char fen[FEN_MAX];
    V->to_fen(&p, fen);
    ck_assert_str_eq(fen, START_FEN);
    Position s;
    V->startpos(&s, &CFG);
    ck_assert(V->key(&s) == V->key(&p));
    /* The pass flag may be left out (it then reads "-"). */
    Position q = pos_from_fen("1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w");
    ck_assert(V->key(&q) == V->key(&p));
}
END_TEST

START_TEST(fen_rejects_impossible_or_malformed_input)
{
    static const char *bad[] = {
        "",
        "   ",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 x -",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w q",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w - x",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 white -",
        /* a piece on a light square (b1) */
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/WW2W1W1 w -",
        /* eleven White pieces (h2 added) */
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W1W/W1W1W1W1 w -",
        /* nine White pieces (d4 missing) */
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/8/2W1W3/1W1W1W2/W1W1W1W1 w -",
        /* nine ranks, seven ranks, long and short ranks */
        "8/1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w -",
        "2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w -",
        "1B1B1B1B1/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w -",
        "1B1B1B1/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w -",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W19 w -",
        "1b1b1b1b/2b1b1b1/3b1b2/4b3/3w4/2w1w3/1w1w1w2/w1w1w1w1 w -",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1/ w -",
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W0 w -",
        /* a run of empty squares is one digit */
        "1B1B1B1B/2B1B1B1/3B1B2/4B21/3W4/2W1W3/1W1W1W2/W1W1W1W1 w -",
        /* the pass flag, but the side that passed (Black) has moves */
        "1B1B1B1B/2B1B1B1/3B1B2/4B3/3W4/2W1W3/1W1W1W2/W1W1W1W1 w p",
        /* both pyramids filled */
        "1W1W1W1W/2W1W1W1/3W1W2/4W3/3B4/2B1B3/1B1B1B2/B1B1B1B1 b -",
        /* White filled Black's pyramid, yet it is White's turn */
        "1W1W1W1W/2W1W1W1/3W1W2/4W3/7B/2B1B3/1B1B1B2/B1B1B1B1 w -",
    };
    Position p;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[128] = "";
        ck_assert_msg(!V->from_fen(&p, bad[i], &CFG, err, sizeof err),
                      "accepted: %s", bad[i]);
        ck_assert_msg(err[0] != '\0', "no reason for: %s", bad[i]);
    }
    /* Long and binary garbage never crashes. */
    static char big[20000];
    memset(big, '1', sizeof big - 1);
    char err[128];
    ck_assert(!V->from_fen(&p, big, &CFG, err, sizeof err));
    memset(big, '/', sizeof big - 1);
    ck_assert(!V->from_fen(&p, big, &CFG, err, sizeof err));
    for (int i = 0; i < (int)sizeof big - 1; i++)
        big[i] = (char)(1 + i % 255);
    ck_assert(!V->from_fen(&p, big, &CFG, err, sizeof err));
    /* The won position with the loser to move is fine. */
    pos_from_fen("1W1W1W1W/2W1W1W1/3W1W2/4W3/7B/2B1B3/1B1B1B2/B1B1B1B1 b -");
}
END_TEST

/* A move is written start and end square, nothing else (the round trip is
 * the contract suite's). */
START_TEST(notation_is_start_and_end_square)
{
    uint64_t seed = 17;
    int checked = 0;
    for (int game = 0; game < 50; game++) {
        Position p;
        V->startpos(&p, &CFG);
        for (;;) {
            Move moves[MAX_MOVES];
            int n = V->generate(&p, moves);
            if (!n)
                break;
            for (int i = 0; i < n; i++) {
                char text[MOVE_STR_MAX];
                V->move_str(&p, moves[i], text);
                ck_assert_int_eq(strlen(text), 4);
                checked++;
            }
            Position c;
            V->make(&p, moves[util_random_below(&seed, (uint64_t)n)], &c);
            p = c;
        }
    }
    ck_assert_int_gt(checked, 2000);
}
END_TEST

START_TEST(parse_move_rejects_anything_not_legal)
{
    Position p;
    V->startpos(&p, &CFG);
    static const char *bad[] = {
        "", "0000", "c3d5", "c3c4", "d4e5", "c3", "c3d4x", "C3D4", "c3-d4",
        "i1a1", "a0b1", "a1a1", "e5d4", "h2g3", "c1c5", "\x01\x02\x03\x04",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(V->parse_move(&p, bad[i]) == MOVE_NONE, "accepted %s", bad[i]);
    static char big[10000];
    memset(big, 'c', sizeof big - 1);
    ck_assert(V->parse_move(&p, big) == MOVE_NONE);
    ck_assert(V->parse_move(&p, "c3b4") != MOVE_NONE);
    ck_assert(V->parse_move(&p, "c1a3") != MOVE_NONE);
}
END_TEST

START_TEST(games_always_end_forward_only)
{
    /* Every move takes one piece at least one rank forward; each piece can
     * go 7 ranks, so at most 140 moves plus passes (never two in a row). */
    uint64_t seed = 29;
    for (int game = 0; game < 300; game++) {
        Position p;
        V->startpos(&p, &CFG);
        int plies = 0;
        for (;;) {
            Move moves[MAX_MOVES];
            int n = V->generate(&p, moves);
            if (!n)
                break;
            Position c;
            V->make(&p, moves[util_random_below(&seed, (uint64_t)n)], &c);
            p = c;
            plies++;
            ck_assert_int_le(plies, 281);
        }
        ck_assert_int_ne(V->result(&p, NULL, NULL), RESULT_NONE);
    }
}
END_TEST

/* The position turned half a turn with the colours swapped (and the side
 * to move swapped): the same game seen from the other side. */
static Position mirrored(const Position *p)
{
    char fen[FEN_MAX];
    V->to_fen(p, fen);
    char grid[8][8];
    memset(grid, 0, sizeof grid);
    int r = 7, f = 0;
    const char *c = fen;
    for (; *c != ' '; c++) {
        if (*c == '/') {
            r--;
            f = 0;
        } else if (*c >= '1' && *c <= '8') {
            f += *c - '0';
        } else {
            grid[r][f++] = *c;
        }
    }
    char white[64] = "", black[64] = "";
    for (r = 0; r < 8; r++)
        for (f = 0; f < 8; f++) {
            if (!grid[r][f])
                continue;
            char sq[4] = {(char)('a' + 7 - f), (char)('1' + 7 - r), ' ', 0};
            strcat(grid[r][f] == 'W' ? black : white, sq);
        }
    char side = c[1] == 'w' ? 'b' : 'w';
    return pos_of(white, black, side, c[3]);
}

START_TEST(evaluation_is_colour_symmetric_and_bounded)
{
    Position w;
    V->startpos(&w, &CFG);
    Position b = pos_of(WHITE_HOME, BLACK_HOME, 'b', '-');
    ck_assert_int_eq(V->evaluate(&w), V->evaluate(&b));
    uint64_t seed = 37;
    for (int game = 0; game < 100; game++) {
        Position p;
        V->startpos(&p, &CFG);
        for (;;) {
            Position m = mirrored(&p);
            ck_assert_int_eq(V->evaluate(&p), V->evaluate(&m));
            ck_assert_int_lt(abs(V->evaluate(&p)), SCORE_EVAL_MAX);
            int margin_p, margin_m;
            Result rp = V->result(&p, &margin_p, NULL);
            Result rm = V->result(&m, &margin_m, NULL);
            ck_assert_int_eq(rp == RESULT_WHITE_WINS, rm == RESULT_BLACK_WINS);
            ck_assert_int_eq(rp == RESULT_DRAW, rm == RESULT_DRAW);
            ck_assert_int_eq(margin_p, margin_m);
            Move moves[MAX_MOVES];
            int n = V->generate(&p, moves);
            if (!n)
                break;
            Position c;
            V->make(&p, moves[util_random_below(&seed, (uint64_t)n)], &c);
            p = c;
        }
    }
}
END_TEST

START_TEST(evaluation_punishes_pieces_that_can_never_enter)
{
    /* a7 and d8 both stand on entry rank 7 (a7: six ranks up plus one
     * step), but a7 can only ever reach b8, which White already holds:
     * that piece is lost for good and will count against White. */
    Position lost = pos_of("b8 a7 a1 c1 e1 b2 d2 f2 c3 e3",
                           "h8 f8 g7 e7 c7 f6 d6 e5 g5 h4", 'w', '-');
    Position fine = pos_of("b8 d8 a1 c1 e1 b2 d2 f2 c3 e3",
                           "h8 f8 g7 e7 c7 f6 d6 e5 g5 h4", 'w', '-');
    int wl, bl, wf, bf;
    counts(&lost, &wl, &bl);
    counts(&fine, &wf, &bf);
    ck_assert_int_eq(wl, wf + 1);
    /* The fitted weights (doc/tuning.md) cost the lost piece about two
     * steps (191 centi-steps with the committed weights). */
    ck_assert_int_lt(V->evaluate(&lost), V->evaluate(&fine) - 150);
}
END_TEST

static Suite *pyramid_suite(void)
{
    Suite *s = suite_create("pyramid");
    TCase *tc = tcase_create("rules");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, start_position_is_two_pyramids_of_ten);
    tcase_add_test(tc, start_moves_are_the_eleven_steps_and_jumps);
    tcase_add_test(tc, pieces_step_only_diagonally_forward);
    tcase_add_test(tc, jump_over_own_piece);
    tcase_add_test(tc, jump_over_enemy_piece_captures_nothing);
    tcase_add_test(tc, jump_chain_may_stop_after_any_jump);
    tcase_add_test(tc, jumping_is_never_compulsory);
    tcase_add_test(tc, move_is_start_and_end_whatever_the_path);
    tcase_add_test(tc, filling_the_enemy_pyramid_wins_at_once);
    tcase_add_test(tc, filling_wins_even_if_the_enemy_is_far_from_home);
    tcase_add_test(tc, no_win_before_all_ten_squares_are_filled);
    tcase_add_test(tc, a_side_without_a_move_passes);
    tcase_add_test(tc, both_stuck_smaller_count_wins_by_the_difference);
    tcase_add_test(tc, counting_distance_is_fewest_forward_steps_to_the_pyramid);
    tcase_add_test(tc, fen_format);
    tcase_add_test(tc, fen_rejects_impossible_or_malformed_input);
    tcase_add_test(tc, notation_is_start_and_end_square);
    tcase_add_test(tc, parse_move_rejects_anything_not_legal);
    tcase_add_test(tc, games_always_end_forward_only);
    tcase_add_test(tc, evaluation_is_colour_symmetric_and_bounded);
    tcase_add_test(tc, evaluation_punishes_pieces_that_can_never_enter);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(pyramid_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
