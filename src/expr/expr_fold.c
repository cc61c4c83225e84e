/*
 * expr_fold.c - the value semantics of every non-array operation, shared by
 * constant folding (expr_build.c) and evaluation (expr_eval.c).
 *
 * Integer operations follow SMT-LIB bit-vector semantics (which is LLVM's
 * wherever LLVM defines a value): division by zero and over-wide shifts get
 * the SMT-LIB values, so folding agrees with Z3.  Floating point uses the
 * host's IEEE float/double with round-to-nearest-even; fp->int conversions
 * of NaN or out-of-range values give 0 (LLVM: poison; solver_z3.c encodes
 * the same rule).  Results of fp arithmetic that are NaN keep the host's
 * bit pattern, which the solver may choose differently: such nodes carry
 * EXPR_F_INEXACT (set by the context, not here).
 */
#include "expr.h"

#include <math.h>
#include <string.h>

__extension__ typedef __int128 s128;

s128 expr_sext128(expr_u128 v, unsigned width)
{
    if (width >= 128)
        return (s128)v;
    expr_u128 m = (expr_u128)1 << (width - 1);
    v &= expr_mask(width);
    return (s128)((v ^ m) - m);
}

static bool sign_bit(expr_u128 v, unsigned w) { return (v >> (w - 1)) & 1; }

/* SMT-LIB bvudiv / bvurem on masked operands. */
static expr_u128 udiv(expr_u128 a, expr_u128 b, unsigned w) { return b ? a / b : expr_mask(w); }
static expr_u128 urem(expr_u128 a, expr_u128 b) { return b ? a % b : a; }

/* SMT-LIB bvsdiv: unsigned division of the magnitudes, sign fixed up.
 * Covers x/0 and INT_MIN/-1 without undefined behaviour. */
static expr_u128 sdiv(expr_u128 a, expr_u128 b, unsigned w)
{
    expr_u128 m = expr_mask(w);
    bool na = sign_bit(a, w), nb = sign_bit(b, w);
    expr_u128 ua = na ? (-a & m) : a, ub = nb ? (-b & m) : b;
    expr_u128 q = udiv(ua, ub, w);
    return (na != nb) ? (-q & m) : q;
}

/* SMT-LIB bvsrem: the sign follows the dividend; x rem 0 = x. */
static expr_u128 srem(expr_u128 a, expr_u128 b, unsigned w)
{
    expr_u128 m = expr_mask(w);
    bool na = sign_bit(a, w), nb = sign_bit(b, w);
    expr_u128 ua = na ? (-a & m) : a, ub = nb ? (-b & m) : b;
    expr_u128 r = urem(ua, ub);
    return na ? (-r & m) : r;
}

static expr_u128 ashr(expr_u128 a, expr_u128 b, unsigned w)
{
    if (b >= w)
        return sign_bit(a, w) ? expr_mask(w) : 0;
    return (expr_u128)(expr_sext128(a, w) >> (unsigned)b);
}

static int cmp_signed(expr_u128 a, expr_u128 b, unsigned w)
{
    s128 x = expr_sext128(a, w), y = expr_sext128(b, w);
    return x < y ? -1 : x > y;
}

/* ---- floating point ------------------------------------------------------ */

static double to_d(expr_u128 v, unsigned w)
{
    if (w == 32) {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, 4);
        return f;
    }
    uint64_t u = (uint64_t)v;
    double d;
    memcpy(&d, &u, 8);
    return d;
}

static expr_u128 from_f(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static expr_u128 from_d(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* Binary fp operation in the precision of width w (float arithmetic is done
 * in float so results round exactly as a float operation would). */
static expr_u128 fp_arith(expr_op op, expr_u128 a, expr_u128 b, unsigned w)
{
    if (w == 32) {
        float x = (float)to_d(a, 32), y = (float)to_d(b, 32), r;
        switch (op) {
        case EXPR_FADD: r = x + y; break;
        case EXPR_FSUB: r = x - y; break;
        case EXPR_FMUL: r = x * y; break;
        default: r = x / y; break;
        }
        return from_f(r);
    }
    double x = to_d(a, 64), y = to_d(b, 64), r;
    switch (op) {
    case EXPR_FADD: r = x + y; break;
    case EXPR_FSUB: r = x - y; break;
    case EXPR_FMUL: r = x * y; break;
    default: r = x / y; break;
    }
    return from_d(r);
}

/* LLVM fcmp predicate p (0..15) on x, y. */
static bool fp_cmp(unsigned p, double x, double y)
{
    bool uno = isnan(x) || isnan(y);
    switch (p) {
    case 0: return false;
    case 1: return !uno && x == y;
    case 2: return !uno && x > y;
    case 3: return !uno && x >= y;
    case 4: return !uno && x < y;
    case 5: return !uno && x <= y;
    case 6: return !uno && x != y;
    case 7: return !uno;
    case 8: return uno;
    case 9: return uno || x == y;
    case 10: return uno || x > y;
    case 11: return uno || x >= y;
    case 12: return uno || x < y;
    case 13: return uno || x <= y;
    case 14: return uno || x != y;
    default: return true;
    }
}

static expr_u128 int_to_fp(expr_u128 a, unsigned wa, bool is_signed, unsigned w)
{
    if (is_signed) {
        s128 s = expr_sext128(a, wa);
        return w == 32 ? from_f((float)s) : from_d((double)s);
    }
    return w == 32 ? from_f((float)a) : from_d((double)a);
}

/* fptosi/fptoui toward zero; NaN or out of range -> 0. */
static expr_u128 fp_to_int(expr_u128 a, unsigned wa, bool is_signed, unsigned w)
{
    double t = trunc(to_d(a, wa));
    double lo = is_signed ? -ldexp(1.0, (int)w - 1) : 0.0;
    double hi = is_signed ? ldexp(1.0, (int)w - 1) : ldexp(1.0, (int)w);
    if (isnan(t) || t < lo || t >= hi)
        return 0;
    if (is_signed)
        return (expr_u128)(s128)t & expr_mask(w);
    return (expr_u128)t & expr_mask(w);
}

/* ---- dispatch -------------------------------------------------------------- */

static expr_u128 apply_int(expr_op op, unsigned w, uint32_t aux, const unsigned *aw,
                           const expr_u128 *x)
{
    expr_u128 a = x[0], b = x[1];
    switch (op) {
    case EXPR_NOT: return ~a;
    case EXPR_NEG: return -a;
    case EXPR_ZEXT: return a;
    case EXPR_SEXT: return (expr_u128)expr_sext128(a, aw[0]);
    case EXPR_EXTRACT: return a >> aux;
    case EXPR_ADD: return a + b;
    case EXPR_SUB: return a - b;
    case EXPR_MUL: return a * b;
    case EXPR_UDIV: return udiv(a, b, w);
    case EXPR_SDIV: return sdiv(a, b, w);
    case EXPR_UREM: return urem(a, b);
    case EXPR_SREM: return srem(a, b, w);
    case EXPR_SHL: return b >= w ? 0 : a << (unsigned)b;
    case EXPR_LSHR: return b >= w ? 0 : a >> (unsigned)b;
    case EXPR_ASHR: return ashr(a, b, w);
    case EXPR_AND: return a & b;
    case EXPR_OR: return a | b;
    case EXPR_XOR: return a ^ b;
    case EXPR_CONCAT: return (a << aw[1]) | b;
    case EXPR_EQ: return a == b;
    case EXPR_NE: return a != b;
    case EXPR_ULT: return a < b;
    case EXPR_ULE: return a <= b;
    case EXPR_SLT: return cmp_signed(a, b, aw[0]) < 0;
    case EXPR_SLE: return cmp_signed(a, b, aw[0]) <= 0;
    case EXPR_ITE: return a ? b : x[2];
    default: return 0;
    }
}

expr_u128 expr_apply(expr_op op, unsigned width, uint32_t aux, const unsigned *aw,
                     const expr_u128 *x)
{
    expr_u128 r;
    switch (op) {
    case EXPR_FADD:
    case EXPR_FSUB:
    case EXPR_FMUL:
    case EXPR_FDIV: r = fp_arith(op, x[0], x[1], width); break;
    case EXPR_FNEG: r = x[0] ^ ((expr_u128)1 << (width - 1)); break;
    case EXPR_FCMP: r = fp_cmp(aux, to_d(x[0], aw[0]), to_d(x[1], aw[1])); break;
    case EXPR_FPEXT: r = from_d((double)(float)to_d(x[0], 32)); break;
    case EXPR_FPTRUNC: r = from_f((float)to_d(x[0], 64)); break;
    case EXPR_SITOFP: r = int_to_fp(x[0], aw[0], true, width); break;
    case EXPR_UITOFP: r = int_to_fp(x[0], aw[0], false, width); break;
    case EXPR_FPTOSI: r = fp_to_int(x[0], aw[0], true, width); break;
    case EXPR_FPTOUI: r = fp_to_int(x[0], aw[0], false, width); break;
    default: r = apply_int(op, width, aux, aw, x); break;
    }
    return r & expr_mask(width);
}
