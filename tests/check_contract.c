/* check_contract.c - every check of the interface contract (tests/contract.c)
 * over every registered variant, and proof that the checks catch broken
 * games: copies of the real games with one function broken on purpose. */
#include <check.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "contract.h"
#include "variants.h"

static void setup(void) { variants_init(); }

/* --------------------------------------------- every game, every check */

/* Loop index i: variant i / contract_check_count, check i % count. */
START_TEST(test_variant_keeps_the_contract)
{
    const Variant *v = variants_get(_i / contract_check_count);
    const ContractCheck *c = &contract_checks[_i % contract_check_count];
    ck_assert_ptr_nonnull(v);
    ContractResult r;
    contract_run(v, c, &r);
    ck_assert_msg(r.failures == 0, "%s [%s: %s]: %ld violations, the first: %s", v->name,
                  c->name, c->rule, r.failures, r.first);
    if (c->at_position)
        ck_assert_int_gt(r.positions, 10);
}
END_TEST

START_TEST(test_registry_names_are_unique_and_found)
{
    ck_assert_int_gt(variants_count(), 0);
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        ck_assert_ptr_eq(variants_find(v->name), v);
        char upper[64];
        snprintf(upper, sizeof upper, "%s", v->name);
        for (char *c = upper; *c; c++)
            *c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
        ck_assert_ptr_eq(variants_find(upper), v);
        for (int k = 0; k < i; k++)
            ck_assert_str_ne(variants_get(k)->name, v->name);
    }
    ck_assert_ptr_eq(variants_default(), variants_get(0));
    ck_assert_ptr_null(variants_find("no-such-game"));
}
END_TEST

/* ------------------------------------------------- broken copies */

/* The real game behind the broken copy under test (tests run one at a
 * time, each in its own process). */
static const Variant *real;
static Variant broken;

static void break_from(const Variant *v)
{
    real = v;
    broken = *v;
}

/* Failures of check name on the broken copy. */
static long failures_of(const char *name)
{
    const ContractCheck *c = contract_find(name);
    ck_assert_ptr_nonnull(c);
    ContractResult r;
    contract_run(&broken, c, &r);
    return r.failures;
}

/* The FEN loses its last character. */
static void fen_cut(const Position *pos, char *buf)
{
    real->to_fen(pos, buf);
    size_t len = strlen(buf);
    if (len > 0)
        buf[len - 1] = '\0';
}

/* The FEN is always that of the start position. */
static void fen_of_start(const Position *pos, char *buf)
{
    (void)pos;
    Position start;
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    real->startpos(&start, &cfg);
    real->to_fen(&start, buf);
}

START_TEST(test_contract_catches_a_fen_that_does_not_round_trip)
{
    for (int i = 0; i < variants_count(); i++) {
        break_from(variants_get(i));
        broken.to_fen = fen_cut;
        ck_assert_msg(failures_of("fen-round-trip") > 0, "%s: cut FEN not caught", real->name);
        broken.to_fen = fen_of_start;
        ck_assert_msg(failures_of("fen-round-trip") > 0, "%s: start FEN not caught", real->name);
    }
}
END_TEST

/* A broken incremental key: the copy's position is the real one followed by
 * a count of the moves made since the FEN, and the key mixes the count in,
 * so a position reached by moves has another key than the same position
 * read from its FEN -- the bug of a make() that updates its key wrongly. */
static unsigned char *made_count(Position *pos) { return &pos->bytes[real->position_size]; }
static uint64_t made_count_of(const Position *pos)
{
    uint64_t n;
    memcpy(&n, &pos->bytes[real->position_size], sizeof n);
    return n;
}
static void counted_startpos(Position *pos, const GameConfig *cfg)
{
    real->startpos(pos, cfg);
    memset(made_count(pos), 0, sizeof(uint64_t));
}
static bool counted_from_fen(Position *pos, const char *fen, const GameConfig *cfg, char *err,
                             size_t errlen)
{
    if (!real->from_fen(pos, fen, cfg, err, errlen))
        return false;
    memset(made_count(pos), 0, sizeof(uint64_t));
    return true;
}
static void counted_make(const Position *pos, Move m, Position *out)
{
    real->make(pos, m, out);
    uint64_t n = made_count_of(pos) + 1;
    memcpy(made_count(out), &n, sizeof n);
}
static uint64_t counted_key(const Position *pos)
{
    return real->key(pos) ^ (made_count_of(pos) * 0x9E3779B97F4A7C15ULL);
}

START_TEST(test_contract_catches_a_wrong_incremental_key)
{
    int tried = 0;
    for (int i = 0; i < variants_count(); i++) {
        const Variant *v = variants_get(i);
        if (v->position_size + sizeof(uint64_t) > sizeof(Position))
            continue; /* no room for the count */
        break_from(v);
        broken.position_size = v->position_size + sizeof(uint64_t);
        broken.startpos = counted_startpos;
        broken.from_fen = counted_from_fen;
        broken.make = counted_make;
        broken.key = counted_key;
        ck_assert_msg(failures_of("key-recomputed") > 0, "%s: wrong key not caught", v->name);
        /* Only the key is wrong: the FEN still round-trips. */
        ck_assert_int_eq(failures_of("fen-round-trip"), 0);
        tried++;
    }
    ck_assert_int_ge(tried, variants_count() - 1);
}
END_TEST

/* Move texts that do not parse back. */
static void move_str_shouted(const Position *pos, Move m, char *buf)
{
    real->move_str(pos, m, buf);
    strcat(buf, "!");
}

/* A result that calls every position with an even key a draw. */
static Result result_even_draws(const Position *pos, int *margin, const char **reason)
{
    if (real->key(pos) % 2 == 0) {
        if (margin)
            *margin = 0;
        if (reason)
            *reason = "even";
        return RESULT_DRAW;
    }
    return real->result(pos, margin, reason);
}

/* A generate() whose order changes from call to call. */
static int generate_unstable(const Position *pos, Move *moves)
{
    static unsigned calls;
    int n = real->generate(pos, moves);
    if (n > 1 && calls++ % 2) {
        Move first = moves[0];
        moves[0] = moves[n - 1];
        moves[n - 1] = first;
    }
    return n;
}

START_TEST(test_contract_catches_bad_notation_results_and_move_order)
{
    for (int i = 0; i < variants_count(); i++) {
        break_from(variants_get(i));
        broken.move_str = move_str_shouted;
        ck_assert_msg(failures_of("notation-round-trip") > 0, "%s", real->name);
        break_from(variants_get(i));
        broken.result = result_even_draws;
        ck_assert_msg(failures_of("result-consistent") > 0, "%s", real->name);
        break_from(variants_get(i));
        broken.generate = generate_unstable;
        ck_assert_msg(failures_of("moves-well-formed") > 0, "%s", real->name);
    }
}
END_TEST

/* A count one too many wherever there is more than one move, and one that
 * counts the moves of the start position everywhere. */
static int count_moves_one_too_many(const Position *pos)
{
    int n = real->count_moves(pos);
    return n > 1 ? n + 1 : n;
}

static int count_moves_of_start(const Position *pos)
{
    (void)pos;
    Position start;
    Move moves[MAX_MOVES];
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    real->startpos(&start, &cfg);
    return real->generate(&start, moves);
}

START_TEST(test_every_game_counts_its_moves_in_bulk)
{
    for (int i = 0; i < variants_count(); i++)
        ck_assert_msg(variants_get(i)->count_moves != NULL, "%s has no count_moves",
                      variants_get(i)->name);
}
END_TEST

START_TEST(test_contract_catches_a_wrong_move_count)
{
    for (int i = 0; i < variants_count(); i++) {
        break_from(variants_get(i));
        broken.count_moves = count_moves_one_too_many;
        ck_assert_msg(failures_of("count-moves") > 0, "%s: one too many not caught", real->name);
        broken.count_moves = count_moves_of_start;
        ck_assert_msg(failures_of("count-moves") > 0, "%s: start count not caught", real->name);
    }
}
END_TEST

/* A position size that claims less than the game uses. */
START_TEST(test_contract_catches_a_position_size_too_small)
{
    for (int i = 0; i < variants_count(); i++) {
        break_from(variants_get(i));
        broken.position_size = 1;
        ck_assert_msg(failures_of("layout") > 0, "%s", real->name);
    }
}
END_TEST

static Suite *contract_suite(void)
{
    Suite *s = suite_create("contract");
    TCase *tc = tcase_create("every variant");
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 120);
    variants_init();
    tcase_add_loop_test(tc, test_variant_keeps_the_contract, 0,
                        variants_count() * contract_check_count);
    tcase_add_test(tc, test_registry_names_are_unique_and_found);
    tcase_add_test(tc, test_every_game_counts_its_moves_in_bulk);
    suite_add_tcase(s, tc);
    tc = tcase_create("broken games are caught");
    tcase_add_unchecked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_contract_catches_a_fen_that_does_not_round_trip);
    tcase_add_test(tc, test_contract_catches_a_wrong_incremental_key);
    tcase_add_test(tc, test_contract_catches_bad_notation_results_and_move_order);
    tcase_add_test(tc, test_contract_catches_a_position_size_too_small);
    tcase_add_test(tc, test_contract_catches_a_wrong_move_count);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(contract_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
