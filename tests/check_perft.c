/* check_perft.c - the perft regression tables in tests/perft/<variant>.txt.
 *
 * Each file is a perft suite (protocol.md, "Perft suites"), read with the engine's
 * own suite parser (engine/perftsuite.c); a file whose lines do not name
 * their game is the game of its name.  `make check` runs every entry whose
 * count is at most QUICK_LIMIT; `make perft-full` (SIGIL_PERFT_FULL=1) runs
 * all of them.  Small entries are also counted by the generic walk, so a
 * game's fast perft path is checked against its own generate()/make().
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "perft.h"
#include "perftsuite.h"
#include "variants.h"

#define QUICK_LIMIT 5000000ULL
#define GENERIC_LIMIT 300000ULL
#define MAX_ENTRIES 4096

typedef struct Entry {
    const Variant *variant;
    char fen[FEN_MAX];
    char where[300]; /* file:line for messages */
    int depth;
    uint64_t count;
} Entry;

static Entry entries[MAX_ENTRIES];
static int entry_count;
static int files_read;
static int malformed; /* lines the suite parser refused */

static void load_file(const char *dir, const char *name)
{
    char path[2304];
    snprintf(path, sizeof path, "%.1024s/%.1024s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return;
    }
    files_read++;
    char base[64];
    snprintf(base, sizeof base, "%.*s", (int)(strlen(name) - 4), name);
    const Variant *current = variants_find(base);
    char text[4096], err[256];
    int lineno = 0;
    PerftSuiteLine line;
    while (fgets(text, sizeof text, f)) {
        lineno++;
        text[strcspn(text, "\r\n")] = '\0';
        if (!perft_suite_parse(text, &line, err, sizeof err)) {
            fprintf(stderr, "%s:%d: %s\n", name, lineno, err);
            malformed++;
            continue;
        }
        if (line.kind == PERFT_SUITE_VARIANT)
            current = line.variant;
        if (line.kind != PERFT_SUITE_POSITION)
            continue;
        for (int i = 0; i < line.ncounts && entry_count < MAX_ENTRIES; i++) {
            Entry *e = &entries[entry_count++];
            e->variant = line.variant ? line.variant : current;
            snprintf(e->fen, sizeof e->fen, "%s", line.fen);
            snprintf(e->where, sizeof e->where, "%s:%d", name, lineno);
            e->depth = line.depth[i];
            e->count = line.count[i];
        }
    }
    fclose(f);
}

static void load_tables(void)
{
    const char *src = getenv("SIGIL_SRCDIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/tests/perft", src ? src : ".");
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n > 4 && strcmp(de->d_name + n - 4, ".txt") == 0)
            load_file(dir, de->d_name);
    }
    closedir(d);
}

static bool full_run(void)
{
    const char *f = getenv("SIGIL_PERFT_FULL");
    return f && *f && strcmp(f, "0") != 0;
}

START_TEST(tables_were_found)
{
    ck_assert_msg(files_read > 0, "no tests/perft/*.txt found (SIGIL_SRCDIR unset?)");
    ck_assert_int_gt(entry_count, 0);
    ck_assert_int_eq(malformed, 0);
}
END_TEST

START_TEST(perft_entry_matches)
{
    const Entry *e = &entries[_i];
    if (e->count > QUICK_LIMIT && !full_run())
        return;
    const Variant *v = e->variant;
    ck_assert_msg(v != NULL, "%s: no variant", e->where);
    Position pos;
    char err[256] = "";
    ck_assert_msg(perft_suite_position(v, e->fen, &pos, err, sizeof err), "%s: '%s': %s",
                  e->where, e->fen, err);
    uint64_t got = perft_count(v, &pos, e->depth);
    ck_assert_msg(got == e->count, "%s: %s perft(%d) of '%s' = %" PRIu64 ", table says %" PRIu64,
                  e->where, v->name, e->depth, e->fen, got, e->count);
    /* The same count through the cache of counts, which must be exact. */
    if (e->depth >= PERFT_CACHE_MIN_DEPTH + 2) {
        PerftCache *cache = perft_cache_new(v);
        ck_assert(cache != NULL);
        uint64_t cached = perft_count_cached(v, &pos, e->depth, cache);
        perft_cache_free(cache);
        ck_assert_msg(cached == e->count, "%s: cached perft(%d) = %" PRIu64 ", table %" PRIu64,
                      e->where, e->depth, cached, e->count);
    }
    if (e->count <= GENERIC_LIMIT) {
        uint64_t generic = perft_generic(v, &pos, e->depth);
        ck_assert_msg(generic == e->count, "%s: generic perft(%d) = %" PRIu64 ", table %" PRIu64,
                      e->where, e->depth, generic, e->count);
    }
}
END_TEST

int main(void)
{
    variants_init();
    load_tables();
    Suite *s = suite_create("perft");
    TCase *tc = tcase_create("tables");
    tcase_set_timeout(tc, full_run() ? 3600 : 120);
    tcase_add_test(tc, tables_were_found);
    if (entry_count > 0)
        tcase_add_loop_test(tc, perft_entry_matches, 0, entry_count);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
