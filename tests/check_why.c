/* check_why.c - `query history`, `query why` and the reasons refused moves
 * carry, driven through pipes on the real binary (SIGIL_BIN).  Every rule
 * that refuses a move has its own test, in every game; the JSON of `query
 * history` is parsed back with the strict parser of json_check.c. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"
#include "protocol_test.h"

/* Send the lines (NULL-terminated) that set a position up: none may fail. */
static void setup(const char *variant, const char *position)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "variant %s", variant);
    ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
    ck_assert_msg(pt_count_lines(pt_exchange(position), "info string error") == 0, "%s: %s",
                  position, pt_seen);
}

/* `query why <text>` answers exactly want. */
static void assert_why(const char *text, const char *want)
{
    char what[512];
    snprintf(what, sizeof what, "why %s", text);
    const char *got = pt_query(what);
    ck_assert_msg(strcmp(got, want) == 0, "query why %s:\n  got  '%s'\n  want '%s'", text, got,
                  want);
}

/* `move <text>` is refused with exactly one error line that carries the
 * same reason as `query why`, and the FEN stays. */
static void assert_refused_alike(const char *text, int ply)
{
    char what[512], want[1200], fen0[512], fen1[512];
    snprintf(what, sizeof what, "why %s", text);
    char reason[1024];
    snprintf(reason, sizeof reason, "%s", pt_query(what));
    pt_current_fen(fen0, sizeof fen0);
    snprintf(what, sizeof what, "move %s", text);
    const char *out = pt_exchange(what);
    ck_assert_int_eq(pt_count_lines(out, "info string error: "), 1);
    snprintf(want, sizeof want, "info string error: illegal move '%s' at ply %d: %s", text, ply,
             reason);
    const char *line = pt_find_line(out, "info string error: ");
    ck_assert_msg(line && strcmp(line, want) == 0, "got '%s'\nwant '%s'", line ? line : "",
                  want);
    pt_current_fen(fen1, sizeof fen1);
    ck_assert_str_eq(fen0, fen1);
}

/* ------------------------------------------------------------ history */

/* Parse `query history` and compare with the variant, start and moves. */
static void assert_history(const char *variant, const char *start, const char *const *moves,
                           int n)
{
    const char *text = pt_query("history");
    char err[256];
    JsonValue *h = json_check_parse(text, err, sizeof err);
    ck_assert_msg(h != NULL, "%s: %s", err, text);
    ck_assert_int_eq(h->type, JSON_OBJECT);
    ck_assert_int_eq(h->count, 3);
    ck_assert_str_eq(json_check_string(h, "variant"), variant);
    ck_assert_str_eq(json_check_string(h, "start"), start);
    const JsonValue *m = json_check_get(h, "moves");
    ck_assert(m && m->type == JSON_ARRAY);
    ck_assert_int_eq(m->count, n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(json_check_at(m, i)->type, JSON_STRING);
        ck_assert_str_eq(json_check_at(m, i)->string, moves[i]);
    }
    json_check_free(h);
}

START_TEST(history_of_startpos_moves_move_and_undo)
{
    pt_start();
    const char *start = "W:W14,15,16,17,18,19:B1,2,3,4,5,6";
    assert_history("solomon", start, NULL, 0);
    setup("solomon", "position startpos moves 14-9 2x12");
    const char *const two[] = {"14-9", "2x12"};
    assert_history("solomon", start, two, 2);
    ck_assert_int_eq(pt_count_lines(pt_exchange("move 15x9"), "info string error"), 0);
    const char *const three[] = {"14-9", "2x12", "15x9"};
    assert_history("solomon", start, three, 3);
    pt_exchange("undo 2");
    assert_history("solomon", start, two, 1);
    /* A refused move changes nothing. */
    pt_exchange("move 5-8");
    assert_history("solomon", start, two, 1);
    pt_finish();
}
END_TEST

START_TEST(history_of_a_fen_game_and_of_rolls)
{
    pt_start();
    /* A chain is written in full, as the engine writes it. */
    setup("solomon-chain", "position fen W:W14,19:B1,7,12 moves 14x2");
    const char *const chain[] = {"14x10x2"};
    assert_history("solomon-chain", "W:W14,19:B1,7,12", chain, 1);
    /* Alexander: the rolls are moves of the list. */
    setup("alexander", "position startpos moves c4 a1c4 e5 e5b2");
    const char *const dice[] = {"c4", "a1c4", "e5", "e5b2"};
    assert_history("alexander", "bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0", dice, 4);
    /* A new variant starts a new history. */
    setup("lupta", "position startpos moves c3 a1");
    const char *const placed[] = {"c3", "a1"};
    char fen[512];
    pt_exchange("position startpos");
    pt_current_fen(fen, sizeof fen);
    pt_exchange("position startpos moves c3 a1");
    assert_history("lupta", fen, placed, 2);
    pt_finish();
}
END_TEST

/* ---------------------------------------------------------- query why */

START_TEST(why_says_legal_movable_or_a_reason)
{
    pt_start();
    setup("solomon", "position startpos");
    assert_why("14-9", "legal");
    assert_why("14", "movable");
    assert_why("  14-9  ", "legal");
    /* 1 is Black's: no legal move starts there, it is no move. */
    ck_assert_str_ne(pt_query("why 1"), "movable");
    ck_assert_str_ne(pt_query("why 1"), "legal");
    /* The refused move's error line carries the same reason. */
    assert_refused_alike("5-8", 1);
    assert_refused_alike("zz9", 1);
    assert_refused_alike("14-10", 1);
    pt_finish();
}
END_TEST

/* ------------------------------------------------------- every rule, every game */

START_TEST(solomon_reasons)
{
    pt_start();
    /* The example: after 14-9 the capture 2x12 is compulsory. */
    setup("solomon", "position startpos moves 14-9");
    assert_why("5-8", "a capture is compulsory: 2x12");
    assert_refused_alike("5-8", 2);
    assert_why("1", "a capture is compulsory and the man on 1 cannot take: 2x12");
    assert_why("2", "movable");
    assert_why("14", "no piece there: 14 is empty (Black's pieces that can move stand on 2)");
    assert_why("9-4", "that is White's piece; Black is to move (Black's pieces that can move "
                      "stand on 2)");
    assert_why("2x9", "2x9 is no jump: a jump goes over a neighbouring piece to the point right "
                      "behind it on the same line");
    assert_why("2-19", "2 and 19 are not neighbours on a line: a step goes to the next point "
                       "along a line");
    assert_why("2-3", "3 is occupied: a step goes to an empty point");
    assert_why("14+9", "'14+9' is not a move: write a step as two points joined by '-' (14-9), "
                       "a jump as its points joined by 'x' (14x10), points 1 to 19");
    /* A man never goes back; a king may. */
    setup("solomon", "position fen W:W9:B1");
    assert_why("9-14", "a man goes only forward or sideways (sideways only along the two "
                       "horizontal lines), never back; only a king may step from 9 to 14");
    setup("solomon", "position fen W:W10:B7,K1");
    assert_why("10x1", "there is no piece on 4 to jump over");
    setup("solomon", "position fen W:W10,7:B4,K1");
    assert_why("10x1", "1 is occupied: a jump lands on the empty point behind the piece it takes");
    /* Crowning ends the move, in both games. */
    setup("solomon", "position fen W:W7:B3,4,6");
    assert_why("7x1x10", "crowning ends the move: the man is crowned on 1 and stops there, even "
                         "where it could jump on; play 7x1");
    setup("solomon-chain", "position fen W:W7:B3,4,6");
    assert_why("7x1x10", "crowning ends the move: the man is crowned on 1 and stops there, even "
                         "where it could jump on; play 7x1");
    /* One jump per move in Solomon's Game; a chain must go on in Salomon. */
    setup("solomon", "position fen W:W14,19:B1,7,12");
    assert_why("14x10x2", "in Solomon's Game a piece jumps once per move (chains are "
                          "Salomon's, solomon-chain): play 14x10");
    setup("solomon-chain", "position fen W:W14,19:B1,7,12");
    assert_why("14x10", "the capture must go on: a piece that can jump again must, to the end of "
                        "the chain: 14x10x2");
    assert_refused_alike("14x10", 1);
    assert_why("19-16", "a capture is compulsory: 14x10x2");
    /* Own pieces are never jumped. */
    setup("solomon", "position fen W:W12,9:B1");
    assert_why("12x6", "12x6 is no jump: a jump goes over a neighbouring piece to the point "
                       "right behind it on the same line");
    setup("solomon", "position fen W:W15,12:B1");
    assert_why("15x9", "a piece never jumps its own pieces: 12 is White's");
    pt_finish();
}
END_TEST

START_TEST(salto_reasons)
{
    pt_start();
    /* The example: the jump e5g7 is compulsory. */
    setup("salto", "position startpos moves c3d4 h8g7 d4e5 g7f6");
    assert_why("a3b4", "a jump is compulsory: e5g7");
    assert_refused_alike("a3b4", 5);
    assert_why("a3", "a jump is compulsory and the sun 1 on a3 cannot jump: e5g7");
    assert_why("e5", "movable");
    assert_why("e4", "e4 is a light square: Salto uses only the 50 dark squares (a1, c1 ... j10)");
    assert_why("f6e5", "that is Black's piece; White is to move (White can move from e5)");
    assert_why("d4e5", "no piece there: d4 is empty (White can move from e5)");
    assert_why("0000", "a pass (0000) is played only by a side that has no legal move; White has "
                       "1: e5g7");
    assert_why("e5g9", "e5g9 is neither a step nor a jump: a step goes one square diagonally, a "
                       "jump two, diagonally forward over an enemy piece");
    assert_why("b2c3", "a jump is compulsory: e5g7");
    /* A jump goes forward only, over an enemy piece, to an empty square. */
    setup("salto", "position startpos moves c3d4 h8g7 d4e5 g7f6 e5g7 f8h6");
    assert_why("g7e5", "a jump goes diagonally forward only (towards Black's side); backwards a "
                       "piece only steps");
    setup("salto", "position startpos moves c3d4 b8a7");
    assert_why("b2b4", "b2b4 is neither a step nor a jump: a step goes one square diagonally, a "
                       "jump two, diagonally forward over an enemy piece");
    assert_why("e1c3", "a piece never jumps its own pieces: d2 is White's");
    assert_why("b2d4", "there is no piece on c3 to jump over");
    assert_why("d4e5", "legal");
    /* The no-blocking rule (doc/rules.md's example). */
    setup("salto", "position fen 1N13/4S5/S4S13/3M3S2/2M1N21/M4M51m2M2/1N5N3s4m3/N4S31m1m4/"
                   "s1s5n2n3s2/n1s3m5n5n4 w - 135");
    assert_why("d4e3", "the no-blocking rule: after d4e3 Black would have neither a step nor a "
                       "jump; this piece may play d4e5");
    assert_refused_alike("d4e3", 1); /* plies count from the FEN */
    assert_why("f4e3", "legal");
    pt_finish();
}
END_TEST

START_TEST(pyramid_reasons)
{
    pt_start();
    setup("pyramid", "position startpos");
    assert_why("c3b4", "legal");
    assert_why("c3d2", "pieces only ever go forward (White up the board), diagonally; the piece "
                       "on c3 may play c3b4");
    assert_why("a1b2", "b2 is occupied: a move ends on an empty square; the piece on a1 may play "
                       "nothing: it is blocked");
    assert_why("a1", "the piece on a1 cannot move: the squares diagonally in front of it are "
                     "taken and it has nothing to jump to");
    assert_why("h8g7", "that is Black's piece; White is to move (c1a3, e1g3, d2f4, d2b4 or 7 "
                       "more)");
    assert_why("b4", "no piece there: b4 is empty; White's moves are c1a3, e1g3, d2f4, d2b4 or 7 "
                     "more");
    assert_why("e4", "e4 is a light square: Pyramid uses only the dark squares (a1, c1 ... h8)");
    assert_why("0000", "a pass (0000) is played only by a side that has no legal move; White has "
                       "11: c1a3, e1g3, d2f4, d2b4 or 7 more");
    assert_why("d4h8", "h8 is occupied: a move ends on an empty square; the piece on d4 may play "
                       "d4c5");
    assert_why("c3a5", "no step or chain of jumps takes the piece on c3 to a5: a jump goes over "
                       "the piece diagonally in front (of either colour) to the empty square "
                       "behind it; this piece may play c3b4");
    assert_refused_alike("c3a5", 1);
    assert_why("c3d4x", "'c3d4x' is not a move: write a move as its start and end squares (c3d4, "
                        "or c1c5 for a chain of jumps), files a to h, ranks 1 to 8; a pass is "
                        "0000");
    pt_finish();
}
END_TEST

START_TEST(lupta_reasons)
{
    pt_start();
    /* The placement rule (doc/rules.md's example). */
    setup("lupta", "position startpos moves c3 a1 d3 a2");
    assert_why("b3", "the placement rule: a piece may not be placed where it makes three of its "
                     "owner's in a row (b3 c3 d3); White may place on b1, c1, d1, e1 or 20 more");
    assert_why("e3", "the placement rule: a piece may not be placed where it makes three of its "
                     "owner's in a row (c3 d3 e3); White may place on b1, c1, d1, e1 or 20 more");
    assert_refused_alike("e3", 5);
    assert_why("c3", "c3 is occupied: a piece is placed on an empty square, e.g. b1, c1, d1, e1 "
                     "or 20 more");
    assert_why("c3c4", "the pieces are still being placed (White has 10 in hand): place one on an "
                       "empty square, e.g. b1, c1, d1, e1 or 20 more");
    /* The cal: a row made anew removes; the removal must be written. */
    setup("lupta", "position fen B.B..B/..W.../..W..B/....../WWW.B. w 0 0");
    assert_why("c1c2", "c1c2 makes a row of three (c2 c3 c4), so it must remove an enemy piece, "
                       "written after an x: c1c2xe1, c1c2xf3, c1c2xa5, c1c2xc5 or 1 more (a piece "
                       "that steps out of a row and back makes it anew and removes again: the "
                       "cal)");
    assert_refused_alike("c1c2", 1);
    assert_why("c1c2xe1", "legal");
    assert_why("a1a2xe1", "a1a2 makes no row of three, so it removes nothing: write it a1a2");
    assert_why("c1c2xc3", "a removal takes one of Black's pieces, and c3 is White's own");
    assert_why("c1c2xd2", "a removal takes one of Black's pieces, and d2 is empty");
    assert_why("c1c3", "a piece steps one square along a rank or a file, never diagonally or "
                       "further; the piece on c1 may play c1c2xe1, c1c2xf3, c1c2xa5, c1c2xc5 or "
                       "2 more");
    assert_why("b1b2x", "'b1b2x' is not a move: a placement is a square (c3), a move its start "
                        "and end squares (c3c4), with the removed piece after an x when it makes "
                        "a row (c3c4xe2); files a to f, ranks 1 to 5");
    assert_why("a5a4", "that is Black's piece; White is to move: c1c2xe1, c1c2xf3, c1c2xa5, "
                       "c1c2xc5 or 9 more");
    assert_why("d1", "every piece is placed: a move now steps one of White's pieces one square "
                     "along a rank or a file, e.g. c1c2xe1, c1c2xf3, c1c2xa5, c1c2xc5 or 9 more");
    pt_finish();
}
END_TEST

START_TEST(alexander_reasons)
{
    pt_start();
    setup("alexander", "position startpos");
    assert_why("a1c4", "a roll is due: roll the dice first (White to roll)");
    assert_refused_alike("a1c4", 1);
    assert_why("c4", "legal"); /* a roll outcome is a move of the list */
    setup("alexander", "position startpos moves c4");
    assert_why("b1c5", "the dice named c4: a piece must move onto c4 (an empty square): a1c4, "
                       "b1c4, c1c4, d1c4 or 8 more");
    assert_refused_alike("b1c5", 2);
    assert_why("c4", "the dice are thrown and named c4: now White acts: a1c4, b1c4, c1c4, d1c4 "
                     "or 8 more");
    assert_why("a1", "movable");
    assert_why("e5c4", "that is Black's piece; White is to move: a1c4, b1c4, c1c4, d1c4 or 8 "
                       "more");
    assert_why("c3c4", "no piece there: c3 is empty; the dice named c4 and White moves a piece "
                       "onto it: a1c4, b1c4, c1c4, d1c4 or 8 more");
    /* The flight: the thrown square holds one's own piece. */
    setup("alexander", "position startpos moves c2");
    assert_why("a1e6", "the dice named c2, where White's own piece stands: that piece flies to "
                       "capture an enemy piece and no other moves: c2a5, c2b5, c2c5, c2d5 or 8 "
                       "more");
    assert_why("c2c4", "a flying piece comes down on an enemy piece, and c4 is empty: c2a5, c2b5, "
                       "c2c5, c2d5 or 8 more");
    assert_why("c2a1", "a flying piece comes down on an enemy piece, and a1 holds White's own "
                       "piece: c2a5, c2b5, c2c5, c2d5 or 8 more");
    assert_why("zz", "'zz' is not a move: an action is its start and end squares (a1c4), files a "
                     "to f, ranks 1 to 6");
    pt_finish();
}
END_TEST

START_TEST(a_finished_game_and_empty_text)
{
    pt_start();
    setup("solomon", "position fen W:WK10:BK3"); /* bare kings, not neighbours: drawn */
    assert_why("10-4", "the game is over (drawn, bare kings): no move can be played; start a new "
                       "game or take a move back");
    assert_refused_alike("10-4", 1);
    setup("solomon", "position startpos");
    assert_why("", "no move given: write a move in the game's notation or a cell name");
    pt_finish();
}
END_TEST

static Suite *why_suite(void)
{
    Suite *s = suite_create("why");
    TCase *tc = tcase_create("queries");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, history_of_startpos_moves_move_and_undo);
    tcase_add_test(tc, history_of_a_fen_game_and_of_rolls);
    tcase_add_test(tc, why_says_legal_movable_or_a_reason);
    tcase_add_test(tc, solomon_reasons);
    tcase_add_test(tc, salto_reasons);
    tcase_add_test(tc, pyramid_reasons);
    tcase_add_test(tc, lupta_reasons);
    tcase_add_test(tc, alexander_reasons);
    tcase_add_test(tc, a_finished_game_and_empty_text);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(why_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
