/* protocol_test.c - helpers for the suites that drive engine/sigil. */
#define _POSIX_C_SOURCE 200809L
#include "protocol_test.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

PipeEngine pt_engine;
char pt_seen[PT_SEEN_SIZE];

void pt_start(void)
{
    ck_assert_msg(pipe_engine_start(&pt_engine, pipe_engine_sigil()), "cannot start %s", pipe_engine_sigil());
}

void pt_start_args(const char *const *args, size_t memory_limit)
{
    char *argv[32];
    int n = 0;
    argv[n++] = (char *)pipe_engine_sigil();
    for (; args && args[n - 1] && n < 31; n++)
        argv[n] = (char *)args[n - 1];
    argv[n] = NULL;
    ck_assert_msg(pipe_engine_start_argv(&pt_engine, pipe_engine_sigil(), argv, memory_limit),
                  "cannot start %s", pipe_engine_sigil());
}

void pt_finish(void) { pipe_engine_close(&pt_engine); }

void pt_send(const char *line) { pipe_engine_send(&pt_engine, line); }

const char *pt_exchange(const char *line)
{
    pt_seen[0] = '\0';
    if (line)
        pt_send(line);
    pt_send("isready");
    const char *r = pipe_engine_expect(&pt_engine, "readyok", T_LONG, pt_seen, sizeof pt_seen);
    ck_assert_msg(r != NULL, "no readyok after '%.60s'; output:\n%.2000s", line ? line : "",
                  pt_seen);
    pt_seen[strlen(pt_seen) - strlen("readyok\n")] = '\0'; /* keep only what came before */
    return pt_seen;
}

int pt_count_lines(const char *text, const char *prefix)
{
    int n = 0;
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p;) {
        if (strncmp(p, prefix, len) == 0)
            n++;
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    return n;
}

const char *pt_find_line(const char *text, const char *prefix)
{
    static char line[PT_SEEN_SIZE];
    size_t len = strlen(prefix);
    for (const char *p = text; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (strncmp(p, prefix, len) == 0) {
            memcpy(line, p, n);
            line[n] = '\0';
            return line;
        }
        p += n;
        if (*p)
            p++;
    }
    return NULL;
}

const char *pt_query(const char *what)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "query %s", what);
    const char *out = pt_exchange(cmd);
    ck_assert_msg(pt_count_lines(out, "response ") == 1, "'%s' gave:\n%.2000s", cmd, out);
    int lines = pt_count_lines(out, ""), info = pt_count_lines(out, "info ");
    ck_assert_msg(lines == info + 1,
                  "'%s' printed %d lines, %d of them info, and one response:\n%.2000s", cmd,
                  lines, info, out);
    /* Nothing of the query's own before its response: only a running
     * search's progress lines may come first. */
    for (const char *l = out; strncmp(l, "response ", 9) != 0; l = strchr(l, '\n') + 1)
        ck_assert_msg(strncmp(l, "info ", 5) == 0 && strncmp(l, "info string", 11) != 0,
                      "'%s' printed a line before its response:\n%.2000s", cmd, out);
    ck_assert_msg(pt_count_lines(out, "info string error") == 0, "'%s' gave an error:\n%s", cmd,
                  out);
    return pt_find_line(out, "response ") + strlen("response ");
}

void pt_current_fen(char *fen, size_t size)
{
    const char *f = pt_query("fen");
    ck_assert(strlen(f) < size);
    strcpy(fen, f);
}

void pt_legal_moves(char *list, size_t size)
{
    const char *out = pt_exchange("d");
    const char *l = strstr(out, "Legal moves (");
    if (!l)
        l = strstr(out, "Rolls (");
    ck_assert_msg(l != NULL, "d printed no legal move line:\n%s", out);
    l = strchr(l, ':') + 1;
    size_t n = strcspn(l, "\n");
    ck_assert(n + 2 < size);
    list[0] = ' ';
    memcpy(list + 1, l, n);
    list[n + 1] = ' ';
    list[n + 2] = '\0';
}

bool pt_list_has(const char *list, const char *move)
{
    char key[80];
    snprintf(key, sizeof key, " %s ", move);
    return strstr(list, key) != NULL;
}

void pt_assert_rejected(const char *bad_line)
{
    char before[512], after[512];
    pt_current_fen(before, sizeof before);
    const char *out = pt_exchange(bad_line);
    ck_assert_msg(pt_count_lines(out, "info string error: ") == 1,
                  "expected one error line for '%.60s', got:\n%.2000s", bad_line, out);
    pt_current_fen(after, sizeof after);
    ck_assert_str_eq(before, after);
}

long long pt_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}
