/* openings.c - opening books and random openings (see openings.h). */
#include "openings.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

uint64_t openings_mix_seed(uint64_t seed, uint64_t a, uint64_t b)
{
    uint64_t s = seed ^ (a * 0x9E3779B97F4A7C15ULL) ^ (b * 0xC2B2AE3D27D4EB4FULL);
    util_splitmix64(&s);
    return util_splitmix64(&s);
}

void openings_init(Openings *o)
{
    memset(o, 0, sizeof *o);
    o->plies = -1;
    o->start = 1;
}

void openings_free(Openings *o)
{
    for (int i = 0; i < o->count; i++) {
        free(o->book[i].fen);
        for (int k = 0; k < o->book[i].nmoves; k++)
            free(o->book[i].moves[k]);
        free(o->book[i].moves);
    }
    free(o->book);
    free(o->order);
    o->book = NULL;
    o->order = NULL;
    o->count = 0;
}

static char *dup_or_die(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        fprintf(stderr, "sigil-match: out of memory\n");
        exit(1);
    }
    return d;
}

static Opening *book_push(Openings *o)
{
    Opening *b = realloc(o->book, (size_t)(o->count + 1) * sizeof *b);
    if (!b) {
        fprintf(stderr, "sigil-match: out of memory\n");
        exit(1);
    }
    o->book = b;
    Opening *e = &o->book[o->count++];
    memset(e, 0, sizeof *e);
    return e;
}

/* Check an entry: its position, its moves, and that the game is not over
 * after them. */
static bool check_entry(const Opening *e, const Variant *v, const GameConfig *gc, char *why,
                        size_t whylen)
{
    Game g;
    game_init(&g, v, gc);
    char err[160];
    bool ok = true;
    if (e->fen && !game_set_fen(&g, e->fen, err, sizeof err)) {
        snprintf(why, whylen, "not a %s position: %s", v->name, err);
        ok = false;
    }
    for (int i = 0; ok && i < e->nmoves; i++)
        if (!game_play_text(&g, e->moves[i], err, sizeof err)) {
            snprintf(why, whylen, "move %d '%s': %s", i + 1, e->moves[i], err);
            ok = false;
        }
    const char *reason = NULL;
    if (ok && game_result(&g, NULL, &reason) != RESULT_NONE) {
        snprintf(why, whylen, "the game is already over (%s)", reason && *reason ? reason : "finished");
        ok = false;
    }
    game_free(&g);
    return ok;
}

/* An EPD line: the position, then operations after it (`bm x; id "y";`).
 * The longest leading run of words that is a valid position is taken. */
static bool epd_position(char *line, const Variant *v, const GameConfig *gc)
{
    char *semi = strchr(line, ';');
    if (semi)
        *semi = '\0';
    for (;;) {
        size_t len = strlen(line);
        while (len && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';
        if (!len)
            return false;
        Position pos;
        char err[160];
        if (v->from_fen(&pos, line, gc, err, sizeof err))
            return true;
        char *space = strrchr(line, ' ');
        if (!space)
            return false;
        *space = '\0';
    }
}

static bool load_lines(Openings *o, FILE *f, const Variant *v, const GameConfig *gc, char *err,
                       size_t errlen)
{
    char line[4096];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t len = strlen(line);
        while (len && isspace((unsigned char)line[len - 1]))
            line[--len] = '\0';
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (!*p || *p == '#')
            continue;
        char why[256];
        if (o->format == OPENING_FORMAT_EPD && !epd_position(p, v, gc)) {
            snprintf(err, errlen, "%s:%d: not a %s position", o->path, lineno, v->name);
            return false;
        }
        Opening *e = book_push(o);
        e->fen = dup_or_die(p);
        if (!check_entry(e, v, gc, why, sizeof why)) {
            snprintf(err, errlen, "%s:%d: %s", o->path, lineno, why);
            return false;
        }
    }
    return true;
}

typedef struct PgnLoad {
    Openings *o;
    const Variant *v;
    const GameConfig *gc;
    char *err;
    size_t errlen;
    int index;
    bool ok;
} PgnLoad;

static bool pgn_visit(const PgnGame *game, void *ctx)
{
    PgnLoad *st = ctx;
    st->index++;
    if (game->variant[0] && strcmp(game->variant, st->v->name) != 0) {
        snprintf(st->err, st->errlen, "%s: record %d is a %s game, not %s", st->o->path,
                 st->index, game->variant, st->v->name);
        return st->ok = false;
    }
    Opening *e = book_push(st->o);
    if (game->fen[0])
        e->fen = dup_or_die(game->fen);
    const char *c = game->movetext;
    char tok[MOVE_STR_MAX * 4];
    while ((st->o->plies < 0 || e->nmoves < st->o->plies) && record_next_move(&c, tok, sizeof tok)) {
        char **m = realloc(e->moves, (size_t)(e->nmoves + 1) * sizeof *m);
        if (!m) {
            fprintf(stderr, "sigil-match: out of memory\n");
            exit(1);
        }
        e->moves = m;
        e->moves[e->nmoves++] = dup_or_die(tok);
    }
    char why[256];
    if (!check_entry(e, st->v, st->gc, why, sizeof why)) {
        snprintf(st->err, st->errlen, "%s: record %d: %s", st->o->path, st->index, why);
        return st->ok = false;
    }
    return true;
}

bool openings_load(Openings *o, const Variant *v, const GameConfig *gc, uint64_t seed, char *err,
                   size_t errlen)
{
    if (!o->path[0])
        return true;
    if (o->format == OPENING_FORMAT_AUTO) {
        const char *dot = strrchr(o->path, '.');
        o->format = dot && !strcmp(dot, ".pgn") ? OPENING_FORMAT_PGN
                    : dot && !strcmp(dot, ".epd") ? OPENING_FORMAT_EPD
                                                  : OPENING_FORMAT_FEN;
    }
    FILE *f = fopen(o->path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot read openings file %s", o->path);
        return false;
    }
    bool ok;
    if (o->format == OPENING_FORMAT_PGN) {
        PgnLoad st = {o, v, gc, err, errlen, 0, true};
        record_read_pgn(f, pgn_visit, &st);
        ok = st.ok;
    } else {
        ok = load_lines(o, f, v, gc, err, errlen);
    }
    fclose(f);
    if (ok && o->count == 0) {
        snprintf(err, errlen, "no opening in %s", o->path);
        ok = false;
    }
    if (ok && o->start > o->count) {
        snprintf(err, errlen, "-openings start=%d, but %s has %d opening%s", o->start, o->path,
                 o->count, o->count == 1 ? "" : "s");
        ok = false;
    }
    if (!ok)
        return false;
    o->order = malloc((size_t)o->count * sizeof *o->order);
    if (!o->order) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (int i = 0; i < o->count; i++)
        o->order[i] = i;
    if (o->order_random) { /* Fisher-Yates from the seed */
        uint64_t rng = openings_mix_seed(seed, 0xB00C, 0);
        for (int i = o->count - 1; i > 0; i--) {
            int j = (int)util_random_below(&rng, (uint64_t)i + 1);
            int t = o->order[i];
            o->order[i] = o->order[j];
            o->order[j] = t;
        }
    }
    return true;
}

/* Random plies from the position in g (rolls included); redrawn when the
 * game ends on the way, shortened if it keeps ending. */
static void play_random(const Openings *o, int k, uint64_t seed, Game *g, RecordMoveList *ml)
{
    const Variant *v = g->variant;
    uint64_t rng = openings_mix_seed(seed, (uint64_t)k, 0x0BE1);
    Game start;
    memset(&start, 0, sizeof start);
    game_copy(&start, g);
    int base = ml->n;
    for (int attempt = 0; attempt < 200; attempt++) {
        int plies = o->random_plies - attempt / 50;
        if (plies <= 0)
            break;
        game_copy(g, &start);
        ml->n = base;
        bool ok = true;
        for (int i = 0; i < plies && ok; i++) {
            Move moves[MAX_MOVES];
            int n = v->generate(&g->pos, moves);
            if (n <= 0 || game_result(g, NULL, NULL) != RESULT_NONE) {
                ok = false;
                break;
            }
            Move m = moves[util_random_below(&rng, (uint64_t)n)];
            RecordMove *rm = record_push(ml);
            rm->side = v->side_to_move(&g->pos);
            rm->is_roll = v->is_chance && v->is_chance(&g->pos);
            rm->book = !rm->is_roll;
            v->move_str(&g->pos, m, rm->text);
            game_play(g, m);
        }
        if (ok && game_result(g, NULL, NULL) == RESULT_NONE) {
            game_free(&start);
            return;
        }
    }
    game_copy(g, &start);
    ml->n = base;
    game_free(&start);
}

void openings_setup(const Openings *o, int k, uint64_t seed, Game *g, char *start_fen,
                    bool *startpos, RecordMoveList *moves)
{
    const Variant *v = g->variant;
    *startpos = true;
    if (o->count > 0) {
        const Opening *e = &o->book[o->order[(o->start - 1 + k) % o->count]];
        char err[160];
        if (e->fen && game_set_fen(g, e->fen, err, sizeof err)) /* checked at start-up */
            *startpos = false;
        v->to_fen(&g->pos, start_fen);
        for (int i = 0; i < e->nmoves; i++) {
            Move m = v->parse_move(&g->pos, e->moves[i]);
            if (m == MOVE_NONE)
                break; /* cannot happen: checked at start-up */
            RecordMove *rm = record_push(moves);
            rm->side = v->side_to_move(&g->pos);
            rm->is_roll = v->is_chance && v->is_chance(&g->pos);
            rm->book = !rm->is_roll;
            v->move_str(&g->pos, m, rm->text);
            game_play(g, m);
        }
    } else {
        v->to_fen(&g->pos, start_fen);
    }
    if (o->random_plies > 0)
        play_random(o, k, seed, g, moves);
}

uint64_t openings_fingerprint(const Openings *o)
{
    uint64_t h = 0x5151;
    h = openings_mix_seed(h, (uint64_t)o->random_plies, (uint64_t)o->count);
    h = openings_mix_seed(h, (uint64_t)o->order_random, (uint64_t)(o->start * 1000 + o->plies));
    for (int i = 0; i < o->count; i++) {
        int idx = o->order[i];
        const Opening *e = &o->book[idx];
        for (const char *p = e->fen ? e->fen : "-"; *p; p++)
            h = openings_mix_seed(h, (unsigned char)*p, (uint64_t)i);
        for (int k = 0; k < e->nmoves; k++)
            for (const char *p = e->moves[k]; *p; p++)
                h = openings_mix_seed(h, (unsigned char)*p, (uint64_t)k + 7);
    }
    return h;
}
