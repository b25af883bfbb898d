/* check_tb_files.c - the Solomon tables' files and folders as the engine and
 * sigil-tbgen meet them: only regular files are read (a FIFO or a device by
 * a table's name is named and skipped, never blocks), a missing, unreadable
 * or damaged file or folder is named with its reason, reserved header bytes
 * must be zero; and building one pair at a time into a shared folder
 * (--material, --list-materials: the jobs of a cluster) gives the same
 * files as one build.
 *
 * Every test that could block on a FIFO runs under alarm(): a block is a
 * failure (SIGALRM), not a hang. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "games/solomon_tb.h"
#include "pipe_engine.h"
#include "util.h"
#include "variants.h"

static const Variant *single, *chain;
static char table_dir[64]; /* every table of up to 3 pieces of `solomon` */

static void temp_dir(char *dir)
{
    const char *base = getenv("TMPDIR");
    snprintf(dir, 64, "%s/sigil-tbf-XXXXXX", base && strlen(base) < 30 ? base : "/tmp");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_tree(const char *dir)
{
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static void copy_tree(const char *from, const char *to)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "cp -p '%s'/* '%s'/", from, to);
    ck_assert_int_eq(system(cmd), 0);
}

static void table_path(const char *dir, const Variant *v, SolomonMaterial m, char *path,
                       size_t size)
{
    char name[96];
    solomon_tb_file_name(v, m, name, sizeof name);
    snprintf(path, size, "%s/%s", dir, name);
}

static void setup(void)
{
    variants_init();
    single = variants_find("solomon");
    chain = variants_find("solomon-chain");
    temp_dir(table_dir);
    SolomonTables *tb = solomon_tb_new(single);
    char err[600] = "";
    ck_assert_msg(solomon_tb_build(tb, 3, 1, table_dir, NULL, err, sizeof err), "%s", err);
    solomon_tb_free(tb);
}

static void teardown(void) { remove_tree(table_dir); }

/* A copy of the tables in a fresh folder (dir: room for 64 bytes). */
static void fresh_copy(char *dir)
{
    temp_dir(dir);
    copy_tree(table_dir, dir);
}

static const SolomonMaterial KMvK = {1, 1, 0, 1}, KvK = {0, 1, 0, 1};

/* Load dir's tables of up to 3 pieces: the count (or -1) and err. */
static int load(const char *dir, char *err, size_t size)
{
    SolomonTables *tb = solomon_tb_new(single);
    int n = solomon_tb_load(tb, dir, 3, err, size);
    solomon_tb_free(tb);
    return n;
}

START_TEST(a_fifo_named_like_a_table_is_skipped_without_blocking)
{
    char dir[64], path[200], err[4200];
    fresh_copy(dir);
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    alarm(20); /* nobody writes the FIFO: a reader that opens it blocks */
    SolomonTables *tb = solomon_tb_new(single);
    ck_assert_int_eq(solomon_tb_load(tb, dir, 3, err, sizeof err), -1);
    ck_assert_msg(strstr(err, path) && strstr(err, "not a regular file (a FIFO)"), "%s", err);
    ck_assert_ptr_null(strchr(err, ';')); /* the only problem */
    /* the other 15 tables are loaded */
    SolomonMaterial m = {-1, -1, -1, -1};
    int loaded = 0;
    TbValue v;
    while (solomon_tb_material_next(&m, 3))
        loaded += solomon_tb_value_at(tb, m, 0, &v);
    ck_assert_int_eq(loaded, 15);
    ck_assert(!solomon_tb_value_at(tb, KMvK, 0, &v));
    solomon_tb_free(tb);
    /* building refuses to replace it, and does not block either */
    tb = solomon_tb_new(single);
    ck_assert(!solomon_tb_build(tb, 3, 1, dir, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "not a regular file (a FIFO)"), "%s", err);
    solomon_tb_free(tb);
    struct stat st;
    ck_assert_int_eq(lstat(path, &st), 0);
    ck_assert(S_ISFIFO(st.st_mode));
    alarm(0);
    remove_tree(dir);
}
END_TEST

START_TEST(a_device_or_folder_named_like_a_table_is_skipped)
{
    char dir[64], path[200], err[4200];
    fresh_copy(dir);
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(symlink("/dev/zero", path), 0); /* an endless character device */
    char path2[200];
    table_path(dir, single, KvK, path2, sizeof path2);
    ck_assert_int_eq(unlink(path2), 0);
    ck_assert_int_eq(mkdir(path2, 0755), 0);
    alarm(20);
    ck_assert_int_eq(load(dir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "not a regular file (a character device)"), "%s", err);
    ck_assert_msg(strstr(err, "not a regular file (a folder)"), "%s", err);
    alarm(0);
    remove_tree(dir);
}
END_TEST

START_TEST(a_missing_or_unreadable_file_is_named_with_its_reason)
{
    char dir[64], path[200], err[4200];
    fresh_copy(dir);
    /* a hole among the 3-piece tables */
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(load(dir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, path) && strstr(err, "missing (No such file or directory"),
                  "%s", err);
    /* tables of more pieces than any there are simply not built: no word */
    SolomonTables *tb = solomon_tb_new(single);
    ck_assert_int_eq(solomon_tb_load(tb, table_dir, 8, err, sizeof err), 16);
    ck_assert_str_eq(err, "");
    solomon_tb_free(tb);
    /* a file that cannot be read (as root, permissions do not stop reads) */
    table_path(dir, single, KvK, path, sizeof path);
    ck_assert_int_eq(chmod(path, 0), 0);
    if (geteuid() != 0) {
        ck_assert_int_eq(load(dir, err, sizeof err), -1);
        ck_assert_msg(strstr(err, "Permission denied"), "%s", err);
    }
    remove_tree(dir);
}
END_TEST

START_TEST(an_unusable_folder_is_named_with_its_reason)
{
    char err[4200];
    ck_assert_int_eq(load("no-such-folder/sigil-tb", err, sizeof err), -1);
    ck_assert_str_eq(err, "table folder no-such-folder/sigil-tb: No such file or directory");
    char file[200];
    snprintf(file, sizeof file, "%s/%s", table_dir, "solomon_KvK.stb");
    ck_assert_int_eq(load(file, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "Not a directory"), "%s", err);
    SolomonTables *tb = solomon_tb_new(single);
    ck_assert(!solomon_tb_build(tb, 3, 1, "no-such-folder/sigil-tb", NULL, err, sizeof err));
    ck_assert_str_eq(err, "table folder no-such-folder/sigil-tb: No such file or directory");
    solomon_tb_free(tb);
}
END_TEST

/* Overwrite n bytes at offset of dir's table of KMvK. */
static void poke(const char *dir, long offset, const void *bytes, size_t n)
{
    char path[200];
    table_path(dir, single, KMvK, path, sizeof path);
    FILE *f = fopen(path, "r+b");
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(fseek(f, offset, SEEK_SET), 0);
    ck_assert_uint_eq(fwrite(bytes, 1, n, f), n);
    fclose(f);
}

/* Each damage of the header or the size is named exactly. */
START_TEST(damaged_headers_are_named_and_reserved_bytes_must_be_zero)
{
    char dir[64], err[4200], path[200];
    static const struct {
        long offset;
        const char *bytes;
        size_t n;
        const char *why;
    } cases[] = {
        {40, "\x07", 1, "reserved header byte 40 is 7, must be 0"},
        {47, "\x01", 1, "reserved header byte 47 is 1, must be 0"},
        {0, "SIGILTB2", 8, "bad magic (not a Sigil table)"},
        {8, "\x02", 1, "format version 2, expected 1"},
        {12, "\x01", 1, "rule set 1 (solomon-chain), expected 0"},
        {16, "\x02", 1, "material 2 1 0 1 (men, kings, their men, kings), expected 1 1 0 1"},
        {20, "\x01", 1, "entries, expected 5814"},
        {28, "\x00\x00", 2, "checksum mismatch"},
        {48 + 100, "\xff", 1, "checksum mismatch"},
    };
    uint64_t size = solomon_tb_material_size(KMvK);
    ck_assert_uint_eq(size, 5814);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fresh_copy(dir);
        poke(dir, cases[i].offset, cases[i].bytes, cases[i].n);
        ck_assert_int_eq(load(dir, err, sizeof err), -1);
        table_path(dir, single, KMvK, path, sizeof path);
        ck_assert_msg(strstr(err, path) && strstr(err, cases[i].why), "case %zu: %s", i, err);
        remove_tree(dir);
    }
    /* sizes: a short header, a short or long body */
    fresh_copy(dir);
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(truncate(path, 20), 0);
    ck_assert_int_eq(load(dir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "truncated: 20 bytes, expected 5862"), "%s", err);
    ck_assert_int_eq(truncate(path, 0), 0);
    remove_tree(dir);
    fresh_copy(dir);
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(truncate(path, 5000), 0);
    ck_assert_int_eq(load(dir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "truncated: 5000 bytes, expected 5862"), "%s", err);
    ck_assert_int_eq(truncate(path, 5863), 0);
    ck_assert_int_eq(load(dir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "longer than its table: 5863 bytes, expected 5862"), "%s", err);
    /* a rebuild replaces the damaged file with a valid one */
    SolomonTables *tb = solomon_tb_new(single);
    ck_assert(solomon_tb_build(tb, 3, 1, dir, NULL, err, sizeof err));
    solomon_tb_free(tb);
    ck_assert_int_eq(load(dir, err, sizeof err), 16);
    remove_tree(dir);
}
END_TEST

/* Every file's problems are named (the first three, then a count). */
START_TEST(many_problems_make_one_message)
{
    char dir[64], err[4200], path[200];
    fresh_copy(dir);
    SolomonMaterial m = {-1, -1, -1, -1};
    int n = 0;
    while (solomon_tb_material_next(&m, 3) && n < 5) {
        table_path(dir, single, m, path, sizeof path);
        ck_assert_int_eq(truncate(path, 10), 0);
        n++;
    }
    ck_assert_int_eq(load(dir, err, sizeof err), -1);
    ck_assert_msg(strstr(err, " (and 2 more)"), "%s", err);
    ck_assert_ptr_null(strchr(err, '\n'));
    remove_tree(dir);
}
END_TEST

/* ---- one pair at a time (sigil-tbgen --material) --------------------------- */

START_TEST(the_pairs_needs_come_before_it)
{
    static SolomonMaterial pairs[SOLOMON_TB_PAIRS_MAX];
    for (int k = 0; k < 2; k++) {
        const Variant *v = k ? chain : single;
        int n = solomon_tb_pairs(8, pairs, SOLOMON_TB_PAIRS_MAX);
        /* 374 materials of up to 8 pieces; 14 are their own colour swap */
        ck_assert_int_eq(n, (374 + 14) / 2);
        int with_needs = 0;
        for (int i = 0; i < n; i++) {
            SolomonMaterial needs[SOLOMON_TB_NEEDS_MAX];
            int k2 = solomon_tb_pair_needs(v, pairs[i], needs, SOLOMON_TB_NEEDS_MAX);
            ck_assert_int_le(k2, SOLOMON_TB_NEEDS_MAX);
            with_needs += k2 > 0;
            for (int j = 0; j < k2; j++) {
                bool earlier = false;
                for (int e = 0; e < i; e++)
                    earlier |= memcmp(&pairs[e], &needs[j], sizeof needs[j]) == 0;
                ck_assert_msg(earlier, "pair %d needs a pair built later", i);
            }
        }
        ck_assert_int_eq(with_needs, n - 1); /* only KvK needs nothing */
    }
    SolomonMaterial m;
    ck_assert(solomon_tb_material_parse("KMvKK", &m));
    ck_assert(m.our_men == 1 && m.our_kings == 1 && m.their_men == 0 && m.their_kings == 2);
    ck_assert(!solomon_tb_material_parse("MKvK", &m));
    ck_assert(!solomon_tb_material_parse("Kv", &m));
    ck_assert(!solomon_tb_material_parse("KvKvK", &m));
    ck_assert(!solomon_tb_material_parse("KKKKKKKvK", &m));
    ck_assert(!solomon_tb_material_parse("", &m));
}
END_TEST

/* Building pair by pair in the listed order into one folder, each pair in a
 * fresh set of tables (as separate jobs would), gives the same files as one
 * build; a pair whose needs are not there is refused. */
START_TEST(pair_by_pair_builds_the_same_files)
{
    static SolomonMaterial pairs[SOLOMON_TB_PAIRS_MAX];
    char dir[64], err[4200];
    temp_dir(dir);
    int n = solomon_tb_pairs(3, pairs, SOLOMON_TB_PAIRS_MAX);
    ck_assert_int_eq(n, 9);
    SolomonTables *tb = solomon_tb_new(single);
    ck_assert(!solomon_tb_build_pair(tb, pairs[n - 1], 1, dir, NULL, err, sizeof err));
    ck_assert_msg(strstr(err, "needs the tables of") && strstr(err, "No such file or directory"),
                  "%s", err);
    solomon_tb_free(tb);
    for (int i = 0; i < n; i++) {
        tb = solomon_tb_new(single);
        ck_assert_msg(solomon_tb_build_pair(tb, pairs[i], 1, dir, NULL, err, sizeof err), "%s",
                      err);
        solomon_tb_free(tb);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "cmp -s '%s/solomon_KMvK.stb' '%s/solomon_KMvK.stb'", dir, table_dir);
    ck_assert_int_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "diff -r '%s' '%s' >/dev/null", dir, table_dir);
    ck_assert_int_eq(system(cmd), 0);
    remove_tree(dir);
}
END_TEST

/* ---- through the programs ------------------------------------------------------ */

/* The sigil-tbgen next to the engine under test. */
static const char *tbgen(void)
{
    static char path[4096];
    snprintf(path, sizeof path, "%s-tbgen", pipe_engine_sigil());
    return path;
}

START_TEST(the_engine_names_a_fifo_and_keeps_the_other_tables)
{
    char dir[64], path[200], cmd[200];
    fresh_copy(dir);
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    PipeEngine e;
    ck_assert(pipe_engine_start(&e, pipe_engine_sigil()));
    snprintf(cmd, sizeof cmd, "setoption name TablebasePath value %s", dir);
    pipe_engine_send(&e, cmd);
    pipe_engine_send(&e, "isready");
    static char seen[1 << 14];
    seen[0] = '\0';
    ck_assert_msg(pipe_engine_expect(&e, "readyok", 10000, seen, sizeof seen), "blocked: %s",
                  seen);
    ck_assert_msg(strstr(seen, "info string error: ") && strstr(seen, path) &&
                      strstr(seen, "not a regular file (a FIFO): skipped"),
                  "%s", seen);
    ck_assert_ptr_null(strstr(strstr(seen, "info string error: ") + 1, "info string error: "));
    /* KKvK is loaded: two kings against one */
    pipe_engine_send(&e, "position fen W:WK7,K16:BK2");
    pipe_engine_send(&e, "query value");
    const char *r = pipe_engine_expect(&e, "response ", 10000, NULL, 0);
    ck_assert_ptr_nonnull(r);
    ck_assert_str_eq(r, "response win 3");
    /* a folder that does not exist: its reason */
    pipe_engine_send(&e, "setoption name TablebasePath value no-such-folder/sigil-tb");
    pipe_engine_send(&e, "isready");
    seen[0] = '\0';
    ck_assert(pipe_engine_expect(&e, "readyok", 10000, seen, sizeof seen));
    ck_assert_msg(strstr(seen, "info string error: table folder no-such-folder/sigil-tb: No such "
                               "file or directory\n"),
                  "%s", seen);
    pipe_engine_close(&e);
    remove_tree(dir);
}
END_TEST

/* Run sigil-tbgen with args and input; its output in out, its status (or
 * -1 when it did not end within 10 s). */
static int run_tbgen(char *const args[], const char *input, char *out, size_t size)
{
    PipeEngine e;
    ck_assert(pipe_engine_start_argv(&e, tbgen(), args, 0));
    if (input)
        pipe_engine_send(&e, input);
    pipe_engine_close_input(&e);
    out[0] = '\0';
    const char *line;
    long long deadline = util_now_ms() + 10000;
    size_t len = 0;
    while (util_now_ms() < deadline && (line = pipe_engine_read(&e, 1000)) != NULL) {
        len += (size_t)snprintf(out + len, size - len, "%s\n", line);
        if (len >= size)
            len = size - 1;
    }
    int status = pipe_engine_wait(&e, 10000);
    pipe_engine_close(&e);
    return status;
}

START_TEST(sigil_tbgen_probe_and_check_proof_skip_a_fifo)
{
    char dir[64], path[200], out[8192];
    fresh_copy(dir);
    table_path(dir, single, KMvK, path, sizeof path);
    ck_assert_int_eq(unlink(path), 0);
    ck_assert_int_eq(mkfifo(path, 0644), 0);
    char *probe[] = {(char *)tbgen(), "--probe", "--variant", "solomon", "--pieces", "3",
                     "--dir", dir, NULL};
    int status = run_tbgen(probe, "W:WK7,K16:BK2", out, sizeof out);
    ck_assert_msg(status == 1, "status %d: %s", status, out); /* answered, then status 1 */
    ck_assert_msg(strstr(out, "not a regular file (a FIFO): skipped"), "%s", out);
    ck_assert_msg(strstr(out, "\nwin 3\n") || strncmp(out, "win 3\n", 6) == 0, "%s", out);
    /* --check-proof loads the tables the same way: no block */
    char proof[200];
    snprintf(proof, sizeof proof, "%s/p.proof", dir);
    FILE *f = fopen(proof, "w");
    ck_assert_ptr_nonnull(f);
    fputs("sigil-proof 1\nvariant solomon\nside white\nroot W:WK7,K16:BK2\n"
          "W:WK7,K16:BK2|16-11\n",
          f);
    fclose(f);
    char *check[] = {(char *)tbgen(), "--check-proof", proof, "--variant", "solomon",
                     "--pieces", "3", "--dir", dir, NULL};
    status = run_tbgen(check, NULL, out, sizeof out);
    ck_assert_msg(status >= 0, "blocked: %s", out);
    ck_assert_msg(strstr(out, "not a regular file (a FIFO): skipped"), "%s", out);
    remove_tree(dir);
}
END_TEST

START_TEST(sigil_tbgen_lists_and_builds_one_material)
{
    char dir[64], out[1 << 15];
    temp_dir(dir);
    char *list[] = {(char *)tbgen(), "--list-materials", "--variant", "solomon", "--pieces", "3",
                    NULL};
    ck_assert_int_eq(run_tbgen(list, NULL, out, sizeof out), 0);
    ck_assert_msg(strncmp(out, "solomon KvK\nsolomon KvM KvK\n", 28) == 0, "%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\nsolomon KvKK KvK\n"));
    int lines = 0;
    for (const char *c = out; *c; c++)
        lines += *c == '\n';
    ck_assert_int_eq(lines, 9);
    /* each line's pair built in order, then the set equals one build */
    char *line = out, *next;
    for (; *line; line = next) {
        next = strchr(line, '\n');
        *next++ = '\0';
        char material[20];
        ck_assert_int_eq(sscanf(line, "solomon %19s", material), 1);
        char job_out[4096];
        char *build[] = {(char *)tbgen(), "--variant", "solomon", "--material", material,
                         "--dir", dir, "--quiet", NULL};
        ck_assert_msg(run_tbgen(build, NULL, job_out, sizeof job_out) == 0, "%s: %s", material,
                      job_out);
    }
    char cmd[300];
    snprintf(cmd, sizeof cmd, "diff -r '%s' '%s' >/dev/null", dir, table_dir);
    ck_assert_int_eq(system(cmd), 0);
    char *bad[] = {(char *)tbgen(), "--material", "KvQ", "--dir", dir, NULL};
    ck_assert_int_eq(run_tbgen(bad, NULL, out, sizeof out), 1);
    ck_assert_msg(strstr(out, "KvQ: not a material with a table"), "%s", out);
    remove_tree(dir);
}
END_TEST

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    Suite *s = suite_create("tablebase files");
    TCase *tc = tcase_create("files");
    tcase_add_unchecked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_fifo_named_like_a_table_is_skipped_without_blocking);
    tcase_add_test(tc, a_device_or_folder_named_like_a_table_is_skipped);
    tcase_add_test(tc, a_missing_or_unreadable_file_is_named_with_its_reason);
    tcase_add_test(tc, an_unusable_folder_is_named_with_its_reason);
    tcase_add_test(tc, damaged_headers_are_named_and_reserved_bytes_must_be_zero);
    tcase_add_test(tc, many_problems_make_one_message);
    tcase_add_test(tc, the_pairs_needs_come_before_it);
    tcase_add_test(tc, pair_by_pair_builds_the_same_files);
    tcase_add_test(tc, the_engine_names_a_fifo_and_keeps_the_other_tables);
    tcase_add_test(tc, sigil_tbgen_probe_and_check_proof_skip_a_fifo);
    tcase_add_test(tc, sigil_tbgen_lists_and_builds_one_material);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
