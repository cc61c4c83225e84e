/*
 * solver_z3.c - the Z3 back end of the solver chain (the one chosen at build
 * time): translates a prepared query to Z3 terms over bit-vectors, arrays of
 * bytes indexed by 64-bit bit-vectors, and IEEE floats (values travel as
 * their bit patterns, converted with to_fp / to_ieee_bv around each fp
 * operation), checks it with a timeout and reads back the model.
 *
 * Translation visits the nodes in id order (operands first), so deep terms
 * never recurse.  Width-1 terms have two forms: comparisons and boolean
 * connectives are Z3 booleans, the rest 1-bit vectors; the other form is
 * made on demand.  The context is reference counted: every term made for a
 * query is kept in a list and released when the query ends.  Errors are
 * read with Z3_get_error_code (no handler that exits).  A query's timeout
 * bounds all of its Z3 calls (the watchdog below), not only the check.
 */
#include "solver_int.h"
#include "solver_z3.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <math.h>

#include <z3.h>

#include "../base/hmap.h"
#include "../base/mem.h"

/* The incremental solver (see check_inc): the asserted terms in the order
 * they were asserted, each referenced, and where each push level starts. */
typedef struct inc_state {
    Z3_solver s;      /* NULL until the first query, and after a reset */
    Z3_ast *ast;      /* asserted terms                                 */
    size_t n, cap;
    size_t *level;    /* level[j]: index in ast of level j's first term */
    size_t levels, cap_levels;
    uint32_t timeout; /* Z3's timeout parameter as set on s (0: not set) */
} inc_state;

struct sbackend {
    Z3_context z;
    Z3_ast *keep; /* terms made for the current query */
    size_t nkeep, capkeep;
    bool oom;
    inc_state inc;
};

const char *sbackend_name(void)
{
    static char name[64];
    unsigned a, b, c, d;
    Z3_get_version(&a, &b, &c, &d);
    snprintf(name, sizeof name, "z3 %u.%u.%u", a, b, c);
    return name;
}

sbackend *sbackend_new(ctg_err *e)
{
    sbackend *b = ctg_calloc(1, sizeof *b);
    if (!b) {
        err_set(e, "solver: out of memory");
        return NULL;
    }
    Z3_config cfg = Z3_mk_config();
    Z3_set_param_value(cfg, "model", "true");
    b->z = Z3_mk_context_rc(cfg);
    Z3_del_config(cfg);
    if (!b->z) {
        ctg_free(b);
        err_set(e, "solver: cannot create a Z3 context; check the libz3 installation");
        return NULL;
    }
    Z3_set_error_handler(b->z, NULL);
    return b;
}

static void release_keep(sbackend *b)
{
    for (size_t i = 0; i < b->nkeep; i++)
        Z3_dec_ref(b->z, b->keep[i]);
    b->nkeep = 0;
}

static void inc_reset(sbackend *b);

void sbackend_free(sbackend *b)
{
    if (!b)
        return;
    inc_reset(b);
    ctg_free(b->inc.ast);
    ctg_free(b->inc.level);
    release_keep(b);
    ctg_free(b->keep);
    Z3_del_context(b->z);
    ctg_free(b);
}

/* Takes a reference on a new term for the rest of the query. */
static Z3_ast keep(sbackend *b, Z3_ast a)
{
    if (!a)
        return NULL;
    if (ctg_grow((void **)&b->keep, &b->capkeep, b->nkeep + 1, sizeof *b->keep)) {
        b->oom = true;
        return NULL;
    }
    Z3_inc_ref(b->z, a);
    b->keep[b->nkeep++] = a;
    return a;
}

/* ---- translation ------------------------------------------------------------- */

typedef struct tr {
    sbackend *b;
    Z3_context z;
    Z3_ast *bv; /* per node in walk order: bit-vector / array form */
    Z3_ast *bo; /* boolean form (width 1) */
    bool err;   /* a Z3 call failed */
} tr;

/* In a reference-counted context a fresh term lives only until the next
 * API call: every term is kept (K) before the next call is made. */
#define K(x) keep(t->b, (x))

static Z3_sort ksort(tr *t, Z3_sort s)
{
    if (s)
        keep(t->b, Z3_sort_to_ast(t->z, s));
    return s;
}

static Z3_sort bv_sort(tr *t, unsigned w) { return ksort(t, Z3_mk_bv_sort(t->z, w)); }

static Z3_ast mk_num(tr *t, unsigned w, expr_u128 v)
{
    if (w <= 64)
        return K(Z3_mk_unsigned_int64(t->z, (uint64_t)v, bv_sort(t, w)));
    char buf[48], *p = buf + sizeof buf - 1;
    *p = '\0';
    do {
        *--p = (char)('0' + (unsigned)(v % 10));
        v /= 10;
    } while (v);
    return K(Z3_mk_numeral(t->z, p, bv_sort(t, w)));
}

/* Boolean form of a width-1 node. */
static Z3_ast as_bool(tr *t, const expr *e)
{
    uint32_t i = e->slot;
    if (!t->bo[i]) {
        if (e->op == EXPR_CONST)
            t->bo[i] = K(e->val ? Z3_mk_true(t->z) : Z3_mk_false(t->z));
        else
            t->bo[i] = K(Z3_mk_eq(t->z, t->bv[i], mk_num(t, 1, 1)));
    }
    return t->bo[i];
}

/* Bit-vector (or array) form of a node. */
static Z3_ast as_bv(tr *t, const expr *e)
{
    uint32_t i = e->slot;
    if (!t->bv[i]) {
        Z3_ast one = mk_num(t, 1, 1), zero = mk_num(t, 1, 0);
        t->bv[i] = K(Z3_mk_ite(t->z, t->bo[i], one, zero));
    }
    return t->bv[i];
}

static Z3_ast var_ast(tr *t, uint32_t key, unsigned w)
{
    char name[24];
    if (key & EXPR_VKEY_NAMED)
        snprintf(name, sizeof name, "v%u", key & ~EXPR_VKEY_NAMED);
    else
        snprintf(name, sizeof name, "in%u", key);
    Z3_sort srt = bv_sort(t, w);
    return K(Z3_mk_const(t->z, Z3_mk_string_symbol(t->z, name), srt));
}

static Z3_sort fp_sort(tr *t, unsigned w)
{
    return ksort(t, w == 32 ? Z3_mk_fpa_sort_32(t->z) : Z3_mk_fpa_sort_64(t->z));
}

static Z3_ast to_fp(tr *t, const expr *e)
{
    Z3_ast bv = as_bv(t, e);
    Z3_sort srt = fp_sort(t, e->width);
    return K(Z3_mk_fpa_to_fp_bv(t->z, bv, srt));
}

static Z3_ast or2(tr *t, Z3_ast a, Z3_ast b) { return K(Z3_mk_or(t->z, 2, (Z3_ast[]){a, b})); }

/* LLVM fcmp predicate p: bits 0-2 the ordered relation, bit 3 "or unordered". */
static Z3_ast fcmp(tr *t, unsigned p, const expr *x, const expr *y)
{
    Z3_context z = t->z;
    Z3_ast a = to_fp(t, x), b = to_fp(t, y);
    Z3_ast na = K(Z3_mk_fpa_is_nan(z, a)), nb = K(Z3_mk_fpa_is_nan(z, b));
    Z3_ast uno = or2(t, na, nb), r;
    switch (p & 7) {
    case 1: r = K(Z3_mk_fpa_eq(z, a, b)); break;
    case 2: r = K(Z3_mk_fpa_gt(z, a, b)); break;
    case 3: r = K(Z3_mk_fpa_geq(z, a, b)); break;
    case 4: r = K(Z3_mk_fpa_lt(z, a, b)); break;
    case 5: r = K(Z3_mk_fpa_leq(z, a, b)); break;
    case 6: {
        Z3_ast lt = K(Z3_mk_fpa_lt(z, a, b)), gt = K(Z3_mk_fpa_gt(z, a, b));
        r = or2(t, lt, gt);
        break;
    }
    case 7: r = K(Z3_mk_not(z, uno)); break;
    default: r = K(Z3_mk_false(z)); break;
    }
    if (p == 8)
        return uno;
    return p > 8 ? or2(t, uno, r) : r;
}

static Z3_ast fp_bits(tr *t, Z3_ast fp) { return K(Z3_mk_fpa_to_ieee_bv(t->z, fp)); }

/* fptosi/fptoui toward zero; NaN and out-of-range values give 0 (as
 * expr_apply does), so the solver and evaluation agree. */
static Z3_ast fp_to_int(tr *t, const expr *e)
{
    Z3_context z = t->z;
    unsigned w = e->width;
    bool sgn = e->op == EXPR_FPTOSI;
    Z3_ast v = to_fp(t, e->args[0]), rtz = K(Z3_mk_fpa_rtz(z));
    Z3_sort srt = fp_sort(t, e->args[0]->width);
    Z3_ast r = K(Z3_mk_fpa_round_to_integral(z, rtz, v));
    Z3_ast lo = K(Z3_mk_fpa_numeral_double(z, sgn ? -ldexp(1.0, (int)w - 1) : 0.0, srt));
    Z3_ast hi = K(Z3_mk_fpa_numeral_double(z, ldexp(1.0, sgn ? (int)w - 1 : (int)w), srt));
    Z3_ast nan = K(Z3_mk_fpa_is_nan(z, v)), notnan = K(Z3_mk_not(z, nan));
    Z3_ast ge = K(Z3_mk_fpa_geq(z, r, lo)), lt = K(Z3_mk_fpa_lt(z, r, hi));
    Z3_ast ok = K(Z3_mk_and(z, 3, (Z3_ast[]){notnan, ge, lt}));
    Z3_ast conv = K(sgn ? Z3_mk_fpa_to_sbv(z, rtz, v, w) : Z3_mk_fpa_to_ubv(z, rtz, v, w));
    return K(Z3_mk_ite(z, ok, conv, mk_num(t, w, 0)));
}

static Z3_ast tr_fp(tr *t, const expr *e)
{
    Z3_context z = t->z;
    const expr *a = e->args[0], *b = e->args[1];
    Z3_ast rm = K(Z3_mk_fpa_rne(z)), x = NULL, y = NULL;
    if (e->op >= EXPR_FADD && e->op <= EXPR_FDIV) {
        x = to_fp(t, a);
        y = to_fp(t, b);
    }
    switch (e->op) {
    case EXPR_FADD: return fp_bits(t, K(Z3_mk_fpa_add(z, rm, x, y)));
    case EXPR_FSUB: return fp_bits(t, K(Z3_mk_fpa_sub(z, rm, x, y)));
    case EXPR_FMUL: return fp_bits(t, K(Z3_mk_fpa_mul(z, rm, x, y)));
    case EXPR_FDIV: return fp_bits(t, K(Z3_mk_fpa_div(z, rm, x, y)));
    case EXPR_FNEG: { /* flip the sign bit: exact, also for NaN */
        Z3_ast sign = mk_num(t, e->width, (expr_u128)1 << (e->width - 1));
        return K(Z3_mk_bvxor(z, as_bv(t, a), sign));
    }
    case EXPR_FPEXT:
    case EXPR_FPTRUNC: {
        Z3_ast v = to_fp(t, a);
        Z3_sort srt = fp_sort(t, e->width);
        return fp_bits(t, K(Z3_mk_fpa_to_fp_float(z, rm, v, srt)));
    }
    case EXPR_SITOFP:
    case EXPR_UITOFP: {
        Z3_ast v = as_bv(t, a);
        Z3_sort srt = fp_sort(t, e->width);
        return fp_bits(t, K(e->op == EXPR_SITOFP ? Z3_mk_fpa_to_fp_signed(z, rm, v, srt)
                                                 : Z3_mk_fpa_to_fp_unsigned(z, rm, v, srt)));
    }
    default: return fp_to_int(t, e);
    }
}

typedef Z3_ast (*z3_bin)(Z3_context, Z3_ast, Z3_ast);

static const z3_bin bv_bin[EXPR__COUNT] = {
    [EXPR_ADD] = Z3_mk_bvadd,   [EXPR_SUB] = Z3_mk_bvsub,   [EXPR_MUL] = Z3_mk_bvmul,
    [EXPR_UDIV] = Z3_mk_bvudiv, [EXPR_SDIV] = Z3_mk_bvsdiv, [EXPR_UREM] = Z3_mk_bvurem,
    [EXPR_SREM] = Z3_mk_bvsrem, [EXPR_SHL] = Z3_mk_bvshl,   [EXPR_LSHR] = Z3_mk_bvlshr,
    [EXPR_ASHR] = Z3_mk_bvashr, [EXPR_AND] = Z3_mk_bvand,   [EXPR_OR] = Z3_mk_bvor,
    [EXPR_XOR] = Z3_mk_bvxor,   [EXPR_CONCAT] = Z3_mk_concat, [EXPR_EQ] = Z3_mk_eq,
    [EXPR_ULT] = Z3_mk_bvult,   [EXPR_ULE] = Z3_mk_bvule,   [EXPR_SLT] = Z3_mk_bvslt,
    [EXPR_SLE] = Z3_mk_bvsle,
};

/* Width-1 boolean connectives are translated in boolean form. */
static Z3_ast tr_logic(tr *t, const expr *e)
{
    Z3_context z = t->z;
    Z3_ast a = as_bool(t, e->args[0]);
    if (e->op == EXPR_NOT)
        return Z3_mk_not(z, a);
    Z3_ast b = as_bool(t, e->args[1]);
    switch (e->op) {
    case EXPR_AND: return Z3_mk_and(z, 2, (Z3_ast[]){a, b});
    case EXPR_OR: return Z3_mk_or(z, 2, (Z3_ast[]){a, b});
    case EXPR_XOR: return Z3_mk_xor(z, a, b);
    default: {
        Z3_ast c = as_bool(t, e->args[2]);
        return Z3_mk_ite(z, a, b, c);
    }
    }
}

static bool is_logic(const expr *e)
{
    return e->width == 1 && (e->op == EXPR_NOT || e->op == EXPR_AND || e->op == EXPR_OR ||
                             e->op == EXPR_XOR || e->op == EXPR_ITE);
}

/* Bit-vector (and array) operations other than the binary table. */
static Z3_ast tr_bv(tr *t, const expr *e)
{
    Z3_context z = t->z;
    const expr *a = e->args[0], *b = e->args[1];
    switch (e->op) {
    case EXPR_CONST: return mk_num(t, e->width, e->val);
    case EXPR_INPUT: return var_ast(t, e->aux, 8);
    case EXPR_VAR: return var_ast(t, EXPR_VKEY_NAMED | e->aux, e->width);
    case EXPR_NOT: return Z3_mk_bvnot(z, as_bv(t, a));
    case EXPR_NEG: return Z3_mk_bvneg(z, as_bv(t, a));
    case EXPR_ZEXT: return Z3_mk_zero_ext(z, e->width - a->width, as_bv(t, a));
    case EXPR_SEXT: return Z3_mk_sign_ext(z, e->width - a->width, as_bv(t, a));
    case EXPR_EXTRACT: return Z3_mk_extract(z, e->aux + e->width - 1, e->aux, as_bv(t, a));
    case EXPR_ITE: {
        Z3_ast q = as_bool(t, a), x = as_bv(t, b), y = as_bv(t, e->args[2]);
        return Z3_mk_ite(z, q, x, y);
    }
    case EXPR_ARR_CONST: {
        Z3_sort dom = bv_sort(t, 64);
        Z3_ast cell = mk_num(t, 8, e->val);
        return Z3_mk_const_array(z, dom, cell);
    }
    case EXPR_STORE: {
        Z3_ast arr = as_bv(t, a), ix = as_bv(t, b), v = as_bv(t, e->args[2]);
        return Z3_mk_store(z, arr, ix, v);
    }
    case EXPR_SELECT: {
        Z3_ast arr = as_bv(t, a), ix = as_bv(t, b);
        return Z3_mk_select(z, arr, ix);
    }
    default: return tr_fp(t, e);
    }
}

/* Translates node e (operands done) into t->bv or t->bo. */
static void tr_node(tr *t, const expr *e)
{
    Z3_context z = t->z;
    uint32_t i = e->slot;
    const expr *a = e->args[0], *b = e->args[1];
    Z3_ast r;
    bool boolean = true;
    if (is_logic(e)) {
        r = tr_logic(t, e);
    } else if (e->op >= EXPR_EQ && e->op <= EXPR_SLE) {
        Z3_ast x = as_bv(t, a), y = as_bv(t, b);
        r = e->op == EXPR_NE ? Z3_mk_not(z, K(Z3_mk_eq(z, x, y))) : bv_bin[e->op](z, x, y);
    } else if (e->op == EXPR_FCMP) {
        r = fcmp(t, e->aux, a, b);
    } else {
        boolean = false;
        if (bv_bin[e->op]) {
            Z3_ast x = as_bv(t, a), y = as_bv(t, b);
            r = bv_bin[e->op](z, x, y);
        } else {
            r = tr_bv(t, e);
        }
    }
    if (!r || Z3_get_error_code(z) != Z3_OK)
        t->err = true;
    if (boolean)
        t->bo[i] = keep(t->b, r);
    else
        t->bv[i] = keep(t->b, r);
}

/* ---- checking -------------------------------------------------------------- */

/* Reads the value of every query variable (vars[i] is the term of
 * q->keys[i]) from the model of s into m. */
static sb_result read_model(tr *t, Z3_solver s, const squery *q, Z3_ast *vars, solver_model *m)
{
    Z3_context z = t->z;
    Z3_model md = Z3_solver_get_model(z, s);
    if (!md)
        return SB_ERROR;
    Z3_model_inc_ref(z, md);
    sb_result r = SB_SAT;
    if (ctg_grow((void **)&m->v, &m->cap, q->n_keys + 1, sizeof *m->v))
        r = SB_OOM;
    for (size_t i = 0; i < q->n_keys && r == SB_SAT; i++) {
        Z3_ast val = NULL;
        uint64_t u = 0;
        if (!vars[i] || !Z3_model_eval(z, md, vars[i], true, &val) || !val ||
            !Z3_get_numeral_uint64(z, val, &u))
            r = SB_ERROR;
        m->v[i] = (solver_assign){q->keys[i], u};
    }
    if (r == SB_SAT)
        m->n = q->n_keys;
    Z3_model_dec_ref(z, md);
    return r;
}

static int cmp_key(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Translates every node reachable from the query; vars[i] gets the term of
 * q->keys[i].  False when out of memory. */
static bool translate(tr *t, expr **list, size_t ln, const squery *q, Z3_ast *vars)
{
    for (size_t i = 0; i < ln; i++)
        list[i]->slot = (uint32_t)i;
    for (size_t i = 0; i < ln && !t->b->oom && !t->err; i++) {
        expr *e = list[i];
        tr_node(t, e);
        if (e->op != EXPR_INPUT && e->op != EXPR_VAR)
            continue;
        uint32_t key = e->op == EXPR_INPUT ? e->aux : (EXPR_VKEY_NAMED | e->aux);
        const uint32_t *p = bsearch(&key, q->keys, q->n_keys, sizeof key, cmp_key);
        if (p)
            vars[p - q->keys] = t->bv[i];
    }
    return !t->b->oom;
}

static sb_result classify_unknown(Z3_context z, Z3_solver s)
{
    const char *why = Z3_solver_get_reason_unknown(z, s);
    if (why && (strstr(why, "timeout") || strstr(why, "canceled") || strstr(why, "resource")))
        return SB_TIMEOUT;
    return SB_UNKNOWN;
}

Z3_solver sz3_prepare(Z3_context z, Z3_solver s, uint32_t timeout_ms)
{
    if (!s)
        return NULL;
    Z3_solver_inc_ref(z, s);
    if (timeout_ms) {
        Z3_params p = Z3_mk_params(z);
        Z3_params_inc_ref(z, p);
        Z3_params_set_uint(z, p, Z3_mk_string_symbol(z, "timeout"), timeout_ms);
        Z3_solver_set_params(z, s, p);
        Z3_params_dec_ref(z, p);
    }
    return s;
}

/* A fresh solver for one query.  Z3's simple solver (the incremental SMT
 * core) starts fast and, measured on path queries, solves bit-vector
 * arithmetic faster than the QF_BV tactic; it also takes arrays and floats. */
static Z3_solver new_solver(tr *t, uint32_t timeout_ms)
{
    return sz3_prepare(t->z, Z3_mk_simple_solver(t->z), timeout_ms);
}

static sb_result check(tr *t, const squery *q, Z3_ast *vars, uint32_t timeout_ms, solver_model *m)
{
    Z3_context z = t->z;
    Z3_solver s = new_solver(t, timeout_ms);
    if (!s)
        return SB_ERROR;
    bool ok = true;
    for (size_t i = 0; i < q->n && ok; i++) {
        Z3_ast a = as_bool(t, q->cs[i]);
        if (a)
            Z3_solver_assert(z, s, a);
        ok = a && Z3_get_error_code(z) == Z3_OK;
    }
    sb_result r = SB_ERROR;
    if (ok && !t->b->oom) {
        switch (Z3_solver_check(z, s)) {
        case Z3_L_TRUE: r = read_model(t, s, q, vars, m); break;
        case Z3_L_FALSE: r = SB_UNSAT; break;
        default: r = classify_unknown(z, s); break;
        }
    }
    if (t->b->oom)
        r = SB_OOM;
    else if (Z3_get_error_code(z) != Z3_OK)
        r = SB_ERROR;
    Z3_solver_dec_ref(z, s);
    return r;
}

/* ---- the watchdog ---------------------------------------------------------- *
 *
 * Z3's timeout parameter bounds Z3_solver_check only.  The incremental
 * solver hands Z3 a level's terms at the next push, and Z3 works on them
 * there: 6,312 bounds of one term took minutes in one Z3_solver_push
 * (loops/terminator_02-1 of Test-Comp, before bound subsumption), past the
 * run's --time.  A thread waits for the query's deadline and interrupts
 * the context (Z3_interrupt, made to be called from another thread); the
 * interrupted call returns an error and the query answers timeout.  The
 * thread lives for one query only, so no fork of ctestgen copies it, and
 * starts only for a query that pushes WD_MIN_PUSH terms or more (a thread
 * costs 33 us; most queries push a term or two and take a millisecond).
 * Z3 does not look at the interrupt everywhere: a check of those 6,312
 * bounds ran for 100 s past both deadlines; bound subsumption
 * (solver_bounds.c) keeps such queries from Z3. */

#define WD_MIN_PUSH 64

typedef struct watchdog {
    pthread_t th;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct timespec deadline; /* CLOCK_MONOTONIC */
    Z3_context z;
    bool running, done, fired;
} watchdog;

static void *wd_main(void *arg)
{
    watchdog *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->done)
        if (pthread_cond_timedwait(&w->cv, &w->mu, &w->deadline) == ETIMEDOUT && !w->done) {
            w->fired = true;
            Z3_interrupt(w->z);
            break;
        }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Starts w on z with a deadline ms from now (0: none).  Without a thread
 * (none can be made) the query runs with Z3's own timeout only. */
static void wd_start(watchdog *w, Z3_context z, uint32_t ms)
{
    memset(w, 0, sizeof *w);
    if (!ms)
        return;
    w->z = z;
    clock_gettime(CLOCK_MONOTONIC, &w->deadline);
    w->deadline.tv_sec += ms / 1000;
    w->deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (w->deadline.tv_nsec >= 1000000000L) {
        w->deadline.tv_sec++;
        w->deadline.tv_nsec -= 1000000000L;
    }
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca))
        return;
    bool ok = !pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) &&
              !pthread_cond_init(&w->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (!ok)
        return;
    if (pthread_mutex_init(&w->mu, NULL)) {
        pthread_cond_destroy(&w->cv);
        return;
    }
    w->running = !pthread_create(&w->th, NULL, wd_main, w);
    if (!w->running) {
        pthread_mutex_destroy(&w->mu);
        pthread_cond_destroy(&w->cv);
    }
}

/* Stops w; true when it interrupted the context. */
static bool wd_stop(watchdog *w)
{
    if (!w->running)
        return false;
    pthread_mutex_lock(&w->mu);
    w->done = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->th, NULL);
    pthread_mutex_destroy(&w->mu);
    pthread_cond_destroy(&w->cv);
    w->running = false;
    return w->fired;
}

/* ---- incremental checking ------------------------------------------------ *
 *
 * A concolic search asks many queries that share most of their constraints:
 * the negations of one path share its prefix (the query for entry k+1 is
 * the one for entry k with c_k added and the focus ~c_k swapped for
 * ~c_{k+1}), and a child's path shares its parent's up to the negated
 * entry.  A fresh solver per query solves the shared part again every
 * time; on a 3-SAT instance written as 518 assume()s (xcsp/aim-100-3-4),
 * 22 ms a query.  One solver is kept instead, its assertions in push
 * levels: a query pops every level that holds a term it does not have,
 * then pushes one level with its other new terms and one with its new
 * focus terms (the focus changes every query, the prefix grows by one).
 * What is asserted is then exactly the query's set, so the answer is the
 * fresh solver's (sat or unsat; a model may differ), and Z3 keeps what it
 * learnt from the levels that stay.  Terms are compared as Z3 terms, which
 * Z3 shares structurally: the same constraint translated by two queries is
 * one term.  An error, unknown or timeout drops the solver; after an error
 * the query is asked again of a fresh one (check). */

#define INC_MAX_TERMS 200000 /* asserted terms before the solver starts afresh */

static void inc_pop_to(sbackend *b, size_t levels)
{
    inc_state *in = &b->inc;
    if (levels >= in->levels)
        return;
    Z3_solver_pop(b->z, in->s, (unsigned)(in->levels - levels));
    size_t from = in->level[levels];
    for (size_t i = from; i < in->n; i++)
        Z3_dec_ref(b->z, in->ast[i]);
    in->n = from;
    in->levels = levels;
}

static void inc_reset(sbackend *b)
{
    inc_state *in = &b->inc;
    if (!in->s)
        return;
    for (size_t i = 0; i < in->n; i++)
        Z3_dec_ref(b->z, in->ast[i]);
    Z3_solver_dec_ref(b->z, in->s);
    in->s = NULL;
    in->n = in->levels = 0;
    in->timeout = 0;
}

static int cmp_ptr(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t) * (void *const *)x, c = (uintptr_t) * (void *const *)y;
    return (a > c) - (a < c);
}

static bool in_sorted(Z3_ast a, Z3_ast *set, size_t n)
{
    return bsearch(&a, set, n, sizeof *set, cmp_ptr) != NULL;
}

/* Pushes a level asserting the terms a[i] with focus[i] == want that are
 * not asserted yet (asserted: the set of the solver's terms, which this
 * adds to; a query may hold a term twice).  False when out of memory. */
static bool inc_push(sbackend *b, Z3_ast *a, const bool *focus, size_t n, bool want,
                     hmap *asserted)
{
    inc_state *in = &b->inc;
    bool pushed = false, added;
    for (size_t i = 0; i < n; i++) {
        if (focus[i] != want)
            continue;
        if (!hmap_add(asserted, (uint64_t)(uintptr_t)a[i], &added))
            return false;
        if (!added)
            continue;
        if (ctg_grow((void **)&in->ast, &in->cap, in->n + 1, sizeof *in->ast))
            return false;
        if (!pushed) {
            if (ctg_grow((void **)&in->level, &in->cap_levels, in->levels + 1, sizeof *in->level))
                return false;
            Z3_solver_push(b->z, in->s);
            in->level[in->levels++] = in->n;
            pushed = true;
        }
        Z3_inc_ref(b->z, a[i]);
        in->ast[in->n++] = a[i];
        Z3_solver_assert(b->z, in->s, a[i]);
    }
    return true;
}

/* Brings the incremental solver to the query's terms a[0..n) (focus[i]:
 * from the focus constraint), under the watchdog w (started here when
 * many terms are pushed; the caller stops it).  False on an error (the
 * caller resets). */
static bool inc_sync(sbackend *b, Z3_ast *a, const bool *focus, size_t n, uint32_t timeout_ms,
                     watchdog *w)
{
    inc_state *in = &b->inc;
    if (in->s && in->n > INC_MAX_TERMS)
        inc_reset(b);
    if (!in->s) {
        in->s = sz3_prepare(b->z, Z3_mk_simple_solver(b->z), 0);
        if (!in->s)
            return false;
    }
    Z3_ast *set = ctg_malloc((n + 1) * sizeof *set);
    if (!set)
        return false;
    if (n) {
        memcpy(set, a, n * sizeof *set);
        qsort(set, n, sizeof *set, cmp_ptr);
    }
    size_t keep = 0; /* the levels whose terms the query all has */
    for (; keep < in->levels; keep++) {
        size_t end = keep + 1 < in->levels ? in->level[keep + 1] : in->n, i = in->level[keep];
        while (i < end && in_sorted(in->ast[i], set, n))
            i++;
        if (i < end)
            break;
    }
    ctg_free(set);
    inc_pop_to(b, keep);
    if (n > in->n && n - in->n >= WD_MIN_PUSH)
        wd_start(w, b->z, timeout_ms);
    hmap asserted = HMAP_SET;
    bool ok = true, added;
    for (size_t i = 0; i < in->n && ok; i++)
        ok = hmap_add(&asserted, (uint64_t)(uintptr_t)in->ast[i], &added);
    ok = ok && inc_push(b, a, focus, n, false, &asserted) &&
         inc_push(b, a, focus, n, true, &asserted);
    hmap_release(&asserted);
    uint32_t z3_timeout = timeout_ms ? timeout_ms : UINT32_MAX;
    if (ok && z3_timeout != in->timeout) { /* parameters only when they change */
        Z3_params p = Z3_mk_params(b->z);
        Z3_params_inc_ref(b->z, p);
        Z3_params_set_uint(b->z, p, Z3_mk_string_symbol(b->z, "timeout"), z3_timeout);
        Z3_solver_set_params(b->z, in->s, p);
        Z3_params_dec_ref(b->z, p);
        in->timeout = z3_timeout;
    }
    return ok && Z3_get_error_code(b->z) == Z3_OK;
}

/* After a sat check of s whose model m gives the input length (named
 * variable 0) more than q->len_soft: asks again with the length at most
 * that (an assumption, so the assertions stay); its model when sat, else
 * m as it is. */
static sb_result shorter(tr *t, Z3_solver s, const squery *q, Z3_ast *vars, solver_model *m)
{
    size_t k = 0;
    while (k < q->n_keys && q->keys[k] != EXPR_VKEY_NAMED)
        k++;
    if (!q->len_soft || k == q->n_keys || !vars[k] || k >= m->n || m->v[k].val <= q->len_soft)
        return SB_SAT;
    Z3_context z = t->z;
    unsigned w = Z3_get_bv_sort_size(z, Z3_get_sort(z, vars[k]));
    if (Z3_get_error_code(z) != Z3_OK || w < 1 || w > 64 ||
        (w < 64 && q->len_soft >> w))
        return SB_SAT;
    Z3_ast lim = K(Z3_mk_unsigned_int64(z, q->len_soft, Z3_get_sort(z, vars[k])));
    Z3_ast a = lim ? K(Z3_mk_bvule(z, vars[k], lim)) : NULL;
    if (!a || Z3_solver_check_assumptions(z, s, 1, &a) != Z3_L_TRUE)
        return SB_SAT; /* m holds the first model */
    return read_model(t, s, q, vars, m);
}

static sb_result check_inc(tr *t, const squery *q, Z3_ast *vars, uint32_t timeout_ms,
                           solver_model *m)
{
    sbackend *b = t->b;
    Z3_ast *a = ctg_malloc((q->n + 1) * sizeof *a);
    if (!a)
        return SB_OOM;
    bool ok = true;
    for (size_t i = 0; i < q->n && ok; i++)
        ok = (a[i] = as_bool(t, q->cs[i])) != NULL && Z3_get_error_code(t->z) == Z3_OK;
    watchdog w = {.running = false};
    ok = ok && !b->oom && inc_sync(b, a, q->focus, q->n, timeout_ms, &w);
    ctg_free(a);
    sb_result r = SB_ERROR;
    if (ok) {
        switch (Z3_solver_check(t->z, b->inc.s)) {
        case Z3_L_TRUE: r = read_model(t, b->inc.s, q, vars, m); break;
        case Z3_L_FALSE: r = SB_UNSAT; break;
        default: r = classify_unknown(t->z, b->inc.s); break;
        }
    }
    if (r == SB_SAT)
        r = shorter(t, b->inc.s, q, vars, m);
    bool fired = wd_stop(&w);
    if (b->oom)
        r = SB_OOM;
    else if (fired)
        r = SB_TIMEOUT; /* whatever the interrupted call answered */
    else if (Z3_get_error_code(t->z) != Z3_OK)
        r = SB_ERROR;
    if (r != SB_SAT && r != SB_UNSAT)
        inc_reset(b);
    if (r == SB_ERROR && !b->oom) /* what push and pop could not, a fresh solver may */
        r = check(t, q, vars, timeout_ms, m);
    return r;
}

/* ---- queries too large to ask -------------------------------------------- *
 *
 * Z3 bit-blasts a product or quotient of two non-constant w-bit terms into
 * about w^2 gates.  A loop that multiplies the input into a value every
 * iteration (nla-digbench/geo1-ll: y = y * z) gives queries with thousands
 * of them: one with 7,734 constraints (46,410 nodes) kept Z3 busy for
 * over 15 minutes and 6 GB in Z3_solver_check, past its timeout and the
 * watchdog's interrupt, which Z3 does not look at there.  On that program
 * generational search's queries with about 50 of them (sum of w^2 near
 * 200,000) already run into the 5 s timeout.  A query whose sum of w^2
 * over such operations is above NONLINEAR_MAX (scaled with the timeout
 * beyond 5 s) is not asked: it answers "too large", a skip. */

#define NONLINEAR_MAX (1u << 20) /* 256 products of 64-bit terms */

static bool nonlinear_op(const expr *e)
{
    switch (e->op) {
    case EXPR_MUL:
    case EXPR_UDIV:
    case EXPR_SDIV:
    case EXPR_UREM:
    case EXPR_SREM: return !expr_is_const(e->args[0]) && !expr_is_const(e->args[1]);
    case EXPR_FMUL:
    case EXPR_FDIV: return true;
    default: return false;
    }
}

/* True when the nodes list[0..n) hold more non-linear work than a query
 * with timeout_ms can take. */
static bool too_large(expr *const *list, size_t n, uint32_t timeout_ms)
{
    uint64_t cost = 0, max = NONLINEAR_MAX;
    if (timeout_ms == 0)
        return false;
    if (timeout_ms > 5000)
        max = max * (timeout_ms / 5000);
    for (size_t i = 0; i < n && cost <= max; i++)
        if (nonlinear_op(list[i]))
            cost += (uint64_t)list[i]->width * list[i]->width;
    return cost > max;
}

sb_result sbackend_check(sbackend *b, expr_ctx *c, const squery *q, uint32_t timeout_ms,
                         solver_model *m)
{
    expr **list = NULL;
    size_t ln = 0;
    Z3_ast *bv = NULL, *bo = NULL, *vars = NULL;
    sb_result r = SB_OOM;
    b->oom = false;
    if (!expr_collect(c, q->cs, q->n, &list, &ln))
        return SB_OOM;
    if (too_large(list, ln, timeout_ms)) {
        ctg_free(list);
        return SB_TOO_LARGE;
    }
    bv = ctg_calloc(ln + 1, sizeof *bv);
    bo = ctg_calloc(ln + 1, sizeof *bo);
    vars = ctg_calloc(q->n_keys + 1, sizeof *vars);
    tr t = {b, b->z, bv, bo, false};
    if (bv && bo && vars && translate(&t, list, ln, q, vars))
        r = t.err ? SB_ERROR : check_inc(&t, q, vars, timeout_ms, m);
    if (Z3_get_error_code(b->z) != Z3_OK && r != SB_OOM)
        r = SB_ERROR;
    release_keep(b);
    ctg_free(list);
    ctg_free(bv);
    ctg_free(bo);
    ctg_free(vars);
    return r;
}
