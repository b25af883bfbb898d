/* info.c - the protocol's `info` line, written from a search report. */
#include "info.h"

#include <inttypes.h>
#include <stdio.h>

void info_format(const Variant *v, const SearchInfo *info, char *buf, size_t size)
{
    char sc[32];
    search_format_score(info->score, sc);
    int n = snprintf(buf, size,
                     "info depth %d seldepth %d multipv %d score %s nodes %" PRIu64
                     " nps %" PRIu64 " time %" PRId64 " hashfull %d",
                     info->depth, info->seldepth, info->multipv, sc, info->nodes, info->nps,
                     info->time_ms, info->hashfull);
    if (n >= 0 && (size_t)n < size && info->tablebase)
        n += snprintf(buf + n, size - (size_t)n, " tbhits %" PRIu64, info->tbhits);
    if (n < 0 || (size_t)n >= size || info->pv_len <= 0)
        return;
    size_t len = (size_t)n;
    len += (size_t)snprintf(buf + len, size - len, " pv");
    Position a = *info->root, b;
    for (int i = 0; i < info->pv_len && len + MOVE_STR_MAX + 2 < size; i++) {
        char move[MOVE_STR_MAX];
        v->move_str(&a, info->pv[i], move);
        len += (size_t)snprintf(buf + len, size - len, " %s", move);
        v->make(&a, info->pv[i], &b);
        a = b;
    }
}
