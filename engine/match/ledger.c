/* ledger.c - results in schedule order, result files and -merge (see
 * ledger.h). */
#include "ledger.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "util.h"
#include "variants.h"

void ledger_init_shape(Ledger *l)
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
    l->g = util_xcalloc((size_t)l->sched.njobs, sizeof *l->g);
    l->order = util_xcalloc((size_t)l->sched.njobs, sizeof *l->order);
    l->norder = 0;
    l->prefix = 0;
    l->decided_at = -1;
}

void ledger_init(Ledger *l, const MatchConfig *cfg, uint64_t fingerprint)
{
    memset(l, 0, sizeof *l);
    l->variant = cfg->variant;
    l->nengines = cfg->nengines;
    l->names = util_xcalloc((size_t)cfg->nengines, sizeof *l->names);
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
    l->sprt = cfg->sprt.on;
    l->sprt_elo0 = cfg->sprt.elo0;
    l->sprt_elo1 = cfg->sprt.elo1;
    l->sprt_alpha = cfg->sprt.alpha;
    l->sprt_beta = cfg->sprt.beta;
    l->sprt_model = cfg->sprt.model;
    ledger_init_shape(l);
}

void ledger_free(Ledger *l)
{
    if (l->g)
        for (int j = 0; j < l->sched.njobs; j++) {
            free(l->g[j].pgn);
            free(l->g[j].epd);
        }
    free(l->g);
    free(l->order);
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
    uint64_t *h = util_xcalloc((size_t)l->sched.njobs, sizeof *h);
    int n = 0, forfeits = 0;
    for (int j = 0; j < l->sched.njobs; j++) {
        if (!ledger_counted(l, j))
            continue;
        const LedgerGame *g = &l->g[j];
        /* A game forfeited before either player moved repeats nothing the
         * engines played: each is a game of its own. */
        if (g->moves == 0 && g->termination != TERM_NORMAL &&
            g->termination != TERM_ADJUDICATION)
            forfeits++;
        else
            h[n++] = g->hash;
    }
    qsort(h, (size_t)n, sizeof *h, cmp_u64);
    int d = 0;
    for (int i = 0; i < n; i++)
        d += i == 0 || h[i] != h[i - 1];
    free(h);
    *counted = n + forfeits;
    *distinct = d + forfeits;
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

void ledger_take(Ledger *l, Ledger *other, int j)
{
    l->g[j] = other->g[j];
    other->g[j].pgn = other->g[j].epd = NULL;
    l->g[j].done = true;
    l->order[l->norder++] = j;
    l->played++;
}

bool ledger_merge(Ledger *l, char *const files[], int nfiles, FILE *notes, char *err,
                  size_t errlen)
{
    memset(l, 0, sizeof *l);
    bool *seen_shard = NULL;
    bool ok = true;
    int first_shard_n = 0;
    for (int i = 0; i < nfiles && ok; i++) {
        FILE *f = fopen(files[i], "r");
        if (!f) {
            snprintf(err, errlen, "cannot read %s: %s", files[i], strerror(errno));
            ok = false;
            break;
        }
        Ledger cur;
        ResultsInfo info;
        ok = results_read(f, files[i], &cur, &info, err, errlen);
        fclose(f);
        if (ok && i == 0) {
            /* The merged ledger: the first file's run, whole. */
            l->variant = cur.variant;
            l->nengines = cur.nengines;
            l->names = util_xcalloc((size_t)cur.nengines, sizeof *l->names);
            memcpy(l->names, cur.names, (size_t)cur.nengines * sizeof *l->names);
            l->games = cur.games, l->rounds = cur.rounds, l->seeds = cur.seeds;
            l->repeat = cur.repeat, l->gauntlet = cur.gauntlet;
            l->swap = cur.swap, l->reverse = cur.reverse;
            l->seed = cur.seed;
            l->fingerprint = cur.fingerprint;
            l->sprt = cur.sprt;
            l->sprt_elo0 = cur.sprt_elo0, l->sprt_elo1 = cur.sprt_elo1;
            l->sprt_alpha = cur.sprt_alpha, l->sprt_beta = cur.sprt_beta;
            l->sprt_model = cur.sprt_model;
            ledger_init_shape(l);
            first_shard_n = cur.shard_n;
            seen_shard = util_xcalloc((size_t)cur.shard_n + 1, sizeof *seen_shard);
        } else if (ok && (cur.fingerprint != l->fingerprint || cur.shard_n != first_shard_n ||
                          cur.variant != l->variant || cur.sched.njobs != l->sched.njobs)) {
            snprintf(err, errlen, "%s is not from the same run as %s (%s)", files[i], files[0],
                     cur.shard_n != first_shard_n ? "another number of shards"
                                                  : "other settings or engines");
            ok = false;
        }
        if (ok && cur.shard_n > 0) {
            if (seen_shard[cur.shard_k]) {
                snprintf(err, errlen, "%s: shard %d/%d is given twice", files[i], cur.shard_k,
                         cur.shard_n);
                ok = false;
            } else {
                seen_shard[cur.shard_k] = true;
            }
        }
        for (int k = 0; ok && k < cur.norder; k++) {
            int j = cur.order[k];
            if (l->g[j].done) {
                snprintf(err, errlen, "%s: game %d is also in an earlier file", files[i], j + 1);
                ok = false;
            } else {
                ledger_take(l, &cur, j);
            }
        }
        if (ok && notes && info.dropped_line > 0)
            fprintf(notes, "sigil-match: note: %s:%ld: a game written only in part (the run "
                           "was killed?) is left out\n", files[i], info.dropped_line);
        else if (ok && notes && !info.complete)
            fprintf(notes, "sigil-match: note: %s has no end line (the run was killed?); its "
                           "%d whole games are used\n", files[i], cur.norder);
        ledger_free(&cur);
    }
    free(seen_shard);
    /* The merged ledger is the whole run. */
    l->shard_k = l->shard_n = 0;
    return ok;
}
