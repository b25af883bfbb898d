/* solomon.c - placeholder until the game is written: not offered by the registry. */
#include "../variants.h"
const Variant variant_solomon = {0};
const Variant variant_solomon_chain = {0};
