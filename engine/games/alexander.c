/* alexander.c - "Alexander the Great" (doc/rules.md, Alexander), a 6x6 dice game.
 *
 * Board: 36 squares in a uint64_t bitboard, bit = rank * 6 + file with a1 = 0,
 * f1 = 5, a2 = 6, ..., f6 = 35.  A turn is two plies: a chance node (the roll,
 * 36 equally likely squares) and a decision node (the action for the pending
 * roll).  The side to move is the side rolling / acting.
 *
 * Move codes (never 0):
 *   roll    MOVE_ROLL   | T                       text "c4"
 *   action  MOVE_ACTION | from | to << 6 [| MOVE_CAPTURE]   text "a1c4"
 * For an action either to == T (a piece moves onto the rolled square, which
 * is empty or holds an enemy piece) or from == T (the own piece on T flies to
 * the enemy piece on `to`).
 *
 * Evaluation is exact: see alexander.h and the DP in build_values().
 */
#define _POSIX_C_SOURCE 200809L
#include "alexander.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../refusal.h"
#include "../util.h"
#include "../variant.h"
#include "fen.h"

/* ---- layout ------------------------------------------------------------- */

enum { FILES = 6, RANKS = 6, SQUARES = 36, NO_ROLL = -1 };

#define MOVE_ROLL    (UINT64_C(1) << 12)
#define MOVE_ACTION  (UINT64_C(1) << 13)
#define MOVE_CAPTURE (UINT64_C(1) << 14)
/* Bits 0..5: the rolled cell of a roll, the start of an action; 6..11 its end. */
static inline int move_from(Move m) { return (int)(m & 63); }
static inline int move_to(Move m) { return (int)(m >> 6 & 63); }

typedef struct GAME_POSITION AlexanderPos {
    uint64_t men[2];      /* bitboards of White's and Black's pieces */
    uint64_t key;         /* Zobrist key, kept incrementally by make() */
    int8_t side;          /* WHITE or BLACK: the side rolling / acting */
    int8_t roll;          /* the pending rolled square, NO_ROLL when a roll is due */
    uint8_t captures[2];  /* enemy pieces captured so far by White, Black */
} AlexanderPos;
GAME_POSITION_TYPE(AlexanderPos);

static inline uint64_t bit(int sq) { return UINT64_C(1) << sq; }

/* ---- board -------------------------------------------------------------- */

/* Captures are bounded by 36: white + black + captures of both is invariant
 * under play and at most 36 (from_fen checks it). */
static uint64_t zobrist_piece[2][SQUARES];
static uint64_t zobrist_black_to_move;
static uint64_t zobrist_roll[SQUARES];
static uint64_t zobrist_captures[2][SQUARES + 1];

/* Exact chance values by counts: win_white[r][a][b] = P(White wins) and
 * diff[r][a][b] = E[a_final - b_final] with a White and b Black pieces on the
 * board and side r about to roll (a + b <= 36, not both zero). */
static long double win_white[2][SQUARES + 1][SQUARES + 1];
static long double diff[2][SQUARES + 1][SQUARES + 1];

/* The DP over the counts.  A turn captures with probability p = (a + b) / 36
 * whatever the roller does: an enemy square is captured by the piece moved
 * onto it, an own square's piece flies to capture, an empty square captures
 * nothing.  With X = value after White captures (a, b-1, Black to roll) and
 * Y = value after Black captures (a-1, b, White to roll):
 *   V_W = p X + (1-p) V_B,   V_B = p Y + (1-p) V_W
 * whose solution, after dividing by 1 - (1-p)^2 = p (2 - p), is
 *   V_W = (X + (1-p) Y) / (2-p),   V_B = (Y + (1-p) X) / (2-p),
 * convex combinations (weights 1/(2-p) and (1-p)/(2-p)), so the long double
 * sums stay accurate to ~1e-18.  Both X and Y have fewer pieces, so filling
 * by increasing a + b is enough. */
static void build_values(void)
{
    for (int n = 1; n <= SQUARES; n++) {
        for (int a = 0; a <= n; a++) {
            int b = n - a;
            for (int r = 0; r < 2; r++) {
                if (b == 0) {
                    win_white[r][a][b] = 1.0L;
                    diff[r][a][b] = a;
                } else if (a == 0) {
                    win_white[r][a][b] = 0.0L;
                    diff[r][a][b] = -b;
                }
            }
            if (a == 0 || b == 0)
                continue;
            long double p = (long double)n / SQUARES;
            long double stay = (1.0L - p) / (2.0L - p), go = 1.0L / (2.0L - p);
            long double xw = win_white[BLACK][a][b - 1], yw = win_white[WHITE][a - 1][b];
            long double xd = diff[BLACK][a][b - 1], yd = diff[WHITE][a - 1][b];
            win_white[WHITE][a][b] = go * xw + stay * yw;
            win_white[BLACK][a][b] = go * yw + stay * xw;
            diff[WHITE][a][b] = go * xd + stay * yd;
            diff[BLACK][a][b] = go * yd + stay * xd;
        }
    }
}

static void build_tables(void)
{
    uint64_t seed = 0xA1E7A4DE5ULL; /* fixed: keys are the same every run */
    for (int c = 0; c < 2; c++)
        for (int s = 0; s < SQUARES; s++)
            zobrist_piece[c][s] = util_splitmix64(&seed);
    zobrist_black_to_move = util_splitmix64(&seed);
    for (int s = 0; s < SQUARES; s++)
        zobrist_roll[s] = util_splitmix64(&seed);
    for (int c = 0; c < 2; c++)
        for (int k = 0; k <= SQUARES; k++)
            zobrist_captures[c][k] = util_splitmix64(&seed);
    build_values();
}

static pthread_once_t tables_once = PTHREAD_ONCE_INIT;
static void ensure_tables(void) { pthread_once(&tables_once, build_tables); }

static void alexander_init(void) { ensure_tables(); }

static uint64_t key_from_scratch(const AlexanderPos *p)
{
    uint64_t k = 0;
    for (int c = 0; c < 2; c++)
        for (uint64_t m = p->men[c]; m; m &= m - 1)
            k ^= zobrist_piece[c][util_lsb64(m)];
    if (p->side == BLACK)
        k ^= zobrist_black_to_move;
    if (p->roll != NO_ROLL)
        k ^= zobrist_roll[p->roll];
    k ^= zobrist_captures[WHITE][p->captures[WHITE]] ^ zobrist_captures[BLACK][p->captures[BLACK]];
    return k;
}

/* ---- board: exact values ------------------------------------------------ */

long double alexander_count_white_wins(int white, int black, int roller)
{
    ensure_tables();
    return win_white[roller != WHITE][white][black];
}

long double alexander_count_piece_difference(int white, int black, int roller)
{
    ensure_tables();
    return diff[roller != WHITE][white][black];
}

/* White's view.  The signed final margin is
 *   (cw_final - cb_final) = (cw - cb) + (b - a) + (a_final - b_final)
 * because every capture moves one piece from a board count into a capture
 * count; (cw - cb) + (b - a) is invariant under play.  A pending roll fixes
 * the count transition of the current turn (capture iff T is occupied), so
 * its value is the chance value one turn later. */
void alexander_white_values(const Position *pos, long double *white_wins,
                            long double *white_margin)
{
    ensure_tables();
    const AlexanderPos *p = cpos(pos);
    int a = util_popcount64(p->men[WHITE]), b = util_popcount64(p->men[BLACK]);
    long double invariant = (long double)p->captures[WHITE] - p->captures[BLACK] + b - a;
    int roller = p->side;
    if (p->roll != NO_ROLL && a > 0 && b > 0) {
        if ((p->men[WHITE] | p->men[BLACK]) & bit(p->roll)) {
            if (p->side == WHITE)
                b--;
            else
                a--;
        }
        roller = !p->side;
    }
    if (white_wins)
        *white_wins = win_white[roller][a][b];
    if (white_margin)
        *white_margin = invariant + diff[roller][a][b];
}

double alexander_win_probability(const Position *pos)
{
    long double w;
    alexander_white_values(pos, &w, NULL);
    return (double)(cpos(pos)->side == WHITE ? w : 1.0L - w);
}

double alexander_expected_margin(const Position *pos)
{
    long double m;
    alexander_white_values(pos, NULL, &m);
    return (double)(cpos(pos)->side == WHITE ? m : -m);
}

/* ---- rules -------------------------------------------------------------- */

static void alexander_startpos(Position *pos, const GameConfig *cfg)
{
    (void)cfg;
    ensure_tables();
    memset(pos, 0, sizeof *pos);
    AlexanderPos *p = mpos(pos);
    p->men[WHITE] = (UINT64_C(1) << 12) - 1;          /* a1-f2 */
    p->men[BLACK] = ((UINT64_C(1) << 12) - 1) << 24;  /* a5-f6 */
    p->side = WHITE;
    p->roll = NO_ROLL;
    p->key = key_from_scratch(p);
}

static int alexander_side_to_move(const Position *pos) { return cpos(pos)->side; }

static bool alexander_is_chance(const Position *pos) { return cpos(pos)->roll == NO_ROLL; }

static bool game_over(const AlexanderPos *p) { return !p->men[WHITE] || !p->men[BLACK]; }

/* Chance node: the 36 rolls in square order a1, b1, ..., f1, a2, ..., f6.
 * Decision node: rolled square T holds an own piece -> T flies to each enemy
 * piece (targets in square order); otherwise each own piece (in square order)
 * moves onto T, capturing when T holds an enemy piece. */
static int alexander_generate(const Position *pos, Move *moves)
{
    const AlexanderPos *p = cpos(pos);
    if (game_over(p))
        return 0;
    int n = 0;
    if (p->roll == NO_ROLL) {
        for (int s = 0; s < SQUARES; s++)
            moves[n++] = MOVE_ROLL | (Move)s;
        return n;
    }
    uint64_t own = p->men[p->side], enemy = p->men[!p->side];
    Move t = (Move)p->roll;
    if (own & bit(p->roll)) {
        for (uint64_t m = enemy; m; m &= m - 1)
            moves[n++] = MOVE_ACTION | MOVE_CAPTURE | t | (Move)util_lsb64(m) << 6;
    } else {
        Move base = MOVE_ACTION | t << 6 | ((enemy & bit(p->roll)) ? MOVE_CAPTURE : 0);
        for (uint64_t m = own; m; m &= m - 1)
            moves[n++] = base | (Move)util_lsb64(m);
    }
    return n;
}

/* How many moves alexander_generate() returns: 36 rolls at a chance node;
 * one action per enemy piece (the own piece on the rolled square flies) or
 * per own piece (otherwise) at a decision node. */
static int count_moves(const AlexanderPos *p)
{
    if (game_over(p))
        return 0;
    if (p->roll == NO_ROLL)
        return SQUARES;
    uint64_t own = p->men[p->side], enemy = p->men[!p->side];
    return util_popcount64((own & bit(p->roll)) ? enemy : own);
}

static int alexander_count_moves(const Position *pos) { return count_moves(cpos(pos)); }

static void alexander_make(const Position *pos, Move m, Position *out)
{
    const AlexanderPos *p = cpos(pos);
    AlexanderPos *q = mpos(out);
    *q = *p;
    if (m & MOVE_ROLL) {
        int t = move_from(m);
        q->roll = (int8_t)t;
        q->key ^= zobrist_roll[t];
        return;
    }
    int from = move_from(m), to = move_to(m), s = p->side, e = !s;
    if (q->men[e] & bit(to)) {
        q->men[e] ^= bit(to);
        q->key ^= zobrist_piece[e][to] ^ zobrist_captures[s][q->captures[s]];
        q->captures[s]++;
        q->key ^= zobrist_captures[s][q->captures[s]];
    }
    q->men[s] ^= bit(from) | bit(to);
    q->key ^= zobrist_piece[s][from] ^ zobrist_piece[s][to] ^ zobrist_roll[p->roll] ^
              zobrist_black_to_move;
    q->roll = NO_ROLL;
    q->side = (int8_t)e;
}

static Result alexander_result(const Position *pos, int *margin, const char **reason)
{
    const AlexanderPos *p = cpos(pos);
    if (margin)
        *margin = 0;
    if (reason)
        *reason = "";
    if (!game_over(p))
        return RESULT_NONE;
    int winner = p->men[WHITE] ? WHITE : BLACK;
    if (margin)
        *margin = (int)p->captures[winner] - (int)p->captures[!winner];
    if (reason)
        *reason = "all enemy pieces captured";
    return winner == WHITE ? RESULT_WHITE_WINS : RESULT_BLACK_WINS;
}

static uint64_t alexander_key(const Position *pos) { return cpos(pos)->key; }

/* ---- perft -------------------------------------------------------------- */

/* The last ply counted from the bitboards (count_moves), the last two in
 * closed form: with a own and b enemy pieces, the 36 rolls of a chance node
 * are followed by b flights (a rolled own square, a of them) or a entries
 * (the other 36 - a squares); a decision node's actions are each followed
 * by 36 rolls, unless they capture the last enemy piece (b = 1 and the
 * rolled square is occupied: every action captures). */
static uint64_t perft_walk(const AlexanderPos *p, int depth)
{
    if (depth == 1)
        return (uint64_t)count_moves(p);
    if (game_over(p))
        return 0;
    uint64_t own = p->men[p->side], enemy = p->men[!p->side];
    uint64_t a = (uint64_t)util_popcount64(own), b = (uint64_t)util_popcount64(enemy);
    if (p->roll == NO_ROLL) {
        if (depth == 2)
            return a * b + (SQUARES - a) * a;
        uint64_t total = 0;
        AlexanderPos c = *p;
        for (int s = 0; s < SQUARES; s++) {
            c.roll = (int8_t)s; /* the key is irrelevant to counting */
            total += perft_walk(&c, depth - 1);
        }
        return total;
    }
    if (depth == 2)
        return b == 1 && ((own | enemy) & bit(p->roll)) ? 0
                                                        : (uint64_t)count_moves(p) * SQUARES;
    uint64_t total = 0;
    Position child;
    Position parent;
    *mpos(&parent) = *p;
    Move moves[MAX_MOVES];
    int n = alexander_generate(&parent, moves);
    for (int i = 0; i < n; i++) {
        alexander_make(&parent, moves[i], &child);
        total += perft_walk(cpos(&child), depth - 1);
    }
    return total;
}

static uint64_t alexander_perft(const Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    return perft_walk(cpos(pos), depth);
}

/* ---- notation ----------------------------------------------------------- */

static char *put_square(char *b, int sq)
{
    b[0] = (char)('a' + sq % FILES);
    b[1] = (char)('1' + sq / FILES);
    return b + 2;
}

static void alexander_move_str(const Position *pos, Move m, char *buf)
{
    (void)pos;
    char *b = buf;
    int from = move_from(m), to = move_to(m);
    if (m == MOVE_NONE || from >= SQUARES || to >= SQUARES) {
        strcpy(buf, "0000");
        return;
    }
    b = put_square(b, from);
    if (!(m & MOVE_ROLL))
        b = put_square(b, to);
    *b = '\0';
}

static Move alexander_parse_move(const Position *pos, const char *text)
{
    if (!text)
        return MOVE_NONE;
    size_t len = strnlen(text, 8);
    if (len != 2 && len != 4)
        return MOVE_NONE;
    Move moves[MAX_MOVES];
    char buf[MOVE_STR_MAX];
    int n = alexander_generate(pos, moves);
    for (int i = 0; i < n; i++) {
        alexander_move_str(pos, moves[i], buf);
        if (strcmp(buf, text) == 0)
            return moves[i];
    }
    return MOVE_NONE;
}

/* ---- refusal reasons (query why; engine/refusal.h) ----------------------- */

static bool alexander_refusal(const Position *pos, const char *text, char *buf, size_t size)
{
    const AlexanderPos *p = cpos(pos);
    int s = p->side;
    const char *me = s == WHITE ? "White" : "Black", *you = s == WHITE ? "Black" : "White";
    char list[REFUSAL_LIST], rolled[3] = {0};
    size_t len = strlen(text);
    bool shape = len == 2 || len == 4;
    int sq[2] = {-1, -1};
    for (size_t i = 0; shape && i < len; i += 2) {
        shape = text[i] >= 'a' && text[i] < 'a' + FILES && text[i + 1] >= '1' &&
                text[i + 1] < '1' + RANKS;
        if (shape)
            sq[i / 2] = (text[i + 1] - '1') * FILES + (text[i] - 'a');
    }
    if (!shape) {
        snprintf(buf, size, "'%s' is not a move: an action is its start and end squares (a1c4), "
                            "files a to f, ranks 1 to 6", text);
        return true;
    }
    if (p->roll == NO_ROLL)
        return false; /* the core says a roll is due */
    put_square(rolled, p->roll);
    refusal_list(alexander_generate, alexander_move_str, pos, NULL, NULL, list, sizeof list);
    uint64_t own = p->men[s], enemy = p->men[!s];
    bool flight = own & bit(p->roll);
    if (len == 2 && sq[0] == p->roll)
        snprintf(buf, size, "the dice are thrown and named %s: now %s acts: %s", rolled, me,
                 list);
    else if (flight && sq[0] != p->roll)
        snprintf(buf, size, "the dice named %s, where %s's own piece stands: that piece flies "
                            "to capture an enemy piece and no other moves: %s",
                 rolled, me, list);
    else if (flight)
        snprintf(buf, size, "a flying piece comes down on an enemy piece, and %.2s %s: %s",
                 text + 2, !(own & bit(sq[1])) ? "is empty"
                           : s == WHITE        ? "holds White's own piece"
                                               : "holds Black's own piece",
                 list);
    else if (enemy & bit(sq[0]))
        snprintf(buf, size, "that is %s's piece; %s is to move: %s", you, me, list);
    else if (!(own & bit(sq[0])))
        snprintf(buf, size, "no piece there: %.2s is empty; the dice named %s and %s moves a "
                            "piece onto it: %s", text, rolled, me, list);
    else
        snprintf(buf, size, "the dice named %s: a piece must move onto %s (%s): %s", rolled,
                 rolled, (enemy & bit(p->roll)) ? "capturing the enemy piece there"
                                                : "an empty square",
                 list);
    return true;
}

/* ---- FEN ---------------------------------------------------------------- */

/* Ranks 6 down to 1 separated by '/', 'w' and 'b' pieces, digits 1-6 for runs
 * of empty squares; then the side to move (w|b), the pending roll (- or a
 * square), White's captures, Black's captures.  Example (the start):
 *   bbbbbb/bbbbbb/6/6/wwwwww/wwwwww w - 0 0 */
static int write_cell(const void *ctx, int rank, int file, char *out)
{
    const AlexanderPos *p = ctx;
    uint64_t b = bit(rank * FILES + file);
    if (!((p->men[WHITE] | p->men[BLACK]) & b))
        return 0;
    out[0] = p->men[WHITE] & b ? 'w' : 'b';
    return 1;
}

static void alexander_to_fen(const Position *pos, char *buf)
{
    const AlexanderPos *p = cpos(pos);
    char *b = fen_write_board(buf, RANKS, FILES, write_cell, p);
    *b++ = ' ';
    *b++ = p->side == WHITE ? 'w' : 'b';
    *b++ = ' ';
    if (p->roll == NO_ROLL)
        *b++ = '-';
    else
        b = put_square(b, p->roll);
    snprintf(b, (size_t)(FEN_MAX - (b - buf)), " %d %d", p->captures[WHITE], p->captures[BLACK]);
}

static int read_cell(void *ctx, int rank, int file, const char *text, char *err,
                     size_t errlen)
{
    (void)err, (void)errlen;
    AlexanderPos *p = ctx;
    if (*text != 'w' && *text != 'b')
        return 0;
    p->men[*text == 'w' ? WHITE : BLACK] |= bit(rank * FILES + file);
    return 1;
}

static bool parse_square(const char *t, int *sq)
{
    if (t[0] < 'a' || t[0] > 'f' || t[1] < '1' || t[1] > '6' || t[2])
        return false;
    *sq = (t[1] - '1') * FILES + (t[0] - 'a');
    return true;
}

static bool alexander_from_fen(Position *pos, const char *fen, const GameConfig *cfg,
                          char *err, size_t errlen)
{
    (void)cfg;
    ensure_tables();
    FenFields f;
    if (!fen_split(fen, 2, 5, "board side roll white-captures black-captures", &f, err,
                   errlen))
        return false;
    memset(pos, 0, sizeof *pos);
    AlexanderPos *p = mpos(pos);
    p->roll = NO_ROLL;
    if (!fen_read_board(f.field[0], RANKS, FILES, read_cell, p, err, errlen))
        return false;
    int side = fen_side(f.field[1]);
    if (side < 0)
        return fen_fail(err, errlen, "side to move must be w or b");
    p->side = (int8_t)side;

    if (f.count > 2 && strcmp(f.field[2], "-") != 0) {
        int sq;
        if (!parse_square(f.field[2], &sq))
            return fen_fail(err, errlen, "roll field must be - or a square a1-f6");
        p->roll = (int8_t)sq;
    }

    int counts[2] = {0, 0};
    if (f.count == 4)
        return fen_fail(err, errlen, "Black's captures missing after White's");
    for (int s = 0; f.count == 5 && s < 2; s++)
        if (!fen_number(f.field[3 + s], 0, SQUARES, &counts[s]))
            return fen_fail(err, errlen, "%s captures must be a number 0-36",
                            s == WHITE ? "White's" : "Black's");

    int a = util_popcount64(p->men[WHITE]), b = util_popcount64(p->men[BLACK]);
    if (a == 0 && b == 0)
        return fen_fail(err, errlen, "no pieces on the board");
    /* Each capture removed a piece that stood on one of the 36 squares at
     * the start of the game, so pieces + captures cannot exceed 36. */
    if (a + b + counts[WHITE] + counts[BLACK] > SQUARES)
        return fen_fail(err, errlen, "pieces plus captures exceed 36");
    if (p->roll != NO_ROLL && (a == 0 || b == 0))
        return fen_fail(err, errlen, "a roll is pending but the game is over");
    p->captures[WHITE] = (uint8_t)counts[WHITE];
    p->captures[BLACK] = (uint8_t)counts[BLACK];
    p->key = key_from_scratch(p);
    return true;
}

/* ---- diagram ------------------------------------------------------------ */

static void alexander_diagram(const Position *pos, char *buf, size_t size)
{
    const AlexanderPos *p = cpos(pos);
    size_t used = 0;
#define OUT(...)                                                          \
    do {                                                                  \
        if (used < size) {                                                \
            int w_ = snprintf(buf + used, size - used, __VA_ARGS__);      \
            if (w_ > 0)                                                   \
                used += (size_t)w_;                                       \
        }                                                                 \
    } while (0)
    if (size)
        buf[0] = '\0';
    OUT("    +------------------+\n");
    for (int r = RANKS - 1; r >= 0; r--) {
        OUT("  %d |", r + 1);
        for (int f = 0; f < FILES; f++) {
            int s = r * FILES + f;
            char c = (p->men[WHITE] & bit(s)) ? 'w' : (p->men[BLACK] & bit(s)) ? 'b' : '.';
            if (s == p->roll)
                OUT("[%c]", c);
            else
                OUT(" %c ", c);
        }
        OUT("|\n");
    }
    OUT("    +------------------+\n");
    OUT("      a  b  c  d  e  f\n");
    const char *side = p->side == WHITE ? "White" : "Black";
    int margin;
    Result r = alexander_result(pos, &margin, NULL);
    if (r != RESULT_NONE) {
        OUT("Game over: %s wins, all enemy pieces captured, margin %d\n",
            r == RESULT_WHITE_WINS ? "White" : "Black", margin);
    } else if (p->roll == NO_ROLL) {
        OUT("%s to roll\n", side);
    } else {
        char sq[3];
        put_square(sq, p->roll);
        sq[2] = '\0';
        OUT("%s to act: rolled %s [marked], which holds %s\n", side, sq,
            (p->men[p->side] & bit(p->roll)) ? "an own piece (it flies to capture)"
            : (p->men[!p->side] & bit(p->roll)) ? "an enemy piece (capture it)"
                                                : "nothing (move a piece there)");
    }
    OUT("Pieces: White %d, Black %d   Captures: White %d, Black %d\n",
        util_popcount64(p->men[WHITE]), util_popcount64(p->men[BLACK]),
        p->captures[WHITE], p->captures[BLACK]);
    long double w, m;
    alexander_white_values(pos, &w, &m);
    OUT("Exact: P(White wins) %.6f, expected margin for White %+.6f\n", (double)w, (double)m);
    OUT("Legend: w White, b Black, . empty, [ ] pending rolled square\n");
#undef OUT
}

static void alexander_describe(const Position *pos, char *buf, size_t size)
{
    snprintf(buf, size, "winprob %.6f margin %.6f", alexander_win_probability(pos),
             alexander_expected_margin(pos));
}

/* ---- evaluation --------------------------------------------------------- */

/* Centi-captures: 100 x the exact expected final margin, side to move's view. */
static int alexander_evaluate(const Position *pos)
{
    long double m;
    alexander_white_values(pos, NULL, &m);
    if (cpos(pos)->side == BLACK)
        m = -m;
    long double cp = m * 100.0L;
    long v = (long)(cp >= 0 ? cp + 0.5L : cp - 0.5L);
    if (v > SCORE_EVAL_MAX - 1)
        v = SCORE_EVAL_MAX - 1;
    if (v < -(SCORE_EVAL_MAX - 1))
        v = -(SCORE_EVAL_MAX - 1);
    return (int)v;
}

static bool alexander_is_noisy(const Position *pos, Move m)
{
    (void)pos;
    return (m & MOVE_CAPTURE) != 0;
}

static bool alexander_eval_is_exact(const Position *pos)
{
    (void)pos;
    return true;
}

/* Moves (rolls not counted) still to come (time allocation): three and a
 * half per piece on the board, from self-play games (doc/search.md). */
static int alexander_plies_left(const Position *pos)
{
    const AlexanderPos *p = cpos(pos);
    int pieces = util_popcount64(p->men[WHITE]) + util_popcount64(p->men[BLACK]);
    return pieces * 7 / 2 + 4;
}

/* ---- self-description (variant.h, BoardDesc) ---------------------------- */

static const char *const alexander_file_label[FILES] = {"a", "b", "c", "d", "e", "f"};
static const char *const alexander_rank_label_top_down[RANKS] = {"6", "5", "4", "3", "2", "1"};

/* The 6 x 6 board, orthogonal neighbours (the grid; moves ignore it), one
 * kind, and the two dice: the Latin die gives the file, the Arabic one the
 * rank (doc/rules.md, Alexander). */
static void alexander_describe_board(BoardDesc *b)
{
    b->layout = BOARD_LAYOUT_SQUARES;
    b->width = b->columns = FILES;
    b->height = b->rows = RANKS;
    b->ncolumn_labels = FILES;
    b->nrow_labels = RANKS;
    for (int f = 0; f < FILES; f++)
        b->column_labels[f] = alexander_file_label[f];
    for (int r = 0; r < RANKS; r++)
        b->row_labels[r] = alexander_rank_label_top_down[r];
    b->ncells = SQUARES;
    for (int sq = 0; sq < SQUARES; sq++) {
        BoardCell *c = &b->cells[sq];
        int f = sq % FILES, r = sq / FILES;
        put_square(c->name, sq)[0] = '\0';
        c->x = f + 0.5;
        c->y = RANKS - 1 - r + 0.5;
        c->neighbours = (f > 0 ? bit(sq - 1) : 0) | (f < FILES - 1 ? bit(sq + 1) : 0) |
                        (r > 0 ? bit(sq - FILES) : 0) | (r < RANKS - 1 ? bit(sq + FILES) : 0);
        c->faces[0] = (int8_t)f;
        c->faces[1] = (int8_t)r;
    }
    b->nkinds = 1;
    b->kinds[0] = (PieceKind){"piece", "piece", "piece", 0, {"w", "b"}};
    b->ndice = 2;
    b->dice[0] = (BoardDie){"Latin die", 6, {"I", "II", "III", "IV", "V", "VI"}};
    b->dice[1] = (BoardDie){"Arabic die", 6, {"1", "2", "3", "4", "5", "6"}};
}

static void alexander_describe_position(const Position *pos, PositionInfo *out)
{
    const AlexanderPos *p = cpos(pos);
    for (int c = 0; c < 2; c++)
        for (uint64_t m = p->men[c]; m; m &= m - 1) {
            out->side[util_lsb64(m)] = (int8_t)c;
            out->kind[util_lsb64(m)] = 0;
        }
    out->roll = p->roll;
    out->has = POSITION_HAS_CAPTURES;
    out->captures[WHITE] = p->captures[WHITE];
    out->captures[BLACK] = p->captures[BLACK];
}

/* A roll; a piece moving onto the rolled square (capturing what stands
 * there); or the own piece on the rolled square flying to capture. */
static void alexander_describe_move(const Position *pos, Move m, MoveInfo *out)
{
    const AlexanderPos *p = cpos(pos);
    if (m & MOVE_ROLL) {
        out->kind = MOVE_KIND_ROLL;
        out->roll = move_from(m);
        return;
    }
    int from = move_from(m), to = move_to(m);
    bool flight = p->roll != NO_ROLL && from == p->roll && (p->men[p->side] & bit(from));
    out->kind = flight ? MOVE_KIND_FLIGHT : MOVE_KIND_ENTRY;
    out->from = from;
    out->to = to;
    out->piece = 0;
    out->path[0] = (uint8_t)from;
    out->path[1] = (uint8_t)to;
    out->path_length = 2;
    if (p->men[!p->side] & bit(to))
        out->captures[out->ncaptures++] = (uint8_t)to;
}

/* ---- variant table ------------------------------------------------------ */

/* The bench positions after the start position (engine/bench.c): the
 * positions a seeded random playout reached after 8, 15 and 24 plies. */
static const char *const alexander_bench_fens[] = {
    "1bb1bb/bbbbbb/6/3w2/wwwwb1/www1ww w - 1 2",
    "1bb1bb/b1wbbb/6/1w1w2/wbw1b1/www2w b e5 2 3",
    "1bb1bb/b1b3/6/1w1w2/wwb1b1/2w2w w - 4 6",
    NULL,
};

const Variant variant_alexander = {
    .name = "alexander",
    .title = "Alexander the Great (6x6 dice game, phalanx start)",
    .repetition_draws = false,
    .position_size = sizeof(AlexanderPos),
    .rule_options = 0,
    .match_scoring = MATCH_SCORING_MARGIN_SUM,
    .match_games = 5,
    .bench_depth = 3,
    .bench_fens = alexander_bench_fens,
    .init = alexander_init,
    .startpos = alexander_startpos,
    .from_fen = alexander_from_fen,
    .to_fen = alexander_to_fen,
    .side_to_move = alexander_side_to_move,
    .is_chance = alexander_is_chance,
    .generate = alexander_generate,
    .count_moves = alexander_count_moves,
    .make = alexander_make,
    .result = alexander_result,
    .key = alexander_key,
    .move_str = alexander_move_str,
    .parse_move = alexander_parse_move,
    .diagram = alexander_diagram,
    .describe = alexander_describe,
    .evaluate = alexander_evaluate,
    .is_noisy = alexander_is_noisy,
    .eval_is_exact = alexander_eval_is_exact,
    .plies_left = alexander_plies_left,
    .perft = alexander_perft,
    .describe_board = alexander_describe_board,
    .describe_position = alexander_describe_position,
    .describe_move = alexander_describe_move,
    .refusal = alexander_refusal,
};
