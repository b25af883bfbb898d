/* tablebase.h - exact endgame tables, for any game that has them.
 *
 * A game with tables points Variant.tablebase at its TablebaseOps
 * (tablebase_types.h); the core (session, search, protocol) loads them,
 * probes them and picks moves from them through these functions only, so it
 * never names a game.
 */
#ifndef SIGIL_TABLEBASE_H
#define SIGIL_TABLEBASE_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"
#include "tablebase_types.h"

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
bool tablebase_root_move(const Game *g, const Tablebase *tb, uint64_t *best,
                         TbValue *value, int *probes);

#endif
