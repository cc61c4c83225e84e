/*
 * test_compare.c - `ctestgen compare`'s statistics against values computed
 * by hand (Vargha-Delaney A12 with ties, Mann-Whitney U with mid-ranks, the
 * two-sided p of the normal approximation with continuity and tie
 * correction as in scipy's mannwhitneyu(method="asymptotic")), and the
 * grouping of run directories by an info key.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/fsutil.h"
#include "report/compare.h"
#include "report/stats.h"

static void test_a12(void **state)
{
    (void)state;
    double lo[] = {1, 2, 3, 4, 5}, hi[] = {6, 7, 8, 9, 10};
    assert_true(cmp_a12(lo, 5, hi, 5) == 0.0);
    assert_true(cmp_a12(hi, 5, lo, 5) == 1.0);
    assert_true(cmp_a12(lo, 5, lo, 5) == 0.5);
    /* ties: pooled 1 1 1 2 2 2; a = {1,1,2} wins 1 of 9 pairs and ties 4 */
    double a[] = {1, 1, 2}, b[] = {1, 2, 2};
    assert_true(fabs(cmp_a12(a, 3, b, 3) - 3.0 / 9.0) < 1e-12);
    assert_true(cmp_a12(a, 0, b, 3) == 0.5);
}

static void test_mann_whitney(void **state)
{
    (void)state;
    double lo[] = {1, 2, 3, 4, 5}, hi[] = {6, 7, 8, 9, 10}, u;
    /* U = 0, z = (12.5 - 0.5) / sqrt(25 * 11 / 12) = 2.5067, p = 0.01219 */
    double p = cmp_mann_whitney(lo, 5, hi, 5, &u);
    assert_true(u == 0.0);
    assert_true(fabs(p - 0.012186) < 1e-5);
    /* ties: R1 = 2 + 2 + 5 = 9, U = 9 - 6 = 3; variance with the tie
     * correction 9/12 * (7 - 48/30) = 4.05, z = (4.5 - 3 - 0.5) / 2.0125 */
    double a[] = {1, 1, 2}, b[] = {1, 2, 2};
    p = cmp_mann_whitney(a, 3, b, 3, &u);
    assert_true(u == 3.0);
    assert_true(fabs(p - erfc(1.0 / sqrt(4.05) / sqrt(2.0))) < 1e-12);
    double same[] = {4, 4, 4};
    assert_true(cmp_mann_whitney(same, 3, same, 3, &u) == 1.0);
}

/* A run directory with the given info and coverage. */
static void fake_run(const char *dir, const char *search, double cov)
{
    ctg_err e = {{0}};
    assert_true(fs_mkdir_p(dir, &e));
    stats_t *s = stats_new(0);
    assert_non_null(s);
    stats_set_info(s, "strategy", "concolic");
    stats_set_info(s, "search", search);
    stats_set(s, "edges.covered", cov);
    char path[512];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    assert_true(stats_write(s, path, &e));
    stats_free(s);
}

static void test_groups(void **state)
{
    (void)state;
    char root[] = "/tmp/ctg-compare-XXXXXX", d[600];
    assert_non_null(mkdtemp(root));
    double g[] = {10, 11, 12}, c[] = {20, 21, 22};
    for (int i = 0; i < 3; i++) {
        snprintf(d, sizeof d, "%s/gen-%d", root, i);
        fake_run(d, "generational", g[i]);
        snprintf(d, sizeof d, "%s/cfds-%d", root, i);
        fake_run(d, "cfds", c[i]);
    }
    const char *dirs[] = {root};
    compare_opts o = {dirs, 1, "search", false};
    sbuf b = SBUF_INIT;
    ctg_err e = {{0}};
    assert_true(compare_runs(&o, &b, &e));
    const char *t = sbuf_str(&b);
    const char *cl = strstr(t, "\ncfds "), *gl = strstr(t, "\ngenerational ");
    assert_non_null(cl);
    assert_non_null(gl);
    assert_true(cl < strstr(t, "21+-1") && strstr(t, "21+-1") < gl); /* first seen, first */
    assert_non_null(strstr(gl, "11+-1"));
    assert_non_null(strstr(t, "cfds             generational        1.000      9.0"));
    sbuf_release(&b);
    o.json = true;
    assert_true(compare_runs(&o, &b, &e));
    assert_non_null(strstr(sbuf_str(&b), "\"a12\":1.0"));
    sbuf_release(&b);
    const char *none[] = {"/nonexistent/runs"};
    compare_opts bad = {none, 1, "search", false};
    assert_false(compare_runs(&bad, &b, &e));
    assert_non_null(strstr(e.msg, "/nonexistent/runs: no such directory"));
    sbuf_release(&b);
    fs_rm_rf(root, NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_a12),
        cmocka_unit_test(test_mann_whitney),
        cmocka_unit_test(test_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
