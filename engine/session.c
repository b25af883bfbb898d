/* session.c - the engine's state between commands and the worker thread.
 *
 * The owner thread keeps the Game; a job (search or perft) gets a copy of it,
 * so the worker never reads what the owner may change.  Every function that
 * changes the game, an option or the hash table stops the worker first.
 */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <ctype.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "perft.h"
#include "proof.h"
#include "timeman.h"
#include "tt.h"
#include "refusal.h"
#include "util.h"
#include "variants.h"

#ifdef SIGIL_FUZZ
/* The fuzz build (tests/fuzz, doc/reliability.md) bounds every job so that one
 * input runs in microseconds and replays identically: jobs run in the owner's
 * thread on one search thread, a search stops after FUZZ_MAX_NODES nodes
 * (`infinite` included; `go ponder` gets its ponderhit at once), a perft
 * goes FUZZ_MAX_PERFT_DEPTH deep at most, the dice never read the clock, and
 * the hash table stays at 4 KB whatever Hash says (tt.c).  Parsing,
 * validation and replies are those of the real engine. */
enum { FUZZ_MAX_NODES = 16, FUZZ_MAX_PERFT_DEPTH = 2 };
#endif

typedef enum JobKind { JOB_SEARCH, JOB_PERFT } JobKind;

/* What the worker runs: its own copy of the game and the request. */
typedef struct Job {
    JobKind kind;
    Game game;
    SearchLimits limits;
    SearchOptions options;
    Move roll;        /* at a chance node: the roll `go` answers */
    int perft_depth;
    int skill;        /* the strength this search plays at (SKILL_MAX: full) */
    /* Skill below SKILL_MAX: the root moves of the last completed iteration
     * and their scores, by MultiPV line (skill_pick chooses among them). */
    int candidates, candidate_depth;
    Move candidate[SKILL_CANDIDATES];
    int candidate_score[SKILL_CANDIDATES];
    uint64_t skill_rng; /* this search's own stream, drawn in the owner thread */
} Job;

struct Session {
    SessionOutput out;
    GameConfig config;
    Game game;

    size_t hash_mb;
    SearchOptions search_options;
    int64_t move_overhead;
    long long seed;   /* option Seed; 0 = from the clock */
    char tb_path[1024]; /* option TablebasePath; "" = no tables */
    int tb_pieces;      /* option TablebasePieces */
    Tablebase *tb;      /* the current variant's loaded tables, or NULL */
    ProofBook *book;    /* the current variant's proof book (TablebasePath), or NULL */
    uint64_t dice;    /* state of the roll generator */

    pthread_t thread;
    bool busy;        /* a worker exists and has not been joined */
    SearchSignal signal; /* stop (search and perft) and ponderhit */
    bool ponder_option;  /* option Ponder: bestmove names the expected reply */
    int skill_level;     /* option Skill Level */
    bool limit_strength; /* option UCI_LimitStrength: UCI_Elo sets the level */
    int elo;             /* option UCI_Elo */
    uint64_t skill_rng;  /* the weak levels' choices (seeded like the dice) */
    Job job;
};

/* ------------------------------------------------------------ the dice */

/* Seed 0: a different sequence in every session (clock and process id). */
static uint64_t clock_seed(void)
{
#ifdef SIGIL_FUZZ
    uint64_t x = 0x5eed; /* replayable */
#else
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
    x ^= (uint64_t)getpid() << 32;
#endif
    return util_splitmix64(&x);
}

static void reseed(Session *s)
{
    s->dice = s->seed != 0 ? (uint64_t)s->seed : clock_seed();
    uint64_t x = s->dice ^ 0x5c111e7e1e7e15ULL; /* a stream of its own */
    s->skill_rng = util_splitmix64(&x);
}

/* ------------------------------------------------------------ levels */

/* The playing strength (doc/levels.md).  Skill Level 20 is the engine at full
 * strength.  Below it a search is cut to a depth and a number of nodes that
 * grow with the level, looks at SKILL_CANDIDATES root moves (MultiPV), and
 * the move played is the candidate whose score plus a random bonus of
 * 0 .. skill_noise(level) centipawns is largest: a weak level prefers the
 * best move but often takes one a little worse, never one far worse, and
 * never anything but a legal root move of the search. */
int session_skill_depth(int level) { return 1 + level / 2; }

uint64_t session_skill_nodes(int level) { return (uint64_t)SKILL_BASE_NODES << (level / 2); }

int session_skill_noise(int level) { return (SKILL_MAX - level) * SKILL_NOISE_PER_LEVEL; }

int session_elo_to_skill(int elo)
{
    int level = (elo - SESSION_ELO_MIN) / SESSION_ELO_PER_LEVEL;
    return level < 0 ? 0 : level > SKILL_MAX - 1 ? SKILL_MAX - 1 : level;
}

int session_skill(const Session *s)
{
    return s->limit_strength ? session_elo_to_skill(s->elo) : s->skill_level;
}

/* The candidate a weak level plays: the largest score plus a random bonus;
 * MOVE_NONE when the search reported no line. */
static Move skill_pick(Job *job)
{
    int noise = session_skill_noise(job->skill);
    Move best = MOVE_NONE;
    long best_value = 0;
    for (int i = 0; i < job->candidates; i++) {
        long value = job->candidate_score[i];
        if (noise > 0)
            value += (long)util_random_below(&job->skill_rng, (uint64_t)noise + 1);
        if (best == MOVE_NONE || value > best_value) {
            best = job->candidate[i];
            best_value = value;
        }
    }
    return best;
}

/* A roll outcome of the current position drawn from the dice, or MOVE_NONE. */
static Move draw_roll(Session *s)
{
    const Variant *v = s->game.variant;
    if (!v->is_chance || !v->is_chance(&s->game.pos) ||
        game_result(&s->game, NULL, NULL) != RESULT_NONE)
        return MOVE_NONE;
    Move rolls[MAX_MOVES];
    int n = v->generate(&s->game.pos, rolls);
    if (n <= 0)
        return MOVE_NONE;
    return rolls[util_random_below(&s->dice, (uint64_t)n)];
}

/* ------------------------------------------------------------ lifetime */

static void notice(Session *s, NoticeKind kind, const char *text)
{
    if (s->out.notice)
        s->out.notice(s->out.ctx, kind, text);
}

Session *session_new(const SessionOutput *out)
{
    Session *s = util_xcalloc(1, sizeof *s);
    s->out = *out;
    variants_init();
    s->config.move_limit = DEFAULT_MOVE_LIMIT;
    s->hash_mb = TT_DEFAULT_MB;
    if (tt_size_mb() != s->hash_mb)
        tt_resize(s->hash_mb);
    s->search_options.threads = 1;
    s->search_options.multipv = 1;
    s->move_overhead = TIMEMAN_DEFAULT_OVERHEAD_MS;
    s->seed = 0;
    s->tb_pieces = SESSION_MAX_TABLEBASE_PIECES;
    s->skill_level = SKILL_MAX;
    s->elo = SESSION_ELO_MAX;
    reseed(s);
    search_signal_init(&s->signal);
    game_init(&s->game, variants_default(), &s->config);
    return s;
}

void session_free(Session *s)
{
    if (!s)
        return;
    session_stop(s);
    proof_book_free(s->book);
    if (s->tb)
        s->game.variant->tablebase->close(s->tb);
    game_free(&s->game);
    game_free(&s->job.game);
    search_signal_destroy(&s->signal);
    free(s);
}

/* ------------------------------------------------------------ the worker */

static void worker_info(void *ctx, const SearchInfo *info)
{
    Session *s = ctx;
    Job *job = &s->job;
    if (job->skill < SKILL_MAX && info->pv_len > 0 && info->multipv >= 1 &&
        info->multipv <= SKILL_CANDIDATES && info->depth >= job->candidate_depth) {
        if (info->depth > job->candidate_depth)
            job->candidates = 0; /* a new iteration's lines */
        job->candidate_depth = info->depth;
        int i = info->multipv - 1;
        job->candidate[i] = info->pv[0];
        job->candidate_score[i] = info->score;
        if (i + 1 > job->candidates)
            job->candidates = i + 1;
    }
    if (s->out.info)
        s->out.info(s->out.ctx, s->job.game.variant, info);
}

static void run_search(Session *s)
{
    Job *job = &s->job;
    const Variant *v = job->game.variant;
    const Position *root = &job->game.pos;
    Result r = game_result(&job->game, NULL, NULL);
    if (r != RESULT_NONE) {
        if (s->out.finished)
            s->out.finished(s->out.ctx, r, v->side_to_move(root));
        s->out.bestmove(s->out.ctx, "0000", NULL);
        return;
    }
    SearchResult res = search_run(&job->game, &job->limits, &job->options, &s->signal,
                                  worker_info, s);
    if (v->describe && s->out.analysis) {
        char text[512] = "";
        v->describe(root, text, sizeof text);
        s->out.analysis(s->out.ctx, text);
    }
    /* With tables or a book: where the move came from. */
    if ((job->options.tablebase || job->options.book) && s->out.analysis && res.best != MOVE_NONE &&
        job->roll == MOVE_NONE)
        s->out.analysis(s->out.ctx, res.source == SOURCE_BOOK    ? "source book"
                                    : res.source == SOURCE_TABLE ? "source table"
                                                                 : "source search");
    char best[MOVE_STR_MAX] = "0000", ponder[MOVE_STR_MAX];
    bool has_ponder = false;
    if (job->roll != MOVE_NONE) {
        v->move_str(root, job->roll, best);
    } else if (res.best != MOVE_NONE) {
        if (job->skill < SKILL_MAX) {
            Move pick = skill_pick(job);
            if (pick != MOVE_NONE && pick != res.best) {
                res.best = pick;
                res.ponder = MOVE_NONE;
            }
        }
        v->move_str(root, res.best, best);
        if ((job->limits.ponder || s->ponder_option) && res.ponder != MOVE_NONE) {
            Position child;
            v->make(root, res.best, &child);
            v->move_str(&child, res.ponder, ponder);
            has_ponder = true;
        }
    }
    s->out.bestmove(s->out.ctx, best, has_ponder ? ponder : NULL);
}

/* Subtrees estimated below this many leaves are counted in one call to the
 * (fast, uninterruptible) perft_count; bigger ones are split so that `stop`
 * is seen within milliseconds. */
#define PERFT_CHUNK (1u << 20)
/* ... and never deeper than this, because the branching can grow below the
 * path it was estimated on (kings appear, removals become possible). */
#define PERFT_CHUNK_MAX_DEPTH 4

/* branch^depth, saturating at UINT64_MAX. */
static uint64_t estimate_leaves(int branch, int depth)
{
    uint64_t e = 1;
    for (int i = 0; i < depth; i++)
        if (__builtin_mul_overflow(e, (uint64_t)branch, &e))
            return UINT64_MAX;
    return e;
}

/* perft_count that watches the stop flag; *overflow set when the count does
 * not fit; returns the count so far when stopped.  The subtree's size is
 * estimated from the widest branching seen on the path (branch), so that a
 * forced move does not hide a wide subtree behind it. */
static uint64_t perft_stoppable(Session *s, const Variant *v, const Position *pos, int depth,
                                int branch, bool *overflow, PerftCache *cache)
{
    if (search_signal_stopped(&s->signal))
        return 0;
    if (depth <= 1)
        return perft_count(v, pos, depth);
    uint64_t total = 0;
    if (cache && depth >= PERFT_CACHE_MIN_DEPTH && perft_cache_get(cache, pos, depth, &total))
        return total;
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    if (n > branch)
        branch = n;
    if (depth <= PERFT_CHUNK_MAX_DEPTH && estimate_leaves(branch, depth) <= PERFT_CHUNK) {
        total = perft_count(v, pos, depth);
    } else {
        bool over = false;
        for (int i = 0; i < n && !search_signal_stopped(&s->signal); i++) {
            Position child;
            v->make(pos, moves[i], &child);
            uint64_t c = perft_stoppable(s, v, &child, depth - 1, branch, &over, cache);
            if (__builtin_add_overflow(total, c, &total)) {
                total = UINT64_MAX;
                over = true;
            }
        }
        *overflow |= over;
        if (over || search_signal_stopped(&s->signal))
            return total; /* not a count to remember */
    }
    if (cache && depth >= PERFT_CACHE_MIN_DEPTH)
        perft_cache_put(cache, pos, depth, total);
    return total;
}

/* The perft of g to depth, per root move, reported through the output (in
 * the worker, or inline in the owner's thread for a small one). */
static void run_perft(Session *s, const Game *g, int depth)
{
    const Variant *v = g->variant;
    const Position *root = &g->pos;
    PerftReport rep = {.depth = depth};
    int64_t t0 = util_now_ms();
    if (depth == 0) {
        rep.total = 1;
    } else {
        Move moves[MAX_MOVES];
        int n = v->generate(root, moves);
        PerftCache *cache = depth >= PERFT_CACHE_MIN_PERFT ? perft_cache_new(v) : NULL;
        for (int i = 0; i < n; i++) {
            Position child;
            char text[MOVE_STR_MAX];
            v->make(root, moves[i], &child);
            bool overflow = false;
            uint64_t c = perft_stoppable(s, v, &child, depth - 1, n > 2 ? n : 2, &overflow, cache);
            if (search_signal_stopped(&s->signal)) {
                rep.stopped = true;
                break;
            }
            v->move_str(root, moves[i], text);
            if (s->out.perft_move)
                s->out.perft_move(s->out.ctx, text, c);
            rep.overflow |= overflow || __builtin_add_overflow(rep.total, c, &rep.total);
        }
        perft_cache_free(cache);
    }
    rep.time_ms = util_now_ms() - t0;
    if (s->out.perft_done)
        s->out.perft_done(s->out.ctx, &rep);
}

static void *worker_main(void *arg)
{
    Session *s = arg;
    if (s->job.kind == JOB_PERFT)
        run_perft(s, &s->job.game, s->job.perft_depth);
    else
        run_search(s);
    return NULL;
}

static bool start_job(Session *s)
{
    search_signal_reset(&s->signal);
#ifdef SIGIL_FUZZ
    SearchLimits *l = &s->job.limits;
    l->infinite = false;
    if (l->ponder)
        search_signal_ponderhit(&s->signal); /* the pondered move is played at once */
    if (l->nodes == 0 || l->nodes > FUZZ_MAX_NODES)
        l->nodes = FUZZ_MAX_NODES;
    s->job.options.threads = 1;
    if (s->job.perft_depth > FUZZ_MAX_PERFT_DEPTH)
        s->job.perft_depth = FUZZ_MAX_PERFT_DEPTH;
    worker_main(s);
#else
    if (pthread_create(&s->thread, NULL, worker_main, s) != 0)
        return false;
    s->busy = true;
#endif
    return true;
}

void session_wait(Session *s)
{
    if (s->busy) {
        pthread_join(s->thread, NULL);
        s->busy = false;
    }
}

void session_stop(Session *s)
{
    if (s->busy) {
        search_signal_stop(&s->signal);
        session_wait(s);
    }
}

bool session_ponderhit(Session *s)
{
    if (!s->busy || s->job.kind != JOB_SEARCH || !s->job.limits.ponder ||
        atomic_load(&s->signal.ponderhit) || search_signal_stopped(&s->signal))
        return false; /* not pondering (any more) */
    search_signal_ponderhit(&s->signal);
    return true;
}

bool session_busy(const Session *s) { return s->busy; }

bool session_search_unbounded(const SearchLimits *limits, bool ponder)
{
    if (ponder)
        return true;
    const SearchLimits *l = limits;
    bool clock = l->time[0] >= 0 || l->time[1] >= 0 || l->inc[0] > 0 || l->inc[1] > 0 ||
                 l->movestogo > 0;
    return l->infinite || (l->depth <= 0 && l->nodes == 0 && l->movetime <= 0 && !clock);
}

void session_finish(Session *s)
{
    if (!s->busy)
        return;
    bool pondering = s->job.limits.ponder && !atomic_load(&s->signal.ponderhit);
    if (s->job.kind == JOB_PERFT || !session_search_unbounded(&s->job.limits, pondering))
        session_wait(s);
    else
        session_stop(s);
}

void session_go(Session *s, const SearchLimits *limits, bool ponder)
{
    session_stop(s);
    game_copy(&s->job.game, &s->game);
    s->job.kind = JOB_SEARCH;
    s->job.limits = *limits;
    s->job.limits.move_overhead = s->move_overhead;
    const Variant *v = s->game.variant;
    if (v->plies_left) {
        int plies = v->plies_left(&s->game.pos);
        s->job.limits.moves_left = plies > 0 ? (plies + 1) / 2 : 1;
    }
    s->job.options = s->search_options;
    s->job.limits.ponder = ponder;
    s->job.roll = draw_roll(s);
    SearchLimits *l = &s->job.limits;
    /* A weak level: fewer nodes, less depth, several root moves to choose from. */
    s->job.skill = session_skill(s);
    /* The worker draws from a copy: `setoption name Seed` may reseed the
     * session's stream while (or right after) it runs. */
    s->job.skill_rng = util_splitmix64(&s->skill_rng);
    s->job.candidates = s->job.candidate_depth = 0;
    if (s->job.skill < SKILL_MAX) {
        int depth = session_skill_depth(s->job.skill);
        uint64_t nodes = session_skill_nodes(s->job.skill);
        if (l->depth <= 0 || l->depth > depth)
            l->depth = depth;
        if (l->nodes == 0 || l->nodes > nodes)
            l->nodes = nodes;
        if (s->job.options.multipv < SKILL_CANDIDATES)
            s->job.options.multipv = SKILL_CANDIDATES;
        l->infinite = false; /* a weak level always answers by itself */
    }
    if (s->job.roll != MOVE_NONE && !l->infinite && l->depth <= 0 && l->nodes == 0 &&
        l->movetime <= 0)
        l->depth = 1; /* a roll needs no thought: do not spend the clock on it */
    if (!start_job(s)) {
        /* No thread: answer from here, so the go still gets its bestmove. */
        notice(s, NOTICE_ERROR, "could not start the search thread");
        s->out.bestmove(s->out.ctx, "0000", NULL);
    }
}

void session_perft(Session *s, int depth)
{
    session_stop(s);
#ifdef SIGIL_FUZZ
    if (depth > FUZZ_MAX_PERFT_DEPTH)
        depth = FUZZ_MAX_PERFT_DEPTH;
#endif
    if (perft_estimate(s->game.variant, &s->game.pos, depth) <= SESSION_PERFT_INLINE_LEAVES) {
        /* Small: counted here and now, before the next command is read. */
        search_signal_reset(&s->signal);
        run_perft(s, &s->game, depth);
        return;
    }
    game_copy(&s->job.game, &s->game);
    s->job.kind = JOB_PERFT;
    s->job.perft_depth = depth;
    if (!start_job(s))
        notice(s, NOTICE_ERROR, "could not start the perft thread");
}

/* ------------------------------------------------------------- the game */

const Game *session_game(const Session *s) { return &s->game; }

const Variant *session_variant(const Session *s) { return s->game.variant; }

bool session_is_chance(const Session *s)
{
    const Variant *v = s->game.variant;
    return v->is_chance && v->is_chance(&s->game.pos);
}

void session_new_game(Session *s)
{
    session_stop(s);
    search_clear();
    game_reset(&s->game);
}

/* Release the current variant's tables and book. */
static void drop_tablebase(Session *s)
{
    proof_book_free(s->book);
    s->book = NULL;
    s->search_options.book = NULL;
    if (s->tb)
        s->game.variant->tablebase->close(s->tb);
    s->tb = NULL;
    s->search_options.tablebase = NULL;
}

/* (Re)load the current variant's endgame tables and its proof book
 * (`<variant>.book` in the same folder, if there is one) from the options;
 * false with err set when something could not be loaded (what could is
 * kept: a refused book leaves the tables in use). */
static bool reload_tablebase(Session *s, char *err, size_t errlen)
{
    session_stop(s);
    const Variant *v = s->game.variant;
    err[0] = '\0';
    drop_tablebase(s);
    if (!s->tb_path[0] || s->tb_pieces <= 0 || !v->tablebase)
        return true;
    s->tb = v->tablebase->open(v, s->tb_path, s->tb_pieces, err, errlen);
    s->search_options.tablebase = s->tb;
    char path[sizeof s->tb_path + 64], why[1200];
    snprintf(path, sizeof path, "%s/%s.book", s->tb_path, v->name);
    s->book = proof_book_load(v, s->tb, path, why, sizeof why);
    s->search_options.book = s->book;
    if (why[0]) {
        if (err[0])
            notice(s, NOTICE_ERROR, why); /* both: the tables' error is returned */
        else
            snprintf(err, errlen, "%s", why);
    }
    return err[0] == '\0';
}

void session_set_variant(Session *s, const Variant *v)
{
    session_stop(s);
    drop_tablebase(s);
    game_free(&s->game);
    game_init(&s->game, v, &s->config);
    char err[1200];
    if (!reload_tablebase(s, err, sizeof err))
        notice(s, NOTICE_ERROR, err);
}

bool session_tablebase_value(const Session *s, TbValue *value)
{
    const Game *g = &s->game;
    const Variant *v = g->variant;
    Result r = game_result(g, NULL, NULL);
    if (r != RESULT_NONE) {
        int stm = v->side_to_move(&g->pos);
        Result stm_wins = stm == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
        *value = r == RESULT_DRAW ? (TbValue){TB_DRAW, 0}
                 : r == stm_wins  ? (TbValue){TB_WIN, 0}
                                  : (TbValue){TB_LOSS, 0};
        return true;
    }
    if (!s->tb || (v->is_chance && v->is_chance(&g->pos)))
        return false;
    return v->tablebase->probe(s->tb, &g->pos, value);
}

int session_book_value(const Session *s)
{
    const Game *g = &s->game;
    if (!s->book || game_result(g, NULL, NULL) != RESULT_NONE)
        return 0;
    int stm = g->variant->side_to_move(&g->pos);
    return (proof_book_not_lose(s->book, s->tb, &g->pos, stm) ? 1 : 0) |
           (proof_book_not_lose(s->book, s->tb, &g->pos, !stm) ? 2 : 0);
}

/* Play every move of the text on g; false (g half played) with err set. */
static bool play_all(Game *g, const char *moves, char *err, size_t errlen)
{
    if (!moves)
        return true;
    char tok[MOVE_STR_MAX + 1], why[REFUSAL_MAX], scratch[160];
    const char *cur = moves;
    size_t len;
    while ((len = util_next_token(&cur, tok, sizeof tok)) > 0) {
        if (len >= sizeof tok) {
            snprintf(err, errlen, "illegal move '%.40s...' at ply %d: no move is that long",
                     tok, g->ply + 1);
            return false;
        }
        if (game_play_text(g, tok, scratch, sizeof scratch))
            continue;
        /* One line: the move, the ply, and which rule refuses it. */
        refusal_explain(g, tok, why, sizeof why);
        snprintf(err, errlen, "illegal move '%.40s' at ply %d: %s", tok, g->ply + 1, why);
        return false;
    }
    return true;
}

/* The game g, built aside, becomes the session's when ok (the search is
 * stopped first); else it is dropped and the session's game stays.  ok. */
static bool commit_game(Session *s, Game *g, bool ok)
{
    if (!ok) {
        game_free(g);
        return false;
    }
    session_stop(s);
    game_free(&s->game);
    s->game = *g;
    return true;
}

bool session_set_position(Session *s, const char *fen, const char *moves, char *err,
                          size_t errlen)
{
    Game g;
    memset(&g, 0, sizeof g);
    game_init(&g, s->game.variant, &s->config);
    bool ok = (!fen || game_set_fen(&g, fen, err, errlen)) && play_all(&g, moves, err, errlen);
    return commit_game(s, &g, ok);
}

bool session_play(Session *s, const char *moves, char *err, size_t errlen)
{
    Game g;
    memset(&g, 0, sizeof g);
    game_copy(&g, &s->game);
    return commit_game(s, &g, play_all(&g, moves, err, errlen));
}

bool session_undo(Session *s, int plies, char *err, size_t errlen)
{
    if (plies < 1 || plies > s->game.ply) {
        snprintf(err, errlen, "cannot take back %d plies: %d played", plies, s->game.ply);
        return false;
    }
    session_stop(s);
    game_undo(&s->game, plies);
    return true;
}

bool session_roll(Session *s, char *text)
{
    Move m = draw_roll(s);
    if (m == MOVE_NONE)
        return false;
    session_stop(s);
    s->game.variant->move_str(&s->game.pos, m, text);
    game_play(&s->game, m);
    return true;
}

/* Replay the current game under the current rules settings (after MoveLimit
 * changed); back to the start when it no longer fits. */
static void reconfigure_game(Session *s)
{
    const Variant *v = s->game.variant;
    Game g;
    memset(&g, 0, sizeof g);
    game_init(&g, v, &s->config);
    bool ok = true;
    if (!s->game.start_is_startpos) {
        char fen[FEN_MAX], err[128];
        v->to_fen(&s->game.start, fen);
        ok = game_set_fen(&g, fen, err, sizeof err);
    }
    for (int i = 0; ok && i < s->game.ply; i++) {
        Move moves[MAX_MOVES];
        int n = v->generate(&g.pos, moves);
        bool legal = false;
        for (int k = 0; k < n && !legal; k++)
            legal = moves[k] == s->game.moves[i];
        if (legal)
            game_play(&g, s->game.moves[i]);
        ok = legal;
    }
    if (!ok) {
        game_reset(&g);
        notice(s, NOTICE_INFO, "position reset to the start: it does not fit the new rules");
    }
    game_free(&s->game);
    s->game = g;
}

/* -------------------------------------------------------------- options */

static bool apply_hash(Session *s, long long mb, const char *text, char *err, size_t errlen)
{
    (void)text;
    session_stop(s);
    if (!tt_resize((size_t)mb)) {
        snprintf(err, errlen, "cannot allocate a %lld MB hash table; keeping %zu MB", mb,
                 s->hash_mb);
        return false;
    }
    s->hash_mb = (size_t)mb;
    return true;
}

static bool apply_clear_hash(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)n, (void)text, (void)err, (void)errlen;
    session_stop(s);
    search_clear();
    return true;
}

static bool apply_threads(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    session_stop(s);
    s->search_options.threads = (int)n;
    return true;
}

static bool apply_multipv(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    session_stop(s);
    s->search_options.multipv = (int)n;
    return true;
}

static const char *variant_choice(int i)
{
    const Variant *v = variants_get(i);
    return v ? v->name : NULL;
}

static bool apply_variant(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)n, (void)err, (void)errlen;
    session_set_variant(s, variants_find(text));
    return true;
}

static bool apply_move_limit(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    session_stop(s);
    s->config.move_limit = (int)n;
    reconfigure_game(s);
    return true;
}

static bool apply_seed(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    s->seed = n;
    reseed(s);
    return true;
}

static bool apply_move_overhead(Session *s, long long n, const char *text, char *err,
                                size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    s->move_overhead = n;
    return true;
}

static bool apply_tb_path(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)n;
    if (strcmp(text, "<empty>") == 0)
        text = "";
    if (strlen(text) >= sizeof s->tb_path) {
        snprintf(err, errlen, "TablebasePath is longer than %zu bytes", sizeof s->tb_path - 1);
        return false;
    }
    snprintf(s->tb_path, sizeof s->tb_path, "%s", text);
    return reload_tablebase(s, err, errlen);
}

static bool apply_tb_pieces(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text;
    s->tb_pieces = (int)n;
    return reload_tablebase(s, err, errlen);
}

static bool apply_ponder(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    s->ponder_option = n != 0;
    return true;
}

static bool apply_skill_level(Session *s, long long n, const char *text, char *err,
                              size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    s->skill_level = (int)n;
    return true;
}

static bool apply_limit_strength(Session *s, long long n, const char *text, char *err,
                                 size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    s->limit_strength = n != 0;
    return true;
}

static bool apply_elo(Session *s, long long n, const char *text, char *err, size_t errlen)
{
    (void)text, (void)err, (void)errlen;
    s->elo = (int)n;
    return true;
}

/* The one table of options: `uci` lists it in this order. */
static const SessionOption options[] = {
    {"Hash", SESSION_OPTION_SPIN, 1, TT_MAX_MB, TT_DEFAULT_MB, NULL,
     "transposition table size in MB", apply_hash},
    {"Clear Hash", SESSION_OPTION_BUTTON, 0, 0, 0, NULL, "empty the transposition table",
     apply_clear_hash},
    {"Threads", SESSION_OPTION_SPIN, 1, SEARCH_MAX_THREADS, 1, NULL,
     "search threads (Lazy SMP)", apply_threads},
    {"MultiPV", SESSION_OPTION_SPIN, 1, SESSION_MAX_MULTIPV, 1, NULL,
     "number of best lines reported", apply_multipv},
    {"UCI_Variant", SESSION_OPTION_COMBO, 0, 0, 0, variant_choice,
     "the game (same as `variant <name>`)", apply_variant},
    {"MoveLimit", SESSION_OPTION_SPIN, 1, SESSION_MAX_MOVE_LIMIT, DEFAULT_MOVE_LIMIT, NULL,
     "moves per side before counting (games that count)", apply_move_limit},
    {"Seed", SESSION_OPTION_SPIN, 0, 2147483647LL, 0, NULL,
     "dice seed for roll and go at a roll; 0 = from the clock", apply_seed},
    {"Ponder", SESSION_OPTION_CHECK, 0, 1, 0, NULL,
     "the GUI may ponder: every bestmove names the expected reply", apply_ponder},
    {"Move Overhead", SESSION_OPTION_SPIN, 0, SESSION_MAX_MOVE_OVERHEAD_MS,
     TIMEMAN_DEFAULT_OVERHEAD_MS, NULL,
     "ms kept back from the clock for transmission delays", apply_move_overhead},
    {"TablebasePath", SESSION_OPTION_STRING, 0, 0, 0, NULL,
     "folder of endgame tables (sigil-tbgen); empty = none", apply_tb_path},
    {"TablebasePieces", SESSION_OPTION_SPIN, 0, SESSION_MAX_TABLEBASE_PIECES,
     SESSION_MAX_TABLEBASE_PIECES, NULL, "use the tables of up to this many pieces; 0 = none",
     apply_tb_pieces},
    {"Skill Level", SESSION_OPTION_SPIN, 0, SKILL_MAX, SKILL_MAX, NULL,
     "playing strength: 20 full, 0 weakest (doc/levels.md)", apply_skill_level},
    {"UCI_LimitStrength", SESSION_OPTION_CHECK, 0, 1, 0, NULL,
     "play at the strength UCI_Elo names instead of Skill Level", apply_limit_strength},
    {"UCI_Elo", SESSION_OPTION_SPIN, SESSION_ELO_MIN, SESSION_ELO_MAX, SESSION_ELO_MAX, NULL,
     "strength with UCI_LimitStrength: Skill Level (Elo - 1000) / 40", apply_elo},
};
enum { OPTION_COUNT = sizeof options / sizeof options[0] };

int session_option_count(void) { return OPTION_COUNT; }

const SessionOption *session_option(int i)
{
    return i >= 0 && i < OPTION_COUNT ? &options[i] : NULL;
}

int64_t session_move_overhead(const Session *s) { return s->move_overhead; }

bool session_set_option(Session *s, const char *name, const char *value, char *err,
                        size_t errlen)
{
    const SessionOption *o = NULL;
    for (int i = 0; i < OPTION_COUNT && !o; i++)
        if (strcasecmp(options[i].name, name) == 0)
            o = &options[i];
    if (!o) {
        snprintf(err, errlen, "unknown option '%.60s'", name);
        return false;
    }
    long long number = 0;
    const char *text = value ? value : "";
    switch (o->type) {
    case SESSION_OPTION_SPIN:
        if (!value || !util_parse_number(value, o->min, o->max, &number)) {
            snprintf(err, errlen, "%s takes a whole number from %lld to %lld", o->name, o->min,
                     o->max);
            return false;
        }
        break;
    case SESSION_OPTION_CHECK:
        if (value && strcasecmp(value, "true") == 0)
            number = 1;
        else if (!value || strcasecmp(value, "false") != 0) {
            snprintf(err, errlen, "%s takes true or false", o->name);
            return false;
        }
        break;
    case SESSION_OPTION_COMBO: {
        const char *match = NULL;
        for (int i = 0; value && o->choice(i) && !match; i++)
            if (strcasecmp(o->choice(i), value) == 0)
                match = o->choice(i);
        if (!match) {
            snprintf(err, errlen, "%s has no value '%.60s' (see 'uci' for the list)", o->name,
                     value ? value : "");
            return false;
        }
        text = match;
        break;
    }
    case SESSION_OPTION_STRING:
        break;
    case SESSION_OPTION_BUTTON:
        if (value && *value) {
            snprintf(err, errlen, "%s is a button and takes no value", o->name);
            return false;
        }
        break;
    }
    return o->apply(s, number, text, err, errlen);
}
