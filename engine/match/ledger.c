/* ledger.c - results in schedule order, result files and -merge (see
 * ledger.h). */
#include "ledger.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "variants.h"

#define RESULTS_MAGIC "sigil-match-results 1"

static void *alloc_or_die(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p) {
        fprintf(stderr, "sigil-match: out of memory\n");
        exit(1);
    }
    return p;
}

/* The schedule-shaping part of a config, rebuilt from a result file. */
static void build_from_shape(Ledger *l)
{
    MatchConfig c;
    memset(&c, 0, sizeof c);
    c.nengines = l->nengines;
    c.games = l->games;
    c.rounds = l->rounds;
    c.seeds = l->seeds;
    c.repeat = l->repeat;
    c.gauntlet = l->gauntlet;
    c.swap = l->swap;
    c.reverse = l->reverse;
    schedule_build(&c, &l->sched);
    l->g = alloc_or_die((size_t)l->sched.njobs, sizeof *l->g);
    l->prefix = 0;
    l->decided_at = -1;
}

void ledger_init(Ledger *l, const MatchConfig *cfg, uint64_t fingerprint)
{
    memset(l, 0, sizeof *l);
    l->variant = cfg->variant;
    l->nengines = cfg->nengines;
    l->names = alloc_or_die((size_t)cfg->nengines, sizeof *l->names);
    for (int i = 0; i < cfg->nengines; i++)
        snprintf(l->names[i], sizeof l->names[i], "%s", cfg->engines[i].name);
    l->games = cfg->games;
    l->rounds = cfg->rounds;
    l->seeds = cfg->seeds;
    l->repeat = cfg->repeat;
    l->gauntlet = cfg->gauntlet;
    l->swap = cfg->swap;
    l->reverse = cfg->reverse;
    l->seed = cfg->seed;
    l->fingerprint = fingerprint;
    l->shard_k = cfg->shard_k;
    l->shard_n = cfg->shard_n;
    l->sprt = cfg->sprt;
    l->sprt_elo0 = cfg->sprt_elo0;
    l->sprt_elo1 = cfg->sprt_elo1;
    l->sprt_alpha = cfg->sprt_alpha;
    l->sprt_beta = cfg->sprt_beta;
    l->sprt_model = cfg->sprt_model;
    build_from_shape(l);
}

void ledger_free(Ledger *l)
{
    if (l->g)
        for (int j = 0; j < l->sched.njobs; j++) {
            free(l->g[j].pgn);
            free(l->g[j].epd);
        }
    free(l->g);
    free(l->names);
    schedule_free(&l->sched);
    memset(l, 0, sizeof *l);
}

bool ledger_in_run(const Ledger *l, int j)
{
    return schedule_in_shard(&l->sched.jobs[j], l->shard_k, l->shard_n);
}

bool ledger_counted(const Ledger *l, int j)
{
    return l->g[j].done && (l->decided_at < 0 || j <= l->decided_at);
}

/* Points of the pairing's first engine in game j. */
static double score_a(const Ledger *l, int j)
{
    const Job *job = &l->sched.jobs[j];
    const Pairing *p = &l->sched.pairings[job->pairing];
    Result r = l->g[j].result;
    if (r == RESULT_DRAW || r == RESULT_NONE)
        return 0.5;
    bool white_won = r == RESULT_WHITE_WINS;
    return white_won == (job->white == p->a) ? 1.0 : 0.0;
}

static void sprt_update(Ledger *l)
{
    int pairs = 0;
    for (int i = 0; i < 5; i++)
        pairs += l->prefix_penta[i];
    const StatsWdl *w = &l->prefix_wdl;
    l->llr = pairs > 0 ? stats_sprt_llr(l->prefix_penta, l->sprt_elo0, l->sprt_elo1, l->sprt_model)
                       : stats_sprt_llr_wdl(w->wins, w->draws, w->losses, l->sprt_elo0,
                                            l->sprt_elo1, l->sprt_model);
    l->verdict = stats_sprt_verdict(l->llr, l->sprt_alpha, l->sprt_beta);
}

bool ledger_walk(Ledger *l, void (*write)(Ledger *l, int j, void *ctx), void *ctx)
{
    while (l->decided_at < 0 && l->prefix < l->sched.njobs) {
        int j = l->prefix;
        if (!ledger_in_run(l, j)) {
            l->prefix++;
            continue;
        }
        if (!l->g[j].done)
            break;
        l->prefix++;
        if (write)
            write(l, j, ctx);
        const Job *job = &l->sched.jobs[j];
        if (!l->sprt || job->pairing != 0)
            continue;
        double s = score_a(l, j);
        l->prefix_wdl.wins += s == 1.0;
        l->prefix_wdl.losses += s == 0.0;
        l->prefix_wdl.draws += s == 0.5;
        if (job->partner >= 0 && job->partner < j)
            l->prefix_penta[(int)llround((s + score_a(l, job->partner)) * 2)]++;
        sprt_update(l);
        /* A shard cannot stop: the other shards' games come before its own. */
        if (l->shard_n == 0 && l->verdict != STATS_SPRT_CONTINUE)
            l->decided_at = j;
    }
    return l->decided_at >= 0;
}

void ledger_tally(const Ledger *l, int p, Tally *t)
{
    memset(t, 0, sizeof *t);
    for (int j = 0; j < l->sched.njobs; j++) {
        const Job *job = &l->sched.jobs[j];
        if (job->pairing != p || !ledger_counted(l, j))
            continue;
        double s = score_a(l, j);
        bool a_white = job->white == l->sched.pairings[p].a;
        t->wdl.wins += s == 1.0;
        t->wdl.losses += s == 0.0;
        t->wdl.draws += s == 0.5;
        Result r = l->g[j].result;
        t->white_wins += r == RESULT_WHITE_WINS;
        t->black_wins += r == RESULT_BLACK_WINS;
        t->draws += r != RESULT_WHITE_WINS && r != RESULT_BLACK_WINS;
        if (a_white) {
            t->a_white_w += s == 1.0, t->a_white_l += s == 0.0, t->a_white_d += s == 0.5;
        } else {
            t->a_black_w += s == 1.0, t->a_black_l += s == 0.0, t->a_black_d += s == 0.5;
        }
        if (job->partner >= 0 && job->partner < j && ledger_counted(l, job->partner))
            t->penta[(int)llround((s + score_a(l, job->partner)) * 2)]++;
    }
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

void ledger_distinct(const Ledger *l, int *counted, int *distinct)
{
    uint64_t *h = alloc_or_die((size_t)l->sched.njobs, sizeof *h);
    int n = 0;
    for (int j = 0; j < l->sched.njobs; j++)
        if (ledger_counted(l, j))
            h[n++] = l->g[j].hash;
    qsort(h, (size_t)n, sizeof *h, cmp_u64);
    int d = 0;
    for (int i = 0; i < n; i++)
        d += i == 0 || h[i] != h[i - 1];
    free(h);
    *counted = n;
    *distinct = d;
}

int ledger_missing(const Ledger *l)
{
    int missing = 0;
    /* Games after the SPRT's decision need not be played. */
    int end = l->decided_at >= 0 ? l->decided_at + 1 : l->sched.njobs;
    for (int j = 0; j < end; j++)
        missing += ledger_in_run(l, j) && !l->g[j].done;
    return missing;
}

/* ---- result files -------------------------------------------------------- */

static const char *model_name(StatsSprtModel m)
{
    return m == STATS_SPRT_LOGISTIC ? "logistic" : "normalized";
}

bool ledger_save(const Ledger *l, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write the result file %s: %s", path, strerror(errno));
        return false;
    }
    fprintf(f, "%s\n", RESULTS_MAGIC);
    fprintf(f, "fingerprint %016" PRIx64 "\n", l->fingerprint);
    fprintf(f, "variant %s\n", l->variant->name);
    fprintf(f, "seed %" PRIu64 "\n", l->seed);
    fprintf(f, "shard %d %d\n", l->shard_k, l->shard_n);
    fprintf(f, "schedule %d %d %d %d %d %d %d\n", l->games, l->rounds, l->gauntlet, l->seeds,
            l->repeat, l->swap, l->reverse);
    /* %.17g keeps every bit of the doubles. */
    fprintf(f, "sprt %d %.17g %.17g %.17g %.17g %s\n", l->sprt, l->sprt_elo0, l->sprt_elo1,
            l->sprt_alpha, l->sprt_beta, model_name(l->sprt_model));
    fprintf(f, "engines %d\n", l->nengines);
    for (int i = 0; i < l->nengines; i++)
        fprintf(f, "name %s\n", l->names[i]);
    fprintf(f, "jobs %d\n", l->sched.njobs);
    for (int j = 0; j < l->sched.njobs; j++) {
        const LedgerGame *g = &l->g[j];
        if (!g->done || !ledger_in_run(l, j))
            continue;
        fprintf(f, "game\t%d\t%s\t%d\t%d\t%d\t%016" PRIx64 "\t%s\t%s\n", j,
                record_result_token(g->result), g->on_board, g->margin, (int)g->termination,
                g->hash, g->category, g->reason);
        if (g->pgn)
            fprintf(f, "pgn %zu\n%s", strlen(g->pgn), g->pgn);
        if (g->epd)
            fprintf(f, "epd %s\n", g->epd);
    }
    fprintf(f, "end\n");
    bool ok = !ferror(f);
    if (fclose(f) != 0)
        ok = false;
    if (!ok)
        snprintf(err, errlen, "cannot write the result file %s", path);
    return ok;
}

static Result result_of_token(const char *t)
{
    return !strcmp(t, "1-0")       ? RESULT_WHITE_WINS
           : !strcmp(t, "0-1")     ? RESULT_BLACK_WINS
           : !strcmp(t, "1/2-1/2") ? RESULT_DRAW
                                   : RESULT_NONE;
}

static void chomp(char *s)
{
    size_t n = strlen(s);
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
        s[--n] = '\0';
}

/* The header of a result file into l (fresh), or compared with l. */
typedef struct Header {
    uint64_t fingerprint, seed;
    char variant[64];
    int shard_k, shard_n;
    int games, rounds, gauntlet, seeds, repeat, swap, reverse;
    int sprt;
    double e0, e1, alpha, beta;
    char model[32];
    int nengines;
    char names[MATCH_MAX_ENGINES][MATCH_NAME_MAX];
    int njobs;
} Header;

static bool read_header(FILE *f, const char *path, Header *h, char *err, size_t errlen)
{
    char line[1024];
    memset(h, 0, sizeof *h);
    if (!fgets(line, sizeof line, f) || strncmp(line, RESULTS_MAGIC, strlen(RESULTS_MAGIC))) {
        snprintf(err, errlen, "%s is not a sigil-match result file", path);
        return false;
    }
    bool ok = fgets(line, sizeof line, f) &&
              sscanf(line, "fingerprint %" SCNx64, &h->fingerprint) == 1 &&
              fgets(line, sizeof line, f) && sscanf(line, "variant %63s", h->variant) == 1 &&
              fgets(line, sizeof line, f) && sscanf(line, "seed %" SCNu64, &h->seed) == 1 &&
              fgets(line, sizeof line, f) &&
              sscanf(line, "shard %d %d", &h->shard_k, &h->shard_n) == 2 &&
              fgets(line, sizeof line, f) &&
              sscanf(line, "schedule %d %d %d %d %d %d %d", &h->games, &h->rounds, &h->gauntlet,
                     &h->seeds, &h->repeat, &h->swap, &h->reverse) == 7 &&
              fgets(line, sizeof line, f) &&
              sscanf(line, "sprt %d %lg %lg %lg %lg %31s", &h->sprt, &h->e0, &h->e1, &h->alpha,
                     &h->beta, h->model) == 6 &&
              fgets(line, sizeof line, f) && sscanf(line, "engines %d", &h->nengines) == 1 &&
              h->nengines >= 2 && h->nengines <= MATCH_MAX_ENGINES;
    for (int i = 0; ok && i < h->nengines; i++) {
        ok = fgets(line, sizeof line, f) && !strncmp(line, "name ", 5);
        if (ok) {
            chomp(line);
            snprintf(h->names[i], sizeof h->names[i], "%.63s", line + 5);
        }
    }
    ok = ok && fgets(line, sizeof line, f) && sscanf(line, "jobs %d", &h->njobs) == 1 &&
         h->njobs >= 0 && h->games > 0 && h->rounds > 0;
    if (!ok)
        snprintf(err, errlen, "%s: damaged header", path);
    return ok;
}

static bool read_games(Ledger *l, FILE *f, const char *path, char *err, size_t errlen)
{
    char line[2048];
    int last = -1;
    while (fgets(line, sizeof line, f)) {
        chomp(line);
        if (!strcmp(line, "end"))
            return true;
        if (!strncmp(line, "game\t", 5)) {
            char *fields[10];
            int n = 0;
            for (char *p = line, *tab; n < 10; p = tab + 1) {
                fields[n++] = p;
                tab = strchr(p, '\t');
                if (!tab)
                    break;
                *tab = '\0';
            }
            int j = n == 9 ? atoi(fields[1]) : -1;
            if (j < 0 || j >= l->sched.njobs) {
                snprintf(err, errlen, "%s: damaged game line", path);
                return false;
            }
            LedgerGame *g = &l->g[j];
            if (g->done) {
                snprintf(err, errlen, "%s: game %d is in more than one file", path, j + 1);
                return false;
            }
            g->done = true;
            g->result = result_of_token(fields[2]);
            g->on_board = atoi(fields[3]) != 0;
            g->margin = atoi(fields[4]);
            g->termination = (RecordTermination)atoi(fields[5]);
            g->hash = strtoull(fields[6], NULL, 16);
            snprintf(g->category, sizeof g->category, "%s", fields[7]);
            snprintf(g->reason, sizeof g->reason, "%s", fields[8]);
            l->played++;
            last = j;
        } else if (!strncmp(line, "pgn ", 4) && last >= 0) {
            size_t len = strtoull(line + 4, NULL, 10);
            char *text = malloc(len + 1);
            if (!text || fread(text, 1, len, f) != len) {
                free(text);
                snprintf(err, errlen, "%s: damaged record of game %d", path, last + 1);
                return false;
            }
            text[len] = '\0';
            l->g[last].pgn = text;
        } else if (!strncmp(line, "epd ", 4) && last >= 0) {
            l->g[last].epd = strdup(line + 4);
        } else {
            snprintf(err, errlen, "%s: unexpected line '%.40s'", path, line);
            return false;
        }
    }
    snprintf(err, errlen, "%s is cut short (no end line)", path);
    return false;
}

bool ledger_merge(Ledger *l, char *const files[], int nfiles, char *err, size_t errlen)
{
    memset(l, 0, sizeof *l);
    Header first, h;
    bool *seen_shard = NULL;
    bool ok = true;
    for (int i = 0; i < nfiles && ok; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f) {
            snprintf(err, errlen, "cannot read %s: %s", files[i], strerror(errno));
            ok = false;
            break;
        }
        ok = read_header(f, files[i], i ? &h : &first, err, errlen);
        if (ok && i == 0) {
            l->variant = variants_find(first.variant);
            if (!l->variant) {
                snprintf(err, errlen, "%s: unknown variant %s", files[i], first.variant);
                ok = false;
            } else {
                l->nengines = first.nengines;
                l->names = alloc_or_die((size_t)first.nengines, sizeof *l->names);
                memcpy(l->names, first.names, (size_t)first.nengines * sizeof *l->names);
                l->games = first.games, l->rounds = first.rounds, l->seeds = first.seeds;
                l->repeat = first.repeat, l->gauntlet = first.gauntlet;
                l->swap = first.swap, l->reverse = first.reverse;
                l->seed = first.seed;
                l->fingerprint = first.fingerprint;
                l->sprt = first.sprt;
                l->sprt_elo0 = first.e0, l->sprt_elo1 = first.e1;
                l->sprt_alpha = first.alpha, l->sprt_beta = first.beta;
                l->sprt_model = strcmp(first.model, "logistic") ? STATS_SPRT_NORMALIZED
                                                                : STATS_SPRT_LOGISTIC;
                build_from_shape(l);
                if (l->sched.njobs != first.njobs) {
                    snprintf(err, errlen, "%s: %d games, but its schedule has %d", files[i],
                             first.njobs, l->sched.njobs);
                    ok = false;
                }
                seen_shard = alloc_or_die((size_t)first.shard_n + 1, sizeof *seen_shard);
            }
        } else if (ok && (h.fingerprint != first.fingerprint || h.shard_n != first.shard_n)) {
            snprintf(err, errlen, "%s is not from the same run as %s (%s)", files[i], files[0],
                     h.fingerprint != first.fingerprint ? "other settings or engines"
                                                        : "another number of shards");
            ok = false;
        }
        const Header *cur = i ? &h : &first;
        if (ok && cur->shard_n > 0) {
            if (cur->shard_k < 1 || cur->shard_k > cur->shard_n || seen_shard[cur->shard_k]) {
                snprintf(err, errlen, "%s: shard %d/%d is given twice", files[i], cur->shard_k,
                         cur->shard_n);
                ok = false;
            } else {
                seen_shard[cur->shard_k] = true;
            }
        }
        if (ok)
            ok = read_games(l, f, files[i], err, errlen);
        fclose(f);
    }
    free(seen_shard);
    /* The merged ledger is the whole run. */
    l->shard_k = l->shard_n = 0;
    return ok;
}
