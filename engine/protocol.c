/* protocol.c - the UCI/UGI-style command loop.
 *
 * One handler per command.  The protocol thread owns the Game; a `go` hands a
 * copy of it to the search thread, which prints `info` lines and exactly one
 * `bestmove`.  Every reply goes through reply(), which holds a mutex so lines
 * from the two threads never interleave.  Bad input of any kind produces one
 * `info string error: ...` line and leaves the state as it was.
 */
#include "protocol.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "game.h"
#include "info.h"
#include "perft.h"
#include "search.h"
#include "util.h"
#include "variants.h"

#define TOKEN_MAX 256
#define DEFAULT_HASH_MB 16
#define MAX_HASH_MB 4096
#define MAX_THREADS 64
#define MAX_MULTIPV 64
#define MAX_PERFT_DEPTH 32
#define ECHO_MAX 60 /* how much of a bad token an error line repeats */

typedef struct SearchJob {
    Game game;
    SearchLimits limits;
    SearchOptions options;
    bool ponder;
} SearchJob;

static struct {
    FILE *out;
    pthread_mutex_t out_lock;
    bool initialised;

    const Variant *variant;
    GameConfig config;
    Game game;

    size_t hash_mb;
    SearchOptions search_options;
    uint64_t seed;       /* option Seed; the roll generator restarts from it */
    uint64_t roll_state;

    pthread_t thread;
    bool searching; /* a search thread exists and has not been joined */
    atomic_bool stop;
    SearchJob job;
} P = {.out_lock = PTHREAD_MUTEX_INITIALIZER};

/* ------------------------------------------------------------------ output */

static void reply(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void reply(const char *fmt, ...)
{
    va_list ap;
    pthread_mutex_lock(&P.out_lock);
    va_start(ap, fmt);
    vfprintf(P.out, fmt, ap);
    va_end(ap);
    fputc('\n', P.out);
    fflush(P.out);
    pthread_mutex_unlock(&P.out_lock);
}

/* Copy text into buf for an error message: at most ECHO_MAX characters,
 * unprintable bytes shown as '?', so garbage never reaches the GUI raw. */
static const char *echo(const char *text, char *buf, size_t size)
{
    size_t n = 0;
    for (; *text && n + 4 < size && n < ECHO_MAX; text++)
        buf[n++] = isprint((unsigned char)*text) ? *text : '?';
    if (*text && n + 4 < size) {
        memcpy(buf + n, "...", 3);
        n += 3;
    }
    buf[n] = '\0';
    return buf;
}

static void error_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void error_line(const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    reply("info string error: %s", msg);
}

/* The search's progress as `info` lines. */
static void search_report(void *ctx, const SearchInfo *info)
{
    const Variant *v = ctx;
    enum { INFO_LINE_MAX = 16384 };
    char *line = malloc(INFO_LINE_MAX);
    if (!line)
        return;
    info_format(v, info, line, INFO_LINE_MAX);
    reply("%s", line);
    free(line);
}

/* The game's own analysis of the root (Alexander's exact values ...). */
static void describe_position(const Game *g)
{
    if (!g->variant->describe)
        return;
    char buf[512];
    buf[0] = '\0';
    g->variant->describe(&g->pos, buf, sizeof buf);
    reply("info string %s", buf);
}

/* ------------------------------------------------------------------ search */

static void *search_thread(void *arg)
{
    SearchJob *job = arg;
    SearchResult r = search_run(&job->game, &job->limits, &job->options, &P.stop,
                                search_report, (void *)job->game.variant);
    describe_position(&job->game);
    char best[MOVE_STR_MAX] = "0000";
    if (r.best != MOVE_NONE)
        job->game.variant->move_str(&job->game.pos, r.best, best);
    if (job->ponder && r.best != MOVE_NONE && r.ponder != MOVE_NONE) {
        Position child;
        char ponder[MOVE_STR_MAX];
        job->game.variant->make(&job->game.pos, r.best, &child);
        job->game.variant->move_str(&child, r.ponder, ponder);
        reply("bestmove %s ponder %s", best, ponder);
    } else {
        reply("bestmove %s", best);
    }
    return NULL;
}

/* Wait for the running search (if any) to end by itself. */
static void join_search(void)
{
    if (P.searching) {
        pthread_join(P.thread, NULL);
        P.searching = false;
    }
}

/* Ask the running search (if any) to stop and wait for its bestmove. */
static void stop_search(void)
{
    if (P.searching) {
        atomic_store(&P.stop, true);
        join_search();
    }
}

/* ------------------------------------------------------------------- state */

static void select_variant(const Variant *v)
{
    P.variant = v;
    game_free(&P.game);
    game_init(&P.game, v, &P.config);
}

void protocol_init(FILE *out)
{
    if (P.initialised)
        return;
    P.initialised = true;
    P.out = out;
    variants_init();
    P.config.move_limit = DEFAULT_MOVE_LIMIT;
    P.hash_mb = DEFAULT_HASH_MB;
    P.search_options.threads = 1;
    P.search_options.multipv = 1;
    P.seed = 0;
    P.roll_state = 0;
    search_set_hash(P.hash_mb);
    memset(&P.game, 0, sizeof P.game);
    memset(&P.job.game, 0, sizeof P.job.game);
    select_variant(variants_default());
}

void protocol_shutdown(void)
{
    stop_search();
    game_free(&P.game);
    game_free(&P.job.game);
}

/* Parse a whole decimal number in [min, max]. */
static bool parse_long(const char *s, long long min, long long max, long long *value)
{
    if (!*s)
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (*end || errno || v < min || v > max)
        return false;
    *value = v;
    return true;
}

/* --------------------------------------------------------------- handlers */

static void print_options(void)
{
    reply("option name Hash type spin default %d min 1 max %d", DEFAULT_HASH_MB, MAX_HASH_MB);
    reply("option name Clear Hash type button");
    reply("option name Threads type spin default 1 min 1 max %d", MAX_THREADS);
    reply("option name MultiPV type spin default 1 min 1 max %d", MAX_MULTIPV);
    char line[1024];
    int n = snprintf(line, sizeof line, "option name UCI_Variant type combo default %s",
                     variants_default()->name);
    for (int i = 0; i < variants_count() && n < (int)sizeof line; i++)
        n += snprintf(line + n, sizeof line - (size_t)n, " var %s", variants_get(i)->name);
    reply("%s", line);
    reply("option name MoveLimit type spin default %d min 1 max 1000", DEFAULT_MOVE_LIMIT);
    reply("option name Seed type spin default 0 min 0 max 2147483647");
}

static void cmd_handshake(const char *ok_word)
{
    reply("id name %s %s", SIGIL_NAME, SIGIL_VERSION);
    reply("id author %s", SIGIL_AUTHOR);
    print_options();
    reply("%s", ok_word);
}

static void cmd_newgame(void)
{
    stop_search();
    search_clear();
    game_reset(&P.game);
}

static void cmd_variant(const char *args)
{
    char name[TOKEN_MAX], extra[TOKEN_MAX], buf[96];
    const char *cur = args;
    if (!util_next_token(&cur, name, sizeof name)) {
        reply("info string variant %s", P.variant->name);
        return;
    }
    const Variant *v = variants_find(name);
    if (!v || util_next_token(&cur, extra, sizeof extra)) {
        error_line("unknown variant '%s' (see 'uci' for the list)", echo(args, buf, sizeof buf));
        return;
    }
    stop_search();
    select_variant(v);
}

/* Re-apply the current position with the current rules configuration (after
 * MoveLimit changes); falls back to the start position if it no longer fits. */
static void reconfigure_game(void)
{
    Game g;
    memset(&g, 0, sizeof g);
    game_init(&g, P.variant, &P.config);
    bool ok = true;
    if (!P.game.start_is_startpos) {
        char fen[FEN_MAX], err[128];
        P.variant->to_fen(&P.game.start, fen);
        ok = game_set_fen(&g, fen, err, sizeof err);
    }
    for (int i = 0; ok && i < P.game.ply; i++) {
        Move moves[MAX_MOVES];
        int n = P.variant->generate(&g.pos, moves);
        bool legal = false;
        for (int k = 0; k < n && !legal; k++)
            legal = moves[k] == P.game.moves[i];
        if (legal)
            game_play(&g, P.game.moves[i]);
        ok = legal;
    }
    if (!ok) {
        game_reset(&g);
        reply("info string position reset to the start: it does not fit the new rules");
    }
    game_free(&P.game);
    P.game = g;
}

static void cmd_setoption(const char *args)
{
    /* setoption name <id with spaces> [value <x with spaces>] */
    char buf[96];
    const char *p = args;
    while (isspace((unsigned char)*p))
        p++;
    if (strncmp(p, "name", 4) != 0 || !(isspace((unsigned char)p[4]) || !p[4])) {
        error_line("setoption needs 'name <option> [value <value>]'");
        return;
    }
    p += 4;
    char name[TOKEN_MAX] = "", value[TOKEN_MAX] = "";
    bool has_value = false;
    const char *cur = p;
    char tok[TOKEN_MAX];
    while (util_next_token(&cur, tok, sizeof tok)) {
        char *dst = has_value ? value : name;
        if (!has_value && strcmp(tok, "value") == 0) {
            has_value = true;
            continue;
        }
        if (strlen(dst) + strlen(tok) + 2 > TOKEN_MAX) {
            error_line("setoption text too long");
            return;
        }
        if (*dst)
            strcat(dst, " ");
        strcat(dst, tok);
    }
    long long v;
    if (strcasecmp(name, "Hash") == 0) {
        if (!has_value || !parse_long(value, 1, MAX_HASH_MB, &v)) {
            error_line("Hash takes a whole number of MB from 1 to %d", MAX_HASH_MB);
            return;
        }
        stop_search();
        P.hash_mb = (size_t)v;
        search_set_hash(P.hash_mb);
    } else if (strcasecmp(name, "Clear Hash") == 0) {
        stop_search();
        search_clear();
    } else if (strcasecmp(name, "Threads") == 0) {
        if (!has_value || !parse_long(value, 1, MAX_THREADS, &v)) {
            error_line("Threads takes a whole number from 1 to %d", MAX_THREADS);
            return;
        }
        stop_search();
        P.search_options.threads = (int)v;
    } else if (strcasecmp(name, "MultiPV") == 0) {
        if (!has_value || !parse_long(value, 1, MAX_MULTIPV, &v)) {
            error_line("MultiPV takes a whole number from 1 to %d", MAX_MULTIPV);
            return;
        }
        stop_search();
        P.search_options.multipv = (int)v;
    } else if (strcasecmp(name, "UCI_Variant") == 0) {
        const Variant *var = has_value ? variants_find(value) : NULL;
        if (!var) {
            error_line("unknown variant '%s' (see 'uci' for the list)", echo(value, buf, sizeof buf));
            return;
        }
        stop_search();
        select_variant(var);
    } else if (strcasecmp(name, "MoveLimit") == 0) {
        if (!has_value || !parse_long(value, 1, 1000, &v)) {
            error_line("MoveLimit takes a whole number of moves per side from 1 to 1000");
            return;
        }
        stop_search();
        P.config.move_limit = (int)v;
        reconfigure_game();
    } else if (strcasecmp(name, "Seed") == 0) {
        if (!has_value || !parse_long(value, 0, 2147483647LL, &v)) {
            error_line("Seed takes a whole number from 0 to 2147483647");
            return;
        }
        P.seed = (uint64_t)v;
        P.roll_state = P.seed;
    } else {
        error_line("unknown option '%s'", echo(name, buf, sizeof buf));
    }
}

static void cmd_position(const char *args)
{
    char tok[TOKEN_MAX], err[160], buf[96];
    const char *cur = args;
    Game g;
    memset(&g, 0, sizeof g);
    game_init(&g, P.variant, &P.config);

    if (!util_next_token(&cur, tok, sizeof tok)) {
        error_line("position needs 'startpos' or 'fen <fen>'");
        game_free(&g);
        return;
    }
    if (strcmp(tok, "fen") == 0) {
        /* The FEN is every token up to "moves". */
        const char *fen_start = cur;
        const char *moves = strstr(cur, " moves");
        while (moves && moves[6] && !isspace((unsigned char)moves[6]))
            moves = strstr(moves + 6, " moves");
        size_t len = moves ? (size_t)(moves - fen_start) : strlen(fen_start);
        char fen[FEN_MAX * 2];
        if (len >= sizeof fen) {
            error_line("FEN too long");
            game_free(&g);
            return;
        }
        memcpy(fen, fen_start, len);
        fen[len] = '\0';
        /* Trim the FEN. */
        char *f = fen;
        while (isspace((unsigned char)*f))
            f++;
        for (char *e = f + strlen(f); e > f && isspace((unsigned char)e[-1]);)
            *--e = '\0';
        if (!*f || !game_set_fen(&g, f, err, sizeof err)) {
            error_line("invalid %s FEN '%s': %s", P.variant->name, echo(f, buf, sizeof buf),
                       *f ? err : "empty");
            game_free(&g);
            return;
        }
        cur = moves ? moves : fen_start + len;
    } else if (strcmp(tok, "startpos") != 0) {
        error_line("position needs 'startpos' or 'fen <fen>', not '%s'", echo(tok, buf, sizeof buf));
        game_free(&g);
        return;
    }
    if (util_next_token(&cur, tok, sizeof tok)) {
        if (strcmp(tok, "moves") != 0) {
            error_line("expected 'moves' in position, found '%s'", echo(tok, buf, sizeof buf));
            game_free(&g);
            return;
        }
        size_t len;
        while ((len = util_next_token(&cur, tok, sizeof tok)) > 0) {
            if (len >= sizeof tok || !game_play_text(&g, tok, err, sizeof err)) {
                if (len >= sizeof tok)
                    snprintf(err, sizeof err, "unparsable move '%s'", echo(tok, buf, sizeof buf));
                error_line("%s at ply %d; position unchanged", err, g.ply + 1);
                game_free(&g);
                return;
            }
        }
    }
    stop_search();
    game_free(&P.game);
    P.game = g;
}

/* Parse `go` arguments into limits; unknown or malformed tokens get an
 * error line and are skipped (the search still runs, so a GUI waiting for
 * bestmove is never left hanging).  Returns the perft depth for `go perft N`,
 * else -1. */
static int parse_go(const char *args, SearchLimits *lim, bool *ponder)
{
    char tok[TOKEN_MAX], num[TOKEN_MAX], buf[96];
    const char *cur = args;
    search_limits_clear(lim);
    *ponder = false;
    while (util_next_token(&cur, tok, sizeof tok)) {
        long long v;
        if (strcmp(tok, "infinite") == 0) {
            lim->infinite = true;
            continue;
        }
        if (strcmp(tok, "ponder") == 0) {
            /* Pondering is not offered; treat as infinite until stop/ponderhit. */
            lim->infinite = true;
            *ponder = true;
            continue;
        }
        static const char *const numeric[] = {"depth", "nodes", "movetime", "wtime", "btime",
                                              "winc", "binc", "movestogo", "p1time", "p2time",
                                              "p1inc", "p2inc", "perft", "mate"};
        int which = -1;
        for (int i = 0; i < (int)(sizeof numeric / sizeof *numeric); i++)
            if (strcmp(tok, numeric[i]) == 0)
                which = i;
        if (which < 0) {
            error_line("go: unknown parameter '%s' ignored", echo(tok, buf, sizeof buf));
            continue;
        }
        const char *save = cur;
        if (!util_next_token(&cur, num, sizeof num) || !parse_long(num, -LLONG_MAX / 4, LLONG_MAX / 4, &v)) {
            error_line("go: '%s' needs a number", tok);
            cur = save;
            continue;
        }
        switch (which) {
        case 0: lim->depth = v > 0 ? (int)(v < SEARCH_MAX_PLY ? v : SEARCH_MAX_PLY - 1) : 0; break;
        case 1: lim->nodes = v > 0 ? (uint64_t)v : 0; break;
        case 2: lim->movetime = v > 0 ? v : 1; break;
        case 3: case 8: lim->time[WHITE] = v > 0 ? v : 0; break;
        case 4: case 9: lim->time[BLACK] = v > 0 ? v : 0; break;
        case 5: case 10: lim->inc[WHITE] = v > 0 ? v : 0; break;
        case 6: case 11: lim->inc[BLACK] = v > 0 ? v : 0; break;
        case 7: lim->movestogo = v > 0 ? (int)(v < 10000 ? v : 10000) : 0; break;
        case 12: return v >= 0 && v <= MAX_PERFT_DEPTH ? (int)v : -2;
        case 13: lim->depth = v > 0 && v < SEARCH_MAX_PLY / 2 ? (int)(2 * v) : 0; break;
        }
    }
    return -1;
}

static void run_perft(int depth)
{
    const Variant *v = P.variant;
    Move moves[MAX_MOVES];
    int n = v->generate(&P.game.pos, moves);
    int64_t t0 = util_now_ms();
    uint64_t total = 0;
    if (depth >= 1) {
        for (int i = 0; i < n; i++) {
            Position child;
            char text[MOVE_STR_MAX];
            v->make(&P.game.pos, moves[i], &child);
            uint64_t c = perft_count(v, &child, depth - 1);
            v->move_str(&P.game.pos, moves[i], text);
            reply("%s: %" PRIu64, text, c);
            total += c;
        }
    } else {
        total = 1;
    }
    int64_t ms = util_now_ms() - t0;
    reply("%s", "");
    reply("Nodes searched: %" PRIu64, total);
    reply("info string perft depth %d nodes %" PRIu64 " time %" PRId64 " nps %" PRIu64, depth,
          total, ms, ms > 0 ? total * 1000 / (uint64_t)ms : total * 1000);
}

static void cmd_perft(const char *args)
{
    char tok[TOKEN_MAX], extra[TOKEN_MAX];
    long long d;
    const char *cur = args;
    if (!util_next_token(&cur, tok, sizeof tok) || !parse_long(tok, 0, MAX_PERFT_DEPTH, &d) ||
        util_next_token(&cur, extra, sizeof extra)) {
        error_line("perft needs one depth from 0 to %d", MAX_PERFT_DEPTH);
        return;
    }
    stop_search();
    run_perft((int)d);
}

static void print_finished_game(Result r)
{
    /* No search: report the decided score, then the null move. */
    int stm = P.variant->side_to_move(&P.game.pos);
    if (r == RESULT_DRAW)
        reply("info depth 0 score cp 0");
    else if ((r == RESULT_WHITE_WINS) == (stm == WHITE))
        reply("info depth 0 score mate 0 string game over, side to move has won");
    else
        reply("info depth 0 score mate 0 string game over, side to move has lost");
    reply("bestmove 0000");
}

static void cmd_go(const char *args)
{
    /* A GUI may send go as soon as it reads bestmove: reap that search.  A go
     * during a running search stops it first (it still prints its bestmove). */
    stop_search();
    SearchLimits lim;
    bool ponder;
    int perft_depth = parse_go(args, &lim, &ponder);
    if (perft_depth >= 0) {
        run_perft(perft_depth);
        return;
    }
    if (perft_depth == -2) {
        error_line("perft depth must be from 0 to %d", MAX_PERFT_DEPTH);
        return;
    }
    Result r = game_result(&P.game, NULL, NULL);
    if (r != RESULT_NONE) {
        print_finished_game(r);
        return;
    }
    game_copy(&P.job.game, &P.game);
    P.job.limits = lim;
    P.job.options = P.search_options;
    P.job.ponder = ponder;
    atomic_store(&P.stop, false);
    if (pthread_create(&P.thread, NULL, search_thread, &P.job) != 0) {
        error_line("could not start the search thread");
        reply("bestmove 0000");
        return;
    }
    P.searching = true;
}

static const char *side_name(int side) { return side == WHITE ? "white" : "black"; }

static void cmd_display(void)
{
    const Variant *v = P.variant;
    const Position *pos = &P.game.pos;
    char *diagram = malloc(8192);
    if (diagram) {
        v->diagram(pos, diagram, 8192);
        pthread_mutex_lock(&P.out_lock);
        fprintf(P.out, "%s", diagram);
        pthread_mutex_unlock(&P.out_lock);
        free(diagram);
    }
    char fen[FEN_MAX];
    v->to_fen(pos, fen);
    reply("Variant: %s (%s)", v->name, v->title);
    reply("Fen: %s", fen);
    reply("Key: %016" PRIx64, v->key(pos));
    bool chance = v->is_chance && v->is_chance(pos);
    reply("Side to move: %s%s", side_name(v->side_to_move(pos)), chance ? " (to roll)" : "");
    int margin = 0;
    const char *reason = NULL;
    Result r = game_result(&P.game, &margin, &reason);
    if (r != RESULT_NONE)
        reply("Result: %s (%s%s%d)", game_result_word(r), reason ? reason : "game over",
              margin ? ", margin " : "", margin);
    else
        reply("Result: none");
    if (v->describe) {
        char line[256];
        v->describe(pos, line, sizeof line);
        reply("Analysis: %s", line);
    }
    Move moves[MAX_MOVES];
    int n = r == RESULT_NONE ? v->generate(pos, moves) : 0;
    size_t cap = (size_t)n * (MOVE_STR_MAX + 1) + 64;
    char *list = malloc(cap);
    if (!list)
        return;
    size_t len = (size_t)snprintf(list, cap, "%s (%d):", chance ? "Rolls" : "Legal moves", n);
    for (int i = 0; i < n; i++) {
        char text[MOVE_STR_MAX];
        v->move_str(pos, moves[i], text);
        len += (size_t)snprintf(list + len, cap - len, " %s", text);
    }
    reply("%s", list);
    free(list);
}

static void cmd_query(const char *args)
{
    char what[TOKEN_MAX], buf[96];
    const char *cur = args;
    util_next_token(&cur, what, sizeof what);
    Result r = game_result(&P.game, NULL, NULL);
    if (strcmp(what, "gameover") == 0)
        reply("response %s", r != RESULT_NONE ? "true" : "false");
    else if (strcmp(what, "p1turn") == 0)
        reply("response %s", P.variant->side_to_move(&P.game.pos) == WHITE ? "true" : "false");
    else if (strcmp(what, "result") == 0) {
        int margin = 0;
        const char *reason = NULL;
        r = game_result(&P.game, &margin, &reason);
        reply("response %s", game_result_word(r));
        if (r != RESULT_NONE)
            reply("info string result %s reason %s margin %d", game_result_word(r),
                  reason ? reason : "game over", margin);
    } else
        error_line("unknown query '%s' (gameover, p1turn, result)", echo(what, buf, sizeof buf));
}

static void cmd_roll(void)
{
    const Variant *v = P.variant;
    if (!v->is_chance || !v->is_chance(&P.game.pos)) {
        error_line("no roll is due in this position");
        return;
    }
    stop_search();
    Move rolls[MAX_MOVES];
    int n = v->generate(&P.game.pos, rolls);
    if (n <= 0) {
        error_line("no roll is due in this position");
        return;
    }
    Move m = rolls[util_random_below(&P.roll_state, (uint64_t)n)];
    char text[MOVE_STR_MAX];
    v->move_str(&P.game.pos, m, text);
    game_play(&P.game, m);
    reply("roll %s", text);
}

static void cmd_eval(void)
{
    int e = P.variant->evaluate(&P.game.pos);
    reply("info string eval %d (side to move: %s)", e,
          side_name(P.variant->side_to_move(&P.game.pos)));
}

static void cmd_bench(const char *args)
{
    char tok[TOKEN_MAX];
    long long d = 0;
    const char *cur = args;
    if (util_next_token(&cur, tok, sizeof tok) && !parse_long(tok, 1, 64, &d)) {
        error_line("bench takes an optional depth from 1 to 64");
        return;
    }
    stop_search();
    pthread_mutex_lock(&P.out_lock);
    bench_run((int)d, P.out);
    fflush(P.out);
    pthread_mutex_unlock(&P.out_lock);
    search_clear();
}

static void cmd_help(void)
{
    static const char *const lines[] = {
        "Sigil commands (see protocol.md):",
        "  uci | ugi                      handshake: id, options, uciok | ugiok",
        "  isready                        answered 'readyok' at once",
        "  setoption name <N> [value <V>] Hash, Clear Hash, Threads, MultiPV, UCI_Variant, MoveLimit, Seed",
        "  variant [<name>]               select a game (resets to its start) or show the current one",
        "  ucinewgame | uginewgame        forget the search state, back to the start position",
        "  position startpos|fen <fen> [moves <m1> <m2> ...]",
        "  go [depth N] [nodes N] [movetime MS] [wtime MS btime MS winc MS binc MS movestogo N]",
        "     [p1time p2time p1inc p2inc] [infinite] [perft N]",
        "  stop                           end the search; it answers bestmove",
        "  perft N                        count move sequences of length N, per move",
        "  query gameover|p1turn|result   UGI queries, answered 'response ...'",
        "  roll                           Alexander: draw the pending dice roll (option Seed)",
        "  d                              board, FEN, key, result and legal moves",
        "  eval                           static evaluation of the position",
        "  bench [depth]                  fixed search set: node signature and speed",
        "  help                           this text",
        "  quit                           leave",
    };
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++)
        reply("%s", lines[i]);
}

/* Execute one line.  Returns false on quit. */
static bool dispatch(const char *line)
{
    char cmd[TOKEN_MAX], buf[96];
    const char *cur = line;
    size_t len = util_next_token(&cur, cmd, sizeof cmd);
    if (len == 0)
        return true;
    if (len >= sizeof cmd) {
        error_line("unknown command '%s'", echo(line, buf, sizeof buf));
        return true;
    }
    const char *args = cur;
    if (strcmp(cmd, "quit") == 0)
        return false;
    else if (strcmp(cmd, "uci") == 0)
        cmd_handshake("uciok");
    else if (strcmp(cmd, "ugi") == 0)
        cmd_handshake("ugiok");
    else if (strcmp(cmd, "isready") == 0)
        reply("readyok");
    else if (strcmp(cmd, "ucinewgame") == 0 || strcmp(cmd, "uginewgame") == 0)
        cmd_newgame();
    else if (strcmp(cmd, "setoption") == 0)
        cmd_setoption(args);
    else if (strcmp(cmd, "variant") == 0)
        cmd_variant(args);
    else if (strcmp(cmd, "position") == 0)
        cmd_position(args);
    else if (strcmp(cmd, "go") == 0)
        cmd_go(args);
    else if (strcmp(cmd, "stop") == 0 || strcmp(cmd, "ponderhit") == 0)
        stop_search();
    else if (strcmp(cmd, "perft") == 0)
        cmd_perft(args);
    else if (strcmp(cmd, "query") == 0)
        cmd_query(args);
    else if (strcmp(cmd, "d") == 0)
        cmd_display();
    else if (strcmp(cmd, "roll") == 0)
        cmd_roll();
    else if (strcmp(cmd, "eval") == 0)
        cmd_eval();
    else if (strcmp(cmd, "bench") == 0)
        cmd_bench(args);
    else if (strcmp(cmd, "help") == 0)
        cmd_help();
    else if (strcmp(cmd, "debug") == 0 || strcmp(cmd, "register") == 0)
        ; /* UCI commands with nothing to do here */
    else
        error_line("unknown command '%s' (try 'help')", echo(cmd, buf, sizeof buf));
    return true;
}

bool protocol_command(const char *line)
{
    bool go_on = dispatch(line);
    join_search();
    return go_on;
}

int protocol_run(FILE *in, FILE *out)
{
    protocol_init(out);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    bool go_on = true;
    while (go_on && (n = getline(&line, &cap, in)) >= 0) {
        /* A NUL byte ends the command text; the rest of such a line is garbage. */
        line[strcspn(line, "\r\n")] = '\0';
        go_on = dispatch(line);
    }
    free(line);
    /* End of input without quit: a finite search may finish and answer. */
    if (go_on && P.searching && !P.job.limits.infinite)
        join_search();
    protocol_shutdown();
    return 0;
}
