/* core_test.h - what the core's suites share (check_search, check_tt,
 * check_timeman, check_game, check_util): their runner, toy games that do
 * not depend on the real ones, and the search's reports collected as the
 * protocol's info lines.
 *   - nim:    take 1-3 from a pile, taking the last wins (known strategy);
 *   - drift:  an endless pseudo-random game (limits, threads, MultiPV);
 *   - table:  games given as explicit graphs of nodes (forced captures,
 *             chance nodes, repetition, passes, extra turns, random
 *             expectimax trees checked against a brute-force solver).
 */
#ifndef SIGIL_CORE_TEST_H
#define SIGIL_CORE_TEST_H

#include <check.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "search.h"
#include "variant.h"

/* The rules every toy game is set up with. */
extern const GameConfig cfg;

/* ---- the search's reports ---- */

typedef struct Lines {
    char text[256][1024];
    int count;
    pthread_mutex_t lock;
} Lines;

/* Every report of the last run(), as info lines. */
extern Lines lines;
/* SearchReport that appends the info line of info to lines (ctx: the Variant). */
void collect(void *ctx, const SearchInfo *info);
/* How many lines were collected so far (safe while a search runs). */
int lines_count(void);
void lines_reset(void);
bool lines_contain(const char *needle);
/* Integer after `key ` in line, or def. */
long field(const char *line, const char *key, long def);
/* A search of g to depth (0: none) or nodes (0: none), reports into lines. */
SearchResult run(const Game *g, int depth, uint64_t nodes, int threads, int multipv);

/* ---- nim ---- */

typedef struct GAME_POSITION NimPos {
    int pile;
    int stm;
    int max_take;
} NimPos;

#define NIM(p) ((NimPos *)(p)->bytes)
#define CNIM(p) ((const NimPos *)(p)->bytes)

extern const Variant nim;
void nim_set(Position *pos, int pile, int stm);
/* A game of nim from fen ("<pile> w|b"). */
void nim_game(Game *g, const char *fen);

/* ---- drift ---- */

extern const Variant drift;
bool drift_is_legal(const Game *g, Move m);

/* ---- table: a game given as a graph of nodes ---- */

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

#define W WHITE
#define B BLACK
#define NONE RESULT_NONE
#define WWIN RESULT_WHITE_WINS
#define BWIN RESULT_BLACK_WINS
#define DRAW RESULT_DRAW

/* The graph game without and with repetition draws. */
extern const Variant table_game, table_rep;
/* A game of v on table t, at its node. */
void table_game_at(Game *g, const Variant *v, const TTable *t, int node);
/* A -a-> B -b-> C; from C, "c" goes back to B, "d" loses. */
extern const TTable rep_table;

/* ---- any game ---- */

/* The text of m in g's position into buf ("(none)" for MOVE_NONE); its first
 * character. */
char name_of(const Game *g, Move m, char *buf);
/* Play the moves of the space-separated text (the test fails on an illegal one). */
void play(Game *g, const char *moves);

/* Run suite s (and free it): the exit status of a suite's main. */
int core_test_run(Suite *s);

#endif
