/* ledger.h - the results of a run, game by game in schedule order: what the
 * reports are computed from, what a result file holds, and what -merge
 * puts back together.
 *
 * Games are counted in schedule order.  A single run with -sprt follows
 * the SPRT over the schedule's prefix of finished games: when the LLR of
 * games 1..k decides, the run stops taking games and games after k are not
 * counted (nor written), whatever the concurrency.  A shard plays all of
 * its games; -merge walks the merged schedule the same way, so the merged
 * statistics, verdict and records are those of the single run.
 */
#ifndef SIGIL_MATCH_LEDGER_H
#define SIGIL_MATCH_LEDGER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "match.h"
#include "record.h"
#include "schedule.h"
#include "stats.h"

typedef struct LedgerGame {
    bool done;
    Result result;
    bool on_board;           /* decided by the rules, not by the referee */
    int margin;              /* the winner's margin when on_board */
    RecordTermination termination;
    char category[64];       /* for the count of terminations: "no pieces", "time forfeit" ... */
    char reason[128];        /* cutechess's words: "White loses on time" ... */
    uint64_t hash;           /* of the start position and every move: tells repeats */
    int moves;               /* moves made by the players (not the opening's, not rolls) */
    char *pgn;               /* the record, or NULL */
    char *epd;               /* the final position, or NULL */
} LedgerGame;

typedef struct Ledger {
    const Variant *variant;
    int nengines;
    char (*names)[MATCH_NAME_MAX];
    Schedule sched;
    /* What shaped the schedule (written to result files, checked by -merge). */
    int games, rounds, seeds, repeat;
    bool gauntlet, swap, reverse;
    uint64_t seed;
    uint64_t fingerprint;
    int shard_k, shard_n;    /* the shard this ledger was played as (0/0: all) */
    bool sprt;
    double sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta;
    StatsSprtModel sprt_model;

    LedgerGame *g;           /* [sched.njobs] */
    int played;              /* games done */
    int *order;              /* [sched.njobs]: the games done, in the order they finished */
    int norder;

    /* The walk over the schedule in order (see above). */
    int prefix;              /* jobs [0, prefix) walked */
    int decided_at;          /* index of the game at which the SPRT decided, -1 = none */
    double llr;
    StatsSprtVerdict verdict;
    StatsWdl prefix_wdl;     /* the first pairing over the walked games */
    int prefix_penta[5];
} Ledger;

/* A pairing's statistics over the counted games. */
typedef struct Tally {
    StatsWdl wdl;            /* a's view */
    int penta[5];
    int white_wins, black_wins, draws;
    int a_white_w, a_white_l, a_white_d; /* a's results with White */
    int a_black_w, a_black_l, a_black_d;
} Tally;

/* A ledger for the schedule of cfg (names, schedule, SPRT settings). */
void ledger_init(Ledger *l, const MatchConfig *cfg, uint64_t fingerprint);

/* Release the ledger. */
void ledger_free(Ledger *l);

/* True when job j is part of this run (its shard, or everything). */
bool ledger_in_run(const Ledger *l, int j);

/* True when game j counts in the statistics. */
bool ledger_counted(const Ledger *l, int j);

/* Walk on over finished games in schedule order: call write(j) for each
 * game passed (to write records in order) and follow the SPRT (not in a
 * shard).  Returns true when the SPRT has decided. */
bool ledger_walk(Ledger *l, void (*write)(Ledger *l, int j, void *ctx), void *ctx);

/* The statistics of pairing p over the counted games. */
void ledger_tally(const Ledger *l, int p, Tally *t);

/* How many counted games, and how many distinct games among them. */
void ledger_distinct(const Ledger *l, int *counted, int *distinct);

/* Lay out the schedule and the games of l from its shape (games, rounds,
 * gauntlet, seeds, repeat, swap, reverse, nengines), as a result file gives
 * it (exits on out-of-memory). */
void ledger_init_shape(Ledger *l);

/* Book game j of other (done) into l, taking its record and position. */
void ledger_take(Ledger *l, Ledger *other, int j);

/* Merge result files into l (initialised here from the first file); every
 * file must come from the same run (same fingerprint) and hold other
 * games (results.h checks each).  Notes (a file cut short by a killed run)
 * go to notes (a stream, or NULL).  False with one line in err. */
bool ledger_merge(Ledger *l, char *const files[], int nfiles, FILE *notes, char *err,
                  size_t errlen);

/* How many games of the run are not done (missing from a merge); games
 * after the SPRT's decision are not missed. */
int ledger_missing(const Ledger *l);

#endif
