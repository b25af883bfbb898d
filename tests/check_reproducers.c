/* check_reproducers.c - inputs that once crashed or hung the engine, replayed
 * through pipes on the real binary (SIGIL_BIN) in every build, the sanitizer
 * ones included (where an overflow or a race aborts the engine and the test
 * sees it die):
 *   - clocks near 2^61 and 2^63 ms (`go wtime 2305843009213693951 winc
 *     2305843009213693951 movestogo 1` overflowed the time manager);
 *   - a search nothing but `stop` would end, cut short by the end of input
 *     (`printf 'go\n' | sigil` never exited);
 *   - a deep perft, which `quit` and `stop` must still reach (`perft 32`
 *     blocked `quit`; so did `perft 20` from Solomon's, Solomon-chain's and
 *     Salto's start, through a forced move that made the leaf estimate 1,
 *     until perft chunks were capped at four plies);
 *   - a number longer than a token buffer: `perft` followed by 300 zeros
 *     and a 2 was cut to its first 255 zeros and ran perft 0 (found by
 *     fuzz_protocol; `undo` and `bench`, whose ranges start at 1, refused
 *     such numbers only because the cut number was 0).
 * Each test starts a fresh engine. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pipe_engine.h"
#include "variants.h"

/* Generous: sanitizer builds are several times slower, the machine shared. */
#define T_REPLY 30000
/* How long an engine may take to exit once its input ends or it reads quit:
 * the search or perft must notice within milliseconds; the rest is start-up
 * and a loaded machine. */
#define T_EXIT 10000

static PipeEngine engine;
static char seen[1 << 18];

static void start(void)
{
    const char *bin = pipe_engine_sigil();
    ck_assert_msg(pipe_engine_start(&engine, bin), "cannot start %s", bin);
    seen[0] = '\0';
}

static void send(const char *line) { pipe_engine_send(&engine, line); }

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; *p;) {
        if (strncmp(p, prefix, len) == 0)
            n++;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    return n;
}

/* No sanitizer spoke (their reports go to stderr, which the pipe joins). */
static void assert_no_report(const char *what)
{
    ck_assert_msg(!strstr(seen, "runtime error") && !strstr(seen, "Sanitizer"),
                  "%s: sanitizer report:\n%.4000s", what, seen);
}

/* Read until readyok after sending isready; everything read is in seen. */
static void sync_engine(const char *what)
{
    send("isready");
    ck_assert_msg(pipe_engine_expect(&engine, "readyok", T_REPLY, seen, sizeof seen),
                  "%s: no readyok; output:\n%.2000s", what, seen);
    assert_no_report(what);
}

/* Close the engine's input, read everything up to its exit, and check that
 * it exits by itself, with status 0, within T_EXIT. */
static void end_input_and_expect_exit(const char *what)
{
    close(engine.to_fd);
    engine.to_fd = -1;
    while (pipe_engine_read(&engine, T_EXIT)) {
        size_t used = strlen(seen);
        snprintf(seen + used, sizeof seen - used, "%s\n", engine.line);
    }
    int status = pipe_engine_wait(&engine, T_EXIT);
    ck_assert_msg(status == 0, "%s: exit status %d (-1: still running); output:\n%.2000s", what,
                  status, seen);
    assert_no_report(what);
    pipe_engine_close(&engine);
}

static void select_variant(const Variant *v)
{
    char line[96];
    snprintf(line, sizeof line, "variant %s", v->name);
    send(line);
}

/* The end of input stops a search that only `stop` would end: it answers one
 * bestmove and the engine exits.  (A search with a limit, however far off,
 * runs to it: check_scripts.c.  The out-of-range clocks here are errors,
 * which make the go a depth-1 search.) */
START_TEST(end_of_input_ends_a_search_nothing_else_would_end)
{
    static const char *const unlimited[] = {
        "go",
        "go infinite",
        "go ponder",
        "go ponder depth 127",
        "go infinite nodes 9223372036854775807",
        "go movetime 9223372036854775807",
        "go wtime 2305843009213693951 winc 2305843009213693951 movestogo 1",
    };
    for (int v = 0; v < variants_count(); v++)
        for (size_t i = 0; i < sizeof unlimited / sizeof *unlimited; i++) {
            char what[160];
            snprintf(what, sizeof what, "%s: '%s' then end of input", variants_get(v)->name,
                     unlimited[i]);
            start();
            select_variant(variants_get(v));
            send(unlimited[i]);
            end_input_and_expect_exit(what);
            ck_assert_msg(count_lines(seen, "bestmove ") == 1, "%s:\n%.2000s", what, seen);
        }
}
END_TEST

/* Clocks at the edge of the 64-bit range: the engine keeps answering, stop
 * gives one bestmove, and nothing overflows (UBSan would abort the engine). */
START_TEST(huge_clocks_neither_overflow_nor_hang)
{
    static const char *const clocks[] = {
        "go wtime 2305843009213693951 winc 2305843009213693951 movestogo 1",
        "go btime 2305843009213693951 binc 2305843009213693951 movestogo 1",
        "go p1time 2305843009213693951 p1inc 2305843009213693951 movestogo 1",
        ("go wtime 9223372036854775807 btime 9223372036854775807 winc 9223372036854775807 "
         "binc 9223372036854775807 movestogo 9223372036854775807"),
        "go wtime 9223372036854775807 winc 9223372036854775807",
        "go movetime 9223372036854775807",
        "go winc 9223372036854775807",
        "go movestogo 9223372036854775807",
    };
    start();
    for (int side = 0; side < 2; side++) {
        if (side == 1)
            send("position startpos moves 14-9"); /* Black to move */
        for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
            seen[0] = '\0';
            send(clocks[i]);
            sleep_ms(20);
            sync_engine(clocks[i]); /* answered while it searches */
            send("stop");
            sync_engine(clocks[i]);
            ck_assert_msg(count_lines(seen, "bestmove ") == 1, "'%s':\n%.2000s", clocks[i], seen);
        }
    }
    send("quit");
    ck_assert_int_eq(pipe_engine_wait(&engine, T_EXIT), 0);
    pipe_engine_close(&engine);
}
END_TEST

/* Empty or tiny clocks answer at once, without stop. */
START_TEST(empty_clocks_answer_without_stop)
{
    static const char *const clocks[] = {
        "go wtime 0 btime 0", "go wtime 1 btime 1 movestogo 1", "go wtime 0 winc 0",
        "go btime 0 binc 1",
    };
    start();
    for (size_t i = 0; i < sizeof clocks / sizeof *clocks; i++) {
        seen[0] = '\0';
        send(clocks[i]);
        ck_assert_msg(pipe_engine_expect(&engine, "bestmove ", T_REPLY, seen, sizeof seen),
                      "'%s' gave no bestmove:\n%.2000s", clocks[i], seen);
        assert_no_report(clocks[i]);
    }
    send("quit");
    ck_assert_int_eq(pipe_engine_wait(&engine, T_EXIT), 0);
    pipe_engine_close(&engine);
}
END_TEST

/* A perft too deep to finish: quit ends the engine, stop ends the perft
 * (the end of input lets it run on, for its count: check_scripts.c); an
 * impossible depth is one error line. */
START_TEST(deep_perft_hears_quit_and_stop)
{
    const Variant *v = variants_get(_i);
    char what[128];

    snprintf(what, sizeof what, "%s: perft 20 then quit", v->name);
    start();
    select_variant(v);
    send("perft 20");
    sleep_ms(100);
    send("quit");
    end_input_and_expect_exit(what);

    snprintf(what, sizeof what, "%s: perft 20, isready, quit", v->name);
    start();
    select_variant(v);
    send("perft 20");
    sync_engine(what); /* answered while it counts */
    send("quit");
    end_input_and_expect_exit(what);

    snprintf(what, sizeof what, "%s: go perft 20 then stop", v->name);
    start();
    select_variant(v);
    send("go perft 20");
    sleep_ms(100);
    send("stop");
    sync_engine(what);
    ck_assert_msg(strstr(seen, "stopped") != NULL, "%s:\n%.2000s", what, seen);

    snprintf(what, sizeof what, "%s: perft 32", v->name);
    seen[0] = '\0';
    send("perft 32");
    sync_engine(what);
    ck_assert_msg(count_lines(seen, "info string error: ") == 1, "%s:\n%.2000s", what, seen);
    send("quit");
    ck_assert_int_eq(pipe_engine_wait(&engine, T_EXIT), 0);
    pipe_engine_close(&engine);
}
END_TEST

/* A number cut at the token size is refused, not read from its first bytes. */
START_TEST(numbers_longer_than_a_token_are_refused)
{
    char zeros[301];
    memset(zeros, '0', 300);
    zeros[300] = '\0';
    static const char *const commands[] = {"perft", "undo", "bench"};
    for (size_t c = 0; c < sizeof commands / sizeof *commands; c++) {
        char line[400], what[64];
        snprintf(what, sizeof what, "%s 000...0002", commands[c]);
        snprintf(line, sizeof line, "%s %s2", commands[c], zeros);
        start();
        seen[0] = '\0';
        send(line);
        sync_engine(what);
        ck_assert_msg(count_lines(seen, "info string error: ") == 1, "%s:\n%.2000s", what, seen);
        ck_assert_msg(!strstr(seen, "Nodes searched") && !strstr(seen, "perft depth"),
                      "%s ran:\n%.2000s", what, seen);
        end_input_and_expect_exit(what);
    }
}
END_TEST

static Suite *reproducers_suite(void)
{
    Suite *s = suite_create("reproducers");
    TCase *tc = tcase_create("pipes");
    tcase_set_timeout(tc, 600);
    tcase_add_test(tc, end_of_input_ends_a_search_nothing_else_would_end);
    tcase_add_test(tc, huge_clocks_neither_overflow_nor_hang);
    tcase_add_test(tc, empty_clocks_answer_without_stop);
    tcase_add_test(tc, numbers_longer_than_a_token_are_refused);
    tcase_add_loop_test(tc, deep_perft_hears_quit_and_stop, 0, variants_count());
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(reproducers_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
