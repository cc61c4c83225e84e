/*
 * solver.h - the constraint solver of the concolic engine: a chain of
 * optimisations in front of an SMT back end chosen at build time (Z3 via its
 * C API: bit-vectors, arrays, floating point; solver_z3.c).
 *
 * A query is a conjunction of width-1 expressions of one expr_ctx plus the
 * index of the "focus" constraint (the negated branch).  The chain, each
 * layer on by default and switchable (seed 003, section 3.2.2):
 *
 *   1. normalisation: conjunctions split, trivially true constraints and
 *      duplicates dropped, a false constraint answers unsat, canonical order;
 *   2. irrelevant-constraint elimination: only the constraints transitively
 *      sharing variables with the focus are kept (independence slicing).
 *      The other constraints are assumed to hold under the base assignment
 *      (the parent test, whose path they describe), so the caller must keep
 *      the base values of every variable the model does not assign;
 *   2b. bound subsumption: of the constraints bounding one term by
 *      constants (a loop's exit test, once per iteration), only the
 *      tightest stay; the others are implied (solver_bounds.c);
 *   3. exact query cache;
 *   4. counter-example cache: (a) a cached unsat subset => unsat; (b) the
 *      model of a cached sat superset satisfies the query; (c) models of
 *      cached sat subsets, then the most recent models, are tried by
 *      evaluation before the back end is called;
 *   5. for a query with floating-point constraints: its relaxation over the
 *      reals, rounded and searched ulp by ulp, accepted only when
 *      evaluation of every constraint agrees (solver_fp.c); Z3 decides
 *      IEEE products by bit-blasting and runs into its timeout where the
 *      reals take milliseconds;
 *   6. the back end with a per-query timeout, which a watchdog makes
 *      cover Z3's pushes too; a query with more non-linear work (products
 *      of non-constant terms) than the timeout allows is not asked.
 *      Unknown, timeout, too large and back-end errors answer SOLVER_SKIP
 *      (never a crash, never a wrong answer).
 *
 * Caches live across executions (keys are structural hashes, not pointers)
 * and survive allocation failure (an entry that cannot be stored is not).
 */
#ifndef CTG_SOLVER_H
#define CTG_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/err.h"
#include "../expr/expr.h"

typedef struct solver_opts {
    bool normalize;         /* layer 1                                          */
    bool slice;             /* layer 2                                          */
    bool subsume;           /* layer 2b                                         */
    bool query_cache;       /* layer 3                                          */
    bool cex_cache;         /* layer 4                                          */
    bool fp_relax;       /* layer 5                                          */
    uint32_t fp_relax_timeout_ms; /* layer 5's real solver; 0 = none                  */
    uint32_t timeout_ms;    /* per back-end call; 0 = none                      */
    uint32_t qcache_max;    /* entries of the query cache before it is flushed  */
    uint32_t cex_max;       /* constraint sets kept by the cex cache (FIFO)     */
    uint32_t cex_recent;    /* models of subsets, then recent models, tried by
                               rule (c) (each at most this many)               */
} solver_opts;

/* Defaults: every layer on, 5000 ms, 65536 / 4096 / 8, 1000 ms for layer 5. */
void solver_opts_default(solver_opts *o);

typedef struct solver_stats {
    uint64_t queries;           /* solver_solve calls                          */
    uint64_t trivial;           /* answered by normalisation alone             */
    uint64_t cache_lookups;     /* queries that reached the caches             */
    uint64_t qcache_hits;       /* layer 3                                     */
    uint64_t cex_unsat_subset;  /* layer 4 (a)                                 */
    uint64_t cex_superset;      /* layer 4 (b)                                 */
    uint64_t cex_subset_model;  /* layer 4 (c)                                 */
    uint64_t backend_calls;
    uint64_t sat, unsat, unknown, timeout, error; /* back-end answers        */
    uint64_t too_large;         /* not asked: too much non-linear work         */
    uint64_t fp_tries;      /* layer 5: queries it tried                   */
    uint64_t fp_sat;            /* ... and answered with a checked model        */
    uint64_t fp_evals;          /* candidates it evaluated                     */
    double fp_secs;             /* time in layer 5                             */
    uint64_t res_sat, res_unsat, res_skip;        /* answers to callers      */
    uint64_t constraints_in;    /* constraints given                           */
    uint64_t constraints_sent;  /* constraints that reached the caches/back end */
    uint64_t dup_dropped, true_dropped, sliced_away;
    uint64_t subsumed;          /* bounds dropped by layer 2b                  */
    uint64_t cache_oom;         /* entries not stored for lack of memory       */
    double backend_secs;        /* time in the back end                        */
    double total_secs;          /* time in solver_solve                        */
} solver_stats;

typedef enum solver_result {
    SOLVER_SAT = 0,
    SOLVER_UNSAT,
    SOLVER_SKIP, /* unknown / timeout / back-end error: try something else   */
    SOLVER_FAIL  /* out of memory or invalid query: e is set                  */
} solver_result;

/* One variable of a model: key as in expr.h (EXPR_VKEY_*: input byte index
 * or EXPR_VKEY_NAMED | id) and its value. */
typedef struct solver_assign {
    uint32_t key;
    uint64_t val;
} solver_assign;

/* Assignment of every variable of the solved (sliced) query, sorted by key. */
typedef struct solver_model {
    solver_assign *v;
    size_t n, cap;
} solver_model;

#define SOLVER_MODEL_INIT {NULL, 0, 0}

void solver_model_release(solver_model *m);

typedef struct solver solver;

/* NULL with e set when the back end cannot start. */
solver *solver_new(const solver_opts *o, ctg_err *e);
/* Accepts NULL. */
void solver_free(solver *s);

/* Solves cs[0..n) (all must hold) with cs[focus] the negated branch;
 * base gives the values of the variables of the parent test (used by
 * evaluation in the cex cache).  On SOLVER_SAT *m holds the model (previous
 * contents replaced).  SOLVER_FAIL sets e. */
solver_result solver_solve(solver *s, expr_ctx *c, expr *const *cs, size_t n, size_t focus,
                           const expr_env *base, solver_model *m, ctg_err *e);

const solver_stats *solver_get_stats(const solver *s);
const solver_opts *solver_get_opts(const solver *s);
/* "z3 4.8.12" */
const char *solver_backend_name(void);

#endif
