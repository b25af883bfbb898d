/* datagen.h - `sigil datagen`: fixed-node self-play games from random
 * openings, written as training positions for the trainer (tools/tune.c).
 *
 * Output, one position a line (doc/tuning.md):
 *     <variant>;<FEN>;<score>;<result>;<ply>
 * score: the search score in the game's evaluation units, from White's
 * view; result: 1, 0.5 or 0, the final result of the game from White's
 * view; ply: plies from the start position (random opening included).
 * Lines are ordered by game number, then ply, whatever the number of
 * worker processes, so the same arguments give the same file byte for byte.
 */
#ifndef SIGIL_DATAGEN_H
#define SIGIL_DATAGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

typedef struct DatagenOptions {
    const Variant *variant;
    long long games;       /* games to play */
    long long nodes;       /* node budget of every move's search */
    int threads;           /* worker processes (each searches single-threaded) */
    uint64_t seed;
    int random_plies;      /* uniformly random plies that open each game */
    int hash_mb;           /* transposition table of each worker */
    const char *out;       /* output file */
    bool quiet;            /* no progress lines */
} DatagenOptions;

/* Parse the arguments after `datagen`; false with a message in err (one
 * line, no newline) on any bad or missing argument. */
bool datagen_parse_args(int argc, char **argv, DatagenOptions *o, char *err, size_t errlen);

/* One record line, parsed (for the trainer and the tests).  fen points into
 * the line (which is modified).  False when the line is not a record. */
typedef struct DatagenRecord {
    const char *variant;
    const char *fen;
    int score;
    double result;
    int ply;
} DatagenRecord;
bool datagen_parse_line(char *line, DatagenRecord *r);

/* Play one game (number game) and write its records to out: the function
 * the workers run, exposed for the tests.  Returns the records written. */
long long datagen_play_game(const DatagenOptions *o, long long game, FILE *out);

/* `sigil datagen ...`: exit status (0 ok, 2 bad arguments, 1 failure). */
int datagen_main(int argc, char **argv, FILE *err);

#endif
