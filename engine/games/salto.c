/* salto.c - Salto (Konrad Buettgenbach, 1899): a race of 15 numbered pieces
 * per side across a 10x10 draughts board; see doc/rules.md, Salto.
 *
 * Board: the 50 dark squares, indexed 0..49 rank by rank from White's side,
 * five per rank, left to right: index = 5 * rank + file / 2 (0-based rank
 * and file; a1 = 0, b2 = 5, j10 = 49).  A square's file is even on even
 * ranks and odd on odd ranks.  Bitboards are uint64_t over that index.
 *
 * Pieces: 0..29.  p / 15 is the side, (p % 15) / 5 the kind (0 star, 1 moon,
 * 2 sun) and p % 5 + 1 the number.  White piece p starts on square p and its
 * target is square 35 + p; Black's position is White's turned half a turn
 * (square s <-> 49 - s), so Black piece 15 + q starts on 49 - q and aims at
 * 14 - q.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../refusal.h"
#include "../evalmodel.h"
#include "../util.h"
#include "../variant.h"
#include "fen.h"

/* ---- layout ------------------------------------------------------------- */

enum {
    SQUARES = 50,
    PIECES = 30,
    PER_SIDE = 15,
    MAX_LIMIT = 1000,         /* largest accepted move limit L */
    NO_PIECE = 0xFF,
};

enum { STAR, MOON, SUN };
enum { NE, NW, SE, SW }; /* NE/NW: towards rank 10 (White's forward) */

#define ALL_SQUARES ((UINT64_C(1) << SQUARES) - 1)

/* Move codes: bit 12 marks a move (so no move is 0), bits 6..11 the start
 * square, bits 0..5 the landing square.  A pass has its own code. */
#define MOVE_FLAG UINT64_C(0x1000)
#define MOVE_PASS UINT64_C(0x2000)
static inline int move_from(Move m) { return (int)((m >> 6) & 63); }
static inline int move_to(Move m) { return (int)(m & 63); }
static inline Move make_move(int from, int to)
{
    return MOVE_FLAG | (Move)from << 6 | (Move)to;
}

typedef struct GAME_POSITION SaltoPos {
    uint64_t bb[2];          /* squares of each side's pieces */
    uint64_t key;            /* Zobrist key, kept incrementally */
    int16_t sum[2];          /* counting sums: steps still needed per side */
    int16_t ply;             /* plies played toward the move limit */
    int16_t limit;           /* L: moves per side before counting */
    uint8_t stm;             /* side to move */
    uint8_t pass;            /* 1 when the last ply was a pass */
    uint8_t home[2];         /* pieces standing on their own targets */
    uint8_t piece[SQUARES];  /* piece on each square or NO_PIECE */
    uint8_t where[PIECES];   /* square of each piece */
} SaltoPos;
GAME_POSITION_TYPE(SaltoPos);

/* ---- board -------------------------------------------------------------- */

static uint64_t EVEN_RANKS, ODD_RANKS, FILE_A, FILE_J;
static int8_t neighbour[SQUARES][4];   /* square one step in each direction */
static int8_t step_from[SQUARES][4];   /* start of a step in direction d landing here */
static int8_t jump_from[SQUARES][4];   /* start of a jump in direction d landing here */
static uint64_t neighbour_mask[SQUARES];
static uint8_t distance[PIECES][SQUARES]; /* steps to the target, empty board */
static uint64_t zobrist_piece[PIECES][SQUARES];
static uint64_t zobrist_black_to_move, zobrist_pass;
static uint64_t zobrist_left[2 * MAX_LIMIT + 1]; /* by plies left to the limit */

static int sq_rank(int sq) { return sq / 5; }
static int sq_file(int sq) { return 2 * (sq % 5) + ((sq / 5) & 1); }
static int make_sq(int file, int rank)
{
    if (file < 0 || file > 9 || rank < 0 || rank > 9 || ((file + rank) & 1))
        return -1;
    return rank * 5 + file / 2;
}

static int piece_side(int p) { return p / PER_SIDE; }
static int piece_kind(int p) { return (p % PER_SIDE) / 5; }
static int piece_number(int p) { return p % 5 + 1; }
static int start_square(int p) { return p < PER_SIDE ? p : 49 - (p - PER_SIDE); }
static int target_square(int p) { return p < PER_SIDE ? 35 + p : 14 - (p - PER_SIDE); }

/* One step of every bit of b in direction d (off-board steps vanish). */
static inline uint64_t shift_ne(uint64_t b)
{
    return (((b & EVEN_RANKS) << 5) | ((b & ODD_RANKS & ~FILE_J) << 6)) & ALL_SQUARES;
}
static inline uint64_t shift_nw(uint64_t b)
{
    return (((b & EVEN_RANKS & ~FILE_A) << 4) | ((b & ODD_RANKS) << 5)) & ALL_SQUARES;
}
static inline uint64_t shift_se(uint64_t b)
{
    return ((b & EVEN_RANKS) >> 5) | ((b & ODD_RANKS & ~FILE_J) >> 4);
}
static inline uint64_t shift_sw(uint64_t b)
{
    return ((b & EVEN_RANKS & ~FILE_A) >> 6) | ((b & ODD_RANKS) >> 5);
}
static inline uint64_t shift_dir(uint64_t b, int d)
{
    switch (d) {
    case NE: return shift_ne(b);
    case NW: return shift_nw(b);
    case SE: return shift_se(b);
    default: return shift_sw(b);
    }
}
static inline uint64_t neighbours(uint64_t b)
{
    return shift_ne(b) | shift_nw(b) | shift_se(b) | shift_sw(b);
}
/* Landing squares of jumps in direction d (a forward one of the jumping
 * side) by the pieces jumpers over the pieces hurdles onto empty squares. */
static inline uint64_t jump_landings(uint64_t jumpers, uint64_t hurdles, uint64_t empty, int d)
{
    return shift_dir(shift_dir(jumpers, d) & hurdles, d) & empty;
}

static void salto_init(void)
{
    for (int sq = 0; sq < SQUARES; sq++) {
        uint64_t bit = UINT64_C(1) << sq;
        if (sq_rank(sq) % 2 == 0)
            EVEN_RANKS |= bit;
        else
            ODD_RANKS |= bit;
        if (sq_file(sq) == 0)
            FILE_A |= bit;
        if (sq_file(sq) == 9)
            FILE_J |= bit;
    }
    static const int df[4] = {1, -1, 1, -1}, dr[4] = {1, 1, -1, -1};
    for (int sq = 0; sq < SQUARES; sq++) {
        neighbour_mask[sq] = 0;
        for (int d = 0; d < 4; d++) {
            int to = make_sq(sq_file(sq) + df[d], sq_rank(sq) + dr[d]);
            neighbour[sq][d] = (int8_t)to;
            if (to >= 0)
                neighbour_mask[sq] |= UINT64_C(1) << to;
            step_from[sq][d] = (int8_t)make_sq(sq_file(sq) - df[d], sq_rank(sq) - dr[d]);
            jump_from[sq][d] = (int8_t)make_sq(sq_file(sq) - 2 * df[d], sq_rank(sq) - 2 * dr[d]);
        }
    }
    for (int p = 0; p < PIECES; p++) {
        int t = target_square(p);
        for (int sq = 0; sq < SQUARES; sq++) {
            int a = abs(sq_file(sq) - sq_file(t)), b = abs(sq_rank(sq) - sq_rank(t));
            distance[p][sq] = (uint8_t)(a > b ? a : b);
        }
    }
    uint64_t seed = UINT64_C(0x5A17051899);
    for (int p = 0; p < PIECES; p++)
        for (int sq = 0; sq < SQUARES; sq++)
            zobrist_piece[p][sq] = util_splitmix64(&seed);
    zobrist_black_to_move = util_splitmix64(&seed);
    zobrist_pass = util_splitmix64(&seed);
    for (int i = 0; i <= 2 * MAX_LIMIT; i++)
        zobrist_left[i] = util_splitmix64(&seed);
}

/* ---- rules -------------------------------------------------------------- */

static uint64_t compute_key(const SaltoPos *p)
{
    uint64_t k = 0;
    for (int sq = 0; sq < SQUARES; sq++)
        if (p->piece[sq] != NO_PIECE)
            k ^= zobrist_piece[p->piece[sq]][sq];
    if (p->stm == BLACK)
        k ^= zobrist_black_to_move;
    if (p->pass)
        k ^= zobrist_pass;
    k ^= zobrist_left[2 * p->limit - p->ply];
    return k;
}

/* Recompute everything derived from piece[] (bitboards, sums, key). */
static void finish_setup(SaltoPos *p)
{
    p->bb[0] = p->bb[1] = 0;
    p->sum[0] = p->sum[1] = 0;
    p->home[0] = p->home[1] = 0;
    for (int sq = 0; sq < SQUARES; sq++) {
        int pc = p->piece[sq];
        if (pc == NO_PIECE)
            continue;
        int s = piece_side(pc);
        p->bb[s] |= UINT64_C(1) << sq;
        p->where[pc] = (uint8_t)sq;
        p->sum[s] += distance[pc][sq];
        p->home[s] += target_square(pc) == sq;
    }
    p->key = compute_key(p);
}

static int clamp_limit(int limit)
{
    if (limit < 1)
        return DEFAULT_MOVE_LIMIT;
    return limit > MAX_LIMIT ? MAX_LIMIT : limit;
}

static void salto_startpos(Position *pos, const GameConfig *cfg)
{
    memset(pos, 0, sizeof *pos);
    SaltoPos *p = mpos(pos);
    memset(p->piece, NO_PIECE, sizeof p->piece);
    for (int pc = 0; pc < PIECES; pc++)
        p->piece[start_square(pc)] = (uint8_t)pc;
    p->limit = (int16_t)clamp_limit(cfg ? cfg->move_limit : DEFAULT_MOVE_LIMIT);
    p->stm = WHITE;
    finish_setup(p);
}

static bool limit_reached(const SaltoPos *p) { return p->ply >= 2 * p->limit; }
static bool someone_home(const SaltoPos *p)
{
    return p->home[0] == PER_SIDE || p->home[1] == PER_SIDE;
}

/* ---- rules: moves ------------------------------------------------------- */

/* Would moving the piece on from to `to` leave the opponent without any step
 * or jump (its own no-blocking restriction ignored)?  The winning move is
 * exempt, so this answers false for it. */
static bool move_blocks(const SaltoPos *p, int from, int to)
{
    int s = p->stm, o = s ^ 1;
    uint64_t me = p->bb[s] ^ (UINT64_C(1) << from) ^ (UINT64_C(1) << to);
    uint64_t op = p->bb[o];
    uint64_t empty = ALL_SQUARES & ~(me | op);
    if (neighbours(op) & empty)
        return false;
    int d0 = o == WHITE ? NE : SE;
    if (jump_landings(op, me, empty, d0) || jump_landings(op, me, empty, d0 + 1))
        return false;
    int pc = p->piece[from];
    int home = p->home[s] + (target_square(pc) == to) - (target_square(pc) == from);
    return home != PER_SIDE;
}

/* A move can only block when the opponent's pieces touch at most one empty
 * square now: a move fills one square, so two or more leave a step. */
static bool blocking_possible(const SaltoPos *p)
{
    uint64_t empty = ALL_SQUARES & ~(p->bb[0] | p->bb[1]);
    uint64_t e = neighbours(p->bb[p->stm ^ 1]) & empty;
    return (e & (e - 1)) == 0;
}

/* Every legal move except the pass: jumps if any is legal, else steps.
 * moves may be NULL to count only.  Order: jumps NE, NW (White) / SE, SW
 * (Black), then steps forward, then backward, each by landing square. */
static int gen_real(const SaltoPos *p, Move *moves)
{
    int s = p->stm;
    uint64_t me = p->bb[s], op = p->bb[s ^ 1];
    uint64_t empty = ALL_SQUARES & ~(me | op);
    bool check = blocking_possible(p);
    int fwd = s == WHITE ? NE : SE;
    int n = 0;

    for (int d = fwd; d <= fwd + 1; d++) {
        uint64_t land = jump_landings(me, op, empty, d);
        if (!check && !moves) {
            n += util_popcount64(land);
            continue;
        }
        while (land) {
            int to = util_lsb64(land);
            land &= land - 1;
            int from = jump_from[to][d];
            if (check && move_blocks(p, from, to))
                continue;
            if (moves)
                moves[n] = make_move(from, to);
            n++;
        }
    }
    if (n)
        return n;

    static const int order[2][4] = {{NE, NW, SE, SW}, {SE, SW, NE, NW}};
    for (int i = 0; i < 4; i++) {
        int d = order[s][i];
        uint64_t dest = shift_dir(me, d) & empty;
        if (!check && !moves) {
            n += util_popcount64(dest);
            continue;
        }
        while (dest) {
            int to = util_lsb64(dest);
            dest &= dest - 1;
            int from = step_from[to][d];
            if (check && move_blocks(p, from, to))
                continue;
            if (moves)
                moves[n] = make_move(from, to);
            n++;
        }
    }
    return n;
}

static int salto_generate(const Position *pos, Move *moves)
{
    const SaltoPos *p = cpos(pos);
    if (someone_home(p) || limit_reached(p))
        return 0;
    int n = gen_real(p, moves);
    if (n)
        return n;
    if (p->pass)
        return 0; /* both sides stuck: the game is over */
    moves[0] = MOVE_PASS;
    return 1;
}

/* How many moves salto_generate() returns, without writing them. */
static int count_moves(const SaltoPos *p)
{
    if (someone_home(p) || limit_reached(p))
        return 0;
    int n = gen_real(p, NULL);
    return n ? n : p->pass ? 0 : 1;
}

static int salto_count_moves(const Position *pos) { return count_moves(cpos(pos)); }

static void apply_move(const SaltoPos *p, Move m, SaltoPos *c)
{
    *c = *p;
    int s = p->stm;
    if (m == MOVE_PASS) {
        c->pass = 1;
        c->key ^= p->pass ? 0 : zobrist_pass;
    } else {
        int from = move_from(m), to = move_to(m);
        int pc = p->piece[from];
        c->piece[from] = NO_PIECE;
        c->piece[to] = (uint8_t)pc;
        c->where[pc] = (uint8_t)to;
        c->bb[s] ^= (UINT64_C(1) << from) | (UINT64_C(1) << to);
        c->sum[s] += distance[pc][to] - distance[pc][from];
        c->home[s] += (target_square(pc) == to) - (target_square(pc) == from);
        c->key ^= zobrist_piece[pc][from] ^ zobrist_piece[pc][to];
        if (p->pass) {
            c->pass = 0;
            c->key ^= zobrist_pass;
        }
    }
    int left = 2 * p->limit - p->ply;
    c->key ^= zobrist_left[left] ^ zobrist_left[left - 1] ^ zobrist_black_to_move;
    c->ply++;
    c->stm ^= 1;
}

static void salto_make(const Position *pos, Move m, Position *out)
{
    apply_move(cpos(pos), m, mpos(out));
}

static Result counting_result(const SaltoPos *p, int *margin)
{
    int d = p->sum[BLACK] - p->sum[WHITE];
    if (margin)
        *margin = abs(d);
    return d > 0 ? RESULT_WHITE_WINS : d < 0 ? RESULT_BLACK_WINS : RESULT_DRAW;
}

static Result salto_result(const Position *pos, int *margin, const char **reason)
{
    const SaltoPos *p = cpos(pos);
    if (margin)
        *margin = 0;
    if (reason)
        *reason = "";
    if (someone_home(p)) {
        /* The winner's sum is 0, so the margin is the loser's sum. */
        if (reason)
            *reason = "all pieces on targets";
        if (margin)
            *margin = p->home[WHITE] == PER_SIDE ? p->sum[BLACK] : p->sum[WHITE];
        return p->home[WHITE] == PER_SIDE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
    }
    if (limit_reached(p)) {
        if (reason)
            *reason = "counting after move limit";
        return counting_result(p, margin);
    }
    if (p->pass && gen_real(p, NULL) == 0) {
        if (reason)
            *reason = "counting, both sides stuck";
        return counting_result(p, margin);
    }
    return RESULT_NONE;
}

static uint64_t salto_key(const Position *pos) { return cpos(pos)->key; }
static int salto_side_to_move(const Position *pos) { return cpos(pos)->stm; }

/* ---- perft -------------------------------------------------------------- */

/* perft 2 of p, whose moves (without the pass) are moves[0..n): the
 * children are counted on one copy of p changed in place.  A child's
 * count_moves() reads the bitboards, the side, the pass flag, the ply, the
 * home counts and the pieces of the side then to move, which the move did
 * not touch; the key, the sums and the mover's piece squares it does not
 * read. */
static uint64_t perft_two(const SaltoPos *p, const Move *moves, int n)
{
    SaltoPos c = *p;
    c.stm ^= 1;
    c.ply++;
    if (n == 0) {
        if (p->pass)
            return 0;
        c.pass = 1;
        return (uint64_t)count_moves(&c);
    }
    c.pass = 0;
    int s = p->stm;
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        int from = move_from(moves[i]), to = move_to(moves[i]);
        int t = target_square(p->piece[from]);
        c.bb[s] = p->bb[s] ^ (UINT64_C(1) << from) ^ (UINT64_C(1) << to);
        c.home[s] = (uint8_t)(p->home[s] + (t == to) - (t == from));
        total += (uint64_t)count_moves(&c);
    }
    return total;
}

static uint64_t perft_rec(const SaltoPos *p, int depth)
{
    if (depth == 1)
        return (uint64_t)count_moves(p);
    if (someone_home(p) || limit_reached(p))
        return 0;
    Move moves[64];
    int n = gen_real(p, moves);
    if (depth == 2)
        return perft_two(p, moves, n);
    SaltoPos child;
    if (n == 0) {
        if (p->pass)
            return 0;
        apply_move(p, MOVE_PASS, &child);
        return perft_rec(&child, depth - 1);
    }
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        apply_move(p, moves[i], &child);
        total += perft_rec(&child, depth - 1);
    }
    return total;
}

static uint64_t salto_perft(const Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    return perft_rec(cpos(pos), depth);
}

/* ---- notation ----------------------------------------------------------- */

static char *write_square(char *b, int sq)
{
    b += sprintf(b, "%c%d", 'a' + sq_file(sq), sq_rank(sq) + 1);
    return b;
}

static void salto_move_str(const Position *pos, Move m, char *buf)
{
    (void)pos;
    if (m == MOVE_PASS) {
        strcpy(buf, "0000");
        return;
    }
    char *b = write_square(buf, move_from(m));
    write_square(b, move_to(m));
}

/* Parse a square at *s ("a1" .. "j10"), advance *s; -1 if none. */
static int parse_square(const char **s)
{
    const char *c = *s;
    if (*c < 'a' || *c > 'j')
        return -1;
    int file = *c++ - 'a';
    if (*c < '1' || *c > '9')
        return -1;
    int rank = *c++ - '0';
    if (rank == 1 && *c == '0') {
        rank = 10;
        c++;
    }
    *s = c;
    return make_sq(file, rank - 1);
}

static Move salto_parse_move(const Position *pos, const char *text)
{
    Move moves[64];
    int n = salto_generate(pos, moves);
    if (strcmp(text, "0000") == 0)
        return n == 1 && moves[0] == MOVE_PASS ? MOVE_PASS : MOVE_NONE;
    const char *c = text;
    int from = parse_square(&c);
    if (from < 0)
        return MOVE_NONE;
    int to = parse_square(&c);
    if (to < 0 || *c)
        return MOVE_NONE;
    Move m = make_move(from, to);
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return m;
    return MOVE_NONE;
}

/* ---- refusal reasons (query why; engine/refusal.h) ----------------------- */

static const char *const kind_word[3] = {"star", "moon", "sun"};

/* "a1" .. "j10", light squares too: file and rank (0-based) at *s, advance. */
static bool read_any_square(const char **s, int *file, int *rank)
{
    const char *c = *s;
    if (*c < 'a' || *c > 'j' || c[1] < '1' || c[1] > '9')
        return false;
    *file = *c - 'a';
    *rank = c[1] - '1';
    c += 2;
    if (*rank == 0 && *c == '0') {
        *rank = 9;
        c++;
    }
    *s = c;
    return true;
}

static bool salto_keep_from(const Position *pos, Move m, const void *ctx)
{
    (void)pos;
    return m != MOVE_PASS && move_from(m) == *(const int *)ctx;
}

/* The squares legal moves start from, "c3, e3 or g3" (at most 6). */
static void salto_movable(const Position *pos, char *out, size_t size)
{
    Move moves[64];
    int n = salto_generate(pos, moves), k = 0;
    uint64_t seen = 0;
    size_t len = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++)
        if (moves[i] != MOVE_PASS)
            seen |= UINT64_C(1) << move_from(moves[i]);
    int total = util_popcount64(seen);
    for (; seen && len < size; seen &= seen - 1, k++) {
        char sq[4];
        write_square(sq, util_lsb64(seen))[0] = '\0';
        if (k == 6) {
            snprintf(out + len, size - len, " and %d more", total - k);
            break;
        }
        len += (size_t)snprintf(out + len, size - len, "%s%s",
                                k == 0 ? "" : k == total - 1 ? " or " : ", ", sq);
    }
}

/* What salto_refusal knows of the move it is reading and of the board. */
typedef struct {
    const Position *pos;
    const SaltoPos *p;
    const char *text;
    const char *me, *you;
    int nsq, sq[2], from;
    char sqs[2][16], piece[24];
    uint64_t me_bb, op, empty;
} SaltoRefusal;

/* A pass while the side to move has n legal moves. */
static void refuse_pass(const SaltoRefusal *r, int n, char *buf, size_t size)
{
    char list[REFUSAL_LIST];
    refusal_list(salto_generate, salto_move_str, r->pos, NULL, NULL, list, sizeof list);
    snprintf(buf, size, "a pass (0000) is played only by a side that has no legal move; %s "
                        "has %d: %s", r->me, n, list);
}

/* Reads one or two squares into r; true (with the reason in buf) unless they are dark
 * squares and nothing follows. */
static bool refuse_squares(SaltoRefusal *r, char *buf, size_t size)
{
    int file[2], rank[2];
    const char *c = r->text;
    r->nsq = 0;
    while (r->nsq < 2 && read_any_square(&c, &file[r->nsq], &rank[r->nsq]))
        r->nsq++;
    if (r->nsq == 0 || *c) {
        snprintf(buf, size, "'%s' is not a move: write a move as its start and end squares "
                            "(c3d4), files a to j and ranks 1 to 10; a pass is 0000", r->text);
        return true;
    }
    for (int i = 0; i < r->nsq; i++) {
        r->sq[i] = make_sq(file[i], rank[i]);
        snprintf(r->sqs[i], sizeof r->sqs[i], "%c%d", 'a' + file[i], rank[i] + 1);
        if (r->sq[i] < 0) {
            snprintf(buf, size, "%s is a light square: Salto uses only the 50 dark squares "
                                "(a1, c1 ... j10)", r->sqs[i]);
            return true;
        }
    }
    return false;
}

/* The move does not start on one of the mover's pieces. */
static bool refuse_not_own(const SaltoRefusal *r, char *buf, size_t size)
{
    char list[REFUSAL_LIST];
    if (r->me_bb & (UINT64_C(1) << r->from))
        return false;
    salto_movable(r->pos, list, sizeof list);
    if (r->op & (UINT64_C(1) << r->from))
        snprintf(buf, size, "that is %s's piece; %s is to move (%s can move from %s)", r->you,
                 r->me, r->me, list);
    else
        snprintf(buf, size, "no piece there: %s is empty (%s can move from %s)", r->sqs[0],
                 r->me, list);
    return true;
}

/* A lone square: no legal move starts from it. */
static void refuse_lone_square(const SaltoRefusal *r, bool jumps, const char *jump_list,
                               char *buf, size_t size)
{
    if (jumps)
        snprintf(buf, size, "a jump is compulsory and the %s on %s cannot jump: %s", r->piece,
                 r->sqs[0], jump_list);
    else if (!(neighbour_mask[r->from] & r->empty))
        snprintf(buf, size, "the %s on %s is hemmed in: no empty square touches it", r->piece,
                 r->sqs[0]);
    else
        snprintf(buf, size, "every step of the %s on %s would leave %s without a move, and "
                            "the no-blocking rule forbids that", r->piece, r->sqs[0], r->you);
}

/* A step to the neighbouring square to. */
static bool refuse_step(const SaltoRefusal *r, int to, bool jumps, const char *jump_list,
                        char *buf, size_t size)
{
    char list[REFUSAL_LIST];
    if (!(r->empty & (UINT64_C(1) << to)))
        snprintf(buf, size, "%s is occupied: a step goes to an empty square", r->sqs[1]);
    else if (jumps)
        snprintf(buf, size, "a jump is compulsory: %s", jump_list);
    else if (move_blocks(r->p, r->from, to)) {
        int keep = r->from;
        refusal_list(salto_generate, salto_move_str, r->pos, salto_keep_from, &keep, list,
                     sizeof list);
        snprintf(buf, size, "the no-blocking rule: after %s %s would have neither a step "
                            "nor a jump%s%s", r->text, r->you,
                 list[0] ? "; this piece may play " : "", list);
    } else
        return false;
    return true;
}

/* Anything but a step: it must be a forward jump over an enemy piece to an empty square. */
static bool refuse_jump(const SaltoRefusal *r, int to, char *buf, size_t size)
{
    int from = r->from, fwd = r->p->stm == WHITE ? NE : SE;
    int over = -1, dir = -1;
    for (int d = 0; d < 4; d++)
        if (neighbour[from][d] >= 0 && neighbour[neighbour[from][d]][d] == to) {
            over = neighbour[from][d];
            dir = d;
        }
    if (over < 0) {
        snprintf(buf, size, "%s is neither a step nor a jump: a step goes one square "
                            "diagonally, a jump two, diagonally forward over an enemy piece",
                 r->text);
        return true;
    }
    char osq[4];
    write_square(osq, over)[0] = '\0';
    if (dir != fwd && dir != fwd + 1)
        snprintf(buf, size, "a jump goes diagonally forward only (towards %s's side); "
                            "backwards a piece only steps", r->you);
    else if (r->me_bb & (UINT64_C(1) << over))
        snprintf(buf, size, "a piece never jumps its own pieces: %s is %s's", osq, r->me);
    else if (!(r->op & (UINT64_C(1) << over)))
        snprintf(buf, size, "there is no piece on %s to jump over", osq);
    else if (!(r->empty & (UINT64_C(1) << to)))
        snprintf(buf, size, "%s is occupied: a jump lands on the empty square behind the "
                            "piece", r->sqs[1]);
    else if (move_blocks(r->p, from, to))
        snprintf(buf, size, "the no-blocking rule: after %s %s would have neither a step nor a "
                            "jump", r->text, r->you);
    else
        return false;
    return true;
}

static bool salto_refusal(const Position *pos, const char *text, char *buf, size_t size)
{
    SaltoRefusal r = {.pos = pos, .p = cpos(pos), .text = text};
    int s = r.p->stm, o = s ^ 1;
    r.me = s == WHITE ? "White" : "Black";
    r.you = o == WHITE ? "White" : "Black";
    Move moves[64];
    int n = salto_generate(pos, moves);
    if (strcmp(text, "0000") == 0) {
        refuse_pass(&r, n, buf, size);
        return true;
    }
    if (refuse_squares(&r, buf, size))
        return true;
    r.from = r.sq[0];
    r.me_bb = r.p->bb[s];
    r.op = r.p->bb[o];
    r.empty = ALL_SQUARES & ~(r.me_bb | r.op);
    if (refuse_not_own(&r, buf, size))
        return true;
    int pc = r.p->piece[r.from];
    snprintf(r.piece, sizeof r.piece, "%s %d", kind_word[piece_kind(pc)], piece_number(pc));
    bool jumps = false;
    for (int i = 0; i < n; i++)
        jumps |= moves[i] != MOVE_PASS &&
                 !(neighbour_mask[move_from(moves[i])] & (UINT64_C(1) << move_to(moves[i])));
    char jump_list[REFUSAL_LIST];
    refusal_list(salto_generate, salto_move_str, pos, NULL, NULL, jump_list, sizeof jump_list);
    if (r.nsq == 1) {
        refuse_lone_square(&r, jumps, jump_list, buf, size);
        return true;
    }
    int to = r.sq[1];
    if (neighbour_mask[r.from] & (UINT64_C(1) << to))
        return refuse_step(&r, to, jumps, jump_list, buf, size);
    return refuse_jump(&r, to, buf, size);
}

/* ---- FEN: <board> <side> <pass> <plies> --------------------------------- */
/*   board: ranks 10 down to 1 separated by '/'; each rank lists its five     */
/*   dark squares from file a to j: a piece is a kind letter (S star, M moon, */
/*   N sun; upper case White, lower case Black) and its number 1-5; a digit   */
/*   1-5 alone stands for that many empty dark squares.                      */
/*   side: w or b.  pass: p when the last ply was a pass, else -.            */
/*   plies: plies played toward the move limit (0..2L).                      */
/*   The last two fields may be left out (- and 0).  The limit L itself is a  */
/*   rule setting (option MoveLimit, GameConfig), not part of the FEN, so a   */
/*   FEN game follows the configured limit like a game from the start.       */

static const char KIND_LETTER[3] = {'S', 'M', 'N'};

/* A piece as the FEN and the diagram write it ("N2", "s5"), NUL-terminated. */
static void piece_text(int pc, char *t)
{
    char letter = KIND_LETTER[piece_kind(pc)];
    t[0] = piece_side(pc) == WHITE ? letter : (char)(letter + 'a' - 'A');
    t[1] = (char)('0' + piece_number(pc));
    t[2] = '\0';
}

/* The board has 10 ranks of 5 cells, the dark squares from file a to j. */
static int write_cell(const void *ctx, int rank, int file, char *out)
{
    int pc = ((const SaltoPos *)ctx)->piece[rank * 5 + file];
    if (pc == NO_PIECE)
        return 0;
    piece_text(pc, out);
    return 2;
}

static void salto_to_fen(const Position *pos, char *buf)
{
    const SaltoPos *p = cpos(pos);
    char *b = fen_write_board(buf, 10, 5, write_cell, p);
    sprintf(b, " %c %c %d", p->stm == WHITE ? 'w' : 'b', p->pass ? 'p' : '-', p->ply);
}

typedef struct BoardReading {
    SaltoPos *p;
    bool seen[PIECES];
} BoardReading;

static int read_cell(void *ctx, int rank, int file, const char *text, char *err,
                     size_t errlen)
{
    BoardReading *r = ctx;
    int kind = -1, side = WHITE;
    for (int k = 0; k < 3; k++) {
        if (text[0] == KIND_LETTER[k])
            kind = k;
        else if (text[0] == KIND_LETTER[k] + 'a' - 'A')
            kind = k, side = BLACK;
    }
    if (kind < 0)
        return 0;
    const char *why = NULL;
    int pc = side * PER_SIDE + kind * 5 + (text[1] - '1');
    if (text[1] < '1' || text[1] > '5')
        why = "piece letter without number 1-5";
    else if (r->seen[pc])
        why = "a piece appears twice";
    if (why) {
        fen_fail(err, errlen, "%s", why);
        return -1;
    }
    r->seen[pc] = true;
    r->p->piece[rank * 5 + file] = (uint8_t)pc;
    return 2;
}

static bool salto_from_fen(Position *pos, const char *fen, const GameConfig *cfg, char *err,
                           size_t errlen)
{
    FenFields f;
    if (!fen_split(fen, 2, 4, "board side pass plies", &f, err, errlen))
        return false;
    memset(pos, 0, sizeof *pos);
    SaltoPos *p = mpos(pos);
    memset(p->piece, NO_PIECE, sizeof p->piece);

    BoardReading board = {.p = p};
    if (!fen_read_board(f.field[0], 10, 5, read_cell, &board, err, errlen))
        return false;
    for (int pc = 0; pc < PIECES; pc++)
        if (!board.seen[pc])
            return fen_fail(err, errlen, "every side needs all 15 pieces (nothing is captured)");

    int side = fen_side(f.field[1]);
    if (side < 0)
        return fen_fail(err, errlen, "side to move must be w or b");
    p->stm = (uint8_t)side;

    /* Pass flag, plies, limit. */
    p->pass = 0;
    if (f.count > 2) {
        if (strcmp(f.field[2], "p") == 0)
            p->pass = 1;
        else if (strcmp(f.field[2], "-") != 0)
            return fen_fail(err, errlen, "pass flag must be p or -");
    }
    int plies = 0, limit = clamp_limit(cfg ? cfg->move_limit : DEFAULT_MOVE_LIMIT);
    if (f.count > 3 && !fen_number(f.field[3], 0, 2 * MAX_LIMIT, &plies))
        return fen_fail(err, errlen, "plies must be a number 0..%d", 2 * limit);
    if (plies > 2 * limit)
        return fen_fail(err, errlen, "plies exceed twice the move limit");
    if (p->pass && plies == 0)
        return fen_fail(err, errlen, "a pass needs at least one ply played");
    p->ply = (int16_t)plies;
    p->limit = (int16_t)limit;
    finish_setup(p);
    if (p->home[WHITE] == PER_SIDE && p->home[BLACK] == PER_SIDE)
        return fen_fail(err, errlen, "both sides cannot be all on targets");
    if (p->pass) {
        /* The side that passed must have had no legal move. */
        SaltoPos before = *p;
        before.stm ^= 1;
        before.pass = 0;
        before.ply--;
        if (someone_home(&before))
            return fen_fail(err, errlen, "pass flag set in a finished game");
        if (gen_real(&before, NULL) != 0)
            return fen_fail(err, errlen, "pass flag set but the passer had a legal move");
    }
    return true;
}

/* ---- diagram ------------------------------------------------------------ */

static void salto_diagram(const Position *pos, char *buf, size_t size)
{
    const SaltoPos *p = cpos(pos);
    char out[2048];
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(out + n, sizeof out - n, __VA_ARGS__)
    PUT("     a  b  c  d  e  f  g  h  i  j\n");
    for (int r = 9; r >= 0; r--) {
        PUT("%3d ", r + 1);
        for (int f = 0; f < 10; f++) {
            int sq = make_sq(f, r);
            char t[3] = "  ";
            if (sq >= 0) {
                if (p->piece[sq] == NO_PIECE)
                    strcpy(t, "..");
                else
                    piece_text(p->piece[sq], t);
            }
            PUT(" %s", t);
        }
        PUT("  %d\n", r + 1);
    }
    PUT("     a  b  c  d  e  f  g  h  i  j\n");
    PUT("S star, M moon, N sun + number; upper case White, lower case Black; .. empty\n");
    PUT("%s to move%s, ply %d of %d (move limit %d), count white %d black %d\n",
        p->stm == WHITE ? "White" : "Black", p->pass ? " after a pass" : "", p->ply,
        2 * p->limit, p->limit, p->sum[WHITE], p->sum[BLACK]);
#undef PUT
    if (size) {
        size_t k = n < size - 1 ? n : size - 1;
        memcpy(buf, out, k);
        buf[k] = '\0';
    }
}

static void salto_describe(const Position *pos, char *buf, size_t size)
{
    const SaltoPos *p = cpos(pos);
    snprintf(buf, size, "count white %d black %d", p->sum[WHITE], p->sum[BLACK]);
}

/* ---- evaluation (centi-steps: 100 = one step of the counting sum) ------- */

/* A linear evaluation fitted to self-play results (evalmodel.h,
 * doc/tuning.md): the terms below, weighted by salto_weights.h. */

/* What side s has that the counting sum does not see: the order in which
 * the target zone (three ranks, one square per piece) fills. */
typedef struct SaltoSide {
    int settled;   /* pieces on their own targets */
    int cut_off;   /* targets walled off by the side's own settled pieces */
    int squat[3];  /* own pieces parked on another own piece's target, by
                      target rank (entrance, middle, back) */
    int squat_near; /* ... whose target's owner is 1-2 steps away */
    int trapped;   /* enemy pieces that cannot leave a target one of mine
                      nearly reaches */
} SaltoSide;

static void side_extras(const SaltoPos *p, int s, SaltoSide *c)
{
    memset(c, 0, sizeof *c);
    uint64_t me = p->bb[s], op = p->bb[s ^ 1];
    uint64_t settled = 0;
    for (int pc = s * PER_SIDE; pc < (s + 1) * PER_SIDE; pc++)
        if (p->where[pc] == target_square(pc))
            settled |= UINT64_C(1) << p->where[pc];
    c->settled = util_popcount64(settled);
    if (p->home[s] == PER_SIDE)
        return;

    /* Squares the unsettled pieces can still reach through everything but
     * their own settled pieces (the others move on). */
    uint64_t open = ALL_SQUARES & ~settled;
    uint64_t reach = me & ~settled;
    for (;;) {
        uint64_t next = reach | (neighbours(reach) & open);
        if (next == reach)
            break;
        reach = next;
    }
    uint64_t empty = ALL_SQUARES & ~(me | op);
    int o = s ^ 1, d0 = o == WHITE ? NE : SE;
    for (int pc = s * PER_SIDE; pc < (s + 1) * PER_SIDE; pc++) {
        int t = target_square(pc), at = p->where[pc];
        if (at == t)
            continue;
        int d = distance[pc][at];
        uint64_t tb = UINT64_C(1) << t;
        if (!(reach & tb))
            c->cut_off++;
        int squatter = p->piece[t];
        if (squatter != NO_PIECE && piece_side(squatter) == s) {
            int depth = s == WHITE ? sq_rank(t) - 7 : 2 - sq_rank(t);
            c->squat[depth]++;
            if (d <= 2)
                c->squat_near++;
        }
        if ((op & tb) && d <= 2) {
            bool moves = (neighbour_mask[t] & empty) ||
                         jump_landings(tb, me, empty, d0) || jump_landings(tb, me, empty, d0 + 1);
            if (!moves)
                c->trapped++;
        }
    }
}

/* Largest cut of the counting sum the side to move can make now (jumps are
 * compulsory, so this may be negative); 0 for a pass. */
static int best_gain(const SaltoPos *p)
{
    Move moves[64];
    int n = gen_real(p, moves);
    if (n == 0)
        return 0;
    int best = -2;
    for (int i = 0; i < n; i++) {
        int from = move_from(moves[i]), to = move_to(moves[i]);
        int pc = p->piece[from];
        int g = distance[pc][from] - distance[pc][to];
        if (g > best)
            best = g;
    }
    return best;
}

/* Features (each "mine minus the opponent's" unless said otherwise). */
enum {
    SF_TEMPO,            /* 1: the side to move */
    SF_SUM,              /* opponent's counting sum minus mine */
    SF_GAIN,             /* best_gain() of the side to move */
    SF_SETTLED,
    SF_CUT_OFF,
    SF_SQUAT,            /* 3: by target rank */
    SF_SQUAT_NEAR = SF_SQUAT + 3,
    SF_TRAPPED,
    SF_PASS,             /* 1: the opponent has just passed */
    SF_DIST,             /* pieces at each distance 0..SALTO_DIST_MAX from target */
    SF_PST = SF_DIST + 24, /* piece kind x square (Black's turned half a turn) */
    SF_COUNT = SF_PST + 3 * SQUARES
};
#define SALTO_DIST_MAX 23

static void salto_feature_name(int i, char *buf, size_t size)
{
    static const char *const names[] = {"tempo", "sum", "gain", "settled", "cut_off",
                                        "squat_entrance", "squat_middle", "squat_back",
                                        "squat_near", "trapped", "pass"};
    if (i < SF_DIST)
        snprintf(buf, size, "%s", names[i]);
    else if (i < SF_PST)
        snprintf(buf, size, "dist %d", i - SF_DIST);
    else
        snprintf(buf, size, "pst %s %d", (const char *[]){"star", "moon", "sun"}[(i - SF_PST) / SQUARES],
                 (i - SF_PST) % SQUARES);
}

static void salto_eval_terms(const Position *pos, EvalTerms *t)
{
    const SaltoPos *p = cpos(pos);
    int s = p->stm, o = s ^ 1;
    int start_sum = 0;
    for (int pc = 0; pc < PER_SIDE; pc++)
        start_sum += distance[pc][start_square(pc)];
    int left = p->sum[WHITE] + p->sum[BLACK];
    int phase = EVAL_PHASE_MAX - EVAL_PHASE_MAX * left / (2 * start_sum);
    t->n = 0;
    t->phase = phase < 0 ? 0 : phase > EVAL_PHASE_MAX ? EVAL_PHASE_MAX : phase;
    SaltoSide cs, co;
    side_extras(p, s, &cs);
    side_extras(p, o, &co);
    eval_term(t, SF_TEMPO, 1);
    eval_term(t, SF_SUM, p->sum[o] - p->sum[s]);
    eval_term(t, SF_GAIN, best_gain(p));
    eval_term(t, SF_SETTLED, cs.settled - co.settled);
    eval_term(t, SF_CUT_OFF, cs.cut_off - co.cut_off);
    for (int k = 0; k < 3; k++)
        eval_term(t, SF_SQUAT + k, cs.squat[k] - co.squat[k]);
    eval_term(t, SF_SQUAT_NEAR, cs.squat_near - co.squat_near);
    eval_term(t, SF_TRAPPED, cs.trapped - co.trapped);
    eval_term(t, SF_PASS, p->pass);
    int dist[SALTO_DIST_MAX + 1] = {0};
    for (int pc = 0; pc < PIECES; pc++) {
        int sq = p->where[pc], side = piece_side(pc);
        int sign = side == s ? 1 : -1;
        int d = distance[pc][sq];
        dist[d > SALTO_DIST_MAX ? SALTO_DIST_MAX : d] += sign;
        int rel = side == WHITE ? sq : SQUARES - 1 - sq;
        eval_term(t, SF_PST + piece_kind(pc) * SQUARES + rel, sign);
    }
    for (int d = 0; d <= SALTO_DIST_MAX; d++)
        eval_term(t, SF_DIST + d, dist[d]);
}

const EvalModel eval_model_salto = {"salto", SF_COUNT, salto_eval_terms, salto_feature_name};

#include "salto_weights.h"
_Static_assert(sizeof salto_weights / sizeof salto_weights[0] == SF_COUNT,
               "salto_weights.h does not match the features");

static int salto_evaluate(const Position *pos)
{
    EvalTerms t;
    salto_eval_terms(pos, &t);
    return eval_model_score(&t, salto_weights);
}

/* Nothing is ever captured: no move changes material. */
static bool salto_is_noisy(const Position *pos, Move m)
{
    (void)pos;
    (void)m;
    return false;
}

/* Moves still to come (time allocation): the plies left to the move limit;
 * self-play games run to it (doc/search.md). */
static int salto_plies_left(const Position *pos)
{
    const SaltoPos *p = cpos(pos);
    int left = 2 * p->limit - p->ply;
    return left > 1 ? left : 1;
}

/* ---- self-description (variant.h, BoardDesc) ---------------------------- */

/* Piece kinds 0..14 = piece % 15: stars 1-5, moons 1-5, suns 1-5. */
#define SALTO_FIVE(prefix, sep) prefix sep "1", prefix sep "2", prefix sep "3", prefix sep "4", prefix sep "5"
static const char *const kind_id[PER_SIDE] = {SALTO_FIVE("star", ""), SALTO_FIVE("moon", ""),
                                              SALTO_FIVE("sun", "")};
static const char *const kind_label[PER_SIDE] = {SALTO_FIVE("star", " "), SALTO_FIVE("moon", " "),
                                                 SALTO_FIVE("sun", " ")};
static const char *const kind_symbol[3] = {"star", "moon", "sun"};
static const char *const kind_fen[2][PER_SIDE] = {
    {SALTO_FIVE("S", ""), SALTO_FIVE("M", ""), SALTO_FIVE("N", "")},
    {SALTO_FIVE("s", ""), SALTO_FIVE("m", ""), SALTO_FIVE("n", "")},
};
static const char *const target_label[2][PER_SIDE] = {
    {SALTO_FIVE("target of White's star", " "), SALTO_FIVE("target of White's moon", " "),
     SALTO_FIVE("target of White's sun", " ")},
    {SALTO_FIVE("target of Black's star", " "), SALTO_FIVE("target of Black's moon", " "),
     SALTO_FIVE("target of Black's sun", " ")},
};
#undef SALTO_FIVE
static const char *const file_label[10] = {"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"};
static const char *const rank_label_top_down[10] = {"10", "9", "8", "7", "6",
                                                    "5",  "4", "3", "2", "1"};

/* The 50 dark squares of the 10 x 10 board (light squares are no cells),
 * diagonal neighbours, the 30 pieces' targets. */
static void salto_describe_board(BoardDesc *b)
{
    b->layout = BOARD_LAYOUT_SQUARES;
    b->width = b->height = 10.0;
    b->columns = b->rows = 10;
    b->ncolumn_labels = b->nrow_labels = 10;
    for (int i = 0; i < 10; i++) {
        b->column_labels[i] = file_label[i];
        b->row_labels[i] = rank_label_top_down[i];
    }
    b->ncells = SQUARES;
    for (int sq = 0; sq < SQUARES; sq++) {
        BoardCell *c = &b->cells[sq];
        write_square(c->name, sq);
        c->x = sq_file(sq) + 0.5;
        c->y = 9 - sq_rank(sq) + 0.5;
        c->neighbours = neighbour_mask[sq];
    }
    b->nkinds = PER_SIDE;
    for (int k = 0; k < PER_SIDE; k++)
        b->kinds[k] = (PieceKind){kind_id[k], kind_label[k], kind_symbol[k / 5], k % 5 + 1,
                                  {kind_fen[WHITE][k], kind_fen[BLACK][k]}};
    b->nregions = PIECES;
    for (int pc = 0; pc < PIECES; pc++)
        b->regions[pc] = (BoardRegion){"target", target_label[piece_side(pc)][pc % PER_SIDE],
                                       piece_side(pc), pc % PER_SIDE,
                                       UINT64_C(1) << target_square(pc)};
}

static void salto_describe_position(const Position *pos, PositionInfo *out)
{
    const SaltoPos *p = cpos(pos);
    for (int sq = 0; sq < SQUARES; sq++)
        if (p->piece[sq] != NO_PIECE) {
            out->side[sq] = (int8_t)piece_side(p->piece[sq]);
            out->kind[sq] = (int8_t)(p->piece[sq] % PER_SIDE);
        }
    out->has = POSITION_HAS_COUNT | POSITION_HAS_MOVE_LIMIT | POSITION_HAS_PASS;
    out->count[WHITE] = p->sum[WHITE];
    out->count[BLACK] = p->sum[BLACK];
    out->plies = p->ply;
    out->ply_limit = 2 * p->limit;
    out->passed = p->pass != 0;
}

/* A step (one rank) or a jump (two ranks, the hurdle stays), or the pass. */
static void salto_describe_move(const Position *pos, Move m, MoveInfo *out)
{
    const SaltoPos *p = cpos(pos);
    if (m == MOVE_PASS) {
        out->kind = MOVE_KIND_PASS;
        return;
    }
    int from = move_from(m), to = move_to(m);
    int ranks = sq_rank(to) - sq_rank(from);
    out->kind = ranks == 2 || ranks == -2 ? MOVE_KIND_JUMP : MOVE_KIND_STEP;
    out->from = from;
    out->to = to;
    out->piece = p->piece[from] % PER_SIDE;
    out->path_length = 2;
    out->path[0] = (uint8_t)from;
    out->path[1] = (uint8_t)to;
}

/* ---- variant table ------------------------------------------------------ */

/* The bench positions after the start position (engine/bench.c): the
 * positions a seeded random playout reached after 8, 15 and 24 plies. */
static const char *const salto_bench_fens[] = {
    "s5s4s3s2s1/m5m4m3m2m1/1n4n3n21/1n52n1/5/4N4/1N33/N1N21M3N5/M1M21M4M5/S1S2S3S4S5 w - 8",
    "s5s4s3s2s1/m5m4m3m2m1/1n43/1n51N4n1/2n2n31/2M32/1N33/N1N22N5/M1M2S4M4M5/S1S2S31S5 b - 15",
    "s5s4s31s1/m5m4m31s2/1n4m2N4m1/3M3n1/n52n31/2n22/1N33/N1N2M2S4N5/M12M4M5/S1S2S31S5 w - 24",
    NULL,
};

const Variant variant_salto = {
    .name = "salto",
    .title = "Salto (Buettgenbach 1899): race 15 numbered pieces to their targets",
    .repetition_draws = false,
    .position_size = sizeof(SaltoPos),
    .rule_options = GAME_OPTION_MOVE_LIMIT,
    .match_scoring = MATCH_SCORING_COUNTING,
    .match_games = 1,
    .bench_depth = 9,
    .bench_fens = salto_bench_fens,
    .init = salto_init,
    .startpos = salto_startpos,
    .from_fen = salto_from_fen,
    .to_fen = salto_to_fen,
    .side_to_move = salto_side_to_move,
    .is_chance = NULL,
    .generate = salto_generate,
    .count_moves = salto_count_moves,
    .make = salto_make,
    .result = salto_result,
    .key = salto_key,
    .move_str = salto_move_str,
    .parse_move = salto_parse_move,
    .diagram = salto_diagram,
    .describe = salto_describe,
    .evaluate = salto_evaluate,
    .is_noisy = salto_is_noisy,
    .eval_is_exact = NULL,
    .plies_left = salto_plies_left,
    .perft = salto_perft,
    .describe_board = salto_describe_board,
    .describe_position = salto_describe_position,
    .describe_move = salto_describe_move,
    .refusal = salto_refusal,
};
