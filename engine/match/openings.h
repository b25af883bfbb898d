/* openings.h - where games start: the variant's start position, random
 * openings of N plies drawn from the seed, or a book file (one FEN or EPD
 * per line, or PGN records), read in sequential or seeded random order.
 *
 * A book is read and checked whole at start-up: every entry must be a
 * position of the variant, its moves legal, and the game not over after
 * them, or the run does not start.  Opening number k of the schedule is
 * entry (start - 1 + k) mod count of the book in its order.
 */
#ifndef SIGIL_MATCH_OPENINGS_H
#define SIGIL_MATCH_OPENINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game.h"
#include "record.h"

typedef enum OpeningFormat {
    OPENING_FORMAT_AUTO = 0, /* from the file name: .pgn is PGN, else FEN lines */
    OPENING_FORMAT_FEN,
    OPENING_FORMAT_EPD,
    OPENING_FORMAT_PGN
} OpeningFormat;

/* One book entry: a start position (NULL: the variant's) and moves from it. */
typedef struct Opening {
    char *fen;
    char **moves;
    int nmoves;
} Opening;

typedef struct Openings {
    int random_plies;      /* random:PLIES openings; 0 = none */
    char path[1024];       /* book file, "" = none */
    OpeningFormat format;
    bool order_random;     /* order=random: the book shuffled by the seed */
    int plies;             /* plies=N: moves taken from a PGN entry; -1 = all */
    int start;             /* start=N: first entry, 1-based */
    Opening *book;
    int count;
    int *order;            /* entry index for each position in the order */
} Openings;

/* No openings: every game from the variant's start position. */
void openings_init(Openings *o);

/* Read and check the book file (when o->path is set) for variant v, and fix
 * the order from seed.  False with a message in err (file, line or record,
 * and why). */
bool openings_load(Openings *o, const Variant *v, const GameConfig *gc, uint64_t seed,
                   char *err, size_t errlen);

/* Set g (initialised at the variant's start) up for opening number k: its
 * start position (copied to start_fen; *startpos tells whether it is the
 * variant's own), then its moves and rolls, each appended to moves (book
 * moves flagged as such).  Random openings are drawn from (seed, k). */
void openings_setup(const Openings *o, int k, uint64_t seed, Game *g, char *start_fen,
                    bool *startpos, RecordMoveList *moves);

/* A number that changes when the book or the way it is read changes. */
uint64_t openings_fingerprint(const Openings *o);

/* Release the book. */
void openings_free(Openings *o);

/* The seed mixed with two numbers: independent streams for each purpose. */
uint64_t openings_mix_seed(uint64_t seed, uint64_t a, uint64_t b);

#endif
