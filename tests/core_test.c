/* core_test.c - the toy games and search helpers of core_test.h. */
#include "core_test.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "info.h"
#include "util.h"

/* ================================================================ output */

Lines lines = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Every report of the search, kept as the protocol's info line. */
void collect(void *ctx, const SearchInfo *info)
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
int lines_count(void)
{
    pthread_mutex_lock(&lines.lock);
    int n = lines.count;
    pthread_mutex_unlock(&lines.lock);
    return n;
}

void lines_reset(void)
{
    lines.count = 0;
}

bool lines_contain(const char *needle)
{
    for (int i = 0; i < lines.count; i++)
        if (strstr(lines.text[i], needle))
            return true;
    return false;
}

/* Integer after `key ` in line, or def. */
long field(const char *line, const char *key, long def)
{
    char pat[64];
    snprintf(pat, sizeof pat, " %s ", key);
    const char *p = strstr(line, pat);
    return p ? strtol(p + strlen(pat), NULL, 10) : def;
}


SearchResult run(const Game *g, int depth, uint64_t nodes, int threads, int multipv)
{
    SearchLimits l;
    search_limits_clear(&l);
    l.depth = depth;
    l.nodes = nodes;
    SearchOptions o = {threads, multipv, NULL, NULL};
    lines_reset();
    return search_run(g, &l, &o, NULL, collect, (void *)g->variant);
}

/* ================================================================== nim */



void nim_set(Position *pos, int pile, int stm)
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

const Variant nim = {
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

const GameConfig cfg = {DEFAULT_MOVE_LIMIT};

void nim_game(Game *g, const char *fen)
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

const Variant drift = {
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

bool drift_is_legal(const Game *g, Move m)
{
    Move moves[MAX_MOVES];
    int n = drift.generate(&g->pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

/* ================================================================ table */


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

const Variant table_game = {.name = "table", .title = "a graph game", TABLE_FUNCS};
const Variant table_rep = {
    .name = "table-rep", .title = "a graph game with repetition draws",
    .repetition_draws = true, TABLE_FUNCS};

void table_game_at(Game *g, const Variant *v, const TTable *t, int node)
{
    current_table = t;
    game_init(g, v, &cfg);
    char fen[32], err[64];
    snprintf(fen, sizeof fen, "node %d", node);
    ck_assert_msg(game_set_fen(g, fen, err, sizeof err), "%s", err);
}


char name_of(const Game *g, Move m, char *buf)
{
    if (m == MOVE_NONE)
        return (char)(strcpy(buf, "(none)")[0]);
    g->variant->move_str(&g->pos, m, buf);
    return buf[0];
}

/* Repetition: A -a-> B -b-> C; from C, "c" goes back to B, "d" loses. */
static const TNode rep_nodes[] = {
    /* 0 A */ {W, false, NONE, 0, false, 1, {{"a", 1, false}}},
    /* 1 B */ {B, false, NONE, -100, false, 1, {{"b", 2, false}}},
    /* 2 C */ {W, false, NONE, -100, false, 2, {{"c", 1, false}, {"d", 3, false}}},
    /* 3 D */ {B, false, NONE, -100, false, 1, {{"e", 4, false}}},
    /* 4 E */ {W, false, NONE, -100, false, 1, {{"f", 5, false}}},
    /* 5 F */ {B, false, BWIN, 0, false, 0, {{0}}},
};
const TTable rep_table = {rep_nodes, 6};

void play(Game *g, const char *moves)
{
    char buf[256], err[128];
    snprintf(buf, sizeof buf, "%s", moves);
    for (char *tok = strtok(buf, " "); tok; tok = strtok(NULL, " "))
        ck_assert_msg(game_play_text(g, tok, err, sizeof err), "%s", err);
}

int core_test_run(Suite *s)
{
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
