/* report.c - progress lines, rating blocks and the final report (see
 * report.h).  The line formats follow cutechess-cli's and fastchess's
 * sources word for word where they exist. */
#include "report.h"
#include "results.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define LN10 2.302585092994046

static const char *name_of(const Ledger *l, int engine) { return l->names[engine]; }

void report_started(const Ledger *l, int j, int total)
{
    const Job *job = &l->sched.jobs[j];
    printf("Started game %d of %d (%s vs %s)\n", j + 1, total, name_of(l, job->white),
           name_of(l, job->black));
}

void report_finished(const Ledger *l, int j)
{
    const Job *job = &l->sched.jobs[j];
    printf("Finished game %d (%s vs %s): %s {%s}\n", j + 1, name_of(l, job->white),
           name_of(l, job->black), record_result_token(l->g[j].result), l->g[j].reason);
}

static int tally_games(const Tally *t) { return t->wdl.wins + t->wdl.losses + t->wdl.draws; }

void report_score(const Ledger *l, int p, const Tally *t)
{
    const Pairing *pr = &l->sched.pairings[p];
    int n = tally_games(t);
    printf("Score of %s vs %s: %d - %d - %d  [%.3f] %d\n", name_of(l, pr->a), name_of(l, pr->b),
           t->wdl.wins, t->wdl.losses, t->wdl.draws, n ? stats_score(t->wdl.wins, t->wdl.draws,
                                                                    t->wdl.losses)
                                                       : 0.0,
           n);
}

static void side_line(const char *who, int w, int l, int d)
{
    int n = w + l + d;
    if (n > 0)
        printf("...      %s: %d - %d - %d  [%.3f] %d\n", who, w, l, d, stats_score(w, d, l), n);
}

/* The SPRT as fastchess prints it in its cutechess output. */
static void sprt_line(const Ledger *l, double llr)
{
    double lower = stats_sprt_lower(l->sprt_alpha, l->sprt_beta);
    double upper = stats_sprt_upper(l->sprt_alpha, l->sprt_beta);
    double pct = llr < 0 ? llr / lower * 100 : llr / upper * 100;
    StatsSprtVerdict v = stats_sprt_verdict(llr, l->sprt_alpha, l->sprt_beta);
    printf("SPRT: llr %.2f (%.1f%%), lbound %.2f, ubound %.2f%s\n", llr, pct, lower, upper,
           v == STATS_SPRT_H1   ? " - H1 was accepted"
           : v == STATS_SPRT_H0 ? " - H0 was accepted"
                                : "");
}

/* The LLR of pairing 0 over a tally (pentanomial once a pair is complete). */
static double tally_llr(const Ledger *l, const Tally *t)
{
    int pairs = t->penta[0] + t->penta[1] + t->penta[2] + t->penta[3] + t->penta[4];
    return pairs > 0 ? stats_sprt_llr(t->penta, l->sprt_elo0, l->sprt_elo1, l->sprt_model)
                     : stats_sprt_llr_wdl(t->wdl.wins, t->wdl.draws, t->wdl.losses, l->sprt_elo0,
                                          l->sprt_elo1, l->sprt_model);
}

typedef struct Totals {
    int games, wins, draws, losses;
} Totals;

static void engine_totals(const Ledger *l, const Tally *tallies, Totals *tot)
{
    memset(tot, 0, (size_t)l->nengines * sizeof *tot);
    for (int p = 0; p < l->sched.npairings; p++) {
        const Pairing *pr = &l->sched.pairings[p];
        const StatsWdl *w = &tallies[p].wdl;
        Totals *a = &tot[pr->a], *b = &tot[pr->b];
        int n = w->wins + w->losses + w->draws;
        a->games += n, b->games += n;
        a->wins += w->wins, a->losses += w->losses, a->draws += w->draws;
        b->wins += w->losses, b->losses += w->wins, b->draws += w->draws;
    }
}

/* Engines by points, stable. */
static void rank_engines(const Ledger *l, const Totals *tot, int *order)
{
    for (int i = 0; i < l->nengines; i++)
        order[i] = i;
    for (int i = 1; i < l->nengines; i++)
        for (int j = i; j > 0; j--) {
            const Totals *x = &tot[order[j]], *y = &tot[order[j - 1]];
            double sx = x->games ? (x->wins + 0.5 * x->draws) / x->games : -1;
            double sy = y->games ? (y->wins + 0.5 * y->draws) / y->games : -1;
            if (sx <= sy)
                break;
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* Every engine's totals over the pairings, and *order the engines by rank
 * (both freed by the caller). */
static Totals *ranked_totals(const Ledger *l, const Tally *tallies, int **order)
{
    Totals *tot = util_xcalloc((size_t)l->nengines, sizeof *tot);
    *order = util_xcalloc((size_t)l->nengines, sizeof **order);
    engine_totals(l, tallies, tot);
    rank_engines(l, tot, *order);
    return tot;
}

void report_ratings(const Ledger *l, const Tally *tallies)
{
    if (l->nengines == 2 && l->sched.npairings == 1) {
        const Tally *t = &tallies[0];
        const char *a = name_of(l, l->sched.pairings[0].a);
        char who[MATCH_NAME_MAX + 32];
        snprintf(who, sizeof who, "%s playing White", a);
        side_line(who, t->a_white_w, t->a_white_l, t->a_white_d);
        snprintf(who, sizeof who, "%s playing Black", a);
        side_line(who, t->a_black_w, t->a_black_l, t->a_black_d);
        side_line("White vs Black", t->white_wins, t->black_wins, t->draws);
        int n = tally_games(t);
        StatsElo e = stats_elo_wdl(t->wdl.wins, t->wdl.draws, t->wdl.losses);
        printf("Elo difference: %.1f +/- %.1f, LOS: %.1f %%, DrawRatio: %.1f %%\n", 
               n && e.elo != 0 ? e.elo : 0.0, n ? e.err : 0.0,
               100.0 * stats_los(t->wdl.wins, t->wdl.losses),
               n ? 100.0 * t->wdl.draws / n : 0.0);
    } else {
        int *order;
        Totals *tot = ranked_totals(l, tallies, &order);
        printf("%4s %-25s %7s %7s %7s %7s %7s \n", "Rank", "Name", "Elo", "+/-", "Games",
               "Score", "Draw");
        for (int r = 0; r < l->nengines; r++) {
            const Totals *x = &tot[order[r]];
            StatsElo e = stats_elo_wdl(x->wins, x->draws, x->losses);
            printf("%4d %-25s %7.0f %7.0f %7d %6.1f%% %6.1f%% \n", r + 1,
                   name_of(l, order[r]), x->games && fabs(e.elo) >= 0.5 ? e.elo : 0.0,
                   x->games ? e.err : 0.0, x->games,
                   x->games ? 100.0 * (x->wins + 0.5 * x->draws) / x->games : 0.0,
                   x->games ? 100.0 * x->draws / x->games : 0.0);
        }
        free(tot);
        free(order);
    }
    if (l->sprt)
        sprt_line(l, tally_llr(l, &tallies[0]));
}

void report_fastchess(const Ledger *l, const Tally *t)
{
    const Pairing *pr = &l->sched.pairings[0];
    int n = tally_games(t);
    int pairs = t->penta[0] + t->penta[1] + t->penta[2] + t->penta[3] + t->penta[4];
    StatsElo e = pairs > 0 ? stats_elo_penta(t->penta)
                           : stats_elo_wdl(t->wdl.wins, t->wdl.draws, t->wdl.losses);
    /* Normalized Elo: (score - 1/2) / sigma in units of 800 / ln 10, sigma
     * of one game (or of a pair over sqrt 2). */
    double s = stats_score(t->wdl.wins, t->wdl.draws, t->wdl.losses), var = 0, count = n;
    if (pairs > 0) {
        double mu = 0;
        for (int i = 0; i < 5; i++)
            mu += t->penta[i] * (i / 4.0) / pairs;
        for (int i = 0; i < 5; i++)
            var += t->penta[i] * (i / 4.0 - mu) * (i / 4.0 - mu) / pairs;
        var *= 2;
        count = pairs;
        s = mu;
    } else if (n > 0) {
        double x[3] = {1, 0.5, 0}, c[3] = {t->wdl.wins, t->wdl.draws, t->wdl.losses};
        for (int i = 0; i < 3; i++)
            var += c[i] / n * (x[i] - s) * (x[i] - s);
    }
    double nelo = var > 0 ? (s - 0.5) / sqrt(var) * 800 / LN10 : 0;
    double nerr = var > 0 && count > 0 ? STATS_Z95 / sqrt(count) * 800 / LN10 / (pairs ? sqrt(2) : 1)
                                       : 0;
    printf("--------------------------------------------------\n");
    printf("Results of %s vs %s (%s):\n", name_of(l, pr->a), name_of(l, pr->b), l->variant->name);
    printf("Elo: %.2f +/- %.2f, nElo: %.2f +/- %.2f\n", n ? e.elo : 0.0, n ? e.err : 0.0, nelo,
           nerr);
    int up = t->penta[3] + t->penta[4], down = t->penta[0] + t->penta[1];
    printf("LOS: %.2f %%, DrawRatio: %.2f %%", 100.0 * stats_los(t->wdl.wins, t->wdl.losses),
           n ? 100.0 * t->wdl.draws / n : 0.0);
    if (pairs > 0)
        printf(", PairsRatio: %.2f", down ? (double)up / down : INFINITY);
    printf("\n");
    printf("Games: %d, Wins: %d, Losses: %d, Draws: %d, Points: %.1f (%.2f %%)\n", n, t->wdl.wins,
           t->wdl.losses, t->wdl.draws, t->wdl.wins + 0.5 * t->wdl.draws,
           n ? 100.0 * (t->wdl.wins + 0.5 * t->wdl.draws) / n : 0.0);
    if (pairs > 0)
        printf("Ptnml(0-2): [%d, %d, %d, %d, %d]\n", t->penta[0], t->penta[1], t->penta[2],
               t->penta[3], t->penta[4]);
    if (l->sprt) {
        double llr = tally_llr(l, t);
        double lower = stats_sprt_lower(l->sprt_alpha, l->sprt_beta);
        double upper = stats_sprt_upper(l->sprt_alpha, l->sprt_beta);
        printf("LLR: %.2f (%.1f%%) (%.2f, %.2f) [%.2f, %.2f]\n", llr,
               (llr >= 0 ? llr / upper : -llr / lower) * 100, lower, upper, l->sprt_elo0,
               l->sprt_elo1);
    }
    printf("--------------------------------------------------\n");
}

/* ---- the summary ------------------------------------------------------------ */

typedef struct Count {
    char text[64];
    int count;
} Count;

static void count_terminations(const Ledger *l, Count *c, int *nc, int max)
{
    *nc = 0;
    for (int j = 0; j < l->sched.njobs; j++) {
        if (!ledger_counted(l, j))
            continue;
        const char *key = l->g[j].category;
        int i = 0;
        while (i < *nc && strcmp(c[i].text, key) != 0)
            i++;
        if (i == *nc) {
            if (*nc == max)
                continue;
            snprintf(c[i].text, sizeof c[i].text, "%s", key);
            c[i].count = 0;
            (*nc)++;
        }
        c[i].count++;
    }
}

void report_outcomes(const Ledger *l)
{
    Count c[64];
    int nc;
    count_terminations(l, c, &nc, 64);
    printf("Terminations:");
    for (int i = 0; i < nc; i++)
        printf("%s %s %d", i ? "," : "", c[i].text, c[i].count);
    printf("\n");
}

/* Points of the pairing's first engine and its signed margin in game j. */
static void game_score(const Ledger *l, int j, double *score, int *margin)
{
    const Job *job = &l->sched.jobs[j];
    const LedgerGame *g = &l->g[j];
    bool a_white = job->white == l->sched.pairings[job->pairing].a;
    bool a_won = (g->result == RESULT_WHITE_WINS) == a_white && g->result != RESULT_DRAW &&
                 g->result != RESULT_NONE;
    bool b_won = g->result != RESULT_DRAW && g->result != RESULT_NONE && !a_won;
    *score = a_won ? 1.0 : b_won ? 0.0 : 0.5;
    *margin = g->on_board ? (a_won ? g->margin : b_won ? -g->margin : 0) : 0;
}

/* One pairing's match scoring over its games in schedule order. */
static void match_scoring_line(const Ledger *l, int pi, MatchScoring sc, int size)
{
    const Pairing *p = &l->sched.pairings[pi];
    const char *an = name_of(l, p->a), *bn = name_of(l, p->b);
    int ng = 0;
    double *score = util_xcalloc((size_t)l->sched.njobs, sizeof *score);
    int *margin = util_xcalloc((size_t)l->sched.njobs, sizeof *margin);
    for (int j = 0; j < l->sched.njobs; j++)
        if (l->sched.jobs[j].pairing == pi && ledger_counted(l, j)) {
            game_score(l, j, &score[ng], &margin[ng]);
            ng++;
        }
    if (sc == MATCH_SCORING_COUNTING) {
        long won_a = 0, won_b = 0;
        for (int i = 0; i < ng; i++) {
            if (margin[i] > 0)
                won_a += margin[i];
            else
                won_b -= margin[i];
        }
        printf("  %s vs %s: margins won %s %ld, %s %ld; net %s %+ld\n", an, bn, an, won_a, bn,
               won_b, an, won_a - won_b);
    } else {
        int ma = 0, mb = 0, md = 0, incomplete = ng % size;
        long sum_a = 0;
        for (int start = 0; start + size <= ng; start += size) {
            if (sc == MATCH_SCORING_BEST_OF) {
                /* Whoever first wins a majority of the games; else more
                 * points; else drawn. */
                int wa = 0, wb = 0, winner = 0, majority = size / 2 + 1;
                double pa = 0;
                for (int i = start; i < start + size; i++) {
                    wa += score[i] == 1.0;
                    wb += score[i] == 0.0;
                    pa += score[i];
                    if (!winner && wa == majority)
                        winner = 1;
                    if (!winner && wb == majority)
                        winner = 2;
                }
                if (!winner)
                    winner = 2 * pa > size ? 1 : 2 * pa < size ? 2 : 0;
                ma += winner == 1, mb += winner == 2, md += winner == 0;
            } else {
                long s = 0;
                for (int i = start; i < start + size; i++)
                    s += margin[i];
                sum_a += s;
                ma += s > 0, mb += s < 0, md += s == 0;
            }
        }
        printf("  %s vs %s: matches won %s %d, %s %d, drawn %d", an, bn, an, ma, bn, mb, md);
        if (sc == MATCH_SCORING_MARGIN_SUM) {
            long all = 0;
            for (int i = 0; i < ng; i++)
                all += margin[i];
            printf("; margin sum %s %+ld (all games %+ld)", an, sum_a, all);
        }
        if (incomplete)
            printf(" (%d game%s of an unfinished match not counted)", incomplete,
                   incomplete > 1 ? "s" : "");
        printf("\n");
    }
    free(score);
    free(margin);
}

static void print_match_scoring(const Ledger *l)
{
    const Variant *v = l->variant;
    MatchScoring sc = v->match_scoring;
    if (sc == MATCH_SCORING_GAMES)
        return;
    int size = v->match_games > 1 ? v->match_games : 1;
    if (sc == MATCH_SCORING_COUNTING)
        printf("\nMatch scoring (%s: sum of counting margins of games decided on the board):\n",
               v->name);
    else
        printf("\nMatch scoring (%s: matches of %d games, %s):\n", v->name, size,
               sc == MATCH_SCORING_BEST_OF ? "won by majority" : "sum of margins");
    for (int pi = 0; pi < l->sched.npairings; pi++)
        match_scoring_line(l, pi, sc, size);
}

static void print_table(const Ledger *l, const Tally *tallies, int counted)
{
    int total = 0;
    for (int j = 0; j < l->sched.njobs; j++)
        total += ledger_in_run(l, j);
    printf("\nResults (variant %s, %d of %d games, seed %llu", l->variant->name, counted, total,
           (unsigned long long)l->seed);
    if (l->shard_n > 0)
        printf(", shard %d/%d", l->shard_k, l->shard_n);
    printf("):\n");
    printf("%-4s %-24s %6s %8s %5s %5s %5s %7s  %s\n", "Rank", "Name", "Games", "Points", "W", "L",
           "D", "Score", "Elo (95%)");
    int *order;
    Totals *tot = ranked_totals(l, tallies, &order);
    for (int r = 0; r < l->nengines; r++) {
        const Totals *e = &tot[order[r]];
        StatsElo el = stats_elo_wdl(e->wins, e->draws, e->losses);
        char elo[64];
        stats_format_elo(&el, elo, sizeof elo);
        printf("%-4d %-24s %6d %8.1f %5d %5d %5d %6.1f%%  %s\n", r + 1, name_of(l, order[r]),
               e->games, e->wins + 0.5 * e->draws, e->wins, e->losses, e->draws,
               e->games ? 100.0 * (e->wins + 0.5 * e->draws) / e->games : 0.0, elo);
    }
    free(tot);
    free(order);
}

static void print_pairings(const Ledger *l, const Tally *tallies)
{
    printf("\nPairings:\n");
    for (int pi = 0; pi < l->sched.npairings; pi++) {
        const Pairing *p = &l->sched.pairings[pi];
        const Tally *t = &tallies[pi];
        StatsElo e = stats_elo_wdl(t->wdl.wins, t->wdl.draws, t->wdl.losses);
        char elo[64];
        stats_format_elo(&e, elo, sizeof elo);
        printf("  %s vs %s: %d-%d-%d (W-L-D) score %.1f%% Elo %s LOS %.1f%%\n", name_of(l, p->a),
               name_of(l, p->b), t->wdl.wins, t->wdl.losses, t->wdl.draws, 100.0 * e.score, elo,
               100.0 * stats_los(t->wdl.wins, t->wdl.losses));
        int pairs = t->penta[0] + t->penta[1] + t->penta[2] + t->penta[3] + t->penta[4];
        if (pairs > 0) {
            StatsElo pe = stats_elo_penta(t->penta);
            stats_format_elo(&pe, elo, sizeof elo);
            printf("    pentanomial [LL LD WL+DD WD WW] = [%d %d %d %d %d]: Elo %s\n", t->penta[0],
                   t->penta[1], t->penta[2], t->penta[3], t->penta[4], elo);
        }
        printf("    by colour: White won %d, Black won %d, drawn %d\n", t->white_wins,
               t->black_wins, t->draws);
    }
}

static void print_sprt_summary(const Ledger *l, const Tally *t)
{
    double llr = tally_llr(l, t);
    StatsSprtVerdict v = stats_sprt_verdict(llr, l->sprt_alpha, l->sprt_beta);
    printf("\nSPRT (%s elo0 %.2f elo1 %.2f alpha %.3f beta %.3f): LLR %.3f bounds (%.3f, %.3f): %s\n",
           l->sprt_model == STATS_SPRT_NORMALIZED ? "normalized" : "logistic", l->sprt_elo0,
           l->sprt_elo1, l->sprt_alpha, l->sprt_beta, llr,
           stats_sprt_lower(l->sprt_alpha, l->sprt_beta),
           stats_sprt_upper(l->sprt_alpha, l->sprt_beta),
           v == STATS_SPRT_H1   ? "H1 accepted"
           : v == STATS_SPRT_H0 ? "H0 accepted"
                                : "continue (no decision)");
    if (l->decided_at >= 0)
        printf("The SPRT decided at game %d (games are counted in schedule order).\n",
               l->decided_at + 1);
    if (l->sched.npairings > 1)
        printf("Note: the SPRT follows the first pairing only.\n");
    if (l->shard_n > 0)
        printf("Note: a shard plays all its games; -merge the shards for the verdict.\n");
}

void report_final(const Ledger *l, bool fastchess, int64_t elapsed_ms)
{
    Tally *tallies = util_xcalloc((size_t)l->sched.npairings + 1, sizeof *tallies);
    for (int p = 0; p < l->sched.npairings; p++)
        ledger_tally(l, p, &tallies[p]);
    if (fastchess && l->sched.npairings > 0)
        report_fastchess(l, &tallies[0]);
    else
        report_ratings(l, tallies);
    int counted, distinct;
    ledger_distinct(l, &counted, &distinct);
    if (distinct < counted)
        printf("Warning: only %d distinct games among %d: deterministic engines replay the same "
               "games from the same openings; use -openings (random:PLIES or a book)\n",
               distinct, counted);
    char ranges[600];
    int missing = results_missing_ranges(l, ranges, sizeof ranges);
    if (missing > 0)
        printf("Warning: %d game%s of the schedule %s not played (missing game%s %s)\n", missing,
               missing == 1 ? "" : "s", missing == 1 ? "was" : "were", missing == 1 ? "" : "s",
               ranges);
    printf("Finished match\n");

    print_table(l, tallies, counted);
    print_pairings(l, tallies);
    print_match_scoring(l);
    printf("\n");
    report_outcomes(l);
    if (l->sprt && l->sched.npairings > 0)
        print_sprt_summary(l, &tallies[0]);
    printf("Distinct games: %d of %d\n", distinct, counted);
    if (elapsed_ms >= 0) {
        int64_t s = elapsed_ms / 1000;
        printf("Finished %d games in %d:%02d:%02d\n", counted, (int)(s / 3600),
               (int)(s / 60 % 60), (int)(s % 60));
    }
    fflush(stdout);
    free(tallies);
}
