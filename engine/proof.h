/* proof.h - not-lose certificates: a checkable proof that one side cannot lose.
 *
 * A certificate for side S from a root position is a set of positions with S
 * to move, each with one move of S, closed under the opponent's replies:
 * after S's move, every reply leads back into the set, to a position that the
 * endgame tables give S at least a draw, or to an end of the game that S has
 * not lost.  Lines that cycle are draws (repetition), which is what S needs, so
 * the set needs no order.  See doc/tablebases.md.
 *
 * File format (text, one record a line):
 *   sigil-proof 1
 *   variant <name>
 *   side white|black
 *   root <FEN>
 *   <FEN>|<move>          (any number; S is to move in every FEN)
 */
#ifndef SIGIL_PROOF_H
#define SIGIL_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

/* Check a certificate of variant v read from f against the rules (v's own
 * functions) and the tables tb of v (may be NULL: then only the game's ends
 * are leaves).  True when it proves that its side does not lose from its
 * root; otherwise false with the first fault in err.  *entries gets the
 * number of positions in it. */
bool proof_check(FILE *f, const Variant *v, const Tablebase *tb, uint64_t *entries, char *err,
                 size_t errlen);

/* Search for a certificate that side does not lose from root, exploring at
 * most max_nodes positions outside the tables (breadth first, in rounds of
 * growing room from 4096 positions, so that easy proofs stay small), keeping
 * the largest set from which side can always stay inside it or reach a safe
 * leaf (a greatest fixpoint); positions left unexplored count as lost for
 * side.  Writes the certificate to out and returns 1 when the root is kept;
 * 0 when it is not proved: side loses, or the room was not enough (nothing
 * written); -1 on error (out of memory), with err set.  *explored gets the
 * positions explored in all rounds. */
int proof_search(const Variant *v, const Tablebase *tb, const Position *root, int side,
                 uint64_t max_nodes, FILE *out, uint64_t *explored, char *err, size_t errlen);

#endif
