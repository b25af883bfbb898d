/* schedule.c - pairings, colours, openings and shards (see schedule.h). */
#include "schedule.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"


void schedule_build(const MatchConfig *cfg, Schedule *s)
{
    memset(s, 0, sizeof *s);
    int n = cfg->nengines;
    /* Round-robin: every pair; gauntlet: each of the first `seeds` engines
     * against every engine after the seeds. */
    s->pairings = util_xcalloc((size_t)(n * n + 1), sizeof *s->pairings);
    int seeds = cfg->seeds < 1 ? 1 : cfg->seeds;
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (!cfg->gauntlet || (i < seeds && j >= seeds)) {
                s->pairings[s->npairings].a = i;
                s->pairings[s->npairings++].b = j;
            }
    int repeat = cfg->repeat < 1 ? 1 : cfg->repeat;
    s->pairs = repeat == 2 && cfg->swap;
    s->njobs = cfg->rounds * s->npairings * cfg->games;
    s->jobs = util_xcalloc((size_t)s->njobs, sizeof *s->jobs);
    /* The opening of each pairing's current group, and the group's first job. */
    int *group_opening = util_xcalloc((size_t)s->npairings, sizeof(int));
    int *group_first = util_xcalloc((size_t)s->npairings, sizeof(int));
    int next_opening = 0, k = 0;
    for (int r = 0; r < cfg->rounds; r++)
        for (int p = 0; p < s->npairings; p++)
            for (int g = 0; g < cfg->games; g++) {
                Job *j = &s->jobs[k];
                j->index = k++;
                j->round = r;
                j->pairing = p;
                j->game = g;
                int seq = r * cfg->games + g; /* the pairing's k-th game */
                bool a_white = cfg->swap ? seq % 2 == 0 : true;
                if (cfg->reverse)
                    a_white = !a_white;
                j->white = a_white ? s->pairings[p].a : s->pairings[p].b;
                j->black = a_white ? s->pairings[p].b : s->pairings[p].a;
                if (seq % repeat == 0) {
                    group_opening[p] = next_opening++;
                    group_first[p] = j->index;
                }
                j->opening = group_opening[p];
                j->partner = -1;
                if (s->pairs && seq % 2 == 1) {
                    j->partner = group_first[p];
                    s->jobs[group_first[p]].partner = j->index;
                }
            }
    free(group_opening);
    free(group_first);
}

bool schedule_in_shard(const Job *j, int k, int n)
{
    return n <= 0 || j->opening % n == k - 1;
}

void schedule_free(Schedule *s)
{
    free(s->pairings);
    free(s->jobs);
    memset(s, 0, sizeof *s);
}
