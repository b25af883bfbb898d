/* game.h - a game in progress: the variant, its rules configuration, the
 * start position and every move played since, with the key history that
 * threefold repetition needs.  Shared by the protocol and sigil-match. */
#ifndef SIGIL_GAME_H
#define SIGIL_GAME_H

#include <stdbool.h>
#include <stddef.h>

#include "variant.h"

typedef struct Game {
    const Variant *variant;
    GameConfig config;
    Position start;     /* the position the move list starts from */
    bool start_is_startpos;
    Position pos;       /* the current position */
    int ply;            /* moves (and rolls) played from start */
    Move *moves;        /* moves[0..ply) */
    uint64_t *keys;     /* keys[i] = key before moves[i]; keys[ply] = now */
    int capacity;
} Game;

/* Set up g (uninitialised memory) at the start of variant v. */
void game_init(Game *g, const Variant *v, const GameConfig *cfg);
/* Release the history buffers. */
void game_free(Game *g);
/* Make dst an independent copy of src (dst is initialised or zeroed). */
void game_copy(Game *dst, const Game *src);
/* Back to the variant's start position, history cleared. */
void game_reset(Game *g);
/* Start from a FEN; on failure g is unchanged and err says why. */
bool game_set_fen(Game *g, const char *fen, char *err, size_t errlen);
/* Play a legal move given as a code (must come from generate()). */
void game_play(Game *g, Move m);
/* Parse and play one move text; on failure g is unchanged and err says why
 * (unparsable, illegal, or the game is already over). */
bool game_play_text(Game *g, const char *text, char *err, size_t errlen);
/* Take back the last plies moves (0 <= plies <= ply): the position and the
 * key history are as they were before them. */
void game_undo(Game *g, int plies);
/* How many times the current key occurred in the history, this one included. */
int game_repetitions(const Game *g);
/* The result including threefold repetition where the variant draws by it.
 * margin and reason may be NULL. */
Result game_result(const Game *g, int *margin, const char **reason);

/* True when the game's results carry a margin (counting, captured
 * material): Variant.match_scoring says so. */
bool game_scores_margin(const Game *g);

/* Result as the UGI word: "p1win", "p2win", "draw" or "none". */
const char *game_result_word(Result r);

#endif
