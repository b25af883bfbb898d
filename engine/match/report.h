/* report.h - what sigil-match prints: the per-game lines and rating blocks
 * in cutechess-cli's words (so scripts written for cutechess read them
 * unchanged), fastchess's result block, and the final report: the
 * cutechess-style ratings and SPRT line, then the richer summary
 * (pentanomial, results by colour, match scoring, terminations).
 *
 * Everything is computed from the ledger, so a merged run prints exactly
 * what the single run prints.
 */
#ifndef SIGIL_MATCH_REPORT_H
#define SIGIL_MATCH_REPORT_H

#include <stdint.h>

#include "ledger.h"

/* "Started game N of M (White vs Black)" */
void report_started(const Ledger *l, int j, int total);

/* "Finished game N (White vs Black): 1-0 {reason}" */
void report_finished(const Ledger *l, int j);

/* "Score of A vs B: W - L - D  [score] N" for pairing p. */
void report_score(const Ledger *l, int p, const Tally *t);

/* The rating block: with two engines cutechess's "...      A playing White"
 * lines and "Elo difference: ..."; with more its ranking table; then the
 * SPRT line when there is an SPRT.  tallies has one entry per pairing. */
void report_ratings(const Ledger *l, const Tally *tallies);

/* fastchess's block for pairing 0 ("Results of A vs B", "Elo:", "Games:",
 * "Ptnml(0-2):", "LLR:"). */
void report_fastchess(const Ledger *l, const Tally *t);

/* The terminations of the counted games ("Outcomes: ..."). */
void report_outcomes(const Ledger *l);

/* The final report over the counted games: the rating block, "Finished
 * match", a warning when games repeat, then the summary.  elapsed_ms < 0
 * leaves out the line with the time taken (-merge). */
void report_final(const Ledger *l, bool fastchess, int64_t elapsed_ms);

#endif
