/*
 * test_avm.c - the alternating variable method (src/search/sbst/avm.h) on
 * small programs run in-process:
 *
 *   sqrt2(x)        double x; |x*x - 2| < 1e-9 (one branch; its true edge
 *                   is the goal): AVM from x = 0 ends within 1e-9 of
 *                   sqrt(2) in a fixed number of runs, where MIO's Gaussian
 *                   mutations alone do not;
 *   pair(a, b)      ints; a == 123457, nested in it b == -99: towards the
 *                   inner edge, both values are found one after the other
 *                   (alternating);
 *   flat(a)         int; a branch no value moves the distance of (plateau):
 *                   the episode ends after two runs.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sbst_fixture.h"
#include "search/sbst/avm.h"
#include "search/sbst/mio.h"

enum { P_SQRT2, P_PAIR, P_FLAT };

typedef struct prog {
    int kind;
    progdb db;
    uint8_t cov[8];
    double dist[8];
    uint8_t in[64];
    size_t len, pos;
    ctg_value_rec vals[4];
    size_t nv;
    uint64_t runs, budget;
    double last_x; /* sqrt2: the value of the last run */
} prog;

/* Reads the next value of `type` (8 or 4 bytes), logging it; 0 past the
 * input. */
static uint64_t next(prog *p, int type, size_t size)
{
    size_t off = p->pos;
    p->pos += size;
    uint64_t v = 0;
    if (off + size <= p->len)
        memcpy(&v, p->in + off, size);
    else
        memset(p->in + off, 0, size), p->len = off + size;
    p->vals[p->nv++] = (ctg_value_rec){(uint32_t)off, (uint16_t)type, (uint16_t)size};
    return v;
}

/* Records edges base (cond true) / base + 1 with distances to each side. */
static void branch(prog *p, uint32_t base, bool t, double dt, double df)
{
    p->cov[base + (t ? 0 : 1)]++;
    p->dist[base] = 1 + (t ? 0 : dt);
    p->dist[base + 1] = 1 + (t ? df : 0);
}

static bool run(void *ud, const uint8_t *in, size_t len, sbst_obs *o)
{
    prog *p = ud;
    if (p->runs >= p->budget)
        return false;
    p->runs++;
    memset(p->cov, 0, sizeof p->cov);
    memset(p->dist, 0, sizeof p->dist);
    p->len = len > 32 ? 32 : len;
    memcpy(p->in, in, p->len);
    p->nv = p->pos = 0;
    if (p->kind == P_SQRT2) {
        uint64_t b = next(p, CTG_T_DOUBLE, 8);
        double x;
        memcpy(&x, &b, 8);
        p->last_x = x;
        double d = fabs(x * x - 2.0);
        bool t = d < 1e-9;
        branch(p, 0, t, isnan(d) ? 1e308 : d - 1e-9 + 1e-300, 1e-9 - d);
    } else if (p->kind == P_PAIR) {
        int32_t a = (int32_t)next(p, CTG_T_INT, 4), b = (int32_t)next(p, CTG_T_INT, 4);
        bool t = a == 123457;
        branch(p, 0, t, fabs((double)a - 123457), 1);
        if (t)
            branch(p, 2, b == -99, fabs((double)b + 99), 1);
    } else {
        int32_t a = (int32_t)next(p, CTG_T_INT, 4);
        branch(p, 0, a == 7 && false, 1, 1); /* the true side is out of reach */
    }
    *o = (sbst_obs){p->cov, p->dist, false, 0, false, p->in, p->len, p->vals, p->nv, NULL, 0};
    return true;
}

static double progress(void *ud)
{
    prog *p = ud;
    return (double)p->runs / (double)p->budget;
}

static void prog_init(prog *p, int kind, uint64_t budget)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->budget = budget;
    static const fx_block one[] = {FX_B(1, 2), FX_R, FX_R};
    static const fx_block two[] = {FX_B(1, 3), FX_B(2, 3), FX_R, FX_R};
    fx_add_func(&p->db, "main", kind == P_PAIR ? two : one, kind == P_PAIR ? 4 : 3);
}

/* Evaluates the test of the given values. */
static sbst_ind *eval_values(sbst_t *s, int type, const uint64_t *v, int n)
{
    tcase t;
    tc_init(&t);
    for (int i = 0; i < n; i++)
        assert_true(tc_push(&t, (uint8_t)type, v[i]));
    sbst_ind *x = sbst_eval(s, &t);
    assert_non_null(x);
    return x;
}

/* Runs one episode towards goal from the given values; returns runs used. */
static uint64_t episode(prog *p, int type, const uint64_t *v, int n, uint32_t goal,
                        uint32_t max_evals, sbst_ind **best)
{
    sbst_env env = {p, run, progress, &p->db, 1, NULL};
    tc_params tp;
    tc_params_default(&tp);
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    assert_non_null(s);
    sbst_ind *x = eval_values(s, type, v, n);
    avm_t *a = avm_new(s, max_evals);
    assert_non_null(a);
    uint64_t before = p->runs;
    assert_true(avm_start(a, &x->tc, goal));
    sbst_ind *y;
    while ((y = avm_step(a)) != NULL)
        sbst_ind_unref(y);
    assert_false(avm_active(a));
    *best = sbst_ind_ref((sbst_ind *)avm_best(a, NULL));
    uint64_t used = p->runs - before;
    avm_free(a);
    sbst_ind_unref(x);
    sbst_free(s);
    return used;
}

static void test_sqrt2(void **state)
{
    (void)state;
    prog p;
    prog_init(&p, P_SQRT2, 100000);
    uint64_t zero = 0;
    sbst_ind *b = NULL;
    uint64_t used = episode(&p, CTG_T_DOUBLE, &zero, 1, 0, 1000, &b);
    double x = tc_get_f64(&b->tc.v[0]);
    assert_true(fabs(x * x - 2.0) < 1e-9);
    assert_true(fabs(fabs(x) - sqrt(2.0)) < 1e-9);
    assert_true(used <= 200);
    sbst_ind_unref(b);
    fx_release(&p.db);
}

static void test_pair(void **state)
{
    (void)state;
    prog p;
    prog_init(&p, P_PAIR, 100000);
    uint64_t v[2] = {0, 0};
    sbst_ind *b = NULL;
    /* the goal is edge 2 (b == -99), nested in a == 123457: the approach
     * level falls once a is found, then b moves */
    uint64_t used = episode(&p, CTG_T_INT, v, 2, 2, 1000, &b);
    assert_int_equal(tc_get_i64(&b->tc.v[0], 64), 123457);
    assert_int_equal(tc_get_i64(&b->tc.v[1], 64), -99);
    assert_true(used <= 150);
    sbst_ind_unref(b);
    fx_release(&p.db);
}

static void test_plateau(void **state)
{
    (void)state;
    prog p;
    prog_init(&p, P_FLAT, 100000);
    uint64_t v = 5;
    sbst_ind *b = NULL;
    uint64_t used = episode(&p, CTG_T_INT, &v, 1, 0, 1000, &b);
    assert_int_equal(used, 3); /* the start again, +1 and -1: the value is given up */
    assert_int_equal(tc_get_i64(&b->tc.v[0], 64), 5);
    sbst_ind_unref(b);
    fx_release(&p.db);
}

/* MIO: within 3,000 runs the sqrt2 goal is covered with the local search
 * in the focused phase, on every seed of ten; without it on none. */
static int mio_covers(uint64_t seed, double p_avm)
{
    prog p;
    prog_init(&p, P_SQRT2, 3000);
    sbst_env env = {&p, run, progress, &p.db, seed, NULL};
    tc_params tp;
    tc_params_default(&tp);
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    assert_non_null(s);
    mio_params mp;
    mio_params_default(&mp);
    mp.p_avm = p_avm;
    mio_t *m = mio_new(s, &mp, &e);
    assert_non_null(m);
    while (mio_step(m) && !mio_solution(m, 0))
        ;
    int got = mio_solution(m, 0) != NULL;
    if (got) {
        double x = tc_get_f64(&mio_solution(m, 0)->v[0]);
        assert_true(fabs(x * x - 2.0) < 1e-9);
        assert_true(p_avm == 0 || mio_avm_stats(m).covered >= 1);
    }
    mio_free(m);
    sbst_free(s);
    fx_release(&p.db);
    return got;
}

static void test_mio_avm(void **state)
{
    (void)state;
    int with = 0, without = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        with += mio_covers(seed, 0.5);
        without += mio_covers(seed, 0);
    }
    assert_int_equal(with, 10);
    assert_int_equal(without, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sqrt2),
        cmocka_unit_test(test_pair),
        cmocka_unit_test(test_plateau),
        cmocka_unit_test(test_mio_avm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
