/* refusal.c - why a move is refused (refusal.h). */
#include "refusal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

const char *refusal_side(int side) { return side == WHITE ? "White" : "Black"; }

void refusal_trim(const char *text, char *out, size_t size)
{
    while (*text && isspace((unsigned char)*text))
        text++;
    size_t n = 0;
    for (; *text && n + 1 < size; text++)
        out[n++] = isprint((unsigned char)*text) ? *text : '?';
    while (n > 0 && isspace((unsigned char)out[n - 1]))
        n--;
    out[n] = '\0';
}

enum { JOIN_NAMED = 4 };

void refusal_join(RefusalMoveStr move_str, const Position *pos, const Move *moves, int n,
                  char *out, size_t size)
{
    size_t len = 0;
    out[0] = '\0';
    int named = n > JOIN_NAMED ? JOIN_NAMED : n;
    for (int i = 0; i < named && len < size; i++) {
        char text[MOVE_STR_MAX];
        move_str(pos, moves[i], text);
        const char *sep = i == 0 ? "" : (i == named - 1 && named == n) ? " or " : ", ";
        len += (size_t)snprintf(out + len, size - len, "%s%s", sep, text);
    }
    if (n > named && len < size)
        snprintf(out + len, size - len, " or %d more", n - named);
}

int refusal_list(RefusalGenerate generate, RefusalMoveStr move_str, const Position *pos,
                 bool (*keep)(const Position *pos, Move m, const void *ctx), const void *ctx,
                 char *out, size_t size)
{
    Move *moves = util_xmalloc(MAX_MOVES * sizeof *moves);
    int n = generate(pos, moves), k = 0;
    for (int i = 0; i < n; i++)
        if (!keep || keep(pos, moves[i], ctx))
            moves[k++] = moves[i];
    refusal_join(move_str, pos, moves, k, out, size);
    free(moves);
    return k;
}

/* The cell of the board named text exactly, or -1. */
static int cell_named(const BoardDesc *b, const char *text)
{
    for (int i = 0; i < b->ncells; i++)
        if (strcmp(b->cells[i].name, text) == 0)
            return i;
    return -1;
}

WhyKind refusal_explain(const Game *g, const char *text, char *buf, size_t size)
{
    const Variant *v = g->variant;
    const Position *pos = &g->pos;
    char t[MOVE_STR_MAX * 2];
    refusal_trim(text, t, sizeof t);
    int margin = 0;
    const char *reason = NULL;
    Result r = game_result(g, &margin, &reason);
    if (r != RESULT_NONE) {
        const char *who = r == RESULT_DRAW        ? "drawn"
                          : r == RESULT_WHITE_WINS ? "won by White"
                                                   : "won by Black";
        snprintf(buf, size, "the game is over (%s, %s): no move can be played; start a new "
                            "game or take a move back",
                 who, reason && *reason ? reason : "game over");
        return WHY_REFUSED;
    }
    if (!*t) {
        snprintf(buf, size, "no move given: write a move in the game's notation or a cell name");
        return WHY_REFUSED;
    }
    if (strlen(t) < MOVE_STR_MAX && v->parse_move(pos, t) != MOVE_NONE) {
        snprintf(buf, size, "legal");
        return WHY_LEGAL;
    }
    int stm = v->side_to_move(pos);
    if (v->is_chance && v->is_chance(pos)) {
        snprintf(buf, size, "a roll is due: roll the dice first (%s to roll)", refusal_side(stm));
        return WHY_REFUSED;
    }
    BoardDesc *board = util_xcalloc(1, sizeof *board);
    v->describe_board(board);
    int cell = cell_named(board, t);
    free(board);
    if (cell >= 0) {
        Move *moves = util_xmalloc(MAX_MOVES * sizeof *moves);
        int n = v->generate(pos, moves);
        bool movable = false;
        for (int i = 0; i < n && !movable; i++) {
            MoveInfo mi;
            memset(&mi, 0, sizeof mi);
            mi.from = mi.to = mi.piece = mi.promotion = mi.roll = -1;
            v->describe_move(pos, moves[i], &mi);
            movable = mi.from == cell;
        }
        free(moves);
        if (movable) {
            snprintf(buf, size, "movable");
            return WHY_MOVABLE;
        }
    }
    if (v->refusal && v->refusal(pos, t, buf, size) && buf[0])
        return WHY_REFUSED;
    /* No rule of the game says more: name what is allowed. */
    char list[REFUSAL_MAX];
    int n = refusal_list(v->generate, v->move_str, pos, NULL, NULL, list, sizeof list);
    snprintf(buf, size, "'%.40s' is not a legal move for %s; legal moves are %s (%d in all)", t,
             refusal_side(stm), list, n);
    return WHY_REFUSED;
}
