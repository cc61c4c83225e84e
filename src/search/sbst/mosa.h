/*
 * mosa.h - MOSA (Panichella, Kifetew, Tonella, ICST 2015; seed 001) and
 * DynaMOSA (Panichella et al., TSE 2018): NSGA-II over test cases with one
 * objective per uncovered goal, preference sorting (the best test of every
 * uncovered goal forms the first front), fast non-dominated sort of the
 * rest, crowding distance, binary rank tournament, and an archive keeping
 * the shortest covering test of every goal.  DynaMOSA optimises only the
 * goals whose control-dependence parents are covered (cdg.h), adding the
 * children of each goal when it gets covered.
 */
#ifndef CTG_MOSA_H
#define CTG_MOSA_H

#include <stdbool.h>

#include "../../base/err.h"
#include "sbst.h"

typedef struct mosa_params {
    int pop;             /* population size (seed: 50)                      */
    double p_xover;      /* crossover probability (seed: 0.7)               */
    int cross;           /* -1 auto (single point for fixed-arity inputs,
                            relative for variable ones), else tc_cross_kind */
    bool dynamic;        /* DynaMOSA goal activation                        */
} mosa_params;

void mosa_params_default(mosa_params *p);

typedef struct mosa mosa_t;

/* s must have SBST_DENSE and outlive the result.  NULL on oom. */
mosa_t *mosa_new(sbst_t *s, const mosa_params *p, ctg_err *e);
/* Evaluates one or two tests (and, at the end of a generation, selects
 * the next population).  False when the budget is spent (or on oom). */
bool mosa_step(mosa_t *m);
void mosa_free(mosa_t *m);

uint32_t mosa_n_covered(const mosa_t *m);
/* Shortest covering test of a goal found so far, or NULL. */
const tcase *mosa_solution(const mosa_t *m, uint32_t goal);
/* Goals currently optimised (uncovered targets). */
uint32_t mosa_n_targets(const mosa_t *m);
bool mosa_is_target(const mosa_t *m, uint32_t goal);
uint64_t mosa_generations(const mosa_t *m);

#endif
