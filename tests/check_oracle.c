/* check_oracle.c - the engine as a rules oracle, driven through pipes on the
 * real binary: every query in every variant against the game's own
 * functions, `move`/`undo` with threefold repetition, every `go` that used
 * to hang, end of input during a search, perft in the worker, the dice, and
 * strict numbers. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "protocol_test.h"
#include "util.h"
#include "variants.h"

static const GameConfig default_config = {.move_limit = DEFAULT_MOVE_LIMIT};

/* Every legal move (or roll) of g in generate() order, space separated, or
 * "none" when the game is over. */
static void library_moves(const Game *g, char *buf, size_t size)
{
    Move moves[MAX_MOVES];
    int n = game_result(g, NULL, NULL) == RESULT_NONE ? g->variant->generate(&g->pos, moves) : 0;
    size_t len = 0;
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[MOVE_STR_MAX];
        g->variant->move_str(&g->pos, moves[i], text);
        len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? " " : "", text);
    }
    if (n == 0)
        snprintf(buf, size, "none");
}

/* Compare every query with what the library says about g. */
static void assert_queries_match(const Game *g)
{
    static char want[MAX_MOVES * MOVE_STR_MAX];
    const Variant *v = g->variant;
    char fen[FEN_MAX];
    v->to_fen(&g->pos, fen);
    ck_assert_str_eq(pt_query("fen"), fen);
    library_moves(g, want, sizeof want);
    ck_assert_msg(strcmp(pt_query("moves"), want) == 0, "%s at ply %d (%s): query moves differs",
                  v->name, g->ply, fen);
    bool over = game_result(g, NULL, NULL) != RESULT_NONE;
    bool chance = !over && v->is_chance && v->is_chance(&g->pos);
    ck_assert_str_eq(pt_query("chance"), chance ? "true" : "false");
    ck_assert_str_eq(pt_query("gameover"), over ? "true" : "false");
    ck_assert_str_eq(pt_query("p1turn"), v->side_to_move(&g->pos) == WHITE ? "true" : "false");
    ck_assert_str_eq(pt_query("variant"), v->name);
    ck_assert_str_eq(pt_query("result"), game_result_word(game_result(g, NULL, NULL)));
}

/* `position startpos moves <history of g>`: back to g with its history. */
static void restore(const Game *g, char *history)
{
    static char cmd[1 << 16];
    snprintf(cmd, sizeof cmd, "position startpos moves%s", history);
    ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
    (void)g;
}

START_TEST(queries_agree_with_the_games_own_functions_in_every_variant)
{
    static char history[1 << 15];
    pt_start();
    for (int vi = 0; vi < variants_count(); vi++) {
        const Variant *v = variants_get(vi);
        char cmd[FEN_MAX + 64];
        snprintf(cmd, sizeof cmd, "variant %s", v->name);
        ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
        Game g;
        game_init(&g, v, &default_config);
        uint64_t rng = 0x51676c + (uint64_t)vi;
        history[0] = '\0';
        size_t hlen = 0;
        for (int ply = 0; ply < 90; ply++) {
            assert_queries_match(&g);
            if (ply % 9 == 4) {
                /* The FEN round-trips through `position fen` and `query fen`. */
                char fen[FEN_MAX];
                v->to_fen(&g.pos, fen);
                snprintf(cmd, sizeof cmd, "position fen %s", fen);
                ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
                ck_assert_str_eq(pt_query("fen"), fen);
                restore(&g, history);
            }
            Move moves[MAX_MOVES];
            int n = game_result(&g, NULL, NULL) == RESULT_NONE ? v->generate(&g.pos, moves) : 0;
            if (n == 0)
                break;
            Move m = moves[util_random_below(&rng, (uint64_t)n)];
            char text[MOVE_STR_MAX];
            v->move_str(&g.pos, m, text);
            snprintf(cmd, sizeof cmd, "move %s", text);
            ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
            game_play(&g, m);
            hlen += (size_t)snprintf(history + hlen, sizeof history - hlen, " %s", text);
        }
        /* undo N takes back exactly N plies. */
        int back = g.ply < 5 ? g.ply : 5;
        snprintf(cmd, sizeof cmd, "undo %d", back);
        ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
        game_undo(&g, back);
        assert_queries_match(&g);
        ck_assert_int_eq(pt_count_lines(pt_exchange("undo"), "info string error"), 0);
        game_undo(&g, 1);
        assert_queries_match(&g);
        game_free(&g);
    }
    pt_finish();
}
END_TEST

START_TEST(move_and_undo_keep_the_history_that_threefold_repetition_sees)
{
    pt_start();
    /* Kings shuttle 14-12-14 and 6-8-6: the start comes back every 4 plies. */
    pt_exchange("position fen W:WK14,K18,19:BK2,K6,1");
    ck_assert_int_eq(pt_count_lines(pt_exchange("move 14-12 6-8 12-14 8-6"), "info string error"), 0);
    ck_assert_str_eq(pt_query("result"), "none");
    /* Move by move this time, through separate commands. */
    pt_exchange("move 14-12");
    pt_exchange("move 6-8");
    pt_exchange("move 12-14");
    ck_assert_str_eq(pt_query("gameover"), "false");
    pt_exchange("move 8-6");
    ck_assert_str_eq(pt_query("result"), "draw");
    ck_assert_str_eq(pt_query("moves"), "none");
    ck_assert_str_eq(pt_find_line(pt_exchange("d"), "Result: "),
                     "Result: draw (threefold repetition)");
    /* Taking the last move back undoes the repetition; playing it again
     * draws again. */
    pt_exchange("undo");
    ck_assert_str_eq(pt_query("result"), "none");
    pt_exchange("move 8-6");
    ck_assert_str_eq(pt_query("result"), "draw");
    /* After the draw, no move is accepted. */
    pt_assert_rejected("move 14-12");
    /* undo 8 back to the FEN; one more is too many. */
    ck_assert_int_eq(pt_count_lines(pt_exchange("undo 8"), "info string error"), 0);
    ck_assert_str_eq(pt_query("fen"), "W:WK14,K18,19:B1,K2,K6");
    pt_assert_rejected("undo");
    /* All or nothing: a bad move anywhere plays none of them. */
    pt_assert_rejected("move 14-12 6-8 zz");
    pt_assert_rejected("move 14-12 14-12");
    pt_assert_rejected("move");
    ck_assert_int_eq(pt_count_lines(pt_exchange("move 14-12"), "info string error"), 0);
    pt_assert_rejected("undo 2");
    pt_assert_rejected("undo 0");
    pt_assert_rejected("undo -1");
    pt_assert_rejected("undo +1");
    pt_assert_rejected("undo x");
    pt_assert_rejected("undo 1 1");
    pt_finish();
}
END_TEST

/* Send a go; exactly one bestmove must follow (read within T_SHORT), and
 * errors error lines before it.  Returns the bestmove line. */
static const char *go_answers_once(const char *go, int errors)
{
    static char best[256];
    pt_seen[0] = '\0';
    long long t0 = pt_now_ms();
    pt_send(go);
    const char *b = pipe_engine_expect(&pt_engine, "bestmove", T_SHORT, pt_seen, sizeof pt_seen);
    ck_assert_msg(b != NULL, "'%s' gave no bestmove:\n%.2000s", go, pt_seen);
    snprintf(best, sizeof best, "%s", b);
    ck_assert_msg(pt_now_ms() - t0 < T_SHORT, "'%s' took too long", go);
    ck_assert_msg(pt_count_lines(pt_seen, "info string error") == errors,
                  "'%s': expected %d error lines:\n%.2000s", go, errors, pt_seen);
    const char *after = pt_exchange(NULL);
    ck_assert_msg(pt_count_lines(after, "bestmove") == 0, "'%s' gave a second bestmove", go);
    return best;
}

START_TEST(every_go_that_used_to_hang_answers_one_bestmove_at_once)
{
    static const struct {
        const char *go;
        int errors;
    } cases[] = {
        {"go depth x", 1},          {"go depth 0", 1},         {"go nodes 0", 1},
        {"go movetime", 1},         {"go mate 0", 1},          {"go movetime 0", 1},
        {"go depth -3", 1},         {"go wtime -5", 1},        {"go depth +5", 1},
        {"go nodes 99999999999999999999", 1},                  {"go frobnicate", 1},
        {"go infinite depth x", 1}, {"go movestogo 0", 1},     {"go btime 100", 0},
        {"go movestogo 1", 0},      {"go winc 100", 0},        {"go wtime 0 btime 0", 0},
        {"go p2time 100 p2inc 100", 0},
        /* A clock beyond a year is refused (one line for both bad numbers). */
        {"go wtime 2305843009213693951 winc 2305843009213693951 movestogo 1", 1},
        {"go movetime 9223372036854775807", 1},    {"go depth x nodes 0 mate 0", 1},
    };
    pt_start();
    for (int vi = 0; vi < variants_count(); vi++) {
        char cmd[96];
        snprintf(cmd, sizeof cmd, "variant %s", variants_get(vi)->name);
        pt_exchange(cmd);
        char moves[1 << 14];
        pt_legal_moves(moves, sizeof moves);
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
            const char *best = go_answers_once(cases[i].go, cases[i].errors);
            char move[64];
            ck_assert_int_eq(sscanf(best, "bestmove %63s", move), 1);
            ck_assert_msg(pt_list_has(moves, move), "%s: '%s' answered %s, not one of%s",
                          variants_get(vi)->name, cases[i].go, move, moves);
        }
    }
    pt_finish();
}
END_TEST

START_TEST(huge_clock_values_are_safe_and_stop_answers)
{
    /* The largest clocks accepted, with increments and movestogo that would
     * overflow unsaturated arithmetic: the search runs until stop. */
    pt_start();
    static const char *const gos[] = {
        "go wtime 31536000000 winc 31536000000 movestogo 1",
        ("go wtime 31536000000 btime 31536000000 winc 31536000000 binc 31536000000 "
         "movestogo 2147483647"),
        "go movetime 31536000000",
        "go depth 9223372036854775807",
    };
    for (size_t i = 0; i < sizeof gos / sizeof *gos; i++) {
        pt_send(gos[i]);
        const char *out = pt_exchange(NULL); /* still answering */
        ck_assert_int_eq(pt_count_lines(out, "info string error"), 0);
        ck_assert_int_eq(pt_count_lines(out, "bestmove"), 0);
        pt_seen[0] = '\0';
        pt_send("stop");
        ck_assert_ptr_nonnull(
            pipe_engine_expect(&pt_engine, "bestmove ", T_SHORT, pt_seen, sizeof pt_seen));
        ck_assert_int_eq(pt_count_lines(pt_exchange(NULL), "bestmove"), 0);
    }
    pt_finish();
}
END_TEST

/* Read everything until the engine exits; its exit status. */
static int read_to_exit(char *out, size_t size)
{
    out[0] = '\0';
    long long deadline = pt_now_ms() + T_SHORT;
    const char *line;
    while (pt_now_ms() < deadline &&
           (line = pipe_engine_read(&pt_engine, (int)(deadline - pt_now_ms()))) != NULL) {
        size_t used = strlen(out);
        snprintf(out + used, size - used, "%s\n", line);
    }
    return pipe_engine_wait(&pt_engine, T_SHORT);
}

START_TEST(end_of_input_stops_the_search_answers_once_and_exits)
{
    static const char *const gos[] = {
        "go", "go infinite", "go ponder", "go ponder depth 120",
        "go wtime 2305843009213693951 winc 2305843009213693951 movestogo 1",
    };
    static char out[PT_SEEN_SIZE];
    for (size_t i = 0; i < sizeof gos / sizeof *gos; i++) {
        pt_start();
        pt_send(gos[i]);
        pt_exchange(NULL); /* the search is running */
        pipe_engine_close_input(&pt_engine);
        ck_assert_int_eq(read_to_exit(out, sizeof out), 0);
        ck_assert_msg(pt_count_lines(out, "bestmove ") == 1, "'%s' then end of input:\n%.2000s",
                      gos[i], out);
        pt_finish();
    }
    /* `printf 'go\n' | sigil`: end of input right behind the go. */
    pt_start();
    pt_send("go");
    pipe_engine_close_input(&pt_engine);
    ck_assert_int_eq(read_to_exit(out, sizeof out), 0);
    ck_assert_int_eq(pt_count_lines(out, "bestmove "), 1);
    pt_finish();
}
END_TEST

START_TEST(perft_runs_in_the_worker_and_stops)
{
    pt_start();
    pt_exchange("variant lupta");
    for (int form = 0; form < 2; form++) {
        pt_send(form ? "go perft 20" : "perft 20");
        /* isready and queries are answered while it counts */
        const char *out = pt_exchange(NULL);
        ck_assert_int_eq(pt_count_lines(out, "Nodes searched"), 0);
        ck_assert_str_eq(pt_query("variant"), "lupta");
        pt_seen[0] = '\0';
        pt_send("stop");
        const char *stopped = pipe_engine_expect(&pt_engine, "info string perft depth 20 stopped",
                                                 T_SHORT, pt_seen, sizeof pt_seen);
        ck_assert_msg(stopped != NULL, "no stop report:\n%.2000s", pt_seen);
        ck_assert_int_eq(pt_count_lines(pt_seen, "Nodes searched"), 0);
        ck_assert_int_eq(pt_count_lines(pt_exchange(NULL), "info string"), 0);
    }
    /* A perft is stopped by a state change too, and counts the new state. */
    pt_send("perft 20");
    pt_exchange(NULL);
    const char *out = pt_exchange("variant solomon");
    ck_assert_int_eq(pt_count_lines(out, "info string perft depth 20 stopped"), 1);
    pt_assert_rejected("perft 21");
    pt_assert_rejected("perft +2");
    pt_assert_rejected("perft -1");
    pt_assert_rejected("go perft 21");
    pt_assert_rejected("go perft x");
    /* quit during a perft exits at once */
    pt_send("perft 20");
    pt_exchange(NULL);
    pt_send("quit");
    ck_assert_int_eq(pipe_engine_wait(&pt_engine, T_SHORT), 0);
    pt_finish();
}
END_TEST

/* The first roll `go` answers in Alexander's start with this Seed, read
 * from a fresh engine. */
static void rolls_with_seed(const char *seed, char rolls[][MOVE_STR_MAX], int count)
{
    pt_start();
    pt_exchange("variant alexander");
    char cmd[96];
    snprintf(cmd, sizeof cmd, "setoption name Seed value %s", seed);
    ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
    for (int i = 0; i < count; i++) {
        const char *best = go_answers_once("go depth 1", 0);
        ck_assert_int_eq(sscanf(best, "bestmove %63s", rolls[i]), 1);
    }
    pt_finish();
}

START_TEST(go_at_a_roll_answers_a_roll_from_the_engines_dice)
{
    enum { ROLLS = 6 };
    char a[ROLLS][MOVE_STR_MAX], b[ROLLS][MOVE_STR_MAX], c[ROLLS][MOVE_STR_MAX],
        d[ROLLS][MOVE_STR_MAX];
    Game g;
    game_init(&g, variants_find("alexander"), &default_config);
    char all[MAX_MOVES * MOVE_STR_MAX], list[sizeof all + 2];
    library_moves(&g, all, sizeof all);
    snprintf(list, sizeof list, " %s ", all);
    /* A seed makes the rolls reproducible; each is one of the 36 outcomes. */
    rolls_with_seed("4242", a, ROLLS);
    rolls_with_seed("4242", b, ROLLS);
    for (int i = 0; i < ROLLS; i++) {
        ck_assert_str_eq(a[i], b[i]);
        ck_assert_msg(pt_list_has(list, a[i]), "roll %s is not an outcome", a[i]);
    }
    /* Seed 0 rolls from the clock: two sessions differ (36^-6 to fail). */
    rolls_with_seed("0", c, ROLLS);
    rolls_with_seed("0", d, ROLLS);
    bool differ = false;
    for (int i = 0; i < ROLLS; i++)
        differ |= strcmp(c[i], d[i]) != 0;
    ck_assert(differ);
    /* The answer is playable, and the side then gets a move, not a roll. */
    pt_start();
    pt_exchange("variant alexander");
    pt_exchange("setoption name Seed value 4242");
    const char *best = go_answers_once("go wtime 1000 btime 1000", 0);
    char roll[64], cmd[128];
    ck_assert_int_eq(sscanf(best, "bestmove %63s", roll), 1);
    ck_assert_str_eq(roll, a[0]);
    snprintf(cmd, sizeof cmd, "move %s", roll);
    ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
    ck_assert_str_eq(pt_query("chance"), "false");
    char moves[1 << 14];
    pt_legal_moves(moves, sizeof moves);
    best = go_answers_once("go depth 2", 0);
    ck_assert_int_eq(sscanf(best, "bestmove %63s", roll), 1);
    ck_assert(pt_list_has(moves, roll));
    /* `roll` draws from the same dice: after Seed 4242 again, the same roll. */
    pt_exchange("position startpos");
    pt_exchange("setoption name Seed value 4242");
    const char *out = pt_exchange("roll");
    snprintf(cmd, sizeof cmd, "roll %s\n", a[0]);
    ck_assert_str_eq(out, cmd);
    pt_finish();
    game_free(&g);
}
END_TEST

START_TEST(variant_names_are_case_insensitive)
{
    pt_start();
    static const char *const lines[] = {"variant SALTO", "setoption name UCI_Variant value Pyramid",
                                        "setoption name uci_variant value LUPTA",
                                        "variant Solomon-Chain", "variant AlExAnDeR"};
    static const char *const names[] = {"salto", "pyramid", "lupta", "solomon-chain", "alexander"};
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        ck_assert_int_eq(pt_count_lines(pt_exchange(lines[i]), "info string error"), 0);
        ck_assert_str_eq(pt_query("variant"), names[i]);
    }
    pt_assert_rejected("variant salto2");
    pt_finish();
}
END_TEST

START_TEST(numbers_are_parsed_strictly)
{
    pt_start();
    static const char *const bad[] = {
        "setoption name Hash value +16",   "setoption name Hash value 16.0",
        "setoption name Hash value 0x10",  "setoption name Hash value -1",
        "setoption name Hash value 0",     "setoption name Hash value 4097",
        "setoption name Hash value 99999999999999999999",
        "setoption name Hash value",       "setoption name Threads value 257",
        "setoption name Threads value +1", "setoption name MultiPV value 1e3",
        "setoption name Seed value +5",    "setoption name Seed value 2147483648",
        "setoption name Move Overhead value -1", "setoption name Move Overhead value 5001",
        "setoption name MoveLimit value 0", "setoption name MoveLimit value +80",
        "setoption name Clear Hash value 1", "bench +1", "bench 0", "bench 1 2",
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        pt_assert_rejected(bad[i]);
    static const char *const good[] = {
        "setoption name Hash value 1", "setoption name Threads value 2",
        "setoption name Move Overhead value 0", "setoption name move overhead value 100",
        "setoption name Seed value 2147483647", "setoption name Clear Hash",
    };
    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        ck_assert_int_eq(pt_count_lines(pt_exchange(good[i]), "info string error"), 0);
    pt_send("uci");
    pt_seen[0] = '\0';
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "uciok", T_SHORT, pt_seen, sizeof pt_seen));
    ck_assert_ptr_nonnull(
        strstr(pt_seen, "option name Move Overhead type spin default 20 min 0 max 5000\n"));
    ck_assert_ptr_nonnull(strstr(pt_seen, "option name Threads type spin default 1 min 1 max 256\n"));
    ck_assert_ptr_nonnull(strstr(pt_seen, "option name Hash type spin default 16 min 1 max 4096\n"));
    pt_finish();
}
END_TEST

/* A build under ASan or TSan: gcc says so with __SANITIZE_*__, clang with
 * __has_feature. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED_BUILD 1
#endif
#endif

START_TEST(a_hash_that_cannot_be_allocated_is_an_error_and_the_old_table_stays)
{
#ifdef SANITIZED_BUILD
    /* The sanitizers reserve terabytes of address space: no RLIMIT_AS. */
    return;
#else
    static const char *const none[] = {NULL};
    pt_start_args(none, (size_t)1 << 30); /* 1 GB of address space */
    const char *out = pt_exchange("setoption name Hash value 4096");
    ck_assert_msg(pt_count_lines(out, "info string error: cannot allocate a 4096 MB hash table; "
                                      "keeping 16 MB") == 1, "%s", out);
    /* The engine goes on with the old table. */
    go_answers_once("go depth 4", 0);
    ck_assert_int_eq(pt_count_lines(pt_exchange("setoption name Hash value 32"), "info string error"), 0);
    out = pt_exchange("setoption name Hash value 4000");
    ck_assert_int_eq(pt_count_lines(out, "info string error: cannot allocate a 4000 MB hash "
                                         "table; keeping 32 MB"), 1);
    go_answers_once("go depth 4", 0);
    pt_finish();
#endif
}
END_TEST

START_TEST(results_give_the_reason_and_a_margin_only_where_the_game_scores_one)
{
    pt_start();
    static char cmd[1 << 16];
    for (int vi = 0; vi < variants_count(); vi++) {
        const Variant *v = variants_get(vi);
        Game g;
        game_init(&g, v, &default_config);
        uint64_t rng = 99 + (uint64_t)vi;
        int len = snprintf(cmd, sizeof cmd, "position startpos moves");
        while (game_result(&g, NULL, NULL) == RESULT_NONE && g.ply < 3000) {
            Move moves[MAX_MOVES];
            int n = v->generate(&g.pos, moves);
            ck_assert_int_gt(n, 0);
            Move m = moves[util_random_below(&rng, (uint64_t)n)];
            char text[MOVE_STR_MAX];
            v->move_str(&g.pos, m, text);
            len += snprintf(cmd + len, sizeof cmd - (size_t)len, " %s", text);
            game_play(&g, m);
        }
        int margin = 0;
        const char *reason = NULL;
        Result r = game_result(&g, &margin, &reason);
        ck_assert_int_ne(r, RESULT_NONE);
        char want[256], variant[96];
        bool scored = v->match_scoring == MATCH_SCORING_COUNTING ||
                      v->match_scoring == MATCH_SCORING_MARGIN_SUM;
        if (scored)
            snprintf(want, sizeof want, "Result: %s (%s, margin %d)", game_result_word(r), reason,
                     margin);
        else
            snprintf(want, sizeof want, "Result: %s (%s)", game_result_word(r), reason);
        snprintf(variant, sizeof variant, "variant %s", v->name);
        pt_exchange(variant);
        ck_assert_int_eq(pt_count_lines(pt_exchange(cmd), "info string error"), 0);
        const char *line = pt_find_line(pt_exchange("d"), "Result: ");
        ck_assert_ptr_nonnull(line);
        ck_assert_str_eq(line, want);
        ck_assert_str_eq(pt_query("result"), game_result_word(r)); /* the one line */
        ck_assert_str_eq(pt_query("moves"), "none");
        ck_assert_str_eq(go_answers_once("go depth 3", 0), "bestmove 0000");
        game_free(&g);
    }
    pt_finish();
}
END_TEST

START_TEST(an_unknown_query_gets_response_none_then_an_error)
{
    pt_start();
    const char *out = pt_exchange("query colour");
    ck_assert_int_eq(pt_count_lines(out, "info string error: unknown query 'colour'"), 1);
    ck_assert_int_eq(pt_count_lines(out, "response none"), 1);
    ck_assert_int_eq(pt_count_lines(out, ""), 2);
    ck_assert_msg(strncmp(out, "response none\n", 14) == 0, "the error came first:\n%s", out);
    out = pt_exchange("query");
    ck_assert_int_eq(pt_count_lines(out, "response none"), 1);
    /* Queries are answered during a search too, at once. */
    pt_send("go infinite");
    ck_assert_str_eq(pt_query("gameover"), "false");
    ck_assert_str_eq(pt_query("chance"), "false");
    char moves[1 << 14];
    pt_legal_moves(moves, sizeof moves);
    ck_assert_int_eq(pt_count_lines(pt_exchange(NULL), "bestmove"), 0);
    pt_seen[0] = '\0';
    pt_send("stop");
    ck_assert_ptr_nonnull(pipe_engine_expect(&pt_engine, "bestmove ", T_SHORT, pt_seen, sizeof pt_seen));
    pt_finish();
}
END_TEST

static Suite *oracle_suite(void)
{
    Suite *s = suite_create("oracle");
    TCase *tc = tcase_create("pipes");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, queries_agree_with_the_games_own_functions_in_every_variant);
    tcase_add_test(tc, move_and_undo_keep_the_history_that_threefold_repetition_sees);
    tcase_add_test(tc, every_go_that_used_to_hang_answers_one_bestmove_at_once);
    tcase_add_test(tc, huge_clock_values_are_safe_and_stop_answers);
    tcase_add_test(tc, end_of_input_stops_the_search_answers_once_and_exits);
    tcase_add_test(tc, perft_runs_in_the_worker_and_stops);
    tcase_add_test(tc, go_at_a_roll_answers_a_roll_from_the_engines_dice);
    tcase_add_test(tc, variant_names_are_case_insensitive);
    tcase_add_test(tc, numbers_are_parsed_strictly);
    tcase_add_test(tc, a_hash_that_cannot_be_allocated_is_an_error_and_the_old_table_stays);
    tcase_add_test(tc, results_give_the_reason_and_a_margin_only_where_the_game_scores_one);
    tcase_add_test(tc, an_unknown_query_gets_response_none_then_an_error);
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
