/* check_protocol.c - the protocol, driven through pipes on the real binary
 * (SIGIL_BIN, set by `make check`).  Each test starts a fresh engine. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "game.h"
#include "protocol_test.h"
#include "variants.h"

START_TEST(uci_handshake_lists_id_options_and_uciok)
{
    pt_start();
    pt_send("uci");
    pt_seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "uciok", T_SHORT, pt_seen, sizeof pt_seen));
    ck_assert_int_eq(pt_count_lines(pt_seen, "id name Sigil"), 1);
    ck_assert_int_eq(pt_count_lines(pt_seen, "id author "), 1);
    ck_assert_int_eq(pt_count_lines(pt_seen, "option name Hash type spin"), 1);
    ck_assert_int_eq(pt_count_lines(pt_seen, "option name Threads type spin"), 1);
    ck_assert_int_eq(pt_count_lines(pt_seen, "option name MultiPV type spin"), 1);
    ck_assert_int_eq(pt_count_lines(pt_seen, "option name UCI_Variant type combo"), 1);
    for (int i = 0; i < variants_count(); i++) {
        char var[64];
        snprintf(var, sizeof var, " var %s", variants_get(i)->name);
        ck_assert_msg(strstr(pt_seen, var), "UCI_Variant does not list %s", variants_get(i)->name);
    }
    pt_finish();
}
END_TEST

START_TEST(ugi_handshake_ends_in_ugiok)
{
    pt_start();
    pt_send("ugi");
    pt_seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "ugiok", T_SHORT, pt_seen, sizeof pt_seen));
    ck_assert_int_eq(pt_count_lines(pt_seen, "id name Sigil"), 1);
    ck_assert_int_eq(pt_count_lines(pt_seen, "uciok"), 0);
    pt_finish();
}
END_TEST

START_TEST(variant_command_and_option_select_and_reset)
{
    pt_start();
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        char cmd[128], want[96];
        snprintf(cmd, sizeof cmd, i % 2 ? "variant %s" : "setoption name UCI_Variant value %s",
                 v->name);
        const char *out = pt_exchange(cmd);
        ck_assert_int_eq(pt_count_lines(out, "info string error"), 0);
        out = pt_exchange("d");
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
    pt_assert_rejected("variant chess");
    pt_assert_rejected("setoption name UCI_Variant value nosuchgame");
    pt_finish();
}
END_TEST

START_TEST(fen_round_trips_through_d_for_every_variant)
{
    pt_start();
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        char cmd[FEN_MAX + 1100], fen[FEN_MAX], again[FEN_MAX], moves[8192];
        snprintf(cmd, sizeof cmd, "variant %s", v->name);
        pt_exchange(cmd);
        /* walk a few plies with the first listed legal move, then round-trip */
        char played[1024] = "";
        for (int ply = 0; ply < 6; ply++) {
            pt_legal_moves(moves, sizeof moves);
            char first[64];
            if (sscanf(moves, " %63s", first) != 1)
                break;
            strcat(played, " ");
            strcat(played, first);
            snprintf(cmd, sizeof cmd, "position startpos moves%s", played);
            ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
        }
        pt_current_fen(fen, sizeof fen);
        snprintf(cmd, sizeof cmd, "position fen %s", fen);
        ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
        pt_current_fen(again, sizeof again);
        ck_assert_str_eq(fen, again);
    }
    pt_finish();
}
END_TEST

START_TEST(position_moves_are_applied_and_bad_moves_keep_the_state)
{
    pt_start();
    char moves[8192], first[64], cmd[256], fen0[FEN_MAX], fen1[FEN_MAX];
    pt_current_fen(fen0, sizeof fen0);
    pt_legal_moves(moves, sizeof moves);
    ck_assert_int_eq(sscanf(moves, " %63s", first), 1);
    snprintf(cmd, sizeof cmd, "position startpos moves %s", first);
    ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
    pt_current_fen(fen1, sizeof fen1);
    ck_assert_str_ne(fen0, fen1);
    /* an illegal second move, an unparsable one, a chess move */
    snprintf(cmd, sizeof cmd, "position startpos moves %s %s", first, first);
    pt_assert_rejected(cmd);
    pt_assert_rejected("position startpos moves zz9");
    pt_assert_rejected("position startpos moves e2e4");
    pt_assert_rejected("position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    pt_assert_rejected("position fen");
    pt_assert_rejected("position sideways");
    pt_finish();
}
END_TEST

START_TEST(go_depth_prints_info_lines_then_one_legal_bestmove)
{
    pt_start();
    char moves[8192];
    pt_legal_moves(moves, sizeof moves);
    pt_seen[0] = '\0';
    pt_send("go depth 3");
    const char *best = pipe_engine_expect(&pt_engine, "bestmove ", T_LONG, pt_seen, sizeof pt_seen);
    ck_assert_msg(best != NULL, "no bestmove:\n%s", pt_seen);
    char move[64];
    ck_assert_int_eq(sscanf(best, "bestmove %63s", move), 1);
    ck_assert_msg(pt_list_has(moves, move), "bestmove %s is not legal (%s)", move, moves);
    ck_assert_msg(strchr(best + 9, ' ') == NULL, "bestmove carries more than the move: %s", best);
    ck_assert_int_ge(pt_count_lines(pt_seen, "info depth 3 "), 1);
    const char *info = strstr(pt_seen, "info depth 1 ");
    ck_assert_ptr_nonnull(info);
    static const char *const fields[] = {" seldepth ", " score ", " nodes ", " nps ",
                                         " time ", " hashfull ", " pv "};
    size_t line_len = strcspn(info, "\n");
    for (size_t i = 0; i < sizeof fields / sizeof *fields; i++) {
        const char *f = strstr(info, fields[i]);
        ck_assert_msg(f && (size_t)(f - info) < line_len, "info line lacks%s: %.*s", fields[i],
                      (int)line_len, info);
    }
    ck_assert_int_eq(pt_count_lines(pt_exchange(NULL), "bestmove"), 0);
    pt_finish();
}
END_TEST

START_TEST(go_infinite_answers_isready_and_stop_gives_exactly_one_bestmove)
{
    pt_start();
    pt_send("go infinite");
    const char *out = pt_exchange(NULL); /* readyok comes while searching */
    ck_assert_int_eq(pt_count_lines(out, "bestmove"), 0);
    pt_seen[0] = '\0';
    pt_send("stop");
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "bestmove ", T_SHORT, pt_seen, sizeof pt_seen));
    out = pt_exchange("stop"); /* a second stop is silent */
    ck_assert_int_eq(pt_count_lines(out, "bestmove"), 0);
    ck_assert_int_eq(pt_count_lines(out, "info string error"), 0);
    pt_finish();
}
END_TEST

START_TEST(go_ponder_waits_for_ponderhit_then_plays_under_the_clock)
{
    pt_start();
    pt_exchange("setoption name Ponder value true");
    pt_exchange("position startpos");
    /* A normal search names the expected reply once Ponder is on. */
    pt_send("go depth 3");
    pt_seen[0] = '\0';
    const char *best = pipe_engine_expect(&pt_engine, "bestmove ", T_LONG, pt_seen, sizeof pt_seen);
    ck_assert_ptr_nonnull(best);
    ck_assert_ptr_nonnull(strstr(best, " ponder "));
    /* Pondering: no bestmove before ponderhit, however long it thinks. */
    pt_send("go ponder movetime 200");
    const char *out = pt_exchange(NULL);
    ck_assert_int_eq(pt_count_lines(out, "bestmove"), 0);
    struct timespec pause = {0, 400000000};
    nanosleep(&pause, NULL);
    out = pt_exchange(NULL);
    ck_assert_int_eq(pt_count_lines(out, "bestmove"), 0);
    /* ponderhit: the search goes on under its clock and answers by itself. */
    pt_seen[0] = '\0';
    pt_send("ponderhit");
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "bestmove ", T_SHORT, pt_seen, sizeof pt_seen));
    ck_assert_int_eq(pt_count_lines(pt_seen, "info string error"), 0);
    /* ponderhit with nothing pondering is an error, and harmless. */
    out = pt_exchange("ponderhit");
    ck_assert_int_eq(pt_count_lines(out, "info string error: ponderhit"), 1);
    ck_assert_int_eq(pt_count_lines(out, "bestmove"), 0);
    /* stop ends a ponder search with its bestmove. */
    pt_send("go ponder wtime 10000 btime 10000");
    pt_exchange(NULL);
    pt_seen[0] = '\0';
    pt_send("stop");
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "bestmove ", T_SHORT, pt_seen, sizeof pt_seen));
    pt_finish();
}
END_TEST

START_TEST(go_with_clocks_movetime_and_nodes_answers)
{
    pt_start();
    static const char *const gos[] = {
        "go movetime 100",
        "go wtime 1000 btime 1000 winc 10 binc 10",
        "go p1time 500 p2time 500 p1inc 0 p2inc 0",
        "go wtime 2000 btime 2000 movestogo 20",
        "go nodes 2000",
    };
    for (size_t i = 0; i < sizeof gos / sizeof *gos; i++) {
        pt_seen[0] = '\0';
        pt_send(gos[i]);
        const char *best = pipe_engine_expect(&pt_engine, "bestmove ", T_SHORT, pt_seen, sizeof pt_seen);
        ck_assert_msg(best != NULL, "'%s' gave no bestmove:\n%s", gos[i], pt_seen);
        ck_assert_msg(pt_count_lines(pt_seen, "info depth") >= 1 && strstr(pt_seen, " score "),
                      "'%s' printed no info score before bestmove:\n%s", gos[i], pt_seen);
    }
    pt_finish();
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
    pt_start();
    ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
    ck_assert_str_eq(pt_exchange("query gameover"), "response true\n");
    pt_seen[0] = '\0';
    pt_send("go depth 5");
    const char *best = pipe_engine_expect(&pt_engine, "bestmove", T_SHORT, pt_seen, sizeof pt_seen);
    ck_assert_ptr_nonnull(best);
    ck_assert_str_eq(best, "bestmove 0000");
    ck_assert_msg(strstr(pt_seen, " score "), "no info score before bestmove:\n%s", pt_seen);
    const char *result = pt_query("result"); /* its one line: the reason is in d */
    ck_assert_msg(strcmp(result, "p1win") == 0 || strcmp(result, "p2win") == 0 ||
                      strcmp(result, "draw") == 0,
                  "query result: %s", result);
    game_free(&g);
    pt_finish();
}
END_TEST

START_TEST(perft_lists_each_move_then_the_total)
{
    pt_start();
    for (int form = 0; form < 2; form++) {
        pt_seen[0] = '\0';
        pt_send(form ? "go perft 2" : "perft 2");
        const char *total = pipe_engine_expect(&pt_engine, "Nodes searched: ", T_LONG, pt_seen, sizeof pt_seen);
        ck_assert_ptr_nonnull(total);
        uint64_t want = strtoull(total + 16, NULL, 10), sum = 0;
        int moves = 0;
        for (const char *p = pt_seen; *p;) {
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
        ck_assert_msg(strstr(pt_seen, "\n\nNodes searched: "), "no blank line before the total");
        const char *info = pipe_engine_read(&pt_engine, T_SHORT);
        ck_assert_ptr_nonnull(info);
        ck_assert_msg(strncmp(info, "info string perft", 17) == 0 && strstr(info, " nps "),
                      "no timing line: %s", info);
    }
    pt_finish();
}
END_TEST

START_TEST(ugi_queries_answer_in_two_words)
{
    pt_start();
    ck_assert_str_eq(pt_exchange("query gameover"), "response false\n");
    ck_assert_str_eq(pt_exchange("query p1turn"), "response true\n");
    ck_assert_str_eq(pt_exchange("query result"), "response none\n");
    char moves[8192], first[64], cmd[128];
    pt_legal_moves(moves, sizeof moves);
    sscanf(moves, " %63s", first);
    snprintf(cmd, sizeof cmd, "position startpos moves %s", first);
    pt_exchange(cmd);
    ck_assert_str_eq(pt_exchange("query p1turn"), "response false\n");
    pt_assert_rejected("query colour");
    pt_finish();
}
END_TEST

START_TEST(unknown_variants_bad_go_numbers_and_help_say_what_is_right)
{
    pt_start();
    const char *out = pt_exchange("variant salot");
    ck_assert_int_eq(pt_count_lines(out, "info string error: "), 1);
    ck_assert_str_eq(pt_find_line(out, "info string error: "),
                     "info string error: unknown variant 'salot' (the games: solomon, "
                     "solomon-chain, salto, pyramid, lupta, alexander); did you mean salto?");
    out = pt_exchange("variant chess");
    ck_assert_ptr_nonnull(pt_find_line(out, "info string error: unknown variant 'chess' (the "
                                            "games: solomon, "));
    ck_assert_ptr_null(strstr(out, "did you mean"));
    ck_assert_str_eq(pt_query("variant"), "solomon");
    pt_seen[0] = '\0';
    pt_send("go depth x");
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "bestmove ", T_LONG, pt_seen,
                                             sizeof pt_seen));
    ck_assert_ptr_nonnull(pt_find_line(pt_seen, "info string error: go: 'depth' needs a whole "
                                                "number from 1 to 127, not 'x'; searching to "
                                                "depth 1"));
    /* help: one line per command; go's limits on its line; ponderhit does
     * not end the search (protocol.md). */
    out = pt_exchange("help");
    const char *go = pt_find_line(out, "  go ");
    ck_assert_ptr_nonnull(go);
    ck_assert_ptr_nonnull(strstr(go, "perft N"));
    ck_assert_ptr_nonnull(strstr(go, "movetime MS"));
    const char *ph = pt_find_line(out, "  ponderhit ");
    ck_assert_ptr_nonnull(ph);
    ck_assert_ptr_null(strstr(ph, "ends the search"));
    ck_assert_ptr_nonnull(strstr(ph, "goes on"));
    for (const char *l = out; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
        ck_assert_msg(strncmp(l, "  ", 2) == 0 || strncmp(l, "Sigil commands", 14) == 0,
                      "a help line that belongs to no command: %.80s", l);
    pt_finish();
}
END_TEST

START_TEST(bad_input_gets_one_error_line_and_changes_nothing)
{
    pt_start();
    char moves[8192], first[64], cmd[128];
    pt_legal_moves(moves, sizeof moves);
    sscanf(moves, " %63s", first);
    snprintf(cmd, sizeof cmd, "position startpos moves %s", first);
    pt_exchange(cmd);
    pt_assert_rejected("flibbertigibbet");
    pt_assert_rejected("position fen !!!!");
    pt_assert_rejected("position fen W:W99:B1");
    pt_assert_rejected("setoption name Hash value lots");
    pt_assert_rejected("setoption name NoSuchOption value 1");
    pt_assert_rejected("perft x");
    pt_assert_rejected("perft 99");
    /* 100 kB on one line */
    static char huge[100 * 1024 + 1];
    memset(huge, 'q', sizeof huge - 1);
    pt_assert_rejected(huge);
    memcpy(huge, "position startpos moves ", 24);
    pt_assert_rejected(huge);
    /* binary garbage, including NUL and control bytes */
    char before[FEN_MAX], after[FEN_MAX];
    pt_current_fen(before, sizeof before);
    static const unsigned char garbage[] = {0x01, 0x02, 0xff, 0x00, 0x7f, 0x1b, '[', '2', 'J', 0x80, '\n'};
    pt_seen[0] = '\0';
    pipe_engine_write(&pt_engine, garbage, sizeof garbage);
    const char *out = pt_exchange(NULL);
    ck_assert_int_eq(pt_count_lines(out, "info string error: "), 1);
    pt_current_fen(after, sizeof after);
    ck_assert_str_eq(before, after);
    pt_finish();
}
END_TEST

/* The engine's resident memory in kB (VmRSS of /proc/PID/status; -1
 * where there is no /proc). */
static long engine_rss_kb(void)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pt_engine.pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "VmRSS: %ld", &kb) == 1)
            break;
    if (f)
        fclose(f);
    return kb;
}

/* A line longer than 1 MiB is dropped with one error line, whatever its
 * length, and leaves no lasting growth of the resident memory (the line
 * buffer is capped and released after a long line). */
START_TEST(a_huge_line_is_refused_and_leaves_no_memory_behind)
{
    /* Under AddressSanitizer freed blocks wait in a quarantine (256 MB) and
     * count as resident: the engine of this test frees at once. */
    const char *asan = getenv("ASAN_OPTIONS");
    char opts[1024];
    snprintf(opts, sizeof opts, "%s%squarantine_size_mb=0", asan ? asan : "",
             asan && *asan ? ":" : "");
    setenv("ASAN_OPTIONS", opts, 1);
    pt_start();
    char fen[FEN_MAX], after[FEN_MAX];
    pt_current_fen(fen, sizeof fen);
    long before = engine_rss_kb();
    static char chunk[1 << 20];
    memset(chunk, 'q', sizeof chunk);
    memcpy(chunk, "position startpos moves ", 24);
    for (int i = 0; i < 24; i++) /* 24 MB without a newline */
        pipe_engine_write(&pt_engine, chunk, sizeof chunk);
    const char *out = pt_exchange("");
    ck_assert_int_eq(pt_count_lines(out, "info string error: line longer than 1048576 bytes"), 1);
    ck_assert_int_eq(pt_count_lines(out, "info string"), 1);
    /* a line of exactly 1 MiB is read (and refused as a bad move list) */
    chunk[sizeof chunk - 1] = '\n';
    pipe_engine_write(&pt_engine, chunk, sizeof chunk);
    out = pt_exchange(NULL);
    ck_assert_int_eq(pt_count_lines(out, "info string error: "), 1);
    ck_assert_int_eq(pt_count_lines(out, "info string error: line longer"), 0);
    /* many long lines, each one error */
    chunk[sizeof chunk - 1] = 'q';
    for (int i = 0; i < 20; i++) {
        pipe_engine_write(&pt_engine, chunk, sizeof chunk);
        pipe_engine_write(&pt_engine, "qq\n", 3);
    }
    out = pt_exchange(NULL);
    ck_assert_int_eq(pt_count_lines(out, "info string error: line longer than 1048576 bytes"), 20);
    long later = engine_rss_kb();
    if (before > 0)
        ck_assert_msg(later - before < 6 * 1024, "resident memory grew from %ld to %ld kB",
                      before, later);
    pt_current_fen(after, sizeof after);
    ck_assert_str_eq(fen, after);
    pt_finish();
}
END_TEST

/* The largest Hash is taken (memory not written up front) and the engine
 * searches with it, clears it and searches again. */
START_TEST(the_largest_hash_is_accepted_and_the_engine_answers)
{
    pt_start();
    long before = engine_rss_kb();
    long long start = pt_now_ms();
    const char *out = pt_exchange("setoption name Hash value 4096");
    ck_assert_int_eq(pt_count_lines(out, "info string"), 0);
    ck_assert_int_lt(pt_now_ms() - start, T_LONG);
    /* not written up front: far from 4 GB resident */
    if (before > 0)
        ck_assert_msg(engine_rss_kb() - before < 256 * 1024, "resident %ld kB after Hash 4096",
                      engine_rss_kb());
    for (int i = 0; i < 2; i++) {
        pt_send("go nodes 20000");
        pt_seen[0] = '\0';
        const char *best = pipe_engine_expect(&pt_engine, "bestmove ", T_LONG, pt_seen, sizeof pt_seen);
        ck_assert_ptr_nonnull(best);
        ck_assert_str_ne(best, "bestmove 0000");
        pt_exchange("ucinewgame");
        pt_exchange("setoption name Hash value 16");
        pt_exchange("setoption name Hash value 4096");
    }
    /* searched, cleared, resized twice: no lasting growth either */
    if (before > 0)
        ck_assert_msg(engine_rss_kb() - before < 256 * 1024, "resident %ld kB after the cycles",
                      engine_rss_kb());
    pt_finish();
}
END_TEST

START_TEST(quit_ends_the_engine_even_while_searching)
{
    pt_start();
    pt_send("go infinite");
    pt_exchange(NULL);
    pt_send("quit");
    ck_assert_int_eq(pipe_engine_wait(&pt_engine, T_SHORT), 0);
    pt_finish();
}
END_TEST

START_TEST(help_and_bench_answer)
{
    pt_start();
    const char *out = pt_exchange("help");
    static const char *const commands[] = {"uci", "isready", "setoption", "position", "go",
                                           "stop", "perft", "query", "d", "bench", "quit"};
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        char key[32];
        snprintf(key, sizeof key, "  %s", commands[i]);
        ck_assert_msg(strstr(out, key), "help does not list %s", commands[i]);
    }
    pt_send("bench 2");
    pt_seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "Nodes searched", T_LONG, pt_seen, sizeof pt_seen));
    pt_finish();
}
END_TEST

START_TEST(d_shows_board_fen_key_and_legal_moves)
{
    pt_start();
    const char *out = pt_exchange("d");
    ck_assert_msg(strstr(out, "\nFen: ") || strncmp(out, "Fen: ", 5) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\nKey: "));
    ck_assert_ptr_nonnull(strstr(out, "\nLegal moves ("));
    ck_assert_ptr_nonnull(strstr(out, "\nSide to move: white"));
    pt_finish();
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
    tcase_add_test(tc, go_ponder_waits_for_ponderhit_then_plays_under_the_clock);
    tcase_add_test(tc, go_with_clocks_movetime_and_nodes_answers);
    tcase_add_test(tc, go_in_a_finished_game_answers_bestmove_0000);
    tcase_add_test(tc, perft_lists_each_move_then_the_total);
    tcase_add_test(tc, ugi_queries_answer_in_two_words);
    tcase_add_test(tc, bad_input_gets_one_error_line_and_changes_nothing);
    tcase_add_test(tc, a_huge_line_is_refused_and_leaves_no_memory_behind);
    tcase_add_test(tc, the_largest_hash_is_accepted_and_the_engine_answers);
    tcase_add_test(tc, unknown_variants_bad_go_numbers_and_help_say_what_is_right);
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
