/*
 * test_solver.c - unit tests of src/solver: the Z3 back end (bit-vectors,
 * arrays, floats, named variables, timeouts), folding against Z3, each layer
 * of the chain changing the number of back-end calls in a hand-checked way,
 * a few hundred generated path queries answered identically with the chain
 * on and off, the incremental back end against enumeration, and allocation
 * failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/mem.h"
#include "base/rng.h"
#include "expr/expr.h"
#include "solver/solver.h"
#include "expr_fixture.h"

static uint8_t zero_bytes[64];
static const expr_env ZERO = {zero_bytes, 64, NULL, NULL, 0};

static solver *mk_solver(bool norm, bool slice, bool qc, bool cex)
{
    solver_opts o;
    solver_opts_default(&o);
    o.normalize = norm;
    o.slice = slice;
    o.query_cache = qc;
    o.cex_cache = cex;
    o.subsume = false; /* its own tests: test_solver_bounds.c */
    ctg_err e = {{0}};
    solver *s = solver_new(&o, &e);
    assert_non_null(s);
    return s;
}

static solver_result solve(solver *s, expr **cs, size_t n, solver_model *m)
{
    ctg_err e = {{0}};
    solver_result r = solver_solve(s, C, cs, n, n - 1, &ZERO, m, &e);
    assert_true(r != SOLVER_FAIL);
    return r;
}

static uint64_t model_val(const solver_model *m, uint32_t key)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].key == key)
            return m->v[i].val;
    fail_msg("key %#x not in the model", key);
    return 0;
}

/* Evaluates cs under base + model: all true? */
static bool model_satisfies(expr_ctx *c, expr **cs, size_t n, const uint8_t *base, size_t nb,
                            const solver_model *m)
{
    uint8_t bytes[64];
    uint32_t ids[4];
    uint64_t vals[4];
    size_t nn = 0;
    memcpy(bytes, base, nb);
    for (size_t i = 0; i < m->n; i++) {
        if (m->v[i].key & EXPR_VKEY_NAMED) {
            ids[nn] = m->v[i].key & ~EXPR_VKEY_NAMED;
            vals[nn++] = m->v[i].val;
        } else {
            assert_true(m->v[i].key < nb);
            bytes[m->v[i].key] = (uint8_t)m->v[i].val;
        }
    }
    expr_env env = {bytes, nb, ids, vals, nn};
    expr_u128 out[64];
    assert_true(n <= 64);
    assert_true(expr_eval(c, cs, n, &env, out));
    for (size_t i = 0; i < n; i++)
        if (!out[i])
            return false;
    return true;
}

/* ---- back end ------------------------------------------------------------------ */

static void test_basic(void **st)
{
    (void)st;
    solver *s = mk_solver(true, true, true, true);
    solver_model m = SOLVER_MODEL_INIT;
    expr *cs[3] = {bin(EXPR_EQ, intn(0, 4), k(32, 0xdeadbeef))};
    assert_int_equal(solve(s, cs, 1, &m), SOLVER_SAT);
    assert_int_equal(m.n, 4);
    assert_int_equal(model_val(&m, 0), 0xef);
    assert_int_equal(model_val(&m, 3), 0xde);
    /* a + 2*b == 7 over two other ints, a > 100 */
    expr *a = intn(4, 4), *b = intn(8, 4);
    cs[0] = bin(EXPR_ULT, k(32, 100), a);
    cs[1] = bin(EXPR_EQ, bin(EXPR_ADD, a, bin(EXPR_MUL, b, k(32, 2))), k(32, 7));
    assert_int_equal(solve(s, cs, 2, &m), SOLVER_SAT);
    assert_true(model_satisfies(C, cs, 2, zero_bytes, 64, &m));
    cs[1] = bin(EXPR_ULT, a, k(32, 50));
    assert_int_equal(solve(s, cs, 2, &m), SOLVER_UNSAT);
    /* named variable: the input length */
    expr *len = expr_var(C, 0, 32);
    cs[0] = bin(EXPR_ULT, k(32, 2), len);
    cs[1] = bin(EXPR_ULT, len, k(32, 4));
    assert_int_equal(solve(s, cs, 2, &m), SOLVER_SAT);
    assert_int_equal(model_val(&m, EXPR_VKEY_NAMED | 0), 3);
    /* a trivially false query never reaches the back end */
    uint64_t calls = solver_get_stats(s)->backend_calls;
    cs[0] = expr_bool(C, false);
    assert_int_equal(solve(s, cs, 1, &m), SOLVER_UNSAT);
    assert_int_equal(solver_get_stats(s)->backend_calls, calls);
    assert_int_equal(solver_get_stats(s)->trivial, 1);
    ctg_err e = {{0}};
    assert_int_equal(solver_solve(s, C, cs, 1, 1, &ZERO, &m, &e), SOLVER_FAIL);
    assert_non_null(strstr(e.msg, "focus"));
    assert_non_null(strstr(solver_backend_name(), "z3"));
    solver_model_release(&m);
    solver_free(s);
    solver_free(NULL);
}

static void test_arrays_fp(void **st)
{
    (void)st;
    solver *s = mk_solver(true, true, true, true);
    solver_model m = SOLVER_MODEL_INIT;
    /* seed 003 algorithm 9 in bytes: x[1] = a; x[2] == 3 && x[1] == 4 */
    expr *arr = expr_arr_const(C, 0);
    for (uint32_t i = 0; i < 4; i++)
        arr = expr_store(C, arr, k(64, i), in(i));
    expr *ix = expr_cast(C, EXPR_ZEXT, in(8), 64);
    expr *arr2 = expr_store(C, arr, ix, in(9));
    expr *cs[3] = {bin(EXPR_ULT, ix, k(64, 4)),
                   bin(EXPR_EQ, expr_select(C, arr2, k(64, 2)), k(8, 3)),
                   bin(EXPR_EQ, expr_select(C, arr2, expr_cast(C, EXPR_ZEXT, in(10), 64)), k(8, 77))};
    assert_int_equal(solve(s, cs, 3, &m), SOLVER_SAT);
    assert_true(model_satisfies(C, cs, 3, zero_bytes, 64, &m));
    /* floats: x * 2.0f == 3.0f and x > 1.0f */
    float two = 2.0f, three = 3.0f, one = 1.0f;
    uint32_t u2, u3, u1;
    memcpy(&u2, &two, 4);
    memcpy(&u3, &three, 4);
    memcpy(&u1, &one, 4);
    expr *x = intn(12, 4);
    cs[0] = expr_fcmp(C, 2 /* ogt */, x, k(32, u1));
    cs[1] = expr_fcmp(C, 1 /* oeq */, expr_binop(C, EXPR_FMUL, x, k(32, u2)), k(32, u3));
    assert_int_equal(solve(s, cs, 2, &m), SOLVER_SAT);
    uint32_t bits = 0;
    for (int i = 0; i < 4; i++)
        bits |= (uint32_t)model_val(&m, 12 + (uint32_t)i) << (8 * i);
    float xf;
    memcpy(&xf, &bits, 4);
    assert_true(xf == 1.5f);
    /* fptosi(double d) == -7 (toward zero) and d < -7.5: d in (-8, -7.5) */
    expr *d = intn(16, 8);
    double m75 = -7.5, m8 = -8.0, dv;
    uint64_t um75, um8, ud = 0;
    memcpy(&um75, &m75, 8);
    memcpy(&um8, &m8, 8);
    cs[0] = bin(EXPR_EQ, expr_cast(C, EXPR_FPTOSI, d, 32), k(32, (uint32_t)-7));
    cs[1] = expr_fcmp(C, 4 /* olt */, d, k(64, um75));
    assert_int_equal(solve(s, cs, 2, &m), SOLVER_SAT);
    for (int i = 0; i < 8; i++)
        ud |= model_val(&m, 16 + (uint32_t)i) << (8 * i);
    memcpy(&dv, &ud, 8);
    if (!(dv > -8.0 && dv < -7.5))
        fail_msg("dv = %g (bits %#llx)", dv, (unsigned long long)ud);
    cs[1] = expr_fcmp(C, 5 /* ole */, d, k(64, um8));
    assert_int_equal(solve(s, cs, 2, &m), SOLVER_UNSAT);
    solver_model_release(&m);
    solver_free(s);
}

static void test_timeout_skip(void **st)
{
    (void)st;
    solver_opts o;
    solver_opts_default(&o);
    o.timeout_ms = 1;
    ctg_err e = {{0}};
    solver *s = solver_new(&o, &e);
    assert_non_null(s);
    solver_model m = SOLVER_MODEL_INIT;
    /* factor a 64-bit semiprime of two random 32-bit primes (3538334777 *
     * 2708517689): Z3 alone runs past 300 s.  (Primes near 2^32, as
     * 4294967291 * 4294967279, it factors in 0.3 s: a timer late by that
     * much on a loaded host gave SAT.) */
    expr *x = expr_cast(C, EXPR_ZEXT, intn(0, 4), 64), *y = expr_cast(C, EXPR_ZEXT, intn(4, 4), 64);
    expr *cs[3] = {bin(EXPR_ULT, k(64, 1), x), bin(EXPR_ULT, k(64, 1), y),
                   bin(EXPR_EQ, bin(EXPR_MUL, x, y), k(64, 3538334777ULL * 2708517689ULL))};
    assert_int_equal(solver_solve(s, C, cs, 3, 2, &ZERO, &m, &e), SOLVER_SKIP);
    const solver_stats *ss = solver_get_stats(s);
    assert_int_equal(ss->timeout + ss->unknown, 1);
    assert_int_equal(ss->res_skip, 1);
    /* the skip is cached: the same query does not run again */
    assert_int_equal(solver_solve(s, C, cs, 3, 2, &ZERO, &m, &e), SOLVER_SKIP);
    assert_int_equal(ss->backend_calls, 1);
    solver_model_release(&m);
    solver_free(s);
}

/* ---- layer 6: floating-point fallback --------------------------------------------- */

static expr *dconst(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return k(64, u);
}

/* x, y doubles of input bytes 0-7, 8-15:
 *   x > 0.5, y > 1.25, 7.3 - 1e-6 < x*x*y < 7.3 + 1e-6, focus x*y > 4.1.
 * Z3's floats do not answer in 1 ms; the real relaxation does, and its
 * rounded model passes evaluation. */
static void test_fp_relax(void **st)
{
    (void)st;
    solver_opts o;
    solver_opts_default(&o);
    o.timeout_ms = 1;
    ctg_err e = {{0}};
    solver *s = solver_new(&o, &e);
    assert_non_null(s);
    solver_model m = SOLVER_MODEL_INIT;
    expr *x = intn(0, 8), *y = intn(8, 8);
    expr *sq = bin(EXPR_FMUL, bin(EXPR_FMUL, x, x), y);
    expr *cs[5] = {expr_fcmp(C, 2 /* ogt */, x, dconst(0.5)),
                   expr_fcmp(C, 2, y, dconst(1.25)),
                   expr_fcmp(C, 2, sq, dconst(7.3 - 1e-6)),
                   expr_fcmp(C, 4 /* olt */, sq, dconst(7.3 + 1e-6)),
                   expr_fcmp(C, 2, bin(EXPR_FMUL, x, y), dconst(4.1))};
    assert_int_equal(solver_solve(s, C, cs, 5, 4, &ZERO, &m, &e), SOLVER_SAT);
    assert_true(model_satisfies(C, cs, 5, zero_bytes, 64, &m));
    const solver_stats *ss = solver_get_stats(s);
    assert_int_equal(ss->backend_calls, 0);
    assert_int_equal(ss->fp_tries, 1);
    assert_int_equal(ss->fp_sat, 1);
    assert_true(ss->fp_evals >= 1);
    /* x*x == 2.0 exactly: the real answer is sqrt(2), and no double
     * within the searched ulps squares to 2: no answer, never a wrong one;
     * the back end gets the query */
    expr *eq[2] = {expr_fcmp(C, 2, x, dconst(0.0)),
                   expr_fcmp(C, 1 /* oeq */, bin(EXPR_FMUL, x, x), dconst(2.0))};
    solver_result r = solver_solve(s, C, eq, 2, 1, &ZERO, &m, &e);
    assert_true(r == SOLVER_SKIP || r == SOLVER_UNSAT);
    assert_int_equal(ss->fp_tries, 2);
    assert_int_equal(ss->fp_sat, 1);
    assert_int_equal(ss->backend_calls, 1);
    /* an int converted to double: 12.25 < (double)i * 0.1 < 12.35 gives i = 123 */
    expr *di = expr_cast(C, EXPR_SITOFP, intn(16, 4), 64);
    expr *pr = bin(EXPR_FMUL, di, dconst(0.1));
    expr *ic[2] = {expr_fcmp(C, 2, pr, dconst(12.25)), expr_fcmp(C, 4, pr, dconst(12.35))};
    r = solver_solve(s, C, ic, 2, 1, &ZERO, &m, &e);
    if (r != SOLVER_SAT)
        fail_msg("no answer for the converted int (result %d)", (int)r);
    assert_true(model_satisfies(C, ic, 2, zero_bytes, 64, &m));
    uint32_t iv = 0;
    for (int i = 0; i < 4; i++)
        iv |= (uint32_t)model_val(&m, 16 + (uint32_t)i) << (8 * i);
    assert_int_equal(iv, 123);
    solver_model_release(&m);
    solver_free(s);
    /* switched off: the first query goes to the back end, which times out */
    o.fp_relax = false;
    s = solver_new(&o, &e);
    assert_non_null(s);
    assert_int_equal(solver_solve(s, C, cs, 5, 4, &ZERO, &m, &e), SOLVER_SKIP);
    assert_int_equal(solver_get_stats(s)->fp_tries, 0);
    assert_int_equal(solver_get_stats(s)->backend_calls, 1);
    solver_model_release(&m);
    solver_free(s);
}

/* ---- folding agrees with Z3 ------------------------------------------------------- */

/* op(x, y) with x := a, y := b: Z3 must agree that the result is our fold. */
static void check_fold_z3(solver *s, expr_op op, unsigned w, uint64_t a, uint64_t b)
{
    expr *x = expr_trunc(C, intn(0, 8), w), *y = expr_trunc(C, intn(8, 8), w);
    expr *folded = bin(op, k(w, a), k(w, b));
    if (op == EXPR_FADD || op == EXPR_FMUL || op == EXPR_FDIV || op == EXPR_FSUB) {
        double d = 0;
        if (w == 32) {
            float f;
            uint32_t u = (uint32_t)folded->val;
            memcpy(&f, &u, 4);
            d = f;
        } else {
            uint64_t u = (uint64_t)folded->val;
            memcpy(&d, &u, 8);
        }
        if (d != d)
            return; /* NaN bits are unspecified in Z3 */
    }
    expr *r = bin(op, x, y);
    solver_model m = SOLVER_MODEL_INIT;
    expr *cs[3] = {bin(EXPR_EQ, x, k(w, a)), bin(EXPR_EQ, y, k(w, b)), bin(EXPR_NE, r, folded)};
    solver_result res = solve(s, cs, 3, &m);
    if (res != SOLVER_UNSAT)
        fail_msg("%s w%u %#llx %#llx: Z3 disagrees with the fold %#llx", expr_op_name(op), w,
                 (unsigned long long)a, (unsigned long long)b, (unsigned long long)folded->val);
    solver_model_release(&m);
}

static void test_fold_matches_z3(void **st)
{
    (void)st;
    static const expr_op ops[] = {EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_UDIV, EXPR_UREM, EXPR_SDIV,
                                  EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR, EXPR_ULT, EXPR_SLE};
    static const uint64_t corner[] = {0, 1, 3, 0x7f, 0x80, 0xff, 0x8000, 0x7fffffff, 0x80000000,
                                      0xffffffff, 0x8000000000000000ULL, ~0ULL};
    static const unsigned widths[] = {8, 16, 32, 64};
    solver *s = mk_solver(true, true, false, false);
    rng r;
    rng_seed(&r, 11);
    for (int it = 0; it < 150; it++) {
        unsigned w = widths[rng_below(&r, 4)];
        uint64_t m = w == 64 ? ~0ULL : (1ULL << w) - 1;
        uint64_t a = (rng_chance(&r, 0.5) ? corner[rng_below(&r, 12)] : rng_next(&r)) & m;
        uint64_t b = (rng_chance(&r, 0.5) ? corner[rng_below(&r, 12)] : rng_next(&r)) & m;
        if (rng_chance(&r, 0.15))
            b = 0;
        check_fold_z3(s, ops[rng_below(&r, 12)], w, a, b);
    }
    static const expr_op fops[] = {EXPR_FADD, EXPR_FSUB, EXPR_FMUL, EXPR_FDIV};
    for (int it = 0; it < 24; it++) {
        unsigned w = it % 2 ? 32 : 64;
        double x = rng_gauss(&r) * 1000, y = rng_gauss(&r);
        uint64_t a, b;
        if (w == 32) {
            float fx = (float)x, fy = (float)y;
            uint32_t ua, ub;
            memcpy(&ua, &fx, 4);
            memcpy(&ub, &fy, 4);
            a = ua;
            b = ub;
        } else {
            memcpy(&a, &x, 8);
            memcpy(&b, &y, 8);
        }
        check_fold_z3(s, fops[it % 4], w, a, b);
    }
    assert_int_equal(solver_get_stats(s)->res_skip, 0);
    solver_free(s);
}

/* ---- each layer, hand-checked -------------------------------------------------------- */

static void test_normalization_counts(void **st)
{
    (void)st;
    expr *a = bin(EXPR_ULT, intn(0, 2), k(16, 300)), *b = bin(EXPR_EQ, in(2), k(8, 9));
    expr *q1[2] = {a, b}, *q2[4] = {b, a, expr_bool(C, true), a};
    for (int on = 0; on < 2; on++) {
        solver *s = mk_solver(on, false, true, false);
        solver_model m = SOLVER_MODEL_INIT;
        assert_int_equal(solve(s, q1, 2, &m), SOLVER_SAT);
        ctg_err e = {{0}};
        assert_int_equal(solver_solve(s, C, q2, 4, 0, &ZERO, &m, &e), SOLVER_SAT);
        const solver_stats *ss = solver_get_stats(s);
        /* normalised, {b, a, true, a} is the query {a, b}: a cache hit */
        assert_int_equal(ss->backend_calls, on ? 1 : 2);
        assert_int_equal(ss->qcache_hits, on ? 1 : 0);
        assert_int_equal(ss->dup_dropped, on ? 1 : 0);
        assert_int_equal(ss->true_dropped, on ? 1 : 0);
        assert_int_equal(ss->constraints_sent, on ? 4 : 6);
        solver_model_release(&m);
        solver_free(s);
    }
    /* a conjunction splits into its conjuncts */
    solver *s = mk_solver(true, false, true, false);
    solver_model m = SOLVER_MODEL_INIT;
    expr *conj[1] = {expr_and(C, a, b)};
    assert_int_equal(solve(s, q1, 2, &m), SOLVER_SAT);
    assert_int_equal(solve(s, conj, 1, &m), SOLVER_SAT);
    assert_int_equal(solver_get_stats(s)->backend_calls, 1);
    solver_model_release(&m);
    solver_free(s);
}

static void test_slicing_counts(void **st)
{
    (void)st;
    /* seed 003: (x + y > 10) & (z > 0) & (y < 12), negated last: y >= 12 */
    expr *x = in(0), *y = in(1), *z = in(2);
    expr *p1 = bin(EXPR_ULT, k(8, 10), bin(EXPR_ADD, x, y));
    expr *q1[3] = {p1, bin(EXPR_ULT, k(8, 0), z), bin(EXPR_ULE, k(8, 12), y)};
    expr *q2[3] = {p1, bin(EXPR_ULT, k(8, 3), z), bin(EXPR_ULE, k(8, 12), y)};
    for (int on = 0; on < 2; on++) {
        solver *s = mk_solver(true, on, true, false);
        solver_model m = SOLVER_MODEL_INIT;
        assert_int_equal(solve(s, q1, 3, &m), SOLVER_SAT);
        /* the model assigns only the closure of the negated branch */
        assert_int_equal(m.n, on ? 2 : 3);
        assert_int_equal(solve(s, q2, 3, &m), SOLVER_SAT);
        const solver_stats *ss = solver_get_stats(s);
        /* sliced, q1 and q2 are the same query {x+y > 10, y >= 12} */
        assert_int_equal(ss->backend_calls, on ? 1 : 2);
        assert_int_equal(ss->sliced_away, on ? 2 : 0);
        assert_int_equal(ss->constraints_sent, on ? 4 : 6);
        solver_model_release(&m);
        solver_free(s);
    }
}

static void test_query_cache_counts(void **st)
{
    (void)st;
    expr *q[2] = {bin(EXPR_ULT, k(8, 3), in(0)), bin(EXPR_ULT, in(0), k(8, 2))};
    for (int on = 0; on < 2; on++) {
        solver *s = mk_solver(true, true, on, false);
        solver_model m = SOLVER_MODEL_INIT;
        for (int i = 0; i < 3; i++)
            assert_int_equal(solve(s, q, 2, &m), SOLVER_UNSAT);
        for (int i = 0; i < 2; i++)
            assert_int_equal(solve(s, q, 1, &m), SOLVER_SAT);
        const solver_stats *ss = solver_get_stats(s);
        assert_int_equal(ss->backend_calls, on ? 2 : 5);
        assert_int_equal(ss->qcache_hits, on ? 3 : 0);
        assert_int_equal(ss->cache_lookups, on ? 5 : 0);
        solver_model_release(&m);
        solver_free(s);
    }
}

static void test_cex_cache_counts(void **st)
{
    (void)st;
    expr *x = in(0), *y = in(1);
    expr *lt5 = bin(EXPR_ULT, x, k(8, 5)), *gt10 = bin(EXPR_ULT, k(8, 10), x);
    expr *y3 = bin(EXPR_EQ, y, k(8, 3)), *x7 = bin(EXPR_EQ, x, k(8, 7));
    expr *x_ne9 = bin(EXPR_NE, x, k(8, 9)), *y42 = bin(EXPR_EQ, y, k(8, 42));
    expr *y_gt40 = bin(EXPR_ULT, k(8, 40), y), *xgt3 = bin(EXPR_ULT, k(8, 3), x);
    for (int on = 0; on < 2; on++) {
        solver *s = mk_solver(true, false, false, on);
        solver_model m = SOLVER_MODEL_INIT;
        const solver_stats *ss = solver_get_stats(s);
        /* (a) {x<5, x>10} unsat => {x<5, x>10, y==3} unsat */
        expr *a1[2] = {lt5, gt10}, *a2[3] = {lt5, gt10, y3};
        assert_int_equal(solve(s, a1, 2, &m), SOLVER_UNSAT);
        assert_int_equal(solve(s, a2, 3, &m), SOLVER_UNSAT);
        assert_int_equal(ss->cex_unsat_subset, on ? 1 : 0);
        /* (b) {x>3, y==3} sat => its model solves {x>3} */
        expr *b1[2] = {xgt3, y3}, *b2[1] = {xgt3};
        assert_int_equal(solve(s, b1, 2, &m), SOLVER_SAT);
        assert_int_equal(solve(s, b2, 1, &m), SOLVER_SAT);
        assert_int_equal(ss->cex_superset, on ? 1 : 0);
        assert_int_equal(m.n, 1); /* restricted to x */
        assert_true(model_val(&m, 0) > 3);
        /* (c) model of the subset {x==7} tried on {x==7, x!=9} */
        expr *c1[1] = {x7}, *c2[2] = {x7, x_ne9};
        assert_int_equal(solve(s, c1, 1, &m), SOLVER_SAT);
        assert_int_equal(solve(s, c2, 2, &m), SOLVER_SAT);
        assert_int_equal(model_val(&m, 0), 7);
        /* (c) a recent model: y==42 answers y>40 */
        expr *d1[1] = {y42}, *d2[1] = {y_gt40};
        assert_int_equal(solve(s, d1, 1, &m), SOLVER_SAT);
        assert_int_equal(solve(s, d2, 1, &m), SOLVER_SAT);
        if (on) /* Z3 alone may pick any y > 40 */
            assert_int_equal(model_val(&m, 1), 42);
        assert_int_equal(ss->cex_subset_model, on ? 2 : 0);
        assert_int_equal(ss->backend_calls, on ? 4 : 8);
        assert_int_equal(ss->res_sat, 6);
        assert_int_equal(ss->res_unsat, 2);
        solver_model_release(&m);
        solver_free(s);
    }
}

/* ---- generated path queries: the chain never changes an answer --------------------- */

static expr *rnd_term(expr_ctx *c, rng *r, unsigned w, int depth)
{
    static const expr_op ops[] = {EXPR_ADD, EXPR_SUB, EXPR_ADD, EXPR_AND, EXPR_OR, EXPR_XOR,
                                  EXPR_MUL, EXPR_UREM, EXPR_SHL, EXPR_LSHR};
    if (depth == 0 || rng_chance(r, 0.3)) {
        if (rng_chance(r, 0.3))
            return expr_const(c, w, rng_below(r, 40));
        expr *b = expr_input(c, (uint32_t)rng_below(r, 5));
        return w == 8 ? b : expr_cast(c, rng_chance(r, 0.5) ? EXPR_ZEXT : EXPR_SEXT, b, w);
    }
    expr_op op = ops[rng_below(r, 10)];
    if ((op == EXPR_MUL || op == EXPR_UREM) && rng_chance(r, 0.7))
        op = EXPR_ADD; /* keep the queries cheap: division is rare on real paths too */
    expr *a = rnd_term(c, r, w, depth - 1);
    expr *b = (op == EXPR_SHL || op == EXPR_LSHR) ? expr_const(c, w, rng_below(r, 4))
                                                  : rnd_term(c, r, w, depth - 1);
    return expr_binop(c, op, a, b);
}

static expr *rnd_constraint(expr_ctx *c, rng *r)
{
    static const unsigned preds[] = {32, 33, 34, 35, 36, 37, 38, 39, 40, 41};
    unsigned w = rng_chance(r, 0.5) ? 8 : 16;
    expr *a = rnd_term(c, r, w, 2);
    expr *b = rng_chance(r, 0.5) ? expr_const(c, w, rng_below(r, 60)) : rnd_term(c, r, w, 1);
    return expr_icmp(c, preds[rng_below(r, 10)], a, b);
}

static void test_chain_same_answers(void **st)
{
    (void)st;
    solver *on = mk_solver(true, true, true, true), *off = mk_solver(false, false, false, false);
    solver_model mon = SOLVER_MODEL_INIT, moff = SOLVER_MODEL_INIT;
    rng r;
    rng_seed(&r, 5);
    int compared = 0, sat = 0, unsat = 0;
    for (int path = 0; path < 30; path++) {
        expr_ctx *c = expr_ctx_new();
        uint8_t base[8];
        for (int i = 0; i < 8; i++)
            base[i] = (uint8_t)rng_below(&r, 32);
        expr_env env = {base, 8, NULL, NULL, 0};
        expr *pc[10];
        for (int i = 0; i < 10; i++) { /* a path the base input takes */
            expr *e = rnd_constraint(c, &r);
            expr_u128 v;
            assert_true(expr_eval(c, &e, 1, &env, &v));
            pc[i] = v ? e : expr_not(c, e);
        }
        for (int pass = 0; pass < 2; pass++) /* the second pass meets the caches */
            for (int j = 0; j < 10; j++) {
                expr *q[10];
                memcpy(q, pc, (size_t)j * sizeof *q);
                q[j] = expr_not(c, pc[j]);
                ctg_err e = {{0}};
                solver_result a = solver_solve(on, c, q, (size_t)j + 1, (size_t)j, &env, &mon, &e);
                solver_result b = solver_solve(off, c, q, (size_t)j + 1, (size_t)j, &env, &moff, &e);
                assert_true(a != SOLVER_FAIL && b != SOLVER_FAIL);
                if (a == SOLVER_SKIP || b == SOLVER_SKIP)
                    continue;
                compared++;
                if (a != b)
                    fail_msg("path %d query %d: chain says %d, plain Z3 says %d", path, j, a, b);
                if (a == SOLVER_SAT) { /* base + sliced model satisfies the whole query */
                    sat++;
                    assert_true(model_satisfies(c, q, (size_t)j + 1, base, 8, &mon));
                    assert_true(model_satisfies(c, q, (size_t)j + 1, base, 8, &moff));
                } else {
                    unsat++;
                }
            }
        expr_ctx_free(c);
    }
    const solver_stats *son = solver_get_stats(on), *soff = solver_get_stats(off);
    assert_true(compared >= 580);
    if (getenv("SHOW"))
        print_message("compared %d sat %d unsat %d backend %llu/%llu\n", compared, sat, unsat,
                      (unsigned long long)son->backend_calls, (unsigned long long)soff->backend_calls);
    if (sat < 200 || unsat < 60)
        fail_msg("sat %d unsat %d", sat, unsat);
    uint64_t hits = son->qcache_hits + son->cex_unsat_subset + son->cex_superset + son->cex_subset_model;
    assert_true(hits >= 300); /* at least the whole second pass */
    assert_true(son->cex_subset_model + son->cex_superset + son->cex_unsat_subset > 0);
    assert_true(son->backend_calls + hits + son->trivial == son->queries);
    assert_true(son->backend_calls < soff->backend_calls / 2);
    assert_true(son->sliced_away > 0);
    solver_model_release(&mon);
    solver_model_release(&moff);
    solver_free(on);
    solver_free(off);
}

/* Random terms: pinning the input bytes, Z3 finds no value other than the
 * one expr_eval computes (simplification and evaluation match Z3). */
static void test_eval_matches_z3(void **st)
{
    (void)st;
    solver *s = mk_solver(true, true, false, false);
    solver_model m = SOLVER_MODEL_INIT;
    rng r;
    rng_seed(&r, 17);
    for (int it = 0; it < 500; it++) {
        expr_ctx *c = expr_ctx_new();
        uint8_t base[8];
        for (int i = 0; i < 8; i++)
            base[i] = (uint8_t)rng_next(&r);
        expr_env env = {base, 8, NULL, NULL, 0};
        unsigned w = rng_chance(&r, 0.5) ? 8 : 16;
        expr *t = rnd_term(c, &r, w, 4);
        expr_u128 v;
        assert_true(expr_eval(c, &t, 1, &env, &v));
        expr *q[6];
        for (uint32_t i = 0; i < 5; i++)
            q[i] = expr_binop(c, EXPR_EQ, expr_input(c, i), expr_const(c, 8, base[i]));
        q[5] = expr_binop(c, EXPR_NE, t, expr_const(c, w, v));
        ctg_err e = {{0}};
        solver_result res = solver_solve(s, c, q, 6, 5, &env, &m, &e);
        if (res != SOLVER_UNSAT) {
            sbuf sb = SBUF_INIT;
            expr_print(t, &sb, 600);
            fail_msg("iteration %d: Z3 says %d for %s != %#x", it, res, sbuf_str(&sb), (unsigned)v);
        }
        expr_ctx_free(c);
    }
    solver_model_release(&m);
    solver_free(s);
}

/* ---- the incremental back end --------------------------------------------------- */

/* Whether some a (byte 0) and b (byte 1, low 4 bits) satisfy all of cs:
 * the answer by enumeration. */
static bool brute_sat(expr **cs, size_t n)
{
    uint8_t bytes[2];
    expr_env env = {bytes, 2, NULL, NULL, 0};
    expr_u128 out[16];
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 16; b++) {
            bytes[0] = (uint8_t)a, bytes[1] = (uint8_t)b;
            assert_true(expr_eval(C, cs, n, &env, out));
            size_t i = 0;
            while (i < n && out[i])
                i++;
            if (i == n)
                return true;
        }
    return false;
}

/* The back end keeps one Z3 solver and pushes and pops the constraints
 * queries share (solver_z3.c, check_inc).  A random walk of queries grows
 * a prefix, drops part of it, starts over and changes the focus, as
 * concolic expansions do; with the caches off every query reaches the back
 * end, and each answer is the one enumeration gives (a stale assertion
 * left on the solver would make a sat query unsat), with a model that
 * satisfies the query. */
static void test_incremental_matches_enumeration(void **st)
{
    (void)st;
    solver *s = mk_solver(false, false, false, false);
    solver_model m = SOLVER_MODEL_INIT;
    rng r;
    rng_seed(&r, 23);
    expr *a = in(0), *b = bin(EXPR_AND, in(1), k(8, 15)), *pool[24];
    static const unsigned preds[] = {32, 33, 34, 35, 36, 37, 38, 39, 40, 41};
    for (int i = 0; i < 24; i++) {
        expr *t = i % 3 == 0 ? a : i % 3 == 1 ? bin(EXPR_ADD, a, b) : bin(EXPR_XOR, a, bin(EXPR_SHL, b, k(8, 2)));
        pool[i] = expr_icmp(C, preds[rng_below(&r, 10)], t, k(8, rng_below(&r, 256)));
    }
    expr *q[16] = {0};
    size_t n = 0; /* the prefix q[0..n) */
    int sat = 0, unsat = 0;
    for (int it = 0; it < 300; it++) {
        double u = rng_double(&r);
        if (u < 0.55 && n < 12)
            q[n++] = pool[rng_below(&r, 24)];
        else if (u < 0.85 && n)
            n -= 1 + rng_below(&r, n);
        else
            n = rng_below(&r, 4);
        for (size_t i = 0; i < n; i++)
            if (!q[i])
                q[i] = pool[rng_below(&r, 24)];
        if (it % 7 == 0) /* now and then a prefix from scratch */
            for (size_t i = 0; i < n; i++)
                q[i] = pool[rng_below(&r, 24)];
        q[n] = rng_chance(&r, 0.5) ? pool[rng_below(&r, 24)] : expr_not(C, pool[rng_below(&r, 24)]);
        ctg_err e = {{0}};
        solver_result res = solver_solve(s, C, q, n + 1, n, &ZERO, &m, &e);
        bool want = brute_sat(q, n + 1);
        if (res != (want ? SOLVER_SAT : SOLVER_UNSAT))
            fail_msg("query %d (%zu constraints): solver says %d, enumeration %s", it, n + 1, res,
                     want ? "sat" : "unsat");
        if (want) {
            sat++;
            assert_true(model_satisfies(C, q, n + 1, zero_bytes, 2, &m));
        } else {
            unsat++;
        }
    }
    assert_int_equal(solver_get_stats(s)->backend_calls, 300);
    if (sat < 60 || unsat < 60)
        fail_msg("sat %d unsat %d: the walk does not exercise both answers", sat, unsat);
    solver_model_release(&m);
    solver_free(s);
}

/* A model keeps the input's length (named variable 0) within twice the
 * base run's, at least SOLVER_LEN_SOFT_MIN, when the query allows: "size
 * > 8" must not become a 16 MB input (solver_z3.c, shorter). */
static void test_length_kept_short(void **st)
{
    (void)st;
    solver *s = mk_solver(true, true, false, false);
    solver_model m = SOLVER_MODEL_INIT;
    expr *len = expr_var(C, 0, 64);
    uint32_t ids[1] = {0};
    uint64_t vals[1] = {10};
    expr_env base = {zero_bytes, 10, ids, vals, 1};
    ctg_err e = {{0}};
    /* the length's top bits feed a product the query only bounds below */
    expr *cs[3] = {bin(EXPR_ULT, k(64, 8), len),
                   bin(EXPR_ULT, k(64, 1000), bin(EXPR_MUL, len, k(64, 0x100000001ull))),
                   bin(EXPR_NE, len, k(64, 9))};
    assert_int_equal(solver_solve(s, C, cs, 3, 2, &base, &m, &e), SOLVER_SAT);
    uint64_t v = model_val(&m, EXPR_VKEY_NAMED | 0);
    if (v <= 8 || v == 9 || v > 4096)
        fail_msg("length %llu: not in (8, 4096] or 9", (unsigned long long)v);
    /* a query that needs a long input still gets one */
    cs[2] = bin(EXPR_ULT, k(64, 100000), len);
    assert_int_equal(solver_solve(s, C, cs, 3, 2, &base, &m, &e), SOLVER_SAT);
    assert_true(model_val(&m, EXPR_VKEY_NAMED | 0) > 100000);
    solver_model_release(&m);
    solver_free(s);
}

/* ---- allocation failure --------------------------------------------------------------- */

static void test_alloc_failure(void **st)
{
    (void)st;
    expr *x = intn(0, 2), *y = in(2), *d = intn(8, 8);
    expr *d3 = bin(EXPR_FMUL, bin(EXPR_FMUL, d, d), d);
    expr *qs[5][3] = {
        {bin(EXPR_ULT, k(16, 300), x), bin(EXPR_EQ, y, k(8, 4)), bin(EXPR_ULT, x, k(16, 302))},
        {bin(EXPR_ULT, k(16, 300), x), bin(EXPR_EQ, y, k(8, 4)), bin(EXPR_ULT, x, k(16, 200))},
        {bin(EXPR_ULT, k(16, 300), x), bin(EXPR_EQ, y, k(8, 4)), bin(EXPR_ULT, x, k(16, 302))},
        {bin(EXPR_ULT, k(16, 300), x), bin(EXPR_EQ, y, k(8, 4)), bin(EXPR_ULT, x, k(16, 400))},
        /* layer 5: out of memory there leaves the query to the back end */
        {expr_fcmp(C, 2, d, dconst(1.0)), bin(EXPR_EQ, y, k(8, 4)), expr_fcmp(C, 2, d3, dconst(9.0))},
    };
    const solver_result want[5] = {SOLVER_SAT, SOLVER_UNSAT, SOLVER_SAT, SOLVER_SAT, SOLVER_SAT};
    int failed = 0, complete = 0;
    for (long n = 0; n < 220; n++) {
        mem_fail_after(n);
        ctg_err e = {{0}};
        solver *s = solver_new(NULL, &e);
        if (!s) {
            assert_true(e.msg[0] != 0);
            mem_fail_reset();
            failed++;
            continue;
        }
        solver_model m = SOLVER_MODEL_INIT;
        bool all = true;
        for (int i = 0; i < 5; i++) {
            err_clear(&e);
            solver_result r = solver_solve(s, C, qs[i], 3, 2, &ZERO, &m, &e);
            if (r == SOLVER_FAIL) {
                assert_non_null(strstr(e.msg, "out of memory"));
                all = false;
            } else {
                assert_int_equal(r, want[i]);
            }
        }
        mem_fail_reset();
        all ? complete++ : failed++;
        solver_model_release(&m);
        solver_free(s);
    }
    assert_true(failed > 10);
    assert_true(complete > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_basic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arrays_fp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_skip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fp_relax, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_matches_z3, setup, teardown),
        cmocka_unit_test_setup_teardown(test_normalization_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slicing_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_query_cache_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cex_cache_counts, setup, teardown),
        cmocka_unit_test(test_chain_same_answers),
        cmocka_unit_test(test_eval_matches_z3),
        cmocka_unit_test_setup_teardown(test_incremental_matches_enumeration, setup, teardown),
        cmocka_unit_test_setup_teardown(test_length_kept_short, setup, teardown),
        cmocka_unit_test_setup_teardown(test_alloc_failure, setup, teardown),
    };
    if (getenv("CMOCKA_FILTER"))
        cmocka_set_test_filter(getenv("CMOCKA_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
