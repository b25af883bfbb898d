/* check_solomon.c - Solomon's Game, both rule sets (doc/rules.md, Solomon).
 * One test per rule, then the FEN and notation formats (the round trips,
 * keys and perft consistency are the contract suite's). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "game_test.h"
#include "perft.h"
#include "search.h"
#include "util.h"
#include "variants.h"

static const Variant *single; /* `solomon` */
static const Variant *chain;  /* `solomon-chain` */
static const GameConfig config = {DEFAULT_MOVE_LIMIT};

static void setup(void)
{
    variants_init();
    single = variants_find("solomon");
    chain = variants_find("solomon-chain");
    ck_assert_ptr_nonnull(single);
    ck_assert_ptr_nonnull(chain);
}

static Position at(const Variant *v, const char *fen) { return game_test_fen(v, fen); }

/* The legal moves of fen, printed, sorted, space-separated. */
static const char *moves_of(const Variant *v, const char *fen)
{
    static char out[4096];
    Position p = at(v, fen);
    game_test_moves_text(v, &p, "", out, sizeof out);
    return out;
}

static Result result_of(const Variant *v, const char *fen, const char **reason)
{
    Position p = at(v, fen);
    return v->result(&p, NULL, reason);
}

static Position play(const Variant *v, Position p, const char *text)
{
    Move m = v->parse_move(&p, text);
    ck_assert_msg(m != MOVE_NONE, "move %s not accepted", text);
    Position c;
    v->make(&p, m, &c);
    return c;
}

static void assert_fen(const Variant *v, const Position *p, const char *fen)
{
    char buf[FEN_MAX];
    v->to_fen(p, buf);
    ck_assert_str_eq(buf, fen);
}

/* ---- start ---------------------------------------------------------------- */

START_TEST(start_position_and_first_moves)
{
    Position p;
    single->startpos(&p, &config);
    assert_fen(single, &p, "W:W14,15,16,17,18,19:B1,2,3,4,5,6");
    ck_assert_int_eq(single->side_to_move(&p), WHITE);
    /* 19 is boxed in by 15, 16, 17; the rest step forward only */
    ck_assert_str_eq(moves_of(single, "W:W14,15,16,17,18,19:B1,2,3,4,5,6"),
                     "14-12 14-9 15-12 16-10 17-13 18-11 18-13");
    ck_assert_str_eq(moves_of(single, "B:W12,15,16,17,18,19:B1,2,3,4,5,6"),
                     "2-7 2-9 3-7 4-10 5-8 6-11 6-8");
    ck_assert_uint_eq(perft_count(single, &p, 2), 31);
    ck_assert_uint_eq(perft_count(single, &p, 3), 157);
    chain->startpos(&p, &config);
    ck_assert_uint_eq(perft_count(chain, &p, 4), 725);
    ck_assert_uint_eq(perft_count(chain, &p, 5), 3567);
}
END_TEST

/* ---- moves ---------------------------------------------------------------- */

START_TEST(step_to_an_adjacent_empty_point)
{
    /* a king on 10 has six line-neighbours; an occupied one blocks */
    ck_assert_str_eq(moves_of(single, "W:WK10:B1"),
                     "10-12 10-13 10-16 10-4 10-7 10-8");
    /* (the man on 16 may not step back to 19) */
    ck_assert_str_eq(moves_of(single, "W:WK10,16:B1"),
                     "10-12 10-13 10-4 10-7 10-8 16-15 16-17");
}
END_TEST

START_TEST(men_never_move_backward)
{
    ck_assert_str_eq(moves_of(single, "W:W10:B1"), "10-4 10-7 10-8");
    ck_assert_str_eq(moves_of(single, "B:W19:B10"), "10-12 10-13 10-16");
    /* no backward jump either: the black man on 16 is behind White's man */
    ck_assert_str_eq(moves_of(single, "W:W10:B1,16"), "10-4 10-7 10-8");
    ck_assert_str_eq(moves_of(chain, "W:W10:B1,16"), "10-4 10-7 10-8");
    ck_assert_str_eq(moves_of(single, "W:WK10:B1,16"), "10x19");
    /* a black man on 16: 19 is White's, 13 is backward for Black */
    ck_assert_str_eq(moves_of(single, "B:W19:B16,17"), "16-15 17-18");
}
END_TEST

START_TEST(sideways_only_on_the_horizontal_lines)
{
    /* 4 steps sideways along the top line (1 is taken) */
    ck_assert_str_eq(moves_of(single, "W:W4:B1"), "4-3 4-5");
    /* 9, 10, 11 share a height but no line: only forward moves */
    ck_assert_str_eq(moves_of(single, "W:W9,10,11:B1"),
                     "10-4 10-7 10-8 11-6 11-8 9-2 9-7");
    /* 7 and 8 share a height too */
    ck_assert_str_eq(moves_of(single, "B:W19:B7,8"), "7-10 7-9 8-10 8-11");
    /* sideways jumps along the bottom line, both ways */
    ck_assert_str_eq(moves_of(single, "W:W14:B1,15"), "14x16");
    ck_assert_str_eq(moves_of(single, "B:W16:B17"), "17x15");
}
END_TEST

START_TEST(jump_over_adjacent_enemy_only)
{
    /* own piece in between: no jump; enemy beyond an empty point: no jump */
    ck_assert_str_eq(moves_of(single, "W:W15,16:B1,4"), "15-12 15-14 16-10 16-17");
    /* landing point must be empty */
    ck_assert_str_eq(moves_of(single, "W:W16:B4,10"), "16-15 16-17");
    Position p = play(single, at(single, "W:W16:B1,10"), "16x4");
    assert_fen(single, &p, "B:W4:B1");
}
END_TEST

START_TEST(capturing_is_compulsory)
{
    /* after 14-9 Black has seven steps but must take: 2 jumps 9 */
    ck_assert_str_eq(moves_of(single, "B:W9,15,16,17,18,19:B1,2,3,4,5,6"), "2x12");
    ck_assert_str_eq(moves_of(chain, "B:W9,15,16,17,18,19:B1,2,3,4,5,6"), "2x12");
}
END_TEST

START_TEST(free_choice_among_captures)
{
    /* two jumps by different pieces: both legal */
    ck_assert_str_eq(moves_of(single, "W:W14,18:B1,9,11"), "14x7 18x8");
    /* no majority rule: the 2-capture chain is as legal as the 4-capture ones */
    ck_assert_str_eq(moves_of(chain, "W:WK1,15:B3,4,6,K9,12,13"),
                     "1x10x18 1x7x14x10x1 1x7x14x10x18");
}
END_TEST

START_TEST(crowning_on_the_enemy_palace)
{
    Position p = play(single, at(single, "W:W4:B6"), "4-1");
    assert_fen(single, &p, "B:WK1:B6");
    p = play(single, at(single, "B:W2:B16"), "16-19");
    assert_fen(single, &p, "W:W2:BK19");
    /* crowning by a jump */
    p = play(single, at(single, "B:W16:B10"), "10x19");
    assert_fen(single, &p, "W:W:BK19");
    /* a man on its own palace is just a man (the start has one each) */
    ck_assert_str_eq(moves_of(single, "B:W19:B1"), "1-3 1-4 1-5");
}
END_TEST

START_TEST(crowning_ends_the_move_and_the_chain)
{
    /* the man crowns on 1 and stops, though a king there could go on
     * over 3 to 7 */
    ck_assert_str_eq(moves_of(chain, "W:W10:B3,4"), "10x1");
    Position p = at(chain, "W:W10:B3,4");
    ck_assert_uint_eq(chain->parse_move(&p, "10x1x7"), MOVE_NONE);
    p = play(chain, p, "10x1");
    assert_fen(chain, &p, "B:WK1:B3");
    /* a king already crowned goes on */
    ck_assert_str_eq(moves_of(chain, "W:WK10:B3,4"), "10x1x7");
    /* the same for Black on 19: a king would go on over 17 to 13 */
    ck_assert_str_eq(moves_of(chain, "B:W16,17:B10"), "10x19");
    ck_assert_str_eq(moves_of(chain, "B:W16,17:BK10"), "10x19x13");
}
END_TEST

START_TEST(single_jump_versus_chain_on_the_same_position)
{
    ck_assert_str_eq(moves_of(single, "W:W9,K16:B3,7,K10"), "16x4");
    ck_assert_str_eq(moves_of(chain, "W:W9,K16:B3,7,K10"), "16x4x2x10");
    Position p = play(single, at(single, "W:W9,K16:B3,7,K10"), "16x4");
    assert_fen(single, &p, "B:WK4,9:B3,7");
    /* a single jump is not a chain move when the chain can go on */
    p = at(chain, "W:W9,K16:B3,7,K10");
    ck_assert_uint_eq(chain->parse_move(&p, "16x4"), MOVE_NONE);
    ck_assert_uint_eq(chain->parse_move(&p, "16x4x2"), MOVE_NONE);
    p = play(chain, p, "16x4x2x10");
    assert_fen(chain, &p, "B:W9,K10:B");
}
END_TEST

START_TEST(chain_may_land_on_a_jumped_point_or_its_start)
{
    /* 16 over 10 to 4, over 3 to 2, over 7 to 10: the king jumped on 10
     * has left, so the chain lands there */
    ck_assert_str_eq(moves_of(chain, "W:W9,K16:B3,7,K10"), "16x4x2x10");
    /* round trip back to the start point 10 */
    ck_assert_str_eq(moves_of(chain, "W:WK10:BK7,K9,14,15,16,18"), "10x2x12x19x10");
    Position p = play(chain, at(chain, "W:WK10:BK7,K9,14,15,16,18"), "10x2x12x19x10");
    assert_fen(chain, &p, "B:WK10:B14,18");
}
END_TEST

START_TEST(equal_chains_are_one_move)
{
    /* 10x2x12x19x10 and 10x19x12x2x10 take the same four pieces and land
     * on the same point: one move */
    Position p = at(chain, "W:WK10:BK7,K9,14,15,16,18");
    Move m[MAX_MOVES];
    ck_assert_int_eq(chain->generate(&p, m), 1);
    ck_assert_uint_eq(chain->parse_move(&p, "10x19x12x2x10"), m[0]);
    ck_assert_uint_eq(chain->parse_move(&p, "10x2x12x19x10"), m[0]);
    ck_assert_uint_eq(chain->parse_move(&p, "10x10"), m[0]);
    /* here 1x7x14x10x1 and 1x10x14x7x1 are one move (three moves in all) */
    p = at(chain, "W:WK1,15:B3,4,6,K9,12,13");
    ck_assert_int_eq(chain->generate(&p, m), 3);
    ck_assert_uint_eq(chain->parse_move(&p, "1x10x14x7x1"),
                      chain->parse_move(&p, "1x7x14x10x1"));
    ck_assert_uint_ne(chain->parse_move(&p, "1x7x14x10x1"), MOVE_NONE);
}
END_TEST

START_TEST(printed_path_is_the_smallest)
{
    char buf[MOVE_STR_MAX];
    Position p = at(chain, "W:WK10:BK7,K9,14,15,16,18");
    chain->move_str(&p, chain->parse_move(&p, "10x19x12x2x10"), buf);
    ck_assert_str_eq(buf, "10x2x12x19x10");
    p = at(chain, "W:WK1,15:B3,4,6,K9,12,13");
    chain->move_str(&p, chain->parse_move(&p, "1x10x14x7x1"), buf);
    ck_assert_str_eq(buf, "1x7x14x10x1");
}
END_TEST

START_TEST(from_x_to_names_exactly_one_move)
{
    Position p = at(chain, "W:WK1,15:B3,4,6,K9,12,13");
    /* 1x1 names one move; 1x18 names two (1x10x18, 1x7x14x10x18) */
    ck_assert_uint_eq(chain->parse_move(&p, "1x1"), chain->parse_move(&p, "1x7x14x10x1"));
    ck_assert_uint_eq(chain->parse_move(&p, "1x18"), MOVE_NONE);
    ck_assert_uint_ne(chain->parse_move(&p, "1x10x18"), MOVE_NONE);
    p = at(chain, "W:W9,K16:B3,7,K10");
    ck_assert_uint_eq(chain->parse_move(&p, "16x10"), chain->parse_move(&p, "16x4x2x10"));
    /* '-' is for steps only, 'x' for jumps only */
    p = at(single, "W:W14,15,16,17,18,19:B1,2,3,4,5,6");
    ck_assert_uint_ne(single->parse_move(&p, "14-9"), MOVE_NONE);
    ck_assert_uint_eq(single->parse_move(&p, "14x9"), MOVE_NONE);
    p = at(single, "W:W14:B1,15");
    ck_assert_uint_eq(single->parse_move(&p, "14-16"), MOVE_NONE);
    ck_assert_uint_ne(single->parse_move(&p, "14x16"), MOVE_NONE);
}
END_TEST

START_TEST(parse_move_rejects_garbage)
{
    static const char *bad[] = {
        "", "x", "-", "14", "14-", "14x", "x14", "14-9-4", "14--9", "14-x9",
        "014-9", "14-09", "0-1", "20-1", "14-9 ", "14-9x", "14x10-2", "141-9",
        "99999999999999999999-1", "14 - 9", "a-b", "14-9\x01", "\xff\xfe",
        "14-12,", "14-12x", "14x12", "12-14", "1-3",
    };
    Position p = at(single, "W:W14,15,16,17,18,19:B1,2,3,4,5,6");
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        Move m = single->parse_move(&p, bad[i]);
        /* "14-9 " with a trailing blank is accepted as 14-9 */
        if (strcmp(bad[i], "14-9 ") == 0)
            ck_assert_uint_ne(m, MOVE_NONE);
        else
            ck_assert_msg(m == MOVE_NONE, "accepted '%s'", bad[i]);
    }
    char big[5000];
    memset(big, '1', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_uint_eq(single->parse_move(&p, big), MOVE_NONE);
    for (size_t i = 0; i + 3 < sizeof big; i += 3)
        memcpy(big + i, "1x3", 3);
    ck_assert_uint_eq(chain->parse_move(&p, big), MOVE_NONE);
    uint64_t seed = 7;
    for (int t = 0; t < 2000; t++) {
        char junk[24];
        for (size_t i = 0; i < sizeof junk - 1; i++)
            junk[i] = (char)("0123456789x-K:, \x80"[util_random_below(&seed, 17)]);
        junk[util_random_below(&seed, sizeof junk)] = '\0';
        Move m = chain->parse_move(&p, junk);
        if (m != MOVE_NONE) {
            Move legal[MAX_MOVES];
            int n = chain->generate(&p, legal), found = 0;
            for (int i = 0; i < n; i++)
                found |= legal[i] == m;
            ck_assert(found);
        }
    }
}
END_TEST

/* ---- the end -------------------------------------------------------------- */

START_TEST(no_piece_loses)
{
    const char *why = NULL;
    ck_assert_int_eq(result_of(single, "B:WK10:B", &why), RESULT_WHITE_WINS);
    ck_assert_str_eq(why, "no pieces");
    ck_assert_int_eq(result_of(chain, "W:W:B3", &why), RESULT_BLACK_WINS);
    ck_assert_str_eq(why, "no pieces");
    /* the capture of the last piece ends the game */
    Position p = play(single, at(single, "W:W14:B1,15"), "14x16");
    ck_assert_int_eq(single->result(&p, NULL, &why), RESULT_NONE);
    p = play(single, at(single, "W:W14:B15"), "14x16");
    ck_assert_int_eq(single->result(&p, NULL, &why), RESULT_WHITE_WINS);
    ck_assert_str_eq(why, "no pieces");
    Move m[MAX_MOVES];
    ck_assert_int_eq(single->generate(&p, m), 0);
}
END_TEST

START_TEST(no_legal_move_loses)
{
    const char *why = NULL;
    /* White's man on 4: 1, 3, 5 taken, no point beyond them free */
    ck_assert_str_eq(moves_of(single, "W:W4:B1,2,3,5,6"), "");
    ck_assert_int_eq(result_of(single, "W:W4:B1,2,3,5,6", &why), RESULT_BLACK_WINS);
    ck_assert_str_eq(why, "no legal move");
    ck_assert_int_eq(result_of(chain, "W:W4:B1,2,3,5,6", &why), RESULT_BLACK_WINS);
    /* a black man on 16 with 19, 15, 17 held by White */
    ck_assert_int_eq(result_of(chain, "B:W14,15,17,18,19:B16", &why), RESULT_WHITE_WINS);
    ck_assert_str_eq(why, "no legal move");
}
END_TEST

START_TEST(solomon_bare_kings_draw_when_neither_can_capture)
{
    const char *why = NULL;
    Move m[MAX_MOVES];
    /* not adjacent: drawn whoever is to move */
    ck_assert_int_eq(result_of(single, "W:WK10:BK3", &why), RESULT_DRAW);
    ck_assert_str_eq(why, "bare kings");
    ck_assert_int_eq(result_of(single, "B:WK10:BK3", &why), RESULT_DRAW);
    Position p = at(single, "W:WK10:BK3");
    ck_assert_int_eq(single->generate(&p, m), 0);
    /* adjacent on a line, and the point beyond free: not drawn */
    ck_assert_int_eq(result_of(single, "W:WK10:BK16", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(single, "W:WK10:BK16"), "10x19");
    /* only one of the two could capture (1 is a line end): still not drawn,
     * whichever side is to move - the position decides, not the turn */
    ck_assert_int_eq(result_of(single, "W:WK4:BK1", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(single, "W:WK4:BK1"), "4-10 4-3 4-5");
    ck_assert_int_eq(result_of(single, "B:WK4:BK1", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(single, "B:WK4:BK1"), "1x10");
    /* a man instead of a king, or a second piece: not drawn */
    ck_assert_int_eq(result_of(single, "W:WK10:B3", &why), RESULT_NONE);
    ck_assert_int_eq(result_of(single, "W:WK10,K14:BK3", &why), RESULT_NONE);
    /* stepping out of contact reaches the draw */
    p = play(single, at(single, "W:WK4:BK1"), "4-10");
    ck_assert_int_eq(single->result(&p, NULL, &why), RESULT_DRAW);
}
END_TEST

START_TEST(chain_bare_kings_draw_only_when_neither_can_capture)
{
    const char *why = NULL;
    /* not adjacent: drawn whoever is to move, no moves */
    ck_assert_int_eq(result_of(chain, "W:WK10:BK3", &why), RESULT_DRAW);
    ck_assert_str_eq(why, "bare kings");
    ck_assert_int_eq(result_of(chain, "B:WK10:BK3", &why), RESULT_DRAW);
    ck_assert_str_eq(moves_of(chain, "W:WK10:BK3"), "");
    /* adjacent with the point beyond free: the capture is possible, so the
     * game plays on and the capture is compulsory */
    ck_assert_int_eq(result_of(chain, "W:WK10:BK16", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(chain, "W:WK10:BK16"), "10x19");
    ck_assert_int_eq(result_of(chain, "B:WK16:BK10", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(chain, "B:WK16:BK10"), "10x19");
    /* only Black's king could capture (1 is a line end): not drawn even
     * with White to move, who may step away */
    ck_assert_int_eq(result_of(chain, "W:WK4:BK1", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(chain, "W:WK4:BK1"), "4-10 4-3 4-5");
    ck_assert_int_eq(result_of(chain, "B:WK4:BK1", &why), RESULT_NONE);
    ck_assert_str_eq(moves_of(chain, "B:WK4:BK1"), "1x10");
    /* the capture ends the game: the captured side has no pieces */
    Position p = play(chain, at(chain, "B:WK4:BK1"), "1x10");
    ck_assert_int_eq(chain->result(&p, NULL, &why), RESULT_BLACK_WINS);
    ck_assert_str_eq(why, "no pieces");
    /* stepping out of contact reaches the draw */
    p = play(chain, at(chain, "W:WK4:BK1"), "4-10");
    ck_assert_int_eq(chain->result(&p, NULL, &why), RESULT_DRAW);
    ck_assert_str_eq(why, "bare kings");
    /* king against man, and two kings against one, go on */
    ck_assert_int_eq(result_of(chain, "W:WK10:B3", &why), RESULT_NONE);
    ck_assert_int_eq(result_of(chain, "W:WK10,K14:BK3", &why), RESULT_NONE);
}
END_TEST

/* ---- two kings against one ------------------------------------------------ */

/* An exact solution of every position with at most two kings a side and no
 * men, reached from the two-kings-against-one placements through generate()
 * and make(); values by retrograde iteration (threefold repetition left
 * out: it is a game-record rule, and a won line never repeats). */
enum { TB_SIZE = 1 << 14, TB_MAX_NODES = 8000 };
typedef struct TbNode {
    Position pos;
    int value;      /* +1 side to move wins, -1 loses, 0 draw or unresolved */
    int plies;      /* plies to the end with best play */
    int nchild;
    int child[32];
} TbNode;
typedef struct Tablebase {
    const Variant *v;
    int n;
    TbNode *nodes;
    int slot[TB_SIZE];  /* index + 1, 0 = empty; open addressing on the key */
} Tablebase;

static int tb_find_or_add(Tablebase *tb, const Position *p, bool *added)
{
    uint64_t key = tb->v->key(p);
    for (uint64_t i = key & (TB_SIZE - 1);; i = (i + 1) & (TB_SIZE - 1)) {
        int k = tb->slot[i];
        if (!k) {
            ck_assert_int_lt(tb->n, TB_MAX_NODES);
            tb->nodes[tb->n].pos = *p;
            tb->slot[i] = ++tb->n;
            *added = true;
            return tb->n - 1;
        }
        if (tb->v->key(&tb->nodes[k - 1].pos) == key) {
            *added = false;
            return k - 1;
        }
    }
}

static int tb_index(Tablebase *tb, const char *fen)
{
    bool added;
    Position p = at(tb->v, fen);
    int i = tb_find_or_add(tb, &p, &added);
    ck_assert_msg(!added, "%s is not in the table", fen);
    return i;
}

static void tb_build(Tablebase *tb, const Variant *v)
{
    tb->v = v;
    tb->n = 0;
    tb->nodes = calloc(TB_MAX_NODES, sizeof *tb->nodes);
    ck_assert_ptr_nonnull(tb->nodes);
    memset(tb->slot, 0, sizeof tb->slot);
    char fen[64];
    bool added;
    for (int a = 1; a <= 19; a++)
        for (int b = a + 1; b <= 19; b++)
            for (int k = 1; k <= 19; k++)
                for (int side = 0; side < 2 && k != a && k != b; side++) {
                    snprintf(fen, sizeof fen, "%c:WK%d,K%d:BK%d", side ? 'B' : 'W', a, b, k);
                    Position p = at(v, fen);
                    tb_find_or_add(tb, &p, &added);
                }
    Move m[MAX_MOVES];
    for (int i = 0; i < tb->n; i++) { /* the table grows while it is walked */
        Position p = tb->nodes[i].pos;
        int n = v->generate(&p, m);
        ck_assert_int_le(n, 32);
        tb->nodes[i].nchild = n;
        for (int j = 0; j < n; j++) {
            Position c;
            v->make(&p, m[j], &c);
            int ci = tb_find_or_add(tb, &c, &added);
            tb->nodes[i].child[j] = ci;
        }
        Result r = v->result(&p, NULL, NULL);
        int stm = v->side_to_move(&p);
        tb->nodes[i].value = r == RESULT_NONE || r == RESULT_DRAW ? 0
                             : (r == RESULT_WHITE_WINS) == (stm == WHITE) ? 1 : -1;
        tb->nodes[i].plies = 0;
    }
    /* Jacobi iteration: pass k decides, from the values of the passes before
     * it only, exactly the positions that end in k plies with best play. */
    int *value = malloc(sizeof *value * (size_t)tb->n), *plies = malloc(sizeof *plies * (size_t)tb->n);
    ck_assert(value && plies);
    for (bool changed = true; changed;) {
        changed = false;
        for (int i = 0; i < tb->n; i++) {
            const TbNode *t = &tb->nodes[i];
            value[i] = t->value;
            plies[i] = t->plies;
            if (t->value || !t->nchild)
                continue;
            int best_loss = -1, longest_win = -1, wins = 0;
            for (int j = 0; j < t->nchild; j++) {
                const TbNode *c = &tb->nodes[t->child[j]];
                if (c->value < 0 && (best_loss < 0 || c->plies < best_loss))
                    best_loss = c->plies;
                if (c->value > 0) {
                    wins++;
                    if (c->plies > longest_win)
                        longest_win = c->plies;
                }
            }
            if (best_loss >= 0) {
                value[i] = 1;
                plies[i] = best_loss + 1;
                changed = true;
            } else if (wins == t->nchild) {
                value[i] = -1;
                plies[i] = longest_win + 1;
                changed = true;
            }
        }
        for (int i = 0; i < tb->n; i++) {
            tb->nodes[i].value = value[i];
            tb->nodes[i].plies = plies[i];
        }
    }
    free(value);
    free(plies);
}

/* Kings of each colour in a men-free FEN ("W:WK10,K14:BK1"). */
static void count_kings(const char *fen, int *white, int *black)
{
    const char *b = strstr(fen, ":B");
    ck_assert_ptr_nonnull(b);
    *white = *black = 0;
    for (const char *c = fen; *c; c++)
        if (*c == 'K')
            (c < b ? (*white)++ : (*black)++);
}

/* The defender's best reply: a win if any, else a draw, else the loss that
 * lasts longest (first such move in generation order). */
static Move tb_best_defence(const Tablebase *tb, int i)
{
    Move m[MAX_MOVES];
    Position p = tb->nodes[i].pos;
    int n = tb->v->generate(&p, m), best = -1, best_rank = 0;
    ck_assert_int_gt(n, 0);
    for (int j = 0; j < n; j++) {
        const TbNode *c = &tb->nodes[tb->nodes[i].child[j]];
        int rank = c->value < 0 ? 1000000 - c->plies : c->value == 0 ? 500000 : c->plies;
        if (best < 0 || rank > best_rank) {
            best = j;
            best_rank = rank;
        }
    }
    return m[best];
}

/* White's two kings against Black's lone king, White to move: the table's
 * verdict over all 2,907 placements, then the engine's search (White) against
 * the table's best defence (Black) from `fen`, played to the end. */
static void two_kings_win(const Variant *v, int expect_wins, int expect_longest,
                          const char *fen, int expect_plies)
{
    Tablebase *tb = malloc(sizeof *tb);
    ck_assert_ptr_nonnull(tb);
    tb_build(tb, v);
    int wins = 0, longest = 0, placements = 0, longest_at = -1;
    char buf[FEN_MAX];
    for (int i = 0; i < tb->n; i++) {
        const Position *p = &tb->nodes[i].pos;
        v->to_fen(p, buf);
        int white, black;
        count_kings(buf, &white, &black);
        if (buf[0] != 'W' || white != 2 || black != 1)
            continue;
        placements++;
        if (tb->nodes[i].value > 0) {
            wins++;
            if (tb->nodes[i].plies > longest) {
                longest = tb->nodes[i].plies;
                longest_at = i;
            }
        }
    }
    ck_assert_int_eq(placements, 2907);
    ck_assert_int_eq(wins, expect_wins);
    ck_assert_int_eq(longest, expect_longest);

    int start = tb_index(tb, fen);
    ck_assert_int_eq(tb->nodes[start].value, 1);
    ck_assert_int_eq(tb->nodes[start].plies, expect_plies);

    const int starts[2] = {start, longest_at};
    for (int s = 0; s < 2; s++) {
        Game g;
        char err[128];
        v->to_fen(&tb->nodes[starts[s]].pos, buf);
        game_init(&g, v, &config);
        ck_assert_msg(game_set_fen(&g, buf, err, sizeof err), "%s", err);
        search_set_hash(16);
        search_clear();
        int plies = 0;
        while (game_result(&g, NULL, NULL) == RESULT_NONE && plies < 80) {
            Move m;
            if (v->side_to_move(&g.pos) == WHITE) {
                SearchLimits l;
                search_limits_clear(&l);
                l.depth = 12;
                SearchOptions o = {1, 1, NULL, NULL};
                m = search_run(&g, &l, &o, NULL, NULL, NULL).best;
            } else {
                bool added;
                int i = tb_find_or_add(tb, &g.pos, &added);
                ck_assert(!added);
                m = tb_best_defence(tb, i);
            }
            ck_assert(m != MOVE_NONE);
            game_play(&g, m);
            plies++;
        }
        const char *why = NULL;
        ck_assert_msg(game_result(&g, NULL, &why) == RESULT_WHITE_WINS,
                      "%s from %s: no win after %d plies (%s)", v->name, buf, plies,
                      why ? why : "going on");
        /* The defence is perfect, so the win takes at least the table's
         * distance; the search may take a little longer, never forever. */
        ck_assert_int_ge(plies, tb->nodes[starts[s]].plies);
        game_free(&g);
    }
    free(tb->nodes);
    free(tb);
}

START_TEST(two_kings_beat_one_single)
{
    /* 15 placements are draws or losses for the two kings (the lone king
     * captures at once or the position is blocked), the longest win is 13
     * plies: found independently by a Python retrograde analysis written
     * from the rule book. */
    two_kings_win(single, 2892, 13, "W:WK10,K14:BK1", 7);
}
END_TEST

START_TEST(two_kings_beat_one_chain)
{
    /* The revised bare-kings rule: 2,874 of 2,907 placements win, in up to
     * 23 plies (the sacrifice of a king that the lone king must take, then
     * the recapture); the same Python analysis agrees. */
    two_kings_win(chain, 2874, 23, "W:WK10,K14:BK1", 15);
}
END_TEST

START_TEST(threefold_repetition_is_the_games_business)
{
    ck_assert(single->repetition_draws);
    ck_assert(chain->repetition_draws);
    /* the key depends on the side to move and the pieces, not the path */
    Position a = at(single, "W:WK14,K18:BK2,K6");
    Position b = play(single, play(single, play(single, play(single, a, "14-12"),
                                                "6-8"), "12-14"), "8-6");
    ck_assert_uint_eq(single->key(&a), single->key(&b));
    Position c = at(single, "B:WK14,K18:BK2,K6");
    ck_assert_uint_ne(single->key(&a), single->key(&c));
}
END_TEST

/* ---- FEN ------------------------------------------------------------------ */

START_TEST(fen_round_trips)
{
    static const char *fens[] = {
        "W:W14,15,16,17,18,19:B1,2,3,4,5,6",
        "B:W9,12,K13,17,18:B3,K7,8,K16",
        "W:WK1,K19:BK10",
        "B:WK10:B",
        "W:W:B3",
        "W:W19:B1",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        Position p = at(single, fens[i]);
        assert_fen(single, &p, fens[i]);
        p = at(chain, fens[i]);
        assert_fen(chain, &p, fens[i]);
    }
    /* lists in either order, any point order: canonical output */
    Position p = at(single, "B:B3,1:WK10,9");
    assert_fen(single, &p, "B:W9,K10:B1,3");
}
END_TEST

START_TEST(fen_rejects_bad_input)
{
    static const char *bad[] = {
        "",
        "X:W1:B2",
        "W",
        "W:W14",
        "W:W14:B",                  /* Black just moved without pieces */
        "W:W:B",
        "W:W14:W15",                /* two white lists */
        "W:W14:B14",                /* point twice */
        "W:W14,14:B1",
        "W:W0:B1",
        "W:W20:B1",
        "W:W014:B1",
        "W:W14,:B1",
        "W:W14:B1:",
        "W:W14:B1 x",
        "W:W1:B5",                  /* a white man on 1 would have crowned */
        "W:W14:B19",                /* a black man on 19 would have crowned */
        "W:W10,11,12,13,14,15,16:B1", /* seven pieces */
        "W:WKK10:B1",
        "W:W-3:B1",
        "W:W99999999999999999999:B1",
        "b:b3,1:wk10,9",            /* letters in the case the FEN writes them */
        "W:W14:b1",
        "W:Wk10:B1",
    };
    char err[128];
    Position p;
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = '\0';
        ck_assert_msg(!single->from_fen(&p, bad[i], &config, err, sizeof err),
                      "accepted '%s'", bad[i]);
        ck_assert_msg(err[0] != '\0', "no reason for '%s'", bad[i]);
    }
    /* kings may stand on any point, men on their own palace */
    ck_assert(single->from_fen(&p, "W:WK1,19:BK19,1", &config, err, sizeof err) == false);
    ck_assert(single->from_fen(&p, "W:WK1,18:BK19,2", &config, err, sizeof err));
    /* random garbage: rejected, or accepted and then canonical */
    uint64_t seed = 11;
    for (int t = 0; t < 5000; t++) {
        char junk[40];
        size_t len = (size_t)util_random_below(&seed, sizeof junk);
        for (size_t i = 0; i < len; i++)
            junk[i] = "WBKwbk:,0123456789 \x01"[util_random_below(&seed, 21)];
        junk[len] = '\0';
        if (t % 2 == 0 && len > 2) { /* mostly well-formed */
            snprintf(junk, sizeof junk, "%c:W%d,K%d:B%d,%d",
                     "WB"[t % 4 == 0], (int)util_random_below(&seed, 22),
                     (int)util_random_below(&seed, 22),
                     (int)util_random_below(&seed, 22),
                     (int)util_random_below(&seed, 22));
        }
        if (single->from_fen(&p, junk, &config, err, sizeof err)) {
            char out[FEN_MAX];
            single->to_fen(&p, out);
            Position q = at(single, out);
            assert_fen(single, &q, out);
        }
    }
}
END_TEST

/* ---- diagram, evaluation -------------------------------------------------- */

START_TEST(diagram_shows_the_star)
{
    char buf[4096];
    Position p = at(single, "B:W14,K10:B1,K6");
    single->diagram(&p, buf, sizeof buf);
    ck_assert_ptr_nonnull(strstr(buf, "w----------"));
    ck_assert_ptr_nonnull(strstr(buf, "--W--"));
    ck_assert_ptr_nonnull(strstr(buf, "--------B"));
    ck_assert_ptr_nonnull(strstr(buf, "Black to move"));
    ck_assert_ptr_nonnull(strstr(buf, " 14   15 16 17   18"));
    int lines = 0;
    for (const char *c = buf; *c; c++)
        lines += *c == '\n';
    ck_assert_int_ge(lines, 17);
    char tiny[10];
    single->diagram(&p, tiny, sizeof tiny); /* truncates, never overflows */
    ck_assert_uint_lt(strlen(tiny), sizeof tiny);
}
END_TEST

/* The rules are symmetric under the half turn p -> 20 - p with the colours
 * swapped: perft and evaluation must be too. */
static void mirror_fen(const char *fen, char *out)
{
    Position p = at(single, fen);
    char buf[FEN_MAX];
    single->to_fen(&p, buf);
    /* rebuild: side swapped, lists swapped, points mirrored */
    char side = buf[0] == 'W' ? 'B' : 'W';
    const char *w = strstr(buf, ":W") + 2, *b = strstr(buf, ":B") + 2;
    char lists[2][64];
    for (int k = 0; k < 2; k++) {
        const char *s = k == 0 ? w : b;
        char *o = lists[k];
        *o = '\0';
        while (*s && *s != ':') {
            bool king = *s == 'K';
            if (king)
                s++;
            int v = atoi(s);
            while (*s >= '0' && *s <= '9')
                s++;
            o += sprintf(o, "%s%s%d", o == lists[k] ? "" : ",", king ? "K" : "", 20 - v);
            if (*s == ',')
                s++;
        }
    }
    snprintf(out, FEN_MAX, "%c:W%.60s:B%.60s", side, lists[1], lists[0]);
}

START_TEST(half_turn_symmetry_of_perft_and_evaluation)
{
    static const char *fens[] = {
        "W:W14,15,16,17,18,19:B1,2,3,4,5,6", "B:W9,12,K13,17,18:B3,K7,8,K16",
        "W:WK1,15:B3,4,6,K9,12,13", "W:W7,K12,18:B4,K9,K13,16",
    };
    for (size_t i = 0; i < sizeof fens / sizeof fens[0]; i++) {
        char m[FEN_MAX];
        mirror_fen(fens[i], m);
        for (int k = 0; k < 2; k++) {
            const Variant *v = k ? chain : single;
            Position a = at(v, fens[i]), b = at(v, m);
            ck_assert_uint_eq(perft_count(v, &a, 4), perft_count(v, &b, 4));
            ck_assert_int_eq(v->evaluate(&a), v->evaluate(&b));
        }
    }
}
END_TEST

START_TEST(evaluation_prefers_material_kings_and_mobility)
{
    /* side-to-move view, a man = 100 */
    Position p = at(single, "W:W14,15:B1");
    int e = single->evaluate(&p);
    ck_assert_int_gt(e, 50);
    p = at(single, "B:W14,15:B1");
    ck_assert_int_lt(single->evaluate(&p), -50);
    Position man = at(single, "W:W10:B1"), king = at(single, "W:WK10:B1");
    ck_assert_int_gt(single->evaluate(&king), single->evaluate(&man));
    /* mobility: a white man on 2 can only step to 3, one on 10 has three
     * steps (Black's man on 6 is unaffected either way) */
    Position cornered = at(single, "W:W2:B6"), free = at(single, "W:W10:B6");
    ck_assert_int_gt(single->evaluate(&free), single->evaluate(&cornered));
    Position edge = at(single, "W:WK2:B5"), centre = at(single, "W:WK10:B5");
    ck_assert_int_gt(single->evaluate(&centre), single->evaluate(&edge));
    single->startpos(&p, &config);
    e = single->evaluate(&p);
    ck_assert_int_lt(e < 0 ? -e : e, 50);
}
END_TEST

START_TEST(jumps_are_noisy_steps_are_not)
{
    Position p = at(chain, "W:WK10:BK7,K9,14,15,16,18");
    ck_assert(chain->is_noisy(&p, chain->parse_move(&p, "10x10")));
    p = at(single, "W:W14,15,16,17,18,19:B1,2,3,4,5,6");
    ck_assert(!single->is_noisy(&p, single->parse_move(&p, "14-9")));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("solomon");
    TCase *rules = tcase_create("rules");
    tcase_add_checked_fixture(rules, setup, NULL);
    tcase_add_test(rules, start_position_and_first_moves);
    tcase_add_test(rules, step_to_an_adjacent_empty_point);
    tcase_add_test(rules, men_never_move_backward);
    tcase_add_test(rules, sideways_only_on_the_horizontal_lines);
    tcase_add_test(rules, jump_over_adjacent_enemy_only);
    tcase_add_test(rules, capturing_is_compulsory);
    tcase_add_test(rules, free_choice_among_captures);
    tcase_add_test(rules, crowning_on_the_enemy_palace);
    tcase_add_test(rules, crowning_ends_the_move_and_the_chain);
    tcase_add_test(rules, single_jump_versus_chain_on_the_same_position);
    tcase_add_test(rules, chain_may_land_on_a_jumped_point_or_its_start);
    tcase_add_test(rules, equal_chains_are_one_move);
    tcase_add_test(rules, printed_path_is_the_smallest);
    tcase_add_test(rules, from_x_to_names_exactly_one_move);
    tcase_add_test(rules, parse_move_rejects_garbage);
    tcase_add_test(rules, no_piece_loses);
    tcase_add_test(rules, no_legal_move_loses);
    tcase_add_test(rules, solomon_bare_kings_draw_when_neither_can_capture);
    tcase_add_test(rules, chain_bare_kings_draw_only_when_neither_can_capture);
    tcase_add_test(rules, threefold_repetition_is_the_games_business);
    suite_add_tcase(s, rules);

    TCase *io = tcase_create("fen-notation-eval");
    tcase_add_checked_fixture(io, setup, NULL);
    tcase_add_test(io, fen_round_trips);
    tcase_add_test(io, fen_rejects_bad_input);
    tcase_add_test(io, diagram_shows_the_star);
    tcase_add_test(io, half_turn_symmetry_of_perft_and_evaluation);
    tcase_add_test(io, evaluation_prefers_material_kings_and_mobility);
    tcase_add_test(io, jumps_are_noisy_steps_are_not);
    suite_add_tcase(s, io);

    TCase *consistency = tcase_create("consistency");
    tcase_add_checked_fixture(consistency, setup, NULL);
    tcase_set_timeout(consistency, 120);
    tcase_add_test(consistency, two_kings_beat_one_single);
    tcase_add_test(consistency, two_kings_beat_one_chain);
    suite_add_tcase(s, consistency);

    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
