/* oracle_test.c - reading and checking the oracle's JSON (see oracle_test.h). */
#include "oracle_test.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Write the reason and return false. */
static bool bad(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

#define REQUIRE(cond, ...)                         \
    do {                                           \
        if (!(cond))                               \
            return bad(err, errlen, __VA_ARGS__);  \
    } while (0)

static bool is_type(const JsonValue *v, JsonType t) { return v && v->type == t; }

/* Member that must exist with type t. */
static const JsonValue *member(const JsonValue *obj, const char *key, JsonType t)
{
    const JsonValue *v = json_check_get(obj, key);
    return is_type(v, t) ? v : NULL;
}

static bool is_integer(const JsonValue *v)
{
    return is_type(v, JSON_NUMBER) && v->number == floor(v->number) && fabs(v->number) < 1e9;
}

int ot_cell(const OtBoard *b, const char *name)
{
    if (!name)
        return -1;
    for (int i = 0; i < b->ncells; i++)
        if (strcmp(b->name[i], name) == 0)
            return i;
    return -1;
}

int ot_kind(const OtBoard *b, const char *id)
{
    if (!id)
        return -1;
    for (int i = 0; i < b->nkinds; i++)
        if (strcmp(b->kind[i], id) == 0)
            return i;
    return -1;
}

static int side_of_word(const char *w)
{
    if (!w)
        return -2;
    return strcmp(w, "white") == 0 ? 0 : strcmp(w, "black") == 0 ? 1 : -2;
}

/* "white" / "black" / null -> 0 / 1 / -1; -2 for anything else. */
static int side_or_null(const JsonValue *v)
{
    if (is_type(v, JSON_NULL))
        return -1;
    return is_type(v, JSON_STRING) ? side_of_word(v->string) : -2;
}

/* ------------------------------------------------------------------ board */

static bool read_labels(const JsonValue *root, const char *key, int *n, char labels[][8],
                        char *err, size_t errlen)
{
    const JsonValue *a = member(root, key, JSON_ARRAY);
    REQUIRE(a, "board: %s missing", key);
    REQUIRE(a->count <= 12, "board: too many %s", key);
    for (int i = 0; i < a->count; i++) {
        REQUIRE(is_type(a->items[i], JSON_STRING) && strlen(a->items[i]->string) < 8,
                "board: bad %s", key);
        strcpy(labels[i], a->items[i]->string);
    }
    *n = a->count;
    return true;
}

bool ot_board_read(const JsonValue *root, OtBoard *b, char *err, size_t errlen)
{
    memset(b, 0, sizeof *b);
    REQUIRE(is_type(root, JSON_OBJECT), "board: not an object");
    const char *variant = json_check_string(root, "variant");
    REQUIRE(variant && strlen(variant) < sizeof b->variant, "board: variant missing");
    strcpy(b->variant, variant);
    REQUIRE(json_check_string(root, "title"), "board: title missing");
    const char *layout = json_check_string(root, "layout");
    REQUIRE(layout && (strcmp(layout, "squares") == 0 || strcmp(layout, "points") == 0),
            "board: layout must be squares or points");
    b->squares = strcmp(layout, "squares") == 0;
    const JsonValue *w = member(root, "width", JSON_NUMBER), *h = member(root, "height", JSON_NUMBER),
                    *sp = member(root, "spacing", JSON_NUMBER);
    REQUIRE(w && h && sp && w->number > 0 && h->number > 0 && sp->number > 0,
            "board: width, height, spacing must be positive numbers");
    b->width = w->number;
    b->height = h->number;
    b->spacing = sp->number;
    const JsonValue *cols = json_check_get(root, "columns"), *rows = json_check_get(root, "rows");
    if (b->squares) {
        REQUIRE(is_integer(cols) && is_integer(rows) && cols->number >= 1 && rows->number >= 1,
                "board: a square board needs columns and rows");
        b->columns = (int)cols->number;
        b->rows = (int)rows->number;
        REQUIRE(b->columns == b->width && b->rows == b->height,
                "board: a square board is columns x rows units");
    } else {
        REQUIRE(is_type(cols, JSON_NULL) && is_type(rows, JSON_NULL),
                "board: columns and rows are null on a points board");
    }
    char column_labels[12][8], row_labels[12][8];
    int ncol_labels, nrow_labels;
    if (!read_labels(root, "column_labels", &ncol_labels, column_labels, err, errlen) ||
        !read_labels(root, "row_labels", &nrow_labels, row_labels, err, errlen))
        return false;

    const JsonValue *sides = member(root, "sides", JSON_ARRAY);
    REQUIRE(sides && sides->count == 2, "board: sides must list two sides");
    for (int s = 0; s < 2; s++) {
        const JsonValue *o = sides->items[s];
        REQUIRE(side_of_word(json_check_string(o, "side")) == s && json_check_string(o, "name") &&
                    json_check_string(o, "player"),
                "board: side %d malformed", s);
        REQUIRE(strcmp(json_check_string(o, "player"), s ? "p2" : "p1") == 0,
                "board: White is p1, Black p2");
    }

    /* Dice first: the cells name their faces. */
    const JsonValue *dice = member(root, "dice", JSON_ARRAY);
    REQUIRE(dice && dice->count <= 2, "board: dice must be an array of at most 2");
    b->ndice = dice->count;
    char faces[2][8][8];
    int nfaces[2] = {0, 0};
    int outcomes = 1;
    for (int d = 0; d < b->ndice; d++) {
        const JsonValue *f = member(dice->items[d], "faces", JSON_ARRAY);
        REQUIRE(json_check_string(dice->items[d], "name") && f && f->count >= 1 && f->count <= 8,
                "board: die %d malformed", d);
        nfaces[d] = f->count;
        outcomes *= f->count;
        for (int i = 0; i < f->count; i++) {
            REQUIRE(is_type(f->items[i], JSON_STRING) && strlen(f->items[i]->string) < 8,
                    "board: bad face");
            strcpy(faces[d][i], f->items[i]->string);
            for (int j = 0; j < i; j++)
                REQUIRE(strcmp(faces[d][i], faces[d][j]) != 0, "board: a die repeats a face");
        }
    }

    const JsonValue *cells = member(root, "cells", JSON_ARRAY);
    REQUIRE(cells && cells->count >= 1 && cells->count <= OT_MAX_CELLS, "board: cells missing");
    b->ncells = cells->count;
    bool grid_used[16][16];
    memset(grid_used, 0, sizeof grid_used);
    for (int i = 0; i < b->ncells; i++) {
        const JsonValue *c = cells->items[i];
        const char *name = json_check_string(c, "name");
        const JsonValue *x = member(c, "x", JSON_NUMBER), *y = member(c, "y", JSON_NUMBER);
        REQUIRE(name && *name && strlen(name) < 8 && x && y, "board: cell %d malformed", i);
        REQUIRE(ot_cell(b, name) < 0, "board: cell name %s twice", name);
        for (const char *ch = name; *ch; ch++)
            REQUIRE((*ch >= 'a' && *ch <= 'z') || (*ch >= '0' && *ch <= '9'),
                    "board: cell name %s is not letters and digits", name);
        strcpy(b->name[i], name);
        b->x[i] = x->number;
        b->y[i] = y->number;
        REQUIRE(b->x[i] >= 0 && b->x[i] <= b->width && b->y[i] >= 0 && b->y[i] <= b->height,
                "board: cell %s outside the drawing", name);
        if (b->squares) {
            double col = b->x[i] - 0.5, row = b->y[i] - 0.5;
            REQUIRE(col == floor(col) && row == floor(row) && col < b->columns && row < b->rows &&
                        b->columns <= 16 && b->rows <= 16,
                    "board: square %s is not centred on a grid square", name);
            REQUIRE(!grid_used[(int)row][(int)col], "board: two cells on one square");
            grid_used[(int)row][(int)col] = true;
            REQUIRE(ncol_labels == b->columns && nrow_labels == b->rows,
                    "board: one label per column and per row");
            char expect[16];
            snprintf(expect, sizeof expect, "%s%s", column_labels[(int)col], row_labels[(int)row]);
            REQUIRE(strcmp(expect, name) == 0, "board: square %s at the edge labels %s", name,
                    expect);
        }
        const JsonValue *cd = json_check_get(c, "dice");
        b->cell_faces[i][0] = b->cell_faces[i][1] = -1;
        if (b->ndice == 0) {
            REQUIRE(is_type(cd, JSON_NULL), "board: dice of a cell without dice must be null");
        } else {
            REQUIRE(is_type(cd, JSON_ARRAY) && cd->count == b->ndice,
                    "board: cell %s needs one face per die", name);
            for (int d = 0; d < b->ndice; d++) {
                REQUIRE(is_type(cd->items[d], JSON_STRING), "board: bad face of %s", name);
                for (int f = 0; f < nfaces[d]; f++)
                    if (strcmp(faces[d][f], cd->items[d]->string) == 0)
                        b->cell_faces[i][d] = f;
                REQUIRE(b->cell_faces[i][d] >= 0, "board: %s names an unknown face", name);
            }
            for (int j = 0; j < i; j++)
                REQUIRE(b->cell_faces[j][0] != b->cell_faces[i][0] ||
                            b->cell_faces[j][1] != b->cell_faces[i][1],
                        "board: %s and %s are rolled by the same faces", b->name[j], name);
        }
    }
    if (b->ndice)
        REQUIRE(outcomes == b->ncells, "board: every roll of the dice must name one cell");

    double smallest = 0;
    for (int i = 0; i < b->ncells; i++)
        for (int j = i + 1; j < b->ncells; j++) {
            double d = hypot(b->x[i] - b->x[j], b->y[i] - b->y[j]);
            REQUIRE(d > 1e-6, "board: %s and %s at one place", b->name[i], b->name[j]);
            if (smallest == 0 || d < smallest)
                smallest = d;
        }
    if (b->squares)
        REQUIRE(b->spacing == 1, "board: the room for a piece on squares is one square");
    else
        REQUIRE(fabs(smallest - b->spacing) < 1e-3, "board: spacing %g, smallest distance %g",
                b->spacing, smallest);

    const JsonValue *adj = member(root, "adjacent", JSON_ARRAY);
    REQUIRE(adj, "board: adjacent missing");
    for (int i = 0; i < adj->count; i++) {
        const JsonValue *pair = adj->items[i];
        REQUIRE(is_type(pair, JSON_ARRAY) && pair->count == 2 &&
                    is_type(pair->items[0], JSON_STRING) && is_type(pair->items[1], JSON_STRING),
                "board: adjacent pair %d malformed", i);
        int a = ot_cell(b, pair->items[0]->string), c = ot_cell(b, pair->items[1]->string);
        REQUIRE(a >= 0 && c >= 0, "board: adjacent pair %d names an unknown cell", i);
        REQUIRE(a != c, "board: a cell adjacent to itself");
        REQUIRE(!b->adjacent[a][c], "board: pair %s %s listed twice", b->name[a], b->name[c]);
        b->adjacent[a][c] = b->adjacent[c][a] = true;
        b->nadjacent++;
    }

    const JsonValue *lines = member(root, "lines", JSON_ARRAY);
    REQUIRE(lines && lines->count <= 16, "board: lines missing");
    b->nlines = lines->count;
    for (int l = 0; l < b->nlines; l++) {
        const JsonValue *line = lines->items[l];
        REQUIRE(is_type(line, JSON_ARRAY) && line->count >= 2 && line->count <= 12,
                "board: line %d malformed", l);
        b->line_length[l] = line->count;
        for (int i = 0; i < line->count; i++) {
            int c = is_type(line->items[i], JSON_STRING) ? ot_cell(b, line->items[i]->string) : -1;
            REQUIRE(c >= 0, "board: line %d names an unknown cell", l);
            b->line[l][i] = c;
            if (i)
                REQUIRE(b->adjacent[b->line[l][i - 1]][c],
                        "board: consecutive cells of line %d are not adjacent", l);
        }
    }

    const JsonValue *pieces = member(root, "pieces", JSON_ARRAY);
    REQUIRE(pieces && pieces->count >= 1 && pieces->count <= OT_MAX_KINDS, "board: pieces missing");
    b->nkinds = pieces->count;
    for (int k = 0; k < b->nkinds; k++) {
        const JsonValue *o = pieces->items[k];
        const char *id = json_check_string(o, "kind");
        const JsonValue *fen = member(o, "fen", JSON_OBJECT), *num = json_check_get(o, "number");
        REQUIRE(id && *id && strlen(id) < 16 && json_check_string(o, "label") &&
                    json_check_string(o, "symbol") && fen &&
                    (is_type(num, JSON_NULL) || (is_integer(num) && num->number > 0)),
                "board: piece kind %d malformed", k);
        REQUIRE(ot_kind(b, id) < 0, "board: kind %s twice", id);
        strcpy(b->kind[k], id);
        for (int s = 0; s < 2; s++) {
            const char *letters = json_check_string(fen, s ? "black" : "white");
            REQUIRE(letters && strlen(letters) < 8, "board: FEN letters of %s missing", id);
            strcpy(b->kind_fen[k][s], letters);
            for (int j = 0; j < k; j++)
                REQUIRE(strcmp(b->kind_fen[j][s], letters) != 0,
                        "board: two kinds share the FEN letters %s", letters);
        }
    }

    const JsonValue *regions = member(root, "regions", JSON_ARRAY);
    REQUIRE(regions && regions->count <= OT_MAX_REGIONS, "board: regions missing");
    b->nregions = regions->count;
    for (int r = 0; r < b->nregions; r++) {
        const JsonValue *o = regions->items[r];
        const char *role = json_check_string(o, "role");
        const JsonValue *cl = member(o, "cells", JSON_ARRAY), *kind = json_check_get(o, "kind");
        REQUIRE(role && strlen(role) < 16 && json_check_string(o, "label") && cl && cl->count > 0,
                "board: region %d malformed", r);
        strcpy(b->region_role[r], role);
        b->region_side[r] = side_or_null(json_check_get(o, "side"));
        REQUIRE(b->region_side[r] >= -1, "board: region %d has a bad side", r);
        b->region_kind[r] = is_type(kind, JSON_NULL) ? -1 : ot_kind(b, json_check_string(o, "kind"));
        REQUIRE(b->region_kind[r] >= 0 || is_type(kind, JSON_NULL),
                "board: region %d has an unknown kind", r);
        for (int i = 0; i < cl->count; i++) {
            int c = is_type(cl->items[i], JSON_STRING) ? ot_cell(b, cl->items[i]->string) : -1;
            REQUIRE(c >= 0 && !b->region_cell[r][c], "board: region %d has a bad cell", r);
            b->region_cell[r][c] = true;
        }
    }
    return true;
}

/* -------------------------------------------------------------------- FEN */

static void fen_clear(OtFen *f)
{
    memset(f, 0, sizeof *f);
    for (int i = 0; i < OT_MAX_CELLS; i++)
        f->cell[i].side = -1, f->cell[i].kind = -1;
    f->roll = -1;
    f->hands[0] = f->hands[1] = -1;
    f->captures[0] = f->captures[1] = -1;
    f->plies = -1;
    f->passed = -1;
}

/* The kind and side whose FEN letters are the longest prefix of text (no
 * letters match nothing: kinds written without letters are found by
 * fen_points); their length, or 0 for none. */
static size_t piece_prefix(const OtBoard *b, const char *text, int *kind, int *side)
{
    size_t best = 0;
    for (int k = 0; k < b->nkinds; k++)
        for (int s = 0; s < 2; s++) {
            size_t n = strlen(b->kind_fen[k][s]);
            if (n > best && strncmp(text, b->kind_fen[k][s], n) == 0)
                best = n, *kind = k, *side = s;
        }
    return best;
}

static bool place(const OtBoard *b, OtFen *f, const char *cell, int side, int kind, char *err,
                  size_t errlen)
{
    int c = ot_cell(b, cell);
    REQUIRE(c >= 0, "FEN names cell %s, which the board does not have", cell);
    REQUIRE(f->cell[c].side < 0, "FEN fills %s twice", cell);
    f->cell[c].side = side;
    f->cell[c].kind = kind;
    return true;
}

/* A board of points: "<side>:W<list>:B<list>", each list the side's pieces
 * separated by ',', a piece its kind's FEN letters and its cell's name
 * (Solomon's "W:W14,K15:B1,2"). */
static bool fen_points(const OtBoard *b, const char *field, OtFen *f, char *err, size_t errlen)
{
    const char *c = field;
    REQUIRE(*c == 'W' || *c == 'B', "FEN of points must start with W or B");
    f->turn = *c++ == 'B';
    for (int list = 0; list < 2; list++) {
        REQUIRE(*c == ':' && (c[1] == 'W' || c[1] == 'B'), "FEN: bad piece list");
        int side = c[1] == 'B';
        c += 2;
        while (*c && *c != ':') {
            char item[16];
            size_t n = strcspn(c, ",:");
            REQUIRE(n > 0 && n < sizeof item, "FEN: bad piece in a list");
            memcpy(item, c, n);
            item[n] = '\0';
            c += n;
            if (*c == ',')
                c++;
            /* the kind whose letters (perhaps none) leave a cell's name */
            int kind = -1;
            for (int k = 0; k < b->nkinds; k++) {
                size_t len = strlen(b->kind_fen[k][side]);
                if (strncmp(item, b->kind_fen[k][side], len) == 0 && ot_cell(b, item + len) >= 0)
                    kind = k;
            }
            REQUIRE(kind >= 0, "FEN: '%s' is no piece of %s on a cell", item,
                    side ? "Black" : "White");
            if (!place(b, f, item + strlen(b->kind_fen[kind][side]), side, kind, err, errlen))
                return false;
        }
    }
    REQUIRE(*c == '\0', "FEN: text after the lists");
    return true;
}

/* One rank of a board of squares: a digit is that many empty squares, '.'
 * one, else a piece (its kind's FEN letters).  The squares are every file of
 * the rank, or, when the rank's total says so, only the files that are
 * cells (Salto's dark squares). */
static bool fen_rank(const OtBoard *b, const char **cursor, int rank, OtFen *f, char *err,
                     size_t errlen)
{
    int files[OT_MAX_CELLS], ncells = 0;
    for (int file = 0; file < b->columns; file++) {
        char name[16];
        snprintf(name, sizeof name, "%c%d", 'a' + file, rank);
        if (ot_cell(b, name) >= 0)
            files[ncells++] = file;
    }
    struct {
        int run, kind, side;
    } item[OT_MAX_CELLS];
    int n = 0, total = 0;
    const char *c = *cursor;
    while (*c && *c != '/') {
        REQUIRE(n < OT_MAX_CELLS, "FEN: rank %d too long", rank);
        item[n].run = 0;
        if (*c >= '1' && *c <= '9') {
            item[n].run = *c++ - '0';
        } else if (*c == '.') {
            item[n].run = 1;
            c++;
        } else {
            size_t len = piece_prefix(b, c, &item[n].kind, &item[n].side);
            REQUIRE(len > 0, "FEN: '%c' is no piece of the board", *c);
            c += len;
        }
        total += item[n].run ? item[n].run : 1;
        n++;
    }
    bool every_file = total == b->columns;
    REQUIRE(every_file || total == ncells, "FEN: rank %d has %d squares, not %d or %d", rank,
            total, b->columns, ncells);
    for (int i = 0, square = 0; i < n; i++) {
        if (item[i].run) {
            square += item[i].run;
            continue;
        }
        char name[16];
        snprintf(name, sizeof name, "%c%d", 'a' + (every_file ? square : files[square]), rank);
        if (!place(b, f, name, item[i].side, item[i].kind, err, errlen))
            return false;
        square++;
    }
    *cursor = c;
    return true;
}

/* A board of squares: ranks top (rank `rows`) down to 1, separated by '/',
 * each from file a on (cells named file letter + rank). */
static bool fen_squares(const OtBoard *b, const char *field, OtFen *f, char *err, size_t errlen)
{
    const char *c = field;
    for (int r = b->rows; r >= 1; r--) {
        if (!fen_rank(b, &c, r, f, err, errlen))
            return false;
        if (r > 1) {
            REQUIRE(*c == '/', "FEN: ranks separated by '/'");
            c++;
        }
    }
    REQUIRE(*c == '\0', "FEN: text after rank 1");
    return true;
}

/* The next space-separated field, or "" at the end. */
static const char *field(const char **c, char *buf, size_t size)
{
    while (**c == ' ')
        (*c)++;
    size_t n = 0;
    while (**c && **c != ' ') {
        if (n + 1 < size)
            buf[n++] = **c;
        (*c)++;
    }
    buf[n] = '\0';
    return buf;
}

/* A whole decimal number. */
static bool whole_int(const char *t, int *v)
{
    if (*t < '0' || *t > '9')
        return false;
    int x = 0;
    for (; *t >= '0' && *t <= '9' && x < 100000000; t++)
        x = x * 10 + (*t - '0');
    *v = x;
    return *t == '\0';
}

bool ot_fen_decode(const OtBoard *b, const OtFenShape *shape, const char *fen, OtFen *f,
                   char *err, size_t errlen)
{
    fen_clear(f);
    f->shape = *shape;
    const char *c = fen;
    char t[256];
    field(&c, t, sizeof t);
    if (!b->squares) {
        if (!fen_points(b, t, f, err, errlen))
            return false;
    } else {
        if (!fen_squares(b, t, f, err, errlen))
            return false;
        field(&c, t, sizeof t);
        REQUIRE(strcmp(t, "w") == 0 || strcmp(t, "b") == 0, "FEN: side to move must be w or b");
        f->turn = t[0] == 'b';
    }
    /* the counters, in the order doc/games.md gives */
    if (shape->roll) {
        field(&c, t, sizeof t);
        if (strcmp(t, "-") != 0) {
            f->roll = ot_cell(b, t);
            REQUIRE(f->roll >= 0, "FEN: bad roll %s", t);
        }
    }
    if (shape->passed) {
        field(&c, t, sizeof t);
        REQUIRE(strcmp(t, "p") == 0 || strcmp(t, "-") == 0, "FEN: pass flag");
        f->passed = t[0] == 'p';
    }
    if (shape->plies)
        REQUIRE(whole_int(field(&c, t, sizeof t), &f->plies), "FEN: plies");
    for (int s = 0; shape->hands && s < 2; s++)
        REQUIRE(whole_int(field(&c, t, sizeof t), &f->hands[s]), "FEN: hands");
    for (int s = 0; shape->captures && s < 2; s++)
        REQUIRE(whole_int(field(&c, t, sizeof t), &f->captures[s]), "FEN: captures");
    REQUIRE(*field(&c, t, sizeof t) == '\0', "FEN: text after the last field");
    return true;
}

/* --------------------------------------------------------------- position */

/* {"white": a, "black": b} or null; -1 -1 for null. */
static bool per_side(const JsonValue *v, int out[2])
{
    if (is_type(v, JSON_NULL)) {
        out[0] = out[1] = -1;
        return true;
    }
    const JsonValue *w = json_check_get(v, "white"), *bl = json_check_get(v, "black");
    if (!is_type(v, JSON_OBJECT) || v->count != 2 || !is_integer(w) || !is_integer(bl))
        return false;
    out[0] = (int)w->number;
    out[1] = (int)bl->number;
    return true;
}

/* The counting sum of side s computed from the board's regions: Salto's
 * per-piece targets (king-move distance), Pyramid's pyramid (fewest forward
 * diagonal steps to any of its squares).  -1 when a piece has no goal it
 * can reach. */
static int counting_sum(const OtBoard *b, const OtFen *f, int s)
{
    int sum = 0;
    for (int c = 0; c < b->ncells; c++) {
        if (f->cell[c].side != s)
            continue;
        int best = -1;
        for (int r = 0; r < b->nregions; r++) {
            if (b->region_side[r] != s)
                continue;
            bool target = strcmp(b->region_role[r], "target") == 0 &&
                          b->region_kind[r] == f->cell[c].kind;
            bool pyramid = strcmp(b->region_role[r], "pyramid") == 0;
            if (!target && !pyramid)
                continue;
            for (int t = 0; t < b->ncells; t++) {
                if (!b->region_cell[r][t])
                    continue;
                double dx = fabs(b->x[t] - b->x[c]);
                double dy = b->y[t] - b->y[c];
                int steps;
                if (target) {
                    steps = (int)(dx > fabs(dy) ? dx : fabs(dy));
                } else {
                    double ahead = s == 0 ? -dy : dy; /* White moves up the drawing */
                    if (ahead < dx)
                        continue;
                    steps = (int)ahead;
                }
                if (best < 0 || steps < best)
                    best = steps;
            }
        }
        if (best < 0)
            return -1;
        sum += best;
    }
    return sum;
}

static bool has_counting_regions(const OtBoard *b)
{
    for (int r = 0; r < b->nregions; r++)
        if (strcmp(b->region_role[r], "target") == 0 || strcmp(b->region_role[r], "pyramid") == 0)
            return true;
    return false;
}

bool ot_position_check(const OtBoard *b, const JsonValue *pos, OtFen *fen_out, char *err,
                       size_t errlen)
{
    OtFen fen;
    REQUIRE(is_type(pos, JSON_OBJECT), "position: not an object");
    const char *variant = json_check_string(pos, "variant");
    REQUIRE(variant && strcmp(variant, b->variant) == 0, "position: wrong variant");
    const char *fen_text = json_check_string(pos, "fen");
    REQUIRE(fen_text, "position: fen missing");
    /* The FEN must carry exactly the counters the JSON does not give as null. */
    OtFenShape shape = {
        .roll = b->ndice > 0,
        .passed = !is_type(json_check_get(pos, "passed"), JSON_NULL),
        .plies = !is_type(json_check_get(pos, "move_limit"), JSON_NULL),
        .hands = !is_type(json_check_get(pos, "hands"), JSON_NULL),
        .captures = !is_type(json_check_get(pos, "captures"), JSON_NULL),
    };
    char why[256];
    if (!ot_fen_decode(b, &shape, fen_text, &fen, why, sizeof why))
        return bad(err, errlen, "position: %s (FEN %s)", why, fen_text);
    REQUIRE(side_of_word(json_check_string(pos, "turn")) == fen.turn,
            "position: turn differs from the FEN %s", fen_text);
    const JsonValue *chance = member(pos, "chance", JSON_BOOL);
    REQUIRE(chance, "position: chance missing");
    const JsonValue *roll = json_check_get(pos, "roll");
    if (is_type(roll, JSON_NULL)) {
        REQUIRE(fen.roll < 0, "position: the FEN has a roll, the JSON none");
    } else {
        REQUIRE(is_type(roll, JSON_STRING) && ot_cell(b, roll->string) == fen.roll,
                "position: roll differs from the FEN");
        REQUIRE(!chance->boolean, "position: a pending roll and a roll due at once");
    }
    if (b->ndice == 0)
        REQUIRE(!chance->boolean, "position: a game without dice never rolls");

    const JsonValue *pieces = member(pos, "pieces", JSON_ARRAY);
    REQUIRE(pieces, "position: pieces missing");
    bool seen[OT_MAX_CELLS] = {false};
    for (int i = 0; i < pieces->count; i++) {
        const JsonValue *o = pieces->items[i];
        int c = ot_cell(b, json_check_string(o, "cell"));
        int s = side_of_word(json_check_string(o, "side"));
        int k = ot_kind(b, json_check_string(o, "kind"));
        REQUIRE(c >= 0 && s >= 0 && k >= 0 && json_check_string(o, "label"),
                "position: piece %d malformed", i);
        REQUIRE(!seen[c], "position: cell %s listed twice", b->name[c]);
        seen[c] = true;
        REQUIRE(fen.cell[c].side == s && fen.cell[c].kind == k,
                "position: %s holds %s %s, the FEN %s says otherwise", b->name[c],
                s ? "black" : "white", b->kind[k], fen_text);
    }
    for (int c = 0; c < b->ncells; c++)
        REQUIRE(seen[c] || fen.cell[c].side < 0, "position: the FEN has a piece on %s",
                b->name[c]);

    int hands[2], captures[2], count[2];
    REQUIRE(per_side(json_check_get(pos, "hands"), hands), "position: hands malformed");
    REQUIRE(hands[0] == fen.hands[0] && hands[1] == fen.hands[1], "position: hands differ");
    const JsonValue *phase = json_check_get(pos, "phase");
    if (hands[0] >= 0)
        REQUIRE(is_type(phase, JSON_STRING) &&
                    strcmp(phase->string, hands[0] + hands[1] ? "placement" : "movement") == 0,
                "position: the phase follows the hands");
    else
        REQUIRE(is_type(phase, JSON_NULL), "position: phase without hands");
    REQUIRE(per_side(json_check_get(pos, "captures"), captures), "position: captures malformed");
    REQUIRE(captures[0] == fen.captures[0] && captures[1] == fen.captures[1],
            "position: captures differ from the FEN");
    REQUIRE(per_side(json_check_get(pos, "count"), count), "position: count malformed");
    if (has_counting_regions(b)) {
        for (int s = 0; s < 2; s++)
            REQUIRE(count[s] == counting_sum(b, &fen, s),
                    "position: %s's count %d, the board's goals give %d", s ? "Black" : "White",
                    count[s], counting_sum(b, &fen, s));
    } else {
        REQUIRE(count[0] == -1, "position: a count without goals to count to");
    }
    const JsonValue *limit = json_check_get(pos, "move_limit");
    if (fen.plies >= 0) {
        const JsonValue *pl = json_check_get(limit, "plies"), *li = json_check_get(limit, "limit");
        REQUIRE(is_integer(pl) && is_integer(li) && (int)pl->number == fen.plies &&
                    pl->number <= li->number && li->number > 0,
                "position: move_limit differs from the FEN");
    } else {
        REQUIRE(is_type(limit, JSON_NULL), "position: a move limit the FEN does not have");
    }
    const JsonValue *passed = json_check_get(pos, "passed");
    if (fen.passed >= 0)
        REQUIRE(is_type(passed, JSON_BOOL) && passed->boolean == (fen.passed == 1),
                "position: passed differs from the FEN");
    else
        REQUIRE(is_type(passed, JSON_NULL), "position: passed in a game without passes");

    const JsonValue *ply = json_check_get(pos, "ply"), *rep = json_check_get(pos, "repetitions");
    REQUIRE(is_integer(ply) && ply->number >= 0, "position: ply malformed");
    REQUIRE(is_type(rep, JSON_NULL) || (is_integer(rep) && rep->number >= 1),
            "position: repetitions malformed");

    const char *result = json_check_string(pos, "result");
    REQUIRE(result, "position: result missing");
    int winner = side_or_null(json_check_get(pos, "winner"));
    const JsonValue *reason = json_check_get(pos, "reason"), *margin = json_check_get(pos, "margin");
    if (strcmp(result, "none") == 0) {
        REQUIRE(winner == -1 && is_type(reason, JSON_NULL) && is_type(margin, JSON_NULL),
                "position: winner, reason or margin in a game that goes on");
    } else {
        REQUIRE(strcmp(result, "p1win") == 0 || strcmp(result, "p2win") == 0 ||
                    strcmp(result, "draw") == 0,
                "position: bad result %s", result);
        int expect = result[1] == '1' ? 0 : result[1] == '2' ? 1 : -1;
        REQUIRE(winner == expect, "position: winner does not match %s", result);
        REQUIRE(is_type(reason, JSON_STRING) && *reason->string, "position: a result needs a reason");
        REQUIRE(is_type(margin, JSON_NULL) || (is_integer(margin) && margin->number >= 0),
                "position: bad margin");
        REQUIRE(!chance->boolean, "position: no roll is due in a finished game");
    }
    if (fen_out)
        *fen_out = fen;
    return true;
}

/* ------------------------------------------------------------------- move */

static bool same_cells(const OtBoard *b, const OtFen *x, const OtFen *y, int skip1, int skip2,
                       const int *skip_list, int nskip)
{
    for (int c = 0; c < b->ncells; c++) {
        if (c == skip1 || c == skip2)
            continue;
        bool skipped = false;
        for (int i = 0; i < nskip; i++)
            skipped |= skip_list[i] == c;
        if (skipped)
            continue;
        if (x->cell[c].side != y->cell[c].side || x->cell[c].kind != y->cell[c].kind)
            return false;
    }
    return true;
}

/* The cell jumped over between a and c: on a board with lines, the cell
 * between them on a line; else the cell at the midpoint of the drawing
 * (square boards jump straight along a diagonal). */
static int jumped_cell(const OtBoard *b, int a, int c)
{
    for (int l = 0; l < b->nlines; l++)
        for (int i = 0; i + 2 < b->line_length[l]; i++) {
            const int *t = &b->line[l][i];
            if ((t[0] == a && t[2] == c) || (t[0] == c && t[2] == a))
                return t[1];
        }
    if (b->nlines)
        return -1;
    double mx = (b->x[a] + b->x[c]) / 2, my = (b->y[a] + b->y[c]) / 2;
    for (int m = 0; m < b->ncells; m++)
        if (b->adjacent[a][m] && b->adjacent[m][c] && fabs(b->x[m] - mx) < 1e-3 &&
            fabs(b->y[m] - my) < 1e-3)
            return m;
    return -1;
}

/* Is text the path's names (all of them, or the first and last) joined by
 * one separator ("", "-" or "x"), followed by `suffix`? */
static bool text_is_path(const OtBoard *b, const char *text, const int *path, int len,
                         const char *suffix)
{
    static const char *const seps[3] = {"", "-", "x"};
    for (int full = 0; full < 2; full++)
        for (int s = 0; s < 3; s++) {
            char expect[256] = "";
            size_t n = 0;
            for (int i = 0; i < len; i++) {
                if (!full && i != 0 && i != len - 1)
                    continue;
                n += (size_t)snprintf(expect + n, sizeof expect - n, "%s%s", n ? seps[s] : "",
                                      b->name[path[i]]);
            }
            snprintf(expect + n, sizeof expect - n, "%s", suffix);
            if (strcmp(expect, text) == 0)
                return true;
        }
    return false;
}

static bool name_list(const OtBoard *b, const JsonValue *a, int *out, int *n)
{
    if (!is_type(a, JSON_ARRAY) || a->count > OT_MAX_CELLS + 1)
        return false;
    for (int i = 0; i < a->count; i++) {
        int c = is_type(a->items[i], JSON_STRING) ? ot_cell(b, a->items[i]->string) : -1;
        if (c < 0)
            return false;
        out[i] = c;
    }
    *n = a->count;
    return true;
}

static int cell_or_null(const OtBoard *b, const JsonValue *v)
{
    if (is_type(v, JSON_NULL))
        return -1;
    int c = is_type(v, JSON_STRING) ? ot_cell(b, v->string) : -1;
    return c >= 0 ? c : -2;
}

static int kind_or_null(const OtBoard *b, const JsonValue *v)
{
    if (is_type(v, JSON_NULL))
        return -1;
    int k = is_type(v, JSON_STRING) ? ot_kind(b, v->string) : -1;
    return k >= 0 ? k : -2;
}

bool ot_move_check(const OtBoard *b, const JsonValue *mv, const OtFen *before, const OtFen *after,
                   int *ncaptured, char *err, size_t errlen)
{
    REQUIRE(is_type(mv, JSON_OBJECT), "move: not an object");
    const char *text = json_check_string(mv, "move"), *kind = json_check_string(mv, "kind");
    REQUIRE(text && *text && kind, "move: text or kind missing");
    REQUIRE(side_of_word(json_check_string(mv, "side")) == before->turn,
            "move %s: side is not the side to move", text);
    int from = cell_or_null(b, json_check_get(mv, "from"));
    int to = cell_or_null(b, json_check_get(mv, "to"));
    int roll = cell_or_null(b, json_check_get(mv, "roll"));
    int piece = kind_or_null(b, json_check_get(mv, "piece"));
    int promotion = kind_or_null(b, json_check_get(mv, "promotion"));
    REQUIRE(from >= -1 && to >= -1 && roll >= -1 && piece >= -1 && promotion >= -1,
            "move %s: from, to, roll, piece or promotion malformed", text);
    int path[OT_MAX_CELLS + 1], npath, caps[OT_MAX_CELLS + 1], ncaps;
    REQUIRE(name_list(b, json_check_get(mv, "path"), path, &npath) &&
                name_list(b, json_check_get(mv, "captures"), caps, &ncaps),
            "move %s: path or captures malformed", text);
    if (ncaptured)
        *ncaptured = ncaps;
    int me = before->turn, them = 1 - me;
    for (int i = 0; i < ncaps; i++) {
        REQUIRE(before->cell[caps[i]].side == them, "move %s: captures %s, which holds no enemy",
                text, b->name[caps[i]]);
        for (int j = 0; j < i; j++)
            REQUIRE(caps[i] != caps[j], "move %s: captures %s twice", text, b->name[caps[i]]);
    }
    if (before->captures[0] >= 0)
        REQUIRE(after->captures[me] == before->captures[me] + ncaps &&
                    after->captures[them] == before->captures[them],
                "move %s: the captures counted do not match", text);
    if (strcmp(kind, "placement") != 0 && before->hands[0] >= 0)
        REQUIRE(after->hands[0] == before->hands[0] && after->hands[1] == before->hands[1],
                "move %s: hands changed", text);

    if (strcmp(kind, "pass") == 0 || strcmp(kind, "roll") == 0) {
        bool is_roll = kind[0] == 'r';
        REQUIRE(from == -1 && to == -1 && piece == -1 && promotion == -1 && npath == 0 && ncaps == 0,
                "move %s: a %s moves no piece", text, kind);
        REQUIRE(same_cells(b, before, after, -1, -1, NULL, 0), "move %s: the board changed", text);
        if (is_roll) {
            REQUIRE(b->ndice > 0 && roll >= 0 && before->roll == -1 && after->roll == roll,
                    "move %s: the roll is not the pending roll after it", text);
            REQUIRE(strcmp(text, b->name[roll]) == 0, "move %s: a roll is written as its cell", text);
            REQUIRE(after->turn == me, "move %s: the roller acts next", text);
        } else {
            REQUIRE(roll == -1 && strcmp(text, "0000") == 0, "move %s: a pass is 0000", text);
            REQUIRE(after->turn == them && after->passed == 1, "move %s: a pass hands over the turn",
                    text);
        }
        return true;
    }
    REQUIRE(roll == -1, "move %s: only a roll has a roll", text);
    REQUIRE(after->turn == them, "move %s: the turn does not pass", text);
    REQUIRE(to >= 0 && piece >= 0, "move %s: no target or no piece", text);
    int landed = promotion >= 0 ? promotion : piece;
    REQUIRE(promotion != piece, "move %s: a promotion to the same kind", text);
    REQUIRE(after->cell[to].side == me && after->cell[to].kind == landed,
            "move %s: %s does not hold the %s after it", text, b->name[to], b->kind[landed]);
    if (after->passed >= 0)
        REQUIRE(after->passed == 0, "move %s: a real move is no pass", text);

    if (strcmp(kind, "placement") == 0) {
        REQUIRE(from == -1 && npath == 1 && path[0] == to && ncaps == 0,
                "move %s: a placement has no start and captures nothing", text);
        REQUIRE(before->cell[to].side == -1, "move %s: placed on a full cell", text);
        REQUIRE(same_cells(b, before, after, to, -1, NULL, 0), "move %s: other cells changed", text);
        if (before->hands[0] >= 0) /* a game with hands places from them */
            REQUIRE(before->hands[me] >= 1 && after->hands[me] == before->hands[me] - 1 &&
                        after->hands[them] == before->hands[them],
                    "move %s: the hand does not lose the placed piece", text);
        REQUIRE(strcmp(text, b->name[to]) == 0, "move %s: a placement is written as its cell", text);
        return true;
    }

    /* Only a chain can come back to its start (Solomon's kings). */
    REQUIRE(from >= 0 && (from != to || strcmp(kind, "chain") == 0), "move %s: no start", text);
    REQUIRE(npath >= 2 && path[0] == from && path[npath - 1] == to,
            "move %s: the path does not run from start to target", text);
    REQUIRE(before->cell[from].side == me && before->cell[from].kind == piece,
            "move %s: %s does not hold the moving %s", text, b->name[from], b->kind[piece]);
    bool to_captured = false;
    for (int i = 0; i < ncaps; i++)
        to_captured |= caps[i] == to;
    REQUIRE(before->cell[to].side == -1 || to_captured || to == from,
            "move %s: lands on a full cell", text);
    REQUIRE(from == to || after->cell[from].side == -1, "move %s: the start is not empty after it",
            text);
    for (int i = 0; i < ncaps; i++)
        if (caps[i] != to)
            REQUIRE(after->cell[caps[i]].side == -1, "move %s: captured %s still there", text,
                    b->name[caps[i]]);
    REQUIRE(same_cells(b, before, after, from, to, caps, ncaps), "move %s: other cells changed",
            text);

    char suffix[16] = "";
    if (strcmp(kind, "step") == 0 || strcmp(kind, "removal") == 0) {
        REQUIRE(npath == 2 && b->adjacent[from][to], "move %s: a step goes to a neighbour", text);
        if (kind[0] == 's') {
            REQUIRE(ncaps == 0, "move %s: a step captures nothing", text);
        } else {
            REQUIRE(ncaps == 1 && caps[0] != to, "move %s: a removal removes one piece", text);
            snprintf(suffix, sizeof suffix, "x%s", b->name[caps[0]]);
        }
    } else if (strcmp(kind, "jump") == 0 || strcmp(kind, "chain") == 0) {
        REQUIRE(kind[0] == 'j' ? npath == 2 : npath >= 3, "move %s: a %s of %d cells", text, kind,
                npath);
        REQUIRE(ncaps == 0 || ncaps == npath - 1, "move %s: a capture per jump or none", text);
        OtFen now = *before; /* pieces as the jumps go */
        now.cell[from].side = -1;
        for (int i = 0; i + 1 < npath; i++) {
            int m = jumped_cell(b, path[i], path[i + 1]);
            REQUIRE(m >= 0, "move %s: no cell between %s and %s", text, b->name[path[i]],
                    b->name[path[i + 1]]);
            REQUIRE(now.cell[m].side >= 0, "move %s: jumps over the empty %s", text, b->name[m]);
            REQUIRE(i + 1 == npath - 1 || now.cell[path[i + 1]].side == -1,
                    "move %s: a jump lands on the full %s", text, b->name[path[i + 1]]);
            if (ncaps) {
                REQUIRE(caps[i] == m && now.cell[m].side == them,
                        "move %s: jump %d captures %s, not the jumped %s", text, i + 1,
                        b->name[caps[i]], b->name[m]);
                now.cell[m].side = -1;
            }
        }
    } else if (strcmp(kind, "entry") == 0 || strcmp(kind, "flight") == 0) {
        REQUIRE(npath == 2, "move %s: one leap", text);
        if (kind[0] == 'e') {
            REQUIRE(before->roll == to, "move %s: an entry goes to the rolled cell", text);
            REQUIRE(ncaps == (before->cell[to].side == them) && (ncaps == 0 || caps[0] == to),
                    "move %s: an entry captures what stands on the rolled cell", text);
        } else {
            REQUIRE(before->roll == from && ncaps == 1 && caps[0] == to,
                    "move %s: a flight leaves the rolled cell to capture", text);
        }
        REQUIRE(after->roll == -1, "move %s: the roll is used up", text);
    } else {
        return bad(err, errlen, "move %s: unknown kind %s", text, kind);
    }
    REQUIRE(text_is_path(b, text, path, npath, suffix),
            "move %s: the text is not made of the path's names", text);
    return true;
}
