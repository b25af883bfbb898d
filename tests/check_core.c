/* check_core.c - the game-independent core: search, transposition table,
 * time management, the game history (game.c) and the helpers (util.c).
 *
 * The search is tested on small toy games defined here, so that it does not
 * depend on the real games:
 *   - nim:    take 1-3 from a pile, taking the last wins (known strategy);
 *   - drift:  an endless pseudo-random game (limits, threads, MultiPV);
 *   - table:  games given as explicit graphs of nodes (forced captures,
 *             chance nodes, repetition, passes, extra turns, random
 *             expectimax trees checked against a brute-force solver).
 */
#include <check.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "game.h"
#include "info.h"
#include "search.h"
#include "movepick.h"
#include "threads.h"
#include "timeman.h"
#include "tt.h"
#include "util.h"
#include "variant.h"
#include "variants.h"

/* ================================================================ output */

typedef struct Lines {
    char text[256][1024];
    int count;
    pthread_mutex_t lock;
} Lines;

static Lines lines;

/* Every report of the search, kept as the protocol's info line. */
static void collect(void *ctx, const SearchInfo *info)
{
    Lines *l = &lines;
    const Variant *v = ctx;
    pthread_mutex_lock(&l->lock);
    if (l->count < 256) {
        info_format(v, info, l->text[l->count], sizeof l->text[0]);
        l->count++;
    }
    pthread_mutex_unlock(&l->lock);
}

/* How many lines were collected so far (safe while a search runs). */
static int lines_count(void)
{
    pthread_mutex_lock(&lines.lock);
    int n = lines.count;
    pthread_mutex_unlock(&lines.lock);
    return n;
}

static void lines_reset(void)
{
    lines.count = 0;
}

static bool lines_contain(const char *needle)
{
    for (int i = 0; i < lines.count; i++)
        if (strstr(lines.text[i], needle))
            return true;
    return false;
}

/* Integer after `key ` in line, or def. */
static long field(const char *line, const char *key, long def)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s ", key);
    const char *p = strstr(line, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : def;
}


static SearchResult run(const Game *g, int depth, uint64_t nodes, int threads, int multipv)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.depth = depth;
    l.nodes = nodes;
    SearchOptions o = {threads, multipv, NULL};
    lines_reset();
    return search_run(g, &l, &o, NULL, collect, (void *)g->variant);
}

/* ================================================================== nim */

typedef struct GAME_POSITION NimPos {
    int pile;
    int stm;
    int max_take;
} NimPos;

#define NIM(p) ((NimPos *)(p)->bytes)
#define CNIM(p) ((const NimPos *)(p)->bytes)

static void nim_set(Position *pos, int pile, int stm)
{
    memset(pos, 0, sizeof *pos);
    NIM(pos)->pile = pile;
    NIM(pos)->stm = stm;
    NIM(pos)->max_take = 3;
}
static void nim_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    nim_set(pos, 10, WHITE);
}
static bool nim_from_fen(Position *pos, const char *fen, const GameConfig *cfg, char *err,
                         size_t errlen)
{
    (void)cfg;
    int pile;
    char side;
    if (sscanf(fen, "%d %c", &pile, &side) != 2 || pile < 0 || pile > 1000 ||
        (side != 'w' && side != 'b')) {
        snprintf(err, errlen, "bad nim fen");
        return false;
    }
    nim_set(pos, pile, side == 'w' ? WHITE : BLACK);
    return true;
}
static void nim_to_fen(const Position *pos, char *buf)
{
    snprintf(buf, FEN_MAX, "%d %c", CNIM(pos)->pile, CNIM(pos)->stm == WHITE ? 'w' : 'b');
}
static int nim_stm(const Position *pos) { return CNIM(pos)->stm; }
static int nim_generate(const Position *pos, Move *moves)
{
    int n = 0;
    for (int k = 1; k <= CNIM(pos)->max_take && k <= CNIM(pos)->pile; k++)
        moves[n++] = (Move)k;
    return n;
}
static void nim_make(const Position *pos, Move m, Position *out)
{
    *out = *pos;
    NIM(out)->pile -= (int)m;
    NIM(out)->stm ^= 1;
}
static Result nim_result(const Position *pos, int *margin, const char **reason)
{
    if (margin)
        *margin = 0;
    if (CNIM(pos)->pile > 0)
        return RESULT_NONE;
    if (reason)
        *reason = "no legal move";
    /* The side to move faces an empty pile: the other side took the last. */
    return CNIM(pos)->stm == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
}
static uint64_t nim_key(const Position *pos)
{
    uint64_t s = (uint64_t)CNIM(pos)->pile * 2 + (uint64_t)CNIM(pos)->stm + 77;
    return util_splitmix64(&s);
}
static void nim_move_str(const Position *pos, Move m, char *buf)
{
    (void)pos;
    snprintf(buf, MOVE_STR_MAX, "t%d", (int)m);
}
static Move nim_parse(const Position *pos, const char *text)
{
    if (text[0] != 't' || text[1] < '1' || text[1] > '9' || text[2])
        return MOVE_NONE;
    int k = text[1] - '0';
    return k <= CNIM(pos)->max_take && k <= CNIM(pos)->pile ? (Move)k : MOVE_NONE;
}
static void nim_diagram(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "pile %d\n", CNIM(pos)->pile);
}
static void nim_describe(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "pile %d", CNIM(pos)->pile);
}
static int nim_eval(const Position *pos)
{
    (void)pos;
    return 0;
}
static bool never_noisy(const Position *pos, Move m)
{
    (void)pos;
    (void)m;
    return false;
}

static const Variant nim = {
    .name = "nim",
    .title = "take 1-3, the last taker wins",
    .startpos = nim_startpos,
    .from_fen = nim_from_fen,
    .to_fen = nim_to_fen,
    .side_to_move = nim_stm,
    .generate = nim_generate,
    .make = nim_make,
    .result = nim_result,
    .key = nim_key,
    .move_str = nim_move_str,
    .parse_move = nim_parse,
    .diagram = nim_diagram,
    .describe = nim_describe,
    .evaluate = nim_eval,
    .is_noisy = never_noisy,
};

static const GameConfig cfg = {DEFAULT_MOVE_LIMIT};

static void nim_game(Game *g, const char *fen)
{
    char err[64];
    game_init(g, &nim, &cfg);
    ck_assert_msg(game_set_fen(g, fen, err, sizeof err), "%s", err);
}

/* ================================================================ drift */

typedef struct GAME_POSITION DriftPos {
    uint64_t state;
    int stm;
    int width;
} DriftPos;

#define DR(p) ((DriftPos *)(p)->bytes)
#define CDR(p) ((const DriftPos *)(p)->bytes)

static void drift_startpos(Position *pos, const GameConfig *c)
{
    (void)c;
    memset(pos, 0, sizeof *pos);
    DR(pos)->state = 12345;
    DR(pos)->width = 8;
}
static bool drift_from_fen(Position *pos, const char *fen, const GameConfig *c, char *err,
                           size_t errlen)
{
    (void)c;
    unsigned long long s;
    int stm, width;
    if (sscanf(fen, "%llu %d %d", &s, &stm, &width) != 3 || width < 1 || width > 16) {
        snprintf(err, errlen, "bad drift fen");
        return false;
    }
    memset(pos, 0, sizeof *pos);
    DR(pos)->state = s;
    DR(pos)->stm = stm & 1;
    DR(pos)->width = width;
    return true;
}
static void drift_to_fen(const Position *pos, char *buf)
{
    snprintf(buf, FEN_MAX, "%llu %d %d", (unsigned long long)CDR(pos)->state, CDR(pos)->stm,
             CDR(pos)->width);
}
static int drift_stm(const Position *pos) { return CDR(pos)->stm; }
static int drift_generate(const Position *pos, Move *moves)
{
    for (int i = 0; i < CDR(pos)->width; i++)
        moves[i] = (Move)(i + 1);
    return CDR(pos)->width;
}
static void drift_make(const Position *pos, Move m, Position *out)
{
    *out = *pos;
    uint64_t s = CDR(pos)->state ^ (m * 0x9E3779B97F4A7C15ULL);
    DR(out)->state = util_splitmix64(&s);
    DR(out)->stm ^= 1;
}
static Result drift_result(const Position *pos, int *margin, const char **reason)
{
    (void)pos;
    (void)reason;
    if (margin)
        *margin = 0;
    return RESULT_NONE;
}
static uint64_t drift_key(const Position *pos) { return CDR(pos)->state ^ (uint64_t)CDR(pos)->stm; }
static void drift_move_str(const Position *pos, Move m, char *buf)
{
    (void)pos;
    snprintf(buf, MOVE_STR_MAX, "m%d", (int)m);
}
static Move drift_parse(const Position *pos, const char *text)
{
    int k;
    if (sscanf(text, "m%d", &k) != 1 || k < 1 || k > CDR(pos)->width)
        return MOVE_NONE;
    return (Move)k;
}
static void drift_diagram(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "state %llu\n", (unsigned long long)CDR(pos)->state);
}
static int drift_eval(const Position *pos) { return (int)(CDR(pos)->state % 201) - 100; }
static bool drift_noisy(const Position *pos, Move m)
{
    return ((CDR(pos)->state >> (m * 3)) & 7) == 0;
}

static const Variant drift = {
    .name = "drift",
    .title = "an endless pseudo-random game",
    .startpos = drift_startpos,
    .from_fen = drift_from_fen,
    .to_fen = drift_to_fen,
    .side_to_move = drift_stm,
    .generate = drift_generate,
    .make = drift_make,
    .result = drift_result,
    .key = drift_key,
    .move_str = drift_move_str,
    .parse_move = drift_parse,
    .diagram = drift_diagram,
    .evaluate = drift_eval,
    .is_noisy = drift_noisy,
};

static bool drift_is_legal(const Game *g, Move m)
{
    Move moves[MAX_MOVES];
    int n = drift.generate(&g->pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* ================================================================ table */

#define TMAX_MOVES 6

typedef struct TEdge {
    const char *name;
    int to;
    bool noisy;
} TEdge;

typedef struct TNode {
    int stm;
    bool chance;
    Result result;
    int eval; /* White's view */
    bool exact;
    int n;
    TEdge e[TMAX_MOVES];
} TNode;

typedef struct TTable {
    const TNode *node;
    int count;
} TTable;

typedef struct GAME_POSITION TPos {
    const TTable *table;
    int node;
} TPos;

#define TP(p) ((TPos *)(p)->bytes)
#define CTP(p) ((const TPos *)(p)->bytes)
#define TNODE(p) (&CTP(p)->table->node[CTP(p)->node])

static const TTable *current_table; /* what startpos/from_fen set up */

static void table_startpos(Position *pos, const GameConfig *c)
{
    (void)c;
    memset(pos, 0, sizeof *pos);
    TP(pos)->table = current_table;
    TP(pos)->node = 0;
}
static bool table_from_fen(Position *pos, const char *fen, const GameConfig *c, char *err,
                           size_t errlen)
{
    (void)c;
    int node;
    if (sscanf(fen, "node %d", &node) != 1 || node < 0 || node >= current_table->count) {
        snprintf(err, errlen, "bad table fen");
        return false;
    }
    memset(pos, 0, sizeof *pos);
    TP(pos)->table = current_table;
    TP(pos)->node = node;
    return true;
}
static void table_to_fen(const Position *pos, char *buf)
{
    snprintf(buf, FEN_MAX, "node %d", CTP(pos)->node);
}
static int table_stm(const Position *pos) { return TNODE(pos)->stm; }
static bool table_chance(const Position *pos) { return TNODE(pos)->chance; }
static int table_generate(const Position *pos, Move *moves)
{
    const TNode *nd = TNODE(pos);
    if (nd->result != RESULT_NONE)
        return 0;
    for (int i = 0; i < nd->n; i++)
        moves[i] = (Move)(i + 1);
    return nd->n;
}
static void table_make(const Position *pos, Move m, Position *out)
{
    *out = *pos;
    TP(out)->node = TNODE(pos)->e[m - 1].to;
}
static Result table_result(const Position *pos, int *margin, const char **reason)
{
    if (margin)
        *margin = 0;
    if (reason)
        *reason = "table";
    return TNODE(pos)->result;
}
static uint64_t table_key(const Position *pos)
{
    uint64_t s = (uint64_t)(uintptr_t)CTP(pos)->table * 31 + (uint64_t)CTP(pos)->node;
    return util_splitmix64(&s);
}
static void table_move_str(const Position *pos, Move m, char *buf)
{
    snprintf(buf, MOVE_STR_MAX, "%s", TNODE(pos)->e[m - 1].name);
}
static Move table_parse(const Position *pos, const char *text)
{
    const TNode *nd = TNODE(pos);
    if (nd->result != RESULT_NONE)
        return MOVE_NONE;
    for (int i = 0; i < nd->n; i++)
        if (strcmp(nd->e[i].name, text) == 0)
            return (Move)(i + 1);
    return MOVE_NONE;
}
static void table_diagram(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "node %d\n", CTP(pos)->node);
}
static int table_eval(const Position *pos)
{
    return TNODE(pos)->stm == WHITE ? TNODE(pos)->eval : -TNODE(pos)->eval;
}
static bool table_noisy(const Position *pos, Move m) { return TNODE(pos)->e[m - 1].noisy; }
static bool table_exact(const Position *pos) { return TNODE(pos)->exact; }

#define TABLE_FUNCS                                                                               \
    .startpos = table_startpos, .from_fen = table_from_fen, .to_fen = table_to_fen,               \
    .side_to_move = table_stm, .is_chance = table_chance, .generate = table_generate,             \
    .make = table_make, .result = table_result, .key = table_key, .move_str = table_move_str,     \
    .parse_move = table_parse, .diagram = table_diagram, .evaluate = table_eval,                  \
    .is_noisy = table_noisy, .eval_is_exact = table_exact

static const Variant table_game = {.name = "table", .title = "a graph game", TABLE_FUNCS};
static const Variant table_rep = {
    .name = "table-rep", .title = "a graph game with repetition draws",
    .repetition_draws = true, TABLE_FUNCS};

static void table_game_at(Game *g, const Variant *v, const TTable *t, int node)
{
    current_table = t;
    game_init(g, v, &cfg);
    char fen[32], err[64];
    snprintf(fen, sizeof fen, "node %d", node);
    ck_assert_msg(game_set_fen(g, fen, err, sizeof err), "%s", err);
}

#define W WHITE
#define B BLACK
#define NONE RESULT_NONE
#define WWIN RESULT_WHITE_WINS
#define BWIN RESULT_BLACK_WINS
#define DRAW RESULT_DRAW

static char name_of(const Game *g, Move m, char *buf)
{
    if (m == MOVE_NONE)
        return (char)(strcpy(buf, "(none)")[0]);
    g->variant->move_str(&g->pos, m, buf);
    return buf[0];
}

/* ================================================================ tests */

/* -------------------------------------------------------------- search */

START_TEST(test_nim_finds_winning_move_and_mate_distance)
{
    Game g;
    nim_game(&g, "10 w");
    SearchResult r = run(&g, 40, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    /* Leave a multiple of four: take 2.  We win on our third move: 5 plies. */
    ck_assert_str_eq(buf, "t2");
    ck_assert_int_eq(r.score, SCORE_WIN - 5);
    char sc[32];
    search_format_score(r.score, sc);
    ck_assert_str_eq(sc, "mate 3");
    ck_assert(lines_contain("score mate 3"));
    /* Proved without heuristic leaves: no need to go on to depth 40. */
    ck_assert_int_lt(r.depth, 40);
    game_free(&g);
}
END_TEST

START_TEST(test_nim_losing_side_reports_negative_mate)
{
    Game g;
    nim_game(&g, "8 w");
    SearchResult r = run(&g, 40, 0, 1, 1);
    /* Every move loses; the longest defence takes one token each time:
     * 8 -> 7 -> 4 -> 3 -> 0: the loss comes at ply 4 (mate -2). */
    ck_assert_int_eq(r.score, -(SCORE_WIN - 4));
    char sc[32];
    search_format_score(r.score, sc);
    ck_assert_str_eq(sc, "mate -2");
    ck_assert(r.best != MOVE_NONE);
    game_free(&g);
}
END_TEST

START_TEST(test_finished_game_returns_no_move_with_a_score_line)
{
    Game g;
    nim_game(&g, "0 w");
    SearchResult r = run(&g, 5, 0, 1, 1);
    ck_assert(r.best == MOVE_NONE);
    ck_assert_int_eq(r.score, -SCORE_WIN);
    ck_assert_int_eq(lines.count, 1);
    ck_assert(lines_contain("info depth 0 seldepth 0 multipv 1 score mate 0 nodes 0"));
    game_free(&g);
}
END_TEST

START_TEST(test_search_reports_no_text_of_the_game)
{
    /* The game's own analysis (describe) is the caller's to print: the
     * search reports iterations only. */
    Game g;
    nim_game(&g, "6 b");
    run(&g, 3, 0, 1, 1);
    ck_assert_int_gt(lines.count, 1);
    for (int i = 0; i < lines.count; i++)
        ck_assert_msg(strncmp(lines.text[i], "info depth ", 11) == 0, "%s", lines.text[i]);
    game_free(&g);
}
END_TEST

START_TEST(test_info_line_format)
{
    Game g;
    game_init(&g, &drift, &cfg);
    run(&g, 3, 0, 1, 1);
    ck_assert_int_eq(lines.count, 3);
    for (int i = 0; i < 3; i++) {
        const char *l = lines.text[i];
        ck_assert_msg(strncmp(l, "info depth ", 11) == 0, "%s", l);
        ck_assert_int_eq(field(l, "depth", -1), i + 1);
        ck_assert_int_ge(field(l, "seldepth", -1), i + 1);
        ck_assert_int_eq(field(l, "multipv", -1), 1);
        ck_assert_msg(strstr(l, " score cp ") != NULL, "%s", l);
        ck_assert_int_gt(field(l, "nodes", -1), 0);
        ck_assert_int_ge(field(l, "nps", -1), 0);
        ck_assert_int_ge(field(l, "time", -1), 0);
        ck_assert_int_ge(field(l, "hashfull", -1), 0);
        ck_assert_msg(strstr(l, " pv m") != NULL, "%s", l);
    }
    game_free(&g);
}
END_TEST

START_TEST(test_format_score)
{
    char b[32];
    search_format_score(0, b);
    ck_assert_str_eq(b, "cp 0");
    search_format_score(-123, b);
    ck_assert_str_eq(b, "cp -123");
    search_format_score(SCORE_WIN - 1, b);
    ck_assert_str_eq(b, "mate 1");
    search_format_score(SCORE_WIN - 3, b);
    ck_assert_str_eq(b, "mate 2");
    search_format_score(SCORE_WIN - 4, b);
    ck_assert_str_eq(b, "mate 2");
    search_format_score(-(SCORE_WIN - 2), b);
    ck_assert_str_eq(b, "mate -1");
    search_format_score(-(SCORE_WIN - 1), b);
    ck_assert_str_eq(b, "mate -1");
    search_format_score(-SCORE_WIN, b);
    ck_assert_str_eq(b, "mate 0");
}
END_TEST

/* Forced capture horizon. */
static const TNode capture_nodes[] = {
    /* 0 */ {W, false, NONE, 0, false, 2, {{"bait", 1, false}, {"safe", 2, false}}},
    /* 1 */ {B, false, NONE, 0, false, 1, {{"cap", 3, true}}},
    /* 2 */ {B, false, NONE, 2, false, 1, {{"m", 7, false}}},
    /* 3 */ {W, false, NONE, -1, false, 2, {{"recap", 4, true}, {"quiet", 5, false}}},
    /* 4 */ {B, false, NONE, 9, false, 1, {{"m", 7, false}}},
    /* 5 */ {B, false, NONE, -1, false, 1, {{"m", 7, false}}},
    /* 6 */ {W, false, NONE, 0, false, 1, {{"m", 7, false}}},
    /* 7 */ {W, false, DRAW, 0, false, 0, {{0}}},
    /* 8 */ {W, false, NONE, 0, false, 2, {{"bait", 9, false}, {"safe", 2, false}}},
    /* 9 */ {B, false, NONE, 0, false, 2, {{"cap", 3, true}, {"decline", 6, false}}},
};
static const TTable capture_table = {capture_nodes, 10};

START_TEST(test_quiescence_has_no_stand_pat_when_every_move_captures)
{
    /* After "bait" Black must capture (+1 for Black), then White recaptures
     * (+10): the horizon must not stop after Black's forced capture. */
    Game g;
    table_game_at(&g, &table_game, &capture_table, 0);
    SearchResult r = run(&g, 1, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "bait");
    ck_assert_int_eq(r.score, 9);
    game_free(&g);
}
END_TEST

START_TEST(test_quiescence_stands_pat_when_a_quiet_move_exists)
{
    /* The same bait, but Black may decline: Black stands pat at 0, so the
     * safe +2 is better. */
    Game g;
    table_game_at(&g, &table_game, &capture_table, 8);
    SearchResult r = run(&g, 1, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "safe");
    ck_assert_int_eq(r.score, 2);
    game_free(&g);
}
END_TEST

/* A forced exchange seven plies long: the quiescence limit on voluntary noisy
 * moves must not cut it. */
static const TNode chain_nodes[] = {
    /* 0 */ {W, false, NONE, 0, false, 2, {{"bait", 1, false}, {"safe", 9, false}}},
    /* 1 */ {B, false, NONE, -100, false, 1, {{"x1", 2, true}}},
    /* 2 */ {W, false, NONE, -100, false, 1, {{"x2", 3, true}}},
    /* 3 */ {B, false, NONE, -100, false, 1, {{"x3", 4, true}}},
    /* 4 */ {W, false, NONE, -100, false, 1, {{"x4", 5, true}}},
    /* 5 */ {B, false, NONE, -100, false, 1, {{"x5", 6, true}}},
    /* 6 */ {W, false, NONE, -100, false, 1, {{"x6", 7, true}}},
    /* 7 */ {B, false, NONE, -100, false, 1, {{"x7", 8, true}}},
    /* 8 */ {W, false, NONE, 50, false, 1, {{"m", 10, false}}},
    /* 9 */ {B, false, NONE, 10, false, 1, {{"m", 10, false}}},
    /* 10 */ {W, false, DRAW, 0, false, 0, {{0}}},
};
static const TTable chain_table = {chain_nodes, 11};

START_TEST(test_quiescence_follows_a_long_forced_exchange_to_its_end)
{
    Game g;
    table_game_at(&g, &table_game, &chain_table, 0);
    SearchResult r = run(&g, 1, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "bait"); /* -100 all the way, +50 at the end */
    ck_assert_int_eq(r.score, 50);
    game_free(&g);
}
END_TEST

/* Chance: White moves, then Black rolls (side changes through a move) and
 * acts; or White rolls again (no change) and acts. */
static const TNode chance_nodes[] = {
    /* 0 R  */ {W, false, NONE, 0, false, 2, {{"p", 1, false}, {"q", 2, false}}},
    /* 1 C1 */ {B, true, NONE, 0, false, 3, {{"r1", 3, false}, {"r2", 4, false}, {"r3", 5, false}}},
    /* 2 C2 */ {W, true, NONE, 0, false, 2, {{"s1", 6, false}, {"s2", 7, false}}},
    /* 3 B1 */ {B, false, NONE, 0, false, 2, {{"a", 8, false}, {"b", 9, false}}},
    /* 4 B2 */ {B, false, NONE, 0, false, 2, {{"a", 10, false}, {"b", 11, false}}},
    /* 5 B3 */ {B, false, NONE, 0, false, 1, {{"a", 12, false}}},
    /* 6 W1 */ {W, false, NONE, 0, false, 2, {{"a", 13, false}, {"b", 14, false}}},
    /* 7 W2 */ {W, false, NONE, 0, false, 2, {{"a", 15, false}, {"b", 16, false}}},
    /* 8  */ {W, false, NONE, 30, true, 1, {{"e", 17, false}}},
    /* 9  */ {W, false, NONE, -60, true, 1, {{"e", 17, false}}},
    /* 10 */ {W, false, NONE, 90, true, 1, {{"e", 17, false}}},
    /* 11 */ {W, false, NONE, 120, true, 1, {{"e", 17, false}}},
    /* 12 */ {W, false, NONE, 0, true, 1, {{"e", 17, false}}},
    /* 13 */ {B, false, NONE, -40, true, 1, {{"e", 17, false}}},
    /* 14 */ {B, false, NONE, 20, true, 1, {{"e", 17, false}}},
    /* 15 */ {B, false, NONE, -11, true, 1, {{"e", 17, false}}},
    /* 16 */ {B, false, NONE, -31, true, 1, {{"e", 17, false}}},
    /* 17 */ {W, false, DRAW, 0, false, 0, {{0}}},
};
static const TTable chance_table = {chance_nodes, 18};

START_TEST(test_chance_expectimax_value_by_hand)
{
    /* p: Black rolls; B1 picks -60, B2 picks +90, B3 has 0 (White's view):
     *    (-60 + 90 + 0) / 3 = 10.
     * q: White rolls; W1 picks +20, W2 picks -11: (20 - 11) / 2 = 4 (4.5
     *    truncated toward zero).  White plays p for 10. */
    Game g;
    table_game_at(&g, &table_game, &chance_table, 0);
    SearchResult r = run(&g, 10, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "p");
    ck_assert_int_eq(r.score, 10);
    /* Every leaf met at depth 2 is exact: the search stops there. */
    ck_assert_int_eq(r.depth, 2);
    /* The PV stops at the chance node. */
    ck_assert(lines_contain("score cp 10 "));
    ck_assert(strstr(lines.text[lines.count - 1], " pv p") != NULL);
    game_free(&g);
}
END_TEST

START_TEST(test_chance_root_reports_value_without_a_move)
{
    Game g;
    /* Black about to roll: from Black's view B1 = +60, B2 = -90, B3 = 0. */
    table_game_at(&g, &table_game, &chance_table, 1);
    SearchResult r = run(&g, 10, 0, 1, 1);
    ck_assert(r.best == MOVE_NONE);
    ck_assert_int_eq(r.score, -10);
    ck_assert(lines_contain("score cp -10"));
    /* White about to roll again (same side as the action that follows). */
    game_free(&g);
    table_game_at(&g, &table_game, &chance_table, 2);
    r = run(&g, 10, 0, 1, 1);
    ck_assert(r.best == MOVE_NONE);
    ck_assert_int_eq(r.score, 4);
    game_free(&g);
}
END_TEST

/* Random expectimax trees against a brute-force solver. */
static TNode random_nodes[4096];
static int random_count;

static int random_tree_node(uint64_t *rng, int level, int height)
{
    int id = random_count++;
    TNode *nd = &random_nodes[id];
    memset(nd, 0, sizeof *nd);
    nd->stm = (int)util_random_below(rng, 2);
    int kind = level == height ? 0 : (int)util_random_below(rng, 10);
    if (level > 0 && kind == 0) {
        static const Result results[] = {RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW};
        nd->result = results[util_random_below(rng, 3)];
        return id;
    }
    nd->chance = kind >= 6;
    nd->n = 1 + (int)util_random_below(rng, nd->chance ? 4 : 3);
    if (nd->chance && nd->n == 1)
        nd->n = 2;
    nd->eval = (int)util_random_below(rng, 201) - 100;
    static const char *names[] = {"a", "b", "c", "d", "e", "f"};
    for (int i = 0; i < nd->n; i++) {
        int child = random_tree_node(rng, level + 1, height);
        nd = &random_nodes[id];
        nd->e[i].name = names[i];
        nd->e[i].to = child;
    }
    return id;
}

static int brute_force(int id, int ply)
{
    const TNode *nd = &random_nodes[id];
    if (nd->result != RESULT_NONE) {
        if (nd->result == RESULT_DRAW)
            return 0;
        int winner = nd->result == RESULT_WHITE_WINS ? WHITE : BLACK;
        return winner == nd->stm ? SCORE_WIN - ply : -(SCORE_WIN - ply);
    }
    int best = -SCORE_INF;
    long sum = 0;
    for (int i = 0; i < nd->n; i++) {
        int c = nd->e[i].to;
        int v = brute_force(c, ply + 1);
        if (random_nodes[c].stm != nd->stm)
            v = -v;
        sum += v;
        if (v > best)
            best = v;
    }
    return nd->chance ? (int)(sum / nd->n) : best;
}

START_TEST(test_star1_keeps_expectimax_values_on_random_trees)
{
    uint64_t rng = 2024;
    static TTable random_table = {random_nodes, 0};
    for (int tree = 0; tree < 300; tree++) {
        random_count = 0;
        random_tree_node(&rng, 0, 3 + tree % 4);
        ck_assert_int_lt(random_count, 4096);
        random_table.count = random_count;
        Game g;
        table_game_at(&g, &table_game, &random_table, 0);
        search_clear();
        SearchResult r = run(&g, 30, 0, 1, 1);
        int expect = brute_force(0, 0);
        ck_assert_msg(r.score == expect, "tree %d: search %d, brute force %d", tree, r.score,
                      expect);
        if (random_nodes[0].chance)
            ck_assert(r.best == MOVE_NONE);
        else
            ck_assert(r.best != MOVE_NONE);
        game_free(&g);
    }
}
END_TEST

/* Repetition: A -a-> B -b-> C; from C, "c" goes back to B, "d" loses. */
static const TNode rep_nodes[] = {
    /* 0 A */ {W, false, NONE, 0, false, 1, {{"a", 1, false}}},
    /* 1 B */ {B, false, NONE, -100, false, 1, {{"b", 2, false}}},
    /* 2 C */ {W, false, NONE, -100, false, 2, {{"c", 1, false}, {"d", 3, false}}},
    /* 3 D */ {B, false, NONE, -100, false, 1, {{"e", 4, false}}},
    /* 4 E */ {W, false, NONE, -100, false, 1, {{"f", 5, false}}},
    /* 5 F */ {B, false, BWIN, 0, false, 0, {{0}}},
};
static const TTable rep_table = {rep_nodes, 6};

static void play(Game *g, const char *moves)
{
    char buf[256], err[128];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        ck_assert_msg(game_play_text(g, tok, err, sizeof err), "%s", err);
}

START_TEST(test_repetition_of_game_history_scores_draw)
{
    Game g;
    table_game_at(&g, &table_rep, &rep_table, 0);
    play(&g, "a b");
    SearchResult r = run(&g, 6, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "c"); /* back to B, which the game has seen */
    ck_assert_int_eq(r.score, 0);
    game_free(&g);
}
END_TEST

START_TEST(test_repetition_on_search_path_scores_draw)
{
    Game g;
    table_game_at(&g, &table_rep, &rep_table, 2); /* no history at all */
    SearchResult r = run(&g, 6, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "c"); /* C -> B -> C repeats the root */
    ck_assert_int_eq(r.score, 0);
    game_free(&g);
}
END_TEST

START_TEST(test_no_repetition_draw_in_games_without_it)
{
    Game g;
    table_game_at(&g, &table_game, &rep_table, 0);
    play(&g, "a b");
    SearchResult r = run(&g, 6, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "c");
    ck_assert_int_eq(r.score, -100); /* the cycle keeps its evaluation */
    game_free(&g);
}
END_TEST

/* Passes and extra turns: the side changes through a pass, not through an
 * extra turn. */
static const TNode pass_nodes[] = {
    /* 0 */ {W, false, NONE, 0, false, 2, {{"x", 1, false}, {"z", 3, false}}},
    /* 1 */ {B, false, NONE, 0, false, 1, {{"0000", 2, false}}},
    /* 2 */ {W, false, NONE, 0, false, 1, {{"y", 4, false}}},
    /* 3 */ {B, false, NONE, 0, false, 1, {{"u", 5, false}}},
    /* 4 */ {B, false, WWIN, 0, false, 0, {{0}}},
    /* 5 */ {W, false, BWIN, 0, false, 0, {{0}}},
    /* 6 */ {W, false, NONE, 0, false, 3, {{"x", 1, false}, {"z", 3, false}, {"bonus", 7, false}}},
    /* 7 */ {W, false, NONE, 0, false, 2, {{"lose", 3, false}, {"win", 4, false}}},
};
static const TTable pass_table = {pass_nodes, 8};

START_TEST(test_pass_is_a_move_that_changes_the_side)
{
    Game g;
    table_game_at(&g, &table_game, &pass_table, 0);
    SearchResult r = run(&g, 10, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "x"); /* x, Black passes, y wins at ply 3 */
    ck_assert_int_eq(r.score, SCORE_WIN - 3);
    ck_assert(lines_contain("score mate 2"));
    ck_assert(lines_contain(" pv x 0000 y"));
    game_free(&g);
}
END_TEST

START_TEST(test_extra_turn_keeps_the_side)
{
    Game g;
    table_game_at(&g, &table_game, &pass_table, 6);
    SearchResult r = run(&g, 10, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "bonus"); /* White moves twice and wins at ply 2 */
    ck_assert_int_eq(r.score, SCORE_WIN - 2);
    ck_assert(r.ponder == 2); /* "win" */
    game_free(&g);
}
END_TEST

START_TEST(test_depth_limit)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchResult r = run(&g, 4, 0, 1, 1);
    ck_assert_int_eq(r.depth, 4);
    ck_assert_int_eq(lines.count, 4);
    ck_assert_int_eq(field(lines.text[3], "depth", 0), 4);
    ck_assert(drift_is_legal(&g, r.best));
    game_free(&g);
}
END_TEST

START_TEST(test_node_limit)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchResult r = run(&g, 0, 5000, 1, 1);
    ck_assert_uint_le(r.nodes, 5000);
    ck_assert_uint_ge(r.nodes, 4000);
    ck_assert(drift_is_legal(&g, r.best));
    r = run(&g, 0, 20000, 2, 1);
    ck_assert_uint_le(r.nodes, 20000 + 2 * 256);
    ck_assert(drift_is_legal(&g, r.best));
    /* A budget too small for depth 1 still yields a legal move. */
    r = run(&g, 0, 3, 1, 1);
    ck_assert(drift_is_legal(&g, r.best));
    ck_assert(lines_contain(" score "));
    game_free(&g);
}
END_TEST

START_TEST(test_deterministic_single_thread)
{
    Game g;
    game_init(&g, &drift, &cfg);
    search_clear();
    SearchResult a = run(&g, 6, 0, 1, 1);
    search_clear();
    SearchResult b = run(&g, 6, 0, 1, 1);
    ck_assert_uint_eq(a.nodes, b.nodes);
    ck_assert(a.best == b.best);
    ck_assert_int_eq(a.score, b.score);
    game_free(&g);
}
END_TEST

/* A search run in a thread of its own, steered through its signal. */
typedef struct Job {
    Game *g;
    SearchLimits limits;
    SearchOptions options;
    SearchSignal signal;
    SearchResult r;
    pthread_t thread;
    atomic_bool done;
} Job;

static void *job_main(void *arg)
{
    Job *j = arg;
    j->r = search_run(j->g, &j->limits, &j->options, &j->signal, collect, (void *)j->g->variant);
    atomic_store(&j->done, true);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void job_start(Job *j)
{
    lines_reset();
    search_signal_init(&j->signal);
    atomic_init(&j->done, false);
    ck_assert_int_eq(pthread_create(&j->thread, NULL, job_main, j), 0);
}

/* Wait for the job to return; ms it took from the call. */
static int64_t job_join(Job *j)
{
    int64_t t0 = util_now_ms();
    pthread_join(j->thread, NULL);
    search_signal_destroy(&j->signal);
    return util_now_ms() - t0;
}

static int64_t run_job_and_stop_after(Job *j, int ms)
{
    job_start(j);
    sleep_ms(ms);
    search_signal_stop(&j->signal);
    return job_join(j);
}

START_TEST(test_stop_flag_ends_the_search_promptly)
{
    Game g;
    game_init(&g, &drift, &cfg);
    for (int threads = 1; threads <= 2; threads++) {
        Job j;
        search_limits_clear(&j.limits);
        j.limits.infinite = true;
        j.g = &g;
        j.options = (SearchOptions){threads, 1, NULL};
        int64_t waited = run_job_and_stop_after(&j, 150);
        ck_assert_int_lt(waited, 500); /* generous: a loaded machine */
        ck_assert(drift_is_legal(&g, j.r.best));
        ck_assert(lines_contain(" score "));
    }
    game_free(&g);
}
END_TEST

START_TEST(test_infinite_waits_for_stop_even_when_solved)
{
    Game g;
    nim_game(&g, "5 w");
    Job j;
    search_limits_clear(&j.limits);
    j.limits.infinite = true;
    j.g = &g;
    j.options = (SearchOptions){1, 1, NULL};
    int64_t t0 = util_now_ms();
    run_job_and_stop_after(&j, 120);
    ck_assert_int_ge(util_now_ms() - t0, 110);
    ck_assert_uint_eq(j.r.best, 1); /* take one, leave four */
    game_free(&g);
}
END_TEST

/* CPU time of thread th in microseconds. */
static int64_t thread_cpu_us(pthread_t th)
{
    clockid_t clock;
    struct timespec ts;
    ck_assert_int_eq(pthread_getcpuclockid(th, &clock), 0);
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

START_TEST(test_waiting_for_stop_costs_no_cpu)
{
    /* Solved at once, then it waits for stop: asleep, not polling. */
    Game g;
    nim_game(&g, "5 w");
    Job j;
    search_limits_clear(&j.limits);
    j.limits.infinite = true;
    j.g = &g;
    j.options = (SearchOptions){2, 1, NULL};
    job_start(&j);
    for (int waited = 0; lines_count() == 0 && waited < 10000; waited += 10)
        sleep_ms(10); /* the search has reported: it is done and waits */
    sleep_ms(200);
    /* The waiting is done by the thread that called search_run (the pool's
     * workers have returned to their own sleep). */
    int64_t c0 = thread_cpu_us(j.thread);
    sleep_ms(300);
    int64_t used = thread_cpu_us(j.thread) - c0;
    ck_assert(!atomic_load(&j.done));
    search_signal_stop(&j.signal);
    job_join(&j);
    /* Measured (whole process): about 16 us asleep on the condition
     * variable, about 3400 us when it polled every millisecond. */
    ck_assert_int_lt(used, 1000);
    game_free(&g);
}
END_TEST

START_TEST(test_ponder_searches_untimed_until_ponderhit_then_under_the_clock)
{
    Game g;
    game_init(&g, &drift, &cfg);
    Job j;
    search_limits_clear(&j.limits);
    j.limits.ponder = true;
    j.limits.movetime = 300;
    j.limits.move_overhead = 0;
    j.g = &g;
    j.options = (SearchOptions){1, 1, NULL};
    job_start(&j);
    sleep_ms(600); /* twice the move time: pondering is not on the clock */
    ck_assert(!atomic_load(&j.done));
    int lines_at_hit = lines_count();
    search_signal_ponderhit(&j.signal);
    int64_t after = job_join(&j);
    /* The search went on for its move time after the ponderhit, and ended. */
    ck_assert_int_ge(after, 250);
    ck_assert_int_le(after, 300 + 1500); /* generous: a loaded machine */
    ck_assert(drift_is_legal(&g, j.r.best));
    ck_assert_int_ge(lines.count, lines_at_hit);
    ck_assert_int_gt(j.r.depth, 1);
    game_free(&g);
}
END_TEST

START_TEST(test_ponder_answers_at_ponderhit_when_already_done)
{
    /* Solved while pondering: it waits, and answers at once on ponderhit. */
    Game g;
    nim_game(&g, "5 w");
    Job j;
    search_limits_clear(&j.limits);
    j.limits.ponder = true;
    j.limits.time[WHITE] = 60000;
    j.limits.time[BLACK] = 60000;
    j.g = &g;
    j.options = (SearchOptions){1, 1, NULL};
    job_start(&j);
    sleep_ms(200);
    ck_assert(!atomic_load(&j.done));
    search_signal_ponderhit(&j.signal);
    ck_assert_int_lt(job_join(&j), 1000); /* its clock would allow 2000 */
    ck_assert_uint_eq(j.r.best, 1);
    game_free(&g);
}
END_TEST

START_TEST(test_stop_ends_a_ponder_search)
{
    Game g;
    game_init(&g, &drift, &cfg);
    Job j;
    search_limits_clear(&j.limits);
    j.limits.ponder = true;
    j.limits.movetime = 100000;
    j.g = &g;
    j.options = (SearchOptions){2, 1, NULL};
    ck_assert_int_lt(run_job_and_stop_after(&j, 150), 500);
    ck_assert(drift_is_legal(&g, j.r.best));
    /* A stop raised before the search starts is not lost. */
    search_signal_init(&j.signal);
    search_signal_stop(&j.signal);
    SearchResult r = search_run(&g, &j.limits, &j.options, &j.signal, NULL, NULL);
    ck_assert(drift_is_legal(&g, r.best));
    search_signal_destroy(&j.signal);
    game_free(&g);
}
END_TEST

/* CPU time of this process in ms: what the search itself consumed (it runs
 * on one pool worker; the test's own thread only waits). */
static int64_t process_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

START_TEST(test_movetime_is_honoured)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchLimits l;
    search_limits_clear(&l);
    l.movetime = 200;
    SearchOptions o = {1, 1, NULL};
    int64_t t0 = util_now_ms(), c0 = process_cpu_ms();
    SearchResult r = search_run(&g, &l, &o, NULL, collect, (void *)g.variant);
    int64_t took = util_now_ms() - t0, cpu = process_cpu_ms() - c0;
    /* The search's own consumption is its CPU time; wall time also holds
     * whatever the scheduler adds on a loaded machine, so it only gets a
     * sanity bound. */
    ck_assert_int_le(cpu, 260);
    ck_assert_int_le(took, 200 + 1500);
    ck_assert_int_ge(took, 100);
    ck_assert(drift_is_legal(&g, r.best));
    game_free(&g);
}
END_TEST

START_TEST(test_clock_is_never_overrun)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchOptions o = {1, 1, NULL};
    static const int64_t clocks[] = {0, 5, 40, 300, 1000};
    search_set_hash(TT_DEFAULT_MB); /* as the protocol does at start-up */
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        SearchLimits l;
        search_limits_clear(&l);
        l.time[WHITE] = clocks[i];
        l.time[BLACK] = 100000; /* not ours */
            int64_t t0 = util_now_ms(), c0 = process_cpu_ms();
        SearchResult r = search_run(&g, &l, &o, NULL, NULL, NULL);
        int64_t took = util_now_ms() - t0, cpu = process_cpu_ms() - c0;
        ck_assert_msg(cpu <= clocks[i] / 2 + 80, "clock %lld used %lld ms of CPU",
                      (long long)clocks[i], (long long)cpu);
        ck_assert_msg(took <= clocks[i] / 2 + 1500, "clock %lld took %lld",
                      (long long)clocks[i], (long long)took);
        ck_assert(drift_is_legal(&g, r.best));
    }
    game_free(&g);
}
END_TEST

START_TEST(test_single_legal_move_returns_quickly)
{
    Game g;
    char err[64];
    game_init(&g, &drift, &cfg);
    ck_assert(game_set_fen(&g, "99 0 1", err, sizeof err));
    SearchLimits l;
    search_limits_clear(&l);
    l.movetime = 3000;
    SearchOptions o = {1, 1, NULL};
    int64_t t0 = util_now_ms();
    SearchResult r = search_run(&g, &l, &o, NULL, NULL, NULL);
    ck_assert_int_lt(util_now_ms() - t0, 1000);
    ck_assert_uint_eq(r.best, 1);
    ck_assert_int_eq(r.depth, 1);
    game_free(&g);
}
END_TEST

START_TEST(test_multipv_returns_distinct_moves)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchResult r = run(&g, 5, 0, 1, 3);
    /* The last three lines are depth 5, multipv 1..3. */
    ck_assert_int_ge(lines.count, 3);
    char first[3][16];
    int prev_score = SCORE_INF;
    for (int k = 0; k < 3; k++) {
        const char *l = lines.text[lines.count - 3 + k];
        ck_assert_int_eq(field(l, "depth", 0), 5);
        ck_assert_int_eq(field(l, "multipv", 0), k + 1);
        const char *pv = strstr(l, " pv ");
        ck_assert_ptr_nonnull(pv);
        sscanf(pv + 4, "%15s", first[k]);
        int s = (int)field(l, "cp", 0);
        ck_assert_int_le(s, prev_score);
        prev_score = s;
    }
    ck_assert_str_ne(first[0], first[1]);
    ck_assert_str_ne(first[0], first[2]);
    ck_assert_str_ne(first[1], first[2]);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, first[0]);
    /* MultiPV larger than the move count is cut to it. */
    r = run(&g, 2, 0, 1, 50);
    ck_assert_int_eq(field(lines.text[lines.count - 1], "multipv", 0), 8);
    game_free(&g);
}
END_TEST

START_TEST(test_two_threads_agree_on_mate)
{
    Game g;
    nim_game(&g, "14 w");
    SearchResult r = run(&g, 30, 0, 2, 1);
    ck_assert_uint_eq(r.best, 2); /* leave 12 */
    ck_assert_int_eq(r.score, SCORE_WIN - 7);
    game_free(&g);
    game_init(&g, &drift, &cfg);
    r = run(&g, 7, 0, 2, 1);
    ck_assert(drift_is_legal(&g, r.best));
    ck_assert_int_eq(r.depth, 7);
    game_free(&g);
}
END_TEST

START_TEST(test_two_threads_keep_expectimax_values)
{
    Game g;
    table_game_at(&g, &table_game, &chance_table, 0);
    SearchResult r = run(&g, 10, 0, 2, 1);
    ck_assert_int_eq(r.score, 10);
    game_free(&g);
}
END_TEST

START_TEST(test_thread_pool_keeps_its_workers_between_searches)
{
    Game g;
    game_init(&g, &drift, &cfg);
    run(&g, 3, 0, 2, 1);
    SearchThread *helper = threads_get(1);
    ck_assert_ptr_nonnull(helper);
    ck_assert_int_eq(helper->id, 1);
    run(&g, 3, 0, 2, 1);
    ck_assert_ptr_eq(threads_get(1), helper); /* the same worker, not a new one */
    ck_assert_ptr_null(threads_get(2));
    run(&g, 3, 0, 3, 1);
    ck_assert_ptr_nonnull(threads_get(2));
    run(&g, 3, 0, 1, 1);
    ck_assert_ptr_null(threads_get(1));
    /* Idle workers sleep: no CPU is spent between searches. */
    run(&g, 3, 0, 2, 1);
    struct timespec c0, c1, pause = {0, 200000000};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    nanosleep(&pause, NULL);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    int64_t idle_us = (c1.tv_sec - c0.tv_sec) * 1000000 + (c1.tv_nsec - c0.tv_nsec) / 1000;
    ck_assert_int_lt(idle_us, 5000);
    game_free(&g);
}
END_TEST

/* nim with a hint that prefers taking 3, then 2, then 1. */
static void nim_hints(const Position *pos, const Move *moves, int n, int *hints)
{
    (void)pos;
    for (int i = 0; i < n; i++)
        hints[i] = (int)moves[i];
}

START_TEST(test_picker_orders_equal_moves_by_the_game_hint_then_code)
{
    Variant hinted = nim;
    Position pos;
    nim_set(&pos, 10, WHITE);
    Move gen[MAX_MOVES];
    int n = nim.generate(&pos, gen);
    static MoveHistory h;
    movepick_clear_history(&h);
    ScoredMove buf[MAX_MOVES];
    MovePicker mp;
    /* Without a hint: equal scores go in ascending code order. */
    ck_assert_int_eq(movepick_init(&mp, buf, &h, &nim, &pos, gen, n, 1, MOVE_NONE, false), 3);
    for (Move want = 1; want <= 3; want++)
        ck_assert_uint_eq(movepick_next(&mp)->move, want);
    /* With it: the hint decides among equals... */
    hinted.order_hints = nim_hints;
    movepick_init(&mp, buf, &h, &hinted, &pos, gen, n, 1, MOVE_NONE, false);
    for (Move want = 3; want >= 1; want--)
        ck_assert_uint_eq(movepick_next(&mp)->move, want);
    /* ...but not over the search's own knowledge: the TT move and a killer
     * come first. */
    movepick_reward_cutoff(&h, WHITE, 1, 4, 2, NULL, 0);
    movepick_init(&mp, buf, &h, &hinted, &pos, gen, n, 1, 1, false);
    ck_assert_uint_eq(movepick_next(&mp)->move, 1);
    ck_assert_uint_eq(movepick_next(&mp)->move, 2);
    ck_assert_uint_eq(movepick_next(&mp)->move, 3);
    ck_assert_ptr_null(movepick_next(&mp));
}
END_TEST

/* ---------------------------------------------------------------- tt */

/* A key whose bucket is b (the low 32 bits choose it) and tag t. */
static uint64_t key_in_bucket(size_t b, uint32_t tag)
{
    size_t buckets = tt_entry_count() / 4;
    uint64_t low = (((uint64_t)b << 32) + buckets - 1) / buckets;
    return ((uint64_t)tag << 32) | low;
}

START_TEST(test_tt_store_and_probe)
{
    ck_assert(tt_resize(1));
    ck_assert_uint_eq(tt_size_mb(), 1);
    ck_assert_uint_eq(tt_entry_count(), 1024 * 1024 / 16);
    TTHit h;
    uint64_t k = 0x123456789abcdef0ULL;
    ck_assert(!tt_probe(k, &h));
    tt_store(k, 0xfeedface12345678ULL, -1234, 7, TT_BOUND_LOWER, true);
    ck_assert(tt_probe(k, &h));
    ck_assert(h.move == 0xfeedface12345678ULL);
    ck_assert_int_eq(h.score, -1234);
    ck_assert_int_eq(h.depth, 7);
    ck_assert_int_eq(h.bound, TT_BOUND_LOWER);
    ck_assert(h.solved);
    /* Same bucket, other upper key bits: not found. */
    ck_assert(!tt_probe(k ^ (1ULL << 40), &h));
    /* A shallower bound of the same search does not overwrite a deeper one. */
    tt_store(k, 5, 100, 2, TT_BOUND_UPPER, false);
    ck_assert(tt_probe(k, &h));
    ck_assert_int_eq(h.depth, 7);
    /* An exact one does; MOVE_NONE keeps the old move. */
    tt_store(k, MOVE_NONE, 55, 3, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(k, &h));
    ck_assert_int_eq(h.depth, 3);
    ck_assert_int_eq(h.score, 55);
    ck_assert(h.move == 0xfeedface12345678ULL);
    ck_assert(!h.solved);
    tt_clear();
    ck_assert(!tt_probe(k, &h));
}
END_TEST

START_TEST(test_tt_replaces_shallowest_then_oldest)
{
    ck_assert(tt_resize(1));
    TTHit h;
    static const int depths[4] = {5, 3, 7, 9};
    for (int i = 0; i < 4; i++)
        tt_store(key_in_bucket(17, 100 + i), 1, 0, depths[i], TT_BOUND_EXACT, false);
    for (int i = 0; i < 4; i++)
        ck_assert(tt_probe(key_in_bucket(17, 100 + i), &h));
    /* A fifth position takes the depth-3 entry. */
    tt_store(key_in_bucket(17, 200), 1, 0, 4, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(key_in_bucket(17, 200), &h));
    ck_assert(!tt_probe(key_in_bucket(17, 101), &h));
    ck_assert(tt_probe(key_in_bucket(17, 100), &h));
    ck_assert(tt_probe(key_in_bucket(17, 102), &h));
    ck_assert(tt_probe(key_in_bucket(17, 103), &h));
    /* Two searches later the depth-9 entry (now worth 9 - 16) goes before
     * a fresh depth-1 one. */
    tt_new_search();
    tt_new_search();
    tt_store(key_in_bucket(17, 300), 1, 0, 1, TT_BOUND_EXACT, false);
    tt_store(key_in_bucket(17, 301), 1, 0, 1, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(key_in_bucket(17, 300), &h));
    ck_assert(tt_probe(key_in_bucket(17, 301), &h));
    int kept = 0;
    for (int i = 0; i < 4; i++)
        kept += tt_probe(key_in_bucket(17, 100 + i), &h);
    kept += tt_probe(key_in_bucket(17, 200), &h);
    ck_assert_int_eq(kept, 2);
    ck_assert(tt_probe(key_in_bucket(17, 103), &h)); /* the deepest stays */
}
END_TEST

START_TEST(test_tt_hashfull_counts_this_search_in_permille)
{
    ck_assert(tt_resize(1));
    ck_assert_int_eq(tt_hashfull(), 0);
    for (size_t b = 0; b < 250; b++)
        for (uint32_t t = 0; t < 4; t++)
            tt_store(key_in_bucket(b, 1000 + t), 1, 0, 1, TT_BOUND_EXACT, false);
    ck_assert_int_eq(tt_hashfull(), 1000);
    tt_new_search();
    ck_assert_int_eq(tt_hashfull(), 0);
    for (size_t b = 0; b < 250; b += 2)
        for (uint32_t t = 0; t < 4; t++)
            tt_store(key_in_bucket(b, 1000 + t), 1, 0, 1, TT_BOUND_EXACT, false);
    ck_assert_int_eq(tt_hashfull(), 500);
    tt_resize(TT_DEFAULT_MB);
}
END_TEST

START_TEST(test_search_set_hash_and_clear)
{
    search_set_hash(2);
    ck_assert_uint_eq(tt_size_mb(), 2);
    Game g;
    game_init(&g, &drift, &cfg);
    run(&g, 4, 0, 1, 1);
    ck_assert_int_gt(tt_hashfull(), 0);
    search_clear();
    ck_assert_int_eq(tt_hashfull(), 0);
    search_set_hash(TT_DEFAULT_MB);
    ck_assert_uint_eq(tt_size_mb(), TT_DEFAULT_MB);
    game_free(&g);
}
END_TEST

/* ------------------------------------------------------------ timeman */

START_TEST(test_timeman_untimed)
{
    SearchLimits l;
    search_limits_clear(&l);
    ck_assert(!timeman_allocate(&l, WHITE).timed);
    l.depth = 5;
    l.nodes = 1000;
    ck_assert(!timeman_allocate(&l, WHITE).timed);
    l.time[WHITE] = 5000;
    l.infinite = true;
    ck_assert(!timeman_allocate(&l, WHITE).timed);
}
END_TEST

START_TEST(test_timeman_a_clock_for_the_opponent_only_is_an_empty_clock)
{
    /* `go btime 100` with White to move: White's missing time is none, so
     * the search gets the 1 ms of an empty clock, never unlimited time. */
    SearchLimits l;
    search_limits_clear(&l);
    l.time[BLACK] = 100;
    TimeBudget b = timeman_allocate(&l, WHITE);
    ck_assert(b.timed);
    ck_assert_int_eq(b.hard_ms, 1);
    ck_assert_int_eq(b.soft_ms, 1);
    /* A lone movestogo, or the opponent's increment, is a clock too. */
    search_limits_clear(&l);
    l.movestogo = 1;
    b = timeman_allocate(&l, BLACK);
    ck_assert(b.timed);
    ck_assert_int_eq(b.hard_ms, 1);
    search_limits_clear(&l);
    l.inc[BLACK] = 1000;
    b = timeman_allocate(&l, WHITE);
    ck_assert(b.timed);
    ck_assert_int_eq(b.hard_ms, 1);
    /* The mover's own increment on an empty clock: still at most half the
     * (empty) clock, so 1 ms. */
    l.inc[WHITE] = 1000;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).hard_ms, 1);
}
END_TEST

START_TEST(test_timeman_saturates_for_any_64_bit_input)
{
    SearchLimits l;
    search_limits_clear(&l);
    /* The overflow a GUI could trigger: go wtime 2^61-1 winc 2^61-1 movestogo 1. */
    l.time[WHITE] = 2305843009213693951LL;
    l.inc[WHITE] = 2305843009213693951LL;
    l.movestogo = 1;
    TimeBudget b = timeman_allocate(&l, WHITE);
    ck_assert(b.timed);
    int64_t usable = 2305843009213693951LL - TIMEMAN_DEFAULT_OVERHEAD_MS;
    ck_assert_int_eq(b.hard_ms, usable);
    ck_assert_int_eq(b.soft_ms, (usable + 2305843009213693951LL / 4 * 3 + 3 * 3 / 4) / 2);
    /* The extremes: clock and increment at INT64_MAX, every movestogo. */
    static const int64_t big[] = {INT64_MAX, INT64_MAX - 1, INT64_MAX / 2, INT64_MAX / 3 + 7,
                                  (int64_t)1 << 62, 1, 0};
    static const int mtg[] = {0, 1, 2, 3, 50, 51, 1000000, INT32_MAX};
    for (size_t i = 0; i < sizeof big / sizeof *big; i++)
        for (size_t k = 0; k < sizeof big / sizeof *big; k++)
            for (size_t m = 0; m < sizeof mtg / sizeof *mtg; m++) {
                search_limits_clear(&l);
                l.time[BLACK] = big[i];
                l.inc[BLACK] = big[k];
                l.movestogo = mtg[m];
                l.moves_left = mtg[(m + 3) % 8];
                b = timeman_allocate(&l, BLACK);
                ck_assert(b.timed);
                ck_assert_int_ge(b.soft_ms, 1);
                ck_assert_int_le(b.soft_ms, b.hard_ms);
                int64_t margin = big[i] / 2 < TIMEMAN_DEFAULT_OVERHEAD_MS
                                     ? big[i] / 2 : TIMEMAN_DEFAULT_OVERHEAD_MS;
                ck_assert_int_le(b.hard_ms, big[i] - margin > 1 ? big[i] - margin : 1);
            }
    /* movetime and the overhead at the extremes. */
    search_limits_clear(&l);
    l.movetime = INT64_MAX;
    l.move_overhead = INT64_MAX;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.hard_ms, INT64_MAX - INT64_MAX / 2);
}
END_TEST

START_TEST(test_timeman_move_overhead_and_game_length)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.time[WHITE] = 60000;
    l.move_overhead = 1000;
    TimeBudget b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 59000 / 30 / 2); /* the overhead comes off first */
    l.move_overhead = 0;
    l.movetime = 500;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.hard_ms, 500);
    /* The game's own estimate of its length replaces the 30 moves ... */
    l.movetime = 0;
    l.moves_left = 10; /* and 5 in reserve */
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 2000);
    ck_assert_int_eq(b.hard_ms, 8000);
    /* ... but never spreads the clock over more than 30 moves ... */
    l.moves_left = 400;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 60000 / 30 / 2);
    /* ... and a game ending before the time control wins over movestogo. */
    l.moves_left = 5;
    l.movestogo = 20;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 3000);
    l.moves_left = 60;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 60000 / 20 / 2);
    /* movestogo is capped like the game's estimate. */
    l.movestogo = 40;
    ck_assert_int_eq(timeman_allocate(&l, WHITE).soft_ms, 60000 / 30 / 2);
    /* The last estimated move still has the reserve of 5 moves; only
     * movestogo 1 (a time control right after the move) may use all of the
     * clock. */
    l.movestogo = 0;
    l.moves_left = 1;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 5000);
    ck_assert_int_eq(b.hard_ms, 20000);
    l.movestogo = 1;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 30000);
    ck_assert_int_eq(b.hard_ms, 60000);
}
END_TEST

START_TEST(test_timeman_movetime)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.movetime = 1000;
    TimeBudget b = timeman_allocate(&l, BLACK);
    ck_assert(b.timed);
    ck_assert_int_eq(b.soft_ms, 980);
    ck_assert_int_eq(b.hard_ms, 980);
    l.movetime = 10; /* the margin shrinks to half */
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.hard_ms, 5);
    l.movetime = 1;
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.hard_ms, 1);
}
END_TEST

START_TEST(test_timeman_clock)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.time[WHITE] = 60000;
    TimeBudget b = timeman_allocate(&l, WHITE);
    /* 59980 usable over 30 moves: a target of 1999, half of it soft, twice
     * it hard. */
    ck_assert_int_eq(b.soft_ms, 999);
    ck_assert_int_eq(b.hard_ms, 3998);
    /* Increment: three quarters added, but never past half the clock. */
    l.time[BLACK] = 1000;
    l.inc[BLACK] = 2000;
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.hard_ms, 490);
    ck_assert_int_eq(b.soft_ms, 490);
    l.time[BLACK] = 30000;
    l.inc[BLACK] = 400;
    b = timeman_allocate(&l, BLACK);
    ck_assert_int_eq(b.soft_ms, (29980 / 30 + 300) / 2);
    ck_assert_int_eq(b.hard_ms, (29980 / 30 + 300) * 2);
    /* movestogo */
    l.movestogo = 10;
    l.time[WHITE] = 10000;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 499);
    ck_assert_int_eq(b.hard_ms, 1996);
    l.movestogo = 1;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 4990);
    ck_assert_int_eq(b.hard_ms, 9980);
    /* An empty clock still gives 1 ms to find a move. */
    l.movestogo = 0;
    l.time[WHITE] = 0;
    b = timeman_allocate(&l, WHITE);
    ck_assert_int_eq(b.soft_ms, 1);
    ck_assert_int_eq(b.hard_ms, 1);
}
END_TEST

START_TEST(test_timeman_never_past_the_clock)
{
    SearchLimits l;
    search_limits_clear(&l);
    for (int64_t t = 0; t < 200000; t = t * 3 / 2 + 1)
        for (int64_t inc = 0; inc <= 5000; inc += 1000)
            for (int mtg = 0; mtg <= 60; mtg += 7) {
                l.time[WHITE] = t;
                l.inc[WHITE] = inc;
                l.movestogo = mtg;
                TimeBudget b = timeman_allocate(&l, WHITE);
                ck_assert(b.timed);
                ck_assert_int_ge(b.soft_ms, 1);
                ck_assert_int_le(b.soft_ms, b.hard_ms);
                int64_t margin = t / 2 < TIMEMAN_DEFAULT_OVERHEAD_MS ? t / 2 : TIMEMAN_DEFAULT_OVERHEAD_MS;
                ck_assert_int_le(b.hard_ms, t - margin > 1 ? t - margin : 1);
            }
}
END_TEST

/* -------------------------------------------------------------- game */

START_TEST(test_game_play_text_errors)
{
    Game g;
    nim_game(&g, "2 w");
    char err[128];
    ck_assert(!game_play_text(&g, "t3", err, sizeof err)); /* more than the pile */
    ck_assert(strstr(err, "illegal") != NULL);
    ck_assert(!game_play_text(&g, "garbage", err, sizeof err));
    ck_assert(strstr(err, "garbage") != NULL);
    ck_assert_int_eq(g.ply, 0);
    ck_assert(game_play_text(&g, "t2", err, sizeof err));
    ck_assert_int_eq(g.ply, 1);
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_WHITE_WINS);
    ck_assert(!game_play_text(&g, "t1", err, sizeof err));
    ck_assert(strstr(err, "ended") != NULL);
    ck_assert_str_eq(game_result_word(RESULT_WHITE_WINS), "p1win");
    ck_assert_str_eq(game_result_word(RESULT_BLACK_WINS), "p2win");
    ck_assert_str_eq(game_result_word(RESULT_DRAW), "draw");
    ck_assert_str_eq(game_result_word(RESULT_NONE), "none");
    ck_assert(!game_set_fen(&g, "x y", err, sizeof err));
    ck_assert_int_eq(g.ply, 1); /* unchanged */
    game_free(&g);
}
END_TEST

START_TEST(test_game_threefold_repetition)
{
    Game g;
    const char *reason = NULL;
    table_game_at(&g, &table_rep, &rep_table, 0);
    play(&g, "a b c b");
    ck_assert_int_eq(game_repetitions(&g), 2); /* C twice */
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
    play(&g, "c");
    ck_assert_int_eq(game_repetitions(&g), 3); /* B three times */
    ck_assert_int_eq(game_result(&g, NULL, &reason), RESULT_DRAW);
    ck_assert_str_eq(reason, "threefold repetition");
    char err[128];
    ck_assert(!game_play_text(&g, "b", err, sizeof err));
    /* The same moves in a game without repetition draws go on. */
    game_free(&g);
    table_game_at(&g, &table_game, &rep_table, 0);
    play(&g, "a b c b c b c");
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
    game_free(&g);
}
END_TEST

START_TEST(test_game_undo_restores_position_and_repetition_history)
{
    Game g;
    table_game_at(&g, &table_rep, &rep_table, 0);
    play(&g, "a b c b c");
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_DRAW);
    game_undo(&g, 1);
    ck_assert_int_eq(g.ply, 4);
    ck_assert_uint_eq(g.variant->key(&g.pos), g.keys[4]);
    ck_assert_uint_eq(g.keys[4], g.keys[2]); /* C again */
    ck_assert_int_eq(game_repetitions(&g), 2);
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
    /* The repetition counts again when the same move is played again. */
    play(&g, "c");
    ck_assert_int_eq(game_repetitions(&g), 3);
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_DRAW);
    /* Back to the start: the start position, the history gone. */
    game_undo(&g, 5);
    ck_assert_int_eq(g.ply, 0);
    ck_assert(memcmp(&g.pos, &g.start, sizeof g.pos) == 0);
    ck_assert_int_eq(game_repetitions(&g), 1);
    game_free(&g);
    /* From a FEN, part of the way. */
    nim_game(&g, "30 w");
    play(&g, "t1 t2 t3");
    game_undo(&g, 2);
    ck_assert_int_eq(g.ply, 1);
    ck_assert_int_eq(CNIM(&g.pos)->pile, 29);
    ck_assert_uint_eq(g.keys[1], nim.key(&g.pos));
    game_free(&g);
}
END_TEST

START_TEST(test_every_game_estimates_the_moves_left)
{
    /* The estimates of doc/search.md, at each game's start. */
    static const struct {
        const char *name;
        int at_start;
    } want[] = {
        {"solomon", 3 * 12 + 3},     {"solomon-chain", 3 * 12 + 3},
        {"salto", 2 * DEFAULT_MOVE_LIMIT}, {"pyramid", 60 + 60 / 8 + 2},
        {"lupta", 24 + 3 * (24 - 15)}, {"alexander", 24 * 7 / 2 + 4},
    };
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const Variant *v = variants_find(want[i].name);
        ck_assert_ptr_nonnull(v);
        ck_assert_ptr_nonnull(v->plies_left);
        Position p;
        v->startpos(&p, &cfg);
        ck_assert_int_eq(v->plies_left(&p), want[i].at_start);
    }
    /* Salto counts down to the move limit exactly. */
    const Variant *salto = variants_find("salto");
    GameConfig short_cfg = {.move_limit = 80};
    Game g;
    game_init(&g, salto, &short_cfg);
    ck_assert_int_eq(salto->plies_left(&g.pos), 160);
    for (int ply = 1; ply <= 5; ply++) {
        Move moves[MAX_MOVES];
        ck_assert_int_gt(salto->generate(&g.pos, moves), 0);
        game_play(&g, moves[0]);
        ck_assert_int_eq(salto->plies_left(&g.pos), 160 - ply);
    }
    game_free(&g);
}
END_TEST

START_TEST(test_game_copy_is_independent)
{
    Game a, b;
    nim_game(&a, "30 w");
    play(&a, "t1 t2 t3");
    memset(&b, 0, sizeof b);
    game_copy(&b, &a);
    ck_assert_int_eq(b.ply, 3);
    ck_assert(b.keys != a.keys && b.moves != a.moves);
    for (int i = 0; i < 24; i++)
        play(&b, "t1");
    ck_assert_int_eq(a.ply, 3);
    ck_assert_int_eq(CNIM(&a.pos)->pile, 24);
    ck_assert_uint_eq(a.keys[3], nim.key(&a.pos));
    ck_assert_uint_eq(a.moves[2], 3);
    ck_assert_int_eq(CNIM(&b.pos)->pile, 0);
    /* A reset goes back to the variant's start. */
    game_reset(&b);
    ck_assert_int_eq(b.ply, 0);
    ck_assert_int_eq(CNIM(&b.pos)->pile, 10);
    ck_assert(b.start_is_startpos);
    game_free(&a);
    game_free(&b);
}
END_TEST

/* -------------------------------------------------------------- util */

START_TEST(test_util_next_token)
{
    const char *cur = "  go depth\t 5  \n";
    char tok[8];
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 2);
    ck_assert_str_eq(tok, "go");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 5);
    ck_assert_str_eq(tok, "depth");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 1);
    ck_assert_str_eq(tok, "5");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 0);
    ck_assert_str_eq(tok, "");
    /* Truncated to the buffer, the full length returned. */
    cur = "abcdefghijkl x";
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 12);
    ck_assert_str_eq(tok, "abcdefg");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 1);
    ck_assert_str_eq(tok, "x");
}
END_TEST

START_TEST(test_util_parse_number_is_strict)
{
    long long v = 77;
    ck_assert(util_parse_number("16", 1, 4096, &v) && v == 16);
    ck_assert(util_parse_number("0", 0, 0, &v) && v == 0);
    ck_assert(util_parse_number("-5", -10, 10, &v) && v == -5);
    ck_assert(util_parse_number("9223372036854775807", 0, LLONG_MAX, &v) && v == LLONG_MAX);
    ck_assert(util_parse_number("-9223372036854775808", LLONG_MIN, 0, &v) && v == LLONG_MIN);
    v = 77;
    static const char *const bad[] = {"",    "+16", " 16", "16 ", "16.0", "0x10", "1e3", "-",
                                      "--1", "9223372036854775808", "-9223372036854775809",
                                      "4097", "0",   "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(!util_parse_number(bad[i], 1, 4096, &v), "accepted '%s'", bad[i]);
    ck_assert(!util_parse_number("-1", 0, 10, &v)); /* no '-' when min >= 0 */
    ck_assert(!util_parse_number("-0", 0, 10, &v));
    ck_assert_int_eq(v, 77);
}
END_TEST

/* The ASan build's allocator refuses a request of SIZE_MAX bytes with a
 * report of its own unless it may return NULL as malloc does (it then
 * still warns on stderr, a line before the program's own). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }

/* Run the allocation `which` in a child whose stderr is a pipe: what it
 * wrote, and its exit status (-1 unless it exited). */
static int out_of_memory_child(int which, char *said, size_t size)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        util_set_program_name("check_core");
        volatile size_t huge = SIZE_MAX;
        static void *volatile kept; /* reachable at exit: no leak to report */
        kept = which == 3 ? util_xmalloc(16) : NULL;
        void *p = which == 0   ? util_xmalloc(huge)
                  : which == 1 ? util_xcalloc(huge / 2 + 1, 2) /* the product overflows */
                  : which == 2 ? util_xcalloc(huge, 1)
                               : util_xrealloc(kept, huge);
        _exit(p ? 0 : 2); /* not reached: the policy is to exit 1 */
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < size && (got = read(fds[0], said + n, size - 1 - n)) > 0)
        n += (size_t)got;
    said[n] = '\0';
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(test_util_out_of_memory_exits_1_with_the_message)
{
    char expected[96], said[256];
    snprintf(expected, sizeof expected, "check_core: out of memory (%zu bytes)\n", SIZE_MAX);
    for (int which = 0; which < 4; which++) {
        ck_assert_int_eq(out_of_memory_child(which, said, sizeof said), 1);
        size_t n = strlen(said), m = strlen(expected);
        const char *last = n >= m ? said + n - m : said; /* its last line */
        ck_assert_str_eq(last, expected);
        ck_assert(last == said || last[-1] == '\n');
    }
    /* what succeeds is usable memory: zeroed for calloc, copied for strdup */
    unsigned char *z = util_xcalloc(64, 4);
    for (int i = 0; i < 256; i++)
        ck_assert_int_eq(z[i], 0);
    z = util_xrealloc(z, 4096);
    z[4095] = 1;
    free(z);
    char *d = util_xstrdup("sigil");
    ck_assert_str_eq(d, "sigil");
    free(d);
    free(util_xmalloc(0));
}
END_TEST

START_TEST(test_util_random_below_range)
{
    uint64_t s = 7;
    static const uint64_t ns[] = {1, 2, 3, 7, 36, 1000, UINT64_MAX};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int i = 0; i < 2000; i++)
            ck_assert_uint_lt(util_random_below(&s, ns[k]), ns[k]);
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 3000; i++)
        seen[util_random_below(&s, 3)]++;
    for (int i = 0; i < 3; i++)
        ck_assert_int_gt(seen[i], 800);
    /* SplitMix64 is reproducible from its seed. */
    uint64_t a = 42, b = 42;
    ck_assert_uint_eq(util_splitmix64(&a), util_splitmix64(&b));
    ck_assert_uint_ne(util_splitmix64(&a), 42);
    ck_assert_int_eq(util_popcount64(0xF0F0ULL), 8);
    ck_assert_int_eq(util_lsb64(0x100ULL), 8);
}
END_TEST

/* ============================================================== runner */

static Suite *core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_nim_finds_winning_move_and_mate_distance);
    tcase_add_test(tc, test_nim_losing_side_reports_negative_mate);
    tcase_add_test(tc, test_finished_game_returns_no_move_with_a_score_line);
    tcase_add_test(tc, test_search_reports_no_text_of_the_game);
    tcase_add_test(tc, test_info_line_format);
    tcase_add_test(tc, test_format_score);
    tcase_add_test(tc, test_quiescence_has_no_stand_pat_when_every_move_captures);
    tcase_add_test(tc, test_quiescence_stands_pat_when_a_quiet_move_exists);
    tcase_add_test(tc, test_quiescence_follows_a_long_forced_exchange_to_its_end);
    tcase_add_test(tc, test_chance_expectimax_value_by_hand);
    tcase_add_test(tc, test_chance_root_reports_value_without_a_move);
    tcase_add_test(tc, test_star1_keeps_expectimax_values_on_random_trees);
    tcase_add_test(tc, test_repetition_of_game_history_scores_draw);
    tcase_add_test(tc, test_repetition_on_search_path_scores_draw);
    tcase_add_test(tc, test_no_repetition_draw_in_games_without_it);
    tcase_add_test(tc, test_pass_is_a_move_that_changes_the_side);
    tcase_add_test(tc, test_extra_turn_keeps_the_side);
    tcase_add_test(tc, test_depth_limit);
    tcase_add_test(tc, test_node_limit);
    tcase_add_test(tc, test_deterministic_single_thread);
    tcase_add_test(tc, test_stop_flag_ends_the_search_promptly);
    tcase_add_test(tc, test_infinite_waits_for_stop_even_when_solved);
    tcase_add_test(tc, test_waiting_for_stop_costs_no_cpu);
    tcase_add_test(tc, test_ponder_searches_untimed_until_ponderhit_then_under_the_clock);
    tcase_add_test(tc, test_ponder_answers_at_ponderhit_when_already_done);
    tcase_add_test(tc, test_stop_ends_a_ponder_search);
    tcase_add_test(tc, test_movetime_is_honoured);
    tcase_add_test(tc, test_clock_is_never_overrun);
    tcase_add_test(tc, test_single_legal_move_returns_quickly);
    tcase_add_test(tc, test_multipv_returns_distinct_moves);
    tcase_add_test(tc, test_two_threads_agree_on_mate);
    tcase_add_test(tc, test_two_threads_keep_expectimax_values);
    tcase_add_test(tc, test_thread_pool_keeps_its_workers_between_searches);
    tcase_add_test(tc, test_picker_orders_equal_moves_by_the_game_hint_then_code);
    suite_add_tcase(s, tc);

    tc = tcase_create("tt");
    tcase_add_test(tc, test_tt_store_and_probe);
    tcase_add_test(tc, test_tt_replaces_shallowest_then_oldest);
    tcase_add_test(tc, test_tt_hashfull_counts_this_search_in_permille);
    tcase_add_test(tc, test_search_set_hash_and_clear);
    suite_add_tcase(s, tc);

    tc = tcase_create("timeman");
    tcase_add_test(tc, test_timeman_untimed);
    tcase_add_test(tc, test_timeman_a_clock_for_the_opponent_only_is_an_empty_clock);
    tcase_add_test(tc, test_timeman_saturates_for_any_64_bit_input);
    tcase_add_test(tc, test_timeman_move_overhead_and_game_length);
    tcase_add_test(tc, test_timeman_movetime);
    tcase_add_test(tc, test_timeman_clock);
    tcase_add_test(tc, test_timeman_never_past_the_clock);
    suite_add_tcase(s, tc);

    tc = tcase_create("game");
    tcase_add_test(tc, test_game_play_text_errors);
    tcase_add_test(tc, test_game_threefold_repetition);
    tcase_add_test(tc, test_game_copy_is_independent);
    tcase_add_test(tc, test_game_undo_restores_position_and_repetition_history);
    tcase_add_test(tc, test_every_game_estimates_the_moves_left);
    suite_add_tcase(s, tc);

    tc = tcase_create("util");
    tcase_add_test(tc, test_util_next_token);
    tcase_add_test(tc, test_util_random_below_range);
    tcase_add_test(tc, test_util_parse_number_is_strict);
    tcase_add_test(tc, test_util_out_of_memory_exits_1_with_the_message);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    pthread_mutex_init(&lines.lock, NULL);
    SRunner *sr = srunner_create(core_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
