/* check_oracle_client.c - a client that knows no rule plays every game to
 * its end through the real program's pipes (SIGIL_BIN), using only the
 * queries and `move` / `undo`: never `d`, never a game's code.
 *
 * Each turn it asks `query position` (checked against its own FEN by
 * oracle_test.c), `query moves` (compared with the rules library's
 * generate() for that FEN, the independent reference here) and
 * `query legal` (one object per listed move, in order), picks a random
 * move, asks `query move` for it, plays it with `move` and checks the
 * described captures against the change of position.  Now and then it takes
 * the move back with `undo` and plays it again.  Every board is drawn, from
 * `query board` and `query position` alone, as SVG (written to
 * $SIGIL_ORACLE_SVG_DIR when set).  $SIGIL_ORACLE_GAMES sets the games per
 * variant (default 12), $SIGIL_ORACLE_SEED the random games.  Alongside: the queries during a search, and their
 * errors. */
#include <check.h>
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "game.h"
#include "json_check.h"
#include "oracle_test.h"
#include "pipe_engine.h"
#include "util.h"
#include "variants.h"

#define T_REPLY 10000

/* The engine behind pipes, read with a line buffer that grows (a
 * `query legal` of Lupta is tens of kilobytes). */
typedef struct Client {
    PipeEngine e;
    char *buf;
    size_t len, cap;
    char *line;
    size_t line_cap;
    long queries;
} Client;

static Client client;
static bool searching; /* a search runs: its info lines may come between */

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void client_start(void)
{
    memset(&client, 0, sizeof client);
    ck_assert_msg(pipe_engine_start(&client.e, pipe_engine_sigil()), "cannot start %s", pipe_engine_sigil());
}

static void client_stop(void)
{
    pipe_engine_send(&client.e, "quit");
    pipe_engine_close(&client.e);
    free(client.buf);
    free(client.line);
}

static void grow(char **p, size_t *cap, size_t need)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 1 << 16;
    while (c < need)
        c *= 2;
    *p = realloc(*p, c);
    ck_assert_ptr_nonnull(*p);
    *cap = c;
}

/* The next line of output, or NULL after timeout_ms or at the end. */
static const char *client_read(int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = client.len ? memchr(client.buf, '\n', client.len) : NULL;
        if (nl) {
            size_t n = (size_t)(nl - client.buf);
            grow(&client.line, &client.line_cap, n + 1);
            memcpy(client.line, client.buf, n);
            client.line[n] = '\0';
            memmove(client.buf, nl + 1, client.len - n - 1);
            client.len -= n + 1;
            return client.line;
        }
        long long left = deadline - now_ms();
        if (left <= 0)
            return NULL;
        struct pollfd pfd = {.fd = client.e.from_fd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        grow(&client.buf, &client.cap, client.len + 65536);
        ssize_t n = read(client.e.from_fd, client.buf + client.len, client.cap - client.len);
        if (n <= 0)
            return NULL;
        client.len += (size_t)n;
    }
}

static void client_send(const char *line) { pipe_engine_send(&client.e, line); }

/* Send a query; its `response ...` text (after "response ").  Any other line
 * before it fails the test, except a running search's info lines.  With
 * errors_allowed the error lines that explain the response (they follow
 * it) are counted in *errors, up to the readyok of an isready sent after
 * the response. */
static const char *query_with(const char *q, bool errors_allowed, int *errors)
{
    static char *answer;
    static size_t answer_cap;
    client_send(q);
    client.queries++;
    for (;;) {
        const char *l = client_read(T_REPLY);
        ck_assert_msg(l != NULL, "no response to '%s'", q);
        if (strncmp(l, "response ", 9) == 0) {
            if (!errors_allowed)
                return l + 9;
            size_t n = strlen(l + 9) + 1;
            grow(&answer, &answer_cap, n);
            memcpy(answer, l + 9, n);
            client_send("isready");
            while ((l = client_read(T_REPLY)) != NULL && strcmp(l, "readyok") != 0)
                if (strncmp(l, "info string error: ", 19) == 0)
                    (*errors)++;
            ck_assert_msg(l != NULL, "no readyok after '%s'", q);
            return answer;
        }
        if (searching && strncmp(l, "info ", 5) == 0 && !strstr(l, "error"))
            continue;
        ck_assert_msg(false, "'%s' printed '%.200s' before its response", q, l);
    }
}

static const char *query(const char *q) { return query_with(q, false, NULL); }

/* A query whose response is JSON. */
static JsonValue *query_json(const char *q)
{
    const char *r = query(q);
    char err[128];
    JsonValue *v = json_check_parse(r, err, sizeof err);
    ck_assert_msg(v != NULL, "'%s' answered invalid JSON (%s): %.200s", q, err, r);
    return v;
}

/* Send a command that answers nothing when it succeeds; prove it with
 * isready. */
static void command(const char *line)
{
    client_send(line);
    client_send("isready");
    const char *l = client_read(T_REPLY);
    ck_assert_msg(l != NULL && strcmp(l, "readyok") == 0, "'%s' printed '%.200s'", line,
                  l ? l : "(nothing)");
}

/* ------------------------------------------------------------ drawing */

/* An SVG of the board and its pieces from the two JSON objects alone, as a
 * GUI would draw it; returns the number of piece shapes drawn.  Every cell
 * is a shape; on a points board every line is a polyline. */
static int draw_svg(const JsonValue *board, const JsonValue *pos, FILE *out)
{
    const double unit = 60, margin = 30;
    double w = json_check_get(board, "width")->number, h = json_check_get(board, "height")->number;
    double room = json_check_get(board, "spacing")->number;
    bool squares = strcmp(json_check_string(board, "layout"), "squares") == 0;
    const JsonValue *cells = json_check_get(board, "cells");
    fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %g %g\">\n",
            w * unit + 2 * margin, h * unit + 2 * margin);
    int shapes = 0;
    if (squares) {
        int cols = (int)json_check_get(board, "columns")->number;
        int rows = (int)json_check_get(board, "rows")->number;
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < cols; c++)
                fprintf(out, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#f3ecd8\"/>\n",
                        margin + c * unit, margin + r * unit, unit, unit);
    } else {
        const JsonValue *lines = json_check_get(board, "lines");
        for (int l = 0; l < lines->count; l++) {
            fprintf(out, "<polyline fill=\"none\" stroke=\"#333\" points=\"");
            for (int i = 0; i < lines->items[l]->count; i++)
                for (int c = 0; c < cells->count; c++)
                    if (strcmp(json_check_string(cells->items[c], "name"),
                               lines->items[l]->items[i]->string) == 0)
                        fprintf(out, "%g,%g ", margin + json_check_get(cells->items[c], "x")->number * unit,
                                margin + json_check_get(cells->items[c], "y")->number * unit);
            fprintf(out, "\"/>\n");
        }
    }
    for (int c = 0; c < cells->count; c++) {
        double x = margin + json_check_get(cells->items[c], "x")->number * unit;
        double y = margin + json_check_get(cells->items[c], "y")->number * unit;
        if (squares)
            fprintf(out, "<rect data-cell=\"%s\" x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"#b58863\"/>\n",
                    json_check_string(cells->items[c], "name"), x - unit / 2, y - unit / 2, unit, unit);
        else
            fprintf(out, "<circle data-cell=\"%s\" cx=\"%g\" cy=\"%g\" r=\"4\"/>\n",
                    json_check_string(cells->items[c], "name"), x, y);
        shapes++;
    }
    ck_assert_int_eq(shapes, cells->count);
    const JsonValue *pieces = json_check_get(pos, "pieces");
    int drawn = 0;
    for (int p = 0; p < pieces->count; p++) {
        const char *name = json_check_string(pieces->items[p], "cell");
        for (int c = 0; c < cells->count; c++)
            if (strcmp(json_check_string(cells->items[c], "name"), name) == 0) {
                double x = margin + json_check_get(cells->items[c], "x")->number * unit;
                double y = margin + json_check_get(cells->items[c], "y")->number * unit;
                bool white = strcmp(json_check_string(pieces->items[p], "side"), "white") == 0;
                fprintf(out,
                        "<circle cx=\"%g\" cy=\"%g\" r=\"%g\" fill=\"%s\" stroke=\"#000\"/>"
                        "<text x=\"%g\" y=\"%g\" text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
                        x, y, room * unit * 0.4, white ? "#fff" : "#222", x, y + 5,
                        white ? "#000" : "#fff", json_check_string(pieces->items[p], "label"));
                drawn++;
            }
    }
    fprintf(out, "</svg>\n");
    return drawn;
}

static void draw_board(const char *variant, const JsonValue *board, const JsonValue *pos)
{
    const char *dir = getenv("SIGIL_ORACLE_SVG_DIR");
    char path[1024];
    FILE *out;
    if (dir) {
        snprintf(path, sizeof path, "%s/%s.svg", dir, variant);
        out = fopen(path, "w");
        ck_assert_msg(out != NULL, "cannot write %s", path);
    } else {
        out = fopen("/dev/null", "w");
        ck_assert_ptr_nonnull(out);
    }
    int drawn = draw_svg(board, pos, out);
    fclose(out);
    ck_assert_int_eq(drawn, json_check_get(pos, "pieces")->count);
}

/* ------------------------------------------------------------ playing */

typedef struct Tally {
    long games, plies, moves_listed, captures, undos;
    long results[4]; /* none, p1win, p2win, draw */
    int nreasons;
    char reason[12][48];
    long reason_count[12];
} Tally;

static void tally_reason(Tally *t, const char *reason)
{
    int i = 0;
    while (i < t->nreasons && strcmp(t->reason[i], reason) != 0)
        i++;
    if (i == t->nreasons) {
        if (i == 12)
            return;
        snprintf(t->reason[i], sizeof t->reason[i], "%s", reason);
        t->nreasons++;
    }
    t->reason_count[i]++;
}

/* Split a `query moves` answer into tokens (none: 0). */
static int split_moves(const char *text, char (*out)[MOVE_STR_MAX], int max)
{
    if (strcmp(text, "none") == 0)
        return 0;
    int n = 0;
    const char *c = text;
    char tok[MOVE_STR_MAX];
    while (n < max && util_next_token(&c, tok, sizeof tok) > 0)
        strcpy(out[n++], tok);
    return n;
}

/* `query moves` against the rules library: the legal moves of the FEN,
 * as the game writes them, in generate() order. */
static void compare_with_library(const Variant *v, const GameConfig *cfg, const char *fen,
                                 char (*listed)[MOVE_STR_MAX], int n, bool over)
{
    Position p;
    char err[128];
    ck_assert_msg(v->from_fen(&p, fen, cfg, err, sizeof err), "library rejects %s: %s", fen, err);
    Move moves[MAX_MOVES];
    int m = over ? 0 : v->generate(&p, moves);
    ck_assert_msg(m == n, "%s: query moves lists %d moves, the rules %d", fen, n, m);
    for (int i = 0; i < m; i++) {
        char text[MOVE_STR_MAX];
        v->move_str(&p, moves[i], text);
        ck_assert_msg(strcmp(text, listed[i]) == 0, "%s: move %d is %s, the rules say %s", fen, i,
                      listed[i], text);
    }
}

static void play_one_game(const Variant *v, const OtBoard *b, const JsonValue *board,
                          const GameConfig *cfg, uint64_t *rng, bool draw, Tally *t)
{
    static char listed[MAX_MOVES][MOVE_STR_MAX];
    char err[512], cmd[MOVE_STR_MAX + 16];
    command("position startpos");
    snprintf(cmd, sizeof cmd, "setoption name MoveLimit value %d", cfg->move_limit);
    command(cmd);
    for (int ply = 0;; ply++) {
        ck_assert_msg(ply < 4000, "%s: a game longer than 4000 plies", v->name);
        JsonValue *pos = query_json("query position");
        OtFen before;
        ck_assert_msg(ot_position_check(b, pos, &before, err, sizeof err), "%s: %s", v->name, err);
        char fen[FEN_MAX];
        snprintf(fen, sizeof fen, "%s", json_check_string(pos, "fen"));
        ck_assert_str_eq(query("query fen"), fen);
        const char *result = json_check_string(pos, "result");
        bool over = strcmp(result, "none") != 0;
        int n = split_moves(query("query moves"), listed, MAX_MOVES);
        compare_with_library(v, cfg, fen, listed, n, over);
        ck_assert_str_eq(query("query chance"),
                         json_check_get(pos, "chance")->boolean ? "true" : "false");
        ck_assert_str_eq(query("query p1turn"),
                         strcmp(json_check_string(pos, "turn"), "white") == 0 ? "true" : "false");
        JsonValue *legal = query_json("query legal");
        ck_assert_int_eq(legal->count, n);
        for (int i = 0; i < n; i++) {
            ck_assert_str_eq(json_check_string(legal->items[i], "move"), listed[i]);
            ck_assert_str_eq(json_check_string(legal->items[i], "side"),
                             json_check_string(pos, "turn"));
        }
        t->moves_listed += n;
        if (over) {
            ck_assert_str_eq(query("query result"), result);
            ck_assert_str_eq(query("query gameover"), "true");
            ck_assert_int_eq(n, 0);
            t->results[result[0] == 'd' ? 3 : result[1] - '0']++;
            tally_reason(t, json_check_string(pos, "reason"));
            if (draw)
                draw_board(v->name, board, pos);
            json_check_free(legal);
            json_check_free(pos);
            break;
        }
        ck_assert_str_eq(query("query gameover"), "false");
        ck_assert_int_gt(n, 0);
        int k = (int)util_random_below(rng, (uint64_t)n);
        snprintf(cmd, sizeof cmd, "query move %s", listed[k]);
        JsonValue *mv = query_json(cmd);
        ck_assert_str_eq(json_check_string(mv, "kind"), json_check_string(legal->items[k], "kind"));
        snprintf(cmd, sizeof cmd, "move %s", listed[k]);
        command(cmd);
        if (util_random_below(rng, 20) == 0) { /* take it back, then play it again */
            command("undo");
            ck_assert_str_eq(query("query fen"), fen);
            command(cmd);
            t->undos++;
        }
        JsonValue *next = query_json("query position");
        OtFen after;
        ck_assert_msg(ot_position_check(b, next, &after, err, sizeof err), "%s: %s", v->name, err);
        int caps = 0;
        ck_assert_msg(ot_move_check(b, mv, &before, &after, &caps, err, sizeof err),
                      "%s: %s (FEN before %s, after %s)", v->name, err, fen,
                      json_check_string(next, "fen"));
        ck_assert_int_eq((int)json_check_get(next, "ply")->number,
                         (int)json_check_get(pos, "ply")->number + 1);
        t->captures += caps;
        t->plies++;
        json_check_free(next);
        json_check_free(mv);
        json_check_free(legal);
        json_check_free(pos);
    }
    t->games++;
}

static int games_per_variant(void)
{
    const char *g = getenv("SIGIL_ORACLE_GAMES");
    int n = g ? atoi(g) : 12;
    return n > 0 ? n : 12;
}

START_TEST(test_a_rule_less_client_plays_every_game_to_its_end)
{
    const Variant *v = variants_get(_i);
    client_start();
    char cmd[128], err[256];
    snprintf(cmd, sizeof cmd, "variant %s", v->name);
    command(cmd);
    ck_assert_str_eq(query("query variant"), v->name);
    JsonValue *board = query_json("query board");
    OtBoard b;
    ck_assert_msg(ot_board_read(board, &b, err, sizeof err), "%s: %s", v->name, err);
    ck_assert_str_eq(b.variant, v->name);
    Tally t = {0};
    /* Reproducible by default; $SIGIL_ORACLE_SEED plays other games. */
    const char *seed = getenv("SIGIL_ORACLE_SEED");
    unsigned long long base = seed ? strtoull(seed, NULL, 10) : 20261;
    uint64_t rng = base * 1000003u + (uint64_t)_i;
    int games = games_per_variant();
    for (int i = 0; i < games; i++) {
        /* A third of the games with a short move limit (Salto ends by
         * counting); the client sets the option and tells the library. */
        GameConfig cfg = {i % 3 == 2 ? 20 : DEFAULT_MOVE_LIMIT};
        play_one_game(v, &b, board, &cfg, &rng, i == 0, &t);
    }
    printf("%s: %ld games (%ld p1win, %ld p2win, %ld draw), %ld plies, %ld legal moves listed, "
           "%ld captures, %ld undos, %ld queries; seed %llu\n",
           v->name, t.games, t.results[1], t.results[2], t.results[3], t.plies, t.moves_listed,
           t.captures, t.undos, client.queries, base);
    for (int i = 0; i < t.nreasons; i++)
        printf("  %s: %ld\n", t.reason[i], t.reason_count[i]);
    ck_assert_int_eq(t.games, games);
    json_check_free(board);
    client_stop();
}
END_TEST

/* ------------------------------------------------- the protocol around it */

START_TEST(test_queries_answer_during_a_search)
{
    client_start();
    command("variant salto");
    client_send("go infinite");
    searching = true;
    JsonValue *v = query_json("query board");
    ck_assert_str_eq(json_check_string(v, "variant"), "salto");
    json_check_free(v);
    v = query_json("query position");
    ck_assert_int_eq(json_check_get(v, "pieces")->count, 30);
    json_check_free(v);
    v = query_json("query move c3d4");
    ck_assert_str_eq(json_check_string(v, "kind"), "step");
    json_check_free(v);
    v = query_json("query legal");
    ck_assert_int_eq(v->count, 9);
    json_check_free(v);
    client_send("stop");
    const char *l;
    do {
        l = client_read(T_REPLY);
        ck_assert_ptr_nonnull(l);
    } while (strncmp(l, "bestmove ", 9) != 0);
    searching = false;
    client_stop();
}
END_TEST

/* A bad `query move` gets exactly one error line and `response none`, and
 * the engine goes on as before. */
START_TEST(test_bad_query_move_gets_one_error_and_none)
{
    client_start();
    command("variant lupta");
    static const char *const bad[] = {
        "query move",         "query move z9",       "query move c3c4",     "query move c3 c4",
        "query move \x01\x7f", "query move c3d4xe5", "query move 0000",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int errors = 0;
        ck_assert_str_eq(query_with(bad[i], true, &errors), "none");
        ck_assert_msg(errors == 1, "'%s': %d error lines", bad[i], errors);
    }
    command("move c3 c4 d4 a1");
    int errors = 0;
    ck_assert_str_eq(query_with("query move a1", true, &errors), "none"); /* occupied */
    ck_assert_int_eq(errors, 1);
    JsonValue *v = query_json("query move b1");
    ck_assert_str_eq(json_check_string(v, "kind"), "placement");
    ck_assert_str_eq(json_check_string(v, "side"), "white");
    json_check_free(v);
    /* After the end of a game: an error, and an empty list. */
    command("variant alexander");
    command("position fen b5/6/6/6/6/w5 w a6 0 0 moves a1a6");
    errors = 0;
    ck_assert_str_eq(query_with("query move a1", true, &errors), "none");
    ck_assert_int_eq(errors, 1);
    ck_assert_str_eq(query("query legal"), "[]");
    v = query_json("query position");
    ck_assert_str_eq(json_check_string(v, "result"), "p1win");
    ck_assert_int_eq((int)json_check_get(v, "margin")->number, 1);
    json_check_free(v);
    client_stop();
}
END_TEST

/* Threefold repetition through `move`: the position query sees the game's
 * history; nothing is legal any more. */
START_TEST(test_threefold_repetition_through_move)
{
    client_start();
    command("variant solomon");
    command("position fen W:WK14,K18:BK1,K6");
    command("move 14-9 6-5 9-14 5-6 14-9 6-5 9-14");
    JsonValue *v = query_json("query position");
    ck_assert_str_eq(json_check_string(v, "result"), "none");
    ck_assert_int_eq((int)json_check_get(v, "repetitions")->number, 2);
    json_check_free(v);
    command("move 5-6");
    v = query_json("query position");
    ck_assert_str_eq(json_check_string(v, "result"), "draw");
    ck_assert_str_eq(json_check_string(v, "reason"), "threefold repetition");
    ck_assert(json_check_get(v, "margin")->type == JSON_NULL);
    ck_assert_int_eq((int)json_check_get(v, "repetitions")->number, 3);
    json_check_free(v);
    ck_assert_str_eq(query("query moves"), "none");
    ck_assert_str_eq(query("query legal"), "[]");
    command("undo");
    v = query_json("query position");
    ck_assert_str_eq(json_check_string(v, "result"), "none");
    json_check_free(v);
    client_stop();
}
END_TEST

static Suite *client_suite(void)
{
    Suite *s = suite_create("oracle client");
    TCase *tc = tcase_create("games");
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_a_rule_less_client_plays_every_game_to_its_end, 0,
                        variants_count());
    suite_add_tcase(s, tc);
    tc = tcase_create("protocol");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_queries_answer_during_a_search);
    tcase_add_test(tc, test_bad_query_move_gets_one_error_and_none);
    tcase_add_test(tc, test_threefold_repetition_through_move);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(client_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
