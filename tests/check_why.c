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

static Suite *why_suite(void)
{
    Suite *s = suite_create("why");
    TCase *tc = tcase_create("queries");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, history_of_startpos_moves_move_and_undo);
    tcase_add_test(tc, history_of_a_fen_game_and_of_rolls);
    tcase_add_test(tc, why_says_legal_movable_or_a_reason);
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
