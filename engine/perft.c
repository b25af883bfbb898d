/* perft.c - the generic perft walks and the size estimate. */
#include "perft.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

uint64_t perft_generic(const Variant *v, const Position *pos, int depth)
{
    if (depth <= 0)
        return 1;
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    if (depth == 1)
        return (uint64_t)n;
    uint64_t total = 0;
    Position child;
    for (int i = 0; i < n; i++) {
        v->make(pos, moves[i], &child);
        total += perft_generic(v, &child, depth - 1);
    }
    return total;
}

/* The generic walk with the last ply counted by count_moves(). */
static uint64_t perft_bulk(const Variant *v, const Position *pos, int depth)
{
    if (depth == 1)
        return (uint64_t)v->count_moves(pos);
    Move moves[MAX_MOVES];
    int n = v->generate(pos, moves);
    uint64_t total = 0;
    Position child;
    for (int i = 0; i < n; i++) {
        v->make(pos, moves[i], &child);
        total += perft_bulk(v, &child, depth - 1);
    }
    return total;
}

uint64_t perft_count(const Variant *v, const Position *pos, int depth)
{
    if (v->perft)
        return v->perft(pos, depth);
    if (depth <= 0)
        return 1;
    if (v->count_moves)
        return perft_bulk(v, pos, depth);
    return perft_generic(v, pos, depth);
}

uint64_t perft_estimate(const Variant *v, const Position *pos, int depth)
{
    if (depth <= 2)
        return perft_count(v, pos, depth);
    /* The mean growth per ply of the first plies, over two plies so that a
     * game whose rolls and actions alternate is not judged by one of them. */
    uint64_t n1 = perft_count(v, pos, 1), n2 = perft_count(v, pos, 2);
    if (n1 == 0 || n2 == 0)
        return 0;
    int known = 2;
    uint64_t nk = n2, base = 1;
    if (n2 <= PERFT_ESTIMATE_COUNT) {
        known = 3;
        nk = perft_count(v, pos, 3);
        base = n1;
        if (depth == 3 || nk == 0)
            return nk;
    }
    double growth = sqrt((double)nk / (double)base); /* per ply */
    double e = (double)nk * pow(growth, depth - known);
    return e >= 1.8e19 ? UINT64_MAX : (uint64_t)e;
}

/* 2^PERFT_CACHE_BITS entries, one per hash of the position and depth,
 * always replaced: 2^16 entries of 136 bytes, 8.5 MB, touched as used. */
#define PERFT_CACHE_BITS 16

typedef struct PerftCacheEntry {
    uint64_t count;
    uint32_t depth; /* 0: empty (a depth-0 count is never asked) */
    Position pos;
} PerftCacheEntry;

struct PerftCache {
    size_t size; /* the game's position_size: the bytes compared */
    PerftCacheEntry *e;
};

PerftCache *perft_cache_new(const Variant *v)
{
    PerftCache *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    c->size = v->position_size;
    c->e = calloc((size_t)1 << PERFT_CACHE_BITS, sizeof *c->e);
    if (!c->e) {
        free(c);
        return NULL;
    }
    return c;
}

void perft_cache_free(PerftCache *c)
{
    if (c)
        free(c->e);
    free(c);
}

/* FNV-1a over the position's bytes and the depth. */
static PerftCacheEntry *cache_slot(const PerftCache *c, const Position *pos, int depth)
{
    uint64_t h = 0xcbf29ce484222325ull ^ (uint64_t)depth;
    for (size_t i = 0; i < c->size; i++)
        h = (h ^ pos->bytes[i]) * 0x100000001b3ull;
    return &c->e[(h ^ h >> 32) & (((size_t)1 << PERFT_CACHE_BITS) - 1)];
}

bool perft_cache_get(const PerftCache *c, const Position *pos, int depth, uint64_t *count)
{
    const PerftCacheEntry *e = cache_slot(c, pos, depth);
    if (e->depth != (uint32_t)depth || memcmp(e->pos.bytes, pos->bytes, c->size) != 0)
        return false;
    *count = e->count;
    return true;
}

void perft_cache_put(PerftCache *c, const Position *pos, int depth, uint64_t count)
{
    PerftCacheEntry *e = cache_slot(c, pos, depth);
    e->count = count;
    e->depth = (uint32_t)depth;
    memcpy(e->pos.bytes, pos->bytes, c->size);
}

uint64_t perft_count_cached(const Variant *v, const Position *pos, int depth, PerftCache *c)
{
    uint64_t total = 0;
    if (!c || depth < PERFT_CACHE_MIN_DEPTH)
        return perft_count(v, pos, depth);
    if (perft_cache_get(c, pos, depth, &total))
        return total;
    if (depth <= PERFT_CACHE_LEAF_DEPTH) {
        total = perft_count(v, pos, depth);
    } else {
        Move moves[MAX_MOVES];
        int n = v->generate(pos, moves);
        Position child;
        for (int i = 0; i < n; i++) {
            v->make(pos, moves[i], &child);
            total += perft_count_cached(v, &child, depth - 1, c);
        }
    }
    perft_cache_put(c, pos, depth, total);
    return total;
}
