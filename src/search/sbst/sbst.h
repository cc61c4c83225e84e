/*
 * sbst.h - the core shared by the search-based strategies (wts, mosa,
 * dynamosa, mio; seed 001): how a test is run and scored.
 *
 * The algorithms never see the executor.  They run tests through an
 * sbst_env, which the engine adapter (sbst_engine.c) implements on top of
 * ctx_exec and the unit tests implement with hand-instrumented C functions,
 * so every algorithm is proven in-process before it meets a real program.
 *
 * sbst_eval() turns a tcase into an evaluated individual: it pads a test of
 * a fixed-arity input to the known number of values, serialises it, runs it
 * (the environment extends an exhausted input with random values), adopts
 * the values the run consumed with their types from the value log, and
 * scores it: per-goal fitness (fitness.h) and/or the branch trace of the
 * whole-suite fitness.  Individuals are reference counted, so populations
 * and archives share them.
 *
 * The operands of the comparisons a run executed (cmplog) feed a constant
 * pool that random values and mutations draw from (tc_params.p_pool), as
 * EvoSuite seeds constants: x == 4242 is then one draw away.
 */
#ifndef CTG_SBST_H
#define CTG_SBST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"
#include "../../base/rng.h"
#include "../../instrument/progdb.h"
#include "cdg.h"
#include "fitness.h"
#include "tcase.h"

/* What one run tells (maps valid until the next run). */
typedef struct sbst_obs {
    const uint8_t *cov;        /* n_edges hit counters                  */
    const double *dist;        /* n_edges: 0 none, else 1 + distance    */
    bool error;                /* an error site was reached             */
    uint32_t error_site;
    bool discard;              /* __VERIFIER_assume failed              */
    const uint8_t *input;      /* input area as the run left it         */
    size_t input_len;
    const ctg_value_rec *vals; /* values the run consumed               */
    size_t n_vals;
    const ctg_cmp_rec *cmp;    /* comparison operands (cmplog), or NULL */
    uint32_t n_cmp;
} sbst_obs;

/* The world of an algorithm. */
typedef struct sbst_env {
    void *ud;
    /* Runs one input, extending it with random values when it runs out.
     * False when the budget is spent or execution failed: stop searching. */
    bool (*run)(void *ud, const uint8_t *in, size_t len, sbst_obs *out);
    /* Fraction of the budget used so far, 0..1 (MIO's focused phase). */
    double (*progress)(void *ud);
    const progdb *db;
    uint64_t seed;
    /* Optional (NULL: none): whether a goal is proven unreachable; the
     * algorithms then leave it out of their targets and sampling. */
    bool (*dropped)(void *ud, uint32_t goal);
} sbst_env;

enum { SBST_DENSE = 1, SBST_TRACE = 2 };

typedef struct sbst_ind {
    unsigned refs;
    tcase tc;           /* the values the run consumed               */
    float *fit;         /* per goal, with SBST_DENSE (0 = covered)   */
    fit_trace tr;       /* with SBST_TRACE                           */
    uint32_t n_covered; /* goals this test covers                    */
    bool discard;       /* the run did not count (assume failed)     */
    fit_exact focus;    /* fitness for the focus goal (sbst_set_focus),
                           unnormalised (fit rounds to float)       */
    /* scratch of the algorithms */
    uint32_t rank;
    double crowd;
} sbst_ind;

typedef struct sbst sbst_t;

/* want: SBST_DENSE and/or SBST_TRACE.  The env (and its db) must outlive the
 * result.  NULL with e set on a bad program database or oom. */
sbst_t *sbst_new(const sbst_env *env, const tc_params *tp, unsigned want, ctg_err *e);
void sbst_free(sbst_t *s);

rng *sbst_rng(sbst_t *s);
const tc_params *sbst_params(const sbst_t *s);
const cdg_t *sbst_cdg(const sbst_t *s);
fit_t *sbst_fit(sbst_t *s);
uint32_t sbst_n_goals(const sbst_t *s);
/* Covered by some run so far. */
bool sbst_goal_covered(const sbst_t *s, uint32_t goal);
/* Whether a goal is proven unreachable (sbst_env.dropped). */
bool sbst_goal_dropped(const sbst_t *s, uint32_t goal);
uint32_t sbst_n_covered(const sbst_t *s);
bool sbst_all_covered(const sbst_t *s);
double sbst_progress(const sbst_t *s);
uint64_t sbst_runs(const sbst_t *s);
/* True once some run consumed a different number of values than another
 * (strings, loops): mutations then delete and insert values. */
bool sbst_variable(const sbst_t *s);
/* True once the environment refused to run (budget spent, failure). */
bool sbst_stopped(const sbst_t *s);

/* The goal whose fitness every evaluation also records in double
 * precision (sbst_ind.focus, unnormalised), for the local search; UINT32_MAX: none. */
void sbst_set_focus(sbst_t *s, uint32_t goal);

/* Runs and scores *t, whose storage moves into the result (t is left
 * empty).  NULL when stopped or out of memory (sbst_stopped tells). */
sbst_ind *sbst_eval(sbst_t *s, tcase *t);
/* A random test (typed like the longest run so far), evaluated. */
sbst_ind *sbst_eval_random(sbst_t *s);
/* Values in the constant pool (integers, floats). */
uint32_t sbst_pool_size(const sbst_t *s);
/* A mutated copy of parent, evaluated. */
sbst_ind *sbst_eval_mutant(sbst_t *s, const tcase *parent);
/* Fills t with a random test (not run). */
bool sbst_random_test(sbst_t *s, tcase *t);

/* Fitness of an evaluated individual for a goal (needs SBST_DENSE). */
static inline double sbst_fitness(const sbst_ind *x, uint32_t goal) { return x->fit[goal]; }

sbst_ind *sbst_ind_ref(sbst_ind *x);
void sbst_ind_unref(sbst_ind *x);

#endif
