/* perftsuite.c - perft suites (perftsuite.h, protocol.md, "Perft suites"). */
#define _POSIX_C_SOURCE 200809L
#include "perftsuite.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "perft.h"
#include "util.h"
#include "variants.h"

/* ---------------------------------------------------------------- parsing */

/* The field [start, end) without its blanks, copied into buf (size bytes);
 * false when it does not fit. */
static bool field_copy(const char *start, const char *end, char *buf, size_t size)
{
    while (start < end && isspace((unsigned char)*start))
        start++;
    while (end > start && isspace((unsigned char)end[-1]))
        end--;
    size_t n = (size_t)(end - start);
    if (n >= size)
        return false;
    memcpy(buf, start, n);
    buf[n] = '\0';
    return true;
}

/* A depth field: `D<depth> <count>` or `<depth> <count>`. */
static bool parse_count(const char *field, int *depth, uint64_t *count)
{
    char d[32], c[32], extra[32];
    const char *cur = field;
    if (*cur == 'D' || *cur == 'd')
        cur++;
    if (util_next_token(&cur, d, sizeof d) >= sizeof d ||
        util_next_token(&cur, c, sizeof c) >= sizeof c || util_next_token(&cur, extra, sizeof extra))
        return false;
    long long dv, cv;
    if (!util_parse_number(d, 0, PERFT_SUITE_MAX_DEPTH, &dv) ||
        !util_parse_number(c, 0, LLONG_MAX, &cv))
        return false;
    *depth = (int)dv;
    *count = (uint64_t)cv;
    return true;
}

bool perft_suite_parse(const char *text, PerftSuiteLine *line, char *err, size_t errlen)
{
    memset(line, 0, sizeof *line);
    const char *p = text;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p || *p == '#') {
        line->kind = PERFT_SUITE_BLANK;
        return true;
    }
    if (!strchr(p, ';')) {
        char word[16], name[64], extra[8];
        const char *cur = p;
        util_next_token(&cur, word, sizeof word);
        if (strcmp(word, "variant") != 0) {
            snprintf(err, errlen, "no depth field (<fen> ;D<depth> <count> ...)");
            return false;
        }
        size_t n = util_next_token(&cur, name, sizeof name);
        if (n == 0 || n >= sizeof name || util_next_token(&cur, extra, sizeof extra)) {
            snprintf(err, errlen, "'variant' takes one game name");
            return false;
        }
        line->kind = PERFT_SUITE_VARIANT;
        line->variant = variants_find(name);
        if (!line->variant) {
            snprintf(err, errlen, "unknown variant '%.40s'", name);
            return false;
        }
        return true;
    }
    line->kind = PERFT_SUITE_POSITION;
    const char *end = strchr(p, ';');
    char first[FEN_MAX];
    if (!field_copy(p, end, first, sizeof first)) {
        snprintf(err, errlen, "the FEN is longer than %d bytes", FEN_MAX - 1);
        return false;
    }
    /* A first field that names a game, followed by the position. */
    const Variant *named = strchr(first, ' ') ? NULL : variants_find(first);
    if (named) {
        line->variant = named;
        p = end + 1;
        end = strchr(p, ';');
        if (!end) {
            snprintf(err, errlen, "no depth field after the position");
            return false;
        }
        if (!field_copy(p, end, first, sizeof first)) {
            snprintf(err, errlen, "the FEN is longer than %d bytes", FEN_MAX - 1);
            return false;
        }
    }
    if (!first[0]) {
        snprintf(err, errlen, "no position before the first ';'");
        return false;
    }
    snprintf(line->fen, sizeof line->fen, "%s", first);
    for (p = end + 1;; p = end + 1) {
        end = strchr(p, ';');
        if (!end)
            end = p + strlen(p);
        char field[96];
        bool fits = field_copy(p, end, field, sizeof field);
        if (fits && !field[0] && !*end)
            break; /* a trailing ';' */
        if (line->ncounts == PERFT_SUITE_MAX_COUNTS) {
            snprintf(err, errlen, "more than %d depth fields", PERFT_SUITE_MAX_COUNTS);
            return false;
        }
        int n = line->ncounts;
        if (!fits || !parse_count(field, &line->depth[n], &line->count[n])) {
            if (n == 0 && !named && !strchr(first, ' '))
                snprintf(err, errlen, "'%.40s' is no variant, or '%.40s%s' no depth field", first,
                         field, fits ? "" : "...");
            else
                snprintf(err, errlen,
                         "bad depth field '%.40s%s' (D<depth> <count>, depth 0 to %d, count "
                         "below 2^63)",
                         field, fits ? "" : "...", PERFT_SUITE_MAX_DEPTH);
            return false;
        }
        line->ncounts++;
        if (!*end)
            break;
    }
    if (line->ncounts == 0) {
        snprintf(err, errlen, "no depth field (<fen> ;D<depth> <count> ...)");
        return false;
    }
    return true;
}

bool perft_suite_position(const Variant *v, const char *fen, Position *pos, char *err,
                          size_t errlen)
{
    const GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    if (strcmp(fen, "startpos") == 0) {
        v->startpos(pos, &cfg);
        return true;
    }
    char why[160] = "";
    if (v->from_fen(pos, fen, &cfg, why, sizeof why))
        return true;
    snprintf(err, errlen, "invalid %s FEN: %s", v->name, why);
    return false;
}

/* ------------------------------------------------------------------ running */

/* Text of a suite line for a message: printable, at most 60 bytes. */
static void shown(const char *text, char *buf, size_t size)
{
    size_t n = 0;
    for (; *text && n + 4 < size && n < 60; text++)
        buf[n++] = isprint((unsigned char)*text) ? *text : '?';
    if (*text && n + 4 < size) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
}

void perft_suite_run(FILE *in, const char *name, const PerftSuiteOptions *options, FILE *out,
                     PerftSuiteTotals *totals)
{
    const Variant *current = options->variant;
    char *text = NULL;
    size_t cap = 0;
    long lineno = 0;
    PerftSuiteLine line;
    while (getline(&text, &cap, in) >= 0) {
        lineno++;
        text[strcspn(text, "\r\n")] = '\0';
        char err[256], fen[80];
        Position pos;
        bool ok = perft_suite_parse(text, &line, err, sizeof err);
        const Variant *v = line.variant ? line.variant : current;
        if (ok && line.kind == PERFT_SUITE_VARIANT) {
            current = line.variant;
            continue;
        }
        if (ok && line.kind == PERFT_SUITE_BLANK)
            continue;
        if (ok && !v) {
            snprintf(err, sizeof err, "no game: a 'variant <name>' line or field must come first");
            ok = false;
        }
        if (ok)
            ok = perft_suite_position(v, line.fen, &pos, err, sizeof err);
        if (!ok) {
            fprintf(out, "%s:%ld: error: %s; line skipped\n", name, lineno, err);
            fflush(out);
            totals->malformed++;
            continue;
        }
        shown(line.fen, fen, sizeof fen);
        for (int i = 0; i < line.ncounts; i++) {
            fprintf(out, "%s:%ld: %s %s depth %d: ", name, lineno, v->name, fen, line.depth[i]);
            if (options->max_nodes && line.count[i] > options->max_nodes) {
                fprintf(out, "skipped (expected %" PRIu64 " nodes)\n", line.count[i]);
                totals->skipped++;
                continue;
            }
            fflush(out);
            int64_t t0 = util_now_ms();
            PerftCache *cache =
                line.depth[i] >= PERFT_CACHE_MIN_PERFT ? perft_cache_new(v) : NULL;
            uint64_t got = perft_count_cached(v, &pos, line.depth[i], cache);
            perft_cache_free(cache);
            totals->time_ms += util_now_ms() - t0;
            totals->nodes += got;
            if (got == line.count[i]) {
                fprintf(out, "%" PRIu64 " ok\n", got);
                totals->passed++;
            } else {
                fprintf(out, "%" PRIu64 " FAIL, expected %" PRIu64 "\n", got, line.count[i]);
                totals->failed++;
            }
        }
        fflush(out);
    }
    free(text);
}

/* ----------------------------------------------------------- command line */

static void suite_usage(FILE *f)
{
    fprintf(f, "usage: sigil perft-suite [--variant NAME] [--max-nodes N] FILE...\n"
               "  runs every position of each suite file ('-' is standard input) at each\n"
               "  depth it lists and compares the counts (format: protocol.md, Perft suites)\n"
               "  --variant NAME   the game of lines before any 'variant' line\n"
               "  --max-nodes N    skip the counts above N\n");
}

int perft_suite_main(int argc, char **argv, FILE *out, FILE *err)
{
    variants_init();
    PerftSuiteOptions options = {NULL, 0};
    int first = 0;
    for (; first < argc && argv[first][0] == '-' && argv[first][1]; first++) {
        const char *opt = argv[first];
        if (strcmp(opt, "--help") == 0 || strcmp(opt, "-h") == 0) {
            suite_usage(out);
            return 0;
        }
        if (strcmp(opt, "--") == 0) {
            first++;
            break;
        }
        if (first + 1 >= argc) {
            fprintf(err, "sigil perft-suite: '%s' needs a value\n", opt);
            suite_usage(err);
            return 2;
        }
        const char *value = argv[++first];
        long long n;
        if (strcmp(opt, "--variant") == 0) {
            options.variant = variants_find(value);
            if (!options.variant) {
                fprintf(err, "sigil perft-suite: unknown variant '%s'\n", value);
                return 2;
            }
        } else if (strcmp(opt, "--max-nodes") == 0) {
            if (!util_parse_number(value, 1, LLONG_MAX, &n)) {
                fprintf(err, "sigil perft-suite: --max-nodes takes a whole number from 1\n");
                return 2;
            }
            options.max_nodes = (uint64_t)n;
        } else {
            fprintf(err, "sigil perft-suite: unknown option '%s'\n", opt);
            suite_usage(err);
            return 2;
        }
    }
    if (first >= argc) {
        suite_usage(err);
        return 2;
    }
    PerftSuiteTotals totals = {0};
    bool unreadable = false;
    for (int i = first; i < argc; i++) {
        bool is_stdin = strcmp(argv[i], "-") == 0;
        FILE *in = is_stdin ? stdin : fopen(argv[i], "r");
        if (!in) {
            fprintf(out, "%s: error: cannot be read\n", argv[i]);
            unreadable = true;
            continue;
        }
        perft_suite_run(in, is_stdin ? "(stdin)" : argv[i], &options, out, &totals);
        if (!is_stdin)
            fclose(in);
    }
    uint64_t nps =
        totals.time_ms > 0 ? (uint64_t)((double)totals.nodes * 1000.0 / (double)totals.time_ms) : 0;
    fprintf(out, "nodes %" PRIu64 " time %" PRId64 " nps %" PRIu64 "\n", totals.nodes,
            totals.time_ms, nps);
    if (totals.skipped || totals.malformed)
        fprintf(out, "%ld skipped (--max-nodes), %ld malformed lines\n", totals.skipped,
                totals.malformed);
    fprintf(out, "%ld passed, %ld failed\n", totals.passed, totals.failed);
    fflush(out);
    if (totals.failed)
        return 1;
    return totals.malformed || unreadable ? 2 : 0;
}
