/* proc.h - engine processes: start with pipes, line I/O with deadlines,
 * stop, kill and reap.
 *
 * Every child runs in a process group of its own (so a wrapper script and
 * whatever it started die together), with its stdin/stdout on pipes that no
 * other child inherits.  All live children are kept in a registry so that
 * proc_kill_all() (called on SIGINT/SIGTERM) leaves nothing behind.
 * Thread-safe: each Proc belongs to one thread; the registry has a lock.
 */
#ifndef SIGIL_MATCH_PROC_H
#define SIGIL_MATCH_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Longest line kept; the rest of a longer line is dropped. */
#define PROC_LINE_MAX 8192

typedef struct Proc {
    pid_t pid;        /* 0 when not running */
    int to_child;     /* write end of the child's stdin */
    int from_child;   /* read end of the child's stdout (non-blocking) */
    bool eof;         /* the child closed its stdout */
    bool dropping;    /* discarding the rest of an overlong line */
    size_t len;       /* bytes buffered in buf */
    char buf[PROC_LINE_MAX * 2];
    int exit_status;  /* waitpid status once reaped, else -1 */
    bool killed;      /* proc_stop killed it: it had not exited by itself */
} Proc;

/* Results of proc_read_line. */
enum { PROC_LINE = 1, PROC_TIMEOUT = 0, PROC_EOF = -1 };

/* Install the SIGPIPE policy (ignored) once; call before starting children. */
void proc_global_init(void);

/* Start argv[0] (searched in PATH when it has no '/') with argv, in dir when
 * dir is not NULL; its stderr is ours, or appended to stderr_path when that
 * is not NULL ("/dev/null" to drop it).
 * Returns false with a reason in err on failure (no process is left running
 * then). */
bool proc_start(Proc *p, char *const argv[], const char *dir, const char *stderr_path, char *err,
                size_t errlen);

/* True while the child runs (reaps it when it has exited). */
bool proc_alive(Proc *p);

/* Send one line (a '\n' is appended).  False when the child's stdin is gone. */
bool proc_send(Proc *p, const char *line);

/* Wait until deadline_ms (util_now_ms() clock) for a complete line; the line
 * is copied to line without its end-of-line and with control bytes replaced by
 * '?'.  Returns PROC_LINE, PROC_TIMEOUT or PROC_EOF (no more output ever). */
int proc_read_line(Proc *p, char *line, size_t size, int64_t deadline_ms);

/* Stop the child: send "quit" (when quit_first), close its stdin, wait up to
 * grace_ms for it to exit, then SIGKILL its whole process group and reap it.
 * Safe to call on a Proc that is not running. */
void proc_stop(Proc *p, bool quit_first, int grace_ms);

/* SIGKILL every live child's process group (signal thread on Ctrl-C); after
 * this, proc_start refuses to start anything. */
void proc_kill_all(void);

/* Number of children currently registered as running. */
int proc_count_live(void);

#endif
