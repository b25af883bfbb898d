/* check_levels.c - the playing levels (options Skill Level, UCI_LimitStrength,
 * UCI_Elo; doc/levels.md): listed by uci, validated by setoption, mapped from
 * Elo, and a weak level's move always legal, always one of the search's
 * candidates and never worse than the best by more than the level's noise. */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol_test.h"
#include "session.h"
#include "variants.h"

START_TEST(uci_lists_the_level_options)
{
    pt_start();
    const char *out = pt_exchange("uci");
    ck_assert_ptr_nonnull(pt_find_line(out, "option name Skill Level type spin default 20 min 0 "
                                            "max 20"));
    ck_assert_ptr_nonnull(pt_find_line(out, "option name UCI_LimitStrength type check default "
                                            "false"));
    ck_assert_ptr_nonnull(pt_find_line(out, "option name UCI_Elo type spin default 1800 min 1000 "
                                            "max 1800"));
    ck_assert_int_eq(pt_count_lines(pt_exchange("setoption name Skill Level value 21"),
                                    "info string error: Skill Level takes a whole number from 0 "
                                    "to 20"),
                     1);
    ck_assert_int_eq(pt_count_lines(pt_exchange("setoption name UCI_Elo value 999"),
                                    "info string error: UCI_Elo takes a whole number from 1000 "
                                    "to 1800"),
                     1);
    ck_assert_int_eq(pt_count_lines(pt_exchange("setoption name UCI_LimitStrength value maybe"),
                                    "info string error"),
                     1);
    pt_finish();
}
END_TEST

START_TEST(elo_maps_onto_skill_levels)
{
    ck_assert_int_eq(session_elo_to_skill(1000), 0);
    ck_assert_int_eq(session_elo_to_skill(1039), 0);
    ck_assert_int_eq(session_elo_to_skill(1040), 1);
    ck_assert_int_eq(session_elo_to_skill(1400), 10);
    ck_assert_int_eq(session_elo_to_skill(1760), 19);
    ck_assert_int_eq(session_elo_to_skill(1800), 19); /* limited is never full strength */
    /* The search limits grow with the level. */
    for (int l = 1; l < SKILL_MAX; l++) {
        ck_assert_int_ge(session_skill_depth(l), session_skill_depth(l - 1));
        ck_assert_uint_ge(session_skill_nodes(l), session_skill_nodes(l - 1));
        ck_assert_int_lt(session_skill_noise(l), session_skill_noise(l - 1));
    }
    ck_assert_int_eq(session_skill_noise(SKILL_MAX), 0);
    ck_assert_int_eq(session_skill_depth(0), 1);
}
END_TEST

/* One search at the current settings: the bestmove, and the MultiPV lines
 * of the last depth reported (move and score). */
typedef struct Line {
    char move[64];
    int score;
} Line;

static int search_lines(const char *go, char *best, Line *lines, int max)
{
    pt_seen[0] = '\0';
    pt_send(go);
    const char *b = pipe_engine_expect(&pt_engine, "bestmove ", T_LONG, pt_seen, sizeof pt_seen);
    ck_assert_msg(b != NULL, "no bestmove:\n%s", pt_seen);
    ck_assert_int_eq(sscanf(b, "bestmove %63s", best), 1);
    int n = 0, depth = 0;
    for (const char *l = pt_seen; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
        int d, k, sc;
        char mv[64];
        const char *pv = strstr(l, " pv ");
        const char *nl = strchr(l, '\n');
        if (strncmp(l, "info depth ", 11) || !pv || (nl && pv > nl))
            continue;
        if (sscanf(l, "info depth %d", &d) != 1 || !strstr(l, " multipv ") ||
            sscanf(strstr(l, " multipv "), " multipv %d score cp %d", &k, &sc) != 2 ||
            sscanf(pv, " pv %63s", mv) != 1 || k < 1 || k > max)
            continue;
        if (d > depth) {
            depth = d;
            n = 0;
        }
        if (d == depth) {
            snprintf(lines[k - 1].move, sizeof lines[k - 1].move, "%s", mv);
            lines[k - 1].score = sc;
            if (k > n)
                n = k;
        }
    }
    return n;
}

START_TEST(a_weak_level_plays_a_near_best_legal_candidate)
{
    static const char *const games[] = {"solomon", "solomon-chain", "salto", "pyramid", "lupta"};
    for (size_t gi = 0; gi < sizeof games / sizeof *games; gi++) {
        pt_start();
        char cmd[128], moves[8192], best[64];
        snprintf(cmd, sizeof cmd, "variant %s", games[gi]);
        pt_exchange(cmd);
        pt_exchange("setoption name Skill Level value 0");
        pt_legal_moves(moves, sizeof moves);
        int distinct = 0;
        char seen[8][64];
        for (int seed = 1; seed <= 8; seed++) {
            snprintf(cmd, sizeof cmd, "setoption name Seed value %d", seed);
            pt_exchange(cmd);
            Line lines[SKILL_CANDIDATES];
            int n = search_lines("go movetime 5000", best, lines, SKILL_CANDIDATES);
            ck_assert_msg(pt_list_has(moves, best), "%s: %s is not legal", games[gi], best);
            /* depth 1 at level 0, five candidates */
            ck_assert_msg(strstr(pt_seen, "info depth 2 ") == NULL, "%s", pt_seen);
            ck_assert_int_eq(n, SKILL_CANDIDATES);
            int top = lines[0].score, mine = -1000000;
            for (int i = 0; i < n; i++)
                if (strcmp(lines[i].move, best) == 0)
                    mine = lines[i].score;
            ck_assert_msg(mine > -1000000, "%s: %s is no candidate", games[gi], best);
            ck_assert_int_ge(mine, top - session_skill_noise(0));
            bool is_new = true;
            for (int i = 0; i < distinct; i++)
                is_new &= strcmp(seen[i], best) != 0;
            if (is_new)
                snprintf(seen[distinct++], sizeof seen[0], "%s", best);
        }
        /* The level varies its play: not the same move every time. */
        ck_assert_msg(distinct >= 2, "%s: level 0 always played %s", games[gi], seen[0]);
        pt_finish();
    }
}
END_TEST

START_TEST(full_strength_and_limit_strength)
{
    pt_start();
    char best[64], again[64];
    Line lines[SKILL_CANDIDATES];
    /* Level 20 is the plain search: one line, the same move every time. */
    pt_exchange("ucinewgame");
    search_lines("go depth 5", best, lines, 1);
    ck_assert_ptr_null(strstr(pt_seen, " multipv 2 "));
    pt_exchange("setoption name Seed value 9");
    pt_exchange("ucinewgame"); /* the same search from an empty table */
    search_lines("go depth 5", again, lines, 1);
    ck_assert_str_eq(best, again);
    /* UCI_LimitStrength at 1000 Elo is level 0: a depth-1 search of five lines. */
    pt_exchange("setoption name UCI_LimitStrength value true");
    pt_exchange("setoption name UCI_Elo value 1000");
    ck_assert_int_eq(search_lines("go depth 5", best, lines, SKILL_CANDIDATES), SKILL_CANDIDATES);
    ck_assert_ptr_null(strstr(pt_seen, "info depth 2 "));
    /* Skill Level is ignored while UCI_LimitStrength is on ... */
    pt_exchange("setoption name Skill Level value 20");
    search_lines("go depth 5", best, lines, SKILL_CANDIDATES);
    ck_assert_ptr_null(strstr(pt_seen, "info depth 2 "));
    /* ... and counts again when it is off.  A weak level never waits for
     * stop: go infinite answers by itself. */
    pt_exchange("setoption name UCI_LimitStrength value false");
    pt_exchange("setoption name Skill Level value 2");
    search_lines("go infinite", best, lines, SKILL_CANDIDATES);
    ck_assert_ptr_nonnull(strstr(pt_seen, "info depth 2 "));
    ck_assert_ptr_null(strstr(pt_seen, "info depth 3 "));
    pt_finish();
}
END_TEST

static Suite *levels_suite(void)
{
    Suite *s = suite_create("levels");
    TCase *tc = tcase_create("levels");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, uci_lists_the_level_options);
    tcase_add_test(tc, elo_maps_onto_skill_levels);
    tcase_add_test(tc, a_weak_level_plays_a_near_best_legal_candidate);
    tcase_add_test(tc, full_strength_and_limit_strength);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    variants_init();
    SRunner *sr = srunner_create(levels_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
