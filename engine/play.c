/* play.c - `sigil play`: a person plays a game against the engine at a plain
 * terminal.  Lines in, text out, no terminal control codes, so it works the
 * same on a pipe (the tests drive it that way).
 *
 * After every move the board is drawn again with whose turn it is.  The
 * person types moves in the game's notation or one of the commands of
 * `help`; the engine answers with a search of a chosen time.  Dice rolls
 * (games with dice) are drawn by the program for both sides and shown.
 */
#include "play.h"

#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "game.h"
#include "match/record.h"
#include "refusal.h"
#include "search.h"
#include "session.h"
#include "util.h"
#include "variants.h"

#define PLAY_DEFAULT_THINK_MS 1000
#define PLAY_MAX_THINK_MS (24LL * 3600 * 1000)
#define LINE_MAX_PLAY 4096
#define PLAY_HINT_MS 2000 /* a hint thinks this long at most */
/* The words of a score (centipawns from White's view, doc/levels.md). */
#define PLAY_EQUAL_CP 25
#define PLAY_SLIGHT_CP 75
#define PLAY_CLEAR_CP 200

typedef struct Play {
    Session *session;
    FILE *in, *out;
    bool human[2];        /* the sides a person plays */
    long long think_ms;   /* the engine's time per move */
    int level;            /* Sigil's Skill Level, 0..SKILL_MAX */
    char best[MOVE_STR_MAX]; /* the worker's answer, read after session_wait */
    bool shown;           /* the current position has been drawn */
    long long prompt_ms;  /* when the person was last asked for a move */
    bool over_announced;  /* the result of the current game has been printed */
    /* The last search's main line: its score (side to move's view) and depth. */
    int score, depth;
    bool has_score;
    /* Clocks (--clock): each side's time left, the increment; flagged is the
     * side whose time ran out (-1: none), which ends the game. */
    bool clocked;
    long long base_ms, inc_ms, left_ms[2];
    int flagged;
} Play;

static const char *side_word(int side) { return side == WHITE ? "White" : "Black"; }

/* ------------------------------------------------------ session reports */

static void on_bestmove(void *ctx, const char *move, const char *ponder)
{
    (void)ponder;
    Play *p = ctx;
    snprintf(p->best, sizeof p->best, "%s", move);
}

static void on_info(void *ctx, const Variant *v, const SearchInfo *info)
{
    (void)v;
    Play *p = ctx;
    if (info->multipv == 1 && info->depth > 0) {
        p->score = info->score;
        p->depth = info->depth;
        p->has_score = true;
    }
}

static void on_notice(void *ctx, NoticeKind kind, const char *text)
{
    Play *p = ctx;
    fprintf(p->out, "%s%s\n", kind == NOTICE_ERROR ? "error: " : "", text);
}

/* --------------------------------------------------------------- output */

/* True when the game has ended: on the board or by a flag fall. */
static bool game_over(const Play *p)
{
    return p->flagged >= 0 || game_result(session_game(p->session), NULL, NULL) != RESULT_NONE;
}

/* A clock as m:ss.t */
static void clock_text(long long ms, char *buf, size_t size)
{
    if (ms < 0)
        ms = 0;
    snprintf(buf, size, "%lld:%02lld.%lld", ms / 60000, ms / 1000 % 60, ms / 100 % 10);
}

static void show_clocks(Play *p)
{
    if (!p->clocked)
        return;
    char w[32], b[32];
    clock_text(p->left_ms[WHITE], w, sizeof w);
    clock_text(p->left_ms[BLACK], b, sizeof b);
    fprintf(p->out, "Clocks: White %s, Black %s.\n", w, b);
}

static void show_position(Play *p)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    char *diagram = util_xmalloc(8192);
    v->diagram(&g->pos, diagram, 8192);
    fprintf(p->out, "\n%s", diagram);
    free(diagram);
    int side = v->side_to_move(&g->pos);
    show_clocks(p);
    if (!game_over(p))
        fprintf(p->out, "Ply %d: %s to %s%s.\n", g->ply + 1, side_word(side),
                session_is_chance(p->session) ? "roll" : "move",
                p->human[side] ? " (you)" : " (Sigil)");
    p->shown = true;
}

static void show_moves(Play *p)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    Move moves[MAX_MOVES];
    int n = game_result(g, NULL, NULL) == RESULT_NONE ? v->generate(&g->pos, moves) : 0;
    fprintf(p->out, "%s (%d):", session_is_chance(p->session) ? "Rolls" : "Legal moves", n);
    for (int i = 0; i < n; i++) {
        char text[MOVE_STR_MAX];
        v->move_str(&g->pos, moves[i], text);
        fprintf(p->out, " %s", text);
    }
    fprintf(p->out, "\n");
}

static void announce_result(Play *p)
{
    const Game *g = session_game(p->session);
    if (p->flagged >= 0) {
        fprintf(p->out, "Game over: %s wins (%s's flag fell: %s ran out of time).\n",
                side_word(!p->flagged), side_word(p->flagged), side_word(p->flagged));
        fprintf(p->out, "Type 'new' for another game, 'save FILE' to keep it, 'quit' to "
                        "leave.\n");
        p->over_announced = true;
        return;
    }
    int margin = 0;
    const char *reason = NULL;
    Result r = game_result(g, &margin, &reason);
    char extra[64] = "";
    if (game_scores_margin(g) && r != RESULT_DRAW)
        snprintf(extra, sizeof extra, ", margin %d", margin);
    if (r == RESULT_DRAW)
        fprintf(p->out, "Game over: draw (%s).\n", reason ? reason : "game over");
    else
        fprintf(p->out, "Game over: %s wins (%s%s).\n",
                side_word(r == RESULT_WHITE_WINS ? WHITE : BLACK), reason ? reason : "game over",
                extra);
    fprintf(p->out, "Type 'new' for another game, 'undo' to take back, 'quit' to leave.\n");
    p->over_announced = true;
}

static void help(Play *p)
{
    fprintf(p->out,
            "Type a move in the game's notation (e.g. the first of 'moves'), or:\n"
            "  moves            list the legal moves\n"
            "  why <move|cell>  why a move is refused, or whether a piece can move\n"
            "  hint             the move Sigil suggests and what it thinks of the position\n"
            "  undo             take back your last move (and the engine's reply)\n"
            "  new              start a new game\n"
            "  side white|black|both|none   the side(s) you play; the engine plays the others\n"
            "  level <0-20>     Sigil's strength: 0 weakest, 20 full (now %d)\n"
            "  time <seconds>   the engine's thinking time per move (now %.3g s)\n"
            "  go               let the engine play the side to move now\n"
            "  board            draw the board again\n"
            "  fen              the position as a FEN\n"
            "  history          the moves played so far\n"
            "  save <file>      write the game as a PGN record (as sigil-match writes)\n"
            "  load <file>      open a PGN record (the first game) or a file with a FEN\n"
            "  help             this text\n"
            "  quit             leave\n",
            p->level, (double)p->think_ms / 1000.0);
}

/* --------------------------------------------------------------- actions */

/* Charge a side's clock for a move that took ms and add the increment;
 * false (the game over by a flag fall) when the time ran out first. */
static bool charge_clock(Play *p, int side, long long ms)
{
    p->left_ms[side] -= ms;
    if (p->left_ms[side] < 0) {
        p->left_ms[side] = 0;
        p->flagged = side;
        fprintf(p->out, "%s's flag fell: %s ran out of time.\n", side_word(side),
                side_word(side));
        return false;
    }
    p->left_ms[side] += p->inc_ms;
    return true;
}

static void reset_clocks(Play *p)
{
    p->left_ms[WHITE] = p->left_ms[BLACK] = p->base_ms;
    p->flagged = -1;
}

/* The engine plays one move for the side to move. */
static void engine_move(Play *p)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    int side = v->side_to_move(&g->pos);
    SearchLimits lim;
    search_limits_clear(&lim);
    if (p->clocked) {
        fprintf(p->out, "Sigil (%s) thinks on its clock...\n", side_word(side));
        for (int c = 0; c < 2; c++) {
            lim.time[c] = p->left_ms[c] > 0 ? p->left_ms[c] : 0;
            lim.inc[c] = p->inc_ms;
        }
    } else {
        fprintf(p->out, "Sigil (%s) thinks for %.3g s...\n", side_word(side),
                (double)p->think_ms / 1000.0);
        lim.movetime = p->think_ms;
    }
    fflush(p->out);
    p->best[0] = '\0';
    long long t0 = util_now_ms();
    session_go(p->session, &lim, false);
    session_wait(p->session);
    if (p->clocked && !charge_clock(p, side, util_now_ms() - t0))
        return;
    char err[512];
    /* The game is not over here, so "0000" is a pass (in games
     * where passing is a move). */
    if (!p->best[0] || !session_play(p->session, p->best, err, sizeof err)) {
        fprintf(p->out, "Sigil found no move to play (%s).\n", p->best[0] ? err : "no answer");
        return;
    }
    fprintf(p->out, "Sigil (%s) plays %s%s.\n", side_word(side), p->best,
            strcmp(p->best, "0000") == 0 ? " (a pass)" : "");
    p->shown = false;
}

static void roll_dice(Play *p)
{
    const Game *g = session_game(p->session);
    int side = g->variant->side_to_move(&g->pos);
    char text[MOVE_STR_MAX];
    if (session_roll(p->session, text)) {
        fprintf(p->out, "%s rolls the dice: %s.\n", side_word(side), text);
        p->shown = false;
    }
}

/* True when the person decides at the current position. */
static bool human_decides(const Play *p)
{
    const Game *g = session_game(p->session);
    return !game_over(p) && !session_is_chance(p->session) &&
           p->human[g->variant->side_to_move(&g->pos)];
}

/* Take back to the previous position where the person was to move (one ply
 * when nobody or everybody is human). */
static void undo(Play *p)
{
    const Game *g = session_game(p->session);
    if (g->ply == 0) {
        fprintf(p->out, "Nothing to take back.\n");
        return;
    }
    char err[128];
    bool someone = p->human[WHITE] || p->human[BLACK];
    int before = g->ply;
    do
        session_undo(p->session, 1, err, sizeof err);
    while (someone && g->ply > 0 && !human_decides(p));
    p->over_announced = false;
    /* The board first, then what happened: the diagram's counters and the
     * "Ply N" line below it read in order. */
    show_position(p);
    fprintf(p->out, "Taken back %d %s: ply %d is to play again.\n", before - g->ply,
            before - g->ply == 1 ? "ply" : "plies", g->ply + 1);
}

static bool set_side(Play *p, const char *word)
{
    if (strcasecmp(word, "white") == 0)
        p->human[WHITE] = true, p->human[BLACK] = false;
    else if (strcasecmp(word, "black") == 0)
        p->human[WHITE] = false, p->human[BLACK] = true;
    else if (strcasecmp(word, "both") == 0)
        p->human[WHITE] = p->human[BLACK] = true;
    else if (strcasecmp(word, "none") == 0)
        p->human[WHITE] = p->human[BLACK] = false;
    else
        return false;
    return true;
}

/* Seconds as a decimal (e.g. 0.5, 2, 10) into ms; false when malformed. */
static bool parse_seconds(const char *text, long long *ms)
{
    int digits = 0, dots = 0;
    for (const char *c = text; *c; c++) {
        if (isdigit((unsigned char)*c))
            digits++;
        else if (*c == '.')
            dots++;
        else
            return false;
    }
    if (digits == 0 || dots > 1 || strlen(text) > 12)
        return false;
    double s = strtod(text, NULL);
    long long v = (long long)(s * 1000.0 + 0.5);
    if (v < 1 || v > PLAY_MAX_THINK_MS)
        return false;
    *ms = v;
    return true;
}

/* What a score (side to move's view) says, in words, from White's side:
 * "White is clearly better (+1.80)". */
static void score_words(int score, int side, char *buf, size_t size)
{
    int white = side == WHITE ? score : -score;
    char text[64];
    search_format_score(white, text);
    if (strncmp(text, "mate ", 5) == 0) {
        int moves = atoi(text + 5);
        if (moves == 0)
            snprintf(buf, size, "the game is decided");
        else
            snprintf(buf, size, "%s wins by force in %d move%s", moves > 0 ? "White" : "Black",
                     abs(moves), abs(moves) == 1 ? "" : "s");
        return;
    }
    const char *leader = white > 0 ? "White" : "Black";
    int a = abs(white);
    char how[64];
    if (a < PLAY_EQUAL_CP)
        snprintf(how, sizeof how, "the position is about equal");
    else if (a < PLAY_SLIGHT_CP)
        snprintf(how, sizeof how, "%s is slightly better", leader);
    else if (a < PLAY_CLEAR_CP)
        snprintf(how, sizeof how, "%s is clearly better", leader);
    else
        snprintf(how, sizeof how, "%s is winning", leader);
    snprintf(buf, size, "%s (%+.2f)", how, white / 100.0);
}

/* hint: a full-strength search of the position for the side to move. */
static void hint(Play *p)
{
    const Game *g = session_game(p->session);
    if (game_over(p)) {
        fprintf(p->out, "The game is over: no hint.\n");
        return;
    }
    if (session_is_chance(p->session)) {
        fprintf(p->out, "A roll is due: the dice decide, not a hint.\n");
        return;
    }
    char err[256], level[16];
    session_set_option(p->session, "Skill Level", "20", err, sizeof err);
    SearchLimits lim;
    search_limits_clear(&lim);
    lim.movetime = p->think_ms < PLAY_HINT_MS ? p->think_ms : PLAY_HINT_MS;
    p->best[0] = '\0';
    p->has_score = false;
    session_go(p->session, &lim, false);
    session_wait(p->session);
    snprintf(level, sizeof level, "%d", p->level);
    session_set_option(p->session, "Skill Level", level, err, sizeof err);
    int side = g->variant->side_to_move(&g->pos);
    char words[128] = "no evaluation";
    if (p->has_score)
        score_words(p->score, side, words, sizeof words);
    if (!p->best[0] || strcmp(p->best, "0000") == 0)
        fprintf(p->out, "Sigil has no move to suggest; %s.\n", words);
    else
        fprintf(p->out, "Sigil suggests %s; %s.\n", p->best, words);
}

/* history: the moves so far, numbered by White's moves, rolls included. */
static void history(Play *p)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    char fen[FEN_MAX], start[FEN_MAX];
    Position startpos;
    v->startpos(&startpos, &g->config);
    v->to_fen(&startpos, start);
    v->to_fen(&g->start, fen);
    if (strcmp(fen, start) != 0)
        fprintf(p->out, "From %s:\n", fen);
    if (g->ply == 0) {
        fprintf(p->out, "No moves yet.\n");
        return;
    }
    Position pos = g->start, child;
    int number = 0, prev = -1;
    for (int i = 0; i < g->ply; i++) {
        char text[MOVE_STR_MAX];
        int side = v->side_to_move(&pos);
        if (side == WHITE && prev != WHITE)
            fprintf(p->out, "%s%d.", i ? "\n" : "", ++number);
        else if (i == 0)
            fprintf(p->out, "%d...", ++number);
        v->move_str(&pos, g->moves[i], text);
        fprintf(p->out, " %s", text);
        v->make(&pos, g->moves[i], &child);
        pos = child;
        prev = side;
    }
    fprintf(p->out, "\n");
}

/* The time control as PGN writes it: "300+3", or "-" without clocks. */
static void time_control(const Play *p, char *buf, size_t size)
{
    if (!p->clocked)
        snprintf(buf, size, "-");
    else if (p->inc_ms)
        snprintf(buf, size, "%g+%g", p->base_ms / 1000.0, p->inc_ms / 1000.0);
    else
        snprintf(buf, size, "%g", p->base_ms / 1000.0);
}

/* save FILE: the game as the PGN record sigil-match writes (match/record.c). */
static void save_game(Play *p, const char *path)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    Record r;
    memset(&r, 0, sizeof r);
    snprintf(r.event, sizeof r.event, "sigil play");
    snprintf(r.site, sizeof r.site, "?");
    time_t now = time(NULL);
    struct tm tm;
    if (localtime_r(&now, &tm))
        strftime(r.date, sizeof r.date, "%Y.%m.%d", &tm);
    else
        snprintf(r.date, sizeof r.date, "????.??.??");
    snprintf(r.round, sizeof r.round, "1");
    snprintf(r.white, sizeof r.white, "%s", p->human[WHITE] ? "You" : "Sigil");
    snprintf(r.black, sizeof r.black, "%s", p->human[BLACK] ? "You" : "Sigil");
    snprintf(r.variant, sizeof r.variant, "%s", v->name);
    v->to_fen(&g->start, r.fen);
    time_control(p, r.white_tc, sizeof r.white_tc);
    snprintf(r.black_tc, sizeof r.black_tc, "%s", r.white_tc);
    if (v->rule_options & GAME_OPTION_MOVE_LIMIT)
        r.move_limit = g->config.move_limit;
    int margin = 0;
    const char *reason = NULL;
    Result res = game_result(g, &margin, &reason);
    if (p->flagged >= 0) {
        res = p->flagged == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
        r.termination = TERM_TIME_FORFEIT;
        snprintf(r.detail, sizeof r.detail, "%s loses on time", side_word(p->flagged));
    } else if (res != RESULT_NONE) {
        snprintf(r.detail, sizeof r.detail, "%s", reason && *reason ? reason : "game over");
        r.has_margin = game_scores_margin(g);
        r.margin = margin;
    } else {
        r.termination = TERM_ABANDONED;
        snprintf(r.detail, sizeof r.detail, "unfinished");
    }
    snprintf(r.result, sizeof r.result, "%s", record_result_token(res));
    RecordMoveList list = {0};
    Position pos = g->start, child;
    for (int i = 0; i < g->ply; i++) {
        RecordMove *m = record_push(&list);
        m->side = v->side_to_move(&pos);
        m->is_roll = v->is_chance && v->is_chance(&pos);
        v->move_str(&pos, g->moves[i], m->text);
        v->make(&pos, g->moves[i], &child);
        pos = child;
    }
    r.nmoves = list.n;
    r.moves = list.m;
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(p->out, "Cannot write '%.200s': %s.\n", path, strerror(errno));
    } else {
        record_write(f, &r, false, false);
        if (fclose(f) != 0)
            fprintf(p->out, "Cannot write '%.200s': %s.\n", path, strerror(errno));
        else
            fprintf(p->out, "Saved the game (%d plies) to %.200s.\n", g->ply, path);
    }
    free(list.m);
}

typedef struct LoadState {
    bool found;
    char variant[64], fen[FEN_MAX];
    char *moves;
} LoadState;

static bool load_visit(const PgnGame *game, void *ctx)
{
    LoadState *st = ctx;
    st->found = true;
    snprintf(st->variant, sizeof st->variant, "%s", game->variant);
    snprintf(st->fen, sizeof st->fen, "%s", game->fen);
    size_t cap = strlen(game->movetext) + 2, len = 0;
    st->moves = util_xmalloc(cap);
    st->moves[0] = '\0';
    const char *cur = game->movetext;
    char tok[MOVE_STR_MAX * 2];
    while (record_next_move(&cur, tok, sizeof tok) && len < cap)
        len += (size_t)snprintf(st->moves + len, cap - len, "%s%s", len ? " " : "", tok);
    return false; /* the first game only */
}

/* The text after leading blanks. */
static const char *skip_blank(const char *t)
{
    while (*t && isspace((unsigned char)*t))
        t++;
    return t;
}

/* load FILE: a PGN record (its first game) or a file whose first line is a
 * FEN (of the current game, or else of the first game that reads it). */
static void load_game(Play *p, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(p->out, "Cannot open '%.200s': %s.\n", path, strerror(errno));
        return;
    }
    char first[FEN_MAX * 2] = "";
    while (fgets(first, sizeof first, f) && !*skip_blank(first))
        ;
    first[strcspn(first, "\r\n")] = '\0';
    char err[512];
    const Variant *v = session_variant(p->session);
    if (*skip_blank(first) == '[') { /* PGN */
        rewind(f);
        LoadState st = {0};
        record_read_pgn(f, load_visit, &st);
        fclose(f);
        const Variant *pv = st.found && st.variant[0] ? variants_find(st.variant) : v;
        if (!st.found || !pv) {
            fprintf(p->out, "'%.200s' holds no game Sigil plays%s%.60s.\n", path,
                    st.variant[0] ? ": unknown variant " : "", st.variant);
            free(st.moves);
            return;
        }
        session_set_variant(p->session, pv);
        bool ok = session_set_position(p->session, st.fen[0] ? st.fen : NULL, st.moves, err,
                                       sizeof err);
        free(st.moves);
        if (!ok) {
            session_set_variant(p->session, v);
            fprintf(p->out, "Cannot load '%.200s': %s.\n", path, err);
            return;
        }
    } else {
        fclose(f);
        const char *fen = skip_blank(first);
        bool ok = *fen && session_set_position(p->session, fen, NULL, err, sizeof err);
        for (int i = 0; *fen && !ok && i < variants_count(); i++) {
            char other[512];
            session_set_variant(p->session, variants_get(i));
            ok = session_set_position(p->session, fen, NULL, other, sizeof other);
        }
        if (!ok) {
            session_set_variant(p->session, v);
            fprintf(p->out, "Cannot load '%.200s': not a PGN record, and its first line is no "
                            "FEN of any game.\n", path);
            return;
        }
    }
    const Game *g = session_game(p->session);
    reset_clocks(p);
    p->over_announced = false;
    fprintf(p->out, "Loaded %s from %.200s: %d plies played.\n", g->variant->name, path, g->ply);
    p->shown = false;
}

/* level N: Sigil's Skill Level. */
static bool set_level(Play *p, const char *text)
{
    long long n;
    char err[256];
    if (!util_parse_number(text, 0, SKILL_MAX, &n) ||
        !session_set_option(p->session, "Skill Level", text, err, sizeof err))
        return false;
    p->level = (int)n;
    return true;
}

/* One typed line split into words: the command, its argument and whether more follows. */
typedef struct {
    const char *word, *arg;
    size_t arg_len, arg_size;
    bool has_extra;
} Typed;

static void cmd_help(Play *p, const Typed *t)
{
    (void)t;
    help(p);
}

static void cmd_moves(Play *p, const Typed *t)
{
    (void)t;
    show_moves(p);
}

static void cmd_board(Play *p, const Typed *t)
{
    (void)t;
    show_position(p);
}

static void cmd_fen(Play *p, const Typed *t)
{
    (void)t;
    const Game *g = session_game(p->session);
    char fen[FEN_MAX];
    g->variant->to_fen(&g->pos, fen);
    fprintf(p->out, "%s\n", fen);
}

static void cmd_undo(Play *p, const Typed *t)
{
    (void)t;
    if (p->flagged >= 0)
        fprintf(p->out, "The game ended on time: type 'new', 'save FILE' or 'quit'.\n");
    else
        undo(p);
}

static void cmd_hint(Play *p, const Typed *t)
{
    (void)t;
    hint(p);
}

static void cmd_history(Play *p, const Typed *t)
{
    (void)t;
    history(p);
}

static void cmd_why(Play *p, const Typed *t)
{
    char why[REFUSAL_MAX];
    WhyKind k = refusal_explain(session_game(p->session), t->arg, why, sizeof why);
    fprintf(p->out, "%s\n", k == WHY_LEGAL     ? "That is a legal move."
                            : k == WHY_MOVABLE ? "That piece can move."
                                               : why);
}

static void cmd_level(Play *p, const Typed *t)
{
    if (!t->arg_len)
        fprintf(p->out, "Sigil plays at level %d (0 weakest, 20 full strength).\n", p->level);
    else if (t->has_extra || !set_level(p, t->arg))
        fprintf(p->out, "Say 'level <0-20>': 0 is the weakest, 20 full strength.\n");
    else
        fprintf(p->out, "Sigil plays at level %d.\n", p->level);
}

/* save and load take one file name; false (having said so) when the line has none. */
static bool file_argument(Play *p, const Typed *t)
{
    if (t->arg_len && !t->has_extra && t->arg_len < t->arg_size)
        return true;
    fprintf(p->out, "Say '%s <file>' (a file name without spaces).\n", t->word);
    return false;
}

static void cmd_save(Play *p, const Typed *t)
{
    if (file_argument(p, t))
        save_game(p, t->arg);
}

static void cmd_load(Play *p, const Typed *t)
{
    if (file_argument(p, t))
        load_game(p, t->arg);
}

static void cmd_new(Play *p, const Typed *t)
{
    (void)t;
    const Game *g = session_game(p->session);
    session_new_game(p->session);
    reset_clocks(p);
    fprintf(p->out, "New game of %s.\n", g->variant->name);
    p->shown = false;
    p->over_announced = false;
}

static void cmd_side(Play *p, const Typed *t)
{
    if (!t->arg_len || t->has_extra || !set_side(p, t->arg))
        fprintf(p->out, "Say 'side white', 'side black', 'side both' or 'side none'.\n");
    else
        fprintf(p->out, "You play %s.\n", p->human[WHITE] && p->human[BLACK] ? "both sides"
                                             : p->human[WHITE] ? "White"
                                             : p->human[BLACK] ? "Black"
                                                               : "no side (Sigil plays both)");
}

static void cmd_time(Play *p, const Typed *t)
{
    long long ms;
    if (!t->arg_len || t->has_extra || !parse_seconds(t->arg, &ms))
        fprintf(p->out, "Say 'time <seconds>', from 0.001 to 86400, e.g. 'time 2.5'.\n");
    else {
        p->think_ms = ms;
        fprintf(p->out, "Sigil thinks %.3g s per move.\n", (double)ms / 1000.0);
    }
}

static void cmd_go(Play *p, const Typed *t)
{
    (void)t;
    if (game_over(p))
        fprintf(p->out, "The game is over.\n");
    else if (session_is_chance(p->session))
        roll_dice(p);
    else
        engine_move(p);
}

/* A line that names no command: a move, if it is one word and the game goes on. */
static void play_typed_move(Play *p, const Typed *t)
{
    const Game *g = session_game(p->session);
    if (t->arg_len || t->has_extra) {
        fprintf(p->out, "Unknown command '%.40s'. Type 'help'.\n", t->word);
        return;
    }
    if (game_over(p)) {
        fprintf(p->out, "The game is over: type 'new', 'undo' or 'quit'.\n");
        return;
    }
    char err[512];
    int side = g->variant->side_to_move(&g->pos);
    long long spent = util_now_ms() - p->prompt_ms;
    if (p->clocked && p->human[side] && spent > p->left_ms[side]) {
        charge_clock(p, side, spent); /* too late: the flag fell first */
    } else if (session_play(p->session, t->word, err, sizeof err)) {
        if (p->clocked && p->human[side])
            charge_clock(p, side, spent);
        fprintf(p->out, "%s plays %s%s.\n", side_word(side), t->word,
                strcmp(t->word, "0000") == 0 ? " (a pass)" : "");
        p->shown = false;
    } else {
        /* The same reason as the protocol's error line (refusal.c). */
        fprintf(p->out, "%s.\nType 'moves' for the list, 'help' for the commands.\n", err);
    }
}

/* The commands, matched in this order, case-insensitively. A line whose arguments do not
 * fit its command's rule is read as a move (and so refused or called unknown). */
enum { ARGS_ANY, ARGS_NONE, ARGS_ONE };
static const struct {
    const char *name;
    int args;
    void (*run)(Play *p, const Typed *t);
} commands[] = {
    {"help", ARGS_ANY, cmd_help},   {"?", ARGS_ANY, cmd_help},
    {"moves", ARGS_ANY, cmd_moves}, {"board", ARGS_ANY, cmd_board},
    {"fen", ARGS_ANY, cmd_fen},     {"undo", ARGS_ANY, cmd_undo},
    {"hint", ARGS_NONE, cmd_hint},  {"history", ARGS_NONE, cmd_history},
    {"why", ARGS_ONE, cmd_why},     {"level", ARGS_ANY, cmd_level},
    {"save", ARGS_ANY, cmd_save},   {"load", ARGS_ANY, cmd_load},
    {"new", ARGS_ANY, cmd_new},     {"side", ARGS_ANY, cmd_side},
    {"time", ARGS_ANY, cmd_time},   {"go", ARGS_ANY, cmd_go},
};

/* Handle one line typed by the person; false on quit. */
static bool command(Play *p, char *line)
{
    char word[64], arg[1024], extra[8];
    const char *cur = line;
    if (!util_next_token(&cur, word, sizeof word))
        return true;
    Typed t = {.word = word, .arg = arg, .arg_size = sizeof arg};
    t.arg_len = util_next_token(&cur, arg, sizeof arg);
    t.has_extra = util_next_token(&cur, extra, sizeof extra) > 0;

    if (strcasecmp(word, "quit") == 0 || strcasecmp(word, "exit") == 0)
        return false;
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++) {
        bool fits = commands[i].args == ARGS_ANY ||
                    (commands[i].args == ARGS_NONE && !t.arg_len) ||
                    (commands[i].args == ARGS_ONE && t.arg_len && !t.has_extra);
        if (strcasecmp(word, commands[i].name) == 0 && fits) {
            commands[i].run(p, &t);
            return true;
        }
    }
    play_typed_move(p, &t);
    return true;
}

/* ----------------------------------------------------------- the loop */

static int usage_error(FILE *out, const char *what)
{
    fprintf(out, "sigil play: %s\n"
                 "usage: sigil play [<variant>] [--side white|black|both|none] "
                 "[--time <seconds>] [--seed <n>] [--level <0-20>] [--clock <min>+<sec>] "
                 "[--fen <fen>]\n", what);
    return 2;
}

/* "5+3": minutes (a decimal) + seconds of increment (a decimal); "5" alone
 * has no increment.  False when malformed or out of range. */
static bool parse_clock(const char *text, long long *base_ms, long long *inc_ms)
{
    char base[32], inc[32] = "0";
    const char *plus = strchr(text, '+');
    size_t n = plus ? (size_t)(plus - text) : strlen(text);
    if (n == 0 || n >= sizeof base || (plus && strlen(plus + 1) >= sizeof inc))
        return false;
    memcpy(base, text, n);
    base[n] = '\0';
    if (plus)
        snprintf(inc, sizeof inc, "%s", plus + 1);
    long long b, i = 0;
    if (!parse_seconds(base, &b) || (strcmp(inc, "0") != 0 && !parse_seconds(inc, &i)))
        return false;
    *base_ms = b * 60; /* parse_seconds read minutes as seconds */
    *inc_ms = i;
    return *base_ms <= PLAY_MAX_THINK_MS;
}

int play_main(int argc, char **argv, FILE *in, FILE *out)
{
    Play p = {.in = in, .out = out, .human = {true, false}, .think_ms = PLAY_DEFAULT_THINK_MS,
              .level = SKILL_MAX, .flagged = -1};
    const Variant *v = variants_default();
    const char *seed = NULL, *level = NULL, *fen = NULL;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        bool has_value = i + 1 < argc;
        if (strcmp(a, "--side") == 0 && has_value) {
            if (!set_side(&p, argv[++i]))
                return usage_error(out, "--side takes white, black, both or none");
        } else if (strcmp(a, "--time") == 0 && has_value) {
            if (!parse_seconds(argv[++i], &p.think_ms))
                return usage_error(out, "--time takes seconds from 0.001 to 86400");
        } else if (strcmp(a, "--seed") == 0 && has_value) {
            seed = argv[++i];
        } else if (strcmp(a, "--level") == 0 && has_value) {
            level = argv[++i];
        } else if (strcmp(a, "--fen") == 0 && has_value) {
            fen = argv[++i];
        } else if (strcmp(a, "--clock") == 0 && has_value) {
            if (!parse_clock(argv[++i], &p.base_ms, &p.inc_ms))
                return usage_error(out, "--clock takes <minutes>+<seconds>, e.g. 5+3 or 0.5");
            p.clocked = true;
        } else if (a[0] != '-' && variants_find(a)) {
            v = variants_find(a);
        } else {
            char what[128];
            snprintf(what, sizeof what, "unknown argument '%.60s'", a);
            return usage_error(out, what);
        }
    }
    SessionOutput output = {
        .ctx = &p, .info = on_info, .bestmove = on_bestmove, .notice = on_notice};
    p.session = session_new(&output);
    char err[512];
    if (seed && !session_set_option(p.session, "Seed", seed, err, sizeof err)) {
        session_free(p.session);
        return usage_error(out, err);
    }
    if (level && !set_level(&p, level)) {
        session_free(p.session);
        return usage_error(out, "--level takes a whole number from 0 to 20");
    }
    session_set_variant(p.session, v);
    if (fen && !session_set_position(p.session, fen, NULL, err, sizeof err)) {
        char what[700];
        snprintf(what, sizeof what, "--fen: not a %s position: %s", v->name, err);
        session_free(p.session);
        return usage_error(out, what);
    }
    reset_clocks(&p);
    fprintf(out, "Sigil %s: %s. Type 'help' for the commands.\n", v->name, v->title);

    char line[LINE_MAX_PLAY];
    bool go_on = true;
    while (go_on) {
        const Game *g = session_game(p.session);
        if (!p.shown)
            show_position(&p);
        if (game_over(&p)) {
            if (!p.over_announced)
                announce_result(&p);
        } else if (session_is_chance(p.session)) {
            roll_dice(&p);
            continue;
        } else if (!human_decides(&p)) {
            engine_move(&p);
            continue;
        }
        fprintf(out, "%s> ", game_over(&p) ? "sigil"
                                            : side_word(g->variant->side_to_move(&g->pos)));
        fflush(out);
        p.prompt_ms = util_now_ms();
        if (!fgets(line, sizeof line, in)) {
            fprintf(out, "\n");
            break;
        }
        if (!strchr(line, '\n') && !feof(in)) {
            int c;
            while ((c = fgetc(in)) != EOF && c != '\n')
                ;
            fprintf(out, "That line is too long.\n");
            continue;
        }
        line[strcspn(line, "\r\n")] = '\0';
        go_on = command(&p, line);
    }
    session_free(p.session);
    fflush(out);
    return 0;
}
