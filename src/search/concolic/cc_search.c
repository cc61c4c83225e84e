/*
 * cc_search.c - the concolic search (cc_search.h).
 *
 * Generational search after seed 003, algorithms 3-7 (SAGE):
 *   explore (alg. 5): pick the best test of the work list, take its path
 *     constraint (kept, or by running it again), drop it if shouldSkip
 *     (alg. 7: divergent and its path is a prefix of an expanded path),
 *     else expand it;
 *   ExpandExecution (alg. 4): for j = bound .. |PC|-1, solve PC[0..j-1] and
 *     not PC[j]; a model overlaid on the test (untouched inputs keep their
 *     values: the solver slices) is a child with bound j;
 *   processChildren (alg. 6): the solver chain is the cache check; each
 *     child is run at once (Run&Check), scored by the edges it covered
 *     first, 0 if its path is not the expected prefix (a divergence), and
 *     put in the work list.
 * dfs / bfs / random-branch keep pending negations (test, j) instead and
 * take one at a time; a child's own negations start at j + 1.  cgs keeps
 * them too and takes the shallowest, unless its context was negated
 * before (seed 004, section 2.2).  cfds and param keep a stack of tests:
 * the top is the last path (seed 004, algorithm 1 with choose = the
 * highest-scoring branch of the last path condition); those orders and
 * scope mix are in cc_last.c.
 *
 * A negation whose target path (hash of the prefix plus the flipped
 * decision) was executed or tried before is skipped without a query.
 */
#include "cc_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../base/hash.h"
#include "../../base/hmap.h"
#include "../../base/mem.h"
#include "../../base/rng.h"

static const char *const order_names[CC__ORDERS] = {
    "generational", "dfs", "bfs", "random-branch", "cfds", "cgs", "param"};

const char *cc_order_name(cc_order o) { return o < CC__ORDERS ? order_names[o] : "?"; }

bool cc_order_parse(const char *name, cc_order *o)
{
    for (int i = 0; i < CC__ORDERS; i++)
        if (!strcmp(name, order_names[i])) {
            *o = (cc_order)i;
            return true;
        }
    return false;
}

void cc_config_default(cc_config *c)
{
    memset(c, 0, sizeof *c);
    c->order = CC_GENERATIONAL;
    c->scope = CC_SCOPE_LAST;
    c->seed = 1;
    solver_opts_default(&c->solver);
    c->max_retained = 64;
    c->max_retained_entries = 1u << 18;
    c->max_work = 65536;
    c->max_seen = 1u << 22;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- path hashes ------------------------------------------------------------------ */

#define PATH_SEED 0x6a09e667f3bcc908ULL

/* Hash of the path so far (h) extended by one decision. */
static uint64_t path_step(uint64_t h, const expr_pc_entry *en, bool taken)
{
    uint64_t what = (uint64_t)en->site << 32 | en->arg;
    uint64_t d = hash_mix64(what ^ ((uint64_t)en->kind << 1 | taken) << 56);
    return hash_combine64(h, d);
}

static uint64_t prefix_before(const cc_node *n, uint32_t j)
{
    return j ? n->prefix[j - 1] : PATH_SEED;
}

/* ---- nodes ------------------------------------------------------------------------- */

/* Drops the kept path constraint of n (its hashes stay). */
static void node_drop_pc(cc_search *s, cc_node *n)
{
    if (!n->ctx)
        return;
    expr_pc_release(&n->pc);
    expr_ctx_free(n->ctx);
    ctg_free(n->rank); /* ranked for this path constraint */
    n->rank = NULL;
    n->n_rank = n->rank_at = 0;
    ctg_free(n->prefix);
    ctg_free(n->asserted);
    ctg_free(n->uniq);
    ctg_free(n->n_uniq);
    n->ctx = NULL;
    n->prefix = NULL;
    n->asserted = NULL;
    n->uniq = NULL;
    n->n_uniq = NULL;
    if (n->prev)
        n->prev->next = n->next;
    else
        s->lru_head = n->next;
    if (n->next)
        n->next->prev = n->prev;
    else
        s->lru_tail = n->prev;
    n->prev = n->next = NULL;
    s->n_retained--;
    s->retained_entries -= n->n_kept;
}

void cc_node_free(cc_search *s, cc_node *n)
{
    if (!n)
        return;
    node_drop_pc(s, n);
    ctg_free(n->bytes);
    ctg_free(n->tried);
    ctg_free(n);
}

void cc_node_unref(cc_search *s, cc_node *n)
{
    if (n && !--n->refs)
        cc_node_free(s, n);
}

/* Moves n to the front of the retained list (adding it), evicting the
 * least recently used unpinned constraints beyond max_retained. */
static void node_touch(cc_search *s, cc_node *n)
{
    if (s->lru_head != n) {
        if (n->prev || n->next || s->lru_tail == n) { /* unlink */
            if (n->prev)
                n->prev->next = n->next;
            if (n->next)
                n->next->prev = n->prev;
            else
                s->lru_tail = n->prev;
        } else {
            s->n_retained++;
            n->n_kept = n->pc.n;
            s->retained_entries += n->n_kept;
        }
        n->prev = NULL;
        n->next = s->lru_head;
        if (s->lru_head)
            s->lru_head->prev = n;
        s->lru_head = n;
        if (!s->lru_tail)
            s->lru_tail = n;
    }
    for (cc_node *v = s->lru_tail;
         v && (s->n_retained > s->cfg.max_retained ||
               s->retained_entries > s->cfg.max_retained_entries);) {
        cc_node *p = v->prev;
        if (!v->pinned && v != n)
            node_drop_pc(s, v);
        v = p;
    }
}

static cc_node *node_new(cc_search *s, const uint8_t *bytes, size_t len)
{
    cc_node *n = ctg_calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->bytes = ctg_malloc(len ? len : 1);
    if (!n->bytes) {
        ctg_free(n);
        return NULL;
    }
    if (len)
        memcpy(n->bytes, bytes, len);
    n->len = len;
    n->seq = s->seq++;
    return n;
}

static void set_named(cc_node *n, uint32_t id, uint64_t val)
{
    for (size_t i = 0; i < n->n_named; i++)
        if (n->named_ids[i] == id) {
            n->named_vals[i] = val;
            return;
        }
    if (n->n_named < CC_MAX_NAMED) {
        n->named_ids[n->n_named] = id;
        n->named_vals[n->n_named++] = val;
    }
}

/* ---- running --------------------------------------------------------------------- */

/* New edges of a run: counted and recorded in the bitmap. */
static bool cover(cc_search *s, const uint32_t *edges, size_t n, uint64_t *fresh)
{
    *fresh = 0;
    for (size_t i = 0; i < n; i++) {
        size_t byte = edges[i] / 8;
        if (byte >= s->cov_cap) {
            size_t old = s->cov_cap;
            if (ctg_grow((void **)&s->cov, &s->cov_cap, byte + 1, 1))
                return false;
            memset(s->cov + old, 0, s->cov_cap - old);
        }
        uint8_t bit = (uint8_t)(1u << (edges[i] % 8));
        if (!(s->cov[byte] & bit)) {
            s->cov[byte] |= bit;
            (*fresh)++;
        }
    }
    s->st.edges += *fresh;
    return true;
}

/* Records a first run of n: path statistics, executed prefixes, coverage. */
static bool account(cc_search *s, cc_node *n, const cc_run_out *out)
{
    bool added;
    s->st.pc_sum += n->n_pc;
    if (s->st.runs - s->st.reruns == 1 || n->n_pc < s->st.pc_min) /* first run or shorter */
        s->st.pc_min = n->n_pc;
    if (n->n_pc > s->st.pc_max)
        s->st.pc_max = n->n_pc;
    if (out->error)
        s->st.errors++;
    for (uint32_t i = 0; i < n->n_pc; i++)
        if (!cc_set_add(&s->seen, n->prefix[i], &added))
            return false;
    if (!cc_set_add(&s->paths, n->pc_hash, &added))
        return false;
    s->st.paths += added;
    for (size_t i = 0; i < out->n_named; i++)
        set_named(n, out->named_ids[i], out->named_vals[i]);
    if (!cover(s, out->edges, out->n_edges, &n->score))
        return false;
    s->stall = n->score ? 0 : s->stall + 1;
    return true;
}

/* Runs n and keeps its path constraint.  rerun: n ran before and must take
 * the same path (*same says whether it did).  False with e set on failure. */
static bool execute(cc_search *s, cc_node *n, bool rerun, bool *same, ctg_err *e)
{
    cc_run_out out;
    memset(&out, 0, sizeof out);
    expr_ctx *ctx = expr_ctx_new();
    if (!ctx)
        return err_set(e, "concolic: out of memory");
    cc_input in = {n->bytes, n->len, n->named_ids, n->named_vals, n->n_named};
    double t0 = now();
    bool ok = s->run(s->user, &in, ctx, &out, e);
    s->st.exec_secs += now() - t0;
    s->st.runs++;
    s->st.reruns += rerun;
    uint64_t *prefix = ok ? ctg_malloc((out.pc.n + 1) * sizeof *prefix) : NULL;
    expr **asserted = ok ? ctg_malloc((out.pc.n + 1) * sizeof *asserted) : NULL;
    if (ok && (!prefix || !asserted))
        ok = err_set(e, "concolic: out of memory for a path of %zu decisions", out.pc.n);
    uint64_t h = PATH_SEED;
    for (size_t i = 0; ok && i < out.pc.n; i++) {
        prefix[i] = h = path_step(h, &out.pc.v[i], out.pc.v[i].taken);
        asserted[i] = expr_pc_asserted(ctx, &out.pc.v[i]);
        if (!asserted[i])
            ok = err_set(e, "concolic: out of memory while negating a path constraint");
    }
    if (ok && rerun)
        *same = out.pc.n == n->n_pc && h == n->pc_hash;
    if (ok && !rerun) {
        n->n_pc = (uint32_t)out.pc.n;
        n->pc_hash = h;
        n->prefix = prefix; /* account reads it */
        ok = account(s, n, &out) || err_set(e, "concolic: out of memory");
        if (ok && s->cfg.heur.ran)
            s->cfg.heur.ran(s->cfg.heur.user, &out.pc, out.edges, out.n_edges, n->score);
    }
    if (!ok || (rerun && !*same)) {
        expr_pc_release(&out.pc);
        expr_ctx_free(ctx);
        ctg_free(prefix);
        ctg_free(asserted);
        n->prefix = NULL;
        return ok;
    }
    n->ctx = ctx;
    n->pc = out.pc;
    n->prefix = prefix;
    n->asserted = asserted;
    node_touch(s, n);
    return true;
}

/* Makes sure n's path constraint is in memory (running n again if it was
 * dropped).  *usable is false when the re-run took another path. */
bool cc_materialize(cc_search *s, cc_node *n, bool *usable, ctg_err *e)
{
    *usable = true;
    if (n->ctx) {
        node_touch(s, n);
        return true;
    }
    if (!execute(s, n, true, usable, e))
        return false;
    if (!*usable)
        s->st.rerun_mismatch++;
    return true;
}

/* ---- negation ---------------------------------------------------------------------- */

/* The scope at work: with scope mix, that of the arm at work. */
cc_scope cc_scope_now(const cc_search *s)
{
    if (s->cfg.scope != CC_SCOPE_MIX)
        return s->cfg.scope;
    return s->arm == MIX_GEN ? CC_SCOPE_GEN : CC_SCOPE_LAST;
}

/* The generational work list: generational, and param with scope gen. */
static bool generational(const cc_search *s)
{
    return s->cfg.order == CC_GENERATIONAL ||
           (s->cfg.order == CC_PARAM && cc_scope_now(s) == CC_SCOPE_GEN);
}

/* The child of n made by a model of the negation of entry j. */
static cc_node *make_child(cc_search *s, const cc_node *n, uint32_t j)
{
    size_t len = n->len;
    for (size_t i = 0; i < s->model.n; i++)
        if (!(s->model.v[i].key & EXPR_VKEY_NAMED) && s->model.v[i].key >= len)
            len = (size_t)s->model.v[i].key + 1;
    uint8_t *bytes = ctg_calloc(len + 1, 1);
    if (!bytes)
        return NULL;
    memcpy(bytes, n->bytes, n->len);
    cc_node *c = node_new(s, bytes, 0);
    if (!c) {
        ctg_free(bytes);
        return NULL;
    }
    ctg_free(c->bytes);
    c->bytes = bytes;
    c->len = len;
    memcpy(c->named_ids, n->named_ids, sizeof c->named_ids);
    memcpy(c->named_vals, n->named_vals, sizeof c->named_vals);
    c->n_named = n->n_named;
    for (size_t i = 0; i < s->model.n; i++) {
        const solver_assign *a = &s->model.v[i];
        if (a->key & EXPR_VKEY_NAMED)
            set_named(c, a->key & ~EXPR_VKEY_NAMED, a->val);
        else
            bytes[a->key] = (uint8_t)a->val;
    }
    c->bound = generational(s) ? j : j + 1;
    c->child = true;
    return c;
}

static void count_answer(cc_search *s, solver_result r)
{
    s->st.queries++;
    if (r == SOLVER_SAT)
        s->st.sat++;
    else if (r == SOLVER_UNSAT)
        s->st.unsat++;
    else if (r == SOLVER_SKIP)
        s->st.skip++;
}

/* n->uniq and n->n_uniq, once per retained path constraint; false when
 * out of memory.  A reactive program's path repeats the same few
 * constraints thousands of times: a query of the prefix before entry j
 * holds each once (the solver keeps one of each anyway, but copied and
 * deduplicated the whole prefix per query: pals_lcr.3 spent 18 s on 40,000
 * cached unsat queries of 30,000 entries each). */
static bool uniq_prefix(cc_node *n)
{
    if (n->uniq)
        return true;
    n->uniq = ctg_malloc(((size_t)n->n_pc + 1) * sizeof *n->uniq);
    n->n_uniq = ctg_malloc(((size_t)n->n_pc + 1) * sizeof *n->n_uniq);
    hmap seen = HMAP_SET;
    bool ok = n->uniq && n->n_uniq, added;
    uint32_t u = 0;
    for (uint32_t i = 0; ok && i < n->n_pc; i++) {
        n->n_uniq[i] = u;
        ok = hmap_add(&seen, (uintptr_t)n->asserted[i], &added);
        if (ok && added)
            n->uniq[u++] = n->asserted[i];
    }
    if (ok)
        n->n_uniq[n->n_pc] = u;
    hmap_release(&seen);
    if (!ok) {
        ctg_free(n->uniq);
        ctg_free(n->n_uniq);
        n->uniq = NULL;
        n->n_uniq = NULL;
    }
    return ok;
}

/* Solves PC[0..j-1] and not PC[j] of n (kept in memory); on sat runs the
 * child and returns it in *child (owned by the caller, refs 0). */
static neg_result negate(cc_search *s, cc_node *n, uint32_t j, cc_node **child, ctg_err *e)
{
    *child = NULL;
    const expr_pc_entry *en = &n->pc.v[j];
    if (!expr_pc_negatable(en->kind) || expr_is_const(en->cond)) /* folded: no other side */
        return NEG_SKIPPED;
    uint64_t target = path_step(prefix_before(n, j), en, !en->taken);
    bool added;
    /* a generational child's decision at its bound is the flipped one: its
     * negation is the parent's path, run already (whatever max_seen is) */
    bool parent_path = generational(s) && n->child && !n->diverged && j == n->bound;
    if (parent_path || cc_set_has(&s->seen, target)) {
        s->st.skipped_seen++;
        if (s->cfg.heur.negated)
            s->cfg.heur.negated(s->cfg.heur.user, &n->pc, j, CC_NEG_KNOWN);
        return NEG_SKIPPED;
    }
    if (!cc_set_add(&s->seen, target, &added))
        return err_set(e, "concolic: out of memory"), NEG_FAIL;
    if (!uniq_prefix(n) || ctg_grow((void **)&s->qbuf, &s->qcap, (size_t)j + 1, sizeof *s->qbuf))
        return err_set(e, "concolic: out of memory"), NEG_FAIL;
    uint32_t u = n->n_uniq[j];
    memcpy(s->qbuf, n->uniq, (size_t)u * sizeof *s->qbuf);
    s->qbuf[u] = expr_not(n->ctx, n->asserted[j]);
    expr_env base = {n->bytes, n->len, n->named_ids, n->named_vals, n->n_named};
    double t0 = solver_get_stats(s->sv)->total_secs;
    solver_result r = solver_solve(s->sv, n->ctx, s->qbuf, (size_t)u + 1, u, &base, &s->model, e);
    s->st.solver_secs += solver_get_stats(s->sv)->total_secs - t0;
    count_answer(s, r);
    if (r == SOLVER_FAIL)
        return NEG_FAIL;
    if (s->cfg.asked)
        s->cfg.asked(s->cfg.asked_user, en, r);
    if (s->cfg.heur.negated)
        s->cfg.heur.negated(s->cfg.heur.user, &n->pc, j,
                            r == SOLVER_SAT ? CC_NEG_SAT : CC_NEG_UNSAT);
    if (r != SOLVER_SAT)
        return NEG_DONE;
    cc_node *c = make_child(s, n, j);
    bool same;
    if (!c)
        return err_set(e, "concolic: out of memory"), NEG_FAIL;
    s->st.children++;
    bool pinned = n->pinned; /* the expansion in progress stays pinned after */
    n->pinned = true;
    bool ok = execute(s, c, false, &same, e);
    n->pinned = pinned;
    if (!ok) {
        cc_node_free(s, c);
        return NEG_FAIL;
    }
    c->diverged = !(c->n_pc > j && c->prefix && c->prefix[j] == target);
    if (c->diverged) {
        s->st.divergences++;
        c->score = 0;
    }
    *child = c;
    return NEG_DONE;
}

/* Algorithm 7 (shouldSkip) plus the bookkeeping of an expansion: false when
 * n must not be expanded (also when a test with the same path was). */
bool cc_begin_expansion(cc_search *s, cc_node *n, bool *oom)
{
    bool added;
    *oom = false;
    if (n->diverged && cc_set_has(&s->expanded, n->pc_hash)) {
        s->st.skipped_diverged++;
        return false;
    }
    if (!cc_set_add(&s->expanded_full, n->pc_hash, &added)) {
        *oom = true;
        return false;
    }
    if (!added) {
        s->st.skipped_duplicate++;
        return false;
    }
    for (uint32_t i = 0; i < n->n_pc; i++)
        if (!cc_set_add(&s->expanded, n->prefix[i], &added)) {
            *oom = true;
            return false;
        }
    s->st.expanded++;
    return true;
}

/* ---- the orders --------------------------------------------------------------------- */

/* dfs / bfs / random-branch: queues the negations of a freshly run test
 * (unless shouldSkip drops it); n is freed when nothing holds it. */
static bool queue_negations(cc_search *s, cc_node *n, ctg_err *e)
{
    bool oom;
    if (cc_begin_expansion(s, n, &oom))
        for (uint32_t j = n->bound; j < n->n_pc; j++) {
            if (!expr_pc_negatable(n->pc.v[j].kind))
                continue;
            if (!cc_items_push(&s->items, n, j)) {
                oom = true;
                break;
            }
            n->refs++;
        }
    if (!n->refs)
        cc_node_free(s, n);
    return oom ? err_set(e, "concolic: out of memory") : true;
}

static void drop_node(void *user, cc_node *n)
{
    cc_search *s = user;
    s->st.dropped++;
    cc_node_unref(s, n);
}

/* Bounds the work list: the generational list keeps its best three
 * quarters; dfs drops its oldest negations, bfs its newest, random-branch
 * random ones. */
static void bound_work(cc_search *s)
{
    size_t max = s->cfg.max_work ? s->cfg.max_work : SIZE_MAX;
    if (generational(s)) {
        if (s->heap.n > max)
            cc_heap_trim(&s->heap, max - max / 4, drop_node, s);
        return;
    }
    if (s->n_stack > max) { /* the oldest paths go */
        size_t drop = s->n_stack - max + max / 4;
        for (size_t i = 0; i < drop; i++)
            drop_node(s, s->stack[i]);
        memmove(s->stack, s->stack + drop, (s->n_stack - drop) * sizeof *s->stack);
        s->n_stack -= drop;
    }
    while (s->items.n > max) {
        cc_item it;
        if (s->cfg.order == CC_DFS)
            it = cc_items_pop_front(&s->items);
        else if (s->cfg.order == CC_BFS || s->cfg.order == CC_CGS)
            it = cc_items_pop_back(&s->items);
        else
            it = cc_items_take(&s->items, rng_below(&s->r, s->items.n));
        drop_node(s, it.node);
    }
}

/* Puts a freshly run test in the work list of the configured order. */
static bool enqueue(cc_search *s, cc_node *n, ctg_err *e)
{
    bool ok = true;
    if (generational(s)) {
        n->refs = 1;
        if (!cc_heap_push(&s->heap, n)) {
            cc_node_free(s, n);
            ok = err_set(e, "concolic: out of memory");
        }
    } else if (s->cfg.order == CC_CFDS || s->cfg.order == CC_PARAM) {
        ok = cc_push_path(s, n, e);
    } else {
        ok = queue_negations(s, n, e);
    }
    if (ok)
        bound_work(s);
    return ok;
}

/* n->tried, allocated at n's first pick; with own_only the entries
 * before n's bound start as tried (the path n was made from has them).
 * False when out of memory. */
bool cc_alloc_tried(cc_node *n, bool own_only)
{
    if (n->tried)
        return true;
    if (!(n->tried = ctg_calloc((size_t)n->n_pc + 1, 1)))
        return false;
    if (own_only)
        memset(n->tried, 1, n->bound < n->n_pc ? n->bound : n->n_pc);
    return true;
}

/* The entry of the expansion in progress to negate next, -1 when none is
 * left (-2 with e set when out of memory): in path order, or with scope gen
 * the heuristic's best (*score its score), ties in path order, the
 * shallowest first, as generational search takes them: with all weights 0
 * scope gen is generational search. */
static int64_t gen_next(cc_search *s, cc_node *n, double *score, ctg_err *e)
{
    *score = 0;
    if (!generational(s) || s->cfg.order == CC_GENERATIONAL)
        return s->cur_j < n->n_pc ? (int64_t)s->cur_j++ : -1;
    if (!cc_alloc_tried(n, true)) /* entries before the bound are not this expansion's */
        return err_set(e, "concolic: out of memory"), -2;
    int64_t j = cc_best_entry(&s->cfg.heur, n, true, score);
    if (j >= 0)
        n->tried[j] = 1;
    return j;
}

/* Generational: continue the expansion in progress, or start the next. */
cc_status cc_gen_step(cc_search *s, ctg_err *e)
{
    uint64_t runs0 = s->st.runs;
    for (;;) {
        if (!s->cur) {
            if (s->st.runs != runs0) /* a re-run was this step's work */
                return CC_MORE;
            cc_node *n = cc_heap_pop(&s->heap);
            bool usable, oom = false;
            if (!n)
                return CC_DONE;
            if (!cc_materialize(s, n, &usable, e)) {
                cc_node_unref(s, n);
                return CC_FAIL;
            }
            if (!usable || !cc_begin_expansion(s, n, &oom)) {
                cc_node_unref(s, n);
                if (oom)
                    return err_set(e, "concolic: out of memory"), CC_FAIL;
                continue;
            }
            s->cur = n;
            s->cur_j = n->bound;
            n->pinned = true;
        }
        cc_node *n = s->cur;
        double sc;
        int64_t j;
        while ((j = gen_next(s, n, &sc, e)) >= 0) {
            cc_node *child;
            neg_result r = negate(s, n, (uint32_t)j, &child, e);
            if (r == NEG_FAIL)
                return CC_FAIL;
            if (r == NEG_SKIPPED)
                continue;
            if (child) {
                child->tie = sc;
                if (!enqueue(s, child, e))
                    return CC_FAIL;
            }
            return CC_MORE;
        }
        if (j == -2)
            return CC_FAIL;
        n->pinned = false;
        s->cur = NULL;
        cc_node_unref(s, n);
    }
}

static cc_item pick(cc_search *s)
{
    switch (s->cfg.order) {
    case CC_DFS: return cc_items_pop_back(&s->items);
    case CC_BFS: return cc_items_pop_front(&s->items);
    case CC_CGS: return cc_items_take(&s->items, cc_items_min_j(&s->items));
    default: return cc_items_take(&s->items, rng_below(&s->r, s->items.n));
    }
}

/* cgs: hash of the context of negating entry j of n - the k decisions
 * before it and the flipped decision itself. */
static uint64_t context_of(const cc_node *n, uint32_t j, uint32_t k)
{
    uint64_t h = hash_mix64(PATH_SEED ^ k);
    for (uint32_t i = j > k ? j - k : 0; i < j; i++)
        h = path_step(h, &n->pc.v[i], n->pc.v[i].taken);
    return path_step(h, &n->pc.v[j], !n->pc.v[j].taken);
}

/* cgs: true when the context of (n, j) is new (and records it); a known
 * one is deferred for a longer context.  False in *ok on oom. */
static bool cgs_admit(cc_search *s, cc_node *n, uint32_t j, bool *ok)
{
    bool added;
    *ok = true;
    if (!cc_set_add(&s->contexts, context_of(n, j, s->cgs_k), &added))
        return *ok = false;
    if (added)
        return true;
    s->st.skipped_context++;
    if (!cc_items_push(&s->deferred, n, j))
        return *ok = false;
    n->refs++;
    return false;
}

/* cgs: when nothing is pending, k grows and the deferred negations are
 * queued again.  True when there is something to do. */
static bool cgs_refill(cc_search *s)
{
    if (s->items.n || !s->deferred.n)
        return s->items.n > 0;
    s->cgs_k++;
    s->st.cgs_k = s->cgs_k;
    cc_items t = s->items;
    s->items = s->deferred;
    s->deferred = t;
    return true;
}

/* Negates entry j of n (negate pins n while the child runs) and puts the
 * child, if any, in the work list.  NEG_FAIL with e set when the run, the
 * solver or memory failed. */
neg_result cc_negate_enqueue(cc_search *s, cc_node *n, uint32_t j, ctg_err *e)
{
    cc_node *child;
    neg_result r = negate(s, n, j, &child, e);
    if (r == NEG_DONE && child && !enqueue(s, child, e))
        r = NEG_FAIL;
    return r;
}

/* dfs / bfs / random-branch / cgs: one pending negation. */
static cc_status list_step(cc_search *s, ctg_err *e)
{
    uint64_t runs0 = s->st.runs;
    while (s->cfg.order == CC_CGS ? cgs_refill(s) : s->items.n > 0) {
        if (s->st.runs != runs0) /* a re-run was this step's work */
            return CC_MORE;
        cc_item it = pick(s);
        cc_node *n = it.node;
        bool usable, ok;
        if (!cc_materialize(s, n, &usable, e)) {
            cc_node_unref(s, n);
            return CC_FAIL;
        }
        if (!usable) {
            cc_node_unref(s, n);
            continue;
        }
        if (s->cfg.order == CC_CGS && !cgs_admit(s, n, it.j, &ok)) {
            cc_node_unref(s, n); /* the deferred list holds its own reference */
            if (!ok)
                return err_set(e, "concolic: out of memory"), CC_FAIL;
            continue;
        }
        neg_result r = cc_negate_enqueue(s, n, it.j, e);
        cc_node_unref(s, n);
        if (r == NEG_FAIL)
            return CC_FAIL;
        if (r == NEG_DONE)
            return CC_MORE;
    }
    return CC_DONE;
}

cc_status cc_step(cc_search *s, ctg_err *e)
{
    if (s->cfg.scope == CC_SCOPE_MIX && s->cfg.order == CC_PARAM)
        return cc_mix_step(s, e);
    if (generational(s))
        return cc_gen_step(s, e);
    switch (s->cfg.order) {
    case CC_CFDS:
    case CC_PARAM: return cc_last_step(s, e);
    default: return list_step(s, e);
    }
}

/* ---- life cycle ------------------------------------------------------------------------ */

cc_search *cc_new(const cc_config *cfg, cc_run_fn run, void *user, ctg_err *e)
{
    cc_search *s = ctg_calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "concolic: out of memory");
        return NULL;
    }
    if (cfg)
        s->cfg = *cfg;
    else
        cc_config_default(&s->cfg);
    s->run = run;
    s->user = user;
    rng_seed(&s->r, s->cfg.seed);
    s->cgs_k = s->cfg.cgs_k ? s->cfg.cgs_k : 1;
    s->st.cgs_k = s->cgs_k;
    s->seen.max = s->cfg.max_seen;
    s->expanded.max = s->cfg.max_seen;
    s->sv = solver_new(&s->cfg.solver, e);
    if (!s->sv) {
        ctg_free(s);
        return NULL;
    }
    return s;
}

bool cc_add_seed(cc_search *s, const cc_input *in, ctg_err *e)
{
    cc_node *n = node_new(s, in->bytes, in->len);
    bool same;
    if (!n)
        return err_set(e, "concolic: out of memory");
    for (size_t i = 0; i < in->n_named; i++)
        set_named(n, in->named_ids[i], in->named_vals[i]);
    if (!execute(s, n, false, &same, e)) {
        cc_node_free(s, n);
        return false;
    }
    return enqueue(s, n, e);
}

void cc_free(cc_search *s)
{
    if (!s)
        return;
    for (cc_node *n; (n = cc_heap_pop(&s->heap));)
        cc_node_unref(s, n);
    while (s->items.n)
        cc_node_unref(s, cc_items_pop_back(&s->items).node);
    if (s->cur)
        cc_node_unref(s, s->cur);
    while (s->deferred.n)
        cc_node_unref(s, cc_items_pop_back(&s->deferred).node);
    while (s->n_stack)
        cc_node_unref(s, s->stack[--s->n_stack]);
    ctg_free(s->stack);
    cc_items_release(&s->deferred);
    cc_set_release(&s->contexts);
    cc_heap_release(&s->heap);
    cc_items_release(&s->items);
    cc_set_release(&s->seen);
    cc_set_release(&s->expanded);
    cc_set_release(&s->expanded_full);
    cc_set_release(&s->paths);
    solver_model_release(&s->model);
    solver_free(s->sv);
    ctg_free(s->qbuf);
    ctg_free(s->cov);
    ctg_free(s);
}

/* ---- statistics --------------------------------------------------------------------------- */

const cc_stats *cc_get_stats(const cc_search *s) { return &s->st; }
const solver_stats *cc_solver_stats(const cc_search *s) { return solver_get_stats(s->sv); }
