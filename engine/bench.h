/* bench.h - the fixed search set whose node count signs every commit. */
#ifndef SIGIL_BENCH_H
#define SIGIL_BENCH_H

#include <stdint.h>
#include <stdio.h>

/* Search the fixed positions of every game to a fixed depth (depth <= 0: the
 * default), print one line per position and a summary to out, return the
 * total node count (the signature). */
uint64_t bench_run(int depth, FILE *out);

#endif
