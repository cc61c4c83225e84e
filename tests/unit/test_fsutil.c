/*
 * test_fsutil.c - src/base/fsutil.h: temporary directories where asked
 * (next to a path, and under TMPDIR, /tmp when it is empty), one-line errors
 * naming the path; an atomic write read back; a tree removed; joins.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/fsutil.h"
#include "base/mem.h"

static void test_mkdtemp_at(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    char *top = fs_mkdtemp("ctg-test-fsutil-", "a test directory", &e);
    assert_non_null(top);
    char *at = fs_join(top, "entry.tmp.");
    char *dir = fs_mkdtemp_at(at, "a build directory", &e);
    assert_non_null(dir);
    assert_true(fs_is_dir(dir));
    assert_int_equal(strncmp(dir, at, strlen(at)), 0);
    assert_int_equal(strlen(dir), strlen(at) + 6); /* XXXXXX filled in */
    char *again = fs_mkdtemp_at(at, "a build directory", &e);
    assert_non_null(again);
    assert_string_not_equal(again, dir); /* a new one each time */

    /* a parent that does not exist: NULL, and the message names the path
     * and what the directory was for */
    char *bad = fs_join(top, "no/such/dir/x.");
    ctg_err be = {{0}};
    assert_null(fs_mkdtemp_at(bad, "a build directory", &be));
    assert_non_null(strstr(be.msg, "no/such/dir/x."));
    assert_non_null(strstr(be.msg, "cannot create a build directory"));

    assert_true(fs_rm_rf(top, &e));
    assert_false(fs_exists(top));
    ctg_free(bad), ctg_free(again), ctg_free(dir), ctg_free(at), ctg_free(top);
}

static void test_mkdtemp_tmpdir(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    char *base = fs_mkdtemp("ctg-test-tmpdir-", "a test directory", &e);
    assert_non_null(base);
    char *old = getenv("TMPDIR") ? strdup(getenv("TMPDIR")) : NULL;
    setenv("TMPDIR", base, 1);
    char *d = fs_mkdtemp("x-", "a test directory", &e);
    assert_non_null(d);
    assert_int_equal(strncmp(d, base, strlen(base)), 0);
    setenv("TMPDIR", "", 1); /* empty: /tmp */
    char *t = fs_mkdtemp("ctg-test-empty-", "a test directory", &e);
    assert_non_null(t);
    assert_int_equal(strncmp(t, "/tmp/ctg-test-empty-", 20), 0);
    if (old)
        setenv("TMPDIR", old, 1);
    else
        unsetenv("TMPDIR");
    assert_true(fs_rm_rf(t, &e));
    assert_true(fs_rm_rf(base, &e));
    free(old);
    ctg_free(t), ctg_free(d), ctg_free(base);
}

static void test_write_read(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    char *top = fs_mkdtemp("ctg-test-rw-", "a test directory", &e);
    assert_non_null(top);
    char *sub = fs_join(top, "a/b");
    assert_true(fs_mkdir_p(sub, &e));
    char *f = fs_join(sub, "data.bin");
    const char bytes[] = {'x', 0, 'y', '\n'};
    assert_true(fs_write_atomic(f, bytes, sizeof bytes, &e));
    char *got = NULL;
    size_t len = 0;
    assert_true(fs_read(f, &got, &len, &e));
    assert_int_equal(len, sizeof bytes);
    assert_memory_equal(got, bytes, sizeof bytes);
    ctg_err re = {{0}};
    char *missing = fs_join(top, "missing.txt");
    char *none = NULL;
    assert_false(fs_read(missing, &none, &len, &re));
    assert_non_null(strstr(re.msg, "missing.txt"));
    assert_true(fs_rm_rf(top, &e));
    assert_false(fs_exists(f));
    ctg_free(missing), ctg_free(got), ctg_free(f), ctg_free(sub), ctg_free(top);
}

static void test_join(void **state)
{
    (void)state;
    char *j = fs_join("/a/b", "c.txt");
    assert_string_equal(j, "/a/b/c.txt");
    ctg_free(j);
    j = fs_join("/a/b/", "c.txt");
    assert_string_equal(j, "/a/b/c.txt");
    ctg_free(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mkdtemp_at),
        cmocka_unit_test(test_mkdtemp_tmpdir),
        cmocka_unit_test(test_write_read),
        cmocka_unit_test(test_join),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
