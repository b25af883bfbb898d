/* oracle.c - the JSON of `query board|position|move` (see oracle.h).
 *
 * Everything here is generic: the games describe themselves with the plain
 * structs of variant.h and this file alone decides how that looks as JSON.
 * The field names and their meaning are specified in protocol.md ("Queries
 * for GUIs"); change both together. */
#include "oracle.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json.h"

static const char *const side_word[2] = {"white", "black"};

static const char *const move_kind_words[MOVE_KIND_COUNT] = {
    [MOVE_KIND_STEP] = "step",           [MOVE_KIND_JUMP] = "jump",
    [MOVE_KIND_CHAIN] = "chain",         [MOVE_KIND_PLACEMENT] = "placement",
    [MOVE_KIND_REMOVAL] = "removal",     [MOVE_KIND_PASS] = "pass",
    [MOVE_KIND_ROLL] = "roll",           [MOVE_KIND_ENTRY] = "entry",
    [MOVE_KIND_FLIGHT] = "flight",
};

const char *oracle_move_kind_word(MoveKind kind)
{
    return kind >= 0 && kind < MOVE_KIND_COUNT ? move_kind_words[kind] : NULL;
}

static bool has_hooks(const Variant *v)
{
    return v && v->describe_board && v->describe_position && v->describe_move;
}

static bool valid_cell(const BoardDesc *b, int cell) { return cell >= 0 && cell < b->ncells; }
static bool valid_kind(const BoardDesc *b, int kind) { return kind >= 0 && kind < b->nkinds; }

/* The board as the game describes it, checked for what the writer relies
 * on (counts within the arrays).  False when the game gave nonsense. */
static bool read_board(const Variant *v, BoardDesc *b)
{
    memset(b, 0, sizeof *b);
    for (int i = 0; i < BOARD_MAX_CELLS; i++)
        memset(b->cells[i].faces, -1, sizeof b->cells[i].faces);
    for (int i = 0; i < BOARD_MAX_REGIONS; i++)
        b->regions[i].side = b->regions[i].kind = -1;
    v->describe_board(b);
    return b->ncells > 0 && b->ncells <= BOARD_MAX_CELLS && b->nlines >= 0 &&
           b->nlines <= BOARD_MAX_LINES && b->nkinds > 0 && b->nkinds <= BOARD_MAX_KINDS &&
           b->nregions >= 0 && b->nregions <= BOARD_MAX_REGIONS && b->ndice >= 0 &&
           b->ndice <= BOARD_MAX_DICE && b->ncolumn_labels >= 0 &&
           b->ncolumn_labels <= BOARD_MAX_LABELS && b->nrow_labels >= 0 &&
           b->nrow_labels <= BOARD_MAX_LABELS;
}

static void cell_list(JsonWriter *w, const BoardDesc *b, uint64_t cells)
{
    json_begin_array(w);
    for (int i = 0; i < b->ncells; i++)
        if (cells >> i & 1)
            json_string(w, b->cells[i].name);
    json_end_array(w);
}

static void label_list(JsonWriter *w, const char *const *labels, int n)
{
    json_begin_array(w);
    for (int i = 0; i < n; i++)
        json_string(w, labels[i]);
    json_end_array(w);
}

static void side_or_null(JsonWriter *w, int side)
{
    if (side == WHITE || side == BLACK)
        json_string(w, side_word[side]);
    else
        json_null(w);
}

static void kind_or_null(JsonWriter *w, const BoardDesc *b, int kind)
{
    if (valid_kind(b, kind))
        json_string(w, b->kinds[kind].id);
    else
        json_null(w);
}

/* {"white": a, "black": b} */
static void per_side(JsonWriter *w, const int v[2])
{
    json_begin_object(w);
    json_key(w, "white");
    json_int(w, v[WHITE]);
    json_key(w, "black");
    json_int(w, v[BLACK]);
    json_end_object(w);
}

static bool board_consistent(const BoardDesc *b)
{
    for (int i = 0; i < b->nlines; i++) {
        const BoardLine *l = &b->lines[i];
        if (l->length < 2 || l->length > BOARD_MAX_LINE_CELLS)
            return false;
        for (int j = 0; j < l->length; j++)
            if (!valid_cell(b, l->cells[j]))
                return false;
    }
    for (int i = 0; i < b->ndice; i++)
        if (b->dice[i].nfaces < 1 || b->dice[i].nfaces > BOARD_MAX_FACES)
            return false;
    for (int i = 0; i < b->ncells; i++)
        for (int d = 0; d < b->ndice; d++)
            if (b->cells[i].faces[d] < 0 || b->cells[i].faces[d] >= b->dice[d].nfaces)
                return false;
    return true;
}

/* The room a GUI has for one piece: the side of a square on a square
 * board, else the smallest distance between two cells. */
static double piece_room(const BoardDesc *b)
{
    if (b->layout == BOARD_LAYOUT_SQUARES)
        return 1.0;
    double best = 0;
    for (int i = 0; i < b->ncells; i++)
        for (int j = i + 1; j < b->ncells; j++) {
            double dx = b->cells[i].x - b->cells[j].x, dy = b->cells[i].y - b->cells[j].y;
            double d = sqrt(dx * dx + dy * dy);
            if (best == 0 || d < best)
                best = d;
        }
    return best;
}

static void int_or_null(JsonWriter *w, bool known, int v)
{
    if (known)
        json_int(w, v);
    else
        json_null(w);
}

/* The drawing's frame: "layout" to "row_labels". */
static void board_frame(JsonWriter *w, const BoardDesc *b)
{
    bool squares = b->layout == BOARD_LAYOUT_SQUARES;
    json_member_string(w, "layout", squares ? "squares" : "points");
    json_key(w, "width");
    json_double(w, b->width, 4);
    json_key(w, "height");
    json_double(w, b->height, 4);
    json_key(w, "spacing");
    json_double(w, piece_room(b), 4);
    json_key(w, "columns");
    int_or_null(w, squares, b->columns);
    json_key(w, "rows");
    int_or_null(w, squares, b->rows);
    json_key(w, "column_labels");
    label_list(w, b->column_labels, b->ncolumn_labels);
    json_key(w, "row_labels");
    label_list(w, b->row_labels, b->nrow_labels);
}

static void board_sides(JsonWriter *w)
{
    json_key(w, "sides");
    json_begin_array(w);
    for (int s = 0; s < 2; s++) {
        json_begin_object(w);
        json_member_string(w, "side", side_word[s]);
        json_member_string(w, "name", s == WHITE ? "White" : "Black");
        json_member_string(w, "player", s == WHITE ? "p1" : "p2");
        json_end_object(w);
    }
    json_end_array(w);
}

static void board_cells(JsonWriter *w, const BoardDesc *b)
{
    json_key(w, "cells");
    json_begin_array(w);
    for (int i = 0; i < b->ncells; i++) {
        const BoardCell *c = &b->cells[i];
        json_begin_object(w);
        json_member_string(w, "name", c->name);
        json_key(w, "x");
        json_double(w, c->x, 4);
        json_key(w, "y");
        json_double(w, c->y, 4);
        json_key(w, "dice");
        if (b->ndice) {
            json_begin_array(w);
            for (int d = 0; d < b->ndice; d++)
                json_string(w, b->dice[d].faces[c->faces[d]]);
            json_end_array(w);
        } else {
            json_null(w);
        }
        json_end_object(w);
    }
    json_end_array(w);
}

/* "lines" and "adjacent": what connects the cells. */
static void board_links(JsonWriter *w, const BoardDesc *b)
{
    json_key(w, "lines");
    json_begin_array(w);
    for (int i = 0; i < b->nlines; i++) {
        json_begin_array(w);
        for (int j = 0; j < b->lines[i].length; j++)
            json_string(w, b->cells[b->lines[i].cells[j]].name);
        json_end_array(w);
    }
    json_end_array(w);

    /* Each pair once, the lower cell first: the relation is symmetric. */
    json_key(w, "adjacent");
    json_begin_array(w);
    for (int i = 0; i < b->ncells; i++)
        for (int j = i + 1; j < b->ncells; j++)
            if (b->cells[i].neighbours >> j & 1) {
                json_begin_array(w);
                json_string(w, b->cells[i].name);
                json_string(w, b->cells[j].name);
                json_end_array(w);
            }
    json_end_array(w);
}

static void board_pieces(JsonWriter *w, const BoardDesc *b)
{
    json_key(w, "pieces");
    json_begin_array(w);
    for (int k = 0; k < b->nkinds; k++) {
        const PieceKind *pk = &b->kinds[k];
        json_begin_object(w);
        json_member_string(w, "kind", pk->id);
        json_member_string(w, "label", pk->label);
        json_member_string(w, "symbol", pk->symbol);
        json_key(w, "number");
        int_or_null(w, pk->number != 0, pk->number);
        json_key(w, "fen");
        json_begin_object(w);
        json_member_string(w, "white", pk->fen[WHITE]);
        json_member_string(w, "black", pk->fen[BLACK]);
        json_end_object(w);
        json_end_object(w);
    }
    json_end_array(w);
}

/* "regions" and "dice". */
static void board_regions_and_dice(JsonWriter *w, const BoardDesc *b)
{
    json_key(w, "regions");
    json_begin_array(w);
    for (int r = 0; r < b->nregions; r++) {
        const BoardRegion *reg = &b->regions[r];
        json_begin_object(w);
        json_member_string(w, "role", reg->role);
        json_member_string(w, "label", reg->label);
        json_key(w, "side");
        side_or_null(w, reg->side);
        json_key(w, "kind");
        kind_or_null(w, b, reg->kind);
        json_key(w, "cells");
        cell_list(w, b, reg->cells);
        json_end_object(w);
    }
    json_end_array(w);

    json_key(w, "dice");
    json_begin_array(w);
    for (int d = 0; d < b->ndice; d++) {
        json_begin_object(w);
        json_member_string(w, "name", b->dice[d].name);
        json_key(w, "faces");
        label_list(w, b->dice[d].faces, b->dice[d].nfaces);
        json_end_object(w);
    }
    json_end_array(w);
}

bool oracle_board_json(const Variant *v, char *buf, size_t size)
{
    if (!has_hooks(v) || !size)
        return false;
    BoardDesc b;
    if (!read_board(v, &b) || !board_consistent(&b))
        return false;
    JsonWriter w;
    json_init(&w, buf, size);
    json_begin_object(&w);
    json_member_string(&w, "variant", v->name);
    json_member_string(&w, "title", v->title);
    board_frame(&w, &b);
    board_sides(&w);
    board_cells(&w, &b);
    board_links(&w, &b);
    board_pieces(&w, &b);
    board_regions_and_dice(&w, &b);
    json_end_object(&w);
    return json_ok(&w);
}

/* {"white": a, "black": b} when the game has the counter, else null. */
static void per_side_or_null(JsonWriter *w, bool has, const int v[2])
{
    if (has)
        per_side(w, v);
    else
        json_null(w);
}

static void position_pieces(JsonWriter *w, const BoardDesc *b, const PositionInfo *p)
{
    json_key(w, "pieces");
    json_begin_array(w);
    for (int i = 0; i < b->ncells; i++) {
        if (p->side[i] == -1)
            continue;
        json_begin_object(w);
        json_member_string(w, "cell", b->cells[i].name);
        json_member_string(w, "side", side_word[p->side[i]]);
        json_member_string(w, "kind", b->kinds[p->kind[i]].id);
        json_member_string(w, "label", b->kinds[p->kind[i]].label);
        json_end_object(w);
    }
    json_end_array(w);
}

/* "hands" to "passed": the counters the game has, null for the others. */
static void position_counters(JsonWriter *w, const PositionInfo *p)
{
    json_key(w, "hands");
    per_side_or_null(w, p->has & POSITION_HAS_HANDS, p->hand);
    json_key(w, "captures");
    per_side_or_null(w, p->has & POSITION_HAS_CAPTURES, p->captures);
    json_key(w, "count");
    per_side_or_null(w, p->has & POSITION_HAS_COUNT, p->count);
    json_key(w, "move_limit");
    if (p->has & POSITION_HAS_MOVE_LIMIT) {
        json_begin_object(w);
        json_key(w, "plies");
        json_int(w, p->plies);
        json_key(w, "limit");
        json_int(w, p->ply_limit);
        json_end_object(w);
    } else {
        json_null(w);
    }
    json_key(w, "passed");
    if (p->has & POSITION_HAS_PASS)
        json_bool(w, p->passed);
    else
        json_null(w);
}

/* "ply" to "margin": the game's history and how it stands. */
static void position_outcome(JsonWriter *w, const Game *g)
{
    int margin = 0;
    const char *reason = NULL;
    Result r = game_result(g, &margin, &reason);
    json_key(w, "ply");
    json_int(w, g->ply);
    json_key(w, "repetitions");
    int_or_null(w, g->variant->repetition_draws, game_repetitions(g));

    json_member_string(w, "result", game_result_word(r));
    json_key(w, "winner");
    side_or_null(w, r == RESULT_WHITE_WINS ? WHITE : r == RESULT_BLACK_WINS ? BLACK : -1);
    json_key(w, "reason");
    json_string_or_null(w, r != RESULT_NONE ? (reason && *reason ? reason : "game over") : NULL);
    json_key(w, "margin");
    int_or_null(w, r != RESULT_NONE && game_scores_margin(g), margin);
}

bool oracle_position_json(const Game *g, char *buf, size_t size)
{
    const Variant *v = g ? g->variant : NULL;
    if (!has_hooks(v) || !size)
        return false;
    BoardDesc b;
    if (!read_board(v, &b))
        return false;
    PositionInfo p;
    memset(&p, 0, sizeof p);
    memset(p.side, -1, sizeof p.side);
    p.roll = -1;
    v->describe_position(&g->pos, &p);
    for (int i = 0; i < b.ncells; i++)
        if (p.side[i] != -1 && ((p.side[i] != WHITE && p.side[i] != BLACK) ||
                                !valid_kind(&b, p.kind[i])))
            return false;
    if (p.roll != -1 && !valid_cell(&b, p.roll))
        return false;

    char fen[FEN_MAX];
    v->to_fen(&g->pos, fen);
    /* A roll is due only in a game that goes on. */
    bool chance = game_result(g, NULL, NULL) == RESULT_NONE && v->is_chance &&
                  v->is_chance(&g->pos);

    JsonWriter w;
    json_init(&w, buf, size);
    json_begin_object(&w);
    json_member_string(&w, "variant", v->name);
    json_member_string(&w, "fen", fen);
    json_member_string(&w, "turn", side_word[v->side_to_move(&g->pos) == BLACK]);
    json_key(&w, "chance");
    json_bool(&w, chance);
    json_key(&w, "roll");
    json_string_or_null(&w, p.roll >= 0 ? b.cells[p.roll].name : NULL);
    json_key(&w, "phase");
    json_string_or_null(&w, p.phase);
    position_pieces(&w, &b, &p);
    position_counters(&w, &p);
    position_outcome(&w, g);
    json_end_object(&w);
    return json_ok(&w);
}

/* What describe_move says, checked against the board. */
static bool read_move(const Variant *v, const BoardDesc *b, const Position *pos, Move m,
                      MoveInfo *mi)
{
    memset(mi, 0, sizeof *mi);
    mi->from = mi->to = mi->piece = mi->promotion = mi->roll = -1;
    v->describe_move(pos, m, mi);
    if (!oracle_move_kind_word(mi->kind))
        return false;
    if ((mi->from != -1 && !valid_cell(b, mi->from)) || (mi->to != -1 && !valid_cell(b, mi->to)) ||
        (mi->roll != -1 && !valid_cell(b, mi->roll)) ||
        (mi->piece != -1 && !valid_kind(b, mi->piece)) ||
        (mi->promotion != -1 && !valid_kind(b, mi->promotion)))
        return false;
    if (mi->path_length < 0 || mi->path_length > MOVE_MAX_PATH || mi->ncaptures < 0 ||
        mi->ncaptures > BOARD_MAX_CELLS)
        return false;
    for (int i = 0; i < mi->path_length; i++)
        if (!valid_cell(b, mi->path[i]))
            return false;
    for (int i = 0; i < mi->ncaptures; i++)
        if (!valid_cell(b, mi->captures[i]))
            return false;
    return true;
}

static const char *cell_name(const BoardDesc *b, int cell)
{
    return cell >= 0 ? b->cells[cell].name : NULL;
}

bool oracle_move_json(const Game *g, Move m, char *buf, size_t size)
{
    const Variant *v = g ? g->variant : NULL;
    if (!has_hooks(v) || !size || m == MOVE_NONE)
        return false;
    BoardDesc b;
    MoveInfo mi;
    if (!read_board(v, &b) || !read_move(v, &b, &g->pos, m, &mi))
        return false;
    char text[MOVE_STR_MAX];
    v->move_str(&g->pos, m, text);

    JsonWriter w;
    json_init(&w, buf, size);
    json_begin_object(&w);
    json_member_string(&w, "move", text);
    json_member_string(&w, "kind", oracle_move_kind_word(mi.kind));
    json_member_string(&w, "side", side_word[v->side_to_move(&g->pos) == BLACK]);
    json_key(&w, "piece");
    kind_or_null(&w, &b, mi.piece);
    json_key(&w, "from");
    json_string_or_null(&w, cell_name(&b, mi.from));
    json_key(&w, "to");
    json_string_or_null(&w, cell_name(&b, mi.to));
    json_key(&w, "path");
    json_begin_array(&w);
    for (int i = 0; i < mi.path_length; i++)
        json_string(&w, b.cells[mi.path[i]].name);
    json_end_array(&w);
    json_key(&w, "captures");
    json_begin_array(&w);
    for (int i = 0; i < mi.ncaptures; i++)
        json_string(&w, b.cells[mi.captures[i]].name);
    json_end_array(&w);
    json_key(&w, "promotion");
    kind_or_null(&w, &b, mi.promotion);
    json_key(&w, "roll");
    json_string_or_null(&w, cell_name(&b, mi.roll));
    json_end_object(&w);
    return json_ok(&w);
}

bool oracle_legal_json(const Game *g, char *buf, size_t size)
{
    const Variant *v = g ? g->variant : NULL;
    if (!has_hooks(v) || size < 3)
        return false;
    Move moves[MAX_MOVES];
    int n = game_result(g, NULL, NULL) == RESULT_NONE ? v->generate(&g->pos, moves) : 0;
    size_t len = 0;
    buf[len++] = '[';
    for (int i = 0; i < n; i++) {
        if (i)
            buf[len++] = ',';
        if (len + 2 >= size || !oracle_move_json(g, moves[i], buf + len, size - len - 1))
            return false;
        len += strlen(buf + len);
    }
    if (len + 2 > size)
        return false;
    buf[len++] = ']';
    buf[len] = '\0';
    return true;
}

/* At most 40 characters of text, unprintable bytes as '?', for an error. */
static const char *printable(const char *text, char *out, size_t size)
{
    size_t n = 0;
    for (const unsigned char *c = (const unsigned char *)text; *c && n + 1 < size && n < 40; c++)
        out[n++] = *c >= 0x20 && *c < 0x7f ? (char)*c : '?';
    out[n] = '\0';
    return out;
}

bool oracle_move_text_json(const Game *g, const char *text, char *buf, size_t size,
                           char *err, size_t errlen)
{
    char shown[48];
    const Variant *v = g ? g->variant : NULL;
    if (!has_hooks(v)) {
        snprintf(err, errlen, "this game does not describe its moves");
        return false;
    }
    if (!text || !*text) {
        snprintf(err, errlen, "query move needs a move");
        return false;
    }
    if (game_result(g, NULL, NULL) != RESULT_NONE) {
        snprintf(err, errlen, "move '%s' after the game has ended",
                 printable(text, shown, sizeof shown));
        return false;
    }
    Move m = v->parse_move(&g->pos, text);
    if (m == MOVE_NONE) {
        snprintf(err, errlen, "illegal or unparsable move '%s'",
                 printable(text, shown, sizeof shown));
        return false;
    }
    if (!oracle_move_json(g, m, buf, size)) {
        snprintf(err, errlen, "the move could not be described");
        return false;
    }
    return true;
}
