/* match.h - what a sigil-match run is made of: the configuration the command
 * line fills (cli.c), and the entry points of the three things the program
 * does: play a tournament (tournament.c), merge result files (ledger.c),
 * replay records (record.c).
 *
 * Every game is refereed with the rules library: each move is checked with
 * parse_move(), every ending is decided by game_result() (engines' claims are
 * never trusted), dice are rolled by the referee from its own seeded RNG.
 * Everything random (openings, dice, the built-in players) is derived from
 * -srand and the game's place in the schedule, so a tournament is
 * reproducible whatever the concurrency and however it is split in shards.
 */
#ifndef SIGIL_MATCH_MATCH_H
#define SIGIL_MATCH_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "openings.h"
#include "players.h"
#include "stats.h"
#include "variant.h"

#define MATCH_NAME_MAX 64
#define MATCH_MAX_OPTIONS 64
#define MATCH_MAX_ARGS 32
#define MATCH_MAX_INITSTR 16
#define MATCH_MAX_ENGINES 64
#define MATCH_MAX_MERGE 4096

/* A clock: `moves/seconds+increment`; moves = 0 means the whole game. */
typedef struct TimeControl {
    bool set;
    int moves;
    int64_t base_ms;
    int64_t inc_ms;
} TimeControl;

typedef struct EngineOption {
    char name[64];
    char value[256];
} EngineOption;

/* restart=: whether an engine process is started afresh for every game. */
typedef enum RestartMode {
    RESTART_AUTO = 0, /* only after it misbehaved (the default) */
    RESTART_ON,       /* before every game */
    RESTART_OFF       /* as auto: a misbehaving process is never kept */
} RestartMode;

/* One player as given by -engine (after -each is applied). */
typedef struct EngineSpec {
    char name[MATCH_NAME_MAX];
    bool name_given;
    char cmd[1024];
    char *args[MATCH_MAX_ARGS]; /* extra arguments (arg=..., args="...") */
    int nargs;
    char dir[1024];             /* working directory, "" = ours */
    char stderr_path[1024];     /* stderr=FILE, "" = ours (or dropped with -quiet) */
    char *initstr[MATCH_MAX_INITSTR]; /* lines sent right after uciok */
    int ninitstr;
    bool ugi;                   /* proto=ugi */
    PlayerKind kind;            /* cmd=random / cmd=greedy are built in */
    EngineOption options[MATCH_MAX_OPTIONS];
    int noptions;
    TimeControl tc;
    int64_t st_ms;              /* fixed time per move, 0 = none */
    int depth;                  /* 0 = none */
    long long nodes;            /* 0 = none */
    int64_t timemargin_ms;      /* < 0: the global -timemargin */
    RestartMode restart;
    bool debug;                 /* this engine's input/output on stderr */
} EngineSpec;

/* What the program was asked to do. */
typedef enum MatchMode {
    MODE_PLAY = 0,
    MODE_REPLAY,
    MODE_MERGE,
    MODE_EXIT      /* -help, -version, -variants: done already */
} MatchMode;

typedef enum OutputFormat {
    OUTPUT_CUTECHESS = 0, /* Score of ... lines after every game (default) */
    OUTPUT_FASTCHESS      /* fastchess's interval block instead */
} OutputFormat;

/* Where the records go: -pgnout, -epdout, -results, -resume, the PGN tags. */
typedef struct MatchOutputs {
    char pgnout[1024];          /* "" = no records */
    bool pgn_min;               /* no move comments, fewer tags */
    bool pgn_append;
    bool pgn_nodes;             /* node counts in the move comments */
    char epdout[1024];          /* "" = no final positions */
    bool epd_append;
    char results_path[1024];    /* -results: the result file */
    bool resume;                /* -resume: play only the games it lacks */
    char event[64];
    char site[64];
} MatchOutputs;

/* How long engines are given beyond their clocks, and how long to wait. */
typedef struct MatchLimits {
    int64_t timemargin_ms;
    int64_t hang_timeout_ms;    /* limit for a search without a clock */
    int64_t start_timeout_ms;   /* uciok / readyok at start */
    int64_t newgame_timeout_ms; /* readyok after ucinewgame */
    int kill_grace_ms;          /* after quit, before SIGKILL */
} MatchLimits;

/* Ending games early: -draw, -resign, -maxmoves. */
typedef struct MatchAdjudication {
    bool draw_adj;              /* -draw */
    int draw_movenumber, draw_movecount, draw_score;
    bool resign_adj;            /* -resign */
    int resign_movecount, resign_score;
    bool resign_twosided;
    int maxmoves;               /* 0 = none (a safety cap applies) */
} MatchAdjudication;

/* The sequential test: -sprt. */
typedef struct MatchSprt {
    bool on;                    /* -sprt given */
    double elo0, elo1, alpha, beta;
    StatsSprtModel model;
} MatchSprt;

/* What is printed, and how often. */
typedef struct MatchReporting {
    int rating_interval;        /* print the ratings every N games (0 = at the end) */
    int score_interval;         /* the Score of ... line every N games */
    int outcome_interval;       /* the terminations every N games (0 = at the end) */
    OutputFormat output;
    bool report_penta;
} MatchReporting;

typedef struct MatchConfig {
    MatchMode mode;
    const Variant *variant;
    GameConfig game_config;     /* rule options (the move limit) */
    bool move_limit_given;

    EngineSpec *engines;
    int nengines;

    int games;                  /* games per pairing per round */
    int rounds;
    bool gauntlet;              /* else round-robin */
    int seeds;                  /* gauntlet: the first `seeds` engines play the rest */
    int concurrency;
    int repeat;                 /* games sharing one opening (1 = none) */
    bool repeat_given;
    bool swap;                  /* colours alternate game by game (no -noswap) */
    bool reverse;               /* -reverse: the second engine starts with White */
    int wait_ms;                /* pause between games of a worker */

    Openings openings;
    MatchOutputs out;

    uint64_t seed;
    bool seed_given;

    int shard_k, shard_n;       /* -shard K/N: play shard K of N (1-based); 0/0 = all */

    MatchLimits limits;
    MatchAdjudication adj;
    MatchSprt sprt;
    MatchReporting report;

    char *merge_files[MATCH_MAX_MERGE];
    int nmerge;
    char replay_file[1024];

    bool quiet;                 /* no per-game lines, engines' stderr dropped */
    bool debug;                 /* engine I/O to stderr */
} MatchConfig;

/* Fill cfg with the defaults (2 games, 1 round, concurrency 1 ...). */
void match_config_defaults(MatchConfig *cfg);

/* Release what the command line allocated in cfg (arguments, openings). */
void match_config_free(MatchConfig *cfg);

/* Parse a time control "40/10+0.1", "10+0.1", "5", "1:30+1", "inf". */
bool match_parse_tc(const char *text, TimeControl *tc);

/* The tolerance on spec's time limits: its timemargin= or -timemargin. */
int64_t match_timemargin(const MatchConfig *cfg, const EngineSpec *spec);

/* Run the tournament (or the shard of it); prints progress and the report
 * to stdout.  Returns the exit status: 0 normal completion, 1 when an
 * engine failed the start-up check, 2 for a file that cannot be written,
 * 128+signal when interrupted. */
int match_run(MatchConfig *cfg);

#endif
