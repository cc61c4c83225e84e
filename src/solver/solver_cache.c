/*
 * solver_cache.c - layers 3 and 4 of the solver chain.
 *
 * The query cache maps the exact sequence of constraint hashes of a
 * prepared query to its answer (and model); it is flushed when full.
 *
 * The counter-example cache (seed 003 section 3.2.2, after Chen et al.)
 * keeps the last cex_max answered constraint sets, each a sorted set of
 * hashes with a 64-bit signature for a cheap subset pre-test, and applies
 * its three rules: (a) a cached unsat subset makes the query unsat; (b) the
 * model of a cached sat superset is a model of the query (restricted to the
 * query's variables, which it assigns); (c) models of cached sat subsets and
 * the most recent models are offered to the caller for evaluation.
 *
 * Keys are structural hashes, so entries stay valid across expression
 * contexts.  Allocation failure only loses entries.
 */
#include "solver_int.h"

#include <string.h>

#include "../base/hmap.h"
#include "../base/hash.h"
#include "../base/mem.h"

typedef struct qentry {
    uint64_t key;
    uint64_t *h; /* hash sequence */
    uint32_t n;
    uint8_t res; /* solver_result */
    solver_assign *model;
    uint32_t n_model;
} qentry;

typedef struct cexent {
    uint64_t sig;
    uint64_t *h; /* sorted distinct hashes; NULL: free slot */
    uint32_t n;
    bool sat;
    solver_assign *model;
    uint32_t n_model;
} cexent;

struct scache {
    hmap qtab;     /* key -> qentry (several under one key) */
    uint32_t qmax;
    cexent *ring; /* cex entries, oldest at head */
    size_t rcap, rn, rhead;
};

scache *scache_new(uint32_t qmax, uint32_t cexmax)
{
    scache *sc = ctg_calloc(1, sizeof *sc);
    if (!sc)
        return NULL;
    sc->qmax = qmax ? qmax : 1;
    sc->rcap = cexmax;
    return sc;
}

static void qentry_free(qentry *q)
{
    if (!q)
        return;
    ctg_free(q->h);
    ctg_free(q->model);
    ctg_free(q);
}

static void qflush(scache *sc)
{
    uint64_t v;
    for (size_t cur = 0; hmap_each(&sc->qtab, &cur, NULL, &v);)
        qentry_free((qentry *)(uintptr_t)v);
    hmap_clear(&sc->qtab);
}

static void cexent_clear(cexent *c)
{
    ctg_free(c->h);
    ctg_free(c->model);
    memset(c, 0, sizeof *c);
}

void scache_free(scache *sc)
{
    if (!sc)
        return;
    qflush(sc);
    hmap_release(&sc->qtab);
    if (sc->ring)
        for (size_t i = 0; i < sc->rcap; i++)
            cexent_clear(&sc->ring[i]);
    ctg_free(sc->ring);
    ctg_free(sc);
}

/* ---- helpers ----------------------------------------------------------------- */

static uint64_t seq_key(const uint64_t *h, size_t n)
{
    uint64_t k = hash_mix64(0x243f6a8885a308d3ULL ^ n);
    for (size_t i = 0; i < n; i++)
        k = hash_combine64(k, h[i]);
    return k;
}

/* a[0..na) subset of b[0..nb), both sorted distinct. */
static bool subset(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t j = 0;
    for (size_t i = 0; i < na; i++) {
        while (j < nb && b[j] < a[i])
            j++;
        if (j == nb || b[j] != a[i])
            return false;
        j++;
    }
    return true;
}

static void *dup_mem(const void *p, size_t n)
{
    void *d = ctg_malloc(n ? n : 1);
    if (d && n)
        memcpy(d, p, n);
    return d;
}

/* The values of keys[0..nk) in model v[0..n) (sorted by key) into m;
 * false when a key is missing or out of memory. */
static bool restrict_model(const solver_assign *v, size_t n, const uint32_t *keys, size_t nk,
                           solver_model *m)
{
    if (ctg_grow((void **)&m->v, &m->cap, nk + 1, sizeof *m->v))
        return false;
    size_t j = 0;
    for (size_t i = 0; i < nk; i++) {
        while (j < n && v[j].key < keys[i])
            j++;
        if (j == n || v[j].key != keys[i])
            return false;
        m->v[i] = v[j];
    }
    m->n = nk;
    return true;
}

static cexent *ring_at(scache *sc, size_t i) { return &sc->ring[(sc->rhead + i) % sc->rcap]; }

/* ---- lookups ---------------------------------------------------------------- */

cache_hit scache_exact(scache *sc, const squery *q, solver_model *m)
{
    uint64_t key = seq_key(q->hash, q->n), v;
    for (size_t cur = 0; hmap_next(&sc->qtab, key, &cur, &v);) {
        qentry *e = (qentry *)(uintptr_t)v;
        if (e->n != q->n || memcmp(e->h, q->hash, q->n * sizeof *q->hash))
            continue;
        if (e->res == SOLVER_UNSAT)
            return HIT_EXACT_UNSAT;
        if (e->res == SOLVER_SKIP)
            return HIT_EXACT_SKIP;
        return smodel_set(m, e->model, e->n_model) ? HIT_EXACT_SAT : HIT_NONE;
    }
    return HIT_NONE;
}

cache_hit scache_cex(scache *sc, const squery *q, solver_model *m)
{
    for (size_t i = 0; i < sc->rn; i++) { /* (a) unsat subset */
        cexent *e = ring_at(sc, i);
        if (!e->sat && !(e->sig & ~q->sig) && e->n <= q->n_set &&
            subset(e->h, e->n, q->set, q->n_set))
            return HIT_UNSAT_SUBSET;
    }
    for (size_t i = sc->rn; i-- > 0;) { /* (b) sat superset, newest first */
        cexent *e = ring_at(sc, i);
        if (e->sat && !(q->sig & ~e->sig) && q->n_set <= e->n &&
            subset(q->set, q->n_set, e->h, e->n) &&
            restrict_model(e->model, e->n_model, q->keys, q->n_keys, m))
            return HIT_SUPERSET;
    }
    return HIT_NONE;
}

bool scache_try_models(scache *sc, const squery *q, uint32_t recent,
                       bool (*try)(void *user, const solver_assign *v, size_t n), void *user)
{
    for (size_t i = sc->rn, tried = 0; i-- > 0 && tried < recent;) { /* sat subsets, newest first */
        cexent *e = ring_at(sc, i);
        if (!e->sat || (e->sig & ~q->sig) || e->n > q->n_set ||
            !subset(e->h, e->n, q->set, q->n_set))
            continue;
        tried++;
        if (try(user, e->model, e->n_model))
            return true;
    }
    for (size_t i = sc->rn, seen = 0; i-- > 0 && seen < recent;) { /* recent models */
        cexent *e = ring_at(sc, i);
        if (!e->sat)
            continue;
        seen++;
        if (try(user, e->model, e->n_model))
            return true;
    }
    return false;
}

/* ---- stores ------------------------------------------------------------------ */

static bool qput(scache *sc, const squery *q, solver_result res, const solver_model *m)
{
    if (hmap_count(&sc->qtab) + 1 > sc->qmax)
        qflush(sc);
    qentry *e = ctg_calloc(1, sizeof *e);
    if (!e)
        return false;
    e->key = seq_key(q->hash, q->n);
    e->n = (uint32_t)q->n;
    e->res = (uint8_t)res;
    e->h = dup_mem(q->hash, q->n * sizeof *q->hash);
    if (res == SOLVER_SAT) {
        e->n_model = (uint32_t)m->n;
        e->model = dup_mem(m->v, m->n * sizeof *m->v);
    }
    if (!e->h || (res == SOLVER_SAT && !e->model)) {
        qentry_free(e);
        return false;
    }
    if (!hmap_push(&sc->qtab, e->key, (uintptr_t)e)) {
        qentry_free(e);
        return false;
    }
    return true;
}

static bool cput(scache *sc, const squery *q, bool sat, const solver_model *m)
{
    if (!sc->rcap)
        return true;
    if (!sc->ring && !(sc->ring = ctg_calloc(sc->rcap, sizeof *sc->ring)))
        return false;
    if (sc->rn == sc->rcap) { /* evict the oldest */
        cexent_clear(ring_at(sc, 0));
        sc->rhead = (sc->rhead + 1) % sc->rcap;
        sc->rn--;
    }
    cexent e = {.sig = q->sig, .n = (uint32_t)q->n_set, .sat = sat};
    e.h = dup_mem(q->set, q->n_set * sizeof *q->set);
    if (sat) {
        e.n_model = (uint32_t)m->n;
        e.model = dup_mem(m->v, m->n * sizeof *m->v);
    }
    if (!e.h || (sat && !e.model)) {
        cexent_clear(&e);
        return false;
    }
    *ring_at(sc, sc->rn++) = e;
    return true;
}

bool scache_put(scache *sc, const squery *q, solver_result res, const solver_model *m,
                bool want_exact, bool want_cex)
{
    bool ok = true;
    if (want_exact)
        ok = qput(sc, q, res, m);
    if (want_cex && (res == SOLVER_SAT || res == SOLVER_UNSAT))
        ok = cput(sc, q, res == SOLVER_SAT, m) && ok;
    return ok;
}
