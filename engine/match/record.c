/* record.c - writing and replaying game records (see record.h). */
#include "record.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "util.h"
#include "variants.h"

const char *record_result_token(Result r)
{
    switch (r) {
    case RESULT_WHITE_WINS: return "1-0";
    case RESULT_BLACK_WINS: return "0-1";
    case RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

/* A tag value with quotes and backslashes made harmless. */
static void write_tag(FILE *f, const char *name, const char *value)
{
    fprintf(f, "[%s \"", name);
    for (const char *p = value; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '"' || c == '\\')
            fputc('\\', f);
        fputc(c < 0x20 ? ' ' : c, f);
    }
    fprintf(f, "\"]\n");
}

/* Movetext with lines wrapped before 80 columns. */
typedef struct Wrap {
    FILE *f;
    int col;
} Wrap;

static void put_token(Wrap *w, const char *tok)
{
    int len = (int)strlen(tok);
    if (w->col > 0 && w->col + 1 + len > 79) {
        fputc('\n', w->f);
        w->col = 0;
    }
    if (w->col > 0) {
        fputc(' ', w->f);
        w->col++;
    }
    fputs(tok, w->f);
    w->col += len;
}

/* A comment is written whole (it may run past column 79 if it is long). */
static void put_comment(Wrap *w, const RecordMove *m, bool nodes)
{
    char buf[128];
    if (m->book) {
        put_token(w, "{book}");
        return;
    }
    if (!m->has_time)
        return;
    char score[32] = "";
    if (m->has_score) {
        if (m->mate)
            snprintf(score, sizeof score, "%sM%d", m->score >= 0 ? "+" : "-", abs(m->score));
        else
            snprintf(score, sizeof score, "%+.2f", m->score / 100.0);
        if (m->depth > 0) {
            size_t n = strlen(score);
            snprintf(score + n, sizeof score - n, "/%d", m->depth);
        }
        strcat(score, " ");
    }
    if (nodes && m->nodes > 0)
        snprintf(buf, sizeof buf, "{%s%.3fs n=%lld}", score, m->time_ms / 1000.0, m->nodes);
    else
        snprintf(buf, sizeof buf, "{%s%.3fs}", score, m->time_ms / 1000.0);
    put_token(w, buf);
}

const char *record_termination_tag(RecordTermination t)
{
    switch (t) {
    case TERM_ADJUDICATION: return "adjudication";
    case TERM_TIME_FORFEIT: return "time forfeit";
    case TERM_RULES_INFRACTION: return "rules infraction";
    case TERM_ABANDONED: return "abandoned";
    default: return "normal";
    }
}

RecordMove *record_push(RecordMoveList *l)
{
    if (l->n == l->cap) {
        int cap = l->cap ? l->cap * 2 : 128;
        RecordMove *m = realloc(l->m, (size_t)cap * sizeof *m);
        if (!m) {
            fprintf(stderr, "sigil-match: out of memory\n");
            exit(1);
        }
        l->m = m;
        l->cap = cap;
    }
    RecordMove *r = &l->m[l->n++];
    memset(r, 0, sizeof *r);
    return r;
}

void record_write(FILE *f, const Record *r, bool min, bool nodes)
{
    char num[32];
    write_tag(f, "Event", r->event);
    write_tag(f, "Site", r->site);
    write_tag(f, "Date", r->date);
    write_tag(f, "Round", r->round);
    write_tag(f, "White", r->white);
    write_tag(f, "Black", r->black);
    write_tag(f, "Result", r->result);
    write_tag(f, "SetUp", "1");
    write_tag(f, "FEN", r->fen);
    write_tag(f, "Variant", r->variant);
    if (r->move_limit > 0) {
        snprintf(num, sizeof num, "%d", r->move_limit);
        write_tag(f, "MoveLimit", num);
    }
    /* [Termination] stays in a minimal record: -replay needs it to accept a
     * game that did not end on the board. */
    write_tag(f, "Termination", record_termination_tag(r->termination));
    if (!min) {
        if (!strcmp(r->white_tc, r->black_tc)) {
            write_tag(f, "TimeControl", r->white_tc);
        } else {
            write_tag(f, "WhiteTimeControl", r->white_tc);
            write_tag(f, "BlackTimeControl", r->black_tc);
        }
        if (r->has_margin) {
            snprintf(num, sizeof num, "%d", r->margin);
            write_tag(f, "Margin", num);
        }
        snprintf(num, sizeof num, "%d", r->nmoves);
        write_tag(f, "PlyCount", num);
    }
    fputc('\n', f);

    Wrap w = {f, 0};
    int number = 0;
    for (int i = 0; i < r->nmoves; i++) {
        const RecordMove *m = &r->moves[i];
        bool new_white_turn = m->side == WHITE && (i == 0 || r->moves[i - 1].side != WHITE);
        if (new_white_turn) {
            snprintf(num, sizeof num, "%d.", ++number);
            put_token(&w, num);
        } else if (i == 0) {
            snprintf(num, sizeof num, "%d...", ++number);
            put_token(&w, num);
        }
        put_token(&w, m->text);
        if (!min)
            put_comment(&w, m, nodes);
    }
    if (!min) {
        char end[300];
        snprintf(end, sizeof end, "{%s}", r->detail);
        put_token(&w, end);
    }
    put_token(&w, r->result);
    fputs("\n\n", f);
}

/* ---- reading records ----------------------------------------------------- */

typedef struct Parsed {
    PgnGame game;
    char *movetext;
    size_t mt_len, mt_cap;
} Parsed;

static void parsed_clear(Parsed *p)
{
    memset(&p->game, 0, sizeof p->game);
    p->mt_len = 0;
    if (p->movetext)
        p->movetext[0] = '\0';
}

static void append_movetext(Parsed *p, const char *line)
{
    size_t len = strlen(line);
    if (p->mt_len + len + 2 > p->mt_cap) {
        size_t cap = (p->mt_len + len + 2) * 2;
        char *m = realloc(p->movetext, cap);
        if (!m)
            return;
        p->movetext = m;
        p->mt_cap = cap;
    }
    memcpy(p->movetext + p->mt_len, line, len);
    p->mt_len += len;
    p->movetext[p->mt_len++] = '\n';
    p->movetext[p->mt_len] = '\0';
}

/* Parse `[Name "value"]`; false when the line is not a tag. */
static bool parse_tag(const char *line, char *name, size_t nsize, char *value, size_t vsize)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    if (*p++ != '[')
        return false;
    size_t n = 0;
    while (*p && *p != ' ' && *p != ']' && n + 1 < nsize)
        name[n++] = *p++;
    name[n] = '\0';
    while (*p == ' ')
        p++;
    if (*p++ != '"')
        return false;
    size_t k = 0;
    while (*p && *p != '"') {
        if (*p == '\\' && p[1])
            p++;
        if (k + 1 < vsize)
            value[k++] = *p;
        p++;
    }
    value[k] = '\0';
    return *p == '"';
}

static void note_tag(PgnGame *g, const char *name, const char *value)
{
    if (!strcmp(name, "Variant"))
        snprintf(g->variant, sizeof g->variant, "%.63s", value);
    else if (!strcmp(name, "FEN"))
        snprintf(g->fen, sizeof g->fen, "%s", value);
    else if (!strcmp(name, "Result"))
        snprintf(g->result, sizeof g->result, "%.15s", value);
    else if (!strcmp(name, "Termination"))
        snprintf(g->termination, sizeof g->termination, "%.191s", value);
    else if (!strcmp(name, "White"))
        snprintf(g->white, sizeof g->white, "%.127s", value);
    else if (!strcmp(name, "Black"))
        snprintf(g->black, sizeof g->black, "%.127s", value);
    else if (!strcmp(name, "Round"))
        snprintf(g->round, sizeof g->round, "%.31s", value);
    else if (!strcmp(name, "MoveLimit")) {
        long long v;
        g->move_limit = util_parse_number(value, 1, INT_MAX, &v) ? (int)v : 0;
    } else if (!strcmp(name, "Margin")) {
        long long v;
        g->has_margin = util_parse_number(value, INT_MIN, INT_MAX, &v);
        g->margin = g->has_margin ? (int)v : 0;
    }
}

static bool visit_parsed(Parsed *p, PgnVisitor visit, void *ctx)
{
    p->game.movetext = p->movetext ? p->movetext : "";
    return visit(&p->game, ctx);
}

int record_read_pgn(FILE *f, PgnVisitor visit, void *ctx)
{
    Parsed p;
    memset(&p, 0, sizeof p);
    int count = 0;
    bool in_game = false, in_moves = false, go_on = true;
    size_t cap = 1 << 16;
    char *line = malloc(cap);
    char name[64], value[FEN_MAX];
    while (go_on && line && fgets(line, (int)cap, f)) {
        size_t len = strlen(line);
        while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (parse_tag(line, name, sizeof name, value, sizeof value)) {
            if (in_moves) { /* a new game starts */
                count++;
                go_on = visit_parsed(&p, visit, ctx);
                parsed_clear(&p);
                in_moves = false;
            }
            in_game = true;
            note_tag(&p.game, name, value);
            continue;
        }
        if (in_game && len > 0) {
            in_moves = true;
            append_movetext(&p, line);
        }
    }
    if (go_on && in_game) {
        count++;
        visit_parsed(&p, visit, ctx);
    }
    free(p.movetext);
    free(line);
    return count;
}

static bool is_result_token(const char *t)
{
    return !strcmp(t, "1-0") || !strcmp(t, "0-1") || !strcmp(t, "1/2-1/2") || !strcmp(t, "*");
}

bool record_next_move(const char **cursor, char *tok, size_t size)
{
    const char *c = *cursor;
    int depth = 0;
    while (*c) {
        if (*c == '{') {
            const char *e = strchr(c, '}');
            c = e ? e + 1 : c + strlen(c);
            continue;
        }
        if (*c == ';') { /* a comment to the end of the line */
            const char *e = strchr(c, '\n');
            c = e ? e : c + strlen(c);
            continue;
        }
        if (*c == '(' || *c == ')') {
            depth += *c == '(' ? 1 : -(depth > 0);
            c++;
            continue;
        }
        if (isspace((unsigned char)*c)) {
            c++;
            continue;
        }
        size_t n = 0;
        while (*c && !isspace((unsigned char)*c) && *c != '{' && *c != '(' && *c != ')') {
            if (n + 1 < size)
                tok[n++] = *c;
            c++;
        }
        tok[n] = '\0';
        if (depth > 0 || tok[0] == '$' || is_result_token(tok))
            continue;
        const char *d = tok;
        while (isdigit((unsigned char)*d))
            d++;
        if (d > tok && *d == '.') { /* "12." or "12...c3d4" */
            while (*d == '.')
                d++;
            if (!*d)
                continue;
            memmove(tok, d, strlen(d) + 1);
        }
        *cursor = c;
        return true;
    }
    *cursor = c;
    return false;
}

/* ---- replay ------------------------------------------------------------ */

typedef struct ReplayState {
    FILE *out;
    int index;
    int failed;
} ReplayState;

/* Replay one record; print its line; true when consistent. */
static bool replay_one(const PgnGame *p, int index, FILE *out)
{
    char status[256] = "ok";
    const Variant *v = variants_find(p->variant);
    if (!v) {
        fprintf(out, "#%d %s plies=0 board=* recorded=%s MISMATCH(unknown variant) fen=-\n",
                index, p->variant[0] ? p->variant : "?", p->result);
        return false;
    }
    GameConfig cfg = {p->move_limit > 0 ? p->move_limit : DEFAULT_MOVE_LIMIT};
    Game g;
    game_init(&g, v, &cfg);
    char err[160];
    bool ok = true;
    if (p->fen[0] && !game_set_fen(&g, p->fen, err, sizeof err)) {
        snprintf(status, sizeof status, "MISMATCH(bad FEN: %s)", err);
        ok = false;
    }
    const char *c = p->movetext;
    char tok[256];
    while (ok && record_next_move(&c, tok, sizeof tok))
        if (!game_play_text(&g, tok, err, sizeof err)) {
            snprintf(status, sizeof status, "MISMATCH(ply %d: %s)", g.ply + 1, err);
            ok = false;
        }
    int margin = 0;
    const char *reason = NULL;
    Result r = game_result(&g, &margin, &reason);
    const char *board = record_result_token(r);
    if (ok && r != RESULT_NONE && strcmp(board, p->result) != 0) {
        snprintf(status, sizeof status, "MISMATCH(board %s by %s, recorded %s)", board,
                 reason ? reason : "?", p->result);
        ok = false;
    }
    if (ok && r != RESULT_NONE && p->has_margin && margin != p->margin) {
        snprintf(status, sizeof status, "MISMATCH(margin %d, recorded %d)", margin, p->margin);
        ok = false;
    }
    /* Records before [Termination] took PGN's values held the reason in
     * words; either way an unfinished game needs a termination other than
     * "normal". */
    if (ok && r == RESULT_NONE && strcmp(p->result, "*") != 0 &&
        (p->termination[0] == '\0' || !strcmp(p->termination, "normal"))) {
        snprintf(status, sizeof status, "MISMATCH(unfinished game %s)",
                 p->termination[0] ? "recorded as a normal ending" : "without termination");
        ok = false;
    }
    char fen[FEN_MAX];
    v->to_fen(&g.pos, fen);
    fprintf(out, "#%d %s plies=%d board=%s recorded=%s %s fen=%s\n", index, v->name, g.ply, board,
            p->result, status, fen);
    game_free(&g);
    return ok;
}

static bool replay_visit(const PgnGame *game, void *ctx)
{
    ReplayState *st = ctx;
    st->failed += !replay_one(game, ++st->index, st->out);
    return true;
}

int record_replay_file(const char *path, FILE *out, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    ReplayState st = {out, 0, 0};
    record_read_pgn(f, replay_visit, &st);
    fclose(f);
    if (count)
        *count = st.index;
    return st.failed;
}
