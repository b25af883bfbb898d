/* search.h - iterative deepening alpha-beta (PVS) with expectimax chance
 * nodes, for any game behind the Variant interface. */
#ifndef SIGIL_SEARCH_H
#define SIGIL_SEARCH_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "search_types.h"
#include "variant.h"

/* How another thread steers a running search (UCI's stop and ponderhit).
 * Owned by the caller, reset before each search, so a stop that comes
 * before the search has even started is not lost. */
typedef struct SearchSignal {
    atomic_bool stop;      /* end the search now */
    atomic_bool ponderhit; /* the pondered move was played: the clock runs */
    pthread_mutex_t lock;  /* with changed: wakes a search that waits */
    pthread_cond_t changed;
} SearchSignal;

/* Search settings (engine options). */
typedef struct SearchOptions {
    int threads;        /* option Threads, >= 1 */
    int multipv;        /* option MultiPV, >= 1 */
    const Tablebase *tablebase; /* the game's loaded endgame tables, or NULL */
    const struct ProofBook *book; /* the game's proof book (proof.h), or NULL */
} SearchOptions;

/* Where the move of a search came from. */
typedef enum SearchSource {
    SOURCE_SEARCH,  /* the search over every legal move */
    SOURCE_TABLE,   /* the endgame tables, without a search */
    SOURCE_BOOK     /* the search over the moves the proof book proves not to lose */
} SearchSource;

typedef struct SearchResult {
    Move best;          /* MOVE_NONE when there is nothing to play (game over, or
                           the root is a chance node: a roll is due) */
    Move ponder;        /* second move of the PV or MOVE_NONE */
    int score;          /* from the side to move's view */
    int depth;          /* last completed iteration */
    uint64_t nodes;
    SearchSource source;
} SearchResult;

/* One report of the search's progress: a finished iteration for one of the
 * MultiPV lines, or, at the end of a search stopped early, the line it plays.
 * The caller formats it (the protocol writes UCI's `info` line). */
typedef struct SearchInfo {
    int depth;             /* completed iteration; 0 before depth 1 or when nothing
                              was searched (a finished game, no legal move) */
    int seldepth;          /* deepest ply reached */
    int multipv;           /* 1-based line number */
    int score;             /* side to move's view; see search_format_score */
    uint64_t nodes;        /* all threads */
    int64_t time_ms;       /* since search_run was called */
    uint64_t nps;
    int hashfull;          /* permille of the TT written in this search */
    bool tablebase;        /* endgame tables were in use */
    uint64_t tbhits;       /* positions found in them (all threads) */
    const Position *root;  /* the root, from which pv[0] is played */
    const Move *pv;        /* principal variation from the root (may be empty) */
    int pv_len;
} SearchInfo;

/* Receives each report.  Called from the search thread; info and what it
 * points to are valid during the call only. */
typedef void (*SearchReport)(void *ctx, const SearchInfo *info);

/* Reset the limits to "nothing given". */
void search_limits_clear(SearchLimits *limits);

/* (Re)size the transposition table to mb megabytes (option Hash). */
void search_set_hash(size_t mb);
/* Empty the transposition table (ucinewgame).  History and killers need no
 * clearing: every search starts them empty. */
void search_clear(void);

/* Set a signal up (nothing raised). */
void search_signal_init(SearchSignal *signal);
/* Lower both flags: call before each search_run with this signal. */
void search_signal_reset(SearchSignal *signal);
/* Raise stop (any thread): the search returns promptly. */
void search_signal_stop(SearchSignal *signal);
/* Raise ponderhit (any thread): a pondering search goes on under the clock. */
void search_signal_ponderhit(SearchSignal *signal);
/* True once stop was raised. */
bool search_signal_stopped(SearchSignal *signal);
/* Release what search_signal_init set up. */
void search_signal_destroy(SearchSignal *signal);

/* Search the current position of game until a limit is hit or signal's stop
 * is raised (signal may be NULL: never stopped), reporting progress through
 * report (may be NULL).  Blocking; the search itself runs on the thread pool
 * (threads.h).  With limits->infinite it returns only after stop, with
 * limits->ponder only after ponderhit or stop.  Prints nothing itself.  One
 * search at a time: concurrent callers are served in turn. */
SearchResult search_run(const Game *game, const SearchLimits *limits,
                        const SearchOptions *options, SearchSignal *signal,
                        SearchReport report, void *ctx);

/* Format a score the UCI way: "cp 123" or "mate 4" / "mate -3" (moves, not
 * plies).  buf has room for 32 bytes. */
void search_format_score(int score, char *buf);

#endif
