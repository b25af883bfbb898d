/* search_types.h - what the search shares with the modules below it: its
 * ply and thread bounds and what `go` asked for.  Move ordering, time
 * management and the thread pool include this, not search.h, which sits
 * above them (it drives them). */
#ifndef SIGIL_SEARCH_TYPES_H
#define SIGIL_SEARCH_TYPES_H

#include <stdbool.h>
#include <stdint.h>

#define SEARCH_MAX_PLY 128
/* Largest number of search threads (option Threads). */
#define SEARCH_MAX_THREADS 256

/* What `go` asked for.  Zero / negative fields mean "not given". */
typedef struct SearchLimits {
    int depth;          /* iterations to complete, 0 = unlimited */
    uint64_t nodes;     /* node budget, 0 = unlimited */
    int64_t movetime;   /* ms for this move, 0 = not given */
    int64_t time[2];    /* remaining clock of WHITE/BLACK in ms, -1 = not given */
    int64_t inc[2];     /* increment per move in ms, 0 if not given */
    int movestogo;      /* moves to the next time control, 0 = not given */
    int64_t move_overhead; /* ms of the clock kept back for transmission delays
                              (option Move Overhead; search_limits_clear sets
                              TIMEMAN_DEFAULT_OVERHEAD_MS) */
    int moves_left;     /* the mover's expected moves until the game ends
                           (Variant.plies_left), 0 = unknown */
    bool infinite;      /* search until stop */
    bool ponder;        /* think on the opponent's time: no time limit until
                           ponderhit; from then on the clock limits above
                           apply, counted from the ponderhit */
} SearchLimits;

#endif
