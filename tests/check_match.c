/* check_match.c - sigil-match: the statistics (worked values), tournaments
 * between the built-in players and the engine in every variant, misbehaving
 * engines (the scripts in tests/engines/), records that replay, and no process left
 * behind.
 *
 * The programs are found through SIGIL_MATCH_BIN, SIGIL_BIN and SIGIL_SRCDIR
 * (set by `make check`).  Every script notes its pid (and its children's)
 * into $SIGIL_TEST_PIDFILE, so the tests can check that all are gone.
 */
#include <check.h>
#include <ctype.h>
#include <regex.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "match/stats.h"
#include "util.h"
#include "variants.h"

static const char *match_bin;
static const char *engine_bin;
static const char *srcdir;
static char tmpdir[256];

/* ---- helpers -------------------------------------------------------------- */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static bool have_engine(void) { return access(engine_bin, X_OK) == 0; }

static void tmp_path(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/%s", tmpdir, name);
}

/* The path of a misbehaving engine script. */
static void script(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "%s/tests/engines/%s.sh", srcdir, name);
}

/* Start sigil-match with the NULL-terminated arguments, stdout and stderr to
 * outfile; returns the pid. */
static pid_t spawn_match(const char *outfile, const char **args)
{
    const char *argv[128];
    int n = 0;
    argv[n++] = match_bin;
    for (int i = 0; args[i] && n < 127; i++)
        argv[n++] = args[i];
    argv[n] = NULL;
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int fd = open(outfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd >= 0) {
            dup2(fd, 1);
            dup2(fd, 2);
            close(fd);
        }
        execv(match_bin, (char *const *)argv);
        _exit(127);
    }
    return pid;
}

/* Run sigil-match to completion; returns its exit status (or 128+signal). */
static int run_match(const char *outfile, const char **args)
{
    pid_t pid = spawn_match(outfile, args);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return strdup("");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)len + 1);
    size_t got = fread(buf, 1, (size_t)len, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* The tags of the records of a PGN file. */
#define MAX_GAMES 256
typedef struct Games {
    int n;
    char result[MAX_GAMES][16];
    char termination[MAX_GAMES][200];
    char white[MAX_GAMES][64];
    char black[MAX_GAMES][64];
    char fen[MAX_GAMES][256];
    char movetext[MAX_GAMES][256]; /* the start of the movetext */
    char detail[MAX_GAMES][300];   /* the last comment: the termination in words */
    char setup[MAX_GAMES][8];
    char time_control[MAX_GAMES][64];
    char variant[MAX_GAMES][32];
    int plies[MAX_GAMES];
} Games;

static void tag_value(const char *line, char *out, size_t size)
{
    const char *q = strchr(line, '"');
    const char *e = q ? strrchr(line, '"') : NULL;
    size_t n = q && e > q ? (size_t)(e - q - 1) : 0;
    if (n >= size)
        n = size - 1;
    memcpy(out, q ? q + 1 : "", n);
    out[n] = '\0';
}

static Games *read_games(const char *path)
{
    Games *g = calloc(1, sizeof *g);
    FILE *f = fopen(path, "r");
    if (!f)
        return g;
    char line[4096];
    bool in_moves = false;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '[') {
            if (!strncmp(line, "[Event ", 7)) {
                g->n++;
                in_moves = false;
            }
            int i = g->n - 1;
            if (i < 0 || i >= MAX_GAMES)
                continue;
            if (!strncmp(line, "[Result ", 8))
                tag_value(line, g->result[i], sizeof g->result[i]);
            else if (!strncmp(line, "[Termination ", 13))
                tag_value(line, g->termination[i], sizeof g->termination[i]);
            else if (!strncmp(line, "[White ", 7))
                tag_value(line, g->white[i], sizeof g->white[i]);
            else if (!strncmp(line, "[Black ", 7))
                tag_value(line, g->black[i], sizeof g->black[i]);
            else if (!strncmp(line, "[FEN ", 5))
                tag_value(line, g->fen[i], sizeof g->fen[i]);
            else if (!strncmp(line, "[SetUp ", 7))
                tag_value(line, g->setup[i], sizeof g->setup[i]);
            else if (!strncmp(line, "[TimeControl ", 13))
                tag_value(line, g->time_control[i], sizeof g->time_control[i]);
            else if (!strncmp(line, "[Variant ", 9))
                tag_value(line, g->variant[i], sizeof g->variant[i]);
            else if (!strncmp(line, "[PlyCount ", 10)) {
                char v[16];
                tag_value(line, v, sizeof v);
                g->plies[i] = atoi(v);
            }
        } else if (line[0] != '\n' && g->n > 0 && g->n <= MAX_GAMES) {
            if (!in_moves)
                snprintf(g->movetext[g->n - 1], sizeof g->movetext[0], "%.255s", line);
            in_moves = true;
            /* Keep the last {comment} of the movetext. */
            for (char *open = strchr(line, '{'); open; open = strchr(open + 1, '{')) {
                char *close = strchr(open, '}');
                if (!close)
                    break;
                snprintf(g->detail[g->n - 1], sizeof g->detail[0], "%.*s",
                         (int)(close - open - 1), open + 1);
            }
        }
    }
    fclose(f);
    return g;
}

/* `sigil-match -replay pgn` succeeds and counts n records, none failed. */
static void assert_replays(const char *pgn, int n)
{
    char out[512], want[64];
    tmp_path(out, sizeof out, "replay.txt");
    const char *args[] = {"-replay", pgn, NULL};
    int rc = run_match(out, args);
    char *text = slurp(out);
    snprintf(want, sizeof want, "replayed %d records, 0 failed", n);
    ck_assert_msg(rc == 0 && strstr(text, want), "replay of %s failed:\n%s", pgn, text);
    free(text);
}

/* True when pid is gone (or only a zombie waiting for init). */
static bool pid_gone(int pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return kill(pid, 0) != 0 && errno == ESRCH;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    const char *close_paren = strrchr(buf, ')');
    return close_paren && close_paren[1] == ' ' && close_paren[2] == 'Z';
}

/* Every pid noted in pidfile is gone (waits up to 3 s); returns how many
 * pids the file holds. */
static int assert_pids_gone(const char *pidfile)
{
    FILE *f = fopen(pidfile, "r");
    int pids[256], n = 0;
    if (f) {
        while (n < 256 && fscanf(f, "%d", &pids[n]) == 1)
            n++;
        fclose(f);
    }
    for (int i = 0; i < n; i++) {
        int waited = 0;
        while (!pid_gone(pids[i]) && waited < 3000) {
            sleep_ms(20);
            waited += 20;
        }
        ck_assert_msg(pid_gone(pids[i]), "engine process %d is still running", pids[i]);
    }
    return n;
}

static void fresh_pidfile(char *buf, size_t size, const char *name)
{
    tmp_path(buf, size, name);
    unlink(buf);
    setenv("SIGIL_TEST_PIDFILE", buf, 1);
}

static int lines_match(const char *text, const char *prefix, const char *re);

/* A misbehaving script against `random` for two games; every game must be
 * lost by the script with a termination starting with `kind`, the match
 * must end normally and no process may remain. */
static void check_misbehaving(const char *name, const char *tag, const char *kind,
                              const char *detail, const char *margin)
{
    char sc[512], pgn[512], out[512], pidfile[512], cmd[600], nm[64], res[512];
    script(sc, sizeof sc, name);
    tmp_path(res, sizeof res, "misbehave.res");
    snprintf(cmd, sizeof cmd, "arg=%s", sc);
    snprintf(nm, sizeof nm, "name=%s", name);
    tmp_path(pgn, sizeof pgn, "misbehave.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "misbehave.txt");
    fresh_pidfile(pidfile, sizeof pidfile, "misbehave.pids");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=/bin/sh", cmd, nm, "st=0.02",
                          "-engine", "cmd=random", "-games", "2", "-seed", "3",
                          "-timemargin", margin, "-starttimeout", strcmp(name, "noshake") ? "5" : "1",
                          "-pgnout", pgn, "-results", res, NULL};
    int rc = run_match(out, args);
    char *text = slurp(out);
    ck_assert_msg(rc == 0, "sigil-match exited %d:\n%s", rc, text);
    ck_assert_msg(strstr(text, "Finished 2 games"), "%s", text);
    if (!strcmp(tag, "time forfeit")) {
        /* chess-tuning-tools' pattern for a loss on time; the warning names -timemargin. */
        ck_assert_int_eq(lines_match(text, "Finished game",
                                     "^Finished game [0-9]+ \\((.+) vs (.+)\\): [0-9]-[0-9] "
                                     "\\{(White|Black) loses on time\\}$"),
                         2);
        ck_assert_msg(strstr(text, "raise -timemargin"), "%s", text);
    }
    free(text);
    /* The result file takes the forfeits: each checked and merged. */
    rc = run_match(out, (const char *[]){"-merge", res, NULL});
    text = slurp(out);
    ck_assert_msg(rc == 0, "-merge exited %d:\n%s", rc, text);
    free(text);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    for (int i = 0; i < g->n; i++) {
        bool script_white = !strcmp(g->white[i], name);
        ck_assert_str_eq(g->result[i], script_white ? "0-1" : "1-0");
        ck_assert_str_eq(g->termination[i], tag);
        ck_assert_msg(!strncmp(g->detail[i], kind, strlen(kind)),
                      "game %d: termination '%s', expected '%s'", i + 1, g->detail[i], kind);
        if (detail)
            ck_assert_msg(strstr(g->detail[i], detail), "game %d: '%s' lacks '%s'", i + 1,
                          g->detail[i], detail);
    }
    free(g);
    assert_replays(pgn, 2);
    /* One process per game: the engine was killed and restarted. */
    int pids = assert_pids_gone(pidfile);
    ck_assert_int_ge(pids, 2);
}

/* ---- statistics ------------------------------------------------------------ */

START_TEST(score_is_points_over_games)
{
    ck_assert_double_eq_tol(stats_score(6, 2, 2), 0.7, 1e-12);
    ck_assert_double_eq_tol(stats_score(0, 4, 0), 0.5, 1e-12);
    ck_assert_double_eq_tol(stats_score(0, 0, 0), 0.5, 1e-12);
    ck_assert_double_eq_tol(stats_score(0, 1, 3), 0.125, 1e-12);
}
END_TEST

START_TEST(elo_difference_of_a_score)
{
    /* -400 log10(1/s - 1) */
    ck_assert_double_eq_tol(stats_elo_from_score(0.6), 70.4365, 1e-4);
    ck_assert_double_eq_tol(stats_elo_from_score(0.75), 190.8485, 1e-4);
    ck_assert_double_eq_tol(stats_elo_from_score(0.25), -190.8485, 1e-4);
    ck_assert_double_eq_tol(stats_elo_from_score(0.5), 0.0, 1e-12);
    ck_assert(isinf(stats_elo_from_score(1.0)) && stats_elo_from_score(1.0) > 0);
    ck_assert(isinf(stats_elo_from_score(0.0)) && stats_elo_from_score(0.0) < 0);
    ck_assert_double_eq_tol(stats_score_from_elo(70.4365036), 0.6, 1e-9);
}
END_TEST

START_TEST(elo_interval_from_games)
{
    /* 60 wins, 20 draws, 20 losses: s = 0.7, var = 0.16, se = 0.04,
     * interval Elo(0.7 -+ 1.96 * 0.04) = 86.23 .. 218.25. */
    StatsElo e = stats_elo_wdl(60, 20, 20);
    ck_assert_double_eq_tol(e.score, 0.7, 1e-12);
    ck_assert_double_eq_tol(e.elo, 147.1907, 1e-3);
    ck_assert_double_eq_tol(e.err, 66.0134, 1e-3);
    ck_assert_double_eq_tol(e.lo, 86.2250, 1e-3);
    ck_assert_double_eq_tol(e.hi, 218.2518, 1e-3);
    char buf[64];
    stats_format_elo(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "+147.2 +- 66.0");
    e = stats_elo_wdl(5, 0, 0);
    stats_format_elo(&e, buf, sizeof buf);
    ck_assert_str_eq(buf, "+inf +- inf");
}
END_TEST

START_TEST(elo_interval_from_pairs)
{
    /* Pairs [LL LD WL+DD WD WW] = [3 10 25 12 5]: mean 29/55 = 0.52727,
     * variance 0.060620 per pair, se = sqrt(var / 55). */
    int penta[5] = {3, 10, 25, 12, 5};
    StatsElo e = stats_elo_penta(penta);
    ck_assert_double_eq_tol(e.score, 29.0 / 55.0, 1e-12);
    ck_assert_double_eq_tol(e.elo, 18.9699, 1e-3);
    ck_assert_double_eq_tol(e.err, 45.6121, 1e-3);
}
END_TEST

START_TEST(likelihood_of_superiority)
{
    ck_assert_double_eq_tol(stats_los(12, 8), 0.814453, 1e-6);
    ck_assert_double_eq_tol(stats_los(60, 20), 0.9999961, 1e-6);
    ck_assert_double_eq_tol(stats_los(10, 10), 0.5, 1e-12);
    ck_assert_double_eq_tol(stats_los(0, 0), 0.5, 1e-12);
    ck_assert_double_eq_tol(stats_los(8, 12), 1.0 - 0.814453, 1e-6);
}
END_TEST

START_TEST(sprt_bounds)
{
    ck_assert_double_eq_tol(stats_sprt_lower(0.05, 0.05), -2.944439, 1e-6);
    ck_assert_double_eq_tol(stats_sprt_upper(0.05, 0.05), 2.944439, 1e-6);
    ck_assert_double_eq_tol(stats_sprt_lower(0.05, 0.10), -2.251292, 1e-6);
    ck_assert_double_eq_tol(stats_sprt_upper(0.05, 0.10), 2.890372, 1e-6);
    ck_assert_int_eq(stats_sprt_verdict(3.0, 0.05, 0.05), STATS_SPRT_H1);
    ck_assert_int_eq(stats_sprt_verdict(-3.0, 0.05, 0.05), STATS_SPRT_H0);
    ck_assert_int_eq(stats_sprt_verdict(2.9, 0.05, 0.05), STATS_SPRT_CONTINUE);
}
END_TEST

START_TEST(sprt_llr_matches_fastchess_published_values)
{
    /* fastchess's own test vectors (pentanomial given as LL, LD, WL, DD, WD,
     * WW; here WL and DD share a bin), to two decimals. */
    int a[5] = {365, 16618, 36029 + 200, 16974, 390};
    ck_assert_double_eq_tol(stats_sprt_llr(a, 0, 2, STATS_SPRT_NORMALIZED), 2.25, 0.01);
    int b[5] = {127, 4883, 10311 + 401, 5150, 104};
    ck_assert_double_eq_tol(stats_sprt_llr(b, -1.75, 0.25, STATS_SPRT_NORMALIZED), 3.01, 0.01);
    int c[5] = {223, 9863, 20279 + 1000, 10037, 246};
    ck_assert_double_eq_tol(stats_sprt_llr(c, 0.5, 2.5, STATS_SPRT_LOGISTIC), -3.07, 0.01);
    int d[5] = {871, 26175, 55003 + 980, 26678, 821};
    ck_assert_double_eq_tol(stats_sprt_llr(d, 0, 2, STATS_SPRT_LOGISTIC), -4.98, 0.01);
    ck_assert_double_eq_tol(stats_sprt_llr_wdl(36433, 68692, 36027, 0, 2, STATS_SPRT_NORMALIZED),
                            0.92, 0.01);
    ck_assert_double_eq_tol(
        stats_sprt_llr_wdl(10871, 20431, 10650, -1.75, 0.25, STATS_SPRT_NORMALIZED), 2.30, 0.01);
    ck_assert_double_eq_tol(
        stats_sprt_llr_wdl(21404, 40708, 21184, 0.5, 2.5, STATS_SPRT_LOGISTIC), -1.57, 0.01);
    ck_assert_double_eq_tol(stats_sprt_llr_wdl(57433, 106593, 57030, 0, 2, STATS_SPRT_LOGISTIC),
                            -2.59, 0.01);
}
END_TEST

START_TEST(sprt_llr_worked_values)
{
    /* Worked with an independent script (bisection for theta): */
    int p[5] = {3, 10, 25, 12, 5};
    ck_assert_double_eq_tol(stats_sprt_llr(p, 0, 10, STATS_SPRT_NORMALIZED), 0.201503, 1e-4);
    ck_assert_double_eq_tol(stats_sprt_llr(p, 0, 10, STATS_SPRT_LOGISTIC), 0.260649, 1e-4);
    /* ... and the normal approximation N (s1-s0)(2mu-s0-s1) / (2 var) is close. */
    double s0 = 0.5, s1 = stats_score_from_elo(10), mu = 29.0 / 55.0, var = 0.0606198347;
    ck_assert_double_eq_tol(stats_sprt_llr(p, 0, 10, STATS_SPRT_LOGISTIC),
                            55 * (s1 - s0) * (2 * mu - s0 - s1) / (2 * var), 0.005);
    int q[5] = {6, 14, 20, 6, 1};
    ck_assert_double_eq_tol(stats_sprt_llr(q, -5, 5, STATS_SPRT_NORMALIZED), -0.719066, 1e-4);
    ck_assert_double_eq_tol(stats_sprt_llr_wdl(50, 30, 20, 0, 20, STATS_SPRT_LOGISTIC), 2.241751,
                            1e-4);
    int none[5] = {0, 0, 0, 0, 0};
    ck_assert_double_eq_tol(stats_sprt_llr(none, 0, 5, STATS_SPRT_NORMALIZED), 0.0, 1e-12);
    /* Winning every pair is evidence for H1, losing every pair against it. */
    int wins[5] = {0, 0, 0, 0, 20};
    int losses[5] = {20, 0, 0, 0, 0};
    ck_assert(stats_sprt_llr(wins, 0, 5, STATS_SPRT_NORMALIZED) > 0);
    ck_assert(stats_sprt_llr(losses, 0, 5, STATS_SPRT_NORMALIZED) < 0);
}
END_TEST

/* ---- tournaments ------------------------------------------------------------ */

START_TEST(builtin_players_finish_every_variant)
{
    for (int i = 0; i < variants_count(); i++) {
        const char *v = variants_get(i)->name;
        char pgn[512], out[512];
        tmp_path(pgn, sizeof pgn, "builtin.pgn");
        unlink(pgn);
        tmp_path(out, sizeof out, "builtin.txt");
        const char *args[] = {"-variant", v, "-engine", "cmd=random", "-engine", "cmd=greedy",
                              "-games", "4", "-seed", "7", "-concurrency", "2", "-pgnout", pgn,
                              NULL};
        int rc = run_match(out, args);
        char *text = slurp(out);
        ck_assert_msg(rc == 0 && strstr(text, "Finished 4 games"), "%s: %s", v, text);
        ck_assert_msg(strstr(text, "random vs greedy:"), "%s", text);
        free(text);
        Games *g = read_games(pgn);
        ck_assert_int_eq(g->n, 4);
        for (int k = 0; k < 4; k++) {
            ck_assert_msg(strcmp(g->result[k], "*") != 0, "%s game %d unfinished", v, k + 1);
            ck_assert_msg(g->plies[k] > 0, "%s game %d has no moves", v, k + 1);
        }
        /* Colour-reversed pairs: the players swap colours. */
        ck_assert_str_eq(g->white[0], "random");
        ck_assert_str_eq(g->white[1], "greedy");
        free(g);
        assert_replays(pgn, 4);
    }
}
END_TEST

START_TEST(tournament_is_reproducible_from_the_seed)
{
    const char *variants[] = {"alexander", "lupta"};
    for (int i = 0; i < 2; i++) {
        char pgn[2][512], out[512], rep[2][512];
        for (int run = 0; run < 2; run++) {
            snprintf(pgn[run], sizeof pgn[run], "%s/repro%d.pgn", tmpdir, run);
            unlink(pgn[run]);
            tmp_path(out, sizeof out, "repro.txt");
            const char *args[] = {"-variant", variants[i], "-engine", "cmd=random", "-engine",
                                  "cmd=greedy", "-games", "2", "-rounds", "3", "-seed", "99",
                                  "-openings", "random:3", "-concurrency", run ? "3" : "1",
                                  "-pgnout", pgn[run], NULL};
            ck_assert_int_eq(run_match(out, args), 0);
            snprintf(rep[run], sizeof rep[run], "%s/repro%d.txt", tmpdir, run);
            const char *rargs[] = {"-replay", pgn[run], NULL};
            ck_assert_int_eq(run_match(rep[run], rargs), 0);
        }
        char *a = slurp(rep[0]), *b = slurp(rep[1]);
        ck_assert_msg(strstr(a, "replayed 6 records, 0 failed"), "%s", a);
        ck_assert_str_eq(a, b); /* same moves, rolls, final positions */
        free(a);
        free(b);
    }
}
END_TEST

START_TEST(engine_against_random_every_variant)
{
    if (!have_engine()) {
        fprintf(stderr, "check_match: %s not built, engine games skipped\n", engine_bin);
        return;
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cmd=%s", engine_bin);
    for (int i = 0; i < variants_count(); i++) {
        const char *v = variants_get(i)->name;
        char pgn[512], out[512];
        tmp_path(pgn, sizeof pgn, "engine.pgn");
        unlink(pgn);
        tmp_path(out, sizeof out, "engine.txt");
        const char *args[] = {"-variant", v, "-engine", cmd, "name=sigil", "st=0.02", "-engine",
                              "cmd=random", "-games", "2", "-seed", "5", "-timemargin", "1000",
                              "-concurrency", "2", "-pgnout", pgn, NULL};
        int rc = run_match(out, args);
        char *text = slurp(out);
        ck_assert_msg(rc == 0 && strstr(text, "Finished 2 games"), "%s: %s", v, text);
        free(text);
        Games *g = read_games(pgn);
        ck_assert_int_eq(g->n, 2);
        for (int k = 0; k < 2; k++) {
            const char *t = g->termination[k];
            ck_assert_msg(!strcmp(t, "normal") || !strcmp(t, "adjudication"),
                          "%s game %d: the engine misbehaved: %s {%s}", v, k + 1, t, g->detail[k]);
            ck_assert_str_ne(g->result[k], "*");
        }
        free(g);
        assert_replays(pgn, 2);
    }
}
END_TEST

START_TEST(engine_under_clock_depth_nodes_and_ugi)
{
    if (!have_engine()) {
        fprintf(stderr, "check_match: %s not built, engine games skipped\n", engine_bin);
        return;
    }
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cmd=%s", engine_bin);
    const char *limits[][2] = {
        {"tc=1+0.02", "depth=3"},    /* a clock (UGI p1time/p2time) against a fixed depth */
        {"tc=40/3", "nodes=3000"},   /* moves per period (movestogo) against a node limit */
    };
    for (int i = 0; i < 2; i++) {
        char pgn[512], out[512];
        tmp_path(pgn, sizeof pgn, "limits.pgn");
        unlink(pgn);
        tmp_path(out, sizeof out, "limits.txt");
        const char *args[] = {"-variant", "solomon-chain", "-engine", cmd, "name=clock",
                              i == 0 ? "proto=ugi" : "proto=uci", limits[i][0], "-engine", cmd,
                              "name=fixed", limits[i][1], "-games", "2", "-seed", "5",
                              "-timemargin", "1000", "-maxmoves", "40", "-pgnout", pgn, NULL};
        int rc = run_match(out, args);
        char *text = slurp(out);
        ck_assert_msg(rc == 0 && strstr(text, "Finished 2 games"), "%s", text);
        free(text);
        Games *g = read_games(pgn);
        ck_assert_int_eq(g->n, 2);
        for (int k = 0; k < 2; k++) {
            const char *t = g->termination[k];
            ck_assert_msg(!strcmp(t, "normal") || !strcmp(t, "adjudication"), "%s: %s {%s}",
                          limits[i][0], t, g->detail[k]);
        }
        free(g);
        assert_replays(pgn, 2);
    }
}
END_TEST

START_TEST(random_openings_are_shared_by_a_pair)
{
    char pgn[512], out[512];
    tmp_path(pgn, sizeof pgn, "openings.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "openings.txt");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=random", "-engine", "cmd=greedy",
                          "-games", "2", "-rounds", "2", "-seed", "21", "-openings", "random:4",
                          "-maxmoves", "6", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 4);
    /* "1. m1 {book} m2 {book} 2. m3 {book} m4 {book} ..." */
    ck_assert_msg(strstr(g->movetext[0], "{book}"), "%s", g->movetext[0]);
    const char *e0 = strstr(g->movetext[0], "3.");
    const char *e1 = strstr(g->movetext[1], "3.");
    ck_assert(e0 && e1);
    ck_assert_int_eq(e0 - g->movetext[0], e1 - g->movetext[1]);
    ck_assert(!strncmp(g->movetext[0], g->movetext[1], (size_t)(e0 - g->movetext[0])));
    /* The next pair has another opening. */
    ck_assert(strncmp(g->movetext[0], g->movetext[2], (size_t)(e0 - g->movetext[0])) != 0);
    free(g);
    assert_replays(pgn, 4);
}
END_TEST

START_TEST(fen_openings_are_cycled)
{
    const Variant *v = variants_find("salto");
    ck_assert_ptr_nonnull(v);
    GameConfig gc = {DEFAULT_MOVE_LIMIT};
    Position pos, child;
    v->startpos(&pos, &gc);
    char fen[2][FEN_MAX];
    Move moves[MAX_MOVES];
    for (int k = 0; k < 2; k++) { /* two positions a few moves in */
        int n = v->generate(&pos, moves);
        ck_assert_int_gt(n, 0);
        v->make(&pos, moves[n - 1], &child);
        pos = child;
        v->to_fen(&pos, fen[k]);
    }
    char file[512], pgn[512], out[512], opt[600];
    tmp_path(file, sizeof file, "fens.txt");
    FILE *f = fopen(file, "w");
    fprintf(f, "# two openings\n%s\n\n%s\n", fen[0], fen[1]);
    fclose(f);
    snprintf(opt, sizeof opt, "file=%s", file);
    tmp_path(pgn, sizeof pgn, "fens.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "fens.txt.out");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=random", "-engine", "cmd=greedy",
                          "-games", "2", "-rounds", "3", "-seed", "1", "-openings", opt,
                          "-maxmoves", "4", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 6);
    const int want[6] = {0, 0, 1, 1, 0, 0};
    for (int k = 0; k < 6; k++)
        ck_assert_str_eq(g->fen[k], fen[want[k]]);
    free(g);
    assert_replays(pgn, 6);
}
END_TEST

START_TEST(max_moves_adjudicates_a_draw)
{
    char pgn[512], out[512];
    tmp_path(pgn, sizeof pgn, "maxmoves.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "maxmoves.txt");
    const char *args[] = {"-variant", "lupta", "-engine", "cmd=random", "-engine", "cmd=greedy",
                          "-games", "2", "-seed", "2", "-maxmoves", "3", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    for (int k = 0; k < 2; k++) {
        ck_assert_str_eq(g->result[k], "1/2-1/2");
        ck_assert_str_eq(g->termination[k], "adjudication");
        ck_assert_str_eq(g->detail[k], "adjudication: max moves (3)");
        ck_assert_int_eq(g->plies[k], 6);
    }
    free(g);
    assert_replays(pgn, 2); /* replays to an unfinished position: board=* */
}
END_TEST

START_TEST(sprt_stops_the_run_when_it_decides)
{
    char out[512];
    tmp_path(out, sizeof out, "sprt.txt");
    /* greedy wins every Salto game against random: H1 is accepted early. */
    const char *args[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random",
                          "-games", "2", "-rounds", "100", "-seed", "4", "-sprt", "elo0=0",
                          "elo1=20", "alpha=0.05", "beta=0.05", "model=logistic", NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    char *text = slurp(out);
    ck_assert_msg(strstr(text, "H1 accepted"), "%s", text);
    const char *fin = strstr(text, "\nFinished match\n");
    ck_assert_ptr_nonnull(fin);
    const char *count = strstr(fin, "\nFinished ");
    count = count ? strstr(count + 1, "\nFinished ") : NULL;
    ck_assert_ptr_nonnull(count);
    int played = atoi(count + 10);
    ck_assert_int_gt(played, 0);
    ck_assert_int_lt(played, 200);
    free(text);
}
END_TEST

START_TEST(match_scoring_as_really_played)
{
    struct {
        const char *variant, *games, *expect;
    } cases[] = {
        {"lupta", "6", "matches won"},
        {"alexander", "10", "margin sum"},
        {"salto", "2", "margins won"},
        {"pyramid", "2", "margins won"},
    };
    for (int i = 0; i < 4; i++) {
        char out[512];
        tmp_path(out, sizeof out, "scoring.txt");
        const char *args[] = {"-variant", cases[i].variant, "-engine", "cmd=greedy", "-engine",
                              "cmd=random", "-games", cases[i].games, "-seed", "8", NULL};
        ck_assert_int_eq(run_match(out, args), 0);
        char *text = slurp(out);
        ck_assert_msg(strstr(text, "Match scoring") && strstr(text, cases[i].expect), "%s: %s",
                      cases[i].variant, text);
        free(text);
    }
}
END_TEST

/* Write text to path. */
static void spit(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

START_TEST(replay_detects_a_wrong_record)
{
    char pgn[512], bad[512], out[512];
    tmp_path(pgn, sizeof pgn, "good.pgn");
    unlink(pgn);
    tmp_path(bad, sizeof bad, "bad.pgn");
    tmp_path(out, sizeof out, "bad.txt");
    const char *args[] = {"-variant", "solomon", "-engine", "cmd=random", "-engine", "cmd=greedy",
                          "-games", "2", "-seed", "12", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    assert_replays(pgn, 2);
    char *text = slurp(pgn);

    /* The first game's result turned round. */
    char *copy = strdup(text);
    char *res = strstr(copy, "[Result \"");
    ck_assert_ptr_nonnull(res);
    res += 9;
    if (!strncmp(res, "1-0", 3))
        memcpy(res, "0-1", 3);
    else if (!strncmp(res, "0-1", 3))
        memcpy(res, "1-0", 3);
    else
        memcpy(res, "1-0", 3); /* was a draw: "1-0-1/2" still is no draw */
    spit(bad, copy);
    const char *rargs[] = {"-replay", bad, NULL};
    ck_assert_int_eq(run_match(out, rargs), 1);
    char *rep = slurp(out);
    ck_assert_msg(strstr(rep, "#1 solomon") && strstr(rep, "MISMATCH(board"), "%s", rep);
    ck_assert_msg(strstr(rep, "replayed 2 records, 1 failed"), "%s", rep);
    free(rep);
    free(copy);

    /* The first move replaced by an illegal one (White cannot move from 1). */
    copy = strdup(text);
    char *mv = strstr(copy, "\n1. ");
    ck_assert_ptr_nonnull(mv);
    mv += 4;
    size_t len = strcspn(mv, " ");
    ck_assert_int_ge(len, 3);
    memset(mv, ' ', len);
    memcpy(mv, "1-4", 3);
    spit(bad, copy);
    ck_assert_int_eq(run_match(out, rargs), 1);
    rep = slurp(out);
    ck_assert_msg(strstr(rep, "MISMATCH(ply 1:"), "%s", rep);
    free(rep);
    free(copy);
    free(text);
}
END_TEST

/* A run that must stop before its first game: exit status rc, a message
 * holding `message`, no game started, no record written, no process left. */
static void check_stops_at_start(const char **args, int rc, const char *message)
{
    char out[512], pidfile[512];
    tmp_path(out, sizeof out, "start.txt");
    fresh_pidfile(pidfile, sizeof pidfile, "start.pids");
    int got = run_match(out, args);
    char *text = slurp(out);
    ck_assert_msg(got == rc, "exit %d, expected %d:\n%s", got, rc, text);
    ck_assert_msg(strstr(text, message), "'%s' not in:\n%s", message, text);
    ck_assert_msg(!strstr(text, "Started game") && !strstr(text, "Finished game"), "%s", text);
    free(text);
    assert_pids_gone(pidfile);
}

/* ---- the command line ---------------------------------------------------------- */

START_TEST(command_line_errors_stop_before_any_game)
{
    char missing[512], book[600];
    tmp_path(missing, sizeof missing, "no-such-book.epd");
    snprintf(book, sizeof book, "file=%s", missing);
    struct {
        const char *args[16];
        const char *message;
    } cases[] = {
        {{"-bogus"}, "unknown option '-bogus'"},
        {{"-games", "x"}, "-games x: not a whole number"},
        {{"-games"}, "-games needs N"},
        {{"-rounds", "0"}, "-rounds 0: not a whole number"},
        {{"-sprt", "elo0=nan", "elo1=5"}, "elo0=nan is not a finite number"},
        {{"-sprt", "elo0=0", "elo1=inf"}, "elo1=inf is not a finite number"},
        {{"-sprt", "elo0=0", "elo1=5", "alpha=0.7", "beta=0.5"}, "alpha + beta < 1"},
        {{"-sprt", "elo0=5", "elo1=0"}, "elo0 < elo1"},
        {{"-sprt", "elo0=0", "elo1=5", "model=bayesian"}, "model=bayesian"},
        {{"-sprt", "elo0=0", "elo1=5", "beta"}, "unexpected 'beta'"},
        {{"-each", "tc=nan"}, "tc=nan is not a time control"},
        {{"-each", "tc=10+-1"}, "tc=10+-1 is not a time control"},
        {{"-each", "st=-1"}, "st=-1 is not a number"},
        {{"-each", "hash=16"}, "unknown engine setting 'hash'"},
        {{"-each", "proto=xboard"}, "proto=xboard"},
        {{"-each", "book=book.bin"}, "Polyglot books are for chess"},
        {{"-each", "restart=sometimes"}, "restart=sometimes"},
        {{"-each", "timemargin=-5"}, "timemargin=-5"},
        {{"-openings", book}, "cannot read openings file"},
        {{"-openings", "file=x.epd", "format=bin"}, "format=bin"},
        {{"-openings", "file=x.epd", "order=shuffled"}, "order=shuffled"},
        {{"-openings", "random:0"}, "random:PLIES"},
        {{"-pgnout"}, "-pgnout needs a file"},
        {{"-pgnout", "file="}, "-pgnout needs file=FILE"},
        {{"-pgnout", "x.pgn", "max"}, "unexpected 'max'"},
        {{"-pgnout", "file=x.pgn", "pv=true"}, "does not record pv"},
        {{"-shard", "3/2"}, "-shard 3/2"},
        {{"-repeat", "x"}, "-repeat x"},
        {{"-tournament", "knockout"}, "knockout is not supported"},
        {{"-draw", "movecount=x", "score=1"}, "movecount=x"},
        {{"-maxmoves", "-1"}, "-maxmoves -1"},
        {{"-tb", "/tmp"}, "Syzygy tablebases are for chess"},
        {{"-output", "format=json"}, "format=cutechess or format=fastchess"},
        {{"-variant", "chess"}, "unknown variant 'chess'"},
        {{"-merge", "x.res"}, "-merge combines result files"},
        /* fuzz_match_cli: a timeout that rounds to 0 ms was accepted */
        {{"-hangtimeout", "0.0004"}, "-hangtimeout must be at least 1 ms"},
        {{"-startup-ms", "0.4"}, "-startup-ms must be at least 1 ms"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const char *args[40];
        int n = 0;
        args[n++] = "-variant";
        args[n++] = "salto";
        args[n++] = "-engine";
        args[n++] = "cmd=random";
        args[n++] = "-engine";
        args[n++] = "cmd=greedy";
        for (int k = 0; cases[c].args[k]; k++)
            args[n++] = cases[c].args[k];
        args[n] = NULL;
        char out[512];
        tmp_path(out, sizeof out, "usage.txt");
        int rc = run_match(out, args);
        char *text = slurp(out);
        ck_assert_msg(rc == 2, "case %zu (%s): exit %d\n%s", c, cases[c].args[0], rc, text);
        ck_assert_msg(strstr(text, cases[c].message), "case %zu: '%s' not in:\n%s", c,
                      cases[c].message, text);
        ck_assert_msg(!strstr(text, "Started game"), "%s", text);
        free(text);
    }
}
END_TEST

START_TEST(help_and_version_come_from_the_table)
{
    char out[512];
    tmp_path(out, sizeof out, "help.txt");
    const char *help[] = {"-help", NULL};
    ck_assert_int_eq(run_match(out, help), 0);
    char *text = slurp(out);
    const char *want[] = {"-srand|-seed N", "-pgnout FILE [min] [fi] | file=F", "-repeat [N]",
                          "-ratinginterval N", "-noswap", "-reverse", "-epdout", "-wait MS",
                          "-site NAME", "-version", "-shard K/N", "-merge FILE", "restart=on|off",
                          "timemargin=MS", "stderr=FILE", "initstr=TEXT", "option.NAME=VALUE"};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        ck_assert_msg(strstr(text, want[i]), "-help lacks '%s'", want[i]);
    free(text);
    const char *version[] = {"-version", NULL};
    ck_assert_int_eq(run_match(out, version), 0);
    text = slurp(out);
    ck_assert_msg(!strncmp(text, "sigil-match ", 12) && isdigit((unsigned char)text[12]), "%s",
                  text);
    free(text);
}
END_TEST

/* Every line of text that starts with prefix must match the extended
 * regular expression re; returns how many lines started with prefix. */
static int lines_match(const char *text, const char *prefix, const char *re)
{
    regex_t rx;
    ck_assert_int_eq(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
    int n = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (!strncmp(line, prefix, strlen(prefix))) {
            char buf[1024];
            snprintf(buf, sizeof buf, "%.*s", (int)len, line);
            ck_assert_msg(regexec(&rx, buf, 0, NULL, 0) == 0, "'%s' does not match %s", buf, re);
            n++;
        }
        line += len + (end != NULL);
    }
    regfree(&rx);
    return n;
}

START_TEST(output_reads_as_cutechess_output)
{
    char out[512];
    tmp_path(out, sizeof out, "cute.txt");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=greedy", "name=Greedy",
                          "-engine", "cmd=random", "name=Random", "-games", "2", "-rounds", "3",
                          "-srand", "11", "-sprt", "elo0=0", "elo1=10", "alpha=0.05",
                          "beta=0.05", "-concurrency", "2", NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    char *text = slurp(out);
    /* The patterns scripts use on cutechess-cli's output (chess-tuning-tools,
     * fishtest's and OpenBench's workers), in POSIX ERE. */
    ck_assert_int_eq(lines_match(text, "Started game",
                                 "^Started game [0-9]+ of 6 \\((Greedy|Random) vs (Greedy|Random)\\)$"),
                     6);
    ck_assert_int_eq(lines_match(text, "Finished game",
                                 "^Finished game [0-9]+ \\((Greedy|Random) vs (Greedy|Random)\\): "
                                 "(1-0|0-1|1/2-1/2) \\{[^}]+\\}$"),
                     6);
    ck_assert_int_eq(lines_match(text, "Score of",
                                 "^Score of Greedy vs Random: [0-9]+ - [0-9]+ - [0-9]+  "
                                 "\\[[01]\\.[0-9]{3}\\] [0-9]+$"),
                     6);
    ck_assert_int_eq(lines_match(text, "Elo difference",
                                 "^Elo difference: -?([0-9]+\\.[0-9]|inf) \\+/- ([0-9]+\\.[0-9]|inf|-?nan), "
                                 "LOS: [0-9]+\\.[0-9] %, DrawRatio: [0-9]+\\.[0-9] %$"),
                     1);
    ck_assert_int_eq(lines_match(text, "SPRT:",
                                 "^SPRT: llr -?[0-9]+\\.[0-9]{2} \\(-?[0-9]+\\.[0-9]%\\), lbound "
                                 "-[0-9]+\\.[0-9]{2}, ubound [0-9]+\\.[0-9]{2}( - H[01] was accepted)?$"),
                     1);
    ck_assert_int_eq(lines_match(text, "...      ", "^\\.\\.\\.      (Greedy playing (White|Black)|"
                                                  "White vs Black): [0-9]+ - [0-9]+ - [0-9]+  "
                                                  "\\[[01]\\.[0-9]{3}\\] [0-9]+$"),
                     3);
    ck_assert_int_eq(lines_match(text, "Finished match", "^Finished match$"), 1);
    /* greedy wins every Salto game against random: the last Score line is 6 - 0 - 0. */
    ck_assert_msg(strstr(text, "Score of Greedy vs Random: 6 - 0 - 0  [1.000] 6\n"), "%s", text);
    free(text);

    /* fastchess's block on the rating interval. */
    const char *fargs[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random",
                           "-games", "2", "-rounds", "2", "-seed", "11", "-ratinginterval", "2",
                           "-output", "format=fastchess", NULL};
    ck_assert_int_eq(run_match(out, fargs), 0);
    text = slurp(out);
    ck_assert_int_eq(lines_match(text, "Games:", "^Games: [0-9]+, Wins: [0-9]+, Losses: [0-9]+, "
                                                 "Draws: [0-9]+, Points: [0-9.]+ \\([0-9.]+ %\\)$"),
                     3);
    ck_assert_int_eq(lines_match(text, "Ptnml(0-2):",
                                 "^Ptnml\\(0-2\\): \\[[0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+\\]$"),
                     3);
    ck_assert_int_eq(lines_match(text, "Score of", "^x"), 0);
    free(text);
}
END_TEST

/* ---- records ---------------------------------------------------------------------- */

START_TEST(records_carry_the_standard_tags)
{
    char pgn[512], out[512], opt[600];
    tmp_path(pgn, sizeof pgn, "tags.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "tags.txt");
    snprintf(opt, sizeof opt, "file=%s", pgn);
    const char *args[] = {"-variant", "lupta", "-engine", "cmd=greedy", "tc=40/10+0.5",
                          "-engine", "cmd=random", "st=0.25", "-games", "2", "-seed", "2",
                          "-maxmoves", "5", "-site", "Bucharest", "-pgnout", opt,
                          "notation=san", "append=false", NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    char *text = slurp(pgn);
    ck_assert_msg(strstr(text, "[Site \"Bucharest\"]\n"), "%s", text);
    ck_assert_msg(strstr(text, "[WhiteTimeControl \"40/10+0.5\"]\n[BlackTimeControl \"1/0.25\"]\n"),
                  "%s", text);
    free(text);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    for (int k = 0; k < 2; k++) {
        ck_assert_str_eq(g->setup[k], "1");
        ck_assert_str_eq(g->variant[k], "lupta");
        ck_assert(g->fen[k][0] != '\0');
        ck_assert_str_eq(g->termination[k], "adjudication");
        ck_assert_str_eq(g->detail[k], "adjudication: max moves (5)");
        ck_assert_int_eq(g->plies[k], 10);
    }
    free(g);
    assert_replays(pgn, 2);
    /* append=false starts the file afresh; a second run leaves two records. */
    ck_assert_int_eq(run_match(out, args), 0);
    g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    free(g);

    /* cutechess's spelling: -pgnout FILE min: no comments; still replayable. */
    unlink(pgn);
    const char *margs[] = {"-variant", "lupta", "-engine", "cmd=greedy", "-engine", "cmd=random",
                           "-games", "2", "-seed", "2", "-maxmoves", "5", "-pgnout", pgn, "min",
                           "fi", NULL};
    ck_assert_int_eq(run_match(out, margs), 0);
    text = slurp(pgn);
    ck_assert_msg(!strchr(text, '{') && strstr(text, "[SetUp \"1\"]"), "%s", text);
    free(text);
    assert_replays(pgn, 2);
}
END_TEST

/* Records as sigil-match wrote them before [SetUp], [TimeControl] and PGN's
 * [Termination] values: the reason in words, no SetUp. */
START_TEST(old_records_still_replay)
{
    char pgn[512], old[512], out[512];
    tmp_path(pgn, sizeof pgn, "new.pgn");
    tmp_path(old, sizeof old, "old.pgn");
    tmp_path(out, sizeof out, "old.txt");
    unlink(pgn);
    const char *args[] = {"-variant", "lupta", "-engine", "cmd=greedy", "-engine", "cmd=random",
                          "-games", "2", "-seed", "2", "-maxmoves", "4", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    char *text = slurp(pgn);
    /* Every tag line reads with python-chess's tag pattern: the roster, SetUp,
     * FEN, Variant, Termination, TimeControl and PlyCount of each game. */
    ck_assert_int_eq(lines_match(text, "[", "^\\[[A-Za-z0-9][A-Za-z0-9_+#=:-]* \"[^\"]*\"\\]$"),
                     2 * 13);
    /* Back to the old form: no SetUp, no TimeControl, the reason as the termination. */
    FILE *f = fopen(old, "w");
    ck_assert_ptr_nonnull(f);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strncmp(line, "[SetUp ", 7) || !strncmp(line, "[TimeControl ", 13))
            continue;
        if (!strcmp(line, "[Termination \"adjudication\"]"))
            line = "[Termination \"adjudication: max moves (4)\"]";
        fprintf(f, "%s\n%s", line, line[0] == '[' && !strncmp(line, "[PlyCount", 9) ? "\n" : "");
    }
    fclose(f);
    free(text);
    assert_replays(old, 2);
    /* "normal" for a game the board did not finish is a lie. */
    text = slurp(pgn);
    char *t = strstr(text, "[Termination \"adjudication\"]");
    ck_assert_ptr_nonnull(t);
    memcpy(t, "[Termination \"normal\"]      ", 28);
    spit(old, text);
    free(text);
    const char *rargs[] = {"-replay", old, NULL};
    ck_assert_int_eq(run_match(out, rargs), 1);
    text = slurp(out);
    ck_assert_msg(strstr(text, "MISMATCH(unfinished game recorded as a normal ending)"), "%s",
                  text);
    free(text);
}
END_TEST

START_TEST(epdout_and_srand)
{
    char pgn[2][512], epd[512], out[512], opt[600];
    tmp_path(epd, sizeof epd, "final.epd");
    unlink(epd);
    snprintf(opt, sizeof opt, "file=%s", epd);
    for (int run = 0; run < 2; run++) {
        snprintf(pgn[run], sizeof pgn[run], "%s/srand%d.pgn", tmpdir, run);
        unlink(pgn[run]);
        tmp_path(out, sizeof out, "srand.txt");
        const char *args[] = {"-variant", "pyramid", "-engine", "cmd=greedy", "-engine",
                              "cmd=random", "-games", "2", "-rounds", "2", run ? "-seed" : "-srand",
                              "77", "-openings", "random:2", "-pgnout", pgn[run], "-epdout",
                              run ? opt : epd, NULL};
        ck_assert_int_eq(run_match(out, args), 0);
    }
    char *a = slurp(pgn[0]), *b = slurp(pgn[1]);
    /* Same seed, same games (the times in the comments aside). */
    ck_assert_int_eq(strlen(a) > 100, 1);
    free(a);
    free(b);
    char ra[512], rb[512];
    tmp_path(ra, sizeof ra, "srand-a.txt");
    tmp_path(rb, sizeof rb, "srand-b.txt");
    const char *r0[] = {"-replay", pgn[0], NULL}, *r1[] = {"-replay", pgn[1], NULL};
    ck_assert_int_eq(run_match(ra, r0), 0);
    ck_assert_int_eq(run_match(rb, r1), 0);
    a = slurp(ra);
    b = slurp(rb);
    ck_assert_str_eq(a, b);
    free(a);
    free(b);
    /* Both runs appended their four final positions, each a Pyramid FEN. */
    FILE *f = fopen(epd, "r");
    ck_assert_ptr_nonnull(f);
    const Variant *v = variants_find("pyramid");
    GameConfig gc = {DEFAULT_MOVE_LIMIT};
    char line[FEN_MAX + 8];
    int n = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        Position pos;
        char err[128];
        ck_assert_msg(v->from_fen(&pos, line, &gc, err, sizeof err), "%s: %s", line, err);
        n++;
    }
    fclose(f);
    ck_assert_int_eq(n, 8);
}
END_TEST

/* ---- openings and colours -------------------------------------------------------- */

/* A Salto position reached by playing the library's first move n times. */
static void salto_fen_after(int n, char *fen)
{
    const Variant *v = variants_find("salto");
    GameConfig gc = {DEFAULT_MOVE_LIMIT};
    Position pos, child;
    v->startpos(&pos, &gc);
    Move moves[MAX_MOVES];
    for (int k = 0; k < n; k++) {
        int c = v->generate(&pos, moves);
        ck_assert_int_gt(c, 0);
        v->make(&pos, moves[k % c], &child);
        pos = child;
    }
    v->to_fen(&pos, fen);
}

START_TEST(bad_openings_stop_the_run)
{
    char file[512], opt[600], fen[FEN_MAX];
    tmp_path(file, sizeof file, "bad-openings.epd");
    snprintf(opt, sizeof opt, "file=%s", file);
    const char *args[] = {"-variant", "salto", "-engine", "cmd=random", "-engine", "cmd=greedy",
                          "-openings", opt, "format=epd", NULL};
    /* Not a position at all. */
    salto_fen_after(2, fen);
    char text[2 * FEN_MAX + 64];
    snprintf(text, sizeof text, "%s ; id \"fine\";\nnot a position\n", fen);
    spit(file, text);
    check_stops_at_start(args, 2, ":2: not a salto position");
    /* A finished game: a random game played to its end. */
    const Variant *v = variants_find("salto");
    GameConfig gc = {DEFAULT_MOVE_LIMIT};
    Game g;
    game_init(&g, v, &gc);
    uint64_t rng = 5;
    Move moves[MAX_MOVES];
    while (game_result(&g, NULL, NULL) == RESULT_NONE) {
        int n = v->generate(&g.pos, moves);
        ck_assert_int_gt(n, 0);
        game_play(&g, moves[util_random_below(&rng, (uint64_t)n)]);
    }
    v->to_fen(&g.pos, fen);
    game_free(&g);
    spit(file, fen);
    check_stops_at_start(args, 2, ":1: the game is already over");
    /* A PGN book with an illegal move. */
    tmp_path(file, sizeof file, "bad-openings.pgn");
    snprintf(opt, sizeof opt, "file=%s", file);
    spit(file, "[Variant \"salto\"]\n\n1. a1a1 *\n");
    const char *pargs[] = {"-variant", "salto", "-engine", "cmd=random", "-engine", "cmd=greedy",
                           "-openings", opt, NULL};
    check_stops_at_start(pargs, 2, "record 1: move 1 'a1a1'");
    spit(file, "[Variant \"lupta\"]\n\n*\n");
    check_stops_at_start(pargs, 2, "record 1 is a lupta game, not salto");
}
END_TEST

START_TEST(book_formats_orders_and_colours)
{
    char file[512], opt[600], pgn[512], out[512], fen[4][FEN_MAX];
    tmp_path(file, sizeof file, "book.epd");
    snprintf(opt, sizeof opt, "file=%s", file);
    char text[8 * FEN_MAX];
    text[0] = '\0';
    for (int k = 0; k < 4; k++) {
        salto_fen_after(k + 1, fen[k]);
        size_t len = strlen(text);
        snprintf(text + len, sizeof text - len, "%s ; id \"line %d\";\n", fen[k], k + 1);
    }
    spit(file, text);
    tmp_path(pgn, sizeof pgn, "book.pgn");
    tmp_path(out, sizeof out, "book.txt");
    /* Sequential from start=3 (cycling), four games per opening, no swap. */
    unlink(pgn);
    const char *seq[] = {"-variant", "salto", "-engine", "cmd=greedy", "name=A", "-engine",
                         "cmd=random", "name=B", "-games", "4", "-rounds", "2", "-repeat", "4",
                         "-noswap", "-seed", "1", "-openings", opt, "format=epd",
                         "order=sequential", "start=3", "-maxmoves", "2", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, seq), 0);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 8);
    for (int k = 0; k < 8; k++) {
        ck_assert_str_eq(g->fen[k], fen[k < 4 ? 2 : 3]);
        ck_assert_str_eq(g->white[k], "A");
    }
    free(g);
    /* -reverse: B starts with White, then colours alternate. */
    unlink(pgn);
    const char *rev[] = {"-variant", "salto", "-engine", "cmd=greedy", "name=A", "-engine",
                         "cmd=random", "name=B", "-games", "2", "-reverse", "-seed", "1",
                         "-maxmoves", "2", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, rev), 0);
    g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    ck_assert_str_eq(g->white[0], "B");
    ck_assert_str_eq(g->white[1], "A");
    free(g);
    /* order=random: a shuffle drawn from the seed, each opening once per cycle. */
    int seen[2][4];
    for (int run = 0; run < 2; run++) {
        unlink(pgn);
        const char *rnd[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine",
                             "cmd=random", "-games", "2", "-rounds", "4", "-seed", "9",
                             "-openings", opt, "order=random", "-maxmoves", "1", "-pgnout", pgn,
                             NULL};
        ck_assert_int_eq(run_match(out, rnd), 0);
        g = read_games(pgn);
        ck_assert_int_eq(g->n, 8);
        int count[4] = {0, 0, 0, 0};
        for (int k = 0; k < 8; k += 2) {
            ck_assert_str_eq(g->fen[k], g->fen[k + 1]); /* a pair shares its opening */
            int which = -1;
            for (int e = 0; e < 4; e++)
                if (!strcmp(g->fen[k], fen[e]))
                    which = e;
            ck_assert_int_ge(which, 0);
            count[which]++;
            seen[run][k / 2] = which;
        }
        for (int e = 0; e < 4; e++)
            ck_assert_int_eq(count[e], 1);
        free(g);
    }
    ck_assert_mem_eq(seen[0], seen[1], sizeof seen[0]);

    /* A PGN book: the first plies=3 moves of each record, marked {book}. */
    char book[512], bopt[600];
    tmp_path(book, sizeof book, "book-source.pgn");
    unlink(book);
    const char *src[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random",
                         "-games", "2", "-seed", "4", "-maxmoves", "6", "-pgnout", book, NULL};
    ck_assert_int_eq(run_match(out, src), 0);
    snprintf(bopt, sizeof bopt, "file=%s", book);
    unlink(pgn);
    const char *fromb[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random",
                           "-games", "2", "-seed", "5", "-openings", bopt, "format=pgn",
                           "plies=3", "-maxmoves", "2", "-pgnout", pgn, NULL};
    ck_assert_int_eq(run_match(out, fromb), 0);
    Games *s = read_games(book);
    g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    /* "1. m1 {book} m2 {book} 2. m3 {book} m4 {...": the source's first three moves. */
    char m[3][16], n[3][16];
    ck_assert_int_eq(sscanf(s->movetext[0], "1. %15s {%*[^}]} %15s {%*[^}]} 2. %15s", m[0], m[1],
                            m[2]), 3);
    ck_assert_int_eq(sscanf(g->movetext[0], "1. %15s {book} %15s {book} 2. %15s {book}", n[0],
                            n[1], n[2]), 3);
    for (int k = 0; k < 3; k++)
        ck_assert_str_eq(m[k], n[k]);
    ck_assert_int_eq(g->plies[0], 3 + 4);
    free(s);
    free(g);
    assert_replays(pgn, 2);
}
END_TEST

START_TEST(repeated_games_are_reported)
{
    if (!have_engine())
        return;
    char cmd[600], out[512];
    snprintf(cmd, sizeof cmd, "cmd=%s", engine_bin);
    tmp_path(out, sizeof out, "repeat.txt");
    const char *args[] = {"-variant", "solomon", "-engine", cmd, "name=a", "depth=1", "-engine",
                          cmd, "name=b", "depth=2", "-games", "2", "-rounds", "3", "-seed", "1",
                          "-maxmoves", "20", NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    char *text = slurp(out);
    ck_assert_msg(strstr(text, "Warning: only 2 distinct games among 6"), "%s", text);
    ck_assert_msg(strstr(text, "Distinct games: 2 of 6"), "%s", text);
    free(text);
}
END_TEST

START_TEST(engine_keys_initstr_restart_stderr_timemargin)
{
    char sc[512], arg[600], out[512], pidfile[512], input[512], errfile[512], errkey[600];
    script(sc, sizeof sc, "recorder");
    snprintf(arg, sizeof arg, "arg=%s", sc);
    tmp_path(out, sizeof out, "keys.txt");
    tmp_path(input, sizeof input, "keys.input");
    tmp_path(errfile, sizeof errfile, "keys.stderr");
    unlink(input);
    unlink(errfile);
    snprintf(errkey, sizeof errkey, "stderr=%s", errfile);
    setenv("SIGIL_TEST_INPUT", input, 1);
    fresh_pidfile(pidfile, sizeof pidfile, "keys.pids");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=/bin/sh", arg, "restart=on",
                          "initstr=debug on", "option.Style=bold", errkey, "st=0.05",
                          "timemargin=700", "-engine", "cmd=random", "-games", "3", "-seed",
                          "1", NULL};
    int rc = run_match(out, args);
    unsetenv("SIGIL_TEST_INPUT");
    char *text = slurp(out);
    ck_assert_msg(rc == 0, "%s", text);
    ck_assert_msg(strstr(text, "makes an illegal move}"), "%s", text);
    free(text);
    /* The start-up check, then a fresh process for each of the 3 games. */
    ck_assert_int_eq(assert_pids_gone(pidfile), 4);
    char *err = slurp(errfile);
    int starts = 0;
    for (char *p = err; (p = strstr(p, "recorder ")); p++)
        starts++;
    ck_assert_int_eq(starts, 4);
    free(err);
    /* initstr right after uciok, before the options; the per-engine margin. */
    char *in = slurp(input);
    ck_assert_msg(strstr(in, "uci\ndebug on\nsetoption name Style value bold\n"), "%s", in);
    ck_assert_msg(strstr(in, "go movetime 50\n"), "%s", in);
    free(in);
}
END_TEST

/* ---- shards --------------------------------------------------------------------------- */

/* The text from the first line starting with `from` to the end, without the
 * line with the time taken. */
static char *report_part(const char *text, const char *from)
{
    const char *p = strstr(text, from);
    ck_assert_msg(p != NULL, "'%s' not in:\n%s", from, text);
    char *copy = strdup(p);
    char *t = strstr(copy, "\nFinished ");
    while (t && strncmp(t + 10, "match", 5) == 0)
        t = strstr(t + 1, "\nFinished ");
    if (t && strstr(t, " games in "))
        t[1] = '\0';
    return copy;
}

/* A PGN file without the thinking times of the move comments. */
static char *without_times(const char *path)
{
    char *text = slurp(path);
    regex_t rx;
    ck_assert_int_eq(regcomp(&rx, " ?[0-9]+\\.[0-9]{3}s\\}", REG_EXTENDED), 0);
    size_t len = strlen(text);
    char *out = malloc(len + 1);
    size_t k = 0;
    const char *p = text;
    regmatch_t m;
    while (regexec(&rx, p, 1, &m, 0) == 0) {
        memcpy(out + k, p, (size_t)m.rm_so);
        k += (size_t)m.rm_so;
        out[k++] = '}';
        p += m.rm_eo;
    }
    strcpy(out + k, p);
    regfree(&rx);
    free(text);
    return out;
}

/* Run args whole, then as `shards` shards (concurrently) merged, and compare
 * the reports and the records. */
static void check_split_equals_single(const char **base, int shards, const char *from)
{
    char single_pgn[512], single_out[512], merged_pgn[512], merged_out[512];
    tmp_path(single_pgn, sizeof single_pgn, "single.pgn");
    tmp_path(single_out, sizeof single_out, "single.txt");
    tmp_path(merged_pgn, sizeof merged_pgn, "merged.pgn");
    tmp_path(merged_out, sizeof merged_out, "merged.txt");
    unlink(single_pgn);
    unlink(merged_pgn);
    const char *args[64];
    int n = 0;
    for (; base[n]; n++)
        args[n] = base[n];
    args[n] = "-pgnout";
    args[n + 1] = single_pgn;
    args[n + 2] = "-concurrency";
    args[n + 3] = "3";
    args[n + 4] = NULL;
    ck_assert_int_eq(run_match(single_out, args), 0);

    char res[16][512], spec[16][16], sout[16][512];
    pid_t pid[16];
    for (int k = 0; k < shards; k++) {
        snprintf(res[k], sizeof res[k], "%s/shard%d.res", tmpdir, k + 1);
        snprintf(sout[k], sizeof sout[k], "%s/shard%d.txt", tmpdir, k + 1);
        snprintf(spec[k], sizeof spec[k], "%d/%d", k + 1, shards);
        args[n] = "-shard";
        args[n + 1] = spec[k];
        args[n + 2] = "-results";
        args[n + 3] = res[k];
        args[n + 4] = NULL;
        pid[k] = spawn_match(sout[k], args);
    }
    for (int k = 0; k < shards; k++) {
        int status;
        waitpid(pid[k], &status, 0);
        ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "shard %d failed", k + 1);
    }
    const char *margs[24];
    int m = 0;
    margs[m++] = "-merge";
    for (int k = shards - 1; k >= 0; k--) /* any order */
        margs[m++] = res[k];
    margs[m++] = "-pgnout";
    margs[m++] = merged_pgn;
    margs[m] = NULL;
    ck_assert_int_eq(run_match(merged_out, margs), 0);

    char *a = slurp(single_out), *b = slurp(merged_out);
    char *ra = report_part(a, from), *rb = report_part(b, from);
    ck_assert_str_eq(ra, rb);
    free(a), free(b), free(ra), free(rb);
    a = without_times(single_pgn);
    b = without_times(merged_pgn);
    ck_assert_msg(strlen(a) > 0, "no records");
    ck_assert_str_eq(a, b);
    free(a), free(b);
}

START_TEST(split_and_merged_run_equals_the_single_run)
{
    if (!have_engine())
        return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cmd=%s", engine_bin);
    const char *args[] = {"-variant", "pyramid", "-engine", cmd, "name=deep", "depth=2",
                          "-engine", cmd, "name=shallow", "nodes=300", "-games", "2", "-rounds",
                          "12", "-seed", "42", "-openings", "random:3", "-maxmoves", "60",
                          "-sprt", "elo0=0", "elo1=10", NULL};
    check_split_equals_single(args, 4, "...      deep playing White");
}
END_TEST

START_TEST(split_sprt_stops_where_the_single_run_stops)
{
    /* greedy beats random at Salto every game: the SPRT decides early, at
     * the same game whatever the concurrency or the split. */
    const char *args[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random",
                          "-games", "2", "-rounds", "100", "-seed", "4", "-sprt", "elo0=0",
                          "elo1=20", "model=logistic", NULL};
    check_split_equals_single(args, 3, "...      greedy playing White");
    char out[512];
    tmp_path(out, sizeof out, "merged.txt");
    char *text = slurp(out);
    ck_assert_msg(strstr(text, "H1 was accepted") && strstr(text, "The SPRT decided at game "),
                  "%s", text);
    free(text);
}
END_TEST

START_TEST(merge_refuses_what_does_not_belong)
{
    char res[3][512], out[512];
    const char *seeds[3] = {"1", "1", "2"};
    const char *shard[3] = {"1/2", "2/2", "1/2"};
    for (int k = 0; k < 3; k++) {
        snprintf(res[k], sizeof res[k], "%s/refuse%d.res", tmpdir, k);
        tmp_path(out, sizeof out, "refuse.txt");
        const char *args[] = {"-variant", "lupta", "-engine", "cmd=greedy", "-engine",
                              "cmd=random", "-games", "2", "-rounds", "2", "-seed", seeds[k],
                              "-maxmoves", "3", "-shard", shard[k], "-results", res[k], NULL};
        ck_assert_int_eq(run_match(out, args), 0);
    }
    const char *other[] = {"-merge", res[0], res[2], NULL};
    ck_assert_int_eq(run_match(out, other), 2);
    char *text = slurp(out);
    ck_assert_msg(strstr(text, "is not from the same run"), "%s", text);
    free(text);
    const char *twice[] = {"-merge", res[0], res[0], NULL};
    ck_assert_int_eq(run_match(out, twice), 2);
    text = slurp(out);
    ck_assert_msg(strstr(text, "is given twice"), "%s", text);
    free(text);
    const char *half[] = {"-merge", res[1], NULL};
    ck_assert_int_eq(run_match(out, half), 1);
    text = slurp(out);
    ck_assert_msg(strstr(text, "Warning: 2 games of the schedule were not played (missing games "
                               "1-2)"),
                  "%s", text);
    free(text);
    spit(res[2], "sigil-match-results 1\nfingerprint zz\n");
    const char *broken[] = {"-merge", res[2], NULL};
    ck_assert_int_eq(run_match(out, broken), 2);
}
END_TEST


/* ---- result files: game by game, -resume, damage, write failures ------------- */

/* A copy of text with the first `from` at or after `after` (a substring
 * that must be there) replaced by `to`. */
static char *edited(const char *text, const char *after, const char *from, const char *to)
{
    const char *a = strstr(text, after);
    ck_assert_msg(a != NULL, "'%s' not in the result file", after);
    const char *f = strstr(a, from);
    ck_assert_msg(f != NULL, "'%s' not after '%s'", from, after);
    size_t n = strlen(text) - strlen(from) + strlen(to);
    char *out = malloc(n + 1);
    size_t head = (size_t)(f - text);
    memcpy(out, text, head);
    strcpy(out + head, to);
    strcat(out, f + strlen(from));
    return out;
}

/* The number of lines of text. */
static int count_lines(const char *text)
{
    int n = 0;
    for (; *text; text++)
        n += *text == '\n';
    return n;
}

/* Salto, greedy against random, 6 games: a deterministic run. */
#define RES_RUN "-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random", \
                "-games", "2", "-rounds", "3", "-seed", "4"

START_TEST(merge_refuses_damaged_content_with_one_line)
{
    char res[512], bad[512], out[512];
    tmp_path(res, sizeof res, "good.res");
    tmp_path(bad, sizeof bad, "bad.res");
    tmp_path(out, sizeof out, "bad.txt");
    const char *run[] = {RES_RUN, "-results", res, "-quiet", NULL};
    ck_assert_int_eq(run_match(out, run), 0);
    char *good = slurp(res);
    /* The header is 11 lines: game 1's line is line 12, its length line 13. */
    const char *line12 = "\ngame 1 ";
    char game1[32] = "";
    const char *g = strstr(good, line12);
    ck_assert_ptr_nonnull(g);
    sscanf(g + strlen(line12), "%31s", game1);
    const char *other = strcmp(game1, "1-0") ? "1-0" : "0-1";
    char flipped[64], from_result[64], pgn_len[64], cut_len[64];
    snprintf(from_result, sizeof from_result, "game 1 %s ", game1);
    snprintf(flipped, sizeof flipped, "game 1 %s ", other);
    const char *pl = strstr(g, "\npgn ");
    ck_assert_ptr_nonnull(pl);
    sscanf(pl + 1, "%63[^\n]", pgn_len);
    snprintf(cut_len, sizeof cut_len, "pgn %ld", atol(pgn_len + 4) - 1);
    /* the first move of game 1, replaced by another token of the record */
    const char *mv = strstr(pl, "\n1. ");
    ck_assert_ptr_nonnull(mv);
    char first[64];
    sscanf(mv + 4, "%63s", first);
    char changed[64];
    snprintf(changed, sizeof changed, "%s", first);
    changed[0] = changed[0] == 'a' ? 'b' : 'a';
    char from_move[80], to_move[80];
    snprintf(from_move, sizeof from_move, "1. %s ", first);
    snprintf(to_move, sizeof to_move, "1. %s ", changed);
    char *good_sprt = edited(good, "\nsprt ", "\nsprt ", "\nsprt 1 5 0 2 -1 normalized\nx");
    /* that inserted a line before the old one: drop the old one */
    char *nl = strstr(strstr(good_sprt, "\nx") + 1, "\n");
    memmove(strstr(good_sprt, "\nx"), nl, strlen(nl) + 1);
    struct {
        char *text;
        const char *want;
    } cases[] = {
        {edited(good, line12, pgn_len, "pgn -1"), ":13: game 1: the record length '-1'"},
        {edited(good, line12, pgn_len, "pgn 18446744073709551615"),
         ":13: game 1: the record length '18446744073709551615' is not"},
        {edited(good, line12, pgn_len, "pgn 99999999999999999999"), ":13: game 1: the record length"},
        {edited(good, line12, pgn_len, cut_len), "game 1: its record does not end with a blank"},
        {edited(good, line12, from_result, flipped), ":12: game 1: [Result "},
        {edited(good, "\n[Result ", "1", "x"), ":12: game 1: [Result "},
        {edited(good, line12, from_move, to_move), ":12: game 1: "},
        {edited(good, line12, " 0 ", " 9999 "), "termination '9999' is not a code"},
        {edited(good, line12, from_result, "game 1 2-0 "), "the result '2-0' is not"},
        {good_sprt, ":7: sprt: elo0 5 and elo1 0 are not"},
        {edited(good, "variant", "variant salto", "variant pyramid"), ":12: game 1: [Variant \"salto\"]"},
        {edited(good, "variant", "variant salto", "variant chess"), ":3: unknown variant 'chess'"},
        {edited(good, "shard", "shard 0 0", "shard 3 2"), ":5: shard 3/2 is out of range"},
        {edited(good, "\nend\n", "\nend\n", "\nend\nend\n"), "something after the end line"},
        {edited(good, "\nname ", "\"greedy\"", "greedy"), ":9: name: not a quoted name"},
        {edited(good, "\njobs ", "jobs 6", "jobs 7"), ":11: jobs: '7', but the schedule has 6"},
        {edited(good, "\nseed ", "seed 4", "seed 04"), ":4: the seed is not a whole number"},
        {edited(good, "\nschedule ", "schedule 2 ", "schedule 2000000000 "), ":6: schedule: games"},
        {edited(good, "\nok 1\n", "\nok 1\n", "\nok 2\n"), "game 1: expected 'ok 1'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        spit(bad, cases[i].text);
        const char *args[] = {"-merge", bad, NULL};
        int rc = run_match(out, args);
        char *text = slurp(out);
        ck_assert_msg(rc == 2, "case %zu: status %d:\n%s", i, rc, text);
        ck_assert_msg(strstr(text, cases[i].want) && strstr(text, "bad.res:"),
                      "case %zu: wanted '%s', got:\n%s", i, cases[i].want, text);
        ck_assert_msg(count_lines(text) == 1, "case %zu: not one line:\n%s", i, text);
        free(text);
        free(cases[i].text);
    }
    /* The good file still merges. */
    const char *args[] = {"-merge", res, NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    free(good);
}
END_TEST

START_TEST(merge_names_missing_games_and_honours_min)
{
    char res[512], out[512], pgn_run[512], pgn_merge[512];
    tmp_path(res, sizeof res, "min.res");
    tmp_path(out, sizeof out, "min.txt");
    tmp_path(pgn_run, sizeof pgn_run, "min-run.pgn");
    tmp_path(pgn_merge, sizeof pgn_merge, "min-merge.pgn");
    unlink(pgn_run);
    unlink(pgn_merge);
    char file_run[600], file_merge[600];
    snprintf(file_run, sizeof file_run, "file=%s", pgn_run);
    snprintf(file_merge, sizeof file_merge, "file=%s", pgn_merge);
    const char *run[] = {RES_RUN, "-results", res, "-pgnout", file_run, "min=true", NULL};
    ck_assert_int_eq(run_match(out, run), 0);
    const char *merge[] = {"-merge", res, "-pgnout", file_merge, "min=true", NULL};
    ck_assert_int_eq(run_match(out, merge), 0);
    char *a = slurp(pgn_run), *b = slurp(pgn_merge);
    ck_assert_msg(strlen(a) > 100 && !strchr(a, '{') && !strstr(a, "[PlyCount"), "%s", a);
    ck_assert_str_eq(a, b);
    free(a), free(b);
    /* Games 3, 4 and 6 cut out (each block from its game line to its ok
     * line): the merge names them as ranges. */
    char *text = slurp(res);
    for (int n = 3; n <= 6; n += n == 4 ? 2 : 1) {
        char from[32], to[32];
        snprintf(from, sizeof from, "\ngame %d ", n);
        snprintf(to, sizeof to, "\nok %d\n", n);
        char *f = strstr(text, from), *t = strstr(text, to);
        ck_assert(f && t && t > f);
        memmove(f, t + strlen(to) - 1, strlen(t + strlen(to) - 1) + 1);
    }
    spit(res, text);
    free(text);
    ck_assert_int_eq(run_match(out, (const char *[]){"-merge", res, NULL}), 1);
    text = slurp(out);
    ck_assert_msg(strstr(text, "Warning: 3 games of the schedule were not played (missing games "
                               "3-4, 6)"),
                  "%s", text);
    free(text);
}
END_TEST

START_TEST(names_round_trip_through_result_files)
{
    char res[512], out[512];
    tmp_path(res, sizeof res, "names.res");
    tmp_path(out, sizeof out, "names.txt");
    const char *run[] = {"-variant", "lupta", "-engine", "cmd=greedy", "name=say \"hi\"\nthere\\",
                         "-engine", "cmd=random", "name=tab\there", "-games", "2", "-seed", "9",
                         "-maxmoves", "4", "-results", res, "-quiet", NULL};
    ck_assert_int_eq(run_match(out, run), 0);
    char *file = slurp(res);
    ck_assert_msg(strstr(file, "\nname \"say \\\"hi\\\"\\nthere\\\\\"\n") &&
                      strstr(file, "\nname \"tab\\there\"\n"),
                  "%s", file);
    free(file);
    ck_assert_int_eq(run_match(out, (const char *[]){"-merge", res, NULL}), 0);
    char *text = slurp(out);
    ck_assert_msg(strstr(text, "say \"hi\"\nthere\\ vs tab\there"), "%s", text);
    free(text);
}
END_TEST

START_TEST(outputs_fail_before_the_first_game_and_on_a_full_disk)
{
    char out[512];
    tmp_path(out, sizeof out, "full.txt");
    const char *nodir[] = {RES_RUN, "-results", "no-such-folder/x.res", NULL};
    ck_assert_int_eq(run_match(out, nodir), 2);
    char *text = slurp(out);
    ck_assert_msg(strstr(text, "cannot open no-such-folder/x.res for writing: No such file or directory") &&
                      !strstr(text, "Started game"),
                  "%s", text);
    free(text);
    if (access("/dev/full", W_OK) != 0)
        return;
    const char *full[] = {RES_RUN, "-results", "/dev/full", NULL};
    ck_assert_int_eq(run_match(out, full), 2);
    text = slurp(out);
    ck_assert_msg(strstr(text, "cannot write /dev/full: No space left on device") &&
                      !strstr(text, "Finished game"),
                  "%s", text);
    free(text);
    const char *pgn[] = {RES_RUN, "-pgnout", "/dev/full", NULL};
    ck_assert_int_eq(run_match(out, pgn), 2);
    text = slurp(out);
    ck_assert_msg(strstr(text, "cannot write /dev/full: No space left on device") &&
                      strstr(text, "Finished game 1 ") && !strstr(text, "Started game 2 "),
                  "%s", text);
    free(text);
    const char *epd[] = {RES_RUN, "-epdout", "/dev/full", NULL};
    ck_assert_int_eq(run_match(out, epd), 2);
    char res[512];
    tmp_path(res, sizeof res, "full.res");
    const char *res_ok[] = {RES_RUN, "-results", res, NULL};
    ck_assert_int_eq(run_match(out, res_ok), 0);
    const char *merge_full[] = {"-merge", res, "-pgnout", "/dev/full", NULL};
    ck_assert_int_eq(run_match(out, merge_full), 2);
    text = slurp(out);
    ck_assert_msg(strstr(text, "cannot write /dev/full: No space left on device"), "%s", text);
    free(text);
}
END_TEST

/* How many whole games (ok lines) a result file holds. */
static int whole_games(const char *path)
{
    char *text = slurp(path);
    int n = 0;
    for (const char *p = text; (p = strstr(p, "\nok ")); p++)
        n++;
    free(text);
    return n;
}

START_TEST(killed_run_resumes_to_the_unbroken_run)
{
    char res[512], out[512], pgn[512], whole_out[512], whole_pgn[512], part[512];
    tmp_path(res, sizeof res, "kill.res");
    tmp_path(out, sizeof out, "kill.txt");
    tmp_path(pgn, sizeof pgn, "kill.pgn");
    tmp_path(whole_out, sizeof whole_out, "whole.txt");
    tmp_path(whole_pgn, sizeof whole_pgn, "whole.pgn");
    tmp_path(part, sizeof part, "part.txt");
    unlink(res);
    unlink(whole_pgn);
    const char *whole[] = {RES_RUN, "-pgnout", whole_pgn, NULL};
    ck_assert_int_eq(run_match(whole_out, whole), 0);
    /* The same run, slowed down by -wait (not part of what makes a run),
     * killed with SIGKILL once two games are in its result file. */
    const char *slow[] = {RES_RUN, "-results", res, "-pgnout", pgn, "-wait", "400", NULL};
    pid_t pid = spawn_match(part, slow);
    for (int i = 0; i < 6000 && whole_games(res) < 2; i++)
        sleep_ms(5);
    /* A second writer of the same file is turned away. */
    const char *second[] = {RES_RUN, "-results", res, "-resume", "-quiet", NULL};
    ck_assert_int_eq(run_match(out, second), 2);
    char *busy = slurp(out);
    ck_assert_msg(strstr(busy, "another sigil-match is writing it"), "%s", busy);
    free(busy);
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    int kept = whole_games(res);
    ck_assert_msg(kept >= 2 && kept < 6, "%d games kept", kept);
    char *text = slurp(res);
    ck_assert_msg(!strstr(text, "\nend\n"), "%s", text);
    free(text);
    /* A block written only in part, as a kill in mid-write leaves it. */
    FILE *f = fopen(res, "a");
    fputs("game 6 1-0 1 4", f);
    fclose(f);
    ck_assert_int_eq(run_match(out, (const char *[]){"-merge", res, NULL}), 1);
    text = slurp(out);
    ck_assert_msg(strstr(text, "a game written only in part (the run was killed?) is left out"),
                  "%s", text);
    free(text);
    const char *resume[] = {RES_RUN, "-results", res, "-pgnout", pgn, "-resume", NULL};
    ck_assert_int_eq(run_match(out, resume), 0);
    text = slurp(out);
    char want[700];
    snprintf(want, sizeof want, "resuming %s: %d of the run's games already played", res, kept);
    ck_assert_msg(strstr(text, want), "%s", text);
    ck_assert_int_eq(lines_match(text, "Started game", "^Started game "), 6 - kept);
    char *w = slurp(whole_out);
    char *ra = report_part(w, "...      greedy playing White");
    char *rb = report_part(text, "...      greedy playing White");
    ck_assert_str_eq(ra, rb);
    free(ra), free(rb), free(w), free(text);
    char *a = without_times(whole_pgn), *b = without_times(pgn);
    ck_assert_str_eq(a, b);
    free(a), free(b);
    /* The result file is whole again: it merges to the same report. */
    text = slurp(res);
    ck_assert_msg(strstr(text, "\nend\n") && whole_games(res) == 6, "%s", text);
    free(text);
    ck_assert_int_eq(run_match(out, (const char *[]){"-merge", res, NULL}), 0);
    /* Resuming a finished run plays nothing and reports the same. */
    ck_assert_int_eq(run_match(out, resume), 0);
    text = slurp(out);
    ck_assert_int_eq(lines_match(text, "Started game", "^Started game "), 0);
    free(text);
    /* Another run's file is refused. */
    const char *other[] = {"-variant", "salto", "-engine", "cmd=greedy", "-engine", "cmd=random",
                           "-games", "2", "-rounds", "3", "-seed", "5", "-results", res,
                           "-resume", NULL};
    ck_assert_int_eq(run_match(out, other), 2);
    text = slurp(out);
    ck_assert_msg(strstr(text, "is the result file of another run") &&
                      !strstr(text, "Started game"),
                  "%s", text);
    free(text);
    const char *no_file[] = {RES_RUN, "-resume", NULL};
    ck_assert_int_eq(run_match(out, no_file), 2);
    /* Killed before its header was whole: started afresh. */
    spit(res, "sigil-match-results 2\nfingerpr");
    ck_assert_int_eq(run_match(out, resume), 0);
    text = slurp(out);
    ck_assert_msg(strstr(text, "cut in its header, before any game: starting it afresh") &&
                      lines_match(text, "Started game", "^Started game ") == 6,
                  "%s", text);
    free(text);
    ck_assert_int_eq(whole_games(res), 6);
    /* A FIFO is no file to resume (reading it would block). */
    char fifo[512];
    tmp_path(fifo, sizeof fifo, "resume.fifo");
    unlink(fifo);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *from_fifo[] = {RES_RUN, "-results", fifo, "-resume", NULL};
    ck_assert_int_eq(run_match(out, from_fifo), 2);
    text = slurp(out);
    ck_assert_msg(strstr(text, "is not a regular file"), "%s", text);
    free(text);
}
END_TEST

START_TEST(forfeits_before_any_move_are_not_repeats)
{
    char sc[512], arg[600], out[512];
    script(sc, sizeof sc, "crash");
    snprintf(arg, sizeof arg, "arg=%s", sc);
    tmp_path(out, sizeof out, "forfeit.txt");
    /* crash.sh loses at its first move: as White before any move, twice. */
    const char *args[] = {"-variant", "salto", "-engine", "cmd=/bin/sh", arg, "st=0.02",
                          "-engine", "cmd=random", "-games", "4", "-seed", "3", NULL};
    ck_assert_int_eq(run_match(out, args), 0);
    char *text = slurp(out);
    ck_assert_msg(!strstr(text, "Warning: only") && strstr(text, "Distinct games: 4 of 4"), "%s",
                  text);
    free(text);
}
END_TEST

START_TEST(engine_closing_its_output_is_named)
{
    check_misbehaving("closeout", "abandoned", "crash: ", "closed its output while thinking",
                      "1000");
}
END_TEST

/* ---- misbehaving engines ------------------------------------------------------ */

START_TEST(crashing_engine_loses_and_is_restarted)
{
    check_misbehaving("crash", "abandoned", "crash: ", "exited with status 3", "1000");
}
END_TEST

START_TEST(hanging_engine_loses_and_is_killed)
{
    check_misbehaving("hang", "abandoned", "unresponsive: ", "no bestmove", "150");
}
END_TEST

START_TEST(illegal_move_loses)
{
    check_misbehaving("illegal", "rules infraction", "illegal move: ", "'a1a1'", "1000");
}
END_TEST

START_TEST(garbage_output_loses)
{
    check_misbehaving("garbage", "rules infraction", "illegal move: ", NULL, "1000");
}
END_TEST

START_TEST(engine_ignoring_the_clock_loses_on_time)
{
    check_misbehaving("slow", "time forfeit", "time forfeit: ", "raise -timemargin", "150");
}
END_TEST

START_TEST(engine_flooding_output_loses)
{
    check_misbehaving("flood", "abandoned", "unresponsive: ", "no bestmove", "150");
}
END_TEST

START_TEST(engine_without_handshake_stops_the_run)
{
    char sc[512], arg[600];
    script(sc, sizeof sc, "noshake");
    snprintf(arg, sizeof arg, "arg=%s", sc);
    const char *args[] = {"-variant", "salto", "-engine", "cmd=/bin/sh", arg, "st=0.02",
                          "-engine", "cmd=random", "-games", "2", "-starttimeout", "0.5", NULL};
    check_stops_at_start(args, 1, "engine 'noshake' (/bin/sh) failed to start: no uciok");
}
END_TEST

START_TEST(missing_engine_program_stops_the_run)
{
    char pgn[512];
    tmp_path(pgn, sizeof pgn, "missing.pgn");
    unlink(pgn);
    const char *args[] = {"-variant", "pyramid", "-engine", "cmd=no-such-folder/engine",
                          "name=ghost", "st=0.02", "-engine", "cmd=greedy", "-games", "2",
                          "-pgnout", pgn, NULL};
    check_stops_at_start(args, 1, "engine 'ghost' (no-such-folder/engine) failed to start: cannot run");
    ck_assert_int_ne(access(pgn, F_OK), 0); /* no record file either */
}
END_TEST

START_TEST(option_the_engine_does_not_list_stops_the_run)
{
    if (!have_engine())
        return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "cmd=%s", engine_bin);
    const char *args[] = {"-variant", "salto", "-engine", cmd, "name=sigil", "option.Hsh=32",
                          "depth=1", "-engine", "cmd=random", "-games", "2", NULL};
    check_stops_at_start(args, 1, "engine 'sigil' has no option 'Hsh' (it lists: Hash,");
    /* A listed option is fine; the mistyped one in -each too is caught. */
    const char *each[] = {"-variant", "salto", "-engine", cmd, "name=a", "-engine", cmd, "name=b",
                          "-each", "depth=1", "option.Hash=8", "option.Treads=2", "-games", "2",
                          NULL};
    check_stops_at_start(each, 1, "has no option 'Treads'");
}
END_TEST

START_TEST(engine_killed_midgame_loses_and_the_match_goes_on)
{
    if (!have_engine()) {
        fprintf(stderr, "check_match: %s not built, kill test skipped\n", engine_bin);
        return;
    }
    setenv("SIGIL_BIN", engine_bin, 1);
    char sc[512], arg[600], pgn[512], out[512], pidfile[512];
    script(sc, sizeof sc, "pidwrap");
    snprintf(arg, sizeof arg, "arg=%s", sc);
    tmp_path(pgn, sizeof pgn, "kill.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "kill.txt");
    fresh_pidfile(pidfile, sizeof pidfile, "kill.pids");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=/bin/sh", arg, "name=sigil",
                          "st=0.02", "-engine", "cmd=random", "-games", "2", "-seed", "6",
                          "-timemargin", "1000", "-pgnout", pgn, NULL};
    /* No length adjudication: a Salto game against random takes the engine
     * at least ~50 moves (over a second at 20 ms), so the kill below lands
     * inside game 1 even when the engine answers faster than its budget. */
    pid_t match = spawn_match(out, args);
    /* The first pid is the start-up check's process; the second plays. */
    int victim = 0;
    for (int waited = 0; waited < 5000 && !victim; waited += 20) {
        FILE *f = fopen(pidfile, "r");
        int first;
        if (f) {
            if (fscanf(f, "%d %d", &first, &victim) != 2)
                victim = 0;
            fclose(f);
        }
        sleep_ms(20);
    }
    ck_assert_int_gt(victim, 0);
    sleep_ms(400); /* in the middle of the first game */
    kill(victim, SIGKILL);
    int status;
    waitpid(match, &status, 0);
    ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    Games *g = read_games(pgn);
    ck_assert_int_eq(g->n, 2);
    ck_assert_str_eq(g->termination[0], "abandoned");
    ck_assert_msg(!strncmp(g->detail[0], "crash: White (sigil) killed by signal 9", 39), "%s",
                  g->detail[0]);
    ck_assert_str_eq(g->result[0], "0-1");
    ck_assert_str_eq(g->termination[1], "normal");
    free(g);
    assert_replays(pgn, 2);
    ck_assert_int_ge(assert_pids_gone(pidfile), 3); /* restarted for game 2 */
}
END_TEST

START_TEST(interrupt_kills_every_engine)
{
    char sc[512], arg[600], out[512], pidfile[512];
    script(sc, sizeof sc, "hang");
    snprintf(arg, sizeof arg, "arg=%s", sc);
    tmp_path(out, sizeof out, "interrupt.txt");
    fresh_pidfile(pidfile, sizeof pidfile, "interrupt.pids");
    const char *args[] = {"-variant", "pyramid", "-engine", "cmd=/bin/sh", arg, "name=hang",
                          "st=60", "-engine", "cmd=/bin/sh", arg, "name=hang2", "st=60",
                          "-games", "2", "-concurrency", "2", NULL};
    pid_t match = spawn_match(out, args);
    /* Wait until both games think: four scripts and two sleeps. */
    int lines = 0;
    for (int waited = 0; waited < 5000 && lines < 6; waited += 20) {
        char *text = slurp(pidfile);
        lines = 0;
        for (char *p = text; *p; p++)
            lines += *p == '\n';
        free(text);
        sleep_ms(20);
    }
    ck_assert_int_ge(lines, 6);
    kill(match, SIGTERM);
    int status;
    waitpid(match, &status, 0);
    ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 128 + SIGTERM, "status %d", status);
    ck_assert_int_ge(assert_pids_gone(pidfile), 6);
}
END_TEST

static Suite *match_suite(void)
{
    Suite *s = suite_create("match");
    TCase *tc = tcase_create("statistics");
    tcase_add_test(tc, score_is_points_over_games);
    tcase_add_test(tc, elo_difference_of_a_score);
    tcase_add_test(tc, elo_interval_from_games);
    tcase_add_test(tc, elo_interval_from_pairs);
    tcase_add_test(tc, likelihood_of_superiority);
    tcase_add_test(tc, sprt_bounds);
    tcase_add_test(tc, sprt_llr_matches_fastchess_published_values);
    tcase_add_test(tc, sprt_llr_worked_values);
    suite_add_tcase(s, tc);

    tc = tcase_create("tournaments");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, builtin_players_finish_every_variant);
    tcase_add_test(tc, tournament_is_reproducible_from_the_seed);
    tcase_add_test(tc, engine_against_random_every_variant);
    tcase_add_test(tc, engine_under_clock_depth_nodes_and_ugi);
    tcase_add_test(tc, random_openings_are_shared_by_a_pair);
    tcase_add_test(tc, fen_openings_are_cycled);
    tcase_add_test(tc, max_moves_adjudicates_a_draw);
    tcase_add_test(tc, sprt_stops_the_run_when_it_decides);
    tcase_add_test(tc, match_scoring_as_really_played);
    tcase_add_test(tc, replay_detects_a_wrong_record);
    suite_add_tcase(s, tc);

    tc = tcase_create("command line, records, shards");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, command_line_errors_stop_before_any_game);
    tcase_add_test(tc, help_and_version_come_from_the_table);
    tcase_add_test(tc, output_reads_as_cutechess_output);
    tcase_add_test(tc, records_carry_the_standard_tags);
    tcase_add_test(tc, old_records_still_replay);
    tcase_add_test(tc, epdout_and_srand);
    tcase_add_test(tc, bad_openings_stop_the_run);
    tcase_add_test(tc, book_formats_orders_and_colours);
    tcase_add_test(tc, repeated_games_are_reported);
    tcase_add_test(tc, engine_keys_initstr_restart_stderr_timemargin);
    tcase_add_test(tc, split_and_merged_run_equals_the_single_run);
    tcase_add_test(tc, split_sprt_stops_where_the_single_run_stops);
    tcase_add_test(tc, merge_refuses_what_does_not_belong);
    suite_add_tcase(s, tc);

    tc = tcase_create("result files");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, merge_refuses_damaged_content_with_one_line);
    tcase_add_test(tc, merge_names_missing_games_and_honours_min);
    tcase_add_test(tc, names_round_trip_through_result_files);
    tcase_add_test(tc, outputs_fail_before_the_first_game_and_on_a_full_disk);
    tcase_add_test(tc, killed_run_resumes_to_the_unbroken_run);
    tcase_add_test(tc, forfeits_before_any_move_are_not_repeats);
    suite_add_tcase(s, tc);

    tc = tcase_create("misbehaving engines");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, crashing_engine_loses_and_is_restarted);
    tcase_add_test(tc, engine_closing_its_output_is_named);
    tcase_add_test(tc, hanging_engine_loses_and_is_killed);
    tcase_add_test(tc, illegal_move_loses);
    tcase_add_test(tc, garbage_output_loses);
    tcase_add_test(tc, engine_ignoring_the_clock_loses_on_time);
    tcase_add_test(tc, engine_flooding_output_loses);
    tcase_add_test(tc, engine_without_handshake_stops_the_run);
    tcase_add_test(tc, missing_engine_program_stops_the_run);
    tcase_add_test(tc, option_the_engine_does_not_list_stops_the_run);
    tcase_add_test(tc, engine_killed_midgame_loses_and_the_match_goes_on);
    tcase_add_test(tc, interrupt_kills_every_engine);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    match_bin = getenv("SIGIL_MATCH_BIN") ? getenv("SIGIL_MATCH_BIN") : "engine/sigil-match";
    engine_bin = getenv("SIGIL_BIN") ? getenv("SIGIL_BIN") : "engine/sigil";
    srcdir = getenv("SIGIL_SRCDIR") ? getenv("SIGIL_SRCDIR") : ".";
    snprintf(tmpdir, sizeof tmpdir, "/tmp/check_match.XXXXXX");
    if (!mkdtemp(tmpdir)) {
        perror("mkdtemp");
        return EXIT_FAILURE;
    }
    SRunner *sr = srunner_create(match_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    if (failed == 0 && system(cmd) != 0)
        fprintf(stderr, "check_match: could not remove %s\n", tmpdir);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
