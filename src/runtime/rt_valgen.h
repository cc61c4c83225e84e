/*
 * rt_valgen.h - the biased random value generator shared by the runtime
 * (random extension of an exhausted input, CTG_FL_EXTEND_RANDOM) and the tool
 * (random strategy), so both draw values from the same distribution.
 *
 * Header-only, static inline, no dependency beyond <stdint.h>, <string.h> and
 * rt_protocol.h.  The generator is splitmix64 (Steele, Lea, Flood: "Fast
 * splittable pseudorandom number generators", 2014): one 64-bit word of state,
 * so a run is reproducible from the seed the executor puts in
 * ctg_shm_hdr.rng_state.  The tool may seed a ctg_vg from its own rng.
 *
 * Distribution (DESIGN.md section 2, issue 2 part 6): values are biased to
 * small magnitudes and boundary values:
 *   integers  ~30% small (|v| <= 16), ~15% boundaries (0, +-1, MIN, MAX,
 *             MIN+1, MAX-1, 0x7f, 0x80, 0xff, ...), ~45% log-uniform
 *             magnitude (random bit length, random sign), ~10% uniform;
 *   char      mostly printable characters, sometimes NUL, '\n', or any byte;
 *   bool      0 or 1;
 *   float     sometimes 0.0, -0.0, 1.5, +-inf, nan, ...; often small integers
 *             and log-uniform magnitudes; rarely a random bit pattern;
 *   pointer   NULL half of the time, else an integer;
 *   bytes     (libFuzzer data) a length biased small, text or binary bytes.
 * Every value is written as `size` bytes little endian, exactly as the
 * runtime reads __VERIFIER_nondet_* values.
 */
#ifndef CTG_RT_VALGEN_H
#define CTG_RT_VALGEN_H

#include <stdint.h>
#include <string.h>

#include "rt_protocol.h"

typedef struct ctg_vg {
    uint64_t s;
} ctg_vg;

static inline void ctg_vg_seed(ctg_vg *g, uint64_t seed) { g->s = seed; }

/* Next 64 random bits (splitmix64). */
static inline uint64_t ctg_vg_next(ctg_vg *g)
{
    uint64_t z = (g->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Uniform in [0, n); 0 when n == 0 (modulo bias is negligible here). */
static inline uint64_t ctg_vg_below(ctg_vg *g, uint64_t n) { return n ? ctg_vg_next(g) % n : 0; }

static inline uint64_t ctg_vg_mask(unsigned bits)
{
    return bits >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
}

/* A boundary value of an integer of `bits` bits (bit pattern). */
static inline uint64_t ctg_vg_boundary(ctg_vg *g, unsigned bits, int is_signed)
{
    uint64_t all = ctg_vg_mask(bits);
    uint64_t top = (uint64_t)1 << (bits - 1u);
    uint64_t t[14] = {0, 1, all, top, top - 1u, top + 1u, all - 1u,
                      0x7f, 0x80, 0xff, 0x100, 0x7fff, 0x8000, 0xffff};
    (void)is_signed; /* MIN/MAX of both signednesses are in the table */
    return t[ctg_vg_below(g, 14)] & all;
}

/* A random integer of `bits` bits (1..64), returned as its bit pattern
 * (two's complement, zero above `bits`). */
static inline uint64_t ctg_vg_int(ctg_vg *g, unsigned bits, int is_signed)
{
    uint64_t r = ctg_vg_below(g, 20), v;
    if (bits <= 1)
        return ctg_vg_next(g) & 1u;
    if (r < 6) { /* small */
        v = ctg_vg_below(g, 17);
        if (is_signed && (ctg_vg_next(g) & 1u))
            v = (uint64_t)0 - v;
    } else if (r < 9) {
        return ctg_vg_boundary(g, bits, is_signed);
    } else if (r < 18) { /* log-uniform magnitude */
        unsigned k = 1u + (unsigned)ctg_vg_below(g, bits);
        v = ctg_vg_next(g) & ctg_vg_mask(k);
        if (is_signed && (ctg_vg_next(g) & 1u))
            v = (uint64_t)0 - v;
    } else {
        v = ctg_vg_next(g);
    }
    return v & ctg_vg_mask(bits);
}

/* A random character: mostly printable, sometimes NUL or any byte. */
static inline uint8_t ctg_vg_char(ctg_vg *g)
{
    static const char special[] = "\n\t\r\x7f\x80\xff";
    uint64_t r = ctg_vg_below(g, 20);
    if (r < 2)
        return 0;
    if (r < 4)
        return (uint8_t)ctg_vg_next(g);
    if (r < 5)
        return (uint8_t)special[ctg_vg_below(g, sizeof special - 1u)];
    return (uint8_t)(0x20u + ctg_vg_below(g, 0x5fu));
}

/* A random double: specials, small integers or log-uniform magnitudes.
 * Sometimes sets *raw instead: the caller then uses a random bit pattern of
 * its own width (denormals, payload nans, huge values). */
static inline double ctg_vg_real(ctg_vg *g, int *raw)
{
    static const double special[] = {0.0, -0.0, 1.5, 1.0, -1.0, 0.5, -1.5, 2.0, 100.0,
                                     1e-10, 1e10, 3.14159};
    uint64_t r = ctg_vg_below(g, 16);
    *raw = 0;
    if (r < 2)
        return special[ctg_vg_below(g, sizeof special / sizeof special[0])];
    if (r < 3) {
        uint64_t k = ctg_vg_below(g, 3);
        return k == 0 ? __builtin_inf() : k == 1 ? -__builtin_inf() : __builtin_nan("");
    }
    if (r < 8)
        return (double)((int64_t)ctg_vg_below(g, 33) - 16);
    if (r < 15) {
        double m = 1.0 + (double)(ctg_vg_next(g) >> 11) * (1.0 / 9007199254740992.0);
        int e = (int)ctg_vg_below(g, 61) - 20;
        while (e > 0) {
            m *= 2.0;
            e--;
        }
        while (e < 0) {
            m *= 0.5;
            e++;
        }
        return (ctg_vg_next(g) & 1u) ? -m : m;
    }
    *raw = 1;
    return 0.0;
}

/* Writes v as `size` bytes little endian. */
static inline void ctg_vg_store(uint8_t *out, uint64_t v, unsigned size)
{
    for (unsigned i = 0; i < size; i++)
        out[i] = i < 8u ? (uint8_t)(v >> (8u * i)) : 0u;
}

/* Writes a random float (size 4) or double (size 8) to out. */
static inline void ctg_vg_float_bytes(ctg_vg *g, unsigned size, uint8_t *out)
{
    int raw;
    double d = ctg_vg_real(g, &raw);
    uint64_t bits;
    if (raw) {
        bits = ctg_vg_next(g);
    } else if (size == 4) {
        float f = (float)d;
        uint32_t b32;
        memcpy(&b32, &f, 4);
        bits = b32;
    } else {
        memcpy(&bits, &d, 8);
    }
    ctg_vg_store(out, bits, size);
}

/* True for the signed integer types of enum ctg_type. */
static inline int ctg_vg_signed(uint32_t type)
{
    switch (type) {
    case CTG_T_CHAR: case CTG_T_SHORT: case CTG_T_INT: case CTG_T_LONG: case CTG_T_LONGLONG:
        return 1;
    default:
        return 0;
    }
}

/* Writes `size` random bytes of value type `type` (enum ctg_type) to out,
 * little endian.  For CTG_T_BYTES the bytes are text or binary data. */
static inline void ctg_vg_value(ctg_vg *g, uint32_t type, unsigned size, uint8_t *out)
{
    switch (type) {
    case CTG_T_BOOL:
        memset(out, 0, size);
        out[0] = (uint8_t)(ctg_vg_next(g) & 1u);
        return;
    case CTG_T_CHAR: case CTG_T_UCHAR:
        if (size == 1) {
            out[0] = ctg_vg_char(g);
            return;
        }
        break;
    case CTG_T_FLOAT: case CTG_T_DOUBLE:
        ctg_vg_float_bytes(g, size, out);
        return;
    case CTG_T_POINTER:
        if (ctg_vg_next(g) & 1u) {
            memset(out, 0, size);
            return;
        }
        break;
    case CTG_T_BYTES: {
        int text = (int)(ctg_vg_next(g) & 1u);
        for (unsigned i = 0; i < size; i++)
            out[i] = text ? ctg_vg_char(g) : (uint8_t)ctg_vg_int(g, 8, 0);
        return;
    }
    default:
        break;
    }
    unsigned bits = size >= 8 ? 64u : 8u * size;
    ctg_vg_store(out, ctg_vg_int(g, bits, ctg_vg_signed(type)), size);
}

/* A random length for byte-array inputs, biased small, at most max. */
static inline uint32_t ctg_vg_len(ctg_vg *g, uint32_t max)
{
    uint64_t r = ctg_vg_below(g, 8), n;
    if (r < 1)
        n = ctg_vg_below(g, 9);
    else if (r < 5)
        n = 1u + ctg_vg_below(g, 64);
    else if (r < 7)
        n = 1u + ctg_vg_below(g, 512);
    else
        n = ctg_vg_next(g) & ctg_vg_mask(1u + (unsigned)ctg_vg_below(g, 12));
    return (uint32_t)(n < max ? n : max);
}

#endif /* CTG_RT_VALGEN_H */
