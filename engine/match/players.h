/* players.h - the built-in reference players `random` and `greedy`.
 *
 * They play inside sigil-match (no process), from the referee's Game, with a
 * seeded RNG each, so a tournament against them is reproducible from -seed.
 */
#ifndef SIGIL_MATCH_PLAYERS_H
#define SIGIL_MATCH_PLAYERS_H

#include <stdbool.h>
#include <stdint.h>

#include "game.h"

typedef enum PlayerKind {
    PLAYER_ENGINE = 0, /* an external engine process */
    PLAYER_RANDOM,     /* uniform over the legal moves */
    PLAYER_GREEDY      /* best one-ply result */
} PlayerKind;

/* The built-in player named name ("random", "greedy"), else PLAYER_ENGINE. */
PlayerKind players_kind(const char *name);

/* Choose a move for the side to move at a decision node of g (the game must
 * not be over).  *score gets the player's own view of the move in the
 * engine's units (greedy: the evaluation after the move; random: 0) and
 * *has_score whether it means anything. */
Move players_choose(PlayerKind kind, const Game *g, uint64_t *rng, int *score, bool *has_score);

/* greedy's value of playing m in g, from the mover's view: SCORE_WIN for an
 * immediate win, -SCORE_WIN for an immediate loss, 0 for an immediate draw,
 * else the child's evaluation from the mover's view (negated when the other
 * side moves next). */
int players_greedy_value(const Game *g, Move m);

#endif
