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

#include "match/stats.h"
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

/* A misbehaving script against `random` for two games; every game must be
 * lost by the script with a termination starting with `kind`, the match
 * must end normally and no process may remain. */
static void check_misbehaving(const char *name, const char *tag, const char *kind,
                              const char *detail, const char *margin)
{
    char sc[512], pgn[512], out[512], pidfile[512], cmd[600], nm[64];
    script(sc, sizeof sc, name);
    snprintf(cmd, sizeof cmd, "arg=%s", sc);
    snprintf(nm, sizeof nm, "name=%s", name);
    tmp_path(pgn, sizeof pgn, "misbehave.pgn");
    unlink(pgn);
    tmp_path(out, sizeof out, "misbehave.txt");
    fresh_pidfile(pidfile, sizeof pidfile, "misbehave.pids");
    const char *args[] = {"-variant", "salto", "-engine", "cmd=/bin/sh", cmd, nm, "st=0.02",
                          "-engine", "cmd=random", "-games", "2", "-seed", "3",
                          "-timemargin", margin, "-starttimeout", strcmp(name, "noshake") ? "5" : "1",
                          "-pgnout", pgn, NULL};
    int rc = run_match(out, args);
    char *text = slurp(out);
    ck_assert_msg(rc == 0, "sigil-match exited %d:\n%s", rc, text);
    ck_assert_msg(strstr(text, "Finished 2 games"), "%s", text);
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
    const char *args[] = {"-variant", "pyramid", "-engine", "cmd=/nonexistent/engine",
                          "name=ghost", "st=0.02", "-engine", "cmd=greedy", "-games", "2",
                          "-pgnout", pgn, NULL};
    check_stops_at_start(args, 1, "engine 'ghost' (/nonexistent/engine) failed to start: cannot run");
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

    tc = tcase_create("misbehaving engines");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, crashing_engine_loses_and_is_restarted);
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
