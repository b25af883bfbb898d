/* match_main.c - the sigil-match command line (cutechess-cli style). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "match.h"
#include "record.h"
#include "variants.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: sigil-match -engine cmd=PATH [key=value ...] -engine ... [options]\n"
"       sigil-match -replay FILE\n"
"\n"
"Engine keys (for -engine, or -each for every engine):\n"
"  cmd=PATH           the engine program; cmd=random and cmd=greedy are built in\n"
"  name=NAME          name in the tables and records (default: from cmd)\n"
"  arg=ARG            an argument for the program (repeatable)\n"
"  dir=DIR            working directory of the program\n"
"  proto=uci|ugi      protocol (default uci)\n"
"  option.NAME=VALUE  sent as `setoption name NAME value VALUE`\n"
"  tc=[MOVES/]SECONDS[+INC]   clock, e.g. 40/10+0.1, 10+0.1, 5, 1:30 (or inf)\n"
"  st=SECONDS         fixed time per move (go movetime)\n"
"  depth=N, nodes=N   search limits (with or without a clock)\n"
"\n"
"Options:\n"
"  -variant NAME      game (default: the first registered); -variants lists them\n"
"  -games N           games per pairing per round (default 2)\n"
"  -rounds N          rounds (default 1)\n"
"  -tournament round-robin|gauntlet   with more than two engines\n"
"  -concurrency N     games played at the same time (default 1)\n"
"  -openings random:PLIES | file=FENS.txt   random openings of PLIES plies, or\n"
"                     one FEN per line, cycled\n"
"  -repeat, -norepeat colour-reversed pairs from one opening (default: on when\n"
"                     -games is even)\n"
"  -pgnout FILE       append game records to FILE\n"
"  -seed N            seed of openings, dice and built-in players\n"
"  -timemargin MS     tolerance on every time limit (default 50)\n"
"  -hangtimeout S     limit of a search without clock or movetime (default 60)\n"
"  -starttimeout S    limit for uciok/readyok (default 10)\n"
"  -movelimit N       Salto move limit per side (sent as option MoveLimit)\n"
"  -draw movenumber=N movecount=M score=S     draw adjudication\n"
"  -resign movecount=M score=S [twosided=true] resign adjudication\n"
"  -maxmoves N        draw after N moves of each side\n"
"  -sprt elo0=E0 elo1=E1 alpha=A beta=B [model=normalized|logistic]\n"
"                     stop as soon as the SPRT decides (pairing 1)\n"
"  -event NAME        [Event] of the records\n"
"  -recover           accepted: crashed engines are always restarted\n"
"  -quiet             no line per game; engines' stderr discarded\n"
"  -debug             engine input/output on stderr\n"
"  -replay FILE       replay every record of FILE through the rules and print\n"
"                     each final position and result (exit 1 on a mismatch)\n"
"  -help              this text\n");
}

static int die(const char *fmt, const char *arg)
{
    fprintf(stderr, "sigil-match: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n");
    return 2;
}

static bool parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end)
        return false;
    *out = v;
    return true;
}

/* Apply one key=value to an engine; false with a message on error. */
static bool apply_engine_key(EngineSpec *e, const char *kv)
{
    const char *eq = strchr(kv, '=');
    if (!eq) {
        fprintf(stderr, "sigil-match: engine setting '%s' is not key=value\n", kv);
        return false;
    }
    char key[128];
    size_t kl = (size_t)(eq - kv);
    if (kl >= sizeof key)
        kl = sizeof key - 1;
    memcpy(key, kv, kl);
    key[kl] = '\0';
    const char *val = eq + 1;
    long long n;
    double d;
    if (!strcmp(key, "cmd")) {
        snprintf(e->cmd, sizeof e->cmd, "%s", val);
        e->kind = players_kind(val);
    } else if (!strcmp(key, "name")) {
        snprintf(e->name, sizeof e->name, "%s", val);
        e->name_given = true;
    } else if (!strcmp(key, "arg")) {
        if (e->nargs >= MATCH_MAX_ARGS) {
            fprintf(stderr, "sigil-match: too many arg= settings\n");
            return false;
        }
        e->args[e->nargs++] = strdup(val);
    } else if (!strcmp(key, "dir")) {
        snprintf(e->dir, sizeof e->dir, "%s", val);
    } else if (!strcmp(key, "proto")) {
        if (strcmp(val, "uci") && strcmp(val, "ugi")) {
            fprintf(stderr, "sigil-match: proto must be uci or ugi\n");
            return false;
        }
        e->ugi = !strcmp(val, "ugi");
    } else if (!strncmp(key, "option.", 7) && key[7]) {
        for (int i = 0; i < e->noptions; i++)
            if (!strcmp(e->options[i].name, key + 7)) { /* later wins */
                snprintf(e->options[i].value, sizeof e->options[i].value, "%s", val);
                return true;
            }
        if (e->noptions >= MATCH_MAX_OPTIONS) {
            fprintf(stderr, "sigil-match: too many options\n");
            return false;
        }
        snprintf(e->options[e->noptions].name, sizeof e->options[0].name, "%.63s", key + 7);
        snprintf(e->options[e->noptions++].value, sizeof e->options[0].value, "%s", val);
    } else if (!strcmp(key, "tc")) {
        if (!match_parse_tc(val, &e->tc)) {
            fprintf(stderr, "sigil-match: bad time control '%s'\n", val);
            return false;
        }
    } else if (!strcmp(key, "st")) {
        if (!parse_double(val, &d) || d <= 0) {
            fprintf(stderr, "sigil-match: bad st '%s'\n", val);
            return false;
        }
        e->st_ms = (int64_t)(d * 1000.0 + 0.5);
        if (e->st_ms < 1)
            e->st_ms = 1;
    } else if (!strcmp(key, "depth")) {
        if (!parse_int(val, 1, 1000, &n)) {
            fprintf(stderr, "sigil-match: bad depth '%s'\n", val);
            return false;
        }
        e->depth = (int)n;
    } else if (!strcmp(key, "nodes")) {
        if (!parse_int(val, 1, (long long)1 << 60, &n)) {
            fprintf(stderr, "sigil-match: bad nodes '%s'\n", val);
            return false;
        }
        e->nodes = n;
    } else {
        fprintf(stderr, "sigil-match: unknown engine setting '%s'\n", key);
        return false;
    }
    return true;
}

/* Collect the key=value arguments following argv[*i]. */
static int collect(int argc, char **argv, int *i, char ***out)
{
    int start = *i + 1, n = 0;
    while (start + n < argc && argv[start + n][0] != '-')
        n++;
    *out = argv + start;
    *i += n;
    return n;
}

/* Look up key in key=value args; NULL when absent. */
static const char *kv_get(char **kv, int n, const char *key)
{
    size_t kl = strlen(key);
    for (int i = 0; i < n; i++)
        if (!strncmp(kv[i], key, kl) && kv[i][kl] == '=')
            return kv[i] + kl + 1;
    return NULL;
}

static bool kv_check(char **kv, int n, const char *const *known, const char *opt)
{
    for (int i = 0; i < n; i++) {
        bool ok = false;
        for (const char *const *k = known; *k; k++) {
            size_t kl = strlen(*k);
            ok |= !strncmp(kv[i], *k, kl) && kv[i][kl] == '=';
        }
        if (!ok) {
            fprintf(stderr, "sigil-match: %s: unexpected '%s'\n", opt, kv[i]);
            return false;
        }
    }
    return true;
}

static bool load_fens(MatchConfig *cfg, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "sigil-match: cannot read openings file %s\n", path);
        return false;
    }
    char line[1024];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ' '))
            line[--len] = '\0';
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        Position pos;
        char err[160];
        if (!cfg->variant->from_fen(&pos, p, &cfg->game_config, err, sizeof err)) {
            fprintf(stderr, "sigil-match: %s:%d: bad FEN: %s\n", path, lineno, err);
            fclose(f);
            return false;
        }
        char **v = realloc(cfg->opening_fens, (size_t)(cfg->nopening_fens + 1) * sizeof *v);
        if (!v) {
            fclose(f);
            return false;
        }
        cfg->opening_fens = v;
        cfg->opening_fens[cfg->nopening_fens++] = strdup(p);
    }
    fclose(f);
    if (cfg->nopening_fens == 0) {
        fprintf(stderr, "sigil-match: no FEN in %s\n", path);
        return false;
    }
    return true;
}

int main(int argc, char **argv)
{
    variants_init();
    MatchConfig cfg;
    match_config_defaults(&cfg);
    char **engine_kv[64];
    int engine_n[64];
    int nengines = 0;
    char **each_kv[16];
    int each_n[16];
    int neach = 0;
    const char *variant_name = NULL, *openings = NULL;
    bool repeat_given = false, seed_given = false;
    long long v;

    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "-help") || !strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-replay")) {
            if (!next)
                return die("%s needs a file", a);
            int count = 0;
            int failed = record_replay_file(next, stdout, &count);
            if (failed < 0)
                return die("cannot read %s", next);
            printf("replayed %d record%s, %d failed\n", count, count == 1 ? "" : "s", failed);
            return failed ? 1 : 0;
        } else if (!strcmp(a, "-variants")) {
            for (int k = 0; k < variants_count(); k++)
                printf("%s\t%s\n", variants_get(k)->name, variants_get(k)->title);
            return 0;
        } else if (!strcmp(a, "-engine")) {
            if (nengines >= 64)
                return die("%s", "too many engines");
            engine_n[nengines] = collect(argc, argv, &i, &engine_kv[nengines]);
            nengines++;
        } else if (!strcmp(a, "-each")) {
            if (neach >= 16)
                return die("%s", "too many -each");
            each_n[neach] = collect(argc, argv, &i, &each_kv[neach]);
            neach++;
        } else if (!strcmp(a, "-variant")) {
            if (!next)
                return die("%s needs a name", a);
            variant_name = argv[++i];
        } else if (!strcmp(a, "-games") || !strcmp(a, "-rounds") || !strcmp(a, "-concurrency") ||
                   !strcmp(a, "-maxmoves") || !strcmp(a, "-movelimit")) {
            if (!next || !parse_int(next, a[1] == 'm' ? 0 : 1, 1000000, &v))
                return die("%s needs a number", a);
            i++;
            if (!strcmp(a, "-games"))
                cfg.games = (int)v;
            else if (!strcmp(a, "-rounds"))
                cfg.rounds = (int)v;
            else if (!strcmp(a, "-concurrency"))
                cfg.concurrency = (int)v;
            else if (!strcmp(a, "-maxmoves"))
                cfg.maxmoves = (int)v;
            else {
                if (v < 1)
                    return die("%s must be at least 1", a);
                cfg.game_config.move_limit = (int)v;
                cfg.move_limit_given = true;
            }
        } else if (!strcmp(a, "-tournament")) {
            if (!next)
                return die("%s needs a type", a);
            i++;
            if (!strcmp(next, "gauntlet"))
                cfg.gauntlet = true;
            else if (!strcmp(next, "round-robin") || !strcmp(next, "roundrobin"))
                cfg.gauntlet = false;
            else
                return die("unknown tournament type '%s'", next);
        } else if (!strcmp(a, "-openings")) {
            if (!next)
                return die("%s needs random:PLIES or file=PATH", a);
            openings = argv[++i];
        } else if (!strcmp(a, "-repeat") || !strcmp(a, "-norepeat")) {
            cfg.repeat = !strcmp(a, "-repeat");
            repeat_given = true;
        } else if (!strcmp(a, "-pgnout")) {
            if (!next)
                return die("%s needs a file", a);
            snprintf(cfg.pgnout, sizeof cfg.pgnout, "%s", argv[++i]);
        } else if (!strcmp(a, "-event")) {
            if (!next)
                return die("%s needs a name", a);
            snprintf(cfg.event, sizeof cfg.event, "%s", argv[++i]);
        } else if (!strcmp(a, "-seed")) {
            char *end;
            if (!next)
                return die("%s needs a number", a);
            errno = 0;
            cfg.seed = strtoull(next, &end, 0);
            if (end == next || *end || errno)
                return die("bad seed '%s'", next);
            seed_given = true;
            i++;
        } else if (!strcmp(a, "-timemargin")) {
            if (!next || !parse_int(next, 0, 10000000, &v))
                return die("%s needs milliseconds", a);
            cfg.timemargin_ms = v;
            i++;
        } else if (!strcmp(a, "-hangtimeout") || !strcmp(a, "-starttimeout")) {
            double d;
            if (!next || !parse_double(next, &d) || d <= 0)
                return die("%s needs seconds", a);
            if (a[1] == 'h')
                cfg.hang_timeout_ms = (int64_t)(d * 1000);
            else
                cfg.start_timeout_ms = (int64_t)(d * 1000);
            i++;
        } else if (!strcmp(a, "-draw")) {
            char **kv;
            int n = collect(argc, argv, &i, &kv);
            static const char *const known[] = {"movenumber", "movecount", "score", NULL};
            if (!kv_check(kv, n, known, a))
                return 2;
            const char *mn = kv_get(kv, n, "movenumber"), *mc = kv_get(kv, n, "movecount"),
                       *sc = kv_get(kv, n, "score");
            long long x, y, z;
            if (!mc || !sc || !parse_int(mc, 1, 100000, &y) || !parse_int(sc, 0, 100000000, &z) ||
                (mn && !parse_int(mn, 0, 100000, &x)))
                return die("%s", "-draw needs movenumber=N movecount=M score=S");
            cfg.draw_adj = true;
            cfg.draw_movenumber = mn ? (int)x : 0;
            cfg.draw_movecount = (int)y;
            cfg.draw_score = (int)z;
        } else if (!strcmp(a, "-resign")) {
            char **kv;
            int n = collect(argc, argv, &i, &kv);
            static const char *const known[] = {"movecount", "score", "twosided", NULL};
            if (!kv_check(kv, n, known, a))
                return 2;
            const char *mc = kv_get(kv, n, "movecount"), *sc = kv_get(kv, n, "score"),
                       *ts = kv_get(kv, n, "twosided");
            long long y, z;
            if (!mc || !sc || !parse_int(mc, 1, 100000, &y) || !parse_int(sc, 1, 100000000, &z))
                return die("%s", "-resign needs movecount=M score=S");
            cfg.resign_adj = true;
            cfg.resign_movecount = (int)y;
            cfg.resign_score = (int)z;
            cfg.resign_twosided = ts && !strcmp(ts, "true");
        } else if (!strcmp(a, "-sprt")) {
            char **kv;
            int n = collect(argc, argv, &i, &kv);
            static const char *const known[] = {"elo0", "elo1", "alpha", "beta", "model", NULL};
            if (!kv_check(kv, n, known, a))
                return 2;
            const char *e0 = kv_get(kv, n, "elo0"), *e1 = kv_get(kv, n, "elo1"),
                       *al = kv_get(kv, n, "alpha"), *be = kv_get(kv, n, "beta"),
                       *mo = kv_get(kv, n, "model");
            if ((e0 && !parse_double(e0, &cfg.sprt_elo0)) ||
                (e1 && !parse_double(e1, &cfg.sprt_elo1)) ||
                (al && !parse_double(al, &cfg.sprt_alpha)) ||
                (be && !parse_double(be, &cfg.sprt_beta)))
                return die("%s", "-sprt: bad number");
            if (mo && !strcmp(mo, "logistic"))
                cfg.sprt_model = STATS_SPRT_LOGISTIC;
            else if (mo && strcmp(mo, "normalized"))
                return die("-sprt: unknown model '%s'", mo);
            if (cfg.sprt_elo0 >= cfg.sprt_elo1 || cfg.sprt_alpha <= 0 || cfg.sprt_beta <= 0 ||
                cfg.sprt_alpha + cfg.sprt_beta >= 1)
                return die("%s", "-sprt needs elo0 < elo1 and 0 < alpha, beta with alpha + beta < 1");
            cfg.sprt = true;
        } else if (!strcmp(a, "-recover")) {
            /* always on */
        } else if (!strcmp(a, "-quiet")) {
            cfg.quiet = true;
        } else if (!strcmp(a, "-debug")) {
            cfg.debug = true;
        } else {
            fprintf(stderr, "sigil-match: unknown option '%s' (try -help)\n", a);
            return 2;
        }
    }

    cfg.variant = variant_name ? variants_find(variant_name) : variants_default();
    if (!cfg.variant)
        return die(variant_name ? "unknown variant '%s' (see -variants)" : "%s",
                   variant_name ? variant_name : "no variant is available");
    if (nengines < 2)
        return die("%s", "need at least two -engine");
    cfg.engines = calloc((size_t)nengines, sizeof *cfg.engines);
    cfg.nengines = nengines;
    for (int e = 0; e < nengines; e++) {
        EngineSpec *s = &cfg.engines[e];
        for (int k = 0; k < neach; k++)
            for (int j = 0; j < each_n[k]; j++)
                if (!apply_engine_key(s, each_kv[k][j]))
                    return 2;
        for (int j = 0; j < engine_n[e]; j++)
            if (!apply_engine_key(s, engine_kv[e][j]))
                return 2;
        if (!s->cmd[0])
            return die("%s", "every -engine needs cmd=");
        if (s->kind == PLAYER_ENGINE && !s->tc.set && !s->st_ms && !s->depth && !s->nodes)
            return die("engine '%s' needs tc=, st=, depth= or nodes=", s->cmd);
        if (!s->name_given) {
            const char *base = strrchr(s->cmd, '/');
            base = base ? base + 1 : s->cmd;
            /* cmd=/bin/sh arg=engine.sh: name it after the script. */
            if (s->nargs > 0 && (!strcmp(base, "sh") || !strcmp(base, "bash") ||
                                 !strcmp(base, "dash") || !strcmp(base, "env"))) {
                const char *b = strrchr(s->args[0], '/');
                base = b ? b + 1 : s->args[0];
            }
            snprintf(s->name, sizeof s->name, "%.63s", base);
            char *dot = strrchr(s->name, '.');
            if (dot && dot != s->name && !strcmp(dot, ".sh"))
                *dot = '\0';
        }
    }
    /* Names must tell the players apart in tables and records. */
    for (int e = 1; e < nengines; e++)
        for (int d = 0; d < e; d++)
            if (!strcmp(cfg.engines[e].name, cfg.engines[d].name)) {
                size_t len = strlen(cfg.engines[e].name);
                if (len > MATCH_NAME_MAX - 8)
                    len = MATCH_NAME_MAX - 8;
                snprintf(cfg.engines[e].name + len, 8, "#%d", (e + 1) % 100);
                d = -1; /* check again */
            }
    if (!repeat_given)
        cfg.repeat = cfg.games % 2 == 0;
    if (openings) {
        if (!strncmp(openings, "random:", 7)) {
            if (!parse_int(openings + 7, 1, 10000, &v))
                return die("bad -openings '%s'", openings);
            cfg.opening_plies = (int)v;
        } else if (!strncmp(openings, "file=", 5)) {
            if (!load_fens(&cfg, openings + 5))
                return 2;
        } else {
            return die("-openings takes random:PLIES or file=PATH, not '%s'", openings);
        }
    }
    if (!seed_given)
        cfg.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32);
    if (cfg.sprt && nengines > 2)
        fprintf(stderr, "sigil-match: note: the SPRT follows the first pairing only\n");
    int rc = match_run(&cfg);
    for (int e = 0; e < nengines; e++)
        for (int k = 0; k < cfg.engines[e].nargs; k++)
            free(cfg.engines[e].args[k]);
    free(cfg.engines);
    for (int k = 0; k < cfg.nopening_fens; k++)
        free(cfg.opening_fens[k]);
    free(cfg.opening_fens);
    return rc;
}
