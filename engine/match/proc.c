/* proc.c - engine processes (see proc.h). */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "util.h"

/* Registry of live children (their pids are also their process groups). */
#define REGISTRY_MAX 1024
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static pid_t registry[REGISTRY_MAX];
static int registry_count;
static bool shutting_down;

static void registry_remove(pid_t pid)
{
    pthread_mutex_lock(&registry_lock);
    for (int i = 0; i < registry_count; i++)
        if (registry[i] == pid) {
            registry[i] = registry[--registry_count];
            break;
        }
    pthread_mutex_unlock(&registry_lock);
}

void proc_global_init(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}

static void sleep_ms(int ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static bool set_cloexec(int fd)
{
    int flags = fcntl(fd, F_GETFD);
    return flags >= 0 && fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0;
}

/* In the child between fork and exec: only async-signal-safe calls. */
static void child_exec(int in_fd, int out_fd, int null_fd, int err_pipe, char *const argv[],
                       const char *dir)
{
    setpgid(0, 0);
    /* Give the engine default signal handling and an empty mask: ignored
     * dispositions and blocked signals would survive exec. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (dup2(in_fd, 0) < 0 || dup2(out_fd, 1) < 0 || (null_fd >= 0 && dup2(null_fd, 2) < 0))
        goto fail;
    if (dir && chdir(dir) != 0)
        goto fail;
    execvp(argv[0], argv);
fail:;
    int e = errno;
    ssize_t w = write(err_pipe, &e, sizeof e);
    (void)w;
    _exit(127);
}

bool proc_start(Proc *p, char *const argv[], const char *dir, const char *stderr_path, char *err,
                size_t errlen)
{
    memset(p, 0, offsetof(Proc, buf));
    p->to_child = p->from_child = -1;
    p->exit_status = -1;
    p->killed = false;
    int in[2], out[2], ep[2];

    /* The lock makes pipe creation + CLOEXEC atomic with respect to other
     * threads' forks, so no child inherits another child's pipe ends. */
    pthread_mutex_lock(&registry_lock);
    if (shutting_down || registry_count >= REGISTRY_MAX) {
        pthread_mutex_unlock(&registry_lock);
        snprintf(err, errlen, shutting_down ? "shutting down" : "too many processes");
        return false;
    }
    if (pipe(in) != 0) {
        pthread_mutex_unlock(&registry_lock);
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    if (pipe(out) != 0) {
        close(in[0]), close(in[1]);
        pthread_mutex_unlock(&registry_lock);
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    if (pipe(ep) != 0) {
        close(in[0]), close(in[1]), close(out[0]), close(out[1]);
        pthread_mutex_unlock(&registry_lock);
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        return false;
    }
    int fds[6] = {in[0], in[1], out[0], out[1], ep[0], ep[1]};
    for (int i = 0; i < 6; i++)
        set_cloexec(fds[i]);
    int null_fd = stderr_path ? open(stderr_path, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
    if (stderr_path && null_fd < 0) {
        int e = errno;
        for (int i = 0; i < 6; i++)
            close(fds[i]);
        pthread_mutex_unlock(&registry_lock);
        snprintf(err, errlen, "cannot open %.200s for the engine's stderr: %s", stderr_path,
                 strerror(e));
        return false;
    }
    if (null_fd >= 0)
        set_cloexec(null_fd);
    pid_t pid = fork();
    if (pid == 0)
        child_exec(in[0], out[1], null_fd, ep[1], argv, dir); /* never returns */
    int fork_errno = errno;
    if (null_fd >= 0)
        close(null_fd);
    if (pid > 0) {
        setpgid(pid, pid); /* also in the parent: no race with kill(-pid) */
        registry[registry_count++] = pid;
    }
    pthread_mutex_unlock(&registry_lock);
    close(in[0]);
    close(out[1]);
    close(ep[1]);
    if (pid < 0) {
        close(in[1]), close(out[0]), close(ep[0]);
        snprintf(err, errlen, "fork: %s", strerror(fork_errno));
        return false;
    }

    /* exec succeeded iff the error pipe closes without data. */
    int child_errno = 0;
    ssize_t n;
    do
        n = read(ep[0], &child_errno, sizeof child_errno);
    while (n < 0 && errno == EINTR);
    close(ep[0]);
    p->pid = pid;
    p->to_child = in[1];
    p->from_child = out[0];
    fcntl(p->from_child, F_SETFL, fcntl(p->from_child, F_GETFL) | O_NONBLOCK);
    if (n > 0) {
        snprintf(err, errlen, "cannot run '%.200s': %s", argv[0], strerror(child_errno));
        proc_stop(p, false, 0);
        return false;
    }
    return true;
}

/* True when the child has exited.  WNOWAIT leaves it a zombie, so its pid
 * (and process group id) cannot be reused before proc_stop() reaps it. */
static bool has_exited(Proc *p)
{
    if (p->pid <= 0)
        return true;
    siginfo_t info;
    memset(&info, 0, sizeof info);
    if (waitid(P_PID, (id_t)p->pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0)
        return errno == ECHILD;
    return info.si_pid == p->pid;
}

bool proc_alive(Proc *p) { return p->pid > 0 && !has_exited(p); }

bool proc_send(Proc *p, const char *line)
{
    if (p->pid <= 0 || p->to_child < 0)
        return false;
    size_t len = strlen(line);
    char *msg = malloc(len + 2);
    if (!msg)
        return false;
    memcpy(msg, line, len);
    msg[len] = '\n';
    len++;
    size_t done = 0;
    bool ok = true;
    while (done < len) {
        ssize_t w = write(p->to_child, msg + done, len - done);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            ok = false; /* EPIPE: the child is gone */
            break;
        }
        done += (size_t)w;
    }
    free(msg);
    return ok;
}

/* Take one complete line out of the buffer, if any. */
static bool take_line(Proc *p, char *line, size_t size)
{
    for (;;) {
        char *nl = memchr(p->buf, '\n', p->len);
        size_t used, linelen;
        if (nl) {
            linelen = (size_t)(nl - p->buf);
            used = linelen + 1;
        } else if (p->len >= PROC_LINE_MAX || (p->eof && p->len > 0)) {
            linelen = p->len < PROC_LINE_MAX ? p->len : PROC_LINE_MAX;
            used = linelen;
        } else {
            return false;
        }
        bool was_dropping = p->dropping;
        p->dropping = !nl; /* a truncated line: drop its rest */
        if (p->eof)
            p->dropping = false;
        if (!was_dropping) {
            size_t n = linelen < size - 1 ? linelen : size - 1;
            size_t k = 0;
            for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char)p->buf[i];
                if (c == '\r' && i == linelen - 1)
                    continue;
                line[k++] = c == '\t' ? ' ' : (c < 0x20 || c == 0x7f) ? '?' : (char)c;
            }
            line[k] = '\0';
        }
        memmove(p->buf, p->buf + used, p->len - used);
        p->len -= used;
        if (!was_dropping)
            return true;
    }
}

int proc_read_line(Proc *p, char *line, size_t size, int64_t deadline_ms)
{
    for (;;) {
        if (take_line(p, line, size))
            return PROC_LINE;
        if (p->eof || p->from_child < 0)
            return PROC_EOF;
        /* Past the deadline, still look once without waiting: a deadline
         * of 0 drains what is already there. */
        int64_t left = deadline_ms - util_now_ms();
        if (left < 0)
            left = 0;
        struct pollfd pfd = {p->from_child, POLLIN, 0};
        int r = poll(&pfd, 1, left > 1000000 ? 1000000 : (int)left);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            p->eof = true;
            continue;
        }
        if (r == 0) {
            if (util_now_ms() >= deadline_ms)
                return PROC_TIMEOUT;
            continue;
        }
        ssize_t n = read(p->from_child, p->buf + p->len, sizeof p->buf - p->len);
        if (n > 0)
            p->len += (size_t)n;
        else if (n == 0 || (errno != EAGAIN && errno != EINTR))
            p->eof = true;
    }
}

void proc_stop(Proc *p, bool quit_first, int grace_ms)
{
    if (p->pid <= 0)
        return;
    if (quit_first)
        proc_send(p, "quit");
    if (p->to_child >= 0) {
        close(p->to_child);
        p->to_child = -1;
    }
    int64_t end = util_now_ms() + grace_ms;
    while (!has_exited(p) && util_now_ms() < end)
        sleep_ms(5);
    p->killed = !has_exited(p);
    /* The whole group, a wrapper script's children too, before the leader is
     * reaped: until then the group id cannot belong to anyone else. */
    kill(-p->pid, SIGKILL);
    int status = -1;
    while (waitpid(p->pid, &status, 0) < 0 && errno == EINTR)
        ;
    p->exit_status = status;
    registry_remove(p->pid);
    if (p->from_child >= 0) {
        close(p->from_child);
        p->from_child = -1;
    }
    p->pid = 0;
    p->eof = true;
    p->len = 0;
}

void proc_kill_all(void)
{
    pthread_mutex_lock(&registry_lock);
    shutting_down = true;
    for (int i = 0; i < registry_count; i++)
        kill(-registry[i], SIGKILL);
    pthread_mutex_unlock(&registry_lock);
}

int proc_count_live(void)
{
    pthread_mutex_lock(&registry_lock);
    int n = registry_count;
    pthread_mutex_unlock(&registry_lock);
    return n;
}
