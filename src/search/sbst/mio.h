/*
 * mio.h - Many Independent Objective search (Arcuri 2017; seed 001): one
 * small archive per goal, feedback-directed sampling, and a focused phase
 * whose parameters move linearly from their initial to their focused
 * values until F of the budget is spent.  In the focused phase a sampled
 * goal gets, with probability p_avm, a local search (the alternating
 * variable method, avm.h) from its archive's test instead of mutations, as
 * EvoSuite applies its local search; every test the search runs is offered
 * to the archives.
 */
#ifndef CTG_MIO_H
#define CTG_MIO_H

#include <stdbool.h>

#include "../../base/err.h"
#include "avm.h"
#include "sbst.h"

typedef struct mio_params {
    double p_sample_first, p_sample_focused; /* new random test (0.5, 0)    */
    int archive_first, archive_focused;      /* tests per goal (10, 1)      */
    int mutations_first, mutations_focused;  /* mutations of one test (1, 10) */
    double F;                                /* budget before focus (0.5)   */
    double p_avm;       /* focused phase: a sampled goal gets a local search
                           (avm.h) instead of mutations (0.5; 0: never)     */
    unsigned avm_evals; /* evaluations of one local search at most (500)    */
    bool seed_current;  /* the seed's rule: the test mutated next is only
                           ever replaced by one that improved an archive
                           (default false: a fresh sample takes its place) */
} mio_params;

void mio_params_default(mio_params *p);

typedef struct mio mio_t;

/* s must have SBST_DENSE and outlive the result.  NULL on oom. */
mio_t *mio_new(sbst_t *s, const mio_params *p, ctg_err *e);
/* One evaluation.  False when the budget is spent (or on oom). */
bool mio_step(mio_t *m);
void mio_free(mio_t *m);

/* Goals whose archive holds a covering test. */
uint32_t mio_n_covered(const mio_t *m);
/* What the last mio_step did: whether its test was fresh (random, or a
 * mutant of an archive sample) rather than a mutant of the current test,
 * whether it improved an archive, that test, and the test mutated next
 * (NULL before the first step). */
typedef struct mio_trace {
    bool fresh, updated;
    const tcase *last, *current;
} mio_trace;
mio_trace mio_last_step(const mio_t *m);
/* Tests that were the best yet for an uncovered goal, and goals covered. */
uint64_t mio_bests(const mio_t *m);
/* Covering test of a goal from the archive (shortest found), or NULL. */
const tcase *mio_solution(const mio_t *m, uint32_t goal);
/* Current parameter values (after the last step). */
double mio_p_sample(const mio_t *m);
int mio_archive_size(const mio_t *m);
int mio_mutations(const mio_t *m);
/* What the local searches did (zeros without them). */
avm_stats mio_avm_stats(const mio_t *m);

#endif
