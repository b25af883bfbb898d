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
#include "pipe_engine.h"
#include "proof.h"
#include "util.h"
#include "variants.h"

enum { PIECES = 4 };

static const Variant *single, *chain;
static SolomonTables *tables[2]; /* [0] solomon, [1] solomon-chain */
static const GameConfig config = {DEFAULT_MOVE_LIMIT};
static char table_dir[64]; /* the tables' files, for the engine */

static void temp_dir(char *dir);
static void remove_dir(const char *dir, const Variant *v, int pieces);

/* Built once per test case, before the tests fork, and written to a folder
 * for the tests that drive the engine. */
static void build_tables(void)
{
    variants_init();
    single = variants_find("solomon");
    chain = variants_find("solomon-chain");
    temp_dir(table_dir);
    for (int k = 0; k < 2; k++) {
        char err[256] = "";
        tables[k] = solomon_tb_new(k ? chain : single);
        ck_assert_ptr_nonnull(tables[k]);
        ck_assert_msg(solomon_tb_build(tables[k], PIECES, 2, table_dir, NULL, err, sizeof err),
                      "%s", err);
    }
}

static void free_tables(void)
{
    for (int k = 0; k < 2; k++)
        solomon_tb_free(tables[k]);
    remove_dir(table_dir, single, PIECES);
    remove_dir(table_dir, chain, PIECES);
}

static int material_pieces_of(SolomonMaterial m)
{
    return m.our_men + m.our_kings + m.their_men + m.their_kings;
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

static void remove_dir(const char *dir, const Variant *v, int pieces)
{
    SolomonMaterial m = {-1, -1, -1, -1};
    while (solomon_tb_material_next(&m, pieces)) {
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
    remove_dir(dir, single, 3);
}
END_TEST


/* ---- through the engine's protocol ----------------------------------------- */

static PipeEngine engine;
static char seen[1 << 17];

static void start_engine(void)
{
    ck_assert(pipe_engine_start(&engine, pipe_engine_sigil()));
}

static void stop_engine(void) { pipe_engine_close(&engine); }

/* Send line, then isready; everything printed before readyok. */
static const char *exchange(const char *line)
{
    seen[0] = '\0';
    pipe_engine_send(&engine, line);
    pipe_engine_send(&engine, "isready");
    ck_assert_msg(pipe_engine_expect(&engine, "readyok", 30000, seen, sizeof seen) != NULL,
                  "no readyok after %s", line);
    return seen;
}

/* The response line of `query value` for fen. */
static const char *engine_value(const char *fen)
{
    static char line[128];
    char cmd[FEN_MAX + 32];
    snprintf(cmd, sizeof cmd, "position fen %s", fen);
    exchange(cmd);
    pipe_engine_send(&engine, "query value");
    const char *r = pipe_engine_expect(&engine, "response ", 10000, NULL, 0);
    ck_assert(r != NULL);
    snprintf(line, sizeof line, "%s", r + strlen("response "));
    return line;
}

static const char *value_text(TbValue v)
{
    static char buf[32];
    if (v.wdl == TB_DRAW)
        return "draw";
    snprintf(buf, sizeof buf, "%s %d", v.wdl == TB_WIN ? "win" : "loss", v.plies);
    return buf;
}

static void use_tables(const char *variant)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "variant %s", variant);
    exchange(cmd);
    snprintf(cmd, sizeof cmd, "setoption name TablebasePath value %s", table_dir);
    const char *out = exchange(cmd);
    ck_assert_msg(!strstr(out, "error"), "%s", out);
}

START_TEST(options_are_listed)
{
    const char *out = exchange("uci");
    ck_assert_ptr_nonnull(strstr(out, "option name TablebasePath type string default <empty>\n"));
    ck_assert_ptr_nonnull(
        strstr(out, "option name TablebasePieces type spin default 8 min 0 max 8\n"));
}
END_TEST

START_TEST(query_value_matches_the_tables)
{
    ck_assert_str_eq(engine_value("W:WK7,K16:BK2"), "unknown"); /* no tables yet */
    ck_assert_ptr_nonnull(strstr(exchange("d"), "\nTablebase: unknown\n"));
    uint64_t rng = 12345;
    for (int k = 0; k < 2; k++) {
        const Variant *v = k ? chain : single;
        use_tables(v->name);
        int compared = 0;
        while (compared < 150) {
            SolomonMaterial m = {-1, -1, -1, -1};
            int skip = (int)util_random_below(&rng, 41);
            while (solomon_tb_material_next(&m, PIECES) && skip-- > 0)
                ;
            uint64_t i = util_random_below(&rng, solomon_tb_material_size(m));
            Position p, q;
            if (!solomon_tb_position_at(tables[k], m, i, &p))
                continue;
            /* half of them with Black to move, through the half turn */
            if (compared % 2) {
                SolomonBoard b, t;
                solomon_board_get(&p, &b);
                for (int side = 0; side < 2; side++) {
                    uint32_t men = 0, kings = 0;
                    for (int pt = 0; pt < 19; pt++) {
                        if (b.men[side] & (1u << pt))
                            men |= 1u << (18 - pt);
                        if (b.kings[side] & (1u << pt))
                            kings |= 1u << (18 - pt);
                    }
                    t.men[side ^ 1] = men;
                    t.kings[side ^ 1] = kings;
                }
                t.stm = BLACK;
                solomon_board_set(&q, &t, k == 1);
                p = q;
            }
            char fen[FEN_MAX];
            v->to_fen(&p, fen);
            TbValue want;
            ck_assert(solomon_tb_probe(tables[k], &p, &want));
            char expect[32];
            snprintf(expect, sizeof expect, "%s", value_text(want));
            ck_assert_msg(strcmp(engine_value(fen), expect) == 0, "%s: %s, want %s", fen,
                          engine_value(fen), expect);
            compared++;
        }
    }
    /* `d` shows it too; a finished game is known without tables */
    engine_value("B:WK7,K10:BK2");
    ck_assert_ptr_nonnull(strstr(exchange("d"), "\nTablebase: loss 2\n"));
    ck_assert_str_eq(engine_value("B:WK10:B"), "loss 0");
    /* more pieces than loaded: unknown; fewer allowed: unknown too */
    ck_assert_str_eq(engine_value("W:WK1,K2,K3:BK10,K11"), "unknown");
    exchange("setoption name TablebasePieces value 2");
    ck_assert_str_eq(engine_value("W:WK7,K16:BK2"), "unknown");
    ck_assert_str_eq(engine_value("W:WK10:BK4"), "win 1");
}
END_TEST

START_TEST(a_folder_without_tables_is_an_error_and_nothing_changes)
{
    exchange("variant solomon");
    const char *out = exchange("setoption name TablebasePath value no-such-folder/sigil-tb");
    ck_assert_int_eq(strstr(out, "info string error: ") != NULL, 1);
    ck_assert_str_eq(engine_value("W:WK7,K16:BK2"), "unknown");
    /* Salto has no tables: the option is accepted and does nothing */
    exchange("variant salto");
    out = exchange("d");
    ck_assert_ptr_null(strstr(out, "Tablebase:"));
}
END_TEST

/* The engine's move for fen with `go nodes 2000` after the given moves. */
static void engine_move(const char *fen, const char *moves, char *move, char *info, size_t size)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "position fen %s%s%s", fen, *moves ? " moves" : "", moves);
    exchange(cmd);
    pipe_engine_send(&engine, "go nodes 2000");
    seen[0] = '\0';
    const char *r = pipe_engine_expect(&engine, "bestmove ", 30000, seen, sizeof seen);
    ck_assert(r != NULL);
    sscanf(r, "bestmove %63s", move);
    snprintf(info, size, "%s", seen);
}

/* The defender's (or attacker's) perfect reply: the slowest loss, or a move
 * that keeps a win, or the first drawing move. */
static Move perfect_reply(int k, const Position *p)
{
    const Variant *v = k ? chain : single;
    Move moves[MAX_MOVES], best = MOVE_NONE;
    TbValue best_value = {TB_LOSS, -1};
    int n = v->generate(p, moves);
    for (int i = 0; i < n; i++) {
        Position c;
        TbValue cv;
        v->make(p, moves[i], &c);
        ck_assert(solomon_tb_probe(tables[k], &c, &cv));
        TbValue mine = {(TbWdl)-cv.wdl, cv.wdl == TB_DRAW ? 0 : cv.plies + 1};
        if (best == MOVE_NONE || tablebase_better(mine, best_value)) {
            best = moves[i];
            best_value = mine;
        }
    }
    return best;
}

/* Play fen out: the engine (to move) against a perfect opponent.  Every
 * engine move must keep the table's value exactly: a win one ply shorter, a
 * draw a draw, a loss one ply shorter.  Returns the plies played. */
static int play_out(int k, const char *fen, int max_plies)
{
    const Variant *v = k ? chain : single;
    Position p;
    char err[64], moves[4096] = "";
    ck_assert(v->from_fen(&p, fen, &config, err, sizeof err));
    TbValue start;
    ck_assert(solomon_tb_probe(tables[k], &p, &start));
    uint64_t keys[512];
    ck_assert(max_plies < 512);
    int ply = 0;
    for (; ply < max_plies && v->result(&p, NULL, NULL) == RESULT_NONE; ply++) {
        int seen_before = 0;
        keys[ply] = v->key(&p);
        for (int i = 0; i < ply; i++)
            seen_before += keys[i] == keys[ply];
        if (seen_before >= 2)
            break; /* threefold repetition: a draw, the game is over */
        TbValue before, after;
        ck_assert(solomon_tb_probe(tables[k], &p, &before));
        char text[MOVE_STR_MAX], info[1 << 12];
        Move m;
        if (ply % 2 == 0) {
            engine_move(fen, moves, text, info, sizeof info);
            m = v->parse_move(&p, text);
            ck_assert_msg(m != MOVE_NONE, "%s: illegal %s", fen, text);
            ck_assert_msg(strstr(info, " tbhits "), "%s", info);
        } else {
            m = perfect_reply(k, &p);
            v->move_str(&p, m, text);
        }
        Position c;
        v->make(&p, m, &c);
        ck_assert(solomon_tb_probe(tables[k], &c, &after));
        ck_assert_msg(after.wdl == (TbWdl)-before.wdl &&
                          (before.wdl == TB_DRAW || after.plies == before.plies - 1),
                      "%s after %s: %s", fen, moves, text);
        size_t len = strlen(moves);
        snprintf(moves + len, sizeof moves - len, " %s", text);
        p = c;
    }
    return ply;
}

START_TEST(won_positions_are_won_in_the_tables_distance)
{
    uint64_t rng = 777;
    for (int k = 0; k < 2; k++) {
        use_tables(k ? "solomon-chain" : "solomon");
        int wins = 0, draws = 0, tries = 0;
        while ((wins < 12 || draws < 4) && tries++ < 20000) {
            SolomonMaterial m = {-1, -1, -1, -1};
            while (solomon_tb_material_next(&m, PIECES) && material_pieces_of(m) < 4)
                ;
            int skip = (int)util_random_below(&rng, 25);
            while (skip-- > 0 && solomon_tb_material_next(&m, PIECES))
                ;
            uint64_t i = util_random_below(&rng, solomon_tb_material_size(m));
            Position p;
            TbValue value;
            if (!solomon_tb_position_at(tables[k], m, i, &p) ||
                !solomon_tb_value_at(tables[k], m, i, &value) ||
                (k ? chain : single)->result(&p, NULL, NULL) != RESULT_NONE)
                continue;
            char fen[FEN_MAX];
            (k ? chain : single)->to_fen(&p, fen);
            if (value.wdl == TB_WIN && value.plies >= 5 && wins < 12) {
                ck_assert_int_eq(play_out(k, fen, 200), value.plies);
                wins++;
            } else if (value.wdl == TB_DRAW && draws < 4) {
                ck_assert_int_gt(play_out(k, fen, 30), 0);
                draws++;
            }
        }
        ck_assert_int_eq(wins, 12);
        ck_assert_int_eq(draws, 4);
    }
}
END_TEST

/* Outside the tables the search ends every node that enters them: a
 * five-piece position whose every move captures gets its exact value. */
START_TEST(the_search_stops_at_the_tables_with_exact_scores)
{
    use_tables("solomon");
    const char *fen = "W:WK10,K13,K16:BK4,K8"; /* 10x1 or 10x6 */
    Position p;
    char err[64];
    ck_assert(single->from_fen(&p, fen, &config, err, sizeof err));
    TbValue best = {TB_LOSS, -1};
    Move moves[MAX_MOVES];
    int n = single->generate(&p, moves);
    ck_assert_int_eq(n, 2);
    for (int i = 0; i < n; i++) {
        Position c;
        TbValue cv;
        single->make(&p, moves[i], &c);
        ck_assert(solomon_tb_probe(tables[0], &c, &cv)); /* a capture: 4 pieces */
        TbValue mine = {(TbWdl)-cv.wdl, cv.wdl == TB_DRAW ? 0 : cv.plies + 1};
        if (tablebase_better(mine, best))
            best = mine;
    }
    ck_assert_int_eq(best.wdl, TB_WIN);
    char cmd[128], expect[64];
    snprintf(cmd, sizeof cmd, "position fen %s", fen);
    exchange(cmd);
    pipe_engine_send(&engine, "go depth 3");
    seen[0] = '\0';
    ck_assert(pipe_engine_expect(&engine, "bestmove ", 30000, seen, sizeof seen));
    snprintf(expect, sizeof expect, "score mate %d ", (best.plies + 1) / 2);
    const char *line = strstr(seen, "info depth ");
    ck_assert_msg(line && strstr(line, expect), "%s", seen);
    const char *hits = strstr(line, " tbhits ");
    ck_assert(hits && atoi(hits + 8) > 0);
    /* without tables the same search reports no tbhits */
    exchange("setoption name TablebasePath value <empty>");
    pipe_engine_send(&engine, "go depth 3");
    seen[0] = '\0';
    ck_assert(pipe_engine_expect(&engine, "bestmove ", 30000, seen, sizeof seen));
    ck_assert_ptr_null(strstr(seen, "tbhits"));
}
END_TEST

/* ---- not-lose certificates (proof.c) ----------------------------------------- */

/* The opened tables of rule set k through the generic interface. */
static Tablebase *open_tables(int k)
{
    const Variant *v = k ? chain : single;
    char err[256] = "";
    Tablebase *tb = v->tablebase->open(v, table_dir, PIECES, err, sizeof err);
    ck_assert_msg(tb != NULL, "%s", err);
    ck_assert_int_eq(v->tablebase->count(tb), 41);
    ck_assert_int_eq(v->tablebase->complete_pieces(tb), PIECES);
    return tb;
}

/* Copy f into a new temporary file, leaving out line `drop` (1-based; 0:
 * none) and replacing the text after '|' on line `change` by `move`. */
static FILE *edited(FILE *f, int drop, int change, const char *move)
{
    FILE *g = tmpfile();
    char line[512];
    rewind(f);
    for (int n = 1; fgets(line, sizeof line, f); n++) {
        if (n == drop)
            continue;
        char *bar = strchr(line, '|');
        if (n == change && bar)
            sprintf(bar + 1, "%s\n", move);
        fputs(line, g);
    }
    rewind(g);
    return g;
}

START_TEST(a_proof_is_found_checked_and_its_faults_caught)
{
    Tablebase *tb = open_tables(0);
    Position root;
    char err[256];
    ck_assert(single->from_fen(&root, "W:W14,15,16:B4,5", &config, err, sizeof err));
    FILE *f = tmpfile();
    uint64_t explored = 0, entries = 0;
    ck_assert_int_eq(proof_search(single, tb, &root, WHITE, 100000, f, &explored, err, sizeof err),
                     1);
    ck_assert_uint_gt(explored, 0);
    rewind(f);
    ck_assert_msg(proof_check(f, single, tb, &entries, err, sizeof err), "%s", err);
    ck_assert_uint_gt(entries, 5);
    /* one position left out: some line is no longer covered */
    FILE *g = edited(f, 6, 0, NULL);
    ck_assert(!proof_check(g, single, tb, &entries, err, sizeof err));
    fclose(g);
    /* the root's move replaced by one that is not legal there */
    g = edited(f, 0, 5, "15-10");
    ck_assert(!proof_check(g, single, tb, &entries, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "not a legal move"));
    fclose(g);
    /* the same strategy read as Black's: Black is not to move in its lines */
    g = tmpfile();
    char line[512];
    rewind(f);
    for (int k = 1; fgets(line, sizeof line, f); k++)
        fputs(k == 3 ? "side black\n" : line, g);
    rewind(g);
    ck_assert(!proof_check(g, single, tb, &entries, err, sizeof err));
    fclose(g);
    /* the rules, the side and the file's variant are checked */
    g = edited(f, 0, 0, NULL);
    ck_assert(!proof_check(g, chain, NULL, &entries, err, sizeof err));
    ck_assert_ptr_nonnull(strstr(err, "variant"));
    fclose(g);
    fclose(f);
    /* Black cannot prove it does not lose where White wins in 1 */
    ck_assert(single->from_fen(&root, "W:WK10,K13,K16,15:BK4", &config, err, sizeof err));
    f = tmpfile();
    ck_assert_int_eq(proof_search(single, tb, &root, BLACK, 100000, f, &explored, err, sizeof err),
                     0);
    fclose(f);
    single->tablebase->close(tb);
}
END_TEST


/* ---- proof books in play ------------------------------------------------------- */

/* A drawn 6-piece position that the tables of up to 4 pieces settle quickly
 * for both sides (each not-lose proof needs one round of 4096 positions). */
static const char *const BOOK_ROOT = "W:W12,13,14:B6,7,8";
static char book_dir[64];
static int pt_count(const char *text, const char *prefix);

/* Copy the solomon tables into a folder of their own and write its book
 * there: both sides' certificates from BOOK_ROOT. */
static void make_book_dir(void)
{
    temp_dir(book_dir);
    SolomonMaterial m = {-1, -1, -1, -1};
    while (solomon_tb_material_next(&m, PIECES)) {
        char name[96], from[200], to[200], buf[1 << 14];
        solomon_tb_file_name(single, m, name, sizeof name);
        snprintf(from, sizeof from, "%s/%s", table_dir, name);
        snprintf(to, sizeof to, "%s/%s", book_dir, name);
        FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
        ck_assert(in && out);
        size_t n;
        while ((n = fread(buf, 1, sizeof buf, in)) > 0)
            ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
        fclose(in);
        ck_assert_int_eq(fclose(out), 0);
    }
    Tablebase *tb = open_tables(0);
    Position root;
    char err[256], path[200];
    ck_assert(single->from_fen(&root, BOOK_ROOT, &config, err, sizeof err));
    snprintf(path, sizeof path, "%s/solomon.book", book_dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    for (int side = WHITE; side <= BLACK; side++) {
        uint64_t explored;
        ck_assert_int_eq(proof_search(single, tb, &root, side, 100000, f, &explored, err,
                                      sizeof err),
                         1);
    }
    ck_assert_int_eq(fclose(f), 0);
    single->tablebase->close(tb);
}

static void remove_book_dir(void)
{
    char path[200];
    snprintf(path, sizeof path, "%s/solomon.book", book_dir);
    remove(path);
    snprintf(path, sizeof path, "%s/solomon-chain.book", book_dir);
    remove(path);
    remove_dir(book_dir, single, PIECES);
}

/* The engine's move (go nodes 2000) after `position fen F [moves M]`, and the
 * source it names. */
static void book_move(const char *fen, const char *moves, char *move, char *source)
{
    char info[1 << 14];
    engine_move(fen, moves, move, info, sizeof info);
    const char *line = strstr(info, "info string source ");
    ck_assert_msg(line != NULL, "%s", info);
    sscanf(line, "info string source %15s", source);
    ck_assert_int_eq(pt_count(info, "info string source "), 1);
}

/* Does side not lose after move m from p?  Every reply must reach a table
 * position side does not lose, an end it does not lose, or a position from
 * which a fresh search (proof.c's prover, not the book) proves it, the
 * proof then checked. */
static bool proven_not_to_lose(const Tablebase *tb, const Position *p, Move m, int side)
{
    Position child;
    single->make(p, m, &child);
    Move replies[MAX_MOVES];
    int n = single->result(&child, NULL, NULL) == RESULT_NONE ? single->generate(&child, replies)
                                                              : 0;
    if (n == 0) {
        Result r = single->result(&child, NULL, NULL);
        return r != (side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS);
    }
    for (int i = 0; i < n; i++) {
        Position q;
        single->make(&child, replies[i], &q);
        FILE *f = tmpfile();
        uint64_t explored, entries;
        char err[256];
        int r = proof_search(single, tb, &q, side, 100000, f, &explored, err, sizeof err);
        rewind(f);
        bool ok = r == 1 && proof_check(f, single, tb, &entries, err, sizeof err);
        fclose(f);
        if (!ok)
            return false;
    }
    return true;
}

/* Lines of text that begin with prefix. */
static int pt_count(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
        n += strncmp(p, prefix, len) == 0;
    return n;
}

static bool in_list(const Move *moves, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

START_TEST(the_engine_plays_proven_moves_from_its_book)
{
    make_book_dir();
    char cmd[200], move[64], source[16], err[600], path[200];
    exchange("variant solomon");
    snprintf(cmd, sizeof cmd, "setoption name TablebasePath value %s", book_dir);
    const char *out = exchange(cmd);
    ck_assert_msg(!strstr(out, "error"), "%s", out);
    ck_assert_str_eq(engine_value(BOOK_ROOT), "draw proven");
    ck_assert_ptr_nonnull(strstr(exchange("d"), "\nTablebase: draw proven\n"));
    Tablebase *tb = open_tables(0);
    snprintf(path, sizeof path, "%s/solomon.book", book_dir);
    ProofBook *book = proof_book_load(single, tb, path, err, sizeof err);
    ck_assert_msg(book != NULL, "%s", err);
    ck_assert_uint_gt(proof_book_entries(book, WHITE), 0);
    ck_assert_uint_gt(proof_book_entries(book, BLACK), 0);
    Position root;
    ck_assert(single->from_fen(&root, BOOK_ROOT, &config, err, sizeof err));
    Move safe[MAX_MOVES], all[MAX_MOVES];
    int n_safe = proof_book_moves(book, tb, &root, safe), n_all = single->generate(&root, all);
    ck_assert_int_gt(n_safe, 0);
    ck_assert_int_lt(n_safe, n_all); /* the book leaves some moves out */
    /* every move the book allows is proven by a search of its own */
    for (int i = 0; i < n_safe; i++)
        ck_assert(proven_not_to_lose(tb, &root, safe[i], WHITE));
    /* White: the engine plays one of them, and says it comes from the book */
    book_move(BOOK_ROOT, "", move, source);
    ck_assert_str_eq(source, "book");
    Move m = single->parse_move(&root, move);
    ck_assert(in_list(safe, n_safe, m));
    /* Black, after each of White's moves, book or not: Black's certificate
     * covers them all, so its moves are proven too */
    for (int i = 0; i < n_all; i++) {
        char first[MOVE_STR_MAX];
        Position after;
        single->move_str(&root, all[i], first);
        single->make(&root, all[i], &after);
        snprintf(cmd, sizeof cmd, " %s", first);
        book_move(BOOK_ROOT, cmd, move, source);
        Move b = single->parse_move(&after, move);
        ck_assert(b != MOVE_NONE);
        Move bsafe[MAX_MOVES];
        int nb = proof_book_moves(book, tb, &after, bsafe);
        ck_assert_int_gt(nb, 0);
        ck_assert_str_eq(source, "book");
        ck_assert_msg(in_list(bsafe, nb, b), "%s %s", first, move);
        ck_assert(proven_not_to_lose(tb, &after, b, BLACK));
    }
    /* outside the book: the search, as without one */
    book_move("W:W12,13,14:B6,7,9", "", move, source);
    ck_assert_str_eq(source, "search");
    proof_book_free(book);
    single->tablebase->close(tb);
    remove_book_dir();
}
END_TEST

START_TEST(an_opponent_leaving_the_book_is_followed_into_the_tables)
{
    make_book_dir();
    char cmd[200], move[64], source[16], err[600], path[200];
    exchange("variant solomon");
    snprintf(cmd, sizeof cmd, "setoption name TablebasePath value %s", book_dir);
    ck_assert_ptr_null(strstr(exchange(cmd), "error"));
    Tablebase *tb = open_tables(0);
    snprintf(path, sizeof path, "%s/solomon.book", book_dir);
    ProofBook *book = proof_book_load(single, tb, path, err, sizeof err);
    ck_assert_msg(book != NULL, "%s", err);
    /* White plays from the book; then every reply of Black: the engine is in
     * its book (source book, a proven move) or in the tables (source table,
     * a move that keeps the tables' value, which is not a loss) */
    Position root, child;
    ck_assert(single->from_fen(&root, BOOK_ROOT, &config, err, sizeof err));
    book_move(BOOK_ROOT, "", move, source);
    Move m = single->parse_move(&root, move);
    single->make(&root, m, &child);
    Move replies[MAX_MOVES];
    int n = single->generate(&child, replies), tables_seen = 0;
    for (int i = 0; i < n; i++) {
        char line[64], white[64];
        Position q;
        single->move_str(&child, replies[i], line);
        single->make(&child, replies[i], &q);
        snprintf(cmd, sizeof cmd, " %s %s", move, line);
        book_move(BOOK_ROOT, cmd, white, source);
        TbValue tv;
        if (single->result(&q, NULL, NULL) != RESULT_NONE)
            continue;
        if (solomon_tb_probe(tables[0], &q, &tv)) {
            ck_assert_str_eq(source, "table");
            ck_assert_int_ne(tv.wdl, TB_LOSS);
            tables_seen++;
        } else {
            ck_assert_str_eq(source, "book");
            Move w = single->parse_move(&q, white), safe[MAX_MOVES];
            int k = proof_book_moves(book, tb, &q, safe);
            ck_assert(in_list(safe, k, w));
        }
    }
    /* then one line to the end of the book: Black captures when it can
     * (the first reply otherwise), the engine answers from its book until
     * the tables take over */
    char line[2048] = "";
    Position q = root;
    for (int ply = 0; ply < 40 && !tables_seen; ply++) {
        char w[64], b[64];
        book_move(BOOK_ROOT, line, w, source);
        TbValue tv;
        bool in_tables = solomon_tb_probe(tables[0], &q, &tv);
        ck_assert_str_eq(source, in_tables ? "table" : "book");
        if (in_tables) {
            ck_assert_int_ne(tv.wdl, TB_LOSS);
            tables_seen++;
            break;
        }
        Move wm = single->parse_move(&q, w), safe[MAX_MOVES];
        int k = proof_book_moves(book, tb, &q, safe);
        ck_assert(in_list(safe, k, wm));
        single->make(&q, wm, &child);
        if (single->result(&child, NULL, NULL) != RESULT_NONE)
            break;
        n = single->generate(&child, replies);
        int pick = 0;
        for (int i = 0; i < n; i++)
            if (single->is_noisy(&child, replies[i]))
                pick = i;
        single->move_str(&child, replies[pick], b);
        single->make(&child, replies[pick], &q);
        size_t len = strlen(line);
        snprintf(line + len, sizeof line - len, " %s %s", w, b);
        if (single->result(&q, NULL, NULL) != RESULT_NONE)
            break;
    }
    ck_assert_int_gt(tables_seen, 0);
    proof_book_free(book);
    single->tablebase->close(tb);
    remove_book_dir();
}
END_TEST

/* The book file after an edit: f's lines with line `drop` left out, the
 * file cut after `cut` bytes (0: not cut), or the variant line changed. */
static void write_damaged(const char *path, int drop, long cut, const char *variant)
{
    char from[200], line[512];
    snprintf(from, sizeof from, "%s.good", path);
    FILE *in = fopen(from, "r"), *out = fopen(path, "w");
    ck_assert(in && out);
    long written = 0;
    for (int n = 1; fgets(line, sizeof line, in); n++) {
        if (n == drop)
            continue;
        if (variant && strncmp(line, "variant ", 8) == 0)
            snprintf(line, sizeof line, "variant %s\n", variant);
        size_t len = strlen(line);
        if (cut && written + (long)len > cut)
            len = (size_t)(cut - written);
        fwrite(line, 1, len, out);
        written += (long)len;
        if (cut && written >= cut)
            break;
    }
    fclose(in);
    ck_assert_int_eq(fclose(out), 0);
}

/* Set TablebasePath to the book folder: the error line it gives ("" none). */
static const char *load_error(void)
{
    static char line[1024];
    char cmd[200];
    exchange("setoption name TablebasePath value <empty>");
    snprintf(cmd, sizeof cmd, "setoption name TablebasePath value %s", book_dir);
    const char *out = exchange(cmd);
    const char *e = strstr(out, "info string error: ");
    snprintf(line, sizeof line, "%.*s", e ? (int)strcspn(e, "\n") : 0, e ? e : "");
    return line;
}

START_TEST(a_damaged_book_is_refused_and_the_tables_still_used)
{
    make_book_dir();
    char path[200], good[220], move[64], source[16];
    snprintf(path, sizeof path, "%s/solomon.book", book_dir);
    snprintf(good, sizeof good, "%s.good", path);
    ck_assert_int_eq(rename(path, good), 0);
    exchange("variant solomon");
    /* the book as written loads */
    write_damaged(path, 0, 0, NULL);
    ck_assert_str_eq(load_error(), "");
    ck_assert_str_eq(engine_value(BOOK_ROOT), "draw proven");
    /* a position left out of White's certificate (line 6: its second entry) */
    write_damaged(path, 6, 0, NULL);
    const char *e = load_error();
    ck_assert_msg(strstr(e, "solomon.book not used: ") && strstr(e, "is not covered"), "%s", e);
    ck_assert_str_eq(engine_value(BOOK_ROOT), "unknown");
    ck_assert_str_eq(engine_value("W:WK7,K16:BK2"), "win 3"); /* the tables still are used */
    book_move(BOOK_ROOT, "", move, source);
    ck_assert_str_eq(source, "search");
    /* cut in the middle of a line, and cut before Black's certificate */
    FILE *f = fopen(good, "r");
    char line[512];
    long at = 0, black_at = 0;
    for (int n = 1; fgets(line, sizeof line, f); n++) {
        if (n > 1 && strcmp(line, "sigil-proof 1\n") == 0)
            black_at = at;
        at += (long)strlen(line);
    }
    fclose(f);
    ck_assert_int_gt(black_at, 0);
    write_damaged(path, 0, at - 7, NULL);
    e = load_error();
    ck_assert_msg(strstr(e, "solomon.book not used: "), "%s", e);
    write_damaged(path, 0, black_at, NULL);
    e = load_error();
    ck_assert_msg(strstr(e, "no certificate for black"), "%s", e);
    /* another rule set's book */
    write_damaged(path, 0, 0, "solomon-chain");
    e = load_error();
    ck_assert_msg(strstr(e, "not a proof for this variant"), "%s", e);
    ck_assert_str_eq(engine_value("W:WK7,K16:BK2"), "win 3");
    /* sigil-tbgen's checker names the fault as well (through proof.c) */
    f = fopen(path, "r");
    int certificates;
    uint64_t entries;
    char err[600];
    Tablebase *tb = open_tables(0);
    ck_assert(!proof_check_file(f, single, tb, &certificates, &entries, err, sizeof err));
    fclose(f);
    f = fopen(good, "r");
    ck_assert_msg(proof_check_file(f, single, tb, &certificates, &entries, err, sizeof err), "%s",
                  err);
    ck_assert_int_eq(certificates, 2);
    fclose(f);
    single->tablebase->close(tb);
    remove(good);
    remove_book_dir();
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
    tcase_add_test(tc, a_proof_is_found_checked_and_its_faults_caught);
    suite_add_tcase(s, tc);

    TCase *proto = tcase_create("protocol");
    tcase_add_unchecked_fixture(proto, build_tables, free_tables);
    tcase_add_checked_fixture(proto, start_engine, stop_engine);
    tcase_set_timeout(proto, 300);
    tcase_add_test(proto, options_are_listed);
    tcase_add_test(proto, query_value_matches_the_tables);
    tcase_add_test(proto, a_folder_without_tables_is_an_error_and_nothing_changes);
    tcase_add_test(proto, won_positions_are_won_in_the_tables_distance);
    tcase_add_test(proto, the_search_stops_at_the_tables_with_exact_scores);
    tcase_add_test(proto, the_engine_plays_proven_moves_from_its_book);
    tcase_add_test(proto, an_opponent_leaving_the_book_is_followed_into_the_tables);
    tcase_add_test(proto, a_damaged_book_is_refused_and_the_tables_still_used);
    suite_add_tcase(s, proto);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
