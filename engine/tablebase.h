/* tablebase.h - exact endgame tables, for any game that has them.
 *
 * A game with tables points Variant.tablebase at its TablebaseOps; the core
 * (session, search, protocol) loads them, probes them and picks moves from
 * them through these functions only, so it never names a game.  A value is
 * the result with best play from the side to move's view and the number of
 * plies to the end of the game (the winner as fast as it can, the loser as
 * slowly as it can).
 */
#ifndef SIGIL_TABLEBASE_H
#define SIGIL_TABLEBASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct Game;
struct Position;
struct Variant;

typedef enum TbWdl { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 } TbWdl;

typedef struct TbValue {
    TbWdl wdl;  /* side to move's view */
    int plies;  /* plies to the end of the game with best play; 0 for a draw */
} TbValue;

/* A game's loaded tables (opaque to the core). */
typedef struct Tablebase Tablebase;

typedef struct TablebaseOps {
    /* Load the tables of variant v of up to max_pieces pieces found in the
     * folder dir.  NULL with err set when none is there or a file is
     * damaged (its name and the reason in err). */
    Tablebase *(*open)(const struct Variant *v, const char *dir, int max_pieces, char *err,
                       size_t errlen);
    /* Release loaded tables. */
    void (*close)(Tablebase *tb);
    /* The value of pos; false when pos is outside the loaded tables.  Fast
     * enough for every node of a search (a few table lookups at most). */
    bool (*probe)(const Tablebase *tb, const struct Position *pos, TbValue *value);
    /* Number of tables loaded, and the largest n such that every table of
     * up to n pieces is loaded. */
    int (*count)(const Tablebase *tb);
    int (*complete_pieces)(const Tablebase *tb);
} TablebaseOps;

/* A search score for a table value found ply plies below the root:
 * SCORE_WIN - (ply + plies) for a win, its negation for a loss, 0 a draw. */
int tablebase_score(TbValue value, int ply);

/* Which is better for the side to move: a > b (a win sooner, a loss later,
 * a win over a draw over a loss). */
bool tablebase_better(TbValue a, TbValue b);

/* The move the tables choose in the current position of game g: one that
 * keeps the value, the fastest win or the slowest loss (among draws, the one
 * with most losing replies for the opponent; ties: the first generated).  A
 * move into a position that has occurred twice already counts as a draw.
 * False when the position or one of its children is outside the tables, or
 * at a chance node.  *value is the position's value after the choice,
 * *probes the number of children looked up. */
bool tablebase_root_move(const struct Game *g, const Tablebase *tb, uint64_t *best,
                         TbValue *value, int *probes);

#endif
