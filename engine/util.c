/* util.c - clock, random numbers and token scanning. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *program_name = "sigil";

void util_set_program_name(const char *name) { program_name = name; }

static void out_of_memory(size_t size)
{
    fprintf(stderr, "%s: out of memory (%zu bytes)\n", program_name, size);
    exit(1);
}

void *util_xmalloc(size_t size)
{
    void *p = malloc(size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

void *util_xcalloc(size_t count, size_t size)
{
    if (size && count > SIZE_MAX / size)
        out_of_memory(SIZE_MAX);
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p)
        out_of_memory(count * size);
    return p;
}

void *util_xrealloc(void *ptr, size_t size)
{
    void *p = realloc(ptr, size ? size : 1);
    if (!p)
        out_of_memory(size);
    return p;
}

char *util_xstrdup(const char *text)
{
    size_t n = strlen(text) + 1;
    char *d = util_xmalloc(n);
    memcpy(d, text, n);
    return d;
}

int64_t util_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t util_splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t util_random_below(uint64_t *state, uint64_t n)
{
    /* Reject the top sliver of the range so every value is equally likely. */
    uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do
        r = util_splitmix64(state);
    while (r >= limit);
    return r % n;
}

size_t util_next_token(const char **cursor, char *buf, size_t size)
{
    const char *p = *cursor;
    while (*p && isspace((unsigned char)*p))
        p++;
    const char *start = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    size_t len = (size_t)(p - start);
    if (size > 0) {
        size_t n = len < size - 1 ? len : size - 1;
        memcpy(buf, start, n);
        buf[n] = '\0';
    }
    *cursor = p;
    return len;
}

bool util_parse_number(const char *text, long long min, long long max, long long *value)
{
    const char *p = text;
    if (*p == '-' && min < 0)
        p++;
    if (!isdigit((unsigned char)*p))
        return false;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return false;
    errno = 0;
    char *end;
    long long v = strtoll(text, &end, 10);
    if (errno || *end || v < min || v > max)
        return false;
    *value = v;
    return true;
}
