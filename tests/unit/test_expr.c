/*
 * test_expr.c - unit tests of src/expr: hash-consing, each simplification
 * rule, folding against C arithmetic (incl. division/shift corner cases),
 * random terms where simplification must not change the value, evaluation,
 * printing and allocation failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/mem.h"
#include "base/rng.h"
#include "expr/expr.h"
#include "expr_fixture.h"

/* 32-bit little-endian int from input bytes i..i+3. */
static expr *int32_at(uint32_t i) { return intn(i, 4); }

static void assert_const(expr *e, unsigned w, uint64_t v)
{
    assert_non_null(e);
    assert_int_equal(e->op, EXPR_CONST);
    assert_int_equal(e->width, w);
    assert_true(e->val == v);
}

/* ---- hash-consing ------------------------------------------------------------ */

static void test_hash_consing(void **st)
{
    (void)st;
    expr *a = bin(EXPR_ADD, int32_at(0), int32_at(4));
    expr *b = bin(EXPR_ADD, int32_at(0), int32_at(4));
    assert_ptr_equal(a, b);
    assert_ptr_equal(bin(EXPR_ADD, int32_at(4), int32_at(0)), a); /* commutative order */
    assert_ptr_not_equal(bin(EXPR_SUB, int32_at(0), int32_at(4)), a);
    size_t n = expr_ctx_nodes(C);
    assert_ptr_equal(bin(EXPR_MUL, int32_at(0), k(32, 3)), bin(EXPR_MUL, k(32, 3), int32_at(0)));
    assert_int_equal(expr_ctx_nodes(C), n + 2); /* the constant and the product */

    /* structural hashes are equal across contexts */
    expr_ctx *d = expr_ctx_new();
    expr *x = expr_binop(d, EXPR_ADD, expr_input(d, 9), expr_input(d, 1));
    expr *y = bin(EXPR_ADD, in(1), in(9));
    assert_true(x->hash == y->hash);
    expr_ctx_free(d);
    expr_ctx_free(NULL);
}

/* ---- simplification rules ------------------------------------------------------ */

static void test_simp_arith(void **st)
{
    (void)st;
    expr *x = int32_at(0), *y = int32_at(4);
    assert_ptr_equal(bin(EXPR_ADD, x, k(32, 0)), x);
    assert_ptr_equal(bin(EXPR_MUL, x, k(32, 1)), x);
    assert_const(bin(EXPR_MUL, x, k(32, 0)), 32, 0);
    assert_const(bin(EXPR_XOR, x, x), 32, 0);
    assert_const(bin(EXPR_SUB, x, x), 32, 0);
    assert_ptr_equal(bin(EXPR_OR, x, x), x);
    assert_ptr_equal(bin(EXPR_AND, x, x), x);
    assert_ptr_equal(bin(EXPR_AND, x, k(32, 0xffffffff)), x);
    assert_const(bin(EXPR_AND, x, k(32, 0)), 32, 0);
    assert_const(bin(EXPR_OR, x, k(32, 0xffffffff)), 32, 0xffffffff);
    assert_const(bin(EXPR_AND, x, expr_unop(C, EXPR_NOT, x)), 32, 0);
    assert_ptr_equal(expr_unop(C, EXPR_NOT, expr_unop(C, EXPR_NOT, x)), x);
    assert_ptr_equal(expr_unop(C, EXPR_NEG, expr_unop(C, EXPR_NEG, x)), x);
    assert_ptr_equal(bin(EXPR_XOR, x, k(32, 0xffffffff)), expr_unop(C, EXPR_NOT, x));
    assert_ptr_equal(bin(EXPR_UDIV, x, k(32, 1)), x);
    assert_const(bin(EXPR_UREM, x, k(32, 1)), 32, 0);
    assert_const(bin(EXPR_SREM, x, k(32, 0xffffffff)), 32, 0);
    /* constants are merged and float out of sums */
    expr *s = bin(EXPR_ADD, bin(EXPR_ADD, x, k(32, 5)), k(32, 7));
    assert_ptr_equal(s, bin(EXPR_ADD, x, k(32, 12)));
    expr *t = bin(EXPR_ADD, bin(EXPR_ADD, x, k(32, 5)), y);
    assert_int_equal(t->op, EXPR_ADD);
    assert_const(t->args[1], 32, 5);
    assert_ptr_equal(bin(EXPR_SUB, x, k(32, 1)), bin(EXPR_ADD, x, k(32, 0xffffffff)));
    assert_ptr_equal(bin(EXPR_SUB, bin(EXPR_ADD, x, y), y), x);
    assert_ptr_equal(bin(EXPR_MUL, bin(EXPR_MUL, x, k(32, 3)), k(32, 5)), bin(EXPR_MUL, x, k(32, 15)));
    assert_ptr_equal(bin(EXPR_UDIV, x, k(32, 16)), bin(EXPR_LSHR, x, k(32, 4)));
    assert_ptr_equal(bin(EXPR_UREM, x, k(32, 16)), bin(EXPR_AND, x, k(32, 15)));
    /* sums of one term's multiples are one multiple (x = x + y; y++ in a loop) */
    expr *x3 = bin(EXPR_MUL, x, k(32, 3));
    assert_ptr_equal(bin(EXPR_ADD, x, x), bin(EXPR_MUL, x, k(32, 2)));
    assert_ptr_equal(bin(EXPR_ADD, x3, x), bin(EXPR_MUL, x, k(32, 4)));
    assert_ptr_equal(bin(EXPR_SUB, x, x3), bin(EXPR_MUL, x, k(32, (uint32_t)-2)));
    assert_const(bin(EXPR_ADD, expr_unop(C, EXPR_NEG, x), x), 32, 0);
    assert_const(bin(EXPR_ADD, x3, bin(EXPR_MUL, x, k(32, (uint32_t)-3))), 32, 0);
    assert_ptr_equal(bin(EXPR_ADD, bin(EXPR_ADD, y, x3), x), bin(EXPR_ADD, y, bin(EXPR_MUL, x, k(32, 4))));
    expr *acc = k(32, (uint32_t)-50), *yi = x;
    for (int i = 0; i < 100; i++) {
        acc = bin(EXPR_ADD, acc, yi);
        yi = bin(EXPR_ADD, yi, k(32, 1));
    }
    assert_ptr_equal(acc, bin(EXPR_ADD, bin(EXPR_MUL, x, k(32, 100)), k(32, 4950 - 50)));
}

static void test_simp_bits(void **st)
{
    (void)st;
    expr *x = int32_at(0);
    /* zext/trunc chains */
    expr *b = in(3);
    expr *z = expr_cast(C, EXPR_ZEXT, expr_cast(C, EXPR_ZEXT, b, 16), 32);
    assert_int_equal(z->op, EXPR_ZEXT);
    assert_ptr_equal(z->args[0], b);
    assert_ptr_equal(expr_trunc(C, z, 8), b);
    assert_const(expr_extract(C, z, 8, 8), 8, 0);
    assert_ptr_equal(expr_cast(C, EXPR_SEXT, expr_cast(C, EXPR_SEXT, b, 16), 64),
                     expr_cast(C, EXPR_SEXT, b, 64));
    assert_ptr_equal(expr_cast(C, EXPR_SEXT, z, 64), expr_cast(C, EXPR_ZEXT, b, 64));
    assert_ptr_equal(expr_cast(C, EXPR_ZEXT, b, 8), b);
    /* extract of concat, concat of adjacent extracts */
    assert_ptr_equal(expr_extract(C, x, 8, 8), in(1));
    assert_ptr_equal(expr_extract(C, expr_extract(C, x, 8, 16), 8, 8), in(2));
    expr *w = bin(EXPR_ADD, x, int32_at(4)); /* opaque 32-bit term */
    expr *hi = expr_extract(C, w, 16, 16), *lo = expr_extract(C, w, 0, 16);
    assert_ptr_equal(bin(EXPR_CONCAT, hi, lo), w);
    assert_ptr_equal(bin(EXPR_CONCAT, expr_extract(C, w, 24, 8),
                         bin(EXPR_CONCAT, expr_extract(C, w, 16, 8), lo)), w);
    assert_ptr_equal(bin(EXPR_CONCAT, k(24, 0), b), expr_cast(C, EXPR_ZEXT, b, 32));
    /* shifts and masks by constants */
    assert_ptr_equal(bin(EXPR_LSHR, x, k(32, 24)), expr_cast(C, EXPR_ZEXT, in(3), 32));
    assert_const(bin(EXPR_SHL, x, k(32, 32)), 32, 0);
    assert_const(bin(EXPR_LSHR, x, k(32, 40)), 32, 0);
    assert_ptr_equal(bin(EXPR_AND, x, k(32, 0xff)), expr_cast(C, EXPR_ZEXT, in(0), 32));
    assert_ptr_equal(bin(EXPR_SHL, x, k(32, 0)), x);
    /* byte assembly: (zext(b1) << 8) | zext(b0) == concat(b1, b0) */
    expr *asm16 = bin(EXPR_OR, bin(EXPR_SHL, expr_cast(C, EXPR_ZEXT, in(1), 16), k(16, 8)),
                      expr_cast(C, EXPR_ZEXT, in(0), 16));
    assert_ptr_equal(asm16, bin(EXPR_CONCAT, in(1), in(0)));
}

static void test_simp_cmp(void **st)
{
    (void)st;
    expr *x = int32_at(0), *y = int32_at(4);
    assert_true(expr_is_true(bin(EXPR_EQ, x, x)));
    assert_true(expr_is_false(bin(EXPR_ULT, x, x)));
    assert_true(expr_is_true(bin(EXPR_SLE, x, x)));
    assert_true(expr_is_false(bin(EXPR_ULT, x, k(32, 0))));
    assert_true(expr_is_true(bin(EXPR_ULE, k(32, 0), x)));
    assert_true(expr_is_false(bin(EXPR_SLT, x, k(32, 0x80000000))));
    assert_true(expr_is_true(bin(EXPR_EQ, k(32, 4), k(32, 4))));
    assert_true(expr_is_false(bin(EXPR_SLT, k(32, 4), k(32, 0xfffffffc)))); /* 4 < -4 */
    /* not of a comparison is the inverse comparison */
    expr *lt = bin(EXPR_ULT, x, y);
    assert_ptr_equal(expr_not(C, lt), bin(EXPR_ULE, y, x));
    expr *eq = bin(EXPR_EQ, x, y);
    expr *ne = expr_not(C, eq);
    assert_int_equal(ne->op, EXPR_NE);
    assert_ptr_equal(expr_not(C, ne), eq);
    assert_ptr_equal(bin(EXPR_NE, x, y), ne);
    assert_ptr_equal(expr_icmp(C, 34 /* ugt */, x, y), bin(EXPR_ULT, y, x));
    /* constants pushed through invertible ops */
    assert_ptr_equal(bin(EXPR_EQ, bin(EXPR_ADD, x, k(32, 3)), k(32, 10)), bin(EXPR_EQ, x, k(32, 7)));
    assert_ptr_equal(bin(EXPR_EQ, bin(EXPR_XOR, x, k(32, 3)), k(32, 10)), bin(EXPR_EQ, x, k(32, 9)));
    /* comparisons of extensions with constants */
    expr *zc = expr_cast(C, EXPR_ZEXT, in(0), 32);
    assert_true(expr_is_false(bin(EXPR_EQ, zc, k(32, 300))));
    assert_ptr_equal(bin(EXPR_EQ, zc, k(32, 65)), bin(EXPR_EQ, in(0), k(8, 65)));
    assert_true(expr_is_true(bin(EXPR_ULT, zc, k(32, 256))));
    assert_ptr_equal(bin(EXPR_SLT, zc, k(32, 97)), bin(EXPR_ULT, in(0), k(8, 97)));
    assert_true(expr_is_false(bin(EXPR_SLT, zc, k(32, 0))));
    expr *sc = expr_cast(C, EXPR_SEXT, in(0), 32);
    assert_true(expr_is_true(bin(EXPR_SLT, sc, k(32, 128))));
    assert_true(expr_is_false(bin(EXPR_SLT, sc, k(32, (uint32_t)-128))));
    assert_ptr_equal(bin(EXPR_SLE, k(32, (uint32_t)-5), sc), bin(EXPR_SLE, k(8, 0xfb), in(0)));
    assert_true(expr_is_false(bin(EXPR_EQ, sc, k(32, 200))));
    assert_ptr_equal(bin(EXPR_EQ, sc, k(32, (uint32_t)-2)), bin(EXPR_EQ, in(0), k(8, 0xfe)));
    /* equality of a concatenation splits per part */
    expr *e = bin(EXPR_EQ, x, k(32, 0xdeadbeef));
    assert_int_equal(e->op, EXPR_AND);
    /* width-1 equalities and ite of constants */
    expr *q = bin(EXPR_ULT, x, y);
    assert_ptr_equal(bin(EXPR_EQ, q, k(1, 1)), q);
    assert_ptr_equal(bin(EXPR_EQ, q, k(1, 0)), expr_not(C, q));
    expr *ite = expr_ite(C, q, k(32, 1), k(32, 0));
    assert_ptr_equal(bin(EXPR_NE, ite, k(32, 0)), q);
    assert_ptr_equal(bin(EXPR_EQ, expr_cast(C, EXPR_ZEXT, q, 32), k(32, 0)), expr_not(C, q));
    assert_ptr_equal(expr_ite(C, q, x, x), x);
    assert_ptr_equal(expr_ite(C, k(1, 1), x, y), x);
    assert_ptr_equal(expr_ite(C, expr_not(C, eq), x, y), expr_ite(C, eq, y, x));
    assert_ptr_equal(expr_ite(C, q, k(1, 1), k(1, 0)), q);
    /* boolean connectives */
    assert_ptr_equal(expr_and(C, q, expr_bool(C, true)), q);
    assert_true(expr_is_false(expr_and(C, q, expr_bool(C, false))));
    assert_true(expr_is_true(expr_or(C, q, expr_not(C, q))));
    expr *dm = expr_not(C, expr_or(C, q, eq));
    assert_int_equal(dm->op, EXPR_AND); /* De Morgan */
}

static void test_simp_arrays(void **st)
{
    (void)st;
    expr *a0 = expr_arr_const(C, 0);
    expr *i = expr_cast(C, EXPR_ZEXT, in(0), 64);
    expr *a1 = expr_store(C, a0, k(64, 2), in(5));
    expr *a2 = expr_store(C, a1, k(64, 1), k(8, 7));
    assert_ptr_equal(expr_select(C, a2, k(64, 2)), in(5));
    assert_const(expr_select(C, a2, k(64, 1)), 8, 7);
    assert_const(expr_select(C, a2, k(64, 9)), 8, 0);
    assert_const(expr_select(C, a0, i), 8, 0);
    expr *s = expr_select(C, a2, i);
    assert_int_equal(s->op, EXPR_SELECT);
    assert_true(s->flags & EXPR_F_ARRAY);
    assert_ptr_equal(expr_store(C, a0, k(64, 3), k(8, 0)), a0); /* storing the default */
    assert_ptr_equal(expr_store(C, expr_store(C, a0, i, in(1)), i, in(2)), expr_store(C, a0, i, in(2)));
    assert_ptr_equal(expr_select(C, expr_store(C, a2, i, in(3)), i), in(3));
    assert_null(expr_select(C, a2, k(32, 1))); /* index must be 64 bits */
    assert_int_equal(expr_ctx_status(C), EXPR_EINVAL);
}

static void test_invalid(void **st)
{
    (void)st;
    assert_null(bin(EXPR_ADD, int32_at(0), in(1)));
    assert_int_equal(expr_ctx_status(C), EXPR_EINVAL);
    assert_null(expr_extract(C, in(0), 4, 8));
    assert_null(expr_cast(C, EXPR_ZEXT, int32_at(0), 16));
    assert_null(expr_const(C, 0, 1));
    assert_null(expr_const(C, 129, 1));
    assert_null(expr_cast(C, EXPR_FPEXT, int32_at(0), 32));
    assert_null(expr_ite(C, in(0), in(1), in(2)));
    assert_non_null(expr_var(C, 0, 32));
    assert_null(expr_var(C, 0, 64)); /* one width per id */
    assert_null(bin(EXPR_ADD, NULL, in(1)));
    assert_null(expr_icmp(C, 99, in(0), in(1)));
    assert_null(expr_fcmp(C, 1, in(0), in(1)));
}

/* ---- folding against C ----------------------------------------------------------- */

/* One random operand: mostly corner values, sometimes anything. */
static uint64_t pick(rng *r, unsigned w)
{
    static const uint64_t corner[] = {0, 1, 2, 7, 0x7f, 0x80, 0xff, 0x7fff, 0x8000, 0x7fffffff,
                                      0x80000000, 0xffffffff, 0x7fffffffffffffffULL,
                                      0x8000000000000000ULL, ~0ULL};
    uint64_t v = rng_chance(r, 0.4) ? corner[rng_below(r, sizeof corner / sizeof *corner)]
                                    : rng_next(r) >> rng_below(r, 64);
    if (rng_chance(r, 0.2))
        v = -v;
    return w == 64 ? v : v & ((1ULL << w) - 1);
}

static int64_t sx(uint64_t v, unsigned w)
{
    return w == 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* Expected result per op, C arithmetic where defined, SMT-LIB elsewhere. */
static uint64_t ref(expr_op op, unsigned w, uint64_t a, uint64_t b)
{
    uint64_t m = w == 64 ? ~0ULL : (1ULL << w) - 1;
    int64_t sa = sx(a, w), sb = sx(b, w), smin = w == 64 ? INT64_MIN : -(1LL << (w - 1));
    switch (op) {
    case EXPR_ADD: return (a + b) & m;
    case EXPR_SUB: return (a - b) & m;
    case EXPR_MUL: return (a * b) & m;
    case EXPR_UDIV: return b ? a / b : m;
    case EXPR_UREM: return b ? a % b : a;
    case EXPR_SDIV:
        if (!b)
            return sa < 0 ? 1 : m;
        if (sa == smin && sb == -1)
            return a;
        return (uint64_t)(sa / sb) & m;
    case EXPR_SREM:
        if (!b)
            return a;
        if (sa == smin && sb == -1)
            return 0;
        return (uint64_t)(sa % sb) & m;
    case EXPR_SHL: return b >= w ? 0 : (a << b) & m;
    case EXPR_LSHR: return b >= w ? 0 : a >> b;
    case EXPR_ASHR: return b >= w ? (sa < 0 ? m : 0) : (uint64_t)(sa >> b) & m;
    case EXPR_AND: return a & b;
    case EXPR_OR: return a | b;
    case EXPR_XOR: return a ^ b;
    case EXPR_EQ: return a == b;
    case EXPR_ULT: return a < b;
    case EXPR_ULE: return a <= b;
    case EXPR_SLT: return sa < sb;
    case EXPR_SLE: return sa <= sb;
    default: return 0;
    }
}

static void test_fold_vs_c(void **st)
{
    (void)st;
    static const expr_op ops[] = {EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_UDIV, EXPR_UREM, EXPR_SDIV,
                                  EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR, EXPR_AND, EXPR_OR,
                                  EXPR_XOR, EXPR_EQ, EXPR_ULT, EXPR_ULE, EXPR_SLT, EXPR_SLE};
    static const unsigned widths[] = {1, 8, 16, 32, 64, 5};
    rng r;
    rng_seed(&r, 42);
    for (int it = 0; it < 20000; it++) {
        expr_op op = ops[rng_below(&r, sizeof ops / sizeof *ops)];
        unsigned w = widths[rng_below(&r, 6)];
        uint64_t a = pick(&r, w), b = pick(&r, w);
        if ((op == EXPR_SHL || op == EXPR_LSHR || op == EXPR_ASHR) && rng_chance(&r, 0.7))
            b = rng_below(&r, w + 3) & ((w == 64) ? ~0ULL : (1ULL << w) - 1);
        expr *e = bin(op, k(w, a), k(w, b));
        unsigned rw = (op >= EXPR_EQ) ? 1 : w;
        if (e->op != EXPR_CONST || e->val != ref(op, w, a, b))
            fail_msg("op %s w %u a %#llx b %#llx: got %#llx want %#llx", expr_op_name(op), w,
                     (unsigned long long)a, (unsigned long long)b, (unsigned long long)e->val,
                     (unsigned long long)ref(op, w, a, b));
        assert_int_equal(e->width, rw);
    }
    /* the classic corners, spelled out */
    assert_const(bin(EXPR_SDIV, k(32, 0x80000000), k(32, 0xffffffff)), 32, 0x80000000);
    assert_const(bin(EXPR_SREM, k(32, 0x80000000), k(32, 0xffffffff)), 32, 0);
    assert_const(bin(EXPR_UDIV, k(8, 9), k(8, 0)), 8, 0xff);
    assert_const(bin(EXPR_SDIV, k(8, 0xf7), k(8, 0)), 8, 1);
    assert_const(bin(EXPR_SREM, k(8, 0xf7), k(8, 4)), 8, 0xff); /* -9 % 4 = -1 */
    assert_const(bin(EXPR_SDIV, k(8, 0xf7), k(8, 4)), 8, 0xfe); /* -9 / 4 = -2 */
}

/* ---- 128-bit and floating point ----------------------------------------------------- */

static void test_fold_wide_fp(void **st)
{
    (void)st;
    expr_u128 big = ((expr_u128)0x0123456789abcdefULL << 64) | 0xfedcba9876543210ULL;
    expr *a = expr_const(C, 128, big);
    assert_true(bin(EXPR_ADD, a, expr_const(C, 128, 1))->val == big + 1);
    assert_true(expr_extract(C, a, 64, 64)->val == 0x0123456789abcdefULL);
    assert_true(bin(EXPR_MUL, k(64, 0xffffffffffffffffULL), k(64, 2))->val == 0xfffffffffffffffeULL);
    expr *wide = expr_cast(C, EXPR_ZEXT, k(64, ~0ULL), 128);
    assert_true(bin(EXPR_MUL, wide, wide)->val == (expr_u128)~0ULL * ~0ULL);
    /* floating point folds as the host computes */
    float f1 = 1.5f, f2 = 2.25f, fr = f1 * f2;
    uint32_t u1, u2, ur;
    memcpy(&u1, &f1, 4);
    memcpy(&u2, &f2, 4);
    memcpy(&ur, &fr, 4);
    assert_const(bin(EXPR_FMUL, k(32, u1), k(32, u2)), 32, ur);
    assert_true(expr_is_true(expr_fcmp(C, 4 /* olt */, k(32, u1), k(32, u2))));
    double d = 1e10;
    uint64_t ud;
    memcpy(&ud, &d, 8);
    assert_const(expr_cast(C, EXPR_FPTOSI, k(64, ud), 64), 64, 10000000000ULL);
    assert_const(expr_cast(C, EXPR_FPTOSI, k(64, ud), 32), 32, 0); /* out of range: 0 */
    assert_true(expr_binop(C, EXPR_FADD, int32_at(0), int32_at(4))->flags & EXPR_F_INEXACT);
    assert_false(expr_cast(C, EXPR_FPTOSI, int32_at(0), 32)->flags & EXPR_F_INEXACT);
    expr *si = expr_cast(C, EXPR_SITOFP, k(32, (uint32_t)-3), 64);
    double r;
    memcpy(&r, &si->val, 8);
    assert_true(r == -3.0);
    expr *fx = expr_binop(C, EXPR_FADD, int32_at(0), k(32, u1));
    assert_true(fx->flags & EXPR_F_FP);
    assert_ptr_equal(expr_unop(C, EXPR_FNEG, expr_unop(C, EXPR_FNEG, fx)), fx);
    assert_ptr_equal(expr_not(C, expr_fcmp(C, 1, fx, k(32, 0))), expr_fcmp(C, 14, fx, k(32, 0)));
}

/* ---- random terms: simplification never changes the value ---------------------- */

typedef struct gen {
    rng r;
    bool concrete; /* leaves are constants of env instead of variables */
    const uint8_t *env;
    expr_ctx *c;
} gen;

static expr *gen_term(gen *g, unsigned w, int depth);

/* A leaf of width w: a constant, or input bytes (concatenated, cut to w). */
static expr *leaf(gen *g, unsigned w)
{
    uint64_t lo = pick(&g->r, 64), hi = pick(&g->r, 64);
    uint32_t at = (uint32_t)rng_below(&g->r, 8);
    if (rng_chance(&g->r, 0.3))
        return expr_const(g->c, w, ((expr_u128)hi << 64 | lo));
    expr *e = NULL;
    for (unsigned j = 0; j < (w + 7) / 8; j++) {
        expr *b = g->concrete ? expr_const(g->c, 8, g->env[at + j]) : expr_input(g->c, at + j);
        e = e ? expr_binop(g->c, EXPR_CONCAT, b, e) : b;
    }
    return expr_trunc(g->c, e, w);
}

static unsigned rnd_width(gen *g)
{
    static const unsigned ws[] = {1, 3, 8, 8, 16, 32, 32, 64, 128};
    return ws[rng_below(&g->r, sizeof ws / sizeof *ws)];
}

static expr *gen_cmp(gen *g, int depth)
{
    static const unsigned preds[] = {32, 33, 34, 35, 36, 37, 38, 39, 40, 41};
    unsigned w = rnd_width(g);
    expr *a = gen_term(g, w, depth - 1), *b = gen_term(g, w, depth - 1);
    return expr_icmp(g->c, preds[rng_below(&g->r, 10)], a, b);
}

static expr *gen_fp(gen *g, unsigned w, int depth)
{
    static const expr_op fops[] = {EXPR_FADD, EXPR_FSUB, EXPR_FMUL, EXPR_FDIV};
    expr_op op = fops[rng_below(&g->r, 4)];
    return expr_binop(g->c, op, gen_term(g, w, depth - 1), gen_term(g, w, depth - 1));
}

static expr *gen_term(gen *g, unsigned w, int depth)
{
    static const expr_op bops[] = {EXPR_ADD, EXPR_SUB, EXPR_MUL, EXPR_UDIV, EXPR_SDIV, EXPR_UREM,
                                   EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR, EXPR_AND, EXPR_OR,
                                   EXPR_XOR};
    if (depth <= 0 || rng_chance(&g->r, 0.15))
        return leaf(g, w);
    expr_ctx *c = g->c;
    switch (rng_below(&g->r, 10)) {
    case 0: return expr_unop(c, rng_chance(&g->r, 0.5) ? EXPR_NOT : EXPR_NEG, gen_term(g, w, depth - 1));
    case 1:
    case 2: {
        expr_op op = bops[rng_below(&g->r, 13)];
        expr *a = gen_term(g, w, depth - 1);
        expr *b = rng_chance(&g->r, 0.3) ? expr_const(c, w, rng_below(&g->r, w + 2))
                                         : gen_term(g, w, depth - 1);
        return expr_binop(c, op, a, b);
    }
    case 3: {
        expr *q = gen_cmp(g, depth);
        if (w == 1)
            return q;
        if (rng_chance(&g->r, 0.5))
            return expr_cast(c, EXPR_ZEXT, q, w);
        return expr_ite(c, q, gen_term(g, w, depth - 1), gen_term(g, w, depth - 1));
    }
    case 4: {
        unsigned extra = (unsigned)rng_below(&g->r, 9), w2 = w + extra > 128 ? 128 : w + extra;
        unsigned lo = (unsigned)rng_below(&g->r, w2 - w + 1);
        return expr_extract(c, gen_term(g, w2, depth - 1), lo, w);
    }
    case 5: {
        if (w == 1)
            return leaf(g, 1);
        unsigned w1 = 1 + (unsigned)rng_below(&g->r, w - 1);
        expr_op op = rng_chance(&g->r, 0.5) ? EXPR_ZEXT : EXPR_SEXT;
        return expr_cast(c, op, gen_term(g, w1, depth - 1), w);
    }
    case 6: {
        if (w == 1)
            return leaf(g, 1);
        unsigned w1 = 1 + (unsigned)rng_below(&g->r, w - 1);
        return expr_binop(c, EXPR_CONCAT, gen_term(g, w - w1, depth - 1), gen_term(g, w1, depth - 1));
    }
    case 7: {
        if (w != 8)
            return gen_term(g, w, depth - 1);
        expr *a = expr_arr_const(c, (uint8_t)rng_below(&g->r, 3));
        for (int i = 0; i < 3; i++) {
            expr *ix = expr_cast(c, EXPR_ZEXT, gen_term(g, 2, depth - 1), 64);
            a = expr_store(c, a, ix, gen_term(g, 8, depth - 1));
        }
        return expr_select(c, a, expr_cast(c, EXPR_ZEXT, gen_term(g, 2, depth - 1), 64));
    }
    case 8:
        if (w == 32 || w == 64)
            return gen_fp(g, w, depth);
        return gen_term(g, w, depth - 1);
    default: return gen_cmp(g, depth) && w == 1 ? gen_cmp(g, depth) : gen_term(g, w, depth - 1);
    }
}

static void test_random_terms(void **st)
{
    (void)st;
    rng er;
    rng_seed(&er, 7);
    int checked = 0;
    for (int it = 0; it < 3000; it++) {
        uint8_t env[32];
        for (int i = 0; i < 32; i++)
            env[i] = (uint8_t)pick(&er, 8);
        expr_ctx *cv = expr_ctx_new(), *cc = expr_ctx_new();
        gen gv = {.concrete = false, .env = env, .c = cv}, gc = {.concrete = true, .env = env, .c = cc};
        rng_seed(&gv.r, (uint64_t)it);
        rng_seed(&gc.r, (uint64_t)it);
        unsigned w = rnd_width(&gv);
        rnd_width(&gc);
        expr *tv = gen_term(&gv, w, 5), *tc = gen_term(&gc, w, 5);
        assert_non_null(tv);
        assert_non_null(tc);
        assert_int_equal(tv->width, tc->width);
        expr_env ee = {.bytes = env, .n_bytes = 32};
        expr_u128 v;
        assert_true(expr_eval(cv, &tv, 1, &ee, &v));
        assert_int_equal(tc->op, EXPR_CONST);
        {
            checked++;
            if (v != tc->val) {
                sbuf sb = SBUF_INIT;
                expr_print(tv, &sb, 2000);
                fail_msg("iteration %d: eval %#llx != folded %#llx for %s", it,
                         (unsigned long long)v, (unsigned long long)tc->val, sbuf_str(&sb));
            }
        }
        expr_ctx_free(cv);
        expr_ctx_free(cc);
    }
    assert_int_equal(checked, 3000);
}

/* ---- evaluation, variables, printing -------------------------------------------- */

static void test_eval_vars(void **st)
{
    (void)st;
    expr *len = expr_var(C, 0, 32);
    expr *x = int32_at(2);
    expr *e = bin(EXPR_ADD, x, len);
    uint8_t bytes[6] = {0, 0, 1, 0, 0, 0};
    uint32_t ids[1] = {0};
    uint64_t vals[1] = {41};
    expr_env env = {bytes, 6, ids, vals, 1};
    expr_u128 v;
    assert_true(expr_eval(C, &e, 1, &env, &v));
    assert_true(v == 42);
    expr *roots[2] = {e, bin(EXPR_EQ, in(9), k(8, 1))};
    uint32_t *keys;
    size_t nk;
    assert_true(expr_vars(C, roots, 2, &keys, &nk));
    assert_int_equal(nk, 6);
    assert_int_equal(keys[0], 2);
    assert_int_equal(keys[3], 5);
    assert_int_equal(keys[4], 9);
    assert_int_equal(keys[5], EXPR_VKEY_NAMED | 0);
    ctg_free(keys);
    /* deep chains do not recurse */
    expr *d = in(0);
    for (int i = 0; i < 100000; i++)
        d = bin(EXPR_XOR, bin(EXPR_MUL, d, in(1)), k(8, (uint64_t)i));
    assert_true(expr_eval(C, &d, 1, &env, &v));
    sbuf sb = SBUF_INIT;
    expr_print(d, &sb, 100);
    assert_true(sb.len < 200);
    sbuf_release(&sb);
}

/* Reachable ids of e, by a plain walk with its own stack, into seen[]. */
static void mark_reachable(expr *e, uint8_t *seen, expr **stack)
{
    size_t sn = 0;
    stack[sn++] = e;
    while (sn) {
        expr *x = stack[--sn];
        if (seen[x->id])
            continue;
        seen[x->id] = 1;
        for (unsigned a = 0; a < expr_nargs((expr_op)x->op); a++)
            stack[sn++] = x->args[a];
    }
}

/* expr_collect lists exactly the reachable nodes in ascending id order,
 * short lists (qsort) and long ones (the radix sort) alike, whatever the
 * order of the roots. */
static void test_collect_order(void **st)
{
    (void)st;
    rng r;
    rng_seed(&r, 11);
    enum { N_ROOTS = 900 };
    expr *roots[N_ROOTS];
    for (size_t i = 0; i < N_ROOTS; i++) {
        expr *e = in((uint32_t)rng_below(&r, 64));
        for (int d = 0; d < 6; d++)
            e = bin(rng_below(&r, 2) ? EXPR_XOR : EXPR_ADD, e,
                    rng_below(&r, 2) ? in((uint32_t)rng_below(&r, 64)) : k(8, rng_below(&r, 256)));
        roots[i] = e;
    }
    for (size_t i = N_ROOTS - 1; i > 0; i--) { /* the walk meets ids out of order */
        size_t j = (size_t)rng_below(&r, i + 1);
        expr *t = roots[i];
        roots[i] = roots[j];
        roots[j] = t;
    }
    size_t counts[] = {3, 40, N_ROOTS};
    for (size_t c = 0; c < sizeof counts / sizeof *counts; c++) {
        size_t n = counts[c];
        expr **list;
        size_t ln;
        assert_true(expr_collect(C, roots, n, &list, &ln));
        uint32_t top = 0;
        for (size_t i = 0; i < N_ROOTS; i++)
            top = roots[i]->id > top ? roots[i]->id : top;
        uint8_t *seen = ctg_calloc((size_t)top + 1, 1);
        expr **stack = ctg_malloc(((size_t)top + 1) * 3 * sizeof *stack);
        assert_non_null(seen);
        assert_non_null(stack);
        for (size_t i = 0; i < n; i++)
            mark_reachable(roots[i], seen, stack);
        size_t at = 0;
        for (uint32_t id = 0; id <= top; id++)
            if (seen[id]) {
                assert_true(at < ln);
                assert_int_equal(list[at]->id, id);
                at++;
            }
        assert_int_equal(at, ln);
        if (n == N_ROOTS)
            assert_true(ln >= 4096); /* past the radix sort's threshold, two passes */
        ctg_free(seen);
        ctg_free(stack);
        ctg_free(list);
    }
}

static void test_print(void **st)
{
    (void)st;
    sbuf sb = SBUF_INIT;
    expr_print(bin(EXPR_ULT, bin(EXPR_ADD, in(3), k(8, 5)), expr_extract(C, int32_at(4), 0, 8)), &sb, 0);
    assert_string_equal(sbuf_str(&sb), "(bvult (bvadd in3 #x05) in4)");
    sbuf_reset(&sb);
    expr_print(expr_cast(C, EXPR_ZEXT, expr_extract(C, bin(EXPR_MUL, int32_at(0), int32_at(4)), 3, 5), 16),
               &sb, 0);
    assert_non_null(strstr(sbuf_str(&sb), "((_ zero_extend 11) ((_ extract 7 3) (bvmul"));
    sbuf_reset(&sb);
    expr_print(expr_select(C, expr_store(C, expr_arr_const(C, 0), expr_cast(C, EXPR_ZEXT, in(0), 64), in(1)),
                           k(64, 2)), &sb, 0);
    assert_non_null(strstr(sbuf_str(&sb), "(select (store (const-array #x00)"));
    sbuf_reset(&sb);
    expr_print(expr_var(C, 3, 5), &sb, 0);
    assert_string_equal(sbuf_str(&sb), "v3");
    sbuf_release(&sb);
}

/* ---- allocation failure ------------------------------------------------------------- */

/* Builds, evaluates and prints a few thousand nodes; false on any failure. */
static bool workload(expr_ctx *c)
{
    expr *acc = expr_input(c, 0);
    for (uint32_t i = 1; i < 1500; i++) {
        expr *x = expr_cast(c, EXPR_ZEXT, expr_input(c, i % 64), 32);
        acc = expr_binop(c, EXPR_ADD, expr_cast(c, EXPR_ZEXT, expr_trunc(c, acc, 8), 32),
                         expr_binop(c, EXPR_MUL, x, expr_const(c, 32, i)));
        acc = expr_trunc(c, acc, 8);
    }
    if (!acc)
        return false;
    uint8_t bytes[64] = {1};
    expr_env env = {bytes, 64, NULL, NULL, 0};
    expr_u128 v;
    uint32_t *keys;
    size_t nk;
    if (!expr_eval(c, &acc, 1, &env, &v) || !expr_vars(c, &acc, 1, &keys, &nk))
        return false;
    ctg_free(keys);
    sbuf sb = SBUF_INIT;
    expr_print(acc, &sb, 500);
    bool ok = sbuf_ok(&sb);
    sbuf_release(&sb);
    return ok && nk == 64;
}

static void test_alloc_failure(void **st)
{
    (void)st;
    int failed = 0, passed = 0;
    for (long n = 0; n < 120; n++) {
        mem_fail_after(n);
        expr_ctx *c = expr_ctx_new();
        bool ok = c && workload(c);
        if (c && !ok && expr_ctx_status(c) != EXPR_OK)
            assert_int_equal(expr_ctx_status(c), EXPR_ENOMEM);
        mem_fail_reset();
        ok ? passed++ : failed++;
        expr_ctx_free(c);
    }
    assert_true(failed > 5); /* failure points were hit... */
    assert_true(passed > 0); /* ...and enough allocations let it finish */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_hash_consing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_simp_arith, setup, teardown),
        cmocka_unit_test_setup_teardown(test_simp_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_simp_cmp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_simp_arrays, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_vs_c, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fold_wide_fp, setup, teardown),
        cmocka_unit_test(test_random_terms),
        cmocka_unit_test_setup_teardown(test_eval_vars, setup, teardown),
        cmocka_unit_test_setup_teardown(test_collect_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_print, setup, teardown),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
