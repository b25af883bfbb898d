/* search.c - iterative deepening negamax alpha-beta (PVS) with expectimax
 * chance nodes, for any game behind the Variant interface.
 *
 * The search knows nothing of the game it plays.  It never assumes that the
 * side to move alternates: a child's value is negated only when
 * side_to_move(child) differs from side_to_move(parent), so passes (a move,
 * the side changes), extra turns and dice rolls (the roller keeps the move)
 * all come out right.
 *
 * State: everything lives in a SearchShared (one per search_run call) and one
 * SearchThread per thread (killers, history, PV table, move buffers); the only
 * global is the transposition table (tt.c).  Lazy SMP: helper threads run the
 * same iterative deepening on copies of the root with the shared TT; only the
 * main thread (the caller's thread) reports and decides when to stop.
 *
 * Depth counts decisions: a chance node hands its full depth on to its
 * outcomes, so `go depth 2` in a dice game looks at two decisions (and the
 * rolls between them).  Plies (rolls included) measure distance to a win.
 */
#include "search.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "timeman.h"
#include "tt.h"
#include "util.h"

/* Scores at or beyond this are wins/losses in plies (see score_to_tt). */
#define SCORE_MATE_BOUND (SCORE_WIN - 2 * SEARCH_MAX_PLY)
/* The deepest iteration; leaves room for plies past the nominal depth. */
#define MAX_ITERATION (SEARCH_MAX_PLY - 8)
/* History table: moves are indexed by a hash of their code. */
#define HISTORY_BITS 12
#define HISTORY_SIZE (1 << HISTORY_BITS)
#define HISTORY_MAX 16384
/* Aspiration window half width at the start, in evaluation units. */
#define ASPIRATION_DELTA 30
/* Plies past the horizon in which quiescence follows voluntary noisy moves. */
#ifndef QSEARCH_PLIES
#define QSEARCH_PLIES 4
#endif
/* How often (in nodes) the main thread looks at the clock. */
#define CLOCK_CHECK_MASK 511
/* Nodes a thread counts locally before adding them to the shared total. */
#define NODE_BATCH 256
#define MAX_THREADS SEARCH_MAX_THREADS

/* Move ordering bands. */
#define ORDER_TT (1 << 30)
#define ORDER_NOISY (1 << 28)
#define ORDER_KILLER1 (1 << 27)
#define ORDER_KILLER2 ((1 << 27) - 1)

typedef struct ScoredMove {
    Move move;
    int order;
    int noisy;
} ScoredMove;

typedef struct RootMove {
    Move move;
    int score;      /* this iteration; -SCORE_INF when only a bound is known */
    int prev_score; /* last iteration */
    int seldepth;
    int pv_len;
    Move pv[SEARCH_MAX_PLY];
} RootMove;

struct SearchShared;

typedef struct SearchThread {
    struct SearchShared *sh;
    int id; /* 0 = main */
    pthread_t handle;

    uint64_t nodes;    /* this thread's nodes (read by others only after join) */
    int batch;         /* nodes not yet added to sh->nodes_total */
    int seldepth;      /* deepest ply + 1 of this iteration */
    bool inexact;      /* a heuristic leaf was met (see "solved" below) */
    int completed;     /* last completed iteration */
    Move reported_best; /* first move of the last PV printed */

    RootMove *root;    /* this thread's root moves */
    int root_count;
    int pv_index;      /* MultiPV line being searched */

    Move killers[SEARCH_MAX_PLY + 1][2];
    int16_t history[2][HISTORY_SIZE];
    uint64_t path_keys[SEARCH_MAX_PLY + 2];
    int pv_len[SEARCH_MAX_PLY + 2];
    Move pv[SEARCH_MAX_PLY + 2][SEARCH_MAX_PLY + 1];
    Position stack[SEARCH_MAX_PLY + 2];
    Move gen[MAX_MOVES];
    ScoredMove moves[SEARCH_MAX_PLY + 1][MAX_MOVES];
} SearchThread;

typedef struct SearchShared {
    const Variant *v;
    const Game *game;
    Position root;
    uint64_t root_key;
    bool root_chance;
    SearchLimits limits;
    int multipv;
    int threads;
    atomic_bool *stop;       /* the caller's flag */
    atomic_bool abort;       /* every thread returns at once */
    atomic_uint_fast64_t nodes_total;
    TimeBudget budget;
    int64_t start_ms;
    uint64_t *history_keys;  /* game keys before the root, sorted */
    int history_count;
    SearchReport report;
    void *ctx;
    SearchThread *thread[MAX_THREADS];
} SearchShared;

/* ------------------------------------------------------------- helpers */

static pthread_once_t tt_once = PTHREAD_ONCE_INIT;
static void tt_default(void)
{
    if (tt_size_mb() == 0)
        tt_resize(TT_DEFAULT_MB);
}

void search_limits_clear(SearchLimits *limits)
{
    memset(limits, 0, sizeof *limits);
    limits->time[WHITE] = -1;
    limits->time[BLACK] = -1;
    limits->move_overhead = TIMEMAN_DEFAULT_OVERHEAD_MS;
}

void search_set_hash(size_t mb)
{
    pthread_once(&tt_once, tt_default);
    tt_resize(mb);
}

void search_clear(void)
{
    pthread_once(&tt_once, tt_default);
    tt_clear();
}

void search_format_score(int score, char *buf)
{
    if (score >= SCORE_MATE_BOUND) {
        int plies = SCORE_WIN - score;
        snprintf(buf, 32, "mate %d", (plies + 1) / 2);
    } else if (score <= -SCORE_MATE_BOUND) {
        int plies = SCORE_WIN + score;
        snprintf(buf, 32, "mate -%d", (plies + 1) / 2);
    } else {
        snprintf(buf, 32, "cp %d", score);
    }
    if (strcmp(buf, "mate -0") == 0)
        strcpy(buf, "mate 0");
}

static inline int clampi(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }

/* Win and loss scores are stored relative to the node, not the root. */
static inline int score_to_tt(int s, int ply)
{
    return s >= SCORE_MATE_BOUND ? s + ply : s <= -SCORE_MATE_BOUND ? s - ply : s;
}
static inline int score_from_tt(int s, int ply)
{
    return s >= SCORE_MATE_BOUND ? s - ply : s <= -SCORE_MATE_BOUND ? s + ply : s;
}

static inline int history_index(Move m)
{
    return (int)((m * 0x9E3779B97F4A7C15ULL) >> (64 - HISTORY_BITS));
}

static inline bool aborted(const SearchThread *t)
{
    return atomic_load_explicit(&t->sh->abort, memory_order_relaxed);
}

static inline int64_t elapsed_ms(const SearchShared *sh) { return util_now_ms() - sh->start_ms; }

/* Count a node; the main thread also watches the stop flag and the clock. */
static inline void count_node(SearchThread *t, int ply)
{
    SearchShared *sh = t->sh;
    t->nodes++;
    if (ply + 1 > t->seldepth)
        t->seldepth = ply + 1;
    if (++t->batch >= NODE_BATCH) {
        atomic_fetch_add_explicit(&sh->nodes_total, (uint64_t)t->batch, memory_order_relaxed);
        t->batch = 0;
    }
    if (sh->limits.nodes &&
        atomic_load_explicit(&sh->nodes_total, memory_order_relaxed) + (uint64_t)t->batch >=
            sh->limits.nodes)
        atomic_store_explicit(&sh->abort, true, memory_order_relaxed);
    if (t->id == 0) {
        if (atomic_load_explicit(sh->stop, memory_order_relaxed))
            atomic_store_explicit(&sh->abort, true, memory_order_relaxed);
        else if (sh->budget.timed && (t->nodes & CLOCK_CHECK_MASK) == 0 &&
                 elapsed_ms(sh) >= sh->budget.hard_ms)
            atomic_store_explicit(&sh->abort, true, memory_order_relaxed);
    }
}

/* Score of a finished game for the side to move at ply. */
static int terminal_score(Result r, int stm, int ply)
{
    if (r == RESULT_DRAW)
        return 0;
    int winner = r == RESULT_WHITE_WINS ? WHITE : BLACK;
    return winner == stm ? SCORE_WIN - ply : -(SCORE_WIN - ply);
}

static int evaluate(const Variant *v, const Position *pos)
{
    return clampi(v->evaluate(pos), -SCORE_EVAL_MAX, SCORE_EVAL_MAX);
}

static bool eval_exact(const Variant *v, const Position *pos)
{
    return v->eval_is_exact && v->eval_is_exact(pos);
}

static bool is_noisy(const Variant *v, const Position *pos, Move m)
{
    return v->is_noisy && v->is_noisy(pos, m);
}

static bool is_chance(const Variant *v, const Position *pos)
{
    return v->is_chance && v->is_chance(pos);
}

/* A position that repeats one on the search path or in the game before the
 * root (only in games where repetition draws). */
static bool is_repetition(const SearchThread *t, uint64_t key, int ply)
{
    const SearchShared *sh = t->sh;
    if (!sh->v->repetition_draws)
        return false;
    for (int i = ply - 1; i >= 0; i--)
        if (t->path_keys[i] == key)
            return true;
    int lo = 0, hi = sh->history_count - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (sh->history_keys[mid] == key)
            return true;
        if (sh->history_keys[mid] < key)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return false;
}

/* ------------------------------------------------------ move ordering */

static int compare_scored(const void *a, const void *b)
{
    const ScoredMove *x = a, *y = b;
    if (x->order != y->order)
        return x->order > y->order ? -1 : 1;
    return x->move < y->move ? -1 : x->move > y->move;
}

typedef struct Picker {
    ScoredMove *m;
    int n, next;
    bool sorted;
} Picker;

/* The best remaining move: selection for the first few (most nodes cut off
 * early), one sort for the rest. */
static ScoredMove *pick_next(Picker *p)
{
    if (p->next >= p->n)
        return NULL;
    if (!p->sorted) {
        if (p->next < 3) {
            int best = p->next;
            for (int i = p->next + 1; i < p->n; i++)
                if (compare_scored(&p->m[i], &p->m[best]) < 0)
                    best = i;
            ScoredMove tmp = p->m[p->next];
            p->m[p->next] = p->m[best];
            p->m[best] = tmp;
        } else {
            qsort(p->m + p->next, (size_t)(p->n - p->next), sizeof *p->m, compare_scored);
            p->sorted = true;
        }
    }
    return &p->m[p->next++];
}

/* Fill t->moves[ply] from the generated list with ordering scores.  With
 * noisy_only, keep the noisy moves only.  Returns how many were kept. */
static int score_moves(SearchThread *t, const Position *pos, int n, int ply, Move tt_move,
                       bool noisy_only)
{
    const Variant *v = t->sh->v;
    int side = v->side_to_move(pos) & 1;
    ScoredMove *out = t->moves[ply];
    int k = 0;
    for (int i = 0; i < n; i++) {
        Move m = t->gen[i];
        bool noisy = is_noisy(v, pos, m);
        if (noisy_only && !noisy)
            continue;
        int h = t->history[side][history_index(m)];
        int order;
        if (m == tt_move)
            order = ORDER_TT;
        else if (noisy)
            order = ORDER_NOISY + h;
        else if (ply <= SEARCH_MAX_PLY && m == t->killers[ply][0])
            order = ORDER_KILLER1;
        else if (ply <= SEARCH_MAX_PLY && m == t->killers[ply][1])
            order = ORDER_KILLER2;
        else
            order = h;
        out[k].move = m;
        out[k].order = order;
        out[k].noisy = noisy;
        k++;
    }
    return k;
}

static void history_update(int16_t *h, int bonus)
{
    int v = *h;
    v += bonus - v * (bonus < 0 ? -bonus : bonus) / HISTORY_MAX;
    *h = (int16_t)clampi(v, -HISTORY_MAX, HISTORY_MAX);
}

/* A quiet move caused a cutoff: remember it and punish the quiets before it. */
static void reward_quiet(SearchThread *t, const Position *pos, int ply, int depth, Move best,
                         const Move *tried, int tried_count)
{
    int side = t->sh->v->side_to_move(pos) & 1;
    int bonus = depth * depth > 400 ? 400 : depth * depth;
    history_update(&t->history[side][history_index(best)], bonus * 16);
    for (int i = 0; i < tried_count; i++)
        history_update(&t->history[side][history_index(tried[i])], -bonus * 16);
    if (t->killers[ply][0] != best) {
        t->killers[ply][1] = t->killers[ply][0];
        t->killers[ply][0] = best;
    }
}

/* ----------------------------------------------------------- the search */

static int search(SearchThread *t, const Position *pos, int alpha, int beta, int depth,
                  int ply);

/* Value of child (at ply) from the parent's view with the parent's window. */
static inline int child_value(SearchThread *t, const Position *child, bool same_side, int alpha,
                              int beta, int depth, int ply)
{
    if (same_side)
        return search(t, child, alpha, beta, depth, ply);
    return -search(t, child, -beta, -alpha, depth, ply);
}

/* Start of every node: path key, terminal, repetition and ply limit.  Returns
 * true with *value set when the node is decided without a search. */
static bool node_start(SearchThread *t, const Position *pos, int ply, uint64_t *key, int *value)
{
    const Variant *v = t->sh->v;
    t->pv_len[ply] = 0;
    if (aborted(t)) {
        *value = 0;
        return true;
    }
    count_node(t, ply);
    *key = v->key(pos);
    tt_prefetch(*key);
    /* Where the evaluation is the exact value (Alexander's expected margin,
     * finished games included) nothing below can improve on it, and mixing it
     * with win-distance scores would distort the averages of chance nodes. */
    if (ply > 0 && eval_exact(v, pos)) {
        *value = evaluate(v, pos);
        return true;
    }
    Result r = v->result(pos, NULL, NULL);
    if (r != RESULT_NONE) {
        *value = terminal_score(r, v->side_to_move(pos), ply);
        return true;
    }
    t->path_keys[ply] = *key;
    if (ply > 0 && is_repetition(t, *key, ply)) {
        t->inexact = true; /* depends on the path, never a proof */
        *value = 0;
        return true;
    }
    if (ply >= SEARCH_MAX_PLY) {
        t->inexact = true;
        *value = evaluate(v, pos);
        return true;
    }
    return false;
}

/* Quiescence: only noisy moves past the horizon, with stand pat on the
 * evaluation -- except where every legal move is noisy (a forced capture):
 * then there is no standing pat and all of them are searched, so the horizon
 * never cuts an exchange in half. */
static int qsearch(SearchThread *t, const Position *pos, int alpha, int beta, int ply, int qply)
{
    const Variant *v = t->sh->v;
    uint64_t key = 0;
    int value;
    if (node_start(t, pos, ply, &key, &value))
        return value;
    if (aborted(t))
        return 0;
    if (eval_exact(v, pos))
        return evaluate(v, pos);
    if (is_chance(v, pos)) {
        t->inexact = true;
        return evaluate(v, pos);
    }
    /* Mate distance: nothing here can beat a win on the next ply. */
    int lo = -(SCORE_WIN - ply - 1), hi = SCORE_WIN - ply - 1;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;
    if (alpha >= beta)
        return alpha;

    int orig_alpha = alpha;
    TTHit hit;
    Move tt_move = MOVE_NONE;
    if (tt_probe(key, &hit)) {
        tt_move = hit.move;
        int s = score_from_tt(hit.score, ply);
        if (hit.bound == TT_BOUND_EXACT || (hit.bound == TT_BOUND_LOWER && s >= beta) ||
            (hit.bound == TT_BOUND_UPPER && s <= alpha)) {
            if (!hit.solved)
                t->inexact = true;
            return s;
        }
    }

    int n = v->generate(pos, t->gen);
    if (n <= 0)
        return -(SCORE_WIN - ply); /* no move and no result: treat as lost */
    int k = score_moves(t, pos, n, ply, tt_move, true);
    bool saved_inexact = t->inexact;
    t->inexact = false;
    int best = -SCORE_INF;
    if (k < n) {
        /* A quiet alternative exists: the side may stand pat. */
        t->inexact = true;
        best = evaluate(v, pos);
        if (best >= beta) {
            t->inexact = true;
            return best;
        }
        if (best > alpha)
            alpha = best;
        /* Voluntary noisy moves are followed QSEARCH_PLIES deep only (a game
         * where captures can go on and on would explode); forced ones (no
         * stand pat) always. */
        if (qply >= QSEARCH_PLIES)
            return best;
    }
    Move best_move = MOVE_NONE;
    int side = v->side_to_move(pos);
    Picker p = {t->moves[ply], k, 0, false};
    ScoredMove *sm;
    Position *child = &t->stack[ply + 1];
    while ((sm = pick_next(&p)) != NULL) {
        v->make(pos, sm->move, child);
        bool same = v->side_to_move(child) == side;
        int s = same ? qsearch(t, child, alpha, beta, ply + 1, qply + 1)
                     : -qsearch(t, child, -beta, -alpha, ply + 1, qply + 1);
        if (aborted(t))
            return 0;
        if (s > best) {
            best = s;
            best_move = sm->move;
            if (s > alpha) {
                alpha = s;
                if (s >= beta)
                    break;
            }
        }
    }
    bool solved = !t->inexact;
    t->inexact = saved_inexact || t->inexact;
    int bound = best >= beta ? TT_BOUND_LOWER : best > orig_alpha ? TT_BOUND_EXACT : TT_BOUND_UPPER;
    tt_store(key, best_move, score_to_tt(best, ply), 0, bound, solved);
    return best;
}

/* Smallest and largest sum of n outcome values whose average (C division,
 * truncating toward zero) is at least beta / at most alpha. */
static int64_t sum_at_least(int beta, int n)
{
    return beta > 0 ? (int64_t)n * beta : (int64_t)n * beta - n + 1;
}
static int64_t sum_at_most(int alpha, int n)
{
    return alpha >= 0 ? (int64_t)n * alpha + n - 1 : (int64_t)n * alpha;
}

/* A chance node: the value is the average of its equally likely outcomes,
 * each seen from the roller's side.  Star1: each outcome is searched with
 * the window outside which the average is decided whatever the remaining
 * outcomes (bounded by +-SCORE_WIN) turn out to be.  Only exact values go to
 * the TT. */
static int chance_node(SearchThread *t, const Position *pos, uint64_t key, int alpha, int beta,
                       int depth, int ply)
{
    const Variant *v = t->sh->v;
    TTHit hit;
    if (tt_probe(key, &hit) && hit.bound == TT_BOUND_EXACT && (hit.depth >= depth || hit.solved)) {
        if (!hit.solved)
            t->inexact = true;
        return score_from_tt(hit.score, ply);
    }
    int n = v->generate(pos, t->gen);
    if (n <= 0)
        return -(SCORE_WIN - ply);
    ScoredMove *outcomes = t->moves[ply];
    for (int i = 0; i < n; i++)
        outcomes[i].move = t->gen[i];
    const int64_t lower = -SCORE_WIN, upper = SCORE_WIN;
    int side = v->side_to_move(pos);
    bool saved_inexact = t->inexact;
    t->inexact = false;
    int64_t sum = 0;
    Position *child = &t->stack[ply + 1];
    for (int i = 0; i < n; i++) {
        int64_t rest = n - i - 1;
        /* Outcome value <= a: the average cannot exceed alpha;
         * >= b: it cannot fall below beta. */
        int64_t a = sum_at_most(alpha, n) - sum - rest * upper;
        int64_t b = sum_at_least(beta, n) - sum - rest * lower;
        if (a >= upper) {
            t->inexact = saved_inexact || t->inexact;
            return (int)((sum + (rest + 1) * upper) / n);
        }
        if (b <= lower) {
            t->inexact = saved_inexact || t->inexact;
            return (int)((sum + (rest + 1) * lower) / n);
        }
        int wa = a < -SCORE_INF ? -SCORE_INF : (int)a;
        int wb = b > SCORE_INF ? SCORE_INF : (int)b;
        v->make(pos, outcomes[i].move, child);
        bool same = v->side_to_move(child) == side;
        int s = child_value(t, child, same, wa, wb, depth, ply + 1);
        if (aborted(t))
            return 0;
        if (s <= a) {
            t->inexact = saved_inexact || t->inexact;
            return (int)((sum + s + rest * upper) / n);
        }
        if (s >= b) {
            t->inexact = saved_inexact || t->inexact;
            return (int)((sum + s + rest * lower) / n);
        }
        sum += s;
    }
    int value = (int)(sum / n);
    bool solved = !t->inexact;
    t->inexact = saved_inexact || t->inexact;
    tt_store(key, MOVE_NONE, score_to_tt(value, ply), depth, TT_BOUND_EXACT, solved);
    t->pv_len[ply] = 0;
    return value;
}

/* Negamax alpha-beta with PVS at a node below the root.  Fail-soft: a value
 * <= alpha is an upper bound, >= beta a lower bound, else exact. */
static int search(SearchThread *t, const Position *pos, int alpha, int beta, int depth, int ply)
{
    const Variant *v = t->sh->v;
    if (depth <= 0)
        return qsearch(t, pos, alpha, beta, ply, 0);
    uint64_t key = 0;
    int value;
    if (node_start(t, pos, ply, &key, &value))
        return value;
    if (aborted(t))
        return 0;
    int lo = -(SCORE_WIN - ply - 1), hi = SCORE_WIN - ply - 1;
    if (alpha < lo)
        alpha = lo;
    if (beta > hi)
        beta = hi;
    if (alpha >= beta)
        return alpha;
    if (is_chance(v, pos))
        return chance_node(t, pos, key, alpha, beta, depth, ply);

    bool pv_node = beta - alpha > 1;
    int orig_alpha = alpha;
    TTHit hit;
    Move tt_move = MOVE_NONE;
    if (tt_probe(key, &hit)) {
        tt_move = hit.move;
        int s = score_from_tt(hit.score, ply);
        if (!pv_node && (hit.depth >= depth || hit.solved) &&
            (hit.bound == TT_BOUND_EXACT || (hit.bound == TT_BOUND_LOWER && s >= beta) ||
             (hit.bound == TT_BOUND_UPPER && s <= alpha))) {
            if (!hit.solved)
                t->inexact = true;
            return s;
        }
    }

    int n = v->generate(pos, t->gen);
    if (n <= 0)
        return -(SCORE_WIN - ply); /* no move and no result: treat as lost */
    int k = score_moves(t, pos, n, ply, tt_move, false);
    bool saved_inexact = t->inexact;
    t->inexact = false;

    int side = v->side_to_move(pos);
    int best = -SCORE_INF;
    Move best_move = MOVE_NONE;
    Move quiets[64];
    int quiet_count = 0;
    int searched = 0;
    Picker p = {t->moves[ply], k, 0, false};
    ScoredMove *sm;
    Position *child = &t->stack[ply + 1];
    while ((sm = pick_next(&p)) != NULL) {
        Move m = sm->move;
        v->make(pos, m, child);
        bool same = v->side_to_move(child) == side;
        int s;
        if (searched == 0) {
            s = child_value(t, child, same, alpha, beta, depth - 1, ply + 1);
        } else {
            /* Late quiet moves of a deep node are searched shallower first. */
            int r = 0;
            if (depth >= 3 && searched >= 4 && !sm->noisy && sm->order < ORDER_KILLER2)
                r = (searched >= 12 && depth >= 6) ? 2 : 1;
            s = child_value(t, child, same, alpha, alpha + 1, depth - 1 - r, ply + 1);
            if (r && s > alpha)
                s = child_value(t, child, same, alpha, alpha + 1, depth - 1, ply + 1);
            if (s > alpha && s < beta)
                s = child_value(t, child, same, alpha, beta, depth - 1, ply + 1);
        }
        if (aborted(t))
            return 0;
        searched++;
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                t->pv[ply][0] = m;
                int cl = t->pv_len[ply + 1];
                memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)cl * sizeof(Move));
                t->pv_len[ply] = cl + 1;
                if (s >= beta) {
                    if (!sm->noisy)
                        reward_quiet(t, pos, ply, depth, m, quiets, quiet_count);
                    break;
                }
            }
        }
        if (!sm->noisy && quiet_count < 64)
            quiets[quiet_count++] = m;
    }
    bool solved = !t->inexact;
    t->inexact = saved_inexact || t->inexact;
    int bound = best >= beta ? TT_BOUND_LOWER : best > orig_alpha ? TT_BOUND_EXACT : TT_BOUND_UPPER;
    tt_store(key, bound == TT_BOUND_UPPER ? MOVE_NONE : best_move, score_to_tt(best, ply), depth,
             bound, solved);
    return best;
}

/* --------------------------------------------------------------- the root */

/* Search root moves [pv_index, count) with the window; keeps each move's
 * score (-SCORE_INF when only a bound was learnt) and PV. */
static int search_root(SearchThread *t, int depth, int alpha, int beta)
{
    SearchShared *sh = t->sh;
    const Variant *v = sh->v;
    const Position *pos = &sh->root;
    int side = v->side_to_move(pos);
    t->path_keys[0] = sh->root_key;
    t->pv_len[0] = 0;
    count_node(t, 0);
    int best = -SCORE_INF;
    Position *child = &t->stack[1];
    for (int i = t->pv_index; i < t->root_count; i++) {
        RootMove *rm = &t->root[i];
        v->make(pos, rm->move, child);
        bool same = v->side_to_move(child) == side;
        int s;
        if (i == t->pv_index) {
            s = child_value(t, child, same, alpha, beta, depth - 1, 1);
        } else {
            s = child_value(t, child, same, alpha, alpha + 1, depth - 1, 1);
            if (s > alpha && s < beta)
                s = child_value(t, child, same, alpha, beta, depth - 1, 1);
        }
        if (aborted(t))
            return best;
        if (i == t->pv_index || s > alpha) {
            rm->score = s;
            rm->seldepth = t->seldepth;
            rm->pv[0] = rm->move;
            int cl = t->pv_len[1];
            if (cl > SEARCH_MAX_PLY - 1)
                cl = SEARCH_MAX_PLY - 1;
            memcpy(&rm->pv[1], t->pv[1], (size_t)cl * sizeof(Move));
            rm->pv_len = cl + 1;
        } else {
            rm->score = -SCORE_INF;
        }
        if (s > best) {
            best = s;
            if (s > alpha) {
                alpha = s;
                if (s >= beta)
                    break;
            }
        }
    }
    return best;
}

/* Stable sort of root moves [from, to) by score, then previous score. */
static void sort_root(RootMove *rm, int from, int to)
{
    for (int i = from + 1; i < to; i++) {
        RootMove tmp = rm[i];
        int j = i - 1;
        while (j >= from && (rm[j].score < tmp.score ||
                             (rm[j].score == tmp.score && rm[j].prev_score < tmp.prev_score))) {
            rm[j + 1] = rm[j];
            j--;
        }
        rm[j + 1] = tmp;
    }
}

static uint64_t total_nodes(SearchShared *sh)
{
    SearchThread *main = sh->thread[0];
    return atomic_load_explicit(&sh->nodes_total, memory_order_relaxed) + (uint64_t)main->batch;
}

/* Report one PV line (pv may be empty). */
static void report_line(SearchShared *sh, int depth, int seldepth, int multipv, int score,
                        const Move *pv, int pv_len)
{
    if (!sh->report)
        return;
    SearchInfo info;
    info.depth = depth;
    info.seldepth = seldepth;
    info.multipv = multipv;
    info.score = score;
    info.nodes = sh->thread[0] ? total_nodes(sh) : 0;
    info.time_ms = elapsed_ms(sh);
    info.nps = info.time_ms > 0 ? info.nodes * 1000 / (uint64_t)info.time_ms : info.nodes * 1000;
    info.hashfull = tt_hashfull();
    info.root = &sh->root;
    info.pv = pv;
    info.pv_len = pv_len;
    sh->report(sh->ctx, &info);
}

/* Lazy SMP helpers skip some depths so the threads spread over iterations. */
static bool helper_skips(int id, int depth)
{
    static const int size[] = {1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4};
    static const int phase[] = {0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7};
    if (id == 0)
        return false;
    int i = (id - 1) % 20;
    return ((depth + phase[i]) / size[i]) % 2 != 0;
}

/* Iterative deepening at a decision root.  The main thread reports and
 * decides when to stop; helpers run until told to abort. */
static void iterate_decision(SearchThread *t)
{
    SearchShared *sh = t->sh;
    bool main = t->id == 0;
    int max_depth = MAX_ITERATION;
    if (sh->limits.depth > 0 && sh->limits.depth < max_depth)
        max_depth = sh->limits.depth;
    if (!main)
        max_depth = MAX_ITERATION;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (helper_skips(t->id, depth))
            continue;
        t->seldepth = 0;
        t->inexact = false;
        for (int i = 0; i < t->root_count; i++)
            t->root[i].prev_score = t->root[i].score;
        for (t->pv_index = 0; t->pv_index < sh->multipv && !aborted(t); t->pv_index++) {
            int prev = t->root[t->pv_index].prev_score;
            int delta = ASPIRATION_DELTA;
            int alpha = -SCORE_INF, beta = SCORE_INF;
            if (depth >= 4 && prev > -SCORE_MATE_BOUND && prev < SCORE_MATE_BOUND) {
                alpha = prev - delta > -SCORE_INF ? prev - delta : -SCORE_INF;
                beta = prev + delta < SCORE_INF ? prev + delta : SCORE_INF;
            }
            for (;;) {
                int s = search_root(t, depth, alpha, beta);
                sort_root(t->root, t->pv_index, t->root_count);
                if (aborted(t))
                    break;
                if (s <= alpha && alpha > -SCORE_INF) {
                    beta = (alpha + beta) / 2;
                    alpha = s - delta > -SCORE_INF ? s - delta : -SCORE_INF;
                } else if (s >= beta && beta < SCORE_INF) {
                    beta = s + delta < SCORE_INF ? s + delta : SCORE_INF;
                } else {
                    break;
                }
                delta += delta / 2;
            }
            sort_root(t->root, 0, t->pv_index + 1);
        }
        if (aborted(t))
            break;
        t->completed = depth;
        if (!main)
            continue;
        t->reported_best = t->root[0].move;
        for (int i = 0; i < sh->multipv; i++) {
            RootMove *rm = &t->root[i];
            report_line(sh, depth, rm->seldepth > t->seldepth ? rm->seldepth : t->seldepth, i + 1,
                        rm->score, rm->pv, rm->pv_len);
        }
        /* Nothing deeper can change a value proved without heuristic leaves. */
        if (!t->inexact)
            break;
        if (sh->budget.timed) {
            if (t->root_count == 1)
                break;
            if (elapsed_ms(sh) >= sh->budget.soft_ms)
                break;
        }
    }
}

/* Iterative deepening at a chance root (a roll is due): the value only. */
static int iterate_chance(SearchThread *t)
{
    SearchShared *sh = t->sh;
    bool main = t->id == 0;
    int max_depth = MAX_ITERATION;
    if (main && sh->limits.depth > 0 && sh->limits.depth < max_depth)
        max_depth = sh->limits.depth;
    int value = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        if (helper_skips(t->id, depth))
            continue;
        t->seldepth = 0;
        t->inexact = false;
        t->path_keys[0] = sh->root_key;
        t->pv_len[0] = 0;
        count_node(t, 0);
        int s = chance_node(t, &sh->root, sh->root_key, -SCORE_INF, SCORE_INF, depth, 0);
        if (aborted(t))
            break;
        value = s;
        t->completed = depth;
        if (!main)
            continue;
        report_line(sh, depth, t->seldepth, 1, value, NULL, 0);
        if (!t->inexact)
            break;
        if (sh->budget.timed && elapsed_ms(sh) >= sh->budget.soft_ms)
            break;
    }
    return value;
}

static void *helper_main(void *arg)
{
    SearchThread *t = arg;
    if (t->sh->root_chance)
        iterate_chance(t);
    else
        iterate_decision(t);
    atomic_fetch_add_explicit(&t->sh->nodes_total, (uint64_t)t->batch, memory_order_relaxed);
    t->batch = 0;
    return NULL;
}

static SearchThread *thread_new(SearchShared *sh, int id, const Move *moves, int n)
{
    SearchThread *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->sh = sh;
    t->id = id;
    if (n > 0) {
        t->root = calloc((size_t)n, sizeof *t->root);
        if (!t->root) {
            free(t);
            return NULL;
        }
        for (int i = 0; i < n; i++) {
            t->root[i].move = moves[i];
            t->root[i].score = -SCORE_INF;
            t->root[i].prev_score = -SCORE_INF;
        }
    }
    t->root_count = n;
    return t;
}

static void thread_free(SearchThread *t)
{
    if (t) {
        free(t->root);
        free(t);
    }
}

/* Order of the root moves for the first iteration: noisy first, then as
 * generated (deterministic). */
static int initial_root_order(const Variant *v, const Position *pos, Move *moves, int n)
{
    int k = 0;
    Move *tmp = malloc((size_t)n * sizeof *tmp);
    if (!tmp)
        return n;
    for (int i = 0; i < n; i++)
        if (is_noisy(v, pos, moves[i]))
            tmp[k++] = moves[i];
    for (int i = 0; i < n; i++)
        if (!is_noisy(v, pos, moves[i]))
            tmp[k++] = moves[i];
    memcpy(moves, tmp, (size_t)n * sizeof *tmp);
    free(tmp);
    return n;
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* In infinite mode the caller expects no result before it says stop. */
static void wait_for_stop(SearchShared *sh)
{
    while (!atomic_load(sh->stop)) {
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

SearchResult search_run(const Game *game, const SearchLimits *limits,
                        const SearchOptions *options, atomic_bool *stop, SearchReport report,
                        void *ctx)
{
    int64_t start_ms = util_now_ms(); /* the clock runs from the call */
    pthread_once(&tt_once, tt_default);
    SearchResult res = {MOVE_NONE, MOVE_NONE, 0, 0, 0};
    static atomic_bool never_stop;
    SearchShared *sh = calloc(1, sizeof *sh);
    if (!sh)
        return res;
    sh->v = game->variant;
    sh->game = game;
    sh->root = game->pos;
    sh->root_key = sh->v->key(&sh->root);
    if (limits)
        sh->limits = *limits;
    else
        search_limits_clear(&sh->limits);
    sh->stop = stop ? stop : &never_stop;
    sh->report = report;
    sh->ctx = ctx;
    sh->start_ms = start_ms;
    atomic_init(&sh->abort, false);
    atomic_init(&sh->nodes_total, 0);
    int threads = options && options->threads > 1 ? options->threads : 1;
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    int multipv = options && options->multipv > 1 ? options->multipv : 1;
    const Variant *v = sh->v;
    int side = v->side_to_move(&sh->root);
    sh->budget = timeman_allocate(&sh->limits, side);

    /* A finished game: nothing to search. */
    int margin = 0;
    Result r = game_result(game, &margin, NULL);
    if (r != RESULT_NONE) {
        res.score = terminal_score(r, side, 0);
        report_line(sh, 0, 0, 1, res.score, NULL, 0);
        if (sh->limits.infinite)
            wait_for_stop(sh);
        free(sh);
        return res;
    }

    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    int n = moves ? v->generate(&sh->root, moves) : 0;
    sh->root_chance = is_chance(v, &sh->root);
    if (n <= 0) {
        /* No move although the game goes on: the rules forbid it; a loss. */
        res.score = -SCORE_WIN;
        report_line(sh, 0, 0, 1, res.score, NULL, 0);
        if (sh->limits.infinite)
            wait_for_stop(sh);
        free(moves);
        free(sh);
        return res;
    }
    if (!sh->root_chance)
        initial_root_order(v, &sh->root, moves, n);
    sh->multipv = sh->root_chance ? 1 : multipv < n ? multipv : n;
    sh->threads = threads;

    /* Keys of the game before the root, for repetition. */
    if (v->repetition_draws && game->ply > 0) {
        sh->history_keys = malloc((size_t)game->ply * sizeof(uint64_t));
        if (sh->history_keys) {
            memcpy(sh->history_keys, game->keys, (size_t)game->ply * sizeof(uint64_t));
            qsort(sh->history_keys, (size_t)game->ply, sizeof(uint64_t), compare_keys);
            sh->history_count = game->ply;
        }
    }

    tt_new_search();
    int root_n = sh->root_chance ? 0 : n;
    for (int i = 0; i < threads; i++) {
        sh->thread[i] = thread_new(sh, i, moves, root_n);
        if (!sh->thread[i]) {
            threads = i; /* out of memory: fewer helpers */
            break;
        }
    }
    if (threads == 0) {
        res.best = sh->root_chance ? MOVE_NONE : moves[0];
        report_line(sh, 0, 0, 1, 0, NULL, 0);
        free(moves);
        free(sh);
        return res;
    }
    sh->threads = threads;
    for (int i = 1; i < threads; i++)
        if (pthread_create(&sh->thread[i]->handle, NULL, helper_main, sh->thread[i]) != 0) {
            thread_free(sh->thread[i]);
            sh->thread[i] = NULL;
            sh->threads = threads = i;
            break;
        }

    SearchThread *main = sh->thread[0];
    int chance_value = 0;
    if (sh->root_chance)
        chance_value = iterate_chance(main);
    else
        iterate_decision(main);

    /* The main thread is done: the helpers stop with it. */
    atomic_store(&sh->abort, true);
    for (int i = 1; i < threads; i++)
        pthread_join(sh->thread[i]->handle, NULL);
    if (sh->limits.infinite)
        wait_for_stop(sh);
    uint64_t nodes = 0;
    for (int i = 0; i < threads; i++)
        nodes += sh->thread[i]->nodes;

    res.depth = main->completed;
    res.nodes = nodes;
    if (sh->root_chance) {
        res.score = chance_value;
        if (main->completed == 0)
            report_line(sh, 0, 0, 1, 0, NULL, 0);
    } else if (main->completed > 0) {
        RootMove *best = &main->root[0];
        res.best = best->move;
        res.ponder = best->pv_len > 1 ? best->pv[1] : MOVE_NONE;
        res.score = best->score;
        /* An unfinished iteration found a better move: say so. */
        if (best->move != main->reported_best)
            report_line(sh, main->completed, best->seldepth, 1, best->score, best->pv,
                        best->pv_len);
    } else {
        /* Stopped before depth 1 was complete: the best move seen so far,
         * else the first legal move. */
        RootMove *best = &main->root[0];
        res.best = best->score > -SCORE_INF ? best->move : moves[0];
        res.score = best->score > -SCORE_INF ? best->score : 0;
        report_line(sh, 0, main->seldepth, 1, res.score, &res.best, 1);
    }
    for (int i = 0; i < threads; i++)
        thread_free(sh->thread[i]);
    free(sh->history_keys);
    free(moves);
    free(sh);
    return res;
}
