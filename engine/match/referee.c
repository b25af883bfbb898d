/* referee.c - one game, refereed (see referee.h). */
#include "referee.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "openings.h"
#include "util.h"

/* Games longer than this many plies are drawn when no -maxmoves is given. */
#define SAFETY_CAP_PLIES 20000
/* A mate score, for comparing with adjudication thresholds. */
#define MATE_SCORE 1000000
/* After the limit has passed: how long a `stop` may take to bring bestmove,
 * besides the time margin (a loaded machine is slow at both). */
#define STOP_GRACE_MS 500

static const char *side_name(int side) { return side == WHITE ? "White" : "Black"; }

/* Everything one game needs while it is played. */
typedef struct Referee {
    const MatchConfig *cfg;
    const Variant *v;
    const Job *job;
    Outcome *out;
    Game g;
    bool startpos;
    const EngineSpec *spec[2];
    EngineProc *ep[2];
    uint64_t rng[2];        /* the built-in players' */
    uint64_t dice;
    int64_t clock[2];
    int moves_done[2];
    int decisions;          /* moves made by the players (not book, not rolls) */
    int draw_streak, resign_streak[2], win_streak[2];
    char why[256];          /* a fault's reason */
    EngineInterrupted interrupted;
} Referee;

static bool stopping(const Referee *r) { return r->interrupted && r->interrupted(); }

/* ---- the ending in words -------------------------------------------------- */

static void end_on_board(Referee *r, Result res, int margin, const char *reason)
{
    Outcome *o = r->out;
    o->result = res;
    o->on_board = true;
    o->margin = margin;
    o->termination = TERM_NORMAL;
    const char *words = reason && *reason ? reason : "game over";
    snprintf(o->category, sizeof o->category, "%s", words);
    snprintf(o->reason, sizeof o->reason, "%s", words);
    snprintf(o->detail, sizeof o->detail, "%s", words);
}

static void end_by_adjudication(Referee *r, Result res, const char *category, const char *detail)
{
    Outcome *o = r->out;
    o->result = res;
    o->termination = TERM_ADJUDICATION;
    snprintf(o->category, sizeof o->category, "%s", category);
    snprintf(o->detail, sizeof o->detail, "%s", detail);
    if (res == RESULT_DRAW)
        snprintf(o->reason, sizeof o->reason, "Draw by adjudication");
    else
        snprintf(o->reason, sizeof o->reason, "%s wins by adjudication",
                 side_name(res == RESULT_WHITE_WINS ? WHITE : BLACK));
}

/* A player lost on its own account: words as cutechess says them for the
 * game line, PGN's termination, the whole story for the record. */
static void end_by_fault(Referee *r, Fault fault, int side)
{
    Outcome *o = r->out;
    const char *s = side_name(side);
    o->fault = fault;
    o->fault_side = side;
    o->result = side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    static const char *category[] = {"", "start failure", "crash", "time forfeit",
                                     "unresponsive", "illegal move"};
    snprintf(o->category, sizeof o->category, "%s", category[fault]);
    switch (fault) {
    case FAULT_TIME:
        o->termination = TERM_TIME_FORFEIT;
        snprintf(o->reason, sizeof o->reason, "%s loses on time", s);
        break;
    case FAULT_ILLEGAL:
        o->termination = TERM_RULES_INFRACTION;
        snprintf(o->reason, sizeof o->reason, "%s makes an illegal move", s);
        break;
    case FAULT_UNRESPONSIVE:
        o->termination = TERM_ABANDONED;
        snprintf(o->reason, sizeof o->reason, "%s's connection stalls", s);
        break;
    default:
        o->termination = TERM_ABANDONED;
        snprintf(o->reason, sizeof o->reason, "%s disconnects", s);
        break;
    }
    snprintf(o->detail, sizeof o->detail, "%s: %s (%.40s) %.150s", category[fault], s,
             r->spec[side]->name, r->why);
}

/* ---- setting up -------------------------------------------------------------- */

static void setup(Referee *r)
{
    const MatchConfig *cfg = r->cfg;
    const Job *job = r->job;
    game_init(&r->g, r->v, &cfg->game_config);
    openings_setup(&cfg->openings, job->opening, cfg->seed, &r->g, r->out->start_fen,
                   &r->startpos, &r->out->moves);
    r->spec[WHITE] = &cfg->engines[job->white];
    r->spec[BLACK] = &cfg->engines[job->black];
    r->rng[WHITE] = openings_mix_seed(cfg->seed, (uint64_t)job->index, 0x7A1);
    r->rng[BLACK] = openings_mix_seed(cfg->seed, (uint64_t)job->index, 0x7A2);
    r->dice = openings_mix_seed(cfg->seed, (uint64_t)job->opening, 0xD1CE);
    for (int s = 0; s < 2; s++)
        r->clock[s] = r->spec[s]->tc.base_ms;
}

/* Every engine of the game gets `ucinewgame`; false when one fails (the
 * game is then lost by it). */
static bool start_engines(Referee *r, Seats *seats)
{
    const Job *job = r->job;
    r->ep[WHITE] = &seats->procs[job->white * 2];
    r->ep[BLACK] = &seats->procs[job->black * 2 + (job->white == job->black)];
    for (int s = 0; s < 2; s++) {
        Fault fault = FAULT_NONE;
        if (r->spec[s]->kind == PLAYER_ENGINE &&
            !engine_new_game(r->cfg, r->spec[s], r->ep[s], &fault, r->why, sizeof r->why)) {
            end_by_fault(r, fault, s);
            return false;
        }
    }
    return true;
}

/* ---- one ply --------------------------------------------------------------- */

/* The rules' verdict, the length caps; true when the game is over. */
static bool game_is_over(Referee *r)
{
    int margin = 0;
    const char *reason = NULL;
    Result res = game_result(&r->g, &margin, &reason);
    if (res != RESULT_NONE) {
        end_on_board(r, res, margin, reason);
        return true;
    }
    Move moves[MAX_MOVES];
    if (r->v->generate(&r->g.pos, moves) <= 0) { /* the rules library broke its contract */
        end_by_adjudication(r, RESULT_DRAW, "referee: no legal move",
                            "referee: no legal move but no result");
        return true;
    }
    if (r->cfg->adj.maxmoves > 0 && r->decisions >= 2 * r->cfg->adj.maxmoves) {
        char d[64];
        snprintf(d, sizeof d, "adjudication: max moves (%d)", r->cfg->adj.maxmoves);
        end_by_adjudication(r, RESULT_DRAW, "adjudication: max moves", d);
        return true;
    }
    if (r->g.ply >= SAFETY_CAP_PLIES) {
        char d[64];
        snprintf(d, sizeof d, "adjudication: game too long (%d plies)", SAFETY_CAP_PLIES);
        end_by_adjudication(r, RESULT_DRAW, "adjudication: game too long", d);
        return true;
    }
    return false;
}

static void roll_dice(Referee *r, int side)
{
    Move moves[MAX_MOVES];
    int n = r->v->generate(&r->g.pos, moves);
    Move roll = moves[util_random_below(&r->dice, (uint64_t)n)];
    RecordMove *rm = record_push(&r->out->moves);
    rm->side = side;
    rm->is_roll = true;
    r->v->move_str(&r->g.pos, roll, rm->text);
    game_play(&r->g, roll);
}

static void append(char *buf, size_t size, const char *fmt, long long value)
{
    size_t k = strlen(buf);
    snprintf(buf + k, size - k, fmt, value);
}

/* The `go` line for the side to move and the time it may take. */
static int64_t go_command(const Referee *r, int side, char *go, size_t size)
{
    const EngineSpec *sp = r->spec[side];
    int64_t limit;
    if (sp->st_ms > 0) {
        snprintf(go, size, "go movetime %lld", (long long)sp->st_ms);
        limit = sp->st_ms;
    } else if (sp->tc.set) {
        long long wtime = r->clock[WHITE] > 1 ? r->clock[WHITE] : 1;
        long long btime = r->clock[BLACK] > 1 ? r->clock[BLACK] : 1;
        long long winc = r->spec[WHITE]->tc.inc_ms, binc = r->spec[BLACK]->tc.inc_ms;
        snprintf(go, size, sp->ugi ? "go p1time %lld p2time %lld p1inc %lld p2inc %lld"
                                   : "go wtime %lld btime %lld winc %lld binc %lld",
                 wtime, btime, winc, binc);
        if (sp->tc.moves > 0)
            append(go, size, " movestogo %lld", sp->tc.moves - r->moves_done[side] % sp->tc.moves);
        limit = r->clock[side] > 0 ? r->clock[side] : 0;
    } else {
        snprintf(go, size, "go");
        limit = r->cfg->limits.hang_timeout_ms;
    }
    if (sp->depth > 0)
        append(go, size, " depth %lld", sp->depth);
    if (sp->nodes > 0)
        append(go, size, " nodes %lld", sp->nodes);
    return limit;
}

/* `position startpos|fen F [moves ...]` with every move and roll so far. */
static char *position_command(const Referee *r)
{
    const RecordMoveList *ml = &r->out->moves;
    size_t size = strlen(r->out->start_fen) + 32;
    for (int i = 0; i < ml->n; i++)
        size += strlen(ml->m[i].text) + 1;
    char *cmd = malloc(size);
    if (!cmd) {
        fprintf(stderr, "sigil-match: out of memory\n");
        exit(1);
    }
    if (r->startpos)
        snprintf(cmd, size, "position startpos");
    else
        snprintf(cmd, size, "position fen %s", r->out->start_fen);
    size_t len = strlen(cmd);
    if (ml->n > 0) {
        memcpy(cmd + len, " moves", 7);
        len += 6;
    }
    for (int i = 0; i < ml->n; i++) {
        cmd[len++] = ' ';
        size_t n = strlen(ml->m[i].text);
        memcpy(cmd + len, ml->m[i].text, n + 1);
        len += n;
    }
    return cmd;
}

/* The first time an engine loses on time, say which knob gives more room. */
static void warn_time_forfeit(Referee *r, int side, const EngineSearch *s)
{
    int64_t margin = match_timemargin(r->cfg, r->spec[side]);
    snprintf(r->why, sizeof r->why,
             "took %.3fs of %.3fs allowed (limit %.3fs + timemargin %.3fs; raise -timemargin or "
             "timemargin= on a loaded machine)",
             s->elapsed_ms / 1000.0, s->allowed_ms / 1000.0, (s->allowed_ms - margin) / 1000.0,
             margin / 1000.0);
    fprintf(stderr,
            "Warning: %s loses on time in game %d: %.3fs used, %.3fs allowed including a "
            "-timemargin of %lld ms; if the machine is loaded, raise -timemargin (or the "
            "engine's timemargin=)\n",
            r->spec[side]->name, r->job->index + 1, s->elapsed_ms / 1000.0, s->allowed_ms / 1000.0,
            (long long)margin);
}

/* Ask an engine for its move; MOVE_NONE with r->out set on a fault (or on
 * an interruption). */
static Move ask_engine(Referee *r, int side, RecordMove *rm)
{
    const EngineSpec *sp = r->spec[side];
    char go[256];
    EngineSearch s;
    memset(&s, 0, sizeof s);
    int64_t limit = go_command(r, side, go, sizeof go);
    char *position = position_command(r);
    s.position = position;
    s.go = go;
    s.allowed_ms = limit + match_timemargin(r->cfg, sp);
    s.grace_ms = STOP_GRACE_MS + match_timemargin(r->cfg, sp);
    Fault fault = engine_search(r->cfg, sp, r->ep[side], &s, r->interrupted, r->why, sizeof r->why);
    free(position);
    if (stopping(r))
        return MOVE_NONE;
    Move m = MOVE_NONE;
    if (fault == FAULT_TIME)
        warn_time_forfeit(r, side, &s);
    if (fault == FAULT_NONE) {
        m = s.bestmove[0] != ' ' ? r->v->parse_move(&r->g.pos, s.bestmove) : MOVE_NONE;
        if (m == MOVE_NONE) {
            fault = FAULT_ILLEGAL;
            char safe[48];
            engine_sanitize(s.bestmove, safe, sizeof safe);
            if (s.bestmove[0] != ' ')
                snprintf(r->why, sizeof r->why, "played '%s'", safe);
            else
                snprintf(r->why, sizeof r->why, "sent bestmove without a move");
            if (r->ep[side]->last_error[0]) {
                size_t k = strlen(r->why);
                snprintf(r->why + k, sizeof r->why - k, " [engine: %.60s]",
                         r->ep[side]->last_error);
            }
        }
    }
    if (fault != FAULT_NONE) {
        end_by_fault(r, fault, side);
        return MOVE_NONE;
    }
    if (sp->tc.set && sp->st_ms <= 0) {
        r->clock[side] += sp->tc.inc_ms - s.elapsed_ms;
        r->moves_done[side]++;
        if (sp->tc.moves > 0 && r->moves_done[side] % sp->tc.moves == 0)
            r->clock[side] += sp->tc.base_ms;
    }
    rm->time_ms = s.elapsed_ms;
    rm->has_score = s.info.has_score;
    rm->mate = s.info.mate;
    rm->score = s.info.score;
    rm->depth = s.info.depth;
    rm->nodes = s.info.nodes;
    return m;
}

static Move ask_builtin(Referee *r, int side, RecordMove *rm)
{
    int64_t t0 = util_now_ms();
    int score;
    bool has_score;
    Move m = players_choose(r->spec[side]->kind, &r->g, &r->rng[side], &score, &has_score);
    rm->time_ms = util_now_ms() - t0;
    rm->has_score = has_score;
    rm->score = score;
    rm->depth = has_score ? 1 : 0;
    return m;
}

/* A score for the adjudication thresholds. */
static int adj_value(const RecordMove *m)
{
    if (m->mate)
        return m->score >= 0 ? MATE_SCORE : -MATE_SCORE;
    return m->score;
}

/* -draw and -resign on the scores the players report (own view); true
 * when the game was adjudicated. */
static bool adjudicate(Referee *r, int side, const RecordMove *rm)
{
    const MatchConfig *cfg = r->cfg;
    if (cfg->adj.draw_adj) {
        bool small = rm->has_score && abs(adj_value(rm)) <= cfg->adj.draw_score;
        r->draw_streak = small ? r->draw_streak + 1 : 0;
        if ((r->decisions + 1) / 2 >= cfg->adj.draw_movenumber &&
            r->draw_streak >= 2 * cfg->adj.draw_movecount) {
            end_by_adjudication(r, RESULT_DRAW, "adjudication: draw by score",
                                "adjudication: draw by score");
            return true;
        }
    }
    if (cfg->adj.resign_adj) {
        bool losing = rm->has_score && adj_value(rm) <= -cfg->adj.resign_score;
        bool winning = rm->has_score && adj_value(rm) >= cfg->adj.resign_score;
        r->resign_streak[side] = losing ? r->resign_streak[side] + 1 : 0;
        r->win_streak[side] = winning ? r->win_streak[side] + 1 : 0;
        if (r->resign_streak[side] >= cfg->adj.resign_movecount &&
            (!cfg->adj.resign_twosided || r->win_streak[!side] >= cfg->adj.resign_movecount)) {
            char d[64];
            snprintf(d, sizeof d, "adjudication: %s resigns", side_name(side));
            end_by_adjudication(r, side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS,
                                "adjudication: resignation", d);
            snprintf(r->out->reason, sizeof r->out->reason, "%s resigns", side_name(side));
            return true;
        }
    }
    return false;
}

/* One decision: ask the player to move, record and play it; false when the
 * game ended (fault, adjudication, interruption). */
static bool play_decision(Referee *r, int side)
{
    RecordMove rm;
    memset(&rm, 0, sizeof rm);
    rm.side = side;
    rm.has_time = true;
    Move m = r->spec[side]->kind == PLAYER_ENGINE ? ask_engine(r, side, &rm)
                                                  : ask_builtin(r, side, &rm);
    if (m == MOVE_NONE)
        return false;
    r->v->move_str(&r->g.pos, m, rm.text);
    *record_push(&r->out->moves) = rm;
    game_play(&r->g, m);
    r->decisions++;
    return !adjudicate(r, side, &rm);
}

/* ---- the game ------------------------------------------------------------------ */

static uint64_t game_hash(const Outcome *o)
{
    uint64_t h = 0xC0FFEE;
    for (const char *p = o->start_fen; *p; p++)
        h = openings_mix_seed(h, (unsigned char)*p, 1);
    for (int i = 0; i < o->moves.n; i++)
        for (const char *p = o->moves.m[i].text; *p; p++)
            h = openings_mix_seed(h, (unsigned char)*p, (uint64_t)i + 2);
    return h;
}

void referee_play(const MatchConfig *cfg, const Job *job, Seats *seats,
                  EngineInterrupted interrupted, Outcome *out)
{
    memset(out, 0, sizeof *out);
    Referee r;
    memset(&r, 0, sizeof r);
    r.cfg = cfg;
    r.v = cfg->variant;
    r.job = job;
    r.out = out;
    r.interrupted = interrupted;
    out->fault_side = -1;
    setup(&r);
    if (start_engines(&r, seats)) {
        while (!stopping(&r) && !game_is_over(&r)) {
            int side = r.v->side_to_move(&r.g.pos);
            if (r.v->is_chance && r.v->is_chance(&r.g.pos))
                roll_dice(&r, side);
            else if (!play_decision(&r, side))
                break;
        }
    }
    if (stopping(&r))
        out->aborted = true; /* engines were killed under us: not a real result */
    r.v->to_fen(&r.g.pos, out->final_fen);
    out->hash = game_hash(out);
    /* A misbehaving engine is killed and restarted for its next game. */
    if (out->fault != FAULT_NONE && r.spec[out->fault_side]->kind == PLAYER_ENGINE)
        engine_stop(cfg, r.ep[out->fault_side], true);
    game_free(&r.g);
}
