/* refusal.h - why a move is refused: `query why`, and the reason every
 * refused move's error line carries (protocol.md, "Why a move is refused").
 *
 * The core answers what holds for every game (the game is over, a roll is
 * due, the text is a legal move or names a cell a legal move starts from);
 * the rest is the game's own Variant.refusal hook, which says which of its
 * rules refuses the text and what is allowed instead.  The helpers below let
 * a hook list the allowed moves the same way in every game. */
#ifndef SIGIL_REFUSAL_H
#define SIGIL_REFUSAL_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "variant.h"

/* Longest reason, NUL included, and room for a list of moves in one. */
#define REFUSAL_MAX 400
#define REFUSAL_LIST 200

typedef enum WhyKind {
    WHY_LEGAL,   /* the text is a legal move */
    WHY_MOVABLE, /* the text is a cell name from which a legal move starts */
    WHY_REFUSED  /* anything else: buf holds the reason, one sentence */
} WhyKind;

/* Why text is (not) a move of g now; buf (size >= REFUSAL_MAX) gets the
 * reason when the answer is WHY_REFUSED, else "legal" or "movable". */
WhyKind refusal_explain(const Game *g, const char *text, char *buf, size_t size);

/* Helpers for the games' hooks. */

/* "White" or "Black". */
const char *refusal_side(int side);
/* The n moves of pos (legal moves, from generate()) in the game's notation,
 * at most 4 named: "a", "a or b", "a, b or c", "a, b, c, d or 3 more". */
typedef void (*RefusalMoveStr)(const Position *pos, Move m, char *buf);
typedef int (*RefusalGenerate)(const Position *pos, Move *moves);
void refusal_join(RefusalMoveStr move_str, const Position *pos, const Move *moves, int n,
                  char *out, size_t size);
/* The legal moves of pos (generate()) for which keep(pos, m, ctx) is true
 * (keep NULL: all of them), joined as refusal_join does; returns how many
 * there are. */
int refusal_list(RefusalGenerate generate, RefusalMoveStr move_str, const Position *pos,
                 bool (*keep)(const Position *pos, Move m, const void *ctx), const void *ctx,
                 char *out, size_t size);
/* The text with its leading and trailing blanks cut, at most size-1 bytes,
 * unprintable bytes as '?'. */
void refusal_trim(const char *text, char *out, size_t size);

#endif
