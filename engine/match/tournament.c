/* tournament.c - the scheduler: the start-up check of every engine, the
 * worker threads that play the schedule (or one shard of it), booking each
 * game into the ledger, records in schedule order, progress lines, the
 * SPRT stop, signals, and the final report (see match.h). */
#include "match.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine.h"
#include "ledger.h"
#include "proc.h"
#include "record.h"
#include "referee.h"
#include "report.h"
#include "results.h"
#include "util.h"

/* Set (to the signal number) by the signal thread on SIGINT/SIGTERM/SIGHUP. */
static atomic_int interrupted;
/* Set when an output could not be written: the run stops at once. */
static atomic_bool output_failed;

static bool is_interrupted(void)
{
    return atomic_load(&interrupted) != 0 || atomic_load(&output_failed);
}

typedef struct Tournament {
    MatchConfig *cfg;
    pthread_mutex_t lock;
    Ledger ledger;
    int *queue;         /* the jobs of this run, in schedule order */
    int nqueue, next;
    int finished;       /* games booked, in the order they finished */
    Tally *live;        /* per pairing, over finished games (progress lines) */
    bool stop;          /* the SPRT decided: take no new games */
    int64_t start_ms;
    FILE *pgn, *epd, *res;
    bool res_fresh;     /* the result file is written anew (else appended from res_used) */
    long res_used, res_size;
    char date[16];
} Tournament;

/* A write to path failed (errno tells why): say so once, stop every game. */
static void write_failed(const char *path)
{
    int e = errno ? errno : EIO;
    if (!atomic_exchange(&output_failed, true)) {
        fprintf(stderr, "sigil-match: cannot write %s: %s; stopping the run\n", path,
                strerror(e));
        proc_kill_all();
    }
}

/* Flush f (written to path); false (reported) when that or an earlier
 * write failed.  The caller clears errno before its writes, so that a
 * failed write's reason is still there. */
static bool flushed(FILE *f, const char *path)
{
    if (fflush(f) != 0 || ferror(f)) {
        write_failed(path);
        return false;
    }
    return true;
}

typedef struct Worker {
    Tournament *t;
    Seats seats;
    pthread_t thread;
} Worker;

/* ---- records ------------------------------------------------------------- */

/* A time control in PGN's TimeControl syntax: "40/60", "10+0.1", "1/0.05"
 * (a fixed time per move: one move per period), "-" (no clock). */
static void pgn_time_control(const EngineSpec *e, char *buf, size_t size)
{
    char base[24], inc[24];
    if (e->st_ms > 0) {
        snprintf(buf, size, "1/%g", e->st_ms / 1000.0);
    } else if (e->tc.set) {
        snprintf(base, sizeof base, "%g", e->tc.base_ms / 1000.0);
        snprintf(inc, sizeof inc, "+%g", e->tc.inc_ms / 1000.0);
        if (e->tc.moves > 0)
            snprintf(buf, size, "%d/%s%s", e->tc.moves, base, e->tc.inc_ms ? inc : "");
        else
            snprintf(buf, size, "%s%s", base, e->tc.inc_ms ? inc : "");
    } else {
        snprintf(buf, size, "-");
    }
}

static char *render_pgn(const Tournament *t, const Job *job, const Outcome *o)
{
    const MatchConfig *cfg = t->cfg;
    Record r;
    memset(&r, 0, sizeof r);
    snprintf(r.event, sizeof r.event, "%s", cfg->out.event);
    snprintf(r.site, sizeof r.site, "%s", cfg->out.site);
    snprintf(r.date, sizeof r.date, "%s", t->date);
    snprintf(r.round, sizeof r.round, "%d.%d", job->round + 1, job->index + 1);
    snprintf(r.white, sizeof r.white, "%s", cfg->engines[job->white].name);
    snprintf(r.black, sizeof r.black, "%s", cfg->engines[job->black].name);
    snprintf(r.variant, sizeof r.variant, "%s", cfg->variant->name);
    snprintf(r.fen, sizeof r.fen, "%s", o->start_fen);
    pgn_time_control(&cfg->engines[job->white], r.white_tc, sizeof r.white_tc);
    pgn_time_control(&cfg->engines[job->black], r.black_tc, sizeof r.black_tc);
    r.move_limit = (cfg->variant->rule_options & GAME_OPTION_MOVE_LIMIT) ? cfg->game_config.move_limit
                                                                         : 0;
    snprintf(r.result, sizeof r.result, "%s", record_result_token(o->result));
    r.termination = o->termination;
    snprintf(r.detail, sizeof r.detail, "%s", o->detail);
    MatchScoring sc = cfg->variant->match_scoring;
    r.has_margin = o->on_board && (sc == MATCH_SCORING_MARGIN_SUM || sc == MATCH_SCORING_COUNTING);
    r.margin = o->margin;
    r.nmoves = o->moves.n;
    r.moves = o->moves.m;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return NULL;
    /* Always whole: the result file keeps it, min= is applied when it is
     * written to -pgnout (results_minify_pgn). */
    record_write(f, &r, false, cfg->out.pgn_nodes);
    fclose(f);
    return buf;
}

static char *render_epd(const Outcome *o)
{
    char *s = malloc(FEN_MAX + 64);
    if (s)
        snprintf(s, FEN_MAX + 64, "%s", o->final_fen);
    return s;
}

/* The walk passes game j: write its record and final position. */
static void write_game(Ledger *l, int j, void *ctx)
{
    Tournament *t = ctx;
    LedgerGame *g = &l->g[j];
    if (atomic_load(&output_failed))
        return;
    errno = 0;
    if (t->pgn && g->pgn) {
        char *min = t->cfg->out.pgn_min ? results_minify_pgn(g->pgn) : NULL;
        fputs(min ? min : g->pgn, t->pgn);
        free(min);
        if (!flushed(t->pgn, t->cfg->out.pgnout))
            return;
    }
    if (t->epd && g->epd) {
        fprintf(t->epd, "%s\n", g->epd);
        if (!flushed(t->epd, t->cfg->out.epdout))
            return;
    }
    /* Written once (the result file took them when the game finished):
     * keeping them grew sigil-match by a record per game (5 KB a game in
     * the soak's longest games). */
    free(g->pgn);
    free(g->epd);
    g->pgn = g->epd = NULL;
}

/* ---- booking ---------------------------------------------------------------- */

static void update_live(Tournament *t, int j)
{
    const Ledger *l = &t->ledger;
    const Job *job = &l->sched.jobs[j];
    const Pairing *p = &l->sched.pairings[job->pairing];
    Tally *tl = &t->live[job->pairing];
    Result r = l->g[j].result;
    bool a_white = job->white == p->a;
    bool decisive = r == RESULT_WHITE_WINS || r == RESULT_BLACK_WINS;
    bool a_won = decisive && (r == RESULT_WHITE_WINS) == a_white;
    bool b_won = decisive && !a_won;
    tl->wdl.wins += a_won, tl->wdl.losses += b_won, tl->wdl.draws += !decisive;
    tl->white_wins += r == RESULT_WHITE_WINS, tl->black_wins += r == RESULT_BLACK_WINS;
    tl->draws += !decisive;
    if (a_white)
        tl->a_white_w += a_won, tl->a_white_l += b_won, tl->a_white_d += !decisive;
    else
        tl->a_black_w += a_won, tl->a_black_l += b_won, tl->a_black_d += !decisive;
    if (job->partner >= 0 && l->g[job->partner].done) {
        const LedgerGame *q = &l->g[job->partner];
        bool q_a_white = l->sched.jobs[job->partner].white == p->a;
        double qs = q->result == RESULT_DRAW || q->result == RESULT_NONE ? 0.5
                    : (q->result == RESULT_WHITE_WINS) == q_a_white ? 1.0
                                                                    : 0.0;
        double s = a_won ? 1.0 : b_won ? 0.0 : 0.5;
        tl->penta[(int)((s + qs) * 2 + 0.5)]++;
    }
}

/* Book one finished game (under the lock): the ledger, the progress lines,
 * the records in order, the SPRT. */
static void book_game(Tournament *t, const Job *job, Outcome *o, char *pgn, char *epd)
{
    MatchConfig *cfg = t->cfg;
    Ledger *l = &t->ledger;
    LedgerGame *g = &l->g[job->index];
    g->done = true;
    g->result = o->result;
    g->on_board = o->on_board;
    g->margin = o->margin;
    g->termination = o->termination;
    snprintf(g->category, sizeof g->category, "%s", o->category);
    snprintf(g->reason, sizeof g->reason, "%s", o->reason);
    g->hash = o->hash;
    g->moves = 0;
    for (int i = 0; i < o->moves.n; i++)
        g->moves += o->moves.m[i].has_time;
    g->pgn = pgn;
    g->epd = epd;
    l->played++;
    l->order[l->norder++] = job->index;
    t->finished++;
    update_live(t, job->index);
    /* The result file first: a game is kept once its block is out. */
    if (t->res && !atomic_load(&output_failed)) {
        errno = 0;
        if (!results_write_game(t->res, l, job->index) || !flushed(t->res, cfg->out.results_path)) {
            if (!atomic_load(&output_failed))
                write_failed(cfg->out.results_path);
            t->stop = true;
            return;
        }
    }

    if (!cfg->quiet) {
        report_finished(l, job->index);
        bool cutechess = cfg->report.output == OUTPUT_CUTECHESS;
        if (cutechess && l->sched.npairings == 1 && cfg->report.score_interval > 0 &&
            t->finished % cfg->report.score_interval == 0)
            report_score(l, 0, &t->live[0]);
        if (cfg->report.rating_interval > 0 && t->finished % cfg->report.rating_interval == 0) {
            if (cutechess)
                report_ratings(l, t->live);
            else
                report_fastchess(l, &t->live[0]);
        }
        if (cfg->report.outcome_interval > 0 && t->finished % cfg->report.outcome_interval == 0)
            report_outcomes(l);
        fflush(stdout);
    }
    if (ledger_walk(l, write_game, t))
        t->stop = true;
}

/* ---- workers -------------------------------------------------------------- */

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && !is_interrupted())
        ;
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Tournament *t = w->t;
    const MatchConfig *cfg = t->cfg;
    bool first = true;
    for (;;) {
        if (!first && cfg->wait_ms > 0)
            sleep_ms(cfg->wait_ms);
        first = false;
        pthread_mutex_lock(&t->lock);
        if (t->stop || is_interrupted() || t->next >= t->nqueue) {
            pthread_mutex_unlock(&t->lock);
            break;
        }
        const Job job = t->ledger.sched.jobs[t->queue[t->next++]];
        if (!cfg->quiet) {
            report_started(&t->ledger, job.index, t->ledger.sched.njobs);
            fflush(stdout);
        }
        pthread_mutex_unlock(&t->lock);
        Outcome o;
        referee_play(cfg, &job, &w->seats, is_interrupted, &o);
        if (o.aborted) {
            free(o.moves.m);
            break;
        }
        char *pgn = t->pgn || t->res ? render_pgn(t, &job, &o) : NULL;
        char *epd = t->epd || t->res ? render_epd(&o) : NULL;
        pthread_mutex_lock(&t->lock);
        book_game(t, &job, &o, pgn, epd);
        free(o.moves.m);
        pthread_mutex_unlock(&t->lock);
    }
    for (int i = 0; i < 2 * cfg->nengines; i++)
        engine_stop(cfg, &w->seats.procs[i], !is_interrupted());
    return NULL;
}

static void *signal_main(void *arg)
{
    sigset_t *set = arg;
    int sig = 0;
    if (sigwait(set, &sig) == 0) {
        atomic_store(&interrupted, sig);
        proc_kill_all();
        fprintf(stderr, "sigil-match: interrupted by signal %d, stopping engines\n", sig);
    }
    return NULL;
}

/* ---- the run ----------------------------------------------------------------- */

static uint64_t mix_text(uint64_t h, const char *s)
{
    for (; *s; s++)
        h = openings_mix_seed(h, (unsigned char)*s, 0x7E);
    return openings_mix_seed(h, 0, 0x7F);
}

/* What makes two runs the same run: everything that decides which games
 * are played and how, not the machine's time margins or the output. */
static uint64_t run_fingerprint(const MatchConfig *cfg)
{
    uint64_t h = mix_text(0x516, cfg->variant->name);
    h = openings_mix_seed(h, cfg->seed, (uint64_t)cfg->game_config.move_limit);
    h = openings_mix_seed(h, (uint64_t)(cfg->games * 1000003LL + cfg->rounds),
                          (uint64_t)(cfg->repeat * 8 + cfg->swap * 4 + cfg->reverse * 2 +
                                     cfg->gauntlet) + (uint64_t)cfg->seeds * 16);
    h = openings_mix_seed(h, openings_fingerprint(&cfg->openings), (uint64_t)cfg->adj.maxmoves);
    h = openings_mix_seed(h, (uint64_t)(cfg->adj.draw_adj * 1000003LL + cfg->adj.draw_movenumber),
                          (uint64_t)(cfg->adj.draw_movecount * 1000003LL + cfg->adj.draw_score));
    h = openings_mix_seed(h, (uint64_t)(cfg->adj.resign_adj * 1000003LL + cfg->adj.resign_movecount),
                          (uint64_t)(cfg->adj.resign_score * 2LL + cfg->adj.resign_twosided));
    char num[160];
    snprintf(num, sizeof num, "%d %.17g %.17g %.17g %.17g %d", cfg->sprt.on, cfg->sprt.elo0,
             cfg->sprt.elo1, cfg->sprt.alpha, cfg->sprt.beta, (int)cfg->sprt.model);
    h = mix_text(h, num);
    for (int e = 0; e < cfg->nengines; e++) {
        const EngineSpec *s = &cfg->engines[e];
        h = mix_text(h, s->name);
        h = mix_text(h, s->cmd);
        for (int k = 0; k < s->nargs; k++)
            h = mix_text(h, s->args[k]);
        for (int k = 0; k < s->ninitstr; k++)
            h = mix_text(h, s->initstr[k]);
        for (int k = 0; k < s->noptions; k++) {
            h = mix_text(h, s->options[k].name);
            h = mix_text(h, s->options[k].value);
        }
        snprintf(num, sizeof num, "%d %d %lld %lld %lld %lld %d %lld", s->ugi, s->tc.moves,
                 (long long)s->tc.base_ms, (long long)s->tc.inc_ms, (long long)s->st_ms,
                 (long long)s->depth, (int)s->kind, s->nodes);
        h = mix_text(h, num);
    }
    return h;
}

/* Start and handshake every engine once; false (with the message printed)
 * when one cannot start, answer, or take its options. */
static bool preflight(const MatchConfig *cfg)
{
    for (int e = 0; e < cfg->nengines; e++) {
        const EngineSpec *s = &cfg->engines[e];
        if (s->kind != PLAYER_ENGINE)
            continue;
        char why[1024];
        if (!engine_preflight(cfg, s, why, sizeof why)) {
            fprintf(stderr, "sigil-match: %s\n", why);
            return false;
        }
    }
    return true;
}

static FILE *open_output(const char *path, bool append)
{
    FILE *f = fopen(path, append ? "a" : "w");
    if (!f)
        fprintf(stderr, "sigil-match: cannot open %s for writing: %s\n", path, strerror(errno));
    return f;
}

/* Flush, sync and close f (written to path); false (reported) on failure.
 * A file that cannot be synced (a pipe, /dev/null) is not an error. */
static bool close_synced(FILE *f, const char *path)
{
    errno = 0;
    bool ok = flushed(f, path);
    if (ok && fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS && errno != ENOTSUP) {
        write_failed(path);
        ok = false;
    }
    if (fclose(f) != 0 && ok) {
        write_failed(path);
        ok = false;
    }
    return ok;
}

static bool close_outputs(Tournament *t)
{
    bool ok = true;
    if (t->pgn)
        ok = close_synced(t->pgn, t->cfg->out.pgnout) && ok;
    if (t->epd)
        ok = close_synced(t->epd, t->cfg->out.epdout) && ok;
    if (t->res)
        ok = close_synced(t->res, t->cfg->out.results_path) && ok;
    t->pgn = t->epd = t->res = NULL;
    return ok;
}

/* -resume: take the games of the result file of this run (before any
 * engine starts); open_results then cuts off what a killed run left half
 * written and appends to it.  False (reported) when the file belongs to
 * another run, is damaged, or cannot be read.  No file yet: a fresh start. */
static bool load_results(Tournament *t)
{
    const MatchConfig *cfg = t->cfg;
    const char *path = cfg->out.results_path;
    Ledger *l = &t->ledger;
    t->res_fresh = true;
    if (cfg->out.resume) {
        /* It is cut and appended to: a regular file (a FIFO would block). */
        struct stat st;
        if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
            fprintf(stderr, "sigil-match: cannot resume: %s is not a regular file\n", path);
            return false;
        }
        FILE *f = fopen(path, "r");
        long size = f && fstat(fileno(f), &st) == 0 ? (long)st.st_size : -1;
        if (!f && errno != ENOENT) {
            fprintf(stderr, "sigil-match: cannot read %s: %s\n", path, strerror(errno));
            return false;
        }
        if (f) {
            Ledger old;
            ResultsInfo info;
            char err[1400];
            bool ok = results_read(f, path, &old, &info, err, sizeof err);
            fclose(f);
            if (!ok && !info.header_cut) {
                fprintf(stderr, "sigil-match: cannot resume: %s\n", err);
                ledger_free(&old);
                return false;
            }
            if (!ok)
                printf("sigil-match: %s was cut in its header, before any game: starting it "
                       "afresh\n",
                       path);
            if (ok && (old.fingerprint != l->fingerprint || old.variant != l->variant ||
                       old.sched.njobs != l->sched.njobs || old.shard_k != l->shard_k ||
                       old.shard_n != l->shard_n)) {
                fprintf(stderr,
                        "sigil-match: cannot resume: %s is the result file of another run (%s); "
                        "give the same engines, options and settings, or another -results "
                        "file\n",
                        path,
                        old.shard_k != l->shard_k || old.shard_n != l->shard_n
                            ? "another shard"
                            : "other engines, options, variant, openings, seed or schedule");
                ledger_free(&old);
                return false;
            }
            if (ok) {
                for (int k = 0; k < old.norder; k++)
                    ledger_take(l, &old, old.order[k]);
                if (info.dropped_line > 0)
                    printf("sigil-match: %s:%ld: a game written only in part is left out and "
                           "played again\n",
                           path, info.dropped_line);
                t->res_used = info.used;
                t->res_size = size;
                t->res_fresh = false;
                printf("sigil-match: resuming %s: %d of the run's games already played\n", path,
                       l->played);
            }
            ledger_free(&old);
        }
    }
    return true;
}

/* Open the result file: anew with its header, or (resuming) cut after its
 * last whole game (a half-written block and the end line go) to append. */
static bool open_results(Tournament *t)
{
    const char *path = t->cfg->out.results_path;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (fd < 0) {
        fprintf(stderr, "sigil-match: cannot open %s for writing: %s\n", path, strerror(errno));
        return false;
    }
    /* One writer at a time (two resumes of one shard would interleave). */
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        fprintf(stderr, "sigil-match: cannot write %s: another sigil-match is writing it\n",
                path);
        close(fd);
        return false;
    }
    struct stat st;
    bool regular = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
    if (!t->res_fresh && regular && st.st_size != t->res_size) {
        fprintf(stderr, "sigil-match: cannot resume: %s changed while this run started "
                        "(another sigil-match?)\n",
                path);
        close(fd);
        return false;
    }
    /* Anew, or cut after the last whole game (a half-written block and the
     * end line go): the new games are appended there. */
    if (regular && ftruncate(fd, t->res_fresh ? 0 : t->res_used) != 0) {
        fprintf(stderr, "sigil-match: cannot write %s: %s\n", path, strerror(errno));
        close(fd);
        return false;
    }
    t->res = fdopen(fd, "a");
    if (!t->res) {
        fprintf(stderr, "sigil-match: cannot open %s for writing: %s\n", path, strerror(errno));
        close(fd);
        return false;
    }
    errno = 0;
    if (t->res_fresh && (!results_write_header(t->res, &t->ledger) || !flushed(t->res, path))) {
        write_failed(path);
        return false;
    }
    return true;
}

static void free_tournament(Tournament *t)
{
    if (t->pgn)
        fclose(t->pgn);
    if (t->epd)
        fclose(t->epd);
    if (t->res)
        fclose(t->res);
    t->pgn = t->epd = t->res = NULL;
    free(t->queue);
    free(t->live);
    ledger_free(&t->ledger);
    pthread_mutex_destroy(&t->lock);
}

/* Play the queue with cfg->concurrency workers. */
static void play_all(Tournament *t)
{
    const MatchConfig *cfg = t->cfg;
    int nw = cfg->concurrency < 1 ? 1 : cfg->concurrency;
    if (nw > t->nqueue && t->nqueue > 0)
        nw = t->nqueue;
    Worker *workers = calloc((size_t)nw, sizeof *workers);
    if (!workers) {
        fprintf(stderr, "sigil-match: out of memory\n");
        exit(1);
    }
    for (int i = 0; i < nw; i++) {
        workers[i].t = t;
        workers[i].seats.procs = calloc((size_t)(2 * cfg->nengines), sizeof(EngineProc));
        if (!workers[i].seats.procs) {
            fprintf(stderr, "sigil-match: out of memory\n");
            exit(1);
        }
        pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
    }
    for (int i = 0; i < nw; i++) {
        pthread_join(workers[i].thread, NULL);
        free(workers[i].seats.procs);
    }
    free(workers);
}

/* A tournament for cfg: its ledger, the queue of the games of this run, the
 * date of its records. */
static void init_tournament(Tournament *t, MatchConfig *cfg)
{
    memset(t, 0, sizeof *t);
    t->cfg = cfg;
    pthread_mutex_init(&t->lock, NULL);
    proc_global_init();
    ledger_init(&t->ledger, cfg, run_fingerprint(cfg));
    const Schedule *s = &t->ledger.sched;
    t->queue = calloc((size_t)s->njobs + 1, sizeof *t->queue);
    t->live = calloc((size_t)s->npairings + 1, sizeof *t->live);
    if (!t->queue || !t->live) {
        fprintf(stderr, "sigil-match: out of memory\n");
        exit(1);
    }
    for (int j = 0; j < s->njobs; j++)
        if (ledger_in_run(&t->ledger, j))
            t->queue[t->nqueue++] = j;
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    strftime(t->date, sizeof t->date, "%Y.%m.%d", &tmv);
}

/* Signals go to one thread, which kills every engine; workers then see
 * their engines' output end, notice the interruption and stop. */
static void start_signal_thread(void)
{
    static sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_t sig_thread;
    pthread_create(&sig_thread, NULL, signal_main, &set);
    pthread_detach(sig_thread);
}

/* The games resumed: in the live tallies, and the walk over them (the
 * records in order, the SPRT, which may have decided already). */
static void resume_games(Tournament *t)
{
    const Schedule *s = &t->ledger.sched;
    if (t->ledger.played > 0) {
        for (int j = 0; j < s->njobs; j++)
            if (t->ledger.g[j].done)
                update_live(t, j);
        t->finished = t->ledger.played;
        if (ledger_walk(&t->ledger, write_game, t))
            t->stop = true;
        int n = 0;
        for (int i = 0; i < t->nqueue; i++)
            if (!t->ledger.g[t->queue[i]].done)
                t->queue[n++] = t->queue[i];
        t->nqueue = n;
    }
}

/* After an interruption, games finished after a hole in the order are
 * still written (and counted); the SPRT's late games noted. */
static void write_late_games(Tournament *t)
{
    const Schedule *s = &t->ledger.sched;
    Ledger *l = &t->ledger;
    if (!t->stop)
        for (int j = l->prefix; j < s->njobs; j++)
            if (l->g[j].done && ledger_in_run(l, j))
                write_game(l, j, t);
    if (l->decided_at >= 0) {
        int late = 0;
        for (int j = l->decided_at + 1; j < s->njobs; j++)
            late += l->g[j].done;
        if (late > 0)
            printf("Note: the SPRT decided at game %d; %d game%s finished after it %s not "
                   "counted\n",
                   l->decided_at + 1, late, late == 1 ? "" : "s", late == 1 ? "is" : "are");
    }
}

int match_run(MatchConfig *cfg)
{
    Tournament t;
    init_tournament(&t, cfg);
    const Schedule *s = &t.ledger.sched;
    start_signal_thread();

    if (cfg->out.results_path[0] && !load_results(&t)) {
        free_tournament(&t);
        return 2;
    }
    if (!preflight(cfg)) {
        free_tournament(&t);
        return is_interrupted() ? 128 + atomic_load(&interrupted) : 1;
    }
    /* Every output is opened before the first game.  With -resume the PGN
     * and EPD files are written anew: the walk below writes every game of
     * the run into them in schedule order, those of the result file first. */
    if ((cfg->out.results_path[0] && !open_results(&t)) ||
        (cfg->out.pgnout[0] &&
         !(t.pgn = open_output(cfg->out.pgnout, cfg->out.pgn_append && !cfg->out.resume))) ||
        (cfg->out.epdout[0] &&
         !(t.epd = open_output(cfg->out.epdout, cfg->out.epd_append && !cfg->out.resume)))) {
        free_tournament(&t);
        return 2;
    }
    resume_games(&t);
    printf("sigil-match: %s, %d engines, %d games", cfg->variant->name, cfg->nengines,
           t.nqueue);
    if (cfg->shard_n > 0)
        printf(" (shard %d/%d of %d games)", cfg->shard_k, cfg->shard_n, s->njobs);
    printf(", concurrency %d, seed %llu\n", cfg->concurrency, (unsigned long long)cfg->seed);
    fflush(stdout);
    t.start_ms = util_now_ms();
    play_all(&t);

    Ledger *l = &t.ledger;
    write_late_games(&t);
    if (t.res && !atomic_load(&output_failed) && fputs("end\n", t.res) < 0)
        write_failed(cfg->out.results_path);
    bool closed = !atomic_load(&output_failed) && close_outputs(&t);
    if (!closed) {
        free_tournament(&t);
        return 2;
    }
    report_final(l, cfg->report.output == OUTPUT_FASTCHESS, util_now_ms() - t.start_ms);
    if (cfg->out.results_path[0])
        printf("Result file: %s\n", cfg->out.results_path);
    fflush(stdout);
    free_tournament(&t);
    int sig = atomic_load(&interrupted);
    return sig ? 128 + sig : 0;
}
