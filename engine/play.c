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

#include "game.h"
#include "session.h"
#include "util.h"
#include "variants.h"

#define PLAY_DEFAULT_THINK_MS 1000
#define PLAY_MAX_THINK_MS (24LL * 3600 * 1000)
#define LINE_MAX_PLAY 4096

typedef struct Play {
    Session *session;
    FILE *in, *out;
    bool human[2];        /* the sides a person plays */
    long long think_ms;   /* the engine's time per move */
    char best[MOVE_STR_MAX]; /* the worker's answer, read after session_wait */
    bool shown;           /* the current position has been drawn */
    bool over_announced;  /* the result of the current game has been printed */
} Play;

static const char *side_word(int side) { return side == WHITE ? "White" : "Black"; }

/* ------------------------------------------------------ session reports */

static void on_bestmove(void *ctx, const char *move, const char *ponder)
{
    (void)ponder;
    Play *p = ctx;
    snprintf(p->best, sizeof p->best, "%s", move);
}

static void on_notice(void *ctx, NoticeKind kind, const char *text)
{
    Play *p = ctx;
    fprintf(p->out, "%s%s\n", kind == NOTICE_ERROR ? "error: " : "", text);
}

/* --------------------------------------------------------------- output */

static void show_position(Play *p)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    char *diagram = util_xmalloc(8192);
    v->diagram(&g->pos, diagram, 8192);
    fprintf(p->out, "\n%s", diagram);
    free(diagram);
    int side = v->side_to_move(&g->pos);
    if (game_result(g, NULL, NULL) == RESULT_NONE)
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
            "  undo             take back your last move (and the engine's reply)\n"
            "  new              start a new game\n"
            "  side white|black|both|none   the side(s) you play; the engine plays the others\n"
            "  time <seconds>   the engine's thinking time per move (now %.3g s)\n"
            "  go               let the engine play the side to move now\n"
            "  board            draw the board again\n"
            "  fen              the position as a FEN\n"
            "  help             this text\n"
            "  quit             leave\n",
            (double)p->think_ms / 1000.0);
}

/* --------------------------------------------------------------- actions */

/* The engine plays one move for the side to move. */
static void engine_move(Play *p)
{
    const Game *g = session_game(p->session);
    const Variant *v = g->variant;
    int side = v->side_to_move(&g->pos);
    fprintf(p->out, "Sigil (%s) thinks for %.3g s...\n", side_word(side),
            (double)p->think_ms / 1000.0);
    fflush(p->out);
    SearchLimits lim;
    search_limits_clear(&lim);
    lim.movetime = p->think_ms;
    p->best[0] = '\0';
    session_go(p->session, &lim, false);
    session_wait(p->session);
    char err[256];
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
    return game_result(g, NULL, NULL) == RESULT_NONE && !session_is_chance(p->session) &&
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
    do
        session_undo(p->session, 1, err, sizeof err);
    while (someone && g->ply > 0 && !human_decides(p));
    fprintf(p->out, "Taken back to ply %d.\n", g->ply + 1);
    p->shown = false;
    p->over_announced = false;
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

/* Handle one line typed by the person; false on quit. */
static bool command(Play *p, char *line)
{
    char word[64], arg[64], extra[8];
    const char *cur = line;
    if (!util_next_token(&cur, word, sizeof word))
        return true;
    size_t arg_len = util_next_token(&cur, arg, sizeof arg);
    bool has_extra = util_next_token(&cur, extra, sizeof extra) > 0;
    const Game *g = session_game(p->session);

    if (strcasecmp(word, "quit") == 0 || strcasecmp(word, "exit") == 0)
        return false;
    if (strcasecmp(word, "help") == 0 || strcmp(word, "?") == 0)
        help(p);
    else if (strcasecmp(word, "moves") == 0)
        show_moves(p);
    else if (strcasecmp(word, "board") == 0)
        show_position(p);
    else if (strcasecmp(word, "fen") == 0) {
        char fen[FEN_MAX];
        g->variant->to_fen(&g->pos, fen);
        fprintf(p->out, "%s\n", fen);
    } else if (strcasecmp(word, "undo") == 0)
        undo(p);
    else if (strcasecmp(word, "new") == 0) {
        session_new_game(p->session);
        fprintf(p->out, "New game of %s.\n", g->variant->name);
        p->shown = false;
        p->over_announced = false;
    } else if (strcasecmp(word, "side") == 0) {
        if (!arg_len || has_extra || !set_side(p, arg))
            fprintf(p->out, "Say 'side white', 'side black', 'side both' or 'side none'.\n");
        else
            fprintf(p->out, "You play %s.\n", p->human[WHITE] && p->human[BLACK] ? "both sides"
                                                 : p->human[WHITE] ? "White"
                                                 : p->human[BLACK] ? "Black"
                                                                   : "no side (Sigil plays both)");
    } else if (strcasecmp(word, "time") == 0) {
        long long ms;
        if (!arg_len || has_extra || !parse_seconds(arg, &ms))
            fprintf(p->out, "Say 'time <seconds>', from 0.001 to 86400, e.g. 'time 2.5'.\n");
        else {
            p->think_ms = ms;
            fprintf(p->out, "Sigil thinks %.3g s per move.\n", (double)ms / 1000.0);
        }
    } else if (strcasecmp(word, "go") == 0) {
        if (game_result(g, NULL, NULL) != RESULT_NONE)
            fprintf(p->out, "The game is over.\n");
        else if (session_is_chance(p->session))
            roll_dice(p);
        else
            engine_move(p);
    } else if (arg_len || has_extra) {
        fprintf(p->out, "Unknown command '%.40s'. Type 'help'.\n", word);
    } else if (game_result(g, NULL, NULL) != RESULT_NONE) {
        fprintf(p->out, "The game is over: type 'new', 'undo' or 'quit'.\n");
    } else {
        char err[256];
        int side = g->variant->side_to_move(&g->pos);
        if (session_play(p->session, word, err, sizeof err)) {
            fprintf(p->out, "%s plays %s%s.\n", side_word(side), word,
                    strcmp(word, "0000") == 0 ? " (a pass)" : "");
            p->shown = false;
        } else {
            fprintf(p->out, "'%.40s' is not a legal move here. Type 'moves' for the list, "
                            "'help' for the commands.\n", word);
        }
    }
    return true;
}

/* ----------------------------------------------------------- the loop */

static int usage_error(FILE *out, const char *what)
{
    fprintf(out, "sigil play: %s\n"
                 "usage: sigil play [<variant>] [--side white|black|both|none] "
                 "[--time <seconds>] [--seed <n>]\n", what);
    return 2;
}

int play_main(int argc, char **argv, FILE *in, FILE *out)
{
    Play p = {.in = in, .out = out, .human = {true, false}, .think_ms = PLAY_DEFAULT_THINK_MS};
    const Variant *v = variants_default();
    const char *seed = NULL;
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
        } else if (a[0] != '-' && variants_find(a)) {
            v = variants_find(a);
        } else {
            char what[128];
            snprintf(what, sizeof what, "unknown argument '%.60s'", a);
            return usage_error(out, what);
        }
    }
    SessionOutput output = {.ctx = &p, .bestmove = on_bestmove, .notice = on_notice};
    p.session = session_new(&output);
    char err[256];
    if (seed && !session_set_option(p.session, "Seed", seed, err, sizeof err)) {
        session_free(p.session);
        return usage_error(out, err);
    }
    session_set_variant(p.session, v);
    fprintf(out, "Sigil %s: %s. Type 'help' for the commands.\n", v->name, v->title);

    char line[LINE_MAX_PLAY];
    bool go_on = true;
    while (go_on) {
        const Game *g = session_game(p.session);
        if (!p.shown)
            show_position(&p);
        if (game_result(g, NULL, NULL) != RESULT_NONE) {
            if (!p.over_announced)
                announce_result(&p);
        } else if (session_is_chance(p.session)) {
            roll_dice(&p);
            continue;
        } else if (!human_decides(&p)) {
            engine_move(&p);
            continue;
        }
        fprintf(out, "%s> ", game_result(g, NULL, NULL) != RESULT_NONE
                                 ? "sigil"
                                 : side_word(g->variant->side_to_move(&g->pos)));
        fflush(out);
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
