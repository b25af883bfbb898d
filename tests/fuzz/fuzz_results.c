/* fuzz_results.c - libFuzzer target: sigil-match's result files, as -merge
 * and -resume read them (engine/match/results.h).
 *
 * Input: a result file.
 *   - a refusal is exactly one printable line naming the file and a line
 *     ("PATH:LINE: why"), and nothing is left allocated (LeakSanitizer);
 *   - an accepted file, written again from what was read (header, games in
 *     their order, the end line when it had one), is byte for byte the
 *     input up to its last whole game (the rest being a block written only
 *     in part, which must have been reported); read again it is accepted
 *     with the same games;
 *   - every accepted game has a record and a final position, the movetext
 *     of its minimal record has no comment, and the missing games named as ranges add up;
 *   - no allocation comes from an unchecked length: the schedule is bounded
 *     (results_max_jobs, lowered here) and a record to RESULTS_RECORD_MAX,
 *     and libFuzzer's -malloc_limit_mb (below) turns any larger one into a
 *     crash. */
#define _GNU_SOURCE /* memfd_create, open_memstream */
#include <unistd.h>

#include "fuzz.h"
#include "memfile.h"
#include "ledger.h"
#include "results.h"
#include "variants.h"

static FuzzMemFile file = FUZZ_MEMFILE_INIT;

FUZZ_DEFAULTS("results.dict", "-malloc_limit_mb=256")

/* Read path into l; true when accepted, else err checked. */
static bool read_checked(const char *path, Ledger *l, ResultsInfo *info, char *err, size_t size)
{
    FILE *f = fopen(path, "r");
    FUZZ_CHECK(f != NULL, "cannot open %s", path);
    err[0] = '\0';
    bool ok = results_read(f, path, l, info, err, size);
    fclose(f);
    if (!ok) {
        FUZZ_CHECK(err[0] && fuzz_is_one_printable_line(err, size - 1),
                   "a refusal that is not one printable line: '%s'", err);
        FUZZ_CHECK(!strncmp(err, path, strlen(path)) && err[strlen(path)] == ':',
                   "a refusal that does not name the file: '%s'", err);
    }
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool init;
    if (!init) {
        variants_init();
        results_max_jobs = 20000;
        init = true;
    }
    const char *path = fuzz_memfile_write(&file, "results", data, size);
    Ledger l;
    ResultsInfo info;
    char err[1400];
    bool ok = read_checked(path, &l, &info, err, sizeof err);
    if (!ok) {
        ledger_free(&l);
        return 0;
    }
    FUZZ_CHECK(info.used >= 0 && (size_t)info.used <= size, "used %ld of %zu bytes", info.used,
               size);
    FUZZ_CHECK(l.played == l.norder, "%d games, %d in order", l.played, l.norder);
    if (info.complete)
        FUZZ_CHECK((size_t)info.used + 4 == size, "a complete file of %zu bytes, %ld used", size,
                   info.used);
    else if ((size_t)info.used < size)
        FUZZ_CHECK(info.dropped_line > 0 ||
                       (size - (size_t)info.used < 4 &&
                        !memcmp(data + info.used, "end", size - (size_t)info.used)),
                   "%zu bytes after the last game left out without a word", size - info.used);
    for (int k = 0; k < l.norder; k++) {
        const LedgerGame *g = &l.g[l.order[k]];
        FUZZ_CHECK(g->done && g->pgn && g->epd, "game %d without its record", l.order[k] + 1);
        char *min = results_minify_pgn(g->pgn);
        FUZZ_CHECK(min != NULL, "no minimal record");
        const char *moves = strstr(min, "\n\n");
        FUZZ_CHECK(moves && !strchr(moves, '{'), "a minimal record with a comment: %s", min);
        free(min);
    }
    char ranges[600];
    int missing = results_missing_ranges(&l, ranges, sizeof ranges);
    FUZZ_CHECK(missing == ledger_missing(&l), "%d missing named, %d counted", missing,
               ledger_missing(&l));

    /* Written again: the same bytes. */
    char *again = NULL;
    size_t again_len = 0;
    FILE *m = open_memstream(&again, &again_len);
    FUZZ_CHECK(m != NULL, "open_memstream");
    FUZZ_CHECK(results_write_all(m, &l, info.complete), "writing to memory failed");
    fclose(m);
    size_t want = (size_t)info.used + (info.complete ? 4 : 0);
    FUZZ_CHECK(again_len == want && !memcmp(again, data, want),
               "written again: %zu bytes, the input's first %zu differ", again_len, want);

    /* And read again: accepted, the same games. */
    const char *path2 = fuzz_memfile_write(&file, "results", (const uint8_t *)again, again_len);
    Ledger l2;
    ResultsInfo info2;
    bool ok2 = read_checked(path2, &l2, &info2, err, sizeof err);
    FUZZ_CHECK(ok2, "the file written again is refused: %s", err);
    FUZZ_CHECK(l2.played == l.played && info2.complete == info.complete &&
                   info2.dropped_line == 0,
               "read again: %d games (was %d)", l2.played, l.played);
    ledger_free(&l2);
    free(again);
    ledger_free(&l);
    return 0;
}
