/*
 * mcts.c - the AlphaFuzz seed tree (seed 000); see mcts.h for the rules.
 *
 * Traces are sparse: a node trace is a sorted array of edge ids, a tree
 * trace a sorted array of (edge, count) pairs, so a tree of thousands of
 * nodes over a program of thousands of edges stays small.  Merging a trace
 * into a tree trace is a merge of two sorted arrays.
 */
#include "mcts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/mem.h"

typedef struct mcts_count {
    uint32_t edge;
    uint32_t n;
} mcts_count;

struct mcts_node {
    mcts_node *parent;
    mcts_node **kids;
    size_t n_kids, cap_kids;
    uint32_t payload;
    unsigned depth;
    uint64_t n;          /* visits (N)                           */
    uint64_t ns;         /* selections of the node itself        */
    uint64_t size;       /* nodes in its subtree, itself included */
    uint32_t *trace;     /* node trace, sorted                   */
    size_t n_trace;
    mcts_count *tree;    /* tree trace, sorted by edge           */
    size_t n_tree;
};

struct mcts_tree {
    uint32_t n_edges;
    double c;
    mcts_policy policy;
    mcts_node **nodes; /* creation order, nodes[0] = root */
    size_t n_nodes, cap_nodes;
    unsigned max_depth;
    uint8_t *mark;     /* scratch: rare edges of the current parent */
    uint32_t *scratch; /* scratch: edge lists                        */
    double *sv;        /* scratch: SV per child                      */
    size_t cap_sv;
    /* the frontier rule (mcts_set_frontier), NULL when off: */
    uint32_t *br_first; /* per edge: the first edge of its branch         */
    uint32_t *open;     /* at a branch's first edge: its edges no node covers
                           (what the tree covers: the root's tree trace) */
};

/* ==== construction ====================================================== */

static mcts_node *node_new(mcts_tree *t, mcts_node *parent, uint32_t payload)
{
    if (ctg_grow((void **)&t->nodes, &t->cap_nodes, t->n_nodes + 1, sizeof *t->nodes) != 0)
        return NULL;
    mcts_node *n = ctg_calloc(1, sizeof *n);
    if (!n)
        return NULL;
    n->parent = parent;
    n->payload = payload;
    n->depth = parent ? parent->depth + 1 : 0;
    t->nodes[t->n_nodes++] = n;
    return n;
}

static void node_free(mcts_node *n)
{
    if (!n)
        return;
    ctg_free(n->kids);
    ctg_free(n->trace);
    ctg_free(n->tree);
    ctg_free(n);
}

mcts_tree *mcts_new(uint32_t n_edges, double c)
{
    mcts_tree *t = ctg_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->n_edges = n_edges;
    t->c = c;
    t->mark = ctg_calloc((size_t)n_edges + 1, 1);
    t->scratch = ctg_malloc(((size_t)n_edges + 1) * sizeof *t->scratch);
    if (!t->mark || !t->scratch || !node_new(t, NULL, 0)) {
        mcts_free(t);
        return NULL;
    }
    return t;
}

void mcts_free(mcts_tree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n_nodes; i++)
        node_free(t->nodes[i]);
    ctg_free(t->nodes);
    ctg_free(t->mark);
    ctg_free(t->scratch);
    ctg_free(t->sv);
    ctg_free(t->br_first);
    ctg_free(t->open);
    ctg_free(t);
}

void mcts_set_policy(mcts_tree *t, mcts_policy p) { t->policy = p; }

/* The frontier rule: the edges of a new node's trace that the root's tree
 * trace does not hold yet close a side of their branch.  Called before the
 * trace is merged into the root's. */
static void cover(mcts_tree *t, const uint32_t *set, size_t n)
{
    for (size_t i = 0; t->open && i < n; i++)
        if (mcts_tree_count(t->nodes[0], set[i]) == 0 && t->open[t->br_first[set[i]]] > 0)
            t->open[t->br_first[set[i]]]--;
}

bool mcts_set_frontier(mcts_tree *t, const uint32_t *first, const uint32_t *n)
{
    size_t ne = t->n_edges ? t->n_edges : 1;
    uint32_t *f = ctg_malloc(ne * sizeof *f), *open = ctg_calloc(ne, sizeof *open);
    if (!f || !open) {
        ctg_free(f);
        ctg_free(open);
        return false;
    }
    for (uint32_t e = 0; e < t->n_edges; e++) {
        f[e] = first[e] < t->n_edges ? first[e] : e;
        if (f[e] == e) /* a branch's first edge counts its edges */
            open[e] = n[e];
    }
    const mcts_node *root = t->nodes[0]; /* what the tree covers already */
    for (size_t i = 0; i < root->n_tree; i++)
        if (open[f[root->tree[i].edge]] > 0)
            open[f[root->tree[i].edge]]--;
    ctg_free(t->br_first);
    ctg_free(t->open);
    t->br_first = f;
    t->open = open;
    return true;
}

mcts_node *mcts_root(const mcts_tree *t) { return t->nodes[0]; }
size_t mcts_n_nodes(const mcts_tree *t) { return t->n_nodes; }
mcts_node *mcts_node_at(const mcts_tree *t, size_t i) { return i < t->n_nodes ? t->nodes[i] : NULL; }
unsigned mcts_max_depth(const mcts_tree *t) { return t->max_depth; }

/* ==== traces ============================================================= */

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* The set of valid edges of trace[0..n), sorted, into t->scratch; returns
 * its size. */
static size_t trace_set(mcts_tree *t, const uint32_t *trace, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (trace[i] < t->n_edges && !t->mark[trace[i]]) {
            t->mark[trace[i]] = 1;
            t->scratch[k++] = trace[i];
        }
    for (size_t i = 0; i < k; i++)
        t->mark[t->scratch[i]] = 0;
    qsort(t->scratch, k, sizeof *t->scratch, cmp_u32);
    return k;
}

/* tree trace of node ⊎= set (sorted edges, count 1 each).  False on oom
 * (node unchanged). */
static bool tree_merge(mcts_node *node, const uint32_t *set, size_t n)
{
    if (n == 0)
        return true;
    mcts_count *m = ctg_malloc((node->n_tree + n) * sizeof *m);
    if (!m)
        return false;
    size_t i = 0, j = 0, k = 0;
    while (i < node->n_tree || j < n) {
        if (j == n || (i < node->n_tree && node->tree[i].edge < set[j]))
            m[k++] = node->tree[i++];
        else if (i == node->n_tree || set[j] < node->tree[i].edge)
            m[k++] = (mcts_count){set[j++], 1};
        else {
            m[k] = node->tree[i++];
            m[k++].n += 1;
            j++;
        }
    }
    ctg_free(node->tree);
    node->tree = m;
    node->n_tree = k;
    return true;
}

mcts_node *mcts_add_child(mcts_tree *t, mcts_node *parent, const uint32_t *trace, size_t n,
                          uint32_t payload)
{
    size_t k = trace_set(t, trace, n);
    if (ctg_grow((void **)&parent->kids, &parent->cap_kids, parent->n_kids + 1,
                 sizeof *parent->kids) != 0)
        return NULL;
    uint32_t *copy = ctg_malloc((k ? k : 1) * sizeof *copy);
    if (!copy)
        return NULL;
    memcpy(copy, t->scratch, k * sizeof *copy);
    mcts_node *c = node_new(t, parent, payload);
    if (!c) {
        ctg_free(copy);
        return NULL;
    }
    c->trace = copy;
    c->n_trace = k;
    cover(t, copy, k);
    /* an ancestor whose merge fails for lack of memory keeps a trace short
     * of this child's edges: the scores stay defined, only less informed
     * (a root short of an edge lets the frontier rule close its side again) */
    for (mcts_node *a = c; a; a = a->parent) {
        tree_merge(a, copy, k);
        a->size++;
    }
    parent->kids[parent->n_kids++] = c;
    if (c->depth > t->max_depth)
        t->max_depth = c->depth;
    return c;
}

size_t mcts_rare(const mcts_node *node, uint32_t *out)
{
    uint32_t min = UINT32_MAX;
    for (size_t i = 0; i < node->n_tree; i++)
        if (node->tree[i].n < min)
            min = node->tree[i].n;
    size_t k = 0;
    for (size_t i = 0; i < node->n_tree; i++)
        if (node->tree[i].n == min)
            out[k++] = node->tree[i].edge;
    return k;
}

/* ==== selection ========================================================== */

/* Is edge e (covered) on a branch with a side that no node covers? */
static bool on_frontier(const mcts_tree *t, uint32_t e) { return t->open[t->br_first[e]] > 0; }

/* The rare branches of p's tree trace under the tree's rule, into
 * t->scratch; returns how many.  The frontier rule: the edges of p's tree
 * trace on a branch with an uncovered side, or, when it has none, the
 * seed's rare branches. */
static size_t rare_of(mcts_tree *t, const mcts_node *p)
{
    if (!t->open)
        return mcts_rare(p, t->scratch);
    size_t k = 0;
    for (size_t i = 0; i < p->n_tree; i++)
        if (on_frontier(t, p->tree[i].edge))
            t->scratch[k++] = p->tree[i].edge;
    return k ? k : mcts_rare(p, t->scratch);
}

/* SV of every child of p (rare branches of p's tree trace that the child's
 * tree trace contains) into t->sv: the count itself with the seed's policy
 * (seed 000), else normalised among the siblings (min-max, as the sized
 * policies weigh it against c).  False on oom. */
static bool children_sv(mcts_tree *t, const mcts_node *p)
{
    if (ctg_grow((void **)&t->sv, &t->cap_sv, p->n_kids + 1, sizeof *t->sv) != 0)
        return false;
    bool self = t->policy == MCTS_STAY && p->parent; /* p's own trace competes */
    size_t n_rare = rare_of(t, p);
    for (size_t i = 0; i < n_rare; i++)
        t->mark[t->scratch[i]] = 1;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t k = 0; k < p->n_kids; k++) {
        const mcts_node *c = p->kids[k];
        size_t sv = 0;
        for (size_t i = 0; i < c->n_tree; i++)
            sv += t->mark[c->tree[i].edge];
        t->sv[k] = (double)sv;
        lo = fmin(lo, t->sv[k]);
        hi = fmax(hi, t->sv[k]);
    }
    if (self) {
        size_t sv = 0;
        for (size_t i = 0; i < p->n_trace; i++)
            sv += t->mark[p->trace[i]];
        t->sv[p->n_kids] = (double)sv;
        lo = fmin(lo, (double)sv);
        hi = fmax(hi, (double)sv);
    }
    for (size_t i = 0; i < n_rare; i++)
        t->mark[t->scratch[i]] = 0;
    if (t->policy == MCTS_SEED) /* seed 000: the raw count against c */
        return true;
    for (size_t k = 0; k < p->n_kids + self; k++)
        t->sv[k] = hi > lo ? (t->sv[k] - lo) / (hi - lo) : (hi > 0 ? 1.0 : 0.0);
    return true;
}

/* UCT score (sized) of an option of p that was chosen n times and stands
 * for size nodes. */
static double uct_sized(const mcts_tree *t, const mcts_node *p, double n, double size, double sv)
{
    if (n == 0)
        return INFINITY;
    double ni = n / size, np = (double)p->n / (double)(p->size ? p->size : 1);
    /* a parent with fewer visits than nodes still ranks its children by
     * exploration: ln of at least 1.0001 */
    return sv / ni + t->c * sqrt(log(np > 1.0001 ? np : 1.0001) / ni);
}

/* UCT score of child k of p given its normalised SV. */
static double uct(const mcts_tree *t, const mcts_node *p, const mcts_node *c, double sv)
{
    if (t->policy != MCTS_SEED) /* visits per node of the subtree */
        return uct_sized(t, p, (double)c->n, (double)c->size, sv);
    if (c->n == 0)
        return INFINITY;
    double n = (double)c->n;
    return sv / n + t->c * sqrt(log((double)p->n) / n);
}

double mcts_score(mcts_tree *t, const mcts_node *node)
{
    const mcts_node *p = node->parent;
    if (!p)
        return -INFINITY;
    if (!children_sv(t, p))
        return 0.0;
    for (size_t k = 0; k < p->n_kids; k++)
        if (p->kids[k] == node)
            return uct(t, p, node, t->sv[k]);
    return 0.0;
}

mcts_node *mcts_select(mcts_tree *t)
{
    mcts_node *node = t->nodes[0], *best = node;
    double best_score = -INFINITY;
    while (node->n_kids > 0) {
        bool have_sv = children_sv(t, node);
        size_t arg = 0;
        double top = -INFINITY;
        for (size_t k = 0; k < node->n_kids; k++) {
            double s = uct(t, node, node->kids[k], have_sv ? t->sv[k] : 0.0);
            if (s > top || k == 0) {
                top = s;
                arg = k;
            }
        }
        if (t->policy == MCTS_STAY && node->parent && node->ns > 0 &&
            uct_sized(t, node, (double)node->ns, 1.0, have_sv ? t->sv[node->n_kids] : 0.0) > top)
            return node; /* the node itself, as a leaf of its own, beats its children */
        node = node->kids[arg];
        if (t->policy != MCTS_SEED) { /* the walk ends at a leaf */
            best = node;
            continue;
        }
        if (top > best_score) {
            best_score = top;
            best = node;
        }
    }
    return best == t->nodes[0] ? NULL : best;
}

void mcts_visit(mcts_tree *t, mcts_node *node)
{
    (void)t;
    node->ns++;
    for (mcts_node *a = node; a; a = a->parent)
        a->n++;
}

/* ==== accessors ========================================================== */

uint32_t mcts_payload(const mcts_node *node) { return node->payload; }
mcts_node *mcts_parent(const mcts_node *node) { return node->parent; }
uint64_t mcts_visits(const mcts_node *node) { return node->n; }
size_t mcts_n_children(const mcts_node *node) { return node->n_kids; }
mcts_node *mcts_child(const mcts_node *node, size_t i) { return i < node->n_kids ? node->kids[i] : NULL; }
unsigned mcts_depth(const mcts_node *node) { return node->depth; }
size_t mcts_tree_size(const mcts_node *node) { return node->n_tree; }

const uint32_t *mcts_node_trace(const mcts_node *node, size_t *n)
{
    *n = node->n_trace;
    return node->trace;
}

uint32_t mcts_tree_count(const mcts_node *node, uint32_t e)
{
    size_t lo = 0, hi = node->n_tree;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (node->tree[mid].edge < e)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < node->n_tree && node->tree[lo].edge == e ? node->tree[lo].n : 0;
}
