/*
 * test_solver_bounds.c - unit tests of bound subsumption (solver_bounds.c):
 * a loop's exit bounds keep exactly their tightest two, or three when the
 * pair allows a second arc that a third excludes; a pair that would
 * allow a second arc keeps everything otherwise, bounds the base run breaks are
 * kept, and thousands of random families of 8-bit bounds keep exactly
 * their solutions (every value enumerated), the whole solver answers
 * a 2,000-bound loop query with the bounds dropped, and without
 * subsumption the query's timeout still bounds Z3's work on it; slicing
 * on a loop accumulator's chains, and a query with too many products not
 * asked.
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
#include "solver/solver_int.h"
#include "expr_fixture.h"

/* Prepares cs[0..n) (focus cs[focus]) as they are, no normalisation or
 * slicing, with subsumption under base; returns the stats. */
static solver_stats prep_as(squery *q, expr **cs, size_t n, size_t focus, const expr_env *base,
                            prep_result *r)
{
    solver_stats st;
    memset(&st, 0, sizeof st);
    varmemo memo;
    memset(&memo, 0, sizeof memo);
    *r = squery_prep(q, C, cs, n, focus, false, false, base, &memo, &st);
    varmemo_release(&memo);
    return st;
}

static solver_stats prep(squery *q, expr **cs, size_t n, size_t focus, const expr_env *base)
{
    prep_result r;
    solver_stats st = prep_as(q, cs, n, focus, base, &r);
    assert_int_equal(r, PREP_OK);
    return st;
}

static bool kept(const squery *q, const expr *e)
{
    for (size_t i = 0; i < q->n; i++)
        if (q->cs[i] == e)
            return true;
    return false;
}

/* while (100 < z) z--; from z = 1000: the bounds 100 <s z - i, i = 0..199,
 * and the negated next one as focus.  z - 199 > 100 implies z - i > 100
 * for i < 199 except where z - 199 wraps (z near INT_MAX + 199), which
 * z - 0 > 100 excludes: exactly those two stay. */
static void test_loop_bounds_keep_tightest_two(void **st)
{
    (void)st;
    uint8_t bytes[4] = {0xe8, 0x03, 0, 0}; /* 1000 */
    expr_env base = {bytes, 4, NULL, NULL, 0};
    expr *z = intn(0, 4), *cs[201];
    for (unsigned i = 0; i < 200; i++)
        cs[i] = bin(EXPR_SLT, k(32, 100), bin(EXPR_ADD, z, k(32, (uint64_t)-(int64_t)i)));
    cs[200] = bin(EXPR_SLE, bin(EXPR_ADD, z, k(32, (uint64_t)-200)), k(32, 100));
    squery q;
    solver_stats s = prep(&q, cs, 201, 200, &base);
    assert_int_equal(s.subsumed, 198);
    assert_int_equal(q.n, 3);
    assert_true(kept(&q, cs[0]));
    assert_true(kept(&q, cs[199]));
    assert_true(kept(&q, cs[200]));
    squery_release(&q);
    /* without the base run's values nothing is dropped */
    s = prep(&q, cs, 201, 200, NULL);
    assert_int_equal(s.subsumed, 0);
    assert_int_equal(q.n, 201);
    squery_release(&q);
}

/* mult(n, m) of Test-Comp's MultCommutative-2 after 200 recursions from
 * n = 13573: n <=s 46340 and 0 <=s n - k, k = 0..199.  The tightest pair
 * (n <=s 46340, 0 <=s n - 199) also allows n in [INT_MIN, INT_MIN + 199),
 * where n - 199 wraps; 0 <=s n excludes that: those three stay. */
static void test_pair_and_third_keep_the_rest_implied(void **st)
{
    (void)st;
    uint8_t bytes[4] = {0x05, 0x35, 0, 0}; /* 13573 */
    expr_env base = {bytes, 4, NULL, NULL, 0};
    expr *n = intn(0, 4), *cs[202];
    for (unsigned i = 0; i < 200; i++)
        cs[i] = bin(EXPR_SLE, k(32, 0), bin(EXPR_ADD, n, k(32, (uint64_t)-(int64_t)i)));
    cs[200] = bin(EXPR_SLE, n, k(32, 46340));
    cs[201] = bin(EXPR_EQ, bin(EXPR_ADD, n, k(32, (uint64_t)-200)), k(32, 0)); /* focus */
    squery q;
    solver_stats s = prep(&q, cs, 202, 201, &base);
    assert_int_equal(s.subsumed, 198);
    assert_true(kept(&q, cs[0]));
    assert_true(kept(&q, cs[199]));
    assert_true(kept(&q, cs[200]));
    squery_release(&q);
}

/* Three 8-bit bounds of t = in0 around p = 0: t <=u 200, t >=u 100 (does
 * not hold at p: kept), t != 5, t != 7.  Both != leave out one value each,
 * a pair of them allows a second arc, so nothing can go; adding t <=u 10
 * makes t <=u 200 redundant. */
static void test_second_arc_and_broken_bounds_kept(void **st)
{
    (void)st;
    uint8_t bytes[1] = {0};
    expr_env base = {bytes, 1, NULL, NULL, 0};
    expr *t = in(0);
    expr *cs[] = {bin(EXPR_ULE, t, k(8, 200)), bin(EXPR_ULE, k(8, 100), t),
                  bin(EXPR_NE, t, k(8, 5)), bin(EXPR_NE, t, k(8, 7)),
                  bin(EXPR_EQ, in(1), k(8, 1))};
    squery q;
    solver_stats s = prep(&q, cs, 5, 4, &base);
    assert_int_equal(s.subsumed, 0);
    assert_int_equal(q.n, 5);
    squery_release(&q);
    expr *more[] = {cs[0], cs[1], cs[2], cs[3], bin(EXPR_ULE, t, k(8, 10)), cs[4]};
    s = prep(&q, more, 6, 5, &base);
    assert_int_equal(s.subsumed, 1);
    assert_false(kept(&q, cs[0]));
    assert_true(kept(&q, cs[1]));
    squery_release(&q);
}

/* A loop that counts an input byte down to 0 (`while (x != 0) x--;`) from
 * x = 200 holds x != 200 - i for i < 150; the negation of the entry for
 * i = 150 is the focus x == 50, which implies every other: it alone
 * stays.  (A wider x compares byte by byte, an and of byte equalities,
 * which the layer does not read as a bound.) */
static void test_focus_implies_the_rest(void **st)
{
    (void)st;
    uint8_t bytes[1] = {200};
    expr_env base = {bytes, 1, NULL, NULL, 0};
    expr *x = in(0), *cs[151];
    for (unsigned i = 0; i < 150; i++)
        cs[i] = bin(EXPR_NE, x, k(8, 200 - i));
    cs[150] = bin(EXPR_EQ, x, k(8, 50));
    squery q;
    solver_stats s = prep(&q, cs, 151, 150, &base);
    assert_int_equal(s.subsumed, 150);
    assert_int_equal(q.n, 1);
    assert_true(kept(&q, cs[150]));
    squery_release(&q);
    /* the focus x <u 100 implies x != 200 .. x != 100, not x != 99 .. 51 */
    cs[150] = bin(EXPR_ULT, x, k(8, 100));
    s = prep(&q, cs, 151, 150, &base);
    assert_int_equal(s.subsumed, 101);
    for (unsigned i = 0; i < 150; i++)
        assert_int_equal(kept(&q, cs[i]), 200 - i < 100);
    squery_release(&q);
}

/* recursive-simple/id2_b3_o5: id(x) recurses while x != 0, x a 4-byte
 * int; from x = 1000 a path holds x != 1000 - i for i < 1000, and the
 * negation of the entry for i = 400 is the focus x == 600, built (and
 * split by normalisation) as four byte equalities.  They pin x: the 999
 * other constraints are implied, and x != 600 among them would make the
 * query unsatisfiable. */
static void test_pinned_bytes_imply_the_rest(void **st)
{
    (void)st;
    uint8_t bytes[4] = {0xe8, 0x03, 0, 0}; /* 1000 */
    expr_env base = {bytes, 4, NULL, NULL, 0};
    expr *x = intn(0, 4), *cs[1000];
    for (unsigned i = 0; i < 999; i++)
        cs[i] = bin(EXPR_NE, x, k(32, 1000 - (i < 400 ? i : i + 1)));
    cs[999] = bin(EXPR_EQ, x, k(32, 600));
    assert_int_equal(cs[999]->op, EXPR_AND); /* byte by byte */
    solver_stats s;
    memset(&s, 0, sizeof s);
    varmemo memo;
    memset(&memo, 0, sizeof memo);
    squery q;
    assert_int_equal(squery_prep(&q, C, cs, 1000, 999, true, false, &base, &memo, &s), PREP_OK);
    assert_int_equal(s.subsumed, 999);
    assert_int_equal(q.n, 4); /* the four byte equalities */
    for (size_t i = 0; i < q.n; i++)
        assert_true(q.focus[i]);
    squery_release(&q);
    cs[0] = bin(EXPR_NE, x, k(32, 600));
    assert_int_equal(squery_prep(&q, C, cs, 1000, 999, true, false, &base, &memo, &s), PREP_FALSE);
    squery_release(&q);
    varmemo_release(&memo);
}

static const expr_op CMP[] = {EXPR_EQ, EXPR_NE, EXPR_ULT, EXPR_ULE, EXPR_SLT, EXPR_SLE};

/* A random bound of t: cmp(t + a, K) or cmp(K, t + a). */
static expr *random_bound(rng *r, expr *t)
{
    expr_op op = CMP[rng_below(r, 6)];
    expr *s = bin(EXPR_ADD, t, k(8, rng_below(r, 4) ? rng_below(r, 256) : 0));
    expr *kc = k(8, rng_below(r, 256));
    return rng_below(r, 2) ? bin(op, s, kc) : bin(op, kc, s);
}

/* The values v of input byte 0 under which every cs[0..n) holds, as a
 * 256-entry mask. */
static void solutions(expr **cs, size_t n, bool *sol)
{
    uint8_t b[1];
    expr_env env = {b, 1, NULL, NULL, 0};
    expr_u128 *vals = ctg_malloc(n * sizeof *vals);
    assert_non_null(vals);
    for (unsigned v = 0; v < 256; v++) {
        b[0] = (uint8_t)v;
        assert_true(expr_eval(C, cs, n, &env, vals));
        sol[v] = true;
        for (size_t i = 0; i < n; i++)
            sol[v] = sol[v] && vals[i] == 1;
    }
    ctg_free(vals);
}

/* As the random families' checks need it: the kept constraints have
 * exactly the solutions of all cs[0..n), or prep found there are none. */
static void same_solutions(expr **cs, size_t n, size_t focus, const expr_env *base,
                           uint64_t *dropped)
{
    squery q;
    prep_result r;
    solver_stats s = prep_as(&q, cs, n, focus, base, &r);
    bool all[256], left[256];
    solutions(cs, n, all);
    if (r == PREP_FALSE) {
        for (unsigned v = 0; v < 256; v++)
            assert_false(all[v]);
    } else {
        assert_int_equal(r, PREP_OK);
        *dropped += s.subsumed;
        assert_int_equal(q.n + s.subsumed, n);
        solutions(q.cs, q.n, left);
        assert_memory_equal(all, left, sizeof all);
    }
    squery_release(&q);
}

/* 3,000 families of 3-14 random bounds of in0, of in0 * 3 or of in0 ^ 0x5a,
 * most of them holding in the base run (as on a path), one of them the
 * focus: the kept constraints have exactly the solutions of all. */
static void test_random_bounds_keep_solutions(void **st)
{
    (void)st;
    rng r;
    rng_seed(&r, 4);
    uint64_t dropped = 0;
    for (int round = 0; round < 3000; round++) {
        uint8_t p[1] = {(uint8_t)rng_below(&r, 256)};
        expr_env base = {p, 1, NULL, NULL, 0};
        expr *t = in(0);
        if (round % 3 == 1)
            t = bin(EXPR_MUL, t, k(8, 3));
        else if (round % 3 == 2)
            t = bin(EXPR_XOR, t, k(8, 0x5a));
        expr *cs[14];
        size_t n = 3 + rng_below(&r, 12);
        for (size_t i = 0; i < n; i++) {
            expr_u128 v;
            do {
                cs[i] = random_bound(&r, t);
                assert_true(expr_eval(C, &cs[i], 1, &base, &v));
            } while (expr_is_const(cs[i]) || (v != 1 && rng_below(&r, 8)));
        }
        same_solutions(cs, n, rng_below(&r, n), &base, &dropped);
    }
    assert_true(dropped > 3000); /* the check above saw real drops */
}

/* 3,000 families of 1-3 plain bounds of in0 and 2-12 bounds of random
 * multiples of in0 (in0 * m + a, m in 2..255: -in0, 2 * in0, 128 * in0,
 * ...), most holding in the base run, one the focus: the kept constraints
 * have exactly the solutions of all. */
static void test_random_multiples_keep_solutions(void **st)
{
    (void)st;
    rng r;
    rng_seed(&r, 5);
    uint64_t dropped = 0;
    for (int round = 0; round < 3000; round++) {
        uint8_t p[1] = {(uint8_t)rng_below(&r, 256)};
        expr_env base = {p, 1, NULL, NULL, 0};
        expr *cs[15];
        size_t plain = 1 + rng_below(&r, 3), n = plain + 2 + rng_below(&r, 11);
        for (size_t i = 0; i < n; i++) {
            expr_u128 v;
            do {
                expr *t = in(0);
                if (i >= plain)
                    t = bin(EXPR_MUL, t, k(8, 2 + rng_below(&r, 254)));
                cs[i] = random_bound(&r, t);
                assert_true(expr_eval(C, &cs[i], 1, &base, &v));
            } while (expr_is_const(cs[i]) || (v != 1 && rng_below(&r, 8)));
        }
        same_solutions(cs, n, rng_below(&r, n), &base, &dropped);
    }
    assert_true(dropped > 500); /* 826: most random plain bounds leave wide arcs */
}

/* gsv2008's loop, x = -50; while (x < 0) { x = x + y; y++; } with y from
 * the input in (-1000, 1000000), run from y = -20 (43 iterations): the
 * builder keeps x as k * y + c, and of the 43 bounds x <s 0 one stays,
 * the tightest (y <= -20), with the tighter plain bound of each side and
 * the focus (the loop's exit, negated). */
static void test_accumulator_multiples_keep_tightest(void **st)
{
    (void)st;
    uint8_t bytes[4] = {0xec, 0xff, 0xff, 0xff}; /* -20 */
    expr_env base = {bytes, 4, NULL, NULL, 0};
    expr *y = intn(0, 4), *x = k(32, (uint64_t)-50), *cs[64];
    size_t n = 0;
    cs[n++] = bin(EXPR_SLT, k(32, (uint64_t)-1000), y);
    cs[n++] = bin(EXPR_SLT, y, k(32, 1000000));
    expr *yi = y;
    x = bin(EXPR_ADD, x, yi); /* x_0 = -50 <s 0 holds on every path */
    yi = bin(EXPR_ADD, yi, k(32, 1));
    for (;;) {
        expr *go = bin(EXPR_SLT, x, k(32, 0));
        expr_u128 v;
        assert_true(expr_eval(C, &go, 1, &base, &v));
        if (!v) {
            cs[n++] = go; /* the focus: stay in the loop once more */
            break;
        }
        cs[n++] = go;
        x = bin(EXPR_ADD, x, yi);
        yi = bin(EXPR_ADD, yi, k(32, 1));
        assert_true(n < 64);
    }
    assert_int_equal(n, 2 + 43 + 1); /* x_1 .. x_43 <s 0, then x_44 = 16 */
    assert_int_equal(x->op, EXPR_ADD); /* -50 + 44 * y + 946 */
    assert_int_equal(x->args[0]->op, EXPR_MUL);
    assert_ptr_equal(x->args[0]->args[0], y);
    assert_int_equal(x->args[0]->args[1]->val, 44);
    squery q;
    solver_stats s = prep(&q, cs, n, n - 1, &base);
    assert_int_equal(q.n + s.subsumed, n);
    assert_int_equal(q.n, 4);
    assert_true(kept(&q, cs[0]));     /* -1000 <s y */
    assert_true(kept(&q, cs[2]));     /* x_1 = y - 50 <s 0, which implies y <s 1000000 */
    assert_true(kept(&q, cs[n - 1]));
    uint8_t m19[4] = {0xed, 0xff, 0xff, 0xff}; /* the fourth: an x_k <s 0 with y <= -20 */
    expr_env env = {m19, 4, NULL, NULL, 0};
    for (size_t i = 0; i < q.n; i++) {
        expr_u128 v;
        assert_true(expr_eval(C, &q.cs[i], 1, &env, &v));
        if (q.cs[i] != cs[n - 1])
            assert_int_equal(v, q.cs[i] != cs[0] && q.cs[i] != cs[2] ? 0 : 1);
    }
    squery_release(&q);
}

/* The query of `while (100 < z) z--;` after n iterations from z =
 * 10000 (bytes 0-3): the bounds 100 <s z - i, then the focus 100000 <s z
 * (ctg_malloc'd, n + 1 constraints). */
static expr **loop_query(unsigned n)
{
    expr *z = intn(0, 4), **cs = ctg_malloc((n + 1) * sizeof *cs);
    assert_non_null(cs);
    for (unsigned i = 0; i < n; i++)
        cs[i] = bin(EXPR_SLT, k(32, 100), bin(EXPR_ADD, z, k(32, (uint64_t)-(int64_t)i)));
    cs[n] = bin(EXPR_SLT, k(32, 100000), z);
    return cs;
}

/* The whole solver on the loop's query of 2,000 bounds: sat, and the
 * model passes every bound, though only the tightest reached Z3. */
static void test_solver_answers_loop_query(void **st)
{
    (void)st;
    uint8_t bytes[4] = {0x10, 0x27, 0, 0}; /* 10000 */
    expr_env base = {bytes, 4, NULL, NULL, 0};
    enum { N = 2000 };
    expr **cs = loop_query(N);
    ctg_err e;
    solver *s = solver_new(NULL, &e);
    assert_non_null(s);
    solver_model m = SOLVER_MODEL_INIT;
    assert_int_equal(solver_solve(s, C, cs, N + 1, N, &base, &m, &e), SOLVER_SAT);
    uint8_t got[4] = {0};
    for (size_t i = 0; i < m.n; i++)
        if (m.v[i].key < 4)
            got[m.v[i].key] = (uint8_t)m.v[i].val;
    expr_env env = {got, 4, NULL, NULL, 0};
    expr_u128 *vals = ctg_malloc((N + 1) * sizeof *vals);
    assert_non_null(vals);
    assert_true(expr_eval(C, cs, N + 1, &env, vals));
    for (unsigned i = 0; i <= N; i++)
        assert_int_equal(vals[i], 1);
    assert_true(solver_get_stats(s)->subsumed >= N - 2);
    ctg_free(vals);
    solver_model_release(&m);
    solver_free(s);
    ctg_free(cs);
}

/* With subsumption off, the same query of 4,000 bounds makes Z3 work
 * for about 40 s inside Z3_solver_push, outside Z3's own timeout: the
 * query's 100 ms timeout still stops it (the watchdog), as a timeout. */
static void test_timeout_bounds_the_push(void **st)
{
    (void)st;
    uint8_t bytes[4] = {0x10, 0x27, 0, 0};
    expr_env base = {bytes, 4, NULL, NULL, 0};
    enum { N = 4000 };
    expr **cs = loop_query(N);
    solver_opts o;
    solver_opts_default(&o);
    o.subsume = false;
    o.timeout_ms = 100;
    ctg_err e;
    solver *s = solver_new(&o, &e);
    assert_non_null(s);
    solver_model m = SOLVER_MODEL_INIT;
    assert_int_equal(solver_solve(s, C, cs, N + 1, N, &base, &m, &e), SOLVER_SKIP);
    const solver_stats *ss = solver_get_stats(s);
    assert_int_equal(ss->timeout, 1);
    assert_int_equal(ss->subsumed, 0);
    assert_true(ss->backend_secs < 20.0); /* unbounded: about 40 s */
    solver_model_release(&m);
    solver_free(s);
    ctg_free(cs);
}

/* Slicing on a path whose constraints hold one loop's accumulator (each
 * a product one step longer): the constraints of the chain stay, the one
 * on an unrelated byte goes; so does one on a sum of 100 bytes (more
 * variables than inner nodes keep) when nothing links it to the focus,
 * and it stays when the focus reads one of its bytes. */
static void test_slice_on_accumulator_chains(void **st)
{
    (void)st;
    enum { N = 3000 };
    expr **cs = ctg_malloc((N + 3) * sizeof *cs);
    assert_non_null(cs);
    expr *z = intn(0, 4), *y = z;
    for (unsigned i = 0; i < N; i++) {
        y = bin(EXPR_MUL, y, z);
        cs[i] = bin(EXPR_NE, y, k(32, 7));
    }
    expr *sum = in(10);
    for (unsigned i = 11; i < 110; i++)
        sum = bin(EXPR_ADD, sum, in(i));
    cs[N] = bin(EXPR_EQ, sum, k(8, 5));
    cs[N + 1] = bin(EXPR_EQ, in(200), k(8, 1));
    cs[N + 2] = bin(EXPR_ULT, z, k(32, 9)); /* the focus */
    solver_stats s;
    memset(&s, 0, sizeof s);
    varmemo memo;
    memset(&memo, 0, sizeof memo);
    squery q;
    assert_int_equal(squery_prep(&q, C, cs, N + 3, N + 2, false, true, NULL, &memo, &s), PREP_OK);
    assert_int_equal(q.n, N + 1);
    assert_int_equal(s.sliced_away, 2);
    squery_release(&q);
    expr *b50 = expr_cast(C, EXPR_ZEXT, in(50), 32);
    cs[N + 2] = bin(EXPR_ULT, bin(EXPR_ADD, z, b50), k(32, 9)); /* byte 50 of the sum too */
    memset(&s, 0, sizeof s);
    assert_int_equal(squery_prep(&q, C, cs, N + 3, N + 2, false, true, NULL, &memo, &s), PREP_OK);
    assert_int_equal(q.n, N + 2);
    assert_int_equal(s.sliced_away, 1);
    assert_true(kept(&q, cs[N]));
    assert_false(kept(&q, cs[N + 1]));
    squery_release(&q);
    varmemo_release(&memo);
    ctg_free(cs);
}

/* A query with 300 products of two 64-bit input terms (300 * 64^2 above
 * the 2^20 a 5 s query may hold) is not asked: skip, counted too large;
 * one with 100 is asked (its 100 ms timeout may run out). */
static void test_too_large_not_asked(void **st)
{
    (void)st;
    uint8_t bytes[8] = {3};
    expr_env base = {bytes, 8, NULL, NULL, 0};
    expr *z = in(0);
    for (unsigned i = 1; i < 8; i++)
        z = bin(EXPR_CONCAT, in(i), z);
    static const unsigned counts[] = {300, 100};
    for (unsigned c = 0; c < 2; c++) {
        unsigned products = counts[c];
        expr *y = z;
        for (unsigned i = 0; i < products; i++)
            y = bin(EXPR_MUL, y, bin(EXPR_ADD, z, k(64, i + 1)));
        expr *cs[2] = {bin(EXPR_NE, z, k(64, 0)), bin(EXPR_EQ, y, k(64, 12345))};
        solver_opts o;
        solver_opts_default(&o);
        o.timeout_ms = products == 300 ? 5000 : 100;
        ctg_err e;
        solver *s = solver_new(&o, &e);
        assert_non_null(s);
        solver_model m = SOLVER_MODEL_INIT;
        solver_result r = solver_solve(s, C, cs, 2, 1, &base, &m, &e);
        const solver_stats *ss = solver_get_stats(s);
        if (products == 300) {
            assert_int_equal(r, SOLVER_SKIP);
            assert_int_equal(ss->too_large, 1);
            assert_int_equal(ss->sat + ss->unsat + ss->timeout + ss->unknown, 0);
        } else {
            assert_int_not_equal(r, SOLVER_FAIL);
            assert_int_equal(ss->too_large, 0);
            assert_int_equal(ss->sat + ss->unsat + ss->timeout + ss->unknown + ss->error, 1);
        }
        solver_model_release(&m);
        solver_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_loop_bounds_keep_tightest_two, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pair_and_third_keep_the_rest_implied, setup, teardown),
        cmocka_unit_test_setup_teardown(test_second_arc_and_broken_bounds_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_focus_implies_the_rest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pinned_bytes_imply_the_rest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_bounds_keep_solutions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random_multiples_keep_solutions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_accumulator_multiples_keep_tightest, setup, teardown),
        cmocka_unit_test_setup_teardown(test_solver_answers_loop_query, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout_bounds_the_push, setup, teardown),
        cmocka_unit_test_setup_teardown(test_slice_on_accumulator_chains, setup, teardown),
        cmocka_unit_test_setup_teardown(test_too_large_not_asked, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
