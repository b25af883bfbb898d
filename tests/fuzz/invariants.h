/* invariants.h - what must hold of every position a game accepts, checked by
 * the FEN and move fuzz targets (see invariants.c for the list). */
#ifndef SIGIL_FUZZ_INVARIANTS_H
#define SIGIL_FUZZ_INVARIANTS_H

#include "variant.h"

/* Check pos (accepted by v->from_fen or reached by v->make) against the
 * Variant contract; abort with a message on the first broken rule.  children
 * says how many of its moves are played and checked one level deeper. */
void fuzz_check_position(const Variant *v, const Position *pos, const GameConfig *cfg,
                         int children);

#endif
