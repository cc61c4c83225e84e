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
/* Uniform in [lo, hi] (inclusive, any order of magnitude). */
int64_t rng_range(rng *r, int64_t lo, int64_t hi);
/* Standard normal deviate (Box-Muller). */
double rng_gauss(rng *r);

/* The draws below are inline: the fuzzer makes some 60 of them per mutant,
 * and as calls into another unit they were an eighth of its own time on a
 * fast libFuzzer target. */

static inline uint64_t rng_rotl_(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* The next 64 random bits. */
static inline uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rng_rotl_(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rng_rotl_(s[3], 45);
    return result;
}

/* Uniform in [0, n); n == 0 returns 0.  Lemire's multiply-shift ("Fast
 * random integer generation in an interval", 2019): the high half of
 * x * n, rejecting the few x that would bias it; a division only when the
 * low half is below n (the two 64-bit divisions of x % n were 12 % of the
 * fuzzer's instructions). */
static inline uint64_t rng_below(rng *r, uint64_t n)
{
    __extension__ typedef unsigned __int128 rng_u128_;
    if (n == 0)
        return 0;
    rng_u128_ m = (rng_u128_)rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t floor = (0 - n) % n;
        while (low < floor) {
            m = (rng_u128_)rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

/* Uniform in [0, 1). */
static inline double rng_double(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

/* True with probability p. */
static inline bool rng_chance(rng *r, double p) { return rng_double(r) < p; }

#endif
