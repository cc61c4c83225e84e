/*
 * cc_search.h - the search of the concolic strategy, independent of how a
 * test is executed: the caller supplies a run function that executes one
 * input on the symbolically instrumented program and returns its path
 * constraint and covered edges; the search decides which branch to negate,
 * asks the solver (src/solver) for an input and runs it.
 *
 * Orders (--search):
 *   generational  (default) SAGE's generational search as seed 003
 *                 algorithms 3-7 give it: ExpandExecution negates every
 *                 constraint at a position >= the test's bound, children get
 *                 bound = j, the work list is ordered by score = branch
 *                 edges the child covered first, a child whose path leaves
 *                 the expected prefix is counted as a divergence and scored
 *                 0, and shouldSkip drops the expansion of a divergent test
 *                 whose path is (a prefix of) one already expanded;
 *   dfs           the most recent run's deepest pending negation first;
 *   bfs           pending negations in the order they were found (shallow
 *                 first);
 *   random-branch a pending negation chosen uniformly at random;
 *   cfds          (seed 004) the branch of the last path whose negation is
 *                 nearest to an uncovered branch: the score comes from the
 *                 heuristic hooks (cc_heuristic; cc_heur.h computes the
 *                 distances from the program database);
 *   cgs           (seed 004) breadth first over the execution tree (the
 *                 shallowest pending negation first), skipping a negation
 *                 whose context - the k decisions before it plus the
 *                 flipped one - was negated before; when only such
 *                 negations are left, k grows by one and they are queued
 *                 again;
 *   param         (seed 004, ParaDySE) the branch of the last path with the
 *                 highest score from the hooks (weights . features).
 * cfds and param follow the paper's generic algorithm: they choose from the
 * path of the last run; a branch whose negation is unsat or known is marked
 * and the next best tried; when the last path has nothing left, the one
 * before it is taken up again (a stack of paths); after `restart` runs in
 * a row without a new edge the oldest kept path is taken up (a restart).
 * cc_config.scope widens the choice to every kept path (tree, level) or
 * puts the scores inside generational search (gen).
 * In every order a negation whose target path (the prefix plus the flipped
 * decision) was executed or already tried is skipped without a query.
 *
 * Path constraints of executed tests are kept in memory for at most
 * max_retained tests and max_retained_entries decisions in all; a test
 * whose constraint was dropped is run again when it is expanded.  max_work
 * bounds the work list and max_seen the memory of seen path prefixes.  One
 * cc_step does at most one solver query and one run (plus, rarely, one
 * re-run), so a driver can honour its budgets.
 */
#ifndef CTG_CC_SEARCH_H
#define CTG_CC_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"
#include "../../expr/expr.h"
#include "../../expr/expr_trace.h"
#include "../../solver/solver.h"

typedef enum cc_order {
    CC_GENERATIONAL = 0,
    CC_DFS,
    CC_BFS,
    CC_RANDOM_BRANCH,
    CC_CFDS,
    CC_CGS,
    CC_PARAM,
    CC__ORDERS
} cc_order;

/* "generational", "dfs", "bfs", "random-branch", "cfds", "cgs", "param". */
const char *cc_order_name(cc_order o);
bool cc_order_parse(const char *name, cc_order *o);

#define CC_MAX_NAMED 8 /* named variables (EXPR_VAR ids) a test carries */

/* A test: input bytes plus values of named variables (e.g. CTG_SYMVAR_LEN,
 * which the run function interprets as the wanted input length). */
typedef struct cc_input {
    const uint8_t *bytes;
    size_t len;
    const uint32_t *named_ids;
    const uint64_t *named_vals;
    size_t n_named;
} cc_input;

/* What the run function reports about one run. */
typedef struct cc_run_out {
    expr_pc pc;              /* path constraint over nodes of the given ctx
                                (expr_trace_read / expr_pc_push); the search
                                releases it                                  */
    const uint32_t *edges;   /* distinct covered edge ids; read before the
                                next call                                    */
    size_t n_edges;
    uint32_t named_ids[CC_MAX_NAMED]; /* concrete values of the named       */
    uint64_t named_vals[CC_MAX_NAMED];/* variables in this run (e.g. the    */
    size_t n_named;                   /* actual input length)               */
    bool error;              /* the run reached an error call               */
} cc_run_out;

/* Executes `in`; builds the path constraint in ctx.  Returns false with e
 * set only when execution itself failed (the search then stops); a crash
 * or timeout of the program is a normal run (with the constraint so far). */
typedef bool (*cc_run_fn)(void *user, const cc_input *in, expr_ctx *ctx, cc_run_out *out,
                          ctg_err *e);

/* Outcomes of a negation, for cc_heuristic.negated. */
typedef enum cc_neg_outcome { CC_NEG_KNOWN = 0, CC_NEG_UNSAT, CC_NEG_SAT } cc_neg_outcome;

/* Hooks of a search heuristic (all optional; cfds and param need score).
 * pc is the path constraint of a test (entries 0..pc->n-1), j an entry. */
typedef struct cc_heuristic {
    /* A new run's path and its covered edges (fresh: edges covered first). */
    void (*ran)(void *user, const expr_pc *pc, const uint32_t *edges, size_t n_edges,
                uint64_t fresh);
    /* Score of negating entry j of pc (the highest is negated first). */
    double (*score)(void *user, const expr_pc *pc, uint32_t j);
    /* Entry j of pc was negated with this outcome. */
    void (*negated)(void *user, const expr_pc *pc, uint32_t j, cc_neg_outcome outcome);
    /* A number that changes whenever a score of any path may have changed
     * (NULL: scores may change at any time).  With it, the search ranks a
     * path's entries once per version instead of scanning the whole path
     * for every pick (a loop's path of 57,000 entries had 25,000 unsat
     * negations between two runs). */
    uint64_t (*version)(void *user);
    void *user;
} cc_heuristic;

/* --search-restart auto: CREST's CFDS gives up a path after 30 runs
 * without a new branch (CfgHeuristicSearch::DoSearch(5, 30, ...)); param
 * restarts after 10, the best of 5..30 on bench/learned's programs
 * (docs/concolic.md). */
#define CC_RESTART_CFDS 30
#define CC_RESTART_PARAM 10
/* The shipped weights' restart with their scope mix: the hand-over after
 * 5 fruitless runs (docs/concolic.md, "Hand over sooner"). */
#define CC_RESTART_MIX 5
#define CC_RESTART_MAX 1000000 /* the largest --search-restart */

/* Which paths a cfds / param pick looks at (--search-scope): the one a
 * weights file was learned with is part of it (its "scope" line).
 *   last   the last path (the paper), ties to the deepest entry: with 0
 *          weights, DFS;
 *   tree   every kept path: the last path's entries scored afresh, an
 *          older path competing with the score its best entry had when it
 *          was last scored (scored afresh when it wins); ties to the deepest
 *          entry of the latest path (seed 004 section 3.1's generalisation);
 *   gen    param: generational search whose expansions negate their
 *          entries best first, children with equal new edges ordered by
 *          that entry's score;
 *   level  as tree, ties to the oldest path, and in a path to the
 *          shallowest entry: with 0 weights, BFS;
 *   mix    param: two arms in one run, gen and last, sharing the
 *          coverage, the known paths and the solver: the arm at work keeps
 *          on while it finds new edges and hands over after `restart` runs
 *          in a row without one (10 with restart 0); the last-path arm
 *          takes generational search's best test as its last path when it
 *          takes over, and a test stays with the arm that made it. */
typedef enum cc_scope {
    CC_SCOPE_UNSET,
    CC_SCOPE_LAST,
    CC_SCOPE_TREE,
    CC_SCOPE_GEN,
    CC_SCOPE_LEVEL,
    CC_SCOPE_MIX
} cc_scope;

typedef struct cc_config {
    cc_order order;
    cc_heuristic heur;      /* cfds / param scores; dynamic features         */
    uint32_t cgs_k;         /* cgs: decisions before a branch in its context
                               at the start (default 1)                      */
    cc_scope scope;         /* cfds / param: which paths a pick looks at
                               (default CC_SCOPE_LAST, the paper)           */
    uint32_t restart;       /* cfds / param: after this many runs in a row
                               without a new edge, the oldest kept path
                               becomes the last one (CREST's CFDS restarts
                               after 30 fruitless runs; 0: never, the
                               default)                                     */
    uint64_t seed;          /* random-branch                                   */
    solver_opts solver;     /* the solver chain                                */
    uint32_t max_retained;  /* path constraints kept in memory (default 64)    */
    uint64_t max_retained_entries; /* and their decisions in all (default
                               256K: id2_b3_o5's 64 paths of 65,534 took
                               1.5 GB, with this 0.4 GB)                     */
    uint32_t max_work;      /* tests / pending negations kept in the work list;
                               beyond, the worst are dropped (default 65536)  */
    /* Optional: the solver answered r for a path that takes entry en's
     * other side (every query a negation asks). */
    void (*asked)(void *user, const expr_pc_entry *en, solver_result r);
    void *asked_user;
    uint32_t max_seen;      /* path prefixes remembered to skip known targets;
                               beyond, the solver's caches catch repeats
                               (default 4M)                                    */
} cc_config;

void cc_config_default(cc_config *c);

typedef struct cc_stats {
    uint64_t runs;             /* executions, re-runs included               */
    uint64_t reruns;           /* executions to rebuild a dropped constraint */
    uint64_t rerun_mismatch;   /* re-runs that took another path             */
    uint64_t paths;            /* distinct paths executed                    */
    uint64_t children;         /* tests made from solver models              */
    uint64_t divergences;      /* children off their expected prefix         */
    uint64_t skipped_seen;     /* negations skipped: target path known       */
    uint64_t skipped_diverged; /* expansions dropped by shouldSkip            */
    uint64_t skipped_duplicate;/* expansions dropped: same path expanded     */
    uint64_t skipped_context;  /* cgs: negations skipped, context known      */
    uint64_t cgs_k;            /* cgs: the context length reached            */
    uint64_t restarts;         /* cfds / param: restarts after a stall       */
    uint64_t handovers;        /* scope mix: arm changes after a stall       */
    uint64_t last_runs;        /* scope mix: runs of the last-path arm       */
    uint64_t expanded;         /* tests expanded                             */
    uint64_t dropped;          /* work-list places dropped by max_work       */
    uint64_t errors;           /* runs that reached an error call            */
    uint64_t edges;            /* distinct edges covered                     */
    uint64_t pc_min, pc_max, pc_sum; /* path-condition lengths over runs     */
    uint64_t queries, sat, unsat, skip; /* solver answers to this search    */
    double exec_secs, solver_secs;
} cc_stats;

typedef struct cc_search cc_search;

typedef enum cc_status { CC_MORE = 0, CC_DONE, CC_FAIL } cc_status;

/* NULL with e set when out of memory or the solver cannot start. */
cc_search *cc_new(const cc_config *cfg, cc_run_fn run, void *user, ctg_err *e);
/* Accepts NULL. */
void cc_free(cc_search *s);

/* Runs an initial input and queues it (bound 0).  False with e set when the
 * run function or memory failed. */
bool cc_add_seed(cc_search *s, const cc_input *in, ctg_err *e);
/* One step: at most one solver query and one run.  CC_DONE when nothing is
 * left to negate; CC_FAIL with e set when the run function or memory
 * failed. */
cc_status cc_step(cc_search *s, ctg_err *e);

const cc_stats *cc_get_stats(const cc_search *s);
const solver_stats *cc_solver_stats(const cc_search *s);
/* Calls fn for every statistic as ("concolic.paths", 12), ("solver.sat",
 * 40), ... - the names stats.json uses. */
void cc_stats_visit(const cc_search *s, void (*fn)(void *user, const char *name, double value),
                    void *user);

#endif
