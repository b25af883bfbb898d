/* check_tb.c - the Solomon endgame tables (engine/games/solomon_tb.c).
 *
 * Builds every table of up to 4 pieces of both rule sets and checks them: the
 * induction check (each position's value follows from result() and its
 * children's values, with White and with Black to move), distances worked
 * out by hand, the left-right mirror of the board, the file format with its
 * checksum. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "games/solomon.h"
#include "games/solomon_tb.h"
#include "variants.h"

enum { PIECES = 4 };

static const Variant *single, *chain;
static SolomonTables *tables[2]; /* [0] solomon, [1] solomon-chain */
static const GameConfig config = {DEFAULT_MOVE_LIMIT};

/* Built once per test case, before the tests fork. */
static void build_tables(void)
{
    variants_init();
    single = variants_find("solomon");
    chain = variants_find("solomon-chain");
    for (int k = 0; k < 2; k++) {
        char err[256] = "";
        tables[k] = solomon_tb_new(k ? chain : single);
        ck_assert_ptr_nonnull(tables[k]);
        ck_assert_msg(solomon_tb_build(tables[k], PIECES, 2, NULL, NULL, err, sizeof err),
                      "%s", err);
    }
}

static void free_tables(void)
{
    for (int k = 0; k < 2; k++)
        solomon_tb_free(tables[k]);
}

static TbValue value_of(int rules, const char *fen)
{
    const Variant *v = rules ? chain : single;
    Position p;
    char err[128] = "";
    ck_assert_msg(v->from_fen(&p, fen, &config, err, sizeof err), "%s: %s", fen, err);
    TbValue value;
    ck_assert_msg(solomon_tb_probe(tables[rules], &p, &value), "%s not in the tables", fen);
    return value;
}

static void assert_value(int rules, const char *fen, TbWdl wdl, int plies)
{
    TbValue v = value_of(rules, fen);
    ck_assert_msg(v.wdl == wdl && v.plies == plies, "%s (%s): got %d %d, want %d %d", fen,
                  rules ? "chain" : "single", v.wdl, v.plies, wdl, plies);
}

START_TEST(every_table_follows_from_the_rules_and_its_children)
{
    for (int k = 0; k < 2; k++) {
        SolomonMaterial m = {-1, -1, -1, -1};
        uint64_t total = 0;
        int materials = 0;
        while (solomon_tb_material_next(&m, PIECES)) {
            uint64_t checked;
            char fen[FEN_MAX];
            uint64_t wrong = solomon_tb_verify(tables[k], m, 2, &checked, fen, sizeof fen);
            char name[20];
            solomon_tb_material_name(m, name);
            ck_assert_msg(wrong == 0, "%s %s: %llu wrong, e.g. %s", k ? "chain" : "single",
                          name, (unsigned long long)wrong, fen);
            ck_assert_uint_gt(checked, 0);
            total += checked;
            materials++;
        }
        /* 25 materials of 2..4 pieces; 2 views of every legal position */
        ck_assert_int_eq(materials, 4 + 12 + 25);
        ck_assert_uint_gt(total, 1600000);
        ck_assert_int_eq(solomon_tb_complete_pieces(tables[k]), PIECES);
    }
}
END_TEST

/* Worked out by hand on the board of doc/rules.md (Solomon).  A piece on a tip of
 * the star (1, 2, 6, 14, 18, 19) ends every line through it and can never be
 * jumped. */
START_TEST(two_kings_against_one_by_hand)
{
    for (int k = 0; k < 2; k++) {
        /* 10 jumps 4 along 1-4-10-16-19 and lands on the empty 1 */
        assert_value(k, "W:WK10,K12:BK4", TB_WIN, 1);
        /* Black on the tip 2 cannot jump 7 (10 is taken) and has two steps:
         * to 3 (then 7x1 along 1-3-7) or to 9 (then 7x14 along 3-7-9-14) */
        assert_value(k, "B:WK7,K10:BK2", TB_LOSS, 2);
        /* nothing to capture (2 is a tip); 16-10 reaches the line above */
        assert_value(k, "W:WK7,K16:BK2", TB_WIN, 3);
        /* the same, colours swapped and the board turned half round */
        assert_value(k, "W:WK18:BK13,K10", TB_LOSS, 2);
        assert_value(k, "B:WK18:BK13,K4", TB_WIN, 3);
    }
    /* Black's only move is the jump 4x16 over 10; with single jumps White's
     * 17 then takes it along 14-18 (17x15), with chains the same jump goes
     * on over 17 to 18 and takes both kings */
    assert_value(0, "B:WK10,K17:BK4", TB_LOSS, 2);
    assert_value(1, "B:WK10,K17:BK4", TB_WIN, 1);
}
END_TEST

/* The board is symmetric under the left-right mirror (x -> -x): it keeps the
 * lines, the heights and so the direction of every man. */
static const int mirror_point[19] = {1, 6, 5, 4, 3, 2, 8, 7, 11, 10, 9, 13, 12, 18, 17, 16, 15, 14, 19};

static uint32_t mirror_set(uint32_t s)
{
    uint32_t out = 0;
    for (int p = 0; p < 19; p++)
        if (s & (1u << p))
            out |= 1u << (mirror_point[p] - 1);
    return out;
}

/* doc/rules.md, End: with the bare-kings rule of both rule sets, two kings
 * to move win 2,874 of the 2,907 placements against one king, in up to 23
 * plies (solomon-chain). */
START_TEST(chain_two_kings_win_as_the_rules_say)
{
    SolomonMaterial kk_k = {0, 2, 0, 1};
    SolomonTbStats s;
    ck_assert(solomon_tb_stats(tables[1], kk_k, &s));
    ck_assert_uint_eq(s.positions, 2907);
    ck_assert_uint_eq(s.wins, 2874);
    ck_assert_int_eq(s.longest_win, 23);
}
END_TEST

/* A lone king against a lone king cannot chain (one capture ends the game):
 * both rule sets agree on every such position. */
START_TEST(king_against_king_is_the_same_in_both_rule_sets)
{
    SolomonMaterial k_k = {0, 1, 0, 1};
    uint64_t n = solomon_tb_material_size(k_k), wins = 0;
    for (uint64_t i = 0; i < n; i++) {
        TbValue a, b;
        ck_assert(solomon_tb_value_at(tables[0], k_k, i, &a));
        ck_assert(solomon_tb_value_at(tables[1], k_k, i, &b));
        ck_assert(a.wdl == b.wdl && a.plies == b.plies);
        wins += a.wdl == TB_WIN;
    }
    ck_assert_uint_eq(n, 342);
    ck_assert_uint_gt(wins, 0);
    for (int k = 0; k < 2; k++) {
        assert_value(k, "W:WK10:BK4", TB_WIN, 1);  /* 10x1 along 1-4-10 */
        assert_value(k, "W:WK10:BK3", TB_DRAW, 0); /* neither can capture */
        /* only Black could capture (2x10 over 7); 7-10 escapes to a draw,
         * 7-3 and 7-9 would be taken (2x4, 2x12) */
        assert_value(k, "W:WK7:BK2", TB_DRAW, 0);
        assert_value(k, "B:WK7:BK2", TB_WIN, 1);
    }
}
END_TEST

START_TEST(mirror_images_have_the_same_value)
{
    for (int k = 0; k < 2; k++) {
        SolomonMaterial m = {-1, -1, -1, -1};
        uint64_t compared = 0;
        while (solomon_tb_material_next(&m, PIECES)) {
            uint64_t n = solomon_tb_material_size(m);
            for (uint64_t i = 0; i < n; i++) {
                Position p, q;
                if (!solomon_tb_position_at(tables[k], m, i, &p))
                    continue;
                SolomonBoard b;
                solomon_board_get(&p, &b);
                for (int side = 0; side < 2; side++) {
                    b.men[side] = mirror_set(b.men[side]);
                    b.kings[side] = mirror_set(b.kings[side]);
                }
                solomon_board_set(&q, &b, k == 1);
                TbValue a, c;
                ck_assert(solomon_tb_value_at(tables[k], m, i, &a));
                ck_assert(solomon_tb_probe(tables[k], &q, &c));
                ck_assert_msg(a.wdl == c.wdl && a.plies == c.plies, "index %llu",
                              (unsigned long long)i);
                compared++;
            }
        }
        ck_assert_uint_gt(compared, 800000);
    }
}
END_TEST

START_TEST(colour_mirror_probes_agree)
{
    /* p -> 20-p with the colours and the side to move swapped */
    static const char *pairs[][2] = {
        {"W:WK7,K16:BK2", "B:WK18:BK13,K4"},
        {"W:W9,K3:B11,12", "B:W8,9:B11,K17"},
        {"B:W15:BK4,5", "W:W15,K16:B5"},
    };
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
            TbValue a = value_of(k, pairs[i][0]), b = value_of(k, pairs[i][1]);
            ck_assert(a.wdl == b.wdl && a.plies == b.plies);
        }
}
END_TEST

START_TEST(positions_outside_the_tables_are_not_probed)
{
    Position p;
    char err[64];
    TbValue v;
    ck_assert(single->from_fen(&p, "W:WK1,K2,K3:BK10,K11", &config, err, sizeof err));
    ck_assert(!solomon_tb_probe(tables[0], &p, &v)); /* 5 pieces */
    single->startpos(&p, &config);
    ck_assert(!solomon_tb_probe(tables[0], &p, &v));
    /* the side to move without pieces has lost */
    ck_assert(single->from_fen(&p, "B:WK10:B", &config, err, sizeof err));
    ck_assert(solomon_tb_probe(tables[0], &p, &v));
    ck_assert(v.wdl == TB_LOSS && v.plies == 0);
    ck_assert_ptr_null(solomon_tb_new(variants_find("salto")));
}
END_TEST

/* Write a test folder's path into dir (room for 64 bytes). */
static void temp_dir(char *dir)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, 64, "%s/sigil-tb-XXXXXX", base && strlen(base) < 30 ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(const char *dir, const Variant *v)
{
    SolomonMaterial m = {-1, -1, -1, -1};
    while (solomon_tb_material_next(&m, PIECES)) {
        char name[96], path[200];
        solomon_tb_file_name(v, m, name, sizeof name);
        snprintf(path, sizeof path, "%s/%s", dir, name);
        remove(path);
    }
    rmdir(dir);
}

START_TEST(files_round_trip_and_the_checksum_catches_damage)
{
    char dir[64], err[600];
    temp_dir(dir);
    SolomonTables *written = solomon_tb_new(single);
    ck_assert(solomon_tb_build(written, 3, 1, dir, NULL, err, sizeof err));
    SolomonTables *read = solomon_tb_new(single);
    ck_assert_int_eq(solomon_tb_load(read, dir, 3, err, sizeof err), 4 + 12);
    ck_assert_int_eq(solomon_tb_complete_pieces(read), 3);
    SolomonMaterial m = {-1, -1, -1, -1};
    while (solomon_tb_material_next(&m, 3)) {
        uint64_t n = solomon_tb_material_size(m);
        for (uint64_t i = 0; i < n; i++) {
            TbValue a, b, c;
            ck_assert(solomon_tb_value_at(written, m, i, &a));
            ck_assert(solomon_tb_value_at(read, m, i, &b));
            ck_assert(solomon_tb_value_at(tables[0], m, i, &c));
            ck_assert(a.wdl == b.wdl && a.plies == b.plies);
            ck_assert(a.wdl == c.wdl && a.plies == c.plies);
        }
    }
    /* a table of the other rule set is not taken for this one */
    SolomonTables *other = solomon_tb_new(chain);
    ck_assert_int_eq(solomon_tb_load(other, dir, 3, err, sizeof err), 0);
    solomon_tb_free(other);

    /* one entry changed: the checksum rejects the file, the rest loads */
    char name[96], path[200];
    solomon_tb_file_name(single, (SolomonMaterial){1, 1, 0, 1}, name, sizeof name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, 48 + 1000, SEEK_SET), 0);
    int c = fgetc(f);
    ck_assert_int_ge(c, 0);
    ck_assert_int_eq(fseek(f, 48 + 1000, SEEK_SET), 0);
    fputc(c == 0 ? 2 : 0, f);
    fclose(f);
    SolomonTables *damaged = solomon_tb_new(single);
    ck_assert_int_eq(solomon_tb_load(damaged, dir, 3, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "checksum mismatch"));
    ck_assert_int_eq(solomon_tb_complete_pieces(damaged), 2);
    solomon_tb_free(damaged);

    /* a truncated file is rejected too */
    ck_assert_int_eq(truncate(path, 100), 0);
    damaged = solomon_tb_new(single);
    ck_assert_int_eq(solomon_tb_load(damaged, dir, 3, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "truncated"));
    solomon_tb_free(damaged);

    /* building again reuses the valid files and rebuilds the damaged one */
    SolomonTables *again = solomon_tb_new(single);
    ck_assert(solomon_tb_build(again, 3, 1, dir, NULL, err, sizeof err));
    ck_assert_int_eq(solomon_tb_load(again, dir, 3, err, sizeof err), 16);
    solomon_tb_free(again);

    solomon_tb_free(read);
    solomon_tb_free(written);
    remove_dir(dir, single);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("tablebases");
    TCase *tc = tcase_create("solomon");
    tcase_add_unchecked_fixture(tc, build_tables, free_tables);
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, every_table_follows_from_the_rules_and_its_children);
    tcase_add_test(tc, two_kings_against_one_by_hand);
    tcase_add_test(tc, chain_two_kings_win_as_the_rules_say);
    tcase_add_test(tc, king_against_king_is_the_same_in_both_rule_sets);
    tcase_add_test(tc, mirror_images_have_the_same_value);
    tcase_add_test(tc, colour_mirror_probes_agree);
    tcase_add_test(tc, positions_outside_the_tables_are_not_probed);
    tcase_add_test(tc, files_round_trip_and_the_checksum_catches_damage);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
