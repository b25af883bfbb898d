/* search.c - iterative deepening negamax alpha-beta (PVS) with expectimax
 * chance nodes, for any game behind the Variant interface.
 *
 * The search knows nothing of the game it plays.  It never assumes that the
 * side to move alternates: a child's value is negated only when
 * side_to_move(child) differs from side_to_move(parent), so passes (a move,
 * the side changes), extra turns and dice rolls (the roller keeps the move)
 * all come out right.
 *
 * Layout, top down:
 *   search_run      checks the root, hands the search to the thread pool
 *                   (threads.c), assembles the result;
 *   search_worker   one thread's iterative deepening with aspiration windows
 *                   (Lazy SMP: every thread runs it, sharing only the TT);
 *   search          PVS at every decision node, the root included (ply 0
 *                   takes its moves from the root move list and records each
 *                   one's score and PV there);
 *   qsearch         noisy moves past the horizon;
 *   chance_node     expectimax over equally likely outcomes (Star1).
 * Move ordering lives in movepick.c, the transposition table in tt.c.
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

#include "movepick.h"
#include "proof.h"
#include "tablebase.h"
#include "threads.h"
#include "timeman.h"
#include "tt.h"
#include "util.h"

/* ------------------------------------------------------------ tunables
 * Every number that shapes the search, shared by every game.  What each SPRT
 * of a value against an alternative gave, and the rule by which a value
 * gives way, is in doc/search.md, "Tunables". */

/* Aspiration windows: from ASPIRATION_MIN_DEPTH on, an iteration starts with
 * a window of +-ASPIRATION_DELTA around the previous score; every fail
 * widens delta by delta / ASPIRATION_WIDEN_DIVISOR (by half). */
#define ASPIRATION_MIN_DEPTH 4     /* SPRTs: doc/search.md, "Tunables" */
#define ASPIRATION_DELTA 30        /* SPRTs: doc/search.md, "Tunables" */
#define ASPIRATION_WIDEN_DIVISOR 2 /* SPRTs: doc/search.md, "Tunables" */

/* Late move reductions, at every node, the root included (its SPRT:
 * doc/search.md, "Root"): at depth >= LMR_MIN_DEPTH, a plain quiet move (not
 * the TT move, not a killer) after the first LMR_MIN_MOVES moves is searched
 * one ply shallower, two plies after LMR_DEEP_MOVES moves at depth >=
 * LMR_DEEP_DEPTH; a reduced move that beats alpha is searched again at full
 * depth.  At most two plies, never the first moves, noisy moves or killers:
 * the games' move counts differ tenfold. */
#define LMR_MIN_DEPTH 3   /* SPRTs: doc/search.md, "Tunables" */
#define LMR_MIN_MOVES 3   /* SPRTs: doc/search.md, "Tunables" */
#define LMR_DEEP_DEPTH 6  /* SPRTs: doc/search.md, "Tunables" */
#define LMR_DEEP_MOVES 12 /* SPRTs: doc/search.md, "Tunables" */

/* Plies past the horizon in which quiescence follows voluntary noisy moves
 * (forced ones are always followed).  Some bound is needed: a game of lines
 * can re-form a line every other move and remove again, so its removal
 * chains have no natural end (doc/search.md, "Quiescence"). */
#define QSEARCH_PLIES 2 /* SPRTs: doc/search.md, "Tunables" */

/* Quiet moves of a node remembered for the history malus of a cutoff.  Not
 * a strength setting: a bound on a stack array; a cutoff after more quiet
 * moves than this lowers the history of the first QUIETS_TRACKED only. */
#define QUIETS_TRACKED 64

/* ---------------------------------------------------------- constants */

/* Scores at or beyond this are wins/losses in plies (see score_to_tt). */
#define SCORE_MATE_BOUND (SCORE_WIN - 2 * SEARCH_MAX_PLY)
/* Plies kept free above the deepest iteration for the plies quiescence and
 * chance nodes add past the nominal depth. */
#define ITERATION_PLY_MARGIN 8
/* The deepest iteration. */
#define MAX_ITERATION (SEARCH_MAX_PLY - ITERATION_PLY_MARGIN)
/* How often (in nodes, a power of two minus one) the main thread looks at
 * the clock: every 512 nodes is well under a millisecond at any game's
 * speed, and reading the clock costs a system call at worst. */
#define CLOCK_CHECK_MASK 511
/* Nodes a thread counts locally before adding them to the shared total (one
 * atomic add per batch instead of per node); with several threads, the
 * others' uncounted nodes (fewer than this many each) may pass a node
 * limit. */
#define NODE_BATCH 256
/* Room of search_format_score's buffer (search.h). */
#define SCORE_TEXT_MAX 32
/* Milliseconds per second, for nodes per second. */
#define MS_PER_SECOND 1000
/* How often (ms) search_run's caller, waiting for the workers, looks at the
 * stop flag and the clock itself.  The main thread watches both at its
 * nodes, but with more threads than cores it may wait long for a core: the
 * caller's wake-ups keep every limit. */
#define WATCH_MS 5

/* One search: what every thread reads, and the few things they share. */
typedef struct SearchShared {
    const Variant *v;
    Position root;
    uint64_t root_key;
    bool root_chance;         /* a roll is due at the root */
    Move root_moves[MAX_MOVES]; /* decision root: in first-iteration order */
    int root_count;
    SearchLimits limits;
    int multipv;
    SearchSignal *signal;     /* the caller's stop and ponderhit */
    atomic_bool abort;        /* every thread returns at once */
    atomic_uint_fast64_t nodes_total;
    const Tablebase *tablebase; /* endgame tables, or NULL */
    atomic_uint_fast64_t tbhits;
    TimeBudget budget;        /* measured from clock_start_ms */
    int64_t start_ms;         /* search_run was called (reports count from here) */
    int64_t clock_start_ms;   /* the clock started: start_ms, or the ponderhit */
    bool pondering;           /* limits.ponder and no ponderhit seen yet (main
                                 thread only) */
    uint64_t *history_keys;   /* game keys before the root, sorted */
    int history_count;
    SearchReport report;
    void *ctx;
    int chance_value;         /* the main thread's value of a chance root */
} SearchShared;

/* ------------------------------------------------------------ helpers */

/* The TT gets its default size on first use (the one-time initialisation
 * is the only other global the search keeps). */
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
        snprintf(buf, SCORE_TEXT_MAX, "mate %d", (plies + 1) / 2);
    } else if (score <= -SCORE_MATE_BOUND) {
        int plies = SCORE_WIN + score;
        snprintf(buf, SCORE_TEXT_MAX, "mate -%d", (plies + 1) / 2);
    } else {
        snprintf(buf, SCORE_TEXT_MAX, "cp %d", score);
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

static inline bool aborted(const SearchThread *t)
{
    return atomic_load_explicit(&t->sh->abort, memory_order_relaxed);
}

static inline int64_t elapsed_ms(const SearchShared *sh) { return util_now_ms() - sh->start_ms; }

/* The time limits apply (the main thread asks): a timed search that is not
 * pondering.  A ponderhit seen here starts the clock. */
static bool clock_running(SearchShared *sh)
{
    if (sh->pondering && atomic_load_explicit(&sh->signal->ponderhit, memory_order_relaxed)) {
        sh->pondering = false;
        sh->clock_start_ms = util_now_ms();
    }
    return sh->budget.timed && !sh->pondering;
}

/* Milliseconds on the clock of this move. */
static inline int64_t clock_ms(const SearchShared *sh) { return util_now_ms() - sh->clock_start_ms; }

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
        if (atomic_load_explicit(&sh->signal->stop, memory_order_relaxed))
            atomic_store_explicit(&sh->abort, true, memory_order_relaxed);
        else if ((t->nodes & CLOCK_CHECK_MASK) == 0 && clock_running(sh) &&
                 clock_ms(sh) >= sh->budget.hard_ms)
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

/* ------------------------------------------------------ the node start */

/* The start every node below the root shares (search and quiescence): count
 * the node, then settle it without a search where that is possible -- the
 * search was aborted, the evaluation is exact, the game is over, the
 * position repeats, the ply limit is reached, or mate distance leaves an
 * empty window.  Returns true with *value set when the node is settled;
 * otherwise *key is the node's key and [*alpha, *beta] its window, narrowed
 * by mate distance. */
static bool node_prologue(SearchThread *t, const Position *pos, int ply, int *alpha, int *beta,
                          uint64_t *key, int *value)
{
    const Variant *v = t->sh->v;
    t->pv_len[ply] = 0;
    *value = 0;
    if (aborted(t))
        return true;
    count_node(t, ply);
    if (aborted(t))
        return true;
    *key = v->key(pos);
    tt_prefetch(*key);
    /* Where the evaluation is the exact value (a dice game's expected
     * margin, finished games included) nothing below can improve on it, and mixing it
     * with win-distance scores would distort the averages of chance nodes. */
    if (eval_exact(v, pos)) {
        *value = evaluate(v, pos);
        return true;
    }
    Result r = v->result(pos, NULL, NULL);
    if (r != RESULT_NONE) {
        *value = terminal_score(r, v->side_to_move(pos), ply);
        return true;
    }
    t->path_keys[ply] = *key;
    if (is_repetition(t, *key, ply)) {
        t->inexact = true; /* depends on the path, never a proof */
        return true;
    }
    /* Inside the endgame tables the value is known exactly. */
    TbValue tb_value;
    if (t->sh->tablebase && v->tablebase->probe(t->sh->tablebase, pos, &tb_value)) {
        atomic_fetch_add_explicit(&t->sh->tbhits, 1, memory_order_relaxed);
        *value = tablebase_score(tb_value, ply);
        return true;
    }
    if (ply >= SEARCH_MAX_PLY) {
        t->inexact = true;
        *value = evaluate(v, pos);
        return true;
    }
    /* Mate distance: nothing here can beat a win on the next ply. */
    int lo = -(SCORE_WIN - ply - 1), hi = SCORE_WIN - ply - 1;
    if (*alpha < lo)
        *alpha = lo;
    if (*beta > hi)
        *beta = hi;
    if (*alpha >= *beta) {
        *value = *alpha;
        return true;
    }
    return false;
}

/* Probe the TT for key at ply.  *tt_move gets the entry's move (ordering
 * only).  With may_cut, an entry from a search at least depth deep (or a
 * proved one) whose bound lies on the right side of [alpha, beta] settles
 * the node: true with *value. */
static bool tt_lookup(SearchThread *t, uint64_t key, int ply, int depth, int alpha, int beta,
                      bool may_cut, Move *tt_move, int *value)
{
    TTHit hit;
    *tt_move = MOVE_NONE;
    if (!tt_probe(key, &hit))
        return false;
    *tt_move = hit.move;
    int s = score_from_tt(hit.score, ply);
    if (!may_cut || (hit.depth < depth && !hit.solved))
        return false;
    if (hit.bound == TT_BOUND_EXACT || (hit.bound == TT_BOUND_LOWER && s >= beta) ||
        (hit.bound == TT_BOUND_UPPER && s <= alpha)) {
        if (!hit.solved)
            t->inexact = true;
        *value = s;
        return true;
    }
    return false;
}

/* The bound a fail-soft value has with respect to the original window. */
static int bound_of(int best, int orig_alpha, int beta)
{
    return best >= beta ? TT_BOUND_LOWER : best > orig_alpha ? TT_BOUND_EXACT : TT_BOUND_UPPER;
}

/* ----------------------------------------------------------- the search */

static int search(SearchThread *t, const Position *pos, int alpha, int beta, int depth,
                  int ply);
static int qsearch(SearchThread *t, const Position *pos, int alpha, int beta, int ply, int qply);

/* Value of child (at ply) from the parent's view with the parent's window. */
static inline int child_value(SearchThread *t, const Position *child, bool same_side, int alpha,
                              int beta, int depth, int ply)
{
    if (same_side)
        return search(t, child, alpha, beta, depth, ply);
    return -search(t, child, -beta, -alpha, depth, ply);
}

static inline int child_qvalue(SearchThread *t, const Position *child, bool same_side, int alpha,
                               int beta, int ply, int qply)
{
    if (same_side)
        return qsearch(t, child, alpha, beta, ply, qply);
    return -qsearch(t, child, -beta, -alpha, ply, qply);
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
    if (node_prologue(t, pos, ply, &alpha, &beta, &key, &value))
        return value;
    if (is_chance(v, pos)) {
        t->inexact = true;
        return evaluate(v, pos);
    }
    int orig_alpha = alpha;
    Move tt_move;
    if (tt_lookup(t, key, ply, 0, alpha, beta, true, &tt_move, &value))
        return value;

    int n = v->generate(pos, t->gen);
    if (n <= 0)
        return -(SCORE_WIN - ply); /* no move and no result: treat as lost */
    MovePicker mp;
    int k = movepick_init(&mp, t->moves[ply], &t->history, v, pos, t->gen, n, ply, tt_move, true);
    bool saved_inexact = t->inexact;
    t->inexact = false;
    int best = -SCORE_INF;
    if (k < n) {
        /* A quiet alternative exists: the side may stand pat. */
        t->inexact = true;
        best = evaluate(v, pos);
        if (best >= beta)
            return best;
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
    ScoredMove *sm;
    Position *child = &t->stack[ply + 1];
    while ((sm = movepick_next(&mp)) != NULL) {
        v->make(pos, sm->move, child);
        int s = child_qvalue(t, child, v->side_to_move(child) == side, alpha, beta, ply + 1,
                             qply + 1);
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
    tt_store(key, best_move, score_to_tt(best, ply), 0, bound_of(best, orig_alpha, beta), solved);
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

/* How many plies shallower the null-window search of a move goes, at every
 * node, the root included. */
static int reduction(int depth, int searched, const ScoredMove *sm)
{
    if (depth < LMR_MIN_DEPTH || searched < LMR_MIN_MOVES || !movepick_is_plain_quiet(sm))
        return 0;
    return searched >= LMR_DEEP_MOVES && depth >= LMR_DEEP_DEPTH ? 2 : 1;
}

/* The root's moves of this MultiPV line (those earlier lines have not
 * taken), ordered like any node's: the best of the last iteration first (in
 * the TT move's place), then noisy moves, killers and history. */
static void root_picker(SearchThread *t, MovePicker *mp)
{
    int count = t->root_count - t->pv_index;
    for (int i = 0; i < count; i++)
        t->gen[i] = t->root[t->pv_index + i].move;
    movepick_init(mp, t->moves[0], &t->history, t->sh->v, &t->sh->root, t->gen, count, 0,
                  t->root[t->pv_index].move, false);
}

/* The root move m of this MultiPV line. */
static RootMove *root_move_of(SearchThread *t, Move m)
{
    for (int i = t->pv_index; i < t->root_count; i++)
        if (t->root[i].move == m)
            return &t->root[i];
    return NULL; /* not reached: the picker hands out root moves only */
}

/* Record a root move's value: its score and PV when it is exact or the
 * first of the line, "only a bound" otherwise. */
static void root_move_update(SearchThread *t, RootMove *rm, int s, int alpha, bool first)
{
    if (!first && s <= alpha) {
        rm->score = -SCORE_INF;
        return;
    }
    rm->score = s;
    rm->seldepth = t->seldepth;
    rm->pv[0] = rm->move;
    int cl = t->pv_len[1];
    if (cl > SEARCH_MAX_PLY - 1)
        cl = SEARCH_MAX_PLY - 1;
    memcpy(&rm->pv[1], t->pv[1], (size_t)cl * sizeof(Move));
    rm->pv_len = cl + 1;
}

/* The PV of ply: m, then the child's PV. */
static void pv_update(SearchThread *t, int ply, Move m)
{
    t->pv[ply][0] = m;
    int cl = t->pv_len[ply + 1];
    memcpy(&t->pv[ply][1], t->pv[ply + 1], (size_t)cl * sizeof(Move));
    t->pv_len[ply] = cl + 1;
}

/* Negamax alpha-beta with PVS at a decision node; at ply 0 the root of the
 * current MultiPV line.  Fail-soft: a value <= alpha is an upper bound,
 * >= beta a lower bound, else exact.  The root differs only where it must:
 * search_run has already checked it (game over, repetition), so it has no
 * prologue, no TT cutoff and no TT store, and its moves are the root move
 * list (ordered by the picker like any node's, the last iteration's best in
 * the TT move's place), whose scores and PVs it keeps. */
static int search(SearchThread *t, const Position *pos, int alpha, int beta, int depth, int ply)
{
    const Variant *v = t->sh->v;
    const bool root = ply == 0;
    if (depth <= 0)
        return qsearch(t, pos, alpha, beta, ply, 0);
    uint64_t key = t->sh->root_key;
    int value;
    MovePicker mp;
    if (root) {
        t->path_keys[0] = key;
        t->pv_len[0] = 0;
        count_node(t, 0);
        root_picker(t, &mp);
    } else {
        if (node_prologue(t, pos, ply, &alpha, &beta, &key, &value))
            return value;
        if (is_chance(v, pos))
            return chance_node(t, pos, key, alpha, beta, depth, ply);
        Move tt_move;
        bool pv_node = beta - alpha > 1;
        if (tt_lookup(t, key, ply, depth, alpha, beta, !pv_node, &tt_move, &value))
            return value;
        int n = v->generate(pos, t->gen);
        if (n <= 0)
            return -(SCORE_WIN - ply); /* no move and no result: treat as lost */
        movepick_init(&mp, t->moves[ply], &t->history, v, pos, t->gen, n, ply, tt_move, false);
    }

    int orig_alpha = alpha;
    bool saved_inexact = t->inexact;
    t->inexact = false;
    int side = v->side_to_move(pos);
    int best = -SCORE_INF;
    Move best_move = MOVE_NONE;
    Move quiets[QUIETS_TRACKED];
    int quiet_count = 0;
    int searched = 0;
    ScoredMove *sm;
    Position *child = &t->stack[ply + 1];
    while ((sm = movepick_next(&mp)) != NULL) {
        Move m = sm->move;
        v->make(pos, m, child);
        bool same = v->side_to_move(child) == side;
        int s;
        if (searched == 0) {
            s = child_value(t, child, same, alpha, beta, depth - 1, ply + 1);
        } else {
            /* PVS: a null window first, shallower for late quiet moves;
             * the full window only when the move may be better. */
            int r = reduction(depth, searched, sm);
            s = child_value(t, child, same, alpha, alpha + 1, depth - 1 - r, ply + 1);
            if (r && s > alpha)
                s = child_value(t, child, same, alpha, alpha + 1, depth - 1, ply + 1);
            if (s > alpha && s < beta)
                s = child_value(t, child, same, alpha, beta, depth - 1, ply + 1);
        }
        if (aborted(t))
            return 0;
        if (root)
            root_move_update(t, root_move_of(t, m), s, alpha, searched == 0);
        searched++;
        if (s > best) {
            best = s;
            best_move = m;
            if (s > alpha) {
                alpha = s;
                if (!root)
                    pv_update(t, ply, m);
                if (s >= beta) {
                    if (!sm->noisy)
                        movepick_reward_cutoff(&t->history, side, ply, depth, m, quiets,
                                               quiet_count);
                    break;
                }
            }
        }
        if (!sm->noisy && quiet_count < QUIETS_TRACKED)
            quiets[quiet_count++] = m;
    }
    bool solved = !t->inexact;
    t->inexact = saved_inexact || t->inexact;
    if (!root) {
        int bound = bound_of(best, orig_alpha, beta);
        tt_store(key, bound == TT_BOUND_UPPER ? MOVE_NONE : best_move, score_to_tt(best, ply),
                 depth, bound, solved);
    }
    return best;
}

/* ------------------------------------------------- iterative deepening */

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

/* Report one PV line (pv may be empty).  t is the reporting thread (its
 * uncounted batch belongs to the total) or NULL. */
static void report_line(const SearchShared *sh, const SearchThread *t, int depth, int seldepth,
                        int multipv, int score, const Move *pv, int pv_len)
{
    if (!sh->report)
        return;
    SearchInfo info;
    info.depth = depth;
    info.seldepth = seldepth;
    info.multipv = multipv;
    info.score = score;
    info.nodes = atomic_load_explicit(&sh->nodes_total, memory_order_relaxed) +
                 (t ? (uint64_t)t->batch : 0);
    info.time_ms = elapsed_ms(sh);
    info.nps = info.time_ms > 0 ? info.nodes * MS_PER_SECOND / (uint64_t)info.time_ms
                                : info.nodes * MS_PER_SECOND;
    info.hashfull = tt_hashfull();
    info.tablebase = sh->tablebase != NULL;
    info.tbhits = atomic_load_explicit(&sh->tbhits, memory_order_relaxed);
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

/* The deepest iteration this thread may start: the depth limit binds the
 * main thread only (helpers run until the main thread is done). */
static int max_iteration(const SearchThread *t)
{
    int limit = t->sh->limits.depth;
    return t->id == 0 && limit > 0 && limit < MAX_ITERATION ? limit : MAX_ITERATION;
}

/* Search one MultiPV line at depth with an aspiration window around its
 * previous score. */
static void aspiration_search(SearchThread *t, int depth)
{
    int prev = t->root[t->pv_index].prev_score;
    int delta = ASPIRATION_DELTA;
    int alpha = -SCORE_INF, beta = SCORE_INF;
    if (depth >= ASPIRATION_MIN_DEPTH && prev > -SCORE_MATE_BOUND && prev < SCORE_MATE_BOUND) {
        alpha = prev - delta > -SCORE_INF ? prev - delta : -SCORE_INF;
        beta = prev + delta < SCORE_INF ? prev + delta : SCORE_INF;
    }
    for (;;) {
        int s = search(t, &t->sh->root, alpha, beta, depth, 0);
        sort_root(t->root, t->pv_index, t->root_count);
        if (aborted(t))
            return;
        if (s <= alpha && alpha > -SCORE_INF) {
            beta = (alpha + beta) / 2;
            alpha = s - delta > -SCORE_INF ? s - delta : -SCORE_INF;
        } else if (s >= beta && beta < SCORE_INF) {
            beta = s + delta < SCORE_INF ? s + delta : SCORE_INF;
        } else {
            return;
        }
        delta += delta / ASPIRATION_WIDEN_DIVISOR;
    }
}

/* Iterative deepening at a decision root.  The main thread reports and
 * decides when to stop; helpers run until told to abort. */
static void iterate_decision(SearchThread *t)
{
    SearchShared *sh = t->sh;
    bool main = t->id == 0;
    for (int depth = 1; depth <= max_iteration(t); depth++) {
        /* The helpers join once the main thread has a move. */
        if (main && depth == 2)
            threads_wake_helpers();
        if (helper_skips(t->id, depth))
            continue;
        t->seldepth = 0;
        t->inexact = false;
        for (int i = 0; i < t->root_count; i++)
            t->root[i].prev_score = t->root[i].score;
        for (t->pv_index = 0; t->pv_index < sh->multipv && !aborted(t); t->pv_index++) {
            aspiration_search(t, depth);
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
            report_line(sh, t, depth, rm->seldepth > t->seldepth ? rm->seldepth : t->seldepth,
                        i + 1, rm->score, rm->pv, rm->pv_len);
        }
        /* Nothing deeper can change a value proved without heuristic leaves. */
        if (!t->inexact)
            break;
        if (clock_running(sh)) {
            if (t->root_count == 1)
                break;
            if (clock_ms(sh) >= sh->budget.soft_ms)
                break;
        }
    }
}

/* Iterative deepening at a chance root (a roll is due): the value only. */
static int iterate_chance(SearchThread *t)
{
    SearchShared *sh = t->sh;
    bool main = t->id == 0;
    int value = 0;
    for (int depth = 1; depth <= max_iteration(t); depth++) {
        if (main && depth == 2)
            threads_wake_helpers();
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
        report_line(sh, t, depth, t->seldepth, 1, value, NULL, 0);
        if (!t->inexact)
            break;
        if (clock_running(sh) && clock_ms(sh) >= sh->budget.soft_ms)
            break;
    }
    return value;
}

/* A thread's state at the start of a search.  History and killers start
 * empty: nothing learnt in an earlier search is carried over. */
static void thread_begin(SearchThread *t, SearchShared *sh)
{
    t->sh = sh;
    t->nodes = 0;
    t->batch = 0;
    t->seldepth = 0;
    t->inexact = false;
    t->completed = 0;
    t->reported_best = MOVE_NONE;
    t->pv_index = 0;
    movepick_clear_history(&t->history);
    t->root_count = sh->root_chance ? 0 : sh->root_count;
    for (int i = 0; i < t->root_count; i++)
        t->root[i] = (RootMove){.move = sh->root_moves[i], .score = -SCORE_INF,
                                .prev_score = -SCORE_INF};
}

/* What every pool worker runs for one search.  When the main thread is done
 * it aborts the helpers. */
static void search_worker(SearchThread *t, void *arg)
{
    SearchShared *sh = arg;
    thread_begin(t, sh);
    if (sh->root_chance) {
        int value = iterate_chance(t);
        if (t->id == 0)
            sh->chance_value = value;
    } else {
        iterate_decision(t);
    }
    atomic_fetch_add_explicit(&sh->nodes_total, (uint64_t)t->batch, memory_order_relaxed);
    t->batch = 0;
    if (t->id == 0)
        atomic_store(&sh->abort, true);
}

/* --------------------------------------------------------------- the root */

/* Order of the root moves for the first iteration: noisy first, then as
 * generated (deterministic). */
static void initial_root_order(const Variant *v, const Position *pos, Move *moves, int n)
{
    Move sorted[MAX_MOVES];
    int k = 0;
    for (int i = 0; i < n; i++)
        if (is_noisy(v, pos, moves[i]))
            sorted[k++] = moves[i];
    for (int i = 0; i < n; i++)
        if (!is_noisy(v, pos, moves[i]))
            sorted[k++] = moves[i];
    memcpy(moves, sorted, (size_t)n * sizeof *moves);
}

static int compare_keys(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Keys of the game before the root, sorted for the repetition test. */
static void load_history_keys(SearchShared *sh, const Game *game)
{
    if (!sh->v->repetition_draws || game->ply <= 0)
        return;
    sh->history_keys = util_xmalloc((size_t)game->ply * sizeof(uint64_t));
    memcpy(sh->history_keys, game->keys, (size_t)game->ply * sizeof(uint64_t));
    qsort(sh->history_keys, (size_t)game->ply, sizeof(uint64_t), compare_keys);
    sh->history_count = game->ply;
}

/* UCI: no answer in infinite mode before stop, nor while pondering before
 * ponderhit or stop.  Sleeps on the signal's condition variable. */
static void wait_for_release(SearchShared *sh)
{
    SearchSignal *sig = sh->signal;
    pthread_mutex_lock(&sig->lock);
    while (!atomic_load(&sig->stop) &&
           (sh->limits.infinite || (sh->limits.ponder && !atomic_load(&sig->ponderhit))))
        pthread_cond_wait(&sig->changed, &sig->lock);
    pthread_mutex_unlock(&sig->lock);
}

/* What search_run's caller does every WATCH_MS while the workers search:
 * raise the abort on stop, and at the hard limit (from the call, or from the
 * ponderhit it first saw: *hit_ms, -1 before).  Returns how long to wait
 * before the next look. */
static int watch(SearchShared *sh, int64_t *hit_ms)
{
    if (atomic_load(&sh->signal->stop)) {
        atomic_store(&sh->abort, true);
        return WATCH_MS;
    }
    if (!sh->budget.timed)
        return WATCH_MS;
    int64_t now = util_now_ms();
    int64_t start = sh->start_ms;
    if (sh->limits.ponder) {
        if (*hit_ms < 0) {
            if (!atomic_load(&sh->signal->ponderhit))
                return WATCH_MS;
            *hit_ms = now;
        }
        start = *hit_ms;
    }
    int64_t left = start + sh->budget.hard_ms - now;
    if (left <= 0) {
        atomic_store(&sh->abort, true);
        return WATCH_MS;
    }
    return left < WATCH_MS ? (int)left : WATCH_MS;
}

/* ------------------------------------------------------------ signals */

void search_signal_init(SearchSignal *signal)
{
    atomic_init(&signal->stop, false);
    atomic_init(&signal->ponderhit, false);
    pthread_mutex_init(&signal->lock, NULL);
    pthread_cond_init(&signal->changed, NULL);
}

void search_signal_reset(SearchSignal *signal)
{
    pthread_mutex_lock(&signal->lock);
    atomic_store(&signal->stop, false);
    atomic_store(&signal->ponderhit, false);
    pthread_mutex_unlock(&signal->lock);
}

/* Raise flag and wake whoever waits on the signal. */
static void raise_flag(SearchSignal *signal, atomic_bool *flag)
{
    pthread_mutex_lock(&signal->lock);
    atomic_store(flag, true);
    pthread_cond_broadcast(&signal->changed);
    pthread_mutex_unlock(&signal->lock);
}

void search_signal_stop(SearchSignal *signal) { raise_flag(signal, &signal->stop); }

void search_signal_ponderhit(SearchSignal *signal) { raise_flag(signal, &signal->ponderhit); }

bool search_signal_stopped(SearchSignal *signal) { return atomic_load(&signal->stop); }

void search_signal_destroy(SearchSignal *signal)
{
    pthread_cond_destroy(&signal->changed);
    pthread_mutex_destroy(&signal->lock);
}

/* The result of a search the pool ran on threads workers, with the last
 * report it owes: an unfinished iteration that put a new move first, or
 * the line it plays when not even depth 1 was completed. */
static SearchResult collect_result(SearchShared *sh, int threads)
{
    SearchResult res = {MOVE_NONE, MOVE_NONE, 0, 0, 0, SOURCE_SEARCH};
    SearchThread *main = threads_get(0);
    res.depth = main->completed;
    for (int i = 0; i < threads; i++)
        res.nodes += threads_get(i)->nodes;
    if (sh->root_chance) {
        res.score = sh->chance_value;
        if (main->completed == 0)
            report_line(sh, main, 0, 0, 1, 0, NULL, 0);
    } else if (main->completed > 0) {
        RootMove *best = &main->root[0];
        res.best = best->move;
        res.ponder = best->pv_len > 1 ? best->pv[1] : MOVE_NONE;
        res.score = best->score;
        if (best->move != main->reported_best)
            report_line(sh, main, main->completed, best->seldepth, 1, best->score, best->pv,
                        best->pv_len);
    } else {
        /* The best move seen so far, else the first legal move. */
        RootMove *best = &main->root[0];
        res.best = best->score > -SCORE_INF ? best->move : sh->root_moves[0];
        res.score = best->score > -SCORE_INF ? best->score : 0;
        report_line(sh, main, 0, main->seldepth, 1, res.score, &res.best, 1);
    }
    return res;
}

/* Serialises search_run: the TT and the thread pool serve one search at a
 * time. */
static pthread_mutex_t one_search = PTHREAD_MUTEX_INITIALIZER;

SearchResult search_run(const Game *game, const SearchLimits *limits,
                        const SearchOptions *options, SearchSignal *signal, SearchReport report,
                        void *ctx)
{
    int64_t start_ms = util_now_ms(); /* the clock runs from the call */
    static SearchSignal never_raised = {.lock = PTHREAD_MUTEX_INITIALIZER,
                                        .changed = PTHREAD_COND_INITIALIZER};
    pthread_once(&tt_once, tt_default);
    pthread_mutex_lock(&one_search);

    SearchShared sh;
    memset(&sh, 0, sizeof sh);
    sh.v = game->variant;
    sh.root = game->pos;
    sh.root_key = sh.v->key(&sh.root);
    if (limits)
        sh.limits = *limits;
    else
        search_limits_clear(&sh.limits);
    sh.signal = signal ? signal : &never_raised;
    sh.report = report;
    sh.ctx = ctx;
    sh.start_ms = start_ms;
    sh.clock_start_ms = start_ms;
    sh.pondering = sh.limits.ponder;
    atomic_init(&sh.abort, false);
    atomic_init(&sh.nodes_total, 0);
    atomic_init(&sh.tbhits, 0);
    if (options && options->tablebase && sh.v->tablebase)
        sh.tablebase = options->tablebase;
    int side = sh.v->side_to_move(&sh.root);
    sh.budget = timeman_allocate(&sh.limits, side);

    SearchResult res = {MOVE_NONE, MOVE_NONE, 0, 0, 0, SOURCE_SEARCH};
    int threads = 0;
    Move tb_move;
    TbValue tb_value;
    int tb_probes;
    bool book_root = false;
    Result r = game_result(game, NULL, NULL);
    if (r != RESULT_NONE) {
        /* A finished game: nothing to search. */
        res.score = terminal_score(r, side, 0);
        report_line(&sh, NULL, 0, 0, 1, res.score, NULL, 0);
    } else if ((sh.root_count = sh.v->generate(&sh.root, sh.root_moves)) <= 0) {
        /* No move although the game goes on: the rules forbid it; a loss. */
        res.score = -SCORE_WIN;
        report_line(&sh, NULL, 0, 0, 1, res.score, NULL, 0);
    } else if (sh.tablebase &&
               tablebase_root_move(game, sh.tablebase, &tb_move, &tb_value, &tb_probes)) {
        /* Inside the tables: the move that keeps the value, fastest to win,
         * slowest to lose; no search. */
        res.best = tb_move;
        res.score = tablebase_score(tb_value, 0);
        res.depth = 1;
        res.nodes = (uint64_t)tb_probes;
        atomic_store(&sh.nodes_total, (uint64_t)tb_probes);
        atomic_store(&sh.tbhits, (uint64_t)tb_probes + 1);
        report_line(&sh, NULL, 1, 1, 1, res.score, &tb_move, 1);
        res.source = SOURCE_TABLE;
    } else {
        sh.root_chance = is_chance(sh.v, &sh.root);
        /* In the proof book: only the moves it proves not to lose are
         * searched (the search picks the best of them). */
        Move safe[MAX_MOVES];
        int n_safe = options && options->book && !sh.root_chance
                         ? proof_book_moves(options->book, sh.tablebase, &sh.root, safe)
                         : 0;
        if (n_safe > 0) {
            memcpy(sh.root_moves, safe, (size_t)n_safe * sizeof *safe);
            sh.root_count = n_safe;
            book_root = true;
        }
        if (!sh.root_chance)
            initial_root_order(sh.v, &sh.root, sh.root_moves, sh.root_count);
        int multipv = options && options->multipv > 1 ? options->multipv : 1;
        sh.multipv = sh.root_chance ? 1 : multipv < sh.root_count ? multipv : sh.root_count;
        load_history_keys(&sh, game);
        tt_new_search();
        threads = threads_resize(options && options->threads > 1 ? options->threads : 1);
        if (threads > 0) {
            for (int i = 0; i < threads; i++)
                threads_get(i)->nodes = 0; /* helpers that never wake count none */
            int64_t hit_ms = -1;
            threads_start(threads, search_worker, &sh);
            while (!threads_wait_for(watch(&sh, &hit_ms)))
                ;
        } else {
            /* Out of memory for even one thread: the first legal move. */
            res.best = sh.root_chance ? MOVE_NONE : sh.root_moves[0];
            report_line(&sh, NULL, 0, 0, 1, 0, NULL, 0);
        }
    }
    wait_for_release(&sh);
    if (threads > 0) {
        res = collect_result(&sh, threads);
        res.source = book_root ? SOURCE_BOOK : SOURCE_SEARCH;
    }
    free(sh.history_keys);
    pthread_mutex_unlock(&one_search);
    return res;
}
