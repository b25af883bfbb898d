/* pyramid.c - Pyramid, R. C. Bell's simplified Salto (doc/rules.md, Pyramid).
 *
 * Board: the 32 dark squares of an 8x8 board (a1 dark), numbered
 * sq = 4 * rank + file / 2 (rank and file from 0), so a1 = 0, c1 = 1, b2 = 4,
 * h8 = 31.  One uint32_t bitboard per side.  White moves toward rank 8,
 * Black toward rank 1; both only diagonally forward: a step to an adjacent
 * empty square, or a chain of jumps over adjacent pieces of either colour
 * (nothing is captured) that may stop after any jump.  A move is named by its
 * start and end squares only.  The first side whose ten pieces fill the
 * enemy's start pyramid wins; a side with no move passes; two sides stuck in
 * a row end the game by counting.
 */
#include "../refusal.h"
#include "../evalmodel.h"
#include "../util.h"
#include "../variant.h"
#include "fen.h"

#include <stdio.h>
#include <string.h>

/* ---- layout ------------------------------------------------------------- */

typedef struct GAME_POSITION PyramidPos {
    uint32_t occ[2];   /* pieces of WHITE / BLACK */
    uint64_t key;      /* Zobrist key, maintained by make() */
    int16_t count[2];  /* counting sums (fewest forward steps to the enemy
                          pyramid, summed), maintained by make() */
    uint8_t side;      /* side to move */
    uint8_t passed;    /* the previous move was a pass */
} PyramidPos;
GAME_POSITION_TYPE(PyramidPos);

#define PIECES 10
#define SQUARES 32
#define BIT(sq) ((uint32_t)1 << (sq))

/* Move code: from | to << 5 | MOVE_FLAG; the pass is its own code.  Both are
 * non-zero, as variant.h requires. */
#define MOVE_FLAG ((Move)1 << 10)
#define MOVE_PASS ((Move)1 << 11)
static inline int move_from(Move m) { return (int)(m & 31); }
static inline int move_to(Move m) { return (int)((m >> 5) & 31); }
static inline Move make_move(int from, int to)
{
    return (Move)from | (Move)to << 5 | MOVE_FLAG;
}

/* ---- board -------------------------------------------------------------- */

/* Start pyramids: HOME[WHITE] = a1 c1 e1 g1 b2 d2 f2 c3 e3 d4,
 * HOME[BLACK] = h8 f8 d8 b8 g7 e7 c7 f6 d6 e5.  A side's target is the
 * other side's home. */
static uint32_t HOME[2];

/* Tables, built by pyramid_init(). */
static uint32_t STEP[2][SQUARES];       /* forward-adjacent squares */
static uint32_t JUMP_OVER[2][SQUARES][2]; /* square jumped over (bit), 0 if
                                             the jump leaves the board */
static uint32_t JUMP_TO[2][SQUARES][2];   /* landing square (bit), 0 if none */
static uint32_t CONE[2][SQUARES];       /* target squares reachable forward
                                           on an empty board (incl. sq) */
static int8_t DIST[2][SQUARES];         /* counting distance to the target */
static int8_t ADVANCE[2][SQUARES];      /* ranks advanced from own back rank */
static uint64_t zobrist_piece[2][SQUARES];
static uint64_t zobrist_black_to_move;
static uint64_t zobrist_pass; /* the previous move was a pass */

static inline int sq_rank(int sq) { return sq >> 2; }
static inline int sq_file(int sq) { return ((sq & 3) << 1) | ((sq >> 2) & 1); }
/* Square index of (file, rank), or -1 when off the board or light. */
static int sq_at(int file, int rank)
{
    if (file < 0 || file > 7 || rank < 0 || rank > 7 || ((file + rank) & 1))
        return -1;
    return rank * 4 + file / 2;
}

/* The forward diagonal steps of every piece of b at once (perft's counts):
 * White's to the right (file + 1) and to the left, Black's likewise
 * towards rank 1; squares that would leave the board vanish.  On an even
 * rank (files a c e g) a square's right neighbour a rank up is 4 indices on,
 * its left one 3; on an odd rank 5 and 4.  A step of one side undone is the
 * other side's step the other way. */
#define EVEN_RANKS 0x0F0F0F0Fu
#define ODD_RANKS 0xF0F0F0F0u
#define FILE_A 0x01010101u
#define FILE_H 0x80808080u
static inline uint32_t up_right(uint32_t b)
{
    return (b & EVEN_RANKS) << 4 | (b & ODD_RANKS & ~FILE_H) << 5;
}
static inline uint32_t up_left(uint32_t b)
{
    return (b & EVEN_RANKS & ~FILE_A) << 3 | (b & ODD_RANKS) << 4;
}
static inline uint32_t down_right(uint32_t b)
{
    return (b & EVEN_RANKS) >> 4 | (b & ODD_RANKS & ~FILE_H) >> 3;
}
static inline uint32_t down_left(uint32_t b)
{
    return (b & EVEN_RANKS & ~FILE_A) >> 5 | (b & ODD_RANKS) >> 4;
}
/* Side s's step in direction d (0: right, 1: left), and its inverse. */
static inline uint32_t forward(int s, int d, uint32_t b)
{
    return s == WHITE ? (d ? up_left(b) : up_right(b)) : (d ? down_left(b) : down_right(b));
}
static inline uint32_t backward(int s, int d, uint32_t b)
{
    return s == WHITE ? (d ? down_right(b) : down_left(b)) : (d ? up_right(b) : up_left(b));
}

/* Build the step, jump, cone, distance and Zobrist tables. */
static void pyramid_init(void)
{
    static const char *const home_names[2][PIECES] = {
        {"a1", "c1", "e1", "g1", "b2", "d2", "f2", "c3", "e3", "d4"},
        {"h8", "f8", "d8", "b8", "g7", "e7", "c7", "f6", "d6", "e5"},
    };
    for (int s = 0; s < 2; s++) {
        HOME[s] = 0;
        for (int i = 0; i < PIECES; i++)
            HOME[s] |= BIT(sq_at(home_names[s][i][0] - 'a',
                                 home_names[s][i][1] - '1'));
    }
    for (int s = 0; s < 2; s++) {
        int fwd = s == WHITE ? 1 : -1;
        uint32_t target = HOME[s ^ 1];
        for (int sq = 0; sq < SQUARES; sq++) {
            int f = sq_file(sq), r = sq_rank(sq);
            STEP[s][sq] = 0;
            for (int d = 0; d < 2; d++) {
                int df = d == 0 ? -1 : 1;
                int a = sq_at(f + df, r + fwd);
                int b = sq_at(f + 2 * df, r + 2 * fwd);
                if (a >= 0)
                    STEP[s][sq] |= BIT(a);
                JUMP_OVER[s][sq][d] = a >= 0 && b >= 0 ? BIT(a) : 0;
                JUMP_TO[s][sq][d] = a >= 0 && b >= 0 ? BIT(b) : 0;
            }
            CONE[s][sq] = 0;
            int best = 99;
            for (int t = 0; t < SQUARES; t++) {
                if (!(target & BIT(t)))
                    continue;
                int ahead = (sq_rank(t) - r) * fwd;
                int side_ways = sq_file(t) - f;
                if (side_ways < 0)
                    side_ways = -side_ways;
                if (ahead >= side_ways) {
                    CONE[s][sq] |= BIT(t);
                    if (ahead < best)
                        best = ahead;
                }
            }
            /* Every square reaches the pyramid: the last rank is all target. */
            DIST[s][sq] = (int8_t)best;
            ADVANCE[s][sq] = (int8_t)(s == WHITE ? r : 7 - r);
        }
    }
    uint64_t seed = 0x505952414D4944ULL; /* "PYRAMID" */
    for (int s = 0; s < 2; s++)
        for (int sq = 0; sq < SQUARES; sq++)
            zobrist_piece[s][sq] = util_splitmix64(&seed);
    zobrist_black_to_move = util_splitmix64(&seed);
    zobrist_pass = util_splitmix64(&seed);
}

/* ---- rules -------------------------------------------------------------- */

/* Key, counting sums from scratch (setup and tests). */
static void refresh(PyramidPos *p)
{
    uint64_t k = 0;
    for (int s = 0; s < 2; s++) {
        int sum = 0;
        for (uint32_t b = p->occ[s]; b; b &= b - 1) {
            int sq = __builtin_ctz(b);
            k ^= zobrist_piece[s][sq];
            sum += DIST[s][sq];
        }
        p->count[s] = (int16_t)sum;
    }
    if (p->side == BLACK)
        k ^= zobrist_black_to_move;
    if (p->passed)
        k ^= zobrist_pass;
    p->key = k;
}

/* The two pyramids, White to move, no pass pending. */
static void pyramid_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    memset(pos, 0, sizeof *pos);
    PyramidPos *p = mpos(pos);
    p->occ[WHITE] = HOME[WHITE];
    p->occ[BLACK] = HOME[BLACK];
    p->side = WHITE;
    p->passed = 0;
    refresh(p);
}

/* ---- rules: moves ------------------------------------------------------- */


/* Landing squares of single jumps from sq (occ is the whole board). */
static inline uint32_t single_jumps(int s, int sq, uint32_t occ)
{
    uint32_t land = 0;
    for (int d = 0; d < 2; d++)
        if ((occ & JUMP_OVER[s][sq][d]) && !(occ & JUMP_TO[s][sq][d]))
            land |= JUMP_TO[s][sq][d];
    return land;
}

/* Every square the piece on from can end a jump chain on (occ is the whole
 * board).  Forward-only chains form a DAG and nothing is captured, so the
 * board is the same whatever the path: a square reached once never needs to
 * be searched from again, and the visited set is exactly the set of ends.
 * The frontier is a bitboard: the order squares are expanded in does not
 * matter. */
static inline uint32_t jump_ends(int s, int from, uint32_t occ)
{
    occ &= ~BIT(from); /* the jumper has left; it can never pass behind */
    uint32_t ends = single_jumps(s, from, occ);
    uint32_t frontier = ends;
    while (frontier) {
        int sq = __builtin_ctz(frontier);
        frontier &= frontier - 1;
        uint32_t fresh = single_jumps(s, sq, occ) & ~ends;
        ends |= fresh;
        frontier |= fresh;
    }
    return ends;
}

/* True when side s has at least one step or jump. */
static bool has_move(const PyramidPos *p, int s)
{
    uint32_t occ = p->occ[0] | p->occ[1];
    for (uint32_t b = p->occ[s]; b; b &= b - 1) {
        int sq = __builtin_ctz(b);
        if ((STEP[s][sq] & ~occ) || single_jumps(s, sq, occ))
            return true;
    }
    return false;
}

/* A filled pyramid wins; a side stuck right after a pass ends the game by
 * counting (margin: the difference of the counting sums). */
static Result pyramid_result(const Position *pos, int *margin,
                             const char **reason)
{
    const PyramidPos *p = cpos(pos);
    Result r = RESULT_NONE;
    int m = 0;
    const char *why = "";
    if (p->occ[WHITE] == HOME[BLACK]) {
        r = RESULT_WHITE_WINS;
        m = p->count[BLACK] - p->count[WHITE];
        why = "pyramid filled";
    } else if (p->occ[BLACK] == HOME[WHITE]) {
        r = RESULT_BLACK_WINS;
        m = p->count[WHITE] - p->count[BLACK];
        why = "pyramid filled";
    } else if (p->passed && !has_move(p, p->side)) {
        int d = p->count[WHITE] - p->count[BLACK];
        r = d < 0 ? RESULT_WHITE_WINS : d > 0 ? RESULT_BLACK_WINS : RESULT_DRAW;
        m = d < 0 ? -d : d;
        why = "counting, both sides stuck";
    }
    if (margin)
        *margin = m;
    if (reason)
        *reason = why;
    return r;
}

/* generate() on the bare position. */
static int generate_raw(const PyramidPos *p, Move *moves)
{
    if (p->occ[WHITE] == HOME[BLACK] || p->occ[BLACK] == HOME[WHITE])
        return 0;
    int s = p->side;
    uint32_t occ = p->occ[0] | p->occ[1];
    int n = 0;
    /* Jumps first (they gain two ranks or more), furthest landing first;
     * then steps.  Pieces in square order: the order is deterministic. */
    for (uint32_t b = p->occ[s]; b; b &= b - 1) {
        int from = __builtin_ctz(b);
        uint32_t ends = jump_ends(s, from, occ);
        while (ends) {
            int to;
            if (s == WHITE) {
                to = 31 - __builtin_clz(ends);
            } else {
                to = __builtin_ctz(ends);
            }
            ends &= ~BIT(to);
            moves[n++] = make_move(from, to);
        }
    }
    for (uint32_t b = p->occ[s]; b; b &= b - 1) {
        int from = __builtin_ctz(b);
        for (uint32_t t = STEP[s][from] & ~occ; t; t &= t - 1)
            moves[n++] = make_move(from, __builtin_ctz(t));
    }
    if (n == 0 && !p->passed)
        moves[n++] = MOVE_PASS;
    return n;
}

/* All legal moves; the pass when there is none (unless one was just made). */
static int pyramid_generate(const Position *pos, Move *moves)
{
    return generate_raw(cpos(pos), moves);
}

/* Number of legal moves of side s to move, as generate() would return
 * (bulk counting): the steps of all pieces by two shifts; the chains of
 * each piece that can jump at all, as the set of squares a chain from it
 * can end on, grown a jump at a time (a square reached twice counts once,
 * as in jump_ends). */
static inline __attribute__((always_inline)) int count_side(const PyramidPos *p, int s)
{
    uint32_t own = p->occ[s], occ = p->occ[0] | p->occ[1], empty = ~occ;
    int n = util_popcount32(forward(s, 0, own) & empty) + util_popcount32(forward(s, 1, own) & empty);
    uint32_t jumpers = own & (backward(s, 0, backward(s, 0, empty) & occ) |
                              backward(s, 1, backward(s, 1, empty) & occ));
    for (; jumpers; jumpers &= jumpers - 1) {
        uint32_t from = jumpers & -jumpers, over = occ & ~from, ends = 0;
        for (uint32_t reach = from; reach;) {
            reach = (forward(s, 0, forward(s, 0, reach) & over) |
                     forward(s, 1, forward(s, 1, reach) & over)) & ~over & ~ends;
            ends |= reach;
        }
        n += util_popcount32(ends);
    }
    if (n == 0 && !p->passed)
        n = 1;
    return n;
}

/* (count_side compiled for each side, so that the shifts are fixed.) */
static int count_moves(const PyramidPos *p)
{
    if (p->occ[WHITE] == HOME[BLACK] || p->occ[BLACK] == HOME[WHITE])
        return 0;
    return p->side == WHITE ? count_side(p, WHITE) : count_side(p, BLACK);
}

static int pyramid_count_moves(const Position *pos) { return count_moves(cpos(pos)); }

/* make() on bare positions. */
static inline void make_raw(const PyramidPos *p, Move m, PyramidPos *q)
{
    *q = *p;
    int s = p->side;
    uint64_t k = p->key ^ zobrist_black_to_move;
    if (m == MOVE_PASS) {
        if (!p->passed)
            k ^= zobrist_pass;
        q->passed = 1;
    } else {
        int from = move_from(m), to = move_to(m);
        q->occ[s] ^= BIT(from) | BIT(to);
        q->count[s] = (int16_t)(p->count[s] - DIST[s][from] + DIST[s][to]);
        k ^= zobrist_piece[s][from] ^ zobrist_piece[s][to];
        if (p->passed)
            k ^= zobrist_pass;
        q->passed = 0;
    }
    q->side = (uint8_t)(s ^ 1);
    q->key = k;
}

/* Copy-make with the key and counting sums updated incrementally. */
static void pyramid_make(const Position *pos, Move m, Position *out)
{
    make_raw(cpos(pos), m, mpos(out));
}

/* WHITE or BLACK. */
static int pyramid_side_to_move(const Position *pos) { return cpos(pos)->side; }

/* The incrementally kept Zobrist key (placement, side, pending pass). */
static uint64_t pyramid_key(const Position *pos) { return cpos(pos)->key; }

/* ---- perft -------------------------------------------------------------- */

/* Perft on bare positions, bulk-counting the last ply (depth >= 1). */
static uint64_t perft_rec(const PyramidPos *p, int depth)
{
    if (depth == 1)
        return (uint64_t)count_moves(p);
    Move moves[MAX_MOVES];
    int n = generate_raw(p, moves);
    uint64_t total = 0;
    PyramidPos child;
    for (int i = 0; i < n; i++) {
        make_raw(p, moves[i], &child);
        total += perft_rec(&child, depth - 1);
    }
    return total;
}

/* The fast perft: counts exactly what perft_generic() counts. */
static uint64_t pyramid_perft(const Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    return perft_rec(cpos(pos), depth);
}

/* ---- notation ----------------------------------------------------------- */

static void square_name(int sq, char *buf)
{
    buf[0] = (char)('a' + sq_file(sq));
    buf[1] = (char)('1' + sq_rank(sq));
}

/* Square named by text[0..1], or -1. */
static int parse_square(const char *text)
{
    if (text[0] < 'a' || text[0] > 'h' || text[1] < '1' || text[1] > '8')
        return -1;
    return sq_at(text[0] - 'a', text[1] - '1');
}

/* "c3d4", "c1c5" (start and end of a chain), "0000" for the pass. */
static void pyramid_move_str(const Position *pos, Move m, char *buf)
{
    (void)pos;
    if (m == MOVE_PASS) {
        strcpy(buf, "0000");
        return;
    }
    square_name(move_from(m), buf);
    square_name(move_to(m), buf + 2);
    buf[4] = '\0';
}

/* The legal move named by exactly four characters, else MOVE_NONE. */
static Move pyramid_parse_move(const Position *pos, const char *text)
{
    if (!text || strlen(text) != 4)
        return MOVE_NONE;
    Move want;
    if (strcmp(text, "0000") == 0) {
        want = MOVE_PASS;
    } else {
        int from = parse_square(text), to = parse_square(text + 2);
        if (from < 0 || to < 0)
            return MOVE_NONE;
        want = make_move(from, to);
    }
    Move moves[MAX_MOVES];
    int n = pyramid_generate(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == want)
            return want;
    return MOVE_NONE;
}

/* ---- refusal reasons (query why; engine/refusal.h) ----------------------- */

static bool pyramid_keep_from(const Position *pos, Move m, const void *ctx)
{
    (void)pos;
    return m != MOVE_PASS && move_from(m) == *(const int *)ctx;
}

static bool pyramid_refusal(const Position *pos, const char *text, char *buf, size_t size)
{
    const PyramidPos *p = cpos(pos);
    int s = p->side, o = s ^ 1;
    const char *me = s == WHITE ? "White" : "Black", *you = o == WHITE ? "White" : "Black";
    char list[REFUSAL_LIST];
    Move moves[MAX_MOVES];
    int n = pyramid_generate(pos, moves);
    if (strcmp(text, "0000") == 0) {
        refusal_list(pyramid_generate, pyramid_move_str, pos, NULL, NULL, list, sizeof list);
        snprintf(buf, size, "a pass (0000) is played only by a side that has no legal move; %s "
                            "has %d: %s", me, n, list);
        return true;
    }
    size_t len = strlen(text);
    bool shape = len == 2 || len == 4;
    for (size_t i = 0; shape && i < len; i += 2)
        shape = text[i] >= 'a' && text[i] <= 'h' && text[i + 1] >= '1' && text[i + 1] <= '8';
    if (!shape) {
        snprintf(buf, size, "'%s' is not a move: write a move as its start and end squares "
                            "(c3d4, or c1c5 for a chain of jumps), files a to h, ranks 1 to 8; "
                            "a pass is 0000", text);
        return true;
    }
    int sq[2];
    for (size_t i = 0; i < len / 2; i++) {
        sq[i] = parse_square(text + 2 * i);
        if (sq[i] < 0) {
            snprintf(buf, size, "%.2s is a light square: Pyramid uses only the dark squares "
                                "(a1, c1 ... h8)", text + 2 * i);
            return true;
        }
    }
    int from = sq[0];
    uint32_t occ = p->occ[0] | p->occ[1];
    if (!(p->occ[s] & BIT(from))) {
        refusal_list(pyramid_generate, pyramid_move_str, pos, NULL, NULL, list, sizeof list);
        if (p->occ[o] & BIT(from))
            snprintf(buf, size, "that is %s's piece; %s is to move (%s)", you, me, list);
        else
            snprintf(buf, size, "no piece there: %.2s is empty; %s's moves are %s", text, me,
                     list);
        return true;
    }
    if (len == 2) {
        snprintf(buf, size, "the piece on %.2s cannot move: the squares diagonally in front of "
                            "it are taken and it has nothing to jump to", text);
        return true;
    }
    int to = sq[1];
    int ahead = (sq_rank(to) - sq_rank(from)) * (s == WHITE ? 1 : -1);
    if (!refusal_list(pyramid_generate, pyramid_move_str, pos, pyramid_keep_from, &from, list,
                      sizeof list))
        snprintf(list, sizeof list, "nothing: it is blocked");
    if (ahead <= 0)
        snprintf(buf, size, "pieces only ever go forward (%s %s the board), diagonally; the "
                            "piece on %.2s may play %s",
                 me, s == WHITE ? "up" : "down", text, list);
    else if (occ & BIT(to))
        snprintf(buf, size, "%.2s is occupied: a move ends on an empty square; the piece on "
                            "%.2s may play %s", text + 2, text, list);
    else if (STEP[s][from] & BIT(to))
        return false;
    else
        snprintf(buf, size, "no step or chain of jumps takes the piece on %.2s to %.2s: a jump "
                            "goes over the piece diagonally in front (of either colour) to the "
                            "empty square behind it; this piece may play %s",
                 text, text + 2, list);
    return true;
}

/* ---- FEN ---------------------------------------------------------------- */

/* FEN: "<rank 8>/<rank 7>/.../<rank 1> <side> <pass>", ranks as in chess:
 * W = white piece, B = black piece, a digit 1-8 = that many squares (light
 * or empty dark) in a row; side w or b; pass "p" when the previous move was a
 * pass, else "-". */
static int write_cell(const void *ctx, int rank, int file, char *out)
{
    const PyramidPos *p = ctx;
    int sq = sq_at(file, rank);
    if (sq < 0 || !((p->occ[WHITE] | p->occ[BLACK]) & BIT(sq)))
        return 0;
    out[0] = p->occ[WHITE] & BIT(sq) ? 'W' : 'B';
    return 1;
}

static void pyramid_to_fen(const Position *pos, char *buf)
{
    const PyramidPos *p = cpos(pos);
    char *o = fen_write_board(buf, 8, 8, write_cell, p);
    *o++ = ' ';
    *o++ = p->side == WHITE ? 'w' : 'b';
    *o++ = ' ';
    *o++ = p->passed ? 'p' : '-';
    *o = '\0';
}

static int read_cell(void *ctx, int rank, int file, const char *text, char *err,
                     size_t errlen)
{
    PyramidPos *p = ctx;
    if (*text != 'W' && *text != 'B')
        return 0;
    int sq = sq_at(file, rank);
    if (sq < 0) {
        fen_fail(err, errlen, "a piece on a light square");
        return -1;
    }
    p->occ[*text == 'W' ? WHITE : BLACK] |= BIT(sq);
    return 1;
}

/* Read a FEN (see pyramid_to_fen); rejects malformed or impossible ones. */
static bool pyramid_from_fen(Position *pos, const char *fen,
                             const GameConfig *cfg, char *err, size_t errlen)
{
    (void)cfg;
    FenFields f;
    if (!fen_split(fen, 2, 3, "board side pass", &f, err, errlen))
        return false;
    memset(pos, 0, sizeof *pos);
    PyramidPos *p = mpos(pos);
    if (!fen_read_board(f.field[0], 8, 8, read_cell, p, err, errlen))
        return false;
    if (util_popcount32(p->occ[WHITE]) != PIECES ||
        util_popcount32(p->occ[BLACK]) != PIECES)
        return fen_fail(err, errlen,
                        "each side must have exactly 10 pieces (nothing is captured)");
    int side = fen_side(f.field[1]);
    if (side < 0)
        return fen_fail(err, errlen, "side to move must be w or b");
    p->side = (uint8_t)side;
    if (f.count > 2) { /* the pass flag may be left out: "-" */
        if (strcmp(f.field[2], "p") != 0 && strcmp(f.field[2], "-") != 0)
            return fen_fail(err, errlen, "pass flag must be p or -");
        p->passed = f.field[2][0] == 'p';
    }
    bool white_full = p->occ[WHITE] == HOME[BLACK];
    bool black_full = p->occ[BLACK] == HOME[WHITE];
    if (white_full && black_full)
        return fen_fail(err, errlen, "both pyramids cannot be filled");
    if ((white_full && p->side == WHITE) || (black_full && p->side == BLACK))
        return fen_fail(err, errlen,
                        "the side to move cannot have filled the pyramid already");
    if (p->passed && (white_full || black_full))
        return fen_fail(err, errlen, "no pass after the game was won");
    if (p->passed && has_move(p, p->side ^ 1))
        return fen_fail(err, errlen,
                        "pass flag set but the side that passed has a move");
    refresh(p);
    return true;
}

/* ---- diagram ------------------------------------------------------------ */

static void pyramid_diagram(const Position *pos, char *buf, size_t size)
{
    const PyramidPos *p = cpos(pos);
    char out[1024];
    char *o = out;
    o += sprintf(o, "   a b c d e f g h\n");
    for (int r = 7; r >= 0; r--) {
        o += sprintf(o, " %d", r + 1);
        for (int f = 0; f < 8; f++) {
            int sq = sq_at(f, r);
            char c = ' ';
            if (sq >= 0) {
                if (p->occ[WHITE] & BIT(sq))
                    c = 'W';
                else if (p->occ[BLACK] & BIT(sq))
                    c = 'B';
                else if ((HOME[WHITE] | HOME[BLACK]) & BIT(sq))
                    c = ':';
                else
                    c = '.';
            }
            *o++ = ' ';
            *o++ = c;
        }
        o += sprintf(o, "  %d\n", r + 1);
    }
    o += sprintf(o, "   a b c d e f g h\n");
    o += sprintf(o, "W white  B black  . empty  : empty pyramid square "
                    "(top: White's target, bottom: Black's)\n");
    o += sprintf(o, "%s to move%s\n", p->side == WHITE ? "White" : "Black",
                 p->passed ? ", the previous move was a pass" : "");
    o += sprintf(o, "in the enemy pyramid: white %d/10  black %d/10\n",
                 util_popcount32(p->occ[WHITE] & HOME[BLACK]),
                 util_popcount32(p->occ[BLACK] & HOME[WHITE]));
    o += sprintf(o, "count white %d black %d (steps to the enemy pyramid, "
                    "smaller wins)\n", p->count[WHITE], p->count[BLACK]);
    if (size)
        snprintf(buf, size, "%s", out);
}

/* "count white N black M". */
static void pyramid_describe(const Position *pos, char *buf, size_t size)
{
    const PyramidPos *p = cpos(pos);
    if (size)
        snprintf(buf, size, "count white %d black %d", p->count[WHITE],
                 p->count[BLACK]);
}

/* ---- evaluation (centi-steps: 100 = one forward step of one piece) ------ */

/* How many of side s's pieces can be matched one to one onto target
 * squares inside their forward cones (Kuhn's augmenting paths on a 10 x 10
 * graph).  Below 10, s can never fill the pyramid (pieces only go forward)
 * and each unmatched piece will end the game outside it, counting against s. */
static int fill_matching(const PyramidPos *p, int s)
{
    uint32_t target = HOME[s ^ 1];
    int sqs[PIECES];
    int n = 0;
    for (uint32_t b = p->occ[s]; b && n < PIECES; b &= b - 1)
        sqs[n++] = __builtin_ctz(b);
    int8_t owner[SQUARES] = {0}; /* piece index + 1 holding target square */
    int matched = 0;
    for (int i = 0; i < n; i++) {
        uint32_t seen = 0;
        int path_piece[PIECES + 1], path_sq[PIECES + 1];
        uint32_t left[PIECES + 1];
        int depth = 0;
        path_piece[0] = i;
        left[0] = CONE[s][sqs[i]] & target;
        while (depth >= 0) {
            if (!left[depth]) {
                depth--;
                continue;
            }
            int t = __builtin_ctz(left[depth]);
            left[depth] &= left[depth] - 1;
            if (seen & BIT(t))
                continue;
            seen |= BIT(t);
            path_sq[depth] = t;
            if (!owner[t]) { /* free square: shift the path along */
                for (int k = 0; k <= depth; k++)
                    owner[path_sq[k]] = (int8_t)(path_piece[k] + 1);
                matched++;
                break;
            }
            int q = owner[t] - 1;
            depth++;
            path_piece[depth] = q;
            left[depth] = CONE[s][sqs[q]] & target;
        }
    }
    return matched;
}

/* Number of moves side s would have if it were to move, and in *gain the
 * most ranks one of them gains (0 when it has none). */
static int mobility(const PyramidPos *p, int s, int *gain)
{
    uint32_t occ = p->occ[0] | p->occ[1];
    int best = 0, n = 0;
    for (uint32_t b = p->occ[s]; b; b &= b - 1) {
        int from = __builtin_ctz(b);
        uint32_t steps = STEP[s][from] & ~occ;
        uint32_t ends = jump_ends(s, from, occ);
        n += util_popcount32(steps) + util_popcount32(ends);
        if (ends) {
            int to = s == WHITE ? 31 - __builtin_clz(ends) : __builtin_ctz(ends);
            int g = ADVANCE[s][to] - ADVANCE[s][from];
            if (g > best)
                best = g;
        } else if (best == 0 && steps) {
            best = 1;
        }
    }
    *gain = best;
    return n;
}

/* Counting steps of side s's pieces outside the enemy pyramid that cannot
 * move now because every forward square holds an enemy piece and no jump is
 * open: likely walled in for good, so their distance is likely to stay in the
 * final count. */
static int walled_in_steps(const PyramidPos *p, int s)
{
    uint32_t occ = p->occ[0] | p->occ[1];
    int sum = 0;
    for (uint32_t b = p->occ[s] & ~HOME[s ^ 1]; b; b &= b - 1) {
        int sq = __builtin_ctz(b);
        uint32_t ahead = STEP[s][sq];
        if ((ahead & p->occ[s ^ 1]) != ahead)
            continue;
        if (!((JUMP_TO[s][sq][0] | JUMP_TO[s][sq][1]) & ~occ))
            sum += DIST[s][sq];
    }
    return sum;
}

/* Pieces of side s still in its own pyramid times enemy pieces already in
 * it: the enemy is filling the squares around them and may wall them in. */
static int straggler_risk(const PyramidPos *p, int s)
{
    return util_popcount32(p->occ[s] & HOME[s]) *
           util_popcount32(p->occ[s ^ 1] & HOME[s]);
}

/* A linear evaluation fitted to self-play results (evalmodel.h,
 * doc/tuning.md): the terms below, weighted by pyramid_weights.h.  Each is
 * "mine minus the opponent's" unless said otherwise. */
enum {
    PF_TEMPO,        /* 1: the side to move */
    PF_COUNT_SUM,    /* counting sums */
    PF_ADVANCE,      /* ranks advanced from the own back rank, summed */
    PF_CANNOT_FILL,  /* 1 when the side can never fill the pyramid */
    PF_UNMATCHED,    /* pieces that can never enter the pyramid */
    PF_GAIN_US,      /* ranks the mover's best move gains (mover only) */
    PF_GAIN_THEM,    /* ... the opponent's best move (opponent only) */
    PF_MOBILITY,     /* legal moves */
    PF_WALLED_IN,    /* walled_in_steps() */
    PF_STRAGGLER,    /* straggler_risk() */
    PF_PASS,         /* 1: the opponent has just passed */
    PF_DIST,         /* pieces at each counting distance 0..PYR_DIST_MAX */
    PF_PST = PF_DIST + 12, /* square (Black's turned half a turn) */
    PF_COUNT = PF_PST + SQUARES
};
#define PYR_DIST_MAX 11

static void pyramid_feature_name(int i, char *buf, size_t size)
{
    static const char *const names[] = {"tempo", "count", "advance", "cannot_fill",
                                        "unmatched", "gain_us", "gain_them", "mobility",
                                        "walled_in", "straggler", "pass"};
    if (i < PF_DIST)
        snprintf(buf, size, "%s", names[i]);
    else if (i < PF_PST)
        snprintf(buf, size, "dist %d", i - PF_DIST);
    else
        snprintf(buf, size, "pst %d", i - PF_PST);
}

static void pyramid_eval_terms(const Position *pos, EvalTerms *t)
{
    const PyramidPos *p = cpos(pos);
    int me = p->side, op = me ^ 1;
    int start_sum = 0;
    for (uint32_t b = HOME[WHITE]; b; b &= b - 1)
        start_sum += DIST[WHITE][__builtin_ctz(b)];
    int phase = EVAL_PHASE_MAX - EVAL_PHASE_MAX * (p->count[WHITE] + p->count[BLACK]) /
                                     (2 * start_sum);
    t->n = 0;
    t->phase = phase < 0 ? 0 : phase > EVAL_PHASE_MAX ? EVAL_PHASE_MAX : phase;
    int adv[2] = {0, 0};
    int dist[PYR_DIST_MAX + 1] = {0};
    int pst[SQUARES] = {0};
    for (int s = 0; s < 2; s++) {
        int sign = s == me ? 1 : -1;
        for (uint32_t b = p->occ[s]; b; b &= b - 1) {
            int sq = __builtin_ctz(b);
            adv[s] += ADVANCE[s][sq];
            int d = DIST[s][sq];
            dist[d > PYR_DIST_MAX ? PYR_DIST_MAX : d] += sign;
            pst[s == WHITE ? sq : SQUARES - 1 - sq] += sign;
        }
    }
    int lost_me = PIECES - fill_matching(p, me), lost_op = PIECES - fill_matching(p, op);
    int gain_me, gain_op;
    int moves_me = mobility(p, me, &gain_me);
    int moves_op = mobility(p, op, &gain_op);
    eval_term(t, PF_TEMPO, 1);
    eval_term(t, PF_COUNT_SUM, p->count[me] - p->count[op]);
    eval_term(t, PF_ADVANCE, adv[me] - adv[op]);
    eval_term(t, PF_CANNOT_FILL, (lost_me > 0) - (lost_op > 0));
    eval_term(t, PF_UNMATCHED, lost_me - lost_op);
    eval_term(t, PF_GAIN_US, gain_me);
    eval_term(t, PF_GAIN_THEM, gain_op);
    eval_term(t, PF_MOBILITY, moves_me - moves_op);
    eval_term(t, PF_WALLED_IN, walled_in_steps(p, me) - walled_in_steps(p, op));
    eval_term(t, PF_STRAGGLER, straggler_risk(p, me) - straggler_risk(p, op));
    eval_term(t, PF_PASS, p->passed);
    for (int d = 0; d <= PYR_DIST_MAX; d++)
        eval_term(t, PF_DIST + d, dist[d]);
    for (int sq = 0; sq < SQUARES; sq++)
        eval_term(t, PF_PST + sq, pst[sq]);
}

const EvalModel eval_model_pyramid = {"pyramid", PF_COUNT, pyramid_eval_terms,
                                      pyramid_feature_name};

#include "pyramid_weights.h"
_Static_assert(sizeof pyramid_weights / sizeof pyramid_weights[0] == PF_COUNT,
               "pyramid_weights.h does not match the features");

/* Side-to-move view in centi-steps; a filled pyramid is decided. */
static int pyramid_evaluate(const Position *pos)
{
    const PyramidPos *p = cpos(pos);
    int me = p->side, op = me ^ 1;
    if (p->occ[me] == HOME[op])
        return SCORE_EVAL_MAX - 1;
    if (p->occ[op] == HOME[me])
        return -(SCORE_EVAL_MAX - 1);
    EvalTerms t;
    pyramid_eval_terms(pos, &t);
    int score = eval_model_score(&t, pyramid_weights);
    if (score > SCORE_EVAL_MAX - 100)
        score = SCORE_EVAL_MAX - 100;
    if (score < -(SCORE_EVAL_MAX - 100))
        score = -(SCORE_EVAL_MAX - 100);
    return score;
}

/* Nothing is ever captured; the one move the horizon must not hide is the
 * one that fills the pyramid (it wins at once). */
static bool pyramid_is_noisy(const Position *pos, Move m)
{
    const PyramidPos *p = cpos(pos);
    if (m == MOVE_PASS)
        return false;
    int s = p->side;
    uint32_t after = p->occ[s] ^ BIT(move_from(m)) ^ BIT(move_to(m));
    return after == HOME[s ^ 1];
}

/* Moves still to come (time allocation): 1.125 per step of the two counting
 * sums, from self-play games (doc/search.md). */
static int pyramid_plies_left(const Position *pos)
{
    const PyramidPos *p = cpos(pos);
    int steps = p->count[WHITE] + p->count[BLACK];
    return steps > 0 ? steps + steps / 8 + 2 : 2;
}

/* ---- self-description (variant.h, BoardDesc) ---------------------------- */

static const char *const pyr_file_label[8] = {"a", "b", "c", "d", "e", "f", "g", "h"};
static const char *const pyr_rank_label_top_down[8] = {"8", "7", "6", "5", "4", "3", "2", "1"};

/* The 32 dark squares of the 8 x 8 board, diagonal neighbours (a step of
 * either side), one kind of piece, the two pyramids. */
static void pyramid_describe_board(BoardDesc *b)
{
    b->layout = BOARD_LAYOUT_SQUARES;
    b->width = b->height = 8.0;
    b->columns = b->rows = 8;
    b->ncolumn_labels = b->nrow_labels = 8;
    for (int i = 0; i < 8; i++) {
        b->column_labels[i] = pyr_file_label[i];
        b->row_labels[i] = pyr_rank_label_top_down[i];
    }
    b->ncells = SQUARES;
    for (int sq = 0; sq < SQUARES; sq++) {
        BoardCell *c = &b->cells[sq];
        square_name(sq, c->name);
        c->name[2] = '\0';
        c->x = sq_file(sq) + 0.5;
        c->y = 7 - sq_rank(sq) + 0.5;
        c->neighbours = STEP[WHITE][sq] | STEP[BLACK][sq];
    }
    b->nkinds = 1;
    b->kinds[0] = (PieceKind){"piece", "piece", "piece", 0, {"W", "B"}};
    b->nregions = 2;
    b->regions[0] = (BoardRegion){"pyramid", "Black's pyramid: White's target", WHITE, -1,
                                  HOME[BLACK]};
    b->regions[1] = (BoardRegion){"pyramid", "White's pyramid: Black's target", BLACK, -1,
                                  HOME[WHITE]};
}

static void pyramid_describe_position(const Position *pos, PositionInfo *out)
{
    const PyramidPos *p = cpos(pos);
    for (int s = 0; s < 2; s++)
        for (uint32_t b = p->occ[s]; b; b &= b - 1) {
            int sq = __builtin_ctz(b);
            out->side[sq] = (int8_t)s;
            out->kind[sq] = 0;
        }
    out->has = POSITION_HAS_COUNT | POSITION_HAS_PASS;
    out->count[WHITE] = p->count[WHITE];
    out->count[BLACK] = p->count[BLACK];
    out->passed = p->passed != 0;
}

/* A jump chain from `from` to `to` with the fewest jumps; among those, the
 * one that at each jump prefers the direction toward file a.  A
 * breadth-first search with the jumps tried in that order finds exactly it.
 * Writes the landing squares (without from) and returns their number, 0 if
 * there is no chain. */
static int chain_path(int s, int from, int to, uint32_t occ, uint8_t *path)
{
    occ &= ~BIT(from);
    int8_t parent[SQUARES];
    memset(parent, -1, sizeof parent);
    int queue[SQUARES], head = 0, tail = 0;
    uint32_t seen = BIT(from);
    queue[tail++] = from;
    while (head < tail && !(seen & BIT(to))) {
        int sq = queue[head++];
        for (int d = 0; d < 2; d++) {
            uint32_t land = JUMP_TO[s][sq][d];
            if (!(occ & JUMP_OVER[s][sq][d]) || !land || (occ & land) || (seen & land))
                continue;
            int next = __builtin_ctz(land);
            seen |= land;
            parent[next] = (int8_t)sq;
            queue[tail++] = next;
        }
    }
    if (!(seen & BIT(to)) || to == from)
        return 0;
    int len = 0;
    for (int sq = to; sq != from; sq = parent[sq])
        len++;
    int i = len;
    for (int sq = to; sq != from; sq = parent[sq])
        path[--i] = (uint8_t)sq;
    return len;
}

static void pyramid_describe_move(const Position *pos, Move m, MoveInfo *out)
{
    const PyramidPos *p = cpos(pos);
    if (m == MOVE_PASS) {
        out->kind = MOVE_KIND_PASS;
        return;
    }
    int s = p->side, from = move_from(m), to = move_to(m);
    out->from = from;
    out->to = to;
    out->piece = 0;
    out->path[0] = (uint8_t)from;
    if (STEP[s][from] & BIT(to) & ~(p->occ[0] | p->occ[1])) {
        out->kind = MOVE_KIND_STEP;
        out->path[1] = (uint8_t)to;
        out->path_length = 2;
        return;
    }
    int jumps = chain_path(s, from, to, p->occ[0] | p->occ[1], out->path + 1);
    out->path_length = 1 + jumps;
    out->kind = jumps > 1 ? MOVE_KIND_CHAIN : MOVE_KIND_JUMP;
}

/* ---- variant table ------------------------------------------------------ */

/* The bench positions after the start position (engine/bench.c): the
 * positions a seeded random playout reached after 8, 15 and 24 plies. */
static const char *const pyramid_bench_fens[] = {
    "1B1B3B/6B1/1B1B1B1B/2B3W1/3W1W2/W1W3B1/3W1W2/W1W3W1 w -",
    "1B5B/2B3B1/3B1B1B/2B1W1W1/1B3W2/W1W1W1B1/1W3W1W/2W5 b -",
    "5W1B/B5B1/1B3B1B/4W3/1B1W1W2/W1W1B1B1/1W1W1W1W/6B1 w -",
    NULL,
};

const Variant variant_pyramid = {
    .name = "pyramid",
    .title = "Pyramid, R. C. Bell's simplified Salto (8x8, forward jump chains)",
    .repetition_draws = false, /* forward-only: no position can recur */
    .position_size = sizeof(PyramidPos),
    .rule_options = 0,
    .match_scoring = MATCH_SCORING_COUNTING,
    .match_games = 1,
    .bench_depth = 9,
    .bench_fens = pyramid_bench_fens,
    .init = pyramid_init,
    .startpos = pyramid_startpos,
    .from_fen = pyramid_from_fen,
    .to_fen = pyramid_to_fen,
    .side_to_move = pyramid_side_to_move,
    .is_chance = NULL,
    .generate = pyramid_generate,
    .count_moves = pyramid_count_moves,
    .make = pyramid_make,
    .result = pyramid_result,
    .key = pyramid_key,
    .move_str = pyramid_move_str,
    .parse_move = pyramid_parse_move,
    .diagram = pyramid_diagram,
    .describe = pyramid_describe,
    .evaluate = pyramid_evaluate,
    .is_noisy = pyramid_is_noisy,
    .eval_is_exact = NULL,
    .plies_left = pyramid_plies_left,
    .perft = pyramid_perft,
    .describe_board = pyramid_describe_board,
    .describe_position = pyramid_describe_position,
    .describe_move = pyramid_describe_move,
    .refusal = pyramid_refusal,
};
