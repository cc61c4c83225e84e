/*
 * compare.h - `ctestgen compare`: repeated runs grouped by an option value
 * (strategy, search order, ...), per group the mean and spread of the
 * exploration metrics of seed 003 section 5 (coverage, paths, path-condition
 * size, cache hit rate, solver time, sat/unsat/timeout counts), and for every
 * pair of groups the Mann-Whitney U test and Vargha-Delaney A12 of the final
 * coverage.  Reads the stats.json of each run directory.
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
 * and its two-sided p-value by the normal approximation with continuity and
 * tie correction (1 when every value is equal or a sample is empty). */
double cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u);

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
