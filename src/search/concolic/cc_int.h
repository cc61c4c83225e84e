/*
 * cc_int.h - internals of the concolic search: the test nodes, the work
 * containers (a score-ordered heap for the generational order, a deque of
 * pending negations for the others), a set of 64-bit path hashes, and the
 * search's state with the steps cc_search.c (nodes, runs, negation,
 * generational search and the list orders) and cc_last.c (the cfds / param
 * orders over a stack of last paths, and scope mix) share.
 * Only for src/search/concolic.
 */
#ifndef CTG_CC_INT_H
#define CTG_CC_INT_H

#include "../../base/hmap.h"
#include "../../base/rng.h"
#include "cc_search.h"

/* ---- set of 64-bit hashes (cc_work.c) ----------------------------------- */

typedef struct cc_set {
    hmap h;      /* a set (zero-initialised: empty)                        */
    size_t max;  /* 0: unlimited; else adds beyond max entries are ignored */
} cc_set;

/* Adds h; *added tells whether it was new (false also when the set is at
 * its maximum).  False when out of memory. */
bool cc_set_add(cc_set *s, uint64_t h, bool *added);
bool cc_set_has(const cc_set *s, uint64_t h);
void cc_set_release(cc_set *s);

/* ---- tests ---------------------------------------------------------------- */

typedef struct cc_node cc_node;
typedef struct cc_ranked {
    double score;
    uint32_t j;
} cc_ranked;
struct cc_node {
    uint8_t *bytes;
    size_t len;
    uint32_t named_ids[CC_MAX_NAMED];
    uint64_t named_vals[CC_MAX_NAMED];
    size_t n_named;
    uint32_t bound;     /* negate positions >= bound                          */
    uint64_t score;     /* edges first covered by this test; 0 if divergent   */
    double tie;         /* param, scope gen: the score of the entry whose
                           negation made it (ties of score in the work list) */
    uint64_t seq;       /* creation order: the ties left                      */
    uint32_t n_pc;      /* length of its path constraint                      */
    uint64_t pc_hash;   /* hash of its whole path                             */
    bool diverged;      /* left the prefix its parent's negation expected     */
    bool child;         /* made by a negation (not a seed)                    */
    /* the path constraint, while retained (else NULL: run again) */
    expr_ctx *ctx;
    expr_pc pc;
    size_t n_kept;      /* pc.n when it joined the retained list              */
    uint64_t *prefix;   /* prefix[i]: hash of decisions 0..i                  */
    expr **asserted;    /* asserted[i]: the constraint entry i asserts        */
    expr **uniq;        /* the distinct ones, in first-occurrence order, and  */
    uint32_t *n_uniq;   /* n_uniq[j]: how many of them are in asserted[0..j)  */
    uint32_t refs;      /* work-list places holding it                        */
    bool pinned;        /* being expanded: not evicted                        */
    uint8_t *tried;     /* cfds / param: entries already chosen (n_pc bytes)  */
    double best;        /* cfds / param, scope tree / level: the score of its
                           best untried entry when it was last scored        */
    bool scored;        /* best is known                                      */
    /* cfds / param: the untried entries of the path constraint kept, ranked
     * (score down, deepest first; scope level: shallowest) for heuristic
     * version rank_ver (freed with the constraint); rank_at: the first that
     * may be untried */
    struct cc_ranked *rank;
    uint32_t n_rank, rank_at;
    uint64_t rank_ver;
    cc_node *prev, *next; /* list of retained nodes, most recent first        */
};

/* ---- generational work list: max-heap on (score, -seq) (cc_work.c) -------- */

typedef struct cc_heap {
    cc_node **v;
    size_t n, cap;
} cc_heap;

bool cc_heap_push(cc_heap *h, cc_node *n);
cc_node *cc_heap_pop(cc_heap *h);
/* Keeps the `keep` best nodes; calls drop(user, n) for the others. */
void cc_heap_trim(cc_heap *h, size_t keep, void (*drop)(void *user, cc_node *n), void *user);
void cc_heap_release(cc_heap *h);

/* ---- cfds / param: one path's entries ranked (cc_work.c) ------------------ */

/* The highest-scoring untried entry of n (its path constraint in memory,
 * n->tried allocated), -1 when none is left; ties go to the deepest (the
 * shallowest with shallow).  *score gets its score, n->best the score of
 * the best entry after it (n->scored: there is one).  With k->version the
 * entries are ranked once per version, else the path is scanned. */
int64_t cc_best_entry(const cc_heuristic *k, cc_node *n, bool shallow, double *score);

/* ---- pending negations for dfs / bfs / random-branch (cc_work.c) ---------- */

typedef struct cc_item {
    cc_node *node;
    uint32_t j;
} cc_item;

typedef struct cc_items {
    cc_item *v;
    size_t head, n, cap; /* live items are v[head .. head + n) */
} cc_items;

/* The index (0 .. n-1, from the front) of the live item with the smallest
 * j, the oldest among equals; n must be > 0. */
size_t cc_items_min_j(const cc_items *q);

bool cc_items_push(cc_items *q, cc_node *node, uint32_t j);
cc_item cc_items_pop_back(cc_items *q);
cc_item cc_items_pop_front(cc_items *q);
/* Removes the i-th live item (order not kept). */
cc_item cc_items_take(cc_items *q, size_t i);
void cc_items_release(cc_items *q);

/* ---- the search's state, shared by cc_search.c and cc_last.c -------------- */

/* scope mix: the arms */
enum { MIX_GEN = 0, MIX_LAST = 1 };

struct cc_search {
    cc_config cfg;
    cc_run_fn run;
    void *user;
    solver *sv;
    rng r;
    cc_stats st;
    cc_set seen;     /* prefixes of executed paths and tried targets */
    cc_set expanded; /* prefixes of expanded paths (shouldSkip)      */
    cc_set expanded_full; /* whole expanded paths (no limit)         */
    cc_set paths;    /* whole executed paths                         */
    uint8_t *cov;    /* edge bitmap                                  */
    size_t cov_cap;
    cc_heap heap;    /* generational work list                       */
    cc_items items;  /* pending negations of the other orders        */
    cc_node *cur;    /* generational: the test being expanded        */
    uint32_t cur_j;
    cc_node *lru_head, *lru_tail;
    uint32_t n_retained;
    uint64_t retained_entries; /* decisions of the retained constraints */
    uint64_t seq;
    cc_node **stack; /* cfds / param: the paths, last on top          */
    size_t n_stack, cap_stack;
    cc_set contexts; /* cgs: contexts of negations made               */
    cc_items deferred; /* cgs: negations skipped for their context    */
    uint32_t cgs_k;
    uint64_t stall;  /* first runs in a row without a new edge        */
    int arm;         /* scope mix: MIX_GEN or MIX_LAST, the arm at work */
    uint64_t arm_stall; /* scope mix: the arm's runs in a row without a new edge */
    expr **qbuf;     /* query scratch                                */
    size_t qcap;
    solver_model model;
};

typedef enum neg_result { NEG_SKIPPED, NEG_DONE, NEG_FAIL } neg_result;

/* cc_search.c */
void cc_node_free(cc_search *s, cc_node *n);
/* Drops one reference; frees n with the last. */
void cc_node_unref(cc_search *s, cc_node *n);
/* Makes sure n's path constraint is in memory (running n again if it was
 * dropped).  *usable is false when the re-run took another path. */
bool cc_materialize(cc_search *s, cc_node *n, bool *usable, ctg_err *e);
/* The scope at work: with scope mix, that of the arm at work. */
cc_scope cc_scope_now(const cc_search *s);
/* Algorithm 7 (shouldSkip) plus the bookkeeping of an expansion: false when
 * n must not be expanded (also when a test with the same path was). */
bool cc_begin_expansion(cc_search *s, cc_node *n, bool *oom);
/* n->tried, allocated at n's first pick; with own_only the entries before
 * n's bound start as tried.  False when out of memory. */
bool cc_alloc_tried(cc_node *n, bool own_only);
/* Negates entry j of n and puts the child, if any, in the work list. */
neg_result cc_negate_enqueue(cc_search *s, cc_node *n, uint32_t j, ctg_err *e);
/* Generational: continue the expansion in progress, or start the next. */
cc_status cc_gen_step(cc_search *s, ctg_err *e);

/* cc_last.c */
/* cfds / param: n becomes the last path (top of the stack). */
bool cc_push_path(cc_search *s, cc_node *n, ctg_err *e);
/* cfds / param: negates the best entry of the last path that is left. */
cc_status cc_last_step(cc_search *s, ctg_err *e);
/* scope mix: one step of the arm at work. */
cc_status cc_mix_step(cc_search *s, ctg_err *e);

#endif
