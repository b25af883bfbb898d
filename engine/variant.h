/* variant.h - the interface every game implements.
 *
 * A game is a table of functions over an opaque Position.  The search, perft,
 * the protocol and sigil-match only ever talk to a game through this table, so
 * none of them knows which game it plays.  Positions are copied on make
 * ("copy-make"): make() writes the child into a separate buffer, so there is
 * no unmake and no state to restore.
 *
 * A game file (engine/games/<game>.c) follows the template of doc/games.md:
 * its sections in a fixed order, <Game>Pos with cpos()/mpos(), move-code
 * helpers move_from()/move_to(), and <game>_<field> for every function of
 * its table.
 */
#ifndef SIGIL_VARIANT_H
#define SIGIL_VARIANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tablebase_types.h"

/* A move, encoded by its game.  0 is "no move"; every real move (a pass, a
 * roll, a placement ...) must encode to a non-zero value.  The same move in the
 * same position must always have the same code (the TT and the killer tables
 * compare codes). */
typedef uint64_t Move;
#define MOVE_NONE ((Move)0)

/* Upper bound on the number of legal moves (or roll outcomes) of any position
 * of any game (a movement phase whose steps each list their removals is
 * the largest so far). */
#define MAX_MOVES 1024

/* Longest move or roll text, including the terminating NUL. */
#define MOVE_STR_MAX 64

/* Longest FEN text, including the terminating NUL. */
#define FEN_MAX 256

/* Room for any game's position; a game stores its own struct inside, in the
 * first Variant.position_size bytes.  Rules every game keeps (the contract
 * suite, tests/check_contract.c, checks them on every registered game):
 *   size:        a game reads only those position_size bytes, and startpos(),
 *                from_fen() and make() write every one of them (no
 *                uninitialised padding), so equal positions are equal byte
 *                for byte;
 *   determinism: every function of the table is a function of its arguments
 *                alone (the position's bytes, the move, the configuration):
 *                no hidden state, the same answer every time. */
#define POSITION_BYTES 120 /* the largest game's position_size */
#define POSITION_ALIGN 8
typedef struct Position {
    _Alignas(POSITION_ALIGN) unsigned char bytes[POSITION_BYTES];
} Position;

/* Layout: a game reads and writes its struct through a pointer to
 * Position.bytes, so the struct is declared with GAME_POSITION
 * (may_alias): for GCC's and Clang's type-based alias analysis an access
 * through it is then like one through unsigned char, which may alias any
 * object -- the cast is a defined access, not undefined behaviour.
 * GAME_POSITION_FITS(T) checks at compile time that T fits a Position
 * (a game larger than POSITION_BYTES raises it).  GAME_POSITION_TYPE(T)
 * makes T the game's position: it checks that T fits and defines the two
 * views of a Position as a T, cpos() to read and mpos() to write. */
#define GAME_POSITION __attribute__((may_alias))
#define GAME_POSITION_FITS(T)                                                    \
    _Static_assert(sizeof(T) <= POSITION_BYTES, #T " does not fit a Position"); \
    _Static_assert(_Alignof(T) <= POSITION_ALIGN, #T " needs more alignment than a Position")
#define GAME_POSITION_TYPE(T)                                                       \
    static inline const T *cpos(const Position *pos) { return (const T *)pos->bytes; } \
    static inline T *mpos(Position *pos) { return (T *)pos->bytes; }                \
    GAME_POSITION_FITS(T)

enum { WHITE = 0, BLACK = 1 };

/* Outcome of a game; margin (see result()) says by how much where it matters. */
typedef enum Result {
    RESULT_NONE = 0,  /* game goes on */
    RESULT_WHITE_WINS,
    RESULT_BLACK_WINS,
    RESULT_DRAW
} Result;

/* Settings that change the rules of a game (engine options).  Copied into a
 * position when it is set up, so a position always carries its own rules. */
typedef struct GameConfig {
    int move_limit; /* moves per side before the game is counted (option
                       MoveLimit, games with GAME_OPTION_MOVE_LIMIT) */
} GameConfig;

#define DEFAULT_MOVE_LIMIT 120

/* Score scale shared by every game: a won game is SCORE_WIN minus the number
 * of plies to the win; evaluations stay well inside +-SCORE_EVAL_MAX. */
#define SCORE_WIN 30000
#define SCORE_EVAL_MAX 20000
#define SCORE_INF 32000

/* How a match between two players is scored in a game (sigil-match). */
typedef enum MatchScoring {
    MATCH_SCORING_GAMES = 0,  /* single games: win, draw, loss */
    MATCH_SCORING_BEST_OF,    /* matches of match_games games won by majority,
                                 the first player alternating */
    MATCH_SCORING_MARGIN_SUM, /* matches of match_games games scored by the sum
                                 of margins */
    MATCH_SCORING_COUNTING    /* single games; the counting margins are summed
                                 beside win/draw/loss */
} MatchScoring;

/* Rule settings (GameConfig fields) a game reads: Variant.rule_options bits. */
enum { GAME_OPTION_MOVE_LIMIT = 1u << 0 };

/* ---- Self-description for GUIs -------------------------------------------
 * Three hooks let a game describe its board, a position and a move as plain
 * data; engine/oracle.c turns that data into the JSON of `query board`,
 * `query position` and `query move` (protocol.md, "Queries for GUIs"), so no
 * game writes JSON and a GUI needs no rule of any game.  A cell is the
 * game's own square index, 0 .. BOARD_MAX_CELLS-1, the same in all three. */

#define BOARD_MAX_CELLS 64
#define BOARD_MAX_LINES 16
#define BOARD_MAX_LINE_CELLS 12
#define BOARD_MAX_KINDS 16
#define BOARD_MAX_REGIONS 32
#define BOARD_MAX_DICE 2
#define BOARD_MAX_FACES 8
#define BOARD_MAX_LABELS 12
#define BOARD_NAME_MAX 8

typedef enum BoardLayout {
    BOARD_LAYOUT_POINTS,  /* cells are points on drawn lines (a star) */
    BOARD_LAYOUT_SQUARES  /* cells are unit squares of a columns x rows grid;
                             grid squares that are not cells are unused */
} BoardLayout;

typedef struct BoardCell {
    char name[BOARD_NAME_MAX]; /* as the notation writes it: "14", "c3" */
    double x, y;          /* centre; x grows to the right, y downwards, White's
                             side at the bottom; squares are 1 x 1 */
    uint64_t neighbours;  /* bit j: cell j is one step away (symmetric) */
    int8_t faces[BOARD_MAX_DICE]; /* face index of each die that rolls this
                                     cell (games with dice), else -1 */
} BoardCell;

/* A straight line drawn through cells, in order along it. */
typedef struct BoardLine {
    int length;
    uint8_t cells[BOARD_MAX_LINE_CELLS];
} BoardLine;

/* A kind of piece; a piece on the board is a side and a kind. */
typedef struct PieceKind {
    const char *id;     /* unique in the game: "man", "king", "star1" */
    const char *label;  /* short human label: "man", "star 1" */
    const char *symbol; /* drawing hint: "man", "king", "star", "moon", "sun",
                           "piece" */
    int number;         /* number written on the piece, 0 for none */
    const char *fen[2]; /* how the FEN writes it for White, Black ("" none) */
} PieceKind;

/* Special cells: a goal of one side (or of one kind of its pieces). */
typedef struct BoardRegion {
    const char *role;   /* what it is: "palace", "target" */
    const char *label;  /* one line for humans */
    int side;           /* the side whose pieces aim at it, or -1 */
    int kind;           /* the PieceKind it is the goal of, or -1 for all */
    uint64_t cells;     /* bit i: cell i */
} BoardRegion;

/* A die of a game with chance: its faces, in order. */
typedef struct BoardDie {
    const char *name;
    int nfaces;
    const char *faces[BOARD_MAX_FACES];
} BoardDie;

/* The whole static description of a game's board (describe_board()). */
typedef struct BoardDesc {
    BoardLayout layout;
    double width, height;   /* extent of the drawing: [0,width] x [0,height] */
    int columns, rows;      /* BOARD_LAYOUT_SQUARES: the grid (else 0) */
    int ncolumn_labels, nrow_labels; /* edge labels, left to right and top to
                                        bottom ("a".., "10".."1"); may be 0 */
    const char *column_labels[BOARD_MAX_LABELS];
    const char *row_labels[BOARD_MAX_LABELS];
    int ncells;             /* cells 0 .. ncells-1 */
    BoardCell cells[BOARD_MAX_CELLS];
    int nlines;
    BoardLine lines[BOARD_MAX_LINES];
    int nkinds;
    PieceKind kinds[BOARD_MAX_KINDS];
    int nregions;
    BoardRegion regions[BOARD_MAX_REGIONS];
    int ndice;
    BoardDie dice[BOARD_MAX_DICE];
} BoardDesc;

/* Which optional fields of a PositionInfo the game fills. */
enum {
    POSITION_HAS_HANDS = 1u << 0,      /* hand[] */
    POSITION_HAS_CAPTURES = 1u << 1,   /* captures[] */
    POSITION_HAS_COUNT = 1u << 2,      /* count[] */
    POSITION_HAS_MOVE_LIMIT = 1u << 3, /* plies, ply_limit */
    POSITION_HAS_PASS = 1u << 4,       /* passed */
};

/* The state of one position (describe_position()). */
typedef struct PositionInfo {
    int8_t side[BOARD_MAX_CELLS]; /* WHITE, BLACK, or -1 for an empty cell */
    int8_t kind[BOARD_MAX_CELLS]; /* PieceKind index of the piece on it */
    int roll;            /* the pending rolled cell, -1 for none */
    const char *phase;   /* a word ("placement", "movement") or NULL */
    unsigned has;        /* POSITION_HAS_* bits */
    int hand[2];         /* pieces each side still has to place */
    int captures[2];     /* enemy pieces each side has captured so far */
    int count[2];        /* counting sums (the smaller wins) */
    int plies, ply_limit; /* plies played toward the move limit, and the ply
                             at which the game ends by counting */
    bool passed;         /* the last ply was a pass */
} PositionInfo;

typedef enum MoveKind {
    MOVE_KIND_STEP,      /* one piece to a neighbouring cell */
    MOVE_KIND_JUMP,      /* one jump over a piece */
    MOVE_KIND_CHAIN,     /* several jumps by one piece in one move */
    MOVE_KIND_PLACEMENT, /* a piece from the hand onto an empty cell */
    MOVE_KIND_REMOVAL,   /* a step that makes a line, with its removal */
    MOVE_KIND_PASS,      /* no piece moves */
    MOVE_KIND_ROLL,      /* a dice roll names a cell */
    MOVE_KIND_ENTRY,     /* a piece moves onto the rolled cell */
    MOVE_KIND_FLIGHT,    /* the piece on the rolled cell flies to capture */
    MOVE_KIND_COUNT
} MoveKind;

#define MOVE_MAX_PATH (BOARD_MAX_CELLS + 1)

/* What one legal move does (describe_move()). */
typedef struct MoveInfo {
    MoveKind kind;
    int from, to;        /* cells, -1 when none (placement: no from) */
    int piece;           /* PieceKind of the moving or placed piece, or -1 */
    int promotion;       /* PieceKind the piece becomes, or -1 */
    int roll;            /* the rolled cell of a roll, or -1 */
    int path_length;     /* cells the piece visits, from first, to last */
    uint8_t path[MOVE_MAX_PATH];
    int ncaptures;       /* cells whose pieces leave the board, in order */
    uint8_t captures[BOARD_MAX_CELLS];
} MoveInfo;

typedef struct Variant {
    const char *name;        /* protocol name (`variant <name>`) */
    const char *title;       /* one line for humans */
    bool repetition_draws;   /* threefold repetition of key() draws */

    /* Facts the core needs, as data, so that no core file names a game. */
    size_t position_size;    /* bytes of the game's own position struct */
    unsigned rule_options;   /* GAME_OPTION_* bits: the settings that apply */
    MatchScoring match_scoring;
    int match_games;         /* games in one match (1: single games) */
    int bench_depth;         /* search depth of this game's `bench` positions */
    const char *const *bench_fens; /* the bench positions after the start
                                      position, NULL-terminated (NULL: a
                                      seeded random playout picks them) */

    /* Called once at program start (variants_init) before anything else:
     * build move tables and Zobrist keys here.  May be NULL. */
    void (*init)(void);

    /* Set up the start position. */
    void (*startpos)(Position *pos, const GameConfig *cfg);
    /* Parse a FEN; on failure return false, leave *pos unspecified and write
     * a short human reason into err. */
    bool (*from_fen)(Position *pos, const char *fen, const GameConfig *cfg,
                     char *err, size_t errlen);
    /* Write the FEN (at most FEN_MAX bytes including NUL). */
    void (*to_fen)(const Position *pos, char *buf);

    /* The side that acts next (at a chance node: the side about to roll). */
    int (*side_to_move)(const Position *pos);
    /* True when the next event is a chance event (a dice roll): the moves that
     * generate() returns are then the equally likely outcomes.  NULL for games
     * without chance. */
    bool (*is_chance)(const Position *pos);
    /* Write every legal move (or roll outcome) into moves, return how many.
     * A position whose game has ended (result() != RESULT_NONE) returns 0.
     * A forced pass is a move.  Order must be deterministic. */
    int (*generate)(const Position *pos, Move *moves);
    /* Optional (may be NULL): how many moves generate() would return, found
     * without writing them (bulk counting at perft's last ply).  Equal to
     * generate()'s count in every position (the contract checks it). */
    int (*count_moves)(const Position *pos);
    /* Play a move that generate() returned: write the child into *out
     * (out != pos). */
    void (*make)(const Position *pos, Move m, Position *out);
    /* The result decided on the board (not threefold repetition, which the
     * caller tracks).  *margin (may be NULL) gets the winner's margin where the
     * game scores one (counting, captured material), else 0.  *reason
     * (may be NULL) gets a static lower-case phrase such as "no legal move",
     * "all pieces on targets", "counting after move limit", "bare kings"; ""
     * (never NULL) while the game goes on.  The margin is 0 while the game
     * goes on and for a draw.  RESULT_NONE exactly when generate() returns at
     * least one move. */
    Result (*result)(const Position *pos, int *margin, const char **reason);
    /* Zobrist key of everything that decides the future of the game. */
    uint64_t (*key)(const Position *pos);

    /* Move text in the notation of doc/rules.md (at most MOVE_STR_MAX bytes). */
    void (*move_str)(const Position *pos, Move m, char *buf);
    /* The legal move the text names in this position, or MOVE_NONE. */
    Move (*parse_move)(const Position *pos, const char *text);

    /* Human-readable board diagram, several lines, each ending in '\n'.
     * Writes at most size bytes including NUL. */
    void (*diagram)(const Position *pos, char *buf, size_t size);
    /* Optional (may be NULL): one line with game-specific analysis, e.g.
     * "count white 96 black 101" or "winprob 0.5123 margin 1.2345".  No '\n'. */
    void (*describe)(const Position *pos, char *buf, size_t size);

    /* Static evaluation from the side to move's view, within +-SCORE_EVAL_MAX.
     * At a chance node: from the view of the side about to roll. */
    int (*evaluate)(const Position *pos);
    /* True for moves that change material or otherwise must not be cut by the
     * horizon (captures, removals).  Quiescence search follows these. */
    bool (*is_noisy)(const Position *pos, Move m);
    /* True when a search score is exact whatever the depth (an evaluation
     * that is the exact expected value of the rest of a dice game).  May be
     * NULL. */
    bool (*eval_is_exact)(const Position *pos);
    /* Optional (may be NULL): the game's own ordering hint for the n moves of
     * pos (from generate()), hints[i] for moves[i], larger = try first.  The
     * search uses it only among moves its own statistics rank equal (same
     * band, same history), before falling back to the move code.  The hint
     * may depend on the position; the move code must not (so that the same
     * move in sibling positions shares its history and killer entries). */
    void (*order_hints)(const Position *pos, const Move *moves, int n, int *hints);

    /* Optional (may be NULL): how many more moves (rolls not counted) both
     * sides together are expected to make before the game ends, for time
     * allocation.  An estimate (doc/search.md says how each was measured),
     * exact where a rule fixes it (a move limit). */
    int (*plies_left)(const Position *pos);

    /* Optional fast perft with bulk counting at the last ply; NULL means the
     * generic one in perft.c is used (bulk counting with count_moves where
     * the game has it).  Must count exactly what the generic one counts. */
    uint64_t (*perft)(const Position *pos, int depth);

    /* Self-description for GUIs (see BoardDesc above); every game fills all
     * three.  The caller clears *out first (every count 0, every cell, kind
     * and side field -1 where -1 means "none"), so a hook sets only what
     * applies.  describe_board writes the static board (cells, lines, piece
     * kinds, special cells, dice).  describe_position writes the pieces and
     * counters of pos.  describe_move writes what the legal move m (from
     * generate()) does in pos; a chain that several paths make is given one
     * representative path. */
    void (*describe_board)(BoardDesc *out);
    void (*describe_position)(const Position *pos, PositionInfo *out);
    void (*describe_move)(const Position *pos, Move m, MoveInfo *out);

    /* Optional (may be NULL): why text is not a legal move of pos, as one
     * English sentence into buf (engine/refusal.h): which rule refuses it and
     * what is allowed instead.  Called only while the game goes on, no roll
     * is due, and text (trimmed) is neither a legal move nor a cell from
     * which a legal move starts.  False (or an empty buf) when the game has
     * nothing to say beyond the list of legal moves. */
    bool (*refusal)(const Position *pos, const char *text, char *buf, size_t size);

    /* Optional (may be NULL): exact endgame tables of this game (options
     * TablebasePath and TablebasePieces load them). */
    const TablebaseOps *tablebase;
} Variant;

#endif
