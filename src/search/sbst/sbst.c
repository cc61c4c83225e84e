/*
 * sbst.c - running and scoring tests for the search-based strategies (see
 * sbst.h).
 */
#include "sbst.h"

#include <string.h>

#include "../../base/hash.h"
#include "../../base/mem.h"

#define SBST_POOL_INT 512
#define SBST_POOL_FLOAT 128

struct sbst {
    sbst_env env;
    tc_params tp;
    unsigned want;
    rng r;
    cdg_t *g;
    fit_t *f;
    uint32_t n_goals, n_covered;
    uint8_t *covered;     /* per goal                                 */
    uint8_t *profile;     /* types of the longest run so far          */
    uint32_t n_profile, cap_profile;
    uint32_t last_n;      /* values of the previous run               */
    bool variable, stopped, seen_run;
    uint64_t runs;
    uint8_t *buf;         /* serialised input                         */
    size_t cap_buf;
    /* constant pool (tp.ipool / tp.fpool point here) */
    int64_t ipool[SBST_POOL_INT];
    double fpool[SBST_POOL_FLOAT];
    uint64_t *seen;       /* per comparison site: hash of the last operands */
    uint32_t n_seen;
    uint32_t focus;       /* sbst_set_focus                           */
};

sbst_t *sbst_new(const sbst_env *env, const tc_params *tp, unsigned want, ctg_err *e)
{
    sbst_t *s = ctg_calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "search: out of memory");
        return NULL;
    }
    s->env = *env;
    s->tp = *tp;
    s->want = want;
    rng_seed(&s->r, env->seed);
    s->focus = UINT32_MAX;
    s->g = cdg_build(env->db, e);
    if (!s->g)
        goto fail;
    s->f = fit_new(env->db, s->g);
    s->n_goals = cdg_n_goals(s->g);
    s->covered = ctg_calloc(s->n_goals + 1, 1);
    if (!s->f || !s->covered) {
        err_set(e, "search: out of memory");
        goto fail;
    }
    return s;
fail:
    sbst_free(s);
    return NULL;
}

void sbst_free(sbst_t *s)
{
    if (!s)
        return;
    fit_free(s->f);
    cdg_free(s->g);
    ctg_free(s->covered);
    ctg_free(s->profile);
    ctg_free(s->buf);
    ctg_free(s->seen);
    ctg_free(s);
}

rng *sbst_rng(sbst_t *s) { return &s->r; }
const tc_params *sbst_params(const sbst_t *s) { return &s->tp; }
const cdg_t *sbst_cdg(const sbst_t *s) { return s->g; }
fit_t *sbst_fit(sbst_t *s) { return s->f; }
uint32_t sbst_n_goals(const sbst_t *s) { return s->n_goals; }
bool sbst_goal_covered(const sbst_t *s, uint32_t goal) { return s->covered[goal] != 0; }
bool sbst_goal_dropped(const sbst_t *s, uint32_t goal)
{
    return s->env.dropped && s->env.dropped(s->env.ud, goal);
}
uint32_t sbst_n_covered(const sbst_t *s) { return s->n_covered; }
bool sbst_all_covered(const sbst_t *s) { return s->n_covered == s->n_goals; }
uint64_t sbst_runs(const sbst_t *s) { return s->runs; }
bool sbst_variable(const sbst_t *s) { return s->variable; }
bool sbst_stopped(const sbst_t *s) { return s->stopped; }
void sbst_set_focus(sbst_t *s, uint32_t goal) { s->focus = goal; }

double sbst_progress(const sbst_t *s)
{
    double p = s->env.progress ? s->env.progress(s->env.ud) : 0;
    return p < 0 ? 0 : p > 1 ? 1 : p;
}

sbst_ind *sbst_ind_ref(sbst_ind *x)
{
    if (x)
        x->refs++;
    return x;
}

void sbst_ind_unref(sbst_ind *x)
{
    if (!x || --x->refs > 0)
        return;
    tc_release(&x->tc);
    ctg_free(x->fit);
    fit_trace_release(&x->tr);
    ctg_free(x);
}

uint32_t sbst_pool_size(const sbst_t *s) { return s->tp.n_ipool + s->tp.n_fpool; }

/* Adds x to the integer pool unless present (random slot when full). */
static void pool_add_int(sbst_t *s, int64_t x)
{
    for (uint32_t i = 0; i < s->tp.n_ipool; i++)
        if (s->ipool[i] == x)
            return;
    if (s->tp.n_ipool < SBST_POOL_INT)
        s->ipool[s->tp.n_ipool++] = x;
    else
        s->ipool[rng_below(&s->r, SBST_POOL_INT)] = x;
}

static void pool_add_float(sbst_t *s, double x)
{
    for (uint32_t i = 0; i < s->tp.n_fpool; i++)
        if (s->fpool[i] == x || (x != x && s->fpool[i] != s->fpool[i]))
            return;
    if (s->tp.n_fpool < SBST_POOL_FLOAT)
        s->fpool[s->tp.n_fpool++] = x;
    else
        s->fpool[rng_below(&s->r, SBST_POOL_FLOAT)] = x;
}

/* Harvests the operands of the comparison sites the run executed; a site
 * whose operands did not change since its last harvest costs one compare. */
static void harvest(sbst_t *s, const sbst_obs *o)
{
    const progdb *db = s->env.db;
    if (!o->cmp || o->n_cmp == 0)
        return;
    if (s->n_seen < o->n_cmp) {
        uint64_t *n = ctg_realloc(s->seen, o->n_cmp * sizeof *n);
        if (!n)
            return;
        memset(n + s->n_seen, 0, (o->n_cmp - s->n_seen) * sizeof *n);
        s->seen = n;
        s->n_seen = o->n_cmp;
    }
    for (uint32_t i = 0; i < o->n_cmp; i++) {
        const ctg_cmp_rec *c = &o->cmp[i];
        if (c->hits == 0 || c->bits == 0 || c->bits > 64)
            continue;
        uint64_t h = hash_combine64(hash_combine64(hash_mix64(c->a), c->b), c->bits) | 1;
        if (s->seen[i] == h)
            continue;
        s->seen[i] = h;
        const char *kind = db->cmps && i < db->n_cmp ? db->cmps[i].kind : "icmp";
        if (kind && !strcmp(kind, "fcmp")) {
            double a, b;
            memcpy(&a, &c->a, 8);
            memcpy(&b, &c->b, 8);
            pool_add_float(s, a);
            pool_add_float(s, b);
        } else if (!kind || !strcmp(kind, "icmp")) {
            unsigned sh = 64 - c->bits;
            pool_add_int(s, (int64_t)(c->a << sh) >> sh); /* sign-extended */
            pool_add_int(s, (int64_t)(c->b << sh) >> sh);
        }
    }
    s->tp.ipool = s->ipool;
    s->tp.fpool = s->fpool;
}

/* Remembers the types of the longest run, and whether runs differ in the
 * number of values they consume. */
static void update_profile(sbst_t *s, const tcase *t)
{
    if (s->seen_run && t->n != s->last_n)
        s->variable = true;
    s->seen_run = true;
    s->last_n = t->n;
    if (t->n < s->n_profile || t->n == 0)
        return;
    size_t cap = s->cap_profile;
    if (ctg_grow((void **)&s->profile, &cap, t->n, 1) < 0)
        return;
    s->cap_profile = (uint32_t)cap;
    for (uint32_t i = 0; i < t->n; i++)
        s->profile[i] = t->v[i].type;
    s->n_profile = t->n;
}

/* Fixed-arity inputs: a test that lost values (crossover, a short parent)
 * is padded with random values of the known types, so the random extension
 * of the runtime (whose domain is not ours) is not needed. */
static bool pad(sbst_t *s, tcase *t)
{
    if (s->variable)
        return true;
    for (uint32_t i = t->n; i < s->n_profile; i++)
        if (!tc_push(t, s->profile[i], tc_random_value(s->profile[i], &s->tp, &s->r).bits))
            return false;
    return true;
}

/* Scores the run just observed into x. */
static bool score(sbst_t *s, const sbst_obs *o, sbst_ind *x)
{
    harvest(s, o);
    fit_run fr = {o->cov, o->dist, o->error, o->error_site};
    fit_begin(s->f, &fr);
    x->discard = o->discard;
    if (s->focus < s->n_goals)
        x->focus = o->discard ? (fit_exact){false, (uint32_t)fit_unreached(s->f, s->focus), 0}
                              : fit_goal_exact(s->f, s->focus);
    if (s->want & SBST_DENSE) {
        x->fit = ctg_malloc((s->n_goals + 1) * sizeof *x->fit);
        if (!x->fit)
            return false;
        if (o->discard)
            for (uint32_t g = 0; g < s->n_goals; g++)
                x->fit[g] = (float)fit_unreached(s->f, g);
        else
            fit_all(s->f, x->fit);
    }
    if ((s->want & SBST_TRACE) && !o->discard && !fit_trace_make(s->f, &x->tr))
        return false;
    if (o->discard)
        return true;
    for (uint32_t g = 0; g < s->n_goals; g++)
        if (fit_covered(s->f, g)) {
            x->n_covered++;
            if (!s->covered[g]) {
                s->covered[g] = 1;
                s->n_covered++;
            }
        }
    return true;
}

/* Serialises and runs t, then adopts the values the run consumed (types
 * from the log; with an inexact log the values stay as given).  Values the
 * run appended outside the integer domain are clamped and the test run
 * again, so a strict --int-range holds.  False when stopped or oom. */
static bool run_adopt(sbst_t *s, tcase *t, sbst_obs *o)
{
    for (int pass = 0; pass < 2; pass++) {
        uint32_t given = t->n;
        size_t len = tc_bytes(t, s->tp.arch_bits);
        if (ctg_grow((void **)&s->buf, &s->cap_buf, len + 1, 1) < 0)
            return false;
        tc_serialise(t, s->tp.arch_bits, s->buf);
        memset(o, 0, sizeof *o);
        if (!s->env.run(s->env.ud, s->buf, len, o)) {
            s->stopped = true;
            return false;
        }
        s->runs++;
        (void)tc_adopt(t, o->input, o->input_len, o->vals, o->n_vals);
        if (t->n <= given || !tc_clamp(t, given, &s->tp))
            break;
    }
    return true;
}

sbst_ind *sbst_eval(sbst_t *s, tcase *t)
{
    sbst_ind *x = NULL;
    sbst_obs o;
    if (s->stopped || !pad(s, t) || !run_adopt(s, t, &o))
        goto out;
    x = ctg_calloc(1, sizeof *x);
    if (!x)
        goto out;
    x->refs = 1;
    x->tc = *t;
    tc_init(t);
    update_profile(s, &x->tc);
    if (!score(s, &o, x)) {
        sbst_ind_unref(x);
        x = NULL;
    }
out:
    tc_release(t);
    return x;
}

bool sbst_random_test(sbst_t *s, tcase *t)
{
    tc_release(t);
    if (s->n_profile == 0)
        return true; /* nothing known yet: the runtime draws the values */
    uint32_t n = s->n_profile;
    if (s->variable)
        n = 1 + (uint32_t)rng_below(&s->r, n);
    if (!tc_random(t, s->profile, n, &s->tp, &s->r))
        return false;
    /* strings: end the random ones so their length varies (seed 001) */
    int last = t->v[n - 1].type;
    if (s->variable && (last == CTG_T_CHAR || last == CTG_T_UCHAR))
        t->v[n - 1].bits = 0;
    return true;
}

sbst_ind *sbst_eval_random(sbst_t *s)
{
    tcase t;
    tc_init(&t);
    if (!sbst_random_test(s, &t)) {
        tc_release(&t);
        return NULL;
    }
    return sbst_eval(s, &t);
}

sbst_ind *sbst_eval_mutant(sbst_t *s, const tcase *parent)
{
    tcase t;
    tc_init(&t);
    if (!tc_copy(&t, parent) || !tc_mutate(&t, &s->tp, s->variable, &s->r)) {
        tc_release(&t);
        return NULL;
    }
    return sbst_eval(s, &t);
}
