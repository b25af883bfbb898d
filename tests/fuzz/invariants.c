/* invariants.c - the Variant contract (engine/variant.h), checked on one
 * position:
 *   - its FEN is one printable line shorter than FEN_MAX, and it round-trips:
 *     parsing it again gives the same FEN, key, side to move, result and
 *     move list, whatever bytes the Position buffer held before (so no field
 *     is left uninitialised);
 *   - a decided position has no move and a printable reason; an undecided one
 *     has at least one move (a forced pass is a move) and no margin;
 *   - moves are non-zero and distinct, their texts printable, distinct and
 *     parsed back to the same move;
 *   - the evaluation stays within +-SCORE_EVAL_MAX;
 *   - a game's own fast perft counts what the generic walk counts;
 *   - the diagram and the analysis line are NUL-terminated printable text;
 *   - make() writes the same child whatever its buffer held;
 * and the same one level deeper for a few children. */
#include "invariants.h"

#include "fuzz.h"
#include "perft.h"

/* Move lists longer than this have only a sample of their texts parsed back
 * (parse_move generates the moves itself: the full check is quadratic). */
#define PARSE_SAMPLE 48

static int move_list(const Variant *v, const Position *pos, Move *moves)
{
    int n = v->generate(pos, moves);
    FUZZ_CHECK(n >= 0 && n <= MAX_MOVES, "%s: generate returned %d", v->name, n);
    return n;
}

/* from_fen(fen) into a buffer filled with junk first; the parsed position. */
static void reparse(const Variant *v, const char *fen, const GameConfig *cfg, int junk,
                    Position *out)
{
    char err[256];
    memset(out, junk, sizeof *out);
    memset(err, 'x', sizeof err);
    bool ok = v->from_fen(out, fen, cfg, err, sizeof err);
    FUZZ_CHECK(ok, "%s: its own FEN '%s' is rejected: %.200s", v->name, fen, err);
}

/* Two positions that must be the same game state. */
static void same_state(const Variant *v, const Position *a, const Position *b, const char *what)
{
    char fa[FEN_MAX], fb[FEN_MAX];
    v->to_fen(a, fa);
    v->to_fen(b, fb);
    FUZZ_CHECK(strcmp(fa, fb) == 0, "%s: %s: FEN '%s' became '%s'", v->name, what, fa, fb);
    FUZZ_CHECK(v->key(a) == v->key(b), "%s: %s: same FEN '%s', different keys", v->name, what,
               fa);
    FUZZ_CHECK(v->side_to_move(a) == v->side_to_move(b), "%s: %s: side to move differs in '%s'",
               v->name, what, fa);
    int ma = 0, mb = 0;
    Result ra = v->result(a, &ma, NULL), rb = v->result(b, &mb, NULL);
    FUZZ_CHECK(ra == rb && ma == mb, "%s: %s: result differs in '%s'", v->name, what, fa);
    static Move la[MAX_MOVES], lb[MAX_MOVES];
    int na = move_list(v, a, la), nb = move_list(v, b, lb);
    FUZZ_CHECK(na == nb && memcmp(la, lb, (size_t)na * sizeof *la) == 0,
               "%s: %s: move lists differ in '%s' (%d and %d moves)", v->name, what, fa, na, nb);
}

static void check_text(const Variant *v, const char *buf, size_t size, bool one_line,
                       const char *what)
{
    FUZZ_CHECK(memchr(buf, '\0', size) != NULL, "%s: %s is not NUL-terminated", v->name, what);
    for (const char *p = buf; *p; p++) {
        unsigned char c = (unsigned char)*p;
        FUZZ_CHECK((c >= 32 && c < 127) || (!one_line && c == '\n'),
                   "%s: %s has byte %d at offset %d", v->name, what, c, (int)(p - buf));
    }
}

void fuzz_check_position(const Variant *v, const Position *pos, const GameConfig *cfg,
                         int children)
{
    char fen[FEN_MAX + 64];
    memset(fen, 'x', sizeof fen);
    v->to_fen(pos, fen);
    FUZZ_CHECK(memchr(fen, '\0', FEN_MAX) != NULL, "%s: FEN longer than FEN_MAX", v->name);
    FUZZ_CHECK(fuzz_is_one_printable_line(fen, FEN_MAX) && fen[0],
               "%s: FEN '%.300s' is not one printable line", v->name, fen);

    /* The FEN round-trips, independent of the buffer's old contents. */
    Position again[2];
    reparse(v, fen, cfg, 0x00, &again[0]);
    reparse(v, fen, cfg, 0xa5, &again[1]);
    same_state(v, pos, &again[0], "FEN round trip");
    same_state(v, pos, &again[1], "FEN round trip over junk");

    int stm = v->side_to_move(pos);
    FUZZ_CHECK(stm == WHITE || stm == BLACK, "%s: side to move %d in '%s'", v->name, stm, fen);
    int margin = 0;
    const char *reason = NULL;
    Result r = v->result(pos, &margin, &reason);
    FUZZ_CHECK(r >= RESULT_NONE && r <= RESULT_DRAW, "%s: result %d in '%s'", v->name, (int)r,
               fen);
    FUZZ_CHECK(r == RESULT_NONE || (reason && reason[0] && fuzz_is_one_printable_line(reason, 200)),
               "%s: a decided result() gave no printable reason in '%s'", v->name, fen);
    FUZZ_CHECK(r != RESULT_NONE || margin == 0, "%s: margin %d while the game goes on in '%s'",
               v->name, margin, fen);

    Move moves[MAX_MOVES]; /* not static: the children's check recurses */
    int n = move_list(v, pos, moves);
    FUZZ_CHECK(r == RESULT_NONE || n == 0, "%s: game over (%s) but %d moves in '%s'", v->name,
               reason, n, fen);
    FUZZ_CHECK(r != RESULT_NONE || n > 0, "%s: game goes on but no move in '%s'", v->name, fen);
    if (r == RESULT_NONE) {
        int e = v->evaluate(pos);
        FUZZ_CHECK(e >= -SCORE_EVAL_MAX && e <= SCORE_EVAL_MAX, "%s: evaluation %d in '%s'",
                   v->name, e, fen);
    }

    /* Moves: non-zero, distinct, named distinctly, parsed back. */
    char (*texts)[MOVE_STR_MAX] = malloc(MAX_MOVES * sizeof *texts);
    FUZZ_CHECK(texts != NULL, "out of memory");
    bool chance = v->is_chance && v->is_chance(pos);
    int step = n > PARSE_SAMPLE ? n / PARSE_SAMPLE + 1 : 1;
    for (int i = 0; i < n; i++) {
        FUZZ_CHECK(moves[i] != MOVE_NONE, "%s: MOVE_NONE generated in '%s'", v->name, fen);
        memset(texts[i], 0, MOVE_STR_MAX);
        v->move_str(pos, moves[i], texts[i]);
        FUZZ_CHECK(texts[i][0] && fuzz_is_one_printable_line(texts[i], MOVE_STR_MAX - 1),
                   "%s: move text '%.80s' in '%s'", v->name, texts[i], fen);
        if (!chance)
            (void)v->is_noisy(pos, moves[i]);
        if (i % step == 0) {
            Move back = v->parse_move(pos, texts[i]);
            FUZZ_CHECK(back == moves[i], "%s: '%s' parses to another move in '%s'", v->name,
                       texts[i], fen);
        }
    }
    if (n <= 256)
        for (int i = 0; i < n; i++)
            for (int k = i + 1; k < n; k++) {
                FUZZ_CHECK(moves[i] != moves[k], "%s: move %d generated twice in '%s'", v->name,
                           i, fen);
                FUZZ_CHECK(strcmp(texts[i], texts[k]) != 0, "%s: two moves named '%s' in '%s'",
                           v->name, texts[i], fen);
            }
    free(texts);

    /* The game's own perft against the generic walk. */
    if (v->perft) {
        FUZZ_CHECK(v->perft(pos, 1) == (uint64_t)n, "%s: perft 1 is not %d in '%s'", v->name, n,
                   fen);
        if (n <= 64) {
            uint64_t fast = v->perft(pos, 2), slow = perft_generic(v, pos, 2);
            FUZZ_CHECK(fast == slow, "%s: perft 2 %llu, generic %llu in '%s'", v->name,
                       (unsigned long long)fast, (unsigned long long)slow, fen);
        }
    }

    /* Human-readable text stays inside its buffer and printable. */
    static char diagram[8192];
    memset(diagram, 'x', sizeof diagram);
    v->diagram(pos, diagram, sizeof diagram);
    check_text(v, diagram, sizeof diagram, false, "the diagram");
    if (v->describe) {
        char line[512];
        memset(line, 'x', sizeof line);
        v->describe(pos, line, sizeof line);
        check_text(v, line, sizeof line, true, "the analysis line");
    }

    /* make() is deterministic; the children obey the same contract. */
    int played = n < children ? n : children;
    for (int i = 0; i < played; i++) {
        Move m = moves[(size_t)i * (size_t)n / (size_t)played];
        Position child[2];
        memset(&child[0], 0x00, sizeof child[0]);
        memset(&child[1], 0x5a, sizeof child[1]);
        v->make(pos, m, &child[0]);
        v->make(pos, m, &child[1]);
        same_state(v, &child[0], &child[1], "make over junk");
        fuzz_check_position(v, &child[0], cfg, 0);
    }
}
