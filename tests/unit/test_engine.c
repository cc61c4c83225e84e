/*
 * test_engine.c - src/search/engine.c driven directly (engine_fixture.h):
 * an execution budget is spent exactly (--keep-going; without it the run
 * ends when every goal is covered); every kept test is on disk once as
 * a testcase and a corpus file and the summary, its per-test kinds and
 * stats.json agree with the files; a reached error and a crash reached
 * many times are one record each; a fixed seed gives the same suite; an
 * earlier run is refused unless --force, and --resume numbers on after it;
 * a stdin program's tests are its corpus only; an output path that is a
 * file is a one-line error naming it.
 */
#include "engine_fixture.h" /* before cmocka.h, which defines test_free */
#include "suite/suite.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* 'E' reaches the error, 'C' crashes: random finds both (1 in 256). */
static const char *prog_src =
    "extern char __VERIFIER_nondet_char(void);\n"
    "extern void abort(void);\n"
    "void reach_error(void) { abort(); }\n"
    "int main(void)\n{\n"
    "    char c = __VERIFIER_nondet_char();\n"
    "    if (c > 100) {\n        if (c < 110)\n            return 1;\n        return 2;\n    }\n"
    "    if (c == 'E')\n        reach_error();\n"
    "    if (c == 'C')\n        *(volatile int *)0 = 1;\n"
    "    return 0;\n}\n";

static const char *stdin_src =
    "#include <stdio.h>\n"
    "int main(void)\n{\n    int c = getchar();\n"
    "    if (c == 'a')\n        return 1;\n    if (c > 'p')\n        return 2;\n    return 0;\n}\n";

static void test_budget_and_files(void **state)
{
    (void)state;
    char *prog = efx_write("prog.c", prog_src), *out = efx_path("a");
    engine_summary s;
    ctg_err e = {{0}};
    bool ran = efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "3000", "--seed", "1",
                       "--keep-going", "-q", "-o", out, NULL);
    if (!ran)
        print_error("%s\n", e.msg);
    assert_true(ran);
    assert_int_equal(s.execs, 3000);
    assert_string_equal(s.stop_reason, "execution budget spent");
    uint64_t runs = 0;
    for (int k = 0; k < EXEC__COUNT; k++)
        runs += s.kinds[k];
    assert_true(runs >= s.execs); /* minimising a crash runs more */
    assert_int_equal(s.errors_reached, 1);
    assert_int_equal(s.n_errors, 1);
    assert_int_equal(s.crashes, 1);       /* one signature, found many times */
    assert_int_equal(s.error_records, 1); /* crashes/error-NNNNN */
    assert_true(s.tests >= 4);
    assert_int_equal(efx_count("a/test-suite", "test-"), (int)s.tests);
    assert_int_equal(efx_count("a/corpus", "id-"), (int)s.tests);
    assert_int_equal(s.n_test_kinds, s.tests);
    unsigned errors = 0;
    for (size_t i = 0; i < s.n_test_kinds; i++)
        errors += s.test_kinds[i] == EXEC_ERROR;
    assert_int_equal(errors, 1);
    assert_int_equal((uint64_t)efx_stat("a", "execs"), 3000);
    assert_int_equal((unsigned)efx_stat("a", "edges.covered"), s.edges_covered);
    assert_int_equal(s.edges_covered, s.n_edges);
    engine_summary_release(&s);
    /* without --keep-going the run ends when every goal is covered */
    assert_true(efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "3000", "--seed", "1",
                        "--force", "-q", "-o", out, NULL));
    assert_string_equal(s.stop_reason, "every goal covered");
    assert_true(s.execs < 3000);
    assert_int_equal((uint64_t)efx_stat("a", "execs"), s.execs);
    engine_summary_release(&s);
    ctg_free(prog), ctg_free(out);
}

/* The files of two output directories' corpus, byte for byte. */
static bool same_corpus(const char *a, const char *b)
{
    char *da = efx_path(a), *db = efx_path(b);
    char *ca = fs_join(da, "corpus"), *cb = fs_join(db, "corpus");
    char **fa = NULL, **fb = NULL;
    size_t na = 0, nb = 0;
    ctg_err e = {{0}};
    bool same = fs_list_files(ca, &fa, &na, &e) && fs_list_files(cb, &fb, &nb, &e) && na == nb;
    for (size_t i = 0; same && i < na; i++) {
        char *x = NULL, *y = NULL;
        size_t lx = 0, ly = 0;
        same = fs_read(fa[i], &x, &lx, &e) && fs_read(fb[i], &y, &ly, &e) && lx == ly &&
               !memcmp(x, y, lx) && !strcmp(strrchr(fa[i], '/'), strrchr(fb[i], '/'));
        ctg_free(x), ctg_free(y);
    }
    suite_free_list(fa, na);
    suite_free_list(fb, nb);
    ctg_free(ca), ctg_free(cb), ctg_free(da), ctg_free(db);
    return same;
}

static void test_fixed_seed_same_suite(void **state)
{
    (void)state;
    char *prog = efx_write("prog.c", prog_src), *o1 = efx_path("s1"), *o2 = efx_path("s2"),
         *o3 = efx_path("s3");
    engine_summary s;
    ctg_err e = {{0}};
    assert_true(efx_run(&s, &e, prog, "--strategy", "fuzz", "--max-execs", "2000", "--seed", "5",
                        "-q", "-o", o1, NULL));
    engine_summary_release(&s);
    assert_true(efx_run(&s, &e, prog, "--strategy", "fuzz", "--max-execs", "2000", "--seed", "5",
                        "-q", "-o", o2, NULL));
    engine_summary_release(&s);
    assert_true(efx_run(&s, &e, prog, "--strategy", "fuzz", "--max-execs", "2000", "--seed", "6",
                        "-q", "-o", o3, NULL));
    engine_summary_release(&s);
    assert_true(same_corpus("s1", "s2"));
    assert_false(same_corpus("s1", "s3")); /* the seed matters: the check can fail */
    ctg_free(prog), ctg_free(o1), ctg_free(o2), ctg_free(o3);
}

static void test_earlier_run_force_resume(void **state)
{
    (void)state;
    char *prog = efx_write("prog.c", prog_src), *out = efx_path("r");
    engine_summary s;
    ctg_err e = {{0}};
    assert_true(efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "300", "--seed", "1",
                        "-q", "-o", out, NULL));
    unsigned first = s.tests;
    engine_summary_release(&s);
    assert_false(efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "300", "-q", "-o",
                         out, NULL));
    assert_non_null(strstr(e.msg, "holds an earlier run; pass --force"));
    engine_summary_release(&s);
    assert_int_equal(efx_count("r/corpus", "id-"), (int)first); /* left as it was */
    memset(&e, 0, sizeof e);
    assert_true(efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "3000", "--seed", "2",
                        "--keep-going", "--resume", "-q", "-o", out, NULL));
    assert_true(s.tests >= first);
    assert_int_equal(efx_count("r/corpus", "id-"), (int)s.tests);
    assert_int_equal((uint64_t)efx_stat("r", "execs"), 3000); /* the budget counts on */
    engine_summary_release(&s);
    assert_true(efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "10", "--seed", "1",
                        "--force", "-q", "-o", out, NULL));
    assert_int_equal(efx_count("r/corpus", "id-"), (int)s.tests); /* replaced, not added to */
    assert_true(s.tests <= 10);
    engine_summary_release(&s);
    ctg_free(prog), ctg_free(out);
}

static void test_stdin_tests_are_corpus(void **state)
{
    (void)state;
    char *prog = efx_write("in.c", stdin_src), *out = efx_path("i");
    engine_summary s;
    ctg_err e = {{0}};
    assert_true(efx_run(&s, &e, prog, "--strategy", "fuzz", "--max-execs", "2000", "--seed", "1",
                        "-q", "-o", out, NULL));
    assert_true(s.tests >= 3);
    assert_int_equal(efx_count("i/corpus", "id-"), (int)s.tests);
    assert_int_equal(efx_count("i/test-suite", ""), -1); /* no Test-Comp suite */
    engine_summary_release(&s);
    ctg_free(prog), ctg_free(out);
}

static void test_output_is_a_file(void **state)
{
    (void)state;
    char *prog = efx_write("prog.c", prog_src), *out = efx_write("taken", "x");
    engine_summary s;
    ctg_err e = {{0}};
    assert_false(efx_run(&s, &e, prog, "--strategy", "random", "--max-execs", "10", "-q", "-o",
                         out, NULL));
    assert_non_null(strstr(e.msg, out));
    assert_null(strchr(e.msg, '\n'));
    engine_summary_release(&s);
    ctg_free(prog), ctg_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_budget_and_files),
        cmocka_unit_test(test_fixed_seed_same_suite),
        cmocka_unit_test(test_earlier_run_force_resume),
        cmocka_unit_test(test_stdin_tests_are_corpus),
        cmocka_unit_test(test_output_is_a_file),
    };
    return cmocka_run_group_tests(tests, efx_group_setup, efx_group_teardown);
}
