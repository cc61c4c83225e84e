/*
 * cc_learn.c - sample, refine and rank of seed 004's algorithm 2 (see
 * cc_learn.h).
 */
#include "cc_learn.h"

void cc_learn_init(cc_range r[CC_N_FEATURES])
{
    for (int i = 0; i < CC_N_FEATURES; i++)
        r[i] = (cc_range){-1.0, 1.0};
}

void cc_learn_sample(rng *g, const cc_range r[CC_N_FEATURES], double w[CC_N_FEATURES])
{
    for (int i = 0; i < CC_N_FEATURES; i++)
        w[i] = r[i].lo + (r[i].hi - r[i].lo) * rng_double(g);
}

void cc_learn_refine(cc_range r[CC_N_FEATURES], const double t1[CC_N_FEATURES],
                     const double t2[CC_N_FEATURES])
{
    for (int i = 0; i < CC_N_FEATURES; i++) {
        if (t1[i] > 0 && t2[i] > 0)
            r[i] = (cc_range){t1[i] < t2[i] ? t1[i] : t2[i], 1.0};
        else if (t1[i] < 0 && t2[i] < 0)
            r[i] = (cc_range){-1.0, t1[i] > t2[i] ? t1[i] : t2[i]};
    }
}

size_t cc_learn_top(const double *score, size_t n, size_t top, size_t *idx)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        size_t p = k < top ? k++ : top;
        if (p == top && !(score[i] > score[idx[top - 1]]))
            continue;
        if (p == top)
            p = top - 1;
        while (p > 0 && score[i] > score[idx[p - 1]]) {
            idx[p] = idx[p - 1];
            p--;
        }
        idx[p] = i;
    }
    return k;
}

bool cc_learn_converged(double round_best, double best_before, bool as_seed)
{
    return as_seed ? round_best < best_before : round_best <= best_before;
}
