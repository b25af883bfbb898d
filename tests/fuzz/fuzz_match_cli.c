/* fuzz_match_cli.c - libFuzzer target: sigil-match's command line.
 *
 * Input: the arguments after the program name, one per line (a line ends at
 * '\n'; NUL bytes end an argument early).  cli_parse runs on them as
 * sigil-match's main would, then the configuration is released.
 *   - the answer is "go on" (-1), 0 (-help, -version, -variants) or 2 (a usage
 *     error), nothing else;
 *   - a usage error says so on stderr: one line "sigil-match: ..." (the usage
 *     text for an empty command line); an accepted command line prints
 *     nothing there;
 *   - a configuration to play has a variant, at least two players, each with
 *     a program and a name, the names all different, at least one game,
 *     round and worker, at most 10^8 games, and a loaded book when a book
 *     was named; a merge names its files;
 *   - an accepted configuration, written back as a command line (every
 *     setting spelled out, see write_config) and parsed again, is accepted
 *     silently and gives the same configuration;
 *   - whatever the answer, releasing the configuration frees everything
 *     (LeakSanitizer checks every input).
 * A book named with file=PATH is looked for under a directory that does not
 * exist, so that no input reads a file (a book of /dev/zero is the user's own
 * business, and a run must not depend on the files around it); the
 * openings target fuzzes book files.  stderr is captured in memory while
 * cli_parse runs; other messages go nowhere (-close_fd_mask=3). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>

#include "cli.h"
#include "fuzz.h"
#include "match.h"
#include "variants.h"

#define MAX_ARGS 64

#define NO_DIRECTORY "file=/nonexistent/sigil-fuzz/"

FUZZ_DEFAULTS("match_cli.dict", "-close_fd_mask=3")

/* ---- a command line written from a configuration ------------------------- */

/* Room for every word of a full configuration: 64 engines with 32
 * arguments, 16 initstr and 64 options each, 4096 merge files. */
#define ARGV_MAX (MATCH_MAX_MERGE + MATCH_MAX_ENGINES * 128 + 128)

typedef struct Argv {
    char *word[ARGV_MAX + 1];
    int n;
} Argv;

static void add(Argv *a, const char *fmt, ...)
{
    FUZZ_CHECK(a->n < ARGV_MAX, "more than %d words", ARGV_MAX);
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *w = malloc((size_t)len + 1);
    FUZZ_CHECK(w != NULL, "out of memory");
    va_start(ap, fmt);
    vsnprintf(w, (size_t)len + 1, fmt, ap);
    va_end(ap);
    a->word[a->n++] = w;
    a->word[a->n] = NULL;
}

static void argv_free(Argv *a)
{
    for (int i = 0; i < a->n; i++)
        free(a->word[i]);
    a->n = 0;
}

/* Milliseconds as seconds with three decimals (exact through strtod). */
#define SECONDS(ms) (long long)((ms) / 1000), (long long)((ms) % 1000)

static const char *yes(bool b) { return b ? "true" : "false"; }

static void write_engine(Argv *a, const EngineSpec *s)
{
    add(a, "-engine");
    add(a, "cmd=%s", s->cmd);
    add(a, "name=%s", s->name);
    for (int i = 0; i < s->nargs; i++)
        add(a, "arg=%s", s->args[i]);
    if (s->dir[0])
        add(a, "dir=%s", s->dir);
    if (s->stderr_path[0])
        add(a, "stderr=%s", s->stderr_path);
    for (int i = 0; i < s->ninitstr; i++)
        add(a, "initstr=%s", s->initstr[i]);
    add(a, "proto=%s", s->ugi ? "ugi" : "uci");
    for (int i = 0; i < s->noptions; i++)
        add(a, "option.%s=%s", s->options[i].name, s->options[i].value);
    if (s->tc.set) {
        if (s->tc.moves)
            add(a, "tc=%d/%lld.%03lld+%lld.%03lld", s->tc.moves, SECONDS(s->tc.base_ms),
                SECONDS(s->tc.inc_ms));
        else
            add(a, "tc=%lld.%03lld+%lld.%03lld", SECONDS(s->tc.base_ms), SECONDS(s->tc.inc_ms));
    }
    if (s->st_ms)
        add(a, "st=%lld.%03lld", SECONDS(s->st_ms));
    if (s->depth)
        add(a, "depth=%d", s->depth);
    if (s->nodes)
        add(a, "nodes=%lld", s->nodes);
    if (s->timemargin_ms >= 0)
        add(a, "timemargin=%lld", (long long)s->timemargin_ms);
    add(a, "restart=%s", s->restart == RESTART_ON ? "on" : s->restart == RESTART_OFF ? "off" : "auto");
    if (s->debug)
        add(a, "debug");
}

/* Every setting of cfg (a configuration cli_parse accepted) as options. */
static void write_config(Argv *a, const MatchConfig *cfg)
{
    add(a, "sigil-match");
    if (cfg->mode == MODE_REPLAY) {
        add(a, "-replay");
        add(a, "%s", cfg->replay_file);
        return;
    }
    if (cfg->mode == MODE_MERGE) {
        add(a, "-merge");
        for (int i = 0; i < cfg->nmerge; i++)
            add(a, "%s", cfg->merge_files[i]);
    } else {
        add(a, "-variant");
        add(a, "%s", cfg->variant->name);
        for (int e = 0; e < cfg->nengines; e++)
            write_engine(a, &cfg->engines[e]);
        add(a, "-games"), add(a, "%d", cfg->games);
        add(a, "-rounds"), add(a, "%d", cfg->rounds);
        add(a, "-repeat"), add(a, "%d", cfg->repeat);
        add(a, "-tournament"), add(a, "%s", cfg->gauntlet ? "gauntlet" : "round-robin");
        add(a, "-seeds"), add(a, "%d", cfg->seeds);
        add(a, "-concurrency"), add(a, "%d", cfg->concurrency);
        add(a, "-wait"), add(a, "%d", cfg->wait_ms);
        if (!cfg->swap)
            add(a, "-noswap");
        if (cfg->reverse)
            add(a, "-reverse");
        add(a, "-srand"), add(a, "%llu", (unsigned long long)cfg->seed);
        if (cfg->move_limit_given)
            add(a, "-movelimit"), add(a, "%d", cfg->game_config.move_limit);
        add(a, "-maxmoves"), add(a, "%d", cfg->adj.maxmoves);
        if (cfg->openings.random_plies)
            add(a, "-openings"), add(a, "random:%d", cfg->openings.random_plies);
        if (cfg->openings.path[0]) {
            static const char *const formats[] = {"auto", "fen", "epd", "pgn"};
            add(a, "-openings");
            add(a, "file=%s", cfg->openings.path);
            if (cfg->openings.format != OPENING_FORMAT_AUTO)
                add(a, "format=%s", formats[cfg->openings.format]);
            add(a, "order=%s", cfg->openings.order_random ? "random" : "sequential");
            if (cfg->openings.plies >= 0)
                add(a, "plies=%d", cfg->openings.plies);
            add(a, "start=%d", cfg->openings.start);
        }
        add(a, "-event"), add(a, "%s", cfg->out.event);
        add(a, "-site"), add(a, "%s", cfg->out.site);
        add(a, "-timemargin"), add(a, "%lld", (long long)cfg->limits.timemargin_ms);
        add(a, "-hangtimeout"), add(a, "%lld.%03lld", SECONDS(cfg->limits.hang_timeout_ms));
        add(a, "-startup-ms"), add(a, "%lld", (long long)cfg->limits.start_timeout_ms);
        add(a, "-ucinewgame-ms"), add(a, "%lld", (long long)cfg->limits.newgame_timeout_ms);
        if (cfg->adj.draw_adj) {
            add(a, "-draw");
            add(a, "movenumber=%d", cfg->adj.draw_movenumber);
            add(a, "movecount=%d", cfg->adj.draw_movecount);
            add(a, "score=%d", cfg->adj.draw_score);
        }
        if (cfg->adj.resign_adj) {
            add(a, "-resign");
            add(a, "movecount=%d", cfg->adj.resign_movecount);
            add(a, "score=%d", cfg->adj.resign_score);
            add(a, "twosided=%s", yes(cfg->adj.resign_twosided));
        }
        if (cfg->sprt.on) {
            add(a, "-sprt");
            add(a, "elo0=%.17g", cfg->sprt.elo0);
            add(a, "elo1=%.17g", cfg->sprt.elo1);
            add(a, "alpha=%.17g", cfg->sprt.alpha);
            add(a, "beta=%.17g", cfg->sprt.beta);
            add(a, "model=%s", cfg->sprt.model == STATS_SPRT_LOGISTIC ? "logistic" : "normalized");
        }
        add(a, "-ratinginterval"), add(a, "%d", cfg->report.rating_interval);
        add(a, "-scoreinterval"), add(a, "%d", cfg->report.score_interval);
        add(a, "-outcomeinterval"), add(a, "%d", cfg->report.outcome_interval);
        add(a, "-output"), add(a, "format=%s", cfg->report.output == OUTPUT_FASTCHESS ? "fastchess" : "cutechess");
        add(a, "-report"), add(a, "penta=%s", yes(cfg->report.report_penta));
        if (cfg->shard_n)
            add(a, "-shard"), add(a, "%d/%d", cfg->shard_k, cfg->shard_n);
        if (cfg->out.results_path[0])
            add(a, "-results"), add(a, "%s", cfg->out.results_path);
        if (cfg->quiet)
            add(a, "-quiet");
        if (cfg->debug)
            add(a, "-debug");
    }
    if (cfg->out.pgnout[0]) {
        add(a, "-pgnout");
        add(a, "file=%s", cfg->out.pgnout);
        add(a, "append=%s", yes(cfg->out.pgn_append));
        add(a, "min=%s", yes(cfg->out.pgn_min));
        add(a, "nodes=%s", yes(cfg->out.pgn_nodes));
    }
    if (cfg->out.epdout[0]) {
        add(a, "-epdout");
        add(a, "file=%s", cfg->out.epdout);
        add(a, "append=%s", yes(cfg->out.epd_append));
    }
}

/* ---- comparing two configurations ------------------------------------------ */

#define SAME_INT(field)                                                                    \
    FUZZ_CHECK(x->field == y->field, "%s: %lld, written back %lld", #field,                \
               (long long)x->field, (long long)y->field)
#define SAME_STR(field)                                                                    \
    FUZZ_CHECK(!strcmp(x->field, y->field), "%s: '%s', written back '%s'", #field, x->field, \
               y->field)

static void same_engine(const EngineSpec *x, const EngineSpec *y)
{
    SAME_STR(name);
    SAME_STR(cmd);
    SAME_INT(nargs);
    for (int i = 0; i < x->nargs; i++)
        SAME_STR(args[i]);
    SAME_STR(dir);
    SAME_STR(stderr_path);
    SAME_INT(ninitstr);
    for (int i = 0; i < x->ninitstr; i++)
        SAME_STR(initstr[i]);
    SAME_INT(ugi);
    SAME_INT(kind);
    SAME_INT(noptions);
    for (int i = 0; i < x->noptions; i++) {
        SAME_STR(options[i].name);
        SAME_STR(options[i].value);
    }
    SAME_INT(tc.set);
    SAME_INT(tc.moves);
    SAME_INT(tc.base_ms);
    SAME_INT(tc.inc_ms);
    SAME_INT(st_ms);
    SAME_INT(depth);
    SAME_INT(nodes);
    SAME_INT(timemargin_ms);
    SAME_INT(restart);
    SAME_INT(debug);
}

static void same_config(const MatchConfig *x, const MatchConfig *y)
{
    SAME_INT(mode);
    if (x->mode == MODE_REPLAY) {
        SAME_STR(replay_file);
        return;
    }
    SAME_STR(out.pgnout);
    SAME_STR(out.epdout);
    if (x->out.pgnout[0]) {
        SAME_INT(out.pgn_append);
        SAME_INT(out.pgn_min);
        SAME_INT(out.pgn_nodes);
    }
    if (x->out.epdout[0])
        SAME_INT(out.epd_append);
    if (x->mode == MODE_MERGE) {
        SAME_INT(nmerge);
        for (int i = 0; i < x->nmerge; i++)
            SAME_STR(merge_files[i]);
        return;
    }
    FUZZ_CHECK(x->variant == y->variant, "another variant written back");
    SAME_INT(game_config.move_limit);
    SAME_INT(nengines);
    for (int e = 0; e < x->nengines; e++)
        same_engine(&x->engines[e], &y->engines[e]);
    SAME_INT(games);
    SAME_INT(rounds);
    SAME_INT(gauntlet);
    SAME_INT(seeds);
    SAME_INT(concurrency);
    SAME_INT(repeat);
    SAME_INT(swap);
    SAME_INT(reverse);
    SAME_INT(wait_ms);
    SAME_INT(openings.random_plies);
    SAME_STR(openings.path);
    if (x->openings.path[0]) {
        SAME_INT(openings.format);
        SAME_INT(openings.order_random);
        SAME_INT(openings.plies);
        SAME_INT(openings.start);
        SAME_INT(openings.count);
    }
    SAME_STR(out.results_path);
    SAME_STR(out.event);
    SAME_STR(out.site);
    SAME_INT(seed);
    SAME_INT(shard_k);
    SAME_INT(shard_n);
    SAME_INT(limits.timemargin_ms);
    SAME_INT(limits.hang_timeout_ms);
    SAME_INT(limits.start_timeout_ms);
    SAME_INT(limits.newgame_timeout_ms);
    SAME_INT(limits.kill_grace_ms);
    SAME_INT(adj.draw_adj);
    if (x->adj.draw_adj) {
        SAME_INT(adj.draw_movenumber);
        SAME_INT(adj.draw_movecount);
        SAME_INT(adj.draw_score);
    }
    SAME_INT(adj.resign_adj);
    if (x->adj.resign_adj) {
        SAME_INT(adj.resign_movecount);
        SAME_INT(adj.resign_score);
        SAME_INT(adj.resign_twosided);
    }
    SAME_INT(adj.maxmoves);
    SAME_INT(sprt.on);
    if (x->sprt.on) {
        FUZZ_CHECK(x->sprt.elo0 == y->sprt.elo0 && x->sprt.elo1 == y->sprt.elo1 &&
                       x->sprt.alpha == y->sprt.alpha && x->sprt.beta == y->sprt.beta,
                   "SPRT bounds written back differ");
        SAME_INT(sprt.model);
    }
    SAME_INT(report.rating_interval);
    SAME_INT(report.score_interval);
    SAME_INT(report.outcome_interval);
    SAME_INT(report.output);
    SAME_INT(report.report_penta);
    SAME_INT(quiet);
    SAME_INT(debug);
}

/* ---- one input ------------------------------------------------------------- */

/* cli_parse with stderr captured: what it printed goes to *said (malloc'd). */
static int parse_capturing(int argc, char **argv, MatchConfig *cfg, char **said)
{
    size_t len = 0;
    FILE *capture = open_memstream(said, &len);
    FUZZ_CHECK(capture != NULL, "open_memstream failed");
    FILE *saved = stderr;
    stderr = capture;
    int rc = cli_parse(argc, argv, cfg);
    stderr = saved;
    fclose(capture);
    return rc;
}

static void check_message(int rc, int argc, const char *said)
{
    if (rc != 2) {
        FUZZ_CHECK(!said[0], "accepted (%d), yet stderr says '%.200s'", rc, said);
        return;
    }
    if (argc < 2) {
        FUZZ_CHECK(!strncmp(said, "usage: ", 7), "no usage text for an empty command line");
        return;
    }
    const char *nl = strchr(said, '\n');
    FUZZ_CHECK(!strncmp(said, "sigil-match: ", 13) && nl && nl[1] == '\0' &&
                   nl - said > 13,
               "a usage error, not one message line: '%.200s'", said);
}

static void check_play(const MatchConfig *cfg)
{
    FUZZ_CHECK(cfg->variant != NULL, "a run without a variant");
    FUZZ_CHECK(cfg->nengines >= 2 && cfg->engines, "a run with %d players", cfg->nengines);
    for (int e = 0; e < cfg->nengines; e++) {
        const EngineSpec *s = &cfg->engines[e];
        FUZZ_CHECK(s->cmd[0] && memchr(s->cmd, '\0', sizeof s->cmd), "player %d: no program", e);
        FUZZ_CHECK(s->name[0] && memchr(s->name, '\0', sizeof s->name), "player %d: no name", e);
        for (int d = 0; d < e; d++)
            FUZZ_CHECK(strcmp(s->name, cfg->engines[d].name) != 0,
                       "players %d and %d are both named '%s'", d, e, s->name);
    }
    FUZZ_CHECK(cfg->games >= 1 && cfg->rounds >= 1 && cfg->concurrency >= 1,
               "games %d rounds %d concurrency %d", cfg->games, cfg->rounds, cfg->concurrency);
    FUZZ_CHECK(cfg->limits.hang_timeout_ms >= 1 && cfg->limits.start_timeout_ms >= 1 &&
                   cfg->limits.newgame_timeout_ms >= 1,
               "a timeout of 0 ms: hang %lld start %lld newgame %lld",
               (long long)cfg->limits.hang_timeout_ms, (long long)cfg->limits.start_timeout_ms,
               (long long)cfg->limits.newgame_timeout_ms);
    long long pairings = cfg->gauntlet ? (long long)cfg->seeds * (cfg->nengines - cfg->seeds)
                                       : (long long)cfg->nengines * (cfg->nengines - 1) / 2;
    FUZZ_CHECK(pairings >= 1 && pairings * cfg->games * cfg->rounds <= 100000000LL,
               "%lld pairings of %d games, %d rounds", pairings, cfg->games, cfg->rounds);
    FUZZ_CHECK(!cfg->openings.path[0] || cfg->openings.count >= 1, "a book of no entry");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    variants_init();
    char *text = fuzz_strndup(data, size);
    char *argv[MAX_ARGS + 2];
    char *moved[MAX_ARGS + 2] = {NULL};
    int argc = 0;
    argv[argc++] = "sigil-match";
    for (char *p = text; argc <= MAX_ARGS && p < text + size;) {
        char *nl = memchr(p, '\n', (size_t)(text + size - p));
        if (nl)
            *nl = '\0';
        argv[argc++] = p;
        p = nl ? nl + 1 : text + size;
    }
    argv[argc] = NULL;
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "file=", 5) == 0) {
            size_t n = strlen(NO_DIRECTORY) + strlen(argv[i] + 5) + 1;
            moved[i] = malloc(n);
            FUZZ_CHECK(moved[i] != NULL, "out of memory");
            snprintf(moved[i], n, "%s%s", NO_DIRECTORY, argv[i] + 5);
            argv[i] = moved[i];
        }

    MatchConfig cfg;
    match_config_defaults(&cfg);
    char *said = NULL;
    int rc = parse_capturing(argc, argv, &cfg, &said);
    FUZZ_CHECK(rc == -1 || rc == 0 || rc == 2, "cli_parse answered %d", rc);
    check_message(rc, argc, said);
    free(said);
    if (rc == -1 && cfg.mode == MODE_PLAY)
        check_play(&cfg);
    else if (rc == -1 && cfg.mode == MODE_REPLAY)
        /* `-replay ""` is accepted here and refused when the file is read. */
        FUZZ_CHECK(memchr(cfg.replay_file, '\0', sizeof cfg.replay_file), "replay file too long");
    else if (rc == -1 && cfg.mode == MODE_MERGE)
        FUZZ_CHECK(cfg.nmerge >= 1, "a merge of no file");

    if (rc == -1) {
        static Argv again;
        write_config(&again, &cfg);
        MatchConfig cfg2;
        match_config_defaults(&cfg2);
        int rc2 = parse_capturing(again.n, again.word, &cfg2, &said);
        if (rc2 != -1 || said[0]) {
            int fd = fuzz_report_fd >= 0 ? fuzz_report_fd : 2;
            for (int i = 0; i < again.n; i++)
                dprintf(fd, "%s\n", again.word[i]);
        }
        FUZZ_CHECK(rc2 == -1 && !said[0], "the configuration written back gives %d: '%.200s'",
                   rc2, said);
        free(said);
        same_config(&cfg, &cfg2);
        match_config_free(&cfg2);
        argv_free(&again);
    }
    match_config_free(&cfg);
    for (int i = 0; i < argc; i++)
        free(moved[i]);
    free(text);
    return 0;
}
