/*
 * compare.h - `ctestgen compare`: repeated runs grouped by an option value
 * (strategy, search order, ...), per group the mean and spread of the
 * exploration metrics of seed 003 section 5 (coverage, paths, path-condition
 * size, cache hit rate, solver time, sat/unsat/timeout counts), and for every
 * pair of groups, on every counter stats.json has, the Mann-Whitney U test
 * and Vargha-Delaney A12 with its label.  Reads the stats.json of each run
 * directory.
 */
#ifndef CTG_COMPARE_H
#define CTG_COMPARE_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/err.h"
#include "../base/sbuf.h"

/* Vargha-Delaney A12: the probability that a value of a is larger than one
 * of b (ties count half); 0.5 when a or b is empty. */
double cmp_a12(const double *a, size_t na, const double *b, size_t nb);
/* Mann-Whitney U of a against b (U1 = R1 - na(na+1)/2, mid-ranks for ties)
 * and its two-sided p-value: exact (the permutation distribution of the
 * rank sum, ties at their mid-ranks) when na + nb <= CMP_EXACT_MAX, else
 * the normal approximation with continuity and tie correction; 1 when a
 * sample is empty. */
#define CMP_EXACT_MAX 60
double cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);
/* Vargha and Delaney's label of an A12 (seed 003): negligible below 0.56
 * (or above 0.44), small below 0.64, medium below 0.71, large beyond. */
const char *cmp_a12_label(double a12);

typedef struct compare_opts {
    const char *const *dirs; /* run directories, or directories of them */
    int n_dirs;
    const char *by;          /* info key that groups the runs ("strategy") */
    bool json;               /* JSON instead of the table                */
} compare_opts;

/* Reads the runs, groups them and writes the report into out.  False with e
 * set when a directory holds no stats.json (naming it) or one is not a
 * ctestgen stats file. */
bool compare_runs(const compare_opts *o, sbuf *out, ctg_err *e);

#endif
