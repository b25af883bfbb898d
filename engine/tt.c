/* tt.c - the lockless transposition table (see tt.h for the layout). */
/* mmap's MAP_ANONYMOUS is not in POSIX 2008: ask the C library for it. */
#define _DEFAULT_SOURCE 1
#include "tt.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

#define BUCKET_ENTRIES 4
#define AGE_BITS 5
#define AGE_MASK ((1u << AGE_BITS) - 1)

typedef struct TTEntry {
    _Atomic uint64_t move_xor; /* move ^ data */
    _Atomic uint64_t data;
} TTEntry;

typedef struct TTBucket {
    TTEntry e[BUCKET_ENTRIES];
} TTBucket;

_Static_assert(sizeof(TTBucket) == 64, "a bucket is one cache line");

/* data layout, low to high:
 *   bits  0..31  key >> 32 (verification; the low 32 bits chose the bucket)
 *   bits 32..47  score as int16
 *   bits 48..55  depth (0..255)
 *   bits 56..57  bound
 *   bit  58      solved
 *   bits 59..63  age (generation of the search that stored it)            */
static inline uint64_t pack(uint64_t key, int score, int depth, int bound, bool solved,
                            unsigned age)
{
    if (depth < 0)
        depth = 0;
    if (depth > 255)
        depth = 255;
    return (key >> 32) | ((uint64_t)(uint16_t)(int16_t)score << 32) |
           ((uint64_t)depth << 48) | ((uint64_t)(bound & 3) << 56) |
           ((uint64_t)(solved ? 1 : 0) << 58) | ((uint64_t)(age & AGE_MASK) << 59);
}

static inline uint32_t d_key(uint64_t d) { return (uint32_t)d; }
static inline int d_score(uint64_t d) { return (int16_t)(uint16_t)(d >> 32); }
static inline int d_depth(uint64_t d) { return (int)((d >> 48) & 0xff); }
static inline int d_bound(uint64_t d) { return (int)((d >> 56) & 3); }
static inline bool d_solved(uint64_t d) { return (d >> 58) & 1; }
static inline unsigned d_age(uint64_t d) { return (unsigned)(d >> 59) & AGE_MASK; }

/* Changed only while no search runs (see tt.h).  The buckets live in an
 * anonymous mapping: its pages are zero and take no memory until a search
 * writes them, so a large Hash is ready at once.  Nothing writes the whole
 * table: a resize, and a clear of a table that searches have written, take
 * a fresh mapping and return the old one's pages to the system. */
static TTBucket *table;
static size_t bucket_count;
static size_t table_mb;
static unsigned generation;
/* Set by the first tt_store after an allocation or a clear: a clean table
 * needs no clearing. */
static atomic_bool table_dirty;

/* A zeroed table of buckets buckets (page-aligned); NULL when short. */
static TTBucket *table_map(size_t buckets)
{
    if (buckets == 0 || buckets > SIZE_MAX / sizeof(TTBucket))
        return NULL;
    void *p = mmap(NULL, buckets * sizeof(TTBucket), PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void table_unmap(TTBucket *t, size_t buckets)
{
    if (t)
        munmap(t, buckets * sizeof(TTBucket));
}

static inline TTBucket *bucket_of(uint64_t key)
{
    /* Multiply-shift maps the low 32 key bits onto [0, bucket_count). */
    return &table[((key & 0xffffffffu) * (uint64_t)bucket_count) >> 32];
}

bool tt_resize(size_t mb)
{
    if (mb < 1)
        mb = 1;
#ifdef SIGIL_FUZZ
    /* The fuzz build (tests/fuzz) keeps 4 KB whatever the size asked: one
     * input must run in microseconds, clearing and sampling it included. */
    size_t buckets = 4 * 1024 / sizeof(TTBucket);
#else
    size_t buckets = mb * 1024 * 1024 / sizeof(TTBucket);
#endif
    TTBucket *t = table_map(buckets);
    if (!t)
        return false;
    table_unmap(table, bucket_count);
    table = t;
    bucket_count = buckets;
    table_mb = mb;
    atomic_store_explicit(&table_dirty, false, memory_order_relaxed);
    generation = 0;
    return true;
}

size_t tt_size_mb(void) { return table_mb; }

size_t tt_entry_count(void) { return bucket_count * BUCKET_ENTRIES; }

void tt_clear(void)
{
    generation = 0;
    if (!table || !atomic_load_explicit(&table_dirty, memory_order_relaxed))
        return;
    /* A fresh block instead of writing every page: the old one's pages go
     * back to the system, the new one's are zero until used.  When memory
     * is short, the old block is cleared in place. */
    TTBucket *t = table_map(bucket_count);
    if (t) {
        table_unmap(table, bucket_count);
        table = t;
    } else {
        memset(table, 0, bucket_count * sizeof(TTBucket));
    }
    atomic_store_explicit(&table_dirty, false, memory_order_relaxed);
}

void tt_new_search(void) { generation = (generation + 1) & AGE_MASK; }

void tt_prefetch(uint64_t key)
{
    if (table)
        __builtin_prefetch(bucket_of(key));
}

bool tt_probe(uint64_t key, TTHit *hit)
{
    if (!table)
        return false;
    TTBucket *b = bucket_of(key);
    uint32_t check = (uint32_t)(key >> 32);
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        if (d_bound(d) == TT_BOUND_NONE || d_key(d) != check)
            continue;
        uint64_t mx = atomic_load_explicit(&b->e[i].move_xor, memory_order_relaxed);
        hit->move = mx ^ d;
        hit->score = d_score(d);
        hit->depth = d_depth(d);
        hit->bound = d_bound(d);
        hit->solved = d_solved(d);
        return true;
    }
    return false;
}

/* How far back in searches an age lies (0 = this search). */
static inline unsigned age_distance(uint64_t d) { return (generation - d_age(d)) & AGE_MASK; }

void tt_store(uint64_t key, Move move, int score, int depth, int bound, bool solved)
{
    if (!table)
        return;
    TTBucket *b = bucket_of(key);
    uint32_t check = (uint32_t)(key >> 32);
    TTEntry *target = NULL;
    uint64_t old = 0;
    int worst = 1 << 30;
    for (int i = 0; i < BUCKET_ENTRIES; i++) {
        uint64_t d = atomic_load_explicit(&b->e[i].data, memory_order_relaxed);
        if (d_bound(d) != TT_BOUND_NONE && d_key(d) == check) {
            target = &b->e[i];
            old = d;
            break;
        }
        /* Empty entries first, then shallow ones, older searches count as
         * shallower. */
        int value = d_bound(d) == TT_BOUND_NONE
                        ? -(1 << 20)
                        : d_depth(d) - 8 * (int)age_distance(d);
        if (value < worst) {
            worst = value;
            target = &b->e[i];
            old = 0;
        }
    }
    if (old) {
        /* Same position: keep a deeper entry of this search unless the new
         * result is exact or proved. */
        if (bound != TT_BOUND_EXACT && !solved && age_distance(old) == 0 &&
            depth < d_depth(old) - 2)
            return;
        if (move == MOVE_NONE)
            move = atomic_load_explicit(&target->move_xor, memory_order_relaxed) ^ old;
    }
    if (!atomic_load_explicit(&table_dirty, memory_order_relaxed))
        atomic_store_explicit(&table_dirty, true, memory_order_relaxed);
    uint64_t d = pack(key, score, depth, bound, solved, generation);
    atomic_store_explicit(&target->data, d, memory_order_relaxed);
    atomic_store_explicit(&target->move_xor, move ^ d, memory_order_relaxed);
}

int tt_hashfull(void)
{
    if (!table)
        return 0;
    size_t entries = bucket_count * BUCKET_ENTRIES;
    size_t sample = entries < 1000 ? entries : 1000;
    size_t used = 0;
    for (size_t i = 0; i < sample; i++) {
        uint64_t d = atomic_load_explicit(&table[i / BUCKET_ENTRIES].e[i % BUCKET_ENTRIES].data,
                                          memory_order_relaxed);
        used += d_bound(d) != TT_BOUND_NONE && age_distance(d) == 0;
    }
    return sample ? (int)(used * 1000 / sample) : 0;
}
