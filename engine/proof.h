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
 *
 * A certificate ends at the end of the file or before the next line that
 * begins "sigil-proof ", where the next certificate starts: a file may hold
 * several.  A book (proof_book_load) is a file of two certificates, one for
 * each side, usually both from the start position.
 */
#ifndef SIGIL_PROOF_H
#define SIGIL_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "variant.h"

typedef struct ProofCert ProofCert;

/* Check a certificate of variant v read from f against the rules (v's own
 * functions) and the tables tb of v (may be NULL: then only the game's ends
 * are leaves).  True when it proves that its side does not lose from its
 * root; otherwise false with the first fault in err.  *entries gets the
 * number of positions in it. */
bool proof_check(FILE *f, const Variant *v, const Tablebase *tb, uint64_t *entries, char *err,
                 size_t errlen);

/* Check every certificate of the file f (at least one), one after the other;
 * true when each is valid.  *certificates and *entries count them and their
 * positions; on a fault err names the first one. */
bool proof_check_file(FILE *f, const Variant *v, const Tablebase *tb, int *certificates,
                      uint64_t *entries, char *err, size_t errlen);

/* A book: the two certificates of a file, kept in memory for play. */
typedef struct ProofBook ProofBook;

/* Load and check the book at path for variant v against the tables tb (the
 * tables it rests on must be loaded).  NULL with err empty when there is no
 * file at path; NULL with err set ("book PATH not used: REASON") when it is
 * damaged, truncated, of another variant, lacks a side's certificate or does
 * not prove what it says. */
ProofBook *proof_book_load(const Variant *v, const Tablebase *tb, const char *path, char *err,
                           size_t errlen);
void proof_book_free(ProofBook *b);
/* Positions in side's certificate. */
uint64_t proof_book_entries(const ProofBook *b, int side);
/* The moves of the side to move in pos that the book proves do not lose:
 * after each, every reply reaches a position of that side's certificate, a
 * table position it does not lose, or an end it does not lose.  Writes them
 * to moves (in generation order) and returns how many; 0 when there is none
 * (pos is outside the book), the game is over or pos is a chance node. */
int proof_book_moves(const ProofBook *b, const Tablebase *tb, const Position *pos,
                     Move *moves);
/* Does the book (with the tables tb) prove that side does not lose from pos? */
bool proof_book_not_lose(const ProofBook *b, const Tablebase *tb, const Position *pos,
                         int side);

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
