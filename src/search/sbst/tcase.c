/*
 * tcase.c - typed value sequences and their search operators (see tcase.h).
 *
 * Integer arithmetic of the mutations runs on __int128 so every C integer
 * type, unsigned long long included, is stepped and clamped exactly.
 */
#include "tcase.h"

#include <math.h>
#include <string.h>

#include "../../base/ctype.h"
#include "../../base/mem.h"

typedef __int128 i128;

void tc_params_default(tc_params *p)
{
    p->arch_bits = 64;
    p->range = 0;
    p->sigma = 0.01;
    p->log_steps = true;
    p->p_reset = 0.1;
    p->p_special = 0.05;
    p->p_delete = 1.0 / 3;
    p->p_change = 1.0 / 3;
    p->p_insert = 1.0 / 3;
    p->alpha = 0.1;
    p->p_copy = 0.05;
    p->p_tied = 0.5;
    p->p_pool = 0.2;
    p->ipool = NULL;
    p->fpool = NULL;
    p->n_ipool = p->n_fpool = 0;
    p->max_len = 64;
}

/* ==== sequences ======================================================== */

void tc_init(tcase *t) { memset(t, 0, sizeof *t); }

void tc_release(tcase *t)
{
    if (!t)
        return;
    ctg_free(t->v);
    tc_init(t);
}

/* Makes room for n values. */
static bool tc_reserve(tcase *t, uint32_t n)
{
    size_t cap = t->cap;
    if (ctg_grow((void **)&t->v, &cap, n, sizeof *t->v) < 0)
        return false;
    t->cap = (uint32_t)cap;
    return true;
}

bool tc_copy(tcase *dst, const tcase *src)
{
    if (dst == src)
        return true;
    if (!tc_reserve(dst, src->n ? src->n : 1))
        return false;
    if (src->n)
        memcpy(dst->v, src->v, src->n * sizeof *src->v);
    dst->n = src->n;
    return true;
}

bool tc_push(tcase *t, uint8_t type, uint64_t bits)
{
    if (!tc_reserve(t, t->n + 1))
        return false;
    t->v[t->n++] = (tc_val){bits, type};
    return true;
}

bool tc_insert(tcase *t, uint32_t pos, tc_val v)
{
    if (pos > t->n || !tc_reserve(t, t->n + 1))
        return false;
    memmove(t->v + pos + 1, t->v + pos, (t->n - pos) * sizeof *t->v);
    t->v[pos] = v;
    t->n++;
    return true;
}

void tc_delete(tcase *t, uint32_t pos)
{
    if (pos >= t->n)
        return;
    memmove(t->v + pos, t->v + pos + 1, (t->n - pos - 1) * sizeof *t->v);
    t->n--;
}

bool tc_equal(const tcase *a, const tcase *b)
{
    if (a->n != b->n)
        return false;
    for (uint32_t i = 0; i < a->n; i++)
        if (a->v[i].bits != b->v[i].bits || a->v[i].type != b->v[i].type)
            return false;
    return true;
}

/* ==== types and bytes ================================================== */

size_t tc_width(int type, int arch_bits) { return ctg_type_size((enum ctg_type)type, arch_bits); }

static bool type_signed(int t) { return ctg_type_is_signed((enum ctg_type)t); }

static bool type_float(int t) { return ctg_type_is_float((enum ctg_type)t); }

size_t tc_bytes(const tcase *t, int arch_bits)
{
    size_t n = 0;
    for (uint32_t i = 0; i < t->n; i++)
        n += tc_width(t->v[i].type, arch_bits);
    return n;
}

void tc_serialise(const tcase *t, int arch_bits, uint8_t *buf)
{
    for (uint32_t i = 0; i < t->n; i++) {
        size_t w = tc_width(t->v[i].type, arch_bits);
        for (size_t k = 0; k < w; k++)
            *buf++ = (uint8_t)(t->v[i].bits >> (8 * k));
    }
}

/* Little-endian bytes to bits. */
static uint64_t read_le(const uint8_t *p, size_t w)
{
    uint64_t x = 0;
    for (size_t k = 0; k < w && k < 8; k++)
        x |= (uint64_t)p[k] << (8 * k);
    return x;
}

bool tc_adopt(tcase *t, const uint8_t *input, size_t len, const ctg_value_rec *vals, size_t n)
{
    tcase nt;
    tc_init(&nt);
    for (size_t i = 0; i < n; i++) {
        size_t off = vals[i].offset, w = vals[i].size;
        if (vals[i].type == CTG_T_BYTES) {
            if (off > len)
                goto bad;
            for (size_t k = off; k < len; k++)
                if (!tc_push(&nt, CTG_T_UCHAR, input[k]))
                    goto bad;
            continue;
        }
        if (vals[i].type >= CTG_T__COUNT || w > 8 || off + w > len)
            goto bad;
        if (!tc_push(&nt, (uint8_t)vals[i].type, read_le(input + off, w)))
            goto bad;
    }
    tc_release(t);
    *t = nt;
    return true;
bad:
    tc_release(&nt);
    return false;
}

/* ==== integer and float views ========================================== */

/* Smallest and largest value of an integer type. */
static void type_bounds(int type, int arch_bits, i128 *lo, i128 *hi)
{
    if (type == CTG_T_BOOL) {
        *lo = 0;
        *hi = 1;
        return;
    }
    int bits = (int)tc_width(type, arch_bits) * 8;
    if (type_signed(type)) {
        *hi = ((i128)1 << (bits - 1)) - 1;
        *lo = -*hi - 1;
    } else {
        *lo = 0;
        *hi = ((i128)1 << bits) - 1;
    }
}

/* The value as an exact integer of its type. */
static i128 get_int(const tc_val *v, int arch_bits)
{
    int bits = (int)tc_width(v->type, arch_bits) * 8;
    uint64_t x = bits == 64 ? v->bits : v->bits & ((1ull << bits) - 1);
    if (type_signed(v->type) && bits < 64 && (x >> (bits - 1)) & 1)
        return (i128)x - ((i128)1 << bits);
    if (type_signed(v->type) && bits == 64)
        return (i128)(int64_t)x;
    return (i128)x;
}

static void set_int(tc_val *v, i128 x, int arch_bits)
{
    int bits = (int)tc_width(v->type, arch_bits) * 8;
    uint64_t u = (uint64_t)x;
    v->bits = bits == 64 ? u : u & ((1ull << bits) - 1);
}

int64_t tc_get_i64(const tc_val *v, int arch_bits) { return (int64_t)get_int(v, arch_bits); }

void tc_set_i64(tc_val *v, int64_t x, int arch_bits) { set_int(v, x, arch_bits); }

double tc_get_f64(const tc_val *v)
{
    if (v->type == CTG_T_FLOAT) {
        float f;
        uint32_t u = (uint32_t)v->bits;
        memcpy(&f, &u, 4);
        return f;
    }
    double d;
    memcpy(&d, &v->bits, 8);
    return d;
}

void tc_set_f64(tc_val *v, double x)
{
    if (v->type == CTG_T_FLOAT) {
        float f = (float)x;
        uint32_t u;
        memcpy(&u, &f, 4);
        v->bits = u;
    } else {
        memcpy(&v->bits, &x, 8);
    }
}

/* Domain of an integer type under p->range. */
static void int_domain(int type, const tc_params *p, i128 *lo, i128 *hi)
{
    type_bounds(type, p->arch_bits, lo, hi);
    if (p->range > 0 && type != CTG_T_BOOL && tc_width(type, p->arch_bits) > 1) {
        i128 r = (i128)p->range;
        *lo = *lo < -r ? -r : *lo;
        *hi = *hi > r ? r : *hi;
    }
}

static bool is_char(int type) { return type == CTG_T_CHAR || type == CTG_T_UCHAR; }

bool tc_clamp(tcase *t, uint32_t from, const tc_params *p)
{
    bool changed = false;
    if (p->range <= 0)
        return false;
    for (uint32_t i = from; i < t->n; i++) {
        tc_val *v = &t->v[i];
        if (type_float(v->type) || tc_width(v->type, p->arch_bits) < 2)
            continue;
        i128 lo, hi, x = get_int(v, p->arch_bits);
        int_domain(v->type, p, &lo, &hi);
        if (x < lo || x > hi) {
            set_int(v, x < lo ? lo : hi, p->arch_bits);
            changed = true;
        }
    }
    return changed;
}

/* ==== local moves (avm.h) ============================================= */

bool tc_is_float(const tc_val *v) { return type_float(v->type); }

double tc_min_step(const tc_val *v)
{
    if (!type_float(v->type))
        return 1.0;
    double x = fabs(tc_get_f64(v));
    if (!isfinite(x))
        return 1.0;
    if (x < 0x1p-30)
        x = 0x1p-30;
    return v->type == CTG_T_FLOAT ? (double)(nextafterf((float)x, INFINITY) - (float)x)
                                  : nextafter(x, INFINITY) - x;
}

bool tc_move(tc_val *v, int dir, double step, const tc_params *p)
{
    if (type_float(v->type)) {
        double x = tc_get_f64(v), y = x + dir * step;
        if (!isfinite(x) || !isfinite(y))
            return false;
        tc_set_f64(v, y);
        return tc_get_f64(v) != x;
    }
    if (v->type == CTG_T_BOOL) {
        uint64_t b = dir > 0 ? 1 : 0;
        bool moved = (v->bits & 1) != b;
        v->bits = b;
        return moved;
    }
    i128 lo, hi, x = get_int(v, p->arch_bits);
    int_domain(v->type, p, &lo, &hi);
    if (x < lo || x > hi) /* appended outside the domain: its type bounds */
        type_bounds(v->type, p->arch_bits, &lo, &hi);
    double span = (double)(hi - lo);
    i128 d = step >= span ? hi - lo : step < 1 ? 1 : (i128)llround(step);
    i128 y = dir > 0 ? (x > hi - d ? hi : x + d) : (x < lo + d ? lo : x - d);
    set_int(v, y, p->arch_bits);
    return y != x;
}

/* ==== random values ==================================================== */

/* Uniform integer in [lo, hi]. */
static i128 uniform_int(rng *r, i128 lo, i128 hi)
{
    unsigned __int128 span = (unsigned __int128)(hi - lo);
    if (span < UINT64_MAX)
        return lo + (i128)rng_below(r, (uint64_t)span + 1);
    return lo + (i128)(((unsigned __int128)rng_next(r) << 64 | rng_next(r)) % (span + 1));
}

/* A pool value that fits the domain of an integer type, into *x; false if
 * the draw found none. */
static bool pool_int(int type, const tc_params *p, rng *r, i128 *x)
{
    if (p->n_ipool == 0 || type == CTG_T_BOOL)
        return false;
    i128 lo, hi, v = p->ipool[rng_below(r, p->n_ipool)];
    int_domain(type, p, &lo, &hi);
    if (v < lo || v > hi) { /* an unsigned view of a negative operand */
        int bits = (int)tc_width(type, p->arch_bits) * 8;
        if (bits < 64 && !type_signed(type))
            v &= ((i128)1 << bits) - 1;
        if (v < lo || v > hi)
            return false;
    }
    *x = v;
    return true;
}

/* Random integer: a pool value with p_pool, boundary values with
 * p_special, printable characters for chars (the seed's strings), else
 * uniform over the domain (log-uniform over a whole type). */
static i128 random_int(int type, const tc_params *p, rng *r)
{
    i128 lo, hi, pv;
    int_domain(type, p, &lo, &hi);
    if (rng_chance(r, p->p_pool) && pool_int(type, p, r, &pv))
        return pv;
    if (rng_chance(r, p->p_special)) { /* boundary values of the domain */
        i128 cand[7] = {0, 1, -1, lo, hi, lo + 1, hi - 1};
        i128 x = cand[rng_below(r, 7)];
        return x < lo ? lo : x > hi ? hi : x;
    }
    if (is_char(type))
        return uniform_int(r, 32, 126);
    if (p->range > 0 || type == CTG_T_BOOL)
        return uniform_int(r, lo, hi);
    /* whole type: log-uniform magnitude (a random bit length), random sign */
    int bits = (int)tc_width(type, p->arch_bits) * 8 - (type_signed(type) ? 1 : 0);
    int k = (int)rng_below(r, (uint64_t)bits + 1);
    i128 m = k == 0 ? 0 : uniform_int(r, (i128)1 << (k - 1), ((i128)1 << k) - 1);
    if (type_signed(type) && rng_chance(r, 0.5))
        m = -m;
    return m < lo ? lo : m > hi ? hi : m;
}

static double float_range(const tc_params *p) { return p->range > 0 ? p->range : 1e6; }

static double random_float(const tc_params *p, rng *r)
{
    if (p->n_fpool && rng_chance(r, p->p_pool))
        return p->fpool[rng_below(r, p->n_fpool)];
    if (rng_chance(r, p->p_special)) {
        static const double sp[] = {0.0, -0.0, 1.0, -1.0, 0.5, INFINITY, -INFINITY, NAN};
        return sp[rng_below(r, sizeof sp / sizeof *sp)];
    }
    double R = float_range(p);
    return (rng_double(r) * 2.0 - 1.0) * R;
}

tc_val tc_random_value(int type, const tc_params *p, rng *r)
{
    tc_val v = {0, (uint8_t)(type == CTG_T_BYTES ? CTG_T_UCHAR : type)};
    if (type_float(v.type))
        tc_set_f64(&v, random_float(p, r));
    else
        set_int(&v, random_int(v.type, p, r), p->arch_bits);
    return v;
}

bool tc_random(tcase *t, const uint8_t *types, uint32_t n, const tc_params *p, rng *r)
{
    if (!tc_reserve(t, n ? n : 1))
        return false;
    t->n = 0;
    for (uint32_t i = 0; i < n; i++)
        t->v[t->n++] = tc_random_value(types[i], p, r);
    return true;
}

/* ==== mutation ========================================================= */

/* Step size: sigma * span, or with log_steps a size drawn log-uniformly
 * between 1 and that (so small differences can be closed exactly). */
static double step_size(double span, const tc_params *p, rng *r, double floor_)
{
    double s = p->sigma * span;
    if (s < floor_)
        s = floor_;
    if (p->log_steps && s > 1.0)
        s = exp(rng_double(r) * log(s));
    return s;
}

/* Gaussian step of an integer; never 0 and never outside the domain (a
 * value already outside it may move within its type). */
static void step_int(tc_val *v, const tc_params *p, rng *r)
{
    if (v->type == CTG_T_BOOL) {
        v->bits ^= 1;
        return;
    }
    i128 lo, hi, tlo, thi, x = get_int(v, p->arch_bits);
    int_domain(v->type, p, &lo, &hi);
    type_bounds(v->type, p->arch_bits, &tlo, &thi);
    if (x < lo || x > hi) {
        lo = tlo;
        hi = thi;
    }
    /* characters: the seed steps by gauss(c, 100); keep steps up to 64 */
    double s = step_size((double)(hi - lo), p, r, is_char(v->type) ? 64.0 : 1.0);
    double g = rng_gauss(r) * s;
    i128 d = (i128)llround(g);
    if (d == 0)
        d = g < 0 ? -1 : 1;
    i128 y = x + d;
    y = y < lo ? lo : y > hi ? hi : y;
    if (y == x) { /* stuck at a bound: step back inside */
        i128 back = x + (d > 0 ? -1 : 1);
        y = back >= lo && back <= hi ? back : x;
    }
    set_int(v, y, p->arch_bits);
}

/* Gaussian step of a float, rounded to a few decimals now and then (so
 * comparisons with short constants can be met exactly). */
static void step_float(tc_val *v, const tc_params *p, rng *r)
{
    double x = tc_get_f64(v);
    if (!isfinite(x))
        x = 0;
    double s = p->sigma * 2 * float_range(p);
    if (p->log_steps)
        s *= exp(-rng_double(r) * log(1e9)); /* 1e-9 .. 1 of the full step */
    double y = x + rng_gauss(r) * s;
    if (rng_chance(r, 0.1)) {
        double scale = pow(10, (double)rng_below(r, 4));
        y = round(y * scale) / scale;
    }
    tc_set_f64(v, y);
}

void tc_change_value(tc_val *v, const tc_params *p, rng *r)
{
    if (rng_chance(r, p->p_pool)) { /* a constant the program compared with */
        i128 x;
        if (type_float(v->type) && p->n_fpool) {
            tc_set_f64(v, p->fpool[rng_below(r, p->n_fpool)]);
            return;
        }
        uint64_t before = v->bits;
        if (!type_float(v->type) && pool_int(v->type, p, r, &x)) {
            set_int(v, x, p->arch_bits);
            if (v->bits != before)
                return;
        }
    }
    if (rng_chance(r, p->p_reset)) {
        *v = tc_random_value(v->type, p, r);
        return;
    }
    if (type_float(v->type))
        step_float(v, p, r);
    else
        step_int(v, p, r);
}

/* Deletes each value with probability 1/n (the seed's variable mutation),
 * keeping one value so the test keeps its types. */
static bool mutate_delete(tcase *t, rng *r)
{
    bool changed = false;
    double pm = t->n ? 1.0 / t->n : 0;
    for (uint32_t i = t->n; i-- > 0 && t->n > 1;)
        if (rng_chance(r, pm)) {
            tc_delete(t, i);
            changed = true;
        }
    return changed;
}

/* Copies into value i a different value of the same type; false if none. */
static bool copy_value(tcase *t, uint32_t i, rng *r)
{
    uint32_t pick = UINT32_MAX, seen = 0;
    for (uint32_t j = 0; j < t->n; j++)
        if (j != i && t->v[j].type == t->v[i].type && t->v[j].bits != t->v[i].bits &&
            rng_below(r, ++seen) == 0)
            pick = j;
    if (pick == UINT32_MAX)
        return false;
    t->v[i].bits = t->v[pick].bits;
    return true;
}

/* Changes value i: a copy of another value (p_copy), else a step or reset;
 * with p_tied, the other values equal to it (numbers wider than a char)
 * take the same new value, so relations like a == b == c survive. */
static void change_at(tcase *t, uint32_t i, const tc_params *p, rng *r)
{
    if (rng_chance(r, p->p_copy) && copy_value(t, i, r))
        return;
    tc_val old = t->v[i];
    tc_change_value(&t->v[i], p, r);
    if (tc_width(old.type, p->arch_bits) < 2 || !rng_chance(r, p->p_tied))
        return;
    for (uint32_t j = 0; j < t->n; j++)
        if (j != i && t->v[j].type == old.type && t->v[j].bits == old.bits)
            t->v[j].bits = t->v[i].bits;
}

/* Changes each value with probability 1/n. */
static bool mutate_change(tcase *t, const tc_params *p, rng *r)
{
    bool changed = false;
    double pm = t->n ? 1.0 / t->n : 0;
    for (uint32_t i = 0; i < t->n; i++)
        if (rng_chance(r, pm)) {
            change_at(t, i, p, r);
            changed = true;
        }
    return changed;
}

/* Inserts a random value (of a neighbour's type) at a random position, then
 * another with probability alpha^2, alpha^3, ... (seed: ALPHA ** count). */
static int mutate_insert(tcase *t, const tc_params *p, rng *r)
{
    int inserted = 0;
    for (int count = 1; t->n < p->max_len; count++) {
        if (count > 1 && !rng_chance(r, pow(p->alpha, count)))
            break;
        uint32_t pos = (uint32_t)rng_below(r, (uint64_t)t->n + 1);
        int type = t->n == 0 ? CTG_T_UCHAR : t->v[pos > 0 ? pos - 1 : 0].type;
        if (!tc_insert(t, pos, tc_random_value(type, p, r)))
            return -1;
        inserted++;
    }
    return inserted;
}

bool tc_mutate(tcase *t, const tc_params *p, bool variable, rng *r)
{
    for (int tries = 0; tries < 16; tries++) {
        bool changed = false;
        if (!variable || t->n == 0) {
            if (t->n == 0) {
                if (mutate_insert(t, p, r) < 0)
                    return false;
                return true;
            }
            changed = mutate_change(t, p, r);
        } else {
            if (rng_chance(r, p->p_delete) && t->n > 1)
                changed |= mutate_delete(t, r);
            if (rng_chance(r, p->p_change))
                changed |= mutate_change(t, p, r);
            if (rng_chance(r, p->p_insert)) {
                int k = mutate_insert(t, p, r);
                if (k < 0)
                    return false;
                changed |= k > 0;
            }
        }
        if (changed)
            return true;
    }
    change_at(t, (uint32_t)rng_below(r, t->n), p, r);
    return true;
}

/* ==== crossover ======================================================== */

void tc_cut_points(uint32_t na, uint32_t nb, tc_cross_kind k, rng *r, uint32_t *i, uint32_t *j)
{
    switch (k) {
    case TC_CROSS_VARIABLE: /* seed: randint(1, len) in each parent */
        *i = na ? 1 + (uint32_t)rng_below(r, na) : 0;
        *j = nb ? 1 + (uint32_t)rng_below(r, nb) : 0;
        break;
    case TC_CROSS_RELATIVE: {
        double pos = rng_double(r);
        *i = (uint32_t)(na * pos);
        *j = (uint32_t)(nb * pos);
        break;
    }
    default: {
        uint32_t m = na < nb ? na : nb;
        *i = *j = (uint32_t)rng_below(r, (uint64_t)m + 1);
        break;
    }
    }
}

/* out = x[:i] + y[j:] */
static bool splice(const tcase *x, uint32_t i, const tcase *y, uint32_t j, tcase *out)
{
    tcase t;
    tc_init(&t);
    uint32_t n = i + (y->n - j);
    if (!tc_reserve(&t, n ? n : 1))
        return false;
    if (i)
        memcpy(t.v, x->v, i * sizeof *t.v);
    if (y->n > j)
        memcpy(t.v + i, y->v + j, (y->n - j) * sizeof *t.v);
    t.n = n;
    tc_release(out);
    *out = t;
    return true;
}

bool tc_crossover(const tcase *a, const tcase *b, tc_cross_kind k, rng *r, tcase *o1, tcase *o2)
{
    uint32_t i, j;
    tc_cut_points(a->n, b->n, k, r, &i, &j);
    tcase t1, t2;
    tc_init(&t1);
    tc_init(&t2);
    if (!splice(a, i, b, j, &t1) || !splice(b, j, a, i, &t2)) {
        tc_release(&t1);
        tc_release(&t2);
        return false;
    }
    tc_release(o1);
    tc_release(o2);
    *o1 = t1;
    *o2 = t2;
    return true;
}
