/* util.h - small helpers shared by every module: clock, random numbers,
 * string scanning. */
#ifndef SIGIL_UTIL_H
#define SIGIL_UTIL_H

#include <stdbool.h>
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

/* The one out-of-memory policy of every program of the tree: an allocation
 * that fails is not recoverable (a search, a referee or a report missing a
 * piece would be silently wrong), so these print "<program>: out of memory
 * (<n> bytes)" on stderr and exit with status 1.  Where a failure can be
 * survived (the transposition table keeps its old size), the caller uses
 * malloc itself and says so.  util_set_program_name names the program in
 * the message (default "sigil"); it is the tree's one documented global. */
void util_set_program_name(const char *name);
void *util_xmalloc(size_t size);
void *util_xcalloc(size_t count, size_t size);
void *util_xrealloc(void *ptr, size_t size);
char *util_xstrdup(const char *text);

/* Parse text as a whole decimal number in [min, max], strictly: digits only,
 * a leading '-' only when min < 0; no '+', no spaces, no other characters,
 * no overflow.  False (and *value untouched) otherwise. */
bool util_parse_number(const char *text, long long min, long long max, long long *value);

/* Number of set bits: the one popcount of the tree.  A native build
 * (configure --enable-native, or any -mpopcnt) has the instruction and
 * the builtin becomes it; without it the builtin is a call into libgcc, so
 * the branch-free SWAR sum below is used instead. */
static inline int util_popcount64(uint64_t x)
{
#ifdef __POPCNT__
    return __builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
#endif
}

/* util_popcount64 of a 32-bit value, cheaper without the instruction (the
 * boards of most games fit in 32 bits). */
static inline int util_popcount32(uint32_t x)
{
#ifdef __POPCNT__
    return __builtin_popcount(x);
#else
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    x = (x + (x >> 4)) & 0x0F0F0F0Fu;
    return (int)((x * 0x01010101u) >> 24);
#endif
}
/* Index of the lowest set bit of a non-zero x. */
static inline int util_lsb64(uint64_t x) { return __builtin_ctzll(x); }

#endif
