/* check_lupta.c - Lupta pe 30 de pătrăţele (doc/rules.md, Lupta), one test per rule.
 *
 * Boards in the FENs below read rank 5 first, files a-f left to right:
 * W = White, B = Black, . = empty; then side to move and the two hands. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_test.h"
#include "perft.h"
#include "util.h"
#include "variants.h"

static const Variant *V;

static void setup(void)
{
    variants_init();
    V = variants_find("lupta");
    ck_assert_ptr_nonnull(V);
}

static Position pos_from(const char *fen) { return game_test_fen(V, fen); }

/* All legal moves as sorted, space-separated text. */
static void moves_text(const Position *p, char *out, size_t size)
{
    game_test_moves_text(V, p, "", out, size);
}

/* Moves whose text starts with prefix, as sorted text. */
static void moves_with_prefix(const Position *p, const char *prefix, char *out, size_t size)
{
    game_test_moves_text(V, p, prefix, out, size);
}

static Position play(const Position *p, const char *text) { return game_test_play(V, p, text); }

static void fen_of(const Position *p, char *buf) { V->to_fen(p, buf); }

static int count_moves(const Position *p)
{
    Move ms[MAX_MOVES];
    return V->generate(p, ms);
}

/* ------------------------------------------------------------ placement */

START_TEST(placement_alternates_white_first)
{
    Position p;
    V->startpos(&p, NULL);
    char fen[FEN_MAX];
    fen_of(&p, fen);
    ck_assert_str_eq(fen, "....../....../....../....../...... w 12 12");
    ck_assert_int_eq(V->side_to_move(&p), WHITE);
    ck_assert_int_eq(count_moves(&p), 30);
    p = play(&p, "c3");
    fen_of(&p, fen);
    ck_assert_str_eq(fen, "....../....../..W.../....../...... b 11 12");
    ck_assert_int_eq(count_moves(&p), 29);
    ck_assert_int_eq(V->parse_move(&p, "c3"), MOVE_NONE); /* occupied */
    p = play(&p, "d3");
    fen_of(&p, fen);
    ck_assert_str_eq(fen, "....../....../..WB../....../...... w 11 11");
    ck_assert_int_eq(count_moves(&p), 28);
    /* no step is a legal move while pieces are in hand */
    ck_assert_int_eq(V->parse_move(&p, "c3c4"), MOVE_NONE);
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
}
END_TEST

START_TEST(placement_may_not_make_horizontal_line_of_three)
{
    /* White a1 b1: c1 would make a1-b1-c1. */
    Position p = pos_from(".....B/.....B/....../....../WW.... w 10 10");
    ck_assert_int_eq(count_moves(&p), 25);
    ck_assert_int_eq(V->parse_move(&p, "c1"), MOVE_NONE);
    ck_assert(V->parse_move(&p, "d1") != MOVE_NONE);
    ck_assert(V->parse_move(&p, "c2") != MOVE_NONE);
    /* the gap in the middle: a1 . c1 forbids b1 */
    p = pos_from(".....B/.....B/....../....../W.W... w 10 10");
    ck_assert_int_eq(count_moves(&p), 25);
    ck_assert_int_eq(V->parse_move(&p, "b1"), MOVE_NONE);
    /* the rule is about the placer's pieces only: Black may place on c1 */
    p = pos_from(".....B/....../....../....../WW.... b 10 11");
    ck_assert(V->parse_move(&p, "c1") != MOVE_NONE);
}
END_TEST

START_TEST(placement_may_not_make_vertical_line_of_three)
{
    /* White a1 a2: a3 forbidden. */
    Position p = pos_from(".....B/.....B/....../W...../W..... w 10 10");
    ck_assert_int_eq(count_moves(&p), 25);
    ck_assert_int_eq(V->parse_move(&p, "a3"), MOVE_NONE);
    ck_assert(V->parse_move(&p, "b3") != MOVE_NONE);
    /* White c3 c5: c4 (the middle) forbidden. */
    p = pos_from("..W..B/.....B/..W.../....../...... w 10 10");
    ck_assert_int_eq(count_moves(&p), 25);
    ck_assert_int_eq(V->parse_move(&p, "c4"), MOVE_NONE);
}
END_TEST

START_TEST(placement_may_not_make_line_of_four)
{
    /* a1 b1 . d1: c1 would make a line of four. */
    Position p = pos_from("....BB/.....B/....../....../WW.W.. w 9 9");
    char list[4096];
    moves_text(&p, list, sizeof list);
    ck_assert_ptr_null(strstr(list, "c1"));
    ck_assert_int_eq(count_moves(&p), 23); /* 24 empty squares, c1 forbidden */
}
END_TEST

START_TEST(placement_restriction_lifted_when_every_square_is_forbidden)
{
    /* Black's last piece: each of the 7 empty squares would make a Black
     * line, so all 7 are legal. */
    Position p = pos_from("W.WWBW/WBWWBB/BB.B.B/B.W.WW/.WWB.B b 0 1");
    char list[4096];
    moves_text(&p, list, sizeof list);
    ck_assert_str_eq(list, "a1 b2 b5 c3 d2 e1 e3");
    /* A placement never captures: b5 makes a5-b5 (a line of B) and nothing
     * is removed; the movement phase starts with White to move. */
    Position c = play(&p, "c3");
    char fen[FEN_MAX];
    fen_of(&c, fen);
    ck_assert_str_eq(fen, "W.WWBW/WBWWBB/BBBB.B/B.W.WW/.WWB.B w 0 0");
    ck_assert(!V->is_noisy(&p, V->parse_move(&p, "c3")));
}
END_TEST

START_TEST(placement_restriction_kept_when_one_square_is_allowed)
{
    /* Black to place: 8 of the 9 empty squares would make a Black line, so
     * f4 is the only legal placement (the restriction is not lifted). */
    Position p = pos_from("W.WWBW/WBWWB./BB.B.B/B.W.W./.WWB.B b 1 2");
    char list[4096];
    moves_text(&p, list, sizeof list);
    ck_assert_str_eq(list, "f4");
}
END_TEST

/* ----------------------------------------------------- phase change */

START_TEST(movement_starts_after_24th_placement_with_white)
{
    Position p;
    V->startpos(&p, NULL);
    /* 24 placements that never make a line (checkered-ish pattern). */
    static const char *const seq[24] = {
        "a1", "b1", "c1", "d1", "e1", "f1", "b2", "a2", "d2", "c2", "f2", "e2",
        "a3", "b3", "c3", "d3", "e3", "f3", "b4", "a4", "d4", "c4", "f4", "e4",
    };
    for (int i = 0; i < 24; i++) {
        ck_assert_int_eq(V->side_to_move(&p), i % 2 ? BLACK : WHITE);
        p = play(&p, seq[i]);
    }
    char fen[FEN_MAX];
    fen_of(&p, fen);
    ck_assert_str_eq(fen, "....../BWBWBW/WBWBWB/BWBWBW/WBWBWB w 0 0");
    ck_assert_int_eq(V->side_to_move(&p), WHITE);
    char list[4096];
    moves_text(&p, list, sizeof list);
    /* Only the rank-4 White pieces touch the empty rank 5. */
    ck_assert_str_eq(list, "b4b5 d4d5 f4f5");
    ck_assert_int_eq(V->parse_move(&p, "a5"), MOVE_NONE); /* no placing now */
}
END_TEST

/* ------------------------------------------------------------ movement */

START_TEST(steps_are_orthogonal_never_diagonal)
{
    Position p = pos_from("BBB.../....../..W.../....../W....W w 0 0");
    char list[4096];
    moves_with_prefix(&p, "c3", list, sizeof list);
    ck_assert_str_eq(list, "c3b3 c3c2 c3c4 c3d3");
    ck_assert_int_eq(V->parse_move(&p, "c3d4"), MOVE_NONE);
    ck_assert_int_eq(V->parse_move(&p, "c3b2"), MOVE_NONE);
    ck_assert_int_eq(V->parse_move(&p, "c3c5"), MOVE_NONE); /* one square only */
    moves_with_prefix(&p, "a1", list, sizeof list);
    ck_assert_str_eq(list, "a1a2 a1b1"); /* board edge */
    ck_assert_int_eq(count_moves(&p), 4 + 2 + 2);
}
END_TEST

START_TEST(step_to_occupied_square_is_illegal)
{
    Position p = pos_from("BBB.../....../..WB../....../W....W w 0 0");
    ck_assert_int_eq(V->parse_move(&p, "c3d3"), MOVE_NONE);
    ck_assert_int_eq(V->parse_move(&p, "d3e3"), MOVE_NONE); /* not White's */
}
END_TEST

START_TEST(line_of_three_through_moved_piece_removes_any_enemy_piece)
{
    /* c2c1 makes a1-b1-c1; each of the four Black pieces is a choice. */
    Position p = pos_from("...BBB/.....B/....../..W.../WW.... w 0 0");
    char list[4096];
    moves_with_prefix(&p, "c2c1", list, sizeof list);
    ck_assert_str_eq(list, "c2c1xd5 c2c1xe5 c2c1xf4 c2c1xf5");
    moves_text(&p, list, sizeof list);
    ck_assert_str_eq(list, "a1a2 b1b2 b1c1 c2b2 c2c1xd5 c2c1xe5 c2c1xf4 c2c1xf5 c2c3 c2d2");
    Position c = play(&p, "c2c1xf4");
    char fen[FEN_MAX];
    fen_of(&c, fen);
    ck_assert_str_eq(fen, "...BBB/....../....../....../WWW... b 0 0");
    ck_assert(V->is_noisy(&p, V->parse_move(&p, "c2c1xe5")));
    ck_assert(!V->is_noisy(&p, V->parse_move(&p, "c2c3")));
    /* a removal needs an enemy piece on the square */
    ck_assert_int_eq(V->parse_move(&p, "c2c1xa1"), MOVE_NONE);
    ck_assert_int_eq(V->parse_move(&p, "c2c1xc5"), MOVE_NONE);
}
END_TEST

/* The hint of one removal in pos (Variant.order_hints). */
static int hint_of(const Position *pos, const char *text)
{
    Move moves[MAX_MOVES];
    int hints[MAX_MOVES], n = V->generate(pos, moves);
    V->order_hints(pos, moves, n, hints);
    Move m = V->parse_move(pos, text);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return hints[i];
    ck_abort_msg("%s not legal", text);
    return 0;
}

START_TEST(move_codes_name_the_move_and_hints_rank_the_removals)
{
    /* The same removal has the same code in sibling positions (history and
     * killers see one move), while its ordering hint follows the position:
     * f5 completes a standing line with f4 (q: f3) differently. */
    Position p = pos_from("...BBB/.....B/....../..W.../WW.... w 0 0");
    Position q = pos_from("...BBB/....../.....B/..W.../WW.... w 0 0");
    ck_assert_uint_eq(V->parse_move(&p, "c2c1xf5"), V->parse_move(&q, "c2c1xf5"));
    ck_assert_uint_eq(V->parse_move(&p, "c2c1xd5"), V->parse_move(&q, "c2c1xd5"));
    ck_assert_int_eq(hint_of(&p, "c2c1xf5"), 2);
    ck_assert_int_eq(hint_of(&q, "c2c1xf5"), 3);
    /* a piece of a standing line of three before a lone piece; quiet moves 0 */
    ck_assert_int_eq(hint_of(&p, "c2c1xd5"), 3);
    ck_assert_int_eq(hint_of(&p, "c2c1xf4"), 1);
    ck_assert_int_eq(hint_of(&p, "c2c3"), 0);
}
END_TEST

START_TEST(vertical_line_removes_too)
{
    /* f3e3 makes the column e1-e2-e3. */
    Position p = pos_from("BBB.../B...../.....W/....W./....W. w 0 0");
    char list[4096];
    moves_with_prefix(&p, "f3e3", list, sizeof list);
    ck_assert_str_eq(list, "f3e3xa4 f3e3xa5 f3e3xb5 f3e3xc5");
}
END_TEST

START_TEST(double_line_gives_one_removal)
{
    /* d1c1 makes a1-b1-c1 and c1-c2-c3 at once: still one removal. */
    Position p = pos_from("...BBB/.....B/..W.../..W.../WW.W.. w 0 0");
    char list[4096];
    moves_with_prefix(&p, "d1c1", list, sizeof list);
    ck_assert_str_eq(list, "d1c1xd5 d1c1xe5 d1c1xf4 d1c1xf5");
    Position c = play(&p, "d1c1xd5");
    char fen[FEN_MAX];
    fen_of(&c, fen);
    ck_assert_str_eq(fen, "....BB/.....B/..W.../..W.../WWW... b 0 0");
}
END_TEST

START_TEST(line_of_four_counts)
{
    /* c2c1 makes a1-b1-c1-d1. */
    Position p = pos_from("...BBB/....../....../..W.../WW.W.. w 0 0");
    char list[4096];
    moves_with_prefix(&p, "c2c1", list, sizeof list);
    ck_assert_str_eq(list, "c2c1xd5 c2c1xe5 c2c1xf5");
    ck_assert_int_eq(V->parse_move(&p, "c2c1"), MOVE_NONE);
}
END_TEST

START_TEST(cal_breaking_and_reforming_a_line_counts_again)
{
    /* a1-b1-c1 stands; c1 steps out to c2 (no line) and back (line again). */
    Position p = pos_from("BBB.BB/....../....../....../WWW... w 0 0");
    char list[4096];
    moves_with_prefix(&p, "c1c2", list, sizeof list);
    ck_assert_str_eq(list, "c1c2");
    p = play(&p, "c1c2");
    p = play(&p, "f5f4");
    moves_with_prefix(&p, "c2c1", list, sizeof list);
    ck_assert_str_eq(list, "c2c1xa5 c2c1xb5 c2c1xc5 c2c1xe5 c2c1xf4");
    p = play(&p, "c2c1xa5");
    p = play(&p, "f4f3");
    p = play(&p, "c1c2");
    p = play(&p, "f3f2");
    p = play(&p, "c2c1xb5");
    char fen[FEN_MAX];
    fen_of(&p, fen);
    ck_assert_str_eq(fen, "..B.B./....../....../.....B/WWW... b 0 0");
}
END_TEST

START_TEST(no_removal_when_line_does_not_include_moved_piece)
{
    /* a1-b1-c1 already stands; steps of f1 and e2 leave the moved piece
     * outside any line, so none of them removes. */
    Position p = pos_from("BBB.BB/....../....../....W./WWW..W w 0 0");
    char list[4096];
    moves_with_prefix(&p, "f1", list, sizeof list);
    ck_assert_str_eq(list, "f1e1 f1f2");
    moves_with_prefix(&p, "e2", list, sizeof list);
    ck_assert_str_eq(list, "e2d2 e2e1 e2e3 e2f2");
    /* breaking the standing line removes nothing either */
    moves_with_prefix(&p, "c1", list, sizeof list);
    ck_assert_str_eq(list, "c1c2 c1d1");
}
END_TEST

START_TEST(side_reduced_to_two_pieces_loses)
{
    /* Black has three; c2c1 removes one: White wins at once. */
    Position p = pos_from("...BB./.....B/....../..W.../WW.... w 0 0");
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    Position c = play(&p, "c2c1xf4");
    const char *reason = NULL;
    ck_assert_int_eq(V->result(&c, NULL, &reason), RESULT_WHITE_WINS);
    ck_assert_str_eq(reason, "two pieces left");
    ck_assert_int_eq(count_moves(&c), 0);
    ck_assert_uint_eq(perft_count(V, &c, 1), 0);
    /* the same when the side with two pieces is to move */
    Position d = pos_from("...BB./....../....../....../WWW... b 0 0");
    ck_assert_int_eq(V->result(&d, NULL, &reason), RESULT_WHITE_WINS);
    ck_assert_int_eq(count_moves(&d), 0);
    d = pos_from("BBB.../....../....../....../W..W.. w 0 0");
    ck_assert_int_eq(V->result(&d, NULL, NULL), RESULT_BLACK_WINS);
}
END_TEST

START_TEST(side_that_cannot_move_loses)
{
    Position p = pos_from("....../....../B...../WB..../WWB... w 0 0");
    const char *reason = NULL;
    ck_assert_int_eq(V->result(&p, NULL, &reason), RESULT_BLACK_WINS);
    ck_assert_str_eq(reason, "no legal move");
    ck_assert_int_eq(count_moves(&p), 0);
    /* Black to move on the same board can move: no result. */
    p = pos_from("....../....../B...../WB..../WWB... b 0 0");
    ck_assert_int_eq(V->result(&p, NULL, NULL), RESULT_NONE);
    /* A quiet step that walls Black in wins: e3e4 closes e4. */
    p = pos_from("...WBB/...W.B/..WWWW/WW...W/.....W w 0 0");
    Position c = play(&p, "e3e4");
    ck_assert_int_eq(V->result(&c, NULL, &reason), RESULT_WHITE_WINS);
    ck_assert_str_eq(reason, "no legal move");
}
END_TEST

START_TEST(threefold_repetition_draws)
{
    Game g;
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    game_init(&g, V, &cfg);
    char err[128];
    ck_assert(game_set_fen(&g, "B.B.B./....../....../....../W.W.W. w 0 0", err, sizeof err));
    static const char *const shuttle[4] = {"a1a2", "a5a4", "a2a1", "a4a5"};
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 4; i++) {
            ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
            ck_assert_msg(game_play_text(&g, shuttle[i], err, sizeof err), "%s", err);
        }
    }
    /* the start position has now occurred three times */
    const char *reason = NULL;
    ck_assert_int_eq(game_repetitions(&g), 3);
    ck_assert_int_eq(game_result(&g, NULL, &reason), RESULT_DRAW);
    ck_assert_str_eq(reason, "threefold repetition");
    ck_assert(!game_play_text(&g, "a1a2", err, sizeof err));
    game_free(&g);
}
END_TEST

START_TEST(same_board_other_side_or_phase_is_another_position)
{
    Position w = pos_from("B.B.B./....../....../....../W.W.W. w 0 0");
    Position b = pos_from("B.B.B./....../....../....../W.W.W. b 0 0");
    ck_assert(V->key(&w) != V->key(&b));
    /* the same three-against-three board while placing and while moving */
    Position placing = pos_from("B.B.B./....../....../....../W.W.W. w 9 9");
    ck_assert(V->key(&placing) != V->key(&w));
    ck_assert_int_eq(count_moves(&placing), 22); /* 24 empty, b1 d1 barred */
    ck_assert_int_eq(count_moves(&w), 8);
}
END_TEST

/* ------------------------------------------------------------ notation */

START_TEST(notation_line_making_step_needs_its_removal)
{
    Position p = pos_from("...BBB/.....B/....../..W.../WW.... w 0 0");
    ck_assert_int_eq(V->parse_move(&p, "c2c1"), MOVE_NONE);
    ck_assert(V->parse_move(&p, "c2c1xe5") != MOVE_NONE);
    ck_assert(V->parse_move(&p, " c2c1xe5 ") != MOVE_NONE);
    /* a quiet step may not carry a removal */
    ck_assert_int_eq(V->parse_move(&p, "c2c3xe5"), MOVE_NONE);
    Move m = V->parse_move(&p, "c2c1xe5");
    char buf[MOVE_STR_MAX];
    V->move_str(&p, m, buf);
    ck_assert_str_eq(buf, "c2c1xe5");
    m = V->parse_move(&p, "a1a2");
    V->move_str(&p, m, buf);
    ck_assert_str_eq(buf, "a1a2");
}
END_TEST

START_TEST(notation_rejects_garbage)
{
    Position p = pos_from("...BBB/.....B/....../..W.../WW.... w 0 0");
    static const char *const bad[] = {
        "", " ", "c", "c2c", "c2c1x", "c2c1xe", "c2c1xe5x", "g1", "a0", "a6", "c2c1ye5",
        "c2-c1", "c2c1xe5 a1", "0000", "\x01\xff", "c2c1xe5c2c1xe5c2c1xe5c2c1xe5",
        "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(V->parse_move(&p, bad[i]) == MOVE_NONE, "accepted '%s'", bad[i]);
    char big[5000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_int_eq(V->parse_move(&p, big), MOVE_NONE);
    /* placement text in the movement phase */
    ck_assert_int_eq(V->parse_move(&p, "d2"), MOVE_NONE);
}
END_TEST

/* ----------------------------------------------------------------- FEN */

START_TEST(fen_round_trips)
{
    static const char *const fens[] = {
        "....../....../....../....../...... w 12 12",
        "....../....../..WB../....../...... w 11 11",
        "W.WWBW/WBWWBB/BB.B.B/B.W.WW/.WWB.B b 0 1",
        "WBWB.B/W.WBBW/.WBWB./W.BW.B/WBWBBW w 0 0",
        "...BB./.....B/....../..W.../WW.... b 0 0",
        "B...W./....WW/...B../.B..B./.B.B.. b 0 0",
    };
    char out[FEN_MAX];
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Position p = pos_from(fens[i]);
        fen_of(&p, out);
        ck_assert_str_eq(out, fens[i]);
    }
    /* digits are accepted for runs of empty squares; dots are written */
    Position p = pos_from("6/6/2WB2/6/6 w 11 11");
    fen_of(&p, out);
    ck_assert_str_eq(out, "....../....../..WB../....../...... w 11 11");
}
END_TEST

START_TEST(fen_rejects_impossible_or_malformed)
{
    static const char *const bad[] = {
        "",
        "....../....../....../....../......",
        "....../....../....../....../...... w 12",
        "....../....../....../....../...... w 12 12 extra",
        "....../....../....../....../...... x 12 12",
        "....../....../....../....../..... w 12 12",
        "....../....../....../....../....... w 12 12",
        "....../....../....../...... w 12 12",
        "....../....../....../....../....../...... w 12 12",
        "....../....../....../....../.....X w 12 12",
        "....../....../....../....../...... w 13 12",
        "....../....../....../....../...... w -1 12",
        "....../....../....../....../...... w 1a 12",
        "....../....../....../....../...... b 12 12",  /* Black to place first */
        "....../....../....../....../W..... w 11 12",  /* hands vs side */
        "....../....../....../....../W..... w 10 12",  /* board + hand != 12 */
        "WWWWWW/WWWWWW/W...../....../BB.... w 0 0",    /* 13 White pieces */
        "....../....../....../....../W.BBB. w 0 0",    /* one White piece */
        "....../....../....../....../WW.BB. w 0 0",    /* both have two */
        "7/6/6/6/6 w 12 12",
        "....../....../....../....../...... w 012 12",
        "....../....../....../....../...... w 01 12",  /* leading zero */
        "....../....../....../33/...... w 12 12",      /* a run is one digit */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Position p;
        char err[128] = "";
        ck_assert_msg(!V->from_fen(&p, bad[i], NULL, err, sizeof err), "accepted '%s'", bad[i]);
        ck_assert_msg(err[0] != '\0', "no reason for '%s'", bad[i]);
    }
    char big[3000];
    memset(big, '.', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    Position p;
    char err[64];
    ck_assert(!V->from_fen(&p, big, NULL, err, sizeof err));
}
END_TEST

START_TEST(diagram_shows_board_hands_phase_and_side)
{
    Position p = pos_from("....../....../..WB../....../W..... b 10 11");
    char buf[2048];
    V->diagram(&p, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "    a b c d e f\n"));
    ck_assert_ptr_nonnull(strstr(buf, "3 | . . W B . . | 3\n"));
    ck_assert_ptr_nonnull(strstr(buf, "1 | W . . . . . | 1\n"));
    ck_assert_ptr_nonnull(strstr(buf, "Phase: placement, Black to place\n"));
    ck_assert_ptr_nonnull(strstr(buf, "White: 2 on board, 10 in hand\n"));
    ck_assert_ptr_nonnull(strstr(buf, "Black: 1 on board, 11 in hand\n"));
    ck_assert_ptr_nonnull(strstr(buf, "W = White, B = Black"));
    p = pos_from("...BB./.....B/....../..W.../WW.... w 0 0");
    V->diagram(&p, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "Phase: movement, White to move\n"));
    /* a small buffer is cut, never overrun */
    char tiny[16];
    V->diagram(&p, tiny, sizeof tiny);
    ck_assert_int_eq(strlen(tiny), 15);
}
END_TEST

/* ------------------------------------------- playouts: which moves are noisy */

/* The FEN, notation, key and perft round trips are the contract suite's
 * (tests/check_contract.c).  Here the game's own facts along random games:
 * the noisy moves are exactly the removals (the text has an 'x'), and only
 * the movement phase can run out of moves. */
START_TEST(random_playouts_noisy_moves_are_the_removals)
{
    uint64_t seed = 12345;
    long checked = 0;
    for (int g = 0; g < 60; g++) {
        Position p;
        V->startpos(&p, NULL);
        for (int ply = 0; ply < 400; ply++) {
            char fen[FEN_MAX];
            fen_of(&p, fen);
            Move ms[MAX_MOVES];
            int n = V->generate(&p, ms);
            for (int i = 0; i < n; i++) {
                char txt[MOVE_STR_MAX];
                V->move_str(&p, ms[i], txt);
                ck_assert_int_eq(V->is_noisy(&p, ms[i]), strchr(txt, 'x') != NULL);
                checked++;
            }
            if (n == 0) {
                /* never while placing: a placement is always possible */
                ck_assert(strstr(fen, " 0 0") != NULL);
                break;
            }
            Position c;
            V->make(&p, ms[util_random_below(&seed, (uint64_t)n)], &c);
            p = c;
        }
    }
    ck_assert(checked > 10000);
}
END_TEST

/* The FEN of the same position with the colours exchanged. */
static void swap_colours(const char *fen, char *out)
{
    char board[64], side[4];
    int hw, hb;
    ck_assert_int_eq(sscanf(fen, "%63s %3s %d %d", board, side, &hw, &hb), 4);
    for (char *c = board; *c; c++)
        *c = *c == 'W' ? 'B' : *c == 'B' ? 'W' : *c;
    sprintf(out, "%s %s %d %d", board, side[0] == 'w' ? "b" : "w", hb, hw);
}

START_TEST(evaluation_is_from_the_side_to_move)
{
    /* White to move, a piece up: positive; Black to move on it: negative. */
    Position p = pos_from("BB..../....../..W.../W..W../...B.W w 0 0");
    ck_assert_int_gt(V->evaluate(&p), 50);
    p = pos_from("BB..../....../..W.../W..W../...B.W b 0 0");
    ck_assert_int_lt(V->evaluate(&p), -50);
    /* exchanging the colours (and the side to move) changes nothing */
    uint64_t seed = 99;
    int compared = 0;
    for (int g = 0; g < 20; g++) {
        Position q;
        V->startpos(&q, NULL);
        for (int ply = 0; ply < 120; ply++) {
            Move ms[MAX_MOVES];
            int n = V->generate(&q, ms);
            if (n == 0)
                break;
            char fen[FEN_MAX], swapped[FEN_MAX];
            fen_of(&q, fen);
            if (strstr(fen, " 0 0")) { /* movement phase: any side may move */
                swap_colours(fen, swapped);
                Position r = pos_from(swapped);
                ck_assert_int_eq(V->evaluate(&r), V->evaluate(&q));
                compared++;
            }
            Position c;
            V->make(&q, ms[util_random_below(&seed, (uint64_t)n)], &c);
            q = c;
        }
    }
    ck_assert_int_gt(compared, 100);
}
END_TEST

static Suite *lupta_suite(void)
{
    Suite *s = suite_create("lupta");
    TCase *tc = tcase_create("rules");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, placement_alternates_white_first);
    tcase_add_test(tc, placement_may_not_make_horizontal_line_of_three);
    tcase_add_test(tc, placement_may_not_make_vertical_line_of_three);
    tcase_add_test(tc, placement_may_not_make_line_of_four);
    tcase_add_test(tc, placement_restriction_lifted_when_every_square_is_forbidden);
    tcase_add_test(tc, placement_restriction_kept_when_one_square_is_allowed);
    tcase_add_test(tc, movement_starts_after_24th_placement_with_white);
    tcase_add_test(tc, steps_are_orthogonal_never_diagonal);
    tcase_add_test(tc, step_to_occupied_square_is_illegal);
    tcase_add_test(tc, line_of_three_through_moved_piece_removes_any_enemy_piece);
    tcase_add_test(tc, move_codes_name_the_move_and_hints_rank_the_removals);
    tcase_add_test(tc, vertical_line_removes_too);
    tcase_add_test(tc, double_line_gives_one_removal);
    tcase_add_test(tc, line_of_four_counts);
    tcase_add_test(tc, cal_breaking_and_reforming_a_line_counts_again);
    tcase_add_test(tc, no_removal_when_line_does_not_include_moved_piece);
    tcase_add_test(tc, side_reduced_to_two_pieces_loses);
    tcase_add_test(tc, side_that_cannot_move_loses);
    tcase_add_test(tc, threefold_repetition_draws);
    tcase_add_test(tc, same_board_other_side_or_phase_is_another_position);
    tcase_add_test(tc, notation_line_making_step_needs_its_removal);
    tcase_add_test(tc, notation_rejects_garbage);
    tcase_add_test(tc, fen_round_trips);
    tcase_add_test(tc, fen_rejects_impossible_or_malformed);
    tcase_add_test(tc, diagram_shows_board_hands_phase_and_side);
    tcase_add_test(tc, evaluation_is_from_the_side_to_move);
    tcase_add_test(tc, random_playouts_noisy_moves_are_the_removals);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lupta_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
