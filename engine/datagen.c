/* datagen.c - `sigil datagen` (datagen.h, doc/tuning.md).
 *
 * The parent checks every argument, then forks --threads worker processes
 * (the search has one transposition table and one thread pool per process,
 * so processes, not threads, run games side by side).  Worker w plays games
 * w, w + T, w + 2T, ... each from a cleared table, with a seed that depends
 * only on --seed and the game number, and writes them to its own part file,
 * each game after a "#game <n>" line.  The parent shows progress from
 * counters the workers keep in shared memory, then merges the part files in
 * game order, so the output is the same for any --threads.
 */
/* MAP_ANONYMOUS (shared counters) is not in POSIX 2008. */
#define _DEFAULT_SOURCE
#include "datagen.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "search.h"
#include "util.h"
#include "variants.h"

#define DATAGEN_MAX_PLIES 4000 /* a game longer than this is abandoned */

static void set_err(char *err, size_t errlen, const char *fmt, const char *a)
{
    snprintf(err, errlen, fmt, a);
}

static bool number_arg(const char *name, const char *text, long long min, long long max,
                       long long *out, char *err, size_t errlen)
{
    if (!util_parse_number(text, min, max, out)) {
        snprintf(err, errlen, "%s needs a whole number from %lld to %lld, not '%s'", name, min,
                 max, text);
        return false;
    }
    return true;
}

bool datagen_parse_args(int argc, char **argv, DatagenOptions *o, char *err, size_t errlen)
{
    memset(o, 0, sizeof *o);
    o->games = -1;
    o->nodes = 3000;
    o->threads = 1;
    o->seed = 1;
    o->random_plies = 8;
    o->hash_mb = 16;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--quiet") == 0) {
            o->quiet = true;
            continue;
        }
        static const char *const with_value[] = {"--variant", "--games", "--nodes", "--threads",
                                                 "--seed", "--random-plies", "--hash", "--out",
                                                 NULL};
        bool known = false;
        for (int k = 0; with_value[k]; k++)
            known |= strcmp(a, with_value[k]) == 0;
        if (!known) {
            set_err(err, errlen, "unknown argument '%s'", a);
            return false;
        }
        if (i + 1 >= argc) {
            set_err(err, errlen, "%s needs a value", a);
            return false;
        }
        const char *val = argv[++i];
        long long n;
        if (strcmp(a, "--variant") == 0) {
            o->variant = variants_find(val);
            if (!o->variant) {
                set_err(err, errlen, "unknown variant '%s'", val);
                return false;
            }
        } else if (strcmp(a, "--out") == 0) {
            if (!*val) {
                set_err(err, errlen, "%s needs a file name", a);
                return false;
            }
            o->out = val;
        } else if (strcmp(a, "--games") == 0) {
            if (!number_arg(a, val, 1, 100000000, &o->games, err, errlen))
                return false;
        } else if (strcmp(a, "--nodes") == 0) {
            if (!number_arg(a, val, 1, 1000000000, &o->nodes, err, errlen))
                return false;
        } else if (strcmp(a, "--threads") == 0) {
            if (!number_arg(a, val, 1, 256, &n, err, errlen))
                return false;
            o->threads = (int)n;
        } else if (strcmp(a, "--seed") == 0) {
            if (!number_arg(a, val, 0, INT64_MAX, &n, err, errlen))
                return false;
            o->seed = (uint64_t)n;
        } else if (strcmp(a, "--random-plies") == 0) {
            if (!number_arg(a, val, 0, 200, &n, err, errlen))
                return false;
            o->random_plies = (int)n;
        } else if (strcmp(a, "--hash") == 0) {
            if (!number_arg(a, val, 1, 4096, &n, err, errlen))
                return false;
            o->hash_mb = (int)n;
        }
    }
    if (!o->variant) {
        snprintf(err, errlen, "--variant is required");
        return false;
    }
    if (o->games < 0) {
        snprintf(err, errlen, "--games is required");
        return false;
    }
    if (!o->out) {
        snprintf(err, errlen, "--out is required");
        return false;
    }
    return true;
}

bool datagen_parse_line(char *line, DatagenRecord *r)
{
    char *field[5];
    int n = 0;
    char *s = line;
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
        line[--len] = '\0';
    field[n++] = s;
    for (; *s; s++) {
        if (*s == ';') {
            if (n == 5)
                return false;
            *s = '\0';
            field[n++] = s + 1;
        }
    }
    if (n != 5 || !*field[0] || !*field[1])
        return false;
    long long score, ply;
    if (!util_parse_number(field[2], -SCORE_INF, SCORE_INF, &score))
        return false;
    if (!util_parse_number(field[4], 0, 1000000, &ply))
        return false;
    if (strcmp(field[3], "1") == 0)
        r->result = 1.0;
    else if (strcmp(field[3], "0.5") == 0)
        r->result = 0.5;
    else if (strcmp(field[3], "0") == 0)
        r->result = 0.0;
    else
        return false;
    r->variant = field[0];
    r->fen = field[1];
    r->score = (int)score;
    r->ply = (int)ply;
    return true;
}

/* The seed of game number game: SplitMix64 of the run's seed mixed with it. */
static uint64_t game_seed(uint64_t seed, long long game)
{
    uint64_t s = seed ^ (0x9E3779B97F4A7C15ULL * (uint64_t)(game + 1));
    util_splitmix64(&s);
    return util_splitmix64(&s);
}

/* A chance node: one outcome, uniformly. */
static void roll(Game *g, uint64_t *rng)
{
    Move moves[MAX_MOVES];
    int n = g->variant->generate(&g->pos, moves);
    game_play(g, moves[util_random_below(rng, (uint64_t)n)]);
}

/* Play random_plies random plies from the start; retry (up to 100 times)
 * while the game would end inside them. */
static void random_opening(Game *g, int plies, uint64_t *rng)
{
    Move moves[MAX_MOVES];
    for (int attempt = 0; attempt < 100; attempt++) {
        game_reset(g);
        bool ok = true;
        for (int i = 0; i < plies && ok; i++) {
            int n = game_result(g, NULL, NULL) == RESULT_NONE
                        ? g->variant->generate(&g->pos, moves) : 0;
            if (n <= 0)
                ok = false;
            else
                game_play(g, moves[util_random_below(rng, (uint64_t)n)]);
        }
        if (ok && game_result(g, NULL, NULL) == RESULT_NONE)
            return;
    }
    game_reset(g);
}

typedef struct Pending {
    char fen[FEN_MAX];
    int score; /* White's view */
    int ply;
} Pending;

long long datagen_play_game(const DatagenOptions *o, long long game, FILE *out)
{
    const Variant *v = o->variant;
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    Game g;
    game_init(&g, v, &cfg);
    uint64_t rng = game_seed(o->seed, game);
    random_opening(&g, o->random_plies, &rng);
    search_clear();
    SearchLimits limits;
    search_limits_clear(&limits);
    limits.nodes = (uint64_t)o->nodes;
    SearchOptions options = {.threads = 1, .multipv = 1};
    int cap = 256, count = 0;
    Pending *rec = util_xmalloc((size_t)cap * sizeof *rec);
    Result res;
    while ((res = game_result(&g, NULL, NULL)) == RESULT_NONE && g.ply < DATAGEN_MAX_PLIES) {
        if (v->is_chance && v->is_chance(&g.pos)) {
            roll(&g, &rng);
            continue;
        }
        SearchResult r = search_run(&g, &limits, &options, NULL, NULL, NULL);
        if (r.best == MOVE_NONE)
            break;
        /* Positions whose score is a proven result, or whose best move is
         * noisy (the evaluation is not meant to see through it), are not
         * written. */
        if (r.score > -SCORE_EVAL_MAX && r.score < SCORE_EVAL_MAX && !v->is_noisy(&g.pos, r.best)) {
            if (count == cap) {
                cap *= 2;
                rec = util_xrealloc(rec, (size_t)cap * sizeof *rec);
            }
            v->to_fen(&g.pos, rec[count].fen);
            rec[count].score = v->side_to_move(&g.pos) == WHITE ? r.score : -r.score;
            rec[count].ply = g.ply;
            count++;
        }
        game_play(&g, r.best);
    }
    const char *word = res == RESULT_WHITE_WINS ? "1" : res == RESULT_BLACK_WINS ? "0" : "0.5";
    if (res == RESULT_NONE) /* abandoned at DATAGEN_MAX_PLIES: nothing is known */
        count = 0;
    for (int i = 0; i < count; i++)
        fprintf(out, "%s;%s;%d;%s;%d\n", v->name, rec[i].fen, rec[i].score, word, rec[i].ply);
    free(rec);
    game_free(&g);
    return count;
}

typedef struct Shared {
    atomic_llong games_done;
    atomic_llong positions;
} Shared;

static void part_name(char *buf, size_t size, const char *out, int w)
{
    snprintf(buf, size, "%s.part%d", out, w);
}

static int worker(const DatagenOptions *o, int w, Shared *sh)
{
    char name[4096];
    part_name(name, sizeof name, o->out, w);
    FILE *f = fopen(name, "w");
    if (!f) {
        fprintf(stderr, "sigil datagen: error: cannot write %s: %s\n", name, strerror(errno));
        return 1;
    }
    search_set_hash((size_t)o->hash_mb);
    for (long long game = w; game < o->games; game += o->threads) {
        fprintf(f, "#game %lld\n", game);
        long long n = datagen_play_game(o, game, f);
        atomic_fetch_add(&sh->positions, n);
        atomic_fetch_add(&sh->games_done, 1);
    }
    if (fclose(f) != 0) {
        fprintf(stderr, "sigil datagen: error: writing %s failed\n", name);
        return 1;
    }
    return 0;
}

static void format_eta(char *buf, size_t size, double seconds)
{
    long s = (long)(seconds + 0.5);
    if (s >= 3600)
        snprintf(buf, size, "%ldh%02ldm", s / 3600, (s / 60) % 60);
    else
        snprintf(buf, size, "%ldm%02lds", s / 60, s % 60);
}

/* Merge the part files in game order into o->out; false on an I/O error. */
static bool merge(const DatagenOptions *o, FILE *err)
{
    FILE *out = fopen(o->out, "w");
    if (!out) {
        fprintf(err, "sigil datagen: error: cannot write %s: %s\n", o->out, strerror(errno));
        return false;
    }
    FILE **part = util_xcalloc((size_t)o->threads, sizeof *part);
    char name[4096];
    bool ok = true;
    for (int w = 0; w < o->threads && ok; w++) {
        part_name(name, sizeof name, o->out, w);
        part[w] = fopen(name, "r");
        if (!part[w]) {
            fprintf(err, "sigil datagen: error: cannot read %s\n", name);
            ok = false;
        }
    }
    char *line = NULL;
    size_t cap = 0;
    for (long long game = 0; game < o->games && ok; game++) {
        FILE *f = part[game % o->threads];
        /* The game's header, then its lines up to the next header. */
        ssize_t len = getline(&line, &cap, f);
        long long got;
        if (len <= 0 || sscanf(line, "#game %lld", &got) != 1 || got != game) {
            fprintf(err, "sigil datagen: error: part file out of order at game %lld\n", game);
            ok = false;
            break;
        }
        for (;;) {
            int c = fgetc(f);
            if (c == EOF)
                break;
            ungetc(c, f);
            if (c == '#')
                break;
            if (getline(&line, &cap, f) <= 0)
                break;
            fputs(line, out);
        }
    }
    free(line);
    for (int w = 0; w < o->threads; w++) {
        if (part[w])
            fclose(part[w]);
        part_name(name, sizeof name, o->out, w);
        remove(name);
    }
    free(part);
    if (fclose(out) != 0) {
        fprintf(err, "sigil datagen: error: writing %s failed\n", o->out);
        ok = false;
    }
    return ok;
}

int datagen_main(int argc, char **argv, FILE *err)
{
    DatagenOptions o;
    char msg[512];
    if (!datagen_parse_args(argc, argv, &o, msg, sizeof msg)) {
        fprintf(err, "sigil datagen: error: %s\n", msg);
        fprintf(err, "usage: sigil datagen --variant <v> --games <n> --out <file> [--nodes <n>]"
                     " [--threads <n>] [--seed <n>] [--random-plies <n>] [--hash <mb>] [--quiet]\n");
        return 2;
    }
    /* The output must be writable before any game is played. */
    FILE *probe = fopen(o.out, "w");
    if (!probe) {
        fprintf(err, "sigil datagen: error: cannot write %s: %s\n", o.out, strerror(errno));
        return 2;
    }
    fclose(probe);
    Shared *sh = mmap(NULL, sizeof *sh, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (sh == MAP_FAILED) {
        fprintf(err, "sigil datagen: error: mmap failed\n");
        return 1;
    }
    atomic_init(&sh->games_done, 0);
    atomic_init(&sh->positions, 0);
    fflush(NULL);
    pid_t *pid = util_xcalloc((size_t)o.threads, sizeof *pid);
    int started = 0;
    for (int w = 0; w < o.threads; w++) {
        pid[w] = fork();
        if (pid[w] < 0) {
            fprintf(err, "sigil datagen: error: fork failed: %s\n", strerror(errno));
            break;
        }
        if (pid[w] == 0)
            _exit(worker(&o, w, sh));
        started++;
    }
    int64_t t0 = util_now_ms(), last = t0;
    int failed = started < o.threads;
    int running = started;
    while (running > 0) {
        int status;
        pid_t p = waitpid(-1, &status, WNOHANG);
        if (p > 0) {
            running--;
            if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                failed = 1;
            continue;
        }
        if (p < 0 && errno != EINTR)
            break;
        nanosleep(&(struct timespec){0, 100000000L}, NULL);
        int64_t now = util_now_ms();
        if (!o.quiet && now - last >= 5000) {
            last = now;
            long long done = atomic_load(&sh->games_done), pos = atomic_load(&sh->positions);
            double secs = (double)(now - t0) / 1000.0;
            char eta[32] = "?";
            if (done > 0)
                format_eta(eta, sizeof eta, secs * (double)(o.games - done) / (double)done);
            fprintf(err, "datagen: %lld/%lld games, %lld positions, %.0f positions/s, %.0f s, left ~%s\n",
                    done, o.games, pos, secs > 0 ? (double)pos / secs : 0.0, secs, eta);
        }
    }
    free(pid);
    if (failed) {
        fprintf(err, "sigil datagen: error: a worker failed\n");
        munmap(sh, sizeof *sh);
        return 1;
    }
    long long pos = atomic_load(&sh->positions);
    double secs = (double)(util_now_ms() - t0) / 1000.0;
    munmap(sh, sizeof *sh);
    if (!merge(&o, err))
        return 1;
    if (!o.quiet)
        fprintf(err, "datagen: done: %lld games, %lld positions in %.0f s -> %s\n", o.games, pos,
                secs, o.out);
    return 0;
}
