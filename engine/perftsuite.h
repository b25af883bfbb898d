/* perftsuite.h - perft suites: text files of positions with their expected
 * perft counts at several depths (`sigil perft-suite FILE`), the form perft
 * testers use for chess (EPD lines with ;D1 20 ;D2 400 ...).
 *
 * The format (protocol.md, "Perft suites"): one position per line, fields separated
 * by ';' and trimmed of blanks:
 *
 *     [<variant> ;] <FEN or startpos> ; D<depth> <count> ; D<depth> <count> ...
 *
 * A depth field may also be written without its D (`5 3507`).  A line
 * `variant <name>` names the game of the position lines after it that do
 * not name their own; '#' starts a comment line; blank lines are ignored.
 */
#ifndef SIGIL_PERFTSUITE_H
#define SIGIL_PERFTSUITE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

/* Most depth fields one line may carry. */
#define PERFT_SUITE_MAX_COUNTS 32

/* Deepest depth a line may ask for (the protocol's perft bound). */
#define PERFT_SUITE_MAX_DEPTH 20

typedef enum PerftSuiteLineKind {
    PERFT_SUITE_BLANK,    /* empty or a comment */
    PERFT_SUITE_VARIANT,  /* `variant <name>` */
    PERFT_SUITE_POSITION  /* a position and its counts */
} PerftSuiteLineKind;

/* One line, parsed. */
typedef struct PerftSuiteLine {
    PerftSuiteLineKind kind;
    const Variant *variant; /* VARIANT: the game named; POSITION: the game the
                               line names itself, or NULL */
    char fen[FEN_MAX];      /* POSITION: "startpos" or the FEN */
    int ncounts;            /* POSITION: depth fields, in the line's order */
    int depth[PERFT_SUITE_MAX_COUNTS];
    uint64_t count[PERFT_SUITE_MAX_COUNTS];
} PerftSuiteLine;

/* Parse one line (its newline already cut).  False, with err saying what is
 * wrong, for a malformed line (an unknown variant, a bad depth field, no
 * depth field, a FEN longer than FEN_MAX); the FEN itself is read later, by
 * perft_suite_position. */
bool perft_suite_parse(const char *text, PerftSuiteLine *line, char *err, size_t errlen);

/* Set pos to the line's position in game v (the default rules settings).
 * False with err set when the FEN is not one of v's. */
bool perft_suite_position(const Variant *v, const char *fen, Position *pos, char *err,
                          size_t errlen);

typedef struct PerftSuiteOptions {
    const Variant *variant; /* the game of position lines before any `variant`
                               line (NULL: such a line is malformed) */
    uint64_t max_nodes;     /* skip counts above this (0: no bound) */
} PerftSuiteOptions;

typedef struct PerftSuiteTotals {
    long passed, failed;
    long skipped;     /* counts above max_nodes, not run */
    long malformed;   /* lines that could not be read, skipped */
    uint64_t nodes;   /* leaves counted */
    int64_t time_ms;
} PerftSuiteTotals;

/* Run every line of in (called name in the messages), adding to *totals and
 * writing one line per position and depth to out:
 *     <name>:<line>: <variant> <fen> depth <d>: <count> ok
 *     <name>:<line>: <variant> <fen> depth <d>: <count> FAIL, expected <n>
 *     <name>:<line>: <variant> <fen> depth <d>: skipped (expected <n> nodes)
 * and for a malformed line
 *     <name>:<line>: error: <what>; line skipped */
void perft_suite_run(FILE *in, const char *name, const PerftSuiteOptions *options, FILE *out,
                     PerftSuiteTotals *totals);

/* `sigil perft-suite [--variant NAME] [--max-nodes N] FILE...` ("-" is
 * stdin): runs every file, then prints `<N> passed, <M> failed`.  Exit
 * status 0 when every count matched and every line was read, 1 on a
 * mismatch, 2 on a malformed line or a file that cannot be read (and no
 * mismatch) or bad arguments. */
int perft_suite_main(int argc, char **argv, FILE *out, FILE *err);

#endif
