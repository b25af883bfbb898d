/* match.c - tournament scheduling, the game loop, the referee, adjudication
 * and scoring (see match.h). */
#include "match.h"

#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "proc.h"
#include "record.h"
#include "util.h"
#include "variants.h"

/* After the limit has passed: how long a `stop` may take to bring bestmove. */
#define STOP_GRACE_MS 500
/* Games longer than this many plies are drawn when no -maxmoves is given. */
#define SAFETY_CAP_PLIES 20000
/* A mate score, for comparing with adjudication thresholds. */
#define MATE_SCORE 1000000

/* Set (to the signal number) by the signal thread on SIGINT/SIGTERM/SIGHUP. */
static atomic_int interrupted;

/* ---- configuration ---------------------------------------------------- */

void match_config_defaults(MatchConfig *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->variant = NULL;
    cfg->game_config.move_limit = DEFAULT_MOVE_LIMIT;
    cfg->games = 2;
    cfg->rounds = 1;
    cfg->concurrency = 1;
    cfg->repeat = true;
    snprintf(cfg->event, sizeof cfg->event, "sigil-match");
    cfg->timemargin_ms = 50;
    cfg->hang_timeout_ms = 60000;
    cfg->start_timeout_ms = 10000;
    cfg->kill_grace_ms = 300;
    cfg->sprt_alpha = 0.05;
    cfg->sprt_beta = 0.05;
    cfg->sprt_elo1 = 5;
    cfg->sprt_model = STATS_SPRT_NORMALIZED;
}

/* Seconds as "10", "0.1" or "1:30" into milliseconds. */
static bool parse_seconds(const char *s, int64_t *ms)
{
    char *end;
    double minutes = 0, seconds;
    const char *colon = strchr(s, ':');
    if (colon) {
        minutes = strtod(s, &end);
        if (end != colon || minutes < 0)
            return false;
        s = colon + 1;
    }
    seconds = strtod(s, &end);
    if (end == s || *end || seconds < 0 || !isfinite(seconds))
        return false;
    *ms = (int64_t)llround((minutes * 60.0 + seconds) * 1000.0);
    return true;
}

bool match_parse_tc(const char *text, TimeControl *tc)
{
    memset(tc, 0, sizeof *tc);
    if (!strcmp(text, "inf") || !strcmp(text, "infinite"))
        return true; /* no clock */
    char buf[128];
    snprintf(buf, sizeof buf, "%s", text);
    char *p = buf;
    char *slash = strchr(p, '/');
    if (slash) {
        *slash = '\0';
        char *end;
        long moves = strtol(p, &end, 10);
        if (end == p || *end || moves <= 0 || moves > 100000)
            return false;
        tc->moves = (int)moves;
        p = slash + 1;
    }
    char *plus = strchr(p, '+');
    if (plus) {
        *plus = '\0';
        if (!parse_seconds(plus + 1, &tc->inc_ms))
            return false;
    }
    if (!parse_seconds(p, &tc->base_ms) || (tc->base_ms <= 0 && tc->inc_ms <= 0))
        return false;
    tc->set = true;
    return true;
}

/* ---- small helpers ---------------------------------------------------- */

static uint64_t mix_seed(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t s = seed ^ (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL);
    util_splitmix64(&s);
    return util_splitmix64(&s);
}

static const char *side_name(int side) { return side == WHITE ? "White" : "Black"; }

/* Printable copy of untrusted engine text for a record (no quotes/braces). */
static void sanitize(const char *in, char *out, size_t size)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < size; p++) {
        unsigned char c = (unsigned char)*p;
        out[k++] = (c < 0x20 || c >= 0x7f || c == '"' || c == '{' || c == '}' || c == '\\') ? '?'
                                                                                         : (char)c;
    }
    out[k] = '\0';
}

static bool uses_move_limit(const Variant *v)
{
    return (v->rule_options & GAME_OPTION_MOVE_LIMIT) != 0;
}

/* A growing array of recorded moves. */
typedef struct MoveList {
    RecordMove *m;
    int n, cap;
} MoveList;

static RecordMove *movelist_push(MoveList *l)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 128;
        RecordMove *m = realloc(l->m, (size_t)cap * sizeof *m);
        if (!m) {
            fprintf(stderr, "sigil-match: out of memory\n");
            exit(1);
        }
        l->m = m;
        l->cap = cap;
    }
    RecordMove *r = &l->m[l->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* A growing string. */
typedef struct Str {
    char *s;
    size_t len, cap;
} Str;

static void str_add(Str *s, const char *text)
{
    size_t n = strlen(text);
    if (s->len + n + 1 > s->cap) {
        size_t cap = (s->len + n + 1) * 2;
        char *p = realloc(s->s, cap);
        if (!p) {
            fprintf(stderr, "sigil-match: out of memory\n");
            exit(1);
        }
        s->s = p;
        s->cap = cap;
    }
    memcpy(s->s + s->len, text, n + 1);
    s->len += n;
}

/* ---- engine processes --------------------------------------------------- */

typedef struct EngineProc {
    Proc proc;
    bool running;
    bool has_variant_option;
    bool has_move_limit_option;
} EngineProc;

/* Why an engine lost a game on its own account. */
typedef enum Fault {
    FAULT_NONE = 0,
    FAULT_START,       /* could not be started or failed the handshake */
    FAULT_CRASH,       /* closed its output / exited */
    FAULT_TIME,        /* answered after its time (+ margin) */
    FAULT_UNRESPONSIVE,/* no bestmove even after stop */
    FAULT_ILLEGAL      /* an illegal or unparsable move */
} Fault;

static bool eng_send(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                     const char *line)
{
    if (cfg->debug)
        fprintf(stderr, "%s(%d) < %s\n", spec->name, (int)ep->proc.pid, line);
    return proc_send(&ep->proc, line);
}

static int eng_read(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep, char *line,
                    size_t size, int64_t deadline)
{
    int r = proc_read_line(&ep->proc, line, size, deadline);
    if (cfg->debug) {
        if (r == PROC_LINE)
            fprintf(stderr, "%s(%d) > %s\n", spec->name, (int)ep->proc.pid, line);
        else if (r == PROC_EOF)
            fprintf(stderr, "%s(%d) > <end of output>\n", spec->name, (int)ep->proc.pid);
    }
    return r;
}

/* Describe how a dead engine ended (after proc_stop has reaped it). */
static void describe_exit(const Proc *p, char *buf, size_t size)
{
    int st = p->exit_status;
    if (st == -1)
        snprintf(buf, size, "closed its output");
    else if (WIFEXITED(st))
        snprintf(buf, size, "exited with status %d", WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        snprintf(buf, size, "killed by signal %d", WTERMSIG(st));
    else
        snprintf(buf, size, "closed its output");
}

static void eng_stop(const MatchConfig *cfg, EngineProc *ep, bool quit_first)
{
    if (ep->proc.pid > 0)
        proc_stop(&ep->proc, quit_first, quit_first ? cfg->kill_grace_ms : 0);
    ep->running = false;
}

/* Read until a line whose first word is `word`; collects options on the way.
 * On failure sets *fault and a reason. */
static bool eng_wait_for(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                         const char *word, Fault *fault, char *why, size_t whylen)
{
    char line[PROC_LINE_MAX];
    int64_t deadline = util_now_ms() + cfg->start_timeout_ms;
    for (;;) {
        int r = eng_read(cfg, spec, ep, line, sizeof line, deadline);
        if (r == PROC_LINE && util_now_ms() > deadline)
            r = PROC_TIMEOUT; /* flooding instead of answering */
        if (r == PROC_EOF) {
            eng_stop(cfg, ep, false);
            char how[64];
            describe_exit(&ep->proc, how, sizeof how);
            snprintf(why, whylen, "%s before %s", how, word);
            *fault = FAULT_CRASH;
            return false;
        }
        if (r == PROC_TIMEOUT) {
            snprintf(why, whylen, "no %s within %.1fs", word, cfg->start_timeout_ms / 1000.0);
            *fault = FAULT_UNRESPONSIVE;
            eng_stop(cfg, ep, false);
            return false;
        }
        const char *c = line;
        char tok[64];
        util_next_token(&c, tok, sizeof tok);
        if (!strcmp(tok, word))
            return true;
        if (!strcmp(tok, "option")) {
            char name[64];
            util_next_token(&c, tok, sizeof tok);
            if (!strcmp(tok, "name")) {
                util_next_token(&c, name, sizeof name);
                if (!strcmp(name, "UCI_Variant"))
                    ep->has_variant_option = true;
                else if (!strcmp(name, "MoveLimit"))
                    ep->has_move_limit_option = true;
            }
        }
    }
}

/* Start the engine if it is not running and do the handshake. */
static bool eng_ensure(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                       Fault *fault, char *why, size_t whylen)
{
    if (ep->running && proc_alive(&ep->proc))
        return true;
    if (ep->proc.pid > 0)
        eng_stop(cfg, ep, false); /* died between games: reap, restart */
    char *argv[MATCH_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)spec->cmd;
    for (int i = 0; i < spec->nargs; i++)
        argv[argc++] = spec->args[i];
    argv[argc] = NULL;
    char err[256];
    memset(ep, 0, sizeof *ep);
    if (!proc_start(&ep->proc, argv, spec->dir[0] ? spec->dir : NULL, cfg->quiet, err,
                    sizeof err)) {
        snprintf(why, whylen, "%s", err);
        *fault = FAULT_START;
        return false;
    }
    ep->running = true;
    char line[512];
    if (!eng_send(cfg, spec, ep, spec->ugi ? "ugi" : "uci") ||
        !eng_wait_for(cfg, spec, ep, spec->ugi ? "ugiok" : "uciok", fault, why, whylen))
        goto fail;
    for (int i = 0; i < spec->noptions; i++) {
        snprintf(line, sizeof line, "setoption name %s value %s", spec->options[i].name,
                 spec->options[i].value);
        eng_send(cfg, spec, ep, line);
    }
    if (ep->has_variant_option)
        snprintf(line, sizeof line, "setoption name UCI_Variant value %s", cfg->variant->name);
    else
        snprintf(line, sizeof line, "variant %s", cfg->variant->name);
    eng_send(cfg, spec, ep, line);
    if (uses_move_limit(cfg->variant) && (ep->has_move_limit_option || cfg->move_limit_given)) {
        snprintf(line, sizeof line, "setoption name MoveLimit value %d",
                 cfg->game_config.move_limit);
        eng_send(cfg, spec, ep, line);
    }
    if (!eng_send(cfg, spec, ep, "isready") ||
        !eng_wait_for(cfg, spec, ep, "readyok", fault, why, whylen))
        goto fail;
    return true;
fail:
    if (*fault == FAULT_NONE)
        *fault = FAULT_CRASH;
    eng_stop(cfg, ep, false);
    return false;
}

static bool eng_new_game(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                         Fault *fault, char *why, size_t whylen)
{
    if (!eng_ensure(cfg, spec, ep, fault, why, whylen))
        return false;
    if (!eng_send(cfg, spec, ep, spec->ugi ? "uginewgame" : "ucinewgame") ||
        !eng_send(cfg, spec, ep, "isready") ||
        !eng_wait_for(cfg, spec, ep, "readyok", fault, why, whylen)) {
        if (*fault == FAULT_NONE)
            *fault = FAULT_CRASH;
        eng_stop(cfg, ep, false);
        return false;
    }
    return true;
}

/* ---- one game ------------------------------------------------------------ */

typedef struct Job {
    int index;      /* 0-based in schedule order */
    int round;      /* 0-based */
    int pairing;    /* index into the pairings */
    int game;       /* 0-based within the pairing and round */
    int white, black;
    int opening;    /* opening number (shared by a colour-reversed pair) */
} Job;

typedef struct Outcome {
    bool aborted;           /* interrupted: not counted */
    Result result;
    bool on_board;          /* decided by the rules, not by the referee */
    int margin;             /* winner's margin when on_board */
    char termination[192];
    MoveList moves;
    char start_fen[FEN_MAX];
    char *pgn;              /* rendered record, or NULL */
} Outcome;

typedef struct Worker {
    int id;
    const MatchConfig *cfg;
    EngineProc *procs; /* [nengines][2] */
    pthread_t thread;
    struct Tournament *t;
} Worker;

/* Latest search report of an engine. */
typedef struct SearchInfo {
    bool has_score, mate;
    int score, depth;
} SearchInfo;

static void parse_info(const char *line, SearchInfo *si)
{
    const char *c = line;
    char tok[64];
    util_next_token(&c, tok, sizeof tok); /* "info" */
    while (util_next_token(&c, tok, sizeof tok)) {
        if (!strcmp(tok, "string"))
            return;
        if (!strcmp(tok, "depth")) {
            util_next_token(&c, tok, sizeof tok);
            si->depth = atoi(tok);
        } else if (!strcmp(tok, "score")) {
            util_next_token(&c, tok, sizeof tok);
            bool mate = !strcmp(tok, "mate");
            if (mate || !strcmp(tok, "cp")) {
                util_next_token(&c, tok, sizeof tok);
                si->has_score = true;
                si->mate = mate;
                si->score = atoi(tok);
            }
        } else if (!strcmp(tok, "pv")) {
            return;
        }
    }
}

/* Keep the text of an "info string error..." line (sanitized). */
static void note_engine_error(const char *line, char *buf, size_t size)
{
    const char *p = strstr(line, "info string error");
    if (p == line)
        sanitize(line + 12, buf, size);
}

/* A score for the adjudication thresholds. */
static int adj_value(const RecordMove *m)
{
    if (m->mate)
        return m->score >= 0 ? MATE_SCORE : -MATE_SCORE;
    return m->score;
}

/* Play random opening plies (rolls included); retried when the game ends. */
static void play_opening(const MatchConfig *cfg, const Job *job, Game *g, MoveList *ml)
{
    const Variant *v = cfg->variant;
    uint64_t rng = mix_seed(cfg->seed, (uint64_t)job->opening, 0x0BE1);
    Game start;
    memset(&start, 0, sizeof start);
    game_copy(&start, g);
    for (int attempt = 0; attempt < 200; attempt++) {
        int plies = cfg->opening_plies - attempt / 50; /* shorten if it keeps ending */
        if (plies <= 0)
            break;
        game_copy(g, &start);
        ml->n = 0;
        bool ok = true;
        for (int i = 0; i < plies && ok; i++) {
            Move moves[MAX_MOVES];
            int n = v->generate(&g->pos, moves);
            if (n <= 0 || game_result(g, NULL, NULL) != RESULT_NONE) {
                ok = false;
                break;
            }
            Move m = moves[util_random_below(&rng, (uint64_t)n)];
            RecordMove *rm = movelist_push(ml);
            rm->side = v->side_to_move(&g->pos);
            rm->is_roll = v->is_chance && v->is_chance(&g->pos);
            rm->book = !rm->is_roll;
            v->move_str(&g->pos, m, rm->text);
            game_play(g, m);
        }
        if (ok && game_result(g, NULL, NULL) == RESULT_NONE) {
            game_free(&start);
            return;
        }
    }
    game_copy(g, &start);
    ml->n = 0;
    game_free(&start);
}

static void position_command(const char *start_fen, bool startpos, const MoveList *ml, Str *out)
{
    out->len = 0;
    if (out->s)
        out->s[0] = '\0';
    if (startpos)
        str_add(out, "position startpos");
    else {
        str_add(out, "position fen ");
        str_add(out, start_fen);
    }
    if (ml->n > 0) {
        str_add(out, " moves");
        for (int i = 0; i < ml->n; i++) {
            str_add(out, " ");
            str_add(out, ml->m[i].text);
        }
    }
}

/* Play one game; the caller owns out->moves.m and out->pgn. */
static void play_game(Worker *w, const Job *job, Outcome *out)
{
    const MatchConfig *cfg = w->cfg;
    const Variant *v = cfg->variant;
    memset(out, 0, sizeof *out);
    Game g;
    game_init(&g, v, &cfg->game_config);
    bool startpos = true;
    if (cfg->nopening_fens > 0) {
        char err[128];
        const char *fen = cfg->opening_fens[job->opening % cfg->nopening_fens];
        if (game_set_fen(&g, fen, err, sizeof err)) /* checked at startup */
            startpos = false;
    }
    v->to_fen(&g.pos, out->start_fen);
    MoveList *ml = &out->moves;
    if (cfg->opening_plies > 0)
        play_opening(cfg, job, &g, ml);

    const EngineSpec *spec[2] = {&cfg->engines[job->white], &cfg->engines[job->black]};
    EngineProc *ep[2] = {&w->procs[job->white * 2], &w->procs[job->black * 2]};
    if (job->white == job->black)
        ep[BLACK] = &w->procs[job->black * 2 + 1];
    uint64_t rng[2] = {mix_seed(cfg->seed, (uint64_t)job->index, 0x7A1),
                       mix_seed(cfg->seed, (uint64_t)job->index, 0x7A2)};
    uint64_t dice = mix_seed(cfg->seed, (uint64_t)job->opening, 0xD1CE);
    int64_t clock[2];
    int moves_done[2] = {0, 0};
    for (int s = 0; s < 2; s++)
        clock[s] = spec[s]->tc.base_ms;

    Fault fault = FAULT_NONE;
    int fault_side = -1;
    char why[256] = "";
    for (int s = 0; s < 2 && fault == FAULT_NONE; s++)
        if (spec[s]->kind == PLAYER_ENGINE &&
            !eng_new_game(cfg, spec[s], ep[s], &fault, why, sizeof why))
            fault_side = s;

    int draw_streak = 0, resign_streak[2] = {0, 0}, win_streak[2] = {0, 0};
    int decisions = 0;
    Str cmd = {0};
    char line[PROC_LINE_MAX];
    Result adjudicated = RESULT_NONE;
    char adj_reason[128] = "";
    char engine_error[96] = ""; /* the last "info string error..." of the game */

    while (fault == FAULT_NONE && adjudicated == RESULT_NONE) {
        if (atomic_load(&interrupted)) {
            out->aborted = true;
            break;
        }
        int margin = 0;
        const char *reason = NULL;
        Result r = game_result(&g, &margin, &reason);
        if (r != RESULT_NONE) {
            out->result = r;
            out->on_board = true;
            out->margin = margin;
            snprintf(out->termination, sizeof out->termination, "%s", reason ? reason : "game over");
            break;
        }
        Move moves[MAX_MOVES];
        int n = v->generate(&g.pos, moves);
        if (n <= 0) { /* the rules library broke its contract: never hang */
            adjudicated = RESULT_DRAW;
            snprintf(adj_reason, sizeof adj_reason, "referee: no legal move but no result");
            break;
        }
        if (cfg->maxmoves > 0 && decisions >= 2 * cfg->maxmoves) {
            adjudicated = RESULT_DRAW;
            snprintf(adj_reason, sizeof adj_reason, "adjudication: max moves (%d)", cfg->maxmoves);
            break;
        }
        if (g.ply >= SAFETY_CAP_PLIES) {
            adjudicated = RESULT_DRAW;
            snprintf(adj_reason, sizeof adj_reason, "adjudication: game too long (%d plies)",
                     SAFETY_CAP_PLIES);
            break;
        }
        int side = v->side_to_move(&g.pos);
        if (v->is_chance && v->is_chance(&g.pos)) {
            Move roll = moves[util_random_below(&dice, (uint64_t)n)];
            RecordMove *rm = movelist_push(ml);
            rm->side = side;
            rm->is_roll = true;
            v->move_str(&g.pos, roll, rm->text);
            game_play(&g, roll);
            continue;
        }

        Move m = MOVE_NONE;
        SearchInfo si = {0};
        int64_t elapsed;
        if (spec[side]->kind != PLAYER_ENGINE) {
            int64_t t0 = util_now_ms();
            int score;
            bool has_score;
            m = players_choose(spec[side]->kind, &g, &rng[side], &score, &has_score);
            elapsed = util_now_ms() - t0;
            si.has_score = has_score;
            si.score = score;
            si.depth = has_score ? 1 : 0;
        } else {
            const EngineSpec *sp = spec[side];
            EngineProc *e = ep[side];
            position_command(out->start_fen, startpos, ml, &cmd);
            char go[256];
            int64_t limit;
            if (sp->st_ms > 0) {
                snprintf(go, sizeof go, "go movetime %lld", (long long)sp->st_ms);
                limit = sp->st_ms;
            } else if (sp->tc.set) {
                const TimeControl *wt = &spec[WHITE]->tc, *bt = &spec[BLACK]->tc;
                long long wtime = clock[WHITE] > 1 ? clock[WHITE] : 1;
                long long btime = clock[BLACK] > 1 ? clock[BLACK] : 1;
                if (sp->ugi)
                    snprintf(go, sizeof go, "go p1time %lld p2time %lld p1inc %lld p2inc %lld",
                             wtime, btime, (long long)wt->inc_ms, (long long)bt->inc_ms);
                else
                    snprintf(go, sizeof go, "go wtime %lld btime %lld winc %lld binc %lld",
                             wtime, btime, (long long)wt->inc_ms, (long long)bt->inc_ms);
                if (sp->tc.moves > 0) {
                    size_t k = strlen(go);
                    snprintf(go + k, sizeof go - k, " movestogo %d",
                             sp->tc.moves - moves_done[side] % sp->tc.moves);
                }
                limit = clock[side] > 0 ? clock[side] : 0;
            } else {
                snprintf(go, sizeof go, "go");
                limit = cfg->hang_timeout_ms;
            }
            if (sp->depth > 0) {
                size_t k = strlen(go);
                snprintf(go + k, sizeof go - k, " depth %d", sp->depth);
            }
            if (sp->nodes > 0) {
                size_t k = strlen(go);
                snprintf(go + k, sizeof go - k, " nodes %lld", sp->nodes);
            }
            int64_t allowed = limit + cfg->timemargin_ms;
            /* Drop anything left over (a second bestmove, late info lines),
             * so that it cannot pass for the answer to this go. */
            for (int k = 0; k < 10000 && eng_read(cfg, sp, e, line, sizeof line, 0) == PROC_LINE;
                 k++)
                note_engine_error(line, engine_error, sizeof engine_error);
            eng_send(cfg, sp, e, cmd.s);
            int64_t t0 = util_now_ms();
            eng_send(cfg, sp, e, go);
            char best[MOVE_STR_MAX * 2] = "";
            bool got = false, stopped = false;
            int64_t deadline = t0 + allowed;
            while (!got) {
                int rr = eng_read(cfg, sp, e, line, sizeof line, deadline);
                if (rr == PROC_EOF) {
                    if (atomic_load(&interrupted))
                        break;
                    eng_stop(cfg, e, false);
                    char how[64];
                    describe_exit(&e->proc, how, sizeof how);
                    fault = FAULT_CRASH;
                    snprintf(why, sizeof why, "%s while thinking", how);
                    break;
                }
                if (rr == PROC_LINE) {
                    const char *c = line;
                    char tok[32];
                    util_next_token(&c, tok, sizeof tok);
                    if (!strcmp(tok, "info")) {
                        parse_info(line, &si);
                        note_engine_error(line, engine_error, sizeof engine_error);
                    } else if (!strcmp(tok, "bestmove")) {
                        util_next_token(&c, best, sizeof best);
                        got = true;
                        break;
                    }
                    if (util_now_ms() < deadline)
                        continue;
                    /* an engine flooding output past its deadline: time is up */
                }
                if (stopped) {
                    fault = FAULT_UNRESPONSIVE;
                    snprintf(why, sizeof why, "no bestmove within %.3fs, nor %.1fs after stop",
                             allowed / 1000.0, STOP_GRACE_MS / 1000.0);
                    break;
                }
                eng_send(cfg, sp, e, "stop");
                stopped = true;
                deadline = util_now_ms() + STOP_GRACE_MS;
            }
            elapsed = util_now_ms() - t0;
            if (atomic_load(&interrupted)) {
                out->aborted = true;
                break;
            }
            if (fault == FAULT_NONE && (stopped || elapsed > allowed)) {
                fault = FAULT_TIME;
                snprintf(why, sizeof why, "took %.3fs of %.3fs allowed (margin included)",
                         elapsed / 1000.0, allowed / 1000.0);
            }
            if (fault == FAULT_NONE) {
                m = best[0] ? v->parse_move(&g.pos, best) : MOVE_NONE;
                if (m == MOVE_NONE) {
                    char safe[48];
                    sanitize(best, safe, sizeof safe);
                    fault = FAULT_ILLEGAL;
                    if (best[0])
                        snprintf(why, sizeof why, "played '%s'", safe);
                    else
                        snprintf(why, sizeof why, "sent bestmove without a move");
                }
            }
            if (fault != FAULT_NONE) {
                fault_side = side;
                break;
            }
            if (sp->tc.set && sp->st_ms <= 0) {
                clock[side] += sp->tc.inc_ms - elapsed;
                moves_done[side]++;
                if (sp->tc.moves > 0 && moves_done[side] % sp->tc.moves == 0)
                    clock[side] += sp->tc.base_ms;
            }
        }

        RecordMove *rm = movelist_push(ml);
        rm->side = side;
        rm->has_time = true;
        rm->time_ms = elapsed;
        rm->has_score = si.has_score;
        rm->mate = si.mate;
        rm->score = si.score;
        rm->depth = si.depth;
        v->move_str(&g.pos, m, rm->text);
        game_play(&g, m);
        decisions++;

        /* Adjudication on the scores the players report (own view). */
        if (cfg->draw_adj) {
            bool small = rm->has_score && abs(adj_value(rm)) <= cfg->draw_score;
            draw_streak = small ? draw_streak + 1 : 0;
            if ((decisions + 1) / 2 >= cfg->draw_movenumber &&
                draw_streak >= 2 * cfg->draw_movecount) {
                adjudicated = RESULT_DRAW;
                snprintf(adj_reason, sizeof adj_reason, "adjudication: draw by score");
            }
        }
        if (cfg->resign_adj && adjudicated == RESULT_NONE) {
            bool losing = rm->has_score && adj_value(rm) <= -cfg->resign_score;
            bool winning = rm->has_score && adj_value(rm) >= cfg->resign_score;
            resign_streak[side] = losing ? resign_streak[side] + 1 : 0;
            win_streak[side] = winning ? win_streak[side] + 1 : 0;
            if (resign_streak[side] >= cfg->resign_movecount &&
                (!cfg->resign_twosided || win_streak[!side] >= cfg->resign_movecount)) {
                adjudicated = side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
                snprintf(adj_reason, sizeof adj_reason, "adjudication: %s resigns",
                         side_name(side));
            }
        }
    }
    free(cmd.s);
    if (atomic_load(&interrupted))
        out->aborted = true; /* engines were killed under us: not a real result */

    if (!out->aborted) {
        if (fault != FAULT_NONE) {
            static const char *kind[] = {"", "start failure", "crash", "time forfeit",
                                         "unresponsive", "illegal move"};
            out->result = fault_side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
            snprintf(out->termination, sizeof out->termination, "%s: %s (%.40s) %.120s",
                     kind[fault], side_name(fault_side), spec[fault_side]->name, why);
            if (engine_error[0] && fault == FAULT_ILLEGAL) {
                size_t k = strlen(out->termination);
                snprintf(out->termination + k, sizeof out->termination - k, " [engine: %.60s]",
                         engine_error);
            }
        } else if (adjudicated != RESULT_NONE) {
            out->result = adjudicated;
            snprintf(out->termination, sizeof out->termination, "%s", adj_reason);
        }
    }
    /* A misbehaving engine is killed and restarted for its next game. */
    if (fault != FAULT_NONE && fault_side >= 0 && spec[fault_side]->kind == PLAYER_ENGINE)
        eng_stop(cfg, ep[fault_side], true);
    game_free(&g);
}

/* ---- the tournament ----------------------------------------------------- */

typedef struct Slot {
    bool done;
    double score_a;     /* points of the pairing's first engine */
    int margin_a;       /* signed margin from the first engine's view (board endings) */
    bool on_board;
    bool a_white;
    Result result;
    char *pgn;
} Slot;

typedef struct Pairing {
    int a, b;
    StatsWdl wdl;       /* a's view */
    int penta[5];
    int white_wins, black_wins, draws;
} Pairing;

typedef struct EngineTotals {
    int games, wins, draws, losses;
} EngineTotals;

typedef struct Termination {
    char text[64];
    int count;
} Termination;

typedef struct Tournament {
    MatchConfig *cfg;
    pthread_mutex_t lock;
    Job *jobs;
    Slot *slots;
    int njobs, next_job, finished, next_to_write;
    Pairing *pairings;
    int npairings;
    EngineTotals *totals;
    Termination terms[32];
    int nterms;
    bool stop;          /* SPRT decided: take no new games */
    StatsSprtVerdict verdict;
    double llr;
    int64_t start_ms;
    FILE *pgn;
} Tournament;

static void count_termination(Tournament *t, const char *term)
{
    char key[64];
    /* Forfeits are grouped by kind ("crash", "illegal move" ...). */
    const char *colon = strchr(term, ':');
    size_t n = colon ? (size_t)(colon - term) : strlen(term);
    if (n >= sizeof key)
        n = sizeof key - 1;
    memcpy(key, term, n);
    key[n] = '\0';
    if (!strncmp(term, "adjudication", 12))
        snprintf(key, sizeof key, "%.*s", (int)(sizeof key - 1), term);
    for (int i = 0; i < t->nterms; i++)
        if (!strcmp(t->terms[i].text, key)) {
            t->terms[i].count++;
            return;
        }
    if (t->nterms < 32) {
        snprintf(t->terms[t->nterms].text, sizeof t->terms[0].text, "%s", key);
        t->terms[t->nterms++].count = 1;
    }
}

static void format_duration(int64_t ms, char *buf, size_t size)
{
    int64_t s = ms / 1000;
    snprintf(buf, size, "%d:%02d:%02d", (int)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
}

static void render_pgn(const Tournament *t, const Job *job, Outcome *o)
{
    const MatchConfig *cfg = t->cfg;
    Record r;
    memset(&r, 0, sizeof r);
    snprintf(r.event, sizeof r.event, "%s", cfg->event);
    char host[64] = "?";
    if (gethostname(host, sizeof host) != 0)
        snprintf(host, sizeof host, "?");
    host[sizeof host - 1] = '\0';
    snprintf(r.site, sizeof r.site, "%s", host);
    time_t now = time(NULL);
    struct tm tmv;
    localtime_r(&now, &tmv);
    strftime(r.date, sizeof r.date, "%Y.%m.%d", &tmv);
    snprintf(r.round, sizeof r.round, "%d.%d", job->round + 1, job->index + 1);
    snprintf(r.white, sizeof r.white, "%s", cfg->engines[job->white].name);
    snprintf(r.black, sizeof r.black, "%s", cfg->engines[job->black].name);
    snprintf(r.variant, sizeof r.variant, "%s", cfg->variant->name);
    snprintf(r.fen, sizeof r.fen, "%s", o->start_fen);
    r.move_limit = uses_move_limit(cfg->variant) ? cfg->game_config.move_limit : 0;
    snprintf(r.result, sizeof r.result, "%s", record_result_token(o->result));
    snprintf(r.termination, sizeof r.termination, "%s", o->termination);
    MatchScoring sc = cfg->variant->match_scoring;
    r.has_margin = o->on_board && (sc == MATCH_SCORING_MARGIN_SUM || sc == MATCH_SCORING_COUNTING);
    r.margin = o->margin;
    r.nmoves = o->moves.n;
    r.moves = o->moves.m;
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    if (!f)
        return;
    record_write(f, &r);
    fclose(f);
    o->pgn = buf;
}

/* Book one finished game (under the lock). */
static void book_game(Tournament *t, const Job *job, Outcome *o)
{
    MatchConfig *cfg = t->cfg;
    Pairing *p = &t->pairings[job->pairing];
    Slot *s = &t->slots[job->index];
    s->done = true;
    s->result = o->result;
    s->a_white = job->white == p->a;
    s->on_board = o->on_board;
    s->pgn = o->pgn;
    int a_side = s->a_white ? WHITE : BLACK;
    bool white_won = o->result == RESULT_WHITE_WINS, black_won = o->result == RESULT_BLACK_WINS;
    bool a_won = (white_won && a_side == WHITE) || (black_won && a_side == BLACK);
    bool b_won = (white_won || black_won) && !a_won;
    s->score_a = a_won ? 1.0 : b_won ? 0.0 : 0.5;
    s->margin_a = o->on_board ? (a_won ? o->margin : b_won ? -o->margin : 0) : 0;
    p->wdl.wins += a_won;
    p->wdl.losses += b_won;
    p->wdl.draws += !a_won && !b_won;
    p->white_wins += white_won;
    p->black_wins += black_won;
    p->draws += !white_won && !black_won;
    EngineTotals *ta = &t->totals[p->a], *tb = &t->totals[p->b];
    ta->games++, tb->games++;
    ta->wins += a_won, ta->losses += b_won, ta->draws += !a_won && !b_won;
    tb->wins += b_won, tb->losses += a_won, tb->draws += !a_won && !b_won;
    count_termination(t, o->termination);

    /* A colour-reversed pair is complete when both its games are done. */
    if (cfg->repeat) {
        int partner = job->game % 2 == 0 ? job->index + 1 : job->index - 1;
        bool paired = job->game % 2 == 0 ? job->game + 1 < cfg->games : true;
        if (paired && partner >= 0 && partner < t->njobs && t->slots[partner].done) {
            double pts = s->score_a + t->slots[partner].score_a;
            p->penta[(int)llround(pts * 2)]++;
        }
    }
    t->finished++;

    if (cfg->sprt && job->pairing == 0 && !t->stop) {
        int pairs = p->penta[0] + p->penta[1] + p->penta[2] + p->penta[3] + p->penta[4];
        t->llr = pairs > 0 ? stats_sprt_llr(p->penta, cfg->sprt_elo0, cfg->sprt_elo1,
                                            cfg->sprt_model)
                           : stats_sprt_llr_wdl(p->wdl.wins, p->wdl.draws, p->wdl.losses,
                                                cfg->sprt_elo0, cfg->sprt_elo1, cfg->sprt_model);
        t->verdict = stats_sprt_verdict(t->llr, cfg->sprt_alpha, cfg->sprt_beta);
        if (t->verdict != STATS_SPRT_CONTINUE)
            t->stop = true;
    }

    if (!cfg->quiet) {
        StatsElo e = stats_elo_wdl(p->wdl.wins, p->wdl.draws, p->wdl.losses);
        char elo[64], eta[32];
        stats_format_elo(&e, elo, sizeof elo);
        int64_t spent = util_now_ms() - t->start_ms;
        int left = t->njobs - t->finished;
        format_duration(t->finished > 0 ? spent * left / t->finished : 0, eta, sizeof eta);
        printf("[%d/%d] game %d %s vs %s: %s (%s) | %s vs %s %d-%d-%d (W-L-D) Elo %s",
               t->finished, t->njobs, job->index + 1, cfg->engines[job->white].name,
               cfg->engines[job->black].name, record_result_token(o->result), o->termination,
               cfg->engines[p->a].name, cfg->engines[p->b].name, p->wdl.wins, p->wdl.losses,
               p->wdl.draws, elo);
        if (cfg->sprt && job->pairing == 0)
            printf(" LLR %.2f", t->llr);
        printf(" | ETA %s\n", eta);
        fflush(stdout);
    }

    /* Records go out in game order whatever order the games finish in. */
    while (t->next_to_write < t->njobs && t->slots[t->next_to_write].done) {
        Slot *w = &t->slots[t->next_to_write++];
        if (t->pgn && w->pgn) {
            fputs(w->pgn, t->pgn);
            fflush(t->pgn);
        }
        free(w->pgn);
        w->pgn = NULL;
    }
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    Tournament *t = w->t;
    for (;;) {
        pthread_mutex_lock(&t->lock);
        if (t->stop || atomic_load(&interrupted) || t->next_job >= t->njobs) {
            pthread_mutex_unlock(&t->lock);
            break;
        }
        Job job = t->jobs[t->next_job++];
        pthread_mutex_unlock(&t->lock);
        Outcome o;
        play_game(w, &job, &o);
        if (o.aborted) {
            free(o.moves.m);
            break;
        }
        if (t->pgn)
            render_pgn(t, &job, &o);
        free(o.moves.m);
        pthread_mutex_lock(&t->lock);
        book_game(t, &job, &o);
        pthread_mutex_unlock(&t->lock);
    }
    for (int i = 0; i < 2 * w->cfg->nengines; i++)
        eng_stop(w->cfg, &w->procs[i], !atomic_load(&interrupted));
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

/* ---- the summary ---------------------------------------------------------- */

static void print_match_scoring(const Tournament *t)
{
    const MatchConfig *cfg = t->cfg;
    MatchScoring sc = cfg->variant->match_scoring;
    if (sc == MATCH_SCORING_GAMES)
        return;
    int size = cfg->variant->match_games > 1 ? cfg->variant->match_games : 1;
    if (sc == MATCH_SCORING_COUNTING)
        printf("\nMatch scoring (%s: sum of counting margins of games decided on the board):\n",
               cfg->variant->name);
    else
        printf("\nMatch scoring (%s: matches of %d games, %s):\n", cfg->variant->name, size,
               sc == MATCH_SCORING_BEST_OF ? "won by majority" : "sum of margins");
    for (int pi = 0; pi < t->npairings; pi++) {
        const Pairing *p = &t->pairings[pi];
        const char *an = cfg->engines[p->a].name, *bn = cfg->engines[p->b].name;
        /* The pairing's games in schedule order (round by round). */
        int ng = 0;
        const Slot **games = malloc((size_t)t->njobs * sizeof *games);
        if (!games)
            return;
        for (int j = 0; j < t->njobs; j++)
            if (t->jobs[j].pairing == pi && t->slots[j].done)
                games[ng++] = &t->slots[j];
        if (sc == MATCH_SCORING_COUNTING) {
            long won_a = 0, won_b = 0;
            for (int i = 0; i < ng; i++) {
                if (games[i]->margin_a > 0)
                    won_a += games[i]->margin_a;
                else
                    won_b -= games[i]->margin_a;
            }
            printf("  %s vs %s: margins won %s %ld, %s %ld; net %s %+ld\n", an, bn, an, won_a, bn,
                   won_b, an, won_a - won_b);
        } else {
            int ma = 0, mb = 0, md = 0, incomplete = ng % size;
            long sum_a = 0;
            for (int start = 0; start + size <= ng; start += size) {
                if (sc == MATCH_SCORING_BEST_OF) {
                    /* Whoever first wins a majority of the games; else more
                     * points; else drawn. */
                    int wa = 0, wb = 0, winner = 0, majority = size / 2 + 1;
                    double pa = 0;
                    for (int i = start; i < start + size; i++) {
                        wa += games[i]->score_a == 1.0;
                        wb += games[i]->score_a == 0.0;
                        pa += games[i]->score_a;
                        if (!winner && wa == majority)
                            winner = 1;
                        if (!winner && wb == majority)
                            winner = 2;
                    }
                    if (!winner)
                        winner = 2 * pa > size ? 1 : 2 * pa < size ? 2 : 0;
                    ma += winner == 1, mb += winner == 2, md += winner == 0;
                } else {
                    long s = 0;
                    for (int i = start; i < start + size; i++)
                        s += games[i]->margin_a;
                    sum_a += s;
                    ma += s > 0, mb += s < 0, md += s == 0;
                }
            }
            printf("  %s vs %s: matches won %s %d, %s %d, drawn %d", an, bn, an, ma, bn, mb, md);
            if (sc == MATCH_SCORING_MARGIN_SUM) {
                long all = 0;
                for (int i = 0; i < ng; i++)
                    all += games[i]->margin_a;
                printf("; margin sum %s %+ld (all games %+ld)", an, sum_a, all);
            }
            if (incomplete)
                printf(" (%d game%s of an unfinished match not counted)", incomplete,
                       incomplete > 1 ? "s" : "");
            printf("\n");
        }
        free(games);
    }
}

static void print_summary(const Tournament *t)
{
    const MatchConfig *cfg = t->cfg;
    printf("\nResults (variant %s, %d of %d games, seed %llu):\n", cfg->variant->name, t->finished,
           t->njobs, (unsigned long long)cfg->seed);
    printf("%-4s %-24s %6s %8s %5s %5s %5s %7s  %s\n", "Rank", "Name", "Games", "Points", "W",
           "L", "D", "Score", "Elo (95%)");
    int n = cfg->nengines;
    int *order = malloc((size_t)n * sizeof *order);
    if (!order)
        return;
    for (int i = 0; i < n; i++)
        order[i] = i;
    for (int i = 1; i < n; i++) /* by points, stable */
        for (int j = i; j > 0; j--) {
            const EngineTotals *x = &t->totals[order[j]], *y = &t->totals[order[j - 1]];
            if (x->wins * 2 + x->draws > y->wins * 2 + y->draws) {
                int tmp = order[j];
                order[j] = order[j - 1];
                order[j - 1] = tmp;
            } else
                break;
        }
    for (int r = 0; r < n; r++) {
        const EngineTotals *e = &t->totals[order[r]];
        StatsElo el = stats_elo_wdl(e->wins, e->draws, e->losses);
        char elo[64];
        stats_format_elo(&el, elo, sizeof elo);
        printf("%-4d %-24s %6d %8.1f %5d %5d %5d %6.1f%%  %s\n", r + 1, cfg->engines[order[r]].name,
               e->games, e->wins + 0.5 * e->draws, e->wins, e->losses, e->draws,
               e->games ? 100.0 * (e->wins + 0.5 * e->draws) / e->games : 0.0, elo);
    }
    free(order);

    printf("\nPairings:\n");
    for (int pi = 0; pi < t->npairings; pi++) {
        const Pairing *p = &t->pairings[pi];
        StatsElo e = stats_elo_wdl(p->wdl.wins, p->wdl.draws, p->wdl.losses);
        char elo[64];
        stats_format_elo(&e, elo, sizeof elo);
        printf("  %s vs %s: %d-%d-%d (W-L-D) score %.1f%% Elo %s LOS %.1f%%\n",
               cfg->engines[p->a].name, cfg->engines[p->b].name, p->wdl.wins, p->wdl.losses,
               p->wdl.draws, 100.0 * e.score, elo, 100.0 * stats_los(p->wdl.wins, p->wdl.losses));
        int pairs = p->penta[0] + p->penta[1] + p->penta[2] + p->penta[3] + p->penta[4];
        if (pairs > 0) {
            StatsElo pe = stats_elo_penta(p->penta);
            stats_format_elo(&pe, elo, sizeof elo);
            printf("    pentanomial [LL LD WL+DD WD WW] = [%d %d %d %d %d]: Elo %s\n", p->penta[0],
                   p->penta[1], p->penta[2], p->penta[3], p->penta[4], elo);
        }
        printf("    by colour: White won %d, Black won %d, drawn %d\n", p->white_wins,
               p->black_wins, p->draws);
    }
    print_match_scoring(t);

    printf("\nTerminations:");
    for (int i = 0; i < t->nterms; i++)
        printf("%s %s %d", i ? "," : "", t->terms[i].text, t->terms[i].count);
    printf("\n");

    if (cfg->sprt) {
        printf("\nSPRT (%s elo0 %.2f elo1 %.2f alpha %.3f beta %.3f): LLR %.3f bounds (%.3f, %.3f): %s\n",
               cfg->sprt_model == STATS_SPRT_NORMALIZED ? "normalized" : "logistic",
               cfg->sprt_elo0, cfg->sprt_elo1, cfg->sprt_alpha, cfg->sprt_beta, t->llr,
               stats_sprt_lower(cfg->sprt_alpha, cfg->sprt_beta),
               stats_sprt_upper(cfg->sprt_alpha, cfg->sprt_beta),
               t->verdict == STATS_SPRT_H1   ? "H1 accepted"
               : t->verdict == STATS_SPRT_H0 ? "H0 accepted"
                                             : "continue (no decision)");
    }
    char dur[32];
    format_duration(util_now_ms() - t->start_ms, dur, sizeof dur);
    printf("Finished %d games in %s\n", t->finished, dur);
    fflush(stdout);
}

/* ---- run ------------------------------------------------------------------ */

int match_run(MatchConfig *cfg)
{
    Tournament t;
    memset(&t, 0, sizeof t);
    t.cfg = cfg;
    pthread_mutex_init(&t.lock, NULL);
    proc_global_init();

    /* Pairings: round-robin (every pair) or gauntlet (the first against all). */
    int n = cfg->nengines;
    t.pairings = calloc((size_t)(n * n + 1), sizeof *t.pairings);
    t.totals = calloc((size_t)n, sizeof *t.totals);
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (!cfg->gauntlet || i == 0) {
                t.pairings[t.npairings].a = i;
                t.pairings[t.npairings++].b = j;
            }
    if (cfg->repeat && cfg->games < 2)
        cfg->repeat = false;
    t.njobs = cfg->rounds * t.npairings * cfg->games;
    t.jobs = calloc((size_t)t.njobs + 1, sizeof *t.jobs);
    t.slots = calloc((size_t)t.njobs + 1, sizeof *t.slots);
    int opening = -1, k = 0;
    for (int r = 0; r < cfg->rounds; r++)
        for (int p = 0; p < t.npairings; p++)
            for (int g = 0; g < cfg->games; g++) {
                Job *j = &t.jobs[k];
                j->index = k++;
                j->round = r;
                j->pairing = p;
                j->game = g;
                bool a_white = g % 2 == 0;
                j->white = a_white ? t.pairings[p].a : t.pairings[p].b;
                j->black = a_white ? t.pairings[p].b : t.pairings[p].a;
                if (!cfg->repeat || g % 2 == 0)
                    opening++;
                j->opening = opening;
            }

    if (cfg->pgnout[0]) {
        t.pgn = fopen(cfg->pgnout, "a");
        if (!t.pgn) {
            fprintf(stderr, "sigil-match: cannot open %s for writing\n", cfg->pgnout);
            return 2;
        }
    }

    /* Signals go to one thread, which kills every engine; workers then see
     * their engines' output end, notice the interruption and stop. */
    static sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    pthread_t sig_thread;
    pthread_create(&sig_thread, NULL, signal_main, &set);
    pthread_detach(sig_thread);

    printf("sigil-match: %s, %d engine%s, %d games, concurrency %d, seed %llu\n",
           cfg->variant->name, n, n == 1 ? "" : "s", t.njobs, cfg->concurrency,
           (unsigned long long)cfg->seed);
    fflush(stdout);
    t.start_ms = util_now_ms();
    int nw = cfg->concurrency < 1 ? 1 : cfg->concurrency;
    if (nw > t.njobs && t.njobs > 0)
        nw = t.njobs;
    Worker *workers = calloc((size_t)nw, sizeof *workers);
    for (int i = 0; i < nw; i++) {
        workers[i].id = i;
        workers[i].cfg = cfg;
        workers[i].t = &t;
        workers[i].procs = calloc((size_t)(2 * n), sizeof(EngineProc));
        pthread_create(&workers[i].thread, NULL, worker_main, &workers[i]);
    }
    for (int i = 0; i < nw; i++) {
        pthread_join(workers[i].thread, NULL);
        free(workers[i].procs);
    }
    free(workers);

    print_summary(&t);
    if (t.pgn) {
        /* After an interruption or an SPRT stop, games finished after a hole
         * in the order are still written. */
        for (int i = t.next_to_write; i < t.njobs; i++)
            if (t.slots[i].done && t.slots[i].pgn)
                fputs(t.slots[i].pgn, t.pgn);
        fclose(t.pgn);
    }
    for (int i = 0; i < t.njobs; i++)
        free(t.slots[i].pgn);
    free(t.jobs);
    free(t.slots);
    free(t.pairings);
    free(t.totals);
    int sig = atomic_load(&interrupted);
    return sig ? 128 + sig : 0;
}
