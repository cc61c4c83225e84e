/*
 * test_stats.c - unit tests of src/report/stats: bounded, evenly thinned
 * samples, counters and info by name, stats.json written and read back.
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

#include <json-c/json.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "report/stats.h"

#include <cmocka.h>

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ctg-test-stats-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(dir, NULL) ? 0 : -1;
}

static stats_sample at(double t, uint64_t execs)
{
    stats_sample x = {t, execs, (uint32_t)(execs / 100), (uint32_t)(execs > 5000), (uint32_t)(execs / 1000)};
    return x;
}

static void test_few_samples_kept_exactly(void **state)
{
    (void)state;
    stats_t *s = stats_new(16);
    assert_int_equal(stats_n_samples(s), 0);
    assert_int_equal(stats_last(s).execs, 0);
    for (int i = 0; i < 10; i++) {
        stats_sample x = at(i, (uint64_t)i * 10);
        stats_record(s, &x);
    }
    assert_int_equal(stats_n_samples(s), 10);
    for (int i = 0; i < 10; i++)
        assert_true(stats_samples(s)[i].t == i);
    assert_int_equal(stats_last(s).execs, 90);
    stats_free(s);
}

static void test_thinning_bounded_and_even(void **state)
{
    (void)state;
    stats_t *s = stats_new(64);
    for (int i = 0; i <= 100000; i++) {
        stats_sample x = at(i * 0.001, (uint64_t)i);
        stats_record(s, &x);
        assert_true(stats_n_samples(s) <= 64);
    }
    size_t n = stats_n_samples(s);
    const stats_sample *x = stats_samples(s);
    assert_true(n >= 16);
    assert_true(x[0].t == 0.0);
    assert_int_equal(stats_last(s).execs, 100000); /* the latest is exact */
    double avg = 100.0 / (double)(n - 1);
    for (size_t i = 1; i < n; i++) {
        double gap = x[i].t - x[i - 1].t;
        assert_true(gap > 0);
        if (gap > 4 * avg)
            fail_msg("gap %zu is %g, average %g: not even", i, gap, avg);
        assert_true(x[i].execs >= x[i - 1].execs);
    }
    stats_free(s);
}

/* A burst of samples at one instant after a long quiet time keeps the curve. */
static void test_bursts(void **state)
{
    (void)state;
    stats_t *s = stats_new(8);
    for (int i = 0; i < 1000; i++) {
        stats_sample x = at(i < 500 ? i * 0.01 : 50.0, (uint64_t)i);
        stats_record(s, &x);
    }
    assert_true(stats_n_samples(s) <= 8);
    assert_int_equal(stats_last(s).execs, 999);
    assert_true(stats_samples(s)[0].t == 0.0);
    stats_free(s);
}

/* stats_each callback: "NAME=VALUE " appended to user's buffer. */
static void collect(void *user, const char *name, double value)
{
    char *buf = user;
    size_t n = strlen(buf);
    snprintf(buf + n, 128 - n, "%s=%g ", name, value);
}

static void test_counters(void **state)
{
    (void)state;
    stats_t *s = stats_new(0);
    assert_true(stats_get(s, "solver.queries") == 0);
    assert_true(stats_set(s, "solver.queries", 3));
    assert_true(stats_add(s, "solver.queries", 2));
    assert_true(stats_add(s, "solver.time_s", 0.25));
    assert_true(stats_get(s, "solver.queries") == 5);
    assert_true(stats_get(s, "solver.time_s") == 0.25);
    assert_true(stats_set_info(s, "strategy", "random"));
    assert_true(stats_set_info(s, "strategy", "fuzz"));
    assert_string_equal(stats_get_info(s, "strategy"), "fuzz");
    assert_null(stats_get_info(s, "solver.queries"));
    assert_null(stats_get_info(s, "nothing"));
    /* stats_each: the counters under a prefix, in order, no info entries */
    assert_true(stats_set_info(s, "solver.name", "z3"));
    char seen[128] = "";
    stats_each(s, "solver.", collect, seen);
    assert_string_equal(seen, "solver.queries=5 solver.time_s=0.25 ");
    seen[0] = '\0';
    stats_each(s, "fuzz.", collect, seen);
    assert_string_equal(seen, "");
    stats_free(s);
    stats_free(NULL);
    mem_fail_after(0);
    assert_null(stats_new(0));
    mem_fail_reset();
}

static void test_write_and_load(void **state)
{
    (void)state;
    char path[512];
    snprintf(path, sizeof path, "%s/stats.json", dir);
    stats_t *s = stats_new(0);
    for (int i = 0; i < 5; i++) {
        stats_sample x = at(i * 0.5, (uint64_t)i * 2000);
        stats_record(s, &x);
    }
    stats_set(s, "solver.queries", 12);
    stats_set(s, "solver.time_s", 0.125);
    stats_set_info(s, "program", "examples/triangle.c");
    ctg_err e = {{0}};
    assert_true(stats_write(s, path, &e));
    /* written twice (periodic update): still one valid document */
    stats_sample x = at(3.0, 9000);
    stats_record(s, &x);
    assert_true(stats_write(s, path, &e));
    json_object *root = json_object_from_file(path), *o, *v;
    assert_non_null(root);
    assert_true(json_object_object_get_ex(root, "format", &o));
    assert_string_equal(json_object_get_string(o), "ctestgen-stats-1");
    assert_true(json_object_object_get_ex(root, "counters", &o));
    assert_true(json_object_object_get_ex(o, "solver.queries", &v));
    assert_true(json_object_is_type(v, json_type_int));
    assert_int_equal(json_object_get_int(v), 12);
    assert_true(json_object_object_get_ex(o, "solver.time_s", &v));
    assert_true(json_object_is_type(v, json_type_double));
    assert_true(json_object_object_get_ex(root, "final", &o));
    assert_true(json_object_object_get_ex(o, "execs", &v));
    assert_int_equal(json_object_get_int(v), 9000);
    assert_true(json_object_object_get_ex(o, "edges", &v));
    assert_int_equal(json_object_get_int(v), 90);
    assert_true(json_object_object_get_ex(root, "samples", &o));
    assert_int_equal(json_object_array_length(o), 6);
    json_object_put(root);
    stats_t *back = stats_load(path, &e);
    assert_non_null(back);
    assert_int_equal(stats_n_samples(back), 6);
    assert_true(stats_samples(back)[1].t == 0.5);
    assert_int_equal(stats_samples(back)[4].errors, 1);
    assert_int_equal(stats_samples(back)[4].tests, 8);
    assert_true(stats_get(back, "solver.time_s") == 0.125);
    assert_string_equal(stats_get_info(back, "program"), "examples/triangle.c");
    stats_free(back);
    stats_free(s);
}

static void test_load_errors(void **state)
{
    (void)state;
    char path[512];
    ctg_err e = {{0}};
    snprintf(path, sizeof path, "%s/none.json", dir);
    assert_null(stats_load(path, &e));
    assert_non_null(strstr(e.msg, "none.json: cannot open"));
    snprintf(path, sizeof path, "%s/other.json", dir);
    assert_true(fs_write_atomic(path, "{\"a\": 1}", 8, NULL));
    err_clear(&e);
    assert_null(stats_load(path, &e));
    assert_non_null(strstr(e.msg, "other.json: not a ctestgen stats.json"));
    snprintf(path, sizeof path, "%s/nodir/stats.json", dir);
    stats_t *s = stats_new(0);
    err_clear(&e);
    assert_false(stats_write(s, path, &e));
    assert_non_null(strstr(e.msg, "nodir"));
    stats_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_few_samples_kept_exactly),
        cmocka_unit_test(test_thinning_bounded_and_even),
        cmocka_unit_test(test_bursts),
        cmocka_unit_test(test_counters),
        cmocka_unit_test(test_write_and_load),
        cmocka_unit_test(test_load_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
