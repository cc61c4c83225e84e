/*
 * rng.c - xoshiro256** (Blackman & Vigna) with splitmix64 seeding.
 */
#include "rng.h"

#include <math.h>

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(rng *r, uint64_t seed)
{
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&seed);
}

uint64_t rng_next(rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

uint64_t rng_below(rng *r, uint64_t n)
{
    /* Lemire's multiply-shift ("Fast random integer generation in an
     * interval", 2019): the high half of x * n, rejecting the few x that
     * would bias it; a division only when the low half is below n.  The
     * fuzzer calls this some 60 times a mutant: the two 64-bit divisions
     * of x % n were 12 % of its instructions. */
    __extension__ typedef unsigned __int128 u128;
    if (n == 0)
        return 0;
    u128 m = (u128)rng_next(r) * n;
    uint64_t low = (uint64_t)m;
    if (low < n) {
        uint64_t floor = (0 - n) % n;
        while (low < floor) {
            m = (u128)rng_next(r) * n;
            low = (uint64_t)m;
        }
    }
    return (uint64_t)(m >> 64);
}

int64_t rng_range(rng *r, int64_t lo, int64_t hi)
{
    if (lo > hi) {
        int64_t t = lo;
        lo = hi;
        hi = t;
    }
    uint64_t span = (uint64_t)hi - (uint64_t)lo;
    uint64_t off = span == UINT64_MAX ? rng_next(r) : rng_below(r, span + 1);
    return (int64_t)((uint64_t)lo + off);
}

double rng_double(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }

bool rng_chance(rng *r, double p) { return rng_double(r) < p; }

double rng_gauss(rng *r)
{
    double u1 = rng_double(r), u2 = rng_double(r);
    if (u1 < 1e-300)
        u1 = 1e-300;
    return sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2);
}
