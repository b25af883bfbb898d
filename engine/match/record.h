/* record.h - PGN-like game records: writing them and replaying them through
 * the rules library.
 *
 * A record is a PGN tag section ([Event] [Site] [Date] [Round] [White]
 * [Black] [Variant] [FEN] (the start position) [MoveLimit] (Salto only)
 * [Result] [Termination] [Margin] (where the game scores one) [PlyCount])
 * and the movetext: move numbers, every move and roll as its own token,
 * engine moves followed by a comment {score/depth time} such as
 * {+0.35/7 0.051s} (scores in units of 100 engine units, M for mate),
 * opening moves by {book}, then a comment with the termination and the
 * result token.
 */
#ifndef SIGIL_MATCH_RECORD_H
#define SIGIL_MATCH_RECORD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

typedef struct RecordMove {
    char text[MOVE_STR_MAX];
    int side;        /* WHITE or BLACK: who made it (the roller for a roll) */
    bool is_roll;    /* a dice roll made by the referee */
    bool book;       /* part of the opening */
    bool has_time;   /* played by a player: time_ms is meaningful */
    bool has_score;  /* the player reported a score */
    bool mate;       /* score is a mate distance (moves, signed) */
    int score;       /* engine units (cp), or moves to mate when mate */
    int depth;       /* 0 when not reported */
    int64_t time_ms;
} RecordMove;

typedef struct Record {
    char event[64];
    char site[64];
    char date[16];        /* YYYY.MM.DD */
    char round[32];       /* "round.game", e.g. "3.2" */
    char white[64];
    char black[64];
    char variant[32];
    char fen[FEN_MAX];    /* start position */
    int move_limit;       /* > 0: written as [MoveLimit] (Salto) */
    char result[8];       /* "1-0", "0-1", "1/2-1/2" or "*" */
    char termination[192];
    bool has_margin;
    int margin;
    int nmoves;
    const RecordMove *moves;
} Record;

/* PGN result token of a Result. */
const char *record_result_token(Result r);

/* Append one record to f. */
void record_write(FILE *f, const Record *r);

/* Replay every record of the file at path through the rules library and
 * print one line per record to out:
 *   #N VARIANT plies=P board=RES recorded=RES STATUS fen=FINAL_FEN
 * where board is the result the rules give for the final position ("*" when
 * the game did not end on the board: adjudication or forfeit) and STATUS is
 * "ok" or "MISMATCH(...)".  Returns the number of records that failed (an
 * unknown variant, a bad FEN, an illegal move, a board result different
 * from the recorded one), or -1 when the file cannot be read. */
int record_replay_file(const char *path, FILE *out, int *count);

#endif
