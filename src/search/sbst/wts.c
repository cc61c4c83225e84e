/*
 * wts.c - the whole test suite GA of seed 001 (ga() with get_fitness over
 * suites), step by step: a suite's tests are run only when they are new
 * (random or mutated); unchanged tests keep their trace, as EvoSuite caches
 * execution results.  Budget = test runs, as the seed counts
 * tests_executed.
 */
#include "wts.h"

#include <math.h>
#include <string.h>

#include "../../base/mem.h"

/* Tests run per step at most. */
#define WTS_RUNS_PER_STEP 4

/* A suite: t[i] is an evaluated test, or NULL with pend[i] to be run. */
typedef struct wsuite {
    sbst_ind **t;
    tcase *pend;
    uint32_t n, cap;
    double fit;
    uint32_t cov;
    bool scored;
} wsuite;

struct wts {
    sbst_t *s;
    wts_params p;
    wsuite **pop, **next;
    uint32_t n_pop, n_next;
    wsuite *work[2];     /* offspring (or initial suite) being run   */
    uint32_t n_work;
    bool init_done;
    uint64_t gen;
    double best_fit;
    uint32_t best_cov, best_len;
    const fit_trace **tr; /* scratch for fit_suite                   */
    size_t cap_tr;
};

void wts_params_default(wts_params *p)
{
    p->pop = 50;
    p->p_xover = 0.7;
    p->tournament = 4;
    p->elite = 2;
    p->max_tests = 30;
    p->alpha = 1.0 / 3;
    p->cross = TC_CROSS_RELATIVE;
    p->len_select = true;
    p->len_elite = true;
    p->bounded = true;
}

/* ==== suites =========================================================== */

static void ws_free(wsuite *x)
{
    if (!x)
        return;
    for (uint32_t i = 0; i < x->n; i++) {
        sbst_ind_unref(x->t[i]);
        tc_release(&x->pend[i]);
    }
    ctg_free(x->t);
    ctg_free(x->pend);
    ctg_free(x);
}

/* Appends an evaluated test (new reference) or, with x == NULL, a pending
 * one whose values move out of *pend. */
static bool ws_push(wsuite *w, sbst_ind *x, tcase *pend)
{
    if (w->n == w->cap) {
        uint32_t nc = w->cap ? 2 * w->cap : 8;
        sbst_ind **t = ctg_realloc(w->t, nc * sizeof *t);
        if (t)
            w->t = t;
        tcase *pd = t ? ctg_realloc(w->pend, nc * sizeof *pd) : NULL;
        if (!pd)
            return false;
        w->pend = pd;
        w->cap = nc;
    }
    w->t[w->n] = sbst_ind_ref(x);
    tc_init(&w->pend[w->n]);
    if (!x) {
        w->pend[w->n] = *pend;
        tc_init(pend);
    }
    w->n++;
    w->scored = false;
    return true;
}

/* Copy of tests [from, to) of src appended to dst. */
static bool ws_append(wsuite *dst, const wsuite *src, uint32_t from, uint32_t to)
{
    for (uint32_t i = from; i < to; i++)
        if (!ws_push(dst, src->t[i], NULL))
            return false;
    return true;
}

static wsuite *ws_new(void) { return ctg_calloc(1, sizeof(wsuite)); }

/* A suite of 1..max_tests random tests (seed: get_random_individual). */
static wsuite *ws_random(wts_t *w)
{
    wsuite *x = ws_new();
    if (!x)
        return NULL;
    uint32_t n = 1 + (uint32_t)rng_below(sbst_rng(w->s), (uint64_t)w->p.max_tests);
    for (uint32_t i = 0; i < n; i++) {
        tcase t;
        tc_init(&t);
        if (!sbst_random_test(w->s, &t) || !ws_push(x, NULL, &t)) {
            tc_release(&t);
            ws_free(x);
            return NULL;
        }
    }
    return x;
}

/* Whole-suite fitness of a fully evaluated suite. */
static bool ws_score(wts_t *w, wsuite *x)
{
    if (ctg_grow((void **)&w->tr, &w->cap_tr, x->n + 1, sizeof *w->tr) < 0)
        return false;
    for (uint32_t i = 0; i < x->n; i++)
        w->tr[i] = &x->t[i]->tr;
    x->fit = fit_suite(sbst_fit(w->s), w->tr, x->n, &x->cov);
    x->scored = true;
    if (x->fit < w->best_fit || (x->fit == w->best_fit && x->n < w->best_len)) {
        w->best_fit = x->fit;
        w->best_cov = x->cov;
        w->best_len = x->n;
    }
    return true;
}

/* Runs up to *budget pending tests of x; true when x has none left. */
static bool ws_run(wts_t *w, wsuite *x, int *budget, bool *stop)
{
    for (uint32_t i = 0; i < x->n && *budget > 0; i++) {
        if (x->t[i])
            continue;
        x->t[i] = sbst_eval(w->s, &x->pend[i]);
        if (!x->t[i]) {
            *stop = true;
            return false;
        }
        (*budget)--;
    }
    for (uint32_t i = 0; i < x->n; i++)
        if (!x->t[i])
            return false;
    return true;
}

/* ==== operators ======================================================== */

/* Lexicographic order of suites: fitness, then (length-aware) size. */
static int ws_cmp(const wsuite *a, const wsuite *b, bool by_len)
{
    if (a->fit != b->fit)
        return a->fit < b->fit ? -1 : 1;
    if (by_len && a->n != b->n)
        return a->n < b->n ? -1 : 1;
    return 0;
}

/* Tournament selection (seed: tournament_selection and its length-aware
 * variant): the best of `tournament` suites drawn without replacement. */
static const wsuite *select_one(wts_t *w)
{
    rng *r = sbst_rng(w->s);
    uint32_t k = (uint32_t)w->p.tournament, n = w->n_pop;
    if (k > n)
        k = n;
    const wsuite *best = NULL;
    /* partial Fisher-Yates over an index walk: draw k distinct indices */
    uint32_t picked[64];
    if (k > 64)
        k = 64;
    for (uint32_t i = 0; i < k; i++) {
        uint32_t c;
        bool dup;
        do {
            c = (uint32_t)rng_below(r, n);
            dup = false;
            for (uint32_t j = 0; j < i; j++)
                dup |= picked[j] == c;
        } while (dup);
        picked[i] = c;
        const wsuite *x = w->pop[c];
        if (!best || ws_cmp(x, best, w->p.len_select) < 0)
            best = x;
    }
    return best;
}

/* The seed's mutate_set / mutate_bounded on a suite in place: delete each
 * test with 1/n, mutate each remaining one with 1/n, then insert random
 * tests with alpha, alpha^2, ... (bounded: up to max_tests). */
static bool mutate_suite(wts_t *w, wsuite *x)
{
    rng *r = sbst_rng(w->s);
    uint32_t n = x->n;
    double pm = n ? 1.0 / n : 1.0;
    uint32_t kept = 0;
    uint8_t *del = ctg_calloc(n + 1, 1);
    if (!del)
        return false;
    for (uint32_t i = 0; i < n; i++)
        kept += !(del[i] = (uint8_t)rng_chance(r, pm));
    if (kept == 0)
        memset(del, 0, n);
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (del[i]) {
            sbst_ind_unref(x->t[i]);
            tc_release(&x->pend[i]);
            continue;
        }
        x->t[k] = x->t[i];
        x->pend[k++] = x->pend[i];
    }
    x->n = k;
    ctg_free(del);
    bool ok = true;
    for (uint32_t i = 0; i < x->n && ok; i++) {
        if (!rng_chance(r, pm) || !x->t[i])
            continue;
        ok = tc_copy(&x->pend[i], &x->t[i]->tc) &&
             tc_mutate(&x->pend[i], sbst_params(w->s), sbst_variable(w->s), r);
        sbst_ind_unref(x->t[i]);
        x->t[i] = NULL;
    }
    for (int count = 1; ok && rng_chance(r, pow(w->p.alpha, count)); count++) {
        if (w->p.bounded && x->n >= (uint32_t)w->p.max_tests)
            break;
        tcase t;
        tc_init(&t);
        ok = sbst_random_test(w->s, &t) && ws_push(x, NULL, &t);
        tc_release(&t);
    }
    x->scored = false;
    return ok;
}

/* Two offspring of two parents: crossover with p_xover, then mutation. */
static bool breed(wts_t *w)
{
    rng *r = sbst_rng(w->s);
    const wsuite *a = select_one(w), *b = select_one(w);
    wsuite *o1 = ws_new(), *o2 = ws_new();
    bool ok = o1 && o2;
    if (ok && rng_chance(r, w->p.p_xover)) {
        uint32_t i, j;
        tc_cut_points(a->n, b->n, (tc_cross_kind)w->p.cross, r, &i, &j);
        ok = ws_append(o1, a, 0, i) && ws_append(o1, b, j, b->n) && ws_append(o2, b, 0, j) &&
             ws_append(o2, a, i, a->n);
    } else if (ok) {
        ok = ws_append(o1, a, 0, a->n) && ws_append(o2, b, 0, b->n);
    }
    ok = ok && mutate_suite(w, o1) && mutate_suite(w, o2);
    if (!ok) {
        ws_free(o1);
        ws_free(o2);
        return false;
    }
    w->work[0] = o1;
    w->work[1] = o2;
    w->n_work = 2;
    return true;
}

/* Elitism (seed: elitism_standard / elitism_length): copies of the best
 * suites start the next population. */
static bool elitism(wts_t *w)
{
    for (uint32_t i = 1; i < w->n_pop; i++) /* stable insertion sort */
        for (uint32_t j = i; j > 0 && ws_cmp(w->pop[j], w->pop[j - 1], w->p.len_elite) < 0; j--) {
            wsuite *t = w->pop[j];
            w->pop[j] = w->pop[j - 1];
            w->pop[j - 1] = t;
        }
    for (int i = 0; i < w->p.elite && (uint32_t)i < w->n_pop; i++) {
        wsuite *c = ws_new();
        if (!c || !ws_append(c, w->pop[i], 0, w->pop[i]->n)) {
            ws_free(c);
            return false;
        }
        c->fit = w->pop[i]->fit;
        c->cov = w->pop[i]->cov;
        c->scored = true;
        w->next[w->n_next++] = c;
    }
    return true;
}

/* ==== public =========================================================== */

wts_t *wts_new(sbst_t *s, const wts_params *p, ctg_err *e)
{
    wts_t *w = ctg_calloc(1, sizeof *w);
    if (!w)
        goto oom;
    w->s = s;
    w->p = *p;
    if (w->p.pop < 2)
        w->p.pop = 2;
    if (w->p.max_tests < 1)
        w->p.max_tests = 1;
    if (w->p.tournament < 1)
        w->p.tournament = 1;
    if (w->p.elite >= w->p.pop)
        w->p.elite = w->p.pop - 1;
    w->pop = ctg_calloc((size_t)w->p.pop + 2, sizeof *w->pop);
    w->next = ctg_calloc((size_t)w->p.pop + 2, sizeof *w->next);
    if (!w->pop || !w->next)
        goto oom;
    w->best_fit = INFINITY;
    return w;
oom:
    wts_free(w);
    err_set(e, "wts: out of memory");
    return NULL;
}

void wts_free(wts_t *w)
{
    if (!w)
        return;
    for (uint32_t i = 0; w->pop && i < w->n_pop; i++)
        ws_free(w->pop[i]);
    for (uint32_t i = 0; w->next && i < w->n_next; i++)
        ws_free(w->next[i]);
    for (uint32_t i = 0; i < w->n_work; i++)
        ws_free(w->work[i]);
    ctg_free(w->pop);
    ctg_free(w->next);
    ctg_free(w->tr);
    ctg_free(w);
}

/* Initial population, one suite at a time. */
static bool step_init(wts_t *w)
{
    if (w->n_work == 0) {
        w->work[0] = ws_random(w);
        if (!w->work[0])
            return false;
        w->n_work = 1;
    }
    int budget = WTS_RUNS_PER_STEP;
    bool stop = false;
    if (!ws_run(w, w->work[0], &budget, &stop))
        return !stop;
    if (!ws_score(w, w->work[0]))
        return false;
    w->pop[w->n_pop++] = w->work[0];
    w->n_work = 0;
    if (w->n_pop == (uint32_t)w->p.pop)
        w->init_done = true;
    return true;
}

/* Swaps in the next population once it is full. */
static void end_generation(wts_t *w)
{
    for (uint32_t i = 0; i < w->n_pop; i++)
        ws_free(w->pop[i]);
    wsuite **t = w->pop;
    w->pop = w->next;
    w->next = t;
    w->n_pop = w->n_next;
    w->n_next = 0;
    w->gen++;
}

bool wts_step(wts_t *w)
{
    if (!w->init_done)
        return step_init(w);
    if (w->n_next == 0 && w->n_work == 0 && !elitism(w))
        return false;
    if (w->n_work == 0 && !breed(w))
        return false;
    int budget = WTS_RUNS_PER_STEP;
    bool stop = false, done = true;
    for (uint32_t i = 0; i < w->n_work; i++)
        done &= ws_run(w, w->work[i], &budget, &stop);
    if (stop)
        return false;
    if (!done)
        return true;
    for (uint32_t i = 0; i < w->n_work; i++) {
        if (!ws_score(w, w->work[i]))
            return false;
        if (w->n_next < (uint32_t)w->p.pop)
            w->next[w->n_next++] = w->work[i];
        else
            ws_free(w->work[i]);
    }
    w->n_work = 0;
    if (w->n_next >= (uint32_t)w->p.pop)
        end_generation(w);
    return true;
}

double wts_best_fitness(const wts_t *w) { return w->best_fit; }
uint32_t wts_best_covered(const wts_t *w) { return w->best_cov; }
uint32_t wts_best_len(const wts_t *w) { return w->best_len; }
uint64_t wts_generations(const wts_t *w) { return w->gen; }

double wts_mean_len(const wts_t *w)
{
    double sum = 0;
    for (uint32_t i = 0; i < w->n_pop; i++)
        sum += w->pop[i]->n;
    return w->n_pop ? sum / w->n_pop : 0;
}
