/*
 * fitness.h - fitness of runs for the search-based strategies (seed 001).
 *
 * Per goal (branch edge or error site, numbered as in cdg.h) the fitness of
 * one run is
 *     0                           the run covers the goal
 *     k + d/(d+1)                 k = approach level: the smallest layer of
 *                                 the goal (cdg.h) holding a branch the run
 *                                 executed, d = the branch distance of that
 *                                 layer's edge (exec_dist - 1)
 *     levels(goal) + 1            no layer executed: the goal's function was
 *                                 not reached ("no information")
 * Lower is better.  MOSA and DynaMOSA use it directly, MIO uses it too and
 * treats "no information" as "not a candidate for the goal's archive", WTS
 * uses the suite fitness below.
 *
 * Whole-suite fitness (seed 001's get_fitness, with EvoSuite's treatment of
 * switches): over every branch, the minimal normalised distance of each of
 * its edges across the tests of the suite, where
 *   - a branch never executed by the suite counts 1 per edge,
 *   - a branch executed exactly once counts 1 per edge it did not take (that
 *     single execution cannot cover both sides: the executed-once rule),
 *   - otherwise each edge counts its minimal normalised distance;
 * plus, per error site, the minimal normalised per-goal fitness (0 when some
 * test reached it).
 *
 * Maps: cov[e] is an 8-bit hit counter that may wrap; an edge counts as taken
 * when cov[e] != 0 or its recorded distance is 0 (dist[e] == 1.0).
 */
#ifndef CTG_FITNESS_H
#define CTG_FITNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../instrument/progdb.h"
#include "cdg.h"

/* One run as the fitness functions see it. */
typedef struct fit_run {
    const uint8_t *cov;  /* n_edges hit counters                        */
    const double *dist;  /* n_edges: 0 = none, else 1 + raw distance    */
    bool error;          /* an error site was reached                   */
    uint32_t error_site;
} fit_run;

typedef struct fit fit_t;

/* Branch-level record of one run for the whole-suite fitness. */
typedef struct fit_trace {
    uint32_t n_br;       /* executed branches                           */
    uint32_t *br;        /* their ids, ascending                        */
    uint32_t *count;     /* how often each was executed (>= 1)          */
    float *d;            /* per edge of those branches, in order: the
                            normalised distance (0 = taken)             */
    float *err;          /* n_errors: normalised per-goal fitness       */
} fit_trace;

/* d / (d + 1), 0 for d <= 0. */
double fit_norm(double d);

/* The db and g must outlive f.  NULL on oom. */
fit_t *fit_new(const progdb *db, const cdg_t *g);
void fit_free(fit_t *f);
uint32_t fit_n_goals(const fit_t *f);

/* Reads one run; the per-goal queries below refer to it until the next
 * fit_begin.  The maps must stay valid until then. */
void fit_begin(fit_t *f, const fit_run *r);
bool fit_covered(const fit_t *f, uint32_t goal);
double fit_goal(const fit_t *f, uint32_t goal);
/* The fitness of a goal unnormalised, for comparisons that must not lose
 * precision (the local search, avm.h): covered, else the approach level
 * and the raw branch distance of that layer (a taken dependence whose
 * goal was missed: d = 1e-300; function not reached: levels(goal) + 1 and
 * d = 0).  Ordered by fit_exact_less. */
typedef struct fit_exact {
    bool covered;
    uint32_t level;
    double d;
} fit_exact;
fit_exact fit_goal_exact(const fit_t *f, uint32_t goal);
/* a is better than b. */
bool fit_exact_less(fit_exact a, fit_exact b);

/* Fitness of every goal into out[fit_n_goals]; returns how many are 0. */
uint32_t fit_all(const fit_t *f, float *out);
/* Value of "function not reached" for a goal (the worst it can get). */
double fit_unreached(const fit_t *f, uint32_t goal);

/* Branch-level record of the current run (fit_begin); false on oom. */
bool fit_trace_make(const fit_t *f, fit_trace *t);
void fit_trace_release(fit_trace *t);

/* Whole-suite fitness of the runs of n tests; *covered (may be NULL) gets
 * the number of goals the suite covers. */
double fit_suite(fit_t *f, const fit_trace *const *tests, size_t n, uint32_t *covered);

#endif
