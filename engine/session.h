/* session.h - the engine's state between commands: the current game and its
 * rules settings, the engine options, the dice, and the worker thread that
 * runs searches and perfts.
 *
 * The session knows nothing of the protocol's text.  What the worker has to
 * say (search progress, the best move, perft counts) goes to a SessionOutput
 * as structured calls; the protocol (protocol.c) and the interactive mode
 * (play.c) each turn them into their own text.
 *
 * Threads: every session_* function is called from one thread (the "owner",
 * e.g. the protocol loop).  The worker only reads its own copy of the game;
 * a function that changes the game, the options or the table first stops the
 * worker, so the game the owner sees is never shared with a running search.
 * SessionOutput callbacks marked "worker" are called from the worker thread.
 */
#ifndef SIGIL_SESSION_H
#define SIGIL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "search.h"
#include "variant.h"

/* Deepest perft accepted.  Every perft but a small one runs in the worker
 * and can be stopped, so the bound only keeps the count meaningful: past it
 * no game's count can finish or even fit in 64 bits. */
#define SESSION_MAX_PERFT_DEPTH 20

/* A perft estimated at this many leaves or fewer (perft_estimate) is counted
 * in the owner's thread before session_perft returns: no thread is started,
 * and the next command is read after its count (milliseconds at every
 * game's speed; `stop` cannot end it). */
#define SESSION_PERFT_INLINE_LEAVES (1u << 24)

/* Option Move Overhead: largest value (ms); the default is timeman.h's. */
#define SESSION_MAX_MOVE_OVERHEAD_MS 5000

/* Option MultiPV: largest value. */
#define SESSION_MAX_MULTIPV 64

/* Option MoveLimit: range (moves per side). */
#define SESSION_MAX_MOVE_LIMIT 1000

typedef struct Session Session;

/* What a finished perft reports. */
typedef struct PerftReport {
    int depth;
    uint64_t total;   /* sum of the per-move counts printed */
    int64_t time_ms;
    bool stopped;     /* `stop` (or quit) ended it early: total is partial */
    bool overflow;    /* the count does not fit in 64 bits */
} PerftReport;

/* What a notice of the session is: news (a position reset) or an error (a
 * thread that could not start, tables that could not be loaded). */
typedef enum NoticeKind { NOTICE_INFO, NOTICE_ERROR } NoticeKind;

/* Where the session's output goes.  ctx is passed back to every call. */
typedef struct SessionOutput {
    void *ctx;
    /* worker: one search report (format it as an `info` line ...). */
    void (*info)(void *ctx, const Variant *v, const SearchInfo *info);
    /* worker: the game's own analysis of the searched root (Variant.describe). */
    void (*analysis)(void *ctx, const char *text);
    /* worker: `go` in a finished game; side is the side to move. */
    void (*finished)(void *ctx, Result result, int side);
    /* worker: the search's answer; ponder is NULL unless asked and known.
     * Called exactly once per session_go. */
    void (*bestmove)(void *ctx, const char *move, const char *ponder);
    /* worker: one root move of a perft and its count. */
    void (*perft_move)(void *ctx, const char *move, uint64_t count);
    /* worker: the perft is over. */
    void (*perft_done)(void *ctx, const PerftReport *report);
    /* owner: a notice of the given kind, one line of text (no prefix). */
    void (*notice)(void *ctx, NoticeKind kind, const char *text);
} SessionOutput;

/* ------------------------------------------------------------- lifetime */

/* A new session on the default variant with every option at its default. */
Session *session_new(const SessionOutput *out);
/* Stop the worker and release everything. */
void session_free(Session *s);

/* ----------------------------------------------------------- the game */

/* The game in progress (valid until the next call that changes it). */
const Game *session_game(const Session *s);
/* The variant being played. */
const Variant *session_variant(const Session *s);
/* Forget what the search learnt and go back to the variant's start. */
void session_new_game(Session *s);
/* Play variant v from its start. */
void session_set_variant(Session *s, const Variant *v);
/* Set up a game from fen (NULL: the start position) and then play the
 * whitespace-separated moves (may be NULL or empty).  All or nothing: on
 * failure nothing changes and err says why. */
bool session_set_position(Session *s, const char *fen, const char *moves, char *err,
                          size_t errlen);
/* Play the whitespace-separated moves on the current game, keeping its
 * history.  All or nothing. */
bool session_play(Session *s, const char *moves, char *err, size_t errlen);
/* Take back plies plies (>= 1).  Fails, changing nothing, when fewer were
 * played. */
bool session_undo(Session *s, int plies, char *err, size_t errlen);
/* At a chance node: draw a roll from the session's dice and play it; its
 * text goes to text (MOVE_STR_MAX bytes).  False when no roll is due. */
bool session_roll(Session *s, char *text);
/* True when the next event of the game is a dice roll. */
bool session_is_chance(const Session *s);

/* --------------------------------------------------------------- options */

typedef enum SessionOptionType {
    SESSION_OPTION_SPIN,   /* a whole number in [min, max] */
    SESSION_OPTION_CHECK,  /* true or false */
    SESSION_OPTION_COMBO,  /* one of choice(0), choice(1) ... */
    SESSION_OPTION_BUTTON, /* no value: an action */
    SESSION_OPTION_STRING  /* any text; empty (or `<empty>`) by default */
} SessionOptionType;

/* One engine option: `uci` lists it, `setoption` validates and applies it. */
typedef struct SessionOption {
    const char *name;
    SessionOptionType type;
    long long min, max, def;       /* SPIN (def also CHECK: 0/1) */
    const char *(*choice)(int i);  /* COMBO: the i-th value, NULL past the last;
                                      choice(0) is the default */
    const char *help;              /* one line for `help` */
    /* Apply a validated value (number for SPIN/CHECK, text for COMBO and
     * STRING); false
     * with err filled when it cannot be applied (the old setting stays). */
    bool (*apply)(Session *s, long long number, const char *text, char *err, size_t errlen);
} SessionOption;

/* Number of options and the i-th (in `uci` order). */
int session_option_count(void);
const SessionOption *session_option(int i);
/* setoption: find the option (case-insensitive), parse value strictly
 * (value may be NULL for a button), apply it.  On failure err says why and
 * nothing changed. */
bool session_set_option(Session *s, const char *name, const char *value, char *err,
                        size_t errlen);
/* The current Move Overhead (ms). */
int64_t session_move_overhead(const Session *s);

/* Levels (options Skill Level, UCI_LimitStrength, UCI_Elo; doc/levels.md).
 * SKILL_MAX is full strength; below it a search is cut to
 * session_skill_depth() plies and session_skill_nodes() nodes, considers
 * SKILL_CANDIDATES root moves, and plays the one whose score plus a random
 * bonus of up to session_skill_noise() centipawns is largest. */
#define SKILL_MAX 20
#define SKILL_CANDIDATES 5
#define SKILL_BASE_NODES 256
#define SKILL_NOISE_PER_LEVEL 12
/* UCI_Elo's range: with UCI_LimitStrength, Skill Level is
 * (UCI_Elo - SESSION_ELO_MIN) / SESSION_ELO_PER_LEVEL, at most SKILL_MAX - 1. */
#define SESSION_ELO_MIN 1000
#define SESSION_ELO_MAX 1800
#define SESSION_ELO_PER_LEVEL 40
int session_skill_depth(int level);
uint64_t session_skill_nodes(int level);
int session_skill_noise(int level);
int session_elo_to_skill(int elo);
/* The level the next search plays at. */
int session_skill(const Session *s);

/* Option TablebasePieces: largest value (and the default: every table found). */
#define SESSION_MAX_TABLEBASE_PIECES 8

/* The value of the current position with best play from the endgame tables
 * (or from the game's end: a finished game is a draw or a loss in 0 plies
 * for the side to move).  False when it is not known: no tables loaded, the
 * position outside them, a roll due. */
bool session_tablebase_value(const Session *s, TbValue *value);

/* What the current variant's proof book proves about the current position:
 * bit 1, the side to move does not lose; bit 2, its opponent does not lose
 * (both: a proven draw); 0 without a book, outside it or when the game is
 * over. */
int session_book_value(const Session *s);

/* ------------------------------------------------------------- the worker */

/* Start a search of the current game in the worker (stopping any running
 * one first).  The worker reports through the output and ends with exactly
 * one bestmove: in a finished game `finished` then "0000"; at a chance node
 * a roll drawn from the session's dice; else the search's move ("0000" when
 * the side to move has nothing to play).  With ponder the search thinks on
 * the opponent's time: untimed until session_ponderhit, then under the
 * clock of limits; no bestmove before ponderhit or stop. */
void session_go(Session *s, const SearchLimits *limits, bool ponder);
/* A perft of the current position to depth (0..SESSION_MAX_PERFT_DEPTH):
 * one perft_move per root move, then perft_done.  A small one (see
 * SESSION_PERFT_INLINE_LEAVES) is counted before this returns, the callbacks
 * called from the owner's thread; a larger one starts in the worker. */
void session_perft(Session *s, int depth);
/* Ask the worker to end its job and wait for it (its last report is out when
 * this returns).  Nothing happens when it is idle. */
void session_stop(Session *s);
/* The GUI's guess was right (`ponderhit`): the pondering search goes on
 * under the clock and answers when its time is up.  False (nothing done)
 * when no pondering search runs. */
bool session_ponderhit(Session *s);
/* Wait for the worker to finish its job by itself. */
void session_wait(Session *s);
/* The end of the input: a job that ends by itself (a perft, a search with a
 * limit: depth, nodes, movetime, a clock, mate) is waited for, so it prints
 * its answer; one that only stop ends (infinite, pondering before
 * ponderhit, no limit at all) is stopped.  Nothing happens when idle. */
void session_finish(Session *s);
/* True when nothing but stop (or ponderhit) would end a search under limits,
 * pondering or not. */
bool session_search_unbounded(const SearchLimits *limits, bool ponder);
/* True while a job runs (or has ended but was not waited for). */
bool session_busy(const Session *s);

#endif
