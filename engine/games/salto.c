/* salto.c - placeholder until the game is written: not offered by the registry. */
#include "../variants.h"
const Variant variant_salto = {0};
