/* oracle.h - the engine as a rules oracle: the JSON of `query board`,
 * `query position` and `query move` (protocol.md, "Queries for GUIs").
 *
 * One generic writer for every game: it reads the game's self-description
 * (Variant.describe_board, describe_position, describe_move) and its usual
 * functions (FEN, notation, result) and writes one JSON object on one line.
 * Each function returns false (and writes nothing usable) when the variant
 * lacks the hooks or the buffer is too small. */
#ifndef SIGIL_ORACLE_H
#define SIGIL_ORACLE_H

#include <stdbool.h>
#include <stddef.h>

#include "game.h"
#include "variant.h"

/* Room that is always enough for any of the three objects of any game. */
#define ORACLE_JSON_MAX (64 * 1024)

/* The board of variant v: cells, lines, adjacency, piece kinds, special
 * cells, dice. */
bool oracle_board_json(const Variant *v, char *buf, size_t size);

/* The current position of g: side to move, pending roll, pieces, the game's
 * counters, the result (threefold repetition included) and the FEN. */
bool oracle_position_json(const Game *g, char *buf, size_t size);

/* The legal move m of g's current position (a code from generate()). */
bool oracle_move_json(const Game *g, Move m, char *buf, size_t size);

/* Every legal move of g's current position described, as one JSON array
 * in generate() order (the order of `query moves`); "[]" when the game is
 * over.  The array can be long (hundreds of moves in some games): size
 * ORACLE_LEGAL_JSON_MAX is always enough. */
#define ORACLE_LEGAL_JSON_MAX (MAX_MOVES * 512 + 16)
bool oracle_legal_json(const Game *g, char *buf, size_t size);

/* `query move <text>`: the JSON of the legal move the text names.  False,
 * with a reason in err, when the text names no legal move (or the game is
 * over, or the variant has no self-description). */
bool oracle_move_text_json(const Game *g, const char *text, char *buf, size_t size,
                           char *err, size_t errlen);

/* The word of a move kind as the JSON writes it ("step", "chain" ...). */
const char *oracle_move_kind_word(MoveKind kind);

#endif
