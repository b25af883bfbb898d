/* tablebase.h - what an endgame table says about a position, for any game.
 *
 * A game that has exact tables answers with a TbValue: the result with best
 * play from the side to move's view and the number of plies to the end of
 * the game (the winner as fast as it can, the loser as slowly as it can).
 */
#ifndef SIGIL_TABLEBASE_H
#define SIGIL_TABLEBASE_H

typedef enum TbWdl { TB_LOSS = -1, TB_DRAW = 0, TB_WIN = 1 } TbWdl;

typedef struct TbValue {
    TbWdl wdl;  /* side to move's view */
    int plies;  /* plies to the end of the game with best play; 0 for a draw */
} TbValue;

#endif
