/* check_fen.c - the FEN kit (engine/games/fen.h) and the one strictness
 * every game's FEN reader has with it: the kit's functions on their own,
 * then every registered game against the same malformations of its own
 * FENs (positions of seeded random games). */
#include <check.h>
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games/fen.h"
#include "util.h"
#include "variant.h"
#include "variants.h"

/* ================================================================ the kit */

START_TEST(split_takes_fields_between_white_space)
{
    FenFields f;
    char err[96] = "";
    ck_assert(fen_split(" \ta  bc\n d \r", 1, 4, "x y z w", &f, err, sizeof err));
    ck_assert_int_eq(f.count, 3);
    ck_assert_str_eq(f.field[0], "a");
    ck_assert_str_eq(f.field[1], "bc");
    ck_assert_str_eq(f.field[2], "d");
    ck_assert(fen_split("a b", 2, 2, "x y", &f, err, sizeof err) && f.count == 2);

    static const char *const empty[] = {"", " ", "\t\n"};
    for (size_t i = 0; i < sizeof empty / sizeof *empty; i++) {
        err[0] = '\0';
        ck_assert(!fen_split(empty[i], 1, 2, "x y", &f, err, sizeof err));
        ck_assert_str_eq(err, "empty FEN");
    }
    ck_assert(!fen_split(NULL, 1, 2, "x y", &f, err, sizeof err));
    ck_assert_str_eq(err, "empty FEN");
    ck_assert(!fen_split("a b c", 1, 2, "x y", &f, err, sizeof err));
    ck_assert_str_eq(err, "too many fields (x y)");
    ck_assert(!fen_split("a", 2, 3, "x y z", &f, err, sizeof err));
    ck_assert_str_eq(err, "the FEN needs at least 2 fields (x y z)");
    ck_assert(!fen_split("a", 2, 2, "x y", &f, err, sizeof err));
    ck_assert_str_eq(err, "the FEN needs 2 fields (x y)");

    char longest[FEN_MAX + 1];
    memset(longest, 'a', FEN_MAX - 1);
    longest[FEN_MAX - 1] = '\0'; /* FEN_MAX - 1 characters: fits */
    ck_assert(fen_split(longest, 1, 1, "x", &f, err, sizeof err));
    ck_assert_uint_eq(strlen(f.field[0]), FEN_MAX - 1);
    longest[FEN_MAX - 1] = 'a';
    longest[FEN_MAX] = '\0';
    ck_assert(!fen_split(longest, 1, 1, "x", &f, err, sizeof err));
    ck_assert_str_eq(err, "FEN field too long");
    /* no buffer for the reason: refused all the same */
    ck_assert(!fen_split("", 1, 1, "x", &f, NULL, 0));
}
END_TEST

START_TEST(numbers_have_no_sign_and_no_leading_zero)
{
    int v = -1;
    ck_assert(fen_number("0", 0, 36, &v) && v == 0);
    ck_assert(fen_number("7", 0, 36, &v) && v == 7);
    ck_assert(fen_number("36", 0, 36, &v) && v == 36);
    ck_assert(fen_number("2000", 0, 2000, &v) && v == 2000);
    static const char *const bad[] = {"", "07", "00", "-1", "+1", " 1", "1 ", "37", "1a",
                                      "0x1", "99999999999999999999"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        v = -1;
        ck_assert_msg(!fen_number(bad[i], 0, 36, &v), "accepted '%s'", bad[i]);
        ck_assert_int_eq(v, -1);
    }
    ck_assert(!fen_number("1", 2, 36, &v));

    const char *text = "14,15", *c = text;
    ck_assert(fen_scan_number(&c, 1, 19, &v) && v == 14 && c == text + 2);
    c = text + 3;
    ck_assert(fen_scan_number(&c, 1, 19, &v) && v == 15 && *c == '\0');
    static const char *const bad_scan[] = {"014", "20", "0", "K1", "", ",1",
                                           "123456789012345"};
    for (size_t i = 0; i < sizeof bad_scan / sizeof *bad_scan; i++) {
        c = bad_scan[i];
        ck_assert_msg(!fen_scan_number(&c, 1, 19, &v), "accepted '%s'", bad_scan[i]);
        ck_assert_ptr_eq(c, bad_scan[i]);
    }
}
END_TEST

START_TEST(side_is_w_or_b)
{
    ck_assert_int_eq(fen_side("w"), WHITE);
    ck_assert_int_eq(fen_side("b"), BLACK);
    static const char *const bad[] = {"W", "B", "", "ww", "white", "-", "x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_int_eq(fen_side(bad[i]), -1);
}
END_TEST

/* A toy board of 3 ranks of 4 cells: 'x' and 'o' pieces, "Qn" a piece of
 * two characters, '!' refused by the cell reader with its own reason. */
typedef struct Toy {
    char cell[3][4][3];
} Toy;

static int toy_read(void *ctx, int rank, int file, const char *text, char *err, size_t errlen)
{
    Toy *t = ctx;
    if (text[0] == '!') {
        fen_fail(err, errlen, "toy refuses %c", '!');
        return -1;
    }
    int n = text[0] == 'x' || text[0] == 'o' ? 1 : text[0] == 'Q' && text[1] ? 2 : 0;
    memcpy(t->cell[rank][file], text, (size_t)n);
    return n;
}

static int toy_write(const void *ctx, int rank, int file, char *out)
{
    const Toy *t = ctx;
    size_t n = strlen(t->cell[rank][file]);
    memcpy(out, t->cell[rank][file], n);
    return (int)n;
}

START_TEST(boards_read_and_write_runs_of_empty_cells)
{
    static const char *const good[] = {"4/4/4", "x3/1o2/3x", "xoxo/oxox/xoxo", "Q12x/4/o2Q3",
                                       "1x1x/x1x1/4"};
    char err[96], out[FEN_MAX];
    for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
        Toy t;
        memset(&t, 0, sizeof t);
        ck_assert_msg(fen_read_board(good[i], 3, 4, toy_read, &t, err, sizeof err),
                      "refused %s: %s", good[i], err);
        char *end = fen_write_board(out, 3, 4, toy_write, &t);
        ck_assert_str_eq(out, good[i]);
        ck_assert_ptr_eq(end, out + strlen(out));
    }
    Toy t;
    memset(&t, 0, sizeof t);
    ck_assert(fen_read_board("x3/4/3o", 3, 4, toy_read, &t, err, sizeof err));
    ck_assert_str_eq(t.cell[2][0], "x"); /* the top rank first */
    ck_assert_str_eq(t.cell[0][3], "o");

    static const struct {
        const char *board, *reason;
    } bad[] = {
        {"", "rank 3 has fewer than 4 squares"},
        {"4/4", "the board needs 3 ranks separated by '/'"},
        {"4/4/4/", "the board has more than 3 ranks"},
        {"4/4/4/4", "the board has more than 3 ranks"},
        {"22/4/4", "two digits in a row in rank 3"},
        {"4/x21/4", "two digits in a row in rank 2"},
        {"5/4/4", "rank 3 has more than 4 squares"},
        {"x4/4/4", "rank 3 has more than 4 squares"},
        {"4x/4/4", "rank 3 has more than 4 squares"},
        {"3/4/4", "rank 3 has fewer than 4 squares"},
        {"4/4/3", "rank 1 has fewer than 4 squares"},
        {"4/0x3/4", "unexpected character '0' in the board"},
        {"4/4/y3", "unexpected character 'y' in the board"},
        {"4/4/\x01" "3", "unexpected character '?' in the board"},
        {"4/4/4 ", "rank 1 has more than 4 squares"},
        {"!3/4/4", "toy refuses !"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        memset(&t, 0, sizeof t);
        err[0] = '\0';
        ck_assert_msg(!fen_read_board(bad[i].board, 3, 4, toy_read, &t, err, sizeof err),
                      "accepted %s", bad[i].board);
        ck_assert_str_eq(err, bad[i].reason);
    }
}
END_TEST

/* ====================================== one strictness in every game */

/* Positions of every game along seeded random games from the start. */
enum { GAMES_PER_VARIANT = 12, PLIES_PER_GAME = 40 };

typedef void (*FenCheck)(const Variant *v, const char *fen);

static void for_each_fen(FenCheck check)
{
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        uint64_t seed = 1000 + (uint64_t)i;
        for (int g = 0; g < GAMES_PER_VARIANT; g++) {
            Position p;
            v->startpos(&p, &cfg);
            for (int ply = 0; ply < PLIES_PER_GAME; ply++) {
                char fen[FEN_MAX];
                v->to_fen(&p, fen);
                check(v, fen);
                Move moves[MAX_MOVES];
                int n = v->generate(&p, moves);
                if (n == 0)
                    break;
                Position child;
                v->make(&p, moves[util_random_below(&seed, (uint64_t)n)], &child);
                p = child;
            }
        }
    }
}

static void assert_refused(const Variant *v, const char *fen, const char *what)
{
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    Position p;
    char err[128] = "";
    ck_assert_msg(!v->from_fen(&p, fen, &cfg, err, sizeof err), "%s: accepted %s '%s'",
                  v->name, what, fen);
    ck_assert_msg(err[0] != '\0', "%s: no reason for '%s'", v->name, fen);
    for (const char *c = err; *c; c++)
        ck_assert_msg(isprint((unsigned char)*c), "%s: unprintable reason", v->name);
}

static void same_with_other_white_space(const Variant *v, const char *fen)
{
    char spaced[3 * FEN_MAX], *o = spaced;
    o += sprintf(o, " \t");
    for (const char *c = fen; *c; c++)
        o += *c == ' ' ? sprintf(o, " \t\r ") : sprintf(o, "%c", *c);
    sprintf(o, "\n ");
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    Position p;
    char err[128] = "", again[FEN_MAX];
    ck_assert_msg(v->from_fen(&p, spaced, &cfg, err, sizeof err), "%s: refused '%s': %s",
                  v->name, spaced, err);
    v->to_fen(&p, again);
    ck_assert_str_eq(again, fen);
}

START_TEST(every_game_takes_any_white_space_between_fields)
{
    for_each_fen(same_with_other_white_space);
}
END_TEST

static void refuses_one_more_field(const Variant *v, const char *fen)
{
    char longer[FEN_MAX + 8];
    snprintf(longer, sizeof longer, "%s 0", fen);
    assert_refused(v, longer, "a field more than the FEN has");
}

START_TEST(every_game_refuses_a_field_more)
{
    for_each_fen(refuses_one_more_field);
}
END_TEST

/* Each FEN that mutate() makes of fen at one of its characters (returning
 * false where it makes none) must be refused. */
typedef bool (*Mutation)(const char *fen, size_t at, char *out);

static void refuses_each(const Variant *v, const char *fen, Mutation mutate, const char *what)
{
    for (size_t i = 0; fen[i]; i++) {
        char changed[FEN_MAX + 1];
        if (mutate(fen, i, changed))
            assert_refused(v, changed, what);
    }
}

static bool other_case(const char *fen, size_t at, char *out)
{
    unsigned char c = (unsigned char)fen[at];
    if (!isalpha(c))
        return false;
    strcpy(out, fen);
    out[at] = (char)(islower(c) ? toupper(c) : tolower(c));
    return true;
}

static void refuses_each_letter_in_the_other_case(const Variant *v, const char *fen)
{
    refuses_each(v, fen, other_case, "a letter in the other case");
}

START_TEST(every_game_takes_letters_in_one_case_only)
{
    for_each_fen(refuses_each_letter_in_the_other_case);
}
END_TEST

/* A zero before the first digit of each number (or run of empty squares). */
static bool leading_zero(const char *fen, size_t at, char *out)
{
    if (!isdigit((unsigned char)fen[at]) || (at > 0 && isdigit((unsigned char)fen[at - 1])))
        return false;
    snprintf(out, FEN_MAX + 1, "%.*s0%s", (int)at, fen, fen + at);
    return true;
}

static void refuses_leading_zeros(const Variant *v, const char *fen)
{
    refuses_each(v, fen, leading_zero, "a number with a leading zero");
}

START_TEST(every_game_refuses_a_leading_zero)
{
    for_each_fen(refuses_leading_zeros);
}
END_TEST

/* ============================================================== runner */

int main(void)
{
    variants_init();
    Suite *s = suite_create("fen");
    TCase *tc = tcase_create("kit");
    tcase_add_test(tc, split_takes_fields_between_white_space);
    tcase_add_test(tc, numbers_have_no_sign_and_no_leading_zero);
    tcase_add_test(tc, side_is_w_or_b);
    tcase_add_test(tc, boards_read_and_write_runs_of_empty_cells);
    suite_add_tcase(s, tc);
    tc = tcase_create("games");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, every_game_takes_any_white_space_between_fields);
    tcase_add_test(tc, every_game_refuses_a_field_more);
    tcase_add_test(tc, every_game_takes_letters_in_one_case_only);
    tcase_add_test(tc, every_game_refuses_a_leading_zero);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
