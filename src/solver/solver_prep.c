/*
 * solver_prep.c - the first two layers of the solver chain (seed 003,
 * section 3.2.2, "Optimización de Constraints"):
 *
 *   constraint normalisation: conjunctions are split into their conjuncts,
 *   constant-true constraints and duplicates are removed, a constant-false
 *   constraint decides the query, and the rest is sorted by structural hash
 *   so equal sets of constraints become equal queries;
 *
 *   irrelevant-constraint elimination: the constraints are grouped by shared
 *   variables (union-find over variable keys) and only the group(s) of the
 *   focus constraint are kept - the transitive closure of the negated branch.
 */
#include "solver_int.h"

#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"

void squery_release(squery *q)
{
    ctg_free(q->cs);
    ctg_free(q->focus);
    ctg_free(q->hash);
    ctg_free(q->keys);
    ctg_free(q->set);
    memset(q, 0, sizeof *q);
}

static bool q_push(squery *q, expr *e, bool focus)
{
    if (ctg_grow((void **)&q->cs, &q->cap, q->n + 1, sizeof *q->cs) ||
        ctg_grow((void **)&q->focus, &q->cap_focus, q->n + 1, sizeof *q->focus))
        return false;
    q->cs[q->n] = e;
    q->focus[q->n++] = focus;
    return true;
}

/* ---- normalisation --------------------------------------------------------- */

static int by_hash(const void *x, const void *y)
{
    const expr *a = *(expr *const *)x, *b = *(expr *const *)y;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static bool is_and(const expr *e) { return e->width == 1 && e->op == EXPR_AND; }

/* One conjunct e into q: dropped when true, PREP_FALSE when false. */
static prep_result put_conjunct(squery *q, expr *e, bool focus, solver_stats *st)
{
    if (expr_is_true(e)) {
        st->true_dropped++;
        return PREP_OK;
    }
    if (expr_is_false(e))
        return PREP_FALSE;
    return q_push(q, e, focus) ? PREP_OK : PREP_OOM;
}

/* Splits conjunctions of cs[i] into q, dropping true; PREP_FALSE on false.
 * Most constraints are no conjunction: they go in without a stack. */
static prep_result split_into(squery *q, expr *root, bool focus, solver_stats *st)
{
    if (!is_and(root))
        return put_conjunct(q, root, focus, st);
    expr **stack = NULL;
    size_t sn = 0, scap = 0;
    prep_result r = PREP_OK;
    if (ctg_grow((void **)&stack, &scap, 1, sizeof *stack))
        return PREP_OOM;
    stack[sn++] = root;
    while (sn && r == PREP_OK) {
        expr *e = stack[--sn];
        if (!is_and(e)) {
            r = put_conjunct(q, e, focus, st);
        } else if (ctg_grow((void **)&stack, &scap, sn + 2, sizeof *stack)) {
            r = PREP_OOM;
        } else {
            stack[sn++] = e->args[1];
            stack[sn++] = e->args[0];
        }
    }
    ctg_free(stack);
    return r;
}

/* Removes repeated pointers, or-ing their focus flags (carried in the
 * nodes' slot scratch: bit 0 focus, bit 1 kept), then sorts by (hash, id).
 * Repeats go first: a reactive program's path holds the same few
 * conditions thousands of times, and the sort then sees only the
 * distinct ones. */
static void sort_dedup(squery *q, solver_stats *st)
{
    size_t n = q->n, out = 0;
    for (size_t i = 0; i < n; i++)
        q->cs[i]->slot = 0;
    for (size_t i = 0; i < n; i++)
        if (q->focus[i])
            q->cs[i]->slot = 1;
    for (size_t i = 0; i < n; i++) {
        expr *e = q->cs[i];
        if (e->slot & 2) {
            st->dup_dropped++;
            continue;
        }
        e->slot |= 2;
        q->cs[out++] = e;
    }
    qsort(q->cs, out, sizeof *q->cs, by_hash);
    for (size_t i = 0; i < out; i++)
        q->focus[i] = (q->cs[i]->slot & 1) != 0;
    q->n = out;
}

/* ---- independence slicing ------------------------------------------------------ */

static uint32_t uf_find(uint32_t *parent, uint32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Sorts k[0..n) and keeps each key once; returns how many are left. */
static size_t sort_unique_u32(uint32_t *k, size_t n)
{
    size_t u = 0;
    qsort(k, n, sizeof *k, cmp_u32);
    for (size_t i = 0; i < n; i++)
        if (!u || k[u - 1] != k[i])
            k[u++] = k[i];
    return u;
}

static uint32_t key_index(const uint32_t *uniq, size_t nu, uint32_t key)
{
    const uint32_t *p = bsearch(&key, uniq, nu, sizeof *uniq, cmp_u32);
    return (uint32_t)(p - uniq);
}

/* ---- variables per constraint, remembered ------------------------------------ */

void varmemo_release(varmemo *m)
{
    hmap_release(&m->map);
    ctg_free(m->pool);
    memset(m, 0, sizeof *m);
}

/* Inner nodes keep their variable set in the memo when it has at most
 * MEMO_SMALL keys; a larger one is marked MEMO_BIG and the constraint's
 * set is collected from its nodes (expr_vars).  Without the inner sets a
 * path whose constraints all hold one loop's accumulator (y = y * z every
 * iteration: each constraint a chain one step longer) costs the whole
 * chain per constraint: 44 s for the first query of nla-digbench/geo1-ll
 * (12,000 constraints, 46,000 nodes). */
#define MEMO_SMALL 64
#define MEMO_BIG 0xffffffffu

static bool memo_store(varmemo *m, const expr *e, const uint32_t *k, size_t nk)
{
    if (ctg_grow((void **)&m->pool, &m->pool_cap, m->pool_n + nk + 1, sizeof *m->pool))
        return false;
    if (nk)
        memcpy(m->pool + m->pool_n, k, nk * sizeof *k);
    uint64_t v = (uint64_t)m->pool_n << 32 | (uint32_t)nk;
    m->pool_n += nk;
    return hmap_put(&m->map, (uintptr_t)e, v);
}

static int by_id_asc(const void *x, const void *y)
{
    uint32_t a = (*(expr *const *)x)->id, b = (*(expr *const *)y)->id;
    return (a > b) - (a < b);
}

/* Operand i of x when it holds variables, else NULL (an input byte or a
 * named variable has no operands). */
static expr *var_operand(const expr *x, unsigned i)
{
    if (i >= 3 || x->op == EXPR_INPUT || x->op == EXPR_VAR || !x->args[i] ||
        !(x->args[i]->flags & EXPR_F_VARS))
        return NULL;
    return x->args[i];
}

/* The nodes of e with variables that the memo does not hold, into *out
 * (operands first).  False when out of memory. */
static bool memo_missing(varmemo *m, expr *e, expr ***out, size_t *n)
{
    expr **stack = NULL;
    size_t sn = 0, scap = 0, ocap = 0;
    hmap seen = HMAP_SET;
    bool ok = true, added;
    uint64_t v;
    *out = NULL;
    *n = 0;
    if (ctg_grow((void **)&stack, &scap, 1, sizeof *stack))
        return false;
    stack[sn++] = e;
    while (sn && ok) {
        expr *x = stack[--sn];
        if (hmap_get(&m->map, (uintptr_t)x, &v) || !(ok = hmap_add(&seen, (uintptr_t)x, &added)) ||
            !added)
            continue;
        ok = !ctg_grow((void **)out, &ocap, *n + 1, sizeof **out);
        if (ok)
            (*out)[(*n)++] = x;
        for (unsigned i = 0; i < 3 && ok; i++)
            if (var_operand(x, i)) {
                ok = !ctg_grow((void **)&stack, &scap, sn + 1, sizeof *stack);
                if (ok)
                    stack[sn++] = var_operand(x, i);
            }
    }
    ctg_free(stack);
    hmap_release(&seen);
    if (ok)
        qsort(*out, *n, sizeof **out, by_id_asc);
    else {
        ctg_free(*out);
        *out = NULL;
    }
    return ok;
}

/* The variable set of node x from its operands' memo entries, stored;
 * MEMO_BIG when above MEMO_SMALL keys or an operand is.  buf: scratch of
 * 3 * MEMO_SMALL + 1 keys. */
static bool memo_node(varmemo *m, const expr *x, uint32_t *buf)
{
    size_t nk = 0;
    bool big = false;
    if (x->op == EXPR_INPUT)
        buf[nk++] = x->aux;
    else if (x->op == EXPR_VAR)
        buf[nk++] = EXPR_VKEY_NAMED | x->aux;
    for (unsigned i = 0; i < 3 && !big; i++) {
        uint64_t v;
        const expr *a = var_operand(x, i);
        if (!a)
            continue;
        if (!hmap_get(&m->map, (uintptr_t)a, &v) || (uint32_t)v > MEMO_SMALL) {
            big = true; /* MEMO_BIG is above MEMO_SMALL too */
            break;
        }
        memcpy(buf + nk, m->pool + (v >> 32), (uint32_t)v * sizeof *buf);
        nk += (uint32_t)v;
    }
    size_t u = big ? 0 : sort_unique_u32(buf, nk);
    big = big || u > MEMO_SMALL;
    if (big)
        return hmap_put(&m->map, (uintptr_t)x, (uint64_t)MEMO_BIG);
    return memo_store(m, x, buf, u);
}

/* The sorted variable keys of constraint e (valid until the next call).
 * False when out of memory. */
static bool memo_vars(varmemo *m, expr_ctx *c, expr *e, const uint32_t **keys, size_t *n)
{
    if (m->serial != expr_ctx_serial(c) || m->pool_n > (1u << 24)) { /* new context: forget */
        hmap_clear(&m->map);
        m->pool_n = 0;
        m->serial = expr_ctx_serial(c);
    }
    uint64_t v;
    if (!hmap_get(&m->map, (uintptr_t)e, &v)) {
        expr **todo;
        size_t nt;
        uint32_t buf[3 * MEMO_SMALL + 1];
        if (!memo_missing(m, e, &todo, &nt))
            return false;
        bool ok = true;
        for (size_t i = 0; i < nt && ok; i++)
            ok = memo_node(m, todo[i], buf);
        ctg_free(todo);
        if (!ok || !hmap_get(&m->map, (uintptr_t)e, &v)) /* e was the last of todo */
            return false;
    }
    if ((uint32_t)v == MEMO_BIG) { /* collected from its nodes, then kept */
        uint32_t *k;
        size_t nk;
        if (!expr_vars(c, &e, 1, &k, &nk))
            return false;
        bool ok = memo_store(m, e, k, nk);
        ctg_free(k);
        if (!ok || !hmap_get(&m->map, (uintptr_t)e, &v))
            return false;
    }
    *keys = m->pool + (v >> 32);
    *n = (uint32_t)v;
    return true;
}

/* Per-constraint variable keys, concatenated: keys[off[i] .. off[i+1]). */
typedef struct varsets {
    uint32_t *keys;
    size_t *off;
    size_t total;
} varsets;

static bool varsets_build(varsets *vs, expr_ctx *c, const squery *q, varmemo *memo)
{
    size_t cap = 0;
    vs->keys = NULL;
    vs->total = 0;
    vs->off = ctg_malloc((q->n + 1) * sizeof *vs->off);
    if (!vs->off)
        return false;
    for (size_t i = 0; i < q->n; i++) {
        const uint32_t *k;
        size_t nk;
        vs->off[i] = vs->total;
        if (!memo_vars(memo, c, q->cs[i], &k, &nk) ||
            ctg_grow((void **)&vs->keys, &cap, vs->total + nk + 1, sizeof *vs->keys))
            return false;
        memcpy(vs->keys + vs->total, k, nk * sizeof *k);
        vs->total += nk;
    }
    vs->off[q->n] = vs->total;
    return true;
}

/* Union-find over the distinct variable keys of the query. */
typedef struct uf {
    uint32_t *uniq, *parent;
    size_t nu;
} uf;

static uint32_t uf_root(uf *u, uint32_t key)
{
    return uf_find(u->parent, key_index(u->uniq, u->nu, key));
}

static bool uf_build(uf *u, const varsets *vs, size_t n)
{
    u->uniq = ctg_malloc((vs->total + 1) * sizeof *u->uniq);
    u->parent = ctg_malloc((vs->total + 1) * sizeof *u->parent);
    if (!u->uniq || !u->parent)
        return false;
    memcpy(u->uniq, vs->keys, vs->total * sizeof *u->uniq);
    u->nu = sort_unique_u32(u->uniq, vs->total);
    for (uint32_t i = 0; i < u->nu; i++)
        u->parent[i] = i;
    for (size_t i = 0; i < n; i++) /* one set per constraint's variables */
        for (size_t j = vs->off[i] + 1; j < vs->off[i + 1]; j++)
            u->parent[uf_root(u, vs->keys[vs->off[i]])] = uf_root(u, vs->keys[j]);
    return true;
}

/* Keeps the constraints in the variable closure of the focus constraints;
 * constraints without variables are kept only if they are focus. */
static prep_result slice(squery *q, expr_ctx *c, varmemo *memo, solver_stats *st)
{
    varsets vs;
    uf u = {NULL, NULL, 0};
    bool *hot = NULL; /* roots reached from the focus */
    prep_result r = PREP_OOM;
    if (!varsets_build(&vs, c, q, memo) || !uf_build(&u, &vs, q->n) ||
        !(hot = ctg_calloc(u.nu + 1, sizeof *hot)))
        goto out;
    for (size_t i = 0; i < q->n; i++)
        if (q->focus[i] && vs.off[i] < vs.off[i + 1])
            hot[uf_root(&u, vs.keys[vs.off[i]])] = true;
    size_t out = 0;
    for (size_t i = 0; i < q->n; i++) {
        bool has_vars = vs.off[i] < vs.off[i + 1];
        if (!q->focus[i] && !(has_vars && hot[uf_root(&u, vs.keys[vs.off[i]])])) {
            st->sliced_away++;
            continue;
        }
        q->cs[out] = q->cs[i];
        q->focus[out++] = q->focus[i];
    }
    q->n = out;
    r = PREP_OK;
out:
    ctg_free(vs.keys);
    ctg_free(vs.off);
    ctg_free(u.uniq);
    ctg_free(u.parent);
    ctg_free(hot);
    return r;
}

/* ---- the whole preparation ---------------------------------------------------- */

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* q->keys: the distinct variables of the query's constraints. */
static bool query_keys(squery *q, expr_ctx *c, varmemo *memo)
{
    varsets vs;
    bool ok = varsets_build(&vs, c, q, memo);
    if (ok) {
        q->n_keys = sort_unique_u32(vs.keys, vs.total);
        q->keys = vs.keys;
        vs.keys = NULL;
    }
    ctg_free(vs.keys);
    ctg_free(vs.off);
    return ok;
}

/* Hashes in query order, the sorted set view, variables and exactness. */
static prep_result finish(squery *q, expr_ctx *c, varmemo *memo)
{
    q->hash = ctg_malloc((q->n ? q->n : 1) * sizeof *q->hash);
    q->set = ctg_malloc((q->n ? q->n : 1) * sizeof *q->set);
    if (!q->hash || !q->set)
        return PREP_OOM;
    q->exact = true;
    for (size_t i = 0; i < q->n; i++) {
        q->hash[i] = q->set[i] = q->cs[i]->hash;
        if (q->cs[i]->flags & EXPR_F_INEXACT)
            q->exact = false;
    }
    qsort(q->set, q->n, sizeof *q->set, cmp_u64);
    q->n_set = 0;
    q->sig = 0;
    for (size_t i = 0; i < q->n; i++)
        if (!q->n_set || q->set[q->n_set - 1] != q->set[i]) {
            q->set[q->n_set++] = q->set[i];
            q->sig |= 1ULL << (q->set[i] & 63);
        }
    return query_keys(q, c, memo) ? PREP_OK : PREP_OOM;
}

prep_result squery_prep(squery *q, expr_ctx *c, expr *const *cs, size_t n, size_t focus,
                        bool normalize, bool slice_on, const expr_env *subsume_base,
                        varmemo *memo, solver_stats *st)
{
    memset(q, 0, sizeof *q);
    st->constraints_in += n;
    prep_result r = PREP_OK;
    for (size_t i = 0; i < n && r == PREP_OK; i++) {
        if (!cs[i])
            return PREP_OOM;
        if (normalize)
            r = split_into(q, cs[i], i == focus, st);
        else if (!q_push(q, cs[i], i == focus))
            r = PREP_OOM;
    }
    if (r == PREP_OK && normalize)
        sort_dedup(q, st);
    if (r != PREP_OK)
        return r;
    if (q->n == 0)
        return PREP_TRUE;
    if (slice_on && (r = slice(q, c, memo, st)) != PREP_OK)
        return r;
    if (subsume_base && (r = squery_subsume(q, c, subsume_base, st)) != PREP_OK)
        return r;
    if ((r = finish(q, c, memo)) != PREP_OK)
        return r;
    st->constraints_sent += q->n;
    return PREP_OK;
}
