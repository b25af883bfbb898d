/* contract.c - the checks of contract.h: every rule engine/variant.h states
 * about a game, tested on the game's own positions. */
#include "contract.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "perft.h"
#include "util.h"

/* The playouts every per-position check walks: seeded, so a failure can be
 * reproduced, and long enough to reach every phase of every game. */
#define PLAYOUTS 16
#define PLAYOUT_MAX_PLIES 4000
#define CONTRACT_SEED 0x436F6E7472616374ULL /* "Contract" */
/* Random games the playouts-end check plays per rule setting. */
#define ENDING_GAMES 24
/* The generic perft is compared with the fast one up to this depth, or
 * until a count exceeds PERFT_NODES. */
#define PERFT_MAX_DEPTH 3
#define PERFT_NODES 20000

static const GameConfig default_config = {DEFAULT_MOVE_LIMIT};

/* ------------------------------------------------------------ helpers */

/* Bytes of the game's own position, at most a whole Position. */
static size_t own_size(const Variant *v)
{
    return v->position_size < sizeof(Position) ? v->position_size : sizeof(Position);
}

static bool same_bytes(const Variant *v, const Position *a, const Position *b)
{
    return memcmp(a->bytes, b->bytes, own_size(v)) == 0;
}

/* Count a violation; keep the words of the first one, with the FEN of the
 * position where it happened (pos may be NULL). */
static void fail(ContractResult *r, const Variant *v, const Position *pos, const char *fmt, ...)
{
    if (r->failures++ > 0)
        return;
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char fen[FEN_MAX * 4] = "";
    if (pos && v->to_fen) {
        v->to_fen(pos, fen);
        fen[FEN_MAX * 4 - 1] = '\0';
    }
    snprintf(r->first, sizeof r->first, "%s: %s%s%s", v->name ? v->name : "(unnamed)", what,
             pos ? " at " : "", fen);
}

/* The FEN of pos in a buffer with room to spare; false (and a violation)
 * when to_fen wrote more than FEN_MAX bytes. */
static bool fen_of(const Variant *v, const Position *pos, char *fen, ContractResult *r)
{
    memset(fen, 0x7f, FEN_MAX * 2);
    v->to_fen(pos, fen);
    if (!memchr(fen, '\0', FEN_MAX)) {
        fen[FEN_MAX * 2 - 1] = '\0';
        fail(r, v, NULL, "to_fen wrote more than FEN_MAX bytes");
        return false;
    }
    return true;
}

/* pos's FEN parsed again into *out (fen gets the text); false with a
 * violation when it does not parse. */
static bool reparse(const Variant *v, const Position *pos, Position *out, char *fen,
                    ContractResult *r)
{
    if (!fen_of(v, pos, fen, r))
        return false;
    char err[256] = "";
    if (!v->from_fen(out, fen, &default_config, err, sizeof err)) {
        fail(r, v, pos, "its own FEN '%s' does not parse (%s)", fen, err);
        return false;
    }
    return true;
}

static int compare_moves(const void *a, const void *b)
{
    Move x = *(const Move *)a, y = *(const Move *)b;
    return x < y ? -1 : x > y;
}

static int compare_texts(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_chance(const Variant *v, const Position *pos)
{
    return v->is_chance && v->is_chance(pos);
}

/* ------------------------------------------------------- the checks */

/* The Variant table: names, the functions every game must have, the facts. */
static void descriptor_once(const Variant *v, ContractResult *r)
{
    if (!v->name || !v->name[0]) {
        fail(r, v, NULL, "no name");
    } else {
        for (const char *c = v->name; *c; c++)
            if (!(islower((unsigned char)*c) || isdigit((unsigned char)*c) || *c == '-'))
                fail(r, v, NULL, "name has a character other than a-z, 0-9, '-'");
    }
    if (!v->title || !v->title[0])
        fail(r, v, NULL, "no title");
    struct {
        const char *name;
        bool present;
    } required[] = {
        {"startpos", v->startpos != NULL},     {"from_fen", v->from_fen != NULL},
        {"to_fen", v->to_fen != NULL},         {"side_to_move", v->side_to_move != NULL},
        {"generate", v->generate != NULL},     {"make", v->make != NULL},
        {"result", v->result != NULL},         {"key", v->key != NULL},
        {"move_str", v->move_str != NULL},     {"parse_move", v->parse_move != NULL},
        {"diagram", v->diagram != NULL},       {"evaluate", v->evaluate != NULL},
    };
    for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
        if (!required[i].present)
            fail(r, v, NULL, "%s is NULL", required[i].name);
    if (v->position_size == 0 || v->position_size > sizeof(Position))
        fail(r, v, NULL, "position_size %zu not in 1..%zu", v->position_size, sizeof(Position));
    if (v->rule_options & ~(unsigned)GAME_OPTION_MOVE_LIMIT)
        fail(r, v, NULL, "unknown rule_options bits %#x", v->rule_options);
    if (v->match_scoring < MATCH_SCORING_GAMES || v->match_scoring > MATCH_SCORING_COUNTING)
        fail(r, v, NULL, "match_scoring %d unknown", (int)v->match_scoring);
    if (v->match_games < 1)
        fail(r, v, NULL, "match_games %d < 1", v->match_games);
    if (v->bench_depth < 0)
        fail(r, v, NULL, "bench_depth %d < 0", v->bench_depth);
    for (int i = 0; v->bench_fens && v->from_fen && v->result && v->bench_fens[i]; i++) {
        Position p;
        char err[256] = "";
        if (!v->from_fen(&p, v->bench_fens[i], &default_config, err, sizeof err))
            fail(r, v, NULL, "bench position %d '%s' does not parse (%s)", i + 1,
                 v->bench_fens[i], err);
        else if (v->result(&p, NULL, NULL) != RESULT_NONE)
            fail(r, v, NULL, "bench position %d is a finished game", i + 1);
    }
}

/* to_fen then from_fen gives the same text and a position that behaves the
 * same: side to move, chance, result, moves. */
static void fen_at(const Variant *v, const Position *pos, ContractResult *r)
{
    char fen[FEN_MAX * 2], again[FEN_MAX * 2];
    Position q;
    if (!reparse(v, pos, &q, fen, r) || !fen_of(v, &q, again, r))
        return;
    if (strcmp(fen, again) != 0) {
        fail(r, v, pos, "FEN does not round-trip: '%s' comes back as '%s'", fen, again);
        return;
    }
    if (v->side_to_move(&q) != v->side_to_move(pos) || is_chance(v, &q) != is_chance(v, pos))
        fail(r, v, pos, "the re-parsed FEN has another side to move or chance state");
    int ma = 0, mb = 0;
    if (v->result(&q, &ma, NULL) != v->result(pos, &mb, NULL) || ma != mb)
        fail(r, v, pos, "the re-parsed FEN has another result or margin");
    Move a[MAX_MOVES], b[MAX_MOVES];
    int na = v->generate(pos, a), nb = v->generate(&q, b);
    if (na != nb || (na > 0 && memcmp(a, b, (size_t)na * sizeof *a) != 0))
        fail(r, v, pos, "the re-parsed FEN has other moves (%d, not %d)", nb, na);
}

/* The key kept along the moves equals the key computed afresh from the FEN. */
static void key_at(const Variant *v, const Position *pos, ContractResult *r)
{
    char fen[FEN_MAX * 2];
    Position q;
    if (!reparse(v, pos, &q, fen, r))
        return;
    uint64_t played = v->key(pos), fresh = v->key(&q);
    if (played != fresh)
        fail(r, v, pos, "key %016llx after the moves, %016llx from the FEN",
             (unsigned long long)played, (unsigned long long)fresh);
    if (v->key(pos) != played)
        fail(r, v, pos, "key() is not deterministic");
}

/* Every move's text parses back to the move; texts are distinct, bounded,
 * without blanks; garbage parses to no move. */
static void notation_at(const Variant *v, const Position *pos, ContractResult *r)
{
    static char texts[MAX_MOVES][MOVE_STR_MAX];
    char *sorted[MAX_MOVES];
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    if (n < 0 || n > MAX_MOVES)
        return; /* moves-well-formed reports it */
    for (int i = 0; i < n; i++) {
        char txt[MOVE_STR_MAX * 2];
        memset(txt, 0x7f, sizeof txt);
        v->move_str(pos, moves[i], txt);
        if (!memchr(txt, '\0', MOVE_STR_MAX)) {
            fail(r, v, pos, "move_str wrote more than MOVE_STR_MAX bytes");
            return;
        }
        if (!txt[0])
            fail(r, v, pos, "a move has an empty text");
        for (const char *c = txt; *c; c++)
            if (isspace((unsigned char)*c) || !isprint((unsigned char)*c)) {
                fail(r, v, pos, "move text '%s' has a blank or control character", txt);
                break;
            }
        Move back = v->parse_move(pos, txt);
        if (back != moves[i])
            fail(r, v, pos, "move text '%s' parses to %#llx, not %#llx", txt,
                 (unsigned long long)back, (unsigned long long)moves[i]);
        strcpy(texts[i], txt);
        sorted[i] = texts[i];
    }
    qsort(sorted, (size_t)n, sizeof *sorted, compare_texts);
    for (int i = 1; i < n; i++)
        if (strcmp(sorted[i - 1], sorted[i]) == 0)
            fail(r, v, pos, "two moves have the text '%s'", sorted[i]);
    char long_text[300];
    memset(long_text, '9', sizeof long_text - 1);
    long_text[sizeof long_text - 1] = '\0';
    const char *garbage[] = {"", "?", "zz99zz", "-", long_text};
    for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++)
        if (v->parse_move(pos, garbage[i]) != MOVE_NONE)
            fail(r, v, pos, "garbage '%.20s' parses to a move", garbage[i]);
}

/* generate() gives 0..MAX_MOVES distinct non-zero codes, the same list every
 * time; make() fills every byte of the child the same way every time and
 * leaves the parent alone. */
static void moves_at(const Variant *v, const Position *pos, ContractResult *r)
{
    Move a[MAX_MOVES], b[MAX_MOVES], sorted[MAX_MOVES];
    Position before = *pos;
    int n = v->generate(pos, a);
    if (n < 0 || n > MAX_MOVES) {
        fail(r, v, pos, "generate() returned %d", n);
        return;
    }
    int again = v->generate(pos, b);
    if (again != n || (n > 0 && memcmp(a, b, (size_t)n * sizeof *a) != 0))
        fail(r, v, pos, "generate() gives another list the second time");
    memcpy(sorted, a, (size_t)n * sizeof *a);
    qsort(sorted, (size_t)n, sizeof *sorted, compare_moves);
    for (int i = 0; i < n; i++) {
        if (sorted[i] == MOVE_NONE)
            fail(r, v, pos, "a move has the code 0 (MOVE_NONE)");
        if (i > 0 && sorted[i] == sorted[i - 1])
            fail(r, v, pos, "the code %#llx is generated twice", (unsigned long long)sorted[i]);
    }
    for (int i = 0; i < n; i++) {
        Position c1, c2;
        memset(&c1, 0xA5, sizeof c1);
        memset(&c2, 0x5A, sizeof c2);
        v->make(pos, a[i], &c1);
        v->make(pos, a[i], &c2);
        if (!same_bytes(v, &c1, &c2)) {
            fail(r, v, pos, "make() leaves bytes of the child unset or is not deterministic");
            break;
        }
    }
    if (!same_bytes(v, pos, &before))
        fail(r, v, pos, "generate() or make() changed the parent");
}

/* result() is RESULT_NONE exactly when generate() has a move; a reason
 * phrase comes with every result ("" while the game goes on); a margin is
 * never negative, 0 while the game goes on and for a draw. */
static void result_at(const Variant *v, const Position *pos, ContractResult *r)
{
    static const char unset[] = "(unset)";
    const char *reason = unset;
    int margin = -12345;
    Result res = v->result(pos, &margin, &reason);
    if (v->result(pos, NULL, NULL) != res)
        fail(r, v, pos, "result() differs with and without margin and reason");
    if (res < RESULT_NONE || res > RESULT_DRAW) {
        fail(r, v, pos, "result() returned %d", (int)res);
        return;
    }
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    if (res == RESULT_NONE && n <= 0)
        fail(r, v, pos, "the game goes on but generate() gives no move");
    if (res != RESULT_NONE && n != 0)
        fail(r, v, pos, "the game is over but generate() gives %d moves", n);
    if (!reason || reason == unset)
        fail(r, v, pos, "result() left the reason %s", reason ? "unset" : "NULL");
    else if ((res == RESULT_NONE) != (reason[0] == '\0'))
        fail(r, v, pos, "reason '%s' with result %d", reason, (int)res);
    if (margin < 0)
        fail(r, v, pos, "margin %d", margin);
    else if ((res == RESULT_NONE || res == RESULT_DRAW) && margin != 0)
        fail(r, v, pos, "margin %d without a winner", margin);
}

/* The evaluation stays inside +-SCORE_EVAL_MAX; it, is_noisy, is_chance and
 * eval_is_exact give the same answer every time. */
static void evaluation_at(const Variant *v, const Position *pos, ContractResult *r)
{
    int e = v->evaluate(pos);
    if (e < -SCORE_EVAL_MAX || e > SCORE_EVAL_MAX)
        fail(r, v, pos, "evaluate() = %d, outside +-SCORE_EVAL_MAX", e);
    if (v->evaluate(pos) != e)
        fail(r, v, pos, "evaluate() is not deterministic");
    if (v->is_chance && v->is_chance(pos) != v->is_chance(pos))
        fail(r, v, pos, "is_chance() is not deterministic");
    if (v->eval_is_exact && v->eval_is_exact(pos) != v->eval_is_exact(pos))
        fail(r, v, pos, "eval_is_exact() is not deterministic");
    if (!v->is_noisy)
        return;
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    for (int i = 0; i < n && i <= MAX_MOVES; i++)
        if (v->is_noisy(pos, moves[i]) != v->is_noisy(pos, moves[i])) {
            fail(r, v, pos, "is_noisy() is not deterministic");
            break;
        }
}

/* A game reads only the first position_size bytes of a Position, and fills
 * all of them wherever it writes one (startpos, from_fen, make). */
static void layout_once(const Variant *v, ContractResult *r)
{
    if (v->position_size == 0 || v->position_size > sizeof(Position))
        return; /* descriptor reports it */
    Position a, b;
    memset(&a, 0xA5, sizeof a);
    memset(&b, 0x5A, sizeof b);
    v->startpos(&a, &default_config);
    v->startpos(&b, &default_config);
    if (!same_bytes(v, &a, &b))
        fail(r, v, NULL, "startpos() leaves bytes unset or is not deterministic");
}

static void layout_at(const Variant *v, const Position *pos, ContractResult *r)
{
    char fen[FEN_MAX * 2], fen2[FEN_MAX * 2];
    if (!fen_of(v, pos, fen, r))
        return;
    Position a, b;
    memset(&a, 0xA5, sizeof a);
    memset(&b, 0x5A, sizeof b);
    char err[256];
    if (!v->from_fen(&a, fen, &default_config, err, sizeof err) ||
        !v->from_fen(&b, fen, &default_config, err, sizeof err))
        return; /* fen-round-trip reports it */
    if (!same_bytes(v, &a, &b))
        fail(r, v, pos, "from_fen() leaves bytes unset or is not deterministic");
    /* The same position with other bytes past position_size: those of the
     * start position (real position data, so that a game which does read
     * them misbehaves visibly rather than on wild values). */
    Position t;
    v->startpos(&t, &default_config);
    memcpy(t.bytes, pos->bytes, own_size(v));
    Move ma[MAX_MOVES], mb[MAX_MOVES];
    int na = v->generate(pos, ma), nb = v->generate(&t, mb);
    if (!fen_of(v, &t, fen2, r))
        return;
    if (v->key(&t) != v->key(pos) || strcmp(fen, fen2) != 0 || na != nb ||
        (na > 0 && memcmp(ma, mb, (size_t)na * sizeof *ma) != 0) ||
        v->result(&t, NULL, NULL) != v->result(pos, NULL, NULL) ||
        v->evaluate(&t) != v->evaluate(pos))
        fail(r, v, pos, "a byte past position_size (%zu) changes the position", v->position_size);
}

/* Random games end: the board decides them (or threefold repetition where
 * the game draws by it) within PLAYOUT_MAX_PLIES plies, under every rule
 * setting the game reads. */
static void playouts_end_once(const Variant *v, ContractResult *r)
{
    GameConfig configs[3] = {default_config, default_config, default_config};
    int config_count = 1;
    if (v->rule_options & GAME_OPTION_MOVE_LIMIT) {
        configs[1].move_limit = 1;
        configs[2].move_limit = 7;
        config_count = 3;
    }
    uint64_t rng = CONTRACT_SEED ^ 0xE7D;
    Move moves[MAX_MOVES];
    for (int c = 0; c < config_count; c++) {
        for (int g = 0; g < ENDING_GAMES; g++) {
            Game game;
            game_init(&game, v, &configs[c]);
            const char *reason = NULL;
            while (game.ply < PLAYOUT_MAX_PLIES && game_result(&game, NULL, &reason) == RESULT_NONE) {
                int n = v->generate(&game.pos, moves);
                if (n <= 0 || n > MAX_MOVES)
                    break; /* result-consistent / moves-well-formed report it */
                game_play(&game, moves[util_random_below(&rng, (uint64_t)n)]);
            }
            r->positions += game.ply + 1;
            if (game.ply >= PLAYOUT_MAX_PLIES)
                fail(r, v, &game.pos, "a random game did not end within %d plies",
                     PLAYOUT_MAX_PLIES);
            else if (game_result(&game, NULL, &reason) != RESULT_NONE && (!reason || !reason[0]))
                fail(r, v, &game.pos, "a finished game gives no reason");
            game_free(&game);
        }
    }
}

/* count_moves() says how many moves generate() lists, in every position,
 * and so does the generic walk's bulk count at depth 2 (each child's
 * count_moves() against its generate()). */
static void count_moves_at(const Variant *v, const Position *pos, ContractResult *r)
{
    if (!v->count_moves)
        return;
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves), counted = v->count_moves(pos);
    if (counted != n) {
        fail(r, v, pos, "count_moves() = %d, generate() lists %d", counted, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        Position child;
        Move replies[MAX_MOVES];
        v->make(pos, moves[i], &child);
        int listed = v->generate(&child, replies), c = v->count_moves(&child);
        if (c != listed) {
            fail(r, v, &child, "count_moves() = %d, generate() lists %d", c, listed);
            return;
        }
    }
}

/* The game's own perft counts exactly what the generic walk counts. */
static void perft_at(const Variant *v, const Position *pos, ContractResult *r)
{
    if (!v->perft)
        return;
    for (int d = 1; d <= PERFT_MAX_DEPTH; d++) {
        uint64_t generic = perft_generic(v, pos, d), fast = perft_count(v, pos, d);
        if (generic != fast) {
            fail(r, v, pos, "perft %d: %llu by the game's perft, %llu by the generic walk", d,
                 (unsigned long long)fast, (unsigned long long)generic);
            return;
        }
        if (generic > PERFT_NODES)
            return;
    }
}

/* diagram() and describe() write NUL-terminated text inside the size they
 * are given (cut, never overrun); diagram lines end in '\n', describe has
 * none. */
static void text_at(const Variant *v, const Position *pos, ContractResult *r)
{
    static const size_t sizes[] = {1, 2, 7, 16, 4096};
    for (int which = 0; which < 2; which++) {
        void (*write)(const Position *, char *, size_t) = which == 0 ? v->diagram : v->describe;
        if (!write)
            continue;
        const char *name = which == 0 ? "diagram" : "describe";
        for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
            size_t size = sizes[i];
            char buf[4096 + 32];
            memset(buf, 0x7e, sizeof buf);
            write(pos, buf, size);
            for (size_t k = size; k < size + 32; k++)
                if (buf[k] != 0x7e) {
                    fail(r, v, pos, "%s() wrote past the size %zu it was given", name, size);
                    return;
                }
            if (!memchr(buf, '\0', size)) {
                fail(r, v, pos, "%s() left no NUL inside the size %zu", name, size);
                return;
            }
            if (size < 4096)
                continue;
            size_t len = strlen(buf);
            if (which == 0 && (len == 0 || buf[len - 1] != '\n'))
                fail(r, v, pos, "the diagram does not end in a newline");
            if (which == 1 && strchr(buf, '\n'))
                fail(r, v, pos, "describe() wrote a newline");
        }
    }
}

/* Damage a FEN: one to three random edits (replace, delete, insert) with
 * characters of the FEN itself or of a few separators. */
static void damage(const char *fen, char *out, size_t size, uint64_t *rng)
{
    static const char extra[] = "0123456789/ -xw";
    snprintf(out, size, "%s", fen);
    int edits = 1 + (int)util_random_below(rng, 3);
    for (int e = 0; e < edits; e++) {
        size_t len = strlen(out), at = (size_t)util_random_below(rng, len + 1);
        char ch = util_random_below(rng, 2) && len > 0
                      ? fen[util_random_below(rng, strlen(fen) ? strlen(fen) : 1)]
                      : extra[util_random_below(rng, sizeof extra - 1)];
        int kind = (int)util_random_below(rng, 3);
        if (kind == 0 && at < len)
            out[at] = ch;
        else if (kind == 1 && at < len)
            memmove(out + at, out + at + 1, len - at);
        else if (len + 2 < size) {
            memmove(out + at + 1, out + at, len - at + 1);
            out[at] = ch;
        }
    }
}

/* A FEN from_fen accepted: its position's FEN round-trips, and every move
 * can be made. */
static void check_accepted(const Variant *v, const Position *pos, const char *damaged,
                           const Position *q, ContractResult *r)
{
    char once[FEN_MAX * 2], twice[FEN_MAX * 2], err[256];
    Position q2;
    if (!fen_of(v, q, once, r))
        return;
    if (!v->from_fen(&q2, once, &default_config, err, sizeof err) || !fen_of(v, &q2, twice, r) ||
        strcmp(once, twice) != 0) {
        fail(r, v, pos, "from_fen accepted '%s' but its FEN '%s' does not round-trip", damaged,
             once);
        return;
    }
    Move moves[MAX_MOVES];
    int n = v->generate(q, moves);
    if (n < 0 || n > MAX_MOVES) {
        fail(r, v, pos, "from_fen accepted '%s', whose position generates %d moves", damaged, n);
        return;
    }
    for (int i = 0; i < n; i++) {
        Position c;
        v->make(q, moves[i], &c);
    }
}

/* from_fen() on a damaged FEN (every prefix, random edits, random bytes)
 * either refuses with a reason or gives a position whose own FEN
 * round-trips and whose moves can be made. */
static void fen_damage_at(const Variant *v, const Position *pos, ContractResult *r)
{
    char fen[FEN_MAX * 2];
    if (!fen_of(v, pos, fen, r))
        return;
    uint64_t rng = v->key(pos) ^ CONTRACT_SEED;
    size_t len = strlen(fen);
    for (size_t i = 0; i < len + 160 + 16; i++) {
        char damaged[FEN_MAX * 4];
        if (i < len) {
            memcpy(damaged, fen, i); /* the prefix of length i */
            damaged[i] = '\0';
        } else if (i < len + 160) {
            damage(fen, damaged, sizeof damaged, &rng);
        } else {
            size_t n = (size_t)util_random_below(&rng, sizeof damaged - 1);
            for (size_t k = 0; k < n; k++)
                damaged[k] = (char)(1 + util_random_below(&rng, 255));
            damaged[n] = '\0';
        }
        Position q;
        char err[256] = "";
        if (v->from_fen(&q, damaged, &default_config, err, sizeof err))
            check_accepted(v, pos, damaged, &q, r);
        else if (!err[0])
            fail(r, v, pos, "from_fen('%.60s') refused it without a reason", damaged);
    }
}

const ContractCheck contract_checks[] = {
    {"descriptor", "the Variant table names the game, has every required function, sane facts",
     NULL, 1, descriptor_once},
    {"fen-round-trip", "to_fen/from_fen give back the same text and the same position",
     fen_at, 1, NULL},
    {"key-recomputed", "the key after moves equals the key computed from the FEN", key_at, 1,
     NULL},
    {"notation-round-trip", "every move's text parses back to the move", notation_at, 1, NULL},
    {"moves-well-formed", "generate() and make() are deterministic, codes distinct and non-zero",
     moves_at, 1, NULL},
    {"result-consistent", "result() is RESULT_NONE exactly when generate() has moves",
     result_at, 1, NULL},
    {"evaluation", "evaluate() is bounded; every query is deterministic", evaluation_at, 1,
     NULL},
    {"layout", "a game reads and writes exactly its position_size bytes", layout_at, 3,
     layout_once},
    {"playouts-end", "random games end under every rule setting", NULL, 1, playouts_end_once},
    {"count-moves", "count_moves() equals the number of moves generate() lists",
     count_moves_at, 1, NULL},
    {"fast-perft", "the game's perft equals the generic walk", perft_at, 11, NULL},
    {"text-output", "diagram() and describe() stay inside their buffer", text_at, 5, NULL},
    {"fen-damage", "a damaged FEN is refused with a reason or round-trips", fen_damage_at, 29,
     NULL},
};
const int contract_check_count = sizeof contract_checks / sizeof contract_checks[0];

const ContractCheck *contract_find(const char *name)
{
    for (int i = 0; i < contract_check_count; i++)
        if (strcmp(contract_checks[i].name, name) == 0)
            return &contract_checks[i];
    return NULL;
}

/* The move a playout plays: uniformly random, or (greedy, seven times in
 * ten) the one whose child the game's own evaluation likes best for the
 * mover, so that the playouts also reach the crowded, purposeful positions
 * of real games. */
static int pick_move(const Variant *v, const Position *pos, const Move *moves, int n,
                     bool greedy, uint64_t *rng)
{
    int pick = (int)util_random_below(rng, (uint64_t)n);
    if (!greedy || is_chance(v, pos) || util_random_below(rng, 10) >= 7)
        return pick;
    int side = v->side_to_move(pos), best = -SCORE_INF;
    for (int i = 0; i < n; i++) {
        Position c;
        v->make(pos, moves[i], &c);
        int e = v->evaluate(&c);
        if (v->side_to_move(&c) != side)
            e = -e;
        e = e * 4 + (int)util_random_below(rng, 4); /* ties broken at random */
        if (e > best)
            best = e, pick = i;
    }
    return pick;
}

/* The functions a walk over playouts calls. */
static bool walkable(const Variant *v)
{
    return v->startpos && v->generate && v->make && v->result && v->key && v->to_fen &&
           v->from_fen && v->side_to_move && v->position_size <= sizeof(Position);
}

void contract_run(const Variant *v, const ContractCheck *c, ContractResult *r)
{
    memset(r, 0, sizeof *r);
    if (c->once)
        c->once(v, r);
    if (!c->at_position)
        return;
    if (!walkable(v)) {
        fail(r, v, NULL, "cannot play: a function the playouts need is missing");
        return;
    }
    uint64_t rng = CONTRACT_SEED;
    long index = 0;
    int every = c->every > 0 ? c->every : 1;
    Move moves[MAX_MOVES];
    for (int g = 0; g < PLAYOUTS; g++) {
        Game game;
        game_init(&game, v, &default_config);
        for (;;) {
            if (index++ % every == 0) {
                c->at_position(v, &game.pos, r);
                r->positions++;
            }
            if (game.ply >= PLAYOUT_MAX_PLIES || game_result(&game, NULL, NULL) != RESULT_NONE)
                break;
            int n = v->generate(&game.pos, moves);
            if (n <= 0 || n > MAX_MOVES)
                break;
            game_play(&game, moves[pick_move(v, &game.pos, moves, n, g % 2 == 1, &rng)]);
        }
        game_free(&game);
    }
}
