/* util.h - small helpers shared by every module: clock, random numbers,
 * string scanning. */
#ifndef SIGIL_UTIL_H
#define SIGIL_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* Milliseconds from a monotonic clock. */
int64_t util_now_ms(void);

/* SplitMix64: advances *state and returns the next 64-bit value.  Used for
 * Zobrist keys (fixed seeds) and for the `roll`/random players (option Seed). */
uint64_t util_splitmix64(uint64_t *state);

/* Uniform integer in [0, n) from *state (n > 0), without modulo bias. */
uint64_t util_random_below(uint64_t *state, uint64_t n);

/* Copy the next whitespace-separated token of *cursor into buf (truncated to
 * size-1 bytes), advance *cursor past it; return the token length before
 * truncation, 0 at the end of the text. */
size_t util_next_token(const char **cursor, char *buf, size_t size);

/* Number of set bits. */
static inline int util_popcount64(uint64_t x) { return __builtin_popcountll(x); }
/* Index of the lowest set bit of a non-zero x. */
static inline int util_lsb64(uint64_t x) { return __builtin_ctzll(x); }

#endif
