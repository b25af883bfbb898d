/* alexander.h - exact values of Alexander the Great (doc/rules.md, Alexander).
 *
 * Every turn of Alexander captures exactly when the rolled square is occupied
 * (an enemy piece is taken by the piece moved onto it, an own piece flies to
 * take one), whatever the player chooses, so the piece counts follow a Markov
 * chain that no decision can influence.  The value of a position therefore
 * depends only on the piece counts, the side to roll, the pending roll and the
 * captures made so far, and every legal action is equally good.  These
 * functions give that value exactly (a dynamic programme over the counts in
 * long double, built once by the variant's init()); see
 * doc/alexander.md for the derivation.  (The expected margin also has
 * a closed form, checked by the tests: for the side to roll it is its
 * captures minus the opponent's plus its own piece count / 35.)
 */
#ifndef SIGIL_ALEXANDER_H
#define SIGIL_ALEXANDER_H

#include "../variant.h"

/* Probability that the side to move (the side rolling, or acting on its
 * pending roll) wins the game from pos; 1 or 0 when the game is over. */
double alexander_win_probability(const Position *pos);

/* Expected final margin from the side to move's view: its captures minus the
 * opponent's captures at the end of the game, counting the captures the
 * position already records.  The final margin itself when the game is over. */
double alexander_expected_margin(const Position *pos);

/* The same two values in long double, from White's view (P(White wins) and
 * E[White's captures - Black's captures at the end]); either pointer may be
 * NULL. */
void alexander_white_values(const Position *pos, long double *white_wins,
                            long double *white_margin);

/* The count-only chance values: with `white` and `black` pieces on the board
 * and `roller` (WHITE or BLACK) about to roll, P(White wins) and
 * E[white_final - black_final] (pieces left at the end; one of them is 0).
 * Requires 0 <= white, black, 0 < white + black <= 36. */
long double alexander_count_white_wins(int white, int black, int roller);
long double alexander_count_piece_difference(int white, int black, int roller);

#endif
