/* replay.c - runs a fuzz target without libFuzzer: every file named on the
 * command line (a directory: every file in it) is passed once to
 * LLVMFuzzerTestOneInput.  With no argument it replays the committed corpus of
 * its target, $SIGIL_SRCDIR/tests/fuzz/corpus/FUZZ_TARGET (FUZZ_TARGET is set
 * when it is compiled).  `make check` runs it in every build, so each seed and
 * each reproducer of a crash once found stays a regression test under gcc,
 * clang and the sanitizers.  A broken invariant aborts; exit 0 otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replayed;

static void replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot read %s\n", path);
        exit(1);
    }
    size_t cap = 4096, len = 0;
    uint8_t *data = malloc(cap);
    size_t n;
    while (data && (n = fread(data + len, 1, cap - len, f)) > 0) {
        len += n;
        if (len == cap)
            data = realloc(data, cap *= 2);
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "replay: out of memory for %s\n", path);
        exit(1);
    }
    LLVMFuzzerTestOneInput(data, len);
    free(data);
    replayed++;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A file, or every regular file of a directory (sorted, for a stable order). */
static void replay_path(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "replay: no such file or directory: %s\n", path);
        exit(1);
    }
    if (!S_ISDIR(st.st_mode)) {
        replay_file(path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        exit(1);
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        names = realloc(names, (count + 1) * sizeof *names);
        size_t size = strlen(path) + strlen(e->d_name) + 2;
        names[count] = malloc(size);
        snprintf(names[count++], size, "%s/%s", path, e->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof *names, by_name);
    for (size_t i = 0; i < count; i++) {
        struct stat fst;
        if (stat(names[i], &fst) != 0) {
            fprintf(stderr, "replay: %s vanished\n", names[i]);
            exit(1);
        }
        if (S_ISREG(fst.st_mode))
            replay_file(names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            replay_path(argv[i]);
    } else {
        const char *src = getenv("SIGIL_SRCDIR");
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src ? src : ".", FUZZ_TARGET);
        replay_path(dir);
    }
    printf("replay: %d inputs through the %s target, every invariant held\n", replayed,
           FUZZ_TARGET);
    return replayed > 0 ? 0 : 1;
}
