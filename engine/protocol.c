/* protocol.c - the UCI/UGI-style text protocol.
 *
 * This file is the protocol's text only: it parses command lines, calls the
 * session (session.c, which owns the game, the options and the worker
 * thread) and writes replies.  Two tables drive it: `commands` (dispatch and
 * `help`) and `queries` (`query <what>`); the options table lives in the
 * session and drives `uci`'s option lines and `setoption`.
 *
 * Every reply goes through reply(), which holds a mutex so lines from the
 * protocol thread and the worker never interleave.  Bad input of any kind
 * produces one `info string error: ...` line and leaves the state as it was.
 */
#include "protocol.h"

#include <ctype.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench.h"
#include "game.h"
#include "info.h"
#include "json.h"
#include "oracle.h"
#include "refusal.h"
#include "search.h"
#include "session.h"
#include "util.h"
#include "variants.h"

#define TOKEN_MAX 256
#define ECHO_MAX 60 /* how much of a bad token an error line repeats */
#define BENCH_MAX_DEPTH 64

/* The protocol's state: one per process, since it owns stdout.  out_lock
 * serialises every line written; the rest is touched by the protocol thread
 * only (the worker reaches it through the SessionOutput callbacks, which only
 * write). */
static struct {
    FILE *out;
    pthread_mutex_t out_lock;
    bool initialised;
    bool batch;       /* command-line mode: nobody can send `stop` */
    Session *session;
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
    char msg[512], shown[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    /* The message may quote input: make sure it stays one printable line. */
    size_t n = 0;
    for (const char *m = msg; *m && n + 1 < sizeof shown; m++)
        shown[n++] = isprint((unsigned char)*m) ? *m : '?';
    shown[n] = '\0';
    reply("info string error: %s", shown);
}

/* ------------------------------------------------- the session's reports */

static void on_info(void *ctx, const Variant *v, const SearchInfo *info)
{
    (void)ctx;
    enum { INFO_LINE_MAX = 16384 };
    char *line = util_xmalloc(INFO_LINE_MAX);
    info_format(v, info, line, INFO_LINE_MAX);
    reply("%s", line);
    free(line);
}

static void on_analysis(void *ctx, const char *text)
{
    (void)ctx;
    reply("info string %s", text);
}

static void on_finished(void *ctx, Result r, int side)
{
    (void)ctx;
    /* No search: report the decided score before the null move. */
    if (r == RESULT_DRAW)
        reply("info depth 0 score cp 0");
    else if ((r == RESULT_WHITE_WINS) == (side == WHITE))
        reply("info depth 0 score mate 0 string game over, side to move has won");
    else
        reply("info depth 0 score mate 0 string game over, side to move has lost");
}

static void on_bestmove(void *ctx, const char *move, const char *ponder)
{
    (void)ctx;
    if (ponder)
        reply("bestmove %s ponder %s", move, ponder);
    else
        reply("bestmove %s", move);
}

static void on_perft_move(void *ctx, const char *move, uint64_t count)
{
    (void)ctx;
    reply("%s: %" PRIu64, move, count);
}

static void on_perft_done(void *ctx, const PerftReport *r)
{
    (void)ctx;
    if (r->stopped) {
        reply("info string perft depth %d stopped after %" PRId64 " ms", r->depth, r->time_ms);
        return;
    }
    if (r->overflow) {
        error_line("perft depth %d: the count does not fit in 64 bits", r->depth);
        return;
    }
    int64_t ms = r->time_ms;
    reply("%s", "");
    reply("Nodes searched: %" PRIu64, r->total);
    reply("info string perft depth %d nodes %" PRIu64 " time %" PRId64 " nps %" PRIu64, r->depth,
          r->total, ms, ms > 0 ? r->total / (uint64_t)ms * 1000 : r->total * 1000);
}

static void on_notice(void *ctx, NoticeKind kind, const char *text)
{
    (void)ctx;
    if (kind == NOTICE_ERROR)
        error_line("%s", text);
    else
        reply("info string %s", text);
}

/* ------------------------------------------------------------- parsing */

/* The rest of the line after the cursor's leading spaces. */
static const char *skip_spaces(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* --------------------------------------------------------------- handlers */

static const Game *game(void) { return session_game(P.session); }

static void print_options(void)
{
    for (int i = 0; i < session_option_count(); i++) {
        const SessionOption *o = session_option(i);
        switch (o->type) {
        case SESSION_OPTION_SPIN:
            reply("option name %s type spin default %lld min %lld max %lld", o->name, o->def,
                  o->min, o->max);
            break;
        case SESSION_OPTION_CHECK:
            reply("option name %s type check default %s", o->name, o->def ? "true" : "false");
            break;
        case SESSION_OPTION_BUTTON:
            reply("option name %s type button", o->name);
            break;
        case SESSION_OPTION_STRING:
            reply("option name %s type string default <empty>", o->name);
            break;
        case SESSION_OPTION_COMBO: {
            char line[2048];
            int n = snprintf(line, sizeof line, "option name %s type combo default %s", o->name,
                             o->choice(0));
            for (int k = 0; o->choice(k) && n < (int)sizeof line; k++)
                n += snprintf(line + n, sizeof line - (size_t)n, " var %s", o->choice(k));
            reply("%s", line);
            break;
        }
        }
    }
}

static void handshake(const char *ok_word)
{
    reply("id name %s %s", SIGIL_NAME, SIGIL_VERSION);
    reply("id author %s", SIGIL_AUTHOR);
    print_options();
    reply("%s", ok_word);
}

static void cmd_uci(const char *args) { (void)args, handshake("uciok"); }
static void cmd_ugi(const char *args) { (void)args, handshake("ugiok"); }
static void cmd_isready(const char *args) { (void)args, reply("readyok"); }
static void cmd_newgame(const char *args) { (void)args, session_new_game(P.session); }
static void cmd_stop(const char *args) { (void)args, session_stop(P.session); }
static void cmd_ponderhit(const char *args)
{
    (void)args;
    if (!session_ponderhit(P.session))
        error_line("ponderhit: no go ponder is running; ignored");
}
static void cmd_nothing(const char *args) { (void)args; }

static void cmd_variant(const char *args)
{
    char name[TOKEN_MAX], extra[TOKEN_MAX], buf[96];
    const char *cur = args;
    if (!util_next_token(&cur, name, sizeof name)) {
        reply("response %s", session_variant(P.session)->name); /* as query variant */
        return;
    }
    const Variant *v = variants_find(name);
    if (!v || util_next_token(&cur, extra, sizeof extra)) {
        char list[512] = "", guess[128] = "";
        size_t len = 0;
        for (int i = 0; i < variants_count(); i++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", i ? ", " : "",
                                    variants_get(i)->name);
        const Variant *near = v ? NULL : variants_nearest(name);
        if (near)
            snprintf(guess, sizeof guess, "; did you mean %s?", near->name);
        error_line("unknown variant '%s' (the games: %s)%s",
                   echo(skip_spaces(args), buf, sizeof buf), list, guess);
        return;
    }
    session_set_variant(P.session, v);
}

static void cmd_setoption(const char *args)
{
    /* setoption name <id with spaces> [value <x with spaces>] */
    const char *p = skip_spaces(args);
    if (strncmp(p, "name", 4) != 0 || !(isspace((unsigned char)p[4]) || !p[4])) {
        error_line("setoption needs 'name <option> [value <value>]'");
        return;
    }
    char name[TOKEN_MAX] = "", value[TOKEN_MAX] = "", tok[TOKEN_MAX];
    bool has_value = false;
    const char *cur = p + 4;
    size_t len;
    while ((len = util_next_token(&cur, tok, sizeof tok)) > 0) {
        char *dst = has_value ? value : name;
        if (!has_value && strcmp(tok, "value") == 0) {
            has_value = true;
            continue;
        }
        if (len >= sizeof tok || strlen(dst) + len + 2 > TOKEN_MAX) {
            error_line("setoption text too long");
            return;
        }
        if (*dst)
            strcat(dst, " ");
        strcat(dst, tok);
    }
    char err[256];
    if (!*name) {
        error_line("setoption needs 'name <option> [value <value>]'");
        return;
    }
    if (!session_set_option(P.session, name, has_value ? value : NULL, err, sizeof err))
        error_line("%s", err);
}

static void cmd_position(const char *args)
{
    char tok[TOKEN_MAX], err[512], buf[96];
    const char *cur = args;
    if (!util_next_token(&cur, tok, sizeof tok)) {
        error_line("position needs 'startpos' or 'fen <fen>'");
        return;
    }
    char fen[FEN_MAX * 2];
    const char *fen_arg = NULL;
    if (strcmp(tok, "fen") == 0) {
        /* The FEN is every token up to "moves". */
        const char *fen_start = cur;
        const char *moves = strstr(cur, " moves");
        while (moves && moves[6] && !isspace((unsigned char)moves[6]))
            moves = strstr(moves + 6, " moves");
        size_t len = moves ? (size_t)(moves - fen_start) : strlen(fen_start);
        if (len >= sizeof fen) {
            error_line("FEN too long");
            return;
        }
        memcpy(fen, fen_start, len);
        fen[len] = '\0';
        char *f = fen;
        while (isspace((unsigned char)*f))
            f++;
        for (char *e = f + strlen(f); e > f && isspace((unsigned char)e[-1]);)
            *--e = '\0';
        if (!*f) {
            error_line("invalid %s FEN '': empty", session_variant(P.session)->name);
            return;
        }
        fen_arg = f;
        cur = moves ? moves : fen_start + len;
    } else if (strcmp(tok, "startpos") != 0) {
        error_line("position needs 'startpos' or 'fen <fen>', not '%s'", echo(tok, buf, sizeof buf));
        return;
    }
    const char *moves = NULL;
    if (util_next_token(&cur, tok, sizeof tok)) {
        if (strcmp(tok, "moves") != 0) {
            error_line("expected 'moves' in position, found '%s'", echo(tok, buf, sizeof buf));
            return;
        }
        moves = cur;
    }
    if (!session_set_position(P.session, fen_arg, moves, err, sizeof err)) {
        if (fen_arg && strstr(err, " at ply ") == NULL)
            error_line("invalid %s FEN '%s': %s", session_variant(P.session)->name,
                       echo(fen_arg, buf, sizeof buf), err);
        else
            error_line("%s", err); /* the position is unchanged */
    }
}

static void cmd_move(const char *args)
{
    char err[512];
    if (!*skip_spaces(args)) {
        error_line("move needs one or more moves");
        return;
    }
    if (!session_play(P.session, args, err, sizeof err))
        error_line("%s", err); /* the position is unchanged */
}

/* The arguments of a command that takes at most one number, lo..hi: 0 when
 * there are none, 1 with the number in *out, -1 when they are anything else
 * (not a number, out of range, a second token, or a token longer than its
 * buffer: a cut token must not be read from its first bytes, so perft
 * followed by 300 zeros and a 2 is not perft 0). */
static int one_number_arg(const char *args, long long lo, long long hi, long long *out)
{
    char tok[TOKEN_MAX], extra[TOKEN_MAX];
    const char *cur = args;
    size_t len = util_next_token(&cur, tok, sizeof tok);
    if (len == 0)
        return 0;
    if (len >= sizeof tok || !util_parse_number(tok, lo, hi, out) ||
        util_next_token(&cur, extra, sizeof extra))
        return -1;
    return 1;
}

static void cmd_undo(const char *args)
{
    char err[256];
    long long n = 1;
    if (one_number_arg(args, 1, INT_MAX, &n) < 0) {
        error_line("undo takes an optional number of plies from 1 up");
        return;
    }
    if (!session_undo(P.session, (int)n, err, sizeof err))
        error_line("%s", err);
}

/* The `go` parameters that take a number. */
typedef enum GoParam {
    GO_DEPTH, GO_NODES, GO_MOVETIME, GO_WTIME, GO_BTIME, GO_WINC, GO_BINC, GO_MOVESTOGO,
    GO_MATE, GO_PERFT
} GoParam;

/* The longest time a `go` may name, in ms: a year.  A larger clock is no
 * clock any game is played with (2^61 ms is 73 million years); it is refused
 * like a malformed one, so the search ends at once instead of thinking for as
 * long as the number says. */
#define GO_MAX_TIME_MS 31536000000LL

static const struct {
    const char *name;
    GoParam param;
    bool positive; /* 0 is an error (a limit of nothing); else 0 is allowed */
    bool time;     /* milliseconds, at most GO_MAX_TIME_MS */
} go_params[] = {
    {"depth", GO_DEPTH, true, false},      {"nodes", GO_NODES, true, false},
    {"movetime", GO_MOVETIME, true, true}, {"wtime", GO_WTIME, false, true},
    {"btime", GO_BTIME, false, true},      {"winc", GO_WINC, false, true},
    {"binc", GO_BINC, false, true},        {"movestogo", GO_MOVESTOGO, true, false},
    {"p1time", GO_WTIME, false, true},     {"p2time", GO_BTIME, false, true},
    {"p1inc", GO_WINC, false, true},       {"p2inc", GO_BINC, false, true},
    {"mate", GO_MATE, true, false},        {"perft", GO_PERFT, false, false},
};

/* The largest value of a parameter that means what it says: a depth stops
 * at SEARCH_MAX_PLY - 1 plies (larger ones are searched that deep), mate at
 * half of it; a time at GO_MAX_TIME_MS. */
static long long go_param_max(GoParam param, bool time)
{
    if (time)
        return GO_MAX_TIME_MS;
    switch (param) {
    case GO_DEPTH: return SEARCH_MAX_PLY - 1;
    case GO_MATE: return (SEARCH_MAX_PLY - 1) / 2;
    case GO_MOVESTOGO: return INT_MAX;
    case GO_PERFT: return SESSION_MAX_PERFT_DEPTH;
    default: return LLONG_MAX;
    }
}

/* True for a word that starts a `go` parameter. */
static bool is_go_word(const char *word)
{
    if (strcmp(word, "infinite") == 0 || strcmp(word, "ponder") == 0)
        return true;
    for (size_t i = 0; i < sizeof go_params / sizeof *go_params; i++)
        if (strcmp(word, go_params[i].name) == 0)
            return true;
    return false;
}

/* The problems of one `go` line: reported as one error line, the first
 * problem with a count of the others. */
typedef struct GoErrors {
    char first[400];
    int count;
} GoErrors;

static void go_error(GoErrors *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void go_error(GoErrors *e, const char *fmt, ...)
{
    if (e->count++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(e->first, sizeof e->first, fmt, ap);
        va_end(ap);
    }
}

/* What a `go` line asks for. */
typedef enum GoStatus {
    GO_STATUS_SEARCH,    /* a search under GoRequest.limits (and ponder) */
    GO_STATUS_PERFT,     /* `go perft N`: a perft of GoRequest.perft_depth */
    GO_STATUS_BAD_PERFT, /* `go perft` with a depth that is not one: nothing */
} GoStatus;

typedef struct GoRequest {
    SearchLimits limits;
    bool ponder;
    int perft_depth;
} GoRequest;

/* Parse `go` arguments into a request.  Every malformed, zero (where zero
 * means nothing), negative or out-of-range value, and every unknown word,
 * makes the search a depth-1 one, so bestmove follows at once and never
 * hangs; one error line for the whole go names the first problem. */
static GoStatus parse_go(const char *args, GoRequest *go)
{
    char tok[TOKEN_MAX], num[TOKEN_MAX], buf[96];
    const char *cur = args;
    SearchLimits *lim = &go->limits;
    bool *ponder = &go->ponder;
    search_limits_clear(lim);
    *ponder = false;
    go->perft_depth = 0;
    GoErrors errors = {"", 0};
    while (util_next_token(&cur, tok, sizeof tok)) {
        if (strcmp(tok, "infinite") == 0) {
            lim->infinite = true;
            continue;
        }
        if (strcmp(tok, "ponder") == 0) {
            /* Untimed until ponderhit, then under the clock given here. */
            *ponder = true;
            continue;
        }
        int which = -1;
        for (int i = 0; i < (int)(sizeof go_params / sizeof *go_params) && which < 0; i++)
            if (strcmp(tok, go_params[i].name) == 0)
                which = i;
        if (which < 0) {
            go_error(&errors, "go: unknown parameter '%s'; searching to depth 1", echo(tok, buf, sizeof buf));
            continue;
        }
        const char *save = cur;
        long long v = 0;
        size_t len = util_next_token(&cur, num, sizeof num);
        bool number = len > 0 && len < sizeof num && util_parse_number(num, LLONG_MIN, LLONG_MAX, &v);
        bool positive = go_params[which].positive;
        if (!number || v < 0 || (v == 0 && positive)) {
            if (go_params[which].param == GO_PERFT)
                return GO_STATUS_BAD_PERFT;
            if (!number) {
                bool missing = len == 0 || is_go_word(num);
                if (missing)
                    cur = save; /* the next parameter, not a bad value */
                go_error(&errors, "go: '%s' needs a whole number from %d to %lld%s%s%s; searching to "
                           "depth 1", tok, positive ? 1 : 0, go_param_max(go_params[which].param,
                           go_params[which].time), missing ? "" : ", not '",
                           missing ? "" : echo(num, buf, sizeof buf), missing ? "" : "'");
            } else {
                go_error(&errors, "go: '%s %s' is not a limit (%s); searching to depth 1", tok,
                           echo(num, buf, sizeof buf), positive ? "at least 1" : "at least 0");
            }
            continue;
        }
        if (go_params[which].time && v > GO_MAX_TIME_MS) {
            go_error(&errors, "go: '%s %s' is out of range (at most %lld ms, a year); searching to "
                       "depth 1", tok, echo(num, buf, sizeof buf), GO_MAX_TIME_MS);
            continue;
        }
        switch (go_params[which].param) {
        case GO_DEPTH: lim->depth = (int)(v < SEARCH_MAX_PLY - 1 ? v : SEARCH_MAX_PLY - 1); break;
        case GO_NODES: lim->nodes = (uint64_t)v; break;
        case GO_MOVETIME: lim->movetime = v; break;
        case GO_WTIME: lim->time[WHITE] = v; break;
        case GO_BTIME: lim->time[BLACK] = v; break;
        case GO_WINC: lim->inc[WHITE] = v; break;
        case GO_BINC: lim->inc[BLACK] = v; break;
        case GO_MOVESTOGO: lim->movestogo = (int)(v < INT_MAX ? v : INT_MAX); break;
        case GO_MATE: lim->depth = v < (SEARCH_MAX_PLY - 1) / 2 ? (int)(2 * v) : SEARCH_MAX_PLY - 1; break;
        case GO_PERFT:
            if (v > SESSION_MAX_PERFT_DEPTH)
                return GO_STATUS_BAD_PERFT;
            go->perft_depth = (int)v;
            return GO_STATUS_PERFT;
        }
    }
    if (errors.count) {
        if (errors.count > 1)
            error_line("%s (and %d more problem%s in this go)", errors.first, errors.count - 1,
                       errors.count > 2 ? "s" : "");
        else
            error_line("%s", errors.first);
        lim->infinite = false;
        *ponder = false;
        lim->depth = 1;
    }
    return GO_STATUS_SEARCH;
}

static void cmd_go(const char *args)
{
    GoRequest go;
    switch (parse_go(args, &go)) {
    case GO_STATUS_BAD_PERFT:
        error_line("go perft needs a depth from 0 to %d", SESSION_MAX_PERFT_DEPTH);
        return;
    case GO_STATUS_PERFT:
        session_perft(P.session, go.perft_depth);
        return;
    case GO_STATUS_SEARCH:
        break;
    }
    if (P.batch && session_search_unbounded(&go.limits, go.ponder)) {
        /* On the command line nobody can send stop. */
        error_line("go without depth, nodes, movetime or a clock never ends on the command "
                   "line; searching to depth 1");
        go.limits.infinite = false;
        go.ponder = false;
        go.limits.depth = 1;
    }
    session_go(P.session, &go.limits, go.ponder);
}

static void cmd_perft(const char *args)
{
    long long d;
    if (one_number_arg(args, 0, SESSION_MAX_PERFT_DEPTH, &d) != 1) {
        error_line("perft needs one depth from 0 to %d", SESSION_MAX_PERFT_DEPTH);
        return;
    }
    session_perft(P.session, (int)d);
}

static const char *side_name(int side) { return side == WHITE ? "white" : "black"; }

/* How the game stands: its result, and in why its reason and, where the
 * game scores one, the margin after margin_sep: "no pieces", or "counting
 * after move limit, margin 3" with margin_sep ", margin ". */
static Result result_text(const Game *g, const char *margin_sep, char *why, size_t size)
{
    int margin = 0;
    const char *reason = NULL;
    Result r = game_result(g, &margin, &reason);
    if (!reason)
        reason = "game over";
    if (game_scores_margin(g))
        snprintf(why, size, "%s%s%d", reason, margin_sep, margin);
    else
        snprintf(why, size, "%s", reason);
    return r;
}

/* Every legal move (or roll) of the current game in generate() order,
 * space-separated; empty when the game is over. */
static char *legal_move_list(int *count)
{
    const Game *g = game();
    const Variant *v = g->variant;
    Move moves[MAX_MOVES];
    int n = game_result(g, NULL, NULL) == RESULT_NONE ? v->generate(&g->pos, moves) : 0;
    size_t cap = (size_t)n * (MOVE_STR_MAX + 1) + 1;
    char *list = util_xmalloc(cap);
    size_t len = 0;
    list[0] = '\0';
    for (int i = 0; i < n; i++) {
        char text[MOVE_STR_MAX];
        v->move_str(&g->pos, moves[i], text);
        len += (size_t)snprintf(list + len, cap - len, "%s%s", i ? " " : "", text);
    }
    *count = n;
    return list;
}

/* The value with best play from the endgame tables: "win N" / "loss N" (N
 * plies to the end of the game), "draw", or, outside them, from the proof
 * book: "draw proven" (neither side can win), "win-or-draw proven" (the side
 * to move does not lose), "draw-or-loss proven" (it cannot win), else
 * "unknown". */
static void value_text(char *buf, size_t size)
{
    TbValue value;
    int book;
    if (!session_tablebase_value(P.session, &value)) {
        book = session_book_value(P.session);
        snprintf(buf, size, "%s",
                 book == 3   ? "draw proven"
                 : book == 1 ? "win-or-draw proven"
                 : book == 2 ? "draw-or-loss proven"
                             : "unknown");
    }
    else if (value.wdl == TB_DRAW)
        snprintf(buf, size, "draw");
    else
        snprintf(buf, size, "%s %d", value.wdl == TB_WIN ? "win" : "loss", value.plies);
}

static void cmd_display(const char *args)
{
    (void)args;
    const Game *g = game();
    const Variant *v = g->variant;
    const Position *pos = &g->pos;
    char *diagram = util_xmalloc(8192);
    v->diagram(pos, diagram, 8192);
    pthread_mutex_lock(&P.out_lock);
    fprintf(P.out, "%s", diagram);
    fflush(P.out);
    pthread_mutex_unlock(&P.out_lock);
    free(diagram);
    char fen[FEN_MAX];
    v->to_fen(pos, fen);
    reply("Variant: %s (%s)", v->name, v->title);
    reply("Fen: %s", fen);
    reply("Key: %016" PRIx64, v->key(pos));
    bool chance = session_is_chance(P.session);
    reply("Side to move: %s%s", side_name(v->side_to_move(pos)), chance ? " (to roll)" : "");
    char why[160];
    Result r = result_text(g, ", margin ", why, sizeof why);
    if (r != RESULT_NONE)
        reply("Result: %s (%s)", game_result_word(r), why);
    else
        reply("Result: none");
    if (v->describe) {
        char line[256];
        v->describe(pos, line, sizeof line);
        reply("Analysis: %s", line);
    }
    if (v->tablebase) {
        char value[64];
        value_text(value, sizeof value);
        reply("Tablebase: %s", value);
    }
    int n = 0;
    char *list = legal_move_list(&n);
    reply("%s (%d):%s%s", chance ? "Rolls" : "Legal moves", n, n ? " " : "", list);
    free(list);
}

/* ---------------------------------------------------------------- queries */

/* Each query answers exactly one `response ...` line, and prints nothing
 * before it: an error that explains a `response none` follows it. */
static void query_gameover(const char *args)
{
    (void)args;
    reply("response %s", game_result(game(), NULL, NULL) != RESULT_NONE ? "true" : "false");
}

static void query_p1turn(const char *args)
{
    (void)args;
    const Game *g = game();
    reply("response %s", g->variant->side_to_move(&g->pos) == WHITE ? "true" : "false");
}

static void query_result(const char *args)
{
    (void)args;
    Result r = game_result(game(), NULL, NULL); /* the reason: `d`, query position */
    reply("response %s", game_result_word(r));
}

static void query_fen(const char *args)
{
    (void)args;
    char fen[FEN_MAX];
    game()->variant->to_fen(&game()->pos, fen);
    reply("response %s", fen);
}

static void query_moves(const char *args)
{
    (void)args;
    int n = 0;
    char *list = legal_move_list(&n);
    reply("response %s", n ? list : "none");
    free(list);
}

static void query_chance(const char *args)
{
    (void)args;
    bool due = session_is_chance(P.session) && game_result(game(), NULL, NULL) == RESULT_NONE;
    reply("response %s", due ? "true" : "false");
}

static void query_value(const char *args)
{
    (void)args;
    char text[64];
    value_text(text, sizeof text);
    reply("response %s", text);
}

static void query_variant(const char *args)
{
    (void)args;
    reply("response %s", session_variant(P.session)->name);
}

/* The rules oracle's JSON (oracle.c; protocol.md, "Queries for GUIs").  The
 * objects are large (a full board, hundreds of legal moves): heap buffers. */
static void reply_json(bool ok, const char *json, const char *what)
{
    if (ok) {
        reply("response %s", json);
    } else {
        reply("response none");
        error_line("this game cannot describe its %s", what);
    }
}

static void query_board(const char *args)
{
    (void)args;
    char *buf = util_xmalloc(ORACLE_JSON_MAX);
    reply_json(oracle_board_json(game()->variant, buf, ORACLE_JSON_MAX), buf, "board");
    free(buf);
}

static void query_position(const char *args)
{
    (void)args;
    char *buf = util_xmalloc(ORACLE_JSON_MAX);
    reply_json(oracle_position_json(game(), buf, ORACLE_JSON_MAX), buf, "position");
    free(buf);
}

static void query_move(const char *args)
{
    char text[TOKEN_MAX], rest[TOKEN_MAX], err[160], buf[96];
    const char *cur = args;
    size_t len = util_next_token(&cur, text, sizeof text);
    char *json = util_xmalloc(ORACLE_JSON_MAX);
    if (len == 0) {
        snprintf(err, sizeof err, "query move needs a move");
    } else if (len >= sizeof text || util_next_token(&cur, rest, sizeof rest) > 0) {
        while (*args == ' ' || *args == '\t')
            args++;
        snprintf(err, sizeof err, "query move takes one move, not '%s'",
                 echo(args, buf, sizeof buf));
    } else if (oracle_move_text_json(game(), text, json, ORACLE_JSON_MAX, err, sizeof err)) {
        reply("response %s", json);
        free(json);
        return;
    }
    free(json);
    reply("response none");
    error_line("%s", err);
}

static void query_legal(const char *args)
{
    (void)args;
    char *buf = util_xmalloc(ORACLE_LEGAL_JSON_MAX);
    reply_json(oracle_legal_json(game(), buf, ORACLE_LEGAL_JSON_MAX), buf, "moves");
    free(buf);
}

/* The game so far: its variant, the FEN it started from and every move
 * (and roll) played since, as JSON (protocol.md, "query history"). */
static void query_history(const char *args)
{
    (void)args;
    const Game *g = game();
    const Variant *v = g->variant;
    size_t cap = 1024 + (size_t)g->ply * (MOVE_STR_MAX + 4);
    char *buf = util_xmalloc(cap), fen[FEN_MAX], text[MOVE_STR_MAX];
    JsonWriter w;
    json_init(&w, buf, cap);
    json_begin_object(&w);
    json_member_string(&w, "variant", v->name);
    v->to_fen(&g->start, fen);
    json_member_string(&w, "start", fen);
    json_key(&w, "moves");
    json_begin_array(&w);
    Position p = g->start, child;
    for (int i = 0; i < g->ply; i++) {
        v->move_str(&p, g->moves[i], text);
        json_string(&w, text);
        v->make(&p, g->moves[i], &child);
        p = child;
    }
    json_end_array(&w);
    json_end_object(&w);
    reply_json(json_ok(&w), buf, "history");
    free(buf);
}

/* Why the text is or is not a move now: `legal`, `movable` (a cell a legal
 * move starts from) or the reason, one sentence (refusal.c). */
static void query_why(const char *args)
{
    char why[REFUSAL_MAX];
    WhyKind k = refusal_explain(game(), args, why, sizeof why);
    reply("response %s", k == WHY_LEGAL ? "legal" : k == WHY_MOVABLE ? "movable" : why);
}

/* Every game `variant` takes, with its one-line description, as JSON:
 * [{"name":"solomon","title":"..."},...] in the registry's order. */
static void query_variants(const char *args)
{
    (void)args;
    char buf[8192];
    JsonWriter w;
    json_init(&w, buf, sizeof buf);
    json_begin_array(&w);
    for (int i = 0; i < variants_count(); i++) {
        json_begin_object(&w);
        json_key(&w, "name");
        json_string(&w, variants_get(i)->name);
        json_key(&w, "title");
        json_string(&w, variants_get(i)->title);
        json_end_object(&w);
    }
    json_end_array(&w);
    reply_json(json_ok(&w), buf, "games");
}

/* The one table of queries: `query <name> [args]`.  To add one, add a line. */
static const struct {
    const char *name;
    void (*run)(const char *args);
} queries[] = {
    {"gameover", query_gameover}, {"p1turn", query_p1turn}, {"result", query_result},
    {"fen", query_fen},           {"moves", query_moves},   {"chance", query_chance},
    {"variant", query_variant},   {"variants", query_variants},
    {"board", query_board},       {"position", query_position},
    {"move", query_move},         {"legal", query_legal},       {"value", query_value},
    {"history", query_history},   {"why", query_why},
};
enum { QUERY_COUNT = sizeof queries / sizeof queries[0] };

static void cmd_query(const char *args)
{
    char what[TOKEN_MAX], buf[96], names[256] = "";
    const char *cur = args;
    util_next_token(&cur, what, sizeof what);
    for (int i = 0; i < QUERY_COUNT; i++)
        if (strcmp(what, queries[i].name) == 0) {
            queries[i].run(cur);
            return;
        }
    size_t len = 0;
    for (int i = 0; i < QUERY_COUNT; i++)
        len += (size_t)snprintf(names + len, sizeof names - len, "%s%s", i ? ", " : "",
                                queries[i].name);
    /* A UGI client waits for a response: it gets one, saying nothing. */
    reply("response none");
    error_line("unknown query '%s' (%s)", echo(what, buf, sizeof buf), names);
}

static void cmd_roll(const char *args)
{
    (void)args;
    char text[MOVE_STR_MAX];
    if (!session_roll(P.session, text)) {
        error_line("no roll is due in this position");
        return;
    }
    reply("roll %s", text);
}

static void cmd_eval(const char *args)
{
    (void)args;
    const Game *g = game();
    int e = g->variant->evaluate(&g->pos);
    reply("info string eval %d (side to move: %s)", e, side_name(g->variant->side_to_move(&g->pos)));
}

static void cmd_bench(const char *args)
{
    long long d = 0;
    if (one_number_arg(args, 1, BENCH_MAX_DEPTH, &d) < 0) {
        error_line("bench takes an optional depth from 1 to %d", BENCH_MAX_DEPTH);
        return;
    }
    session_stop(P.session);
    pthread_mutex_lock(&P.out_lock);
    bench_run((int)d, P.out);
    fflush(P.out);
    pthread_mutex_unlock(&P.out_lock);
    search_clear();
}

static void cmd_help(const char *args);

/* The one table of commands: dispatch and `help`.  An entry with no help text
 * is an alias, listed in the usage of the entry it follows. */
static const struct {
    const char *name;
    void (*run)(const char *args);
    const char *usage;
    const char *help;
} commands[] = {
    {"uci", cmd_uci, "uci | ugi", "handshake: id, options, uciok | ugiok"},
    {"ugi", cmd_ugi, NULL, NULL},
    {"isready", cmd_isready, "isready", "answered 'readyok' at once"},
    {"setoption", cmd_setoption, "setoption name <N> [value <V>]", "set an option (see 'uci')"},
    {"variant", cmd_variant, "variant [<name>]", "select a game (its start) or show the current one"},
    {"ucinewgame", cmd_newgame, "ucinewgame | uginewgame", "forget the search state, back to the start"},
    {"uginewgame", cmd_newgame, NULL, NULL},
    {"position", cmd_position, "position startpos|fen <fen> [moves <m1> ...]", "set up a game"},
    {"move", cmd_move, "move <m1> [<m2> ...]", "play moves on the current game (all or nothing)"},
    {"undo", cmd_undo, "undo [N]", "take back N plies (default 1)"},
    {"go", cmd_go, "go [<limits>]",
     "search: depth N, nodes N, movetime MS, wtime|btime|winc|binc MS, movestogo N, "
     "p1time|p2time|p1inc|p2inc MS, mate N, infinite, ponder, perft N"},
    {"stop", cmd_stop, "stop", "end the search or perft; a search answers bestmove"},
    {"ponderhit", cmd_ponderhit, "ponderhit",
     "the pondered move was played: the search goes on under the clock"},
    {"perft", cmd_perft, "perft N", "count move sequences of length N, per move"},
    {"query", cmd_query, "query <what>",
     "gameover|p1turn|result|fen|moves|chance|variant|variants|board|position|move <m>|legal|"
     "value|history|why <m>"},
    {"roll", cmd_roll, "roll", "draw the pending dice roll and play it (option Seed)"},
    {"d", cmd_display, "d", "board, FEN, key, result and legal moves"},
    {"eval", cmd_eval, "eval", "static evaluation of the position"},
    {"bench", cmd_bench, "bench [depth]", "fixed search set: node signature and speed"},
    {"help", cmd_help, "help", "this text"},
    {"quit", NULL, "quit", "leave"},
    {"debug", cmd_nothing, NULL, NULL},
    {"register", cmd_nothing, NULL, NULL},
};
enum { COMMAND_COUNT = sizeof commands / sizeof commands[0] };

static void cmd_help(const char *args)
{
    (void)args;
    reply("Sigil commands (all of the protocol: man sigil, or %s/protocol.md):", SIGIL_DOCDIR);
    for (int i = 0; i < COMMAND_COUNT; i++)
        if (commands[i].help)
            reply("  %-45s %s", commands[i].usage, commands[i].help);
}

/* Execute one line.  Returns false on quit. */
static bool dispatch(const char *line)
{
    char cmd[TOKEN_MAX], buf[96];
    const char *cur = line;
    size_t len = util_next_token(&cur, cmd, sizeof cmd);
    if (len == 0)
        return true;
    if (len < sizeof cmd)
        for (int i = 0; i < COMMAND_COUNT; i++)
            if (strcmp(cmd, commands[i].name) == 0) {
                if (!commands[i].run)
                    return false; /* quit */
                commands[i].run(cur);
                return true;
            }
    error_line("unknown command '%s' (try 'help')", echo(len < sizeof cmd ? cmd : line, buf, sizeof buf));
    return true;
}

/* ------------------------------------------------------------- entry points */

void protocol_init(FILE *out)
{
    if (P.initialised)
        return;
    P.out = out;
    static const SessionOutput output = {
        .ctx = NULL,
        .info = on_info,
        .analysis = on_analysis,
        .finished = on_finished,
        .bestmove = on_bestmove,
        .perft_move = on_perft_move,
        .perft_done = on_perft_done,
        .notice = on_notice,
    };
    P.session = session_new(&output);
    P.initialised = true;
}

void protocol_shutdown(void)
{
    if (!P.initialised)
        return;
    session_free(P.session);
    P.session = NULL;
    P.initialised = false;
}

bool protocol_command(const char *line)
{
    P.batch = true;
    bool go_on = dispatch(line);
    session_wait(P.session);
    return go_on;
}

bool protocol_line(const char *line)
{
    P.batch = false;
    return dispatch(line);
}

const Game *protocol_game(void) { return P.session ? session_game(P.session) : NULL; }

/* The longest line read (protocol.md), and the buffer kept between lines:
 * after a longer line the buffer is released, so one huge line leaves no
 * lasting growth of the resident memory. */
enum { LINE_MAX_BYTES = 1 << 20, LINE_KEEP_BYTES = 1 << 16 };

/* Read one line without its '\n' into *buf (grown up to LINE_MAX_BYTES + 1
 * bytes).  1: a line; 0: end of input; -1: a line longer than LINE_MAX_BYTES,
 * read to its end and dropped. */
static int read_line(FILE *in, char **buf, size_t *cap)
{
    size_t len = 0;
    bool over = false;
    int c;
    flockfile(in);
    while ((c = getc_unlocked(in)) != EOF && c != '\n') {
        if (over)
            continue;
        if (len + 1 >= *cap) {
            if (*cap >= LINE_MAX_BYTES + 1) {
                over = true;
                continue;
            }
            size_t grown = *cap ? *cap * 2 : 256;
            if (grown > LINE_MAX_BYTES + 1)
                grown = LINE_MAX_BYTES + 1;
            *buf = util_xrealloc(*buf, grown);
            *cap = grown;
        }
        (*buf)[len++] = (char)c;
    }
    funlockfile(in);
    if (c == EOF && len == 0 && !over)
        return 0;
    if (*cap == 0) {
        *buf = util_xrealloc(*buf, 1);
        *cap = 1;
    }
    (*buf)[len] = '\0';
    return over ? -1 : 1;
}

int protocol_run(FILE *in, FILE *out)
{
    protocol_init(out);
    char *line = NULL;
    size_t cap = 0;
    bool go_on = true;
    int r;
    while (go_on && (r = read_line(in, &line, &cap)) != 0) {
        if (r < 0) {
            error_line("line longer than %d bytes: ignored", LINE_MAX_BYTES);
        } else {
            /* A NUL byte ends the command text; the rest of such a line is garbage. */
            line[strcspn(line, "\r")] = '\0';
            go_on = protocol_line(line);
        }
        if (cap > LINE_KEEP_BYTES) {
            free(line);
            line = NULL;
            cap = 0;
        }
    }
    free(line);
    /* End of input: a perft or a search with a limit finishes and answers
     * (a script gets its count or its move), one that only stop would end
     * is stopped.  quit: everything is stopped at once. */
    if (go_on)
        session_finish(P.session);
    protocol_shutdown();
    return 0;
}
