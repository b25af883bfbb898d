/* cli.c - the command line from two tables, options and engine keys, which
 * also print -help (see cli.h). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util.h"
#include "variants.h"

#define MAX_EACH 16

/* The words of the command line as the tables see them. */
typedef struct Cli {
    MatchConfig *cfg;
    char **engine_kv[MATCH_MAX_ENGINES];
    int engine_n[MATCH_MAX_ENGINES];
    int nengines;
    char **each_kv[MAX_EACH];
    int each_n[MAX_EACH];
    int neach;
    const char *variant_name;
    int exit_now; /* >= 0: stop with this status (-help, -version, -variants) */
} Cli;

static bool fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "sigil-match: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return false;
}

/* ---- numbers and key=value lists ------------------------------------------ */


/* A finite number (NaN and infinities are refused). */
static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno || !isfinite(v))
        return false;
    *out = v;
    return true;
}

static bool parse_bool(const char *s, bool *out)
{
    if (!strcmp(s, "true") || !strcmp(s, "on") || !strcmp(s, "1"))
        *out = true;
    else if (!strcmp(s, "false") || !strcmp(s, "off") || !strcmp(s, "0"))
        *out = false;
    else
        return false;
    return true;
}

/* The value of key in a key=value list; NULL when absent. */
static const char *kv_get(char **kv, int n, const char *key)
{
    size_t kl = strlen(key);
    const char *found = NULL;
    for (int i = 0; i < n; i++)
        if (!strncmp(kv[i], key, kl) && kv[i][kl] == '=')
            found = kv[i] + kl + 1; /* the last one wins */
    return found;
}

/* Every word is key=value with a known key. */
static bool kv_check(char **kv, int n, const char *const *known, const char *opt)
{
    for (int i = 0; i < n; i++) {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++) {
            size_t kl = strlen(*k);
            ok = !strncmp(kv[i], *k, kl) && kv[i][kl] == '=';
        }
        if (!ok) {
            char list[256] = "";
            for (const char *const *k = known; *k; k++) {
                size_t len = strlen(list);
                snprintf(list + len, sizeof list - len, "%s%s=", k == known ? "" : " ", *k);
            }
            return fail("%s: unexpected '%s' (it takes %s)", opt, kv[i], list);
        }
    }
    return true;
}

static bool kv_int(char **kv, int n, const char *key, long long lo, long long hi, int *out,
                   const char *opt)
{
    const char *v = kv_get(kv, n, key);
    long long x;
    if (!v)
        return true;
    if (!util_parse_number(v, lo, hi, &x))
        return fail("%s: %s=%s is not a number from %lld to %lld", opt, key, v, lo, hi);
    *out = (int)x;
    return true;
}

static bool kv_bool(char **kv, int n, const char *key, bool *out, const char *opt)
{
    const char *v = kv_get(kv, n, key);
    if (v && !parse_bool(v, out))
        return fail("%s: %s=%s is not true or false", opt, key, v);
    return true;
}

/* ---- engine keys ------------------------------------------------------------ */

typedef bool (*KeyFn)(EngineSpec *e, const char *key, const char *val);

typedef struct EngineKey {
    const char *name;  /* "option." matches as a prefix */
    const char *value; /* for -help */
    const char *help;
    KeyFn apply;
} EngineKey;

static bool copy_value(char *dst, size_t size, const char *val, const char *key)
{
    if (strlen(val) >= size)
        return fail("%s= is too long", key);
    snprintf(dst, size, "%s", val);
    return true;
}

static bool key_cmd(EngineSpec *e, const char *key, const char *val)
{
    if (!*val)
        return fail("cmd= is empty");
    e->kind = players_kind(val);
    return copy_value(e->cmd, sizeof e->cmd, val, key);
}

static bool key_name(EngineSpec *e, const char *key, const char *val)
{
    if (!*val)
        return fail("name= is empty");
    e->name_given = true;
    return copy_value(e->name, sizeof e->name, val, key);
}

static bool add_arg(EngineSpec *e, const char *val)
{
    if (e->nargs >= MATCH_MAX_ARGS)
        return fail("more than %d arguments for one engine", MATCH_MAX_ARGS);
    e->args[e->nargs] = strdup(val);
    return e->args[e->nargs++] != NULL;
}

static bool key_arg(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    return add_arg(e, val);
}

/* fastchess's args="A B C": several arguments split at spaces. */
static bool key_args(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    char buf[1024];
    if (!copy_value(buf, sizeof buf, val, key))
        return false;
    for (char *save = NULL, *w = strtok_r(buf, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
        if (!add_arg(e, w))
            return false;
    return true;
}

static bool key_dir(EngineSpec *e, const char *key, const char *val)
{
    return copy_value(e->dir, sizeof e->dir, val, key);
}

static bool key_stderr(EngineSpec *e, const char *key, const char *val)
{
    if (!*val)
        return fail("stderr= needs a file");
    return copy_value(e->stderr_path, sizeof e->stderr_path, val, key);
}

static bool key_initstr(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    if (e->ninitstr >= MATCH_MAX_INITSTR)
        return fail("more than %d initstr= for one engine", MATCH_MAX_INITSTR);
    if (strchr(val, '\n'))
        return fail("initstr= holds one line");
    e->initstr[e->ninitstr] = strdup(val);
    return e->initstr[e->ninitstr++] != NULL;
}

static bool key_proto(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    if (!strcmp(val, "xboard"))
        return fail("proto=xboard: Sigil engines speak uci or ugi");
    if (strcmp(val, "uci") && strcmp(val, "ugi"))
        return fail("proto=%s: proto is uci or ugi", val);
    e->ugi = !strcmp(val, "ugi");
    return true;
}

static bool key_option(EngineSpec *e, const char *key, const char *val)
{
    const char *name = key + 7;
    if (!*name)
        return fail("option.= needs a name");
    if (strlen(name) >= sizeof e->options[0].name || strlen(val) >= sizeof e->options[0].value)
        return fail("%s= is too long", key);
    for (int i = 0; i < e->noptions; i++)
        if (!strcmp(e->options[i].name, name)) { /* later wins */
            snprintf(e->options[i].value, sizeof e->options[i].value, "%s", val);
            return true;
        }
    if (e->noptions >= MATCH_MAX_OPTIONS)
        return fail("more than %d options for one engine", MATCH_MAX_OPTIONS);
    snprintf(e->options[e->noptions].name, sizeof e->options[0].name, "%s", name);
    snprintf(e->options[e->noptions++].value, sizeof e->options[0].value, "%s", val);
    return true;
}

static bool key_tc(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    if (!match_parse_tc(val, &e->tc))
        return fail("tc=%s is not a time control ([MOVES/]SECONDS[+INC], M:SS, or inf)", val);
    return true;
}

static bool key_st(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    double d;
    if (!parse_double(val, &d) || d <= 0 || d > 1e6)
        return fail("st=%s is not a number of seconds above 0", val);
    e->st_ms = (int64_t)(d * 1000.0 + 0.5);
    if (e->st_ms < 1)
        e->st_ms = 1;
    return true;
}

static bool key_depth(EngineSpec *e, const char *key, const char *val)
{
    long long n;
    if (!util_parse_number(val, 1, 1000, &n))
        return fail("%s=%s is not a depth from 1 to 1000", key, val);
    e->depth = (int)n;
    return true;
}

static bool key_nodes(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    long long n;
    if (!util_parse_number(val, 1, (long long)1 << 60, &n))
        return fail("nodes=%s is not a positive number", val);
    e->nodes = n;
    return true;
}

static bool key_timemargin(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    long long n;
    if (!util_parse_number(val, 0, 10000000, &n))
        return fail("timemargin=%s is not milliseconds from 0 to 10000000", val);
    e->timemargin_ms = n;
    return true;
}

static bool key_restart(EngineSpec *e, const char *key, const char *val)
{
    (void)key;
    if (!strcmp(val, "on"))
        e->restart = RESTART_ON;
    else if (!strcmp(val, "off"))
        e->restart = RESTART_OFF;
    else if (!strcmp(val, "auto"))
        e->restart = RESTART_AUTO;
    else
        return fail("restart=%s: restart is on, off or auto", val);
    return true;
}

static bool key_unsupported(EngineSpec *e, const char *key, const char *val)
{
    (void)e, (void)val;
    if (!strcmp(key, "book") || !strcmp(key, "bookdepth"))
        return fail("%s=: Polyglot books are for chess; give Sigil openings with -openings", key);
    if (!strcmp(key, "conf"))
        return fail("conf=: sigil-match has no engine configuration file; give cmd= and the "
                    "other keys");
    return fail("engine key %s is not supported by sigil-match", key);
}

static const EngineKey engine_keys[] = {
    {"cmd", "PATH", "the engine program (PATH search without a '/'); cmd=random and cmd=greedy "
                    "are the built-in players", key_cmd},
    {"name", "NAME", "name in the tables and records (default: from cmd)", key_name},
    {"arg", "ARG", "one argument for the program (repeatable)", key_arg},
    {"args", "\"A B\"", "several arguments, split at spaces (fastchess)", key_args},
    {"dir", "DIR", "working directory of the program", key_dir},
    {"stderr", "FILE", "append the engine's standard error to FILE", key_stderr},
    {"initstr", "TEXT", "a line sent to the engine right after uciok (repeatable)", key_initstr},
    {"proto", "uci|ugi", "protocol flavour (default uci)", key_proto},
    {"option.", "NAME=VALUE", "`setoption name NAME value VALUE`; NAME must be an option the "
                              "engine lists", key_option},
    {"tc", "[MOVES/]SECONDS[+INC]", "clock: 40/10+0.1, 10+0.1, 5, 1:30+1 (minutes:seconds), inf",
     key_tc},
    {"st", "SECONDS", "fixed time per move (go movetime)", key_st},
    {"depth", "N", "search depth limit (with or without a clock)", key_depth},
    {"plies", "N", "the same as depth= (fastchess)", key_depth},
    {"nodes", "N", "node limit per move", key_nodes},
    {"timemargin", "MS", "this engine's tolerance on its time limits (default: -timemargin)",
     key_timemargin},
    {"restart", "on|off|auto", "on: a fresh process for every game; off/auto (default): keep "
                               "it while it behaves",
     key_restart},
    {"book", NULL, NULL, key_unsupported},
    {"bookdepth", NULL, NULL, key_unsupported},
    {"conf", NULL, NULL, key_unsupported},
    {"tscale", NULL, NULL, key_unsupported},
};

static bool apply_engine_word(EngineSpec *e, const char *word)
{
    if (!strcmp(word, "debug")) { /* cutechess's flag */
        e->debug = true;
        return true;
    }
    const char *eq = strchr(word, '=');
    if (!eq) {
        if (!strcmp(word, "ponder") || !strcmp(word, "trust") || !strcmp(word, "whitepov"))
            return fail("engine flag '%s' is not supported by sigil-match", word);
        return fail("engine setting '%s' is not key=value", word);
    }
    char key[128];
    size_t kl = (size_t)(eq - word);
    if (kl >= sizeof key)
        return fail("engine setting '%.40s...' has too long a key", word);
    memcpy(key, word, kl);
    key[kl] = '\0';
    for (size_t i = 0; i < sizeof engine_keys / sizeof *engine_keys; i++) {
        const EngineKey *k = &engine_keys[i];
        bool prefix = k->name[strlen(k->name) - 1] == '.';
        if (prefix ? !strncmp(key, k->name, strlen(k->name)) : !strcmp(key, k->name))
            return k->apply(e, key, eq + 1);
    }
    return fail("unknown engine setting '%s' (try -help)", key);
}

/* ---- options ----------------------------------------------------------------- */

typedef enum ArgShape {
    ARGS_NONE,   /* a flag */
    ARGS_ONE,    /* exactly one value */
    ARGS_LIST    /* every following word that does not start with '-' */
} ArgShape;

typedef bool (*OptFn)(Cli *c, const char *opt, char **av, int ac);

typedef struct CliOption {
    const char *names; /* "-srand|-seed" */
    ArgShape shape;
    const char *args;  /* for -help */
    const char *help;  /* NULL: refused with a reason (not listed) */
    OptFn apply;
} CliOption;

static bool opt_help(Cli *c, const char *opt, char **av, int ac)
{
    (void)opt, (void)av, (void)ac;
    cli_help(stdout);
    c->exit_now = 0;
    return true;
}

static bool opt_version(Cli *c, const char *opt, char **av, int ac)
{
    (void)opt, (void)av, (void)ac;
    printf("sigil-match %s\n", PACKAGE_VERSION);
    c->exit_now = 0;
    return true;
}

static bool opt_variants(Cli *c, const char *opt, char **av, int ac)
{
    (void)opt, (void)av, (void)ac;
    for (int k = 0; k < variants_count(); k++)
        printf("%s\t%s\n", variants_get(k)->name, variants_get(k)->title);
    c->exit_now = 0;
    return true;
}

static bool opt_replay(Cli *c, const char *opt, char **av, int ac)
{
    (void)opt, (void)ac;
    c->cfg->mode = MODE_REPLAY;
    return copy_value(c->cfg->replay_file, sizeof c->cfg->replay_file, av[0], "-replay");
}

static bool opt_merge(Cli *c, const char *opt, char **av, int ac)
{
    if (ac == 0)
        return fail("%s needs result files", opt);
    for (int i = 0; i < ac; i++) {
        if (c->cfg->nmerge >= MATCH_MAX_MERGE)
            return fail("%s: more than %d files", opt, MATCH_MAX_MERGE);
        c->cfg->merge_files[c->cfg->nmerge++] = av[i];
    }
    c->cfg->mode = MODE_MERGE;
    return true;
}

static bool opt_engine(Cli *c, const char *opt, char **av, int ac)
{
    if (c->nengines >= MATCH_MAX_ENGINES)
        return fail("more than %d engines", MATCH_MAX_ENGINES);
    if (ac == 0)
        return fail("%s needs cmd=... (and other settings)", opt);
    c->engine_kv[c->nengines] = av;
    c->engine_n[c->nengines++] = ac;
    return true;
}

static bool opt_each(Cli *c, const char *opt, char **av, int ac)
{
    if (c->neach >= MAX_EACH)
        return fail("more than %d %s", MAX_EACH, opt);
    c->each_kv[c->neach] = av;
    c->each_n[c->neach++] = ac;
    return true;
}

static bool opt_variant(Cli *c, const char *opt, char **av, int ac)
{
    (void)opt, (void)ac;
    c->variant_name = av[0];
    return true;
}

/* -games, -rounds, -concurrency, -maxmoves, -movelimit, -seeds, -wait and
 * the intervals: whole numbers. */
static bool opt_number(Cli *c, const char *opt, char **av, int ac)
{
    (void)ac;
    MatchConfig *cfg = c->cfg;
    struct {
        const char *name;
        long long lo, hi;
        int *dst;
    } table[] = {
        {"-games", 1, 1000000, &cfg->games},
        {"-rounds", 1, 100000000, &cfg->rounds},
        {"-concurrency", 1, 1024, &cfg->concurrency},
        {"-maxmoves", 0, 1000000, &cfg->adj.maxmoves},
        {"-movelimit", 1, 1000000, &cfg->game_config.move_limit},
        {"-seeds", 1, MATCH_MAX_ENGINES, &cfg->seeds},
        {"-wait", 0, 3600000, &cfg->wait_ms},
        {"-ratinginterval", 0, 100000000, &cfg->report.rating_interval},
        {"-scoreinterval", 0, 100000000, &cfg->report.score_interval},
        {"-outcomeinterval", 0, 100000000, &cfg->report.outcome_interval},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++)
        if (!strcmp(opt, table[i].name)) {
            long long v;
            if (!util_parse_number(av[0], table[i].lo, table[i].hi, &v))
                return fail("%s %s: not a whole number from %lld to %lld", opt, av[0],
                            table[i].lo, table[i].hi);
            *table[i].dst = (int)v;
            if (!strcmp(opt, "-movelimit"))
                cfg->move_limit_given = true;
            return true;
        }
    return fail("%s: internal error", opt);
}

/* Milliseconds or seconds into a limit. */
static bool opt_time(Cli *c, const char *opt, char **av, int ac)
{
    (void)ac;
    MatchConfig *cfg = c->cfg;
    double d;
    if (!parse_double(av[0], &d) || d < 0 || d > 1e9)
        return fail("%s %s: not a number of %s", opt, av[0],
                    strstr(opt, "ms") || !strcmp(opt, "-timemargin") ? "milliseconds"
                                                                     : "seconds");
    /* Seconds are rounded to the millisecond (0.29 s is 290 ms, not 289);
     * a timeout must be at least 1 ms once rounded. */
    int64_t ms = (int64_t)llround(strstr(opt, "ms") || !strcmp(opt, "-timemargin") ? d
                                                                                   : d * 1000);
    if ((!strcmp(opt, "-hangtimeout") || strstr(opt, "start") || strstr(opt, "newgame")) &&
        ms < 1)
        return fail("%s must be at least 1 ms", opt);
    if (!strcmp(opt, "-timemargin"))
        cfg->limits.timemargin_ms = ms;
    else if (!strcmp(opt, "-hangtimeout"))
        cfg->limits.hang_timeout_ms = ms;
    else if (!strcmp(opt, "-starttimeout") || !strcmp(opt, "-startup-ms"))
        cfg->limits.start_timeout_ms = ms;
    else if (!strcmp(opt, "-ucinewgame-ms"))
        cfg->limits.newgame_timeout_ms = ms;
    return true;
}

static bool opt_tournament(Cli *c, const char *opt, char **av, int ac)
{
    (void)ac;
    if (!strcmp(av[0], "gauntlet"))
        c->cfg->gauntlet = true;
    else if (!strcmp(av[0], "round-robin") || !strcmp(av[0], "roundrobin"))
        c->cfg->gauntlet = false;
    else /* cutechess's knockout and its other types too */
        return fail("%s %s is not supported (round-robin or gauntlet)", opt, av[0]);
    return true;
}

static bool opt_repeat(Cli *c, const char *opt, char **av, int ac)
{
    long long n = 2;
    if (ac > 1)
        return fail("%s takes at most one number", opt);
    if (ac == 1 && !util_parse_number(av[0], 1, 1000000, &n))
        return fail("%s %s: not a number of games per opening", opt, av[0]);
    c->cfg->repeat = (int)n;
    c->cfg->repeat_given = true;
    return true;
}

static bool opt_flag(Cli *c, const char *opt, char **av, int ac)
{
    (void)av, (void)ac;
    MatchConfig *cfg = c->cfg;
    if (!strcmp(opt, "-norepeat")) {
        cfg->repeat = 1;
        cfg->repeat_given = true;
    } else if (!strcmp(opt, "-noswap"))
        cfg->swap = false;
    else if (!strcmp(opt, "-reverse"))
        cfg->reverse = true;
    else if (!strcmp(opt, "-quiet"))
        cfg->quiet = true;
    else if (!strcmp(opt, "-debug"))
        cfg->debug = true;
    else if (!strcmp(opt, "-resume"))
        cfg->out.resume = true;
    /* -recover (a crashed engine is always restarted), -force-concurrency:
     * accepted, nothing to do. */
    return true;
}

static bool opt_seed(Cli *c, const char *opt, char **av, int ac)
{
    (void)ac;
    char *end;
    errno = 0;
    if (av[0][0] == '-')
        return fail("%s %s: not a seed", opt, av[0]);
    c->cfg->seed = strtoull(av[0], &end, 0);
    if (end == av[0] || *end || errno)
        return fail("%s %s: not a seed (a number up to 2^64 - 1)", opt, av[0]);
    c->cfg->seed_given = true;
    return true;
}

static bool opt_text(Cli *c, const char *opt, char **av, int ac)
{
    (void)ac;
    if (!strcmp(opt, "-event"))
        return copy_value(c->cfg->out.event, sizeof c->cfg->out.event, av[0], opt);
    if (!strcmp(opt, "-site"))
        return copy_value(c->cfg->out.site, sizeof c->cfg->out.site, av[0], opt);
    return copy_value(c->cfg->out.results_path, sizeof c->cfg->out.results_path, av[0], opt);
}

static bool opt_shard(Cli *c, const char *opt, char **av, int ac)
{
    (void)ac;
    long long k, n;
    const char *slash = strchr(av[0], '/');
    char buf[32];
    if (!slash || (size_t)(slash - av[0]) >= sizeof buf)
        return fail("%s %s: give K/N, e.g. 3/8", opt, av[0]);
    memcpy(buf, av[0], (size_t)(slash - av[0]));
    buf[slash - av[0]] = '\0';
    if (!util_parse_number(buf, 1, 100000, &k) || !util_parse_number(slash + 1, 1, 100000, &n) || k > n)
        return fail("%s %s: give K/N with 1 <= K <= N", opt, av[0]);
    c->cfg->shard_k = (int)k;
    c->cfg->shard_n = (int)n;
    return true;
}

static bool opt_openings(Cli *c, const char *opt, char **av, int ac)
{
    Openings *o = &c->cfg->openings;
    long long v;
    if (ac == 1 && !strncmp(av[0], "random:", 7)) {
        if (!util_parse_number(av[0] + 7, 1, 10000, &v))
            return fail("%s %s: random:PLIES with PLIES from 1 to 10000", opt, av[0]);
        o->random_plies = (int)v;
        return true;
    }
    static const char *const known[] = {"file", "format", "order", "plies", "start", "policy",
                                        NULL};
    if (ac == 0 || !kv_check(av, ac, known, opt))
        return ac ? false : fail("%s needs file=FILE [format=...] or random:PLIES", opt);
    const char *file = kv_get(av, ac, "file"), *format = kv_get(av, ac, "format");
    const char *order = kv_get(av, ac, "order"), *policy = kv_get(av, ac, "policy");
    if (!file || !*file)
        return fail("%s needs file=FILE", opt);
    if (!copy_value(o->path, sizeof o->path, file, "-openings file"))
        return false;
    if (!format)
        o->format = OPENING_FORMAT_AUTO;
    else if (!strcmp(format, "epd"))
        o->format = OPENING_FORMAT_EPD;
    else if (!strcmp(format, "fen"))
        o->format = OPENING_FORMAT_FEN;
    else if (!strcmp(format, "pgn"))
        o->format = OPENING_FORMAT_PGN;
    else
        return fail("%s format=%s: epd, fen or pgn", opt, format);
    if (order && strcmp(order, "sequential") && strcmp(order, "random"))
        return fail("%s order=%s: sequential or random", opt, order);
    o->order_random = order && !strcmp(order, "random");
    if (policy && strcmp(policy, "default"))
        return fail("%s policy=%s is not supported (a new opening for every -repeat group of a "
                    "pairing: policy=default)", opt, policy);
    int plies = -1;
    if (!kv_int(av, ac, "plies", 0, 100000, &plies, opt) ||
        !kv_int(av, ac, "start", 1, 1000000000, &o->start, opt))
        return false;
    o->plies = plies;
    return true;
}

static bool opt_pgnout(Cli *c, const char *opt, char **av, int ac)
{
    MatchConfig *cfg = c->cfg;
    if (ac == 0)
        return fail("%s needs a file", opt);
    if (!strchr(av[0], '=')) { /* cutechess: FILE [min] [fi] */
        for (int i = 1; i < ac; i++) {
            if (!strcmp(av[i], "min"))
                cfg->out.pgn_min = true;
            else if (strcmp(av[i], "fi") != 0) /* fi: only finished games, always so */
                return fail("%s %s: unexpected '%s' (min or fi)", opt, av[0], av[i]);
        }
        return copy_value(cfg->out.pgnout, sizeof cfg->out.pgnout, av[0], opt);
    }
    static const char *const known[] = {"file", "append", "min", "notation", "nodes", "seldepth",
                                        "nps", "hashfull", "tbhits", "pv", "timeleft",
                                        "latency", NULL};
    if (!kv_check(av, ac, known, opt))
        return false;
    const char *file = kv_get(av, ac, "file"), *notation = kv_get(av, ac, "notation");
    if (!file || !*file)
        return fail("%s needs file=FILE", opt);
    if (notation && strcmp(notation, "san") && strcmp(notation, "lan") && strcmp(notation, "uci"))
        return fail("%s notation=%s: san, lan or uci (Sigil games have one notation)", opt,
                    notation);
    static const char *const unrecorded[] = {"seldepth", "nps", "hashfull", "tbhits", "pv",
                                             "timeleft", "latency", NULL};
    for (const char *const *k = unrecorded; *k; k++) {
        bool on = false;
        if (!kv_bool(av, ac, *k, &on, opt))
            return false;
        if (on)
            return fail("%s %s=true: sigil-match does not record %s", opt, *k, *k);
    }
    if (!kv_bool(av, ac, "append", &cfg->out.pgn_append, opt) ||
        !kv_bool(av, ac, "min", &cfg->out.pgn_min, opt) ||
        !kv_bool(av, ac, "nodes", &cfg->out.pgn_nodes, opt))
        return false;
    return copy_value(cfg->out.pgnout, sizeof cfg->out.pgnout, file, opt);
}

static bool opt_epdout(Cli *c, const char *opt, char **av, int ac)
{
    MatchConfig *cfg = c->cfg;
    if (ac == 0)
        return fail("%s needs a file", opt);
    if (!strchr(av[0], '=')) {
        if (ac > 1)
            return fail("%s %s: unexpected '%s'", opt, av[0], av[1]);
        return copy_value(cfg->out.epdout, sizeof cfg->out.epdout, av[0], opt);
    }
    static const char *const known[] = {"file", "append", NULL};
    if (!kv_check(av, ac, known, opt) || !kv_bool(av, ac, "append", &cfg->out.epd_append, opt))
        return false;
    const char *file = kv_get(av, ac, "file");
    if (!file || !*file)
        return fail("%s needs file=FILE", opt);
    return copy_value(cfg->out.epdout, sizeof cfg->out.epdout, file, opt);
}

static bool opt_draw(Cli *c, const char *opt, char **av, int ac)
{
    MatchConfig *cfg = c->cfg;
    static const char *const known[] = {"movenumber", "movecount", "score", NULL};
    if (!kv_check(av, ac, known, opt))
        return false;
    if (!kv_get(av, ac, "movecount") || !kv_get(av, ac, "score"))
        return fail("%s needs movecount=M score=S (and movenumber=N)", opt);
    cfg->adj.draw_movenumber = 0;
    if (!kv_int(av, ac, "movenumber", 0, 100000, &cfg->adj.draw_movenumber, opt) ||
        !kv_int(av, ac, "movecount", 1, 100000, &cfg->adj.draw_movecount, opt) ||
        !kv_int(av, ac, "score", 0, 100000000, &cfg->adj.draw_score, opt))
        return false;
    cfg->adj.draw_adj = true;
    return true;
}

static bool opt_resign(Cli *c, const char *opt, char **av, int ac)
{
    MatchConfig *cfg = c->cfg;
    static const char *const known[] = {"movecount", "score", "twosided", NULL};
    if (!kv_check(av, ac, known, opt))
        return false;
    if (!kv_get(av, ac, "movecount") || !kv_get(av, ac, "score"))
        return fail("%s needs movecount=M score=S", opt);
    if (!kv_int(av, ac, "movecount", 1, 100000, &cfg->adj.resign_movecount, opt) ||
        !kv_int(av, ac, "score", 1, 100000000, &cfg->adj.resign_score, opt) ||
        !kv_bool(av, ac, "twosided", &cfg->adj.resign_twosided, opt))
        return false;
    cfg->adj.resign_adj = true;
    return true;
}

static bool opt_sprt(Cli *c, const char *opt, char **av, int ac)
{
    MatchConfig *cfg = c->cfg;
    static const char *const known[] = {"elo0", "elo1", "alpha", "beta", "model", NULL};
    if (!kv_check(av, ac, known, opt))
        return false;
    struct {
        const char *key;
        double *dst;
    } nums[] = {{"elo0", &cfg->sprt.elo0},
                {"elo1", &cfg->sprt.elo1},
                {"alpha", &cfg->sprt.alpha},
                {"beta", &cfg->sprt.beta}};
    for (int i = 0; i < 4; i++) {
        const char *v = kv_get(av, ac, nums[i].key);
        if (v && !parse_double(v, nums[i].dst))
            return fail("%s %s=%s is not a finite number", opt, nums[i].key, v);
    }
    const char *mo = kv_get(av, ac, "model");
    if (mo && !strcmp(mo, "logistic"))
        cfg->sprt.model = STATS_SPRT_LOGISTIC;
    else if (mo && !strcmp(mo, "normalized"))
        cfg->sprt.model = STATS_SPRT_NORMALIZED;
    else if (mo)
        return fail("%s model=%s: normalized or logistic", opt, mo);
    if (fabs(cfg->sprt.elo0) > 1000 || fabs(cfg->sprt.elo1) > 1000)
        return fail("%s: elo0 and elo1 must lie within +-1000", opt);
    if (!(cfg->sprt.elo0 < cfg->sprt.elo1))
        return fail("%s needs elo0 < elo1", opt);
    if (!(cfg->sprt.alpha > 0 && cfg->sprt.beta > 0 && cfg->sprt.alpha + cfg->sprt.beta < 1))
        return fail("%s needs 0 < alpha, 0 < beta and alpha + beta < 1", opt);
    cfg->sprt.on = true;
    return true;
}

static bool opt_output(Cli *c, const char *opt, char **av, int ac)
{
    static const char *const known[] = {"format", NULL};
    if (!kv_check(av, ac, known, opt))
        return false;
    const char *f = kv_get(av, ac, "format");
    if (!f || (strcmp(f, "cutechess") && strcmp(f, "fastchess")))
        return fail("%s needs format=cutechess or format=fastchess", opt);
    c->cfg->report.output = strcmp(f, "fastchess") ? OUTPUT_CUTECHESS : OUTPUT_FASTCHESS;
    return true;
}

static bool opt_report(Cli *c, const char *opt, char **av, int ac)
{
    static const char *const known[] = {"penta", NULL};
    return kv_check(av, ac, known, opt) && kv_bool(av, ac, "penta", &c->cfg->report.report_penta, opt);
}

static bool opt_unsupported(Cli *c, const char *opt, char **av, int ac)
{
    (void)c, (void)av, (void)ac;
    if (!strncmp(opt, "-tb", 3))
        return fail("%s: Syzygy tablebases are for chess; sigil-match has none", opt);
    if (!strcmp(opt, "-bookmode"))
        return fail("%s: Polyglot books are for chess; give openings with -openings", opt);
    if (!strcmp(opt, "-config") || !strcmp(opt, "-autosaveinterval"))
        return fail("%s: not supported; sigil-match resumes a run from its result file "
                    "(-results FILE -resume)",
                    opt);
    return fail("%s is not supported by sigil-match (see -help)", opt);
}

static const CliOption options[] = {
    {"-engine", ARGS_LIST, "KEY=VALUE ...", "add an engine (keys below)", opt_engine},
    {"-each", ARGS_LIST, "KEY=VALUE ...", "settings for every engine (an engine's own win)",
     opt_each},
    {"-variant", ARGS_ONE, "NAME", "the game (default: the first registered)", opt_variant},
    {"-variants", ARGS_NONE, "", "list the games and exit", opt_variants},
    {"-games", ARGS_ONE, "N", "games per pairing per round (default 2)", opt_number},
    {"-rounds", ARGS_ONE, "N", "rounds (default 1)", opt_number},
    {"-repeat", ARGS_LIST, "[N]", "N games (default 2) from each opening; default: 2 when "
                                  "-games is even, else 1",
     opt_repeat},
    {"-norepeat", ARGS_NONE, "", "a new opening for every game", opt_flag},
    {"-noswap", ARGS_NONE, "", "do not alternate colours within a pairing", opt_flag},
    {"-reverse", ARGS_NONE, "", "the second engine of a pairing starts with White", opt_flag},
    {"-tournament", ARGS_ONE, "round-robin|gauntlet", "pairings with more than two engines",
     opt_tournament},
    {"-seeds", ARGS_ONE, "N", "gauntlet: the first N engines play all the others (default 1)",
     opt_number},
    {"-concurrency", ARGS_ONE, "N", "games played at the same time (default 1)", opt_number},
    {"-force-concurrency", ARGS_NONE, "", "accepted (fastchess); no limit is imposed", opt_flag},
    {"-wait", ARGS_ONE, "MS", "pause between the games of a worker", opt_number},
    {"-openings", ARGS_LIST, "file=F [format=epd|fen|pgn] [order=sequential|random] [plies=N] "
                             "[start=N] | random:PLIES",
     "openings from a book (checked whole at start-up), or PLIES random plies", opt_openings},
    {"-srand|-seed", ARGS_ONE, "N", "seed of openings, book order, dice and built-in players "
                                    "(default: from the clock; always printed)",
     opt_seed},
    {"-pgnout", ARGS_LIST, "FILE [min] [fi] | file=F [append=B] [min=B] [nodes=B] [notation=N]",
     "write the records (appended unless append=false)", opt_pgnout},
    {"-epdout", ARGS_LIST, "FILE | file=F [append=B]", "write each game's final position",
     opt_epdout},
    {"-event", ARGS_ONE, "NAME", "[Event] of the records", opt_text},
    {"-site", ARGS_ONE, "NAME", "[Site] of the records (default ?)", opt_text},
    {"-timemargin", ARGS_ONE, "MS", "tolerance on every time limit (default 50)", opt_time},
    {"-hangtimeout", ARGS_ONE, "S", "limit of a search without clock or movetime (default 60)",
     opt_time},
    {"-starttimeout", ARGS_ONE, "S", "limit for uciok/readyok at start (default 10)", opt_time},
    {"-startup-ms", ARGS_ONE, "MS", "the same in milliseconds (fastchess)", opt_time},
    {"-ucinewgame-ms", ARGS_ONE, "MS", "limit for readyok after ucinewgame (default 10000)",
     opt_time},
    {"-movelimit", ARGS_ONE, "N", "the move limit of games that have one (option MoveLimit)",
     opt_number},
    {"-draw", ARGS_LIST, "movenumber=N movecount=M score=S", "draw adjudication", opt_draw},
    {"-resign", ARGS_LIST, "movecount=M score=S [twosided=true]", "resign adjudication",
     opt_resign},
    {"-maxmoves", ARGS_ONE, "N", "draw after N moves of each side", opt_number},
    {"-sprt", ARGS_LIST, "elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic]",
     "stop when the SPRT on the first pairing decides", opt_sprt},
    {"-ratinginterval", ARGS_ONE, "N", "print the ratings every N games (default 0: at the end)",
     opt_number},
    {"-scoreinterval", ARGS_ONE, "N", "print the Score of ... line every N games (default 1)",
     opt_number},
    {"-outcomeinterval", ARGS_ONE, "N", "print the terminations every N games", opt_number},
    {"-output", ARGS_LIST, "format=cutechess|fastchess", "the rating blocks' style", opt_output},
    {"-report", ARGS_LIST, "penta=B", "accepted (fastchess); pentanomial figures are always given",
     opt_report},
    {"-shard", ARGS_ONE, "K/N", "play only shard K of N of the schedule", opt_shard},
    {"-results", ARGS_ONE, "FILE", "write the result file, game by game (default for -shard: "
                                   "sigil-match-shard-K-of-N.res)",
     opt_text},
    {"-resume", ARGS_NONE, "", "play only the games missing from the result file of this "
                               "run (rewrites -pgnout and -epdout)",
     opt_flag},
    {"-merge", ARGS_LIST, "FILE ...", "combine result files into one report (with -pgnout, "
                                      "-epdout)",
     opt_merge},
    {"-recover", ARGS_NONE, "", "accepted: a crashed engine is always restarted", opt_flag},
    {"-quiet", ARGS_NONE, "", "no line per game; engines' stderr discarded", opt_flag},
    {"-debug", ARGS_NONE, "", "every engine's input and output on stderr", opt_flag},
    {"-replay", ARGS_ONE, "FILE", "replay the records of FILE through the rules (exit 1 on a "
                                  "mismatch)",
     opt_replay},
    {"-version|--version|-v", ARGS_NONE, "", "print the version and exit", opt_version},
    {"-help|--help|-h", ARGS_NONE, "", "this text", opt_help},
    {"-tb|-tbpieces|-tbadjudicate", ARGS_ONE, NULL, NULL, opt_unsupported},
    {"-tbignore50", ARGS_NONE, NULL, NULL, opt_unsupported},
    {"-bookmode|-resultformat|-config|-autosaveinterval|-log|-use-affinity|-crc32|-quick",
     ARGS_LIST, NULL, NULL, opt_unsupported},
    {"-engines|-testEnv|-strict|-show-latency|-check-mate-pvs|--compliance", ARGS_NONE, NULL,
     NULL, opt_unsupported},
};

static bool name_matches(const char *names, const char *arg)
{
    size_t n = strlen(arg);
    for (const char *p = names; *p;) {
        const char *bar = strchr(p, '|');
        size_t len = bar ? (size_t)(bar - p) : strlen(p);
        if (len == n && !strncmp(p, arg, n))
            return true;
        p += len + (bar != NULL);
    }
    return false;
}

void cli_help(FILE *f)
{
    fprintf(f, "usage: sigil-match -engine cmd=PATH [KEY=VALUE ...] -engine ... [OPTIONS]\n"
               "       sigil-match -merge FILE ... [-pgnout FILE] [-epdout FILE]\n"
               "       sigil-match -replay FILE\n\nOptions:\n");
    for (size_t i = 0; i < sizeof options / sizeof *options; i++) {
        const CliOption *o = &options[i];
        if (!o->help)
            continue;
        char head[256];
        snprintf(head, sizeof head, "  %s %s", o->names, o->args);
        if (strlen(head) > 26)
            fprintf(f, "%s\n%28s%s\n", head, "", o->help);
        else
            fprintf(f, "%-28s%s\n", head, o->help);
    }
    fprintf(f, "\nEngine keys (after -engine or -each):\n");
    for (size_t i = 0; i < sizeof engine_keys / sizeof *engine_keys; i++) {
        const EngineKey *k = &engine_keys[i];
        if (!k->help)
            continue;
        char head[256];
        snprintf(head, sizeof head, "  %s%s%s", k->name,
                 k->name[strlen(k->name) - 1] == '.' ? "" : "=", k->value);
        if (strlen(head) > 26)
            fprintf(f, "%s\n%28s%s\n", head, "", k->help);
        else
            fprintf(f, "%-28s%s\n", head, k->help);
    }
    fprintf(f, "  debug                     this engine's input and output on stderr\n");
    fprintf(f, "\nExit status: 0 done, 1 an engine failed the start-up check (or -merge lacks "
               "games, -replay found a mismatch), 2 usage error, 128+N interrupted by signal N.\n");
}

/* ---- putting it together --------------------------------------------------------- */

/* Name an engine after its program (after the script for cmd=sh arg=x.sh). */
static void default_name(EngineSpec *s)
{
    const char *base = strrchr(s->cmd, '/');
    base = base ? base + 1 : s->cmd;
    if (s->nargs > 0 && (!strcmp(base, "sh") || !strcmp(base, "bash") || !strcmp(base, "dash") ||
                         !strcmp(base, "env"))) {
        const char *b = strrchr(s->args[0], '/');
        base = b ? b + 1 : s->args[0];
    }
    snprintf(s->name, sizeof s->name, "%.63s", base);
    char *dot = strrchr(s->name, '.');
    if (dot && dot != s->name && !strcmp(dot, ".sh"))
        *dot = '\0';
    if (!s->name[0]) /* cmd=dir/ (or arg=dir/): no last component to name it after */
        snprintf(s->name, sizeof s->name, "%.63s", s->cmd);
}

static bool build_engines(Cli *c)
{
    MatchConfig *cfg = c->cfg;
    if (c->nengines < 2)
        return fail("need at least two -engine (see -help)");
    cfg->engines = calloc((size_t)c->nengines, sizeof *cfg->engines);
    if (!cfg->engines)
        return fail("out of memory");
    cfg->nengines = c->nengines;
    for (int e = 0; e < c->nengines; e++) {
        EngineSpec *s = &cfg->engines[e];
        s->timemargin_ms = -1;
        for (int k = 0; k < c->neach; k++)
            for (int j = 0; j < c->each_n[k]; j++)
                if (!apply_engine_word(s, c->each_kv[k][j]))
                    return false;
        for (int j = 0; j < c->engine_n[e]; j++)
            if (!apply_engine_word(s, c->engine_kv[e][j]))
                return false;
        if (!s->cmd[0])
            return fail("every -engine needs cmd=");
        if (s->kind == PLAYER_ENGINE && !s->tc.set && !s->st_ms && !s->depth && !s->nodes)
            return fail("engine '%s' needs tc=, st=, depth= or nodes=", s->cmd);
        if (s->kind != PLAYER_ENGINE && s->noptions > 0)
            return fail("the built-in player %s takes no option.", s->cmd);
        if (!s->name_given)
            default_name(s);
    }
    /* Names must tell the players apart in tables and records. */
    for (int e = 1; e < cfg->nengines; e++)
        for (int d = 0; d < e; d++)
            if (!strcmp(cfg->engines[e].name, cfg->engines[d].name)) {
                size_t len = strlen(cfg->engines[e].name);
                if (len > MATCH_NAME_MAX - 8)
                    len = MATCH_NAME_MAX - 8;
                snprintf(cfg->engines[e].name + len, 8, "#%d", (e + 1) % 100);
                d = -1; /* check again */
            }
    return true;
}

/* Everything that can be checked before an engine starts. */
static bool finish(Cli *c)
{
    MatchConfig *cfg = c->cfg;
    if (cfg->mode == MODE_MERGE) {
        if (c->nengines > 0 || cfg->shard_n > 0 || cfg->out.resume)
            return fail("-merge combines result files; it takes no -engine, -shard or -resume");
        return true;
    }
    cfg->variant = c->variant_name ? variants_find(c->variant_name) : variants_default();
    if (!cfg->variant)
        return fail(c->variant_name ? "unknown variant '%s' (see -variants)"
                                    : "no variant is available%s",
                    c->variant_name ? c->variant_name : "");
    if (!build_engines(c))
        return false;
    if (!cfg->repeat_given)
        cfg->repeat = cfg->games % 2 == 0 ? 2 : 1;
    if (cfg->gauntlet && cfg->seeds >= cfg->nengines)
        return fail("-seeds %d leaves no engine for the seeds to play", cfg->seeds);
    long long pairings = cfg->gauntlet ? (long long)cfg->seeds * (cfg->nengines - cfg->seeds)
                                       : (long long)cfg->nengines * (cfg->nengines - 1) / 2;
    if (pairings * cfg->games * cfg->rounds > 100000000LL)
        return fail("%lld games is more than one schedule holds (100000000)",
                    pairings * cfg->games * cfg->rounds);
    if (cfg->shard_n > 0 && !cfg->out.results_path[0])
        snprintf(cfg->out.results_path, sizeof cfg->out.results_path, "sigil-match-shard-%d-of-%d.res",
                 cfg->shard_k, cfg->shard_n);
    if (cfg->out.resume && !cfg->out.results_path[0])
        return fail("-resume continues a result file: give it with -results FILE (or -shard)");
    if (!cfg->seed_given)
        cfg->seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    char err[1400];
    if (!openings_load(&cfg->openings, cfg->variant, &cfg->game_config, cfg->seed, err,
                       sizeof err))
        return fail("%s", err);
    return true;
}

int cli_parse(int argc, char **argv, MatchConfig *cfg)
{
    Cli c;
    memset(&c, 0, sizeof c);
    c.cfg = cfg;
    c.exit_now = -1;
    if (argc < 2) {
        cli_help(stderr);
        return 2;
    }
    for (int i = 1; i < argc && c.exit_now < 0; i++) {
        const char *a = argv[i];
        const CliOption *o = NULL;
        for (size_t k = 0; k < sizeof options / sizeof *options && !o; k++)
            if (name_matches(options[k].names, a))
                o = &options[k];
        if (!o) {
            fail(a[0] == '-' ? "unknown option '%s' (try -help)"
                             : "'%s' is not an option (options start with '-'; try -help)",
                 a);
            return 2;
        }
        char **av = argv + i + 1;
        int ac = 0;
        if (o->shape == ARGS_ONE) {
            if (i + 1 >= argc) {
                fail("%s needs %s", a, o->args ? o->args : "a value");
                return 2;
            }
            ac = 1;
        } else if (o->shape == ARGS_LIST) {
            while (i + 1 + ac < argc && argv[i + 1 + ac][0] != '-')
                ac++;
        }
        i += ac;
        if (!o->apply(&c, a, av, ac))
            return 2;
    }
    if (c.exit_now >= 0)
        return c.exit_now;
    if (cfg->mode == MODE_REPLAY)
        return -1;
    return finish(&c) ? -1 : 2;
}
