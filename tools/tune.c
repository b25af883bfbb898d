/* tune.c - sigil-tune: fit a game's evaluation weights (evalmodel.h) to
 * self-play data from `sigil datagen` (doc/tuning.md).
 *
 * A Texel-style fit: the evaluation e (side to move's view, turned to
 * White's) predicts White's score through sigmoid(K e); K is fitted first
 * so that sigmoid(K s) fits the results best for the data's search scores s
 * (so the fitted evaluation keeps the unit the search's margins expect);
 * then the weights minimise the mean squared error between sigmoid(K e) and
 * the target lambda * result + (1 - lambda) * sigmoid(K s), by full-batch
 * gradient descent with Adam from all-zero weights.  Every tenth position
 * (index % 10 == 9) is held out and only measured.  Single-threaded, in
 * double, in a fixed order: the same data gives the same weights.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datagen.h"
#include "evalmodel.h"
#include "game.h"
#include "util.h"
#include "variants.h"

typedef struct Data {
    size_t n, cap;
    size_t nterms, terms_cap;
    size_t *start;      /* terms of position i: [start[i], start[i + 1]) */
    uint16_t *index;
    int16_t *value;
    uint8_t *phase;
    int8_t *sign;       /* +1: White to move, -1: Black */
    float *result;      /* White's view */
    int *score;         /* search score, White's view */
    int *hand;          /* the compiled-in evaluation, White's view */
} Data;

static void data_push(Data *d, const EvalTerms *t, int sign, double result, int score, int hand)
{
    if (d->n + 1 >= d->cap) {
        d->cap = d->cap ? d->cap * 2 : 4096;
        d->start = util_xrealloc(d->start, (d->cap + 1) * sizeof *d->start);
        d->phase = util_xrealloc(d->phase, d->cap * sizeof *d->phase);
        d->sign = util_xrealloc(d->sign, d->cap * sizeof *d->sign);
        d->result = util_xrealloc(d->result, d->cap * sizeof *d->result);
        d->score = util_xrealloc(d->score, d->cap * sizeof *d->score);
        d->hand = util_xrealloc(d->hand, d->cap * sizeof *d->hand);
    }
    if (d->nterms + (size_t)t->n > d->terms_cap) {
        while (d->nterms + (size_t)t->n > d->terms_cap)
            d->terms_cap = d->terms_cap ? d->terms_cap * 2 : 65536;
        d->index = util_xrealloc(d->index, d->terms_cap * sizeof *d->index);
        d->value = util_xrealloc(d->value, d->terms_cap * sizeof *d->value);
    }
    size_t i = d->n;
    d->start[i] = d->nterms;
    for (int k = 0; k < t->n; k++) {
        d->index[d->nterms] = t->index[k];
        d->value[d->nterms] = t->value[k];
        d->nterms++;
    }
    d->start[i + 1] = d->nterms;
    d->phase[i] = (uint8_t)t->phase;
    d->sign[i] = (int8_t)sign;
    d->result[i] = (float)result;
    d->score[i] = score;
    d->hand[i] = hand;
    d->n++;
}

static double sigmoid(double x) { return 1.0 / (1.0 + exp(-x)); }

static bool held_out(size_t i) { return i % 10 == 9; }

/* Mean squared error of sigmoid(K x_i) against target on the positions
 * held out (held = true) or trained on. */
static double mse_of(const Data *d, const int *x, const double *target, double k, bool held)
{
    double sum = 0;
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++) {
        if (held_out(i) != held)
            continue;
        double e = sigmoid(k * x[i]) - target[i];
        sum += e * e;
        n++;
    }
    return n ? sum / (double)n : 0;
}

/* K that fits the search scores to the results best on the training part
 * (golden-section search over log K). */
static double fit_k(const Data *d, const double *results)
{
    double lo = log(1e-5), hi = log(1e-1);
    const double g = 0.6180339887498949;
    for (int it = 0; it < 80; it++) {
        double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
        if (mse_of(d, d->score, results, exp(a), false) < mse_of(d, d->score, results, exp(b), false))
            hi = b;
        else
            lo = a;
    }
    return exp((lo + hi) / 2);
}

static void usage(FILE *f)
{
    fprintf(f, "usage: sigil-tune --variant <v> --data <file|-> --out <header>\n"
               "                  [--iterations <n>] [--lambda <0..1>] [--rate <r>] [--desc <text>]\n");
}

/* FNV-1a, 64 bits, of every byte read: names the data in the header. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001B3ULL;
    }
    return h;
}

/* The whole program; argv[0] is skipped.  Exposed for the tests
 * (tests/check_tune.c compiles this file with TUNE_NO_MAIN). */
int tune_main(int argc, char **argv);
int tune_main(int argc, char **argv)
{
    const char *variant = NULL, *data_path = NULL, *out_path = NULL, *desc = "";
    long long iterations = 400;
    double lambda = 0.5, rate = 2.0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (i + 1 >= argc) {
            fprintf(stderr, "sigil-tune: error: %s needs a value\n", a);
            usage(stderr);
            return 2;
        }
        const char *v = argv[++i];
        char *end;
        if (strcmp(a, "--variant") == 0)
            variant = v;
        else if (strcmp(a, "--data") == 0)
            data_path = v;
        else if (strcmp(a, "--out") == 0)
            out_path = v;
        else if (strcmp(a, "--desc") == 0)
            desc = v;
        else if (strcmp(a, "--iterations") == 0) {
            if (!util_parse_number(v, 1, 1000000, &iterations)) {
                fprintf(stderr, "sigil-tune: error: --iterations needs a number 1..1000000\n");
                return 2;
            }
        } else if (strcmp(a, "--lambda") == 0 || strcmp(a, "--rate") == 0) {
            errno = 0;
            double x = strtod(v, &end);
            if (errno || *end || end == v || !(x >= 0) || (a[2] == 'l' && x > 1) || x > 1000) {
                fprintf(stderr, "sigil-tune: error: bad value '%s' for %s\n", v, a);
                return 2;
            }
            if (a[2] == 'l')
                lambda = x;
            else
                rate = x;
        } else {
            fprintf(stderr, "sigil-tune: error: unknown argument '%s'\n", a);
            usage(stderr);
            return 2;
        }
    }
    if (!variant || !data_path || !out_path) {
        fprintf(stderr, "sigil-tune: error: --variant, --data and --out are required\n");
        usage(stderr);
        return 2;
    }
    const Variant *v = variants_find(variant);
    const EvalModel *m = v ? eval_model_find(variant) : NULL;
    if (!m) {
        fprintf(stderr, "sigil-tune: error: '%s' has no fitted evaluation\n", variant);
        return 2;
    }
    FILE *in = strcmp(data_path, "-") == 0 ? stdin : fopen(data_path, "r");
    if (!in) {
        fprintf(stderr, "sigil-tune: error: cannot read %s: %s\n", data_path, strerror(errno));
        return 2;
    }

    Data d = {0};
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long long lines = 0, bad = 0, other = 0;
    uint64_t hash = 0xCBF29CE484222325ULL;
    GameConfig cfg = {DEFAULT_MOVE_LIMIT};
    while ((len = getline(&line, &cap, in)) > 0) {
        lines++;
        hash = fnv1a(hash, line, (size_t)len);
        DatagenRecord r;
        if (!datagen_parse_line(line, &r)) {
            bad++;
            continue;
        }
        if (strcmp(r.variant, variant) != 0) {
            other++;
            continue;
        }
        Position pos;
        char err[128];
        if (!v->from_fen(&pos, r.fen, &cfg, err, sizeof err) ||
            v->result(&pos, NULL, NULL) != RESULT_NONE) {
            bad++;
            continue;
        }
        EvalTerms t;
        m->terms(&pos, &t);
        int sign = v->side_to_move(&pos) == WHITE ? 1 : -1;
        data_push(&d, &t, sign, r.result, r.score, sign * v->evaluate(&pos));
    }
    free(line);
    if (in != stdin)
        fclose(in);
    fprintf(stderr, "sigil-tune: %s: %zu positions (%lld lines, %lld not records or not legal, "
                    "%lld of other games)\n", variant, d.n, lines, bad, other);
    if (d.n < 100) {
        fprintf(stderr, "sigil-tune: error: too few positions to fit\n");
        return 1;
    }

    double *results = util_xmalloc(d.n * sizeof *results);
    double *target = util_xmalloc(d.n * sizeof *target);
    for (size_t i = 0; i < d.n; i++)
        results[i] = d.result[i];
    double k = fit_k(&d, results);
    for (size_t i = 0; i < d.n; i++)
        target[i] = lambda * results[i] + (1 - lambda) * sigmoid(k * d.score[i]);

    /* Adam over the 2 x nfeatures weights, full batch. */
    int nf = m->nfeatures;
    double *w = util_xcalloc((size_t)nf * 2, sizeof *w);
    double *grad = util_xmalloc((size_t)nf * 2 * sizeof *grad);
    double *m1 = util_xcalloc((size_t)nf * 2, sizeof *m1);
    double *m2 = util_xcalloc((size_t)nf * 2, sizeof *m2);
    const double b1 = 0.9, b2 = 0.999, eps = 1e-8;
    double b1t = 1, b2t = 1;
    size_t ntrain = 0;
    for (size_t i = 0; i < d.n; i++)
        ntrain += !held_out(i);
    for (long long it = 0; it < iterations; it++) {
        memset(grad, 0, (size_t)nf * 2 * sizeof *grad);
        double loss = 0;
        for (size_t i = 0; i < d.n; i++) {
            if (held_out(i))
                continue;
            double a = 0, b = 0;
            for (size_t j = d.start[i]; j < d.start[i + 1]; j++) {
                a += d.value[j] * w[2 * d.index[j]];
                b += d.value[j] * w[2 * d.index[j] + 1];
            }
            double ph = d.phase[i] / (double)EVAL_PHASE_MAX;
            double e = d.sign[i] * (a * (1 - ph) + b * ph);
            double s = sigmoid(k * e);
            loss += (s - target[i]) * (s - target[i]);
            double g = 2 * (s - target[i]) * s * (1 - s) * k * d.sign[i];
            for (size_t j = d.start[i]; j < d.start[i + 1]; j++) {
                grad[2 * d.index[j]] += g * d.value[j] * (1 - ph);
                grad[2 * d.index[j] + 1] += g * d.value[j] * ph;
            }
        }
        double lr = it < iterations / 2 ? rate : it < iterations * 4 / 5 ? rate / 4 : rate / 16;
        b1t *= b1;
        b2t *= b2;
        for (int f = 0; f < 2 * nf; f++) {
            double gf = grad[f] / (double)ntrain;
            m1[f] = b1 * m1[f] + (1 - b1) * gf;
            m2[f] = b2 * m2[f] + (1 - b2) * gf * gf;
            w[f] -= lr * (m1[f] / (1 - b1t)) / (sqrt(m2[f] / (1 - b2t)) + eps);
        }
        if (it % 100 == 0 || it == iterations - 1)
            fprintf(stderr, "sigil-tune: iteration %lld, training loss %.6f\n", it,
                    loss / (double)ntrain);
    }

    /* The integer weights and what they score, exactly as the engine does. */
    int16_t (*wi)[2] = util_xmalloc((size_t)nf * sizeof *wi);
    for (int f = 0; f < nf; f++)
        for (int p = 0; p < 2; p++) {
            double x = nearbyint(w[2 * f + p] * EVAL_WEIGHT_SCALE);
            wi[f][p] = (int16_t)(x > 32767 ? 32767 : x < -32767 ? -32767 : x);
        }
    int *fitted = util_xmalloc(d.n * sizeof *fitted);
    for (size_t i = 0; i < d.n; i++) {
        EvalTerms t;
        t.n = (int)(d.start[i + 1] - d.start[i]);
        t.phase = d.phase[i];
        memcpy(t.index, d.index + d.start[i], (size_t)t.n * sizeof *t.index);
        memcpy(t.value, d.value + d.start[i], (size_t)t.n * sizeof *t.value);
        fitted[i] = d.sign[i] * eval_model_score(&t, (const int16_t(*)[2])wi);
    }
    /* The header gets what depends on the data alone; the evaluation
     * compiled into this trainer (the one before the fit, or the committed
     * fit itself on a rerun) is compared on stdout only. */
    char report[1024];
    snprintf(report, sizeof report,
             " * K = %.7f (fitted to the search scores), lambda = %.2f, %lld iterations, rate %.3g\n"
             " * held-out mean squared error against the target (against the results alone):\n"
             " *   search scores of the data   %.6f (%.6f)\n"
             " *   fitted evaluation           %.6f (%.6f)\n",
             k, lambda, iterations, rate, mse_of(&d, d.score, target, k, true),
             mse_of(&d, d.score, results, k, true), mse_of(&d, fitted, target, k, true),
             mse_of(&d, fitted, results, k, true));
    fprintf(stdout, "%s: %zu positions, %zu held out\n%s", variant, d.n, d.n - ntrain, report);
    fprintf(stdout, " *   compiled-in evaluation      %.6f (%.6f)\n",
            mse_of(&d, d.hand, target, k, true), mse_of(&d, d.hand, results, k, true));

    FILE *out = fopen(out_path, "w");
    if (!out) {
        fprintf(stderr, "sigil-tune: error: cannot write %s: %s\n", out_path, strerror(errno));
        return 1;
    }
    fprintf(out,
            "/* %s_weights.h - the fitted weights of the %s evaluation (evalmodel.h):\n"
            " * per feature {phase 0, phase %d}, in 1/%d of the evaluation unit.\n"
            " * Generated by `make tune-%s` (tools/tune.c, doc/tuning.md); do not edit.\n"
            " * Data: %s\n"
            " * %zu positions (%lld lines, FNV-1a 64 of the bytes %016llx), %zu held out\n%s */\n",
            variant, variant, EVAL_PHASE_MAX, EVAL_WEIGHT_SCALE, variant, desc, d.n, lines,
            (unsigned long long)hash, d.n - ntrain, report);
    fprintf(out, "static const int16_t %s_weights[%d][2] = {\n", variant, nf);
    for (int f = 0; f < nf; f++) {
        char name[64];
        m->feature_name(f, name, sizeof name);
        fprintf(out, "    {%d, %d}, /* %d %s */\n", wi[f][0], wi[f][1], f, name);
    }
    fprintf(out, "};\n");
    if (fclose(out) != 0) {
        fprintf(stderr, "sigil-tune: error: writing %s failed\n", out_path);
        return 1;
    }
    free(fitted);
    free(wi);
    free(w);
    free(grad);
    free(m1);
    free(m2);
    free(results);
    free(target);
    free(d.start);
    free(d.index);
    free(d.value);
    free(d.phase);
    free(d.sign);
    free(d.result);
    free(d.score);
    free(d.hand);
    return 0;
}

#ifndef TUNE_NO_MAIN
int main(int argc, char **argv)
{
    util_set_program_name("sigil-tune");
    variants_init();
    return tune_main(argc, argv);
}
#endif
