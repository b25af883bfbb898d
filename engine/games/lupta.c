/* lupta.c - Lupta pe 30 de pătrăţele ("fight on 30 squares"), doc/rules.md, Lupta.
 *
 * Board: 6 files a-f x 5 ranks 1-5, square index = rank * 6 + file (a1 = 0,
 * f1 = 5, a5 = 24, f5 = 29), one uint32_t bitboard per side.  Shifting a
 * bitboard left by 1 moves every piece one file east, by 6 one rank north.
 *
 * Two phases, told apart by the hands: while either side has a piece in hand
 * the sides place (White first); when both hands are empty they step.  A
 * placement may not make a line of three own pieces unless every empty square
 * would; a step that leaves the moved piece in a line of three removes one
 * enemy piece (the removal is part of the move).
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "../refusal.h"
#include "../evalmodel.h"
#include "../util.h"
#include "../variant.h"
#include "fen.h"

/* ---- layout ------------------------------------------------------------- */

enum {
    FILES = 6,
    RANKS = 5,
    SQUARES = 30,
    HAND_MAX = 12, /* pieces per side */
    LOSE_AT = 2    /* a side reduced to this many pieces loses */
};

#define ALL_SQ ((uint32_t)0x3FFFFFFFu)
/* File masks (a..f) over all five ranks. */
#define FILE_A ((uint32_t)0x01041041u)
#define FILE_F (FILE_A << 5)
#define NOT_A (ALL_SQ & ~FILE_A)
#define NOT_F (ALL_SQ & ~FILE_F)
/* Squares that can be the left end / middle / right end of a horizontal
 * triple: files a-d / b-e / c-f. */
#define H_LEFT (FILE_A | FILE_A << 1 | FILE_A << 2 | FILE_A << 3)
#define H_MID (H_LEFT << 1)
#define H_RIGHT (H_LEFT << 2)

typedef struct GAME_POSITION LuptaPos {
    uint64_t key;     /* Zobrist key, kept incrementally */
    uint32_t bb[2];   /* pieces of WHITE / BLACK */
    uint8_t hand[2];  /* pieces still to place; both 0 = movement phase */
    uint8_t side;     /* side to move */
} LuptaPos;
GAME_POSITION_TYPE(LuptaPos);

/* Move codes.  Placement: MOVE_PLACE | square.  Step: MOVE_STEP | from | to << 5,
 * plus MOVE_REMOVE | removed << 10 when the step makes a line.  A code names
 * the move alone, whatever the position; which removals look most promising
 * is lupta_order_hints' business. */
#define MOVE_PLACE ((Move)1 << 16)
#define MOVE_STEP ((Move)1 << 17)
#define MOVE_REMOVE ((Move)1 << 18)
static inline int move_from(Move m) { return (int)(m & 31); }
static inline int move_to(Move m) { return (int)((m >> 5) & 31); }
static inline int move_removed(Move m) { return (int)((m >> 10) & 31); }

/* ---- board -------------------------------------------------------------- */

static uint32_t neighbours[SQUARES];      /* orthogonal neighbours */
enum { TRIPLES = 38 };                    /* 4 x 5 horizontal + 6 x 3 vertical */
static uint32_t triples[TRIPLES];         /* every line of three squares */
static uint64_t zobrist_piece[2][SQUARES];
static uint64_t zobrist_hand[2][HAND_MAX + 1];
static uint64_t zobrist_black_to_move;

static inline int lsb(uint32_t x) { return __builtin_ctz(x); }
static inline uint32_t bit(int sq) { return (uint32_t)1 << sq; }

/* Every square (occupied or not) that would complete an unbroken horizontal
 * or vertical line of three with the pieces of b: the square is the left end,
 * middle or right end of a horizontal triple, or the bottom, middle or top of
 * a vertical one, whose other two squares are in b. */
static inline uint32_t line_squares(uint32_t b)
{
    uint32_t h = ((b >> 1) & (b >> 2) & H_LEFT) | ((b << 1) & (b >> 1) & H_MID) |
                 ((b << 1) & (b << 2) & H_RIGHT);
    uint32_t v = ((b >> 6) & (b >> 12)) | ((b << 6) & (b >> 6)) | ((b << 6) & (b << 12));
    return (h | v) & ALL_SQ;
}

/* All squares orthogonally next to a piece of b. */
static inline uint32_t spread(uint32_t b)
{
    return (((b << 1) & NOT_A) | ((b >> 1) & NOT_F) | (b << 6) | (b >> 6)) & ALL_SQ;
}

static inline bool placing(const LuptaPos *p) { return (p->hand[0] | p->hand[1]) != 0; }

/* Squares the side to move may place on (placement phase). */
static inline uint32_t placement_targets(const LuptaPos *p)
{
    uint32_t empty = ~(p->bb[0] | p->bb[1]) & ALL_SQ;
    uint32_t ok = empty & ~line_squares(p->bb[p->side]);
    return ok ? ok : empty; /* the restriction is lifted when it forbids all */
}

static uint64_t compute_key(const LuptaPos *p)
{
    uint64_t k = 0;
    for (int c = 0; c < 2; c++) {
        for (uint32_t b = p->bb[c]; b; b &= b - 1)
            k ^= zobrist_piece[c][lsb(b)];
        k ^= zobrist_hand[c][p->hand[c]];
    }
    if (p->side == BLACK)
        k ^= zobrist_black_to_move;
    return k;
}

static void lupta_init(void)
{
    for (int sq = 0; sq < SQUARES; sq++)
        neighbours[sq] = spread(bit(sq));
    int t = 0;
    for (int r = 0; r < RANKS; r++)
        for (int f = 0; f + 2 < FILES; f++)
            triples[t++] = (uint32_t)7 << (r * FILES + f);
    for (int r = 0; r + 2 < RANKS; r++)
        for (int f = 0; f < FILES; f++)
            triples[t++] = bit(r * FILES + f) | bit((r + 1) * FILES + f) | bit((r + 2) * FILES + f);
    uint64_t seed = 0x4C7570746133306AULL; /* "Lupta30j" */
    for (int c = 0; c < 2; c++) {
        for (int sq = 0; sq < SQUARES; sq++)
            zobrist_piece[c][sq] = util_splitmix64(&seed);
        for (int h = 0; h <= HAND_MAX; h++)
            zobrist_hand[c][h] = util_splitmix64(&seed);
    }
    zobrist_black_to_move = util_splitmix64(&seed);
}

/* ---- rules -------------------------------------------------------------- */

static void lupta_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    memset(pos, 0, sizeof *pos);
    LuptaPos *p = mpos(pos);
    p->hand[WHITE] = p->hand[BLACK] = HAND_MAX;
    p->side = WHITE;
    p->key = compute_key(p);
}

/* ---- rules: result ------------------------------------------------------ */

static Result lupta_result(const Position *pos, int *margin, const char **reason)
{
    const LuptaPos *p = cpos(pos);
    if (margin)
        *margin = 0;
    if (reason)
        *reason = "";
    if (placing(p))
        return RESULT_NONE; /* there is always an empty square to place on */
    for (int c = 0; c < 2; c++) {
        if (util_popcount32(p->bb[c]) <= LOSE_AT) {
            if (reason)
                *reason = "two pieces left";
            return c == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
        }
    }
    uint32_t empty = ~(p->bb[0] | p->bb[1]) & ALL_SQ;
    if (!(spread(p->bb[p->side]) & empty)) {
        if (reason)
            *reason = "no legal move";
        return p->side == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    }
    return RESULT_NONE;
}

static inline bool game_over(const LuptaPos *p)
{
    if (placing(p))
        return false;
    if (util_popcount32(p->bb[0]) <= LOSE_AT || util_popcount32(p->bb[1]) <= LOSE_AT)
        return true;
    uint32_t empty = ~(p->bb[0] | p->bb[1]) & ALL_SQ;
    return !(spread(p->bb[p->side]) & empty);
}

/* ---- rules: moves ------------------------------------------------------- */

/* How much each enemy piece matters to its side, 0..15 (ordering only):
 * a piece that can step into a line, the pair it would complete, a standing
 * line, any mobility. */
static void removal_priority(uint32_t enemy, uint32_t empty, uint8_t prio[SQUARES])
{
    uint32_t targets = 0;
    for (uint32_t b = enemy; b; b &= b - 1) {
        int sq = lsb(b);
        uint32_t to = neighbours[sq] & empty;
        int pr = to ? 1 : 0;
        uint32_t make = to & line_squares(enemy & ~bit(sq));
        if (make)
            pr += 4;
        targets |= make;
        prio[sq] = (uint8_t)pr;
    }
    for (int i = 0; i < TRIPLES; i++) {
        uint32_t t = triples[i], e = t & enemy;
        int k = util_popcount32(e);
        if (k == 3 || (k == 2 && (t & targets)))
            for (; e; e &= e - 1)
                prio[lsb(e)] += 2;
    }
}

static int lupta_generate(const Position *pos, Move *moves)
{
    const LuptaPos *p = cpos(pos);
    int n = 0;
    if (placing(p)) {
        for (uint32_t t = placement_targets(p); t; t &= t - 1)
            moves[n++] = MOVE_PLACE | (Move)lsb(t);
        return n;
    }
    if (game_over(p))
        return 0;
    const uint32_t own = p->bb[p->side], enemy = p->bb[p->side ^ 1];
    const uint32_t empty = ~(own | enemy) & ALL_SQ;
    /* Steps that make a line first (one move per enemy piece to remove),
     * then the quiet steps; squares ascending within each group. */
    for (uint32_t b = own; b; b &= b - 1) {
        int from = lsb(b);
        uint32_t to = neighbours[from] & empty;
        if (!to)
            continue;
        uint32_t make = to & line_squares(own & ~bit(from));
        for (uint32_t t = make; t; t &= t - 1) {
            Move base = MOVE_STEP | MOVE_REMOVE | (Move)from | (Move)lsb(t) << 5;
            for (uint32_t e = enemy; e; e &= e - 1)
                moves[n++] = base | (Move)lsb(e) << 10;
        }
    }
    for (uint32_t b = own; b; b &= b - 1) {
        int from = lsb(b);
        uint32_t to = neighbours[from] & empty;
        if (!to)
            continue;
        for (uint32_t t = to & ~line_squares(own & ~bit(from)); t; t &= t - 1)
            moves[n++] = MOVE_STEP | (Move)from | (Move)lsb(t) << 5;
    }
    return n;
}

/* How many moves lupta_generate() returns, without writing them: a
 * line-making step counts once per enemy piece (its removals). */
static int count_moves(const LuptaPos *p)
{
    if (placing(p))
        return util_popcount32(placement_targets(p));
    if (game_over(p))
        return 0;
    const uint32_t own = p->bb[p->side], enemy = p->bb[p->side ^ 1];
    const uint32_t empty = ~(own | enemy) & ALL_SQ;
    const int removals = util_popcount32(enemy);
    int n = 0;
    for (uint32_t b = own & spread(empty); b; b &= b - 1) {
        int from = lsb(b);
        uint32_t to = neighbours[from] & empty;
        uint32_t line = to & line_squares(own & ~bit(from));
        n += util_popcount32(to) + util_popcount32(line) * (removals - 1);
    }
    return n;
}

static int lupta_count_moves(const Position *pos) { return count_moves(cpos(pos)); }

static void lupta_make(const Position *pos, Move m, Position *out)
{
    const LuptaPos *p = cpos(pos);
    LuptaPos *q = mpos(out);
    *q = *p;
    const int us = p->side, them = us ^ 1;
    uint64_t k = p->key;
    if (m & MOVE_PLACE) {
        int sq = move_from(m);
        q->bb[us] |= bit(sq);
        k ^= zobrist_piece[us][sq] ^ zobrist_hand[us][p->hand[us]] ^
             zobrist_hand[us][p->hand[us] - 1];
        q->hand[us]--;
    } else {
        int from = move_from(m), to = move_to(m);
        q->bb[us] ^= bit(from) | bit(to);
        k ^= zobrist_piece[us][from] ^ zobrist_piece[us][to];
        if (m & MOVE_REMOVE) {
            int rem = move_removed(m);
            q->bb[them] &= ~bit(rem);
            k ^= zobrist_piece[them][rem];
        }
    }
    q->side = (uint8_t)them;
    q->key = k ^ zobrist_black_to_move;
}

static int lupta_side_to_move(const Position *pos) { return cpos(pos)->side; }

static uint64_t lupta_key(const Position *pos) { return cpos(pos)->key; }

/* Removals first where they hurt most: the removed piece's importance to
 * its side (removal_priority), 4 more when the moving piece steps out of one
 * line into another (a cal, which can strike again next move).  Other moves
 * get 0. */
static void lupta_order_hints(const Position *pos, const Move *moves, int n, int *hints)
{
    const LuptaPos *p = cpos(pos);
    const uint32_t own = p->bb[p->side], enemy = p->bb[p->side ^ 1];
    const uint32_t own_lines = own & line_squares(own);
    uint8_t prio[SQUARES];
    bool prio_done = false;
    for (int i = 0; i < n; i++) {
        hints[i] = 0;
        if (!(moves[i] & MOVE_REMOVE))
            continue;
        if (!prio_done) {
            removal_priority(enemy, ~(own | enemy) & ALL_SQ, prio);
            prio_done = true;
        }
        hints[i] = prio[move_removed(moves[i])] + ((own_lines & bit(move_from(moves[i]))) ? 4 : 0);
    }
}

static bool lupta_is_noisy(const Position *pos, Move m)
{
    (void)pos;
    return (m & MOVE_REMOVE) != 0;
}

/* ---- perft -------------------------------------------------------------- */

/* perft 2 of a placement whose reply is a placement too, in closed form.
 * The opponent's placement squares after ours are its squares now (empty,
 * not completing its own line: our piece changes none of its lines) less
 * the one we fill, or, when that leaves none, every empty square. */
static uint64_t perft_two_placements(const LuptaPos *p)
{
    uint32_t empty = ~(p->bb[0] | p->bb[1]) & ALL_SQ;
    uint32_t ours = placement_targets(p);
    uint32_t theirs = empty & ~line_squares(p->bb[p->side ^ 1]);
    uint64_t n = (uint64_t)util_popcount32(ours), a = (uint64_t)util_popcount32(theirs);
    uint64_t both = (uint64_t)util_popcount32(ours & theirs);
    uint64_t left = (uint64_t)util_popcount32(empty) - 1; /* empty squares after ours */
    if (a >= 2)
        return n * a - both;
    if (a == 1) /* filling their one square frees every square for them */
        return both * left + (n - both) * 1;
    return n * left;
}

/* Bulk counting: the last ply by count_moves(), the last two of the
 * placement phase in closed form. */
static uint64_t perft_rec(const LuptaPos *p, int depth)
{
    if (depth == 1)
        return (uint64_t)count_moves(p);
    if (depth == 2 && placing(p) && p->hand[p->side] + p->hand[p->side ^ 1] > 1)
        return perft_two_placements(p);
    if (placing(p)) {
        uint32_t t = placement_targets(p);
        uint64_t total = 0;
        LuptaPos c = *p;
        c.side ^= 1;
        c.hand[p->side]--;
        for (; t; t &= t - 1) {
            c.bb[p->side] = p->bb[p->side] | (t & -t);
            total += perft_rec(&c, depth - 1);
        }
        return total;
    }
    if (game_over(p))
        return 0;
    const int us = p->side, them = us ^ 1;
    const uint32_t own = p->bb[us], enemy = p->bb[them];
    const uint32_t empty = ~(own | enemy) & ALL_SQ;
    uint64_t total = 0;
    LuptaPos c = *p;
    c.side = (uint8_t)them;
    for (uint32_t b = own & spread(empty); b; b &= b - 1) {
        int from = lsb(b);
        uint32_t rest = own & ~bit(from);
        uint32_t to = neighbours[from] & empty;
        uint32_t line = line_squares(rest);
        for (; to; to &= to - 1) {
            uint32_t t = to & -to;
            c.bb[us] = rest | t;
            if (t & line) {
                for (uint32_t e = enemy; e; e &= e - 1) {
                    c.bb[them] = enemy & ~(e & -e);
                    total += perft_rec(&c, depth - 1);
                }
                c.bb[them] = enemy;
            } else {
                total += perft_rec(&c, depth - 1);
            }
        }
    }
    return total;
}

static uint64_t lupta_perft(const Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    return perft_rec(cpos(pos), depth);
}

/* ---- notation ----------------------------------------------------------- */

static void square_str(int sq, char *buf)
{
    buf[0] = (char)('a' + sq % FILES);
    buf[1] = (char)('1' + sq / FILES);
    buf[2] = '\0';
}

static void lupta_move_str(const Position *pos, Move m, char *buf)
{
    (void)pos;
    if (m & MOVE_PLACE) {
        square_str(move_from(m), buf);
        return;
    }
    square_str(move_from(m), buf);
    square_str(move_to(m), buf + 2);
    if (m & MOVE_REMOVE) {
        buf[4] = 'x';
        square_str(move_removed(m), buf + 5);
    }
}

/* Square named at s[0..1] ("a1".."f5", case-insensitive file), or -1. */
static int parse_square(const char *s)
{
    int f = tolower((unsigned char)s[0]) - 'a';
    int r = s[1] - '1';
    if (f < 0 || f >= FILES || r < 0 || r >= RANKS)
        return -1;
    return r * FILES + f;
}

static Move lupta_parse_move(const Position *pos, const char *text)
{
    if (!text)
        return MOVE_NONE;
    while (*text && isspace((unsigned char)*text))
        text++;
    size_t len = 0;
    while (len < 8 && text[len] && !isspace((unsigned char)text[len]))
        len++;
    if (len == 8 || (text[len] && !isspace((unsigned char)text[len])))
        return MOVE_NONE; /* longer than any move */
    const char *rest = text + len;
    while (*rest && isspace((unsigned char)*rest))
        rest++;
    if (*rest)
        return MOVE_NONE; /* trailing words */
    Move want;
    if (len == 2) {
        int sq = parse_square(text);
        if (sq < 0)
            return MOVE_NONE;
        want = MOVE_PLACE | (Move)sq;
    } else if (len == 4 || (len == 7 && (text[4] == 'x' || text[4] == 'X'))) {
        int from = parse_square(text), to = parse_square(text + 2);
        if (from < 0 || to < 0)
            return MOVE_NONE;
        want = MOVE_STEP | (Move)from | (Move)to << 5;
        if (len == 7) {
            int rem = parse_square(text + 5);
            if (rem < 0)
                return MOVE_NONE;
            want |= MOVE_REMOVE | (Move)rem << 10;
        }
    } else {
        return MOVE_NONE;
    }
    /* Only a move generate() would return is legal (this is also what rejects
     * a line-making step written without its removal). */
    Move moves[MAX_MOVES];
    int n = lupta_generate(pos, moves);
    for (int i = 0; i < n; i++)
        if (moves[i] == want)
            return moves[i];
    return MOVE_NONE;
}

/* ---- refusal reasons (query why; engine/refusal.h) ----------------------- */

/* A row of three of b through sq ("a1 b1 c1"), or "" when none. */
static void row_through(uint32_t b, int sq, char *out)
{
    out[0] = '\0';
    for (int t = 0; t < TRIPLES; t++)
        if ((triples[t] & bit(sq)) && (triples[t] & ~bit(sq) & b) == (triples[t] & ~bit(sq))) {
            size_t len = 0;
            for (uint32_t e = triples[t]; e; e &= e - 1) {
                if (len)
                    out[len++] = ' ';
                square_str(lsb(e), out + len);
                len += 2;
            }
            return;
        }
}

typedef struct LuptaKeep {
    int from, to; /* -1: any */
} LuptaKeep;

static bool lupta_keep(const Position *pos, Move m, const void *ctx)
{
    (void)pos;
    const LuptaKeep *k = ctx;
    return !(m & MOVE_PLACE) && (k->from < 0 || move_from(m) == k->from) &&
           (k->to < 0 || move_to(m) == k->to);
}

static bool lupta_refusal(const Position *pos, const char *text, char *buf, size_t size)
{
    const LuptaPos *p = cpos(pos);
    int s = p->side, o = s ^ 1;
    const char *me = s == WHITE ? "White" : "Black", *you = o == WHITE ? "White" : "Black";
    char list[REFUSAL_LIST], row[16];
    size_t len = strlen(text);
    int sq[3] = {-1, -1, -1};
    bool shape = len == 2 || len == 4 || (len == 7 && (text[4] == 'x' || text[4] == 'X'));
    for (int i = 0; shape && i < 3; i++) {
        size_t at = i == 2 ? 5 : (size_t)(2 * i);
        if (at + 2 > len)
            break;
        sq[i] = parse_square(text + at);
        shape = sq[i] >= 0;
    }
    if (!shape) {
        snprintf(buf, size, "'%s' is not a move: a placement is a square (c3), a move its start "
                            "and end squares (c3c4), with the removed piece after an x when it "
                            "makes a row (c3c4xe2); files a to f, ranks 1 to 5", text);
        return true;
    }
    uint32_t own = p->bb[s], enemy = p->bb[o], empty = ~(own | enemy) & ALL_SQ;
    if (placing(p)) {
        refusal_list(lupta_generate, lupta_move_str, pos, NULL, NULL, list, sizeof list);
        if (len != 2)
            snprintf(buf, size, "the pieces are still being placed (%s has %d in hand): place "
                                "one on an empty square, e.g. %s", me, p->hand[s], list);
        else if (!(empty & bit(sq[0])))
            snprintf(buf, size, "%s is occupied: a piece is placed on an empty square, e.g. %s",
                     text, list);
        else {
            uint32_t b = own | bit(sq[0]);
            row_through(b, sq[0], row);
            snprintf(buf, size, "the placement rule: a piece may not be placed where it makes "
                                "three of its owner's in a row (%s); %s may place on %s",
                     row, me, list);
        }
        return true;
    }
    int from = sq[0];
    if (!(own & bit(from))) {
        refusal_list(lupta_generate, lupta_move_str, pos, NULL, NULL, list, sizeof list);
        if (enemy & bit(from))
            snprintf(buf, size, "that is %s's piece; %s is to move: %s", you, me, list);
        else if (len == 2)
            snprintf(buf, size, "every piece is placed: a move now steps one of %s's pieces one "
                                "square along a rank or a file, e.g. %s", me, list);
        else
            snprintf(buf, size, "no piece there: %.2s is empty; %s's moves are %s", text, me,
                     list);
        return true;
    }
    if (len == 2) {
        snprintf(buf, size, "the piece on %s cannot move: no empty square is next to it along a "
                            "rank or a file", text);
        return true;
    }
    int to = sq[1];
    LuptaKeep from_here = {from, -1};
    if (!refusal_list(lupta_generate, lupta_move_str, pos, lupta_keep, &from_here, list,
                      sizeof list))
        snprintf(list, sizeof list, "nothing: it is hemmed in");
    if (!(neighbours[from] & bit(to))) {
        snprintf(buf, size, "a piece steps one square along a rank or a file, never diagonally "
                            "or further; the piece on %.2s may play %s", text, list);
        return true;
    }
    if (!(empty & bit(to))) {
        snprintf(buf, size, "%.2s is occupied: a piece steps to an empty square", text + 2);
        return true;
    }
    uint32_t after = (own & ~bit(from)) | bit(to);
    row_through(after, to, row);
    if (row[0] && len == 4) {
        LuptaKeep this_step = {from, to};
        refusal_list(lupta_generate, lupta_move_str, pos, lupta_keep, &this_step, list,
                     sizeof list);
        snprintf(buf, size, "%s makes a row of three (%s), so it must remove an enemy piece, "
                            "written after an x: %s (a piece that steps out of a row and back "
                            "makes it anew and removes again: the cal)", text, row, list);
        return true;
    }
    if (!row[0] && len == 7) {
        snprintf(buf, size, "%.4s makes no row of three, so it removes nothing: write it %.4s",
                 text, text);
        return true;
    }
    if (len == 7 && !(enemy & bit(sq[2]))) {
        snprintf(buf, size, "a removal takes one of %s's pieces, and %.2s %s", you, text + 5,
                 own & bit(sq[2]) ? (s == WHITE ? "is White's own" : "is Black's own")
                                  : "is empty");
        return true;
    }
    return false;
}

/* ---- FEN ---------------------------------------------------------------- */

static int write_cell(const void *ctx, int rank, int file, char *out)
{
    const LuptaPos *p = ctx;
    uint32_t b = bit(rank * FILES + file);
    out[0] = (p->bb[WHITE] & b) ? 'W' : (p->bb[BLACK] & b) ? 'B' : '.';
    return 1; /* empty squares are written as dots, never as runs */
}

static void lupta_to_fen(const Position *pos, char *buf)
{
    const LuptaPos *p = cpos(pos);
    char *o = fen_write_board(buf, RANKS, FILES, write_cell, p);
    sprintf(o, " %c %d %d", p->side == WHITE ? 'w' : 'b', p->hand[WHITE], p->hand[BLACK]);
}

static int read_cell(void *ctx, int rank, int file, const char *text, char *err,
                     size_t errlen)
{
    (void)err, (void)errlen;
    LuptaPos *p = ctx;
    if (*text == 'W' || *text == 'B')
        p->bb[*text == 'W' ? WHITE : BLACK] |= bit(rank * FILES + file);
    return *text == 'W' || *text == 'B' || *text == '.';
}

static bool lupta_from_fen(Position *pos, const char *fen, const GameConfig *cfg,
                           char *err, size_t errlen)
{
    (void)cfg;
    FenFields f;
    if (!fen_split(fen, 4, 4, "board side white-hand black-hand", &f, err, errlen))
        return false;
    memset(pos, 0, sizeof *pos);
    LuptaPos *p = mpos(pos);
    if (!fen_read_board(f.field[0], RANKS, FILES, read_cell, p, err, errlen))
        return false;
    int side = fen_side(f.field[1]);
    if (side < 0)
        return fen_fail(err, errlen, "side to move must be w or b");
    p->side = (uint8_t)side;

    int hw, hb;
    if (!fen_number(f.field[2], 0, HAND_MAX, &hw) || !fen_number(f.field[3], 0, HAND_MAX, &hb))
        return fen_fail(err, errlen, "hands must be numbers 0..12");
    p->hand[WHITE] = (uint8_t)hw;
    p->hand[BLACK] = (uint8_t)hb;

    int nw = util_popcount32(p->bb[WHITE]), nb = util_popcount32(p->bb[BLACK]);
    if (nw + hw > HAND_MAX || nb + hb > HAND_MAX)
        return fen_fail(err, errlen, "more than 12 pieces for a side (board + hand)");
    if (hw || hb) {
        /* Placement: nothing has been removed yet and the sides alternate,
         * White first. */
        if (nw + hw != HAND_MAX || nb + hb != HAND_MAX)
            return fen_fail(err, errlen,
                            "in the placement phase board + hand must be 12 per side");
        if (p->side == WHITE ? hw != hb : hb != hw + 1)
            return fen_fail(err, errlen,
                            "hands do not match the side to move (White places first)");
    } else {
        if (nw < LOSE_AT || nb < LOSE_AT)
            return fen_fail(err, errlen, "a side has fewer than 2 pieces");
        if (nw == LOSE_AT && nb == LOSE_AT)
            return fen_fail(err, errlen, "both sides have only 2 pieces");
    }
    p->key = compute_key(p);
    return true;
}

/* ---- diagram ------------------------------------------------------------ */

static void lupta_diagram(const Position *pos, char *buf, size_t size)
{
    const LuptaPos *p = cpos(pos);
    char out[1024];
    size_t o = 0;
#define PUT(...) (o += (size_t)snprintf(out + o, sizeof out - o, __VA_ARGS__))
    PUT("    a b c d e f\n");
    PUT("  +-------------+\n");
    for (int r = RANKS - 1; r >= 0; r--) {
        PUT("%d |", r + 1);
        for (int f = 0; f < FILES; f++) {
            uint32_t b = bit(r * FILES + f);
            PUT(" %c", (p->bb[WHITE] & b) ? 'W' : (p->bb[BLACK] & b) ? 'B' : '.');
        }
        PUT(" | %d\n", r + 1);
    }
    PUT("  +-------------+\n");
    PUT("    a b c d e f\n");
    const char *who = p->side == WHITE ? "White" : "Black";
    if (placing(p))
        PUT("Phase: placement, %s to place\n", who);
    else
        PUT("Phase: movement, %s to move\n", who);
    PUT("White: %d on board, %d in hand\n", util_popcount32(p->bb[WHITE]), p->hand[WHITE]);
    PUT("Black: %d on board, %d in hand\n", util_popcount32(p->bb[BLACK]), p->hand[BLACK]);
    PUT("W = White, B = Black, . = empty\n");
#undef PUT
    if (size) {
        size_t n = o < size - 1 ? o : size - 1;
        memcpy(buf, out, n);
        buf[n] = '\0';
    }
}

/* ---- evaluation --------------------------------------------------------- */

/* Units: centi-pieces (100 = one piece on the board or in hand).  A linear
 * evaluation fitted to self-play results (evalmodel.h, doc/tuning.md): the
 * terms below, weighted by lupta_weights.h. */

typedef struct SideFeatures {
    int steps;       /* legal steps */
    int threats;     /* distinct squares a step makes a line on */
    int potential;   /* line-completing empty squares no piece can step into yet */
    int open_lines;  /* pieces in a line that can step out with their square safe */
    int cals;        /* pieces in a line that make another line stepping out */
} SideFeatures;

static void side_features(uint32_t own, uint32_t enemy, SideFeatures *f)
{
    const uint32_t empty = ~(own | enemy) & ALL_SQ;
    const uint32_t line_now = own & line_squares(own);
    const uint32_t enemy_reach = spread(enemy);
    uint32_t threat_sq = 0;
    memset(f, 0, sizeof *f);
    for (uint32_t b = own & spread(empty); b; b &= b - 1) {
        int from = lsb(b);
        uint32_t to = neighbours[from] & empty;
        uint32_t make = to & line_squares(own & ~bit(from));
        f->steps += util_popcount32(to);
        threat_sq |= make;
        if (line_now & bit(from)) {
            if (make)
                f->cals++;
            else if (!(enemy_reach & bit(from)))
                f->open_lines++;
        }
    }
    f->threats = util_popcount32(threat_sq);
    f->potential = util_popcount32(line_squares(own) & empty & ~threat_sq);
}

/* Features: "mine minus the opponent's" unless said otherwise.  Phase 0
 * while placing, EVAL_PHASE_MAX while stepping. */
enum {
    LF_TEMPO,        /* 1: the side to move */
    LF_MATERIAL,     /* pieces on the board and in hand */
    LF_HAND,         /* pieces in hand */
    LF_STEPS,
    LF_POTENTIAL,
    LF_THREATS,
    LF_OPEN_LINES,
    LF_CALS,
    LF_THREAT_NEXT,  /* movement: the opponent threatens a removal (0/1) */
    LF_THREAT_TWO,   /* ... on two or more squares (0/1) */
    LF_CAL_NEXT,     /* ... its cals */
    LF_CRAMPED_US,   /* movement: two or fewer steps left, the side to move */
    LF_CRAMPED_THEM, /* ... the opponent */
    LF_PST,          /* pieces on each square */
    LF_COUNT = LF_PST + SQUARES
};

static void lupta_feature_name(int i, char *buf, size_t size)
{
    static const char *const names[] = {"tempo", "material", "hand", "steps", "potential",
                                        "threats", "open_lines", "cals", "threat_next",
                                        "threat_two", "cal_next", "cramped_us", "cramped_them"};
    if (i < LF_PST)
        snprintf(buf, size, "%s", names[i]);
    else
        snprintf(buf, size, "pst %c%d", 'a' + (i - LF_PST) % FILES, (i - LF_PST) / FILES + 1);
}

static void lupta_eval_terms(const Position *pos, EvalTerms *t)
{
    const LuptaPos *p = cpos(pos);
    const int us = p->side, them = us ^ 1;
    SideFeatures fu, ft;
    side_features(p->bb[us], p->bb[them], &fu);
    side_features(p->bb[them], p->bb[us], &ft);
    bool moving = !placing(p);
    t->n = 0;
    t->phase = moving ? EVAL_PHASE_MAX : 0;
    int nu = util_popcount32(p->bb[us]) + p->hand[us];
    int nt = util_popcount32(p->bb[them]) + p->hand[them];
    eval_term(t, LF_TEMPO, 1);
    eval_term(t, LF_MATERIAL, nu - nt);
    eval_term(t, LF_HAND, p->hand[us] - p->hand[them]);
    eval_term(t, LF_STEPS, fu.steps - ft.steps);
    eval_term(t, LF_POTENTIAL, fu.potential - ft.potential);
    eval_term(t, LF_THREATS, fu.threats - ft.threats);
    eval_term(t, LF_OPEN_LINES, fu.open_lines - ft.open_lines);
    eval_term(t, LF_CALS, fu.cals - ft.cals);
    if (moving) {
        eval_term(t, LF_THREAT_NEXT, ft.threats > 0);
        eval_term(t, LF_THREAT_TWO, ft.threats > 1);
        eval_term(t, LF_CAL_NEXT, ft.cals);
        eval_term(t, LF_CRAMPED_US, fu.steps <= 2);
        eval_term(t, LF_CRAMPED_THEM, ft.steps <= 2);
    }
    for (uint32_t b = p->bb[us]; b; b &= b - 1)
        eval_term(t, LF_PST + lsb(b), 1);
    for (uint32_t b = p->bb[them]; b; b &= b - 1)
        eval_term(t, LF_PST + lsb(b), -1);
}

const EvalModel eval_model_lupta = {"lupta", LF_COUNT, lupta_eval_terms, lupta_feature_name};

#include "lupta_weights.h"
_Static_assert(sizeof lupta_weights / sizeof lupta_weights[0] == LF_COUNT,
               "lupta_weights.h does not match the features");

static int lupta_evaluate(const Position *pos)
{
    EvalTerms t;
    lupta_eval_terms(pos, &t);
    return eval_model_score(&t, lupta_weights);
}

/* Moves still to come (time allocation): the placements left, then about
 * three per piece above 15 on the board, at least 4 (self-play medians,
 * doc/search.md). */
static int lupta_plies_left(const Position *pos)
{
    const LuptaPos *p = cpos(pos);
    int hands = p->hand[WHITE] + p->hand[BLACK];
    int pieces = util_popcount32(p->bb[WHITE]) + util_popcount32(p->bb[BLACK]) + hands;
    int movement = 3 * (pieces - 15);
    return hands + (movement > 4 ? movement : 4);
}

/* ---- self-description (variant.h, BoardDesc) ---------------------------- */

static const char *const lupta_file_label[FILES] = {"a", "b", "c", "d", "e", "f"};
static const char *const lupta_rank_label_top_down[RANKS] = {"5", "4", "3", "2", "1"};

/* All 30 squares of the 6 x 5 board, orthogonal neighbours, one kind. */
static void lupta_describe_board(BoardDesc *b)
{
    b->layout = BOARD_LAYOUT_SQUARES;
    b->width = b->columns = FILES;
    b->height = b->rows = RANKS;
    b->ncolumn_labels = FILES;
    b->nrow_labels = RANKS;
    for (int f = 0; f < FILES; f++)
        b->column_labels[f] = lupta_file_label[f];
    for (int r = 0; r < RANKS; r++)
        b->row_labels[r] = lupta_rank_label_top_down[r];
    b->ncells = SQUARES;
    for (int sq = 0; sq < SQUARES; sq++) {
        BoardCell *c = &b->cells[sq];
        square_str(sq, c->name);
        c->x = sq % FILES + 0.5;
        c->y = RANKS - 1 - sq / FILES + 0.5;
        c->neighbours = neighbours[sq];
    }
    b->nkinds = 1;
    b->kinds[0] = (PieceKind){"piece", "piece", "piece", 0, {"W", "B"}};
}

static void lupta_describe_position(const Position *pos, PositionInfo *out)
{
    const LuptaPos *p = cpos(pos);
    for (int c = 0; c < 2; c++)
        for (uint32_t b = p->bb[c]; b; b &= b - 1) {
            out->side[lsb(b)] = (int8_t)c;
            out->kind[lsb(b)] = 0;
        }
    out->phase = placing(p) ? "placement" : "movement";
    out->has = POSITION_HAS_HANDS;
    out->hand[WHITE] = p->hand[WHITE];
    out->hand[BLACK] = p->hand[BLACK];
}

static void lupta_describe_move(const Position *pos, Move m, MoveInfo *out)
{
    (void)pos;
    out->piece = 0;
    if (m & MOVE_PLACE) {
        out->kind = MOVE_KIND_PLACEMENT;
        out->to = move_from(m);
        out->path[0] = (uint8_t)out->to;
        out->path_length = 1;
        return;
    }
    out->kind = (m & MOVE_REMOVE) ? MOVE_KIND_REMOVAL : MOVE_KIND_STEP;
    out->from = move_from(m);
    out->to = move_to(m);
    out->path[0] = (uint8_t)out->from;
    out->path[1] = (uint8_t)out->to;
    out->path_length = 2;
    if (m & MOVE_REMOVE)
        out->captures[out->ncaptures++] = (uint8_t)move_removed(m);
}

/* ---- variant table ------------------------------------------------------ */

/* The bench positions after the start position (engine/bench.c): the
 * positions a seeded random playout reached after 8, 15 and 24 plies. */
static const char *const lupta_bench_fens[] = {
    "B.W.../.B..../...W../.B..../.WWB.. w 8 8",
    "B.WW../.B..W./BW.WWB/.BB.../.WWB.. b 4 5",
    "BBWWBW/.BWBWB/BW.WWB/.BB.B./.WWBWW w 0 0",
    NULL,
};

const Variant variant_lupta = {
    .name = "lupta",
    .title = "Lupta pe 30 de patratele (6x5, place then step, lines of three remove)",
    .repetition_draws = true,
    .position_size = sizeof(LuptaPos),
    .rule_options = 0,
    .match_scoring = MATCH_SCORING_BEST_OF,
    .match_games = 3,
    .bench_depth = 4,
    .bench_fens = lupta_bench_fens,
    .init = lupta_init,
    .startpos = lupta_startpos,
    .from_fen = lupta_from_fen,
    .to_fen = lupta_to_fen,
    .side_to_move = lupta_side_to_move,
    .is_chance = NULL,
    .generate = lupta_generate,
    .count_moves = lupta_count_moves,
    .make = lupta_make,
    .result = lupta_result,
    .key = lupta_key,
    .move_str = lupta_move_str,
    .parse_move = lupta_parse_move,
    .diagram = lupta_diagram,
    .describe = NULL,
    .evaluate = lupta_evaluate,
    .is_noisy = lupta_is_noisy,
    .order_hints = lupta_order_hints,
    .eval_is_exact = NULL,
    .plies_left = lupta_plies_left,
    .perft = lupta_perft,
    .describe_board = lupta_describe_board,
    .describe_position = lupta_describe_position,
    .describe_move = lupta_describe_move,
    .refusal = lupta_refusal,
};
