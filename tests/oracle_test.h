/* oracle_test.h - what the tests know of the oracle's JSON, shared by the
 * library suite (check_oracle_json.c) and the client that plays through the
 * real program's pipes (check_oracle_client.c).
 *
 * Everything here reads the JSON (parsed by json_check.c) and each game's
 * FEN (decoded here, independently of the game files), never the games'
 * internals, so that a test built on it checks the oracle as a GUI that
 * knows no rule would see it. */
#ifndef SIGIL_ORACLE_TEST_H
#define SIGIL_ORACLE_TEST_H

#include <stdbool.h>
#include <stddef.h>

#include "json_check.h"

enum { OT_MAX_CELLS = 64, OT_MAX_KINDS = 16, OT_MAX_REGIONS = 32 };

/* The board as `query board` describes it. */
typedef struct OtBoard {
    char variant[32];
    bool squares;             /* layout "squares" (else "points") */
    double width, height, spacing;
    int columns, rows;
    int ncells;
    char name[OT_MAX_CELLS][8];
    double x[OT_MAX_CELLS], y[OT_MAX_CELLS];
    bool adjacent[OT_MAX_CELLS][OT_MAX_CELLS];
    int nadjacent;            /* pairs listed */
    int nlines;
    int line_length[16];
    int line[16][12];
    int nkinds;
    char kind[OT_MAX_KINDS][16];
    char kind_fen[OT_MAX_KINDS][2][8];
    int nregions;
    char region_role[OT_MAX_REGIONS][16];
    int region_side[OT_MAX_REGIONS];  /* 0 white, 1 black, -1 null */
    int region_kind[OT_MAX_REGIONS];  /* kind index or -1 */
    bool region_cell[OT_MAX_REGIONS][OT_MAX_CELLS];
    int ndice;
    int cell_faces[OT_MAX_CELLS][2];  /* face index per die, -1 none */
} OtBoard;

/* One side's piece on a cell: side 0/1 or -1 for empty, kind index. */
typedef struct OtCell {
    int side;
    int kind;
} OtCell;

/* The counters a game's FEN carries after its board and side to move, in
 * this order (doc/games.md, "FEN"): the pending roll ("-" or a cell, in a
 * game with dice), the pass flag ("p" or "-"), the plies played toward the
 * move limit, the pieces in hand (White's, Black's), the captures (White's,
 * Black's). */
typedef struct OtFenShape {
    bool roll, passed, plies, hands, captures;
} OtFenShape;

/* A position as the FEN says it (decoded independently of the games, with
 * nothing but the board's description and the FEN conventions). */
typedef struct OtFen {
    OtFenShape shape;         /* the counters it was decoded with */
    int turn;                 /* 0 white, 1 black */
    OtCell cell[OT_MAX_CELLS];
    int roll;                 /* the pending rolled cell, or -1 */
    int hands[2];             /* -1 when the game has no hands */
    int captures[2];          /* -1 when the FEN counts no captures */
    int plies;                /* plies toward the move limit, or -1 */
    int passed;               /* 0/1, or -1 in a game without passes */
} OtFen;

/* Read a `query board` object into *b; false with a reason in err when
 * anything required is missing or malformed. */
bool ot_board_read(const JsonValue *root, OtBoard *b, char *err, size_t errlen);
/* Index of the cell or kind with this name, or -1. */
int ot_cell(const OtBoard *b, const char *name);
int ot_kind(const OtBoard *b, const char *id);

/* Decode a FEN of b's variant that carries the counters of shape (those of
 * a `query position` object: ot_position_check; those of an earlier
 * position of the same game: its OtFen's shape); false with a reason in
 * err.  The board field is read by the board's layout alone: points as
 * "<side>:W<pieces>:B<pieces>" (a piece its kind's FEN letters and its
 * cell's name), squares as ranks from the top, '/' between them, a digit
 * for that many empty squares, '.' for one, a piece by its letters; a
 * rank's squares are all its files or only those that are cells. */
bool ot_fen_decode(const OtBoard *b, const OtFenShape *shape, const char *fen, OtFen *out,
                   char *err, size_t errlen);

/* Check a `query position` object against its own FEN (pieces, turn,
 * counters computed from the board's regions); false with a reason. *fen_out
 * (may be NULL) gets the decoded FEN. */
bool ot_position_check(const OtBoard *b, const JsonValue *pos, OtFen *fen_out, char *err,
                       size_t errlen);

/* Check a `query move` object of the position `before` against the position
 * after it (both decoded FENs): captured cells empty, from empty, to holding
 * the piece (promoted if so), nothing else changed, the path along the
 * board's cells, the text made of the path's names.  ncaptured (may be NULL)
 * gets the number of captured pieces. */
bool ot_move_check(const OtBoard *b, const JsonValue *move, const OtFen *before,
                   const OtFen *after, int *ncaptured, char *err, size_t errlen);

#endif
