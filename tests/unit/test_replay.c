/*
 * test_replay.c - unit tests of src/report/replay: hand-written suites are
 * replayed with gcc --coverage and the harness; the expected gcov numbers
 * are exact (gcc counts the branches of the whole file: for
 * examples/triangle.c 32 branch edges - 22 in triangle() and 10 in main -
 * and 21 lines).
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
#include "base/mem.h"
#include "compile/build.h"
#include "exec/exec.h"
#include "report/replay.h"
#include "suite/archive.h"
#include "suite/suite.h"
#include "suite/test.h"

#include <cmocka.h>
#include "host_skip.h"
#undef test_free /* cmocka's allocation-checking macro; ours is a function */

static char tmp_root[256];
static char rt_dir[512];
static char triangle[512];

static int setup(void **state)
{
    (void)state;
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ctg-test-replay-XXXXXX");
    snprintf(rt_dir, sizeof rt_dir, "%s/rt", getenv("CTG_BUILD_DIR"));
    snprintf(triangle, sizeof triangle, "%s/examples/triangle.c", getenv("CTG_SOURCE_DIR"));
    return mkdtemp(tmp_root) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(tmp_root, NULL) ? 0 : -1;
}

static char *path_of(const char *name)
{
    static char buf[16][512];
    static int k;
    k = (k + 1) % 16;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tmp_root, name);
    return buf[k];
}

/* Writes a C program into the temporary directory; returns its path. */
static const char *program(const char *name, const char *text)
{
    const char *p = path_of(name);
    assert_true(fs_write_atomic(p, text, strlen(text), NULL));
    return p;
}

/* Writes out/test-suite with one test per row of n_vals ints; rows listed
 * in `errors` are marked coversError. */
static void int_suite(const char *out, const int *vals, size_t rows, size_t n_vals, int arch,
                      long error_row)
{
    suite_meta m = {"triangle.c", "", "main", arch, NULL, NULL, false, NULL, 0, false};
    ctg_err e = {{0}};
    fs_rm_rf(out, NULL);
    suite_t *s = suite_open(out, &m, &e);
    assert_non_null(s);
    for (size_t r = 0; r < rows; r++) {
        ctg_value_rec v[8];
        for (size_t k = 0; k < n_vals; k++)
            v[k] = (ctg_value_rec){(uint32_t)(4 * k), CTG_T_INT, 4};
        test_t *t = test_new((const uint8_t *)&vals[r * n_vals], 4 * n_vals, v, n_vals);
        t->kind = (long)r == error_row ? EXEC_ERROR : EXEC_NORMAL;
        assert_true(suite_add(s, t, &e));
        test_free(t);
    }
    suite_close(s);
}

/* Replays with a per-test timeout of secs. */
static bool replay_t(const char *out, const char *src, int arch, double secs, replay_result *r,
                     ctg_err *e)
{
    replay_opts o = {0};
    const char *sources[] = {src};
    o.out_dir = out;
    o.sources = sources;
    o.n_sources = 1;
    o.arch_bits = arch;
    o.timeout_s = secs;
    o.runtime_dir = rt_dir;
    return replay_suite(&o, r, e);
}

/* TestCov's 3 s per test: no test that ends cut short on a loaded machine. */
static bool replay(const char *out, const char *src, int arch, replay_result *r, ctg_err *e)
{
    return replay_t(out, src, arch, 3.0, r, e);
}

/* Every condition of triangle.c both ways, and the error. */
static const int tri_all[][3] = {
    {2000000, 1, 1}, {1, 2000000, 1}, {1, 1, 2000000}, {0, 1, 1}, {1, 0, 1},
    {1, 1, 0},       {1, 1, 3},       {1, 3, 1},       {3, 1, 1}, {2, 2, 2},
    {2000, 2000, 2000}, {2, 2, 3},    {3, 2, 2},       {2, 3, 2}, {2, 3, 4},
};
#define TRI_ROWS (sizeof tri_all / sizeof tri_all[0])
#define TRI_ERROR_ROW 10

static void check_full_triangle(int arch)
{
    const char *out = path_of(arch == 32 ? "tri32" : "tri64");
    int_suite(out, &tri_all[0][0], TRI_ROWS, 3, arch, TRI_ERROR_ROW);
    replay_result r;
    ctg_err e = {{0}};
    if (!replay(out, triangle, 0, &r, &e)) /* arch 0: from metadata.xml */
        fail_msg("replay failed: %s", e.msg);
    assert_int_equal(r.arch_bits, arch);
    assert_int_equal(r.n_tests, TRI_ROWS);
    assert_int_equal(r.branches, 32);
    assert_int_equal(r.branches_covered, 32);
    assert_int_equal(r.lines, 21);
    assert_int_equal(r.lines_covered, 21);
    assert_int_equal(r.n_files, 1);
    assert_true(r.reach_error_defined);
    assert_int_equal(r.reach_error_calls, 1);
    assert_true(r.error_reached);
    assert_int_equal(r.n_outcome[REPLAY_ERROR], 1);
    assert_int_equal(r.n_outcome[REPLAY_NORMAL], TRI_ROWS - 1);
    assert_true(r.tests[TRI_ERROR_ROW].reached_error);
    assert_true(r.tests[TRI_ERROR_ROW].covers_error);
    assert_string_equal(r.tests[TRI_ERROR_ROW].name, "test-00010.xml");
    assert_false(r.tests[0].reached_error);
    sbuf b = SBUF_INIT;
    replay_format(&r, &b);
    assert_non_null(strstr(sbuf_str(&b), "branches: 32/32 (100.00%), lines: 21/21 (100.00%)"));
    assert_non_null(strstr(sbuf_str(&b),
                           "reach_error: reached (gcov: reach_error called 1 time) by test-00010.xml"));
    sbuf_release(&b);
    replay_result_release(&r);
}

static void test_triangle_full_coverage(void **state)
{
    (void)state;
    check_full_triangle(64);
}

static void test_triangle_32bit(void **state)
{
    (void)state;
    if (system("echo 'int main(void){return 0;}' | gcc -m32 -x c - -o /dev/null 2>/dev/null") != 0)
        skip();
    SKIP_UNLESS_EXEC32();
    check_full_triangle(32);
}

/* Without the error test, the a > 1000 edge and reach_error stay uncovered. */
static void test_triangle_without_error(void **state)
{
    (void)state;
    int vals[TRI_ROWS * 3];
    size_t rows = 0;
    for (size_t i = 0; i < TRI_ROWS; i++)
        if (i != TRI_ERROR_ROW)
            memcpy(&vals[3 * rows++], tri_all[i], sizeof tri_all[i]);
    int_suite(path_of("tri-noerr"), vals, rows, 3, 64, -1);
    replay_result r;
    ctg_err e = {{0}};
    assert_true(replay(path_of("tri-noerr"), triangle, 64, &r, &e));
    assert_int_equal(r.branches, 32);
    assert_int_equal(r.branches_covered, 31);
    assert_int_equal(r.lines_covered, 19); /* reach_error's body and its call */
    assert_false(r.error_reached);
    assert_int_equal(r.reach_error_calls, 0);
    sbuf b = SBUF_INIT;
    replay_format(&r, &b);
    assert_non_null(strstr(sbuf_str(&b), "branches: 31/32 (96.88%)"));
    assert_non_null(strstr(sbuf_str(&b), "reach_error: not reached"));
    sbuf_release(&b);
    replay_result_release(&r);
}

/* Coverage of runs that crash, abort, hang or overflow the stack is flushed:
 * each true edge below is seen only by the run that dies there.  The fatal
 * code sits in callees: gcov derives the counts of uninstrumented arcs by
 * flow conservation and gcc adds fake exit arcs after calls, so only then
 * is the edge into the dying block counted (TestCov has the same limit). */
static void test_fatal_runs_flush_coverage(void **state)
{
    (void)state;
    const char *src = program("fatal.c",
                              "#include <stdlib.h>\n"
                              "extern int __VERIFIER_nondet_int(void);\n"
                              "static int rec(int n) { volatile char pad[256]; pad[0] = (char)n;\n"
                              "  return rec(n + 1) + pad[0]; }\n"
                              "static void segv(void) { *(volatile int *)0 = 0; }\n"
                              "static void spin(void) { for (;;) ; }\n"
                              "int main(void) {\n"
                              "  int x = __VERIFIER_nondet_int();\n"
                              "  if (x == 1) segv();\n"
                              "  if (x == 2) abort();\n"
                              "  if (x == 3) spin();\n"
                              "  if (x == 4) return rec(0);\n"
                              "  return 0;\n"
                              "}\n");
    int vals[] = {1, 2, 3, 4};
    int_suite(path_of("fatal"), vals, 4, 1, 64, -1);
    replay_result r;
    ctg_err e = {{0}};
    if (!replay_t(path_of("fatal"), src, 64, 1.0, &r, &e)) /* spin() runs into it */
        fail_msg("%s", e.msg);
    /* x==1..4 true edges (4), false edges of x==1..3 (3); x==4 false: never;
     * and x==3's true edge neither: its test times out, and a test that
     * times out is credited nothing (as by TestCov) */
    assert_int_equal(r.branches, 8);
    assert_int_equal(r.branches_covered, 6);
    assert_int_equal(r.tests[0].outcome, REPLAY_CRASH);
    assert_int_equal(r.tests[0].signal, 11);
    assert_int_equal(r.tests[1].outcome, REPLAY_CRASH);
    assert_int_equal(r.tests[1].signal, 6);
    assert_int_equal(r.tests[2].outcome, REPLAY_TIMEOUT);
    assert_int_equal(r.tests[3].outcome, REPLAY_CRASH);
    assert_int_equal(r.tests[3].signal, 11);
    assert_false(r.error_reached);
    assert_false(r.reach_error_defined);
    sbuf b = SBUF_INIT;
    replay_format(&r, &b);
    assert_non_null(strstr(sbuf_str(&b), "crashed (3): test-00000.xml (signal 11) test-00001.xml "
                                         "(signal 6) test-00003.xml (signal 11)"));
    assert_non_null(strstr(sbuf_str(&b), "timed out, credited nothing (1): test-00002.xml"));
    sbuf_release(&b);
    replay_result_release(&r);
}

/* A program that only calls __VERIFIER_error (no reach_error of its own). */
static void test_verifier_error_only(void **state)
{
    (void)state;
    const char *src = program("verr.c", "extern void __VERIFIER_error(void);\n"
                                        "extern int __VERIFIER_nondet_int(void);\n"
                                        "int main(void) {\n"
                                        "  int x = __VERIFIER_nondet_int();\n"
                                        "  if (x == 42) __VERIFIER_error();\n"
                                        "  return 0;\n"
                                        "}\n");
    int vals[] = {7, 42};
    int_suite(path_of("verr"), vals, 2, 1, 64, 1);
    replay_result r;
    ctg_err e = {{0}};
    if (!replay(path_of("verr"), src, 64, &r, &e))
        fail_msg("%s", e.msg);
    assert_true(r.error_reached);
    assert_false(r.reach_error_defined);
    assert_false(r.tests[0].reached_error);
    assert_true(r.tests[1].reached_error);
    assert_int_equal(r.tests[1].outcome, REPLAY_ERROR);
    assert_int_equal(r.branches_covered, 2);
    replay_result_release(&r);
}

/* One test at a time (replay_open / replay_one, the check of error tests
 * during a run): the same outcomes as replay_suite gives, from one build;
 * the output directory needs no suite. */
static void test_session_one_at_a_time(void **state)
{
    (void)state;
    const char *src = program("one.c", "extern void reach_error(void);\n"
                                       "extern int __VERIFIER_nondet_int(void);\n"
                                       "int main(void) {\n"
                                       "  int x = __VERIFIER_nondet_int();\n"
                                       "  int y = __VERIFIER_nondet_int();\n"
                                       "  if (x == 5 && y > 100) reach_error();\n"
                                       "  return x == 7;\n"
                                       "}\n");
    const char *out = path_of("one");
    assert_true(fs_mkdir_p(out, NULL));
    replay_opts o = {0};
    const char *sources[] = {src};
    o.out_dir = out;
    o.sources = sources;
    o.n_sources = 1;
    o.arch_bits = 64;
    o.timeout_s = 3.0;
    o.runtime_dir = rt_dir;
    ctg_err e = {{0}};
    replay_session *s = replay_open(&o, &e);
    if (!s)
        fail_msg("%s", e.msg);
    const int rows[][2] = {{5, 0}, {5, 101}, {7, 0}};
    const replay_outcome want[] = {REPLAY_NORMAL, REPLAY_ERROR, REPLAY_NORMAL};
    for (int i = 0; i < 3; i++) {
        ctg_value_rec v[2] = {{0, CTG_T_INT, 4}, {4, CTG_T_INT, 4}};
        test_t *t = test_new((const uint8_t *)rows[i], sizeof rows[i], v, 2);
        assert_non_null(t);
        replay_test rt;
        if (!replay_one(s, t, true, &rt, &e))
            fail_msg("%s", e.msg);
        assert_int_equal(rt.outcome, want[i]);
        assert_int_equal(rt.reached_error, i == 1);
        assert_true(rt.covers_error); /* as written */
        if (i != 1) /* the harness ends an error run with its own code */
            assert_int_equal(rt.exit_code, i == 2);
        ctg_free(rt.name);
        test_free(t);
    }
    /* a test with one value of two runs out there */
    ctg_value_rec v1 = {0, CTG_T_INT, 4};
    test_t *t = test_new((const uint8_t *)rows[1], 4, &v1, 1);
    replay_test rt;
    assert_true(replay_one(s, t, false, &rt, &e));
    assert_int_equal(rt.outcome, REPLAY_RAN_OUT);
    ctg_free(rt.name);
    test_free(t);
    replay_close(s);
    /* gcc cannot build it: NULL with the reason */
    const char *bad = program("bad.c", "int main(void) { return missing; }\n");
    sources[0] = bad;
    assert_null(replay_open(&o, &e));
    assert_non_null(strstr(e.msg, "bad.c"));
}

/* Inputs that run out, failed assumptions, the other nondet types. */
static void test_outcomes_and_types(void **state)
{
    (void)state;
    const char *src = program(
        "types.c", "extern void __VERIFIER_assume(int);\n"
                   "extern char __VERIFIER_nondet_char(void);\n"
                   "extern unsigned char __VERIFIER_nondet_uchar(void);\n"
                   "extern unsigned long __VERIFIER_nondet_ulong(void);\n"
                   "extern double __VERIFIER_nondet_double(void);\n"
                   "extern _Bool __VERIFIER_nondet_bool(void);\n"
                   "extern int __VERIFIER_nondet_int(void);\n"
                   "int main(void) {\n"
                   "  int k = __VERIFIER_nondet_int();\n"
                   "  __VERIFIER_assume(k > 0);\n"
                   "  char c = __VERIFIER_nondet_char();\n"
                   "  unsigned char u = __VERIFIER_nondet_uchar();\n"
                   "  unsigned long l = __VERIFIER_nondet_ulong();\n"
                   "  double d = __VERIFIER_nondet_double();\n"
                   "  _Bool b = __VERIFIER_nondet_bool();\n"
                   "  if (c == 'a' && u == 255 && l == 18446744073709551615ul && d != d && b)\n"
                   "    return 1;\n"
                   "  return 0;\n"
                   "}\n");
    char out[512];
    snprintf(out, sizeof out, "%s", path_of("types"));
    fs_rm_rf(out, NULL);
    assert_true(fs_mkdir_p(path_of("types/test-suite"), NULL));
    const char *cases[] = {
        /* all conditions true: quoted char, negative unsigned, nan, bool 1 */
        "<testcase><input>1</input><input type=\"char\">'a'</input><input>-1</input>"
        "<input type=\"unsigned long\">-1</input><input>nan</input><input>1</input></testcase>",
        /* assumption fails */
        "<testcase><input>-5</input></testcase>",
        /* runs out after two values */
        "<testcase><input>3</input><input>97</input></testcase>",
    };
    for (int i = 0; i < 3; i++) {
        char name[64];
        snprintf(name, sizeof name, "types/test-suite/test-%05d.xml", i);
        assert_true(fs_write_atomic(path_of(name), cases[i], strlen(cases[i]), NULL));
    }
    replay_result r;
    ctg_err e = {{0}};
    if (!replay(out, src, 64, &r, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(r.arch_bits, 64);
    assert_int_equal(r.tests[0].outcome, REPLAY_NORMAL);
    assert_int_equal(r.tests[0].exit_code, 1); /* every condition held */
    assert_int_equal(r.tests[1].outcome, REPLAY_ASSUME);
    assert_int_equal(r.tests[2].outcome, REPLAY_RAN_OUT);
    assert_int_equal(r.n_outcome[REPLAY_RAN_OUT], 1);
    replay_result_release(&r);
}

/* A libFuzzer target: the values are the bytes of the data. */
static void test_libfuzzer_target(void **state)
{
    (void)state;
    const char *src = program("fuzz.c", "#include <stddef.h>\n#include <stdint.h>\n"
                                        "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {\n"
                                        "  if (n >= 2 && d[0] == 'h' && d[1] == 'i')\n"
                                        "    return 1;\n"
                                        "  return 0;\n"
                                        "}\n");
    const char *out = path_of("fuzz");
    suite_meta m = {"fuzz.c", "", "LLVMFuzzerTestOneInput", 64, NULL, NULL, false, NULL, 0, false};
    ctg_err e = {{0}};
    suite_t *s = suite_open(out, &m, &e);
    ctg_value_rec v = {0, CTG_T_BYTES, 2};
    test_t *t = test_new((const uint8_t *)"hi", 2, &v, 1);
    assert_true(suite_add(s, t, &e));
    test_free(t);
    v.size = 1;
    t = test_new((const uint8_t *)"x", 1, &v, 1);
    assert_true(suite_add(s, t, &e));
    test_free(t);
    suite_close(s);
    replay_result r;
    if (!replay(out, src, 64, &r, &e))
        fail_msg("%s", e.msg);
    assert_int_equal(r.branches, 6);
    assert_int_equal(r.branches_covered, 4); /* n >= 2 both ways, the two true edges */
    assert_int_equal(r.n_outcome[REPLAY_NORMAL], 2);
    replay_result_release(&r);
}

/* The replay's error must be one line and contain want. */
static void expect_failure(const char *out, const char *src, const char *want)
{
    replay_result r;
    ctg_err e = {{0}};
    assert_false(replay(out, src, 64, &r, &e));
    if (!strstr(e.msg, want))
        fail_msg("error '%s' lacks '%s'", e.msg, want);
    assert_null(strchr(e.msg, '\n'));
    replay_result_release(&r);
}

/* A bad testcase file is skipped and named (want), the others replayed. */
static void expect_skipped(const char *out, const char *src, const char *want)
{
    replay_result r;
    ctg_err e = {{0}};
    assert_true(replay(out, src, 64, &r, &e));
    assert_int_equal(r.n_bad, 1);
    if (!strstr(r.bad[0], want))
        fail_msg("skipped '%s' lacks '%s'", r.bad[0], want);
    assert_null(strchr(r.bad[0], '\n'));
    assert_int_equal(r.n_tests, 2); /* the other two testcases */
    replay_result_release(&r);
}

static void test_failures(void **state)
{
    (void)state;
    int vals[] = {1, 2, 3};
    int rows[] = {1, 2, 3, 2, 3, 4, 3, 4, 5};
    int_suite(path_of("bad"), rows, 3, 3, 64, -1);
    const char *bad = path_of("bad/test-suite/test-00001.xml");
    assert_true(fs_write_atomic(bad, "<testcase><input>1</input>", 26, NULL));
    char want[600];
    snprintf(want, sizeof want, "%s:1: not a well-formed XML file", bad);
    expect_skipped(path_of("bad"), triangle, want);
    const char *val = "<testcase>\n<input type=\"int\">x1</input>\n</testcase>\n";
    assert_true(fs_write_atomic(bad, val, strlen(val), NULL));
    snprintf(want, sizeof want, "%s:2: input 1: 'x1' is not a valid int", bad);
    expect_skipped(path_of("bad"), triangle, want);
    expect_failure(path_of("nothing"), triangle, "nothing: no test-suite directory");
    int_suite(path_of("ok"), vals, 1, 3, 64, -1);
    const char *nomain = program("nomain.c", "int f(int x) { return x + 1; }\n");
    expect_failure(path_of("ok"), nomain, "defines neither main nor LLVMFuzzerTestOneInput");
    const char *broken = program("broken.c", "int main(void) { return x; }\n");
    expect_failure(path_of("ok"), broken, "broken.c: does not compile with gcc --coverage");
    expect_failure(path_of("ok"), path_of("missing.c"), "missing.c");
    const char *unlinked = program("unlinked.c", "int g(void);\nint main(void) { return g(); }\n");
    expect_failure(path_of("ok"), unlinked, "unlinked.c: does not link with gcc");
}

/* A given work directory is reused: the counts are those of this replay only. */
static void test_work_dir_reuse(void **state)
{
    (void)state;
    int vals[] = {2, 3, 4};
    int_suite(path_of("reuse"), vals, 1, 3, 64, -1);
    replay_opts o = {0};
    const char *sources[] = {triangle};
    o.out_dir = path_of("reuse");
    o.sources = sources;
    o.n_sources = 1;
    o.runtime_dir = rt_dir;
    o.work_dir = path_of("reuse-work");
    replay_result r1, r2;
    ctg_err e = {{0}};
    assert_true(replay_suite(&o, &r1, &e));
    assert_true(replay_suite(&o, &r2, &e));
    assert_int_equal(r1.branches_covered, r2.branches_covered);
    assert_true(fs_exists(path_of("reuse-work/prog")));
    assert_true(fs_exists(path_of("reuse-work/values/test-00000.xml.txt")));
    replay_result_release(&r1);
    replay_result_release(&r2);
}

/* Our own run and the replay agree: triangle.c built and run by ctestgen's
 * build and executor, tests taken with test_from_exec and kept by the
 * archive, the suite replayed with gcc. */
static void test_own_run_and_replay_agree(void **state)
{
    (void)state;
    const char *srcs[] = {triangle};
    build_opts bo = {.sources = srcs, .n_sources = 1, .arch_bits = 64};
    build_result br;
    ctg_err e = {{0}};
    if (!build_program(&bo, &br, &e))
        fail_msg("build: %s", e.msg);
    exec_config xc = {br.cov_bin, br.db->n_edges, br.db->n_cmp, 1000, 0, NULL, NULL, 0, NULL, 0, false};
    exec_t *x = exec_new(&xc, &e);
    if (!x)
        fail_msg("exec: %s", e.msg);
    archive_t *a = archive_new(br.db->n_edges, br.db->n_errors);
    const char *out = path_of("own");
    fs_rm_rf(out, NULL);
    suite_meta m = {triangle, "", "main", 64, NULL, NULL, false, NULL, 0, false};
    suite_t *s = suite_open(out, &m, &e);
    assert_non_null(s);
    for (size_t i = 0; i < TRI_ROWS; i++) {
        exec_result r;
        assert_true(exec_run(x, (const uint8_t *)tri_all[i], 12, 0, 0, &r, &e));
        assert_int_equal(r.kind, i == TRI_ERROR_ROW ? EXEC_ERROR : EXEC_NORMAL);
        test_t *t = test_from_exec(x, &r);
        assert_non_null(t);
        assert_int_equal(t->len, 12);
        assert_int_equal(t->n_vals, 3);
        assert_memory_equal(t->data, tri_all[i], 12);
        assert_int_equal(t->vals[2].offset, 8);
        assert_int_equal(t->vals[2].type, CTG_T_INT);
        assert_int_equal(t->kind, r.kind);
        if (archive_update(a, exec_cov(x), &r) > 0)
            assert_true(suite_add(s, t, &e));
        test_free(t);
    }
    /* a run whose input is extended with random values keeps them all */
    exec_result r;
    assert_true(exec_run(x, NULL, 0, CTG_FL_EXTEND_RANDOM, 7, &r, &e));
    test_t *t = test_from_exec(x, &r);
    assert_int_equal(t->len, 12);
    assert_int_equal(t->n_vals, 3);
    test_free(t);
    assert_true(archive_reached_errors(a) == 1);
    unsigned kept = suite_n_tests(s);
    suite_close(s);
    exec_free(x);
    archive_free(a);
    build_result_release(&br);
    replay_result rr;
    if (!replay(out, triangle, 0, &rr, &e))
        fail_msg("replay: %s", e.msg);
    assert_int_equal(rr.n_tests, kept);
    assert_true(rr.error_reached);
    for (size_t i = 0; i < rr.n_tests; i++)
        assert_int_equal(rr.tests[i].reached_error, rr.tests[i].covers_error);
    assert_int_equal(rr.branches_covered, 32);
    replay_result_release(&rr);
}

/* A libFuzzer target whose error needs the data "bug". */
static const char LF_BUG_SRC[] = "#include <stddef.h>\n#include <stdint.h>\n"
                                 "extern void reach_error(void);\n"
                                 "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {\n"
                                 "  if (n == 3 && d[0] == 'b' && d[1] == 'u' && d[2] == 'g')\n"
                                 "    reach_error();\n"
                                 "  return 0;\n"
                                 "}\n";

/* A libFuzzer target through the executor: one byte-array value, written
 * as one unsigned char input per byte, replayed through the harness's main. */
static void test_own_fuzz_run(void **state)
{
    (void)state;
    const char *src = program("lf.c", LF_BUG_SRC);
    char srcbuf[512];
    snprintf(srcbuf, sizeof srcbuf, "%s", src);
    const char *srcs[] = {srcbuf};
    build_opts bo = {.sources = srcs, .n_sources = 1, .arch_bits = 64};
    build_result br;
    ctg_err e = {{0}};
    if (!build_program(&bo, &br, &e))
        fail_msg("build: %s", e.msg);
    exec_config xc = {br.cov_bin, br.db->n_edges, br.db->n_cmp, 1000, 0, NULL, NULL, 0, NULL, 0, false};
    exec_t *x = exec_new(&xc, &e);
    assert_non_null(x);
    exec_result r;
    assert_true(exec_run(x, (const uint8_t *)"bug", 3, 0, 0, &r, &e));
    assert_int_equal(r.kind, EXEC_ERROR);
    test_t *t = test_from_exec(x, &r);
    assert_int_equal(t->n_vals, 1);
    assert_int_equal(t->vals[0].type, CTG_T_BYTES);
    assert_int_equal(test_value_size(t, 0), 3);
    assert_memory_equal(t->data, "bug", 3);
    char out[512];
    snprintf(out, sizeof out, "%s", path_of("own-fuzz"));
    suite_meta m = {srcbuf, "", "LLVMFuzzerTestOneInput", 64, NULL, NULL, false, NULL, 0, false};
    suite_t *s = suite_open(out, &m, &e);
    assert_true(suite_add(s, t, &e));
    suite_close(s);
    test_free(t);
    exec_free(x);
    build_result_release(&br);
    replay_result rr;
    if (!replay(out, srcbuf, 0, &rr, &e))
        fail_msg("replay: %s", e.msg);
    assert_true(rr.error_reached);
    assert_true(rr.tests[0].reached_error);
    assert_true(rr.tests[0].covers_error);
    assert_int_equal(rr.branches, 8);
    assert_int_equal(rr.branches_covered, 4); /* the four true edges */
    replay_result_release(&rr);
}

/* ==== raw corpus (replay --corpus) ========================================= */

/* Writes a raw input file of n bytes; returns its path. */
static const char *raw_file(const char *name, const void *data, size_t n)
{
    const char *p = path_of(name);
    assert_true(fs_write_atomic(p, data, n, NULL));
    return p;
}

static bool replay_raw(const char *const *corpus, int n_corpus, const char *src, replay_result *r,
                       ctg_err *e)
{
    replay_opts o = {0};
    const char *sources[] = {src};
    o.corpus = corpus;
    o.n_corpus = n_corpus;
    o.sources = sources;
    o.n_sources = 1;
    o.timeout_s = 3.0;
    o.runtime_dir = rt_dir;
    return replay_suite(&o, r, e);
}

/* The rows of tri_all as raw files (12 bytes each, little-endian ints) in
 * an AFL-like directory with a .state subdirectory, a dot file and a
 * subdirectory, which are skipped: full coverage and the error, as from
 * the XML suite. */
static void test_raw_triangle_full(void **state)
{
    (void)state;
    assert_true(fs_mkdir_p(path_of("rawtri/.state/auto_extras"), NULL));
    assert_true(fs_mkdir_p(path_of("rawtri/sub"), NULL));
    raw_file("rawtri/.cur_input", "\1\2\3", 3);
    raw_file("rawtri/sub/ignored", "\1\2\3", 3);
    for (size_t i = 0; i < TRI_ROWS; i++) {
        char name[64];
        snprintf(name, sizeof name, "rawtri/id:%06zu", i);
        raw_file(name, tri_all[i], sizeof tri_all[i]);
    }
    const char *corpus[] = {path_of("rawtri")};
    replay_result r;
    ctg_err e = {{0}};
    if (!replay_raw(corpus, 1, triangle, &r, &e))
        fail_msg("replay: %s", e.msg);
    assert_true(r.raw);
    assert_int_equal(r.arch_bits, 64);
    assert_int_equal(r.n_tests, TRI_ROWS);
    assert_int_equal(r.branches, 32);
    assert_int_equal(r.branches_covered, 32);
    assert_int_equal(r.lines_covered, 21);
    assert_true(r.error_reached);
    assert_int_equal(r.reach_error_calls, 1);
    assert_int_equal(r.n_outcome[REPLAY_ERROR], 1);
    assert_int_equal(r.n_outcome[REPLAY_NORMAL], TRI_ROWS - 1);
    assert_true(r.tests[TRI_ERROR_ROW].reached_error);
    assert_false(r.tests[TRI_ERROR_ROW].covers_error); /* raw files claim nothing */
    char want[600];
    snprintf(want, sizeof want, "%s/id:%06d", corpus[0], TRI_ERROR_ROW);
    assert_string_equal(r.tests[TRI_ERROR_ROW].name, want);
    sbuf b = SBUF_INIT;
    replay_format(&r, &b);
    assert_non_null(strstr(sbuf_str(&b), "replay: 15 raw inputs, 64-bit, gcc --coverage\n"));
    assert_non_null(strstr(sbuf_str(&b), "branches: 32/32 (100.00%), lines: 21/21 (100.00%)"));
    snprintf(want, sizeof want, "reach_error: reached (gcov: reach_error called 1 time) by %s/id:%06d\n",
             corpus[0], TRI_ERROR_ROW);
    assert_non_null(strstr(sbuf_str(&b), want));
    sbuf_release(&b);
    replay_result_release(&r);
}

/* Known branches from two files given directly and a directory, the same
 * as the XML replay of the same values: {2,2,2} takes 13 edges (every
 * check false up to a == b && b == c, then kind == 1 and a > 1000 false),
 * {2,3,4} adds the five false edges of a == b (twice), b == c, a == c and
 * kind == 1, {0,1,1} the true edge of a <= 0: 19 of 32. */
static void test_raw_matches_xml(void **state)
{
    (void)state;
    const int rows[][3] = {{2, 2, 2}, {2, 3, 4}, {0, 1, 1}};
    int_suite(path_of("rawxml"), &rows[0][0], 3, 3, 64, -1);
    replay_result x, r;
    ctg_err e = {{0}};
    assert_true(replay(path_of("rawxml"), triangle, 64, &x, &e));
    assert_true(fs_mkdir_p(path_of("rawdir"), NULL));
    const char *corpus[] = {raw_file("raw-a", rows[0], 12), raw_file("raw-b", rows[1], 12),
                            path_of("rawdir")};
    raw_file("rawdir/c", rows[2], 12);
    if (!replay_raw(corpus, 3, triangle, &r, &e))
        fail_msg("replay: %s", e.msg);
    assert_int_equal(r.n_tests, 3);
    assert_string_equal(r.tests[0].name, corpus[0]);
    assert_int_equal(r.branches_covered, x.branches_covered);
    assert_int_equal(r.lines_covered, x.lines_covered);
    assert_int_equal(r.branches_covered, 19);
    assert_false(r.error_reached);
    replay_result_release(&x);
    replay_result_release(&r);
}

/* The decoding of the runtime: natural widths, little endian, bool = low
 * bit of one byte, and once a value does not fit it and every later value
 * are 0 (the run goes on).  The program's exit code says what it read. */
static void test_raw_decoding(void **state)
{
    (void)state;
    const char *src = program(
        "rawtypes.c", "extern char __VERIFIER_nondet_char(void);\n"
                      "extern short __VERIFIER_nondet_short(void);\n"
                      "extern unsigned int __VERIFIER_nondet_uint(void);\n"
                      "extern long __VERIFIER_nondet_long(void);\n"
                      "extern _Bool __VERIFIER_nondet_bool(void);\n"
                      "extern double __VERIFIER_nondet_double(void);\n"
                      "extern int __VERIFIER_nondet_int(void);\n"
                      "int main(void) {\n"
                      "  char c = __VERIFIER_nondet_char();\n"
                      "  short s = __VERIFIER_nondet_short();\n"
                      "  unsigned u = __VERIFIER_nondet_uint();\n"
                      "  long l = __VERIFIER_nondet_long();\n"
                      "  _Bool b1 = __VERIFIER_nondet_bool();\n"
                      "  _Bool b2 = __VERIFIER_nondet_bool();\n"
                      "  double d = __VERIFIER_nondet_double();\n"
                      "  if (c != -2 || s != 0x1234 || u != 0xdeadbeefu || l != -5 || b1 || !b2\n"
                      "      || d != 1.5)\n"
                      "    return 1;\n"
                      "  int big = __VERIFIER_nondet_int(); /* 2 bytes left: 0 */\n"
                      "  char after = __VERIFIER_nondet_char(); /* 0 too, not 'A' */\n"
                      "  return big == 0 && after == 0 ? 7 : 2;\n"
                      "}\n");
    uint8_t buf[64];
    size_t n = 0;
    char c = -2;
    short s = 0x1234;
    unsigned u = 0xdeadbeefu;
    long l = -5;
    double d = 1.5;
    memcpy(buf + n, &c, 1), n += 1;
    memcpy(buf + n, &s, 2), n += 2;
    memcpy(buf + n, &u, 4), n += 4;
    memcpy(buf + n, &l, 8), n += 8;
    buf[n++] = 0xfe; /* bool: low bit 0 */
    buf[n++] = 0x03; /* bool: low bit 1 */
    memcpy(buf + n, &d, 8), n += 8;
    buf[n++] = 'A';
    buf[n++] = 'A';
    const char *corpus[] = {raw_file("rawtypes-in", buf, n), raw_file("rawtypes-empty", "", 0)};
    replay_result r;
    ctg_err e = {{0}};
    if (!replay_raw(corpus, 2, src, &r, &e))
        fail_msg("replay: %s", e.msg);
    assert_int_equal(r.tests[0].outcome, REPLAY_RAN_OUT);
    assert_int_equal(r.tests[0].exit_code, 7);
    assert_int_equal(r.tests[1].outcome, REPLAY_RAN_OUT); /* all zeros */
    assert_int_equal(r.tests[1].exit_code, 1);
    sbuf b = SBUF_INIT;
    replay_format(&r, &b);
    assert_non_null(strstr(sbuf_str(&b), "ran out of bytes, later values 0 (2):"));
    sbuf_release(&b);
    replay_result_release(&r);
}

/* A libFuzzer target gets the whole file as its data. */
static void test_raw_libfuzzer(void **state)
{
    (void)state;
    const char *src = program("rawlf.c", LF_BUG_SRC);
    assert_true(fs_mkdir_p(path_of("rawlf"), NULL));
    raw_file("rawlf/crash-1", "bug", 3);
    raw_file("rawlf/x", "bu", 2);
    const char *corpus[] = {path_of("rawlf")};
    replay_result r;
    ctg_err e = {{0}};
    if (!replay_raw(corpus, 1, src, &r, &e))
        fail_msg("replay: %s", e.msg);
    assert_int_equal(r.n_tests, 2);
    assert_true(r.error_reached);
    assert_true(r.tests[0].reached_error);
    assert_int_equal(r.tests[1].outcome, REPLAY_NORMAL);
    assert_int_equal(r.branches, 8);
    assert_int_equal(r.branches_covered, 5); /* four true edges, n == 3 false */
    replay_result_release(&r);
}

/* A missing corpus path, a dangling link inside a directory: one line. */
static void test_raw_failures(void **state)
{
    (void)state;
    replay_result r;
    ctg_err e = {{0}};
    const char *missing[] = {path_of("no-such-corpus")};
    assert_false(replay_raw(missing, 1, triangle, &r, &e));
    assert_non_null(strstr(e.msg, "no-such-corpus: cannot open the corpus"));
    assert_null(strchr(e.msg, '\n'));
    replay_result_release(&r);
    assert_true(fs_mkdir_p(path_of("rawbad"), NULL));
    raw_file("rawbad/a", "\1\0\0\0", 4);
    assert_int_equal(symlink(path_of("nowhere"), path_of("rawbad/b")), 0);
    const char *bad[] = {path_of("rawbad")};
    err_clear(&e);
    assert_false(replay_raw(bad, 1, triangle, &r, &e));
    assert_non_null(strstr(e.msg, "rawbad/b: cannot read the file"));
    assert_null(strchr(e.msg, '\n'));
    replay_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_full_coverage),
        cmocka_unit_test(test_triangle_32bit),
        cmocka_unit_test(test_triangle_without_error),
        cmocka_unit_test(test_fatal_runs_flush_coverage),
        cmocka_unit_test(test_verifier_error_only),
        cmocka_unit_test(test_outcomes_and_types),
        cmocka_unit_test(test_libfuzzer_target),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_work_dir_reuse),
        cmocka_unit_test(test_own_run_and_replay_agree),
        cmocka_unit_test(test_own_fuzz_run),
        cmocka_unit_test(test_raw_triangle_full),
        cmocka_unit_test(test_raw_matches_xml),
        cmocka_unit_test(test_raw_decoding),
        cmocka_unit_test(test_raw_libfuzzer),
        cmocka_unit_test(test_raw_failures),
        cmocka_unit_test(test_session_one_at_a_time),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
