/*
 * rt_nondet.c - the input side of the runtime: __VERIFIER_nondet_* of the
 * Test-Comp rules (DESIGN.md section 2), __VERIFIER_assume, __VERIFIER_error,
 * __ctg_error, and the byte input of libFuzzer targets.
 *
 * Every nondet call consumes the next sizeof(T) bytes of the input area
 * (little endian) and appends (offset, type, size) to the value log.  When
 * the input is exhausted it returns 0, flags CTG_ST_RAN_OUT and ends the
 * input there (a partial value's leftover bytes are dropped; the program
 * goes on with zeros), or under
 * CTG_FL_EXTEND_RANDOM appends a biased random value (rt_valgen.h; zeros
 * under CTG_FL_EXTEND_ZERO) to the
 * input area and consumes that, so the extended input replays the run.
 * An extension stops at the run's bound (header extend_max) or the input
 * capacity; the run then ends at once (exit 0, RAN_OUT), as TestCov ends a
 * test whose values run out, so a reactive program (`while (1) { x =
 * __VERIFIER_nondet_int(); ... }`) ends instead of looping on zeros until
 * it times out.
 *
 * Every definition is weak: a program that defines its own
 * __VERIFIER_nondet_int (some benchmarks do) keeps it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "rt_state.h"

#define RT_WEAK __attribute__((weak))

/* Appends a record to the value log, or flags CTG_ST_LOG_FULL. */
static void rt_log(uint32_t off, uint32_t type, uint32_t size)
{
    ctg_shm_hdr *h = rt_g.hdr;
    uint32_t n = h->n_values;
    if (n >= CTG_MAX_VALUES) {
        rt_status(CTG_ST_LOG_FULL);
        return;
    }
    rt_g.values[n].offset = off;
    rt_g.values[n].type = (uint16_t)type;
    rt_g.values[n].size = (uint16_t)size;
    h->n_values = n + 1u;
}

/* Appends `size` random bytes of type `type` (zeros under
 * CTG_FL_EXTEND_ZERO) at the consumption point (any unconsumed partial value
 * is dropped first).  Returns false when the input area is full. */
static bool rt_extend(uint32_t type, uint32_t size)
{
    ctg_shm_hdr *h = rt_g.hdr;
    uint32_t pos = h->input_pos;
    h->input_len = pos;
    if (size > CTG_MAX_INPUT - pos) {
        rt_status(CTG_ST_INPUT_FULL);
        return false;
    }
    if (size > rt_g.extend_end - pos || pos > rt_g.extend_end) {
        rt_status(CTG_ST_EXT_LIMIT);
        return false;
    }
    if (rt_g.flags & CTG_FL_EXTEND_RANDOM)
        ctg_vg_value(&rt_g.rng, type, size, rt_g.input + pos);
    else
        memset(rt_g.input + pos, 0, size);
    h->input_len = pos + size;
    return true;
}

/* Consumes the next value of `size` bytes into out; zeros and
 * CTG_ST_RAN_OUT when the input is exhausted and cannot be extended.
 * Returns a pointer to the consumed bytes in the input area, or NULL. */
static uint8_t *rt_take(uint32_t type, uint32_t size, void *out)
{
    ctg_shm_hdr *h = rt_g.hdr;
    uint32_t pos = h->input_pos;
    if (size > h->input_len - pos &&
        (!(rt_g.flags & CTG_FL_EXTEND_ANY) ||
         !rt_extend(type, size))) {
        memset(out, 0, size);
        rt_status(CTG_ST_RAN_OUT);
        h->input_len = pos; /* exhausted for good: no later, smaller value may
                               take the leftover bytes, or the log would not
                               replay in call order */
        /* an extended run ends at once (rt_extend flagged why: the bound or
         * the input capacity); one without extension goes on with zeros, as
         * many bytes of them as the extension bound allows */
        static int ended;     /* a second exhaustion inside exit handlers */
        static uint32_t zeros; /* bytes of zeros handed out (fresh per run:
                                  each run is a new child) */
        bool ext = (rt_g.flags & CTG_FL_EXTEND_ANY) != 0;
        zeros += ext ? 0 : size;
        bool spent = !ext && rt_g.zero_budget && zeros > rt_g.zero_budget;
        if (rt_g.input && !ended && (ext || spent)) {
            ended = 1;
            if (spent)
                rt_status(CTG_ST_EXT_LIMIT);
            rt_return_from_main(0);
        }
        return NULL;
    }
    uint8_t *p = rt_g.input + pos;
    memcpy(out, p, size); /* the targets are little endian */
    h->input_pos = pos + size;
    rt_log(pos, type, size);
    return p;
}

size_t rt_take_all(const uint8_t **data)
{
    ctg_shm_hdr *h = rt_g.hdr;
    uint32_t pos = h->input_pos;
    if (h->input_len == pos && (rt_g.flags & CTG_FL_EXTEND_RANDOM) && rt_g.input) {
        uint32_t n = ctg_vg_len(&rt_g.rng, rt_g.extend_end > pos ? rt_g.extend_end - pos : 0);
        ctg_vg_value(&rt_g.rng, CTG_T_BYTES, n, rt_g.input + pos);
        h->input_len = pos + n;
    }
    uint32_t n = h->input_len - pos;
    static const uint8_t empty[1];
    *data = rt_g.input ? rt_g.input + pos : empty;
    if (rt_g.input) {
        rt_log(pos, CTG_T_BYTES, n & 0xffffu);
        h->input_pos = pos + n;
    }
    return n;
}

/* ---- the Test-Comp functions ---------------------------------------------- */

#define RT_NONDET(name, T, tag)                                                                   \
    RT_WEAK T __VERIFIER_nondet_##name(void);                                                     \
    RT_WEAK T __VERIFIER_nondet_##name(void)                                                      \
    {                                                                                             \
        T v;                                                                                      \
        rt_take(tag, (uint32_t)sizeof(T), &v);                                                    \
        return v;                                                                                 \
    }

RT_NONDET(char, char, CTG_T_CHAR)
RT_NONDET(uchar, unsigned char, CTG_T_UCHAR)
RT_NONDET(short, short, CTG_T_SHORT)
RT_NONDET(ushort, unsigned short, CTG_T_USHORT)
RT_NONDET(int, int, CTG_T_INT)
RT_NONDET(uint, unsigned int, CTG_T_UINT)
RT_NONDET(unsigned, unsigned int, CTG_T_UINT)
RT_NONDET(unsigned_int, unsigned int, CTG_T_UINT)
RT_NONDET(long, long, CTG_T_LONG)
RT_NONDET(ulong, unsigned long, CTG_T_ULONG)
RT_NONDET(longlong, long long, CTG_T_LONGLONG)
RT_NONDET(ulonglong, unsigned long long, CTG_T_ULONGLONG)
RT_NONDET(float, float, CTG_T_FLOAT)
RT_NONDET(double, double, CTG_T_DOUBLE)
RT_NONDET(pointer, void *, CTG_T_POINTER)
RT_NONDET(pchar, char *, CTG_T_POINTER)
RT_NONDET(size_t, size_t, CTG_T_SIZE_T)
/* Linux kernel types of the ldv benchmarks: loff_t is long long, sector_t
 * and u64 are 64-bit unsigned, pthread_t is unsigned long. */
RT_NONDET(loff_t, long long, CTG_T_LONGLONG)
RT_NONDET(sector_t, unsigned long long, CTG_T_ULONGLONG)
RT_NONDET(u64, unsigned long long, CTG_T_ULONGLONG)
RT_NONDET(u32, unsigned int, CTG_T_UINT)
RT_NONDET(u16, unsigned short, CTG_T_USHORT)
RT_NONDET(u8, unsigned char, CTG_T_UCHAR)
RT_NONDET(s64, long long, CTG_T_LONGLONG)
RT_NONDET(s32, int, CTG_T_INT)
RT_NONDET(s16, short, CTG_T_SHORT)
RT_NONDET(s8, signed char, CTG_T_CHAR)
RT_NONDET(pthread_t, unsigned long, CTG_T_ULONG)

/* bool: one byte, its low bit; the byte is rewritten to 0 or 1 so the
 * consumed input holds the canonical value. */
RT_WEAK _Bool __VERIFIER_nondet_bool(void);
RT_WEAK _Bool __VERIFIER_nondet_bool(void)
{
    uint8_t b;
    uint8_t *p = rt_take(CTG_T_BOOL, 1u, &b);
    b &= 1u;
    if (p)
        *p = b;
    return b;
}

RT_WEAK void __VERIFIER_assume(int cond);
RT_WEAK void __VERIFIER_assume(int cond)
{
    if (!cond) {
        rt_status(CTG_ST_ASSUME);
        rt_end_run(0);
    }
}

RT_WEAK void __VERIFIER_atomic_begin(void);
RT_WEAK void __VERIFIER_atomic_begin(void) {}
RT_WEAK void __VERIFIER_atomic_end(void);
RT_WEAK void __VERIFIER_atomic_end(void) {}

/* ---- error sites ------------------------------------------------------------ */

/* Called by the instrumenter right before each call of reach_error or
 * __VERIFIER_error. */
void __ctg_error(uint32_t site);
void __ctg_error(uint32_t site)
{
    ctg_shm_hdr *h = rt_g.hdr;
    if (!(h->status & CTG_ST_ERROR))
        h->error_site = site;
    rt_status(CTG_ST_ERROR);
    rt_end_run(CTG_EXIT_ERROR);
}

/* An error call the instrumenter did not see (site 0xffffffff). */
RT_WEAK void __VERIFIER_error(void);
RT_WEAK void __VERIFIER_error(void) { __ctg_error(0xffffffffu); }

/* Programs normally define reach_error themselves; this covers those that
 * only declare it. */
RT_WEAK void reach_error(void);
RT_WEAK void reach_error(void) { __ctg_error(0xffffffffu); }
