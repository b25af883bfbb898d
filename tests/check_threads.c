/* check_threads.c - the protocol and the search under several threads, driven
 * through pipes on the real binary (SIGIL_BIN): stop, quit, ucinewgame,
 * setoption, position and go arriving while a search with Threads > 1 runs.
 * Written for the ThreadSanitizer build in CI (.ci/run), where every data race
 * between the protocol thread and the search threads is reported; it is fast
 * enough to run in every `make check` as well.  Each test starts a fresh
 * engine and checks that every go ends in exactly one legal bestmove. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pipe_engine.h"
#include "threads.h"
#include "variants.h"

/* Generous: the ThreadSanitizer build is five to fifteen times slower. */
#define T_REPLY 60000
#define T_EXIT 20000

static PipeEngine engine;
static char seen[1 << 18];

static void start(void)
{
    const char *bin = pipe_engine_sigil();
    ck_assert_msg(pipe_engine_start(&engine, bin), "cannot start %s", bin);
}

static void send(const char *line) { pipe_engine_send(&engine, line); }

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Send isready; return everything the engine printed before readyok. */
static const char *sync_engine(void)
{
    seen[0] = '\0';
    send("isready");
    const char *r = pipe_engine_expect(&engine, "readyok", T_REPLY, seen, sizeof seen);
    ck_assert_msg(r != NULL, "no readyok; output:\n%.2000s", seen);
    seen[strlen(seen) - strlen("readyok\n")] = '\0';
    ck_assert_msg(strstr(seen, "ThreadSanitizer") == NULL, "%.4000s", seen);
    return seen;
}

/* The legal moves of the current position as " m1 m2 ... " (from `d`). */
static void legal_moves(char *list, size_t size)
{
    send("d");
    const char *out = sync_engine();
    const char *l = strstr(out, "Legal moves (");
    ck_assert_msg(l != NULL, "d printed no legal move line:\n%s", out);
    l = strchr(l, ':') + 1;
    size_t n = strcspn(l, "\n");
    ck_assert(n + 2 < size);
    list[0] = ' ';
    memcpy(list + 1, l, n);
    list[n + 1] = ' ';
    list[n + 2] = '\0';
}

/* The move of every "bestmove" line in text must be in legal; returns how many
 * there were. */
static int check_bestmoves(const char *text, const char *legal)
{
    int n = 0;
    for (const char *p = strstr(text, "bestmove "); p; p = strstr(p + 1, "bestmove ")) {
        if (p != text && p[-1] != '\n')
            continue;
        char move[80], key[84];
        size_t len = strcspn(p + 9, " \n");
        ck_assert(len < sizeof move);
        memcpy(move, p + 9, len);
        move[len] = '\0';
        snprintf(key, sizeof key, " %s ", move);
        ck_assert_msg(strstr(legal, key) != NULL, "bestmove %s is not legal in:%s", move, legal);
        n++;
    }
    return n;
}

/* Select variant v with Threads 4 and a small table; when the start is a chance
 * node (a roll is due), roll once so that the search has a decision to make.
 * Writes the legal moves into legal. */
static void prepare(const Variant *v, char *legal, size_t size)
{
    char line[128];
    snprintf(line, sizeof line, "variant %s", v->name);
    send(line);
    send("setoption name Threads value 4");
    send("setoption name Hash value 2");
    send("setoption name Seed value 7");
    send("d");
    const char *out = sync_engine();
    if (strstr(out, "\nRolls (")) {
        send("roll");
        sync_engine();
    }
    legal_moves(legal, size);
}

/* Wait until the running search has printed its first info line. */
static void wait_for_info(void)
{
    seen[0] = '\0';
    ck_assert_msg(pipe_engine_expect(&engine, "info depth", T_REPLY, seen, sizeof seen),
                  "the search printed no info line:\n%.2000s", seen);
}

static void quit_cleanly(void)
{
    send("quit");
    ck_assert_int_eq(pipe_engine_wait(&engine, T_EXIT), 0);
    pipe_engine_close(&engine);
}

/* stop, ucinewgame, setoption, position and go, each sent while a 4-thread
 * infinite search runs: each ends that search with one legal bestmove before
 * the engine answers isready. */
START_TEST(commands_during_a_four_thread_search_end_it_with_one_bestmove)
{
    static const char *const interrupters[] = {
        "stop", "ucinewgame", "setoption name Hash value 3", "setoption name Clear Hash",
        "setoption name MultiPV value 3", "position startpos",
    };
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    for (size_t k = 0; k < sizeof interrupters / sizeof *interrupters; k++) {
        if (strcmp(interrupters[k], "position startpos") == 0 && v->is_chance)
            continue; /* the start needs a roll first: nothing to search */
        send("go infinite");
        wait_for_info();
        send(interrupters[k]);
        const char *out = sync_engine();
        ck_assert_msg(check_bestmoves(out, legal) == 1, "%s: after '%s':\n%.2000s", v->name,
                      interrupters[k], out);
        prepare(v, legal, sizeof legal); /* ucinewgame and position reset the game */
    }
    quit_cleanly();
}
END_TEST

/* A go during a running go: the first search answers, then the second. */
START_TEST(go_during_a_search_gives_two_bestmoves)
{
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    send("go infinite");
    wait_for_info();
    send("go depth 2");
    sleep_ms(50);
    send("stop");
    const char *out = sync_engine();
    ck_assert_msg(check_bestmoves(out, legal) == 2, "%s:\n%.2000s", v->name, out);
    quit_cleanly();
}
END_TEST

/* Many short searches started and stopped back to back, the stop arriving at
 * any moment of a search's life (before its threads start, during, after). */
START_TEST(rapid_go_stop_cycles_answer_every_go)
{
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    enum { CYCLES = 40 };
    for (int c = 0; c < CYCLES; c++) {
        send(c % 2 ? "go movetime 5" : "go infinite");
        if (c % 3)
            sleep_ms(c % 7);
        send("stop");
    }
    const char *out = sync_engine();
    ck_assert_int_eq(check_bestmoves(out, legal), CYCLES);
    quit_cleanly();
}
END_TEST

/* quit while four threads search: the process exits at once with status 0. */
START_TEST(quit_during_a_four_thread_search_exits_cleanly)
{
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    send("go infinite");
    wait_for_info();
    quit_cleanly();
}
END_TEST

/* MultiPV lines from several threads: a depth-limited search reports every
 * line of every iteration and one bestmove. */
START_TEST(multipv_with_threads_reports_each_line_once_per_depth)
{
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    send("setoption name MultiPV value 2");
    send("go depth 3");
    seen[0] = '\0';
    ck_assert(pipe_engine_expect(&engine, "bestmove", T_REPLY, seen, sizeof seen) != NULL);
    ck_assert_int_eq(check_bestmoves(seen, legal), 1);
    /* Every start position has two legal moves at least: each completed
     * depth reports line 1 and line 2 exactly once (Alexander's exact
     * evaluation completes depth 1 only). */
    for (int depth = 1; depth <= 3; depth++) {
        int lines[3] = {0, 0, 0};
        char prefix[32];
        int plen = snprintf(prefix, sizeof prefix, "info depth %d ", depth);
        for (const char *p = seen; *p; p += strcspn(p, "\n"), p += *p == '\n') {
            if (strncmp(p, prefix, (size_t)plen) != 0)
                continue;
            const char *m = strstr(p, " multipv ");
            ck_assert(m && m < p + strcspn(p, "\n"));
            int k = atoi(m + 9);
            ck_assert_msg(k == 1 || k == 2, "%.2000s", seen);
            lines[k]++;
        }
        ck_assert_msg(lines[1] <= 1 && lines[1] == lines[2], "depth %d:\n%.2000s", depth, seen);
        if (depth == 1)
            ck_assert_msg(lines[1] == 1, "%.2000s", seen);
    }
    quit_cleanly();
}
END_TEST

/* Set Threads to n (and wait for the engine to take it). */
static void set_threads(int n)
{
    char line[64];
    snprintf(line, sizeof line, "setoption name Threads value %d", n);
    send(line);
    sync_engine();
}

/* Send go and wait for its bestmove: exactly one, legal. */
static void go_answers(const char *go, const char *legal, const char *what)
{
    send(go);
    seen[0] = '\0';
    ck_assert_msg(pipe_engine_expect(&engine, "bestmove", T_REPLY, seen, sizeof seen) != NULL,
                  "%s: '%s' gave no bestmove:\n%.2000s", what, go, seen);
    ck_assert_msg(check_bestmoves(seen, legal) == 1, "%s: '%s':\n%.2000s", what, go, seen);
}

/* Threads 64, 128 and 256 (more than the machine has cores, as a rule):
 * every kind of go ends in one legal bestmove, and stop, ucinewgame and a
 * change of Threads during an infinite search each end it with one. */
START_TEST(many_threads_every_go_answers)
{
    static const int counts[] = {64, 128, 256};
    static const char *const goes[] = {
        "go depth 1", "go movetime 50", "go nodes 3000", "go depth 3",
        "go wtime 300 btime 300 winc 10 binc 10", "go wtime 5 btime 5",
    };
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        char what[64];
        snprintf(what, sizeof what, "%s, Threads %d", v->name, counts[c]);
        set_threads(counts[c]);
        for (size_t g = 0; g < sizeof goes / sizeof *goes; g++)
            go_answers(goes[g], legal, what);
        static const char *const interrupters[] = {"stop", "ucinewgame",
                                                   "setoption name Threads value 2"};
        for (size_t k = 0; k < sizeof interrupters / sizeof *interrupters; k++) {
            set_threads(counts[c]);
            send("go infinite");
            wait_for_info();
            send(interrupters[k]);
            const char *out = sync_engine();
            ck_assert_msg(check_bestmoves(out, legal) == 1, "%s: after '%s':\n%.2000s", what,
                          interrupters[k], out);
            prepare(v, legal, sizeof legal); /* ucinewgame resets the game */
        }
    }
    quit_cleanly();
}
END_TEST

/* Threads changed between searches, up and down, with a search at each
 * value; then quit during a 256-thread search exits cleanly. */
START_TEST(threads_changed_between_searches_each_go_answers)
{
    static const int counts[] = {1, 256, 2, 128, 1, 64, 3, 256};
    const Variant *v = variants_get(_i);
    start();
    char legal[8192];
    prepare(v, legal, sizeof legal);
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        char what[64];
        snprintf(what, sizeof what, "%s, Threads %d", v->name, counts[c]);
        set_threads(counts[c]);
        go_answers(c % 2 ? "go movetime 20" : "go depth 2", legal, what);
    }
    send("go infinite");
    wait_for_info();
    quit_cleanly();
}
END_TEST

/* The pool keeps at most one worker per processor online, at least one. */
START_TEST(usable_threads_are_capped_by_the_processors)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    ck_assert_int_eq(threads_usable(0), 1);
    ck_assert_int_eq(threads_usable(1), 1);
    ck_assert_int_eq(threads_usable(-5), 1);
    int cap = online >= 1 && online < THREADS_MAX ? (int)online : THREADS_MAX;
    ck_assert_int_eq(threads_usable(THREADS_MAX), cap);
    ck_assert_int_eq(threads_usable(THREADS_MAX + 1), cap);
    ck_assert_int_eq(threads_usable(2), cap < 2 ? cap : 2);
    threads_set_processors(6);
    ck_assert_int_eq(threads_usable(5), 5);
    ck_assert_int_eq(threads_usable(6), 6);
    ck_assert_int_eq(threads_usable(7), 6);
    ck_assert_int_eq(threads_usable(256), 6);
    threads_set_processors(0);
    ck_assert_int_eq(threads_usable(THREADS_MAX), cap);
}
END_TEST

static Suite *threads_suite(void)
{
    Suite *s = suite_create("threads");
    TCase *tc = tcase_create("pipes");
    tcase_set_timeout(tc, 300);
    int n = variants_count();
    tcase_add_loop_test(tc, commands_during_a_four_thread_search_end_it_with_one_bestmove, 0, n);
    tcase_add_loop_test(tc, go_during_a_search_gives_two_bestmoves, 0, n);
    tcase_add_loop_test(tc, rapid_go_stop_cycles_answer_every_go, 0, n);
    tcase_add_loop_test(tc, quit_during_a_four_thread_search_exits_cleanly, 0, n);
    tcase_add_loop_test(tc, multipv_with_threads_reports_each_line_once_per_depth, 0, n);
    tcase_add_loop_test(tc, many_threads_every_go_answers, 0, n);
    tcase_add_loop_test(tc, threads_changed_between_searches_each_go_answers, 0, n);
    tcase_add_test(tc, usable_threads_are_capped_by_the_processors);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(threads_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
