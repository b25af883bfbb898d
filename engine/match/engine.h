/* engine.h - the engine client: one engine process spoken to in the UCI or
 * UGI flavour of the Sigil protocol.  Start and handshake, per-game
 * `ucinewgame`, one search (`position` + `go` until `bestmove`, with the
 * deadline and `stop`), stop and restart.
 *
 * Every failure is reported as a Fault with a reason in words, so the
 * referee can score the game against the engine and the start-up check can
 * stop the run.
 */
#ifndef SIGIL_MATCH_ENGINE_H
#define SIGIL_MATCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "match.h"
#include "proc.h"

/* Why an engine lost a game on its own account. */
typedef enum Fault {
    FAULT_NONE = 0,
    FAULT_START,        /* could not be started */
    FAULT_CRASH,        /* closed its output / exited */
    FAULT_TIME,         /* answered after its time (+ margin) */
    FAULT_UNRESPONSIVE, /* no bestmove even after stop; no uciok/readyok */
    FAULT_ILLEGAL       /* an illegal or unparsable move */
} Fault;

#define ENGINE_MAX_LISTED 128

/* A running engine process and what its handshake told. */
typedef struct EngineProc {
    Proc proc;
    bool running;
    bool has_variant_option;
    bool has_move_limit_option;
    char listed[ENGINE_MAX_LISTED][64]; /* option names from `option name ...` */
    int nlisted;
    char last_error[96]; /* the last `info string error ...` it printed */
} EngineProc;

/* What a search reported on the way (the last info line with each field). */
typedef struct EngineInfo {
    bool has_score, mate;
    int score, depth;
    long long nodes;
} EngineInfo;

/* One search: the command lines and the limit, and what came back. */
typedef struct EngineSearch {
    const char *position;  /* the `position ...` line */
    const char *go;        /* the `go ...` line */
    int64_t allowed_ms;    /* limit + margin: bestmove must come by then */
    int64_t grace_ms;      /* after `stop`: how long bestmove may still take */
    char bestmove[MOVE_STR_MAX * 2];
    EngineInfo info;
    int64_t elapsed_ms;    /* from writing go to reading bestmove */
    bool stopped;          /* `stop` had to be sent */
} EngineSearch;

/* A stopping flag shared with the signal thread (NULL: never stops). */
typedef bool (*EngineInterrupted)(void);

/* Start the engine if it is not running and do the handshake (uci, the
 * options, the variant, MoveLimit, isready).  On failure the process is
 * stopped and *fault/why say why. */
bool engine_ensure(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep, Fault *fault,
                   char *why, size_t whylen);

/* engine_ensure, then `ucinewgame` + `isready` (a restart=on engine is
 * started afresh first). */
bool engine_new_game(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                     Fault *fault, char *why, size_t whylen);

/* Run one search.  Returns FAULT_NONE with s->bestmove set, or the fault
 * (crash, unresponsive, time) with why; returns FAULT_NONE with an empty
 * bestmove when interrupted() turned true. */
Fault engine_search(const MatchConfig *cfg, const EngineSpec *spec, EngineProc *ep,
                    EngineSearch *s, EngineInterrupted interrupted, char *why, size_t whylen);

/* Stop the process (quit first when polite) and mark it not running. */
void engine_stop(const MatchConfig *cfg, EngineProc *ep, bool polite);

/* The start-up check of one engine: start it, handshake, verify that every
 * option.NAME is one it listed, stop it.  False with a message in why. */
bool engine_preflight(const MatchConfig *cfg, const EngineSpec *spec, char *why, size_t whylen);

/* Printable copy of untrusted engine text (no quotes, braces, control bytes). */
void engine_sanitize(const char *in, char *out, size_t size);

#endif
