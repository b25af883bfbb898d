/* check_oracle_json.c - the engine as a rules oracle (engine/oracle.c, json.c and
 * the describe_* hooks of every game): the JSON of `query board`,
 * `query position` and `query move`.
 *
 * Every object is parsed back with the strict parser of json_check.c and
 * checked by oracle_test.c as a GUI that knows no rule would use it: the
 * pieces against each game's FEN (decoded independently), every described
 * move against the FEN before and after it, the counting sums against the
 * goals the board names.  Then each game's board against doc/rules.md (lines,
 * adjacency, coordinates, targets, pyramids, palaces, dice), and hand-made
 * positions for every kind of move and every way a game ends. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "json.h"
#include "json_check.h"
#include "oracle.h"
#include "oracle_test.h"
#include "util.h"
#include "variants.h"

static char json_text[ORACLE_JSON_MAX];

/* Parse text that must be one line of valid JSON. */
static JsonValue *parse_line(const char *text)
{
    char err[128];
    ck_assert_msg(strchr(text, '\n') == NULL && strchr(text, '\r') == NULL,
                  "JSON is not on one line");
    JsonValue *v = json_check_parse(text, err, sizeof err);
    ck_assert_msg(v != NULL, "invalid JSON (%s): %.300s", err, text);
    return v;
}

static const Variant *variant_named(const char *name)
{
    const Variant *v = variants_find(name);
    ck_assert_ptr_nonnull(v);
    return v;
}

static void load_board(const Variant *v, OtBoard *b)
{
    char err[256];
    ck_assert_msg(oracle_board_json(v, json_text, sizeof json_text), "no board for %s", v->name);
    JsonValue *root = parse_line(json_text);
    ck_assert_msg(ot_board_read(root, b, err, sizeof err), "%s: %s", v->name, err);
    json_check_free(root);
}

static void game_at(Game *g, const Variant *v, const char *fen)
{
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    game_init(g, v, &cfg);
    if (fen) {
        char err[128];
        ck_assert_msg(game_set_fen(g, fen, err, sizeof err), "FEN %s: %s", fen, err);
    }
}

/* The position's JSON, checked generically and against the game's own
 * functions; the decoded FEN in *fen. */
static JsonValue *position_checked(const Game *g, const OtBoard *b, OtFen *fen)
{
    char err[256];
    const Variant *v = g->variant;
    ck_assert(oracle_position_json(g, json_text, sizeof json_text));
    JsonValue *pos = parse_line(json_text);
    ck_assert_msg(ot_position_check(b, pos, fen, err, sizeof err), "%s: %s", v->name, err);
    char fen_text[FEN_MAX];
    v->to_fen(&g->pos, fen_text);
    ck_assert_str_eq(json_check_string(pos, "fen"), fen_text);
    ck_assert_int_eq((int)json_check_get(pos, "ply")->number, g->ply);
    const JsonValue *rep = json_check_get(pos, "repetitions");
    if (v->repetition_draws)
        ck_assert_int_eq((int)rep->number, game_repetitions(g));
    else
        ck_assert(rep->type == JSON_NULL);
    int margin = -1;
    const char *reason = NULL;
    Result r = game_result(g, &margin, &reason);
    ck_assert_str_eq(json_check_string(pos, "result"), game_result_word(r));
    /* A roll is due when the game goes on at a chance node. */
    ck_assert(json_check_get(pos, "chance")->boolean ==
              (r == RESULT_NONE && v->is_chance && v->is_chance(&g->pos)));
    const JsonValue *m = json_check_get(pos, "margin");
    if (r != RESULT_NONE) {
        ck_assert_str_eq(json_check_string(pos, "reason"), reason);
        if (game_scores_margin(g))
            ck_assert_int_eq((int)m->number, margin);
        else
            ck_assert(m->type == JSON_NULL);
    }
    return pos;
}

/* The JSON of the legal move m, checked against the move's text, the
 * position after it and `query move <text>`. */
static JsonValue *move_checked(const Game *g, const OtBoard *b, const OtFen *before, Move m,
                               int *ncaptured)
{
    char err[256], text[MOVE_STR_MAX];
    const Variant *v = g->variant;
    v->move_str(&g->pos, m, text);
    ck_assert_msg(oracle_move_json(g, m, json_text, sizeof json_text), "%s: move %s", v->name,
                  text);
    JsonValue *mv = parse_line(json_text);
    ck_assert_str_eq(json_check_string(mv, "move"), text);
    ck_assert(v->parse_move(&g->pos, text) == m);
    static char again[ORACLE_JSON_MAX];
    ck_assert(oracle_move_text_json(g, text, again, sizeof again, err, sizeof err));
    ck_assert_str_eq(again, json_text);

    Position child;
    v->make(&g->pos, m, &child);
    char fen[FEN_MAX];
    v->to_fen(&child, fen);
    OtFen after;
    ck_assert_msg(ot_fen_decode(b, &before->shape, fen, &after, err, sizeof err), "%s: %s", fen,
                  err);
    ck_assert_msg(ot_move_check(b, mv, before, &after, ncaptured, err, sizeof err), "%s: %s",
                  v->name, err);
    return mv;
}

/* `query legal`: the array of every legal move's object, in generate()
 * order, exactly the objects oracle_move_json writes. */
static void check_legal_array(const Game *g)
{
    static char all[ORACLE_LEGAL_JSON_MAX], one[ORACLE_JSON_MAX], expect[ORACLE_LEGAL_JSON_MAX];
    ck_assert(oracle_legal_json(g, all, sizeof all));
    Move list[MAX_MOVES];
    int n = game_result(g, NULL, NULL) == RESULT_NONE ? g->variant->generate(&g->pos, list) : 0;
    size_t len = 0;
    expect[len++] = '[';
    for (int i = 0; i < n; i++) {
        ck_assert(oracle_move_json(g, list[i], one, sizeof one));
        len += (size_t)snprintf(expect + len, sizeof expect - len, "%s%s", i ? "," : "", one);
    }
    snprintf(expect + len, sizeof expect - len, "]");
    ck_assert_str_eq(all, expect);
    JsonValue *v = parse_line(all);
    ck_assert_int_eq(v->count, n);
    json_check_free(v);
}

/* ================================================================ writer */

START_TEST(test_writer_escapes_strings)
{
    char buf[256];
    JsonWriter w;
    json_init(&w, buf, sizeof buf);
    json_begin_array(&w);
    json_string(&w, "a\"b\\c\n\t\x01\x1f/");
    json_string(&w, "caf\xc3\xa9");         /* valid UTF-8 stays */
    json_string(&w, "bad\xff\xc3");          /* invalid bytes become U+FFFD */
    json_string(&w, "\xed\xa0\x80");         /* an encoded surrogate is not UTF-8 */
    json_string_or_null(&w, NULL);
    json_end_array(&w);
    ck_assert(json_ok(&w));
    ck_assert_str_eq(buf, "[\"a\\\"b\\\\c\\n\\t\\u0001\\u001f/\",\"caf\xc3\xa9\","
                          "\"bad\\ufffd\\ufffd\",\"\\ufffd\\ufffd\\ufffd\",null]");
    JsonValue *v = parse_line(buf);
    ck_assert_str_eq(v->items[0]->string, "a\"b\\c\n\t\x01\x1f/");
    ck_assert_str_eq(v->items[2]->string, "bad\xef\xbf\xbd\xef\xbf\xbd");
    json_check_free(v);
}
END_TEST

START_TEST(test_writer_numbers_and_nesting)
{
    char buf[256];
    JsonWriter w;
    json_init(&w, buf, sizeof buf);
    json_begin_object(&w);
    json_key(&w, "a");
    json_double(&w, 0.5, 4);
    json_key(&w, "b");
    json_double(&w, 2.0, 4);
    json_key(&w, "c");
    json_double(&w, -0.00001, 4);
    json_key(&w, "d");
    json_double(&w, NAN, 4);
    json_key(&w, "e");
    json_int(&w, -42);
    json_key(&w, "f");
    json_begin_array(&w);
    json_bool(&w, true);
    json_begin_object(&w);
    json_end_object(&w);
    json_begin_array(&w);
    json_end_array(&w);
    json_end_array(&w);
    json_end_object(&w);
    ck_assert(json_ok(&w));
    ck_assert_str_eq(buf, "{\"a\":0.5,\"b\":2,\"c\":0,\"d\":null,\"e\":-42,\"f\":[true,{},[]]}");
    json_check_free(parse_line(buf));
}
END_TEST

START_TEST(test_writer_reports_overflow_and_bad_nesting)
{
    char buf[8];
    JsonWriter w;
    json_init(&w, buf, sizeof buf);
    json_begin_array(&w);
    json_string(&w, "too long for eight bytes");
    json_end_array(&w);
    ck_assert(!json_ok(&w));
    ck_assert(strlen(buf) < sizeof buf);

    char big[64];
    json_init(&w, big, sizeof big);
    json_begin_object(&w);
    ck_assert(!json_ok(&w)); /* not closed */
    json_key(&w, "k");
    json_end_object(&w); /* a key without a value */
    ck_assert(!json_ok(&w));
    json_init(&w, big, sizeof big);
    json_end_array(&w); /* nothing open */
    ck_assert(!json_ok(&w));
}
END_TEST

/* ================================================================ parser */

/* The tests' parser must reject what is not JSON, or the tests above prove
 * nothing. */
START_TEST(test_parser_rejects_what_is_not_json)
{
    static const char *const bad[] = {
        "", " ", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[.5]", "[1e]", "[+1]", "[-]",
        "{\"a\" 1}", "{a:1}", "['a']", "[\"a\nb\"]", "[\"\\x\"]", "[\"\\u12\"]",
        "[\"\\ud800\"]", "[\"\\udc00\"]", "[\"\xff\"]", "[\"\xc0\xaf\"]", "[true false]",
        "[nul]", "[1] [2]", "{\"a\":1,\"a\":2}", "[NaN]", "[Infinity]", "\"abc", "[1", "{",
        "[\"\xed\xa0\x80\"]", "[1]x", "\xef\xbb\xbf[1]",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char err[64];
        JsonValue *v = json_check_parse(bad[i], err, sizeof err);
        ck_assert_msg(v == NULL, "accepted: %s", bad[i]);
    }
}
END_TEST

START_TEST(test_parser_reads_json)
{
    char err[64];
    JsonValue *v = json_check_parse(
        " {\"a\": [1, -0.5e2, 0, 3E+1], \"b\": {\"c\": null, \"d\": false},"
        " \"e\": \"\\u00e9\\ud83d\\ude00\\/\"}\r\n",
        err, sizeof err);
    ck_assert_msg(v != NULL, "%s", err);
    const JsonValue *a = json_check_get(v, "a");
    ck_assert_int_eq(a->count, 4);
    ck_assert(a->items[1]->number == -50.0);
    ck_assert(a->items[3]->number == 30.0);
    ck_assert(json_check_get(json_check_get(v, "b"), "c")->type == JSON_NULL);
    ck_assert_str_eq(json_check_string(v, "e"), "\xc3\xa9\xf0\x9f\x98\x80/");
    json_check_free(v);
}
END_TEST

/* ================================================= every variant, generic */

/* The board of every game: valid JSON that ot_board_read accepts (unique
 * names, cells inside the drawing, a symmetric adjacency without repeats,
 * lines along it, square names equal to their edge labels, one cell per
 * roll of the dice), and the same cells as the game's own hook. */
START_TEST(test_every_board_is_complete)
{
    const Variant *v = variants_get(_i);
    OtBoard b;
    load_board(v, &b);
    BoardDesc desc;
    memset(&desc, 0, sizeof desc);
    v->describe_board(&desc);
    ck_assert_int_eq(b.ncells, desc.ncells);
    for (int i = 0; i < b.ncells; i++) {
        ck_assert_str_eq(b.name[i], desc.cells[i].name);
        for (int j = 0; j < b.ncells; j++) {
            bool hook = desc.cells[i].neighbours >> j & 1;
            ck_assert(hook == (bool)(desc.cells[j].neighbours >> i & 1)); /* symmetric */
            ck_assert(hook == b.adjacent[i][j]);
        }
    }
    ck_assert_str_eq(b.variant, v->name);
}
END_TEST

/* Random games from the start, to their end: every position's JSON against
 * its FEN, every legal move's JSON against the FEN before and after it. */
START_TEST(test_random_games_agree_with_the_fen)
{
    const Variant *v = variants_get(_i);
    OtBoard b;
    load_board(v, &b);
    uint64_t rng = 0x0AC1E5EEDULL + (uint64_t)_i;
    long positions = 0, moves = 0, captures = 0, ended = 0, removals = 0;
    for (int game = 0; game < 12; game++) {
        Game g;
        GameConfig cfg = {game % 3 == 0 ? 20 : DEFAULT_MOVE_LIMIT}; /* short Salto games too */
        game_init(&g, v, &cfg);
        int pieces_before = -1;
        for (int ply = 0; ply < 1500; ply++) {
            OtFen fen;
            json_check_free(position_checked(&g, &b, &fen));
            positions++;
            int pieces = 0;
            for (int c = 0; c < b.ncells; c++)
                pieces += fen.cell[c].side >= 0;
            removals += pieces_before > pieces;
            pieces_before = pieces;
            if (game_result(&g, NULL, NULL) != RESULT_NONE) {
                char err[128];
                check_legal_array(&g); /* [] */
                ck_assert(!oracle_move_text_json(&g, "0000", json_text, sizeof json_text, err,
                                                 sizeof err));
                ended++;
                break;
            }
            check_legal_array(&g);
            Move list[MAX_MOVES];
            int n = v->generate(&g.pos, list);
            ck_assert_int_gt(n, 0);
            for (int i = 0; i < n; i++) {
                int caps = 0;
                json_check_free(move_checked(&g, &b, &fen, list[i], &caps));
                moves++;
                captures += caps;
            }
            game_play(&g, list[util_random_below(&rng, (uint64_t)n)]);
        }
        game_free(&g);
    }
    ck_assert_int_eq(ended, 12);
    ck_assert_int_gt(moves, positions);
    /* pieces left the board in a game: its moves said which they took */
    if (removals > 0)
        ck_assert_int_gt(captures, 0);
    printf("%s: %ld positions, %ld moves (%ld captures) checked in 12 random games\n", v->name,
           positions, moves, captures);
}
END_TEST

/* The same from every position of the game's perft table (kings, chains,
 * passes, late phases), a few random plies deep. */
START_TEST(test_perft_positions_agree_with_the_fen)
{
    const Variant *v = variants_get(_i);
    const char *src = getenv("SIGIL_SRCDIR");
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/perft/%s.txt", src ? src : "..", v->name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s (SIGIL_SRCDIR unset?)", path);
    OtBoard b;
    load_board(v, &b);
    uint64_t rng = 99 + (uint64_t)_i;
    char line[1024];
    int fens = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = '\0';
        Game g;
        game_at(&g, v, strcmp(line, "startpos") == 0 ? NULL : line);
        for (int ply = 0; ply < 6; ply++) {
            OtFen fen;
            json_check_free(position_checked(&g, &b, &fen));
            Move list[MAX_MOVES];
            int n = game_result(&g, NULL, NULL) == RESULT_NONE ? v->generate(&g.pos, list) : 0;
            if (n == 0)
                break;
            for (int i = 0; i < n; i++)
                json_check_free(move_checked(&g, &b, &fen, list[i], NULL));
            game_play(&g, list[util_random_below(&rng, (uint64_t)n)]);
        }
        game_free(&g);
        fens++;
    }
    fclose(f);
    ck_assert_int_gt(fens, 0);
}
END_TEST

/* Every cell name is what the notation writes: in Lupta each name alone is
 * a placement at the start, in Alexander a roll; in the others the names
 * make up the legal moves (checked move by move above). */
START_TEST(test_cell_names_are_the_notation)
{
    const char *names[] = {"lupta", "alexander"};
    for (int i = 0; i < 2; i++) {
        const Variant *v = variant_named(names[i]);
        OtBoard b;
        load_board(v, &b);
        Position start;
        GameConfig cfg = {DEFAULT_MOVE_LIMIT};
        v->startpos(&start, &cfg);
        for (int c = 0; c < b.ncells; c++)
            ck_assert_msg(v->parse_move(&start, b.name[c]) != MOVE_NONE, "%s: %s", names[i],
                          b.name[c]);
    }
    /* Solomon: every step of a king on each point (a white man and the
     * black king stand apart from it, so no capture is due). */
    const Variant *v = variant_named("solomon");
    OtBoard b;
    load_board(v, &b);
    for (int c = 0; c < b.ncells; c++) {
        int other = -1, man = -1;
        for (int q = 0; q < b.ncells && man < 0; q++) {
            if (q == c || b.adjacent[c][q])
                continue;
            if (other < 0)
                other = q;
            else if (!b.adjacent[other][q] && q != 0)
                man = q;
        }
        ck_assert(other >= 0 && man >= 0);
        char fen[64], move[16];
        snprintf(fen, sizeof fen, "W:WK%s,%s:BK%s", b.name[c], b.name[man], b.name[other]);
        if (c > man) /* the FEN lists points in any order; keep it simple */
            snprintf(fen, sizeof fen, "W:W%s,K%s:BK%s", b.name[man], b.name[c], b.name[other]);
        Game g;
        game_at(&g, v, fen);
        for (int d = 0; d < b.ncells; d++)
            if (b.adjacent[c][d] && d != other && d != man) {
                snprintf(move, sizeof move, "%s-%s", b.name[c], b.name[d]);
                ck_assert_msg(v->parse_move(&g.pos, move) != MOVE_NONE, "%s in %s", move, fen);
            }
        game_free(&g);
    }
}
END_TEST

/* ================================================== boards by the rule book */

static int cell_of(const OtBoard *b, const char *name)
{
    int c = ot_cell(b, name);
    ck_assert_msg(c >= 0, "no cell %s", name);
    return c;
}

/* The region with this role, side and kind (NULL: any), or -1. */
static int region_of(const OtBoard *b, const char *role, int side, const char *kind)
{
    for (int r = 0; r < b->nregions; r++)
        if (strcmp(b->region_role[r], role) == 0 && b->region_side[r] == side &&
            (!kind || b->region_kind[r] == ot_kind(b, kind)))
            return r;
    return -1;
}

static void assert_region_cells(const OtBoard *b, int r, const char *cells)
{
    ck_assert_int_ge(r, 0);
    bool want[OT_MAX_CELLS] = {false};
    char list[256];
    snprintf(list, sizeof list, "%s", cells);
    for (char *t = strtok(list, " "); t; t = strtok(NULL, " "))
        want[cell_of(b, t)] = true;
    for (int c = 0; c < b->ncells; c++)
        ck_assert_msg(b->region_cell[r][c] == want[c], "region %d, cell %s", r, b->name[c]);
}

START_TEST(test_solomon_board_is_the_seal)
{
    static const int lines[9][5] = {
        {2, 3, 4, 5, 6},   {14, 15, 16, 17, 18}, {1, 3, 7, 9, 14},
        {1, 5, 8, 11, 18}, {19, 15, 12, 9, 2},   {19, 17, 13, 11, 6},
        {1, 4, 10, 16, 19}, {6, 8, 10, 12, 14},  {2, 7, 10, 13, 18},
    };
    /* doc/rules.md, Solomon: tips at distance 1, y upwards. */
    static const double xy[19][2] = {
        {0, 1},         {-0.866, 0.5},  {-0.289, 0.5}, {0, 0.5},     {0.289, 0.5},
        {0.866, 0.5},   {-0.433, 0.25}, {0.433, 0.25}, {-0.577, 0},  {0, 0},
        {0.577, 0},     {-0.433, -0.25}, {0.433, -0.25}, {-0.866, -0.5}, {-0.289, -0.5},
        {0, -0.5},      {0.289, -0.5},  {0.866, -0.5}, {0, -1},
    };
    for (int rules = 0; rules < 2; rules++) {
        OtBoard b;
        load_board(variant_named(rules ? "solomon-chain" : "solomon"), &b);
        ck_assert(!b.squares);
        ck_assert_int_eq(b.ncells, 19);
        for (int i = 0; i < 19; i++) {
            char name[4];
            snprintf(name, sizeof name, "%d", i + 1);
            ck_assert_str_eq(b.name[i], name);
            ck_assert(fabs(b.x[i] - (1 + xy[i][0])) < 1e-3);
            ck_assert(fabs(b.y[i] - (1 - xy[i][1])) < 1e-3);
        }
        ck_assert_int_eq(b.nlines, 9);
        bool adjacent[19][19] = {{false}};
        for (int l = 0; l < 9; l++) {
            ck_assert_int_eq(b.line_length[l], 5);
            for (int i = 0; i < 5; i++) {
                ck_assert_int_eq(b.line[l][i], lines[l][i] - 1);
                if (i)
                    adjacent[lines[l][i] - 1][lines[l][i - 1] - 1] =
                        adjacent[lines[l][i - 1] - 1][lines[l][i] - 1] = true;
            }
        }
        ck_assert_int_eq(b.nadjacent, 36);
        for (int i = 0; i < 19; i++)
            for (int j = 0; j < 19; j++)
                ck_assert(b.adjacent[i][j] == adjacent[i][j]);
        ck_assert_int_eq(b.nkinds, 2);
        ck_assert_str_eq(b.kind_fen[ot_kind(&b, "man")][0], "");
        ck_assert_str_eq(b.kind_fen[ot_kind(&b, "king")][1], "K");
        ck_assert_int_eq(b.nregions, 2);
        assert_region_cells(&b, region_of(&b, "palace", 0, "man"), "1");  /* White crowns on 1 */
        assert_region_cells(&b, region_of(&b, "palace", 1, "man"), "19");
        ck_assert_int_eq(b.ndice, 0);
    }
}
END_TEST

/* Square boards: adjacency is exactly the diagonal (Salto, Pyramid) or the
 * orthogonal (Lupta, Alexander) neighbourhood of the drawing. */
static void assert_grid_adjacency(const OtBoard *b, bool diagonal)
{
    for (int i = 0; i < b->ncells; i++)
        for (int j = 0; j < b->ncells; j++) {
            double dx = fabs(b->x[i] - b->x[j]), dy = fabs(b->y[i] - b->y[j]);
            bool want = diagonal ? dx == 1 && dy == 1 : dx + dy == 1;
            ck_assert_msg(b->adjacent[i][j] == want, "%s %s", b->name[i], b->name[j]);
        }
}

START_TEST(test_salto_board_and_targets)
{
    OtBoard b;
    load_board(variant_named("salto"), &b);
    ck_assert(b.squares);
    ck_assert_int_eq(b.columns, 10);
    ck_assert_int_eq(b.ncells, 50);
    for (int c = 0; c < b.ncells; c++) { /* dark squares only: file + rank even, a = 1 */
        int file = b.name[c][0] - 'a' + 1, rank = atoi(b.name[c] + 1);
        ck_assert_int_eq((file + rank) % 2, 0);
    }
    ck_assert_str_eq(b.name[cell_of(&b, "j10")], "j10");
    assert_grid_adjacency(&b, true);
    ck_assert_int_eq(b.nkinds, 15);
    ck_assert_int_eq(b.nregions, 30);
    static const char *const kinds[3] = {"star", "moon", "sun"};
    static const char *const white_targets[3][5] = {
        {"b8", "d8", "f8", "h8", "j8"}, {"a9", "c9", "e9", "g9", "i9"}, {"b10", "d10", "f10", "h10", "j10"}};
    static const char *const black_targets[3][5] = {
        {"i3", "g3", "e3", "c3", "a3"}, {"j2", "h2", "f2", "d2", "b2"}, {"i1", "g1", "e1", "c1", "a1"}};
    static const char fen_letter[3] = {'S', 'M', 'N'};
    for (int k = 0; k < 3; k++)
        for (int n = 1; n <= 5; n++) {
            char id[16], fen[4];
            snprintf(id, sizeof id, "%s%d", kinds[k], n);
            int kind = ot_kind(&b, id);
            ck_assert_int_ge(kind, 0);
            snprintf(fen, sizeof fen, "%c%d", fen_letter[k], n);
            ck_assert_str_eq(b.kind_fen[kind][0], fen);
            fen[0] = (char)(fen[0] - 'A' + 'a');
            ck_assert_str_eq(b.kind_fen[kind][1], fen);
            assert_region_cells(&b, region_of(&b, "target", 0, id), white_targets[k][n - 1]);
            assert_region_cells(&b, region_of(&b, "target", 1, id), black_targets[k][n - 1]);
        }
    /* The start: each side needs 105 steps (doc/rules.md, Salto). */
    Game g;
    game_at(&g, variant_named("salto"), NULL);
    OtFen fen;
    JsonValue *pos = position_checked(&g, &b, &fen);
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "count"), "white")->number, 105);
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "count"), "black")->number, 105);
    const JsonValue *limit = json_check_get(pos, "move_limit");
    ck_assert_int_eq((int)json_check_get(limit, "plies")->number, 0);
    ck_assert_int_eq((int)json_check_get(limit, "limit")->number, 2 * DEFAULT_MOVE_LIMIT);
    ck_assert(!json_check_get(pos, "passed")->boolean);
    const JsonValue *first = json_check_at(json_check_get(pos, "pieces"), 0);
    ck_assert_str_eq(json_check_string(first, "cell"), "a1");
    ck_assert_str_eq(json_check_string(first, "kind"), "star1");
    ck_assert_str_eq(json_check_string(first, "label"), "star 1");
    json_check_free(pos);
    game_free(&g);
}
END_TEST

START_TEST(test_pyramid_board_and_pyramids)
{
    OtBoard b;
    load_board(variant_named("pyramid"), &b);
    ck_assert(b.squares);
    ck_assert_int_eq(b.ncells, 32);
    assert_grid_adjacency(&b, true);
    ck_assert_int_eq(b.nregions, 2);
    assert_region_cells(&b, region_of(&b, "pyramid", 0, NULL), "h8 f8 d8 b8 g7 e7 c7 f6 d6 e5");
    assert_region_cells(&b, region_of(&b, "pyramid", 1, NULL), "a1 c1 e1 g1 b2 d2 f2 c3 e3 d4");
    ck_assert_str_eq(b.kind_fen[0][0], "W");
    ck_assert_str_eq(b.kind_fen[0][1], "B");
}
END_TEST

START_TEST(test_lupta_and_alexander_boards)
{
    OtBoard b;
    load_board(variant_named("lupta"), &b);
    ck_assert_int_eq(b.columns, 6);
    ck_assert_int_eq(b.rows, 5);
    ck_assert_int_eq(b.ncells, 30);
    assert_grid_adjacency(&b, false);
    ck_assert_int_eq(b.nregions, 0);
    ck_assert_int_eq(b.ndice, 0);

    load_board(variant_named("alexander"), &b);
    ck_assert_int_eq(b.columns, 6);
    ck_assert_int_eq(b.rows, 6);
    ck_assert_int_eq(b.ncells, 36);
    assert_grid_adjacency(&b, false);
    ck_assert_int_eq(b.ndice, 2);
    /* The Latin die gives the file, the Arabic die the rank: c4 is III, 4. */
    ck_assert(oracle_board_json(variant_named("alexander"), json_text, sizeof json_text));
    JsonValue *root = parse_line(json_text);
    const JsonValue *cells = json_check_get(root, "cells");
    const JsonValue *c4 = NULL;
    for (int i = 0; i < cells->count; i++)
        if (strcmp(json_check_string(cells->items[i], "name"), "c4") == 0)
            c4 = cells->items[i];
    ck_assert_ptr_nonnull(c4);
    ck_assert_str_eq(json_check_get(c4, "dice")->items[0]->string, "III");
    ck_assert_str_eq(json_check_get(c4, "dice")->items[1]->string, "4");
    const JsonValue *latin = json_check_at(json_check_get(root, "dice"), 0);
    ck_assert_str_eq(json_check_string(latin, "name"), "Latin die");
    ck_assert_str_eq(json_check_get(latin, "faces")->items[5]->string, "VI");
    json_check_free(root);
}
END_TEST

/* ======================================================= moves by hand */

/* The JSON of the move `text` in game g (which must be legal). */
static JsonValue *move_json(const Game *g, const char *text)
{
    char err[128];
    ck_assert_msg(oracle_move_text_json(g, text, json_text, sizeof json_text, err, sizeof err),
                  "%s: %s", text, err);
    return parse_line(json_text);
}

/* "a b c" as the names of a JSON array. */
static void assert_names(const JsonValue *array, const char *names)
{
    char got[256] = "";
    size_t n = 0;
    for (int i = 0; i < array->count; i++)
        n += (size_t)snprintf(got + n, sizeof got - n, "%s%s", i ? " " : "", array->items[i]->string);
    ck_assert_str_eq(got, names);
}

static void assert_move(const Game *g, const char *text, const char *canonical, const char *kind,
                        const char *path, const char *captures, const char *promotion)
{
    JsonValue *mv = move_json(g, text);
    ck_assert_str_eq(json_check_string(mv, "move"), canonical);
    ck_assert_str_eq(json_check_string(mv, "kind"), kind);
    assert_names(json_check_get(mv, "path"), path);
    assert_names(json_check_get(mv, "captures"), captures);
    if (promotion)
        ck_assert_str_eq(json_check_string(mv, "promotion"), promotion);
    else
        ck_assert(json_check_get(mv, "promotion")->type == JSON_NULL);
    /* And it agrees with the FEN before and after. */
    OtBoard b;
    load_board(g->variant, &b);
    OtFen before;
    json_check_free(position_checked(g, &b, &before));
    json_check_free(move_checked(g, &b, &before, g->variant->parse_move(&g->pos, canonical), NULL));
    json_check_free(mv);
}

/* A man jumps 14 over 12 to 10, then over 4 onto Black's palace 1 and is
 * crowned, which ends the chain; in `solomon` only the first jump. */
START_TEST(test_solomon_chain_with_crowning)
{
    Game g;
    game_at(&g, variant_named("solomon-chain"), "W:W14:B4,12");
    assert_move(&g, "14x10x1", "14x10x1", "chain", "14 10 1", "12 4", "king");
    assert_move(&g, "14x1", "14x10x1", "chain", "14 10 1", "12 4", "king"); /* from x to */
    game_free(&g);
    game_at(&g, variant_named("solomon"), "W:W14:B4,12");
    assert_move(&g, "14x10", "14x10", "jump", "14 10", "12", NULL);
    game_free(&g);
    game_at(&g, variant_named("solomon"), NULL);
    assert_move(&g, "16-10", "16-10", "step", "16 10", "", NULL);
    game_free(&g);
}
END_TEST

/* c1 reaches c5 by c1-a3-c5 and by c1-e3-c5: the representative has the
 * fewest jumps and prefers the jump toward file a. */
START_TEST(test_pyramid_chain_has_one_representative_path)
{
    Game g;
    game_at(&g, variant_named("pyramid"), "1B1B1B1B/B1B1B1B1/1B1B4/8/1W1W4/8/1W1W1W1W/W1W1W1W1 w -");
    assert_move(&g, "c1c5", "c1c5", "chain", "c1 a3 c5", "", NULL);
    assert_move(&g, "c1e3", "c1e3", "jump", "c1 e3", "", NULL);
    assert_move(&g, "b4a5", "b4a5", "step", "b4 a5", "", NULL);
    game_free(&g);
}
END_TEST

START_TEST(test_lupta_placement_and_removal)
{
    Game g;
    game_at(&g, variant_named("lupta"), NULL);
    assert_move(&g, "c3", "c3", "placement", "c3", "", NULL);
    game_free(&g);
    game_at(&g, variant_named("lupta"), "BBB.../....../....../....../WW.W.. w 0 0");
    assert_move(&g, "d1c1xb5", "d1c1xb5", "removal", "d1 c1", "b5", NULL);
    assert_move(&g, "d1e1", "d1e1", "step", "d1 e1", "", NULL);
    char err[128];
    ck_assert(!oracle_move_text_json(&g, "d1c1", json_text, sizeof json_text, err, sizeof err));
    game_free(&g);
}
END_TEST

START_TEST(test_alexander_roll_entry_and_flight)
{
    Game g;
    game_at(&g, variant_named("alexander"), NULL);
    assert_move(&g, "c4", "c4", "roll", "", "", NULL);
    JsonValue *mv = move_json(&g, "c4");
    ck_assert_str_eq(json_check_string(mv, "roll"), "c4");
    ck_assert(json_check_get(mv, "from")->type == JSON_NULL);
    json_check_free(mv);
    game_free(&g);
    game_at(&g, variant_named("alexander"), "bb4/6/6/6/6/w5 w c3 0 0");
    assert_move(&g, "a1c3", "a1c3", "entry", "a1 c3", "", NULL);
    game_free(&g);
    game_at(&g, variant_named("alexander"), "b5/6/6/6/6/w5 w a6 0 0");
    assert_move(&g, "a1a6", "a1a6", "entry", "a1 a6", "a6", NULL);
    game_free(&g);
    game_at(&g, variant_named("alexander"), "b5/6/6/6/6/w5 w a1 2 1");
    assert_move(&g, "a1a6", "a1a6", "flight", "a1 a6", "a6", NULL);
    game_free(&g);
}
END_TEST

START_TEST(test_passes_of_salto_and_pyramid)
{
    Game g;
    game_at(&g, variant_named("salto"),
            "N2N1N3N4N5/M1M2M3M4M5/S1S2S3S4S5/s1s2s3s4s5/m1m2m3m41/5/5/5/m54/n1n2n3n4n5 w - 10");
    assert_move(&g, "0000", "0000", "pass", "", "", NULL);
    game_free(&g);
    game_at(&g, variant_named("pyramid"), "1W1W1W1W/W1W1W1W1/3W1W2/8/7B/2B1B3/1B1B1B2/B1B1B1B1 w -");
    assert_move(&g, "0000", "0000", "pass", "", "", NULL);
    char err[128];
    ck_assert(game_play_text(&g, "0000", err, sizeof err));
    OtBoard b;
    load_board(g.variant, &b);
    OtFen fen;
    JsonValue *pos = position_checked(&g, &b, &fen);
    ck_assert(json_check_get(pos, "passed")->boolean);
    json_check_free(pos);
    game_free(&g);
}
END_TEST

/* ==================================================== positions by hand */

/* The position's result fields after playing `moves` (space-separated). */
static JsonValue *position_after(Game *g, const char *moves)
{
    char list[512], err[128];
    snprintf(list, sizeof list, "%s", moves);
    for (char *t = strtok(list, " "); t; t = strtok(NULL, " "))
        ck_assert_msg(game_play_text(g, t, err, sizeof err), "%s: %s", t, err);
    OtBoard b;
    load_board(g->variant, &b);
    OtFen fen;
    return position_checked(g, &b, &fen);
}

static void assert_result(const JsonValue *pos, const char *result, const char *winner,
                          const char *reason, int margin)
{
    ck_assert_str_eq(json_check_string(pos, "result"), result);
    if (winner)
        ck_assert_str_eq(json_check_string(pos, "winner"), winner);
    else
        ck_assert(json_check_get(pos, "winner")->type == JSON_NULL);
    ck_assert_str_eq(json_check_string(pos, "reason"), reason);
    if (margin < 0)
        ck_assert(json_check_get(pos, "margin")->type == JSON_NULL);
    else
        ck_assert_int_eq((int)json_check_get(pos, "margin")->number, margin);
}

START_TEST(test_results_with_reason_and_margin)
{
    Game g;
    /* Solomon: the chain takes Black's last piece (no margin in Solomon). */
    game_at(&g, variant_named("solomon-chain"), "W:W14:B4,12");
    JsonValue *pos = position_after(&g, "14x10x1");
    assert_result(pos, "p1win", "white", "no pieces", -1);
    ck_assert_str_eq(json_check_string(json_check_at(json_check_get(pos, "pieces"), 0), "kind"),
                     "king");
    json_check_free(pos);
    game_free(&g);

    /* Threefold repetition needs the game's history. */
    game_at(&g, variant_named("solomon"), "W:WK14,K18:BK1,K6");
    pos = position_after(&g, "14-9 6-5 9-14 5-6 14-9 6-5 9-14");
    ck_assert_str_eq(json_check_string(pos, "result"), "none");
    ck_assert_int_eq((int)json_check_get(pos, "repetitions")->number, 2);
    json_check_free(pos);
    pos = position_after(&g, "5-6");
    assert_result(pos, "draw", NULL, "threefold repetition", -1);
    ck_assert_int_eq((int)json_check_get(pos, "repetitions")->number, 3);
    json_check_free(pos);
    char err[128];
    ck_assert(!oracle_move_text_json(&g, "14-9", json_text, sizeof json_text, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "ended"));
    ck_assert(oracle_legal_json(&g, json_text, sizeof json_text));
    ck_assert_str_eq(json_text, "[]"); /* generate() still has moves; the game is over */
    game_free(&g);

    /* Alexander: the margin is the winner's captures minus the loser's. */
    game_at(&g, variant_named("alexander"), "b5/6/6/6/6/w5 w a1 2 1");
    pos = position_after(&g, "a1a6");
    assert_result(pos, "p1win", "white", "all enemy pieces captured", 2);
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "captures"), "white")->number, 3);
    json_check_free(pos);
    game_free(&g);

    /* Salto: counting after a move limit of one move each: both sums 104
     * (every step to rank 7 gains one), a draw by 0. */
    GameConfig limit = {1};
    game_init(&g, variant_named("salto"), &limit);
    pos = position_after(&g, "c3d4 h8g7");
    assert_result(pos, "draw", NULL, "counting after move limit", 0);
    json_check_free(pos);
    game_free(&g);
    /* Two moves each: White's sun 2 gains two more (c3 d4 e5: 7, 6, 5 steps
     * to d10), Black's sun 2 steps back to h8 (7 steps to g1 again). */
    limit.move_limit = 2;
    game_init(&g, variant_named("salto"), &limit);
    pos = position_after(&g, "c3d4 h8g7 d4e5 g7h8");
    assert_result(pos, "p1win", "white", "counting after move limit", 2);
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "count"), "white")->number, 103);
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "count"), "black")->number, 105);
    json_check_free(pos);
    game_free(&g);

    /* Lupta: a side reduced to two pieces loses. */
    game_at(&g, variant_named("lupta"), "BBB.../....../....../....../WW.W.. w 0 0");
    pos = position_after(&g, "d1c1xb5");
    assert_result(pos, "p1win", "white", "two pieces left", -1);
    ck_assert_str_eq(json_check_string(pos, "phase"), "movement");
    json_check_free(pos);
    game_free(&g);

    /* Pyramid: both stuck, counting: Black wins by 4 - 1 = 3. */
    game_at(&g, variant_named("pyramid"), "1W1W1W1W/2W1W1W1/3W1W2/8/3B4/2B1B3/1B1B1B1B/W1B1B1B1 w -");
    pos = position_after(&g, "0000");
    assert_result(pos, "p2win", "black", "counting, both sides stuck", 3);
    json_check_free(pos);
    game_free(&g);
}
END_TEST

START_TEST(test_start_positions_by_hand)
{
    Game g;
    game_at(&g, variant_named("lupta"), NULL);
    JsonValue *pos = position_after(&g, "");
    ck_assert_str_eq(json_check_string(pos, "phase"), "placement");
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "hands"), "black")->number, 12);
    ck_assert_int_eq(json_check_get(pos, "pieces")->count, 0);
    json_check_free(pos);
    pos = position_after(&g, "c3");
    ck_assert_int_eq((int)json_check_get(json_check_get(pos, "hands"), "white")->number, 11);
    ck_assert_str_eq(json_check_string(pos, "turn"), "black");
    json_check_free(pos);
    game_free(&g);

    game_at(&g, variant_named("alexander"), NULL);
    pos = position_after(&g, "");
    ck_assert(json_check_get(pos, "chance")->boolean);
    ck_assert(json_check_get(pos, "roll")->type == JSON_NULL);
    ck_assert_int_eq(json_check_get(pos, "pieces")->count, 24);
    json_check_free(pos);
    pos = position_after(&g, "c4");
    ck_assert(!json_check_get(pos, "chance")->boolean);
    ck_assert_str_eq(json_check_string(pos, "roll"), "c4");
    ck_assert_str_eq(json_check_string(pos, "turn"), "white");
    json_check_free(pos);
    game_free(&g);

    game_at(&g, variant_named("solomon"), NULL);
    pos = position_after(&g, "");
    ck_assert_str_eq(json_check_string(pos, "fen"), "W:W14,15,16,17,18,19:B1,2,3,4,5,6");
    ck_assert(json_check_get(pos, "hands")->type == JSON_NULL);
    ck_assert(json_check_get(pos, "count")->type == JSON_NULL);
    ck_assert(json_check_get(pos, "passed")->type == JSON_NULL);
    json_check_free(pos);
    game_free(&g);
}
END_TEST

/* ============================================================ bad input */

static void dummy_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    memset(pos, 0, sizeof *pos);
}
static uint64_t dummy_key(const Position *pos) { return pos->bytes[0]; }

START_TEST(test_bad_input_gives_false_not_a_crash)
{
    char err[128];
    Game g;
    game_at(&g, variant_named("salto"), NULL);
    static const char *const bad[] = {"", "c3", "c3d5", "z9z9", "c3d4x", "\x01\x02", "0000",
                                      "c3d4 c3d4"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(!oracle_move_text_json(&g, bad[i], json_text, sizeof json_text, err,
                                             sizeof err),
                      "accepted %s", bad[i]);
        ck_assert(err[0] != '\0');
        for (const char *c = err; *c; c++)
            ck_assert_msg(*c >= 0x20 && *c < 0x7f, "unprintable byte in the error");
    }
    ck_assert(!oracle_move_text_json(&g, NULL, json_text, sizeof json_text, err, sizeof err));
    /* Too small a buffer is refused whole. */
    char tiny[32];
    ck_assert(!oracle_board_json(g.variant, tiny, sizeof tiny));
    ck_assert(!oracle_position_json(&g, tiny, sizeof tiny));
    Move list[MAX_MOVES];
    ck_assert_int_gt(g.variant->generate(&g.pos, list), 0);
    ck_assert(!oracle_move_json(&g, list[0], tiny, sizeof tiny));
    ck_assert(!oracle_move_json(&g, MOVE_NONE, json_text, sizeof json_text));
    game_free(&g);

    /* A game without the hooks describes nothing. */
    Variant bare = {.name = "bare", .title = "no self-description", .startpos = dummy_startpos,
                    .key = dummy_key};
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    game_init(&g, &bare, &cfg);
    ck_assert(!oracle_board_json(&bare, json_text, sizeof json_text));
    ck_assert(!oracle_position_json(&g, json_text, sizeof json_text));
    ck_assert(!oracle_move_text_json(&g, "x", json_text, sizeof json_text, err, sizeof err));
    game_free(&g);
}
END_TEST

static Suite *oracle_suite(void)
{
    Suite *s = suite_create("oracle");
    TCase *tc = tcase_create("json");
    tcase_add_test(tc, test_writer_escapes_strings);
    tcase_add_test(tc, test_writer_numbers_and_nesting);
    tcase_add_test(tc, test_writer_reports_overflow_and_bad_nesting);
    tcase_add_test(tc, test_parser_rejects_what_is_not_json);
    tcase_add_test(tc, test_parser_reads_json);
    suite_add_tcase(s, tc);

    int n = variants_count();
    tc = tcase_create("every variant");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_every_board_is_complete, 0, n);
    tcase_add_loop_test(tc, test_random_games_agree_with_the_fen, 0, n);
    tcase_add_loop_test(tc, test_perft_positions_agree_with_the_fen, 0, n);
    tcase_add_test(tc, test_cell_names_are_the_notation);
    suite_add_tcase(s, tc);

    tc = tcase_create("by hand");
    tcase_add_test(tc, test_solomon_board_is_the_seal);
    tcase_add_test(tc, test_salto_board_and_targets);
    tcase_add_test(tc, test_pyramid_board_and_pyramids);
    tcase_add_test(tc, test_lupta_and_alexander_boards);
    tcase_add_test(tc, test_solomon_chain_with_crowning);
    tcase_add_test(tc, test_pyramid_chain_has_one_representative_path);
    tcase_add_test(tc, test_lupta_placement_and_removal);
    tcase_add_test(tc, test_alexander_roll_entry_and_flight);
    tcase_add_test(tc, test_passes_of_salto_and_pyramid);
    tcase_add_test(tc, test_results_with_reason_and_margin);
    tcase_add_test(tc, test_start_positions_by_hand);
    tcase_add_test(tc, test_bad_input_gives_false_not_a_crash);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(oracle_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
