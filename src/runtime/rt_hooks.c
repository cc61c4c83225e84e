/*
 * rt_hooks.c - branch-distance, comparison-logging and string-compare hooks
 * the instrumenter emits (rt_protocol.h, "hooks").
 *
 * Branch distances follow seed 001 (search-based test generation, the
 * evaluate_condition of the triangle example): for a branch with edges
 * base (true) and base + 1 (false) the taken side gets distance 0 and the
 * other side how far the operands are from flipping the outcome:
 *     a == b   true: |a - b|        false: 1
 *     a <  b   true: a - b + 1      false: b - a
 *     a <= b   true: a - b          false: b - a + 1
 * (and symmetrically for >, >=, !=).  Orderings use the predicate's
 * signedness on the operand width; == and != have none and use the
 * wrap-around distance min(a - b, b - a) modulo 2^bits, so -1 == 0 is at
 * distance 1 whatever the signedness.  dist[e] keeps 1 + the smallest raw
 * distance seen in the run (0 = not reached); normalisation is the tool's.
 * Differences are computed exactly in 64-bit unsigned arithmetic and only
 * then converted to double, so no operand pair overflows.
 *
 * Every hook first checks the cached request flags, so a run without
 * CTG_FL_DIST / CTG_FL_CMPLOG pays one load and one branch per hook.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

#include "rt_state.h"

/* LLVMIntPredicate and LLVMRealPredicate numbers (llvm-c/Core.h). */
enum {
    RT_ICMP_EQ = 32, RT_ICMP_NE, RT_ICMP_UGT, RT_ICMP_UGE, RT_ICMP_ULT, RT_ICMP_ULE,
    RT_ICMP_SGT, RT_ICMP_SGE, RT_ICMP_SLT, RT_ICMP_SLE
};
enum { RT_FCMP_FALSE = 0, RT_FCMP_ORD = 7, RT_FCMP_UNO = 8, RT_FCMP_TRUE = 15 };

/* The six relations, shared by integer and real predicates. */
enum rt_rel { RT_EQ = 1, RT_GT, RT_GE, RT_LT, RT_LE, RT_NE };

/* Relation of an integer predicate (0 for an unknown one). */
static const uint8_t rt_icmp_rel[10] = {RT_EQ, RT_NE, RT_GT, RT_GE, RT_LT,
                                        RT_LE, RT_GT, RT_GE, RT_LT, RT_LE};

/* Records distance d for edge e: dist[e] = min(dist[e], 1 + d). */
static inline void rt_dist_put(uint32_t e, double d)
{
    if (e > rt_g.n_edges)
        return;
    double v = 1.0 + d;
    double *p = &rt_g.dist[e];
    if (*p == 0.0 || v < *p)
        *p = v;
}

/* Distances to the true and false side of relation `rel` given the outcome
 * flags (lt, eq) and the absolute difference d of the operands. */
static void rt_rel_dist(int rel, int lt, int eq, double d, double *dt, double *df)
{
    int gt = !lt && !eq;
    switch (rel) {
    case RT_EQ: *dt = eq ? 0.0 : d; *df = eq ? 1.0 : 0.0; break;
    case RT_NE: *dt = eq ? 1.0 : 0.0; *df = eq ? 0.0 : d; break;
    case RT_GT: *dt = gt ? 0.0 : d + 1.0; *df = gt ? d : 0.0; break;
    case RT_GE: *dt = gt || eq ? 0.0 : d; *df = gt || eq ? d + 1.0 : 0.0; break;
    case RT_LT: *dt = lt ? 0.0 : d + 1.0; *df = lt ? d : 0.0; break;
    default: /* RT_LE */ *dt = lt || eq ? 0.0 : d; *df = lt || eq ? d + 1.0 : 0.0; break;
    }
}

/* Sign-extends the low `bits` bits of v. */
static inline uint64_t rt_sext(uint64_t v, uint32_t bits)
{
    unsigned sh = 64u - bits;
    return (uint64_t)((int64_t)(v << sh) >> sh);
}

/* Distances of an integer comparison of two 64-bit patterns. */
static void rt_int_dist(uint32_t base, int rel, int sgn, uint64_t a, uint64_t b)
{
    int lt = sgn ? (int64_t)a < (int64_t)b : a < b;
    int eq = a == b;
    uint64_t diff = lt ? b - a : a - b; /* exact: the true difference fits */
    double dt, df;
    rt_rel_dist(rel, lt, eq, (double)diff, &dt, &df);
    rt_dist_put(base, dt);
    rt_dist_put(base + 1u, df);
}

/* Records the operands of a comparison site (CTG_FL_CMPLOG). */
static inline void rt_cmplog(uint32_t site, uint64_t a, uint64_t b, uint32_t bits)
{
    if (site >= rt_g.n_cmp)
        return;
    ctg_cmp_rec *c = &rt_g.cmp[site];
    c->a = a;
    c->b = b;
    c->hits++;
    c->bits = bits;
}

/* Counts edge e, saturating as the inlined br counters do (the switch
 * hook's taken edge, and a branch of CTG_CMP_COUNT / CTG_BR_COUNT). */
static inline void rt_count(uint32_t e)
{
    uint8_t *c = &__ctg_cov_ptr[e];
    *c = (uint8_t)(*c + (*c != 255u));
}

/* Whether integer predicate pred holds for the low `bits` bits of a and b
 * (the icmp the hook stands for). */
static int rt_icmp_holds(uint32_t pred, uint64_t a, uint64_t b, uint32_t bits)
{
    uint64_t m = bits >= 64u ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
    a &= m;
    b &= m;
    if (pred >= RT_ICMP_SGT && bits - 1u < 64u) {
        a = rt_sext(a, bits) ^ ((uint64_t)1 << 63);
        b = rt_sext(b, bits) ^ ((uint64_t)1 << 63); /* signed order as unsigned */
    }
    switch (pred) {
    case RT_ICMP_EQ: return a == b;
    case RT_ICMP_NE: return a != b;
    case RT_ICMP_UGT: case RT_ICMP_SGT: return a > b;
    case RT_ICMP_UGE: case RT_ICMP_SGE: return a >= b;
    case RT_ICMP_ULT: case RT_ICMP_SLT: return a < b;
    default: return a <= b; /* ULE, SLE */
    }
}

void __ctg_cmp(uint32_t base, uint32_t pred, uint64_t a, uint64_t b, uint32_t bits,
               uint32_t cmp_site);
void __ctg_cmp(uint32_t base, uint32_t pred, uint64_t a, uint64_t b, uint32_t bits,
               uint32_t cmp_site)
{
    if (bits & CTG_CMP_COUNT) {
        bits &= ~CTG_CMP_COUNT;
        rt_count(base + (rt_icmp_holds(pred, a, b, bits & ~CTG_CMP_PTR) ? 0u : 1u));
    }
    uint32_t fl = rt_g.flags;
    if (__builtin_expect(!(fl & (CTG_FL_DIST | CTG_FL_CMPLOG)), 1))
        return;
    uint32_t ptr = bits & CTG_CMP_PTR;
    bits &= ~CTG_CMP_PTR;
    if (bits - 1u >= 64u || pred - RT_ICMP_EQ >= 10u)
        return;
    uint64_t m = bits == 64u ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
    a &= m;
    b &= m;
    if ((fl & CTG_FL_CMPLOG) && !ptr)
        rt_cmplog(cmp_site, a, b, bits);
    if (!(fl & CTG_FL_DIST))
        return;
    int rel = rt_icmp_rel[pred - RT_ICMP_EQ];
    if (rel == RT_EQ || rel == RT_NE) {
        /* no signedness: the distance on the ring of `bits`-bit values,
         * min(|a - b| unsigned, |a - b| signed) */
        uint64_t diff = (a - b) & m, back = (b - a) & m;
        double dt, df;
        rt_rel_dist(rel, 0, a == b, (double)(diff < back ? diff : back), &dt, &df);
        rt_dist_put(base, dt);
        rt_dist_put(base + 1u, df);
        return;
    }
    int sgn = pred >= RT_ICMP_SGT;
    if (sgn) {
        a = rt_sext(a, bits);
        b = rt_sext(b, bits);
    }
    rt_int_dist(base, rel, sgn, a, b);
}

/* The compact counting compares (rt_protocol.h, CTG_HOOK_CMPC): their
 * constant arguments from the table the pass defined (weak: a binary
 * without such compares defines none and calls neither). */
extern const ctg_cmpc __ctg_cmpc_tab[] __attribute__((weak));

void __ctg_cmpc(uint32_t k, uint64_t a);
void __ctg_cmpc(uint32_t k, uint64_t a)
{
    const ctg_cmpc *c = &__ctg_cmpc_tab[k];
    __ctg_cmp(c->base, c->pred, a, c->b, c->bits, c->site);
}

void __ctg_cmpc32(uint32_t k, uint32_t a);
void __ctg_cmpc32(uint32_t k, uint32_t a) { __ctg_cmpc(k, a); }

/* Distances of a real comparison.  A nan operand makes every ordered
 * predicate false and every unordered one true; the side it cannot reach
 * gets the largest distance (a nan is no nearer to any value than the
 * farthest number), the constant predicates' other side gets 1. */
void __ctg_fcmp(uint32_t base, uint32_t pred, double a, double b, uint32_t cmp_site);
void __ctg_fcmp(uint32_t base, uint32_t pred, double a, double b, uint32_t cmp_site)
{
    uint32_t fl = rt_g.flags;
    if (__builtin_expect(!(fl & (CTG_FL_DIST | CTG_FL_CMPLOG)), 1))
        return;
    if (fl & CTG_FL_CMPLOG) {
        uint64_t ua, ub;
        memcpy(&ua, &a, 8);
        memcpy(&ub, &b, 8);
        rt_cmplog(cmp_site, ua, ub, 64u);
    }
    if (!(fl & CTG_FL_DIST) || pred > RT_FCMP_TRUE)
        return;
    int uno = a != a || b != b;
    double dt, df;
    if (pred == RT_FCMP_FALSE || pred == RT_FCMP_TRUE || pred == RT_FCMP_ORD ||
        pred == RT_FCMP_UNO || uno) {
        int res = pred == RT_FCMP_TRUE || (pred == RT_FCMP_ORD && !uno) ||
                  (pred == RT_FCMP_UNO && uno) || (uno && pred > RT_FCMP_UNO);
        double far = uno ? 1.7976931348623157e308 : 1.0;
        dt = res ? 0.0 : far;
        df = res ? far : 0.0;
    } else {
        int rel = (int)(pred > RT_FCMP_UNO ? pred - RT_FCMP_UNO : pred);
        double d = a > b ? a - b : b - a;
        if (!(d <= 1.7976931348623157e308)) /* inf - inf, overflow */
            d = 1.7976931348623157e308;
        rt_rel_dist(rel, a < b, a == b, d, &dt, &df);
    }
    rt_dist_put(base, dt);
    rt_dist_put(base + 1u, df);
}

void __ctg_br(uint32_t base, uint32_t cond);
void __ctg_br(uint32_t base, uint32_t cond)
{
    if (cond & CTG_BR_COUNT) {
        cond &= 1u;
        rt_count(base + (cond ? 0u : 1u));
    }
    if (__builtin_expect(!(rt_g.flags & CTG_FL_DIST), 1))
        return;
    rt_dist_put(base, cond ? 0.0 : 1.0);
    rt_dist_put(base + 1u, cond ? 1.0 : 0.0);
}

/* Counts the taken edge of a switch (case k is base + k, default
 * base + ncases) and, with CTG_FL_DIST, records |v - case_k| for every case
 * on the sign-extended values and 0/1 for the default edge. */
void __ctg_switch(uint32_t base, uint64_t v, uint32_t ncases, const uint64_t *cases,
                  uint32_t bits);
void __ctg_switch(uint32_t base, uint64_t v, uint32_t ncases, const uint64_t *cases,
                  uint32_t bits)
{
    if (bits - 1u >= 64u)
        bits = 64u;
    uint64_t m = bits == 64u ? ~(uint64_t)0 : (((uint64_t)1 << bits) - 1u);
    uint64_t sv = rt_sext(v & m, bits);
    uint32_t k = 0;
    while (k < ncases && rt_sext(cases[k] & m, bits) != sv)
        k++;
    rt_count(base + k);
    if (__builtin_expect(!(rt_g.flags & CTG_FL_DIST), 1))
        return;
    for (uint32_t i = 0; i < ncases; i++) {
        uint64_t sc = rt_sext(cases[i] & m, bits);
        uint64_t d = (int64_t)sv < (int64_t)sc ? sc - sv : sv - sc;
        rt_dist_put(base + i, (double)d);
    }
    rt_dist_put(base + ncases, k == ncases ? 0.0 : 1.0);
}

/* ---- string comparisons ------------------------------------------------------ */
/*
 * Character distance of a compare call over its first m positions: 0 when
 * equal, else (m - i) + |a[i] - b[i]| / 256 where i is the first differing
 * position.  It lies in (m - i, m - i + 1), so it shrinks strictly with every
 * further matching leading character and, at the same prefix, with a closer
 * character at the first difference.
 */
static double rt_bytes_dist(const uint8_t *a, const uint8_t *b, size_t m)
{
    for (size_t i = 0; i < m; i++)
        if (a[i] != b[i]) {
            int d = (int)a[i] - (int)b[i];
            return (double)(m - i) + (double)(d < 0 ? -d : d) / 256.0;
        }
    return 0.0;
}

/* Distances of the last compare call per site, direct mapped. */
#define RT_STR_SLOTS 256u
static struct {
    uint32_t site_plus1; /* 0: empty */
    double d;
} rt_str_cache[RT_STR_SLOTS];

static inline void rt_str_put(uint32_t site, double d)
{
    rt_str_cache[site % RT_STR_SLOTS].site_plus1 = site + 1u;
    rt_str_cache[site % RT_STR_SLOTS].d = d;
}

/* CTG_FL_CMPLOG of a string compare: the first m (<= 8) compared bytes of
 * each operand, little endian, with bits = CTG_CMP_STRING | 8 * m; na and
 * nb bound what may be read of a and b (the rest reads as 0). */
static void rt_cmplog_bytes(uint32_t site, const void *a, size_t na, const void *b, size_t nb,
                            size_t m)
{
    if (m > 8u)
        m = 8u;
    if (m == 0)
        return;
    uint64_t x = 0, y = 0;
    memcpy(&x, a, na < m ? na : m);
    memcpy(&y, b, nb < m ? nb : m);
    rt_cmplog(site, x, y, CTG_CMP_STRING | (uint32_t)(8u * m));
}

/* Counts string compare site's feature (ctg_cov_len in rt_protocol.h) when
 * both operands are non-empty (first bytes a0, b0; a compare of n = 0
 * bytes passes 0). */
static inline void rt_str_feature(uint32_t site, int a0, int b0)
{
    if (a0 && b0 && site < __ctg_n_cmp)
        rt_count((uint32_t)CTG_FEAT_AT(__ctg_n_edges, site));
}

int __ctg_strcmp(uint32_t site, const char *a, const char *b);
int __ctg_strcmp(uint32_t site, const char *a, const char *b)
{
    int r = strcmp(a, b);
    rt_str_feature(site, a[0], b[0]);
    if (rt_g.flags & CTG_FL_CMPLOG) {
        size_t la = strlen(a) + 1u, lb = strlen(b) + 1u;
        rt_cmplog_bytes(site, a, la, b, lb, (la < lb ? lb : la) - 1u);
    }
    if (rt_g.flags & CTG_FL_DIST) {
        size_t la = strlen(a), lb = strlen(b);
        rt_str_put(site, rt_bytes_dist((const uint8_t *)a, (const uint8_t *)b,
                                       (la > lb ? la : lb) + 1u));
    }
    return r;
}

int __ctg_strncmp(uint32_t site, const char *a, const char *b, size_t n);
int __ctg_strncmp(uint32_t site, const char *a, const char *b, size_t n)
{
    int r = strncmp(a, b, n);
    rt_str_feature(site, n ? a[0] : 0, n ? b[0] : 0);
    if (rt_g.flags & CTG_FL_CMPLOG) {
        size_t la = strnlen(a, n), lb = strnlen(b, n);
        rt_cmplog_bytes(site, a, la < n ? la + 1u : n, b, lb < n ? lb + 1u : n, la < lb ? lb : la);
    }
    if (rt_g.flags & CTG_FL_DIST) {
        size_t la = strnlen(a, n), lb = strnlen(b, n);
        size_t m = (la > lb ? la : lb) + 1u;
        rt_str_put(site, rt_bytes_dist((const uint8_t *)a, (const uint8_t *)b, m < n ? m : n));
    }
    return r;
}

int __ctg_memcmp(uint32_t site, const void *a, const void *b, size_t n);
int __ctg_memcmp(uint32_t site, const void *a, const void *b, size_t n)
{
    int r = memcmp(a, b, n);
    rt_str_feature(site, n != 0, n != 0);
    if (rt_g.flags & CTG_FL_CMPLOG)
        rt_cmplog_bytes(site, a, n, b, n, n);
    if (rt_g.flags & CTG_FL_DIST)
        rt_str_put(site, rt_bytes_dist(a, b, n));
    return r;
}

/* `cmp(x, y) == 0` and `!= 0` take their distance from the character
 * distance of the call; any other comparison of the result is an ordinary
 * signed comparison. */
void __ctg_cmp_str(uint32_t base, uint32_t pred, int64_t result, int64_t rhs, uint32_t str_site);
void __ctg_cmp_str(uint32_t base, uint32_t pred, int64_t result, int64_t rhs, uint32_t str_site)
{
    if (__builtin_expect(!(rt_g.flags & CTG_FL_DIST), 1) || pred - RT_ICMP_EQ >= 10u)
        return;
    int rel = rt_icmp_rel[pred - RT_ICMP_EQ];
    unsigned slot = str_site % RT_STR_SLOTS;
    if ((rel == RT_EQ || rel == RT_NE) && rhs == 0 &&
        rt_str_cache[slot].site_plus1 == str_site + 1u) {
        double d = rt_str_cache[slot].d, dt, df;
        rt_rel_dist(rel, 0, result == 0, d, &dt, &df);
        rt_dist_put(base, dt);
        rt_dist_put(base + 1u, df);
        return;
    }
    int sgn = pred >= RT_ICMP_SGT || rel == RT_EQ || rel == RT_NE;
    rt_int_dist(base, rel, sgn, (uint64_t)result, (uint64_t)rhs);
}

/* The 32-bit forms (rt_protocol.h): the operands widened as the 64-bit
 * hooks receive them. */
void __ctg_cmp32(uint32_t base, uint32_t pred, uint32_t a, uint32_t b, uint32_t bits,
                 uint32_t cmp_site);
void __ctg_cmp32(uint32_t base, uint32_t pred, uint32_t a, uint32_t b, uint32_t bits,
                 uint32_t cmp_site)
{
    __ctg_cmp(base, pred, a, b, bits, cmp_site);
}

void __ctg_switch32(uint32_t base, int32_t v, uint32_t ncases, const uint64_t *cases,
                    uint32_t bits);
void __ctg_switch32(uint32_t base, int32_t v, uint32_t ncases, const uint64_t *cases,
                    uint32_t bits)
{
    __ctg_switch(base, (uint64_t)(int64_t)v, ncases, cases, bits);
}

void __ctg_cmp_str32(uint32_t base, uint32_t pred, int32_t result, int32_t rhs,
                     uint32_t str_site);
void __ctg_cmp_str32(uint32_t base, uint32_t pred, int32_t result, int32_t rhs, uint32_t str_site)
{
    __ctg_cmp_str(base, pred, result, rhs, str_site);
}

/* ==== the guarded calls' entry points (x86-64) ============================= */

/* The instrumented code calls a hook through its guard (inst_hooks.c) only
 * in runs that record distances or comparisons; on x86-64 the guard calls
 * these preserve_most forms (CTG_HOOK_PM_SUFFIX, rt_protocol.h), which
 * keep every general register, so code around the call, a loop holding
 * its counters in registers, needs no spills for a call it rarely makes. */
#if defined(__x86_64__)
#define RT_PM __attribute__((preserve_most))
RT_PM void __ctg_cmp_pm(uint32_t base, uint32_t pred, uint64_t a, uint64_t b, uint32_t bits,
                        uint32_t cmp_site);
RT_PM void __ctg_cmp_pm(uint32_t base, uint32_t pred, uint64_t a, uint64_t b, uint32_t bits,
                        uint32_t cmp_site)
{
    __ctg_cmp(base, pred, a, b, bits, cmp_site);
}

RT_PM void __ctg_cmp32_pm(uint32_t base, uint32_t pred, uint32_t a, uint32_t b, uint32_t bits,
                          uint32_t cmp_site);
RT_PM void __ctg_cmp32_pm(uint32_t base, uint32_t pred, uint32_t a, uint32_t b, uint32_t bits,
                          uint32_t cmp_site)
{
    __ctg_cmp(base, pred, a, b, bits, cmp_site);
}

RT_PM void __ctg_fcmp_pm(uint32_t base, uint32_t pred, double a, double b, uint32_t cmp_site);
RT_PM void __ctg_fcmp_pm(uint32_t base, uint32_t pred, double a, double b, uint32_t cmp_site)
{
    __ctg_fcmp(base, pred, a, b, cmp_site);
}

RT_PM void __ctg_br_pm(uint32_t base, uint32_t cond);
RT_PM void __ctg_br_pm(uint32_t base, uint32_t cond) { __ctg_br(base, cond); }

RT_PM void __ctg_cmp_str_pm(uint32_t base, uint32_t pred, int64_t result, int64_t rhs,
                            uint32_t str_site);
RT_PM void __ctg_cmp_str_pm(uint32_t base, uint32_t pred, int64_t result, int64_t rhs,
                            uint32_t str_site)
{
    __ctg_cmp_str(base, pred, result, rhs, str_site);
}

RT_PM void __ctg_cmp_str32_pm(uint32_t base, uint32_t pred, int32_t result, int32_t rhs,
                              uint32_t str_site);
RT_PM void __ctg_cmp_str32_pm(uint32_t base, uint32_t pred, int32_t result, int32_t rhs,
                              uint32_t str_site)
{
    __ctg_cmp_str(base, pred, result, rhs, str_site);
}
#endif
