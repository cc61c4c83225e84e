/*
 * test_build_cache.c - src/compile/build_cache.c on its own: sha256 of a
 * buffer and of a file; an entry is valid only with its four files and
 * unchanged dependencies (deps.json written from clang's make-syntax .d
 * files, escaped spaces included); publishing moves the temporary entry in,
 * keeps a valid concurrent entry unless told to replace it, and replaces an
 * invalid one; the sweep removes only old leftovers of its own key.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include <cmocka.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "base/hash.h"
#include "compile/build_cache.h"

typedef struct fx {
    char *root;
} fx;

static int setup(void **state)
{
    fx *f = ctg_calloc(1, sizeof *f);
    ctg_err e = {{0}};
    f->root = fs_mkdtemp("ctg-test-bcache-", "a test directory", &e);
    *state = f;
    return f->root ? 0 : -1;
}

static int teardown(void **state)
{
    fx *f = *state;
    fs_rm_rf(f->root, NULL);
    ctg_free(f->root);
    ctg_free(f);
    return 0;
}

/* Writes root/name with text; returns its path (ctg_free). */
static char *put(const char *root, const char *name, const char *text)
{
    char *p = fs_join(root, name);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(p, text, strlen(text), &e));
    return p;
}

/* A complete entry in root/name whose one dependency is src. */
static char *entry(const char *root, const char *name, const char *src)
{
    char *dir = fs_join(root, name);
    ctg_err e = {{0}};
    assert_true(fs_mkdir_p(dir, &e));
    ctg_free(put(dir, "prog.cov", "binary"));
    ctg_free(put(dir, "prog.bc", "bitcode"));
    ctg_free(put(dir, "progdb.json", "{}"));
    char text[4200];
    snprintf(text, sizeof text, "prog.o: %s \\\n  %s\n", src, src);
    char *d = put(root, "prog.d", text);
    char *deps[] = {d};
    assert_true(bcache_save_deps(dir, deps, 1, &e));
    ctg_free(d);
    return dir;
}

static void test_sha256(void **state)
{
    fx *f = *state;
    char a[BCACHE_HEX], b[BCACHE_HEX];
    assert_true(hash_buffer("abc", 3, a));
    assert_string_equal(a, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    char *p = put(f->root, "abc.txt", "abc");
    ctg_err e = {{0}};
    assert_true(hash_file(p, b, &e));
    assert_string_equal(a, b);
    char *q = fs_join(f->root, "missing");
    assert_false(hash_file(q, b, &e));
    assert_non_null(strstr(e.msg, "missing"));
    ctg_free(p), ctg_free(q);
}

static void test_valid(void **state)
{
    fx *f = *state;
    /* the .d file names the source relative to the working directory */
    assert_int_equal(chdir(f->root), 0);
    char *src = put(f->root, "my prog.c", "int main(void) { return 0; }\n"); /* a space */
    char *dir = entry(f->root, "k1", "my\\ prog.c");
    assert_true(bcache_valid(dir));
    char *deps;
    char *dp = fs_join(dir, "deps.json");
    ctg_err e = {{0}};
    assert_true(fs_read(dp, &deps, NULL, &e));
    assert_non_null(strstr(deps, "my prog.c"));
    ctg_free(deps);
    /* the source changes: no longer valid */
    ctg_free(put(f->root, "my prog.c", "int main(void) { return 1; }\n"));
    assert_false(bcache_valid(dir));
    /* back as it was: valid again; a missing file: not */
    ctg_free(put(f->root, "my prog.c", "int main(void) { return 0; }\n"));
    assert_true(bcache_valid(dir));
    char *cov = fs_join(dir, "prog.cov");
    assert_int_equal(unlink(cov), 0);
    assert_false(bcache_valid(dir));
    char *none = fs_join(f->root, "none");
    assert_false(bcache_valid(none));
    ctg_free(none), ctg_free(cov), ctg_free(dp), ctg_free(dir), ctg_free(src);
}

static void test_publish(void **state)
{
    fx *f = *state;
    assert_int_equal(chdir(f->root), 0);
    ctg_free(put(f->root, "p.c", "int x;\n"));
    char *tmp = entry(f->root, "key.tmp.a", "p.c"), *final = fs_join(f->root, "key");
    ctg_err e = {{0}};
    char *got = bcache_publish(tmp, final, false, &e); /* nothing there: moved in */
    assert_string_equal(got, final);
    assert_false(fs_exists(tmp));
    assert_true(bcache_valid(final));
    ctg_free(got);

    /* a concurrent build of the same key finished first: it is kept */
    char *tmp2 = entry(f->root, "key.tmp.b", "p.c");
    char *mark = put(final, "mark", "first");
    got = bcache_publish(tmp2, final, false, &e);
    assert_string_equal(got, final);
    assert_true(fs_exists(mark));
    assert_false(fs_exists(tmp2));
    ctg_free(got);

    /* --no-cache: replaced */
    char *tmp3 = entry(f->root, "key.tmp.c", "p.c");
    got = bcache_publish(tmp3, final, true, &e);
    assert_string_equal(got, final);
    assert_false(fs_exists(mark));
    assert_true(bcache_valid(final));
    ctg_free(got);

    /* an invalid entry there (a build cut short): replaced */
    char *cov = fs_join(final, "prog.cov");
    assert_int_equal(unlink(cov), 0);
    char *tmp4 = entry(f->root, "key.tmp.d", "p.c");
    got = bcache_publish(tmp4, final, false, &e);
    assert_string_equal(got, final);
    assert_true(bcache_valid(final));
    ctg_free(got);
    ctg_free(tmp4), ctg_free(cov), ctg_free(tmp3), ctg_free(mark), ctg_free(tmp2);
    ctg_free(final), ctg_free(tmp);
}

static void test_sweep(void **state)
{
    fx *f = *state;
    ctg_err e = {{0}};
    const char *names[] = {"abc.tmp.old1", "abc.old.1.0", "abc.tmp.new", "abd.tmp.old", "abc"};
    for (int i = 0; i < 5; i++) {
        char *p = fs_join(f->root, names[i]);
        assert_true(fs_mkdir_p(p, &e));
        if (i != 2) { /* all but the new one are two hours old */
            struct utimbuf t = {time(NULL) - 7200, time(NULL) - 7200};
            assert_int_equal(utime(p, &t), 0);
        }
        ctg_free(p);
    }
    bcache_sweep(f->root, "abc");
    const bool kept[] = {false, false, true, true, true};
    for (int i = 0; i < 5; i++) {
        char *p = fs_join(f->root, names[i]);
        assert_int_equal(fs_exists(p), kept[i]);
        ctg_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_sha256, setup, teardown),
        cmocka_unit_test_setup_teardown(test_valid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_publish, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sweep, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
