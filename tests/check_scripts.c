/* check_scripts.c - the engine driven the ways scripts drive it (the real
 * binary, SIGIL_BIN): commands piped in with and without `quit`, commands
 * as arguments, `sigil perft-suite`, and the answers a script reads off
 * queries.  Expected perft counts are read from the cross-checked tables in
 * tests/perft (SIGIL_SRCDIR), never from the engine. */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json_check.h"
#include "perftsuite.h"
#include "pipe_engine.h"
#include "variants.h"

/* Generous: sanitizer builds are several times slower, the machine shared. */
#define T_RUN 120000

static char out[1 << 20];
static PipeEngine engine;

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run the engine with the arguments args (NULL-terminated, may be empty),
 * feed it input (NULL: none), end its input, and read everything it prints
 * into out until it exits; its exit status (-1: it did not exit). */
static int run(const char *const *args, const char *input)
{
    const char *bin = pipe_engine_sigil();
    char *argv[16] = {(char *)bin};
    for (int i = 0; args && args[i] && i < 14; i++)
        argv[i + 1] = (char *)args[i];
    ck_assert_msg(pipe_engine_start_argv(&engine, bin, argv, 0), "cannot start %s", bin);
    if (input)
        pipe_engine_write(&engine, input, strlen(input));
    pipe_engine_close_input(&engine);
    out[0] = '\0';
    size_t used = 0;
    long long deadline = now_ms() + T_RUN;
    const char *line;
    while (now_ms() < deadline && (line = pipe_engine_read(&engine, T_RUN)) != NULL)
        used += (size_t)snprintf(out + used, sizeof out - used, "%s\n", line);
    int status = pipe_engine_wait(&engine, 1000);
    pipe_engine_close(&engine);
    ck_assert_msg(!strstr(out, "runtime error") && !strstr(out, "Sanitizer"),
                  "sanitizer report:\n%.4000s", out);
    return status;
}

static int count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        n += strncmp(p, prefix, len) == 0;
    return n;
}

/* The last line of text that starts with prefix (static copy), or NULL. */
static const char *last_line(const char *text, const char *prefix)
{
    static char line[4096];
    const char *found = NULL;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, prefix, len) == 0)
            found = p;
    if (!found)
        return NULL;
    size_t n = strcspn(found, "\n");
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), found);
    return line;
}

/* The file of the source tree at relative path. */
static void source_path(const char *rel, char *path, size_t size)
{
    const char *src = getenv("SIGIL_SRCDIR");
    snprintf(path, size, "%s/%s", src ? src : ".", rel);
}

/* The count of v's start position at depth in its table (0 when none). */
static uint64_t table_count(const Variant *v, int depth)
{
    char rel[128], path[1200], text[4096], err[256];
    snprintf(rel, sizeof rel, "tests/perft/%s.txt", v->name);
    source_path(rel, path, sizeof path);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s (SIGIL_SRCDIR?)", path);
    PerftSuiteLine line;
    uint64_t count = 0;
    while (!count && fgets(text, sizeof text, f)) {
        text[strcspn(text, "\n")] = '\0';
        ck_assert_msg(perft_suite_parse(text, &line, err, sizeof err), "%s: %s", path, err);
        if (line.kind == PERFT_SUITE_POSITION && strcmp(line.fen, "startpos") == 0)
            for (int i = 0; i < line.ncounts; i++)
                if (line.depth[i] == depth)
                    count = line.count[i];
    }
    fclose(f);
    return count;
}

/* The deepest depth of v's start position whose count is at most limit. */
static int depth_within(const Variant *v, uint64_t limit)
{
    int d = 1;
    while (table_count(v, d + 1) && table_count(v, d + 1) <= limit)
        d++;
    return d;
}

/* out holds exactly one perft total, and it is count. */
static void assert_count(const char *what, uint64_t count)
{
    char want[64];
    snprintf(want, sizeof want, "Nodes searched: %" PRIu64, count);
    ck_assert_msg(count_lines(out, "Nodes searched: ") == 1 && last_line(out, want) &&
                      strcmp(last_line(out, "Nodes searched: "), want) == 0,
                  "%s: want '%s', got:\n%.3000s", what, want, out);
    ck_assert_msg(!strstr(out, "stopped"), "%s was stopped:\n%.3000s", what, out);
}

/* ------------------------------------------------------------- perft */

/* A perft small enough to be counted at once: piped with and without quit,
 * as `perft` and `go perft`, the count is printed and the engine exits 0. */
START_TEST(a_small_perft_prints_its_count_piped_with_or_without_quit)
{
    const Variant *v = variants_get(_i);
    int d = depth_within(v, 1000000);
    uint64_t count = table_count(v, d);
    ck_assert_uint_gt(count, 0);
    static const char *const forms[] = {"perft %d\n", "perft %d\nquit\n", "go perft %d\n",
                                        "go perft %d\nquit\n", "perft %d\nisready\nquit\n"};
    for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
        char input[128], what[160], cmd[32];
        snprintf(cmd, sizeof cmd, forms[f], d);
        snprintf(input, sizeof input, "variant %s\n%s", v->name, cmd);
        snprintf(what, sizeof what, "%s: '%.*s'", v->name, (int)strcspn(cmd, "\n"), cmd);
        ck_assert_int_eq(run(NULL, input), 0);
        assert_count(what, count);
    }
}
END_TEST

/* Perfts past the inline bound run in the search thread; the end of input
 * lets them finish, so a script piping them without quit gets the count. */
START_TEST(a_large_perft_finishes_at_the_end_of_input)
{
    static const struct {
        const char *variant;
        int depth;
    } large[] = {{"solomon", 11}, {"salto", 7}, {"alexander", 6}, {"lupta", 5}};
    for (size_t i = 0; i < sizeof large / sizeof *large; i++) {
        const Variant *v = variants_find(large[i].variant);
        uint64_t count = table_count(v, large[i].depth);
        ck_assert_uint_gt(count, 1u << 24); /* beyond the inline bound */
        char input[128], what[96];
        snprintf(input, sizeof input, "variant %s\nperft %d\n", v->name, large[i].depth);
        snprintf(what, sizeof what, "%s perft %d piped", v->name, large[i].depth);
        ck_assert_int_eq(run(NULL, input), 0);
        assert_count(what, count);
    }
}
END_TEST

/* Commands as arguments: each runs to its end, small perft or large. */
START_TEST(perft_as_arguments_prints_its_count)
{
    char variant[64], perft[32];
    const Variant *v = variants_get(_i);
    int d = depth_within(v, 30000000);
    snprintf(variant, sizeof variant, "variant %s", v->name);
    snprintf(perft, sizeof perft, "perft %d", d);
    const char *args[] = {variant, perft, NULL};
    ck_assert_int_eq(run(args, NULL), 0);
    assert_count(perft, table_count(v, d));
}
END_TEST

/* ------------------------------------------------------------------ go */

/* The deepest `info depth N` of out. */
static int deepest(void)
{
    int best = -1;
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
        int d;
        if (sscanf(p, "info depth %d", &d) == 1 && d > best)
            best = d;
    }
    return best;
}

/* A go with a limit, piped and followed by the end of input, runs to its
 * limit and answers once: depth and mate reach their depth, movetime uses
 * its time, a clock answers. */
START_TEST(a_limited_go_runs_to_its_limit_at_the_end_of_input)
{
    const Variant *v = variants_get(_i);
    char input[256];
    /* (A game whose evaluation is exact ends its search at depth 1.) */
    int want5 = v->eval_is_exact ? 1 : 5, want4 = v->eval_is_exact ? 1 : 4;
    snprintf(input, sizeof input, "variant %s\ngo depth 5\n", v->name);
    ck_assert_int_eq(run(NULL, input), 0);
    ck_assert_msg(count_lines(out, "bestmove ") == 1 && deepest() == want5,
                  "%s go depth 5: deepest %d\n%.3000s", v->name, deepest(), out);
    snprintf(input, sizeof input, "variant %s\ngo mate 2\nquit\n", v->name);
    ck_assert_int_eq(run(NULL, input), 0); /* quit: stopped at once */
    ck_assert_int_eq(count_lines(out, "bestmove "), 1);
    snprintf(input, sizeof input, "variant %s\ngo mate 2\n", v->name);
    ck_assert_int_eq(run(NULL, input), 0);
    ck_assert_msg(count_lines(out, "bestmove ") == 1 && deepest() == want4,
                  "%s go mate 2 (4 plies): deepest %d\n%.3000s", v->name, deepest(), out);
    snprintf(input, sizeof input, "variant %s\ngo nodes 3000\n", v->name);
    ck_assert_int_eq(run(NULL, input), 0);
    ck_assert_int_eq(count_lines(out, "bestmove "), 1);
    long long t0 = now_ms();
    snprintf(input, sizeof input, "variant %s\ngo movetime 400\n", v->name);
    ck_assert_int_eq(run(NULL, input), 0);
    ck_assert_int_eq(count_lines(out, "bestmove "), 1);
    ck_assert_msg(v->eval_is_exact || now_ms() - t0 >= 350,
                  "%s go movetime 400 answered after %lld ms", v->name, now_ms() - t0);
    snprintf(input, sizeof input, "variant %s\ngo wtime 1000 btime 1000\n", v->name);
    ck_assert_int_eq(run(NULL, input), 0);
    ck_assert_int_eq(count_lines(out, "bestmove "), 1);
}
END_TEST

/* A pondering search is stopped at the end of input; after ponderhit it is
 * a timed search and runs to its time. */
START_TEST(pondering_stops_at_the_end_of_input_until_ponderhit)
{
    long long t0 = now_ms();
    ck_assert_int_eq(run(NULL, "go ponder movetime 3000\n"), 0);
    ck_assert_int_eq(count_lines(out, "bestmove "), 1);
    ck_assert_msg(now_ms() - t0 < 2500, "go ponder waited %lld ms", now_ms() - t0);
    t0 = now_ms();
    ck_assert_int_eq(run(NULL, "go ponder movetime 400\nponderhit\n"), 0);
    ck_assert_int_eq(count_lines(out, "bestmove "), 1);
    ck_assert_int_eq(count_lines(out, "info string error"), 0);
    ck_assert_msg(now_ms() - t0 >= 350, "ponderhit then end of input: %lld ms", now_ms() - t0);
}
END_TEST

/* ----------------------------------------------------------- perft-suite */

/* The number of depth fields of a suite file (read with the suite parser,
 * whose lines the perft tables check on their own). */
static int counts_in(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    char text[4096], err[256];
    PerftSuiteLine line;
    int n = 0;
    while (fgets(text, sizeof text, f)) {
        text[strcspn(text, "\n")] = '\0';
        ck_assert_msg(perft_suite_parse(text, &line, err, sizeof err), "%s: %s", path, err);
        n += line.kind == PERFT_SUITE_POSITION ? line.ncounts : 0;
    }
    fclose(f);
    return n;
}

/* Every sample suite of doc/perft passes whole: one ok line per count. */
START_TEST(the_sample_suites_pass)
{
    const Variant *v = variants_get(_i);
    char rel[128], path[1200], want[64];
    snprintf(rel, sizeof rel, "doc/perft/%s.txt", v->name);
    source_path(rel, path, sizeof path);
    int n = counts_in(path);
    ck_assert_int_ge(n, 8);
    const char *args[] = {"perft-suite", path, NULL};
    ck_assert_int_eq(run(args, NULL), 0);
    snprintf(want, sizeof want, "%d passed, 0 failed", n);
    ck_assert_str_eq(last_line(out, ""), want);
    ck_assert_int_eq(count_lines(out, path), n);
    char ok[1300];
    snprintf(ok, sizeof ok, "%s:", path);
    for (const char *p = out; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
        if (strncmp(p, ok, strlen(ok)) == 0)
            ck_assert_msg(strncmp(p + strcspn(p, "\n") - 3, " ok", 3) == 0, "%.200s", p);
}
END_TEST

/* The regression tables are suites: every one of their counts up to a
 * million passes through the command, the rest are skipped. */
START_TEST(the_perft_tables_run_as_suites)
{
    const Variant *v = variants_get(_i);
    char rel[128], path[1200];
    snprintf(rel, sizeof rel, "tests/perft/%s.txt", v->name);
    source_path(rel, path, sizeof path);
    const char *args[] = {"perft-suite", "--max-nodes", "1000000", path, NULL};
    ck_assert_int_eq(run(args, NULL), 0);
    long passed, failed, skipped, malformed;
    ck_assert_int_eq(sscanf(last_line(out, ""), "%ld passed, %ld failed", &passed, &failed), 2);
    /* every table has counts above a million: the line of the skipped ones */
    const char *skips = strstr(out, " skipped (--max-nodes), ");
    ck_assert_ptr_nonnull(skips);
    while (skips > out && skips[-1] != '\n')
        skips--;
    ck_assert_int_eq(
        sscanf(skips, "%ld skipped (--max-nodes), %ld malformed", &skipped, &malformed), 2);
    ck_assert_int_eq(failed, 0);
    ck_assert_int_eq(malformed, 0);
    ck_assert_int_gt(passed, 10);
    ck_assert_int_eq(passed + skipped, counts_in(path));
}
END_TEST

/* A suite on standard input: a wrong count fails with its line number and
 * status 1; malformed lines are reported with theirs and skipped; the
 * variant field, the variant line, depth fields with and without D. */
START_TEST(a_suite_reports_mismatches_and_malformed_lines)
{
    const char *suite = "# a comment, then a blank line\n"
                        "\n"
                        "variant solomon\n"
                        "startpos ; D1 7 ; D2 31 ; 3 157 ;\n"
                        "W:W12,14,16,17,18,19:B1,2,3,5,6,10;D1 2;D2 4\n"
                        "salto ; startpos ; D3 891\n"
                        "startpos\n"
                        "W:W99:B1 ; D1 1\n"
                        "chess ; startpos ; D1 20\n"
                        "variant chess\n"
                        "startpos ; D1 x\n"
                        "startpos ; D21 1\n"
                        "pyramid ; startpos ; D2 127 ; D9 5000\n";
    const char *args[] = {"perft-suite", "--max-nodes", "1000", "-", NULL};
    ck_assert_int_eq(run(args, suite), 1);
    static const char *const want[] = {
        "(stdin):4: solomon startpos depth 1: 7 ok",
        "(stdin):4: solomon startpos depth 2: 31 ok",
        "(stdin):4: solomon startpos depth 3: 157 ok",
        "(stdin):5: solomon W:W12,14,16,17,18,19:B1,2,3,5,6,10 depth 1: 2 ok",
        "(stdin):5: solomon W:W12,14,16,17,18,19:B1,2,3,5,6,10 depth 2: 3 FAIL, expected 4",
        "(stdin):6: salto startpos depth 3: 891 ok",
        "(stdin):7: error: ",
        "(stdin):8: error: invalid solomon FEN",
        "(stdin):9: error: ",
        "(stdin):10: error: unknown variant 'chess'",
        "(stdin):11: error: ",
        "(stdin):12: error: ",
        "(stdin):13: pyramid startpos depth 2: 127 ok",
        "(stdin):13: pyramid startpos depth 9: skipped (expected 5000 nodes)",
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(count_lines(out, want[i]) == 1, "no line '%s' in:\n%.3000s", want[i], out);
    ck_assert_int_eq(count_lines(out, "(stdin):"), (int)(sizeof want / sizeof *want));
    ck_assert_str_eq(last_line(out, ""), "6 passed, 1 failed");
    ck_assert_int_eq(count_lines(out, "1 skipped (--max-nodes), 6 malformed lines"), 1);
}
END_TEST

/* Status 2: malformed lines without a mismatch, a file that cannot be read,
 * bad arguments; --variant names the game of lines without one. */
START_TEST(a_suite_without_mismatch_but_with_bad_lines_exits_2)
{
    const char *args[] = {"perft-suite", "-", NULL};
    ck_assert_int_eq(run(args, "startpos ; D1 7\n"), 2); /* no game named */
    ck_assert_str_eq(last_line(out, ""), "0 passed, 0 failed");
    const char *with_variant[] = {"perft-suite", "--variant", "lupta", "-", NULL};
    ck_assert_int_eq(run(with_variant, "startpos ; D1 30 ; D2 870\n"), 0);
    ck_assert_str_eq(last_line(out, ""), "2 passed, 0 failed");
    const char *missing[] = {"perft-suite", "no-such-folder/suite.txt", NULL};
    ck_assert_int_eq(run(missing, NULL), 2);
    ck_assert_int_eq(count_lines(out, "no-such-folder/suite.txt: error: "), 1);
    static const char *const bad[][4] = {
        {"perft-suite", NULL},
        {"perft-suite", "--variant", "chess", "-"},
        {"perft-suite", "--max-nodes", "0", "-"},
        {"perft-suite", "--colour", "-", NULL},
        {"perft-suite", "--variant", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        const char *a[5] = {bad[i][0], bad[i][1], bad[i][2], bad[i][3], NULL};
        ck_assert_msg(run(a, "") == 2, "argument set %zu:\n%s", i, out);
        ck_assert_int_eq(count_lines(out, " passed, "), 0);
    }
}
END_TEST

/* ------------------------------------------------------------- queries */

/* Every query, good or bad, in a game going on and in a finished one:
 * the first line is its one response. */
START_TEST(every_query_answers_one_response_line_first)
{
    static const char *const queries[] = {
        "query gameover", "query p1turn", "query result",  "query fen",
        "query moves",    "query chance", "query variant", "query variants",
        "query board",    "query position", "query move 14-9", "query legal",
        "query value",    "query move zz", "query move",   "query move 14-9 15-12",
        "query colour",   "query",          "variant",
    };
    for (int finished = 0; finished < 2; finished++) {
        char input[4096] = "";
        size_t used = (size_t)snprintf(input, sizeof input, "%s",
                                       finished ? "position fen W:WK4:BK1 moves 4-10\n" : "");
        for (size_t i = 0; i < sizeof queries / sizeof *queries; i++)
            used += (size_t)snprintf(input + used, sizeof input - used, "%s\nisready\n",
                                     queries[i]);
        ck_assert_int_eq(run(NULL, input), 0);
        const char *p = out;
        for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
            ck_assert_msg(strncmp(p, "response ", 9) == 0, "'%s' (finished %d) began with:\n%.300s",
                          queries[i], finished, p);
            p = strchr(p, '\n') + 1;
            while (strncmp(p, "readyok", 7) != 0) { /* an explaining error may follow */
                ck_assert_msg(strncmp(p, "info string error: ", 19) == 0,
                              "'%s' printed after its response:\n%.300s", queries[i], p);
                p = strchr(p, '\n') + 1;
            }
            p = strchr(p, '\n') + 1;
        }
    }
    ck_assert_int_eq(run(NULL, "variant salto\nvariant\n"), 0);
    ck_assert_str_eq(out, "response salto\n");
}
END_TEST

/* query variants: every registered game with its title, in the registry's
 * order (that of the UCI_Variant combo), as JSON. */
START_TEST(query_variants_lists_the_games_with_their_titles)
{
    ck_assert_int_eq(run(NULL, "query variants\n"), 0);
    ck_assert_int_eq(count_lines(out, ""), 1);
    ck_assert(strncmp(out, "response ", 9) == 0);
    out[strcspn(out, "\n")] = '\0';
    char err[128];
    JsonValue *list = json_check_parse(out + 9, err, sizeof err);
    ck_assert_msg(list != NULL, "%s: %s", err, out);
    ck_assert_int_eq(list->type, JSON_ARRAY);
    ck_assert_int_eq(list->count, variants_count());
    for (int i = 0; i < variants_count(); i++) {
        const JsonValue *g = json_check_at(list, i);
        ck_assert_int_eq(g->count, 2);
        ck_assert_str_eq(json_check_string(g, "name"), variants_get(i)->name);
        ck_assert_str_eq(json_check_string(g, "title"), variants_get(i)->title);
    }
    json_check_free(list);
}
END_TEST

static Suite *scripts_suite(void)
{
    Suite *s = suite_create("scripts");
    TCase *tc = tcase_create("pipes");
    tcase_set_timeout(tc, 900);
    int games = variants_count();
    tcase_add_loop_test(tc, a_small_perft_prints_its_count_piped_with_or_without_quit, 0, games);
    tcase_add_test(tc, a_large_perft_finishes_at_the_end_of_input);
    tcase_add_loop_test(tc, perft_as_arguments_prints_its_count, 0, games);
    tcase_add_loop_test(tc, a_limited_go_runs_to_its_limit_at_the_end_of_input, 0, games);
    tcase_add_test(tc, pondering_stops_at_the_end_of_input_until_ponderhit);
    tcase_add_loop_test(tc, the_sample_suites_pass, 0, games);
    tcase_add_loop_test(tc, the_perft_tables_run_as_suites, 0, games);
    tcase_add_test(tc, a_suite_reports_mismatches_and_malformed_lines);
    tcase_add_test(tc, a_suite_without_mismatch_but_with_bad_lines_exits_2);
    tcase_add_test(tc, every_query_answers_one_response_line_first);
    tcase_add_test(tc, query_variants_lists_the_games_with_their_titles);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(scripts_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
