/* check_ladder.c - tests/strength-ladder (doc/strength.md): its usage errors
 * come before any game, and a tiny ladder writes a Markdown table whose rows
 * parse into the cells asked for, with results that add up and the command
 * that reproduces each.  The programs come from SIGIL_BIN, SIGIL_MATCH_BIN and
 * SIGIL_SRCDIR, as in the other tests. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *sigil_bin, *match_bin, *srcdir;
static char out[1 << 16];

/* Run the ladder with args; its stderr and stdout into out; exit status. */
static int ladder(const char *args)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "bash '%s/tests/strength-ladder' -e '%s' -m '%s' %s 2>&1", srcdir,
             sigil_bin, match_bin, args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    ck_assert(WIFEXITED(st));
    return WEXITSTATUS(st);
}

START_TEST(usage_errors_exit_2_before_any_game)
{
    static const struct {
        const char *args, *message;
    } cases[] = {
        {"-n 3 -c random", "-n wants a positive even number"},
        {"-n 0 -c random", "-n wants a positive even number"},
        {"-N x -c random", "-N wants a positive number"},
        {"-M 5x -c random", "-M wants milliseconds"},
        {"-g nosuchgame -c random", "unknown game 'nosuchgame'"},
        {"-c nosuchcell", "unknown cell 'nosuchcell'"},
        {"-c base-nodes", "-b BASE is required"},
        {"-b no-such-folder/sigil -c base-tc1", "no base engine program"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ck_assert_int_eq(ladder(cases[i].args), 2);
        ck_assert_msg(strstr(out, cases[i].message) != NULL, "%s:\n%s", cases[i].args, out);
        ck_assert_msg(strstr(out, "Started game") == NULL && strstr(out, "Finished") == NULL,
                      "%s played:\n%s", cases[i].args, out);
    }
}
END_TEST

/* Split a Markdown row "| a | b | ... |" into at most max cells (trimmed, in
 * place); returns how many. */
static int split_row(char *row, char **cells, int max)
{
    int n = 0;
    if (*row != '|')
        return 0;
    char *p = row + 1;
    while (n < max) {
        char *bar = strchr(p, '|');
        if (!bar)
            break;
        *bar = '\0';
        while (*p == ' ')
            p++;
        char *e = bar;
        while (e > p && e[-1] == ' ')
            *--e = '\0';
        cells[n++] = p;
        p = bar + 1;
    }
    return n;
}

START_TEST(a_tiny_ladder_writes_one_row_per_cell)
{
    char file[] = "/tmp/check_ladder_XXXXXX";
    int fd = mkstemp(file);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char args[512];
    snprintf(args, sizeof args,
             "-g 'pyramid lupta' -n 2 -N 64 -c 'random greedy double-lo' -s 5 -o '%s'", file);
    ck_assert_msg(ladder(args) == 0, "%s", out);
    FILE *f = fopen(file, "r");
    ck_assert_ptr_nonnull(f);
    static const char *const games[] = {"pyramid", "lupta"};
    static const char *const labels[] = {"random, 64 nodes", "greedy, 64 nodes",
                                         "64 vs 32 nodes"};
    char line[4096];
    int rows = 0, header = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c[8];
        if (split_row(line, c, 8) != 7)
            continue;
        if (strcmp(c[0], "game") == 0) {
            header++;
            ck_assert_str_eq(c[2], "W-L-D");
            ck_assert_str_eq(c[6], "command");
            continue;
        }
        if (strncmp(c[0], "---", 3) == 0)
            continue;
        ck_assert_int_lt(rows, 6);
        /* Rows in order: every cell of the first game, then the second. */
        ck_assert_str_eq(c[0], games[rows / 3]);
        ck_assert_str_eq(c[1], labels[rows % 3]);
        int w, l, d;
        ck_assert_msg(sscanf(c[2], "%d-%d-%d", &w, &l, &d) == 3, "%s", c[2]);
        ck_assert_int_eq(w + l + d, 2);
        char score[32];
        snprintf(score, sizeof score, "%.1f%%", 100.0 * (w + 0.5 * d) / 2);
        ck_assert_str_eq(c[3], score);
        ck_assert_msg(strstr(c[4], " ± ") != NULL, "%s", c[4]);
        char want[128];
        snprintf(want, sizeof want, "`sigil-match -variant %s -engine cmd=%s", games[rows / 3],
                 sigil_bin);
        ck_assert_msg(strncmp(c[6], want, strlen(want)) == 0, "%s", c[6]);
        ck_assert_msg(strstr(c[6], " -games 2 ") && strstr(c[6], " -seed 5 "), "%s", c[6]);
        rows++;
    }
    fclose(f);
    unlink(file);
    ck_assert_int_eq(header, 1);
    ck_assert_int_eq(rows, 6);
}
END_TEST

static Suite *ladder_suite(void)
{
    Suite *s = suite_create("ladder");
    TCase *tc = tcase_create("script");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, usage_errors_exit_2_before_any_game);
    tcase_add_test(tc, a_tiny_ladder_writes_one_row_per_cell);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    sigil_bin = getenv("SIGIL_BIN") ? getenv("SIGIL_BIN") : "engine/sigil";
    match_bin = getenv("SIGIL_MATCH_BIN") ? getenv("SIGIL_MATCH_BIN") : "engine/sigil-match";
    srcdir = getenv("SIGIL_SRCDIR") ? getenv("SIGIL_SRCDIR") : ".";
    SRunner *sr = srunner_create(ladder_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
