/*
 * test_ccrec.c - unit tests of src/compile/ccrec (compile records of
 * ctestgen-cc and compile_commands.json) and src/suite/buildrec
 * (OUT/build.json): lines written and read back, flags kept once (a flag
 * and its value as a pair), a database's "command" split as a shell would,
 * paths made absolute against the entry's directory, damaged input named.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "compile/ccrec.h"
#include "suite/buildrec.h"

#include <cmocka.h>

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ctg-test-ccrec-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(dir, NULL) ? 0 : -1;
}

static void test_lines(void **state)
{
    (void)state;
    char *flags[] = {"-I/p/include", "-include", "/p/cfg.h", NULL};
    ccrec r = {.src = "/p/a.c", .bc = "/p/.a.o.ctg.bc", .flags = flags, .n_flags = 3,
               .arch_bits = 64};
    sbuf b = SBUF_INIT;
    assert_true(ccrec_line(&r, &b));
    assert_true(ccrec_line(&r, &b)); /* the same file twice: one record */
    char *link[] = {"-lm", "-L/p/lib"};
    assert_true(ccrec_link_line(link, 2, &b));
    ccrecs rs = {0};
    ctg_err e = {{0}};
    assert_true(ccrec_parse(b.data, b.len, "obj.o", &rs, &e));
    assert_int_equal(rs.n, 1);
    assert_string_equal(rs.v[0].src, "/p/a.c");
    assert_string_equal(rs.v[0].bc, "/p/.a.o.ctg.bc");
    assert_int_equal(rs.v[0].n_flags, 3);
    assert_string_equal(rs.v[0].flags[1], "-include");
    assert_string_equal(rs.v[0].flags[2], "/p/cfg.h");
    assert_int_equal(rs.n_link, 2);
    assert_string_equal(rs.link[1], "-L/p/lib");
    ccrecs_release(&rs);
    sbuf_release(&b);
    assert_false(ccrec_parse("{\"src\": 3}\n", 11, "obj.o", &rs, &e));
    assert_non_null(strstr(e.msg, "obj.o: compile record 1 is damaged"));
    ccrecs_release(&rs);
}

static void test_flags_once(void **state)
{
    (void)state;
    char **v = NULL;
    int n = 0;
    assert_true(ccrec_add_flag(&v, &n, "-DX", NULL));
    assert_true(ccrec_add_flag(&v, &n, "-DX", NULL));
    assert_true(ccrec_add_flag(&v, &n, "-include", "a.h"));
    assert_true(ccrec_add_flag(&v, &n, "-include", "b.h")); /* another pair */
    assert_true(ccrec_add_flag(&v, &n, "-include", "a.h"));
    assert_int_equal(n, 5);
    assert_string_equal(v[4], "b.h");
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

static void test_database(void **state)
{
    (void)state;
    char path[300];
    snprintf(path, sizeof path, "%s/compile_commands.json", dir);
    const char *db =
        "[{\"directory\": \"/p/build\", \"command\": \"/usr/bin/cc -I/p/inc -D 'NAME=\\\"x y\\\"' "
        "-O2 -o a.o -c /p/a.c\", \"file\": \"/p/a.c\"},\n"
        " {\"directory\": \"/p/build\", \"arguments\": [\"cc\", \"-Irel\", \"-include\", \"cfg.h\", "
        "\"-c\", \"../b.c\"], \"file\": \"../b.c\"},\n"
        " {\"directory\": \"/p\", \"command\": \"c++ -c x.cpp\", \"file\": \"x.cpp\"}]\n";
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(path, db, strlen(db), &e));
    ccrecs rs = {0};
    assert_true(ccrec_read_db(path, &rs, &e));
    assert_int_equal(rs.n, 2); /* C++ is not ours */
    assert_string_equal(rs.v[0].src, "/p/a.c");
    assert_string_equal(rs.v[0].obj, "/p/build/a.o");
    assert_int_equal(rs.v[0].n_flags, 2); /* -O2 is not kept */
    assert_string_equal(rs.v[0].flags[0], "-I/p/inc");
    assert_string_equal(rs.v[0].flags[1], "-DNAME=\"x y\"");
    assert_string_equal(rs.v[1].src, "/p/build/../b.c");
    assert_string_equal(rs.v[1].flags[0], "-I/p/build/rel");
    assert_string_equal(rs.v[1].flags[1], "-include");
    assert_string_equal(rs.v[1].flags[2], "/p/build/cfg.h");
    ccrecs_release(&rs);
    const char *bad = "{\"not\": \"an array\"}";
    assert_true(fs_write_atomic(path, bad, strlen(bad), &e));
    assert_false(ccrec_read_db(path, &rs, &e));
    assert_non_null(strstr(e.msg, "not a compilation database"));
    ccrecs_release(&rs);
}

static void test_buildrec(void **state)
{
    (void)state;
    char src[300], old[4096];
    snprintf(src, sizeof src, "%s/prog.c", dir);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(src, "int main(void){return 0;}\n", 26, &e));
    assert_non_null(getcwd(old, sizeof old));
    assert_int_equal(chdir(dir), 0);
    const char *sources[] = {"prog.c"};
    const char *flags[] = {"-Iinc", "-include", "cfg.h", "-lm", "-DX=1"};
    buildrec r;
    assert_true(buildrec_make(&r, sources, 1, flags, 5, 32, "address", &e));
    assert_int_equal(chdir(old), 0);
    assert_true(buildrec_write(dir, &r, &e));
    buildrec back;
    assert_int_equal(buildrec_load(dir, &back, &e), 1);
    assert_string_equal(back.sources[0], src); /* absolute */
    char inc[300];
    snprintf(inc, sizeof inc, "-I%s/inc", dir);
    assert_string_equal(back.flags[0], inc);
    snprintf(inc, sizeof inc, "%s/cfg.h", dir);
    assert_string_equal(back.flags[2], inc); /* -include's file, the argument after it */
    assert_string_equal(back.flags[3], "-lm");
    assert_int_equal(back.arch_bits, 32);
    assert_string_equal(back.sanitize, "address");
    buildrec_release(&r);
    buildrec_release(&back);
    char other[300];
    snprintf(other, sizeof other, "%s/none", dir);
    assert_int_equal(buildrec_load(other, &back, &e), 0);
    char bj[320];
    snprintf(bj, sizeof bj, "%s/build.json", dir);
    assert_true(fs_write_atomic(bj, "{]", 2, &e));
    assert_int_equal(buildrec_load(dir, &back, &e), -1);
    assert_non_null(strstr(e.msg, "build.json: not a ctestgen build record"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_flags_once),
        cmocka_unit_test(test_database),
        cmocka_unit_test(test_buildrec),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
