/* variants.h - the registry of games: name -> Variant. */
#ifndef SIGIL_VARIANTS_H
#define SIGIL_VARIANTS_H

#include "variant.h"

/* Build every game's tables; call once before anything else. */
void variants_init(void);
/* Number of playable games and the i-th of them (registry order). */
int variants_count(void);
const Variant *variants_get(int i);
/* The game with this name (case-insensitive), or NULL. */
const Variant *variants_find(const char *name);
/* The game whose name is nearest to name (fewest letters to change, add
 * or remove, case-insensitive), or NULL when none is within a third of
 * the name's length: the suggestion of an unknown name. */
const Variant *variants_nearest(const char *name);
/* The default game (the first in the registry). */
const Variant *variants_default(void);

#endif
