/* game.c - a game in progress with its move and key history. */
#include "game.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void ensure_capacity(Game *g, int need)
{
    if (need < g->capacity)
        return;
    int cap = g->capacity ? g->capacity : 64;
    while (cap <= need)
        cap *= 2;
    g->moves = util_xrealloc(g->moves, (size_t)cap * sizeof *g->moves);
    g->keys = util_xrealloc(g->keys, (size_t)(cap + 1) * sizeof *g->keys);
    g->capacity = cap;
}

static void start_from(Game *g, const Position *start, bool is_startpos)
{
    g->start = *start;
    g->start_is_startpos = is_startpos;
    g->pos = *start;
    g->ply = 0;
    ensure_capacity(g, 1);
    g->keys[0] = g->variant->key(&g->pos);
}

void game_init(Game *g, const Variant *v, const GameConfig *cfg)
{
    memset(g, 0, sizeof *g);
    g->variant = v;
    g->config = *cfg;
    game_reset(g);
}

void game_free(Game *g)
{
    free(g->moves);
    free(g->keys);
    g->moves = NULL;
    g->keys = NULL;
    g->capacity = 0;
}

void game_copy(Game *dst, const Game *src)
{
    Move *m = dst->moves;
    uint64_t *k = dst->keys;
    int cap = dst->capacity;
    *dst = *src;
    dst->moves = m;
    dst->keys = k;
    dst->capacity = cap;
    ensure_capacity(dst, src->ply + 1);
    memcpy(dst->moves, src->moves, (size_t)src->ply * sizeof *m);
    memcpy(dst->keys, src->keys, (size_t)(src->ply + 1) * sizeof *k);
}

void game_reset(Game *g)
{
    Position p;
    g->variant->startpos(&p, &g->config);
    start_from(g, &p, true);
}

bool game_set_fen(Game *g, const char *fen, char *err, size_t errlen)
{
    Position p;
    if (!g->variant->from_fen(&p, fen, &g->config, err, errlen))
        return false;
    start_from(g, &p, false);
    return true;
}

void game_play(Game *g, Move m)
{
    ensure_capacity(g, g->ply + 2);
    Position child;
    g->variant->make(&g->pos, m, &child);
    g->pos = child;
    g->moves[g->ply++] = m;
    g->keys[g->ply] = g->variant->key(&g->pos);
}

bool game_play_text(Game *g, const char *text, char *err, size_t errlen)
{
    if (game_result(g, NULL, NULL) != RESULT_NONE) {
        snprintf(err, errlen, "move '%.40s' after the game has ended", text);
        return false;
    }
    Move m = g->variant->parse_move(&g->pos, text);
    if (m == MOVE_NONE) {
        snprintf(err, errlen, "illegal or unparsable move '%.40s'", text);
        return false;
    }
    game_play(g, m);
    return true;
}

void game_undo(Game *g, int plies)
{
    if (plies <= 0)
        return;
    if (plies > g->ply)
        plies = g->ply;
    /* Copy-make keeps no undo information: replay from the start. */
    int keep = g->ply - plies;
    Position p = g->start, child;
    for (int i = 0; i < keep; i++) {
        g->variant->make(&p, g->moves[i], &child);
        p = child;
    }
    g->pos = p;
    g->ply = keep;
}

int game_repetitions(const Game *g)
{
    int count = 0;
    uint64_t now = g->keys[g->ply];
    for (int i = g->ply; i >= 0; i--)
        count += g->keys[i] == now;
    return count;
}

Result game_result(const Game *g, int *margin, const char **reason)
{
    Result r = g->variant->result(&g->pos, margin, reason);
    if (r != RESULT_NONE)
        return r;
    if (g->variant->repetition_draws && game_repetitions(g) >= 3) {
        if (margin)
            *margin = 0;
        if (reason)
            *reason = "threefold repetition";
        return RESULT_DRAW;
    }
    return RESULT_NONE;
}

bool game_scores_margin(const Game *g)
{
    MatchScoring m = g->variant->match_scoring;
    return m == MATCH_SCORING_MARGIN_SUM || m == MATCH_SCORING_COUNTING;
}

const char *game_result_word(Result r)
{
    switch (r) {
    case RESULT_WHITE_WINS: return "p1win";
    case RESULT_BLACK_WINS: return "p2win";
    case RESULT_DRAW: return "draw";
    default: return "none";
    }
}
