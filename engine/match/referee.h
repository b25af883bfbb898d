/* referee.h - one game: the opening, then ply by ply the rules' verdict, the
 * dice, the players' moves checked against the rules, the clocks, and the
 * adjudication rules; the outcome in PGN's terms and in words.
 *
 * Before every ply game_result() (board result, counting and move limit,
 * both stuck, threefold repetition where the game has it) decides the
 * ending; engines' claims are never read.  At a chance node the referee
 * rolls one of the moves generate() returns, uniformly, from a stream drawn
 * from (seed, opening), so both games of a pair see the same dice.
 */
#ifndef SIGIL_MATCH_REFEREE_H
#define SIGIL_MATCH_REFEREE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "match.h"
#include "record.h"
#include "schedule.h"

typedef struct Outcome {
    bool aborted;           /* interrupted: not counted */
    Result result;
    bool on_board;          /* decided by the rules, not by the referee */
    int margin;             /* winner's margin when on_board */
    RecordTermination termination;
    char category[64];      /* "no pieces", "time forfeit", "adjudication: max moves" ... */
    char reason[128];       /* cutechess's words: "White loses on time" ... */
    char detail[256];       /* everything about the ending, for the record */
    Fault fault;            /* FAULT_NONE unless a player lost on its own account */
    int fault_side;
    RecordMoveList moves;
    char start_fen[FEN_MAX];
    char final_fen[FEN_MAX];
    uint64_t hash;          /* of the start position and every move */
} Outcome;

/* The engine processes a worker keeps from game to game: two per engine, so
 * an engine can meet itself. */
typedef struct Seats {
    EngineProc *procs; /* [nengines * 2] */
} Seats;

/* Play job (whose engines come from seats) to its end; interrupted() is
 * polled so a signal abandons the game.  The caller frees out->moves.m. */
void referee_play(const MatchConfig *cfg, const Job *job, Seats *seats,
                  EngineInterrupted interrupted, Outcome *out);

#endif
