/* stats.h - match statistics as pure functions: score, Elo with a 95%
 * interval, likelihood of superiority and the SPRT log-likelihood ratio.
 *
 * Nothing here keeps state, so the tests check every figure against values
 * worked out by hand.  Scores are always from the first player's view
 * ("A" against "B"); a pentanomial vector counts colour-reversed pairs of
 * games by the points A took in the pair: index k = 2 * points, so
 * penta[0] = lost both, [1] = a loss and a draw, [2] = a win and a loss or
 * two draws, [3] = a win and a draw, [4] = won both.
 */
#ifndef SIGIL_MATCH_STATS_H
#define SIGIL_MATCH_STATS_H

#include <stdbool.h>

/* Two-sided 95% quantile of the standard normal distribution. */
#define STATS_Z95 1.959963984540054

/* Wins, draws and losses of A against B. */
typedef struct StatsWdl {
    int wins, draws, losses;
} StatsWdl;

/* An estimate with its 95% interval, in Elo.  err is half the width of the
 * interval (printed as "elo +- err"); lo/hi are the interval ends.  Infinite
 * values (a 0% or 100% score) are +-INFINITY. */
typedef struct StatsElo {
    double score; /* fraction of the points, 0..1 */
    double elo;
    double err;
    double lo, hi;
} StatsElo;

/* How the SPRT hypotheses elo0/elo1 are read (see stats_sprt_llr). */
typedef enum StatsSprtModel {
    STATS_SPRT_NORMALIZED = 0, /* normalized Elo (fastchess default) */
    STATS_SPRT_LOGISTIC        /* logistic Elo, the usual Elo scale */
} StatsSprtModel;

/* The SPRT's verdict for a log-likelihood ratio. */
typedef enum StatsSprtVerdict {
    STATS_SPRT_CONTINUE = 0,
    STATS_SPRT_H0, /* LLR <= lower bound: accept H0 (elo0) */
    STATS_SPRT_H1  /* LLR >= upper bound: accept H1 (elo1) */
} StatsSprtVerdict;

/* Fraction of the points: (wins + draws / 2) / games; 0.5 for no games. */
double stats_score(int wins, int draws, int losses);

/* Logistic Elo difference of a score: -400 log10(1/s - 1).  s = 0.6 gives
 * 70.44.  Returns -INFINITY for s <= 0 and +INFINITY for s >= 1. */
double stats_elo_from_score(double score);

/* The expected score of an Elo difference: 1 / (1 + 10^(-elo/400)). */
double stats_score_from_elo(double elo);

/* Elo and 95% interval from per-game results (trinomial): the variance of
 * one game's score is sum p_i (x_i - s)^2 over win/draw/loss, the standard
 * error of the mean is sqrt(var / games) and the interval is the Elo of
 * s +- 1.96 standard errors. */
StatsElo stats_elo_wdl(int wins, int draws, int losses);

/* The same from colour-reversed pairs: x in {0, .25, .5, .75, 1} is the
 * pair's average score; the standard error is sqrt(var_pair / pairs). */
StatsElo stats_elo_penta(const int penta[5]);

/* Likelihood of superiority, the probability that A is the stronger:
 * 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))); 0.5 when W + L = 0. */
double stats_los(int wins, int losses);

/* SPRT bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha). */
double stats_sprt_lower(double alpha, double beta);
double stats_sprt_upper(double alpha, double beta);

/* Generalized SPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) on
 * pentanomial pairs, as fishtest and fastchess compute it (M. Van den Bergh,
 * "Comments on normalized Elo"):
 *   counts of 0 are replaced by 1e-3 (regularisation), N = the sum of the
 *   five counts, p^_i = count_i / N over the pair scores a_i = i / 4;
 *   for each hypothesis j the maximum-likelihood distribution p_j closest to
 *   p^ that satisfies the hypothesis is found, and
 *   LLR = N * sum_i p^_i ln(p1_i / p0_i).
 * LOGISTIC: the hypothesis is a mean score s_j = stats_score_from_elo(elo_j);
 *   p_i = p^_i / (1 + theta (a_i - s_j)) with theta solving
 *   sum p^_i (a_i - s_j) / (1 + theta (a_i - s_j)) = 0.
 * NORMALIZED: the hypothesis is t = (mu - 1/2) / sigma = t_j with
 *   t_j = sqrt(2) * elo_j / (800 / ln 10) (sigma of a pair score); p_i is
 *   found by iterating phi_i = a_i - 1/2 - t_j sigma (1 + ((a_i - mu)/sigma)^2) / 2
 *   (mu, sigma of the current p) and p_i = p^_i / (1 + theta phi_i) with
 *   sum p^_i phi_i / (1 + theta phi_i) = 0, until p moves less than 1e-9.
 * Returns 0 when there are no pairs. */
double stats_sprt_llr(const int penta[5], double elo0, double elo1, StatsSprtModel model);

/* The same on per-game results (for runs without pairs): scores 0, 1/2, 1;
 * NORMALIZED uses t_j = elo_j / (800 / ln 10). */
double stats_sprt_llr_wdl(int wins, int draws, int losses, double elo0, double elo1,
                          StatsSprtModel model);

/* The verdict for llr against the bounds of alpha and beta. */
StatsSprtVerdict stats_sprt_verdict(double llr, double alpha, double beta);

/* Format "+70.4 +- 12.3" (or "+inf" ...) into buf. */
void stats_format_elo(const StatsElo *e, char *buf, int size);

#endif
