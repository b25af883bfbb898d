/* engine.c - the engine client (see engine.h). */
#include "engine.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "util.h"

void engine_sanitize(const char *in, char *out, size_t size)
{
    size_t k = 0;
    for (const char *p = in; *p && k + 1 < size; p++) {
        unsigned char c = (unsigned char)*p;
        out[k++] = (c < 0x20 || c >= 0x7f || c == '"' || c == '{' || c == '}' || c == '\\') ? '?'
                                                                                         : (char)c;
    }
    out[k] = '\0';
}

static bool debugging(const MatchConfig *cfg, const EngineSpec *spec)
{
    return cfg->debug || spec->debug;
}

static bool send_line(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                      const char *line)
{
    if (debugging(cfg, spec))
        fprintf(stderr, "%s(%d) < %s\n", spec->name, (int)ep->proc.pid, line);
    return proc_send(&ep->proc, line);
}

/* Keep the text of an "info string error..." line. */
static void note_engine_error(EngineProc *ep, const char *line)
{
    if (!strncmp(line, "info string error", 17))
        engine_sanitize(line + 12, ep->last_error, sizeof ep->last_error);
}

static int read_line(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep, char *line,
                     size_t size, int64_t deadline)
{
    int r = proc_read_line(&ep->proc, line, size, deadline);
    if (debugging(cfg, spec)) {
        if (r == PROC_LINE)
            fprintf(stderr, "%s(%d) > %s\n", spec->name, (int)ep->proc.pid, line);
        else if (r == PROC_EOF)
            fprintf(stderr, "%s(%d) > <end of output>\n", spec->name, (int)ep->proc.pid);
    }
    if (r == PROC_LINE)
        note_engine_error(ep, line);
    return r;
}

/* Describe how a dead engine ended (after proc_stop has reaped it): an
 * engine that closed its output but did not exit within the grace period
 * was killed by us, which says nothing about it. */
static void describe_exit(const Proc *p, char *buf, size_t size)
{
    int st = p->exit_status;
    if (p->killed)
        snprintf(buf, size, "closed its output");
    else if (st != -1 && WIFEXITED(st))
        snprintf(buf, size, "exited with status %d", WEXITSTATUS(st));
    else if (st != -1 && WIFSIGNALED(st))
        snprintf(buf, size, "killed by signal %d", WTERMSIG(st));
    else
        snprintf(buf, size, "closed its output");
}

void engine_stop(const MatchConfig *cfg, EngineProc *ep, bool polite)
{
    if (ep->proc.pid > 0)
        proc_stop(&ep->proc, polite, polite ? cfg->limits.kill_grace_ms : 0);
    ep->running = false;
}

static void note_option(EngineProc *ep, const char *line)
{
    const char *c = line;
    char tok[64], name[64];
    util_next_token(&c, tok, sizeof tok); /* "option" */
    util_next_token(&c, tok, sizeof tok);
    if (strcmp(tok, "name") != 0)
        return;
    /* The name runs up to " type " (it may hold spaces). */
    while (*c == ' ')
        c++;
    const char *end = strstr(c, " type ");
    size_t n = end ? (size_t)(end - c) : strlen(c);
    if (n >= sizeof name)
        n = sizeof name - 1;
    memcpy(name, c, n);
    name[n] = '\0';
    if (!strcmp(name, "UCI_Variant"))
        ep->has_variant_option = true;
    else if (!strcmp(name, "MoveLimit"))
        ep->has_move_limit_option = true;
    if (ep->nlisted < ENGINE_MAX_LISTED)
        snprintf(ep->listed[ep->nlisted++], sizeof ep->listed[0], "%s", name);
}

/* Read until a line whose first word is `word`, noting options on the way.
 * An engine that keeps printing other lines past the deadline is as silent
 * as one that prints nothing. */
static bool wait_for(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                     const char *word, int64_t timeout_ms, Fault *fault, char *why, size_t whylen)
{
    char line[PROC_LINE_MAX];
    int64_t deadline = util_now_ms() + timeout_ms;
    for (;;) {
        int r = read_line(cfg, spec, ep, line, sizeof line, deadline);
        if (r == PROC_LINE && util_now_ms() > deadline)
            r = PROC_TIMEOUT;
        if (r == PROC_EOF) {
            /* Its output ended: let it exit by itself (its status says
             * what happened), then kill what is left. */
            proc_stop(&ep->proc, false, cfg->limits.kill_grace_ms);
            ep->running = false;
            char how[64];
            describe_exit(&ep->proc, how, sizeof how);
            snprintf(why, whylen, "%s before %s", how, word);
            *fault = FAULT_CRASH;
            return false;
        }
        if (r == PROC_TIMEOUT) {
            snprintf(why, whylen, "no %s within %.1fs", word, timeout_ms / 1000.0);
            *fault = FAULT_UNRESPONSIVE;
            engine_stop(cfg, ep, false);
            return false;
        }
        const char *c = line;
        char tok[64];
        util_next_token(&c, tok, sizeof tok);
        if (!strcmp(tok, word))
            return true;
        if (!strcmp(tok, "option"))
            note_option(ep, line);
    }
}

static bool start_process(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                          Fault *fault, char *why, size_t whylen)
{
    char *argv[MATCH_MAX_ARGS + 2];
    int argc = 0;
    argv[argc++] = (char *)spec->cmd;
    for (int i = 0; i < spec->nargs; i++)
        argv[argc++] = spec->args[i];
    argv[argc] = NULL;
    const char *err_path = spec->stderr_path[0] ? spec->stderr_path
                           : cfg->quiet         ? "/dev/null"
                                                : NULL;
    char err[256];
    memset(ep, 0, sizeof *ep);
    if (!proc_start(&ep->proc, argv, spec->dir[0] ? spec->dir : NULL, err_path, err,
                    sizeof err)) {
        snprintf(why, whylen, "%s", err);
        *fault = FAULT_START;
        return false;
    }
    ep->running = true;
    return true;
}

/* The settings after uciok: initstr lines, option.NAME=VALUE, the variant,
 * the move limit. */
static void send_settings(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep)
{
    char line[512];
    for (int i = 0; i < spec->ninitstr; i++)
        send_line(cfg, spec, ep, spec->initstr[i]);
    for (int i = 0; i < spec->noptions; i++) {
        snprintf(line, sizeof line, "setoption name %s value %s", spec->options[i].name,
                 spec->options[i].value);
        send_line(cfg, spec, ep, line);
    }
    if (ep->has_variant_option)
        snprintf(line, sizeof line, "setoption name UCI_Variant value %s", cfg->variant->name);
    else
        snprintf(line, sizeof line, "variant %s", cfg->variant->name);
    send_line(cfg, spec, ep, line);
    bool has_limit = (cfg->variant->rule_options & GAME_OPTION_MOVE_LIMIT) != 0;
    if (has_limit && (ep->has_move_limit_option || cfg->move_limit_given)) {
        snprintf(line, sizeof line, "setoption name MoveLimit value %d",
                 cfg->game_config.move_limit);
        send_line(cfg, spec, ep, line);
    }
}

bool engine_ensure(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep, Fault *fault,
                   char *why, size_t whylen)
{
    if (ep->running && proc_alive(&ep->proc))
        return true;
    if (ep->proc.pid > 0)
        engine_stop(cfg, ep, false); /* died between games: reap, restart */
    if (!start_process(cfg, spec, ep, fault, why, whylen))
        return false;
    if (!send_line(cfg, spec, ep, spec->ugi ? "ugi" : "uci") ||
        !wait_for(cfg, spec, ep, spec->ugi ? "ugiok" : "uciok", cfg->limits.start_timeout_ms, fault, why,
                  whylen))
        goto fail;
    send_settings(cfg, spec, ep);
    if (!send_line(cfg, spec, ep, "isready") ||
        !wait_for(cfg, spec, ep, "readyok", cfg->limits.start_timeout_ms, fault, why, whylen))
        goto fail;
    return true;
fail:
    if (*fault == FAULT_NONE) {
        *fault = FAULT_CRASH;
        snprintf(why, whylen, "closed its input during the handshake");
    }
    engine_stop(cfg, ep, false);
    return false;
}

bool engine_new_game(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                     Fault *fault, char *why, size_t whylen)
{
    if (spec->restart == RESTART_ON && ep->running)
        engine_stop(cfg, ep, true);
    if (!engine_ensure(cfg, spec, ep, fault, why, whylen))
        return false;
    if (!send_line(cfg, spec, ep, spec->ugi ? "uginewgame" : "ucinewgame") ||
        !send_line(cfg, spec, ep, "isready") ||
        !wait_for(cfg, spec, ep, "readyok", cfg->limits.newgame_timeout_ms, fault, why, whylen)) {
        if (*fault == FAULT_NONE) {
            *fault = FAULT_CRASH;
            snprintf(why, whylen, "closed its input before a new game");
        }
        engine_stop(cfg, ep, false);
        return false;
    }
    return true;
}

static void parse_info(const char *line, EngineInfo *si)
{
    const char *c = line;
    char tok[64];
    long long v;
    util_next_token(&c, tok, sizeof tok); /* "info" */
    while (util_next_token(&c, tok, sizeof tok)) {
        if (!strcmp(tok, "string") || !strcmp(tok, "pv"))
            return;
        if (!strcmp(tok, "depth")) {
            if (util_next_token(&c, tok, sizeof tok) && util_parse_number(tok, 0, INT_MAX, &v))
                si->depth = (int)v;
        } else if (!strcmp(tok, "nodes")) {
            if (util_next_token(&c, tok, sizeof tok) && util_parse_number(tok, 0, LLONG_MAX, &v))
                si->nodes = v;
        } else if (!strcmp(tok, "score")) {
            util_next_token(&c, tok, sizeof tok);
            bool mate = !strcmp(tok, "mate");
            if (mate || !strcmp(tok, "cp")) {
                if (!util_next_token(&c, tok, sizeof tok) ||
                    !util_parse_number(tok, INT_MIN + 1, INT_MAX, &v))
                    continue; /* a score that is no number is not one */
                si->has_score = true;
                si->mate = mate;
                si->score = (int)v;
            }
        }
    }
}

Fault engine_search(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                    EngineSearch *s, EngineInterrupted interrupted, char *why, size_t whylen)
{
    char line[PROC_LINE_MAX];
    /* Drop anything left over (a second bestmove, late info lines), so that
     * it cannot pass for the answer to this go. */
    for (int k = 0; k < 10000 && read_line(cfg, spec, ep, line, sizeof line, 0) == PROC_LINE; k++)
        ;
    memset(&s->info, 0, sizeof s->info);
    s->bestmove[0] = '\0';
    s->stopped = false;
    send_line(cfg, spec, ep, s->position);
    int64_t t0 = util_now_ms();
    send_line(cfg, spec, ep, s->go);
    int64_t deadline = t0 + s->allowed_ms;
    Fault fault = FAULT_NONE;
    for (;;) {
        int r = read_line(cfg, spec, ep, line, sizeof line, deadline);
        if (r == PROC_EOF) {
            if (interrupted && interrupted())
                break;
            proc_stop(&ep->proc, false, cfg->limits.kill_grace_ms);
            ep->running = false;
            char how[64];
            describe_exit(&ep->proc, how, sizeof how);
            snprintf(why, whylen, "%s while thinking", how);
            fault = FAULT_CRASH;
            break;
        }
        if (r == PROC_LINE) {
            const char *c = line;
            char tok[32];
            util_next_token(&c, tok, sizeof tok);
            if (!strcmp(tok, "info")) {
                parse_info(line, &s->info);
            } else if (!strcmp(tok, "bestmove")) {
                util_next_token(&c, s->bestmove, sizeof s->bestmove);
                if (!s->bestmove[0])
                    snprintf(s->bestmove, sizeof s->bestmove, " "); /* bestmove without a move */
                break;
            }
            if (util_now_ms() < deadline)
                continue;
            /* an engine flooding output past its deadline: time is up */
        }
        if (s->stopped) {
            fault = FAULT_UNRESPONSIVE;
            snprintf(why, whylen, "no bestmove within %.3fs, nor %.3fs after stop",
                     s->allowed_ms / 1000.0, s->grace_ms / 1000.0);
            break;
        }
        send_line(cfg, spec, ep, "stop");
        s->stopped = true;
        deadline = util_now_ms() + s->grace_ms;
    }
    s->elapsed_ms = util_now_ms() - t0;
    if (interrupted && interrupted())
        return FAULT_NONE;
    if (fault == FAULT_NONE && (s->stopped || s->elapsed_ms > s->allowed_ms))
        fault = FAULT_TIME;
    return fault;
}

bool engine_preflight(const MatchConfig *cfg, const EngineSpec *spec, char *why, size_t whylen)
{
    EngineProc ep;
    memset(&ep, 0, sizeof ep);
    Fault fault = FAULT_NONE;
    char reason[256];
    if (!engine_ensure(cfg, spec, &ep, &fault, reason, sizeof reason)) {
        snprintf(why, whylen, "engine '%s' (%s) failed to start: %s", spec->name, spec->cmd,
                 reason);
        return false;
    }
    bool ok = true;
    for (int i = 0; i < spec->noptions && ok; i++) {
        bool listed = false;
        for (int k = 0; k < ep.nlisted && !listed; k++)
            listed = !strcmp(ep.listed[k], spec->options[i].name);
        if (!listed) {
            char known[512] = "";
            for (int k = 0; k < ep.nlisted; k++) {
                size_t n = strlen(known);
                snprintf(known + n, sizeof known - n, "%s%s", k ? ", " : "", ep.listed[k]);
            }
            snprintf(why, whylen, "engine '%s' has no option '%s' (it lists: %s)", spec->name,
                     spec->options[i].name, known[0] ? known : "none");
            ok = false;
        }
    }
    if (ok && ep.last_error[0]) {
        /* An engine that rejected a setting says so with info string error. */
        snprintf(why, whylen, "engine '%s' rejected a setting: %s", spec->name, ep.last_error);
        ok = false;
    }
    engine_stop(cfg, &ep, true);
    return ok;
}
