/* results.h - result files: what a run (or a shard of one) writes game by
 * game as its games finish, what -resume continues and what -merge reads.
 *
 * The format (doc/sigil-match.md, "Result files"), one header then one
 * block per game in the order the games finished, then `end`:
 *
 *   sigil-match-results 2
 *   fingerprint 0123456789abcdef
 *   variant pyramid
 *   seed 42
 *   shard 0 0
 *   schedule GAMES ROUNDS GAUNTLET SEEDS REPEAT SWAP REVERSE
 *   sprt 0|1 ELO0 ELO1 ALPHA BETA logistic|normalized
 *   engines N
 *   name "..."                     (N lines)
 *   jobs NJOBS
 *   game N RESULT ONBOARD MARGIN TERMINATION HASH MOVES "category" "reason"
 *   pgn LENGTH
 *   ...LENGTH bytes: the game's PGN record...
 *   epd FINAL-FEN
 *   ok N
 *   ...
 *   end
 *
 * Strings are quoted with `"` and `\` escaped by `\` as in PGN, and any
 * other byte below 32 (or 127) written as \n, \t, \r or \xHH, so every
 * name round-trips.  A block counts only once its `ok N` line is whole: a
 * run killed while writing leaves a partly written last block, which the
 * reader drops (and -resume cuts off before appending).
 *
 * The reader accepts only what the writer writes (every line is written
 * again from the values read and must come out the same) and checks the
 * content: every value in its range, every length bounded before anything
 * is allocated, and every game replayed through the rules from its [FEN]:
 * its moves legal, its final position the epd line, its [Variant], [White],
 * [Black], [Round], [Result] and [Termination] those of the header and the
 * game line, its hash that of its moves, and a game ended by the rules
 * ending there in the recorded result and margin.
 */
#ifndef SIGIL_MATCH_RESULTS_H
#define SIGIL_MATCH_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ledger.h"

#define RESULTS_MAGIC "sigil-match-results 2"
/* The longest line other than a record, and the longest record. */
#define RESULTS_LINE_MAX 4096
#define RESULTS_RECORD_MAX (16u << 20)

/* The most games a result file's schedule may hold (the command line's
 * limit; the fuzz target lowers it). */
extern long long results_max_jobs;

/* Write the header of l; false on a write error (errno set). */
bool results_write_header(FILE *f, const Ledger *l);

/* Write the block of game j (done, with its pgn and epd); false on a write
 * error. */
bool results_write_game(FILE *f, const Ledger *l, int j);

/* The whole file: header, the games in l->order, and `end` when complete. */
bool results_write_all(FILE *f, const Ledger *l, bool complete);

/* What the reader found besides the games. */
typedef struct ResultsInfo {
    bool complete;     /* ended with its end line */
    bool header_cut;   /* ended inside its header (no game in it) */
    long dropped_line; /* > 0: a partly written game block from this line, left out */
    long used;         /* bytes through the last whole game block (the end line not
                        * included): where -resume appends */
} ResultsInfo;

/* Read a result file into l (initialised here: free it with ledger_free
 * whatever the outcome).  False with one line in err ("PATH:LINE: why")
 * when the file is damaged or not a result file. */
bool results_read(FILE *f, const char *path, Ledger *l, ResultsInfo *info, char *err,
                  size_t errlen);

/* The PGN record text of a full record without its comments and optional
 * tags, exactly as record_write writes it with min (malloc'd; NULL when out
 * of memory). */
char *results_minify_pgn(const char *pgn);

/* "17-32, 40" for the games of l not done (1-based), within size bytes
 * ("..." when cut); returns how many are missing. */
int results_missing_ranges(const Ledger *l, char *buf, size_t size);

#endif
