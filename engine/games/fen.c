/* fen.c - the FEN kit (fen.h): fields, numbers and boards of ranks. */
#include "fen.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../util.h"

bool fen_fail(char *err, size_t errlen, const char *format, ...)
{
    if (err && errlen) {
        va_list args;
        va_start(args, format);
        vsnprintf(err, errlen, format, args);
        va_end(args);
    }
    return false;
}

bool fen_split(const char *fen, int min, int max, const char *names, FenFields *out,
               char *err, size_t errlen)
{
    out->count = 0;
    if (!fen)
        return fen_fail(err, errlen, "empty FEN");
    const char *cursor = fen;
    char field[FEN_MAX];
    size_t len;
    while ((len = util_next_token(&cursor, field, sizeof field)) > 0) {
        if (out->count == max)
            return fen_fail(err, errlen, "too many fields (%s)", names);
        if (len >= sizeof field)
            return fen_fail(err, errlen, "FEN field too long");
        memcpy(out->field[out->count++], field, len + 1);
    }
    if (out->count == 0)
        return fen_fail(err, errlen, "empty FEN");
    if (out->count < min)
        return fen_fail(err, errlen, "the FEN needs %s%d fields (%s)",
                        min < max ? "at least " : "", min, names);
    return true;
}

bool fen_number(const char *text, int min, int max, int *value)
{
    long long v;
    if (text[0] == '0' && text[1] != '\0')
        return false; /* a leading zero */
    if (!util_parse_number(text, min, max, &v))
        return false;
    *value = (int)v;
    return true;
}

bool fen_scan_number(const char **cursor, int min, int max, int *value)
{
    char digits[12];
    size_t n = 0;
    const char *c = *cursor;
    while (c[n] >= '0' && c[n] <= '9') {
        if (n + 1 == sizeof digits)
            return false; /* far beyond any field's range */
        digits[n] = c[n];
        n++;
    }
    digits[n] = '\0';
    if (!fen_number(digits, min, max, value))
        return false;
    *cursor = c + n;
    return true;
}

int fen_side(const char *field)
{
    if (strcmp(field, "w") == 0)
        return WHITE;
    if (strcmp(field, "b") == 0)
        return BLACK;
    return -1;
}

bool fen_read_board(const char *text, int ranks, int files, FenReadCell read_cell,
                    void *ctx, char *err, size_t errlen)
{
    const char *c = text;
    for (int rank = ranks - 1; rank >= 0; rank--) {
        int file = 0;
        bool after_run = false;
        while (*c && *c != '/') {
            if (*c >= '1' && *c <= '9') {
                if (after_run)
                    return fen_fail(err, errlen, "two digits in a row in rank %d", rank + 1);
                if (*c - '0' > files - file)
                    return fen_fail(err, errlen, "rank %d has more than %d squares",
                                    rank + 1, files);
                file += *c++ - '0';
                after_run = true;
                continue;
            }
            if (file == files)
                return fen_fail(err, errlen, "rank %d has more than %d squares", rank + 1,
                                files);
            int used = read_cell(ctx, rank, file, c, err, errlen);
            if (used < 0)
                return false;
            if (used == 0)
                return fen_fail(err, errlen, "unexpected character '%c' in the board",
                                *c > ' ' && *c < 127 ? *c : '?');
            c += used;
            file++;
            after_run = false;
        }
        if (file < files)
            return fen_fail(err, errlen, "rank %d has fewer than %d squares", rank + 1, files);
        if (rank > 0) {
            if (*c != '/')
                return fen_fail(err, errlen, "the board needs %d ranks separated by '/'",
                                ranks);
            c++;
        }
    }
    if (*c)
        return fen_fail(err, errlen, "the board has more than %d ranks", ranks);
    return true;
}

char *fen_write_board(char *out, int ranks, int files, FenWriteCell write_cell,
                      const void *ctx)
{
    for (int rank = ranks - 1; rank >= 0; rank--) {
        int run = 0;
        for (int file = 0; file < files; file++) {
            int n = write_cell(ctx, rank, file, out + (run ? 1 : 0));
            if (n == 0) {
                run++;
                continue;
            }
            if (run) {
                out[0] = (char)('0' + run);
                out++;
            }
            out += n;
            run = 0;
        }
        if (run)
            *out++ = (char)('0' + run);
        if (rank)
            *out++ = '/';
    }
    *out = '\0';
    return out;
}
