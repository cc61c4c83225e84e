/*
 * solver.c - the solver chain of solver.h: preparation (normalisation and
 * slicing, solver_prep.c), the query and counter-example caches
 * (solver_cache.c), evaluation of candidate models, the back end
 * (solver_z3.c) and the floating-point relaxation in front of it (solver_fp.c), with
 * statistics for every layer.
 */
#include "solver.h"

#include <string.h>
#include <time.h>

#include "../base/mem.h"
#include "solver_int.h"

struct solver {
    solver_opts o;
    solver_stats st;
    scache *cache;
    sbackend *be;
    varmemo memo;
};

void solver_opts_default(solver_opts *o)
{
    o->normalize = true;
    o->slice = true;
    o->subsume = true;
    o->query_cache = true;
    o->cex_cache = true;
    o->fp_relax = true;
    o->fp_relax_timeout_ms = 1000;
    o->timeout_ms = 5000;
    o->qcache_max = 65536;
    o->cex_max = 4096;
    o->cex_recent = 8;
}

void solver_model_release(solver_model *m)
{
    if (!m)
        return;
    ctg_free(m->v);
    m->v = NULL;
    m->n = m->cap = 0;
}

bool smodel_set(solver_model *m, const solver_assign *v, size_t n)
{
    if (ctg_grow((void **)&m->v, &m->cap, n + 1, sizeof *m->v))
        return false;
    if (n)
        memcpy(m->v, v, n * sizeof *v);
    m->n = n;
    return true;
}

solver *solver_new(const solver_opts *o, ctg_err *e)
{
    solver *s = ctg_calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "solver: out of memory");
        return NULL;
    }
    if (o)
        s->o = *o;
    else
        solver_opts_default(&s->o);
    s->cache = scache_new(s->o.qcache_max, s->o.cex_max);
    if (!s->cache) {
        err_set(e, "solver: out of memory");
        solver_free(s);
        return NULL;
    }
    s->be = sbackend_new(e);
    if (!s->be) {
        solver_free(s);
        return NULL;
    }
    return s;
}

void solver_free(solver *s)
{
    if (!s)
        return;
    scache_free(s->cache);
    sbackend_free(s->be);
    varmemo_release(&s->memo);
    ctg_free(s);
}

const solver_stats *solver_get_stats(const solver *s) { return &s->st; }
const solver_opts *solver_get_opts(const solver *s) { return &s->o; }
const char *solver_backend_name(void) { return sbackend_name(); }

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- rule (c): candidate models checked by evaluation ------------------------ */

typedef struct trial {
    expr_ctx *c;
    const squery *q;
    const expr_env *base;
    uint8_t *bytes; /* base bytes overlaid with the candidate */
    size_t n_bytes;
    uint32_t *ids;  /* named variables: base then candidate   */
    uint64_t *vals;
    size_t n_named;
    expr_u128 *out;
    solver_model *m;
    bool oom;
} trial;

/* Builds the environment base + candidate model in tr. */
static bool overlay(trial *tr, const solver_assign *v, size_t n)
{
    size_t nb = tr->base->n_bytes;
    for (size_t i = 0; i < n; i++)
        if (!(v[i].key & EXPR_VKEY_NAMED) && v[i].key >= nb)
            nb = (size_t)v[i].key + 1;
    ctg_free(tr->bytes);
    ctg_free(tr->ids);
    ctg_free(tr->vals);
    tr->bytes = ctg_calloc(nb + 1, 1);
    tr->ids = ctg_malloc((tr->base->n_named + n + 1) * sizeof *tr->ids);
    tr->vals = ctg_malloc((tr->base->n_named + n + 1) * sizeof *tr->vals);
    if (!tr->bytes || !tr->ids || !tr->vals)
        return false;
    if (tr->base->n_bytes)
        memcpy(tr->bytes, tr->base->bytes, tr->base->n_bytes);
    tr->n_bytes = nb;
    tr->n_named = 0;
    for (size_t i = 0; i < n; i++) /* candidate first: env lookup takes the first match */
        if (v[i].key & EXPR_VKEY_NAMED) {
            tr->ids[tr->n_named] = v[i].key & ~EXPR_VKEY_NAMED;
            tr->vals[tr->n_named++] = v[i].val;
        } else {
            tr->bytes[v[i].key] = (uint8_t)v[i].val;
        }
    for (size_t i = 0; i < tr->base->n_named; i++) {
        tr->ids[tr->n_named] = tr->base->named_ids[i];
        tr->vals[tr->n_named++] = tr->base->named_vals[i];
    }
    return true;
}

/* scache_try_models callback: does base + v satisfy every constraint? */
static bool try_model(void *user, const solver_assign *v, size_t n)
{
    trial *tr = user;
    if (tr->oom || !overlay(tr, v, n)) {
        tr->oom = true;
        return false;
    }
    expr_env env = {tr->bytes, tr->n_bytes, tr->ids, tr->vals, tr->n_named};
    if (!expr_eval(tr->c, tr->q->cs, tr->q->n, &env, tr->out)) {
        tr->oom = true;
        return false;
    }
    for (size_t i = 0; i < tr->q->n; i++)
        if (!tr->out[i])
            return false;
    /* the model of the query: its variables' values in the environment */
    if (ctg_grow((void **)&tr->m->v, &tr->m->cap, tr->q->n_keys + 1, sizeof *tr->m->v)) {
        tr->oom = true;
        return false;
    }
    for (size_t i = 0; i < tr->q->n_keys; i++) {
        uint32_t key = tr->q->keys[i];
        uint64_t val = 0;
        if (key & EXPR_VKEY_NAMED) {
            for (size_t j = 0; j < tr->n_named; j++)
                if (tr->ids[j] == (key & ~EXPR_VKEY_NAMED)) {
                    val = tr->vals[j];
                    break;
                }
        } else {
            val = key < tr->n_bytes ? tr->bytes[key] : 0;
        }
        tr->m->v[i] = (solver_assign){key, val};
    }
    tr->m->n = tr->q->n_keys;
    return true;
}

/* Rule (c), only for queries
 * whose evaluation agrees with the solver. */
static bool try_subset_models(solver *s, expr_ctx *c, const squery *q, const expr_env *base,
                              solver_model *m)
{
    if (!q->exact)
        return false;
    trial tr = {.c = c, .q = q, .base = base, .m = m};
    tr.out = ctg_malloc((q->n + 1) * sizeof *tr.out);
    bool hit = tr.out && scache_try_models(s->cache, q, s->o.cex_recent, try_model, &tr);
    ctg_free(tr.out);
    ctg_free(tr.bytes);
    ctg_free(tr.ids);
    ctg_free(tr.vals);
    return hit;
}

/* ---- the chain ------------------------------------------------------------------ */

static solver_result answer(solver *s, solver_result r)
{
    if (r == SOLVER_SAT)
        s->st.res_sat++;
    else if (r == SOLVER_UNSAT)
        s->st.res_unsat++;
    else if (r == SOLVER_SKIP)
        s->st.res_skip++;
    return r;
}

static void remember(solver *s, const squery *q, solver_result r, const solver_model *m)
{
    if (!scache_put(s->cache, q, r, m, s->o.query_cache, s->o.cex_cache))
        s->st.cache_oom++;
}

/* Layers 3 and 4.  SOLVER_FAIL means "not answered". */
static solver_result from_caches(solver *s, expr_ctx *c, const squery *q, const expr_env *base,
                                 solver_model *m)
{
    if (!s->o.query_cache && !s->o.cex_cache)
        return SOLVER_FAIL;
    s->st.cache_lookups++;
    if (s->o.query_cache) {
        switch (scache_exact(s->cache, q, m)) {
        case HIT_EXACT_SAT: s->st.qcache_hits++; return SOLVER_SAT;
        case HIT_EXACT_UNSAT: s->st.qcache_hits++; return SOLVER_UNSAT;
        case HIT_EXACT_SKIP: s->st.qcache_hits++; return SOLVER_SKIP;
        default: break;
        }
    }
    if (!s->o.cex_cache)
        return SOLVER_FAIL;
    solver_result r = SOLVER_FAIL;
    switch (scache_cex(s->cache, q, m)) {
    case HIT_UNSAT_SUBSET: s->st.cex_unsat_subset++; r = SOLVER_UNSAT; break;
    case HIT_SUPERSET: s->st.cex_superset++; r = SOLVER_SAT; break;
    default:
        if (try_subset_models(s, c, q, base, m)) {
            s->st.cex_subset_model++;
            r = SOLVER_SAT;
        }
        break;
    }
    if (r != SOLVER_FAIL && s->o.query_cache && !scache_put(s->cache, q, r, m, true, false))
        s->st.cache_oom++;
    return r;
}

static bool has_fp(const squery *q)
{
    for (size_t i = 0; i < q->n; i++)
        if (q->cs[i]->flags & EXPR_F_FP)
            return true;
    return false;
}

/* Layer 5.  Accepts a candidate only when evaluation satisfies every
 * constraint, also for inexact queries (whose NaN bits evaluation may get
 * wrong): the run that follows is the judge (a divergence is counted by the
 * caller). */
static bool from_fp_relaxation(solver *s, expr_ctx *c, const squery *q, const expr_env *base,
                             solver_model *m)
{
    double t0 = now();
    trial tr = {.c = c, .q = q, .base = base, .m = m};
    tr.out = ctg_malloc((q->n + 1) * sizeof *tr.out);
    uint32_t evals = 0;
    bool oom = !tr.out;
    bool found = !oom && sfp_search(c, q, base, s->o.fp_relax_timeout_ms, try_model, &tr, &evals, &oom);
    ctg_free(tr.out);
    ctg_free(tr.bytes);
    ctg_free(tr.ids);
    ctg_free(tr.vals);
    s->st.fp_tries++;
    s->st.fp_evals += evals;
    s->st.fp_sat += found && !tr.oom;
    s->st.fp_secs += now() - t0;
    return found && !tr.oom;
}

static solver_result from_backend(solver *s, expr_ctx *c, const squery *q, solver_model *m,
                                  ctg_err *e)
{
    double t0 = now();
    s->st.backend_calls++;
    sb_result br = sbackend_check(s->be, c, q, s->o.timeout_ms, m);
    s->st.backend_secs += now() - t0;
    switch (br) {
    case SB_SAT: s->st.sat++; remember(s, q, SOLVER_SAT, m); return SOLVER_SAT;
    case SB_UNSAT: s->st.unsat++; remember(s, q, SOLVER_UNSAT, m); return SOLVER_UNSAT;
    case SB_UNKNOWN: s->st.unknown++; break;
    case SB_TIMEOUT: s->st.timeout++; break;
    case SB_TOO_LARGE: s->st.too_large++; break;
    case SB_ERROR: s->st.error++; break;
    default: err_set(e, "solver: out of memory while solving a query"); return SOLVER_FAIL;
    }
    remember(s, q, SOLVER_SKIP, m);
    return SOLVER_SKIP;
}

/* The input length a model should keep to when it can: twice the base
 * run's, at least SOLVER_LEN_SOFT_MIN.  Z3 answers "size >= 8" with any
 * size, 16 MB as well, and a test that long is a 670 MB file. */
static uint64_t len_soft(const expr_env *base)
{
    uint64_t len = base ? base->n_bytes : 0;
    for (size_t i = 0; base && i < base->n_named; i++)
        if (base->named_ids[i] == 0)
            len = base->named_vals[i];
    len = len > UINT64_MAX / 4 ? UINT64_MAX / 2 : 2 * len;
    return len < SOLVER_LEN_SOFT_MIN ? SOLVER_LEN_SOFT_MIN : len;
}

solver_result solver_solve(solver *s, expr_ctx *c, expr *const *cs, size_t n, size_t focus,
                           const expr_env *base, solver_model *m, ctg_err *e)
{
    double t0 = now();
    squery q;
    solver_result r;
    s->st.queries++;
    m->n = 0;
    if (focus >= n) {
        err_set(e, "solver: focus %zu outside a query of %zu constraints", focus, n);
        return SOLVER_FAIL;
    }
    switch (squery_prep(&q, c, cs, n, focus, s->o.normalize, s->o.slice,
                        s->o.subsume ? base : NULL, &s->memo, &s->st)) {
    case PREP_TRUE: s->st.trivial++; r = SOLVER_SAT; break;
    case PREP_FALSE: s->st.trivial++; r = SOLVER_UNSAT; break;
    case PREP_OOM:
        err_set(e, "solver: out of memory while preparing a query");
        r = SOLVER_FAIL;
        break;
    default:
        q.len_soft = len_soft(base);
        r = from_caches(s, c, &q, base, m);
        if (r == SOLVER_FAIL && s->o.fp_relax && has_fp(&q) &&
            from_fp_relaxation(s, c, &q, base, m)) {
            remember(s, &q, SOLVER_SAT, m);
            r = SOLVER_SAT;
        }
        if (r == SOLVER_FAIL)
            r = from_backend(s, c, &q, m, e);
        break;
    }
    squery_release(&q);
    s->st.total_secs += now() - t0;
    return answer(s, r);
}
