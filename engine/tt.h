/* tt.h - the transposition table shared by every search thread.
 *
 * The table is the one mutable global of the search.  It is made of 64-byte
 * buckets of four 16-byte entries.  An entry is two 64-bit words stored with
 * relaxed atomics and no lock: `data` packs the upper 32 key bits, score,
 * depth, bound, a "solved" flag and the age; `move_xor` holds move ^ data.  A
 * torn read (two threads writing the same entry) is rejected by the key bits
 * when data is foreign, and otherwise yields at worst a wrong move, which the
 * search ignores because it only uses the TT move to order the moves it has
 * generated itself.
 *
 * The table is an anonymous mapping: its pages are zero and take no memory
 * until a search writes them.  tt_clear() of a table that was written maps
 * a fresh one (and returns the old pages), of an unused one does nothing.
 *
 * tt_resize(), tt_clear() and tt_new_search() must only be called while no
 * search runs (the protocol stops the search first).  tt_probe(), tt_store()
 * and tt_hashfull() may be called from any number of search threads at once.
 */
#ifndef SIGIL_TT_H
#define SIGIL_TT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "variant.h"

/* Table size (option Hash, bench) in megabytes: default and largest. */
#define TT_DEFAULT_MB 16
#define TT_MAX_MB 4096

/* Kind of score an entry holds (alpha-beta bounds). */
enum {
    TT_BOUND_NONE = 0,  /* empty entry */
    TT_BOUND_UPPER = 1, /* score <= true value fails: true value <= score */
    TT_BOUND_LOWER = 2, /* true value >= score */
    TT_BOUND_EXACT = 3
};

/* What a probe found. */
typedef struct TTHit {
    Move move;   /* best or refuting move; may be MOVE_NONE or (after a race) junk */
    int score;   /* as stored (the search adjusts win scores by ply) */
    int depth;   /* remaining depth of the search that stored it, 0 = quiescence */
    int bound;   /* TT_BOUND_* */
    bool solved; /* the score was proved: it holds at any depth */
} TTHit;

/* Allocate a table of mb megabytes (at least 1), cleared.  Returns false and
 * keeps the old table when memory is short. */
bool tt_resize(size_t mb);
/* Current size in megabytes (0 before the first tt_resize). */
size_t tt_size_mb(void);
/* Number of entries (4 per bucket). */
size_t tt_entry_count(void);
/* Empty every entry and reset the age. */
void tt_clear(void);
/* Start a new search: entries stored before become older for replacement
 * and no longer count in tt_hashfull(). */
void tt_new_search(void);
/* Look key up; true and *hit filled when an entry with this key exists. */
bool tt_probe(uint64_t key, TTHit *hit);
/* Start loading key's bucket into the cache (a hint; no effect on results). */
void tt_prefetch(uint64_t key);
/* Store a result.  In a bucket the entry with the same key is updated (kept
 * when it is deeper, from this search and not exact; its move is kept when
 * move is MOVE_NONE); otherwise the emptiest / shallowest / oldest entry is
 * replaced. */
void tt_store(uint64_t key, Move move, int score, int depth, int bound, bool solved);
/* Permille of the first 1000 entries written during the current search. */
int tt_hashfull(void);

#endif
