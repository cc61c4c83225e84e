/*
 * solver_int.h - interfaces between the files of src/solver: query
 * preparation (solver_prep.c), the caches (solver_cache.c) and the back end
 * (solver_z3.c, one implementation chosen at build time).  Not for use
 * outside src/solver.
 */
#ifndef CTG_SOLVER_INT_H
#define CTG_SOLVER_INT_H

/* Named variable 0 is the input's length (CTG_SYMVAR_LEN of the runtime);
 * a model keeps it within twice the base run's length, and at least this,
 * when the query allows (squery.len_soft, solver_z3.c). */
#define SOLVER_LEN_SOFT_MIN 4096u

#include "../base/hmap.h"
#include "solver.h"

/* ---- query preparation (solver_prep.c) ------------------------------------ */

/* A query on its way down the chain. */
typedef struct squery {
    expr **cs;        /* constraints (owned array)                          */
    bool *focus;      /* cs[i] derives from the focus constraint            */
    size_t n, cap, cap_focus;
    uint64_t *hash;   /* structural hash per constraint (after prep)        */
    uint32_t *keys;   /* sorted variable keys of the query (after prep)     */
    size_t n_keys;
    bool exact;       /* no constraint is EXPR_F_INEXACT                     */
    uint64_t *set;    /* sorted distinct hashes (cex cache view)            */
    size_t n_set;
    uint64_t sig;     /* or of 1 << (h & 63) over set: subset pre-filter     */
    uint64_t len_soft; /* a model prefers named variable 0 (the input's
                          length) at most this (0: no preference)           */
} squery;

typedef enum prep_result { PREP_OK, PREP_TRUE, PREP_FALSE, PREP_OOM } prep_result;

/* Variables of constraints, remembered per node for the queries of one
 * context (the negations of one path share their prefix constraints). */
typedef struct varmemo {
    uint64_t serial; /* expr_ctx_serial of the context of the entries */
    hmap map;        /* node pointer -> offset in pool << 32 | count  */
    uint32_t *pool;  /* the variable keys                            */
    size_t pool_n, pool_cap;
} varmemo;

void varmemo_release(varmemo *m);

/* Fills q from cs/focus: normalises (split, drop true/duplicates, sort by
 * hash; a false constraint gives PREP_FALSE, nothing left PREP_TRUE) when
 * normalize, slices when slice, drops subsumed bounds when subsume_base
 * (the base run's values; squery_subsume), then computes hashes, keys and
 * exactness.  Counts into st. */
prep_result squery_prep(squery *q, expr_ctx *c, expr *const *cs, size_t n, size_t focus,
                        bool normalize, bool slice, const expr_env *subsume_base,
                        varmemo *memo, solver_stats *st);

/* Drops from q's non-focus constraints every bound of a term (a comparison
 * of term + constant with a constant) that the group's tightest bounds
 * imply, the term valued as in base (solver_bounds.c).  Keeps the query's
 * solutions.  PREP_OOM when out of memory (q unchanged). */
prep_result squery_subsume(squery *q, expr_ctx *c, const expr_env *base, solver_stats *st);
void squery_release(squery *q);

/* ---- caches (solver_cache.c) ---------------------------------------------- */

typedef struct scache scache;

scache *scache_new(uint32_t qmax, uint32_t cexmax);
void scache_free(scache *sc);

typedef enum cache_hit {
    HIT_NONE = 0,
    HIT_EXACT_SAT,
    HIT_EXACT_UNSAT,
    HIT_EXACT_SKIP,
    HIT_UNSAT_SUBSET, /* rule (a) */
    HIT_SUPERSET,     /* rule (b): model returned in *m */
} cache_hit;

/* Exact lookup of the hash sequence q->hash[0..n). */
cache_hit scache_exact(scache *sc, const squery *q, solver_model *m);
/* Rules (a) and (b) on the sorted set of q's hashes. */
cache_hit scache_cex(scache *sc, const squery *q, solver_model *m);
/* Rule (c): calls try(user, model) for the models of the `recent` newest
 * cached sat subsets, then of the `recent` newest sat entries, until try
 * returns true.  Returns whether one did. */
bool scache_try_models(scache *sc, const squery *q, uint32_t recent,
                       bool (*try)(void *user, const solver_assign *v, size_t n), void *user);
/* Stores an answer: exact entry (res SAT/UNSAT/SKIP) and, for SAT/UNSAT,
 * a cex entry.  `exact_only` skips the cex entry.  False when out of memory
 * (nothing or part stored; lookups stay correct). */
bool scache_put(scache *sc, const squery *q, solver_result res, const solver_model *m,
                bool want_exact, bool want_cex);

/* ---- back end (solver_z3.c) ---------------------------------------------- */

typedef struct sbackend sbackend;

typedef enum sb_result {
    SB_SAT,
    SB_UNSAT,
    SB_UNKNOWN,
    SB_TIMEOUT,
    SB_TOO_LARGE, /* not asked: more non-linear work than the timeout allows */
    SB_ERROR,
    SB_OOM
} sb_result;

sbackend *sbackend_new(ctg_err *e);
void sbackend_free(sbackend *b);
/* Checks q->cs[0..n); on SB_SAT fills m with a value for every q->keys. */
sb_result sbackend_check(sbackend *b, expr_ctx *c, const squery *q, uint32_t timeout_ms,
                         solver_model *m);
const char *sbackend_name(void);

/* ---- floating-point relaxation (solver_fp.c) ----------------------------- */

/* Accepts a candidate: does base + v (input bytes) satisfy every constraint
 * of the query?  On true it has filled the caller's model. */
typedef bool (*sfp_check)(void *user, const solver_assign *v, size_t n);

/* For a query with floating-point constraints, before the back end: solves
 * its relaxation over the reals (Z3, QF_NRA, timeout_ms),
 * rounds the float leaves and searches the floats around them, up to 256
 * candidates given to check (*evals: how many).  True when check accepted
 * one; false otherwise, with *oom when memory ran out. */
bool sfp_search(expr_ctx *c, const squery *q, const expr_env *base, uint32_t timeout_ms,
                sfp_check check, void *user, uint32_t *evals, bool *oom);

/* ---- models --------------------------------------------------------------- */

/* Sets m to n assignments (copied); false when out of memory. */
bool smodel_set(solver_model *m, const solver_assign *v, size_t n);

#endif
