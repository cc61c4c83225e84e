/*
 * avm.h - the alternating variable method (Korel 1990; the local search of
 * EvoSuite, used in MIO's focused phase): hill climbing on one test towards
 * one goal, one value at a time, on the goal's fitness (fitness.h).
 *
 * For the value at position i, exploratory moves x + d and x - d: the first
 * that lowers the fitness sets the direction, and pattern moves follow,
 * doubling d after every success (x + d, then + 2d, + 4d, ...).  When a
 * pattern move fails, exploration resumes at half the last successful step.
 * A failed exploration shrinks d (by 16 while the value has not improved
 * yet: a coarse scan first; by 2 after that: a bisection) until d is the
 * value's smallest step (tc_min_step), then the next value is taken.  d
 * starts at 1 for integers (the classic AVM) and at max(1, |x|) for
 * floats, whose smallest step is the ulp: a double closes in on an
 * optimum to within ulps in O(53) moves, where a Gaussian mutation needs
 * luck for every digit.
 *
 * Fitness is compared unnormalised (approach level, then raw distance):
 * normalised distances stored as floats cannot tell 1e-9 from 2e-9 next to
 * a level, nor 123456 from 123457.
 *
 * An episode ends when the goal is covered, a whole cycle over the values
 * improved nothing (a local optimum), or after max_evals evaluations.  It
 * is incremental: avm_step runs one evaluation, so the caller keeps its own
 * budget checks and offers every evaluated test to its archives.
 */
#ifndef CTG_AVM_H
#define CTG_AVM_H

#include <stdbool.h>
#include <stdint.h>

#include "sbst.h"

typedef struct avm avm_t;

typedef struct avm_stats {
    uint64_t episodes, evals, improved, covered; /* covered: episodes that ended on their goal */
} avm_stats;

/* s must have SBST_DENSE and outlive the result.  NULL on oom. */
avm_t *avm_new(sbst_t *s, uint32_t max_evals);
void avm_free(avm_t *a);

/* Starts an episode from a copy of test t towards goal.  Its first step
 * runs t again, for the goal's unnormalised fitness (fit_goal_exact; the
 * archives keep floats).  False (no episode) when t has no values or on
 * oom. */
bool avm_start(avm_t *a, const tcase *t, uint32_t goal);
bool avm_active(const avm_t *a);
/* One evaluation of the episode: the evaluated test (a new reference for
 * the caller), or NULL when the episode has ended (or the search stopped:
 * sbst_stopped says which). */
sbst_ind *avm_step(avm_t *a);
/* The best test of the current or last episode (NULL before the first
 * step) and its fitness for the goal. */
const sbst_ind *avm_best(const avm_t *a, fit_exact *h);
avm_stats avm_get_stats(const avm_t *a);

#endif
