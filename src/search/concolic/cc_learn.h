/*
 * cc_learn.h - the parameter search of seed 004 (ParaDySE, algorithm 2):
 * sample spaces R_i per feature, initially [-1, 1]; find: sample n weight
 * vectors uniformly from R_1 x ... x R_k; check: re-evaluate the top k over
 * several seeds; refine: from the two best averages t1, t2, R_i becomes
 * [min(t1_i, t2_i), 1] when both are positive, [-1, max(t1_i, t2_i)] when
 * both are negative, and stays otherwise; stop when the best average no
 * longer exceeds the best of the rounds before.
 *
 * The pieces are pure so that tests pin them; `ctestgen learn`
 * (src/cli/learn.c) runs the evaluations.
 */
#ifndef CTG_CC_LEARN_H
#define CTG_CC_LEARN_H

#include <stdbool.h>
#include <stddef.h>

#include "../../base/rng.h"
#include "cc_heur.h"

typedef struct cc_range {
    double lo, hi;
} cc_range;

/* R_i = [-1, 1] for every feature. */
void cc_learn_init(cc_range r[CC_N_FEATURES]);
/* One weight vector drawn uniformly from the ranges. */
void cc_learn_sample(rng *g, const cc_range r[CC_N_FEATURES], double w[CC_N_FEATURES]);
/* The refine step with the two best vectors t1 and t2. */
void cc_learn_refine(cc_range r[CC_N_FEATURES], const double t1[CC_N_FEATURES],
                     const double t2[CC_N_FEATURES]);
/* Indices of the `top` largest of score[0..n) into idx (ties: lower index
 * first); returns how many were written (min(top, n)). */
size_t cc_learn_top(const double *score, size_t n, size_t top, size_t *idx);
/* Whether the search has converged after a round whose best average is
 * round_best, the best of the rounds before being best_before: the seed's
 * rule (as_seed: round_best < best_before; an equal one replaces the best
 * and goes on), or ours (round_best <= best_before: a round that brings
 * nothing new ends it). */
bool cc_learn_converged(double round_best, double best_before, bool as_seed);

#endif
