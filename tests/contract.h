/* contract.h - the interface contract of engine/variant.h as checks that any
 * game can be put through.
 *
 * tests/check_contract.c runs every check over every registered variant, so
 * a new game gets them all by being registered; the per-game suites test only
 * their game's rules.  A check never stops at the first violation: it counts
 * them and keeps the first one's description, so a test can also assert that
 * a deliberately broken game is caught.
 */
#ifndef SIGIL_CONTRACT_H
#define SIGIL_CONTRACT_H

#include <stdbool.h>

#include "variant.h"

/* What a check found. */
typedef struct ContractResult {
    long positions; /* positions looked at */
    long failures;  /* violations found */
    char first[512]; /* the first violation, in words */
} ContractResult;

/* One rule of variant.h and how to check it. */
typedef struct ContractCheck {
    const char *name; /* short, e.g. "fen-round-trip" */
    const char *rule; /* the rule, one line */
    /* Run over one position of a random playout (NULL: not per position). */
    void (*at_position)(const Variant *v, const Position *pos, ContractResult *r);
    int every; /* at_position sees every every-th position of the playouts */
    /* Run once per game (NULL: none). */
    void (*once)(const Variant *v, ContractResult *r);
} ContractCheck;

/* Every check, and how many there are. */
extern const ContractCheck contract_checks[];
extern const int contract_check_count;

/* The check named name, or NULL. */
const ContractCheck *contract_find(const char *name);

/* Put v through check c: its once() part, then its at_position() part over
 * the positions of a fixed set of seeded random playouts from the start
 * position to the end of the game.  Fills *r. */
void contract_run(const Variant *v, const ContractCheck *c, ContractResult *r);

#endif
