/* solomon.h - a raw view of Solomon positions for the endgame tables.
 *
 * The tables (solomon_tb.c) index positions by their pieces and walk moves
 * backwards; everything else they take from the Variant functions, so the
 * tables follow exactly the rules the engine plays.  Nothing outside the
 * Solomon files uses this header.
 */
#ifndef SIGIL_SOLOMON_H
#define SIGIL_SOLOMON_H

#include <stdbool.h>
#include <stdint.h>

#include "../variant.h"

enum { SOLOMON_POINTS = 19, SOLOMON_MAN = 0, SOLOMON_KING = 1 };

/* The two rule sets' tables (the registry lists them too). */
extern const Variant variant_solomon;
extern const Variant variant_solomon_chain;

/* The pieces of a position: bit n-1 is point n; side WHITE or BLACK. */
typedef struct SolomonBoard {
    uint32_t men[2];
    uint32_t kings[2];
    int stm;
} SolomonBoard;

/* Read the pieces and the side to move of a Solomon position. */
void solomon_board_get(const Position *pos, SolomonBoard *board);
/* Set up a Solomon position of the given rule set (chain captures or not)
 * from its pieces; the key is computed. */
void solomon_board_set(Position *pos, const SolomonBoard *board, bool chain);
/* True when the position is of the chain-capture rule set. */
bool solomon_is_chain(const Position *pos);
/* The points (bits) a piece of side/kind on point (0..18) may step to on an
 * empty board. */
uint32_t solomon_step_targets(int side, int kind, int point);
/* True when the side to move has a jump, so that it must capture. */
bool solomon_board_must_capture(const SolomonBoard *board);

#endif
