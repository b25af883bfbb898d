/* match_main.c - sigil-match: parse the command line, then play the
 * tournament (or a shard of it), merge result files, or replay records. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledger.h"
#include "match.h"
#include "record.h"
#include "report.h"
#include "variants.h"

static int replay(const char *path)
{
    int count = 0;
    int failed = record_replay_file(path, stdout, &count);
    if (failed < 0) {
        fprintf(stderr, "sigil-match: cannot read %s\n", path);
        return 2;
    }
    printf("replayed %d record%s, %d failed\n", count, count == 1 ? "" : "s", failed);
    return failed ? 1 : 0;
}

typedef struct MergeOut {
    FILE *pgn, *epd;
} MergeOut;

static void merge_write(Ledger *l, int j, void *ctx)
{
    MergeOut *m = ctx;
    if (m->pgn && l->g[j].pgn)
        fputs(l->g[j].pgn, m->pgn);
    if (m->epd && l->g[j].epd)
        fprintf(m->epd, "%s\n", l->g[j].epd);
}

/* -merge: the report and records of the merged ledger, exactly as the
 * single run would give them. */
static int merge(const MatchConfig *cfg)
{
    Ledger l;
    char err[1400];
    if (!ledger_merge(&l, cfg->merge_files, cfg->nmerge, err, sizeof err)) {
        fprintf(stderr, "sigil-match: %s\n", err);
        ledger_free(&l);
        return 2;
    }
    MergeOut out = {NULL, NULL};
    if (cfg->pgnout[0] && !(out.pgn = fopen(cfg->pgnout, cfg->pgn_append ? "a" : "w")))
        fprintf(stderr, "sigil-match: cannot open %s for writing\n", cfg->pgnout);
    if (cfg->epdout[0] && !(out.epd = fopen(cfg->epdout, cfg->epd_append ? "a" : "w")))
        fprintf(stderr, "sigil-match: cannot open %s for writing\n", cfg->epdout);
    int rc = (cfg->pgnout[0] && !out.pgn) || (cfg->epdout[0] && !out.epd) ? 2 : 0;
    if (rc == 0) {
        printf("sigil-match: merged %d result file%s, %d of %d games\n", cfg->nmerge,
               cfg->nmerge == 1 ? "" : "s", l.played, l.sched.njobs);
        ledger_walk(&l, merge_write, &out);
        if (l.decided_at < 0) /* games after a hole (a missing game) */
            for (int j = l.prefix; j < l.sched.njobs; j++)
                if (l.g[j].done)
                    merge_write(&l, j, &out);
        report_final(&l, cfg->output == OUTPUT_FASTCHESS, -1);
        if (ledger_missing(&l) > 0)
            rc = 1;
    }
    if (out.pgn)
        fclose(out.pgn);
    if (out.epd)
        fclose(out.epd);
    ledger_free(&l);
    return rc;
}

int main(int argc, char **argv)
{
    variants_init();
    MatchConfig cfg;
    match_config_defaults(&cfg);
    int rc = cli_parse(argc, argv, &cfg);
    if (rc < 0) {
        switch (cfg.mode) {
        case MODE_REPLAY: rc = replay(cfg.replay_file); break;
        case MODE_MERGE: rc = merge(&cfg); break;
        default: rc = match_run(&cfg); break;
        }
    }
    match_config_free(&cfg);
    return rc;
}
