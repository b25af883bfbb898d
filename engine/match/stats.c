/* stats.c - score, Elo, LOS and SPRT as pure functions (see stats.h). */
#include "stats.h"

#include <math.h>
#include <stdio.h>

double stats_score(int wins, int draws, int losses)
{
    int games = wins + draws + losses;
    if (games <= 0)
        return 0.5;
    return (wins + 0.5 * draws) / games;
}

double stats_elo_from_score(double score)
{
    if (score <= 0.0)
        return -INFINITY;
    if (score >= 1.0)
        return INFINITY;
    return -400.0 * log10(1.0 / score - 1.0);
}

double stats_score_from_elo(double elo) { return 1.0 / (1.0 + pow(10.0, -elo / 400.0)); }

/* Elo interval of a mean score with the variance of one observation. */
static StatsElo elo_of(double mean, double var, double n)
{
    StatsElo e;
    e.score = mean;
    e.elo = stats_elo_from_score(mean);
    double se = n > 0 ? sqrt(var / n) : 0.0;
    e.lo = stats_elo_from_score(mean - STATS_Z95 * se);
    e.hi = stats_elo_from_score(mean + STATS_Z95 * se);
    e.err = (e.hi - e.lo) / 2.0;
    return e;
}

StatsElo stats_elo_wdl(int wins, int draws, int losses)
{
    double n = (double)wins + draws + losses;
    if (n <= 0) {
        StatsElo e = {0.5, 0.0, INFINITY, -INFINITY, INFINITY};
        return e;
    }
    double s = stats_score(wins, draws, losses);
    double var = (wins * (1.0 - s) * (1.0 - s) + draws * (0.5 - s) * (0.5 - s) +
                  losses * s * s) / n;
    return elo_of(s, var, n);
}

StatsElo stats_elo_penta(const int penta[5])
{
    double n = 0, sum = 0;
    for (int i = 0; i < 5; i++) {
        n += penta[i];
        sum += penta[i] * (i / 4.0);
    }
    if (n <= 0) {
        StatsElo e = {0.5, 0.0, INFINITY, -INFINITY, INFINITY};
        return e;
    }
    double mu = sum / n, var = 0;
    for (int i = 0; i < 5; i++)
        var += penta[i] * (i / 4.0 - mu) * (i / 4.0 - mu);
    return elo_of(mu, var / n, n);
}

double stats_los(int wins, int losses)
{
    if (wins + losses <= 0)
        return 0.5;
    return 0.5 * (1.0 + erf((double)(wins - losses) / sqrt(2.0 * (wins + losses))));
}

double stats_sprt_lower(double alpha, double beta) { return log(beta / (1.0 - alpha)); }
double stats_sprt_upper(double alpha, double beta) { return log((1.0 - beta) / alpha); }

/* The root of the decreasing function sum_i w_i f_i / (1 + theta f_i) on the
 * open interval where every 1 + theta f_i > 0 (needs min f < 0 < max f). */
static double solve_theta(int n, const double *w, const double *f)
{
    double fmin = f[0], fmax = f[0];
    for (int i = 1; i < n; i++) {
        fmin = fmin < f[i] ? fmin : f[i];
        fmax = fmax > f[i] ? fmax : f[i];
    }
    double lo = -1.0 / fmax, hi = -1.0 / fmin; /* g(lo+) = +inf, g(hi-) = -inf */
    for (int it = 0; it < 200; it++) {
        double mid = 0.5 * (lo + hi);
        if (mid <= lo || mid >= hi)
            break;
        double g = 0;
        for (int i = 0; i < n; i++)
            g += w[i] * f[i] / (1.0 + mid * f[i]);
        if (g > 0)
            lo = mid;
        else
            hi = mid;
    }
    return 0.5 * (lo + hi);
}

/* Maximum-likelihood distribution with mean s closest to phat. */
static void mle_mean(int n, const double *a, const double *phat, double s, double *p)
{
    double f[5] = {0};
    for (int i = 0; i < n; i++)
        f[i] = a[i] - s;
    double theta = solve_theta(n, phat, f);
    for (int i = 0; i < n; i++)
        p[i] = phat[i] / (1.0 + theta * f[i]);
}

/* Maximum-likelihood distribution with (mu - 1/2) / sigma = t closest to phat. */
static void mle_normalized(int n, const double *a, const double *phat, double t, double *p)
{
    for (int i = 0; i < n; i++)
        p[i] = 1.0 / n;
    for (int it = 0; it < 10000; it++) {
        double mu = 0, var = 0;
        for (int i = 0; i < n; i++)
            mu += p[i] * a[i];
        for (int i = 0; i < n; i++)
            var += p[i] * (a[i] - mu) * (a[i] - mu);
        double sigma = sqrt(var);
        double phi[5];
        for (int i = 0; i < n; i++) {
            double z = (a[i] - mu) / sigma;
            phi[i] = a[i] - 0.5 - 0.5 * t * sigma * (1.0 + z * z);
        }
        double theta = solve_theta(n, phat, phi);
        double diff = 0;
        for (int i = 0; i < n; i++) {
            double np = phat[i] / (1.0 + theta * phi[i]);
            diff = fmax(diff, fabs(np - p[i]));
            p[i] = np;
        }
        if (diff < 1e-9)
            break;
    }
}

static double regularize(int count) { return count > 0 ? (double)count : 1e-3; }

static double llr_general(int n, const double *a, const double *counts, double elo0,
                          double elo1, StatsSprtModel model, double t_scale)
{
    double total = 0;
    for (int i = 0; i < n; i++)
        total += counts[i];
    double phat[5], p0[5], p1[5];
    for (int i = 0; i < n; i++)
        phat[i] = counts[i] / total;
    if (model == STATS_SPRT_LOGISTIC) {
        mle_mean(n, a, phat, stats_score_from_elo(elo0), p0);
        mle_mean(n, a, phat, stats_score_from_elo(elo1), p1);
    } else {
        double c = 800.0 / log(10.0);
        mle_normalized(n, a, phat, t_scale * elo0 / c, p0);
        mle_normalized(n, a, phat, t_scale * elo1 / c, p1);
    }
    double llr = 0;
    for (int i = 0; i < n; i++)
        llr += phat[i] * (log(p1[i]) - log(p0[i]));
    return total * llr;
}

double stats_sprt_llr(const int penta[5], double elo0, double elo1, StatsSprtModel model)
{
    if (penta[0] + penta[1] + penta[2] + penta[3] + penta[4] <= 0)
        return 0.0;
    static const double a[5] = {0.0, 0.25, 0.5, 0.75, 1.0};
    double c[5];
    for (int i = 0; i < 5; i++)
        c[i] = regularize(penta[i]);
    return llr_general(5, a, c, elo0, elo1, model, sqrt(2.0));
}

double stats_sprt_llr_wdl(int wins, int draws, int losses, double elo0, double elo1,
                          StatsSprtModel model)
{
    if (wins + draws + losses <= 0)
        return 0.0;
    static const double a[3] = {0.0, 0.5, 1.0};
    double c[3] = {regularize(losses), regularize(draws), regularize(wins)};
    return llr_general(3, a, c, elo0, elo1, model, 1.0);
}

StatsSprtVerdict stats_sprt_verdict(double llr, double alpha, double beta)
{
    if (llr >= stats_sprt_upper(alpha, beta))
        return STATS_SPRT_H1;
    if (llr <= stats_sprt_lower(alpha, beta))
        return STATS_SPRT_H0;
    return STATS_SPRT_CONTINUE;
}

static void format_value(double x, char *buf, int size)
{
    if (isinf(x))
        snprintf(buf, (size_t)size, "%cinf", x > 0 ? '+' : '-');
    else if (isnan(x))
        snprintf(buf, (size_t)size, "nan");
    else
        snprintf(buf, (size_t)size, "%+.1f", fabs(x) < 0.05 ? 0.0 : x); /* no "-0.0" */
}

void stats_format_elo(const StatsElo *e, char *buf, int size)
{
    char v[32], err[32];
    format_value(e->elo, v, sizeof v);
    if (isinf(e->err) || isnan(e->err))
        snprintf(err, sizeof err, "inf");
    else
        snprintf(err, sizeof err, "%.1f", e->err);
    snprintf(buf, (size_t)size, "%s +- %s", v, err);
}
