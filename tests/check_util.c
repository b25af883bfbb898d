/* check_util.c - the helpers every module shares (util.c): tokens, numbers,
 * random numbers, bit counts and the one out-of-memory policy. */
#include <check.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core_test.h"
#include "util.h"

START_TEST(test_util_next_token)
{
    const char *cur = "  go depth\t 5  \n";
    char tok[8];
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 2);
    ck_assert_str_eq(tok, "go");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 5);
    ck_assert_str_eq(tok, "depth");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 1);
    ck_assert_str_eq(tok, "5");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 0);
    ck_assert_str_eq(tok, "");
    /* Truncated to the buffer, the full length returned. */
    cur = "abcdefghijkl x";
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 12);
    ck_assert_str_eq(tok, "abcdefg");
    ck_assert_uint_eq(util_next_token(&cur, tok, sizeof tok), 1);
    ck_assert_str_eq(tok, "x");
}
END_TEST

START_TEST(test_util_parse_number_is_strict)
{
    long long v = 77;
    ck_assert(util_parse_number("16", 1, 4096, &v) && v == 16);
    ck_assert(util_parse_number("0", 0, 0, &v) && v == 0);
    ck_assert(util_parse_number("-5", -10, 10, &v) && v == -5);
    ck_assert(util_parse_number("9223372036854775807", 0, LLONG_MAX, &v) && v == LLONG_MAX);
    ck_assert(util_parse_number("-9223372036854775808", LLONG_MIN, 0, &v) && v == LLONG_MIN);
    v = 77;
    static const char *const bad[] = {"",    "+16", " 16", "16 ", "16.0", "0x10", "1e3", "-",
                                      "--1", "9223372036854775808", "-9223372036854775809",
                                      "4097", "0",   "-1"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ck_assert_msg(!util_parse_number(bad[i], 1, 4096, &v), "accepted '%s'", bad[i]);
    ck_assert(!util_parse_number("-1", 0, 10, &v)); /* no '-' when min >= 0 */
    ck_assert(!util_parse_number("-0", 0, 10, &v));
    ck_assert_int_eq(v, 77);
}
END_TEST

/* The ASan and TSan builds' allocators refuse a request of SIZE_MAX bytes
 * with a report of their own unless they may return NULL as malloc does
 * (they then still warn on stderr, a line before the program's own). */
const char *__asan_default_options(void);
const char *__asan_default_options(void) { return "allocator_may_return_null=1"; }
const char *__tsan_default_options(void);
const char *__tsan_default_options(void) { return "allocator_may_return_null=1"; }

/* Run the allocation `which` in a child whose stderr is a pipe: what it
 * wrote, and its exit status (-1 unless it exited). */
static int out_of_memory_child(int which, char *said, size_t size)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        dup2(fds[1], 2);
        close(fds[0]);
        util_set_program_name("check_util");
        volatile size_t huge = SIZE_MAX;
        static void *volatile kept; /* reachable at exit: no leak to report */
        kept = which == 3 ? util_xmalloc(16) : NULL;
        void *p = which == 0   ? util_xmalloc(huge)
                  : which == 1 ? util_xcalloc(huge / 2 + 1, 2) /* the product overflows */
                  : which == 2 ? util_xcalloc(huge, 1)
                               : util_xrealloc(kept, huge);
        _exit(p ? 0 : 2); /* not reached: the policy is to exit 1 */
    }
    close(fds[1]);
    size_t n = 0;
    ssize_t got;
    while (n + 1 < size && (got = read(fds[0], said + n, size - 1 - n)) > 0)
        n += (size_t)got;
    said[n] = '\0';
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

START_TEST(test_util_out_of_memory_exits_1_with_the_message)
{
    char expected[96], said[256];
    snprintf(expected, sizeof expected, "check_util: out of memory (%zu bytes)\n", SIZE_MAX);
    for (int which = 0; which < 4; which++) {
        ck_assert_int_eq(out_of_memory_child(which, said, sizeof said), 1);
        size_t n = strlen(said), m = strlen(expected);
        const char *last = n >= m ? said + n - m : said; /* its last line */
        ck_assert_str_eq(last, expected);
        ck_assert(last == said || last[-1] == '\n');
    }
    /* what succeeds is usable memory: zeroed for calloc, copied for strdup */
    unsigned char *z = util_xcalloc(64, 4);
    for (int i = 0; i < 256; i++)
        ck_assert_int_eq(z[i], 0);
    z = util_xrealloc(z, 4096);
    z[4095] = 1;
    free(z);
    char *d = util_xstrdup("sigil");
    ck_assert_str_eq(d, "sigil");
    free(d);
    free(util_xmalloc(0));
}
END_TEST

START_TEST(test_util_random_below_range)
{
    uint64_t s = 7;
    static const uint64_t ns[] = {1, 2, 3, 7, 36, 1000, UINT64_MAX};
    for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (int i = 0; i < 2000; i++)
            ck_assert_uint_lt(util_random_below(&s, ns[k]), ns[k]);
    int seen[3] = {0, 0, 0};
    for (int i = 0; i < 3000; i++)
        seen[util_random_below(&s, 3)]++;
    for (int i = 0; i < 3; i++)
        ck_assert_int_gt(seen[i], 800);
    /* SplitMix64 is reproducible from its seed. */
    uint64_t a = 42, b = 42;
    ck_assert_uint_eq(util_splitmix64(&a), util_splitmix64(&b));
    ck_assert_uint_ne(util_splitmix64(&a), 42);
    ck_assert_int_eq(util_popcount64(0xF0F0ULL), 8);
    ck_assert_int_eq(util_lsb64(0x100ULL), 8);
}
END_TEST

/* ============================================================== runner */

int main(void)
{
    Suite *s = suite_create("util");
    TCase *tc = tcase_create("util");
    tcase_add_test(tc, test_util_next_token);
    tcase_add_test(tc, test_util_random_below_range);
    tcase_add_test(tc, test_util_parse_number_is_strict);
    tcase_add_test(tc, test_util_out_of_memory_exits_1_with_the_message);
    suite_add_tcase(s, tc);
    return core_test_run(s);
}
