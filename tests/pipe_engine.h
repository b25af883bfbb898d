/* pipe_engine.h - drive a real program through pipes from a test. */
#ifndef SIGIL_PIPE_ENGINE_H
#define SIGIL_PIPE_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct PipeEngine {
    pid_t pid;
    int to_fd;       /* the program's stdin */
    int from_fd;     /* the program's stdout (stderr joined) */
    char buf[1 << 16];
    size_t len;      /* bytes buffered in buf */
    char line[1 << 16];
} PipeEngine;

/* The engine the tests drive: $SIGIL_BIN, else engine/sigil (the build
 * directory's, where make check runs). */
const char *pipe_engine_sigil(void);
/* Start path (no arguments) with pipes; false if it cannot be started. */
bool pipe_engine_start(PipeEngine *e, const char *path);
/* Start path with the arguments argv (NULL-terminated, argv[0] included);
 * memory_limit > 0 caps the program's address space (RLIMIT_AS) in bytes. */
bool pipe_engine_start_argv(PipeEngine *e, const char *path, char *const argv[],
                            size_t memory_limit);
/* Close the program's stdin (end of input); reading goes on. */
void pipe_engine_close_input(PipeEngine *e);
/* Send raw bytes. */
void pipe_engine_write(PipeEngine *e, const void *data, size_t size);
/* Send one line (a '\n' is added). */
void pipe_engine_send(PipeEngine *e, const char *line);
/* Next output line (without '\n') within timeout_ms, or NULL. */
const char *pipe_engine_read(PipeEngine *e, int timeout_ms);
/* Read lines until one starts with prefix; returns it or NULL on timeout/EOF.
 * If seen is non-NULL, every line read is appended to it ('\n'-separated). */
const char *pipe_engine_expect(PipeEngine *e, const char *prefix, int timeout_ms,
                               char *seen, size_t seen_size);
/* Wait up to timeout_ms for the program to exit; its status, or -1 if it did
 * not exit (it is then killed). */
int pipe_engine_wait(PipeEngine *e, int timeout_ms);
/* Close pipes, kill if still running, reap. */
void pipe_engine_close(PipeEngine *e);

#endif
