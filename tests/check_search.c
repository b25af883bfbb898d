/* check_search.c - the search (search.c, movepick.c, threads.c) on the toy
 * games of core_test.h, so that it does not depend on the real games. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core_test.h"
#include "game.h"
#include "movepick.h"
#include "search.h"
#include "threads.h"
#include "tt.h"
#include "util.h"
#include "variant.h"

START_TEST(test_nim_finds_winning_move_and_mate_distance)
{
    Game g;
    nim_game(&g, "10 w");
    SearchResult r = run(&g, 40, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    /* Leave a multiple of four: take 2.  We win on our third move: 5 plies. */
    ck_assert_str_eq(buf, "t2");
    ck_assert_int_eq(r.score, SCORE_WIN - 5);
    char sc[32];
    search_format_score(r.score, sc);
    ck_assert_str_eq(sc, "mate 3");
    ck_assert(lines_contain("score mate 3"));
    /* Proved without heuristic leaves: no need to go on to depth 40. */
    ck_assert_int_lt(r.depth, 40);
    game_free(&g);
}
END_TEST

START_TEST(test_nim_losing_side_reports_negative_mate)
{
    Game g;
    nim_game(&g, "8 w");
    SearchResult r = run(&g, 40, 0, 1, 1);
    /* Every move loses; the longest defence takes one token each time:
     * 8 -> 7 -> 4 -> 3 -> 0: the loss comes at ply 4 (mate -2). */
    ck_assert_int_eq(r.score, -(SCORE_WIN - 4));
    char sc[32];
    search_format_score(r.score, sc);
    ck_assert_str_eq(sc, "mate -2");
    ck_assert(r.best != MOVE_NONE);
    game_free(&g);
}
END_TEST

START_TEST(test_finished_game_returns_no_move_with_a_score_line)
{
    Game g;
    nim_game(&g, "0 w");
    SearchResult r = run(&g, 5, 0, 1, 1);
    ck_assert(r.best == MOVE_NONE);
    ck_assert_int_eq(r.score, -SCORE_WIN);
    ck_assert_int_eq(lines.count, 1);
    ck_assert(lines_contain("info depth 0 seldepth 0 multipv 1 score mate 0 nodes 0"));
    game_free(&g);
}
END_TEST

START_TEST(test_search_reports_no_text_of_the_game)
{
    /* The game's own analysis (describe) is the caller's to print: the
     * search reports iterations only. */
    Game g;
    nim_game(&g, "6 b");
    run(&g, 3, 0, 1, 1);
    ck_assert_int_gt(lines.count, 1);
    for (int i = 0; i < lines.count; i++)
        ck_assert_msg(strncmp(lines.text[i], "info depth ", 11) == 0, "%s", lines.text[i]);
    game_free(&g);
}
END_TEST

START_TEST(test_info_line_format)
{
    Game g;
    game_init(&g, &drift, &cfg);
    run(&g, 3, 0, 1, 1);
    ck_assert_int_eq(lines.count, 3);
    for (int i = 0; i < 3; i++) {
        const char *l = lines.text[i];
        ck_assert_msg(strncmp(l, "info depth ", 11) == 0, "%s", l);
        ck_assert_int_eq(field(l, "depth", -1), i + 1);
        ck_assert_int_ge(field(l, "seldepth", -1), i + 1);
        ck_assert_int_eq(field(l, "multipv", -1), 1);
        ck_assert_msg(strstr(l, " score cp ") != NULL, "%s", l);
        ck_assert_int_gt(field(l, "nodes", -1), 0);
        ck_assert_int_ge(field(l, "nps", -1), 0);
        ck_assert_int_ge(field(l, "time", -1), 0);
        ck_assert_int_ge(field(l, "hashfull", -1), 0);
        ck_assert_msg(strstr(l, " pv m") != NULL, "%s", l);
    }
    game_free(&g);
}
END_TEST

START_TEST(test_format_score)
{
    char b[32];
    search_format_score(0, b);
    ck_assert_str_eq(b, "cp 0");
    search_format_score(-123, b);
    ck_assert_str_eq(b, "cp -123");
    search_format_score(SCORE_WIN - 1, b);
    ck_assert_str_eq(b, "mate 1");
    search_format_score(SCORE_WIN - 3, b);
    ck_assert_str_eq(b, "mate 2");
    search_format_score(SCORE_WIN - 4, b);
    ck_assert_str_eq(b, "mate 2");
    search_format_score(-(SCORE_WIN - 2), b);
    ck_assert_str_eq(b, "mate -1");
    search_format_score(-(SCORE_WIN - 1), b);
    ck_assert_str_eq(b, "mate -1");
    search_format_score(-SCORE_WIN, b);
    ck_assert_str_eq(b, "mate 0");
}
END_TEST

/* Forced capture horizon. */
static const TNode capture_nodes[] = {
    /* 0 */ {W, false, NONE, 0, false, 2, {{"bait", 1, false}, {"safe", 2, false}}},
    /* 1 */ {B, false, NONE, 0, false, 1, {{"cap", 3, true}}},
    /* 2 */ {B, false, NONE, 2, false, 1, {{"m", 7, false}}},
    /* 3 */ {W, false, NONE, -1, false, 2, {{"recap", 4, true}, {"quiet", 5, false}}},
    /* 4 */ {B, false, NONE, 9, false, 1, {{"m", 7, false}}},
    /* 5 */ {B, false, NONE, -1, false, 1, {{"m", 7, false}}},
    /* 6 */ {W, false, NONE, 0, false, 1, {{"m", 7, false}}},
    /* 7 */ {W, false, DRAW, 0, false, 0, {{0}}},
    /* 8 */ {W, false, NONE, 0, false, 2, {{"bait", 9, false}, {"safe", 2, false}}},
    /* 9 */ {B, false, NONE, 0, false, 2, {{"cap", 3, true}, {"decline", 6, false}}},
};
static const TTable capture_table = {capture_nodes, 10};

START_TEST(test_quiescence_has_no_stand_pat_when_every_move_captures)
{
    /* After "bait" Black must capture (+1 for Black), then White recaptures
     * (+10): the horizon must not stop after Black's forced capture. */
    Game g;
    table_game_at(&g, &table_game, &capture_table, 0);
    SearchResult r = run(&g, 1, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "bait");
    ck_assert_int_eq(r.score, 9);
    game_free(&g);
}
END_TEST

START_TEST(test_quiescence_stands_pat_when_a_quiet_move_exists)
{
    /* The same bait, but Black may decline: Black stands pat at 0, so the
     * safe +2 is better. */
    Game g;
    table_game_at(&g, &table_game, &capture_table, 8);
    SearchResult r = run(&g, 1, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "safe");
    ck_assert_int_eq(r.score, 2);
    game_free(&g);
}
END_TEST

/* A forced exchange seven plies long: the quiescence limit on voluntary noisy
 * moves must not cut it. */
static const TNode chain_nodes[] = {
    /* 0 */ {W, false, NONE, 0, false, 2, {{"bait", 1, false}, {"safe", 9, false}}},
    /* 1 */ {B, false, NONE, -100, false, 1, {{"x1", 2, true}}},
    /* 2 */ {W, false, NONE, -100, false, 1, {{"x2", 3, true}}},
    /* 3 */ {B, false, NONE, -100, false, 1, {{"x3", 4, true}}},
    /* 4 */ {W, false, NONE, -100, false, 1, {{"x4", 5, true}}},
    /* 5 */ {B, false, NONE, -100, false, 1, {{"x5", 6, true}}},
    /* 6 */ {W, false, NONE, -100, false, 1, {{"x6", 7, true}}},
    /* 7 */ {B, false, NONE, -100, false, 1, {{"x7", 8, true}}},
    /* 8 */ {W, false, NONE, 50, false, 1, {{"m", 10, false}}},
    /* 9 */ {B, false, NONE, 10, false, 1, {{"m", 10, false}}},
    /* 10 */ {W, false, DRAW, 0, false, 0, {{0}}},
};
static const TTable chain_table = {chain_nodes, 11};

START_TEST(test_quiescence_follows_a_long_forced_exchange_to_its_end)
{
    Game g;
    table_game_at(&g, &table_game, &chain_table, 0);
    SearchResult r = run(&g, 1, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "bait"); /* -100 all the way, +50 at the end */
    ck_assert_int_eq(r.score, 50);
    game_free(&g);
}
END_TEST

/* Chance: White moves, then Black rolls (side changes through a move) and
 * acts; or White rolls again (no change) and acts. */
static const TNode chance_nodes[] = {
    /* 0 R  */ {W, false, NONE, 0, false, 2, {{"p", 1, false}, {"q", 2, false}}},
    /* 1 C1 */ {B, true, NONE, 0, false, 3, {{"r1", 3, false}, {"r2", 4, false}, {"r3", 5, false}}},
    /* 2 C2 */ {W, true, NONE, 0, false, 2, {{"s1", 6, false}, {"s2", 7, false}}},
    /* 3 B1 */ {B, false, NONE, 0, false, 2, {{"a", 8, false}, {"b", 9, false}}},
    /* 4 B2 */ {B, false, NONE, 0, false, 2, {{"a", 10, false}, {"b", 11, false}}},
    /* 5 B3 */ {B, false, NONE, 0, false, 1, {{"a", 12, false}}},
    /* 6 W1 */ {W, false, NONE, 0, false, 2, {{"a", 13, false}, {"b", 14, false}}},
    /* 7 W2 */ {W, false, NONE, 0, false, 2, {{"a", 15, false}, {"b", 16, false}}},
    /* 8  */ {W, false, NONE, 30, true, 1, {{"e", 17, false}}},
    /* 9  */ {W, false, NONE, -60, true, 1, {{"e", 17, false}}},
    /* 10 */ {W, false, NONE, 90, true, 1, {{"e", 17, false}}},
    /* 11 */ {W, false, NONE, 120, true, 1, {{"e", 17, false}}},
    /* 12 */ {W, false, NONE, 0, true, 1, {{"e", 17, false}}},
    /* 13 */ {B, false, NONE, -40, true, 1, {{"e", 17, false}}},
    /* 14 */ {B, false, NONE, 20, true, 1, {{"e", 17, false}}},
    /* 15 */ {B, false, NONE, -11, true, 1, {{"e", 17, false}}},
    /* 16 */ {B, false, NONE, -31, true, 1, {{"e", 17, false}}},
    /* 17 */ {W, false, DRAW, 0, false, 0, {{0}}},
};
static const TTable chance_table = {chance_nodes, 18};

START_TEST(test_chance_expectimax_value_by_hand)
{
    /* p: Black rolls; B1 picks -60, B2 picks +90, B3 has 0 (White's view):
     *    (-60 + 90 + 0) / 3 = 10.
     * q: White rolls; W1 picks +20, W2 picks -11: (20 - 11) / 2 = 4 (4.5
     *    truncated toward zero).  White plays p for 10. */
    Game g;
    table_game_at(&g, &table_game, &chance_table, 0);
    SearchResult r = run(&g, 10, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "p");
    ck_assert_int_eq(r.score, 10);
    /* Every leaf met at depth 2 is exact: the search stops there. */
    ck_assert_int_eq(r.depth, 2);
    /* The PV stops at the chance node. */
    ck_assert(lines_contain("score cp 10 "));
    ck_assert(strstr(lines.text[lines.count - 1], " pv p") != NULL);
    game_free(&g);
}
END_TEST

START_TEST(test_chance_root_reports_value_without_a_move)
{
    Game g;
    /* Black about to roll: from Black's view B1 = +60, B2 = -90, B3 = 0. */
    table_game_at(&g, &table_game, &chance_table, 1);
    SearchResult r = run(&g, 10, 0, 1, 1);
    ck_assert(r.best == MOVE_NONE);
    ck_assert_int_eq(r.score, -10);
    ck_assert(lines_contain("score cp -10"));
    /* White about to roll again (same side as the action that follows). */
    game_free(&g);
    table_game_at(&g, &table_game, &chance_table, 2);
    r = run(&g, 10, 0, 1, 1);
    ck_assert(r.best == MOVE_NONE);
    ck_assert_int_eq(r.score, 4);
    game_free(&g);
}
END_TEST

/* Random expectimax trees against a brute-force solver. */
static TNode random_nodes[4096];
static int random_count;

static int random_tree_node(uint64_t *rng, int level, int height)
{
    int id = random_count++;
    TNode *nd = &random_nodes[id];
    memset(nd, 0, sizeof *nd);
    nd->stm = (int)util_random_below(rng, 2);
    int kind = level == height ? 0 : (int)util_random_below(rng, 10);
    if (level > 0 && kind == 0) {
        static const Result results[] = {RESULT_WHITE_WINS, RESULT_BLACK_WINS, RESULT_DRAW};
        nd->result = results[util_random_below(rng, 3)];
        return id;
    }
    nd->chance = kind >= 6;
    nd->n = 1 + (int)util_random_below(rng, nd->chance ? 4 : 3);
    if (nd->chance && nd->n == 1)
        nd->n = 2;
    nd->eval = (int)util_random_below(rng, 201) - 100;
    static const char *names[] = {"a", "b", "c", "d", "e", "f"};
    for (int i = 0; i < nd->n; i++) {
        int child = random_tree_node(rng, level + 1, height);
        nd = &random_nodes[id];
        nd->e[i].name = names[i];
        nd->e[i].to = child;
    }
    return id;
}

static int brute_force(int id, int ply)
{
    const TNode *nd = &random_nodes[id];
    if (nd->result != RESULT_NONE) {
        if (nd->result == RESULT_DRAW)
            return 0;
        int winner = nd->result == RESULT_WHITE_WINS ? WHITE : BLACK;
        return winner == nd->stm ? SCORE_WIN - ply : -(SCORE_WIN - ply);
    }
    int best = -SCORE_INF;
    long sum = 0;
    for (int i = 0; i < nd->n; i++) {
        int c = nd->e[i].to;
        int v = brute_force(c, ply + 1);
        if (random_nodes[c].stm != nd->stm)
            v = -v;
        sum += v;
        if (v > best)
            best = v;
    }
    return nd->chance ? (int)(sum / nd->n) : best;
}

START_TEST(test_star1_keeps_expectimax_values_on_random_trees)
{
    uint64_t rng = 2024;
    static TTable random_table = {random_nodes, 0};
    for (int tree = 0; tree < 300; tree++) {
        random_count = 0;
        random_tree_node(&rng, 0, 3 + tree % 4);
        ck_assert_int_lt(random_count, 4096);
        random_table.count = random_count;
        Game g;
        table_game_at(&g, &table_game, &random_table, 0);
        search_clear();
        SearchResult r = run(&g, 30, 0, 1, 1);
        int expect = brute_force(0, 0);
        ck_assert_msg(r.score == expect, "tree %d: search %d, brute force %d", tree, r.score,
                      expect);
        if (random_nodes[0].chance)
            ck_assert(r.best == MOVE_NONE);
        else
            ck_assert(r.best != MOVE_NONE);
        game_free(&g);
    }
}
END_TEST

START_TEST(test_repetition_of_game_history_scores_draw)
{
    Game g;
    table_game_at(&g, &table_rep, &rep_table, 0);
    play(&g, "a b");
    SearchResult r = run(&g, 6, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "c"); /* back to B, which the game has seen */
    ck_assert_int_eq(r.score, 0);
    game_free(&g);
}
END_TEST

START_TEST(test_repetition_on_search_path_scores_draw)
{
    Game g;
    table_game_at(&g, &table_rep, &rep_table, 2); /* no history at all */
    SearchResult r = run(&g, 6, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "c"); /* C -> B -> C repeats the root */
    ck_assert_int_eq(r.score, 0);
    game_free(&g);
}
END_TEST

START_TEST(test_no_repetition_draw_in_games_without_it)
{
    Game g;
    table_game_at(&g, &table_game, &rep_table, 0);
    play(&g, "a b");
    SearchResult r = run(&g, 6, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "c");
    ck_assert_int_eq(r.score, -100); /* the cycle keeps its evaluation */
    game_free(&g);
}
END_TEST

/* Passes and extra turns: the side changes through a pass, not through an
 * extra turn. */
static const TNode pass_nodes[] = {
    /* 0 */ {W, false, NONE, 0, false, 2, {{"x", 1, false}, {"z", 3, false}}},
    /* 1 */ {B, false, NONE, 0, false, 1, {{"0000", 2, false}}},
    /* 2 */ {W, false, NONE, 0, false, 1, {{"y", 4, false}}},
    /* 3 */ {B, false, NONE, 0, false, 1, {{"u", 5, false}}},
    /* 4 */ {B, false, WWIN, 0, false, 0, {{0}}},
    /* 5 */ {W, false, BWIN, 0, false, 0, {{0}}},
    /* 6 */ {W, false, NONE, 0, false, 3, {{"x", 1, false}, {"z", 3, false}, {"bonus", 7, false}}},
    /* 7 */ {W, false, NONE, 0, false, 2, {{"lose", 3, false}, {"win", 4, false}}},
};
static const TTable pass_table = {pass_nodes, 8};

START_TEST(test_pass_is_a_move_that_changes_the_side)
{
    Game g;
    table_game_at(&g, &table_game, &pass_table, 0);
    SearchResult r = run(&g, 10, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "x"); /* x, Black passes, y wins at ply 3 */
    ck_assert_int_eq(r.score, SCORE_WIN - 3);
    ck_assert(lines_contain("score mate 2"));
    ck_assert(lines_contain(" pv x 0000 y"));
    game_free(&g);
}
END_TEST

START_TEST(test_extra_turn_keeps_the_side)
{
    Game g;
    table_game_at(&g, &table_game, &pass_table, 6);
    SearchResult r = run(&g, 10, 0, 1, 1);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, "bonus"); /* White moves twice and wins at ply 2 */
    ck_assert_int_eq(r.score, SCORE_WIN - 2);
    ck_assert(r.ponder == 2); /* "win" */
    game_free(&g);
}
END_TEST

START_TEST(test_depth_limit)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchResult r = run(&g, 4, 0, 1, 1);
    ck_assert_int_eq(r.depth, 4);
    ck_assert_int_eq(lines.count, 4);
    ck_assert_int_eq(field(lines.text[3], "depth", 0), 4);
    ck_assert(drift_is_legal(&g, r.best));
    game_free(&g);
}
END_TEST

START_TEST(test_node_limit)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchResult r = run(&g, 0, 5000, 1, 1);
    ck_assert_uint_le(r.nodes, 5000);
    ck_assert_uint_ge(r.nodes, 4000);
    ck_assert(drift_is_legal(&g, r.best));
    r = run(&g, 0, 20000, 2, 1);
    ck_assert_uint_le(r.nodes, 20000 + 2 * 256);
    ck_assert(drift_is_legal(&g, r.best));
    /* A budget too small for depth 1 still yields a legal move. */
    r = run(&g, 0, 3, 1, 1);
    ck_assert(drift_is_legal(&g, r.best));
    ck_assert(lines_contain(" score "));
    game_free(&g);
}
END_TEST

START_TEST(test_deterministic_single_thread)
{
    Game g;
    game_init(&g, &drift, &cfg);
    search_clear();
    SearchResult a = run(&g, 6, 0, 1, 1);
    search_clear();
    SearchResult b = run(&g, 6, 0, 1, 1);
    ck_assert_uint_eq(a.nodes, b.nodes);
    ck_assert(a.best == b.best);
    ck_assert_int_eq(a.score, b.score);
    game_free(&g);
}
END_TEST

/* A search run in a thread of its own, steered through its signal. */
typedef struct Job {
    Game *g;
    SearchLimits limits;
    SearchOptions options;
    SearchSignal signal;
    SearchResult r;
    pthread_t thread;
    atomic_bool done;
} Job;

static void *job_main(void *arg)
{
    Job *j = arg;
    j->r = search_run(j->g, &j->limits, &j->options, &j->signal, collect, (void *)j->g->variant);
    atomic_store(&j->done, true);
    return NULL;
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static void job_start(Job *j)
{
    lines_reset();
    search_signal_init(&j->signal);
    atomic_init(&j->done, false);
    ck_assert_int_eq(pthread_create(&j->thread, NULL, job_main, j), 0);
}

/* Wait for the job to return; ms it took from the call. */
static int64_t job_join(Job *j)
{
    int64_t t0 = util_now_ms();
    pthread_join(j->thread, NULL);
    search_signal_destroy(&j->signal);
    return util_now_ms() - t0;
}

static int64_t run_job_and_stop_after(Job *j, int ms)
{
    job_start(j);
    sleep_ms(ms);
    search_signal_stop(&j->signal);
    return job_join(j);
}

START_TEST(test_stop_flag_ends_the_search_promptly)
{
    Game g;
    game_init(&g, &drift, &cfg);
    for (int threads = 1; threads <= 2; threads++) {
        Job j;
        search_limits_clear(&j.limits);
        j.limits.infinite = true;
        j.g = &g;
        j.options = (SearchOptions){threads, 1, NULL, NULL};
        int64_t waited = run_job_and_stop_after(&j, 150);
        ck_assert_int_lt(waited, 500); /* generous: a loaded machine */
        ck_assert(drift_is_legal(&g, j.r.best));
        ck_assert(lines_contain(" score "));
    }
    game_free(&g);
}
END_TEST

START_TEST(test_infinite_waits_for_stop_even_when_solved)
{
    Game g;
    nim_game(&g, "5 w");
    Job j;
    search_limits_clear(&j.limits);
    j.limits.infinite = true;
    j.g = &g;
    j.options = (SearchOptions){1, 1, NULL, NULL};
    int64_t t0 = util_now_ms();
    run_job_and_stop_after(&j, 120);
    ck_assert_int_ge(util_now_ms() - t0, 110);
    ck_assert_uint_eq(j.r.best, 1); /* take one, leave four */
    game_free(&g);
}
END_TEST

/* CPU time of thread th in microseconds. */
static int64_t thread_cpu_us(pthread_t th)
{
    clockid_t clock;
    struct timespec ts;
    ck_assert_int_eq(pthread_getcpuclockid(th, &clock), 0);
    clock_gettime(clock, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

START_TEST(test_waiting_for_stop_costs_no_cpu)
{
    /* Solved at once, then it waits for stop: asleep, not polling. */
    Game g;
    nim_game(&g, "5 w");
    Job j;
    search_limits_clear(&j.limits);
    j.limits.infinite = true;
    j.g = &g;
    j.options = (SearchOptions){2, 1, NULL, NULL};
    job_start(&j);
    for (int waited = 0; lines_count() == 0 && waited < 10000; waited += 10)
        sleep_ms(10); /* the search has reported: it is done and waits */
    sleep_ms(200);
    /* The waiting is done by the thread that called search_run (the pool's
     * workers have returned to their own sleep). */
    int64_t c0 = thread_cpu_us(j.thread);
    sleep_ms(300);
    int64_t used = thread_cpu_us(j.thread) - c0;
    ck_assert(!atomic_load(&j.done));
    search_signal_stop(&j.signal);
    job_join(&j);
    /* Measured (whole process): about 16 us asleep on the condition
     * variable, about 3400 us when it polled every millisecond. */
    ck_assert_int_lt(used, 1000);
    game_free(&g);
}
END_TEST

START_TEST(test_ponder_searches_untimed_until_ponderhit_then_under_the_clock)
{
    Game g;
    game_init(&g, &drift, &cfg);
    Job j;
    search_limits_clear(&j.limits);
    j.limits.ponder = true;
    j.limits.movetime = 300;
    j.limits.move_overhead = 0;
    j.g = &g;
    j.options = (SearchOptions){1, 1, NULL, NULL};
    job_start(&j);
    sleep_ms(600); /* twice the move time: pondering is not on the clock */
    ck_assert(!atomic_load(&j.done));
    int lines_at_hit = lines_count();
    search_signal_ponderhit(&j.signal);
    int64_t after = job_join(&j);
    /* The search went on for its move time after the ponderhit, and ended. */
    ck_assert_int_ge(after, 250);
    ck_assert_int_le(after, 300 + 1500); /* generous: a loaded machine */
    ck_assert(drift_is_legal(&g, j.r.best));
    ck_assert_int_ge(lines.count, lines_at_hit);
    ck_assert_int_gt(j.r.depth, 1);
    game_free(&g);
}
END_TEST

START_TEST(test_ponder_answers_at_ponderhit_when_already_done)
{
    /* Solved while pondering: it waits, and answers at once on ponderhit. */
    Game g;
    nim_game(&g, "5 w");
    Job j;
    search_limits_clear(&j.limits);
    j.limits.ponder = true;
    j.limits.time[WHITE] = 60000;
    j.limits.time[BLACK] = 60000;
    j.g = &g;
    j.options = (SearchOptions){1, 1, NULL, NULL};
    job_start(&j);
    sleep_ms(200);
    ck_assert(!atomic_load(&j.done));
    search_signal_ponderhit(&j.signal);
    ck_assert_int_lt(job_join(&j), 1000); /* its clock would allow 2000 */
    ck_assert_uint_eq(j.r.best, 1);
    game_free(&g);
}
END_TEST

START_TEST(test_stop_ends_a_ponder_search)
{
    Game g;
    game_init(&g, &drift, &cfg);
    Job j;
    search_limits_clear(&j.limits);
    j.limits.ponder = true;
    j.limits.movetime = 100000;
    j.g = &g;
    j.options = (SearchOptions){2, 1, NULL, NULL};
    ck_assert_int_lt(run_job_and_stop_after(&j, 150), 500);
    ck_assert(drift_is_legal(&g, j.r.best));
    /* A stop raised before the search starts is not lost. */
    search_signal_init(&j.signal);
    search_signal_stop(&j.signal);
    SearchResult r = search_run(&g, &j.limits, &j.options, &j.signal, NULL, NULL);
    ck_assert(drift_is_legal(&g, r.best));
    search_signal_destroy(&j.signal);
    game_free(&g);
}
END_TEST

/* CPU time of this process in ms: what the search itself consumed (it runs
 * on one pool worker; the test's own thread only waits). */
static int64_t process_cpu_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

START_TEST(test_movetime_is_honoured)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchLimits l;
    search_limits_clear(&l);
    l.movetime = 200;
    SearchOptions o = {1, 1, NULL, NULL};
    int64_t t0 = util_now_ms(), c0 = process_cpu_ms();
    SearchResult r = search_run(&g, &l, &o, NULL, collect, (void *)g.variant);
    int64_t took = util_now_ms() - t0, cpu = process_cpu_ms() - c0;
    /* The search's own consumption is its CPU time; wall time also holds
     * whatever the scheduler adds on a loaded machine, so it only gets a
     * sanity bound. */
    ck_assert_int_le(cpu, 260);
    ck_assert_int_le(took, 200 + 1500);
    ck_assert_int_ge(took, 100);
    ck_assert(drift_is_legal(&g, r.best));
    game_free(&g);
}
END_TEST

START_TEST(test_clock_is_never_overrun)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchOptions o = {1, 1, NULL, NULL};
    static const int64_t clocks[] = {0, 5, 40, 300, 1000};
    search_set_hash(TT_DEFAULT_MB); /* as the protocol does at start-up */
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) {
        SearchLimits l;
        search_limits_clear(&l);
        l.time[WHITE] = clocks[i];
        l.time[BLACK] = 100000; /* not ours */
            int64_t t0 = util_now_ms(), c0 = process_cpu_ms();
        SearchResult r = search_run(&g, &l, &o, NULL, NULL, NULL);
        int64_t took = util_now_ms() - t0, cpu = process_cpu_ms() - c0;
        ck_assert_msg(cpu <= clocks[i] / 2 + 80, "clock %lld used %lld ms of CPU",
                      (long long)clocks[i], (long long)cpu);
        ck_assert_msg(took <= clocks[i] / 2 + 1500, "clock %lld took %lld",
                      (long long)clocks[i], (long long)took);
        ck_assert(drift_is_legal(&g, r.best));
    }
    game_free(&g);
}
END_TEST

START_TEST(test_single_legal_move_returns_quickly)
{
    Game g;
    char err[64];
    game_init(&g, &drift, &cfg);
    ck_assert(game_set_fen(&g, "99 0 1", err, sizeof err));
    SearchLimits l;
    search_limits_clear(&l);
    l.movetime = 3000;
    SearchOptions o = {1, 1, NULL, NULL};
    int64_t t0 = util_now_ms();
    SearchResult r = search_run(&g, &l, &o, NULL, NULL, NULL);
    ck_assert_int_lt(util_now_ms() - t0, 1000);
    ck_assert_uint_eq(r.best, 1);
    ck_assert_int_eq(r.depth, 1);
    game_free(&g);
}
END_TEST

START_TEST(test_multipv_returns_distinct_moves)
{
    Game g;
    game_init(&g, &drift, &cfg);
    SearchResult r = run(&g, 5, 0, 1, 3);
    /* The last three lines are depth 5, multipv 1..3. */
    ck_assert_int_ge(lines.count, 3);
    char first[3][16];
    int prev_score = SCORE_INF;
    for (int k = 0; k < 3; k++) {
        const char *l = lines.text[lines.count - 3 + k];
        ck_assert_int_eq(field(l, "depth", 0), 5);
        ck_assert_int_eq(field(l, "multipv", 0), k + 1);
        const char *pv = strstr(l, " pv ");
        ck_assert_ptr_nonnull(pv);
        sscanf(pv + 4, "%15s", first[k]);
        int s = (int)field(l, "cp", 0);
        ck_assert_int_le(s, prev_score);
        prev_score = s;
    }
    ck_assert_str_ne(first[0], first[1]);
    ck_assert_str_ne(first[0], first[2]);
    ck_assert_str_ne(first[1], first[2]);
    char buf[MOVE_STR_MAX];
    name_of(&g, r.best, buf);
    ck_assert_str_eq(buf, first[0]);
    /* MultiPV larger than the move count is cut to it. */
    r = run(&g, 2, 0, 1, 50);
    ck_assert_int_eq(field(lines.text[lines.count - 1], "multipv", 0), 8);
    game_free(&g);
}
END_TEST

START_TEST(test_two_threads_agree_on_mate)
{
    Game g;
    nim_game(&g, "14 w");
    SearchResult r = run(&g, 30, 0, 2, 1);
    ck_assert_uint_eq(r.best, 2); /* leave 12 */
    ck_assert_int_eq(r.score, SCORE_WIN - 7);
    game_free(&g);
    game_init(&g, &drift, &cfg);
    r = run(&g, 7, 0, 2, 1);
    ck_assert(drift_is_legal(&g, r.best));
    ck_assert_int_eq(r.depth, 7);
    game_free(&g);
}
END_TEST

START_TEST(test_two_threads_keep_expectimax_values)
{
    Game g;
    table_game_at(&g, &table_game, &chance_table, 0);
    SearchResult r = run(&g, 10, 0, 2, 1);
    ck_assert_int_eq(r.score, 10);
    game_free(&g);
}
END_TEST

START_TEST(test_thread_pool_keeps_its_workers_between_searches)
{
    Game g;
    game_init(&g, &drift, &cfg);
    run(&g, 3, 0, 2, 1);
    SearchThread *helper = threads_get(1);
    ck_assert_ptr_nonnull(helper);
    ck_assert_int_eq(helper->id, 1);
    run(&g, 3, 0, 2, 1);
    ck_assert_ptr_eq(threads_get(1), helper); /* the same worker, not a new one */
    ck_assert_ptr_null(threads_get(2));
    threads_set_processors(3); /* this test's machine has three cores */
    run(&g, 3, 0, 3, 1);
    ck_assert_ptr_nonnull(threads_get(2));
    /* More threads than cores: one worker per core. */
    run(&g, 3, 0, 8, 1);
    ck_assert_ptr_nonnull(threads_get(2));
    ck_assert_ptr_null(threads_get(3));
    threads_set_processors(0);
    run(&g, 3, 0, 1, 1);
    ck_assert_ptr_null(threads_get(1));
    /* Idle workers sleep: no CPU is spent between searches. */
    run(&g, 3, 0, 2, 1);
    struct timespec c0, c1, pause = {0, 200000000};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    nanosleep(&pause, NULL);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    int64_t idle_us = (c1.tv_sec - c0.tv_sec) * 1000000 + (c1.tv_nsec - c0.tv_nsec) / 1000;
    ck_assert_int_lt(idle_us, 5000);
    game_free(&g);
}
END_TEST

/* nim with a hint that prefers taking 3, then 2, then 1. */
static void nim_hints(const Position *pos, const Move *moves, int n, int *hints)
{
    (void)pos;
    for (int i = 0; i < n; i++)
        hints[i] = (int)moves[i];
}

START_TEST(test_picker_orders_equal_moves_by_the_game_hint_then_code)
{
    Variant hinted = nim;
    Position pos;
    nim_set(&pos, 10, WHITE);
    Move gen[MAX_MOVES];
    int n = nim.generate(&pos, gen);
    static MoveHistory h;
    movepick_clear_history(&h);
    ScoredMove buf[MAX_MOVES];
    MovePicker mp;
    /* Without a hint: equal scores go in ascending code order. */
    ck_assert_int_eq(movepick_init(&mp, buf, &h, &nim, &pos, gen, n, 1, MOVE_NONE, false), 3);
    for (Move want = 1; want <= 3; want++)
        ck_assert_uint_eq(movepick_next(&mp)->move, want);
    /* With it: the hint decides among equals... */
    hinted.order_hints = nim_hints;
    movepick_init(&mp, buf, &h, &hinted, &pos, gen, n, 1, MOVE_NONE, false);
    for (Move want = 3; want >= 1; want--)
        ck_assert_uint_eq(movepick_next(&mp)->move, want);
    /* ...but not over the search's own knowledge: the TT move and a killer
     * come first. */
    movepick_reward_cutoff(&h, WHITE, 1, 4, 2, NULL, 0);
    movepick_init(&mp, buf, &h, &hinted, &pos, gen, n, 1, 1, false);
    ck_assert_uint_eq(movepick_next(&mp)->move, 1);
    ck_assert_uint_eq(movepick_next(&mp)->move, 2);
    ck_assert_uint_eq(movepick_next(&mp)->move, 3);
    ck_assert_ptr_null(movepick_next(&mp));
}
END_TEST

/* ============================================================== runner */

int main(void)
{
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("search");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_nim_finds_winning_move_and_mate_distance);
    tcase_add_test(tc, test_nim_losing_side_reports_negative_mate);
    tcase_add_test(tc, test_finished_game_returns_no_move_with_a_score_line);
    tcase_add_test(tc, test_search_reports_no_text_of_the_game);
    tcase_add_test(tc, test_info_line_format);
    tcase_add_test(tc, test_format_score);
    tcase_add_test(tc, test_quiescence_has_no_stand_pat_when_every_move_captures);
    tcase_add_test(tc, test_quiescence_stands_pat_when_a_quiet_move_exists);
    tcase_add_test(tc, test_quiescence_follows_a_long_forced_exchange_to_its_end);
    tcase_add_test(tc, test_chance_expectimax_value_by_hand);
    tcase_add_test(tc, test_chance_root_reports_value_without_a_move);
    tcase_add_test(tc, test_star1_keeps_expectimax_values_on_random_trees);
    tcase_add_test(tc, test_repetition_of_game_history_scores_draw);
    tcase_add_test(tc, test_repetition_on_search_path_scores_draw);
    tcase_add_test(tc, test_no_repetition_draw_in_games_without_it);
    tcase_add_test(tc, test_pass_is_a_move_that_changes_the_side);
    tcase_add_test(tc, test_extra_turn_keeps_the_side);
    tcase_add_test(tc, test_depth_limit);
    tcase_add_test(tc, test_node_limit);
    tcase_add_test(tc, test_deterministic_single_thread);
    tcase_add_test(tc, test_stop_flag_ends_the_search_promptly);
    tcase_add_test(tc, test_infinite_waits_for_stop_even_when_solved);
    tcase_add_test(tc, test_waiting_for_stop_costs_no_cpu);
    tcase_add_test(tc, test_ponder_searches_untimed_until_ponderhit_then_under_the_clock);
    tcase_add_test(tc, test_ponder_answers_at_ponderhit_when_already_done);
    tcase_add_test(tc, test_stop_ends_a_ponder_search);
    tcase_add_test(tc, test_movetime_is_honoured);
    tcase_add_test(tc, test_clock_is_never_overrun);
    tcase_add_test(tc, test_single_legal_move_returns_quickly);
    tcase_add_test(tc, test_multipv_returns_distinct_moves);
    tcase_add_test(tc, test_two_threads_agree_on_mate);
    tcase_add_test(tc, test_two_threads_keep_expectimax_values);
    tcase_add_test(tc, test_thread_pool_keeps_its_workers_between_searches);
    tcase_add_test(tc, test_picker_orders_equal_moves_by_the_game_hint_then_code);
    suite_add_tcase(s, tc);
    return core_test_run(s);
}
