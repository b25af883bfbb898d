/* perft.c - the generic perft walks and the size estimate. */
#include "perft.h"

#include <math.h>

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
