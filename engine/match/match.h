/* match.h - the tournament: schedule, game loop, referee, adjudication and
 * scoring.  match_main.c fills a MatchConfig from the command line and calls
 * match_run().
 *
 * Every game is refereed with the rules library: each move is checked with
 * parse_move(), every ending is decided by game_result() (engines' claims are
 * never trusted), dice are rolled by the referee from its own seeded RNG.
 * Everything random (openings, dice, the built-in players) is derived from
 * -seed and the game's number, so a tournament is reproducible whatever the
 * concurrency.
 */
#ifndef SIGIL_MATCH_MATCH_H
#define SIGIL_MATCH_MATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "players.h"
#include "stats.h"
#include "variant.h"

#define MATCH_NAME_MAX 64
#define MATCH_MAX_OPTIONS 64
#define MATCH_MAX_ARGS 32

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

/* One player as given by -engine (after -each is applied). */
typedef struct EngineSpec {
    char name[MATCH_NAME_MAX];
    bool name_given;
    char cmd[1024];
    char *args[MATCH_MAX_ARGS]; /* extra arguments (arg=...) */
    int nargs;
    char dir[1024];             /* working directory, "" = ours */
    bool ugi;                   /* proto=ugi */
    PlayerKind kind;            /* cmd=random / cmd=greedy are built in */
    EngineOption options[MATCH_MAX_OPTIONS];
    int noptions;
    TimeControl tc;
    int64_t st_ms;              /* fixed time per move, 0 = none */
    int depth;                  /* 0 = none */
    long long nodes;            /* 0 = none */
} EngineSpec;

typedef struct MatchConfig {
    const Variant *variant;
    GameConfig game_config;     /* Salto's move limit */
    bool move_limit_given;

    EngineSpec *engines;
    int nengines;

    int games;                  /* games per pairing per round */
    int rounds;
    bool gauntlet;              /* else round-robin */
    int concurrency;
    bool repeat;                /* colour-reversed pairs from one opening */

    int opening_plies;          /* random:PLIES, 0 = none */
    char **opening_fens;        /* file=..., cycled */
    int nopening_fens;

    char pgnout[1024];          /* "" = no records */
    char event[64];
    uint64_t seed;

    int64_t timemargin_ms;
    int64_t hang_timeout_ms;    /* limit for a search without a clock */
    int64_t start_timeout_ms;   /* uciok / readyok */
    int kill_grace_ms;          /* after quit, before SIGKILL */

    bool draw_adj;              /* -draw */
    int draw_movenumber, draw_movecount, draw_score;
    bool resign_adj;            /* -resign */
    int resign_movecount, resign_score;
    bool resign_twosided;
    int maxmoves;               /* 0 = none (a safety cap applies) */

    bool sprt;
    double sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta;
    StatsSprtModel sprt_model;

    bool quiet;                 /* no per-game lines, engines' stderr dropped */
    bool debug;                 /* engine I/O to stderr */
} MatchConfig;

/* Fill cfg with the defaults (2 games, 1 round, concurrency 1 ...). */
void match_config_defaults(MatchConfig *cfg);

/* Parse a time control "40/10+0.1", "10+0.1", "5", "1:30+1", "inf". */
bool match_parse_tc(const char *text, TimeControl *tc);

/* Run the tournament; prints progress and the summary to stdout.  Returns
 * the process exit code (0 normal completion, 128+signal when interrupted). */
int match_run(MatchConfig *cfg);

#endif
