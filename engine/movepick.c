/* movepick.c - move ordering: scoring bands, the picker, history and killers
 * (see movepick.h). */
#include "movepick.h"

#include <stdlib.h>
#include <string.h>

/* Ordering bands, best first.  A noisy move adds its history to its band, a
 * quiet one is worth its history alone (|history| <= HISTORY_MAX, far below
 * the bands).  Not tunables: the order of the bands is the design (TT move,
 * noisy, killers, history), their values only keep them apart. */
#define ORDER_TT (1 << 30)
#define ORDER_NOISY (1 << 28)
#define ORDER_KILLER1 (1 << 27)
#define ORDER_KILLER2 ((1 << 27) - 1)

/* The first PICK_SELECTION moves of a node are found by selection (most
 * nodes that cut off do so on one of them); the rest is sorted once.  Speed
 * only (the order is the same either way): not tuned, the search's order and
 * node count do not depend on it. */
#define PICK_SELECTION 3

/* History bonus of a cutoff at depth d: HISTORY_BONUS_SCALE * min(d * d,
 * HISTORY_BONUS_DEPTH2_CAP), the same malus for the quiets tried before.
 * Depth squared is the usual weight (a deep cutoff saved more); with the
 * scale 16 a bonus spans 16..6400 of the 16384 the gravity update allows.
 * The cap is a bound: one deep cutoff must not pin an entry at HISTORY_MAX. */
#define HISTORY_BONUS_SCALE 16       /* SPRTs: doc/search.md, "Tunables" */
#define HISTORY_BONUS_DEPTH2_CAP 400 /* SPRTs: doc/search.md, "Tunables" */

/* Fibonacci hashing: 2^64 divided by the golden ratio, odd, so the product's
 * top HISTORY_BITS bits spread move codes that differ in any bit. */
#define HISTORY_HASH_MULTIPLIER 0x9E3779B97F4A7C15ULL
#define MOVE_CODE_BITS 64

static inline int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

static inline int history_index(Move m)
{
    return (int)((m * HISTORY_HASH_MULTIPLIER) >> (MOVE_CODE_BITS - HISTORY_BITS));
}

void movepick_clear_history(MoveHistory *h) { memset(h, 0, sizeof *h); }

int movepick_init(MovePicker *mp, ScoredMove *buf, const MoveHistory *h, const Variant *v,
                  const Position *pos, const Move *gen, int n, int ply, Move tt_move,
                  bool noisy_only)
{
    const int16_t *hist = h->butterfly[v->side_to_move(pos) & 1];
    const Move *killers = h->killers[ply <= SEARCH_MAX_PLY ? ply : SEARCH_MAX_PLY];
    bool killers_apply = ply <= SEARCH_MAX_PLY;
    /* Scratch for the game's hints: one per thread, used only here. */
    static _Thread_local int hints[MAX_MOVES];
    if (v->order_hints)
        v->order_hints(pos, gen, n, hints);
    int k = 0;
    for (int i = 0; i < n; i++) {
        Move m = gen[i];
        bool noisy = v->is_noisy && v->is_noisy(pos, m);
        if (noisy_only && !noisy)
            continue;
        int history = hist[history_index(m)];
        int order;
        if (m == tt_move)
            order = ORDER_TT;
        else if (noisy)
            order = ORDER_NOISY + history;
        else if (killers_apply && m == killers[0])
            order = ORDER_KILLER1;
        else if (killers_apply && m == killers[1])
            order = ORDER_KILLER2;
        else
            order = history;
        buf[k].move = m;
        buf[k].order = order;
        buf[k].hint = v->order_hints ? hints[i] : 0;
        buf[k].noisy = noisy;
        k++;
    }
    mp->moves = buf;
    mp->count = k;
    mp->next = 0;
    mp->sorted = false;
    return k;
}

/* Better first; equal scores by the game's hint, then in ascending code
 * order, so the order (and the search) is deterministic. */
static int compare_scored(const void *a, const void *b)
{
    const ScoredMove *x = a, *y = b;
    if (x->order != y->order)
        return x->order > y->order ? -1 : 1;
    if (x->hint != y->hint)
        return x->hint > y->hint ? -1 : 1;
    return x->move < y->move ? -1 : x->move > y->move;
}

ScoredMove *movepick_next(MovePicker *mp)
{
    if (mp->next >= mp->count)
        return NULL;
    if (!mp->sorted) {
        if (mp->next < PICK_SELECTION) {
            int best = mp->next;
            for (int i = mp->next + 1; i < mp->count; i++)
                if (compare_scored(&mp->moves[i], &mp->moves[best]) < 0)
                    best = i;
            ScoredMove tmp = mp->moves[mp->next];
            mp->moves[mp->next] = mp->moves[best];
            mp->moves[best] = tmp;
        } else {
            qsort(mp->moves + mp->next, (size_t)(mp->count - mp->next), sizeof *mp->moves,
                  compare_scored);
            mp->sorted = true;
        }
    }
    return &mp->moves[mp->next++];
}

bool movepick_is_plain_quiet(const ScoredMove *sm)
{
    return !sm->noisy && sm->order < ORDER_KILLER2;
}

/* Gravity: a value moves toward +-HISTORY_MAX by bonus, the less the closer
 * it already is, so old statistics fade. */
static void history_update(int16_t *entry, int bonus)
{
    int value = *entry;
    value += bonus - value * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX;
    *entry = (int16_t)clampi(value, -HISTORY_MAX, HISTORY_MAX);
}

void movepick_reward_cutoff(MoveHistory *h, int side, int ply, int depth, Move best,
                            const Move *tried, int tried_count)
{
    int16_t *hist = h->butterfly[side & 1];
    int depth2 = depth * depth;
    int bonus = HISTORY_BONUS_SCALE * (depth2 > HISTORY_BONUS_DEPTH2_CAP ? HISTORY_BONUS_DEPTH2_CAP
                                                                         : depth2);
    history_update(&hist[history_index(best)], bonus);
    for (int i = 0; i < tried_count; i++)
        history_update(&hist[history_index(tried[i])], -bonus);
    if (h->killers[ply][0] != best) {
        h->killers[ply][1] = h->killers[ply][0];
        h->killers[ply][0] = best;
    }
}
