/*
 * cc_heur.c - CFDS distances and ParaDySE's 40 branch features (seed 004,
 * section 3.1, table 1), plus CFDS's rank as a 41st, see cc_heur.h and
 * docs/concolic.md.
 *
 * Static part, from the program database at start: per function the
 * reverse CFG, the blocks on a cycle (Tarjan's SCCs), how many branches a
 * block is behind (0-1 BFS from the entry: "nested"), and which blocks can
 * reach an error call.  Dynamic part, from the hooks: the covered edges
 * (and when each was first covered), per decision (the taken edge of a
 * path entry) how often it was negated, failed, and when last, the
 * contexts of executed decisions for k = 1..5, the uncovered edges per
 * function and the function most recently reached.  The feature names,
 * the built-in weight vectors and weight files are in cc_weights.c.
 */
#include "cc_heur.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/hash.h"
#include "../../base/mem.h"
#include "../../runtime/rt_symtrace.h"
#include "cc_int.h"

#define N_CTX 5          /* contexts of length 1..5 (features 19-23) */
#define CTX_SCAN 4096    /* path entries whose contexts are recorded  */
#define EXPR_SCAN 64     /* expression nodes looked at per condition  */
#define PC_SLOTS 4       /* paths whose scores are kept                */
#define N_FIXED 16       /* features 1-16 stay the same for a path      */

/* The scores of one path.  Features 1-16 depend on the path and the
 * program only, so their weighted sum (fixed) and the path's context
 * hashes (features 19-23) are computed once per entry; the rest is scored
 * again after every run.  A path of 50,000 entries used to be scored in
 * full for each of its negations, most of them unsat or known, and again
 * every time scope tree went from one path to another (pals_STARTPALS:
 * 104 s for 14 runs). */
typedef struct path_slot {
    uint64_t serial;         /* expr_pc serial (0: free)                    */
    size_t n, cap;
    uint64_t epoch;          /* sc is valid while the heuristic's is this  */
    uint64_t used;           /* tick of the last use                       */
    double *fixed, *sc;      /* per entry                                  */
    double *occ;             /* per entry: cfds_order's part of the rank    */
    uint64_t *ctx;           /* N_CTX per entry: the flipped context hashes */
    uint32_t *branch;        /* per entry: its branch (UINT32_MAX: none)    */
    uint8_t *fixed_ok, *sc_ok, *occ_ok;
} path_slot;

/* Feature numbers of the paper's table, 1-based, as used below. */
struct cc_heur {
    const progdb *db;
    cc_order order;
    double w[CC_N_FEATURES];
    uint32_t n_blocks;       /* over all functions                          */
    uint32_t *func_base;     /* first global block of each function         */
    uint32_t *pred_start, *pred; /* reverse CFG (global block ids, CSR)     */
    size_t n_arcs;           /* in pred                                     */
    uint8_t *in_cycle, *nested, *err_reach; /* per global block             */
    uint8_t *is_branch;      /* per global block: ends in a branch          */
    uint32_t *func_total;    /* edges per function                          */
    uint32_t *edge_func;     /* per edge                                   */
    uint32_t *edge_target;   /* global block                               */
    /* dynamic */
    uint8_t *covered;        /* per edge                                   */
    uint64_t *fresh_at;      /* run that first covered the edge            */
    uint32_t *neg_count, *unsat_count; /* per decision (taken edge)        */
    uint64_t *last_neg;      /* run of the last negation + 1 (0: never)    */
    uint32_t *func_uncovered;/* per function                               */
    uint32_t *func_rank;     /* rank by uncovered edges, 0 = most          */
    uint64_t *rank_keys;     /* scratch of update_ranks                    */
    uint32_t recent_func;    /* most recently reached (UINT32_MAX: none)   */
    uint32_t *unreached_rank;/* per global block: best size rank of an
                                unreached function it reaches (UINT32_MAX) */
    uint32_t n_unreached;    /* unreached functions with branches          */
    bool reach_dirty;
    uint32_t *dist;          /* per global block: branches to uncovered    */
    uint32_t *queue;         /* 0-1 BFS deque (queue_cap)                   */
    bool dist_dirty, rank_dirty;
    uint64_t runs;
    int64_t last_neg_j;      /* entry negated last (-1: none)              */
    cc_set ctx[N_CTX];       /* contexts of executed decisions, k = 1..5   */
    /* per-path cache of site counts (features 15, 16) */
    uint64_t cache_path;     /* expr_pc serial of the counts (0: none)      */
    size_t cache_n;
    uint32_t *site_count;    /* per edge (base ids)                        */
    uint32_t max_count, min_count;
    /* param: the scores of the paths scored last (scope tree alternates
     * between the last path and an older one; see path_slot) */
    path_slot slot[PC_SLOTS];
    uint64_t epoch;          /* +1 at every run and sat negation: every
                                feature of every entry may read otherwise  */
    uint64_t tick;           /* slot use clock                             */
    uint64_t version;        /* +1 whenever a score may have changed       */
    uint64_t seed;           /* cfds: the shuffle of a path's entries       */
};

/* ==== static analysis ===================================================== */

/* Global block of function f's block b. */
static uint32_t gblock(const cc_heur *h, uint32_t f, uint32_t b) { return h->func_base[f] + b; }

/* Calls arc(h, from, to, arg) for every arc of the interprocedural CFG
 * (global ids): the CFG edges of every function, and an arc from every block
 * that calls a function of the program to that function's entry. */
static void for_each_arc(cc_heur *h, void (*arc)(cc_heur *, uint32_t, uint32_t, void *), void *arg)
{
    const progdb *db = h->db;
    for (uint32_t f = 0; f < db->n_funcs; f++) {
        const pdb_func *fn = &db->funcs[f];
        for (uint32_t b = 0; b < fn->n_blocks; b++) {
            for (uint32_t k = fn->succ_start[b]; k < fn->succ_start[b + 1]; k++)
                arc(h, gblock(h, f, b), gblock(h, f, fn->succ[k]), arg);
            for (uint32_t k = fn->call_start ? fn->call_start[b] : 0;
                 fn->call_start && k < fn->call_start[b + 1]; k++)
                if (db->funcs[fn->calls[k]].n_blocks)
                    arc(h, gblock(h, f, b), gblock(h, fn->calls[k], 0), arg);
        }
    }
}

static void count_arc(cc_heur *h, uint32_t from, uint32_t to, void *n_arcs)
{
    (void)from;
    h->pred_start[to + 1]++;
    ++*(size_t *)n_arcs;
}

static void put_arc(cc_heur *h, uint32_t from, uint32_t to, void *fill)
{
    h->pred[h->pred_start[to] + ((uint32_t *)fill)[to]++] = from;
}

/* The reverse of the interprocedural CFG (global ids, CSR). */
static bool build_preds(cc_heur *h)
{
    h->pred_start = ctg_calloc((size_t)h->n_blocks + 1, sizeof *h->pred_start);
    if (!h->pred_start)
        return false;
    size_t n_arcs = 0;
    for_each_arc(h, count_arc, &n_arcs);
    h->n_arcs = n_arcs;
    for (uint32_t i = 0; i < h->n_blocks; i++)
        h->pred_start[i + 1] += h->pred_start[i];
    h->pred = ctg_malloc((n_arcs + 1) * sizeof *h->pred);
    uint32_t *fill = ctg_calloc((size_t)h->n_blocks + 1, sizeof *fill);
    if (!h->pred || !fill) {
        ctg_free(fill);
        return false;
    }
    for_each_arc(h, put_arc, fill);
    ctg_free(fill);
    return true;
}

/* Marks the blocks of function f that lie on a cycle: Tarjan's strongly
 * connected components, iteratively; a block is on a cycle when its
 * component has two blocks or more, or it is its own successor. */
static bool mark_cycles(cc_heur *h, uint32_t f)
{
    const pdb_func *fn = &h->db->funcs[f];
    uint32_t n = fn->n_blocks;
    if (!n)
        return true;
    uint32_t *index = ctg_malloc(n * sizeof *index), *low = ctg_malloc(n * sizeof *low);
    uint32_t *stack = ctg_malloc(n * sizeof *stack), *call = ctg_malloc(n * sizeof *call);
    uint32_t *next = ctg_malloc(n * sizeof *next);
    uint8_t *on = ctg_calloc(n, 1);
    bool ok = index && low && stack && call && next && on;
    uint32_t counter = 0, sp = 0;
    for (uint32_t i = 0; ok && i < n; i++)
        index[i] = UINT32_MAX;
    for (uint32_t root = 0; ok && root < n; root++) {
        if (index[root] != UINT32_MAX)
            continue;
        uint32_t depth = 0;
        call[depth++] = root;
        index[root] = low[root] = counter++;
        next[root] = fn->succ_start[root];
        stack[sp++] = root;
        on[root] = 1;
        while (depth) {
            uint32_t v = call[depth - 1];
            if (next[v] < fn->succ_start[v + 1]) {
                uint32_t w = fn->succ[next[v]++];
                if (w == v)
                    h->in_cycle[gblock(h, f, v)] = 1;
                if (index[w] == UINT32_MAX) {
                    index[w] = low[w] = counter++;
                    next[w] = fn->succ_start[w];
                    stack[sp++] = w;
                    on[w] = 1;
                    call[depth++] = w;
                } else if (on[w] && index[w] < low[v]) {
                    low[v] = index[w];
                }
                continue;
            }
            if (low[v] == index[v]) { /* v roots a component */
                uint32_t size = 0, top = sp;
                do
                    size++;
                while (stack[--top] != v);
                for (uint32_t k = top; k < sp; k++) {
                    on[stack[k]] = 0;
                    if (size > 1)
                        h->in_cycle[gblock(h, f, stack[k])] = 1;
                }
                sp = top;
            }
            depth--;
            if (depth && low[v] < low[call[depth - 1]])
                low[call[depth - 1]] = low[v];
        }
    }
    ctg_free(index), ctg_free(low), ctg_free(stack), ctg_free(call), ctg_free(next), ctg_free(on);
    return ok;
}

/* nested[b]: a conditional branch lies on every path from the entry of
 * b's function to b (0-1 BFS counting branch blocks passed). */
static bool mark_nested(cc_heur *h, uint32_t f)
{
    const pdb_func *fn = &h->db->funcs[f];
    uint32_t n = fn->n_blocks;
    if (!n)
        return true;
    size_t cap = 4 * (size_t)n + 4;
    uint32_t *d = ctg_malloc(n * sizeof *d), *dq = ctg_malloc(cap * sizeof *dq);
    if (!d || !dq) {
        ctg_free(d), ctg_free(dq);
        return false;
    }
    for (uint32_t i = 0; i < n; i++)
        d[i] = UINT32_MAX;
    size_t head = cap / 2, tail = cap / 2; /* a deque in dq[0 .. cap) */
    d[0] = 0;
    dq[tail++] = 0;
    while (head < tail) {
        uint32_t v = dq[head++];
        uint32_t cost = fn->block_branch[v] >= 0 ? 1 : 0;
        for (uint32_t k = fn->succ_start[v]; k < fn->succ_start[v + 1]; k++) {
            uint32_t w = fn->succ[k];
            if (d[v] + cost < d[w]) {
                d[w] = d[v] + cost;
                if (cost && tail < cap)
                    dq[tail++] = w;
                else if (!cost && head > 0)
                    dq[--head] = w;
            }
        }
    }
    for (uint32_t b = 0; b < n; b++)
        h->nested[gblock(h, f, b)] = d[b] != UINT32_MAX && d[b] >= 1;
    ctg_free(d), ctg_free(dq);
    return true;
}

/* err_reach[b]: b reaches an error call in the interprocedural CFG (its own
 * function's, or one in a function it calls, directly or not). */
static void mark_error_reach(cc_heur *h)
{
    const progdb *db = h->db;
    size_t head = 0, tail = 0;
    for (uint32_t i = 0; i < db->n_errors; i++) {
        uint32_t g = gblock(h, db->errors[i].func, db->errors[i].block);
        if (!h->err_reach[g]) {
            h->err_reach[g] = 1;
            h->queue[tail++] = g;
        }
    }
    while (head < tail) {
        uint32_t v = h->queue[head++];
        for (uint32_t k = h->pred_start[v]; k < h->pred_start[v + 1]; k++)
            if (!h->err_reach[h->pred[k]]) {
                h->err_reach[h->pred[k]] = 1;
                h->queue[tail++] = h->pred[k];
            }
    }
}

/* Capacity of the distance deque: every push (seed or relaxation) fits on
 * either side of the middle. */
static size_t queue_cap(const cc_heur *h) { return 2 * (h->n_arcs + h->n_blocks) + 4; }

static bool analyse(cc_heur *h)
{
    const progdb *db = h->db;
    h->func_base = ctg_calloc((size_t)db->n_funcs + 1, sizeof *h->func_base);
    if (!h->func_base)
        return false;
    for (uint32_t f = 0; f < db->n_funcs; f++)
        h->func_base[f + 1] = h->func_base[f] + db->funcs[f].n_blocks;
    h->n_blocks = h->func_base[db->n_funcs];
    size_t nb = (size_t)h->n_blocks + 1, ne = (size_t)db->n_edges + 1;
    h->in_cycle = ctg_calloc(nb, 1);
    h->nested = ctg_calloc(nb, 1);
    h->err_reach = ctg_calloc(nb, 1);
    h->dist = ctg_calloc(nb, sizeof *h->dist);
    h->unreached_rank = ctg_calloc(nb, sizeof *h->unreached_rank);
    h->is_branch = ctg_calloc(nb, 1);
    h->edge_func = ctg_calloc(ne, sizeof *h->edge_func);
    h->edge_target = ctg_calloc(ne, sizeof *h->edge_target);
    if (!h->in_cycle || !h->nested || !h->err_reach || !h->dist || !h->unreached_rank ||
        !h->is_branch ||
        !h->edge_func || !h->edge_target || !build_preds(h))
        return false;
    /* a 0-1 BFS pushes a block once as a seed and once per relaxed arc */
    h->queue = ctg_calloc(queue_cap(h), sizeof *h->queue);
    if (!h->queue)
        return false;
    for (uint32_t e = 0; e < db->n_edges; e++) {
        uint32_t f = db->branches[db->edges[e].branch].func;
        h->edge_func[e] = f;
        h->edge_target[e] = gblock(h, f, db->edges[e].target);
    }
    for (uint32_t b = 0; b < db->n_branches; b++)
        h->is_branch[gblock(h, db->branches[b].func, db->branches[b].block)] = 1;
    for (uint32_t f = 0; f < db->n_funcs; f++)
        if (!mark_cycles(h, f) || !mark_nested(h, f))
            return false;
    mark_error_reach(h);
    return true;
}

/* ==== dynamic state ========================================================= */

/* CFDS distances of every block: branches passed to an uncovered edge
 * (0-1 BFS backwards from the branch blocks that have one). */
static void update_distances(cc_heur *h)
{
    const progdb *db = h->db;
    size_t cap = queue_cap(h), head = cap / 2, tail = head;
    for (uint32_t i = 0; i < h->n_blocks; i++)
        h->dist[i] = UINT32_MAX;
    for (uint32_t b = 0; b < db->n_branches; b++) {
        const pdb_branch *br = &db->branches[b];
        bool open = false;
        for (uint32_t k = 0; k < br->n_edges && !open; k++)
            open = !h->covered[br->first_edge + k];
        uint32_t g = gblock(h, br->func, br->block);
        if (open && h->dist[g] != 1 && tail < cap) {
            h->dist[g] = 1;
            h->queue[tail++] = g;
        }
    }
    while (head < tail) {
        uint32_t v = h->queue[head++];
        for (uint32_t k = h->pred_start[v]; k < h->pred_start[v + 1]; k++) {
            uint32_t p = h->pred[k];
            uint32_t cost = h->is_branch[p]; /* passing p's branch counts one */
            if (h->dist[v] + cost < h->dist[p]) {
                h->dist[p] = h->dist[v] + cost;
                if (cost && tail < cap)
                    h->queue[tail++] = p;
                else if (!cost && head > 0)
                    h->queue[--head] = p;
            }
        }
    }
    h->dist_dirty = false;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Ranks the functions by their uncovered edges (features 35-38). */
static void update_ranks(cc_heur *h)
{
    uint32_t n = h->db->n_funcs;
    /* key: most uncovered first, then the lower index */
    for (uint32_t f = 0; f < n; f++)
        h->rank_keys[f] = (uint64_t)(UINT32_MAX - h->func_uncovered[f]) << 32 | f;
    qsort(h->rank_keys, n, sizeof *h->rank_keys, cmp_u64);
    for (uint32_t r = 0; r < n; r++)
        h->func_rank[(uint32_t)h->rank_keys[r]] = r;
    h->rank_dirty = false;
}

/* unreached_rank of every block: the functions with branches of which no
 * edge is covered, largest (most edges) first, are searched backwards from
 * their entries over the interprocedural CFG in that order; a block gets
 * the rank of the first (largest) one it reaches (features 36-38). */
static void update_unreached(cc_heur *h)
{
    const progdb *db = h->db;
    uint32_t n = 0;
    for (uint32_t f = 0; f < db->n_funcs; f++)
        if (h->func_total[f] && h->func_uncovered[f] == h->func_total[f] && db->funcs[f].n_blocks)
            h->rank_keys[n++] = (uint64_t)(UINT32_MAX - h->func_total[f]) << 32 | f;
    qsort(h->rank_keys, n, sizeof *h->rank_keys, cmp_u64);
    for (uint32_t i = 0; i < h->n_blocks; i++)
        h->unreached_rank[i] = UINT32_MAX;
    for (uint32_t r = 0; r < n; r++) {
        uint32_t g = gblock(h, (uint32_t)h->rank_keys[r], 0);
        if (h->unreached_rank[g] != UINT32_MAX)
            continue;
        size_t head = 0, tail = 0;
        h->unreached_rank[g] = r;
        h->queue[tail++] = g;
        while (head < tail) {
            uint32_t v = h->queue[head++];
            for (uint32_t k = h->pred_start[v]; k < h->pred_start[v + 1]; k++)
                if (h->unreached_rank[h->pred[k]] == UINT32_MAX) {
                    h->unreached_rank[h->pred[k]] = r;
                    h->queue[tail++] = h->pred[k];
                }
        }
    }
    h->n_unreached = n;
    h->rank_dirty = true; /* rank_keys was scratch */
    h->reach_dirty = false;
}

/* The taken edge of entry en (n_edges when it has none). */
static uint32_t taken_edge(const cc_heur *h, const expr_pc_entry *en)
{
    uint32_t e = h->db->n_edges;
    if (en->site == CTG_SYM_NONE || en->site >= h->db->n_edges)
        return e;
    if (en->kind == CTG_SPC_BRANCH)
        e = en->site + (en->taken ? 0u : 1u);
    else if (en->kind == CTG_SPC_SWITCH)
        e = en->site + en->arg;
    return e < h->db->n_edges ? e : h->db->n_edges;
}

/* Context hash of entry j (decisions j-k .. j-1, then j taken or flipped). */
static uint64_t context_hash(const cc_heur *h, const expr_pc *pc, uint32_t j, uint32_t k,
                             bool flipped)
{
    uint64_t x = hash_mix64(k + 1);
    for (uint32_t i = j > k ? j - k : 0; i <= j; i++) {
        uint64_t d = taken_edge(h, &pc->v[i]);
        if (i == j && flipped)
            d ^= 0x8000000000000000ULL;
        x = hash_combine64(x, d);
    }
    return x ? x : 1;
}

static void hook_ran(void *user, const expr_pc *pc, const uint32_t *edges, size_t n, uint64_t fresh)
{
    cc_heur *h = user;
    h->runs++;
    h->epoch++;
    h->version++;
    for (size_t i = 0; fresh && i < n; i++) {
        uint32_t e = edges[i];
        if (e >= h->db->n_edges || h->covered[e])
            continue;
        uint32_t f = h->edge_func[e];
        if (h->func_uncovered[f] == h->func_total[f]) { /* its first covered edge */
            h->recent_func = f;
            h->reach_dirty = true;
        }
        h->covered[e] = 1;
        h->fresh_at[e] = h->runs;
        if (h->func_uncovered[f])
            h->func_uncovered[f]--;
        h->dist_dirty = h->rank_dirty = true;
    }
    if (h->order != CC_PARAM)
        return; /* contexts are param's features 19-23 only */
    bool added;
    size_t m = pc->n < CTX_SCAN ? pc->n : CTX_SCAN;
    for (uint32_t j = 0; j < m; j++)
        for (uint32_t k = 1; k <= N_CTX; k++)
            if (!cc_set_add(&h->ctx[k - 1], context_hash(h, pc, j, k, false), &added))
                return; /* out of memory: the feature reads what is there */
}

/* The cached entries that read the counters of edge e's branch (features
 * 24-28, 29 and 32-34) are scored again, on every path kept; entries
 * without a branch in the database share the counters of the pseudo edge
 * n_edges. */
static void scores_touch(cc_heur *h, uint32_t e)
{
    uint32_t ne = h->db->n_edges, b = e < ne ? h->db->edges[e].branch : UINT32_MAX;
    for (int k = 0; k < PC_SLOTS; k++) {
        path_slot *sl = &h->slot[k];
        if (!sl->serial || sl->epoch != h->epoch)
            continue;
        for (size_t i = 0; i < sl->n; i++)
            if (sl->sc_ok[i] && sl->branch[i] == b)
                sl->sc_ok[i] = 0;
    }
}

/* Whether feature window `lim` of "negated in the last lim runs" holds
 * for an edge last negated at run last - 1 (0: never), now. */
static bool neg_within(const cc_heur *h, uint64_t last, uint64_t lim)
{
    return last && h->runs + 1 - last < lim;
}

static void hook_negated(void *user, const expr_pc *pc, uint32_t j, cc_neg_outcome outcome)
{
    cc_heur *h = user;
    uint32_t e = taken_edge(h, &pc->v[j]);
    uint64_t was = h->last_neg[e];
    uint32_t nc = ++h->neg_count[e];
    h->unsat_count[e] += outcome == CC_NEG_UNSAT;
    h->last_neg[e] = h->runs + 1;
    h->last_neg_j = outcome == CC_NEG_SAT ? (int64_t)j : h->last_neg_j;
    if (outcome == CC_NEG_SAT) {
        h->epoch++; /* features 18 and 27 read last_neg_j: all again */
        h->version++;
        return;
    }
    /* otherwise only the counters of e's branch changed, and only a
     * threshold they crossed changes a feature (24-26, 28-29, 32-34) */
    bool crossed = nc == 11 || nc == 21 || nc == 51 ||
                   (outcome == CC_NEG_UNSAT && h->unsat_count[e] == 11);
    static const uint64_t window[] = {10, 20, 50};
    for (size_t i = 0; i < sizeof window / sizeof *window && !crossed; i++)
        crossed = neg_within(h, was, window[i]) != neg_within(h, h->last_neg[e], window[i]);
    if (crossed) {
        scores_touch(h, e);
        h->version++;
    }
}

static uint64_t hook_version(void *user) { return ((const cc_heur *)user)->version; }

/* ==== features ================================================================ */

/* Flags of a condition's expression: a constant operand, equality, an
 * array read, the input length. */
typedef struct cond_info {
    bool const_operand, equality, array;
} cond_info;

static cond_info cond_of(const expr *c)
{
    cond_info ci = {false, false, false};
    if (!c)
        return ci;
    if (c->op == EXPR_NOT && c->args[0])
        c = c->args[0];
    ci.array = (c->flags & EXPR_F_ARRAY) != 0;
    if (c->op >= EXPR_EQ && c->op <= EXPR_SLE) {
        ci.equality = c->op == EXPR_EQ || c->op == EXPR_NE;
        ci.const_operand = (c->args[0] && c->args[0]->op == EXPR_CONST) ||
                           (c->args[1] && c->args[1]->op == EXPR_CONST);
    }
    return ci;
}

/* Site counts of the path (features 15 and 16), cached per path. */
static void count_sites(cc_heur *h, const expr_pc *pc)
{
    if (pc->serial && h->cache_path == pc->serial && h->cache_n == pc->n)
        return;
    for (size_t i = 0; i < pc->n; i++)
        if (pc->v[i].site < h->db->n_edges)
            h->site_count[pc->v[i].site] = 0;
    for (size_t i = 0; i < pc->n; i++)
        if (pc->v[i].site < h->db->n_edges)
            h->site_count[pc->v[i].site]++;
    h->max_count = 0;
    h->min_count = UINT32_MAX;
    for (size_t i = 0; i < pc->n; i++)
        if (pc->v[i].site < h->db->n_edges) {
            uint32_t c = h->site_count[pc->v[i].site];
            h->max_count = c > h->max_count ? c : h->max_count;
            h->min_count = c < h->min_count ? c : h->min_count;
        }
    h->cache_path = pc->serial;
    h->cache_n = pc->n;
}

double cc_heur_distance(cc_heur *h, const expr_pc *pc, uint32_t j)
{
    const expr_pc_entry *en = &pc->v[j];
    if (en->site == CTG_SYM_NONE || en->site >= h->db->n_edges)
        return CC_FAR;
    if (h->dist_dirty)
        update_distances(h);
    const pdb_branch *br = &h->db->branches[h->db->edges[en->site].branch];
    uint32_t mine = taken_edge(h, en);
    double best = CC_FAR;
    for (uint32_t k = 0; k < br->n_edges; k++) {
        uint32_t o = br->first_edge + k;
        if (o == mine)
            continue;
        double d = !h->covered[o] ? 0.0
                   : h->dist[h->edge_target[o]] == UINT32_MAX ? CC_FAR
                                                              : (double)h->dist[h->edge_target[o]];
        best = d < best ? d : best;
    }
    return best;
}

/* Features 1-16 of entry j: the program's and the path's (N_FIXED). */
static void path_features(cc_heur *h, const expr_pc *pc, uint32_t j, double f[CC_N_FEATURES])
{
    const progdb *db = h->db;
    const expr_pc_entry *en = &pc->v[j];
    uint32_t e = taken_edge(h, en);
    size_t n = pc->n, tenth = n / 10 ? n / 10 : 1;
    bool have = e < db->n_edges;
    const pdb_branch *br = have ? &db->branches[db->edges[e].branch] : NULL;
    uint32_t fn = have ? br->func : 0, blk = have ? gblock(h, fn, br->block) : 0;
    cond_info ci = cond_of(en->cond);
    if (have) { /* static, 1-12 */
        f[0] = !strcmp(db->funcs[fn].name, "main");
        bool stays = h->in_cycle[h->edge_target[e]] && h->in_cycle[blk];
        bool exits = h->in_cycle[blk] && !h->in_cycle[h->edge_target[e]];
        f[1] = stays && !exits;
        f[2] = exits;
        f[3] = h->nested[blk];
        f[4] = br->cond && (!strncmp(br->cond, "strcmp", 6) || !strncmp(br->cond, "strncmp", 7) ||
                            !strncmp(br->cond, "memcmp", 6));
        f[5] = br->cond && !strncmp(br->cond, "icmp", 4);
        f[9] = h->in_cycle[blk];
        f[10] = br->kind == PDB_SWITCH && e + 1 < br->first_edge + br->n_edges;
        f[11] = br->kind == PDB_SWITCH && e + 1 == br->first_edge + br->n_edges;
    }
    f[6] = ci.const_operand;
    f[7] = ci.array;
    f[8] = ci.equality;
    /* dynamic, 13-40; 13-16 stay the same for the path */
    f[12] = j < tenth;
    f[13] = j + tenth >= n;
    if (have) {
        count_sites(h, pc);
        uint32_t c = h->site_count[en->site];
        f[14] = c == h->max_count;
        f[15] = c == h->min_count;
    }
}

/* Features 17-41 of entry j; ctx: its flipped context hashes for k =
 * 1..N_CTX (NULL: computed here); occ: cfds_order's part of its rank (the
 * occurrence and the shuffle; 0 without a path slot). */
static void run_features(cc_heur *h, const expr_pc *pc, uint32_t j, const uint64_t *ctx,
                         double occ, double f[CC_N_FEATURES])
{
    const progdb *db = h->db;
    uint32_t e = taken_edge(h, &pc->v[j]);
    bool have = e < db->n_edges;
    const pdb_branch *br = have ? &db->branches[db->edges[e].branch] : NULL;
    uint32_t fn = have ? br->func : 0;
    f[16] = have && h->fresh_at[e] && h->fresh_at[e] == h->runs;
    f[17] = h->last_neg_j >= 0 && (int64_t)j == h->last_neg_j + 1;
    for (uint32_t k = 1; k <= N_CTX; k++)
        f[17 + k] = cc_set_has(&h->ctx[k - 1], ctx ? ctx[k - 1] : context_hash(h, pc, j, k, true));
    f[23] = h->neg_count[e] > 10;
    f[24] = h->neg_count[e] > 20;
    f[25] = h->neg_count[e] > 50;
    f[26] = h->last_neg_j >= 0 && llabs((int64_t)j - h->last_neg_j) <= 3;
    f[27] = h->unsat_count[e] > 10;
    double d = have ? cc_heur_distance(h, pc, j) : CC_FAR;
    f[29] = d == 0.0;
    f[30] = d <= 1.0;
    /* 41, graded: CFDS's rank, 1 / (1 + its sort key), which orders the
     * entries of a path as --search cfds does (1 nearest, ~0 far) */
    f[40] = 1.0 / (1.0 + d + occ);
    uint64_t last = h->last_neg[e];
    f[31] = neg_within(h, last, 10);
    f[32] = neg_within(h, last, 20);
    f[33] = neg_within(h, last, 50);
    if (have) {
        if (h->reach_dirty)
            update_unreached(h);
        uint32_t ur = UINT32_MAX; /* best unreached function the other side reaches */
        for (uint32_t k = 0; k < br->n_edges; k++) { /* 29: the opposite side failed */
            uint32_t o = br->first_edge + k;
            if (o == e)
                continue;
            if (h->unsat_count[o] > 10)
                f[28] = 1;
            if (h->err_reach[h->edge_target[o]])
                f[38] = 1;
            if (h->unreached_rank[h->edge_target[o]] < ur)
                ur = h->unreached_rank[h->edge_target[o]];
        }
        uint64_t nu = h->n_unreached;
        f[35] = ur != UINT32_MAX && (uint64_t)ur * 10 < nu;
        f[36] = ur != UINT32_MAX && (uint64_t)ur * 5 < nu;
        f[37] = ur != UINT32_MAX && (uint64_t)ur * 10 < nu * 3;
        if (h->rank_dirty)
            update_ranks(h);
        f[34] = h->func_rank[fn] == 0 && h->func_uncovered[fn] > 0;
        f[39] = fn == h->recent_func;
    }
}

static bool cfds_order(cc_heur *h, path_slot *sl, const expr_pc *pc);
static path_slot *slot_for(cc_heur *h, const expr_pc *pc);

/* cfds_order's part of entry j's rank: 0 without a slot (out of memory,
 * a path without a serial). */
static double occurrence(cc_heur *h, path_slot *sl, const expr_pc *pc, uint32_t j)
{
    if (!sl || (!sl->occ_ok[j] && !cfds_order(h, sl, pc)))
        return 0.0;
    return sl->occ[j];
}

void cc_heur_features(cc_heur *h, const expr_pc *pc, uint32_t j, double f[CC_N_FEATURES])
{
    for (int i = 0; i < CC_N_FEATURES; i++)
        f[i] = 0.0;
    path_features(h, pc, j, f);
    run_features(h, pc, j, NULL, occurrence(h, slot_for(h, pc), pc, j), f);
}

/* The slot of pc's scores: its own, else the least recently used one,
 * emptied; scores from before the last run or sat negation are dropped.
 * NULL when pc has no serial or memory is short (no cache). */
static path_slot *slot_for(cc_heur *h, const expr_pc *pc)
{
    if (!pc->serial)
        return NULL;
    path_slot *sl = NULL;
    for (int k = 0; k < PC_SLOTS && !sl; k++)
        if (h->slot[k].serial == pc->serial && h->slot[k].n == pc->n)
            sl = &h->slot[k];
    if (!sl) {
        sl = &h->slot[0];
        for (int k = 1; k < PC_SLOTS; k++)
            if (h->slot[k].used < sl->used)
                sl = &h->slot[k];
        sl->serial = 0;
        if (pc->n > sl->cap) {
            size_t cap = pc->n;
            double *fx = ctg_realloc(sl->fixed, cap * sizeof *fx);
            sl->fixed = fx ? fx : sl->fixed;
            double *sc = fx ? ctg_realloc(sl->sc, cap * sizeof *sc) : NULL;
            sl->sc = sc ? sc : sl->sc;
            uint64_t *cx = sc ? ctg_realloc(sl->ctx, cap * N_CTX * sizeof *cx) : NULL;
            sl->ctx = cx ? cx : sl->ctx;
            uint32_t *br = cx ? ctg_realloc(sl->branch, cap * sizeof *br) : NULL;
            sl->branch = br ? br : sl->branch;
            uint8_t *fo = br ? ctg_realloc(sl->fixed_ok, cap) : NULL;
            sl->fixed_ok = fo ? fo : sl->fixed_ok;
            uint8_t *so = fo ? ctg_realloc(sl->sc_ok, cap) : NULL;
            sl->sc_ok = so ? so : sl->sc_ok;
            double *oc = so ? ctg_realloc(sl->occ, cap * sizeof *oc) : NULL;
            sl->occ = oc ? oc : sl->occ;
            uint8_t *oo = oc ? ctg_realloc(sl->occ_ok, cap) : NULL;
            sl->occ_ok = oo ? oo : sl->occ_ok;
            if (!oo)
                return NULL;
            sl->cap = cap;
        }
        memset(sl->fixed_ok, 0, pc->n);
        memset(sl->sc_ok, 0, pc->n);
        memset(sl->occ_ok, 0, pc->n);
        sl->serial = pc->serial;
        sl->n = pc->n;
        sl->epoch = h->epoch;
    }
    if (sl->epoch != h->epoch) {
        memset(sl->sc_ok, 0, sl->n);
        sl->epoch = h->epoch;
    }
    sl->used = ++h->tick;
    return sl;
}

/* s plus the weights of the features from..to-1 that hold, in order (the
 * same sum, rounding included, whether or not it starts from a cached part) */
static double dot(const cc_heur *h, const double f[CC_N_FEATURES], double s, int from, int to)
{
    for (int i = from; i < to; i++)
        s += f[i] != 0.0 ? f[i] * h->w[i] : 0.0; /* f[i] 1: w[i] exactly */
    return s;
}

/* One entry of a path in cfds_order's sort: its decision, then its place
 * in the shuffle. */
typedef struct cfds_key {
    uint64_t key; /* taken edge << 32 | shuffle rank                     */
    uint32_t j;
} cfds_key;

static int cfds_key_cmp(const void *a, const void *b)
{
    uint64_t x = ((const cfds_key *)a)->key, y = ((const cfds_key *)b)->key;
    return (x > y) - (x < y);
}

/* cfds: what CREST's CfgHeuristicSearch::DoSearch adds to the distance of
 * each entry of a path, into sl->occ: the entries are shuffled; in that
 * order the k-th occurrence of a decision (branch and side) gets k added
 * (CREST's seen[bid]), and among equal sums the earlier in the shuffle
 * wins (its stable sort).  So occ[j] = k + the entry's shuffle key in
 * [0, 1).  The shuffle is a hash of the seed, the path's decisions and j.
 * False when out of memory. */
static bool cfds_order(cc_heur *h, path_slot *sl, const expr_pc *pc)
{
    cfds_key *v = ctg_malloc((pc->n + 1) * sizeof *v);
    if (!v)
        return false;
    uint64_t path = h->seed;
    for (uint32_t j = 0; j < pc->n; j++)
        path = hash_combine64(path, taken_edge(h, &pc->v[j]));
    for (uint32_t j = 0; j < pc->n; j++) {
        uint32_t r = (uint32_t)hash_combine64(path, j);
        v[j] = (cfds_key){(uint64_t)taken_edge(h, &pc->v[j]) << 32 | r, j};
    }
    qsort(v, pc->n, sizeof *v, cfds_key_cmp);
    uint32_t k = 0;
    for (uint32_t i = 0; i < pc->n; i++) {
        k = i && v[i].key >> 32 == v[i - 1].key >> 32 ? k + 1 : 0;
        sl->occ[v[i].j] = (double)k + (double)(uint32_t)v[i].key / 4294967296.0;
        sl->occ_ok[v[i].j] = 1;
    }
    ctg_free(v);
    return true;
}

static double hook_score(void *user, const expr_pc *pc, uint32_t j)
{
    cc_heur *h = user;
    if (h->order == CC_CFDS) {
        double d = cc_heur_distance(h, pc, j);
        return -(d + occurrence(h, slot_for(h, pc), pc, j));
    }
    double f[CC_N_FEATURES] = {0};
    path_slot *sl = slot_for(h, pc);
    if (!sl) {
        cc_heur_features(h, pc, j, f);
        return dot(h, f, 0.0, 0, CC_N_FEATURES);
    }
    if (sl->sc_ok[j])
        return sl->sc[j];
    uint64_t *ctx = &sl->ctx[(size_t)j * N_CTX];
    if (!sl->fixed_ok[j]) {
        path_features(h, pc, j, f);
        sl->fixed[j] = dot(h, f, 0.0, 0, N_FIXED);
        for (uint32_t k = 1; k <= N_CTX; k++)
            ctx[k - 1] = context_hash(h, pc, j, k, true);
        uint32_t e = taken_edge(h, &pc->v[j]);
        sl->branch[j] = e < h->db->n_edges ? h->db->edges[e].branch : UINT32_MAX;
        sl->fixed_ok[j] = 1;
    }
    /* cfds_order sorts the path: only when feature 41 weighs */
    run_features(h, pc, j, ctx, h->w[CC_CFDS_RANK] != 0.0 ? occurrence(h, sl, pc, j) : 0.0, f);
    sl->sc[j] = dot(h, f, sl->fixed[j], N_FIXED, CC_N_FEATURES);
    sl->sc_ok[j] = 1;
    return sl->sc[j];
}

/* ==== life cycle ================================================================ */

cc_heur *cc_heur_new(const progdb *db, cc_order order, const double *weights, ctg_err *e)
{
    cc_heur *h = ctg_calloc(1, sizeof *h);
    if (!h) {
        err_set(e, "concolic: out of memory");
        return NULL;
    }
    h->db = db;
    h->order = order;
    h->last_neg_j = -1;
    h->recent_func = UINT32_MAX;
    if (weights)
        memcpy(h->w, weights, sizeof h->w);
    size_t ne = (size_t)db->n_edges + 1, nf = (size_t)db->n_funcs + 1;
    h->covered = ctg_calloc(ne, 1);
    h->fresh_at = ctg_calloc(ne, sizeof *h->fresh_at);
    h->neg_count = ctg_calloc(ne, sizeof *h->neg_count);
    h->unsat_count = ctg_calloc(ne, sizeof *h->unsat_count);
    h->last_neg = ctg_calloc(ne, sizeof *h->last_neg);
    h->site_count = ctg_calloc(ne, sizeof *h->site_count);
    h->func_uncovered = ctg_calloc(nf, sizeof *h->func_uncovered);
    h->func_rank = ctg_calloc(nf, sizeof *h->func_rank);
    h->func_total = ctg_calloc(nf, sizeof *h->func_total);
    h->rank_keys = ctg_calloc(nf, sizeof *h->rank_keys);
    if (!h->covered || !h->fresh_at || !h->neg_count || !h->unsat_count || !h->last_neg ||
        !h->site_count || !h->func_uncovered || !h->func_rank || !h->func_total || !h->rank_keys ||
        !analyse(h)) {
        cc_heur_free(h);
        err_set(e, "concolic: out of memory for the search heuristic");
        return NULL;
    }
    for (uint32_t i = 0; i < db->n_edges; i++)
        h->func_uncovered[h->edge_func[i]]++;
    memcpy(h->func_total, h->func_uncovered, nf * sizeof *h->func_total);
    h->dist_dirty = h->rank_dirty = h->reach_dirty = true;
    return h;
}

void cc_heur_free(cc_heur *h)
{
    if (!h)
        return;
    void *v[] = {h->func_base, h->pred_start, h->pred, h->in_cycle, h->nested, h->err_reach,
                 h->edge_func, h->edge_target, h->covered, h->fresh_at, h->neg_count,
                 h->unsat_count, h->last_neg, h->func_uncovered, h->func_rank, h->dist,
                 h->queue, h->site_count, h->is_branch, h->func_total, h->rank_keys,
                 h->unreached_rank};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        ctg_free(v[i]);
    for (int k = 0; k < N_CTX; k++)
        cc_set_release(&h->ctx[k]);
    for (int k = 0; k < PC_SLOTS; k++) {
        path_slot *sl = &h->slot[k];
        void *a[] = {sl->fixed, sl->sc, sl->occ, sl->ctx, sl->branch, sl->fixed_ok, sl->sc_ok,
                     sl->occ_ok};
        for (size_t i = 0; i < sizeof a / sizeof *a; i++)
            ctg_free(a[i]);
    }
    ctg_free(h);
}

void cc_heur_set_seed(cc_heur *h, uint64_t seed) { h->seed = seed; }

cc_heuristic cc_heur_hooks(cc_heur *h)
{
    cc_heuristic k = {hook_ran, hook_score, hook_negated, hook_version, h};
    return k;
}
