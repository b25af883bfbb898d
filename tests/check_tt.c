/* check_tt.c - the transposition table (tt.c) and the search's use of it. */
#include <check.h>
#include <stdlib.h>

#include "core_test.h"
#include "search.h"
#include "tt.h"
#include "util.h"

/* A key whose bucket is b (the low 32 bits choose it) and tag t. */
static uint64_t key_in_bucket(size_t b, uint32_t tag)
{
    size_t buckets = tt_entry_count() / 4;
    uint64_t low = (((uint64_t)b << 32) + buckets - 1) / buckets;
    return ((uint64_t)tag << 32) | low;
}

START_TEST(test_tt_store_and_probe)
{
    ck_assert(tt_resize(1));
    ck_assert_uint_eq(tt_size_mb(), 1);
    ck_assert_uint_eq(tt_entry_count(), 1024 * 1024 / 16);
    TTHit h;
    uint64_t k = 0x123456789abcdef0ULL;
    ck_assert(!tt_probe(k, &h));
    tt_store(k, 0xfeedface12345678ULL, -1234, 7, TT_BOUND_LOWER, true);
    ck_assert(tt_probe(k, &h));
    ck_assert(h.move == 0xfeedface12345678ULL);
    ck_assert_int_eq(h.score, -1234);
    ck_assert_int_eq(h.depth, 7);
    ck_assert_int_eq(h.bound, TT_BOUND_LOWER);
    ck_assert(h.solved);
    /* Same bucket, other upper key bits: not found. */
    ck_assert(!tt_probe(k ^ (1ULL << 40), &h));
    /* A shallower bound of the same search does not overwrite a deeper one. */
    tt_store(k, 5, 100, 2, TT_BOUND_UPPER, false);
    ck_assert(tt_probe(k, &h));
    ck_assert_int_eq(h.depth, 7);
    /* An exact one does; MOVE_NONE keeps the old move. */
    tt_store(k, MOVE_NONE, 55, 3, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(k, &h));
    ck_assert_int_eq(h.depth, 3);
    ck_assert_int_eq(h.score, 55);
    ck_assert(h.move == 0xfeedface12345678ULL);
    ck_assert(!h.solved);
    tt_clear();
    ck_assert(!tt_probe(k, &h));
}
END_TEST

START_TEST(test_tt_replaces_shallowest_then_oldest)
{
    ck_assert(tt_resize(1));
    TTHit h;
    static const int depths[4] = {5, 3, 7, 9};
    for (int i = 0; i < 4; i++)
        tt_store(key_in_bucket(17, 100 + i), 1, 0, depths[i], TT_BOUND_EXACT, false);
    for (int i = 0; i < 4; i++)
        ck_assert(tt_probe(key_in_bucket(17, 100 + i), &h));
    /* A fifth position takes the depth-3 entry. */
    tt_store(key_in_bucket(17, 200), 1, 0, 4, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(key_in_bucket(17, 200), &h));
    ck_assert(!tt_probe(key_in_bucket(17, 101), &h));
    ck_assert(tt_probe(key_in_bucket(17, 100), &h));
    ck_assert(tt_probe(key_in_bucket(17, 102), &h));
    ck_assert(tt_probe(key_in_bucket(17, 103), &h));
    /* Two searches later the depth-9 entry (now worth 9 - 16) goes before
     * a fresh depth-1 one. */
    tt_new_search();
    tt_new_search();
    tt_store(key_in_bucket(17, 300), 1, 0, 1, TT_BOUND_EXACT, false);
    tt_store(key_in_bucket(17, 301), 1, 0, 1, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(key_in_bucket(17, 300), &h));
    ck_assert(tt_probe(key_in_bucket(17, 301), &h));
    int kept = 0;
    for (int i = 0; i < 4; i++)
        kept += tt_probe(key_in_bucket(17, 100 + i), &h);
    kept += tt_probe(key_in_bucket(17, 200), &h);
    ck_assert_int_eq(kept, 2);
    ck_assert(tt_probe(key_in_bucket(17, 103), &h)); /* the deepest stays */
}
END_TEST

START_TEST(test_tt_hashfull_counts_this_search_in_permille)
{
    ck_assert(tt_resize(1));
    ck_assert_int_eq(tt_hashfull(), 0);
    for (size_t b = 0; b < 250; b++)
        for (uint32_t t = 0; t < 4; t++)
            tt_store(key_in_bucket(b, 1000 + t), 1, 0, 1, TT_BOUND_EXACT, false);
    ck_assert_int_eq(tt_hashfull(), 1000);
    tt_new_search();
    ck_assert_int_eq(tt_hashfull(), 0);
    for (size_t b = 0; b < 250; b += 2)
        for (uint32_t t = 0; t < 4; t++)
            tt_store(key_in_bucket(b, 1000 + t), 1, 0, 1, TT_BOUND_EXACT, false);
    ck_assert_int_eq(tt_hashfull(), 500);
    tt_resize(TT_DEFAULT_MB);
}
END_TEST

/* The largest table is usable at once and clears whole: every bucket of a
 * spread of keys is found after its store and gone after tt_clear, also
 * after a second round (a clear of a table that was written takes a fresh
 * one; a clear of a clean table keeps it). */
START_TEST(test_tt_largest_table_stores_and_clears)
{
    ck_assert(tt_resize(TT_MAX_MB));
    ck_assert_uint_eq(tt_size_mb(), TT_MAX_MB);
    size_t buckets = tt_entry_count() / 4;
    ck_assert_uint_eq(buckets, (size_t)TT_MAX_MB * 1024 * 1024 / 64);
    TTHit h;
    for (int round = 0; round < 2; round++) {
        for (size_t i = 0; i < 1000; i++) {
            size_t b = i * (buckets / 1000) + (i == 999 ? buckets % 1000 + buckets / 1000 - 1 : 0);
            tt_store(key_in_bucket(b, 77 + (uint32_t)i), i + 1, (int)i, 5, TT_BOUND_EXACT, false);
        }
        for (size_t i = 0; i < 1000; i++) {
            size_t b = i * (buckets / 1000) + (i == 999 ? buckets % 1000 + buckets / 1000 - 1 : 0);
            ck_assert(tt_probe(key_in_bucket(b, 77 + (uint32_t)i), &h));
            ck_assert(h.move == i + 1);
            ck_assert_int_eq(h.score, (int)i);
        }
        tt_clear();
        for (size_t i = 0; i < 1000; i++) {
            size_t b = i * (buckets / 1000) + (i == 999 ? buckets % 1000 + buckets / 1000 - 1 : 0);
            ck_assert(!tt_probe(key_in_bucket(b, 77 + (uint32_t)i), &h));
        }
        ck_assert_int_eq(tt_hashfull(), 0);
        tt_clear(); /* clean: nothing to do, still empty */
        ck_assert(!tt_probe(key_in_bucket(0, 77), &h));
    }
    /* the last bucket is reachable and writable */
    tt_store(key_in_bucket(buckets - 1, 5), 9, 1, 1, TT_BOUND_EXACT, false);
    ck_assert(tt_probe(key_in_bucket(buckets - 1, 5), &h));
    ck_assert(tt_resize(TT_DEFAULT_MB));
    ck_assert(!tt_probe(key_in_bucket(buckets - 1, 5), &h));
}
END_TEST

START_TEST(test_search_set_hash_and_clear)
{
    search_set_hash(2);
    ck_assert_uint_eq(tt_size_mb(), 2);
    Game g;
    game_init(&g, &drift, &cfg);
    run(&g, 4, 0, 1, 1);
    ck_assert_int_gt(tt_hashfull(), 0);
    search_clear();
    ck_assert_int_eq(tt_hashfull(), 0);
    search_set_hash(TT_DEFAULT_MB);
    ck_assert_uint_eq(tt_size_mb(), TT_DEFAULT_MB);
    game_free(&g);
}
END_TEST

/* ============================================================== runner */

int main(void)
{
    Suite *s = suite_create("tt");
    TCase *tc = tcase_create("tt");
    tcase_add_test(tc, test_tt_store_and_probe);
    tcase_add_test(tc, test_tt_replaces_shallowest_then_oldest);
    tcase_add_test(tc, test_tt_hashfull_counts_this_search_in_permille);
    tcase_add_test(tc, test_search_set_hash_and_clear);
    suite_add_tcase(s, tc);
    /* 4 GB of address space and a few thousand page faults: seconds on a
     * loaded machine, not the default 4 s. */
    TCase *large = tcase_create("largest");
    tcase_set_timeout(large, 120);
    tcase_add_test(large, test_tt_largest_table_stores_and_clears);
    suite_add_tcase(s, large);
    return core_test_run(s);
}
