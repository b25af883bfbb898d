/* tablebase.c - game-independent helpers over a game's endgame tables. */
#include "tablebase.h"

#include "game.h"
#include "variant.h"

int tablebase_score(TbValue value, int ply)
{
    if (value.wdl == TB_DRAW)
        return 0;
    int win = SCORE_WIN - (ply + value.plies);
    return value.wdl == TB_WIN ? win : -win;
}

/* Rank on one scale: wins first (sooner better), then draws, then losses
 * (later better). */
static long rank(TbValue v)
{
    if (v.wdl == TB_WIN)
        return 2000000L - v.plies;
    if (v.wdl == TB_DRAW)
        return 0;
    return -2000000L + v.plies;
}

bool tablebase_better(TbValue a, TbValue b) { return rank(a) > rank(b); }

/* Occurrences of key in the game's history, the current position included. */
static int occurrences(const Game *g, uint64_t key)
{
    int n = 0;
    for (int i = 0; i <= g->ply; i++)
        n += g->keys[i] == key;
    return n;
}

/* The value of a child position for the side that moved into it, from the
 * rules, the game's repetitions or the tables; false when unknown. */
static bool child_value(const Variant *v, const Tablebase *tb, const Game *g,
                        const Position *pos, const Position *child, TbValue *out)
{
    TbValue cv;
    bool same_side = v->side_to_move(child) == v->side_to_move(pos);
    if (v->repetition_draws && occurrences(g, v->key(child)) >= 2) {
        *out = (TbValue){TB_DRAW, 0}; /* the third occurrence draws at once */
        return true;
    }
    Result r = v->result(child, NULL, NULL);
    if (r != RESULT_NONE) {
        int stm = v->side_to_move(child);
        Result stm_wins = stm == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
        cv = r == RESULT_DRAW ? (TbValue){TB_DRAW, 0}
             : r == stm_wins  ? (TbValue){TB_WIN, 0}
                              : (TbValue){TB_LOSS, 0};
    } else if (!v->tablebase->probe(tb, child, &cv)) {
        return false;
    }
    if (!same_side)
        cv.wdl = (TbWdl)-cv.wdl;
    cv.plies = cv.wdl == TB_DRAW ? 0 : cv.plies + 1;
    *out = cv;
    return true;
}

/* Among drawing moves: how many replies of the opponent would lose. */
static int losing_replies(const Variant *v, const Tablebase *tb, const Position *child)
{
    Move moves[MAX_MOVES];
    int n = v->generate(child, moves), losing = 0;
    for (int i = 0; i < n; i++) {
        Position grandchild;
        TbValue gv;
        v->make(child, moves[i], &grandchild);
        if (v->result(&grandchild, NULL, NULL) == RESULT_NONE &&
            v->tablebase->probe(tb, &grandchild, &gv) &&
            (v->side_to_move(&grandchild) == v->side_to_move(child) ? gv.wdl == TB_LOSS
                                                                     : gv.wdl == TB_WIN))
            losing++;
    }
    return losing;
}

bool tablebase_root_move(const Game *g, const Tablebase *tb, Move *best, TbValue *value,
                         int *probes)
{
    const Variant *v = g->variant;
    const Position *pos = &g->pos;
    TbValue root;
    *best = MOVE_NONE;
    *probes = 0;
    if (!tb || !v->tablebase || (v->is_chance && v->is_chance(pos)) ||
        !v->tablebase->probe(tb, pos, &root))
        return false;
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves), best_losing = 0;
    TbValue best_value = {TB_LOSS, -1};
    for (int i = 0; i < n; i++) {
        Position child;
        TbValue cv;
        v->make(pos, moves[i], &child);
        ++*probes;
        if (!child_value(v, tb, g, pos, &child, &cv))
            return false; /* a child outside the tables: let the search decide */
        int losing = cv.wdl == TB_DRAW ? losing_replies(v, tb, &child) : 0;
        bool take = *best == MOVE_NONE || tablebase_better(cv, best_value);
        if (!take && cv.wdl == TB_DRAW && best_value.wdl == TB_DRAW)
            take = losing > best_losing; /* the opponent's most ways to go wrong */
        if (take) {
            *best = moves[i];
            best_value = cv;
            best_losing = losing;
        }
    }
    if (*best == MOVE_NONE)
        return false;
    *value = best_value;
    return true;
}
