/* fuzz.h - what every libFuzzer target in tests/fuzz shares: the entry point's
 * declaration and the invariant checks.  A broken invariant prints what was
 * expected and aborts, which libFuzzer reports as a crash and saves the input
 * (see doc/reliability.md). */
#ifndef SIGIL_FUZZ_H
#define SIGIL_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);
const char *__asan_default_options(void);

/* True when the command line runs libFuzzer's fuzzing loop: no input file
 * named (only corpus directories, or nothing) and no -merge.  A file named
 * means "replay these inputs", which must see each input whole. */
static inline bool fuzz_is_fuzzing_loop(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "-merge", 6) == 0 || strncmp(argv[i], "-max_len", 8) == 0)
            return false;
        struct stat st;
        if (argv[i][0] != '-' && stat(argv[i], &st) == 0 && !S_ISDIR(st.st_mode))
            return false;
    }
    return true;
}

/* Put flags in front of the command line, where the user's own flags (which
 * libFuzzer reads later) override them: dict, a file in FUZZ_DICT_DIR, when
 * it exists; loop_flag only for the fuzzing loop (see above). */
static inline void fuzz_prepend_flags(int *argc, char ***argv, const char *dict,
                                      const char *loop_flag)
{
    static char dict_flag[4096];
    const char *add[2];
    int n = 0;
#ifdef FUZZ_DICT_DIR
    FILE *f = NULL;
    if (dict) {
        snprintf(dict_flag, sizeof dict_flag, "%s/%s", FUZZ_DICT_DIR, dict);
        f = fopen(dict_flag, "r");
    }
    if (f) {
        fclose(f);
        snprintf(dict_flag, sizeof dict_flag, "-dict=%s/%s", FUZZ_DICT_DIR, dict);
        add[n++] = dict_flag;
    }
#else
    (void)dict, (void)dict_flag;
#endif
    if (loop_flag && fuzz_is_fuzzing_loop(*argc, *argv))
        add[n++] = loop_flag;
    char **args = malloc((size_t)(*argc + n + 1) * sizeof *args);
    if (!args)
        return;
    args[0] = (*argv)[0];
    for (int i = 0; i < n; i++)
        args[1 + i] = (char *)add[i];
    for (int i = 1; i < *argc; i++)
        args[n + i] = (*argv)[i];
    args[*argc + n] = NULL;
    *argc += n;
    *argv = args;
}

/* Each target says FUZZ_DEFAULTS(dictionary file or NULL, a libFuzzer flag
 * for the fuzzing loop or NULL) once.  It gives the target, when run bare, its
 * dictionary and that flag, and AddressSanitizer a 16 MB quarantine: freed
 * memory comes back sooner, which saves most of an input's page faults, and a
 * use after free within an input (or the last few thousand) is still caught;
 * and allocation stacks two frames deep (malloc_context_size=2): unwinding 30
 * frames at every malloc and free cost the protocol target about a seventh of
 * its speed, and a report still names the allocating function and its caller.
 * ASAN_OPTIONS and command-line flags override these defaults. */
#define FUZZ_DEFAULTS(dict, flag)                                               \
    int fuzz_report_fd = -1;                                                    \
    int LLVMFuzzerInitialize(int *argc, char ***argv)                          \
    {                                                                           \
        fuzz_report_fd = dup(2);                                                \
        fuzz_prepend_flags(argc, argv, dict, flag);                             \
        return 0;                                                               \
    }                                                                           \
    const char *__asan_default_options(void) { return "quarantine_size_mb=16:malloc_context_size=2"; }

/* Where broken invariants are reported: the standard error the process
 * started with, saved by FUZZ_DEFAULTS before libFuzzer's -close_fd_mask
 * closes it for the target; -1 until then (standard error). */
extern int fuzz_report_fd;

/* Abort with a message when cond is false. */
#define FUZZ_CHECK(cond, ...)                                                   \
    do {                                                                        \
        if (!(cond)) {                                                          \
            int fd_ = fuzz_report_fd >= 0 ? fuzz_report_fd : 2;                 \
            dprintf(fd_, "fuzz invariant broken at %s:%d: %s\n  ", __FILE__,    \
                    __LINE__, #cond);                                           \
            dprintf(fd_, __VA_ARGS__);                                          \
            dprintf(fd_, "\n");                                                 \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* True when text (at most max bytes before its NUL) is one line of printable
 * ASCII: no control byte, no byte above 126, no newline. */
static inline bool fuzz_is_one_printable_line(const char *text, size_t max)
{
    size_t n = 0;
    for (; text[n]; n++)
        if (n >= max || (unsigned char)text[n] < 32 || (unsigned char)text[n] > 126)
            return false;
    return true;
}

/* A NUL-terminated copy of size bytes of data (malloc'd; free it).  Bytes
 * after an embedded NUL are kept but invisible to C string functions. */
static inline char *fuzz_strndup(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    if (size)
        memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

#endif
