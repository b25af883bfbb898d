/* replay.c - runs a fuzz target without libFuzzer: every file named on the
 * command line (a directory: every file in it) is passed once to
 * LLVMFuzzerTestOneInput.  With no argument it replays the committed corpus of
 * its target, $SIGIL_SRCDIR/tests/fuzz/corpus/FUZZ_TARGET (FUZZ_TARGET is set
 * when it is compiled), then every other target's corpus and a fixed set of
 * foreign inputs (see replay_foreign): a target must take any bytes, such as
 * another fuzzer's seeds, without a false alarm.  `make check` runs it in every
 * build, so each seed and each reproducer of a crash once found stays a
 * regression test under gcc, clang and the sanitizers.  A broken invariant
 * aborts; exit 0 otherwise. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static int replayed; /* files */
static int foreign;  /* built-in inputs */

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

/* ---- foreign inputs ---------------------------------------------------------- */

static uint64_t rng_state = 0x5eed5eed5eed5eedULL;

static uint64_t rng(void) /* xorshift64*: the same inputs on every run */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dULL;
}

static void run_input(const uint8_t *data, size_t size)
{
    LLVMFuzzerTestOneInput(data, size);
    foreign++;
}

/* size bytes of one byte value, or of text repeated. */
static void run_repeated(const char *text, size_t len, size_t size)
{
    uint8_t *data = malloc(size ? size : 1);
    if (!data)
        abort();
    for (size_t i = 0; i < size; i++)
        data[i] = (uint8_t)text[i % len];
    run_input(data, size);
    free(data);
}

/* Every quoted token of the dictionaries in dir (\" \\ and \xNN decoded). */
static char **tokens;
static size_t ntokens;

static void load_dictionary(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    char line[4096];
    while (fgets(line, sizeof line, f)) {
        char *q = strchr(line, '"');
        char *end = strrchr(line, '"');
        if (!q || end == q || line[0] == '#')
            continue;
        char *tok = malloc((size_t)(end - q));
        size_t n = 0;
        for (char *c = q + 1; c < end; c++) {
            if (*c == '\\' && c[1] == 'x' && c + 3 < end) {
                char hex[3] = {c[2], c[3], 0};
                tok[n++] = (char)strtol(hex, NULL, 16);
                c += 3;
            } else if (*c == '\\' && c + 1 < end) {
                tok[n++] = *++c;
            } else {
                tok[n++] = *c;
            }
        }
        tok[n] = '\0';
        tokens = realloc(tokens, (ntokens + 1) * sizeof *tokens);
        tokens[ntokens++] = tok;
    }
    fclose(f);
}

/* Inputs no seed of any target looks like, the same in every run:
 *   - nothing, each single byte, bytes of one value (NUL, CR, LF, 0xff);
 *   - pseudo-random bytes, 4 KB and 256 KB;
 *   - a 1 MB line, a line of 100,000 repeated words, 100,000 short lines;
 *   - word soup: lines of words drawn from every target's dictionary. */
static void replay_foreign(const char *src)
{
    run_input((const uint8_t *)"", 0);
    for (int b = 0; b < 256; b++) {
        uint8_t byte = (uint8_t)b;
        run_input(&byte, 1);
    }
    run_repeated("\0", 1, 65536);
    run_repeated("\r", 1, 65536);
    run_repeated("\n", 1, 100000);
    run_repeated("\xff", 1, 65536);
    for (int k = 0; k < 16; k++) {
        size_t size = k < 14 ? 4096 : 262144;
        uint8_t *data = malloc(size);
        if (!data)
            abort();
        for (size_t i = 0; i < size; i++)
            data[i] = (uint8_t)(rng() >> 56);
        run_input(data, size);
        free(data);
    }
    run_repeated("a", 1, 1 << 20);
    run_repeated("go ", 3, 300000);
    run_repeated("-engine ", 8, 800000);
    run_repeated("isready\n", 8, 800000);
    run_repeated("[Event \"x\"]\n", 12, 600000);
    run_repeated("1. ", 3, 300000);

    static const char *const dicts[] = {"fen", "protocol", "match_cli", "record"};
    for (size_t d = 0; d < sizeof dicts / sizeof *dicts; d++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/tests/fuzz/dict/%s.dict", src, dicts[d]);
        load_dictionary(path);
    }
    if (ntokens == 0) {
        fprintf(stderr, "replay: no dictionary under %s/tests/fuzz/dict\n", src);
        exit(1);
    }
    static const char *const joins[] = {" ", "\n", "=", "", "/", "\t"};
    for (int k = 0; k < 400; k++) {
        char buf[8192];
        size_t n = 0;
        int words = 1 + (int)(rng() % 60);
        if (k < 6) /* the first bytes pick the game and modes of some targets */
            buf[n++] = (char)k;
        for (int w = 0; w < words && n + 512 < sizeof buf; w++) {
            const char *tok = tokens[rng() % ntokens];
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", tok,
                                  joins[rng() % (sizeof joins / sizeof *joins)]);
        }
        run_input((const uint8_t *)buf, n);
    }
    for (size_t i = 0; i < ntokens; i++)
        free(tokens[i]);
    free(tokens);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            replay_path(argv[i]);
        printf("replay: %d inputs through the %s target, every invariant held\n", replayed,
               FUZZ_TARGET);
        return replayed > 0 ? 0 : 1;
    }
    const char *src = getenv("SIGIL_SRCDIR");
    src = src ? src : ".";
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src, FUZZ_TARGET);
    replay_path(dir);
    int own = replayed;
    /* Every other target's seeds: well-formed input of another kind. */
    snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus", src);
    DIR *d = opendir(dir);
    struct dirent *e;
    char *others[64];
    int nothers = 0;
    while (d && (e = readdir(d)) != NULL && nothers < 64)
        if (e->d_name[0] != '.' && strcmp(e->d_name, FUZZ_TARGET) != 0)
            others[nothers++] = strdup(e->d_name);
    if (d)
        closedir(d);
    qsort(others, (size_t)nothers, sizeof *others, by_name);
    for (int i = 0; i < nothers; i++) {
        snprintf(dir, sizeof dir, "%s/tests/fuzz/corpus/%s", src, others[i]);
        replay_path(dir);
        free(others[i]);
    }
    replay_foreign(src);
    printf("replay: %d inputs of its corpus, %d of the other %d targets' and %d foreign "
           "inputs through the %s target, every invariant held\n",
           own, replayed - own, nothers, foreign, FUZZ_TARGET);
    return own > 0 ? 0 : 1;
}
