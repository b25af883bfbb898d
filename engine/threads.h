/* threads.h - the search threads: the state each one owns, and the pool of
 * persistent workers that run them.
 *
 * The workers are created once (and again only when the Threads option
 * changes) and each sleeps on its own condition variable between searches: a
 * `go` wakes the main thread, which wakes the helpers once it has a move;
 * nothing is created.  Worker 0 is the main search thread; the
 * others are Lazy SMP helpers.  The pool is the search's second global (after
 * the TT); it serves one search at a time (search_run serialises callers).
 */
#ifndef SIGIL_THREADS_H
#define SIGIL_THREADS_H

#include <stdbool.h>
#include <stdint.h>

#include "movepick.h"
#include "search_types.h"
#include "variant.h"

/* Largest Threads value honoured. */
#define THREADS_MAX SEARCH_MAX_THREADS

/* A move at the root with what the last iterations learnt about it. */
typedef struct RootMove {
    Move move;
    int score;      /* this iteration; -SCORE_INF when only a bound is known */
    int prev_score; /* last iteration */
    int seldepth;
    int pv_len;
    Move pv[SEARCH_MAX_PLY];
} RootMove;

struct SearchShared;

/* Everything one search thread owns.  Large (about 4.4 MB), so it lives in
 * the pool, allocated once per worker. */
typedef struct SearchThread {
    struct SearchShared *sh; /* the search it works on */
    int id;                  /* 0 = the main thread */

    uint64_t nodes;     /* this thread's nodes (read by others after threads_wait) */
    int batch;          /* nodes not yet added to the shared total */
    int seldepth;       /* deepest ply + 1 of this iteration */
    bool inexact;       /* a heuristic leaf was met (a value that is not a proof) */
    int completed;      /* last completed iteration */
    Move reported_best; /* first move of the last PV reported */

    RootMove root[MAX_MOVES]; /* this thread's copy of the root moves */
    int root_count;
    int pv_index; /* MultiPV line being searched */

    MoveHistory history;
    uint64_t path_keys[SEARCH_MAX_PLY + 2];
    int pv_len[SEARCH_MAX_PLY + 2];
    Move pv[SEARCH_MAX_PLY + 2][SEARCH_MAX_PLY + 1];
    Position stack[SEARCH_MAX_PLY + 2]; /* stack[ply] is the child made at ply - 1 */
    Move gen[MAX_MOVES];                /* generate()'s output, scored at once */
    ScoredMove moves[SEARCH_MAX_PLY + 1][MAX_MOVES];
} SearchThread;

/* What a worker runs: work(its thread state, arg). */
typedef void (*ThreadWork)(SearchThread *t, void *arg);

/* How many workers threads_resize(count) keeps: count cut to 1..THREADS_MAX
 * and to the processors online.  More Lazy SMP threads than cores add no
 * search (they only split the cores) and starve every other thread of the
 * machine, the one that answers `stop` or reads the bestmove included. */
int threads_usable(int count);

/* Count n processors instead of those online (n <= 0: those online again);
 * for tests that need more workers than the machine has cores. */
void threads_set_processors(int n);

/* Have threads_usable(count) workers ready, creating or ending workers as
 * needed.  Returns how many are ready: fewer when memory or threads ran short
 * (0: none).  Only while no work runs. */
int threads_resize(int count);

/* Run work on workers 0..count-1 (count <= what threads_resize returned) and
 * return at once.  Only worker 0 starts: it calls threads_wake_helpers when
 * the others should join (each then runs work exactly once); helpers it never
 * wakes do not run in this generation. */
void threads_start(int count, ThreadWork work, void *arg);

/* Wake workers 1..count-1 of the current threads_start (the first call
 * does; later ones do nothing).  Called by worker 0. */
void threads_wake_helpers(void);

/* Block until every worker of the last threads_start is done with work.
 * What the workers wrote is then visible to the caller. */
void threads_wait(void);

/* The same for at most ms milliseconds: true when every worker is done. */
bool threads_wait_for(int ms);

/* The state of worker i (valid until the next threads_resize). */
SearchThread *threads_get(int i);

#endif
