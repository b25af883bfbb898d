/* pipe_engine.c - drive a real program through pipes from a test. */
#define _POSIX_C_SOURCE 200809L
#include "pipe_engine.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

const char *pipe_engine_sigil(void)
{
    const char *bin = getenv("SIGIL_BIN");
    return bin ? bin : "engine/sigil";
}

bool pipe_engine_start(PipeEngine *e, const char *path)
{
    char *const argv[] = {(char *)path, NULL};
    return pipe_engine_start_argv(e, path, argv, 0);
}

bool pipe_engine_start_argv(PipeEngine *e, const char *path, char *const argv[],
                            size_t memory_limit)
{
    int in[2], out[2];
    memset(e, 0, sizeof *e);
    if (pipe(in) != 0 || pipe(out) != 0)
        return false;
    signal(SIGPIPE, SIG_IGN);
    pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(out[1], 2);
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        if (memory_limit > 0) {
            struct rlimit lim = {(rlim_t)memory_limit, (rlim_t)memory_limit};
            setrlimit(RLIMIT_AS, &lim);
        }
        execv(path, argv);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->pid = pid;
    e->to_fd = in[1];
    e->from_fd = out[0];
    return true;
}

void pipe_engine_write(PipeEngine *e, const void *data, size_t size)
{
    const char *p = data;
    while (size > 0) {
        ssize_t n = write(e->to_fd, p, size);
        if (n <= 0) {
            if (n < 0 && errno == EINTR)
                continue;
            return;
        }
        p += n;
        size -= (size_t)n;
    }
}

void pipe_engine_send(PipeEngine *e, const char *line)
{
    pipe_engine_write(e, line, strlen(line));
    pipe_engine_write(e, "\n", 1);
}

const char *pipe_engine_read(PipeEngine *e, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    for (;;) {
        char *nl = memchr(e->buf, '\n', e->len);
        if (nl) {
            size_t n = (size_t)(nl - e->buf);
            memcpy(e->line, e->buf, n);
            e->line[n] = '\0';
            memmove(e->buf, nl + 1, e->len - n - 1);
            e->len -= n + 1;
            return e->line;
        }
        if (e->len == sizeof e->buf) /* an over-long line: hand it out in parts */
        {
            memcpy(e->line, e->buf, sizeof e->line - 1);
            e->line[sizeof e->line - 1] = '\0';
            e->len = 0;
            return e->line;
        }
        long long left = deadline - now_ms();
        if (left <= 0)
            return NULL;
        struct pollfd pfd = {.fd = e->from_fd, .events = POLLIN};
        int r = poll(&pfd, 1, (int)left);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return NULL;
        ssize_t n = read(e->from_fd, e->buf + e->len, sizeof e->buf - e->len);
        if (n <= 0)
            return NULL; /* EOF */
        e->len += (size_t)n;
    }
}

const char *pipe_engine_expect(PipeEngine *e, const char *prefix, int timeout_ms,
                               char *seen, size_t seen_size)
{
    long long deadline = now_ms() + timeout_ms;
    size_t prefix_len = strlen(prefix);
    for (;;) {
        long long left = deadline - now_ms();
        if (left < 0)
            return NULL;
        const char *line = pipe_engine_read(e, (int)left);
        if (!line)
            return NULL;
        if (seen && seen_size > 0) {
            size_t used = strlen(seen);
            snprintf(seen + used, seen_size - used, "%s\n", line);
        }
        if (strncmp(line, prefix, prefix_len) == 0)
            return line;
    }
}

int pipe_engine_wait(PipeEngine *e, int timeout_ms)
{
    long long deadline = now_ms() + timeout_ms;
    int status;
    while (now_ms() < deadline) {
        pid_t r = waitpid(e->pid, &status, WNOHANG);
        if (r == e->pid) {
            e->pid = 0;
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        struct timespec ts = {0, 10 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return -1;
}

void pipe_engine_close_input(PipeEngine *e)
{
    if (e->to_fd > 0)
        close(e->to_fd);
    e->to_fd = -1;
}

void pipe_engine_close(PipeEngine *e)
{
    if (e->to_fd > 0)
        close(e->to_fd);
    if (e->pid > 0 && pipe_engine_wait(e, 2000) < 0) {
        kill(e->pid, SIGKILL);
        waitpid(e->pid, NULL, 0);
    }
    if (e->from_fd > 0)
        close(e->from_fd);
    e->to_fd = e->from_fd = -1;
    e->pid = 0;
}
