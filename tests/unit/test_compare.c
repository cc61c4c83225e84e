/*
 * test_compare.c - `ctestgen compare`'s statistics against values computed
 * by hand (Vargha-Delaney A12 with ties and its labels, Mann-Whitney U with
 * mid-ranks, its exact two-sided p from the permutation distribution -
 * checked against enumerating every way to split the values - and beyond
 * CMP_EXACT_MAX values the normal approximation with continuity and tie
 * correction as in scipy's mannwhitneyu(method="asymptotic")), the grouping
 * of run directories by an info key, and every counter pair by pair.
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
    /* exact: of the C(10,5) = 252 ways to pick 5 ranks, 2 are as extreme
     * as {1..5} (it and {6..10}): p = 2/252 */
    double p = cmp_mann_whitney(lo, 5, hi, 5, &u);
    assert_true(u == 0.0);
    assert_true(fabs(p - 2.0 / 252.0) < 1e-12);
    /* ties: mid-ranks 2 2 2 5 5 5; a's rank sum 9 against 10.5 expected;
     * the 20 ways give sums 15, 12 (9 ways), 9 (9 ways), 6: every one is
     * 1.5 or more away, p = 1.  U = 9 - 6 = 3 */
    double a[] = {1, 1, 2}, b[] = {1, 2, 2};
    p = cmp_mann_whitney(a, 3, b, 3, &u);
    assert_true(u == 3.0);
    assert_true(fabs(p - 1.0) < 1e-12);
    /* ties across the groups, by enumerating the C(9,4) = 126 ways: 92 */
    double c[] = {3, 5, 5, 9}, d[] = {1, 2, 5, 6, 7};
    p = cmp_mann_whitney(c, 4, d, 5, &u);
    assert_true(fabs(p - 92.0 / 126.0) < 1e-12);
    /* 3 against 3 apart: 2 of the 20 ways, p = 0.1 */
    double g[] = {10, 11, 12}, h[] = {20, 21, 22};
    assert_true(fabs(cmp_mann_whitney(g, 3, h, 3, &u) - 0.1) < 1e-12);
    double same[] = {4, 4, 4};
    assert_true(cmp_mann_whitney(same, 3, same, 3, &u) == 1.0);
    /* beyond CMP_EXACT_MAX values: the normal approximation with
     * continuity correction, U = 0, z = (m n / 2 - 0.5) / sqrt(m n (N + 1) / 12) */
    double big_lo[31], big_hi[31];
    for (int i = 0; i < 31; i++)
        big_lo[i] = i, big_hi[i] = 100 + i;
    p = cmp_mann_whitney(big_lo, 31, big_hi, 31, &u);
    double z = (31.0 * 31.0 / 2.0 - 0.5) / sqrt(31.0 * 31.0 * 63.0 / 12.0);
    assert_true(u == 0.0);
    assert_true(fabs(p - erfc(z / sqrt(2.0))) < 1e-12);
}

/* Vargha and Delaney's thresholds, both ways from 0.5. */
static void test_a12_labels(void **state)
{
    (void)state;
    assert_string_equal(cmp_a12_label(0.5), "negligible");
    assert_string_equal(cmp_a12_label(0.55), "negligible");
    assert_string_equal(cmp_a12_label(0.56), "small");
    assert_string_equal(cmp_a12_label(0.40), "small");
    assert_string_equal(cmp_a12_label(0.64), "medium");
    assert_string_equal(cmp_a12_label(0.30), "medium");
    assert_string_equal(cmp_a12_label(0.71), "large");
    assert_string_equal(cmp_a12_label(0.0), "large");
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
    /* every counter, pair by pair: edges.covered, 21 against 11, U 9,
     * exact p 0.1 (2 of the 20 ways), A12 1, large */
    const char *pl = strstr(t, "cfds (A) vs generational (B)");
    assert_non_null(pl);
    assert_non_null(strstr(pl, "edges.covered"));
    assert_non_null(strstr(pl, "21           11      9.0   0.1000  1.000  large"));
    sbuf_release(&b);
    o.json = true;
    assert_true(compare_runs(&o, &b, &e));
    assert_non_null(strstr(sbuf_str(&b), "\"a12\":1.0"));
    assert_non_null(strstr(sbuf_str(&b), "\"effect\":\"large\""));
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
        cmocka_unit_test(test_a12_labels),
        cmocka_unit_test(test_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
