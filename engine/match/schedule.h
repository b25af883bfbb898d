/* schedule.h - the full schedule of a tournament: pairings, and every game
 * with its colours, its opening and its shard.
 *
 * Games are laid out round by round, pairing by pairing, game by game.  In
 * a pairing (A, B) the k-th game (counted over the rounds) has A as White
 * when k is even (always with -noswap; the other way round with -reverse).
 * Groups of -repeat consecutive games of a pairing share one opening;
 * opening numbers are handed out in schedule order.  Shard s of N holds the
 * games whose opening number is s - 1 mod N, so colour-reversed pairs stay
 * together and every shard has the same games a single run would play.
 */
#ifndef SIGIL_MATCH_SCHEDULE_H
#define SIGIL_MATCH_SCHEDULE_H

#include <stdbool.h>

#include "match.h"

typedef struct Pairing {
    int a, b; /* engine indices; statistics are from a's view */
} Pairing;

typedef struct Job {
    int index;   /* 0-based in schedule order */
    int round;   /* 0-based */
    int pairing; /* index into the pairings */
    int game;    /* 0-based within the pairing and round */
    int white, black;
    int opening; /* opening number (shared by a group of -repeat games) */
    int partner; /* the other game of a colour-reversed pair, -1 = none */
} Job;

typedef struct Schedule {
    Pairing *pairings;
    int npairings;
    Job *jobs;
    int njobs;
    bool pairs; /* games come in colour-reversed pairs (pentanomial statistics) */
} Schedule;

/* Lay out the schedule of cfg (exits on out-of-memory). */
void schedule_build(const MatchConfig *cfg, Schedule *s);

/* True when job j belongs to shard k of n (1-based; n = 0: no shards). */
bool schedule_in_shard(const Job *j, int k, int n);

/* Release the schedule. */
void schedule_free(Schedule *s);

#endif
