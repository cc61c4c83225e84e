/*
 * expr_build.c - the constructors of expr.h: operand checks, constant
 * folding (through expr_apply) and algebraic simplification, one rewrite
 * function per operator (tables simp1/simp2 below), ending in expr_intern.
 *
 * Every rewrite returns an equivalent term that is no larger and moves
 * towards one canonical form: constants to the right of commutative
 * operators and out of sums, shifts/masks by constants as extract/concat,
 * right-nested concatenations, comparisons of extensions narrowed to the
 * extended value, negated comparisons as the inverse comparison.
 */
#include "expr_int.h"

__extension__ typedef __int128 s128;

/* ---- small helpers ------------------------------------------------------- */

static expr *mk(expr_ctx *c, expr_op op, unsigned w, uint32_t aux, expr_u128 val, expr *a,
                expr *b, expr *x)
{
    expr_key k = {.op = (uint8_t)op, .width = (uint8_t)w, .aux = aux, .val = val, .a = {a, b, x}};
    return expr_intern(c, &k);
}

static expr *cst(expr_ctx *c, unsigned w, expr_u128 v)
{
    return mk(c, EXPR_CONST, w, 0, v & expr_mask(w), NULL, NULL, NULL);
}

static bool is_c(const expr *e) { return e->op == EXPR_CONST; }
static bool is_val(const expr *e, expr_u128 v)
{
    return is_c(e) && e->val == (v & expr_mask(e->width));
}
static bool is_zero(const expr *e) { return is_val(e, 0); }
static bool is_one(const expr *e) { return is_val(e, 1); }
static bool is_ones(const expr *e) { return is_c(e) && e->val == expr_mask(e->width); }
static bool is_arr(const expr *e) { return e->width == 0; }
static bool is_int(const expr *e) { return e->width > 0; }

static expr_u128 smin(unsigned w) { return (expr_u128)1 << (w - 1); }
static expr_u128 smax(unsigned w) { return smin(w) - 1; }

/* log2 of v when v is a power of two > 1, else -1. */
static int log2_exact(expr_u128 v)
{
    if (v < 2 || (v & (v - 1)))
        return -1;
    int k = 0;
    for (; v > 1; v >>= 1)
        k++;
    return k;
}

static int pow2(const expr *e) { return is_c(e) ? log2_exact(e->val) : -1; }

/* True when b is the inverse comparison of a (eq/ne, ult(x,y)/ule(y,x), ...). */
static bool inverse_cmp(const expr *a, const expr *b)
{
    const expr *const *x = (const expr *const *)a->args, *const *y = (const expr *const *)b->args;
    switch (a->op) {
    case EXPR_EQ: return b->op == EXPR_NE && x[0] == y[0] && x[1] == y[1];
    case EXPR_NE: return b->op == EXPR_EQ && x[0] == y[0] && x[1] == y[1];
    case EXPR_ULT: return b->op == EXPR_ULE && x[0] == y[1] && x[1] == y[0];
    case EXPR_ULE: return b->op == EXPR_ULT && x[0] == y[1] && x[1] == y[0];
    case EXPR_SLT: return b->op == EXPR_SLE && x[0] == y[1] && x[1] == y[0];
    case EXPR_SLE: return b->op == EXPR_SLT && x[0] == y[1] && x[1] == y[0];
    case EXPR_FCMP:
        return b->op == EXPR_FCMP && a->aux + b->aux == 15 && x[0] == y[0] && x[1] == y[1];
    default: return false;
    }
}

/* a == ~b (bitwise, so also boolean negation at width 1). */
static bool complement(const expr *a, const expr *b)
{
    return (a->op == EXPR_NOT && a->args[0] == b) || (b->op == EXPR_NOT && b->args[0] == a) ||
           inverse_cmp(a, b);
}

/* Folds op over constant operands (expr_apply). */
static expr *fold(expr_ctx *c, expr_op op, unsigned w, uint32_t aux, expr *a, expr *b, expr *x)
{
    expr *in[3] = {a, b, x};
    unsigned aw[3] = {0, 0, 0};
    expr_u128 v[3] = {0, 0, 0};
    for (unsigned i = 0; i < expr_nargs(op); i++) {
        aw[i] = in[i]->width;
        v[i] = in[i]->val;
    }
    return cst(c, w, expr_apply(op, w, aux, aw, v));
}

/* ---- leaves ---------------------------------------------------------------- */

expr *expr_const(expr_ctx *c, unsigned width, expr_u128 v)
{
    if (width < 1 || width > 128)
        return expr_inval(c);
    return cst(c, width, v);
}

expr *expr_bool(expr_ctx *c, bool b) { return cst(c, 1, b); }

expr *expr_input(expr_ctx *c, uint32_t byte_index)
{
    if (byte_index > EXPR_MAX_INPUT)
        return expr_inval(c);
    return mk(c, EXPR_INPUT, 8, byte_index, 0, NULL, NULL, NULL);
}

expr *expr_var(expr_ctx *c, uint32_t id, unsigned width)
{
    if (width < 1 || width > 64 || id >= EXPR_VKEY_NAMED)
        return expr_inval(c);
    if (!expr_ctx_var_width(c, id, width))
        return NULL;
    return mk(c, EXPR_VAR, width, id, 0, NULL, NULL, NULL);
}

expr *expr_arr_const(expr_ctx *c, uint8_t cell)
{
    return mk(c, EXPR_ARR_CONST, 0, 0, cell, NULL, NULL, NULL);
}

/* ---- unary operators ------------------------------------------------------- */

static expr *simp_not(expr_ctx *c, expr *a)
{
    expr **x = a->args;
    if (a->op == EXPR_NOT)
        return x[0];
    if (a->op == EXPR_XOR && is_c(x[1]))
        return expr_binop(c, EXPR_XOR, x[0], cst(c, a->width, ~x[1]->val));
    if (a->width != 1)
        return mk(c, EXPR_NOT, a->width, 0, 0, a, NULL, NULL);
    switch (a->op) {
    case EXPR_EQ: return mk(c, EXPR_NE, 1, 0, 0, x[0], x[1], NULL);
    case EXPR_NE: return mk(c, EXPR_EQ, 1, 0, 0, x[0], x[1], NULL);
    case EXPR_ULT: return expr_binop(c, EXPR_ULE, x[1], x[0]);
    case EXPR_ULE: return expr_binop(c, EXPR_ULT, x[1], x[0]);
    case EXPR_SLT: return expr_binop(c, EXPR_SLE, x[1], x[0]);
    case EXPR_SLE: return expr_binop(c, EXPR_SLT, x[1], x[0]);
    case EXPR_FCMP: return expr_fcmp(c, 15 - a->aux, x[0], x[1]);
    case EXPR_OR: /* De Morgan: a conjunction splits into constraints */
        return expr_binop(c, EXPR_AND, expr_not(c, x[0]), expr_not(c, x[1]));
    default: return mk(c, EXPR_NOT, 1, 0, 0, a, NULL, NULL);
    }
}

expr *expr_unop(expr_ctx *c, expr_op op, expr *a)
{
    if (!a)
        return NULL;
    if (!is_int(a) || (op == EXPR_FNEG && !expr_fp_width(a->width)) ||
        (op != EXPR_NOT && op != EXPR_NEG && op != EXPR_FNEG))
        return expr_inval(c);
    if (is_c(a))
        return fold(c, op, a->width, 0, a, NULL, NULL);
    if (op == EXPR_NOT)
        return simp_not(c, a);
    if (a->op == op) /* neg(neg x), fneg(fneg x) */
        return a->args[0];
    return mk(c, op, a->width, 0, 0, a, NULL, NULL);
}

expr *expr_not(expr_ctx *c, expr *a) { return expr_unop(c, EXPR_NOT, a); }

/* Operand/result widths of a cast; false when invalid. */
static bool cast_ok(expr_op op, const expr *a, unsigned w)
{
    unsigned wa = a->width;
    if (!is_int(a) || w < 1 || w > 128)
        return false;
    switch (op) {
    case EXPR_ZEXT:
    case EXPR_SEXT: return w >= wa;
    case EXPR_FPEXT: return wa == 32 && w == 64;
    case EXPR_FPTRUNC: return wa == 64 && w == 32;
    case EXPR_SITOFP:
    case EXPR_UITOFP: return expr_fp_width(w);
    case EXPR_FPTOSI:
    case EXPR_FPTOUI: return expr_fp_width(wa);
    default: return false;
    }
}

expr *expr_cast(expr_ctx *c, expr_op op, expr *a, unsigned w)
{
    if (!a)
        return NULL;
    if (!cast_ok(op, a, w))
        return expr_inval(c);
    if ((op == EXPR_ZEXT || op == EXPR_SEXT) && w == a->width)
        return a;
    if (is_c(a))
        return fold(c, op, w, 0, a, NULL, NULL);
    if ((op == EXPR_ZEXT || op == EXPR_SEXT) && a->op == op)
        return mk(c, op, w, 0, 0, a->args[0], NULL, NULL);
    if (op == EXPR_SEXT && a->op == EXPR_ZEXT) /* top bit known 0 */
        return mk(c, EXPR_ZEXT, w, 0, 0, a->args[0], NULL, NULL);
    return mk(c, op, w, 0, 0, a, NULL, NULL);
}

/* extract of an extension: inside the operand, above it, or straddling. */
static expr *extract_ext(expr_ctx *c, expr *a, unsigned lo, unsigned w)
{
    expr *x = a->args[0];
    unsigned wx = x->width;
    if (lo + w <= wx)
        return expr_extract(c, x, lo, w);
    if (a->op == EXPR_ZEXT) {
        if (lo >= wx)
            return cst(c, w, 0);
        return expr_cast(c, EXPR_ZEXT, expr_extract(c, x, lo, wx - lo), w);
    }
    if (lo >= wx - 1)
        return expr_cast(c, EXPR_SEXT, expr_extract(c, x, wx - 1, 1), w);
    return expr_cast(c, EXPR_SEXT, expr_extract(c, x, lo, wx - lo), w);
}

expr *expr_extract(expr_ctx *c, expr *a, unsigned lo, unsigned w)
{
    if (!a)
        return NULL;
    if (!is_int(a) || w < 1 || lo + w > a->width)
        return expr_inval(c);
    if (lo == 0 && w == a->width)
        return a;
    if (is_c(a))
        return cst(c, w, a->val >> lo);
    switch (a->op) {
    case EXPR_EXTRACT: return expr_extract(c, a->args[0], lo + a->aux, w);
    case EXPR_ZEXT:
    case EXPR_SEXT: return extract_ext(c, a, lo, w);
    case EXPR_CONCAT: {
        expr *h = a->args[0], *l = a->args[1];
        unsigned wl = l->width;
        if (lo + w <= wl)
            return expr_extract(c, l, lo, w);
        if (lo >= wl)
            return expr_extract(c, h, lo - wl, w);
        return expr_binop(c, EXPR_CONCAT, expr_extract(c, h, 0, lo + w - wl),
                          expr_extract(c, l, lo, wl - lo));
    }
    default: return mk(c, EXPR_EXTRACT, w, lo, 0, a, NULL, NULL);
    }
}

expr *expr_trunc(expr_ctx *c, expr *a, unsigned w) { return expr_extract(c, a, 0, w); }

/* ---- binary arithmetic ------------------------------------------------------ */

typedef expr *(*simp2_fn)(expr_ctx *c, expr_op op, expr *a, expr *b);

static unsigned bin_width(expr_op op, const expr *a, const expr *b)
{
    if (op >= EXPR_EQ && op <= EXPR_SLE)
        return 1;
    return op == EXPR_CONCAT ? a->width + b->width : a->width;
}

static expr *raw2(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    return mk(c, op, bin_width(op, a, b), 0, 0, a, b, NULL);
}

/* A summand as atom * coefficient: t * k, -t and t itself. */
static expr *lin_split(expr *e, expr_u128 *k)
{
    if (e->op == EXPR_MUL && is_c(e->args[1])) {
        *k = e->args[1]->val;
        return e->args[0];
    }
    *k = e->op == EXPR_NEG ? expr_mask(e->width) : 1;
    return e->op == EXPR_NEG ? e->args[0] : e;
}

/* a + b (sub: a - b) as one multiple when both are multiples of one atom,
 * else NULL: loop accumulators (x = x + y) stay k * y, not a k-deep sum. */
static expr *lin_merge(expr_ctx *c, expr *a, expr *b, bool sub)
{
    expr_u128 ka, kb;
    expr *t = lin_split(a, &ka);
    if (is_c(a) || is_c(b) || lin_split(b, &kb) != t)
        return NULL;
    return expr_binop(c, EXPR_MUL, t, cst(c, a->width, sub ? ka - kb : ka + kb));
}

/* (r + s) + b with s and b multiples of one atom: r + merged. */
static expr *lin_merge_sum(expr_ctx *c, expr *a, expr *b)
{
    if (a->op != EXPR_ADD)
        return NULL;
    for (int i = 0; i < 2; i++) {
        expr *m = lin_merge(c, a->args[i], b, false);
        if (m)
            return expr_binop(c, EXPR_ADD, a->args[1 - i], m);
    }
    return NULL;
}

static expr *simp_add(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    if (is_zero(b))
        return a;
    expr *m = lin_merge(c, a, b, false);
    if (!m && !is_c(b))
        m = lin_merge_sum(c, a, b);
    if (!m && !is_c(b))
        m = lin_merge_sum(c, b, a);
    if (m)
        return m;
    if (is_c(b) && a->op == EXPR_ADD && is_c(a->args[1]))
        return expr_binop(c, op, a->args[0], cst(c, w, a->args[1]->val + b->val));
    if (!is_c(b)) { /* float constants out of sums */
        if (a->op == EXPR_ADD && is_c(a->args[1]))
            return expr_binop(c, op, expr_binop(c, op, a->args[0], b), a->args[1]);
        if (b->op == EXPR_ADD && is_c(b->args[1]))
            return expr_binop(c, op, expr_binop(c, op, a, b->args[0]), b->args[1]);
    }
    return raw2(c, op, a, b);
}

static expr *simp_sub(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    if (is_zero(b))
        return a;
    if (a == b)
        return cst(c, w, 0);
    if (is_c(b))
        return expr_binop(c, EXPR_ADD, a, cst(c, w, -b->val));
    if (is_zero(a))
        return expr_unop(c, EXPR_NEG, b);
    if (a->op == EXPR_ADD && a->args[0] == b)
        return a->args[1];
    if (a->op == EXPR_ADD && a->args[1] == b)
        return a->args[0];
    expr *m = lin_merge(c, a, b, true);
    if (m)
        return m;
    return raw2(c, op, a, b);
}

static expr *simp_mul(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    if (is_zero(b))
        return b;
    if (is_one(b))
        return a;
    if (is_ones(b))
        return expr_unop(c, EXPR_NEG, a);
    if (is_c(b) && a->op == EXPR_MUL && is_c(a->args[1]))
        return expr_binop(c, op, a->args[0], cst(c, w, a->args[1]->val * b->val));
    return raw2(c, op, a, b);
}

static expr *simp_div(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    int k = pow2(b);
    if (is_one(b))
        return (op == EXPR_UDIV || op == EXPR_SDIV) ? a : cst(c, w, 0);
    if (op == EXPR_SREM && is_ones(b))
        return cst(c, w, 0);
    if (op == EXPR_UDIV && k > 0)
        return expr_binop(c, EXPR_LSHR, a, cst(c, w, (expr_u128)k));
    if (op == EXPR_UREM && k > 0)
        return expr_binop(c, EXPR_AND, a, cst(c, w, b->val - 1));
    return raw2(c, op, a, b);
}

/* Shifts by constants become extract/concat, which the extract rules see
 * through (byte assembly like (x << 8) | y). */
static expr *simp_shift(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    if (is_zero(b) || is_zero(a))
        return a;
    if (!is_c(b))
        return raw2(c, op, a, b);
    if (b->val >= w) {
        if (op != EXPR_ASHR)
            return cst(c, w, 0);
        return w == 1 ? a : expr_binop(c, op, a, cst(c, w, w - 1));
    }
    unsigned k = (unsigned)b->val;
    if (op == EXPR_SHL)
        return expr_binop(c, EXPR_CONCAT, expr_extract(c, a, 0, w - k), cst(c, k, 0));
    return expr_cast(c, op == EXPR_LSHR ? EXPR_ZEXT : EXPR_SEXT, expr_extract(c, a, k, w - k), w);
}

static expr *simp_and(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    if (is_zero(b) || is_ones(b) || a == b)
        return is_zero(b) ? b : a;
    if (complement(a, b))
        return cst(c, w, 0);
    int k = is_c(b) ? log2_exact((b->val + 1) & expr_mask(w)) : -1;
    if (k > 0 && (unsigned)k < w) /* low mask */
        return expr_cast(c, EXPR_ZEXT, expr_extract(c, a, 0, (unsigned)k), w);
    return raw2(c, op, a, b);
}

/* or(concat(h, 0_k), zext(y)) with width(y) <= k: concat(h, zext(y, k)). */
static expr *or_concat_zero(expr_ctx *c, expr *a, expr *b)
{
    if (a->op != EXPR_CONCAT || !is_zero(a->args[1]) || b->op != EXPR_ZEXT)
        return NULL;
    unsigned k = a->args[1]->width;
    expr *y = b->args[0];
    if (y->width > k)
        return NULL;
    return expr_binop(c, EXPR_CONCAT, a->args[0], expr_cast(c, EXPR_ZEXT, y, k));
}

static expr *simp_or(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    if (is_zero(b) || a == b)
        return a;
    if (is_ones(b))
        return b;
    if (complement(a, b))
        return cst(c, a->width, expr_mask(a->width));
    expr *r = NULL;
    if (a->op == EXPR_CONCAT && b->op == EXPR_ZEXT)
        r = or_concat_zero(c, a, b);
    else if (b->op == EXPR_CONCAT && a->op == EXPR_ZEXT)
        r = or_concat_zero(c, b, a);
    if (r || expr_ctx_dead(c))
        return r;
    return raw2(c, op, a, b);
}

static expr *simp_xor(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    if (is_zero(b))
        return a;
    if (a == b)
        return cst(c, w, 0);
    if (is_ones(b))
        return expr_not(c, a);
    if (is_c(b) && a->op == EXPR_XOR && is_c(a->args[1]))
        return expr_binop(c, op, a->args[0], cst(c, w, a->args[1]->val ^ b->val));
    return raw2(c, op, a, b);
}

/* extract(x, lo_h, _) directly above extract(x, lo_l, w_l)? */
static bool adjacent(const expr *h, const expr *l)
{
    return h->op == EXPR_EXTRACT && l->op == EXPR_EXTRACT && h->args[0] == l->args[0] &&
           h->aux == l->aux + l->width;
}

static expr *simp_concat(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    if (a->op == EXPR_CONCAT) /* right-nested */
        return expr_binop(c, op, a->args[0], expr_binop(c, op, a->args[1], b));
    if (is_zero(a))
        return expr_cast(c, EXPR_ZEXT, b, a->width + b->width);
    expr *l = b->op == EXPR_CONCAT ? b->args[0] : b;
    expr *rest = b->op == EXPR_CONCAT ? b->args[1] : NULL;
    expr *m = NULL;
    if (adjacent(a, l))
        m = expr_extract(c, a->args[0], l->aux, a->width + l->width);
    else if (is_c(a) && is_c(l) && rest)
        m = cst(c, a->width + l->width, (a->val << l->width) | l->val);
    if (m)
        return rest ? expr_binop(c, op, m, rest) : m;
    if (expr_ctx_dead(c))
        return NULL;
    return raw2(c, op, a, b);
}

/* ---- comparisons ------------------------------------------------------------ */

/* eq(ite(q, k1, k2), k) with constants: q, !q, true or false. */
static expr *eq_ite(expr_ctx *c, expr *a, expr *b)
{
    bool t = a->args[1]->val == b->val, f = a->args[2]->val == b->val;
    if (t == f)
        return expr_bool(c, t);
    return t ? a->args[0] : expr_not(c, a->args[0]);
}

/* eq(a, k) for constant k: push the constant through invertible ops. */
static expr *eq_const(expr_ctx *c, expr *a, expr *b)
{
    unsigned w = a->width;
    expr **x = a->args;
    expr_u128 k = b->val;
    if (w == 1)
        return k ? a : expr_not(c, a);
    switch (a->op) {
    case EXPR_ZEXT:
        if (k >> x[0]->width)
            return expr_bool(c, false);
        return expr_binop(c, EXPR_EQ, x[0], cst(c, x[0]->width, k));
    case EXPR_SEXT:
        if (((expr_u128)expr_sext128(k, x[0]->width) & expr_mask(w)) != k)
            return expr_bool(c, false);
        return expr_binop(c, EXPR_EQ, x[0], cst(c, x[0]->width, k));
    case EXPR_ADD:
        if (is_c(x[1]))
            return expr_binop(c, EXPR_EQ, x[0], cst(c, w, k - x[1]->val));
        break;
    case EXPR_XOR:
        if (is_c(x[1]))
            return expr_binop(c, EXPR_EQ, x[0], cst(c, w, k ^ x[1]->val));
        break;
    case EXPR_NOT: return expr_binop(c, EXPR_EQ, x[0], cst(c, w, ~k));
    case EXPR_NEG: return expr_binop(c, EXPR_EQ, x[0], cst(c, w, -k));
    case EXPR_CONCAT: {
        unsigned wl = x[1]->width;
        return expr_and(c, expr_binop(c, EXPR_EQ, x[0], cst(c, x[0]->width, k >> wl)),
                        expr_binop(c, EXPR_EQ, x[1], cst(c, wl, k)));
    }
    case EXPR_ITE:
        if (is_c(x[1]) && is_c(x[2]))
            return eq_ite(c, a, b);
        break;
    default: break;
    }
    return raw2(c, EXPR_EQ, a, b);
}

static expr *simp_eq(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    if (a == b)
        return expr_bool(c, op == EXPR_EQ);
    if (op == EXPR_NE)
        return expr_not(c, expr_binop(c, EXPR_EQ, a, b));
    if (is_c(b))
        return eq_const(c, a, b);
    return raw2(c, op, a, b);
}

/* Comparison of an extension with a constant, decided or narrowed to the
 * extended value.  NULL when the rule does not apply. */
static expr *cmp_ext(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    bool sgn = op == EXPR_SLT || op == EXPR_SLE, strict = op == EXPR_ULT || op == EXPR_SLT;
    bool left = !is_c(a);
    expr *e = left ? a : b, *k = left ? b : a;
    if (!is_c(k) || (e->op != EXPR_ZEXT && e->op != EXPR_SEXT) || (!sgn && e->op == EXPR_SEXT))
        return NULL;
    expr *x = e->args[0];
    unsigned w = e->width, wx = x->width;
    /* range [lo, hi] of e in the comparison's domain, compared as s128 or u128 */
    s128 lo = e->op == EXPR_ZEXT ? 0 : -(s128)smin(wx);
    s128 hi = e->op == EXPR_ZEXT ? (s128)expr_mask(wx) : (s128)smax(wx);
    s128 kv = sgn ? expr_sext128(k->val, w) : (s128)0;
    if (!sgn && k->val > (expr_u128)hi) /* only the unsigned domain exceeds s128 */
        kv = hi + 1;
    else if (!sgn)
        kv = (s128)k->val;
    if (left) { /* e < k, e <= k */
        if (strict ? kv > hi : kv >= hi)
            return expr_bool(c, true);
        if (strict ? kv <= lo : kv < lo)
            return expr_bool(c, false);
    } else { /* k < e, k <= e */
        if (strict ? kv >= hi : kv > hi)
            return expr_bool(c, false);
        if (strict ? kv < lo : kv <= lo)
            return expr_bool(c, true);
    }
    expr_op nop = e->op == EXPR_ZEXT ? (strict ? EXPR_ULT : EXPR_ULE) : op;
    expr *kn = cst(c, wx, (expr_u128)kv);
    return left ? expr_binop(c, nop, x, kn) : expr_binop(c, nop, kn, x);
}

static expr *simp_ult(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    bool strict = op == EXPR_ULT;
    if (a == b)
        return expr_bool(c, !strict);
    if (strict ? (is_zero(b) || is_ones(a)) : (is_zero(a) || is_ones(b)))
        return expr_bool(c, !strict);
    if (strict && is_zero(a))
        return expr_binop(c, EXPR_NE, b, a);
    if (strict && is_one(b))
        return expr_binop(c, EXPR_EQ, a, cst(c, w, 0));
    if (!strict && is_zero(b))
        return expr_binop(c, EXPR_EQ, a, b);
    if (!strict && is_ones(a))
        return expr_binop(c, EXPR_EQ, b, a);
    expr *r = cmp_ext(c, op, a, b);
    if (r || expr_ctx_dead(c))
        return r;
    return raw2(c, op, a, b);
}

static expr *simp_slt(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    unsigned w = a->width;
    bool strict = op == EXPR_SLT;
    if (a == b)
        return expr_bool(c, !strict);
    if (strict && (is_val(b, smin(w)) || is_val(a, smax(w))))
        return expr_bool(c, false);
    if (!strict && (is_val(a, smin(w)) || is_val(b, smax(w))))
        return expr_bool(c, true);
    expr *r = cmp_ext(c, op, a, b);
    if (r || expr_ctx_dead(c))
        return r;
    return raw2(c, op, a, b);
}

static expr *simp_none(expr_ctx *c, expr_op op, expr *a, expr *b) { return raw2(c, op, a, b); }

static const simp2_fn simp2[EXPR__COUNT] = {
    [EXPR_ADD] = simp_add,     [EXPR_SUB] = simp_sub,     [EXPR_MUL] = simp_mul,
    [EXPR_UDIV] = simp_div,    [EXPR_SDIV] = simp_div,    [EXPR_UREM] = simp_div,
    [EXPR_SREM] = simp_div,    [EXPR_SHL] = simp_shift,   [EXPR_LSHR] = simp_shift,
    [EXPR_ASHR] = simp_shift,  [EXPR_AND] = simp_and,     [EXPR_OR] = simp_or,
    [EXPR_XOR] = simp_xor,     [EXPR_CONCAT] = simp_concat, [EXPR_EQ] = simp_eq,
    [EXPR_NE] = simp_eq,       [EXPR_ULT] = simp_ult,     [EXPR_ULE] = simp_ult,
    [EXPR_SLT] = simp_slt,     [EXPR_SLE] = simp_slt,     [EXPR_FADD] = simp_none,
    [EXPR_FSUB] = simp_none,   [EXPR_FMUL] = simp_none,   [EXPR_FDIV] = simp_none,
};

static bool bin_ok(expr_op op, const expr *a, const expr *b)
{
    if (op >= EXPR__COUNT || !simp2[op] || !is_int(a) || !is_int(b))
        return false;
    if (op == EXPR_CONCAT)
        return a->width + b->width <= 128;
    if (op >= EXPR_FADD && op <= EXPR_FDIV)
        return a->width == b->width && expr_fp_width(a->width);
    return a->width == b->width;
}

static bool commutative(expr_op op)
{
    return op == EXPR_ADD || op == EXPR_MUL || op == EXPR_AND || op == EXPR_OR ||
           op == EXPR_XOR || op == EXPR_EQ || op == EXPR_NE;
}

expr *expr_binop(expr_ctx *c, expr_op op, expr *a, expr *b)
{
    if (!a || !b)
        return NULL;
    if (!bin_ok(op, a, b))
        return expr_inval(c);
    if (is_c(a) && is_c(b))
        return fold(c, op, bin_width(op, a, b), 0, a, b, NULL);
    if (commutative(op) && (is_c(a) || (!is_c(b) && a->hash > b->hash))) {
        expr *t = a;
        a = b;
        b = t;
    }
    return simp2[op](c, op, a, b);
}

expr *expr_and(expr_ctx *c, expr *a, expr *b) { return expr_binop(c, EXPR_AND, a, b); }
expr *expr_or(expr_ctx *c, expr *a, expr *b) { return expr_binop(c, EXPR_OR, a, b); }

expr *expr_icmp(expr_ctx *c, unsigned pred, expr *a, expr *b)
{
    static const struct {
        expr_op op;
        bool swap;
    } map[10] = {{EXPR_EQ, false},  {EXPR_NE, false},  {EXPR_ULT, true}, {EXPR_ULE, true},
                 {EXPR_ULT, false}, {EXPR_ULE, false}, {EXPR_SLT, true}, {EXPR_SLE, true},
                 {EXPR_SLT, false}, {EXPR_SLE, false}};
    if (pred < 32 || pred > 41)
        return (a && b) ? expr_inval(c) : NULL;
    unsigned i = pred - 32;
    return map[i].swap ? expr_binop(c, map[i].op, b, a) : expr_binop(c, map[i].op, a, b);
}

expr *expr_fcmp(expr_ctx *c, unsigned pred, expr *a, expr *b)
{
    if (!a || !b)
        return NULL;
    if (pred > 15 || !is_int(a) || a->width != b->width || !expr_fp_width(a->width))
        return expr_inval(c);
    if (pred == 0 || pred == 15)
        return expr_bool(c, pred == 15);
    if (is_c(a) && is_c(b))
        return fold(c, EXPR_FCMP, 1, pred, a, b, NULL);
    return mk(c, EXPR_FCMP, 1, pred, 0, a, b, NULL);
}

/* ---- ite and arrays ------------------------------------------------------------ */

expr *expr_ite(expr_ctx *c, expr *q, expr *a, expr *b)
{
    if (!q || !a || !b)
        return NULL;
    if (q->width != 1 || a->width != b->width)
        return expr_inval(c);
    if (is_c(q))
        return q->val ? a : b;
    if (a == b)
        return a;
    if (q->op == EXPR_NOT)
        return expr_ite(c, q->args[0], b, a);
    if (q->op == EXPR_NE)
        return expr_ite(c, mk(c, EXPR_EQ, 1, 0, 0, q->args[0], q->args[1], NULL), b, a);
    if (a->width == 1 && is_c(a) && is_c(b))
        return a->val ? q : expr_not(c, q);
    return mk(c, EXPR_ITE, a->width, 0, 0, q, a, b);
}

expr *expr_select(expr_ctx *c, expr *arr, expr *idx)
{
    if (!arr || !idx)
        return NULL;
    if (!is_arr(arr) || idx->width != 64)
        return expr_inval(c);
    expr *cur = arr;
    for (;;) {
        if (cur->op == EXPR_ARR_CONST)
            return cst(c, 8, cur->val);
        if (cur->op != EXPR_STORE)
            break;
        if (cur->args[1] == idx)
            return cur->args[2];
        if (!is_c(idx) || !is_c(cur->args[1]))
            break;
        cur = cur->args[0]; /* distinct constant indices */
    }
    return mk(c, EXPR_SELECT, 8, 0, 0, cur, idx, NULL);
}

expr *expr_store(expr_ctx *c, expr *arr, expr *idx, expr *val)
{
    if (!arr || !idx || !val)
        return NULL;
    if (!is_arr(arr) || idx->width != 64 || val->width != 8)
        return expr_inval(c);
    if (arr->op == EXPR_STORE && arr->args[1] == idx)
        return expr_store(c, arr->args[0], idx, val);
    if (arr->op == EXPR_ARR_CONST && is_c(idx) && is_c(val) && val->val == arr->val)
        return arr;
    return mk(c, EXPR_STORE, 0, 0, 0, arr, idx, val);
}
