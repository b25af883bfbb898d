/* match_main.c - sigil-match: parse the command line, then play the
 * tournament (or a shard of it), merge result files, or replay records. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ledger.h"
#include "match.h"
#include "record.h"
#include "report.h"
#include "results.h"
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
    const MatchConfig *cfg;
    FILE *pgn, *epd;
    bool failed;
    int pgn_errno, epd_errno; /* why a write failed */
} MergeOut;

static void merge_write(Ledger *l, int j, void *ctx)
{
    MergeOut *m = ctx;
    if (m->failed)
        return;
    errno = 0;
    if (m->pgn && l->g[j].pgn) {
        char *min = m->cfg->out.pgn_min ? results_minify_pgn(l->g[j].pgn) : NULL;
        fputs(min ? min : l->g[j].pgn, m->pgn);
        free(min);
    }
    if (m->epd && l->g[j].epd)
        fprintf(m->epd, "%s\n", l->g[j].epd);
    if (m->pgn && ferror(m->pgn))
        m->pgn_errno = errno ? errno : EIO, m->failed = true;
    else if (m->epd && ferror(m->epd))
        m->epd_errno = errno ? errno : EIO, m->failed = true;
}

/* Close an output of -merge; false (reported) when a write failed. */
static bool close_output(FILE *f, const char *path, int failed_errno)
{
    if (!f)
        return true;
    errno = 0;
    bool ok = fflush(f) == 0 && !ferror(f);
    int e = failed_errno ? failed_errno : errno ? errno : EIO;
    if (fclose(f) != 0 && ok) {
        ok = false;
        e = errno ? errno : EIO;
    }
    if (!ok)
        fprintf(stderr, "sigil-match: cannot write %s: %s\n", path, strerror(e));
    return ok;
}

/* -merge: the report and records of the merged ledger, exactly as the
 * single run would give them. */
static int merge(const MatchConfig *cfg)
{
    Ledger l;
    char err[1400];
    if (!ledger_merge(&l, cfg->merge_files, cfg->nmerge, stderr, err, sizeof err)) {
        fprintf(stderr, "sigil-match: %s\n", err);
        ledger_free(&l);
        return 2;
    }
    MergeOut out = {cfg, NULL, NULL, false, 0, 0};
    if (cfg->out.pgnout[0] && !(out.pgn = fopen(cfg->out.pgnout, cfg->out.pgn_append ? "a" : "w")))
        fprintf(stderr, "sigil-match: cannot open %s for writing: %s\n", cfg->out.pgnout,
                strerror(errno));
    if (cfg->out.epdout[0] && !(out.epd = fopen(cfg->out.epdout, cfg->out.epd_append ? "a" : "w")))
        fprintf(stderr, "sigil-match: cannot open %s for writing: %s\n", cfg->out.epdout,
                strerror(errno));
    int rc = (cfg->out.pgnout[0] && !out.pgn) || (cfg->out.epdout[0] && !out.epd) ? 2 : 0;
    if (rc == 0) {
        ledger_walk(&l, merge_write, &out);
        if (l.decided_at < 0) /* games after a hole (a missing game) */
            for (int j = l.prefix; j < l.sched.njobs; j++)
                if (l.g[j].done)
                    merge_write(&l, j, &out);
        bool a = close_output(out.pgn, cfg->out.pgnout, out.pgn_errno),
             b = close_output(out.epd, cfg->out.epdout, out.epd_errno);
        out.pgn = out.epd = NULL;
        if (!a || !b) {
            rc = 2;
        } else {
            printf("sigil-match: merged %d result file%s, %d of %d games\n", cfg->nmerge,
                   cfg->nmerge == 1 ? "" : "s", l.played, l.sched.njobs);
            report_final(&l, cfg->report.output == OUTPUT_FASTCHESS, -1);
            if (ledger_missing(&l) > 0)
                rc = 1;
        }
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
