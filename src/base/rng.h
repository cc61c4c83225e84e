/*
 * rng.h - the tool's pseudo-random numbers: xoshiro256** seeded by splitmix64.
 *
 * Every strategy owns an rng seeded from --seed, so a run is reproducible.
 */
#ifndef CTG_RNG_H
#define CTG_RNG_H

#include <stdbool.h>
#include <stdint.h>

typedef struct rng {
    uint64_t s[4];
} rng;

void rng_seed(rng *r, uint64_t seed);
uint64_t rng_next(rng *r);
/* Uniform in [0, n); n == 0 returns 0. */
uint64_t rng_below(rng *r, uint64_t n);
/* Uniform in [lo, hi] (inclusive, any order of magnitude). */
int64_t rng_range(rng *r, int64_t lo, int64_t hi);
/* Uniform in [0, 1). */
double rng_double(rng *r);
/* True with probability p. */
bool rng_chance(rng *r, double p);
/* Standard normal deviate (Box-Muller). */
double rng_gauss(rng *r);

#endif
