/* fen.h - the kit every game's FEN is read and written with.
 *
 * Each game has its own FEN (protocol.md, "Notation and FEN"), but all of
 * them are read with one strictness, the one this kit enforces:
 *   - fields are separated by white space; white space around the FEN is
 *     ignored; a game says how many fields it takes (trailing ones may be
 *     optional) and more are refused;
 *   - letters are taken in the case the game writes them, no other;
 *   - a number is decimal digits only, without sign or leading zero ("0"
 *     itself is fine), within the range of its field;
 *   - in a board of ranks, a run of empty cells is one digit 1..width: two
 *     digits in a row are refused, as is a rank too long or too short;
 *   - anything refused comes with a short reason in the caller's buffer.
 * A game keeps its own grammar on top (Solomon's piece lists, Salto's
 * numbered pieces) and its own checks of what a legal position is.
 */
#ifndef SIGIL_FEN_H
#define SIGIL_FEN_H

#include <stdbool.h>
#include <stddef.h>

#include "../variant.h"

/* Write the reason (printf-style) into err (when err and errlen allow) and
 * return false, so that a reader can `return fen_fail(err, errlen, ...)`. */
bool fen_fail(char *err, size_t errlen, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* The fields of a FEN. */
enum { FEN_FIELDS_MAX = 6 };
typedef struct FenFields {
    int count;
    char field[FEN_FIELDS_MAX][FEN_MAX];
} FenFields;

/* Split fen (may be NULL: "empty FEN") into its white-space separated
 * fields: at least min, at most max (<= FEN_FIELDS_MAX), each shorter than
 * FEN_MAX.  names lists the fields for the reason ("board side pass plies").
 * False with a reason otherwise. */
bool fen_split(const char *fen, int min, int max, const char *names, FenFields *out,
               char *err, size_t errlen);

/* The whole of text as a number in [min, max] (min >= 0), by the rule above. */
bool fen_number(const char *text, int min, int max, int *value);

/* The number that starts at *cursor (the longest run of digits there), by
 * the rule above; on success *cursor moves past it. */
bool fen_scan_number(const char **cursor, int min, int max, int *value);

/* A side-to-move field: exactly "w" (WHITE) or "b" (BLACK); -1 otherwise. */
int fen_side(const char *field);

/* ---- boards of ranks ----
 * A board is written rank by rank from the top rank (ranks - 1) down to rank
 * 0, ranks separated by '/', each rank from file 0 to files - 1 (files <= 9):
 * a digit stands for that many empty cells, anything else for the cell it is
 * at, as the game writes it. */

/* Read the cell (rank, file) from text, which starts with something other
 * than a digit 1-9 or '/'.  Returns how many characters it took (>= 1); 0 when
 * text does not start a cell of the game (the reader then refuses the
 * character); -1 when it refuses the cell with a reason of its own in err. */
typedef int (*FenReadCell)(void *ctx, int rank, int file, const char *text, char *err,
                           size_t errlen);

/* Read a whole board field; false with a reason. */
bool fen_read_board(const char *text, int ranks, int files, FenReadCell read_cell,
                    void *ctx, char *err, size_t errlen);

/* Write the cell (rank, file) at out and return its length; 0 for an empty
 * cell (counted into a run). */
typedef int (*FenWriteCell)(const void *ctx, int rank, int file, char *out);

/* Write the board at out (NUL-terminated) and return the end of the text. */
char *fen_write_board(char *out, int ranks, int files, FenWriteCell write_cell,
                      const void *ctx);

#endif
