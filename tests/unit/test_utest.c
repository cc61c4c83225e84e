/*
 * test_utest.c - src/report/utest.c on its own: from a hand-written suite
 * of three tests of a small function, utest_write produces a C file with one
 * test each, asserting the results a gcc probe observed; the test whose
 * call crashes is kept under #ifdef CTG_RUN_CRASHING; the file compiles with
 * -Wall -Werror and passes; a missing suite is a one-line error naming it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "report/utest.h"

static const char *lib_src =
    "int scale(int x, int k);\n"
    "int scale(int x, int k)\n"
    "{\n"
    "    if (x == 7)\n"
    "        *(volatile int *)0 = 1; /* the crashing input */\n"
    "    return x * k + 1;\n"
    "}\n";

typedef struct fx {
    char *dir, *lib, *suite;
    drv_sig *sig;
} fx;

static void put(const char *dir, const char *name, const char *text)
{
    char *p = fs_join(dir, name);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(p, text, strlen(text), &e));
    ctg_free(p);
}

static void put_test(const char *suite, const char *name, int x, int k)
{
    char text[512];
    snprintf(text, sizeof text,
             "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n<testcase>\n"
             "  <input type=\"int\">%d</input>\n  <input type=\"int\">%d</input>\n</testcase>\n",
             x, k);
    put(suite, name, text);
}

static int setup(void **state)
{
    fx *f = ctg_calloc(1, sizeof *f);
    ctg_err e = {{0}};
    f->dir = fs_mkdtemp("ctg-test-utest-", "a test directory", &e);
    if (!f->dir)
        return -1;
    put(f->dir, "lib.c", lib_src);
    f->lib = fs_join(f->dir, "lib.c");
    f->suite = fs_join(f->dir, "test-suite");
    if (!fs_mkdir_p(f->suite, &e))
        return -1;
    put_test(f->suite, "test-00000.xml", 2, 3);  /* 7 */
    put_test(f->suite, "test-00001.xml", -4, 5); /* -19 */
    put_test(f->suite, "test-00002.xml", 7, 1);  /* crashes */
    f->sig = drv_parse(f->lib, "scale", NULL, 0, 2, &e);
    *state = f;
    return f->sig ? 0 : -1;
}

static int teardown(void **state)
{
    fx *f = *state;
    drv_free(f->sig);
    fs_rm_rf(f->dir, NULL);
    ctg_free(f->suite), ctg_free(f->lib), ctg_free(f->dir);
    ctg_free(f);
    return 0;
}

static void test_write(void **state)
{
    fx *f = *state;
    char *out = fs_join(f->dir, "tests_scale.c");
    const char *srcs[] = {f->lib};
    utest_opts o = {.sig = f->sig, .suite_dir = f->suite, .out_path = out, .sources = srcs,
                    .n_sources = 1, .arch_bits = 64};
    utest_result r;
    ctg_err e = {{0}};
    assert_true(utest_write(&o, &r, &e));
    assert_int_equal(r.tests, 3);
    assert_int_equal(r.crashing, 1);
    assert_true(r.verified);
    assert_int_equal(r.passed, 2);
    assert_int_equal(r.failed, 0);
    char *text;
    assert_true(fs_read(out, &text, NULL, &e));
    assert_non_null(strstr(text, "scale("));
    assert_non_null(strstr(text, "== 7LL"));   /* 2 * 3 + 1, as the probe saw it */
    assert_non_null(strstr(text, "== -19LL")); /* -4 * 5 + 1 */
    assert_non_null(strstr(text, "#ifdef CTG_RUN_CRASHING"));
    ctg_free(text);
    ctg_free(out);
}

static void test_missing_suite(void **state)
{
    fx *f = *state;
    char *out = fs_join(f->dir, "tests_x.c"), *none = fs_join(f->dir, "no-suite");
    const char *srcs[] = {f->lib};
    utest_opts o = {.sig = f->sig, .suite_dir = none, .out_path = out, .sources = srcs,
                    .n_sources = 1, .arch_bits = 64};
    utest_result r;
    ctg_err e = {{0}};
    assert_false(utest_write(&o, &r, &e));
    assert_non_null(strstr(e.msg, "no-suite"));
    assert_null(strchr(e.msg, '\n'));
    assert_false(fs_exists(out));
    ctg_free(none), ctg_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_suite, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
