/* players.c - the built-in players (see players.h). */
#include "players.h"

#include <string.h>

#include "util.h"

PlayerKind players_kind(const char *name)
{
    if (strcmp(name, "random") == 0)
        return PLAYER_RANDOM;
    if (strcmp(name, "greedy") == 0)
        return PLAYER_GREEDY;
    return PLAYER_ENGINE;
}

int players_greedy_value(const Game *g, Move m)
{
    const Variant *v = g->variant;
    int mover = v->side_to_move(&g->pos);
    Game child;
    memset(&child, 0, sizeof child);
    game_copy(&child, g);
    game_play(&child, m);
    int value;
    Result r = game_result(&child, NULL, NULL); /* threefold included */
    if (r == RESULT_DRAW)
        value = 0;
    else if (r == RESULT_WHITE_WINS || r == RESULT_BLACK_WINS)
        value = (r == RESULT_WHITE_WINS) == (mover == WHITE) ? SCORE_WIN : -SCORE_WIN;
    else {
        int e = v->evaluate(&child.pos);
        value = v->side_to_move(&child.pos) == mover ? e : -e;
    }
    game_free(&child);
    return value;
}

Move players_choose(PlayerKind kind, const Game *g, uint64_t *rng, int *score, bool *has_score)
{
    Move moves[MAX_MOVES];
    int n = g->variant->generate(&g->pos, moves);
    *score = 0;
    *has_score = false;
    if (n <= 0)
        return MOVE_NONE;
    if (kind != PLAYER_GREEDY)
        return moves[util_random_below(rng, (uint64_t)n)];

    /* Best value; ties broken uniformly (reservoir sampling over the ties). */
    int best = 0, ties = 0;
    Move choice = MOVE_NONE;
    for (int i = 0; i < n; i++) {
        int val = players_greedy_value(g, moves[i]);
        if (choice == MOVE_NONE || val > best) {
            best = val;
            choice = moves[i];
            ties = 1;
        } else if (val == best && util_random_below(rng, (uint64_t)++ties) == 0) {
            choice = moves[i];
        }
    }
    *score = best;
    *has_score = true;
    return choice;
}
