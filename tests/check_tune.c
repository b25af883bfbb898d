/* check_tune.c - `sigil datagen` (datagen.c) and the trainer (tools/tune.c,
 * compiled in with TUNE_NO_MAIN): argument errors, the record format,
 * reproducibility from the seed whatever the number of workers, and a
 * reproducible fit. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core_test.h"
#include "datagen.h"
#include "evalmodel.h"
#include "game.h"
#include "util.h"
#include "variants.h"

int tune_main(int argc, char **argv);

static char *read_all(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    ck_assert_int_eq(fread(buf, 1, (size_t)n, f), n);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void temp_name(char *buf, size_t size, const char *tag)
{
    snprintf(buf, size, "/tmp/check_tune_%ld_%s", (long)getpid(), tag);
}

/* Parse argv (NULL-terminated) and return the error message ("" when ok). */
static const char *args_error(const char *const *argv)
{
    static char err[256];
    int argc = 0;
    while (argv[argc])
        argc++;
    DatagenOptions o;
    err[0] = '\0';
    if (datagen_parse_args(argc, (char **)argv, &o, err, sizeof err))
        return "";
    return err;
}

START_TEST(test_datagen_bad_arguments)
{
    const char *ok[] = {"--variant", "salto", "--games", "3", "--out", "x", NULL};
    ck_assert_str_eq(args_error(ok), "");
    const char *unknown_variant[] = {"--variant", "chess", "--games", "3", "--out", "x", NULL};
    ck_assert_str_eq(args_error(unknown_variant), "unknown variant 'chess'");
    const char *no_games[] = {"--variant", "salto", "--out", "x", NULL};
    ck_assert_str_eq(args_error(no_games), "--games is required");
    const char *no_out[] = {"--variant", "salto", "--games", "3", NULL};
    ck_assert_str_eq(args_error(no_out), "--out is required");
    const char *no_variant[] = {"--games", "3", "--out", "x", NULL};
    ck_assert_str_eq(args_error(no_variant), "--variant is required");
    const char *zero_games[] = {"--variant", "salto", "--games", "0", "--out", "x", NULL};
    ck_assert_str_eq(args_error(zero_games),
                     "--games needs a whole number from 1 to 100000000, not '0'");
    const char *bad_nodes[] = {"--variant", "salto", "--games", "3", "--nodes", "2k",
                               "--out", "x", NULL};
    ck_assert_str_eq(args_error(bad_nodes),
                     "--nodes needs a whole number from 1 to 1000000000, not '2k'");
    const char *many_threads[] = {"--variant", "salto", "--games", "3", "--threads", "257",
                                  "--out", "x", NULL};
    ck_assert_str_eq(args_error(many_threads),
                     "--threads needs a whole number from 1 to 256, not '257'");
    const char *stray[] = {"--variant", "salto", "--games", "3", "--out", "x", "fast", NULL};
    ck_assert_str_eq(args_error(stray), "unknown argument 'fast'");
    const char *no_value[] = {"--variant", "salto", "--out", "x", "--games", NULL};
    ck_assert_str_eq(args_error(no_value), "--games needs a value");

    /* datagen_main: status 2, one error line, no game and no output file. */
    char out[256], errpath[256];
    temp_name(out, sizeof out, "never");
    temp_name(errpath, sizeof errpath, "err");
    FILE *err = fopen(errpath, "w");
    const char *argv[] = {"--variant", "salto", "--games", "-1", "--out", out, NULL};
    ck_assert_int_eq(datagen_main(6, (char **)argv, err), 2);
    fclose(err);
    ck_assert_int_ne(access(out, F_OK), 0);
    char *text = read_all(errpath);
    ck_assert_ptr_nonnull(strstr(text, "sigil datagen: error: --games needs a whole number"));
    free(text);
    remove(errpath);
}
END_TEST

START_TEST(test_datagen_record_format)
{
    char line[] = "salto;S1/5 w - 8;-250;0.5;17\n";
    DatagenRecord r;
    ck_assert(datagen_parse_line(line, &r));
    ck_assert_str_eq(r.variant, "salto");
    ck_assert_str_eq(r.fen, "S1/5 w - 8");
    ck_assert_int_eq(r.score, -250);
    ck_assert(r.result == 0.5);
    ck_assert_int_eq(r.ply, 17);
    const char *bad[] = {"salto;fen;1;1",       "salto;fen;1;1;2;3", "salto;fen;x;1;2",
                         "salto;fen;10;2;5",    "salto;fen;10;1;-1", ";fen;10;1;5",
                         "salto;;10;1;5",       "salto;fen;10;0.50;5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char buf[64];
        snprintf(buf, sizeof buf, "%s", bad[i]);
        ck_assert_msg(!datagen_parse_line(buf, &r), "accepted '%s'", bad[i]);
    }
}
END_TEST

/* A tiny run: every line a record of a legal, unfinished position of the
 * game, the result one per game, the same bytes with 1 and 3 workers. */
START_TEST(test_datagen_is_reproducible)
{
    char out1[256], out3[256], out_other[256];
    temp_name(out1, sizeof out1, "w1");
    temp_name(out3, sizeof out3, "w3");
    temp_name(out_other, sizeof out_other, "seed");
    const char *a1[] = {"--variant", "lupta", "--games", "4", "--nodes", "300", "--threads", "1",
                        "--seed", "5", "--quiet", "--out", out1, NULL};
    const char *a3[] = {"--variant", "lupta", "--games", "4", "--nodes", "300", "--threads", "3",
                        "--seed", "5", "--quiet", "--out", out3, NULL};
    const char *a_other[] = {"--variant", "lupta", "--games", "4", "--nodes", "300",
                             "--seed", "6", "--quiet", "--out", out_other, NULL};
    ck_assert_int_eq(datagen_main(13, (char **)a1, stderr), 0);
    ck_assert_int_eq(datagen_main(13, (char **)a3, stderr), 0);
    ck_assert_int_eq(datagen_main(11, (char **)a_other, stderr), 0);
    char *t1 = read_all(out1), *t3 = read_all(out3), *to = read_all(out_other);
    ck_assert_str_eq(t1, t3);
    ck_assert_str_ne(t1, to);
    /* No part file is left behind. */
    char part[300];
    snprintf(part, sizeof part, "%s.part1", out3);
    ck_assert_int_ne(access(part, F_OK), 0);

    const Variant *v = variants_find("lupta");
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    int lines = 0, last_ply = -1, games = 0;
    for (char *s = t1, *nl; *s; s = nl + 1) {
        nl = strchr(s, '\n');
        ck_assert_ptr_nonnull(nl);
        *nl = '\0';
        DatagenRecord r;
        ck_assert_msg(datagen_parse_line(s, &r), "not a record: %s", s);
        ck_assert_str_eq(r.variant, "lupta");
        Position pos;
        char err[128];
        ck_assert_msg(v->from_fen(&pos, r.fen, &cfg, err, sizeof err), "%s: %s", r.fen, err);
        ck_assert_int_eq(v->result(&pos, NULL, NULL), RESULT_NONE);
        ck_assert_int_ge(r.ply, 8); /* after the 8 random plies */
        ck_assert_int_lt(abs(r.score), SCORE_EVAL_MAX);
        games += r.ply <= last_ply;
        last_ply = r.ply;
        lines++;
    }
    ck_assert_int_gt(lines, 20);
    ck_assert_int_ge(games, 1);
    free(t1);
    free(t3);
    free(to);
    remove(out1);
    remove(out3);
    remove(out_other);
}
END_TEST

/* The trainer: bad arguments are refused; the same data gives the same
 * weights file; the fitted weights are written for every feature. */
START_TEST(test_tune_is_reproducible)
{
    char data[256], w1[256], w2[256];
    temp_name(data, sizeof data, "data");
    temp_name(w1, sizeof w1, "w1.h");
    temp_name(w2, sizeof w2, "w2.h");
    const char *gen[] = {"--variant", "pyramid", "--games", "6", "--nodes", "300", "--quiet",
                         "--out", data, NULL};
    ck_assert_int_eq(datagen_main(9, (char **)gen, stderr), 0);
    const char *bad[] = {"sigil-tune", "--variant", "alexander", "--data", data, "--out", w1, NULL};
    ck_assert_int_eq(tune_main(7, (char **)bad), 2);
    const char *bad_lambda[] = {"sigil-tune", "--variant", "pyramid", "--data", data,
                                "--out", w1, "--lambda", "1.5", NULL};
    ck_assert_int_eq(tune_main(9, (char **)bad_lambda), 2);
    ck_assert_int_ne(access(w1, F_OK), 0);
    const char *t1[] = {"sigil-tune", "--variant", "pyramid", "--data", data, "--out", w1,
                        "--iterations", "30", NULL};
    const char *t2[] = {"sigil-tune", "--variant", "pyramid", "--data", data, "--out", w2,
                        "--iterations", "30", NULL};
    ck_assert_int_eq(tune_main(9, (char **)t1), 0);
    ck_assert_int_eq(tune_main(9, (char **)t2), 0);
    char *a = read_all(w1), *b = read_all(w2);
    ck_assert_str_eq(a, b);
    char decl[128];
    snprintf(decl, sizeof decl, "static const int16_t pyramid_weights[%d][2] = {",
             eval_model_pyramid.nfeatures);
    ck_assert_ptr_nonnull(strstr(a, decl));
    /* One line per feature, the last one named. */
    char last[128], name[64];
    eval_model_pyramid.feature_name(eval_model_pyramid.nfeatures - 1, name, sizeof name);
    snprintf(last, sizeof last, "/* %d %s */", eval_model_pyramid.nfeatures - 1, name);
    ck_assert_ptr_nonnull(strstr(a, last));
    ck_assert_ptr_nonnull(strstr(a, "held-out mean squared error"));
    free(a);
    free(b);
    remove(data);
    remove(w1);
    remove(w2);
}
END_TEST

/* The engine's evaluation is the model's score of the game's terms. */
START_TEST(test_eval_is_the_model)
{
    const char *games[] = {"salto", "pyramid", "lupta"};
    for (int g = 0; g < 3; g++) {
        const Variant *v = variants_find(games[g]);
        const EvalModel *m = eval_model_find(games[g]);
        ck_assert_ptr_nonnull(m);
        ck_assert_int_gt(m->nfeatures, 10);
        GameConfig cfg = {DEFAULT_MOVE_LIMIT};
        Game game;
        game_init(&game, v, &cfg);
        uint64_t rng = 99;
        Move moves[MAX_MOVES];
        for (int ply = 0; ply < 40 && game_result(&game, NULL, NULL) == RESULT_NONE; ply++) {
            EvalTerms t;
            m->terms(&game.pos, &t);
            ck_assert_int_ge(t.phase, 0);
            ck_assert_int_le(t.phase, EVAL_PHASE_MAX);
            for (int i = 0; i < t.n; i++)
                ck_assert_int_lt(t.index[i], m->nfeatures);
            int n = v->generate(&game.pos, moves);
            game_play(&game, moves[util_random_below(&rng, (uint64_t)n)]);
        }
        game_free(&game);
    }
    ck_assert_ptr_null(eval_model_find("solomon"));
}
END_TEST

int main(void)
{
    variants_init();
    Suite *s = suite_create("tune");
    TCase *tc = tcase_create("tune");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_datagen_bad_arguments);
    tcase_add_test(tc, test_datagen_record_format);
    tcase_add_test(tc, test_datagen_is_reproducible);
    tcase_add_test(tc, test_tune_is_reproducible);
    tcase_add_test(tc, test_eval_is_the_model);
    suite_add_tcase(s, tc);
    return core_test_run(s);
}
