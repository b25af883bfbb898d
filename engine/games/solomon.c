/* solomon.c - Solomon's Game on the Seal of Solomon (doc/rules.md, Solomon).
 *
 * Both rule sets share this file: `solomon` (one jump per move, Gardner) and
 * `solomon-chain` (a jump must be continued by the same piece while it can).
 * The rule set is a flag inside the position, set by startpos/from_fen of the
 * variant, so every other function serves both.
 *
 * Board: the 19 points are bits 0..18 of a uint32_t (point n is bit n-1).
 * Every table (steps, jumps, Zobrist keys) is built in init() from the nine
 * lines of the rule book and the y coordinates of the points, nothing is typed in
 * by hand.  A move is encoded as from | to << 5 | captured-set << 10 | bit 31:
 * two chains with the same start, captured pieces and landing are one move,
 * exactly as the rules say, and get one code.
 */
#include "../refusal.h"
#include "../util.h"
#include "../variant.h"
#include "fen.h"
#include "solomon.h"
#include "solomon_tb.h"

#include <stdio.h>
#include <string.h>

/* ---- layout ------------------------------------------------------------- */

enum { NPOINTS = 19, MAN = 0, KING = 1, MAX_JUMPS = 6, MAX_PIECES = 6 };
#define ALL_POINTS ((1u << NPOINTS) - 1)
#define BIT(i) (1u << (i))

/* The position.  men/kings are bitboards per side; key is maintained by
 * make(); chain selects the rule set. */
typedef struct GAME_POSITION SolomonPos {
    uint32_t men[2];
    uint32_t kings[2];
    uint64_t key;
    uint8_t stm;
    uint8_t chain;
} SolomonPos;
GAME_POSITION_TYPE(SolomonPos);

/* Move code: from | to << 5 | captured points << 10 | MOVE_MARK. */
#define MOVE_MARK ((Move)1 << 31)
static inline Move make_move(int from, int to, uint32_t caps)
{
    return (Move)from | (Move)to << 5 | (Move)caps << 10 | MOVE_MARK;
}
static inline int move_from(Move m) { return (int)(m & 31); }
static inline int move_to(Move m) { return (int)((m >> 5) & 31); }
static inline uint32_t move_caps(Move m)
{
    return (uint32_t)(m >> 10) & ALL_POINTS;
}

/* ---- board (doc/rules.md, Solomon: the board) --------------------------- */

/* The nine lines, five points each, in order along the line. */
static const uint8_t board_lines[9][5] = {
    {2, 3, 4, 5, 6},     {14, 15, 16, 17, 18}, {1, 3, 7, 9, 14},
    {1, 5, 8, 11, 18},   {19, 15, 12, 9, 2},   {19, 17, 13, 11, 6},
    {1, 4, 10, 16, 19},  {6, 8, 10, 12, 14},   {2, 7, 10, 13, 18},
};

/* y coordinate of points 1..19 times 4 (1, 1/2, 1/4, 0, -1/4, -1/2, -1). */
static const int8_t point_y4[NPOINTS] = {4,  2,  2,  2,  2,  2,  1,  1,  0, 0,
                                         0,  -1, -1, -2, -2, -2, -2, -2, -4};

/* The palace where a man of each side is crowned: White on 1, Black on 19. */
static const int crown_point[2] = {0, 18};

typedef struct Jump {
    uint32_t over; /* bit of the jumped point */
    uint32_t land; /* bit of the landing point */
    uint8_t land_idx;
} Jump;

static uint32_t step_mask[2][2][NPOINTS];      /* [side][kind][from] */
static uint32_t step_from[2][2][NPOINTS];      /* [side][kind][to]: step_mask reversed */
static Jump jump_table[2][2][NPOINTS][MAX_JUMPS]; /* sorted by landing point */
static uint8_t jump_count[2][2][NPOINTS];
/* The same jumps for the hot paths: the points a piece may jump over from
 * each point (a one-AND test that rejects nearly every piece), and where a
 * jump from a over b lands. */
static uint32_t jump_over_mask[2][2][NPOINTS];
static uint32_t jump_over_from[2][2][NPOINTS]; /* [side][kind][over]: jump_over_mask reversed */
static uint32_t jump_land[NPOINTS][NPOINTS];
static uint32_t neighbour_mask[NPOINTS];        /* every direction */
static uint64_t zobrist_piece[2][2][NPOINTS];   /* [side][kind][point] */
static uint64_t zobrist_black_to_move;
static uint64_t zobrist_chain_rules;

/* May a piece of side/kind go from point a to the next point b along a line?
 * Kings go every way; men forward (White: larger y, Black: smaller y) or
 * sideways, which exists only along the two horizontal lines (the first two
 * of board_lines; 9, 10, 11 share a height but no line). */
static bool direction_allowed(int side, int kind, int a, int b, bool horizontal)
{
    if (kind == KING)
        return true;
    int dy = point_y4[b] - point_y4[a];
    if (dy == 0)
        return horizontal;
    return side == WHITE ? dy > 0 : dy < 0;
}

/* Both variants list this init; the registry calls it once per variant, so
 * the second call finds the tables built and returns. */
static void solomon_init(void)
{
    static bool built;
    if (built)
        return;
    built = true;
    for (int l = 0; l < 9; l++) {
        for (int i = 0; i < 5; i++) {
            int a = board_lines[l][i] - 1;
            for (int dir = -1; dir <= 1; dir += 2) {
                int j = i + dir, k = i + 2 * dir;
                if (j < 0 || j > 4)
                    continue;
                int b = board_lines[l][j] - 1;
                neighbour_mask[a] |= BIT(b);
                for (int side = 0; side < 2; side++)
                    for (int kind = 0; kind < 2; kind++) {
                        if (!direction_allowed(side, kind, a, b, l < 2))
                            continue;
                        step_mask[side][kind][a] |= BIT(b);
                        step_from[side][kind][b] |= BIT(a);
                        if (k < 0 || k > 4)
                            continue;
                        int c = board_lines[l][k] - 1;
                        jump_over_mask[side][kind][a] |= BIT(b);
                        jump_over_from[side][kind][b] |= BIT(a);
                        jump_land[a][b] = BIT(c);
                        Jump *t = jump_table[side][kind][a];
                        int n = jump_count[side][kind][a]++;
                        /* insertion by landing point: the DFS then visits
                         * paths in increasing order of their point lists */
                        while (n > 0 && t[n - 1].land_idx > c) {
                            t[n] = t[n - 1];
                            n--;
                        }
                        t[n] = (Jump){BIT(b), BIT(c), (uint8_t)c};
                    }
            }
        }
    }
    uint64_t seed = 0x5A10A0C0FFEEULL;
    for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < 2; kind++)
            for (int p = 0; p < NPOINTS; p++)
                zobrist_piece[side][kind][p] = util_splitmix64(&seed);
    zobrist_black_to_move = util_splitmix64(&seed);
    zobrist_chain_rules = util_splitmix64(&seed);
}

/* ---- rules -------------------------------------------------------------- */

static uint64_t compute_key(const SolomonPos *p)
{
    uint64_t k = p->stm == BLACK ? zobrist_black_to_move : 0;
    if (p->chain)
        k ^= zobrist_chain_rules;
    for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < 2; kind++)
            for (uint32_t b = kind ? p->kings[side] : p->men[side]; b; b &= b - 1)
                k ^= zobrist_piece[side][kind][util_lsb64(b)];
    return k;
}

static void setup_start(Position *pos, bool chain)
{
    memset(pos, 0, sizeof *pos);
    SolomonPos *p = mpos(pos);
    p->men[WHITE] = BIT(13) | BIT(14) | BIT(15) | BIT(16) | BIT(17) | BIT(18);
    p->men[BLACK] = BIT(0) | BIT(1) | BIT(2) | BIT(3) | BIT(4) | BIT(5);
    p->stm = WHITE;
    p->chain = chain;
    p->key = compute_key(p);
}

static void solomon_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    setup_start(pos, false);
}

static void solomon_chain_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    setup_start(pos, true);
}

/* ---- rules: moves ------------------------------------------------------- */

/* Continue a chain of the piece (side, kind) that started on `from` and now
 * stands on cur, having captured caps.  empty excludes cur; enemy excludes
 * the pieces already jumped (they left the board at once).  A chain that
 * cannot go on (or has just crowned) becomes a move unless an equal move
 * (same from, captures, landing) is already in moves[first..*n). */
static void chain_search(int side, int kind, int from, int cur, uint32_t caps,
                         uint32_t empty, uint32_t enemy, Move *moves, int first,
                         int *n)
{
    bool went_on = false;
    if (kind == KING || cur != crown_point[side]) { /* crowning ends it */
        const Jump *t = jump_table[side][kind][cur];
        for (int i = 0, c = jump_count[side][kind][cur]; i < c; i++)
            if ((enemy & t[i].over) && (empty & t[i].land)) {
                went_on = true;
                chain_search(side, kind, from, t[i].land_idx, caps | t[i].over,
                             (empty | BIT(cur) | t[i].over) & ~t[i].land,
                             enemy & ~t[i].over, moves, first, n);
            }
    }
    if (went_on || !caps)
        return;
    Move m = make_move(from, cur, caps);
    for (int i = first; i < *n; i++)
        if (moves[i] == m)
            return;
    moves[(*n)++] = m;
}

/* Every jump move of the side to move (chains or single jumps), in order of
 * the starting point, then of the path. */
static int generate_jumps(const SolomonPos *p, Move *moves)
{
    int s = p->stm;
    uint32_t own = p->men[s] | p->kings[s];
    uint32_t enemy = p->men[s ^ 1] | p->kings[s ^ 1];
    uint32_t empty = ~(own | enemy) & ALL_POINTS;
    int n = 0;
    for (uint32_t b = own; b; b &= b - 1) {
        int from = util_lsb64(b);
        int kind = (p->kings[s] >> from) & 1;
        uint32_t overs = 0; /* enemies this piece can jump now */
        for (uint32_t o = jump_over_mask[s][kind][from] & enemy; o; o &= o - 1)
            if (jump_land[from][util_lsb64(o)] & empty)
                overs |= o & -o;
        if (!overs)
            continue;
        if (p->chain) {
            chain_search(s, kind, from, from, 0, empty, enemy, moves, n, &n);
            continue;
        }
        const Jump *t = jump_table[s][kind][from]; /* in landing order */
        for (int i = 0, c = jump_count[s][kind][from]; i < c; i++)
            if (overs & t[i].over)
                moves[n++] = make_move(from, t[i].land_idx, t[i].over);
    }
    return n;
}

static int generate_steps(const SolomonPos *p, Move *moves)
{
    int s = p->stm;
    uint32_t own = p->men[s] | p->kings[s];
    uint32_t empty =
        ~(own | p->men[s ^ 1] | p->kings[s ^ 1]) & ALL_POINTS;
    int n = 0;
    for (uint32_t b = own; b; b &= b - 1) {
        int from = util_lsb64(b);
        int kind = (p->kings[s] >> from) & 1;
        for (uint32_t t = step_mask[s][kind][from] & empty; t; t &= t - 1)
            moves[n++] = make_move(from, util_lsb64(t), 0);
    }
    return n;
}

/* Can one of `pieces` (all of one kind) jump now? */
static inline bool kind_can_jump(int s, int kind, uint32_t pieces, uint32_t enemy,
                                 uint32_t empty)
{
    for (uint32_t b = pieces; b; b &= b - 1) {
        int from = util_lsb64(b);
        for (uint32_t o = jump_over_mask[s][kind][from] & enemy; o; o &= o - 1)
            if (jump_land[from][util_lsb64(o)] & empty)
                return true;
    }
    return false;
}

/* All legal moves, assuming the game is not over on the board. */
static int generate_legal(const SolomonPos *p, Move *moves)
{
    int s = p->stm;
    uint32_t enemy = p->men[s ^ 1] | p->kings[s ^ 1];
    uint32_t empty = ~(p->men[s] | p->kings[s] | enemy) & ALL_POINTS;
    if (kind_can_jump(s, MAN, p->men[s], enemy, empty) ||
        kind_can_jump(s, KING, p->kings[s], enemy, empty))
        return generate_jumps(p, moves); /* capturing is compulsory */
    return generate_steps(p, moves);
}


/* The pieces as the side to move sees them (counting and perft): its men
 * and kings, then the opponent's.  A ply swaps the two pairs. */
typedef struct Sides {
    uint32_t men, kings, omen, okings;
} Sides;

static inline Sides sides_of(const SolomonPos *p)
{
    int s = p->stm;
    return (Sides){p->men[s], p->kings[s], p->men[s ^ 1], p->kings[s ^ 1]};
}

/* ... and back (without the key), side s to move. */
static inline SolomonPos position_of(Sides b, int s, bool chain)
{
    SolomonPos p = {{0}, {0}, 0, (uint8_t)s, (uint8_t)chain};
    p.men[s] = b.men, p.kings[s] = b.kings, p.men[s ^ 1] = b.omen, p.kings[s ^ 1] = b.okings;
    return p;
}

/* Jumps of the pieces in `pieces` (all of one kind): single jumps, the
 * first jump of each chain. */
static inline int count_jumps(int s, int kind, uint32_t pieces, uint32_t enemy,
                              uint32_t empty)
{
    int n = 0;
    for (uint32_t b = pieces; b; b &= b - 1) {
        int from = util_lsb64(b);
        for (uint32_t o = jump_over_mask[s][kind][from] & enemy; o; o &= o - 1)
            n += (jump_land[from][util_lsb64(o)] & empty) != 0;
    }
    return n;
}

/* Steps of the pieces in `pieces` (all of one kind), three pieces' targets
 * to one popcount (a point set takes 19 of 21 bits). */
static inline int count_steps(int s, int kind, uint32_t pieces, uint32_t empty)
{
    int n = 0;
    uint32_t b = pieces;
    while (b) {
        uint64_t packed = 0;
        for (int shift = 0; b && shift < 63; shift += 21, b &= b - 1)
            packed |= (uint64_t)(step_mask[s][kind][util_lsb64(b)] & empty) << shift;
        n += util_popcount64(packed);
    }
    return n;
}

/* The moves of side s to move in b under the chain rules, when it must
 * capture: a piece none of whose jumps can go on makes one move per jump;
 * the chains of a piece with a longer one are listed, so that equal chains
 * are one move. */
static int count_chains(Sides b, int s, uint32_t enemy, uint32_t empty)
{
    int n = 0;
    for (int kind = MAN; kind <= KING; kind++)
        for (uint32_t r = kind == MAN ? b.men : b.kings; r; r &= r - 1) {
            int f = util_lsb64(r), singles = 0;
            bool longer = false;
            for (uint32_t x = jump_over_mask[s][kind][f] & enemy; x && !longer; x &= x - 1) {
                uint32_t land = jump_land[f][util_lsb64(x)] & empty;
                if (!land)
                    continue;
                singles++;
                if (kind == MAN && util_lsb64(land) == crown_point[s])
                    continue; /* crowning ends the move */
                longer = count_jumps(s, kind, land, enemy & ~(x & -x),
                                     (empty | BIT(f) | (x & -x)) & ~land) > 0;
            }
            if (!longer) {
                n += singles;
                continue;
            }
            Move moves[MAX_MOVES];
            int k = 0;
            chain_search(s, kind, f, f, 0, empty, enemy, moves, 0, &k);
            n += k;
        }
    return n;
}

/* Number of legal moves of side s to move in b, the game not over by
 * material, without writing them unless chains must be deduplicated. */
static int count_sides(Sides b, int s, bool chain)
{
    uint32_t enemy = b.omen | b.okings;
    uint32_t empty = ~(b.men | b.kings | enemy) & ALL_POINTS;
    int jumps = count_jumps(s, MAN, b.men, enemy, empty) +
                count_jumps(s, KING, b.kings, enemy, empty);
    if (!jumps)
        return count_steps(s, MAN, b.men, empty) + count_steps(s, KING, b.kings, empty);
    return chain ? count_chains(b, s, enemy, empty) : jumps;
}

/* Number of legal moves (perft leaves, result()), the game not over by
 * material. */
static int count_legal(const SolomonPos *p) { return count_sides(sides_of(p), p->stm, p->chain); }

/* Play m (from generate) from p into c, keeping the Zobrist key. */
static void apply_move(const SolomonPos *p, Move m, SolomonPos *c)
{
    *c = *p;
    int s = p->stm, e = s ^ 1;
    int from = move_from(m), to = move_to(m);
    uint32_t caps = move_caps(m);
    int kind = (p->kings[s] >> from) & 1;
    int new_kind = kind == KING || to == crown_point[s] ? KING : MAN;
    if (kind == KING)
        c->kings[s] &= ~BIT(from);
    else
        c->men[s] &= ~BIT(from);
    if (new_kind == KING)
        c->kings[s] |= BIT(to);
    else
        c->men[s] |= BIT(to);
    uint64_t k = p->key ^ zobrist_black_to_move ^ zobrist_piece[s][kind][from] ^
                 zobrist_piece[s][new_kind][to];
    for (uint32_t b = caps; b; b &= b - 1) {
        int q = util_lsb64(b);
        k ^= zobrist_piece[e][(p->kings[e] >> q) & 1][q];
    }
    c->key = k;
    c->men[e] &= ~caps;
    c->kings[e] &= ~caps;
    c->stm = (uint8_t)e;
}

/* ---- rules: end of the game --------------------------------------------- */

/* Could the lone king of side on point a capture the king on point b? */
static bool king_can_capture(int side, int a, int b)
{
    uint32_t empty = ~(BIT(a) | BIT(b)) & ALL_POINTS;
    const Jump *t = jump_table[side][KING][a];
    for (int i = 0, c = jump_count[side][KING][a]; i < c; i++)
        if (t[i].over == BIT(b) && (t[i].land & empty))
            return true;
    return false;
}

/* The result that the pieces alone decide (no move generation): the side to
 * move without pieces loses; bare king against bare king is drawn when
 * neither king could capture the other, judged on the position whoever is to
 * move.  The rule is the same in both rule sets: drawing every lone-king
 * ending in solomon-chain at once would turn the winnable two-kings-against-
 * one ending into a draw (the winning sacrifice would end in a draw). */
static Result material_result(const SolomonPos *p, const char **reason)
{
    int s = p->stm;
    if (!(p->men[s] | p->kings[s])) {
        *reason = "no pieces";
        return s == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    }
    if ((p->men[WHITE] | p->men[BLACK]) == 0 &&
        util_popcount32(p->kings[WHITE]) == 1 &&
        util_popcount32(p->kings[BLACK]) == 1) {
        int w = util_lsb64(p->kings[WHITE]), b = util_lsb64(p->kings[BLACK]);
        if (!king_can_capture(WHITE, w, b) && !king_can_capture(BLACK, b, w)) {
            *reason = "bare kings";
            return RESULT_DRAW;
        }
    }
    return RESULT_NONE;
}

static Result solomon_result(const Position *pos, int *margin, const char **reason)
{
    const SolomonPos *p = cpos(pos);
    const char *why = "";
    if (margin)
        *margin = 0;
    Result r = material_result(p, &why);
    if (r == RESULT_NONE && count_legal(p) == 0) {
        why = "no legal move";
        r = p->stm == WHITE ? RESULT_BLACK_WINS : RESULT_WHITE_WINS;
    }
    if (reason)
        *reason = why;
    return r;
}

static int solomon_generate(const Position *pos, Move *moves)
{
    const SolomonPos *p = cpos(pos);
    const char *why;
    if (material_result(p, &why) != RESULT_NONE)
        return 0;
    return generate_legal(p, moves);
}

static int solomon_count_moves(const Position *pos)
{
    const SolomonPos *p = cpos(pos);
    const char *why;
    if (material_result(p, &why) != RESULT_NONE)
        return 0;
    return count_legal(p);
}

static void solomon_make(const Position *pos, Move m, Position *out)
{
    apply_move(cpos(pos), m, mpos(out));
}

static int solomon_side_to_move(const Position *pos) { return cpos(pos)->stm; }

static uint64_t solomon_key(const Position *pos) { return cpos(pos)->key; }

/* ---- perft -------------------------------------------------------------- */

/* Side s to move in b: do the pieces alone end the game?  The common case is
 * decided by two tests (s has pieces, some man is left). */
static inline bool sides_over(Sides b, int s)
{
    if ((b.men | b.kings) && (b.men | b.omen))
        return false;
    SolomonPos p = position_of(b, s, false);
    const char *why;
    return material_result(&p, &why) != RESULT_NONE;
}

/* The child of b after side s moves its piece of kind `kind` from f to t
 * capturing caps, seen by the opponent (now to move). */
static inline Sides sides_play(Sides b, int s, int kind, int f, int t, uint32_t caps)
{
    uint32_t men = b.men, kings = b.kings; /* a chain may end where it began */
    if (kind == KING)
        kings = (kings & ~BIT(f)) | BIT(t);
    else if (t == crown_point[s])
        men &= ~BIT(f), kings |= BIT(t);
    else
        men = (men & ~BIT(f)) | BIT(t);
    return (Sides){b.omen & ~caps, b.okings & ~caps, men, kings};
}

/* How many pieces of the opponent o (men omen, kings okings) step to q. */
static inline int steps_into(int o, uint32_t omen, uint32_t okings, int q)
{
    int n = util_popcount32(step_from[o][MAN][q] & omen);
    return okings ? n + util_popcount32(step_from[o][KING][q] & okings) : n;
}

/* perft 2 when side s to move only steps (it has no jump) and its
 * opponent o has pieces.  A step changes none of o's pieces, so o's replies
 * after it are counted without making it: o's steps are its steps now, less
 * those into the point the step fills, plus those into the point it
 * empties; o's jumps are looked for only over the pieces of s that one of
 * o's pieces stands next to (in a jumping direction).
 * A step that gives o a jump in the chain rules (chains are counted by
 * listing them), or after which the pieces alone could end the game (no man
 * is left), is made and counted in full. */
static uint64_t perft_two_steps(Sides b, int s, bool chain, uint32_t empty)
{
    int o = s ^ 1;
    uint32_t own = b.men | b.kings;
    int steps = count_steps(o, MAN, b.omen, empty) + count_steps(o, KING, b.okings, empty);
    uint32_t over = 0; /* every point a piece of o could jump over */
    for (uint32_t r = b.omen; r; r &= r - 1)
        over |= jump_over_mask[o][MAN][util_lsb64(r)];
    for (uint32_t r = b.okings; r; r &= r - 1)
        over |= jump_over_mask[o][KING][util_lsb64(r)];
    /* Without men a crowning may leave bare kings. */
    bool may_end = !(b.omen | (b.men & (b.men - 1)));
    uint64_t total = 0;
    for (int kind = MAN; kind <= KING; kind++)
        for (uint32_t r = kind == MAN ? b.men : b.kings; r; r &= r - 1) {
            int f = util_lsb64(r);
            uint32_t ts = step_mask[s][kind][f] & empty;
            if (!ts)
                continue;
            int from_f = steps_into(o, b.omen, b.okings, f);
            for (; ts; ts &= ts - 1) {
                int t = util_lsb64(ts);
                int jumps = 0;
                uint32_t h = (own ^ BIT(f) ^ BIT(t)) & over;
                if (h) {
                    uint32_t child_empty = empty ^ BIT(f) ^ BIT(t);
                    for (; h; h &= h - 1) {
                        int q = util_lsb64(h);
                        for (uint32_t x = jump_over_from[o][MAN][q] & b.omen; x; x &= x - 1)
                            jumps += (jump_land[util_lsb64(x)][q] & child_empty) != 0;
                        for (uint32_t x = jump_over_from[o][KING][q] & b.okings; x; x &= x - 1)
                            jumps += (jump_land[util_lsb64(x)][q] & child_empty) != 0;
                    }
                }
                if (may_end || (jumps && chain)) {
                    Sides c = sides_play(b, s, kind, f, t, 0);
                    if (!sides_over(c, o))
                        total += (uint64_t)count_sides(c, o, chain);
                } else {
                    total += (uint64_t)(jumps ? jumps
                                              : steps + from_f - steps_into(o, b.omen, b.okings, t));
                }
            }
        }
    return total;
}

/* Perft of b, side s to move, the game not over by material, depth >= 2:
 * every move is played on the Sides, the last ply counted. */
static uint64_t perft_walk(Sides b, int s, bool chain, int depth)
{
    int o = s ^ 1;
    uint32_t enemy = b.omen | b.okings;
    uint32_t empty = ~(b.men | b.kings | enemy) & ALL_POINTS;
    uint64_t total = 0;
    bool jumped = false;
    if (chain && (count_jumps(s, MAN, b.men, enemy, empty) ||
                  count_jumps(s, KING, b.kings, enemy, empty))) {
        SolomonPos p = position_of(b, s, chain);
        Move moves[MAX_MOVES];
        int n = generate_jumps(&p, moves);
        for (int i = 0; i < n; i++) {
            int f = move_from(moves[i]);
            Sides c = sides_play(b, s, (b.kings >> f) & 1, f, move_to(moves[i]),
                                 move_caps(moves[i]));
            if (!sides_over(c, o))
                total += depth == 2 ? (uint64_t)count_sides(c, o, chain)
                                    : perft_walk(c, o, chain, depth - 1);
        }
        jumped = n > 0;
    } else if (!chain) {
        for (int kind = MAN; kind <= KING; kind++)
            for (uint32_t r = kind == MAN ? b.men : b.kings; r; r &= r - 1) {
                int f = util_lsb64(r);
                for (uint32_t x = jump_over_mask[s][kind][f] & enemy; x; x &= x - 1) {
                    uint32_t land = jump_land[f][util_lsb64(x)] & empty;
                    if (!land)
                        continue;
                    jumped = true;
                    Sides c = sides_play(b, s, kind, f, util_lsb64(land), x & -x);
                    if (!sides_over(c, o))
                        total += depth == 2 ? (uint64_t)count_sides(c, o, chain)
                                            : perft_walk(c, o, chain, depth - 1);
                }
            }
    }
    if (jumped) /* capturing is compulsory */
        return total;
    if (!enemy)
        return 0; /* every reply position has lost: o has no pieces */
    if (depth == 2)
        return perft_two_steps(b, s, chain, empty);
    for (int kind = MAN; kind <= KING; kind++)
        for (uint32_t r = kind == MAN ? b.men : b.kings; r; r &= r - 1) {
            int f = util_lsb64(r);
            for (uint32_t ts = step_mask[s][kind][f] & empty; ts; ts &= ts - 1) {
                Sides c = sides_play(b, s, kind, f, util_lsb64(ts), 0);
                if (!sides_over(c, o))
                    total += perft_walk(c, o, chain, depth - 1);
            }
        }
    return total;
}

static uint64_t solomon_perft(const Position *pos, int depth)
{
    const SolomonPos *p = cpos(pos);
    Sides b = sides_of(p);
    if (depth <= 0)
        return 1;
    if (sides_over(b, p->stm))
        return 0;
    if (depth == 1)
        return (uint64_t)count_sides(b, p->stm, p->chain);
    return perft_walk(b, p->stm, p->chain, depth);
}

/* ---- notation ----------------------------------------------------------- */

/* Depth-first search, in increasing order of landing points, for a path of
 * the piece from cur that captures exactly `left` and ends on `to`: the first
 * one found is the path whose point list comes first. */
static bool find_path(int side, int kind, int cur, int to, uint32_t left,
                      uint32_t empty, int *path, int len, int *out_len)
{
    if (!left) {
        *out_len = len;
        return cur == to;
    }
    if (kind == MAN && cur == crown_point[side])
        return false;
    const Jump *t = jump_table[side][kind][cur];
    for (int i = 0, c = jump_count[side][kind][cur]; i < c; i++)
        if ((left & t[i].over) && (empty & t[i].land)) {
            path[len] = t[i].land_idx;
            if (find_path(side, kind, t[i].land_idx, to, left & ~t[i].over,
                          (empty | BIT(cur) | t[i].over) & ~t[i].land, path,
                          len + 1, out_len))
                return true;
        }
    return false;
}

static void solomon_move_str(const Position *pos, Move m, char *buf)
{
    const SolomonPos *p = cpos(pos);
    int from = move_from(m), to = move_to(m);
    uint32_t caps = move_caps(m);
    if (!caps) {
        snprintf(buf, MOVE_STR_MAX, "%d-%d", from + 1, to + 1);
        return;
    }
    int s = p->stm, kind = (p->kings[s] >> from) & 1;
    uint32_t occupied = p->men[0] | p->men[1] | p->kings[0] | p->kings[1];
    int path[NPOINTS + 1], len = 0;
    if (!find_path(s, kind, from, to, caps, ~occupied & ALL_POINTS, path, 0,
                   &len)) {
        /* not a move of this position: still print something readable */
        snprintf(buf, MOVE_STR_MAX, "%dx%d", from + 1, to + 1);
        return;
    }
    int w = snprintf(buf, MOVE_STR_MAX, "%d", from + 1);
    for (int i = 0; i < len && w < MOVE_STR_MAX; i++)
        w += snprintf(buf + w, (size_t)(MOVE_STR_MAX - w), "x%d", path[i] + 1);
}

/* Read a point number 1..19 (no sign, no leading zero) at *s and move *s past
 * it: its index 0..18, or -1. */
static int read_point(const char **s)
{
    int point;
    return fen_scan_number(s, 1, NPOINTS, &point) ? point - 1 : -1;
}

static bool in_list(const Move *moves, int n, Move m)
{
    for (int i = 0; i < n; i++)
        if (moves[i] == m)
            return true;
    return false;
}

static Move solomon_parse_move(const Position *pos, const char *text)
{
    if (!text)
        return MOVE_NONE;
    const SolomonPos *p = cpos(pos);
    enum { MAX_PATH = NPOINTS + 1 };
    int pts[MAX_PATH], npts = 0;
    char sep = 0;
    const char *c = text;
    while (*c == ' ' || *c == '\t')
        c++;
    for (;;) {
        if (npts == MAX_PATH)
            return MOVE_NONE;
        int v = read_point(&c);
        if (v < 0)
            return MOVE_NONE;
        pts[npts++] = v;
        if (*c == '-' || *c == 'x') {
            char this_sep = *c == '-' ? '-' : 'x';
            if (sep && sep != this_sep)
                return MOVE_NONE;
            sep = this_sep;
            c++;
            continue;
        }
        break;
    }
    while (*c == ' ' || *c == '\t' || *c == '\r' || *c == '\n')
        c++;
    if (*c || npts < 2)
        return MOVE_NONE;

    Move moves[MAX_MOVES];
    int n = solomon_generate(pos, moves);
    int s = p->stm, from = pts[0];
    if (sep == '-') {
        Move m = make_move(from, pts[1], 0);
        return npts == 2 && in_list(moves, n, m) ? m : MOVE_NONE;
    }
    /* A full path: replay it jump by jump. */
    uint32_t own = p->men[s] | p->kings[s];
    uint32_t enemy = p->men[s ^ 1] | p->kings[s ^ 1];
    uint32_t empty = ~(own | enemy) & ALL_POINTS;
    if (own & BIT(from)) {
        int kind = (p->kings[s] >> from) & 1, cur = from;
        uint32_t caps = 0;
        bool ok = true;
        for (int i = 1; i < npts && ok; i++) {
            ok = false;
            if (kind == MAN && cur == crown_point[s])
                break; /* crowned: the chain has ended */
            const Jump *t = jump_table[s][kind][cur];
            for (int j = 0, cnt = jump_count[s][kind][cur]; j < cnt; j++)
                if (t[j].land_idx == pts[i] && (enemy & t[j].over) &&
                    (empty & t[j].land)) {
                    caps |= t[j].over;
                    enemy &= ~t[j].over;
                    empty = (empty | BIT(cur) | t[j].over) & ~t[j].land;
                    cur = pts[i];
                    ok = true;
                    break;
                }
        }
        Move m = make_move(from, cur, caps);
        if (ok && in_list(moves, n, m))
            return m;
    }
    /* `from x to`: accepted when it names exactly one legal move. */
    if (npts != 2)
        return MOVE_NONE;
    Move found = MOVE_NONE;
    for (int i = 0; i < n; i++)
        if (move_caps(moves[i]) && move_from(moves[i]) == from &&
            move_to(moves[i]) == pts[1]) {
            if (found)
                return MOVE_NONE;
            found = moves[i];
        }
    return found;
}

static bool solomon_is_noisy(const Position *pos, Move m)
{
    (void)pos;
    return move_caps(m) != 0;
}

/* ---- FEN ---------------------------------------------------------------- */

/* W:W14,15,16,17,18,19:B1,2,3,4,5,6 - side to move, then the white and the
 * black pieces in increasing point order, a king written K<point>. */
static void solomon_to_fen(const Position *pos, char *buf)
{
    const SolomonPos *p = cpos(pos);
    int w = snprintf(buf, FEN_MAX, "%c", p->stm == WHITE ? 'W' : 'B');
    for (int side = 0; side < 2; side++) {
        w += snprintf(buf + w, (size_t)(FEN_MAX - w), ":%c",
                      side == WHITE ? 'W' : 'B');
        bool first = true;
        for (uint32_t b = p->men[side] | p->kings[side]; b; b &= b - 1) {
            int q = util_lsb64(b);
            w += snprintf(buf + w, (size_t)(FEN_MAX - w), "%s%s%d",
                          first ? "" : ",", (p->kings[side] >> q) & 1 ? "K" : "",
                          q + 1);
            first = false;
        }
    }
}

static bool from_fen_rules(Position *pos, const char *fen, bool chain, char *err,
                           size_t errlen)
{
    FenFields f;
    if (!fen_split(fen, 1, 1, "side:white pieces:black pieces", &f, err, errlen))
        return false;
    memset(pos, 0, sizeof *pos);
    SolomonPos *p = mpos(pos);
    p->chain = chain;
    const char *c = f.field[0];
    if (*c != 'W' && *c != 'B')
        return fen_fail(err, errlen, "side to move must be W or B");
    p->stm = *c++ == 'W' ? WHITE : BLACK;
    bool seen[2] = {false, false};
    for (int list = 0; list < 2; list++) {
        if (*c != ':')
            return fen_fail(err, errlen, "expected ':' before a piece list");
        c++;
        if (*c != 'W' && *c != 'B')
            return fen_fail(err, errlen, "a piece list must start with W or B");
        int side = *c++ == 'W' ? WHITE : BLACK;
        if (seen[side])
            return fen_fail(err, errlen, "a colour has two piece lists");
        seen[side] = true;
        if (*c == ':' || *c == '\0')
            continue; /* no pieces of that colour */
        for (;;) {
            int kind = MAN;
            if (*c == 'K') {
                kind = KING;
                c++;
            }
            int q = read_point(&c);
            if (q < 0)
                return fen_fail(err, errlen, "points are numbers 1..19");
            if ((p->men[0] | p->men[1] | p->kings[0] | p->kings[1]) & BIT(q))
                return fen_fail(err, errlen, "point %d given twice", q + 1);
            if (kind == KING)
                p->kings[side] |= BIT(q);
            else
                p->men[side] |= BIT(q);
            if (*c != ',')
                break;
            c++;
        }
    }
    if (*c)
        return fen_fail(err, errlen, "unexpected text after the piece lists");
    for (int side = 0; side < 2; side++) {
        const char *name = side == WHITE ? "white" : "black";
        if (util_popcount32(p->men[side] | p->kings[side]) > MAX_PIECES)
            return fen_fail(err, errlen, "%s has more than 6 pieces", name);
        if (p->men[side] & BIT(crown_point[side]))
            return fen_fail(err, errlen, "a %s man on %d would have been crowned", name,
                            crown_point[side] + 1);
    }
    int mover = p->stm ^ 1; /* the side that made the last move */
    if (!(p->men[mover] | p->kings[mover]))
        return fen_fail(err, errlen,
                        "the side that just moved cannot have no pieces");
    p->key = compute_key(p);
    return true;
}

static bool solomon_from_fen(Position *pos, const char *fen, const GameConfig *cfg,
                            char *err, size_t errlen)
{
    (void)cfg;
    return from_fen_rules(pos, fen, false, err, errlen);
}

static bool solomon_chain_from_fen(Position *pos, const char *fen, const GameConfig *cfg,
                           char *err, size_t errlen)
{
    (void)cfg;
    return from_fen_rules(pos, fen, true, err, errlen);
}

/* ---- diagram ------------------------------------------------------------ */

/* The star with its lines; every 'o' is a point, in the order 1..19. */
static const char *const star_rows[17] = {
    "                 o                 ",
    "               //|\\\\               ",
    "              /  |  \\              ",
    "            //   |   \\\\            ",
    "o----------o-----o-----o----------o",
    " \\''-_   //      |      \\\\   _-''/ ",
    "  \\\\  ''o__      |      __o''  //  ",
    "    \\ //   '--_  |  _--'   \\\\ /    ",
    "     o         --o--         o     ",
    "    / \\\\   _--'  |  '--_   // \\    ",
    "  //  __o''      |      ''o__  \\\\  ",
    " /__-'   \\\\      |      //   '-__\\ ",
    "o----------o-----o-----o----------o",
    "            \\\\   |   //            ",
    "              \\  |  /              ",
    "               \\\\|//               ",
    "                 o                 ",
};

static const char *const legend_rows[17] = {
    "          1",       "", "", "",
    "  2    3  4  5    6", "",
    "     7        8",   "",
    "   9     10     11", "",
    "     12      13",   "",
    " 14   15 16 17   18", "", "", "",
    "          19",
};

static void solomon_diagram(const Position *pos, char *buf, size_t size)
{
    const SolomonPos *p = cpos(pos);
    size_t w = 0;
    int point = 0;
    if (!size)
        return;
    buf[0] = '\0';
    for (int r = 0; r < 17; r++) {
        char line[64];
        size_t len = strlen(star_rows[r]);
        memcpy(line, star_rows[r], len + 1);
        for (size_t i = 0; i < len; i++)
            if (line[i] == 'o') {
                uint32_t b = BIT(point++);
                line[i] = (p->men[WHITE] & b)     ? 'w'
                          : (p->kings[WHITE] & b) ? 'W'
                          : (p->men[BLACK] & b)   ? 'b'
                          : (p->kings[BLACK] & b) ? 'B'
                                                  : '.';
            }
        int k = snprintf(buf + w, size - w, "  %s    %s\n", line, legend_rows[r]);
        if (k < 0 || (size_t)k >= size - w)
            return;
        w += (size_t)k;
    }
    snprintf(buf + w, size - w,
             "  w/b man, W/B king, . empty; White crowns on 1, Black on 19\n"
             "  %s to move (%s rules)\n",
             p->stm == WHITE ? "White" : "Black",
             p->chain ? "chain-capture" : "single-jump");
}

/* ---- evaluation --------------------------------------------------------- */

/* Centipawns, a man = 100.  Terms, each White minus Black, then turned to
 * the side to move's view:
 *   - material: man 100, king 170;
 *   - man mobility: 10 per free point a man could step to (a man that can
 *     still move is worth more than one wedged in; self-play at depth 6
 *     preferred this to any bonus for advancing men, which made the men run
 *     forward into capture);
 *   - king centralisation: 6 per line-neighbour of its point (3, 4 or 6)
 *     and 4 per empty neighbour (mobility);
 *   - palace guard: 12 for a man still on its own palace (it blocks the
 *     enemy's crowning point);
 *   - simplification: when ahead in material, 8 per piece missing from the
 *     board, so trades help the stronger side;
 *   - tempo: 8 for the side to move. */
static int solomon_evaluate(const Position *pos)
{
    const SolomonPos *p = cpos(pos);
    uint32_t occupied = p->men[0] | p->men[1] | p->kings[0] | p->kings[1];
    uint32_t empty = ~occupied & ALL_POINTS;
    int score[2] = {0, 0}, material[2] = {0, 0};
    for (int side = 0; side < 2; side++) {
        for (uint32_t b = p->men[side]; b; b &= b - 1) {
            int q = util_lsb64(b);
            material[side] += 100;
            score[side] += 10 * util_popcount32(step_mask[side][MAN][q] & empty);
            if (q == crown_point[side ^ 1])
                score[side] += 12;
        }
        for (uint32_t b = p->kings[side]; b; b &= b - 1) {
            int q = util_lsb64(b);
            material[side] += 170;
            score[side] += 6 * util_popcount32(neighbour_mask[q]) +
                           4 * util_popcount32(neighbour_mask[q] & empty);
        }
    }
    int v = material[WHITE] + score[WHITE] - material[BLACK] - score[BLACK];
    int lead = material[WHITE] - material[BLACK];
    int missing = 12 - util_popcount32(occupied);
    if (lead > 0)
        v += 8 * missing;
    else if (lead < 0)
        v -= 8 * missing;
    v = p->stm == WHITE ? v : -v;
    return v + 8;
}

/* ---- raw view for the endgame tables (solomon.h) ------------------------ */

void solomon_board_get(const Position *pos, SolomonBoard *board)
{
    const SolomonPos *p = cpos(pos);
    for (int side = 0; side < 2; side++) {
        board->men[side] = p->men[side];
        board->kings[side] = p->kings[side];
    }
    board->stm = p->stm;
}

void solomon_board_set(Position *pos, const SolomonBoard *board, bool chain)
{
    memset(pos, 0, sizeof(SolomonPos));
    SolomonPos *p = mpos(pos);
    for (int side = 0; side < 2; side++) {
        p->men[side] = board->men[side];
        p->kings[side] = board->kings[side];
    }
    p->stm = (uint8_t)board->stm;
    p->chain = chain;
    p->key = compute_key(p);
}

bool solomon_is_chain(const Position *pos) { return cpos(pos)->chain != 0; }

uint32_t solomon_step_targets(int side, int kind, int point)
{
    return step_mask[side][kind][point];
}

bool solomon_board_must_capture(const SolomonBoard *board)
{
    int s = board->stm;
    uint32_t enemy = board->men[s ^ 1] | board->kings[s ^ 1];
    uint32_t empty = ~(board->men[s] | board->kings[s] | enemy) & ALL_POINTS;
    return kind_can_jump(s, MAN, board->men[s], enemy, empty) ||
           kind_can_jump(s, KING, board->kings[s], enemy, empty);
}

/* ---- self-description (variant.h, BoardDesc) ---------------------------- */

/* x coordinate of points 1..19 in units of sqrt(3)/12 (doc/rules.md, Solomon: 0.866 is
 * 6 units, 0.577 is 4, 0.433 is 3, 0.289 is 2). */
static const int8_t point_x12[NPOINTS] = {0,  -6, -2, 0,  2, 6, -3, 3,  -4, 0,
                                          4,  -3, 3,  -6, -2, 0, 2, 6, 0};

/* The star of doc/rules.md (Solomon) drawn in a 2 x 2 square, y downwards (point 1 at
 * the top); the nine lines, the 36 adjacencies, the two palaces. */
static void solomon_describe_board(BoardDesc *b)
{
    b->layout = BOARD_LAYOUT_POINTS;
    b->width = 2.0;
    b->height = 2.0;
    b->ncells = NPOINTS;
    for (int q = 0; q < NPOINTS; q++) {
        BoardCell *c = &b->cells[q];
        snprintf(c->name, sizeof c->name, "%d", q + 1);
        c->x = 1.0 + point_x12[q] * 0.14433756729740644; /* sqrt(3) / 12 */
        c->y = 1.0 - point_y4[q] / 4.0;
        c->neighbours = neighbour_mask[q];
    }
    b->nlines = 9;
    for (int l = 0; l < 9; l++) {
        b->lines[l].length = 5;
        for (int i = 0; i < 5; i++)
            b->lines[l].cells[i] = (uint8_t)(board_lines[l][i] - 1);
    }
    b->nkinds = 2;
    b->kinds[MAN] = (PieceKind){"man", "man", "man", 0, {"", ""}};
    b->kinds[KING] = (PieceKind){"king", "king", "king", 0, {"K", "K"}};
    b->nregions = 2;
    b->regions[0] = (BoardRegion){"palace", "Black's palace: White's men are crowned here",
                                  WHITE, MAN, BIT(crown_point[WHITE])};
    b->regions[1] = (BoardRegion){"palace", "White's palace: Black's men are crowned here",
                                  BLACK, MAN, BIT(crown_point[BLACK])};
}

static void solomon_describe_position(const Position *pos, PositionInfo *out)
{
    const SolomonPos *p = cpos(pos);
    for (int side = 0; side < 2; side++)
        for (int kind = 0; kind < 2; kind++)
            for (uint32_t b = kind ? p->kings[side] : p->men[side]; b; b &= b - 1) {
                int q = util_lsb64(b);
                out->side[q] = (int8_t)side;
                out->kind[q] = (int8_t)kind;
            }
}

/* A step, or the jumps of the path notation prints (find_path): the landing
 * points in order and the point jumped over before each. */
static void solomon_describe_move(const Position *pos, Move m, MoveInfo *out)
{
    const SolomonPos *p = cpos(pos);
    int s = p->stm, from = move_from(m), to = move_to(m);
    uint32_t caps = move_caps(m);
    int kind = (p->kings[s] >> from) & 1;
    out->from = from;
    out->to = to;
    out->piece = kind;
    out->promotion = kind == MAN && to == crown_point[s] ? KING : -1;
    out->path[0] = (uint8_t)from;
    out->path_length = 1;
    if (!caps) {
        out->kind = MOVE_KIND_STEP;
        out->path[out->path_length++] = (uint8_t)to;
        return;
    }
    uint32_t occupied = p->men[0] | p->men[1] | p->kings[0] | p->kings[1];
    int path[NPOINTS + 1], len = 0;
    if (!find_path(s, kind, from, to, caps, ~occupied & ALL_POINTS, path, 0, &len))
        len = 0; /* not a move of this position */
    int cur = from;
    for (int i = 0; i < len; i++) {
        const Jump *t = jump_table[s][kind][cur];
        for (int j = 0, c = jump_count[s][kind][cur]; j < c; j++)
            if (t[j].land_idx == path[i] && (caps & t[j].over)) {
                out->captures[out->ncaptures++] = (uint8_t)util_lsb64(t[j].over);
                break;
            }
        out->path[out->path_length++] = (uint8_t)path[i];
        cur = path[i];
    }
    out->kind = len > 1 ? MOVE_KIND_CHAIN : MOVE_KIND_JUMP;
}

/* ---- refusal reasons (query why; engine/refusal.h) ----------------------- */

/* The points of mask as "3, 7 or 9". */
static void point_list(uint32_t mask, char *out, size_t size)
{
    size_t len = 0;
    int n = util_popcount32(mask), i = 0;
    out[0] = '\0';
    for (uint32_t b = mask; b && len < size; b &= b - 1, i++)
        len += (size_t)snprintf(out + len, size - len, "%s%d",
                                i == 0 ? "" : i == n - 1 ? " or " : ", ", util_lsb64(b) + 1);
}

typedef struct SolomonKeep {
    int from;       /* -1: any */
    uint32_t caps;  /* captures the move must include */
    bool captures;  /* only captures */
} SolomonKeep;

static bool solomon_keep(const Position *pos, Move m, const void *ctx)
{
    (void)pos;
    const SolomonKeep *k = ctx;
    return (k->from < 0 || move_from(m) == k->from) && (move_caps(m) & k->caps) == k->caps &&
           (!k->captures || move_caps(m));
}

/* The points a legal move starts from. */
static uint32_t movable_points(const Position *pos)
{
    Move moves[MAX_MOVES];
    int n = solomon_generate(pos, moves);
    uint32_t from = 0;
    for (int i = 0; i < n; i++)
        from |= BIT(move_from(moves[i]));
    return from;
}

/* Is there a line on which b follows a, and c follows b?  (Any direction.) */
static bool on_a_line(int a, int b, int c)
{
    for (int l = 0; l < 9; l++)
        for (int i = 0; i + 2 < 5; i++)
            for (int dir = 0; dir < 2; dir++) {
                int x = board_lines[l][dir ? 4 - i : i] - 1;
                int y = board_lines[l][dir ? 3 - i : i + 1] - 1;
                int z = board_lines[l][dir ? 2 - i : i + 2] - 1;
                if (x == a && y == b && (c < 0 || z == c))
                    return true;
            }
    return false;
}

/* What solomon_refusal knows of the move it is reading and of the board. */
enum { REFUSAL_MAX_PATH = NPOINTS + 1 };
typedef struct {
    const Position *pos;
    const SolomonPos *p;
    const char *text;
    int s, kind, from;
    const char *me, *you, *piece;
    int pts[REFUSAL_MAX_PATH], npts;
    char sep;
    uint32_t own, enemy, empty;
} SolomonRefusal;

/* Reads text as points joined by '-' or 'x'; false unless it is one whole path with one
 * kind of joint. */
static bool read_refused_path(SolomonRefusal *r)
{
    bool mixed = false;
    const char *c = r->text;
    r->npts = 0;
    r->sep = 0;
    for (;;) {
        int v = r->npts < REFUSAL_MAX_PATH ? read_point(&c) : -1;
        if (v < 0) {
            r->npts = -1;
            break;
        }
        r->pts[r->npts++] = v;
        if (*c != '-' && *c != 'x')
            break;
        if (r->sep && r->sep != *c)
            mixed = true;
        r->sep = *c++;
    }
    return r->npts >= 1 && !*c && !mixed;
}

/* The move does not start on one of the mover's pieces. */
static bool refuse_not_own(const SolomonRefusal *r, char *buf, size_t size)
{
    char list[REFUSAL_LIST];
    if (r->own & BIT(r->from))
        return false;
    point_list(movable_points(r->pos), list, sizeof list);
    if (r->enemy & BIT(r->from))
        snprintf(buf, size, "that is %s's piece; %s is to move (%s's pieces that can move "
                            "stand on %s)", r->you, r->me, r->me, list);
    else
        snprintf(buf, size, "no piece there: %d is empty (%s's pieces that can move stand "
                            "on %s)", r->from + 1, r->me, list);
    return true;
}

/* A lone point: no legal move starts from it. */
static void refuse_lone_point(const SolomonRefusal *r, int ncaptures, const char *captures,
                              char *buf, size_t size)
{
    char list[REFUSAL_LIST];
    point_list(movable_points(r->pos), list, sizeof list);
    if (ncaptures)
        snprintf(buf, size, "a capture is compulsory and the %s on %d cannot take: %s",
                 r->piece, r->from + 1, captures);
    else
        snprintf(buf, size, "the %s on %d has no legal move (%s's pieces that can move "
                            "stand on %s)", r->piece, r->from + 1, r->me, list);
}

/* A step, from-to. */
static bool refuse_step(const SolomonRefusal *r, int ncaptures, const char *captures,
                        char *buf, size_t size)
{
    int from = r->from, to = r->pts[1];
    if (r->npts > 2)
        snprintf(buf, size, "a step goes to one neighbouring point: write it as two "
                            "points, %d-%d", from + 1, to + 1);
    else if (!(neighbour_mask[from] & BIT(to)))
        snprintf(buf, size, "%d and %d are not neighbours on a line: a step goes to the "
                            "next point along a line", from + 1, to + 1);
    else if (!(step_mask[r->s][r->kind][from] & BIT(to)))
        snprintf(buf, size, "a man goes only forward or sideways (sideways only along the "
                            "two horizontal lines), never back; only a king may step from "
                            "%d to %d", from + 1, to + 1);
    else if (!(r->empty & BIT(to)))
        snprintf(buf, size, "%d is occupied: a step goes to an empty point", to + 1);
    else if (ncaptures)
        snprintf(buf, size, "a capture is compulsory: %s", captures);
    else
        return false;
    return true;
}

/* Before jump i of a path: does the move have to stop where it stands (cur)? */
static bool refuse_jump_stop(const SolomonRefusal *r, int i, int cur, char *buf, size_t size)
{
    if (r->kind == MAN && cur == crown_point[r->s]) {
        snprintf(buf, size, "crowning ends the move: the man is crowned on %d and stops "
                            "there, even where it could jump on; play %d",
                 cur + 1, r->from + 1);
        for (int j = 1; j < i; j++)
            snprintf(buf + strlen(buf), size - strlen(buf), "x%d", r->pts[j] + 1);
        return true;
    }
    if (i == 2 && !r->p->chain) {
        snprintf(buf, size, "in Solomon's Game a piece jumps once per move (chains are "
                            "Salomon's, solomon-chain): play %dx%d", r->from + 1, r->pts[1] + 1);
        return true;
    }
    return false;
}

/* One jump cur x to, with caps already taken; sets *over to the point jumped. */
static bool refuse_jump_wrong(const SolomonRefusal *r, int cur, int to, uint32_t caps,
                              int *over_out, char *buf, size_t size)
{
    int over = -1;
    for (uint32_t o = neighbour_mask[cur]; o; o &= o - 1)
        if (on_a_line(cur, util_lsb64(o), to))
            over = util_lsb64(o);
    *over_out = over;
    if (over < 0)
        snprintf(buf, size, "%dx%d is no jump: a jump goes over a neighbouring piece to the "
                            "point right behind it on the same line", cur + 1, to + 1);
    else if (!(jump_over_mask[r->s][r->kind][cur] & BIT(over)))
        snprintf(buf, size, "a man never goes back, neither stepping nor jumping; only a "
                            "king may jump from %d to %d", cur + 1, to + 1);
    else if (caps & BIT(over))
        snprintf(buf, size, "the piece on %d was already taken in this chain: a piece is "
                            "jumped only once", over + 1);
    else if (r->own & BIT(over))
        snprintf(buf, size, "a piece never jumps its own pieces: %d is %s's", over + 1, r->me);
    else if (!(r->enemy & BIT(over)))
        snprintf(buf, size, "there is no piece on %d to jump over", over + 1);
    else if (!(r->empty & BIT(to)) && to != r->from)
        snprintf(buf, size, "%d is occupied: a jump lands on the empty point behind the "
                            "piece it takes", to + 1);
    else
        return false;
    return true;
}

/* A whole jump path that replayed cleanly, taking caps: is it complete and unambiguous? */
static bool refuse_chain_incomplete(const SolomonRefusal *r, uint32_t caps, char *buf,
                                    size_t size)
{
    char list[REFUSAL_LIST];
    SolomonKeep on = {r->from, caps, true};
    if (r->p->chain && refusal_list(solomon_generate, solomon_move_str, r->pos, solomon_keep,
                                    &on, list, sizeof list) > 0) {
        snprintf(buf, size, "the capture must go on: a piece that can jump again must, to the "
                            "end of the chain: %s", list);
        return true;
    }
    if (r->npts == 2) { /* from x to that names several chains */
        SolomonKeep any = {r->from, 0, true};
        refusal_list(solomon_generate, solomon_move_str, r->pos, solomon_keep, &any, list,
                     sizeof list);
        snprintf(buf, size, "%dx%d names more than one chain: write the whole path: %s",
                 r->from + 1, r->pts[1] + 1, list);
        return true;
    }
    return false;
}

/* A jump or a chain: replay it jump by jump (r's board sets change as it goes). */
static bool refuse_jump(SolomonRefusal *r, char *buf, size_t size)
{
    int cur = r->from;
    uint32_t caps = 0;
    for (int i = 1; i < r->npts; i++) {
        int to = r->pts[i], over;
        if (refuse_jump_stop(r, i, cur, buf, size) ||
            refuse_jump_wrong(r, cur, to, caps, &over, buf, size))
            return true;
        caps |= BIT(over);
        r->enemy &= ~BIT(over);
        r->empty = (r->empty | BIT(cur) | BIT(over)) & ~BIT(to);
        cur = to;
    }
    return refuse_chain_incomplete(r, caps, buf, size);
}

static bool solomon_refusal(const Position *pos, const char *text, char *buf, size_t size)
{
    SolomonRefusal r = {.pos = pos, .p = cpos(pos), .text = text};
    int s = r.s = r.p->stm;
    r.me = s == WHITE ? "White" : "Black";
    r.you = s == WHITE ? "Black" : "White";
    if (!read_refused_path(&r)) {
        snprintf(buf, size, "'%s' is not a move: write a step as two points joined by '-' "
                            "(14-9), a jump as its points joined by 'x' (14x10%s), points 1 to 19",
                 text, r.p->chain ? ", a chain 14x10x2" : "");
        return true;
    }
    r.own = r.p->men[s] | r.p->kings[s];
    r.enemy = r.p->men[s ^ 1] | r.p->kings[s ^ 1];
    r.empty = ~(r.own | r.enemy) & ALL_POINTS;
    r.from = r.pts[0];
    if (refuse_not_own(&r, buf, size))
        return true;
    SolomonKeep caps_only = {-1, 0, true};
    char captures[REFUSAL_LIST];
    int ncaptures = refusal_list(solomon_generate, solomon_move_str, pos, solomon_keep,
                                 &caps_only, captures, sizeof captures);
    r.kind = (r.p->kings[s] >> r.from) & 1;
    r.piece = r.kind == KING ? "king" : "man";
    if (r.npts == 1) {
        refuse_lone_point(&r, ncaptures, captures, buf, size);
        return true;
    }
    if (r.sep == '-')
        return refuse_step(&r, ncaptures, captures, buf, size);
    return refuse_jump(&r, buf, size);
}

/* ---- variant table (the two rule sets) ---------------------------------- */

/* Moves still to come (time allocation): three per piece on the board, the
 * median of self-play games (doc/search.md). */
static int solomon_plies_left(const Position *pos)
{
    const SolomonPos *p = cpos(pos);
    int pieces = util_popcount64((uint64_t)(p->men[WHITE] | p->kings[WHITE]) |
                                 (uint64_t)(p->men[BLACK] | p->kings[BLACK]) << 32);
    return 3 * pieces + 3;
}

/* The bench positions after the start position (engine/bench.c), of each
 * rule set: the positions a seeded random playout reached after 8, 15 and 24
 * plies. */
static const char *const solomon_bench_fens[] = {
    "W:W13,16,17,19:B1,5,6,9",
    "B:W7,19:B1,5,16",
    "W:W9:B10",
    NULL,
};
static const char *const solomon_chain_bench_fens[] = {
    "W:W13,16,17,19:B1,5,6,9",
    "B:W15:B3,5,9,14",
    NULL,
};

/* The two tables differ in their names, their bench and the two functions
 * that set the rule set up (a position carries its rule set from then on). */
#define SOLOMON_VARIANT(NAME, TITLE, RULES, BENCH_DEPTH)                          \
    {                                                                             \
        .name = NAME,                                                             \
        .title = TITLE,                                                           \
        .repetition_draws = true,                                                 \
        .position_size = sizeof(SolomonPos),                                      \
        .rule_options = 0,                                                        \
        .match_scoring = MATCH_SCORING_GAMES,                                     \
        .match_games = 1,                                                         \
        .bench_depth = BENCH_DEPTH,                                               \
        .bench_fens = RULES##_bench_fens,                                         \
        .init = solomon_init,                                                     \
        .startpos = RULES##_startpos,                                             \
        .from_fen = RULES##_from_fen,                                             \
        .to_fen = solomon_to_fen,                                                 \
        .side_to_move = solomon_side_to_move,                                     \
        .is_chance = NULL,                                                        \
        .generate = solomon_generate,                                             \
        .count_moves = solomon_count_moves,                                       \
        .make = solomon_make,                                                     \
        .result = solomon_result,                                                 \
        .key = solomon_key,                                                       \
        .move_str = solomon_move_str,                                             \
        .parse_move = solomon_parse_move,                                         \
        .diagram = solomon_diagram,                                               \
        .describe = NULL,                                                         \
        .evaluate = solomon_evaluate,                                             \
        .is_noisy = solomon_is_noisy,                                             \
        .eval_is_exact = NULL,                                                    \
        .plies_left = solomon_plies_left,                                         \
        .perft = solomon_perft,                                                   \
        .describe_board = solomon_describe_board,                                 \
        .describe_position = solomon_describe_position,                           \
        .describe_move = solomon_describe_move,                                   \
        .refusal = solomon_refusal,                                               \
        .tablebase = &solomon_tablebase_ops,                                      \
    }

const Variant variant_solomon =
    SOLOMON_VARIANT("solomon", "Solomon's Game (Gardner): single jumps, bare kings draw", solomon,
                    14);
const Variant variant_solomon_chain =
    SOLOMON_VARIANT("solomon-chain", "Salomon: Solomon's Game with compulsory chain captures",
                    solomon_chain, 13);
