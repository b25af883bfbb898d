/* tablebase_types.h - what a game with exact endgame tables implements:
 * the value of a position and the TablebaseOps table that Variant.tablebase
 * points at (variant.h includes this; the core's helpers over the tables
 * are in tablebase.h).  A value is the result with best play from the side
 * to move's view and the number of plies to the end of the game (the winner
 * as fast as it can, the loser as slowly as it can).
 */
#ifndef SIGIL_TABLEBASE_TYPES_H
#define SIGIL_TABLEBASE_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif
