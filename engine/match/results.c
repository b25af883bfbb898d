/* results.c - writing, reading and checking result files (see results.h). */
#define _GNU_SOURCE /* fmemopen, open_memstream */
#include "results.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "openings.h"
#include "variants.h"

long long results_max_jobs = 100000000LL;

/* ---- writing --------------------------------------------------------------- */

static void put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fputc('\\', f);
            fputc(c, f);
        } else if (c == '\n') {
            fputs("\\n", f);
        } else if (c == '\t') {
            fputs("\\t", f);
        } else if (c == '\r') {
            fputs("\\r", f);
        } else if (c < 32 || c == 127) {
            fprintf(f, "\\x%02x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

static const char *model_name(StatsSprtModel m)
{
    return m == STATS_SPRT_LOGISTIC ? "logistic" : "normalized";
}

bool results_write_header(FILE *f, const Ledger *l)
{
    fprintf(f, "%s\n", RESULTS_MAGIC);
    fprintf(f, "fingerprint %016" PRIx64 "\n", l->fingerprint);
    fprintf(f, "variant %s\n", l->variant->name);
    fprintf(f, "seed %" PRIu64 "\n", l->seed);
    fprintf(f, "shard %d %d\n", l->shard_k, l->shard_n);
    fprintf(f, "schedule %d %d %d %d %d %d %d\n", l->games, l->rounds, l->gauntlet, l->seeds,
            l->repeat, l->swap, l->reverse);
    /* %.17g keeps every bit of the doubles. */
    fprintf(f, "sprt %d %.17g %.17g %.17g %.17g %s\n", l->sprt, l->sprt_elo0, l->sprt_elo1,
            l->sprt_alpha, l->sprt_beta, model_name(l->sprt_model));
    fprintf(f, "engines %d\n", l->nengines);
    for (int i = 0; i < l->nengines; i++) {
        fputs("name ", f);
        put_quoted(f, l->names[i]);
        fputc('\n', f);
    }
    fprintf(f, "jobs %d\n", l->sched.njobs);
    return !ferror(f);
}

static void write_game_line(FILE *f, const LedgerGame *g, int j)
{
    fprintf(f, "game %d %s %d %d %d %016" PRIx64 " %d ", j + 1, record_result_token(g->result),
            g->on_board, g->margin, (int)g->termination, g->hash, g->moves);
    put_quoted(f, g->category);
    fputc(' ', f);
    put_quoted(f, g->reason);
    fputc('\n', f);
}

bool results_write_game(FILE *f, const Ledger *l, int j)
{
    const LedgerGame *g = &l->g[j];
    write_game_line(f, g, j);
    const char *pgn = g->pgn ? g->pgn : "";
    fprintf(f, "pgn %zu\n", strlen(pgn));
    fputs(pgn, f);
    fprintf(f, "epd %s\n", g->epd ? g->epd : "");
    fprintf(f, "ok %d\n", j + 1);
    return !ferror(f);
}

bool results_write_all(FILE *f, const Ledger *l, bool complete)
{
    bool ok = results_write_header(f, l);
    for (int i = 0; ok && i < l->norder; i++)
        ok = results_write_game(f, l, l->order[i]);
    if (ok && complete)
        ok = fputs("end\n", f) >= 0;
    return ok && !ferror(f);
}

/* ---- reading ------------------------------------------------------------------ */

enum { RL_LINE, RL_EOF, RL_CUT, RL_LONG, RL_NUL };

typedef struct Reader {
    FILE *f;
    const char *path;
    long line;            /* number of the line in buf */
    long offset;          /* bytes consumed */
    char buf[RESULTS_LINE_MAX + 2];
    size_t len;
    char *err;
    size_t errlen;
} Reader;

/* The next line into r->buf without its newline. */
static int next_line(Reader *r)
{
    size_t n = 0;
    int c;
    r->line++;
    while ((c = getc(r->f)) != EOF) {
        r->offset++;
        if (c == '\n') {
            r->buf[n] = '\0';
            r->len = n;
            return memchr(r->buf, '\0', n) ? RL_NUL : RL_LINE;
        }
        if (n >= RESULTS_LINE_MAX) {
            r->buf[n] = '\0';
            r->len = n;
            return RL_LONG;
        }
        r->buf[n++] = (char)c;
    }
    r->buf[n] = '\0';
    r->len = n;
    return n ? RL_CUT : RL_EOF;
}

static bool failf(Reader *r, const char *fmt, ...)
{
    char why[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    snprintf(r->err, r->errlen, "%s:%ld: %s", r->path, r->line, why);
    /* One printable line, whatever bytes of the file it quotes. */
    for (char *c = r->err; *c; c++)
        if ((unsigned char)*c < 32 || (unsigned char)*c > 126)
            *c = '?';
    return false;
}

/* The current line, printable, shortened, for messages. */
static const char *shown(const Reader *r, char *buf, size_t size)
{
    size_t k = 0;
    for (size_t i = 0; i < r->len && k + 5 < size && i < 48; i++) {
        unsigned char c = (unsigned char)r->buf[i];
        buf[k++] = c >= 32 && c < 127 ? (char)c : '?';
    }
    if (r->len > 48 && k + 4 < size)
        buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
    buf[k] = '\0';
    return buf;
}

/* The next space-separated word of *p into w (false when none or too long). */
static bool word(const char **p, char *w, size_t size)
{
    const char *s = *p;
    size_t n = 0;
    while (*s && *s != ' ') {
        if (n + 1 >= size)
            return false;
        w[n++] = *s++;
    }
    w[n] = '\0';
    if (*s == ' ' && s[1]) /* a space at the end of the line stays, to be refused */
        s++;
    *p = s;
    return n > 0;
}

/* A whole number written as the writer writes it (no sign but '-', no
 * leading zero), within [lo, hi]. */
static bool whole(const char *w, long long lo, long long hi, long long *v)
{
    const char *d = w + (*w == '-');
    if (!isdigit((unsigned char)*d) || (d[0] == '0' && (d[1] || d != w)) || strlen(d) > 18)
        return false;
    for (const char *c = d; *c; c++)
        if (!isdigit((unsigned char)*c))
            return false;
    errno = 0;
    long long x = strtoll(w, NULL, 10);
    if (errno || x < lo || x > hi)
        return false;
    *v = x;
    return true;
}

/* A quoted string at *p (the writer's escapes) into out (size bytes). */
static bool quoted(const char **p, char *out, size_t size)
{
    const char *s = *p;
    if (*s++ != '"')
        return false;
    size_t n = 0;
    while (*s && *s != '"') {
        unsigned char c = (unsigned char)*s++;
        if (c == '\\') {
            char e = *s++;
            if (e == 'n')
                c = '\n';
            else if (e == 't')
                c = '\t';
            else if (e == 'r')
                c = '\r';
            else if (e == '"' || e == '\\')
                c = (unsigned char)e;
            else if (e == 'x' && strchr("0123456789abcdef", s[0]) && s[0] &&
                     strchr("0123456789abcdef", s[1]) && s[1]) {
                char hex[3] = {s[0], s[1], 0};
                c = (unsigned char)strtol(hex, NULL, 16);
                s += 2;
                /* only what put_quoted writes so */
                if (c == 0 || (c >= 32 && c != 127) || c == '\n' || c == '\t' || c == '\r')
                    return false;
            } else {
                return false;
            }
        } else if (c < 32 || c == 127) {
            return false; /* put_quoted escapes it */
        }
        if (n + 1 >= size)
            return false;
        out[n++] = (char)c;
    }
    if (*s != '"')
        return false;
    out[n] = '\0';
    s++;
    if (*s == ' ' && s[1])
        s++;
    *p = s;
    return true;
}

/* The current line must be exactly what the writer writes for the values
 * read (formatted by fmt). */
static bool as_written(Reader *r, const char *what, const char *fmt, ...)
{
    char want[RESULTS_LINE_MAX + 2];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(want, sizeof want, fmt, ap);
    va_end(ap);
    if (strcmp(want, r->buf) != 0) {
        char s[64];
        return failf(r, "%s: '%s' is not as sigil-match writes it", what, shown(r, s, sizeof s));
    }
    return true;
}

/* Read the next header line starting with key; on a cut header note it. */
static bool header_line(Reader *r, ResultsInfo *info, const char *key)
{
    int rc = next_line(r);
    if (rc == RL_EOF || rc == RL_CUT) {
        info->header_cut = true;
        return failf(r, "cut short in its header (no game recorded)");
    }
    if (rc == RL_LONG)
        return failf(r, "line longer than %d bytes", RESULTS_LINE_MAX);
    if (rc == RL_NUL)
        return failf(r, "a NUL byte in the header");
    size_t k = strlen(key);
    if (strncmp(r->buf, key, k) != 0 || r->buf[k] != ' ') {
        char s[64];
        return failf(r, "expected the %s line, found '%s'", key, shown(r, s, sizeof s));
    }
    return true;
}

/* A double as %.17g writes it. */
static bool real(const char **p, double *v)
{
    char w[64];
    if (!word(p, w, sizeof w))
        return false;
    char *end;
    errno = 0;
    *v = strtod(w, &end);
    return !*end && errno == 0 && isfinite(*v);
}

/* The magic line, then the fingerprint, variant and seed lines. */
static bool read_identity(Reader *r, Ledger *l, ResultsInfo *info)
{
    int rc = next_line(r);
    if (rc == RL_EOF || (rc == RL_CUT && !strncmp(r->buf, RESULTS_MAGIC, r->len))) {
        info->header_cut = true;
        return failf(r, "cut short in its header (no game recorded)");
    }
    if (rc != RL_LINE || strcmp(r->buf, RESULTS_MAGIC) != 0) {
        if (rc == RL_LINE && !strncmp(r->buf, "sigil-match-results ", 20))
            return failf(r, "a result file of another format ('%.40s'); this sigil-match "
                            "reads '%s'", r->buf, RESULTS_MAGIC);
        return failf(r, "not a sigil-match result file (no '%s' line)", RESULTS_MAGIC);
    }
    const char *p;
    if (!header_line(r, info, "fingerprint"))
        return false;
    p = r->buf + 12;
    if (strlen(p) != 16 || strspn(p, "0123456789abcdef") != 16)
        return failf(r, "the fingerprint is not 16 hexadecimal digits");
    l->fingerprint = strtoull(p, NULL, 16);

    if (!header_line(r, info, "variant"))
        return false;
    l->variant = variants_find(r->buf + 8);
    if (!l->variant)
        return failf(r, "unknown variant '%.40s'", r->buf + 8);
    if (!as_written(r, "variant", "variant %s", l->variant->name))
        return false;

    if (!header_line(r, info, "seed"))
        return false;
    p = r->buf + 5;
    if (!*p || strlen(p) > 20 || strspn(p, "0123456789") != strlen(p) || (p[0] == '0' && p[1]))
        return failf(r, "the seed is not a whole number");
    errno = 0;
    l->seed = strtoull(p, NULL, 10);
    if (errno)
        return failf(r, "the seed is out of range");
    return true;
}

/* The shard and schedule lines. */
static bool read_schedule(Reader *r, Ledger *l, ResultsInfo *info)
{
    char w[128];
    long long a[7];
    const char *p;
    if (!header_line(r, info, "shard"))
        return false;
    p = r->buf + 6;
    long long k, n;
    if (!word(&p, w, sizeof w) || !whole(w, 0, 100000, &k) || !word(&p, w, sizeof w) ||
        !whole(w, 0, 100000, &n) || *p)
        return failf(r, "the shard is not two whole numbers from 0 to 100000");
    if (!(k == 0 && n == 0) && !(k >= 1 && k <= n))
        return failf(r, "shard %lld/%lld is out of range (1 <= K <= N, or 0 0 for no shards)",
                     k, n);
    l->shard_k = (int)k, l->shard_n = (int)n;
    if (!as_written(r, "shard", "shard %d %d", l->shard_k, l->shard_n))
        return false;

    if (!header_line(r, info, "schedule"))
        return false;
    p = r->buf + 9;
    static const long long hi[7] = {1000000, 100000000, 1, MATCH_MAX_ENGINES, 1000000, 1, 1};
    static const long long lo[7] = {1, 1, 0, 0, 1, 0, 0};
    static const char *const names[7] = {"games", "rounds", "gauntlet", "seeds", "repeat",
                                         "swap", "reverse"};
    for (int i = 0; i < 7; i++)
        if (!word(&p, w, sizeof w) || !whole(w, lo[i], hi[i], &a[i]))
            return failf(r, "schedule: %s is not a whole number from %lld to %lld", names[i],
                         lo[i], hi[i]);
    if (*p)
        return failf(r, "schedule: more than 7 numbers");
    l->games = (int)a[0], l->rounds = (int)a[1], l->gauntlet = a[2], l->seeds = (int)a[3];
    l->repeat = (int)a[4], l->swap = a[5], l->reverse = a[6];
    return as_written(r, "schedule", "schedule %d %d %d %d %d %d %d", l->games, l->rounds,
                      l->gauntlet, l->seeds, l->repeat, l->swap, l->reverse);
}

/* The sprt line. */
static bool read_sprt(Reader *r, Ledger *l, ResultsInfo *info)
{
    char w[128];
    long long v;
    if (!header_line(r, info, "sprt"))
        return false;
    const char *p = r->buf + 5;
    double e0, e1, al, be;
    if (!word(&p, w, sizeof w) || !whole(w, 0, 1, &v) || !real(&p, &e0) || !real(&p, &e1) ||
        !real(&p, &al) || !real(&p, &be) || !word(&p, w, sizeof w) || *p)
        return failf(r, "sprt: not '0|1 ELO0 ELO1 ALPHA BETA MODEL'");
    if (strcmp(w, "logistic") && strcmp(w, "normalized"))
        return failf(r, "sprt: unknown model '%.20s' (logistic or normalized)", w);
    if (v == 1) {
        if (fabs(e0) > 1000 || fabs(e1) > 1000 || !(e0 < e1))
            return failf(r, "sprt: elo0 %g and elo1 %g are not -1000 <= elo0 < elo1 <= 1000",
                         e0, e1);
        if (!(al > 0 && be > 0 && al < 1 && be < 1 && al + be < 1))
            return failf(r, "sprt: alpha %g and beta %g are not 0 < alpha, beta and "
                            "alpha + beta < 1", al, be);
    }
    l->sprt = v == 1;
    l->sprt_elo0 = e0, l->sprt_elo1 = e1, l->sprt_alpha = al, l->sprt_beta = be;
    l->sprt_model = strcmp(w, "logistic") ? STATS_SPRT_NORMALIZED : STATS_SPRT_LOGISTIC;
    return as_written(r, "sprt", "sprt %d %.17g %.17g %.17g %.17g %s", l->sprt, e0, e1, al, be,
                      model_name(l->sprt_model));
}

/* The engines line, a name line per engine, and the jobs line. */
static bool read_engines(Reader *r, Ledger *l, ResultsInfo *info)
{
    long long v;
    if (!header_line(r, info, "engines"))
        return false;
    if (!whole(r->buf + 8, 2, MATCH_MAX_ENGINES, &v))
        return failf(r, "engines: not a whole number from 2 to %d", MATCH_MAX_ENGINES);
    l->nengines = (int)v;
    if (l->gauntlet && l->seeds >= l->nengines)
        return failf(r, "gauntlet with %d seeds among %d engines", l->seeds, l->nengines);
    l->names = calloc((size_t)l->nengines, sizeof *l->names);
    if (!l->names)
        return failf(r, "out of memory");
    for (int i = 0; i < l->nengines; i++) {
        if (!header_line(r, info, "name"))
            return false;
        const char *p = r->buf + 5;
        if (!quoted(&p, l->names[i], sizeof l->names[i]) || *p || !l->names[i][0])
            return failf(r, "name: not a quoted name of 1 to %d bytes", MATCH_NAME_MAX - 1);
    }

    if (!header_line(r, info, "jobs"))
        return false;
    long long pairings = l->gauntlet ? (long long)l->seeds * (l->nengines - l->seeds)
                                     : (long long)l->nengines * (l->nengines - 1) / 2;
    long long njobs = pairings * l->games * l->rounds;
    if (njobs > results_max_jobs)
        return failf(r, "a schedule of %lld games is more than %lld", njobs, results_max_jobs);
    if (!whole(r->buf + 5, 0, results_max_jobs, &v) || v != njobs)
        return failf(r, "jobs: '%.20s', but the schedule has %lld games", r->buf + 5, njobs);
    return true;
}

static bool read_header(Reader *r, Ledger *l, ResultsInfo *info)
{
    if (!read_identity(r, l, info) || !read_schedule(r, l, info) || !read_sprt(r, l, info) ||
        !read_engines(r, l, info))
        return false;
    ledger_init_shape(l);
    return true;
}

/* ---- the content of a game ---------------------------------------------------- */

/* A game not ended by the rules: its reason (referee.c's words) names who
 * lost or won, and its category fits its termination; NULL when they agree
 * with its result, else why not. */
static const char *verdict_mismatch(const LedgerGame *g)
{
    static const struct {
        RecordTermination term;
        const char *suffix;     /* after "White" or "Black" */
        bool names_loser;
        const char *categories; /* '|'-separated */
    } words[] = {
        {TERM_ADJUDICATION, " wins by adjudication", false, NULL},
        {TERM_TIME_FORFEIT, " loses on time", true, "|time forfeit|"},
        {TERM_RULES_INFRACTION, " makes an illegal move", true, "|illegal move|"},
        {TERM_ABANDONED, "'s connection stalls", true, "|unresponsive|"},
        {TERM_ABANDONED, " disconnects", true, "|crash|start failure|"},
    };
    if (g->termination == TERM_ADJUDICATION && !strcmp(g->reason, "Draw by adjudication"))
        return g->result == RESULT_DRAW ? NULL : "'Draw by adjudication' with a decisive result";
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        if (words[i].term != g->termination)
            continue;
        int side = !strncmp(g->reason, "White", 5) ? WHITE : !strncmp(g->reason, "Black", 5) ? BLACK : -1;
        if (side < 0 || strcmp(g->reason + 5, words[i].suffix) != 0)
            continue;
        int winner = words[i].names_loser ? !side : side;
        if (g->result != (winner == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS))
            return "its reason names another winner than its result";
        if (words[i].categories) {
            char key[80];
            snprintf(key, sizeof key, "|%s|", g->category);
            if (!strstr(words[i].categories, key))
                return "its category does not fit its termination";
        }
        return NULL;
    }
    return "its reason does not fit its termination";
}

typedef struct Check {
    const Ledger *l;
    int j;
    const LedgerGame *g;
    int records;
    char why[400];
} Check;

/* A name as record_write puts it in a tag: control bytes as spaces. */
static void tag_form(const char *name, char *out, size_t size)
{
    size_t n = 0;
    for (; *name && n + 1 < size; name++)
        out[n++] = (unsigned char)*name < 0x20 ? ' ' : *name;
    out[n] = '\0';
}

/* The tags of record p against its game line and the schedule: false, with
 * c->why set, at the first that disagrees. */
static bool tags_agree(const PgnGame *p, Check *c)
{
    const Ledger *l = c->l;
    const LedgerGame *g = c->g;
    const Job *job = &l->sched.jobs[c->j];
    char want[128];
    if (strcmp(p->variant, l->variant->name) != 0) {
        snprintf(c->why, sizeof c->why, "[Variant \"%.40s\"] but the file is %s", p->variant,
                 l->variant->name);
        return false;
    }
    if (strcmp(p->result, record_result_token(g->result)) != 0) {
        snprintf(c->why, sizeof c->why, "[Result \"%.10s\"] but the game line says %s",
                 p->result, record_result_token(g->result));
        return false;
    }
    if (strcmp(p->termination, record_termination_tag(g->termination)) != 0) {
        snprintf(c->why, sizeof c->why, "[Termination \"%.40s\"] but the game line says %s",
                 p->termination, record_termination_tag(g->termination));
        return false;
    }
    tag_form(l->names[job->white], want, sizeof want);
    if (strcmp(p->white, want) != 0) {
        snprintf(c->why, sizeof c->why, "[White \"%.60s\"] but White is %.60s", p->white, want);
        return false;
    }
    tag_form(l->names[job->black], want, sizeof want);
    if (strcmp(p->black, want) != 0) {
        snprintf(c->why, sizeof c->why, "[Black \"%.60s\"] but Black is %.60s", p->black, want);
        return false;
    }
    snprintf(want, sizeof want, "%d.%d", job->round + 1, job->index + 1);
    if (strcmp(p->round, want) != 0) {
        snprintf(c->why, sizeof c->why, "[Round \"%.20s\"] but the schedule says %s", p->round,
                 want);
        return false;
    }
    if (!p->fen[0]) {
        snprintf(c->why, sizeof c->why, "its record has no [FEN]");
        return false;
    }
    return true;
}

static bool check_record(const PgnGame *p, void *ctx)
{
    Check *c = ctx;
    if (++c->records > 1) {
        snprintf(c->why, sizeof c->why, "its record holds more than one game");
        return false;
    }
    const Ledger *l = c->l;
    const LedgerGame *g = c->g;
    if (!tags_agree(p, c))
        return true;
    GameConfig gc = {p->move_limit > 0 ? p->move_limit : DEFAULT_MOVE_LIMIT};
    Game game;
    game_init(&game, l->variant, &gc);
    char err[160];
    if (!game_set_fen(&game, p->fen, err, sizeof err)) {
        snprintf(c->why, sizeof c->why, "bad [FEN]: %s", err);
        game_free(&game);
        return true;
    }
    uint64_t h = 0xC0FFEE;
    for (const char *s = p->fen; *s; s++)
        h = openings_mix_seed(h, (unsigned char)*s, 1);
    const char *cur = p->movetext;
    char tok[256];
    int plies = 0;
    while (record_next_move(&cur, tok, sizeof tok)) {
        if (!game_play_text(&game, tok, err, sizeof err)) {
            snprintf(c->why, sizeof c->why, "move %d '%.40s' is not legal: %s", plies + 1, tok,
                     err);
            game_free(&game);
            return true;
        }
        for (const char *s = tok; *s; s++)
            h = openings_mix_seed(h, (unsigned char)*s, (uint64_t)plies + 2);
        plies++;
    }
    char fen[FEN_MAX];
    l->variant->to_fen(&game.pos, fen);
    int margin = 0;
    const char *reason = NULL;
    Result board = game_result(&game, &margin, &reason);
    game_free(&game);
    if (h != g->hash)
        snprintf(c->why, sizeof c->why, "its moves do not give the hash of the game line");
    else if (g->moves > plies)
        snprintf(c->why, sizeof c->why, "%d moves by the players in a record of %d", g->moves,
                 plies);
    else if (strcmp(fen, g->epd) != 0)
        snprintf(c->why, sizeof c->why, "its moves end in %.100s, not in the epd line", fen);
    else if (g->termination == TERM_NORMAL && board == RESULT_NONE)
        snprintf(c->why, sizeof c->why, "recorded as ended by the rules, but the game is not "
                                        "over after its %d moves", plies);
    else if (g->termination == TERM_NORMAL && board != g->result)
        snprintf(c->why, sizeof c->why, "the rules give %s (%.60s), but it is recorded as %s",
                 record_result_token(board), reason ? reason : "?",
                 record_result_token(g->result));
    else if (g->termination == TERM_NORMAL && margin != g->margin)
        snprintf(c->why, sizeof c->why, "the rules give a margin of %d, recorded %d", margin,
                 g->margin);
    else if (g->termination == TERM_NORMAL &&
             (strcmp(g->reason, reason && *reason ? reason : "game over") != 0 ||
              strcmp(g->category, g->reason) != 0))
        snprintf(c->why, sizeof c->why, "the rules end it by '%.60s', recorded '%.60s'",
                 reason && *reason ? reason : "game over", g->reason);
    else if (g->termination != TERM_NORMAL && verdict_mismatch(g))
        snprintf(c->why, sizeof c->why, "%s (%s, '%.60s')", verdict_mismatch(g),
                 record_result_token(g->result), g->reason);
    else if (p->has_margin && (g->termination != TERM_NORMAL || p->margin != g->margin))
        snprintf(c->why, sizeof c->why, "[Margin \"%d\"] but the game line says %d", p->margin,
                 g->margin);
    return true;
}

static bool check_game(Reader *r, const Ledger *l, int j, const LedgerGame *g, long line)
{
    Check c;
    memset(&c, 0, sizeof c);
    c.l = l, c.j = j, c.g = g;
    FILE *m = fmemopen(g->pgn, strlen(g->pgn), "r");
    if (!m)
        return failf(r, "out of memory");
    record_read_pgn(m, check_record, &c);
    fclose(m);
    if (!c.why[0] && c.records != 1)
        snprintf(c.why, sizeof c.why, "its record holds no game");
    if (c.why[0]) {
        r->line = line;
        return failf(r, "game %d: %s", j + 1, c.why);
    }
    return true;
}

/* The game line (in r->buf) into *g and game j's index into *jp; false
 * (the message given) when it is damaged or not as the writer writes it. */
static bool parse_game_line(Reader *r, const Ledger *l, LedgerGame *g, int *jp)
{
    const char *p = r->buf + 5;
    char w[64];
    long long v;
    if (!word(&p, w, sizeof w) || !whole(w, 1, l->sched.njobs, &v))
        return failf(r, "game: '%.20s' is not a game number from 1 to %d", w, l->sched.njobs);
    int j = (int)v - 1;
    if (!ledger_in_run(l, j))
        return failf(r, "game %d is not in shard %d/%d", j + 1, l->shard_k, l->shard_n);
    if (l->g[j].done)
        return failf(r, "game %d is recorded twice", j + 1);
    if (!word(&p, w, sizeof w) || (strcmp(w, "1-0") && strcmp(w, "0-1") && strcmp(w, "1/2-1/2")))
        return failf(r, "game %d: the result '%.10s' is not 1-0, 0-1 or 1/2-1/2", j + 1, w);
    g->result = !strcmp(w, "1-0")   ? RESULT_WHITE_WINS
                : !strcmp(w, "0-1") ? RESULT_BLACK_WINS
                                    : RESULT_DRAW;
    if (!word(&p, w, sizeof w) || !whole(w, 0, 1, &v))
        return failf(r, "game %d: on-board flag '%.10s' is not 0 or 1", j + 1, w);
    g->on_board = v;
    if (!word(&p, w, sizeof w) || !whole(w, -1000000, 1000000, &v))
        return failf(r, "game %d: the margin '%.10s' is not a whole number", j + 1, w);
    g->margin = (int)v;
    if (!word(&p, w, sizeof w) || !whole(w, TERM_NORMAL, TERM_ABANDONED, &v))
        return failf(r, "game %d: termination '%.10s' is not a code from %d to %d", j + 1, w,
                     TERM_NORMAL, TERM_ABANDONED);
    g->termination = (RecordTermination)v;
    if (g->on_board != (g->termination == TERM_NORMAL))
        return failf(r, "game %d: on-board flag %d with termination %d (%s)", j + 1,
                     g->on_board, (int)g->termination, record_termination_tag(g->termination));
    if (!g->on_board && g->margin != 0)
        return failf(r, "game %d: a margin in a game not ended by the rules", j + 1);
    if (!word(&p, w, sizeof w) || strlen(w) != 16 || strspn(w, "0123456789abcdef") != 16)
        return failf(r, "game %d: the hash is not 16 hexadecimal digits", j + 1);
    g->hash = strtoull(w, NULL, 16);
    if (!word(&p, w, sizeof w) || !whole(w, 0, 100000000, &v))
        return failf(r, "game %d: the move count '%.10s' is not a whole number", j + 1, w);
    g->moves = (int)v;
    if (!quoted(&p, g->category, sizeof g->category) || !quoted(&p, g->reason, sizeof g->reason) ||
        *p)
        return failf(r, "game %d: the category and reason are not two quoted texts", j + 1);
    /* The line again from the values: only the writer's form is accepted. */
    char *again = NULL;
    size_t again_len = 0;
    FILE *m = open_memstream(&again, &again_len);
    if (!m)
        return failf(r, "out of memory");
    write_game_line(m, g, j);
    fclose(m);
    bool same = again && again_len == r->len + 1 && !memcmp(again, r->buf, r->len);
    free(again);
    if (!same)
        return failf(r, "game %d: the game line is not as sigil-match writes it", j + 1);
    *jp = j;
    return true;
}

/* Game j's "pgn LENGTH" line and the record after it into *out.  Returns 1
 * for a record, 0 when cut short by the end of the file, -1 for damage. */
static int read_pgn(Reader *r, int j, char **out)
{
    long long v;
    int rc = next_line(r);
    if (rc == RL_EOF || rc == RL_CUT)
        return 0;
    if (rc != RL_LINE || strncmp(r->buf, "pgn ", 4) != 0)
        return failf(r, "game %d: expected 'pgn LENGTH'", j + 1), -1;
    if (!whole(r->buf + 4, 1, RESULTS_RECORD_MAX, &v) || v < 2)
        return failf(r, "game %d: the record length '%.24s' is not a whole number from 2 to %u",
                     j + 1, r->buf + 4, RESULTS_RECORD_MAX),
               -1;
    size_t len = (size_t)v;
    char *text = malloc(len + 1);
    if (!text)
        return failf(r, "out of memory"), -1;
    size_t got = fread(text, 1, len, r->f);
    r->offset += (long)got;
    if (got < len) {
        free(text);
        return 0;
    }
    text[len] = '\0';
    long nl = 0;
    for (size_t i = 0; i < len; i++)
        nl += text[i] == '\n';
    long record_line = r->line + 1;
    r->line += nl;
    if (memchr(text, '\0', len)) {
        free(text);
        r->line = record_line;
        return failf(r, "game %d: a NUL byte in its record", j + 1), -1;
    }
    if (len < 2 || text[len - 1] != '\n' || text[len - 2] != '\n') {
        free(text);
        return failf(r, "game %d: its record does not end with a blank line (wrong length?)",
                     j + 1),
               -1;
    }
    *out = text;
    return 1;
}

/* The epd and ok lines that close game j's block (its game line at line
 * start, its record in tmp->pgn), then the game checked and recorded in l.
 * Returns 1 for a game, 0 when cut short, -1 for damage; the record and the
 * epd are freed unless the game is recorded. */
static int read_block_end(Reader *r, Ledger *l, int j, LedgerGame *tmp, long start)
{
    char *text = tmp->pgn;
    int rc = next_line(r);
    if (rc == RL_EOF || rc == RL_CUT) {
        free(text);
        return 0;
    }
    if (rc != RL_LINE || strncmp(r->buf, "epd ", 4) != 0 || r->len - 4 >= FEN_MAX) {
        free(text);
        return failf(r, "game %d: expected 'epd FEN' (a FEN of at most %d bytes)", j + 1,
                     FEN_MAX - 1),
               -1;
    }
    tmp->epd = strdup(r->buf + 4);
    rc = next_line(r);
    if (rc == RL_EOF || rc == RL_CUT) {
        free(text);
        free(tmp->epd);
        return 0;
    }
    char ok[32];
    snprintf(ok, sizeof ok, "ok %d", j + 1);
    if (rc != RL_LINE || strcmp(r->buf, ok) != 0 || !tmp->epd) {
        free(text);
        free(tmp->epd);
        return failf(r, "game %d: expected '%s'", j + 1, ok), -1;
    }
    if (!check_game(r, l, j, tmp, start)) {
        free(text);
        free(tmp->epd);
        return -1;
    }
    tmp->done = true;
    l->g[j] = *tmp;
    l->order[l->norder++] = j;
    l->played++;
    return 1;
}

/* One game block from its game line (in r->buf).  Returns 1 for a game,
 * 0 for a block cut short by the end of the file, -1 for damage. */
static int read_block(Reader *r, Ledger *l)
{
    long start = r->line;
    LedgerGame tmp;
    memset(&tmp, 0, sizeof tmp);
    int j = 0;
    if (!parse_game_line(r, l, &tmp, &j))
        return -1;
    char *text = NULL;
    int rc = read_pgn(r, j, &text);
    if (rc != 1)
        return rc;
    tmp.pgn = text;
    return read_block_end(r, l, j, &tmp, start);
}

bool results_read(FILE *f, const char *path, Ledger *l, ResultsInfo *info, char *err,
                  size_t errlen)
{
    memset(l, 0, sizeof *l);
    memset(info, 0, sizeof *info);
    Reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    r->f = f, r->path = path, r->err = err, r->errlen = errlen;
    bool ok = read_header(r, l, info);
    info->used = r->offset;
    while (ok) {
        long before = r->offset;
        int rc = next_line(r);
        if (rc == RL_EOF)
            break;
        if (rc == RL_CUT) {
            /* The last line, without its newline: a cut `end`, or the start
             * of a game block written only in part; anything else is damage. */
            bool nul = memchr(r->buf, '\0', r->len) != NULL;
            bool end = r->len <= 3 && !memcmp(r->buf, "end", r->len);
            bool game = !memcmp(r->buf, "game ", r->len < 5 ? r->len : 5);
            if (nul || (!end && !game)) {
                char s[64];
                ok = failf(r, "unexpected '%s'", shown(r, s, sizeof s));
            } else if (!end) {
                info->dropped_line = r->line;
            }
            break;
        }
        if (rc == RL_LONG) {
            ok = failf(r, "line longer than %d bytes", RESULTS_LINE_MAX);
            break;
        }
        if (rc == RL_NUL) {
            ok = failf(r, "a NUL byte");
            break;
        }
        if (!strcmp(r->buf, "end")) {
            info->complete = true;
            if (next_line(r) != RL_EOF)
                ok = failf(r, "something after the end line");
            break;
        }
        if (strncmp(r->buf, "game ", 5) != 0) {
            char s[64];
            ok = failf(r, "unexpected '%s' (a game line, or end)", shown(r, s, sizeof s));
            break;
        }
        long line = r->line;
        int got = read_block(r, l);
        if (got < 0) {
            ok = false;
        } else if (got == 0) {
            info->dropped_line = line;
            break;
        } else {
            info->used = r->offset;
        }
        (void)before;
    }
    free(r);
    return ok;
}

/* ---- minimal records ---------------------------------------------------------- */

typedef struct Out {
    char *buf;
    size_t len, cap;
    int col;
    bool failed;
} Out;

static void out_put(Out *o, const char *s, size_t n)
{
    if (o->failed)
        return;
    if (o->len + n + 1 > o->cap) {
        size_t cap = (o->len + n + 1) * 2;
        char *b = realloc(o->buf, cap);
        if (!b) {
            o->failed = true;
            return;
        }
        o->buf = b, o->cap = cap;
    }
    memcpy(o->buf + o->len, s, n);
    o->len += n;
    o->buf[o->len] = '\0';
}

/* As record.c's put_token: lines wrapped before 80 columns. */
static void out_token(Out *o, const char *tok, size_t n)
{
    if (o->col > 0 && o->col + 1 + (int)n > 79) {
        out_put(o, "\n", 1);
        o->col = 0;
    }
    if (o->col > 0) {
        out_put(o, " ", 1);
        o->col++;
    }
    out_put(o, tok, n);
    o->col += (int)n;
}

char *results_minify_pgn(const char *pgn)
{
    static const char *const dropped[] = {"[TimeControl ", "[WhiteTimeControl ",
                                          "[BlackTimeControl ", "[Margin ", "[PlyCount ", NULL};
    Out o = {NULL, 0, 0, 0, false};
    const char *p = pgn;
    /* The tags, up to the blank line. */
    while (*p == '[') {
        const char *e = strchr(p, '\n');
        size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
        bool keep = true;
        for (int i = 0; dropped[i]; i++)
            keep = keep && strncmp(p, dropped[i], strlen(dropped[i])) != 0;
        if (keep)
            out_put(&o, p, n);
        p += n;
    }
    out_put(&o, "\n", 1);
    if (*p == '\n')
        p++;
    /* The movetext without its comments. */
    while (*p) {
        if (*p == '{') {
            const char *e = strchr(p, '}');
            p = e ? e + 1 : p + strlen(p);
            continue;
        }
        if (isspace((unsigned char)*p)) {
            p++;
            continue;
        }
        const char *s = p;
        while (*p && !isspace((unsigned char)*p) && *p != '{')
            p++;
        out_token(&o, s, (size_t)(p - s));
    }
    out_put(&o, "\n\n", 2);
    if (o.failed) {
        free(o.buf);
        return NULL;
    }
    return o.buf;
}

int results_missing_ranges(const Ledger *l, char *buf, size_t size)
{
    int end = l->decided_at >= 0 ? l->decided_at + 1 : l->sched.njobs;
    int missing = 0;
    size_t n = 0;
    bool cut = false;
    buf[0] = '\0';
    for (int j = 0; j < end; j++) {
        if (!ledger_in_run(l, j) || l->g[j].done)
            continue;
        int k = j;
        while (k + 1 < end && ledger_in_run(l, k + 1) && !l->g[k + 1].done)
            k++;
        missing += k - j + 1;
        char one[40];
        if (k > j)
            snprintf(one, sizeof one, "%s%d-%d", n ? ", " : "", j + 1, k + 1);
        else
            snprintf(one, sizeof one, "%s%d", n ? ", " : "", j + 1);
        if (!cut && n + strlen(one) + 5 < size) {
            memcpy(buf + n, one, strlen(one) + 1);
            n += strlen(one);
        } else if (!cut && n + 5 < size) {
            memcpy(buf + n, ", ...", 6);
            n += 5;
            cut = true;
        }
        j = k;
    }
    return missing;
}
