/*
 * tcase.h - the test of the search-based strategies: a variable-length
 * sequence of typed values (seed 001's "variable length tests"), its byte
 * serialisation for the executor, and the search operators on it: random
 * values, the mutation (delete / change / insert values, Gaussian steps for
 * numbers, random resets, character changes) and the crossovers.
 *
 * Types come from the value log of the last run (tc_adopt): a value of type
 * T is written as its own width in little endian (DESIGN.md section 2), so
 * serialising reproduces the bytes the run consumed.  A libFuzzer input
 * (one CTG_T_BYTES value) is held as a sequence of unsigned chars, which
 * serialise to the same bytes.
 *
 * Domain: with range R > 0 integers wider than a char are drawn uniformly
 * from [-R, R] intersected with their type (the seed's MIN/MAX) and never
 * leave it: boundary values (p_special) are the domain's, Gaussian steps are
 * clamped (as the seed clamps), values a run appended are clamped by
 * tc_clamp.  With R = 0 (the default) the domain is the whole type and
 * random magnitudes are log-uniform (every bit length equally likely), as
 * the runtime's random values.  Floats are drawn from [-R, R] (1e6 when R is
 * 0) plus special values (0, +-1, +-inf, NaN).
 */
#ifndef CTG_TCASE_H
#define CTG_TCASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/rng.h"
#include "../../runtime/rt_protocol.h"

typedef struct tc_val {
    uint64_t bits; /* the value's bytes, little endian, zero above its width */
    uint8_t type;  /* enum ctg_type (CTG_T_BYTES is held as CTG_T_UCHAR)   */
} tc_val;

typedef struct tcase {
    tc_val *v;
    uint32_t n, cap;
} tcase;

/* Parameters of the operators; tc_params_default gives the seed's values
 * (and EvoSuite's where the seed has none). */
typedef struct tc_params {
    int arch_bits;     /* 32 or 64: width of long, pointers, size_t      */
    double range;      /* domain of integers (seed MAX; 0 = whole type,
                          the default)                                   */
    double sigma;      /* Gaussian step relative to the domain (0.01)    */
    bool log_steps;    /* step size drawn on a log scale from 1 to sigma *
                          domain (EvoSuite-like), else always sigma      */
    double p_reset;    /* random value instead of a step (0.1)           */
    double p_special;  /* boundary value when drawing at random (0.05)   */
    double p_delete;   /* each operator of the mutation is applied with  */
    double p_change;   /* its probability (EvoSuite: 1/3 each); inside, */
    double p_insert;   /* each value is hit with probability 1/n         */
    double alpha;      /* insert another value with alpha^k (0.1)        */
    double p_copy;     /* a changed value copies another of its type
                          (0.05; EvoSuite's parameter reuse)             */
    double p_tied;     /* a numeric step also moves the values equal to
                          the stepped one, keeping equalities (0.5)      */
    double p_pool;     /* a random or changed number takes a value of the
                          constant pool (0.2; EvoSuite's dynamic seeding) */
    const int64_t *ipool; /* the pool: operands of executed comparisons, */
    uint32_t n_ipool;     /* filled by the sbst core; may be empty       */
    const double *fpool;
    uint32_t n_fpool;
    uint32_t max_len;  /* values a mutation may grow a test to (64)      */
} tc_params;

void tc_params_default(tc_params *p);

void tc_init(tcase *t);
void tc_release(tcase *t);
/* dst becomes a copy of src; false on oom (dst unchanged). */
bool tc_copy(tcase *dst, const tcase *src);
bool tc_push(tcase *t, uint8_t type, uint64_t bits);
bool tc_insert(tcase *t, uint32_t pos, tc_val v);
void tc_delete(tcase *t, uint32_t pos);
bool tc_equal(const tcase *a, const tcase *b);

/* Bytes a value of type t occupies (CTG_T_BYTES: 1 per element). */
size_t tc_width(int type, int arch_bits);
/* Serialised length and serialisation (buf must hold tc_bytes()). */
size_t tc_bytes(const tcase *t, int arch_bits);
void tc_serialise(const tcase *t, int arch_bits, uint8_t *buf);
/* Rebuilds t from a run: the input area and the value log (offset, type,
 * size) of the values it consumed, in order.  Unconsumed bytes are
 * dropped.  False on oom or a log entry outside the input. */
bool tc_adopt(tcase *t, const uint8_t *input, size_t len, const ctg_value_rec *vals, size_t n);

/* Value as a signed/unsigned integer (per its type) or a double. */
int64_t tc_get_i64(const tc_val *v, int arch_bits);
double tc_get_f64(const tc_val *v);
/* Sets an integer value (truncated to the width) or a float value. */
void tc_set_i64(tc_val *v, int64_t x, int arch_bits);
void tc_set_f64(tc_val *v, double x);

/* The local search's view (avm.h): whether a value is a float; the
 * smallest step that changes it (1 for integers, the ulp of its float type
 * at its value, at least that of 2^-30 so that values near 0 move); and
 * the value moved by dir * step (dir +1 or -1; integers by the step
 * rounded, at least 1) within its domain.  tc_move returns false when the
 * value cannot move that way (a bound of the domain, a non-finite float). */
bool tc_is_float(const tc_val *v);
double tc_min_step(const tc_val *v);
bool tc_move(tc_val *v, int dir, double step, const tc_params *p);

/* Clamps the integers of t from index `from` on into the domain (range >
 * 0); true when a value changed. */
bool tc_clamp(tcase *t, uint32_t from, const tc_params *p);
/* A random value of a type. */
tc_val tc_random_value(int type, const tc_params *p, rng *r);
/* Replaces t by n random values of the given types. */
bool tc_random(tcase *t, const uint8_t *types, uint32_t n, const tc_params *p, rng *r);
/* Changes one value: a Gaussian step (numbers, characters) or, with
 * p_reset, a random value. */
void tc_change_value(tc_val *v, const tc_params *p, rng *r);
/* Mutates t in place.  With variable false (inputs of fixed arity) only
 * values are changed; otherwise values are also deleted and inserted.
 * Always changes something; false on oom. */
bool tc_mutate(tcase *t, const tc_params *p, bool variable, rng *r);

typedef enum tc_cross_kind {
    TC_CROSS_SINGLE,   /* one cut at the same position in both (seed)   */
    TC_CROSS_RELATIVE, /* cut at the same relative position (seed)      */
    TC_CROSS_VARIABLE  /* independent cut in each parent (seed)         */
} tc_cross_kind;

/* Offspring o1 = a[:i] + b[j:], o2 = b[:j] + a[i:]; o1/o2 are replaced.
 * False on oom. */
bool tc_crossover(const tcase *a, const tcase *b, tc_cross_kind k, rng *r, tcase *o1, tcase *o2);
/* Cut points of a crossover of sequences of length na and nb. */
void tc_cut_points(uint32_t na, uint32_t nb, tc_cross_kind k, rng *r, uint32_t *i, uint32_t *j);

#endif
