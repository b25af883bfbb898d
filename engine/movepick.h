/* movepick.h - move ordering: the picker that hands a node its moves best
 * first, and the tables it learns from (history and killers).
 *
 * The game generates all its moves at once (generate()); the picker scores
 * them in bands -- the TT move, noisy moves, two killers, quiet moves by
 * history -- and selects the best remaining one on each call.  Every thread
 * owns its tables; search_run clears them at the start of every search.
 */
#ifndef SIGIL_MOVEPICK_H
#define SIGIL_MOVEPICK_H

#include <stdbool.h>
#include <stdint.h>

#include "search_types.h"
#include "variant.h"

/* History table: a move is indexed by a multiplicative hash of its code
 * (codes are game-defined and sparse), one table per side to move.  Not
 * tuned: 4096 slots keep both tables (8 KB each) in cache; moves that share
 * a slot only share their statistics. */
#define HISTORY_BITS 12
#define HISTORY_SIZE (1 << HISTORY_BITS)
/* Bound of a history value (the gravity update keeps it inside).  Not
 * tuned: the largest power of two an int16 entry holds with room for a
 * bonus, far below the ordering bands (movepick.c). */
#define HISTORY_MAX 16384

/* A move with its ordering score. */
typedef struct ScoredMove {
    Move move;
    int order;  /* larger first */
    int hint;   /* Variant.order_hints, 0 without: among equal orders larger
                   first; then the smaller code */
    bool noisy; /* Variant.is_noisy */
} ScoredMove;

/* What the search learns about quiet moves while it runs. */
typedef struct MoveHistory {
    Move killers[SEARCH_MAX_PLY + 1][2]; /* the last two quiet cutoff moves per ply */
    int16_t butterfly[2][HISTORY_SIZE];  /* cutoff statistics per side to move */
} MoveHistory;

/* Hands out the moves of one node, best first. */
typedef struct MovePicker {
    ScoredMove *moves;
    int count;
    int next;
    bool sorted; /* moves[next..count) are in order */
} MovePicker;

/* Forget every killer and history value. */
void movepick_clear_history(MoveHistory *h);

/* Score the n generated moves of pos (at ply, with the TT move tt_move) into
 * buf and set the picker up over them.  With noisy_only the quiet moves are
 * left out.  Returns how many moves the picker holds. */
int movepick_init(MovePicker *mp, ScoredMove *buf, const MoveHistory *h, const Variant *v,
                  const Position *pos, const Move *gen, int n, int ply, Move tt_move,
                  bool noisy_only);

/* The best move not yet handed out, or NULL when none is left. */
ScoredMove *movepick_next(MovePicker *mp);

/* A quiet move that is neither the TT move nor a killer: the kind the
 * search may reduce. */
bool movepick_is_plain_quiet(const ScoredMove *sm);

/* The quiet move best caused a beta cutoff at ply (depth left: depth) for
 * side: make it a killer, raise its history and lower that of the quiet
 * moves tried before it (tried[0..tried_count)). */
void movepick_reward_cutoff(MoveHistory *h, int side, int ply, int depth, Move best,
                            const Move *tried, int tried_count);

#endif
