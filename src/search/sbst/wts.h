/*
 * wts.h - whole test suite generation (Fraser & Arcuri, EvoSuite; seed
 * 001): a genetic algorithm whose individuals are test suites, scored by the
 * whole-suite fitness of fitness.h, with every operator of the seed:
 * variable and relative crossover, mutate_set and bounded mutation,
 * tournament and length-aware tournament selection, standard and
 * length-aware elitism.  The length-aware operators, relative crossover and
 * bounded mutation are the seed's bloat control and the defaults.
 */
#ifndef CTG_WTS_H
#define CTG_WTS_H

#include <stdbool.h>

#include "../../base/err.h"
#include "sbst.h"

typedef struct wts_params {
    int pop;          /* suites in the population (seed: 50)              */
    double p_xover;   /* crossover probability (0.7)                      */
    int tournament;   /* tournament size (4)                              */
    int elite;        /* suites kept by elitism (2)                       */
    int max_tests;    /* tests in a random suite / bounded mutation (30)  */
    double alpha;     /* insert a new test with alpha^k (1/3)             */
    int cross;        /* TC_CROSS_RELATIVE (default) or TC_CROSS_VARIABLE */
    bool len_select;  /* length-aware tournament (default)                */
    bool len_elite;   /* length-aware elitism (default)                   */
    bool bounded;     /* mutate_bounded (default), else mutate_set        */
} wts_params;

void wts_params_default(wts_params *p);

typedef struct wts wts_t;

/* s must have SBST_TRACE and outlive the result.  NULL on oom. */
wts_t *wts_new(sbst_t *s, const wts_params *p, ctg_err *e);
/* Runs a few pending tests (and selects when a generation is complete).
 * False when the budget is spent (or on oom). */
bool wts_step(wts_t *w);
void wts_free(wts_t *w);

/* Best suite so far: fitness (0 = every goal covered), goals it covers,
 * tests in it. */
double wts_best_fitness(const wts_t *w);
uint32_t wts_best_covered(const wts_t *w);
uint32_t wts_best_len(const wts_t *w);
/* Mean number of tests per suite of the current population (bloat). */
double wts_mean_len(const wts_t *w);
uint64_t wts_generations(const wts_t *w);

#endif
