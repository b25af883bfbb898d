/* perft.c - the generic perft walks. */
#include "perft.h"

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
