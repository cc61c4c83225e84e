/*
 * cdg.c - post-dominator trees, control dependence and approach layers (see
 * cdg.h).  Post-dominators are computed with the iterative algorithm of
 * Cooper, Harvey and Kennedy ("A Simple, Fast Dominance Algorithm") on the
 * reverse CFG; control dependence follows Ferrante, Ottenstein and Warren:
 * for each branch edge A->S, every node on the post-dominator tree path from
 * S up to (excluding) ipdom(A) depends on that edge.
 */
#include "cdg.h"

#include <stdlib.h>
#include <string.h>

#include "../../base/mem.h"

struct cdg {
    const progdb *db;
    uint32_t n_edges, n_errors, n_goals, n_blocks;
    uint32_t *func_base;  /* n_funcs + 1: first global block of a function */
    int32_t *ipdom;       /* per global block; -1 = virtual exit          */
    uint32_t *dep_off;    /* n_blocks + 1                                 */
    uint32_t *deps;       /* edge ids                                     */
    uint32_t *err_off;    /* n_blocks + 1: error sites per block          */
    uint32_t *errs;
    uint32_t *goal_off;   /* n_goals + 1                                  */
    cdg_step *steps;
    uint32_t *levels;     /* n_goals                                      */
    uint32_t *child_off;  /* n_edges + 1                                  */
    uint32_t *children;
};

/* A growable array of uint32 pairs, used while collecting dependences. */
typedef struct pairs {
    uint32_t (*p)[2];
    size_t n, cap;
} pairs;

static bool pairs_push(pairs *a, uint32_t x, uint32_t y)
{
    if (ctg_grow((void **)&a->p, &a->cap, a->n + 1, sizeof *a->p) < 0)
        return false;
    a->p[a->n][0] = x;
    a->p[a->n][1] = y;
    a->n++;
    return true;
}

static int pair_cmp(const void *a, const void *b)
{
    const uint32_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* Sorts and deduplicates pairs, then builds CSR arrays (off has n_rows + 1
 * entries) of the second components keyed by the first.  False on oom. */
static bool pairs_to_csr(pairs *a, uint32_t n_rows, uint32_t **off, uint32_t **col)
{
    if (a->n)
        qsort(a->p, a->n, sizeof *a->p, pair_cmp);
    size_t m = 0;
    for (size_t i = 0; i < a->n; i++)
        if (m == 0 || pair_cmp(a->p[i], a->p[m - 1]) != 0)
            memcpy(a->p[m++], a->p[i], sizeof *a->p);
    a->n = m;
    *off = ctg_calloc((size_t)n_rows + 1, sizeof **off);
    *col = ctg_malloc((m ? m : 1) * sizeof **col);
    if (!*off || !*col)
        return false;
    for (size_t i = 0; i < m; i++) {
        (*off)[a->p[i][0] + 1]++;
        (*col)[i] = a->p[i][1];
    }
    for (uint32_t r = 0; r < n_rows; r++)
        (*off)[r + 1] += (*off)[r];
    return true;
}

/* ==== post-dominators of one function ================================== */

/* Scratch of the post-dominator computation of one function with nb blocks;
 * node nb is the virtual exit. */
typedef struct pd_work {
    uint32_t n;          /* nb + 1 */
    uint32_t *fs_off;    /* augmented forward successors (CSR)     */
    uint32_t *fs;
    uint32_t *rs_off;    /* reverse graph: forward predecessors      */
    uint32_t *rs;
    uint32_t *po;        /* postorder number of each node (reverse DFS) */
    uint32_t *order;     /* nodes in reverse postorder                */
    uint32_t n_order;
    int32_t *idom;       /* post-dominator of each node, -1 unknown   */
} pd_work;

static void pd_release(pd_work *w)
{
    ctg_free(w->fs_off);
    ctg_free(w->fs);
    ctg_free(w->rs_off);
    ctg_free(w->rs);
    ctg_free(w->po);
    ctg_free(w->order);
    ctg_free(w->idom);
    memset(w, 0, sizeof *w);
}

/* Builds the reverse (predecessor) CSR of a forward CSR graph of n nodes. */
static bool reverse_csr(uint32_t n, const uint32_t *off, const uint32_t *adj, uint32_t **roff,
                        uint32_t **radj)
{
    uint32_t m = off[n];
    *roff = ctg_calloc((size_t)n + 1, sizeof **roff);
    *radj = ctg_malloc((m ? m : 1) * sizeof **radj);
    uint32_t *fill = ctg_calloc(n ? n : 1, sizeof *fill);
    if (!*roff || !*radj || !fill) {
        ctg_free(fill);
        return false;
    }
    for (uint32_t i = 0; i < m; i++)
        (*roff)[adj[i] + 1]++;
    for (uint32_t v = 0; v < n; v++)
        (*roff)[v + 1] += (*roff)[v];
    for (uint32_t v = 0; v < n; v++)
        for (uint32_t i = off[v]; i < off[v + 1]; i++) {
            uint32_t t = adj[i];
            (*radj)[(*roff)[t] + fill[t]++] = v;
        }
    ctg_free(fill);
    return true;
}

/* Forward CSR of function f with an edge to the virtual exit (node nb) from
 * every block in `to_exit` (NULL: from blocks without successors). */
static bool pd_build_fs(const pdb_func *f, const uint8_t *to_exit, pd_work *w)
{
    uint32_t nb = f->n_blocks, m = f->succ_start[nb];
    w->fs_off = ctg_calloc((size_t)nb + 2, sizeof *w->fs_off);
    w->fs = ctg_malloc(((size_t)m + nb + 1) * sizeof *w->fs);
    if (!w->fs_off || !w->fs)
        return false;
    uint32_t k = 0;
    for (uint32_t b = 0; b < nb; b++) {
        w->fs_off[b] = k;
        for (uint32_t i = f->succ_start[b]; i < f->succ_start[b + 1]; i++)
            w->fs[k++] = f->succ[i];
        if (to_exit ? to_exit[b] != 0 : f->succ_start[b] == f->succ_start[b + 1])
            w->fs[k++] = nb;
    }
    w->fs_off[nb] = w->fs_off[nb + 1] = k;
    return true;
}

/* Augmented forward graph and its reverse: the function's successors plus
 * an edge to the virtual exit from every block without successors and from
 * every block that cannot reach one (infinite loops).  False on oom. */
static bool pd_forward(const pdb_func *f, pd_work *w)
{
    uint32_t nb = f->n_blocks, n = nb + 1;
    if (!pd_build_fs(f, NULL, w) || !reverse_csr(n, w->fs_off, w->fs, &w->rs_off, &w->rs))
        return false;
    uint8_t *seen = ctg_calloc(n, 1);
    uint32_t *stack = ctg_malloc(n * sizeof *stack);
    if (!seen || !stack) {
        ctg_free(seen);
        ctg_free(stack);
        return false;
    }
    uint32_t sp = 0;
    bool all = true;
    seen[nb] = 1;
    stack[sp++] = nb;
    while (sp) {
        uint32_t x = stack[--sp];
        for (uint32_t i = w->rs_off[x]; i < w->rs_off[x + 1]; i++)
            if (!seen[w->rs[i]]) {
                seen[w->rs[i]] = 1;
                stack[sp++] = w->rs[i];
            }
    }
    for (uint32_t b = 0; b < nb; b++) {
        all = all && seen[b];
        /* to_exit: no successors, or cannot reach the exit */
        seen[b] = (uint8_t)(!seen[b] || f->succ_start[b] == f->succ_start[b + 1]);
    }
    bool ok = true;
    if (!all) {
        ctg_free(w->fs_off);
        ctg_free(w->fs);
        ctg_free(w->rs_off);
        ctg_free(w->rs);
        w->fs_off = w->fs = w->rs_off = w->rs = NULL;
        ok = pd_build_fs(f, seen, w) && reverse_csr(n, w->fs_off, w->fs, &w->rs_off, &w->rs);
    }
    ctg_free(seen);
    ctg_free(stack);
    return ok;
}

/* Depth-first search of the reverse graph from the virtual exit: postorder
 * numbers and reverse postorder.  Iterative, so deep CFGs cannot overflow
 * the stack. */
static bool pd_order(pd_work *w)
{
    uint32_t n = w->n;
    uint32_t *stack = ctg_malloc(n * sizeof *stack), *it = ctg_calloc(n, sizeof *it);
    uint8_t *seen = ctg_calloc(n, 1);
    w->po = ctg_malloc(n * sizeof *w->po);
    w->order = ctg_malloc(n * sizeof *w->order);
    if (!stack || !it || !seen || !w->po || !w->order) {
        ctg_free(stack);
        ctg_free(it);
        ctg_free(seen);
        return false;
    }
    for (uint32_t v = 0; v < n; v++)
        w->po[v] = UINT32_MAX;
    uint32_t sp = 0, cnt = 0, root = n - 1;
    stack[sp++] = root;
    seen[root] = 1;
    while (sp) {
        uint32_t x = stack[sp - 1];
        uint32_t i = w->rs_off[x] + it[x];
        if (i < w->rs_off[x + 1]) {
            it[x]++;
            uint32_t y = w->rs[i];
            if (!seen[y]) {
                seen[y] = 1;
                stack[sp++] = y;
            }
        } else {
            w->po[x] = cnt++;
            sp--;
        }
    }
    w->n_order = cnt;
    for (uint32_t v = 0; v < n; v++)
        if (w->po[v] != UINT32_MAX)
            w->order[cnt - 1 - w->po[v]] = v;
    ctg_free(stack);
    ctg_free(it);
    ctg_free(seen);
    return true;
}

/* Walks two fingers up the post-dominator tree to their common ancestor. */
static uint32_t pd_intersect(const pd_work *w, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (w->po[a] < w->po[b])
            a = (uint32_t)w->idom[a];
        while (w->po[b] < w->po[a])
            b = (uint32_t)w->idom[b];
    }
    return a;
}

/* Cooper-Harvey-Kennedy iteration on the reverse graph: the "predecessors"
 * of a node there are its forward successors. */
static void pd_iterate(pd_work *w)
{
    uint32_t root = w->n - 1;
    w->idom[root] = (int32_t)root;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t k = 1; k < w->n_order; k++) {
            uint32_t b = w->order[k];
            int32_t nd = -1;
            for (uint32_t i = w->fs_off[b]; i < w->fs_off[b + 1]; i++) {
                uint32_t s = w->fs[i];
                if (w->idom[s] < 0)
                    continue;
                nd = nd < 0 ? (int32_t)s : (int32_t)pd_intersect(w, (uint32_t)nd, s);
            }
            if (nd >= 0 && w->idom[b] != nd) {
                w->idom[b] = nd;
                changed = true;
            }
        }
    }
}

/* Post-dominators of function f into g->ipdom (global block numbering). */
static bool pd_function(cdg_t *g, uint32_t fi, ctg_err *e)
{
    const pdb_func *f = &g->db->funcs[fi];
    uint32_t nb = f->n_blocks;
    for (uint32_t i = 0; i < f->succ_start[nb]; i++)
        if (f->succ[i] >= nb)
            return err_set(e, "program database: function %s: successor block %u out of range "
                           "(%u blocks); rebuild the program", f->name, f->succ[i], nb);
    pd_work w = {.n = nb + 1};
    bool ok = pd_forward(f, &w) && pd_order(&w) && (w.idom = ctg_malloc(w.n * sizeof *w.idom)) != NULL;
    if (ok) {
        for (uint32_t v = 0; v < w.n; v++)
            w.idom[v] = -1;
        pd_iterate(&w);
        for (uint32_t b = 0; b < nb; b++) {
            int32_t d = w.idom[b];
            g->ipdom[g->func_base[fi] + b] = (d < 0 || (uint32_t)d == nb) ? -1 : d;
        }
    }
    pd_release(&w);
    return ok ? true : err_set(e, "control dependence: out of memory");
}

/* ==== control dependence =============================================== */

/* Records, for every branch edge A->S of the program, the blocks on the
 * post-dominator path from S up to ipdom(A) as dependent on it. */
static bool cd_collect(cdg_t *g, pairs *out, ctg_err *e)
{
    const progdb *db = g->db;
    for (uint32_t bi = 0; bi < db->n_branches; bi++) {
        const pdb_branch *br = &db->branches[bi];
        if (br->func >= db->n_funcs || br->block >= db->funcs[br->func].n_blocks ||
            br->first_edge + br->n_edges > db->n_edges)
            return err_set(e, "program database: branch %u out of range; rebuild the program", bi);
        uint32_t base = g->func_base[br->func], nb = db->funcs[br->func].n_blocks;
        int32_t stop = g->ipdom[base + br->block];
        for (uint32_t k = 0; k < br->n_edges; k++) {
            uint32_t ed = br->first_edge + k;
            int32_t run = (int32_t)db->edges[ed].target;
            if ((uint32_t)run >= nb)
                return err_set(e, "program database: edge %u targets block %d out of range; "
                               "rebuild the program", ed, run);
            for (uint32_t guard = 0; run != stop && run >= 0 && guard <= nb; guard++) {
                if (!pairs_push(out, base + (uint32_t)run, ed))
                    return err_set(e, "control dependence: out of memory");
                run = g->ipdom[base + (uint32_t)run];
            }
        }
    }
    return true;
}

/* Error sites per global block (CSR). */
static bool cd_errors(cdg_t *g, ctg_err *e)
{
    const progdb *db = g->db;
    pairs p = {0};
    bool ok = true;
    for (uint32_t s = 0; s < db->n_errors && ok; s++) {
        const pdb_error *er = &db->errors[s];
        if (er->func >= db->n_funcs || er->block >= db->funcs[er->func].n_blocks) {
            ctg_free(p.p);
            return err_set(e, "program database: error site %u out of range; rebuild the program",
                           s);
        }
        ok = pairs_push(&p, g->func_base[er->func] + er->block, s);
    }
    ok = ok && pairs_to_csr(&p, g->n_blocks, &g->err_off, &g->errs);
    ctg_free(p.p);
    return ok ? true : err_set(e, "control dependence: out of memory");
}

/* ==== approach layers ================================================== */

/* Global block of the branch owning an edge. */
static uint32_t edge_block(const cdg_t *g, uint32_t edge)
{
    const pdb_branch *br = &g->db->branches[g->db->edges[edge].branch];
    return g->func_base[br->func] + br->block;
}

/* Global block a goal starts from, and whether the goal itself is layer 0. */
static uint32_t goal_block(const cdg_t *g, uint32_t goal, bool *is_edge)
{
    *is_edge = goal < g->n_edges;
    if (*is_edge)
        return edge_block(g, goal);
    const pdb_error *er = &g->db->errors[goal - g->n_edges];
    return g->func_base[er->func] + er->block;
}

/* Growable list of approach steps under construction. */
typedef struct steps_buf {
    cdg_step *st;
    size_t n, cap;
} steps_buf;

/* Appends the dependences of global block b not yet listed for goal (stamp)
 * at the given level. */
static bool push_deps(const cdg_t *g, uint32_t b, uint32_t level, uint32_t goal, uint32_t *stamp,
                      steps_buf *sb)
{
    for (uint32_t k = g->dep_off[b]; k < g->dep_off[b + 1]; k++) {
        uint32_t d = g->deps[k];
        if (stamp[d] == goal + 1)
            continue;
        stamp[d] = goal + 1;
        if (ctg_grow((void **)&sb->st, &sb->cap, sb->n + 1, sizeof *sb->st) < 0)
            return false;
        sb->st[sb->n++] = (cdg_step){d, level};
    }
    return true;
}

/* Appends the layers of one goal by breadth-first search over the
 * dependences; stamp[] marks the edges already listed for this goal.  The
 * layers stop at the last whole level within CDG_MAX_STEPS entries (the
 * first level is always kept). */
static bool layers_of(cdg_t *g, uint32_t goal, uint32_t *stamp, steps_buf *sb)
{
    bool is_edge;
    uint32_t blk = goal_block(g, goal, &is_edge);
    size_t first = sb->n;
    uint32_t level = 0;
    if (is_edge) {
        if (ctg_grow((void **)&sb->st, &sb->cap, sb->n + 1, sizeof *sb->st) < 0)
            return false;
        sb->st[sb->n++] = (cdg_step){goal, 0};
        stamp[goal] = goal + 1;
        level = 1;
    }
    size_t lo = sb->n;
    if (!push_deps(g, blk, level, goal, stamp, sb))
        return false;
    for (size_t hi = sb->n; lo < hi; lo = hi, hi = sb->n) {
        level++;
        for (size_t i = lo; i < hi; i++)
            if (!push_deps(g, edge_block(g, sb->st[i].edge), level, goal, stamp, sb))
                return false;
        if (sb->n - first > CDG_MAX_STEPS) {
            sb->n = hi; /* this level would pass the cap: the layers end before it */
            break;
        }
    }
    g->levels[goal] = sb->n > first ? sb->st[sb->n - 1].level + 1 : 0;
    return true;
}

/* Layers of every goal, stored flat. */
static bool build_layers(cdg_t *g, ctg_err *e)
{
    uint32_t *stamp = ctg_calloc(g->n_edges ? g->n_edges : 1, sizeof *stamp);
    g->goal_off = ctg_calloc((size_t)g->n_goals + 1, sizeof *g->goal_off);
    g->levels = ctg_calloc(g->n_goals ? g->n_goals : 1, sizeof *g->levels);
    steps_buf sb = {0};
    bool ok = stamp && g->goal_off && g->levels;
    for (uint32_t goal = 0; ok && goal < g->n_goals; goal++) {
        ok = layers_of(g, goal, stamp, &sb);
        g->goal_off[goal + 1] = (uint32_t)sb.n;
    }
    g->steps = sb.st;
    ctg_free(stamp);
    return ok ? true : err_set(e, "control dependence: out of memory");
}

/* Children of each edge: the goals whose block depends on it directly. */
static bool build_children(cdg_t *g, ctg_err *e)
{
    const progdb *db = g->db;
    pairs p = {0};
    bool ok = true;
    for (uint32_t fi = 0; fi < db->n_funcs && ok; fi++) {
        const pdb_func *f = &db->funcs[fi];
        for (uint32_t b = 0; b < f->n_blocks && ok; b++) {
            uint32_t gb = g->func_base[fi] + b;
            int32_t br = f->block_branch ? f->block_branch[b] : -1;
            for (uint32_t k = g->dep_off[gb]; k < g->dep_off[gb + 1] && ok; k++) {
                uint32_t d = g->deps[k];
                if (br >= 0 && (uint32_t)br < db->n_branches)
                    for (uint32_t j = 0; j < db->branches[br].n_edges && ok; j++)
                        ok = pairs_push(&p, d, db->branches[br].first_edge + j);
                for (uint32_t j = g->err_off[gb]; j < g->err_off[gb + 1] && ok; j++)
                    ok = pairs_push(&p, d, g->n_edges + g->errs[j]);
            }
        }
    }
    ok = ok && pairs_to_csr(&p, g->n_edges, &g->child_off, &g->children);
    ctg_free(p.p);
    return ok ? true : err_set(e, "control dependence: out of memory");
}

/* ==== public =========================================================== */

cdg_t *cdg_build(const progdb *db, ctg_err *e)
{
    cdg_t *g = ctg_calloc(1, sizeof *g);
    if (!g) {
        err_set(e, "control dependence: out of memory");
        return NULL;
    }
    g->db = db;
    g->n_edges = db->n_edges;
    g->n_errors = db->n_errors;
    g->n_goals = db->n_edges + db->n_errors;
    g->func_base = ctg_calloc((size_t)db->n_funcs + 1, sizeof *g->func_base);
    if (!g->func_base)
        goto oom;
    for (uint32_t f = 0; f < db->n_funcs; f++)
        g->func_base[f + 1] = g->func_base[f] + db->funcs[f].n_blocks;
    g->n_blocks = g->func_base[db->n_funcs];
    g->ipdom = ctg_malloc((g->n_blocks ? g->n_blocks : 1) * sizeof *g->ipdom);
    if (!g->ipdom)
        goto oom;
    for (uint32_t f = 0; f < db->n_funcs; f++)
        if (!pd_function(g, f, e))
            goto fail;
    pairs p = {0};
    bool ok = cd_collect(g, &p, e);
    if (ok && !pairs_to_csr(&p, g->n_blocks, &g->dep_off, &g->deps))
        ok = err_set(e, "control dependence: out of memory");
    ctg_free(p.p);
    if (ok && cd_errors(g, e) && build_layers(g, e) && build_children(g, e))
        return g;
    goto fail;
oom:
    err_set(e, "control dependence: out of memory");
fail:
    cdg_free(g);
    return NULL;
}

void cdg_free(cdg_t *g)
{
    if (!g)
        return;
    ctg_free(g->func_base);
    ctg_free(g->ipdom);
    ctg_free(g->dep_off);
    ctg_free(g->deps);
    ctg_free(g->err_off);
    ctg_free(g->errs);
    ctg_free(g->goal_off);
    ctg_free(g->steps);
    ctg_free(g->levels);
    ctg_free(g->child_off);
    ctg_free(g->children);
    ctg_free(g);
}

uint32_t cdg_n_goals(const cdg_t *g) { return g->n_goals; }
uint32_t cdg_n_edges(const cdg_t *g) { return g->n_edges; }

uint32_t cdg_goal_func(const cdg_t *g, uint32_t goal)
{
    if (goal < g->n_edges)
        return g->db->branches[g->db->edges[goal].branch].func;
    return g->db->errors[goal - g->n_edges].func;
}

int32_t cdg_ipdom(const cdg_t *g, uint32_t func, uint32_t block)
{
    return g->ipdom[g->func_base[func] + block];
}

const uint32_t *cdg_block_deps(const cdg_t *g, uint32_t func, uint32_t block, uint32_t *n)
{
    uint32_t b = g->func_base[func] + block;
    *n = g->dep_off[b + 1] - g->dep_off[b];
    return g->deps + g->dep_off[b];
}

const cdg_step *cdg_goal_steps(const cdg_t *g, uint32_t goal, uint32_t *n)
{
    *n = g->goal_off[goal + 1] - g->goal_off[goal];
    return g->steps + g->goal_off[goal];
}

uint32_t cdg_goal_levels(const cdg_t *g, uint32_t goal) { return g->levels[goal]; }

bool cdg_goal_is_root(const cdg_t *g, uint32_t goal)
{
    bool is_edge;
    uint32_t b = goal_block(g, goal, &is_edge);
    uint32_t own = is_edge ? g->db->edges[goal].branch : UINT32_MAX;
    for (uint32_t k = g->dep_off[b]; k < g->dep_off[b + 1]; k++)
        if (g->db->edges[g->deps[k]].branch != own)
            return false;
    return true;
}

const uint32_t *cdg_edge_children(const cdg_t *g, uint32_t edge, uint32_t *n)
{
    *n = g->child_off[edge + 1] - g->child_off[edge];
    return g->children + g->child_off[edge];
}
