/*
 * solver_fp.c - layer 5 of the solver chain: floating-point queries solved
 * over the reals (issue 18, part 3).  Z3 decides IEEE arithmetic by
 * bit-blasting, and a product of a few 64-bit doubles compared with a
 * constant runs into its timeout; over the reals the same conditions are a
 * small non-linear problem that Z3's nlsat answers in milliseconds.
 *
 *   1. relax: every constraint built from float comparisons, float
 *      arithmetic and boolean connectives is read over the reals (no
 *      rounding, no NaN); a float value that is no float operation is a
 *      leaf: a real variable when it is the bytes of the input (or an
 *      integer of them converted), else its value in the parent test;
 *      constraints that do not translate are left out;
 *   2. solve the relaxation with Z3's QF_NRA solver;
 *   3. round every leaf to its nearest float / double (integer) and search
 *      the neighbouring values, a few ulps around it, one leaf at a time
 *      and then together;
 *   4. a candidate is accepted only when evaluation of the whole query
 *      (IEEE semantics, every constraint, the parent test's values for
 *      the rest) holds.  This layer never answers unsat and never returns
 *      a model that evaluation rejects; what it does not answer goes on to
 *      the back end, which decides the IEEE semantics itself.
 *
 * A fresh Z3 context serves each call; its set-up is small beside the
 * back end's bit-blasting.
 */
#include "solver_int.h"
#include "solver_z3.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"
#include "../base/rng.h"

/* Candidates evaluated around the rounded real solution. */
#define FP_EVALS 256
/* Ulps (or integers) tried on either side of one leaf alone. */
#define FP_SPAN 48

typedef enum leaf_kind {
    LEAF_FIXED, /* its value in the parent test                     */
    LEAF_FP,    /* the bytes of the input, read as a float / double */
    LEAF_INT,   /* an integer of input bytes converted to a float   */
} leaf_kind;

typedef struct byte_at {
    uint32_t key; /* input byte          */
    uint8_t shift; /* its bits in the value */
} byte_at;

typedef struct leaf {
    const expr *e;   /* the float-typed node               */
    leaf_kind kind;
    unsigned width;  /* of the value the bytes hold        */
    bool sgn;        /* LEAF_INT: signed conversion        */
    byte_at bytes[8];
    unsigned n_bytes;
    Z3_ast var;      /* real variable (LEAF_FP, LEAF_INT)  */
    double x;        /* rounded solution                   */
} leaf;

typedef struct fpx {
    Z3_context z;
    expr_ctx *c;
    const expr_env *base;
    Z3_ast *re;  /* per node slot: real form  */
    Z3_ast *bo;  /* per node slot: boolean form */
    bool *bad;   /* per node slot: does not translate */
    leaf *leaves;
    size_t n_leaves, cap_leaves;
    bool oom;
} fpx;

/* ---- leaves ------------------------------------------------------------------ */

/* Records where the input bytes of e (concatenations of whole bytes) sit
 * in its value; false for anything else. */
static bool map_bytes(const expr *e, unsigned shift, leaf *l)
{
    if (e->op == EXPR_INPUT) {
        if (l->n_bytes == 8)
            return false;
        l->bytes[l->n_bytes++] = (byte_at){e->aux, (uint8_t)shift};
        return true;
    }
    if (e->op == EXPR_CONCAT)
        return map_bytes(e->args[1], shift, l) &&
               map_bytes(e->args[0], shift + e->args[1]->width, l);
    return false;
}

static double bits_to_double(expr_u128 v, unsigned width)
{
    if (width == 32) {
        uint32_t u = (uint32_t)v;
        float f;
        memcpy(&f, &u, sizeof f);
        return f;
    }
    uint64_t u = (uint64_t)v;
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t double_to_bits(double d, unsigned width)
{
    if (width == 32) {
        float f = (float)d;
        uint32_t u;
        memcpy(&u, &f, sizeof u);
        return u;
    }
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* An exact real numeral for a finite double. */
static Z3_ast real_num(fpx *f, double d)
{
    Z3_ast v = Z3_mk_fpa_numeral_double(f->z, d, Z3_mk_fpa_sort_64(f->z));
    return Z3_simplify(f->z, Z3_mk_fpa_to_real(f->z, v));
}

/* The leaf for float-typed node e: a real variable or a constant. */
static Z3_ast leaf_term(fpx *f, const expr *e)
{
    if (ctg_grow((void **)&f->leaves, &f->cap_leaves, f->n_leaves + 1, sizeof *f->leaves)) {
        f->oom = true;
        return NULL;
    }
    leaf *l = &f->leaves[f->n_leaves];
    memset(l, 0, sizeof *l);
    l->e = e;
    l->width = e->width;
    const expr *x = e->args[0];
    if (e->op != EXPR_SITOFP && e->op != EXPR_UITOFP && map_bytes(e, 0, l) &&
        l->n_bytes * 8 == e->width) {
        l->kind = LEAF_FP;
    } else if ((e->op == EXPR_SITOFP || e->op == EXPR_UITOFP) && x->width <= 64) {
        l->n_bytes = 0;
        l->sgn = e->op == EXPR_SITOFP;
        l->width = x->width;
        if (map_bytes(x, 0, l) && l->n_bytes * 8 == x->width)
            l->kind = LEAF_INT;
    }
    if (l->kind == LEAF_FIXED) {
        expr *root = (expr *)e;
        expr_u128 v = 0;
        if (!expr_eval(f->c, &root, 1, f->base, &v)) {
            f->oom = true;
            return NULL;
        }
        double d = bits_to_double(v, e->width);
        return isfinite(d) ? real_num(f, d) : NULL;
    }
    char name[32];
    snprintf(name, sizeof name, "r%zu", f->n_leaves);
    l->var = Z3_mk_const(f->z, Z3_mk_string_symbol(f->z, name), Z3_mk_real_sort(f->z));
    f->n_leaves++;
    return l->var;
}

/* ---- the relaxation ------------------------------------------------------------ */

static bool is_fp_arith(const expr *e)
{
    return (e->op >= EXPR_FADD && e->op <= EXPR_FNEG) || e->op == EXPR_FPEXT ||
           e->op == EXPR_FPTRUNC;
}

/* Deepest chain of float selects followed through operands not yet made. */
#define FP_MAX_DEPTH 64

static Z3_ast bool_of(fpx *f, const expr *e);

/* Real form of float-typed node e; NULL when it does not translate.  Float
 * operations are made in id order (operands first), so only chains of
 * selects recurse, and those at most FP_MAX_DEPTH deep. */
static Z3_ast real_of(fpx *f, const expr *e, unsigned depth)
{
    uint32_t i = e->slot;
    if (f->re[i] || f->bad[i])
        return f->re[i];
    Z3_context z = f->z;
    Z3_ast r = NULL;
    if (depth > FP_MAX_DEPTH) {
        r = NULL;
    } else if (e->op == EXPR_CONST) {
        double d = bits_to_double(e->val, e->width);
        r = isfinite(d) ? real_num(f, d) : NULL;
    } else if (is_fp_arith(e)) {
        Z3_ast a = real_of(f, e->args[0], depth + 1);
        Z3_ast b = e->op <= EXPR_FDIV ? real_of(f, e->args[1], depth + 1) : a;
        if (a && b) {
            switch (e->op) {
            case EXPR_FADD: r = Z3_mk_add(z, 2, (Z3_ast[]){a, b}); break;
            case EXPR_FSUB: r = Z3_mk_sub(z, 2, (Z3_ast[]){a, b}); break;
            case EXPR_FMUL: r = Z3_mk_mul(z, 2, (Z3_ast[]){a, b}); break;
            case EXPR_FDIV: r = Z3_mk_div(z, a, b); break;
            case EXPR_FNEG: r = Z3_mk_unary_minus(z, a); break;
            default: r = a; break; /* FPEXT, FPTRUNC: no rounding over the reals */
            }
        }
    } else if (e->op == EXPR_ITE) {
        Z3_ast q = bool_of(f, e->args[0]);
        Z3_ast a = real_of(f, e->args[1], depth + 1), b = real_of(f, e->args[2], depth + 1);
        if (q && a && b)
            r = Z3_mk_ite(z, q, a, b);
    } else {
        r = leaf_term(f, e);
    }
    if (!r)
        f->bad[i] = true;
    f->re[i] = r;
    return r;
}

/* Boolean form of width-1 node e, whose operands were visited before it;
 * NULL when it does not translate. */
static Z3_ast bool_of(fpx *f, const expr *e)
{
    uint32_t i = e->slot;
    if (f->bo[i] || f->bad[i] || e->width != 1)
        return f->bo[i];
    Z3_context z = f->z;
    Z3_ast r = NULL, a = NULL, b = NULL;
    switch (e->op) {
    case EXPR_CONST: r = e->val ? Z3_mk_true(z) : Z3_mk_false(z); break;
    case EXPR_FCMP:
        a = real_of(f, e->args[0], 0);
        b = real_of(f, e->args[1], 0);
        if (!a || !b || e->aux == 8) /* over the reals nothing is unordered */
            break;
        switch (e->aux & 7) {
        case 1: r = Z3_mk_eq(z, a, b); break;
        case 2: r = Z3_mk_gt(z, a, b); break;
        case 3: r = Z3_mk_ge(z, a, b); break;
        case 4: r = Z3_mk_lt(z, a, b); break;
        case 5: r = Z3_mk_le(z, a, b); break;
        case 6: r = Z3_mk_not(z, Z3_mk_eq(z, a, b)); break;
        case 7: r = Z3_mk_true(z); break;
        default: r = Z3_mk_false(z); break;
        }
        break;
    case EXPR_NOT:
        a = f->bo[e->args[0]->slot];
        r = a ? Z3_mk_not(z, a) : NULL;
        break;
    case EXPR_AND:
    case EXPR_OR:
        a = f->bo[e->args[0]->slot];
        b = f->bo[e->args[1]->slot];
        if (a && b)
            r = e->op == EXPR_AND ? Z3_mk_and(z, 2, (Z3_ast[]){a, b})
                                  : Z3_mk_or(z, 2, (Z3_ast[]){a, b});
        break;
    default: break;
    }
    if (!r)
        f->bad[i] = true;
    f->bo[i] = r;
    return r;
}

/* ---- solving the relaxation ------------------------------------------------------ */

/* The value of leaf l in model md, rounded to its type; false when the
 * model has none. */
static bool leaf_value(fpx *f, Z3_model md, leaf *l)
{
    Z3_ast v = NULL;
    if (!Z3_model_eval(f->z, md, l->var, true, &v) || !v)
        return false;
    Z3_string s = Z3_get_numeral_decimal_string(f->z, v, 40);
    if (!s || Z3_get_error_code(f->z) != Z3_OK)
        return false;
    double d = strtod(s, NULL); /* a trailing '?' marks a cut expansion */
    if (l->kind == LEAF_INT) {
        double lo = l->sgn ? -ldexp(1.0, (int)l->width - 1) : 0.0;
        double hi = l->sgn ? ldexp(1.0, (int)l->width - 1) - 1 : ldexp(1.0, (int)l->width) - 1;
        d = nearbyint(d);
        d = d < lo ? lo : d > hi ? hi : d;
    } else if (l->width == 32) {
        d = (float)d;
    }
    l->x = d;
    return isfinite(d);
}

/* Translates q, solves the relaxation and rounds the leaves: true when every
 * leaf got a value. */
static bool relax_and_solve(fpx *f, const squery *q, expr **list, size_t ln, uint32_t timeout_ms)
{
    Z3_context z = f->z;
    for (size_t i = 0; i < ln && !f->oom; i++) {
        if (is_fp_arith(list[i]))
            real_of(f, list[i], 0);
        else if (list[i]->width == 1)
            bool_of(f, list[i]);
    }
    if (f->oom || !f->n_leaves || Z3_get_error_code(z) != Z3_OK)
        return false;
    Z3_solver s = sz3_prepare(z, Z3_mk_solver_for_logic(z, Z3_mk_string_symbol(z, "QF_NRA")),
                              timeout_ms);
    if (!s)
        return false;
    bool focus = false;
    for (size_t i = 0; i < q->n; i++) {
        Z3_ast a = f->bo[q->cs[i]->slot];
        if (!a)
            continue; /* left out; evaluation checks it */
        Z3_solver_assert(z, s, a);
        focus |= q->focus[i];
    }
    bool ok = focus && Z3_get_error_code(z) == Z3_OK && Z3_solver_check(z, s) == Z3_L_TRUE;
    if (ok) {
        Z3_model md = Z3_solver_get_model(z, s);
        ok = md != NULL;
        if (ok) {
            Z3_model_inc_ref(z, md);
            for (size_t i = 0; i < f->n_leaves && ok; i++)
                ok = leaf_value(f, md, &f->leaves[i]);
            Z3_model_dec_ref(z, md);
        }
    }
    Z3_solver_dec_ref(z, s);
    return ok && Z3_get_error_code(z) == Z3_OK;
}

/* ---- the search around the rounded solution ---------------------------------------- */

/* x moved by k ulps (integers for LEAF_INT). */
static double step(const leaf *l, double x, int k)
{
    if (l->kind == LEAF_INT)
        return x + k;
    for (; k > 0; k--)
        x = l->width == 32 ? nextafterf((float)x, INFINITY) : nextafter(x, INFINITY);
    for (; k < 0; k++)
        x = l->width == 32 ? nextafterf((float)x, -INFINITY) : nextafter(x, -INFINITY);
    return x;
}

/* The input bytes that give every leaf the value xs[i]; *n set. */
static void assignment(const fpx *f, const double *xs, solver_assign *v, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < f->n_leaves; i++) {
        const leaf *l = &f->leaves[i];
        uint64_t bits;
        if (l->kind == LEAF_INT)
            bits = l->sgn ? (uint64_t)(int64_t)xs[i] : (uint64_t)xs[i];
        else
            bits = double_to_bits(xs[i], l->width);
        for (unsigned b = 0; b < l->n_bytes; b++)
            v[(*n)++] = (solver_assign){l->bytes[b].key, (bits >> l->bytes[b].shift) & 0xff};
    }
}

static bool try_point(const fpx *f, const double *xs, solver_assign *v, sfp_check check,
                      void *user)
{
    size_t n;
    assignment(f, xs, v, &n);
    return check(user, v, n);
}

/* Up to FP_EVALS candidates: the rounded solution, each leaf alone up to
 * FP_SPAN steps either way, then random points up to 8 steps around. */
static bool search(fpx *f, const squery *q, sfp_check check, void *user, uint32_t *evals)
{
    size_t nl = f->n_leaves;
    double *x0 = ctg_malloc(nl * sizeof *x0), *xs = ctg_malloc(nl * sizeof *xs);
    solver_assign *v = ctg_malloc((nl * 8 + 1) * sizeof *v);
    bool found = false;
    if (!x0 || !xs || !v) {
        f->oom = true;
        goto out;
    }
    for (size_t i = 0; i < nl; i++)
        x0[i] = f->leaves[i].x;
    memcpy(xs, x0, nl * sizeof *xs);
    ++*evals;
    found = try_point(f, xs, v, check, user);
    for (int k = 1; k <= FP_SPAN && !found && *evals < FP_EVALS; k++)
        for (size_t i = 0; i < nl && !found && *evals < FP_EVALS; i++)
            for (int sg = -1; sg <= 1 && !found; sg += 2) {
                memcpy(xs, x0, nl * sizeof *xs);
                xs[i] = step(&f->leaves[i], x0[i], sg * k);
                ++*evals;
                found = try_point(f, xs, v, check, user);
            }
    rng r;
    rng_seed(&r, q->n_set ? q->set[0] : 1);
    while (!found && nl > 1 && *evals < FP_EVALS) {
        for (size_t i = 0; i < nl; i++)
            xs[i] = step(&f->leaves[i], x0[i], (int)rng_range(&r, -8, 8));
        ++*evals;
        found = try_point(f, xs, v, check, user);
    }
out:
    ctg_free(x0);
    ctg_free(xs);
    ctg_free(v);
    return found;
}

bool sfp_search(expr_ctx *c, const squery *q, const expr_env *base, uint32_t timeout_ms,
                sfp_check check, void *user, uint32_t *evals, bool *oom)
{
    expr **list = NULL;
    size_t ln = 0;
    *evals = 0;
    *oom = false;
    if (!expr_collect(c, q->cs, q->n, &list, &ln)) {
        *oom = true;
        return false;
    }
    for (size_t i = 0; i < ln; i++)
        list[i]->slot = (uint32_t)i;
    fpx f = {.c = c, .base = base};
    f.re = ctg_calloc(ln + 1, sizeof *f.re);
    f.bo = ctg_calloc(ln + 1, sizeof *f.bo);
    f.bad = ctg_calloc(ln + 1, sizeof *f.bad);
    bool found = false;
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    f.z = Z3_mk_context(cfg);
    Z3_del_config(cfg);
    if (!f.re || !f.bo || !f.bad) {
        f.oom = true;
    } else if (f.z) {
        Z3_set_error_handler(f.z, NULL);
        if (relax_and_solve(&f, q, list, ln, timeout_ms))
            found = search(&f, q, check, user, evals);
    }
    if (f.z)
        Z3_del_context(f.z);
    *oom = f.oom;
    ctg_free(f.leaves);
    ctg_free(f.re);
    ctg_free(f.bo);
    ctg_free(f.bad);
    ctg_free(list);
    return found;
}
