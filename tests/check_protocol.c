/* check_protocol.c - the protocol, driven through pipes on the real binary
 * (SIGIL_BIN, set by `make check`).  Each test starts a fresh engine. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "pipe_engine.h"
#include "variants.h"

#define T_SHORT 5000
#define T_LONG 30000

static PipeEngine engine;
static char seen[1 << 17];

static const char *binary(void)
{
    const char *b = getenv("SIGIL_BIN");
    return b ? b : "engine/sigil";
}

static void start(void)
{
    ck_assert_msg(pipe_engine_start(&engine, binary()), "cannot start %s", binary());
}

static void finish(void) { pipe_engine_close(&engine); }

static void send(const char *line) { pipe_engine_send(&engine, line); }

/* Send line, then isready; return everything printed before readyok. */
static const char *exchange(const char *line)
{
    seen[0] = '\0';
    if (line)
        send(line);
    send("isready");
    const char *r = pipe_engine_expect(&engine, "readyok", T_LONG, seen, sizeof seen);
    ck_assert_msg(r != NULL, "no readyok after '%.60s'; output:\n%s", line ? line : "", seen);
    seen[strlen(seen) - strlen("readyok\n")] = '\0'; /* keep only what came before */
    return seen;
}

static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, prefix, len) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}

/* The value after "Fen: " in the output of `d`. */
static void current_fen(char *fen, size_t size)
{
    const char *out = exchange("d");
    const char *f = strstr(out, "\nFen: ");
    if (!f && strncmp(out, "Fen: ", 5) == 0)
        f = out - 1;
    ck_assert_msg(f != NULL, "d printed no Fen line:\n%s", out);
    f += 6;
    size_t n = strcspn(f, "\n");
    ck_assert(n < size);
    memcpy(fen, f, n);
    fen[n] = '\0';
}

/* The legal moves listed by `d` (space separated, after the colon). */
static void legal_moves(char *list, size_t size)
{
    const char *out = exchange("d");
    const char *l = strstr(out, "Legal moves (");
    if (!l)
        l = strstr(out, "Rolls (");
    ck_assert_msg(l != NULL, "d printed no legal move line:\n%s", out);
    l = strchr(l, ':') + 1;
    size_t n = strcspn(l, "\n");
    ck_assert(n + 2 < size);
    list[0] = ' ';
    memcpy(list + 1, l, n);
    list[n + 1] = ' ';
    list[n + 2] = '\0';
}

static bool list_has(const char *list, const char *move)
{
    char key[80];
    snprintf(key, sizeof key, " %s ", move);
    return strstr(list, key) != NULL;
}

/* Exactly one error line, the engine still answers, and the position is the same. */
static void assert_rejected(const char *bad_line)
{
    char before[FEN_MAX], after[FEN_MAX];
    current_fen(before, sizeof before);
    const char *out = exchange(bad_line);
    ck_assert_msg(count_lines(out, "info string error: ") == 1,
                  "expected one error line for '%.60s', got:\n%s", bad_line, out);
    current_fen(after, sizeof after);
    ck_assert_str_eq(before, after);
}

START_TEST(uci_handshake_lists_id_options_and_uciok)
{
    start();
    send("uci");
    seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&engine, "uciok", T_SHORT, seen, sizeof seen));
    ck_assert_int_eq(count_lines(seen, "id name Sigil"), 1);
    ck_assert_int_eq(count_lines(seen, "id author "), 1);
    ck_assert_int_eq(count_lines(seen, "option name Hash type spin"), 1);
    ck_assert_int_eq(count_lines(seen, "option name Threads type spin"), 1);
    ck_assert_int_eq(count_lines(seen, "option name MultiPV type spin"), 1);
    ck_assert_int_eq(count_lines(seen, "option name UCI_Variant type combo"), 1);
    for (int i = 0; i < variants_count(); i++) {
        char var[64];
        snprintf(var, sizeof var, " var %s", variants_get(i)->name);
        ck_assert_msg(strstr(seen, var), "UCI_Variant does not list %s", variants_get(i)->name);
    }
    finish();
}
END_TEST

START_TEST(ugi_handshake_ends_in_ugiok)
{
    start();
    send("ugi");
    seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&engine, "ugiok", T_SHORT, seen, sizeof seen));
    ck_assert_int_eq(count_lines(seen, "id name Sigil"), 1);
    ck_assert_int_eq(count_lines(seen, "uciok"), 0);
    finish();
}
END_TEST

START_TEST(variant_command_and_option_select_and_reset)
{
    start();
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        char cmd[128], want[96];
        snprintf(cmd, sizeof cmd, i % 2 ? "variant %s" : "setoption name UCI_Variant value %s",
                 v->name);
        const char *out = exchange(cmd);
        ck_assert_int_eq(count_lines(out, "info string error"), 0);
        out = exchange("d");
        snprintf(want, sizeof want, "Variant: %s ", v->name);
        ck_assert_msg(strstr(out, want), "after '%s' d says:\n%s", cmd, out);
        /* the FEN is the variant's start */
        Position p;
        GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
        char fen[FEN_MAX], line[FEN_MAX + 8];
        v->startpos(&p, &cfg);
        v->to_fen(&p, fen);
        snprintf(line, sizeof line, "Fen: %s\n", fen);
        ck_assert_msg(strstr(out, line), "not at the start of %s:\n%s", v->name, out);
    }
    assert_rejected("variant chess");
    assert_rejected("setoption name UCI_Variant value nosuchgame");
    finish();
}
END_TEST

START_TEST(fen_round_trips_through_d_for_every_variant)
{
    start();
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        char cmd[FEN_MAX + 1100], fen[FEN_MAX], again[FEN_MAX], moves[8192];
        snprintf(cmd, sizeof cmd, "variant %s", v->name);
        exchange(cmd);
        /* walk a few plies with the first listed legal move, then round-trip */
        char played[1024] = "";
        for (int ply = 0; ply < 6; ply++) {
            legal_moves(moves, sizeof moves);
            char first[64];
            if (sscanf(moves, " %63s", first) != 1)
                break;
            strcat(played, " ");
            strcat(played, first);
            snprintf(cmd, sizeof cmd, "position startpos moves%s", played);
            ck_assert_int_eq(count_lines(exchange(cmd), "info string error"), 0);
        }
        current_fen(fen, sizeof fen);
        snprintf(cmd, sizeof cmd, "position fen %s", fen);
        ck_assert_int_eq(count_lines(exchange(cmd), "info string error"), 0);
        current_fen(again, sizeof again);
        ck_assert_str_eq(fen, again);
    }
    finish();
}
END_TEST

START_TEST(position_moves_are_applied_and_bad_moves_keep_the_state)
{
    start();
    char moves[8192], first[64], cmd[256], fen0[FEN_MAX], fen1[FEN_MAX];
    current_fen(fen0, sizeof fen0);
    legal_moves(moves, sizeof moves);
    ck_assert_int_eq(sscanf(moves, " %63s", first), 1);
    snprintf(cmd, sizeof cmd, "position startpos moves %s", first);
    ck_assert_int_eq(count_lines(exchange(cmd), "info string error"), 0);
    current_fen(fen1, sizeof fen1);
    ck_assert_str_ne(fen0, fen1);
    /* an illegal second move, an unparsable one, a chess move */
    snprintf(cmd, sizeof cmd, "position startpos moves %s %s", first, first);
    assert_rejected(cmd);
    assert_rejected("position startpos moves zz9");
    assert_rejected("position startpos moves e2e4");
    assert_rejected("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_rejected("position fen");
    assert_rejected("position sideways");
    finish();
}
END_TEST

START_TEST(go_depth_prints_info_lines_then_one_legal_bestmove)
{
    start();
    char moves[8192];
    legal_moves(moves, sizeof moves);
    seen[0] = '\0';
    send("go depth 3");
    const char *best = pipe_engine_expect(&engine, "bestmove ", T_LONG, seen, sizeof seen);
    ck_assert_msg(best != NULL, "no bestmove:\n%s", seen);
    char move[64];
    ck_assert_int_eq(sscanf(best, "bestmove %63s", move), 1);
    ck_assert_msg(list_has(moves, move), "bestmove %s is not legal (%s)", move, moves);
    ck_assert_msg(strchr(best + 9, ' ') == NULL, "bestmove carries more than the move: %s", best);
    ck_assert_int_ge(count_lines(seen, "info depth 3 "), 1);
    const char *info = strstr(seen, "info depth 1 ");
    ck_assert_ptr_nonnull(info);
    static const char *const fields[] = {" seldepth ", " score ", " nodes ", " nps ",
                                         " time ", " hashfull ", " pv "};
    size_t line_len = strcspn(info, "\n");
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const char *f = strstr(info, fields[i]);
        ck_assert_msg(f && (size_t)(f - info) < line_len, "info line lacks%s: %.*s", fields[i],
                      (int)line_len, info);
    }
    ck_assert_int_eq(count_lines(exchange(NULL), "bestmove"), 0);
    finish();
}
END_TEST

START_TEST(go_infinite_answers_isready_and_stop_gives_exactly_one_bestmove)
{
    start();
    send("go infinite");
    const char *out = exchange(NULL); /* readyok comes while searching */
    ck_assert_int_eq(count_lines(out, "bestmove"), 0);
    seen[0] = '\0';
    send("stop");
    ck_assert_ptr_nonnull(pipe_engine_expect(&engine, "bestmove ", T_SHORT, seen, sizeof seen));
    out = exchange("stop"); /* a second stop is silent */
    ck_assert_int_eq(count_lines(out, "bestmove"), 0);
    ck_assert_int_eq(count_lines(out, "info string error"), 0);
    finish();
}
END_TEST

START_TEST(go_with_clocks_movetime_and_nodes_answers)
{
    start();
    static const char *const gos[] = {
        "go movetime 100",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go p1time 500 p2time 500 p1inc 0 p2inc 0",
        "go wtime 2000 btime 2000 movestogo 20",
        "go nodes 2000",
    };
    for (size_t i = 0; i < sizeof gos / sizeof *gos; i++) {
        seen[0] = '\0';
        send(gos[i]);
        const char *best = pipe_engine_expect(&engine, "bestmove ", T_SHORT, seen, sizeof seen);
        ck_assert_msg(best != NULL, "'%s' gave no bestmove:\n%s", gos[i], seen);
        ck_assert_msg(count_lines(seen, "info depth") >= 1 && strstr(seen, " score "),
                      "'%s' printed no info score before bestmove:\n%s", gos[i], seen);
    }
    finish();
}
END_TEST

START_TEST(go_in_a_finished_game_answers_bestmove_0000)
{
    /* Find a game the library ends by playing the first legal move every ply. */
    const Variant *v = variants_default();
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    Game g;
    game_init(&g, v, &cfg);
    static char cmd[1 << 15];
    int len = snprintf(cmd, sizeof cmd, "position startpos moves");
    while (game_result(&g, NULL, NULL) == RESULT_NONE && g.ply < 1000) {
        Move moves[MAX_MOVES];
        int n = v->generate(&g.pos, moves);
        ck_assert_int_gt(n, 0);
        char text[MOVE_STR_MAX];
        Move m = moves[(g.ply * 7) % n];
        v->move_str(&g.pos, m, text);
        len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s", text);
        game_play(&g, m);
    }
    ck_assert(game_result(&g, NULL, NULL) != RESULT_NONE);
    start();
    ck_assert_int_eq(count_lines(exchange(cmd), "info string error"), 0);
    ck_assert_str_eq(exchange("query gameover"), "response true\n");
    seen[0] = '\0';
    send("go depth 5");
    const char *best = pipe_engine_expect(&engine, "bestmove", T_SHORT, seen, sizeof seen);
    ck_assert_ptr_nonnull(best);
    ck_assert_str_eq(best, "bestmove 0000");
    ck_assert_msg(strstr(seen, " score "), "no info score before bestmove:\n%s", seen);
    const char *out = exchange("query result");
    ck_assert_msg(count_lines(out, "response ") == 1 &&
                      (strstr(out, "\nresponse p1win\n") || strstr(out, "\nresponse p2win\n") ||
                       strstr(out, "\nresponse draw\n")),
                  "query result: %s", out);
    ck_assert_msg(count_lines(out, "info string result ") == 1, "no reason line: %s", out);
    game_free(&g);
    finish();
}
END_TEST

START_TEST(perft_lists_each_move_then_the_total)
{
    start();
    for (int form = 0; form < 2; form++) {
        seen[0] = '\0';
        send(form ? "go perft 2" : "perft 2");
        const char *total = pipe_engine_expect(&engine, "Nodes searched: ", T_LONG, seen, sizeof seen);
        ck_assert_ptr_nonnull(total);
        uint64_t want = strtoull(total + 16, NULL, 10), sum = 0;
        int moves = 0;
        for (const char *p = seen; *p;) {
            const char *colon = strstr(p, ": ");
            const char *nl = strchr(p, '\n');
            if (colon && colon < nl && strncmp(p, "Nodes", 5) != 0) {
                sum += strtoull(colon + 2, NULL, 10);
                moves++;
            }
            p = nl + 1;
        }
        ck_assert_int_gt(moves, 0);
        ck_assert_uint_eq(sum, want);
        ck_assert_msg(strstr(seen, "\n\nNodes searched: "), "no blank line before the total");
        const char *info = pipe_engine_read(&engine, T_SHORT);
        ck_assert_ptr_nonnull(info);
        ck_assert_msg(strncmp(info, "info string perft", 17) == 0 && strstr(info, " nps "),
                      "no timing line: %s", info);
    }
    finish();
}
END_TEST

START_TEST(ugi_queries_answer_in_two_words)
{
    start();
    ck_assert_str_eq(exchange("query gameover"), "response false\n");
    ck_assert_str_eq(exchange("query p1turn"), "response true\n");
    ck_assert_str_eq(exchange("query result"), "response none\n");
    char moves[8192], first[64], cmd[128];
    legal_moves(moves, sizeof moves);
    sscanf(moves, " %63s", first);
    snprintf(cmd, sizeof cmd, "position startpos moves %s", first);
    exchange(cmd);
    ck_assert_str_eq(exchange("query p1turn"), "response false\n");
    assert_rejected("query colour");
    finish();
}
END_TEST

START_TEST(bad_input_gets_one_error_line_and_changes_nothing)
{
    start();
    char moves[8192], first[64], cmd[128];
    legal_moves(moves, sizeof moves);
    sscanf(moves, " %63s", first);
    snprintf(cmd, sizeof cmd, "position startpos moves %s", first);
    exchange(cmd);
    assert_rejected("flibbertigibbet");
    assert_rejected("position fen !!!!");
    assert_rejected("position fen W:W99:B1");
    assert_rejected("setoption name Hash value lots");
    assert_rejected("setoption name NoSuchOption value 1");
    assert_rejected("perft x");
    assert_rejected("perft 99");
    /* 100 kB on one line */
    static char huge[100 * 1024 + 1];
    memset(huge, 'q', sizeof huge - 1);
    assert_rejected(huge);
    memcpy(huge, "position startpos moves ", 24);
    assert_rejected(huge);
    /* binary garbage, including NUL and control bytes */
    char before[FEN_MAX], after[FEN_MAX];
    current_fen(before, sizeof before);
    static const unsigned char garbage[] = {0x01, 0x02, 0xff, 0x00, 0x7f, 0x1b, '[', '2', 'J', 0x80, '\n'};
    seen[0] = '\0';
    pipe_engine_write(&engine, garbage, sizeof garbage);
    const char *out = exchange(NULL);
    ck_assert_int_eq(count_lines(out, "info string error: "), 1);
    current_fen(after, sizeof after);
    ck_assert_str_eq(before, after);
    finish();
}
END_TEST

START_TEST(quit_ends_the_engine_even_while_searching)
{
    start();
    send("go infinite");
    exchange(NULL);
    send("quit");
    ck_assert_int_eq(pipe_engine_wait(&engine, T_SHORT), 0);
    finish();
}
END_TEST

START_TEST(help_and_bench_answer)
{
    start();
    const char *out = exchange("help");
    static const char *const commands[] = {"uci", "isready", "setoption", "position", "go",
                                           "stop", "perft", "query", "d", "bench", "quit"};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char key[32];
        snprintf(key, sizeof key, "  %s", commands[i]);
        ck_assert_msg(strstr(out, key), "help does not list %s", commands[i]);
    }
    send("bench 2");
    seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&engine, "Nodes searched", T_LONG, seen, sizeof seen));
    finish();
}
END_TEST

START_TEST(d_shows_board_fen_key_and_legal_moves)
{
    start();
    const char *out = exchange("d");
    ck_assert_msg(strstr(out, "\nFen: ") || strncmp(out, "Fen: ", 5) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\nKey: "));
    ck_assert_ptr_nonnull(strstr(out, "\nLegal moves ("));
    ck_assert_ptr_nonnull(strstr(out, "\nSide to move: white"));
    finish();
}
END_TEST

static Suite *protocol_suite(void)
{
    Suite *s = suite_create("protocol");
    TCase *tc = tcase_create("pipes");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, uci_handshake_lists_id_options_and_uciok);
    tcase_add_test(tc, ugi_handshake_ends_in_ugiok);
    tcase_add_test(tc, variant_command_and_option_select_and_reset);
    tcase_add_test(tc, fen_round_trips_through_d_for_every_variant);
    tcase_add_test(tc, position_moves_are_applied_and_bad_moves_keep_the_state);
    tcase_add_test(tc, go_depth_prints_info_lines_then_one_legal_bestmove);
    tcase_add_test(tc, go_infinite_answers_isready_and_stop_gives_exactly_one_bestmove);
    tcase_add_test(tc, go_with_clocks_movetime_and_nodes_answers);
    tcase_add_test(tc, go_in_a_finished_game_answers_bestmove_0000);
    tcase_add_test(tc, perft_lists_each_move_then_the_total);
    tcase_add_test(tc, ugi_queries_answer_in_two_words);
    tcase_add_test(tc, bad_input_gets_one_error_line_and_changes_nothing);
    tcase_add_test(tc, quit_ends_the_engine_even_while_searching);
    tcase_add_test(tc, help_and_bench_answer);
    tcase_add_test(tc, d_shows_board_fen_key_and_legal_moves);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(protocol_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
