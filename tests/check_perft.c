/* check_perft.c - the perft regression tables in tests/perft/<variant>.txt.
 *
 * Each line: <fen or startpos>;<depth> <count>;<depth> <count>...
 * `make check` runs every entry whose count is at most QUICK_LIMIT;
 * `make perft-full` (SIGIL_PERFT_FULL=1) runs all of them.  Small entries are
 * also counted by the generic walk, so a game's fast perft path is checked
 * against its own generate()/make().
 */
#include <check.h>
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "game.h"
#include "perft.h"
#include "variants.h"

#define QUICK_LIMIT 5000000ULL
#define GENERIC_LIMIT 300000ULL
#define MAX_ENTRIES 4096

typedef struct Entry {
    char variant[32];
    char fen[FEN_MAX];
    char where[300]; /* file:line for messages */
    int depth;
    uint64_t count;
} Entry;

static Entry entries[MAX_ENTRIES];
static int entry_count;
static int files_read;

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
    char variant[32];
    snprintf(variant, sizeof variant, "%.*s", (int)(strlen(name) - 4), name);
    char line[2048];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        char *save = NULL;
        char *fen = strtok_r(line, ";", &save);
        char *field;
        while ((field = strtok_r(NULL, ";", &save)) != NULL) {
            int depth;
            uint64_t count;
            if (sscanf(field, "%d %" SCNu64, &depth, &count) != 2)
                continue;
            if (entry_count == MAX_ENTRIES)
                break;
            Entry *e = &entries[entry_count++];
            snprintf(e->variant, sizeof e->variant, "%s", variant);
            /* trim the FEN */
            while (*fen == ' ')
                fen++;
            size_t n = strlen(fen);
            while (n > 0 && fen[n - 1] == ' ')
                n--;
            snprintf(e->fen, sizeof e->fen, "%.*s", (int)n, fen);
            snprintf(e->where, sizeof e->where, "%s:%d", name, lineno);
            e->depth = depth;
            e->count = count;
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
}
END_TEST

START_TEST(perft_entry_matches)
{
    const Entry *e = &entries[_i];
    if (e->count > QUICK_LIMIT && !full_run())
        return;
    const Variant *v = variants_find(e->variant);
    ck_assert_msg(v != NULL, "%s: variant '%s' is not built", e->where, e->variant);
    GameConfig cfg = {.move_limit = DEFAULT_MOVE_LIMIT};
    Position pos;
    if (strcmp(e->fen, "startpos") == 0) {
        v->startpos(&pos, &cfg);
    } else {
        char err[160] = "";
        ck_assert_msg(v->from_fen(&pos, e->fen, &cfg, err, sizeof err), "%s: bad FEN '%s': %s",
                      e->where, e->fen, err);
    }
    uint64_t got = perft_count(v, &pos, e->depth);
    ck_assert_msg(got == e->count, "%s: %s perft(%d) of '%s' = %" PRIu64 ", table says %" PRIu64,
                  e->where, e->variant, e->depth, e->fen, got, e->count);
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
