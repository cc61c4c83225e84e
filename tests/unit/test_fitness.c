/*
 * test_fitness.c - approach level + normalised branch distance per goal, the
 * whole-suite fitness with the executed-once rule, error goals, and the
 * sbst core that runs and scores tests (on the hand-instrumented programs of
 * sbst_programs.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sbst_programs.h"

#define NEAR(a, b) assert_true(fabs((double)(a) - (double)(b)) < 1e-6)

/* Runs triangle(a, b, c) in-process and prepares f for queries on it. */
static void run_tri(ip_prog *p, fit_t *f, int a, int b, int c)
{
    uint8_t in[12];
    int v[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            in[4 * i + k] = (uint8_t)((uint32_t)v[i] >> (8 * k));
    sbst_obs o = {0};
    assert_true(ip_run(p, in, 12, &o));
    fit_run fr = {o.cov, o.dist, o.error, o.error_site};
    fit_begin(f, &fr);
}

/* Per-goal fitness: covered goals 0, executed branch = its distance,
 * deeper goals = approach level + distance at the closest executed branch. */
static void test_goal_fitness(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_TRIANGLE, 100, 1);
    ctg_err e = {{0}};
    cdg_t *g = cdg_build(&p.db, &e);
    assert_non_null(g);
    fit_t *f = fit_new(&p.db, g);
    assert_non_null(f);
    run_tri(&p, f, 3, 3, 3);
    assert_true(fit_covered(f, 1) && fit_covered(f, 12) && fit_covered(f, 14));
    assert_false(fit_covered(f, 13));
    NEAR(fit_goal(f, 14), 0);
    NEAR(fit_goal(f, 13), 0.5);       /* a == b: false side at distance 1 */
    NEAR(fit_goal(f, 0), 0.75);       /* a <= 0 with a = 3                */
    NEAR(fit_goal(f, 16), 1.5);       /* one level above: e13/e15 at 0.5   */
    float all[22];
    assert_int_equal(fit_all(f, all), 8);
    run_tri(&p, f, -1, 5, 5);
    /* a + b <= c: three levels above, a <= 0 false at distance 2 */
    NEAR(fit_goal(f, 6), 3 + 2.0 / 3);
    NEAR(fit_unreached(f, 6), 5);
    fit_free(f);
    cdg_free(g);
    ip_release(&p);
}

/* Whole-suite fitness: a branch run once counts 1 for its other side; run
 * twice, the other side counts its distance; never run, 1 per edge. */
static void test_suite_fitness(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_TRIANGLE, 100, 1);
    ctg_err e = {{0}};
    cdg_t *g = cdg_build(&p.db, &e);
    fit_t *f = fit_new(&p.db, g);
    fit_trace t1, t2, t3;
    run_tri(&p, f, 3, 3, 3);
    assert_true(fit_trace_make(f, &t1));
    run_tri(&p, f, 3, 3, 3);
    assert_true(fit_trace_make(f, &t2));
    run_tri(&p, f, 3, 4, 5);
    assert_true(fit_trace_make(f, &t3));
    uint32_t cov;
    const fit_trace *one[] = {&t1};
    NEAR(fit_suite(f, one, 1, &cov), 8 * 1.0 + 3 * 2.0);
    assert_int_equal(cov, 8);
    const fit_trace *two[] = {&t1, &t2};
    NEAR(fit_suite(f, two, 2, &cov), 6 * 0.75 + 2 * 0.5 + 3 * 2.0);
    const fit_trace *three[] = {&t1, &t3};
    double s3 = fit_suite(f, three, 2, &cov);
    assert_true(s3 < 8 * 1.0 + 3 * 2.0);
    assert_int_equal(cov, 8 + 1 + 1 + 1 + 1);
    NEAR(fit_suite(f, NULL, 0, &cov), 22);
    fit_trace_release(&t1);
    fit_trace_release(&t2);
    fit_trace_release(&t3);
    fit_free(f);
    cdg_free(g);
    ip_release(&p);
}

/* An 8-bit hit counter that wrapped to 0 still counts as taken when its
 * distance says so. */
static void test_wrapped_counter(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_B(1, 2), FX_J(2), FX_R};
    fx_add_func(&db, "f", bl, 3);
    ctg_err e = {{0}};
    cdg_t *g = cdg_build(&db, &e);
    fit_t *f = fit_new(&db, g);
    uint8_t cov[2] = {0, 0};
    double dist[2] = {1.0, 4.0};
    fit_run r = {cov, dist, false, 0};
    fit_begin(f, &r);
    assert_true(fit_covered(f, 0));
    NEAR(fit_goal(f, 1), 0.75);
    fit_trace t;
    assert_true(fit_trace_make(f, &t));
    assert_int_equal(t.count[0], 2);
    fit_trace_release(&t);
    fit_free(f);
    cdg_free(g);
    fx_release(&db);
}

/* Through the sbst core: cgi_decode's error goal, value adoption with
 * types, and the global coverage record. */
static void test_core_cgi(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_CGI, 100, 1);
    sbst_env env = ip_env(&p, 7);
    tc_params tp;
    tc_params_default(&tp);
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE | SBST_TRACE, &e);
    assert_non_null(s);
    assert_int_equal(sbst_n_goals(s), 11);
    tcase t;
    tc_init(&t);
    const char *str = "Hi%21";
    for (int i = 0; i <= 5; i++)
        assert_true(tc_push(&t, CTG_T_CHAR, (uint8_t)str[i]));
    assert_true(tc_push(&t, CTG_T_CHAR, 'x')); /* not consumed: dropped */
    sbst_ind *x = sbst_eval(s, &t);
    assert_non_null(x);
    assert_int_equal(x->tc.n, 6);
    assert_int_equal(p.ret, 3);
    NEAR(sbst_fitness(x, 10), 0); /* the error goal */
    NEAR(sbst_fitness(x, 2), fit_norm('+' - '%')); /* c == '+': closest was '%' */
    assert_true(sbst_goal_covered(s, 10));
    assert_false(sbst_goal_covered(s, 2));
    assert_int_equal(x->n_covered, sbst_n_covered(s));
    /* an empty test: the environment extends it with random characters */
    sbst_ind *y = sbst_eval(s, &t);
    assert_non_null(y);
    assert_true(y->tc.n >= 1);
    assert_int_equal(y->tc.v[0].type, CTG_T_CHAR);
    sbst_ind_unref(x);
    sbst_ind_unref(y);
    sbst_free(s);
    ip_release(&p);
}

/* Fixed arity: random tests follow the profile; a short test is padded;
 * the budget stops evaluation. */
static void test_core_profile(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_TRIANGLE, 5, 1);
    sbst_env env = ip_env(&p, 7);
    tc_params tp;
    tc_params_default(&tp);
    tp.range = 1000;
    tp.p_special = 0;
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    sbst_ind *x = sbst_eval_random(s);
    assert_non_null(x);
    assert_int_equal(x->tc.n, 3);
    for (int i = 0; i < 3; i++) {
        sbst_ind *y = sbst_eval_random(s);
        assert_non_null(y);
        assert_int_equal(y->tc.n, 3);
        for (int k = 0; k < 3; k++)
            assert_true(llabs(tc_get_i64(&y->tc.v[k], 64)) <= 1000);
        sbst_ind_unref(y);
    }
    assert_false(sbst_variable(s));
    tcase t;
    tc_init(&t);
    assert_true(tc_push(&t, CTG_T_INT, 5));
    sbst_ind *z = sbst_eval(s, &t);
    assert_non_null(z);
    assert_int_equal(z->tc.n, 3);
    assert_int_equal(tc_get_i64(&z->tc.v[0], 64), 5);
    /* the constant pool holds the operands triangle compared: 0 and 5 */
    assert_true(sbst_pool_size(s) >= 2);
    const tc_params *pp = sbst_params(s);
    bool zero = false, five = false;
    for (uint32_t i = 0; i < pp->n_ipool; i++) {
        zero |= pp->ipool[i] == 0;
        five |= pp->ipool[i] == 5;
    }
    assert_true(zero && five);
    assert_null(sbst_eval_random(s)); /* budget of 5 runs spent */
    assert_true(sbst_stopped(s));
    sbst_ind_unref(x);
    sbst_ind_unref(z);
    sbst_free(s);
    ip_release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_goal_fitness),    cmocka_unit_test(test_suite_fitness),
        cmocka_unit_test(test_wrapped_counter), cmocka_unit_test(test_core_cgi),
        cmocka_unit_test(test_core_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
