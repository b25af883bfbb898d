/* check_game.c - a game in progress (game.c): moves by text, the key
 * history and threefold repetition, copies and undo; and every registered
 * game's estimate of its length. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "core_test.h"
#include "game.h"
#include "util.h"
#include "variant.h"
#include "variants.h"

START_TEST(test_game_play_text_errors)
{
    Game g;
    nim_game(&g, "2 w");
    char err[128];
    ck_assert(!game_play_text(&g, "t3", err, sizeof err)); /* more than the pile */
    ck_assert(strstr(err, "illegal") != NULL);
    ck_assert(!game_play_text(&g, "garbage", err, sizeof err));
    ck_assert(strstr(err, "garbage") != NULL);
    ck_assert_int_eq(g.ply, 0);
    ck_assert(game_play_text(&g, "t2", err, sizeof err));
    ck_assert_int_eq(g.ply, 1);
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_WHITE_WINS);
    ck_assert(!game_play_text(&g, "t1", err, sizeof err));
    ck_assert(strstr(err, "ended") != NULL);
    ck_assert_str_eq(game_result_word(RESULT_WHITE_WINS), "p1win");
    ck_assert_str_eq(game_result_word(RESULT_BLACK_WINS), "p2win");
    ck_assert_str_eq(game_result_word(RESULT_DRAW), "draw");
    ck_assert_str_eq(game_result_word(RESULT_NONE), "none");
    ck_assert(!game_set_fen(&g, "x y", err, sizeof err));
    ck_assert_int_eq(g.ply, 1); /* unchanged */
    game_free(&g);
}
END_TEST

START_TEST(test_game_threefold_repetition)
{
    Game g;
    const char *reason = NULL;
    table_game_at(&g, &table_rep, &rep_table, 0);
    play(&g, "a b c b");
    ck_assert_int_eq(game_repetitions(&g), 2); /* C twice */
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
    play(&g, "c");
    ck_assert_int_eq(game_repetitions(&g), 3); /* B three times */
    ck_assert_int_eq(game_result(&g, NULL, &reason), RESULT_DRAW);
    ck_assert_str_eq(reason, "threefold repetition");
    char err[128];
    ck_assert(!game_play_text(&g, "b", err, sizeof err));
    /* The same moves in a game without repetition draws go on. */
    game_free(&g);
    table_game_at(&g, &table_game, &rep_table, 0);
    play(&g, "a b c b c b c");
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
    game_free(&g);
}
END_TEST

START_TEST(test_game_undo_restores_position_and_repetition_history)
{
    Game g;
    table_game_at(&g, &table_rep, &rep_table, 0);
    play(&g, "a b c b c");
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_DRAW);
    game_undo(&g, 1);
    ck_assert_int_eq(g.ply, 4);
    ck_assert_uint_eq(g.variant->key(&g.pos), g.keys[4]);
    ck_assert_uint_eq(g.keys[4], g.keys[2]); /* C again */
    ck_assert_int_eq(game_repetitions(&g), 2);
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_NONE);
    /* The repetition counts again when the same move is played again. */
    play(&g, "c");
    ck_assert_int_eq(game_repetitions(&g), 3);
    ck_assert_int_eq(game_result(&g, NULL, NULL), RESULT_DRAW);
    /* Back to the start: the start position, the history gone. */
    game_undo(&g, 5);
    ck_assert_int_eq(g.ply, 0);
    ck_assert(memcmp(&g.pos, &g.start, sizeof g.pos) == 0);
    ck_assert_int_eq(game_repetitions(&g), 1);
    game_free(&g);
    /* From a FEN, part of the way. */
    nim_game(&g, "30 w");
    play(&g, "t1 t2 t3");
    game_undo(&g, 2);
    ck_assert_int_eq(g.ply, 1);
    ck_assert_int_eq(CNIM(&g.pos)->pile, 29);
    ck_assert_uint_eq(g.keys[1], nim.key(&g.pos));
    game_free(&g);
}
END_TEST

START_TEST(test_every_game_estimates_the_moves_left)
{
    /* The estimates of doc/search.md, at each game's start. */
    static const struct {
        const char *name;
        int at_start;
    } want[] = {
        {"solomon", 3 * 12 + 3},     {"solomon-chain", 3 * 12 + 3},
        {"salto", 2 * DEFAULT_MOVE_LIMIT}, {"pyramid", 60 + 60 / 8 + 2},
        {"lupta", 24 + 3 * (24 - 15)}, {"alexander", 24 * 7 / 2 + 4},
    };
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const Variant *v = variants_find(want[i].name);
        ck_assert_ptr_nonnull(v);
        ck_assert_ptr_nonnull(v->plies_left);
        Position p;
        v->startpos(&p, &cfg);
        ck_assert_int_eq(v->plies_left(&p), want[i].at_start);
    }
    /* Salto counts down to the move limit exactly. */
    const Variant *salto = variants_find("salto");
    GameConfig short_cfg = {.move_limit = 80};
    Game g;
    game_init(&g, salto, &short_cfg);
    ck_assert_int_eq(salto->plies_left(&g.pos), 160);
    for (int ply = 1; ply <= 5; ply++) {
        Move moves[MAX_MOVES];
        ck_assert_int_gt(salto->generate(&g.pos, moves), 0);
        game_play(&g, moves[0]);
        ck_assert_int_eq(salto->plies_left(&g.pos), 160 - ply);
    }
    game_free(&g);
}
END_TEST

START_TEST(test_game_copy_is_independent)
{
    Game a, b;
    nim_game(&a, "30 w");
    play(&a, "t1 t2 t3");
    memset(&b, 0, sizeof b);
    game_copy(&b, &a);
    ck_assert_int_eq(b.ply, 3);
    ck_assert(b.keys != a.keys && b.moves != a.moves);
    for (int i = 0; i < 24; i++)
        play(&b, "t1");
    ck_assert_int_eq(a.ply, 3);
    ck_assert_int_eq(CNIM(&a.pos)->pile, 24);
    ck_assert_uint_eq(a.keys[3], nim.key(&a.pos));
    ck_assert_uint_eq(a.moves[2], 3);
    ck_assert_int_eq(CNIM(&b.pos)->pile, 0);
    /* A reset goes back to the variant's start. */
    game_reset(&b);
    ck_assert_int_eq(b.ply, 0);
    ck_assert_int_eq(CNIM(&b.pos)->pile, 10);
    ck_assert(b.start_is_startpos);
    game_free(&a);
    game_free(&b);
}
END_TEST

/* ============================================================== runner */

int main(void)
{
    Suite *s = suite_create("game");
    TCase *tc = tcase_create("game");
    tcase_add_test(tc, test_game_play_text_errors);
    tcase_add_test(tc, test_game_threefold_repetition);
    tcase_add_test(tc, test_game_copy_is_independent);
    tcase_add_test(tc, test_game_undo_restores_position_and_repetition_history);
    tcase_add_test(tc, test_every_game_estimates_the_moves_left);
    suite_add_tcase(s, tc);
    return core_test_run(s);
}
