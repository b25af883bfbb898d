/* record.h - PGN game records: writing them, reading them back (for
 * -replay and for PGN opening books) and replaying them through the rules
 * library.
 *
 * A record is a PGN tag section: the seven-tag roster ([Event] [Site]
 * [Date] [Round] [White] [Black] [Result]), then [SetUp "1"] and [FEN] (the
 * start position, always given), [Variant], [TimeControl] (or
 * [WhiteTimeControl]/[BlackTimeControl] when they differ) in PGN's syntax,
 * [MoveLimit] (games with a move limit), [Termination] with one of PGN's
 * values, [Margin] (where the game scores one) and [PlyCount]; then the
 * movetext: move numbers, every move and roll as its own token, engine moves
 * followed by a comment {score/depth time} such as {+0.35/7 0.051s}
 * (scores in units of 100 engine units, M for mate), opening moves by
 * {book}, then a comment with the termination in words and the result.
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
    long long nodes; /* 0 when not reported */
    int64_t time_ms;
} RecordMove;

/* A growing array of recorded moves. */
typedef struct RecordMoveList {
    RecordMove *m;
    int n, cap;
} RecordMoveList;

/* Append a zeroed move to l and return it (exits on out-of-memory). */
RecordMove *record_push(RecordMoveList *l);

/* How a game ended, as PGN's [Termination] tag says it. */
typedef enum RecordTermination {
    TERM_NORMAL = 0,       /* decided by the rules on the board */
    TERM_ADJUDICATION,     /* -draw, -resign, -maxmoves, the safety cap */
    TERM_TIME_FORFEIT,     /* a player overstepped its time */
    TERM_RULES_INFRACTION, /* an illegal or unparsable move */
    TERM_ABANDONED         /* a player crashed, hung or could not start */
} RecordTermination;

/* The PGN value of a termination: "normal", "time forfeit", ... */
const char *record_termination_tag(RecordTermination t);

typedef struct Record {
    char event[64];
    char site[64];
    char date[16];        /* YYYY.MM.DD */
    char round[32];       /* "round.game", e.g. "3.2" */
    char white[64];
    char black[64];
    char variant[32];
    char fen[FEN_MAX];    /* start position */
    char white_tc[64];    /* PGN TimeControl of each side ("-" = none) */
    char black_tc[64];
    int move_limit;       /* > 0: written as [MoveLimit] */
    char result[8];       /* "1-0", "0-1", "1/2-1/2" or "*" */
    RecordTermination termination;
    char detail[256];     /* the termination in words, the last comment */
    bool has_margin;
    int margin;
    int nmoves;
    const RecordMove *moves;
} Record;

/* PGN result token of a Result. */
const char *record_result_token(Result r);

/* Append one record to f.  min: no move comments (the tags are kept, since
 * a Sigil game cannot be replayed without [Variant] and [FEN]); nodes: node
 * counts in the move comments. */
void record_write(FILE *f, const Record *r, bool min, bool nodes);

/* One record as read back: the tags that matter and the movetext. */
typedef struct PgnGame {
    char variant[64];
    char fen[FEN_MAX];    /* "" when the record has none */
    char result[16];
    char termination[192];
    char white[128];      /* [White], [Black], [Round] (result files check them) */
    char black[128];
    char round[32];
    int move_limit;
    bool has_margin;
    int margin;
    const char *movetext; /* the movetext, its lines kept */
} PgnGame;

/* Called for each record of a file; return false to stop reading. */
typedef bool (*PgnVisitor)(const PgnGame *game, void *ctx);

/* Read every record of f, calling visit for each; returns how many records
 * were visited. */
int record_read_pgn(FILE *f, PgnVisitor visit, void *ctx);

/* The next move token of a movetext at *cursor (comments, move numbers,
 * NAGs, variations and the result token skipped); false at the end. */
bool record_next_move(const char **cursor, char *tok, size_t size);

/* Replay every record of the file at path through the rules library and
 * print one line per record to out:
 *   #N VARIANT plies=P board=RES recorded=RES STATUS fen=FINAL_FEN
 * where board is the result the rules give for the final position ("*" when
 * the game did not end on the board: adjudication or forfeit) and STATUS is
 * "ok" or "MISMATCH(...)".  Returns the number of records that failed (an
 * unknown variant, a bad FEN, an illegal move, a board result different
 * from the recorded one, [Termination "normal"] on an unfinished game), or
 * -1 when the file cannot be read. */
int record_replay_file(const char *path, FILE *out, int *count);

#endif
