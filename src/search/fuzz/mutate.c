/*
 * mutate.c - havoc stack, typed value mutations, dictionary and
 * input-to-state replacement of the fuzzer (see mutate.h).
 *
 * The operators are a table (honggfuzz's mangle.c style): each takes the
 * buffer and returns its new length; an operator that cannot apply (an
 * empty buffer, no dictionary, no values) returns the length unchanged and
 * the stack simply draws again.
 */
#include "mutate.h"

#include <math.h>
#include <string.h>

#include "../../base/mem.h"
#include "../../runtime/rt_valgen.h"

/* ==== dictionary ========================================================= */

typedef struct mut_token {
    uint8_t len;
    uint8_t b[MUT_TOKEN_MAX];
} mut_token;

struct mut_dict {
    mut_token *tok;
    size_t n, cap;
    size_t fixed, next; /* entries never replaced; next one to replace */
};

mut_dict *mut_dict_new(size_t cap)
{
    mut_dict *d = ctg_calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->cap = cap;
    d->tok = ctg_calloc(cap ? cap : 1, sizeof *d->tok);
    if (!d->tok) {
        ctg_free(d);
        return NULL;
    }
    return d;
}

void mut_dict_free(mut_dict *d)
{
    if (!d)
        return;
    ctg_free(d->tok);
    ctg_free(d);
}

bool mut_dict_add(mut_dict *d, const uint8_t *tok, size_t len)
{
    if (!d || len == 0 || len > MUT_TOKEN_MAX || d->cap == 0)
        return false;
    for (size_t i = 0; i < d->n; i++)
        if (d->tok[i].len == len && memcmp(d->tok[i].b, tok, len) == 0)
            return false;
    size_t at = d->n;
    if (d->n == d->cap) {
        if (d->fixed >= d->cap)
            return false;
        at = d->fixed + d->next++ % (d->cap - d->fixed);
    } else {
        d->n++;
    }
    d->tok[at].len = (uint8_t)len;
    memcpy(d->tok[at].b, tok, len);
    return true;
}

void mut_dict_fix(mut_dict *d)
{
    d->fixed = d->n;
    d->next = 0;
}

size_t mut_dict_size(const mut_dict *d) { return d ? d->n : 0; }

const uint8_t *mut_dict_get(const mut_dict *d, size_t i, size_t *len)
{
    *len = d->tok[i].len;
    return d->tok[i].b;
}

/* ==== helpers ============================================================ */

static const int8_t interesting8[] = {-128, -1, 0, 1, 16, 32, 64, 100, 127};
static const int16_t interesting16[] = {-32768, -129, 128, 255, 256, 512, 1000, 1024, 4096, 32767};
static const int32_t interesting32[] = {INT32_MIN, -100663046, -32769, 32768, 65535, 65536,
                                        100663045, INT32_MAX};

static void store_le(uint8_t *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t load_le(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static uint64_t bswap(uint64_t v, size_t n)
{
    uint64_t r = 0;
    for (size_t i = 0; i < n; i++)
        r |= ((v >> (8 * i)) & 0xffu) << (8 * (n - 1 - i));
    return r;
}

/* A width of 1, 2, 4 or 8 bytes that fits len (0 when len == 0). */
static size_t pick_width(rng *r, size_t len)
{
    static const size_t w[] = {1, 2, 4, 8};
    for (int tries = 0; tries < 8; tries++) {
        size_t k = w[rng_below(r, 4)];
        if (k <= len)
            return k;
    }
    return len ? 1 : 0;
}

/* An interesting value of n bytes (sign-extended from the tables). */
static uint64_t interesting(rng *r, size_t n)
{
    size_t n8 = sizeof interesting8, n16 = n8 + sizeof interesting16 / 2,
           n32 = n16 + sizeof interesting32 / 4;
    size_t lim = n == 1 ? n8 : n == 2 ? n16 : n32;
    size_t i = (size_t)rng_below(r, lim);
    if (i < n8)
        return (uint64_t)(int64_t)interesting8[i];
    if (i < n16)
        return (uint64_t)(int64_t)interesting16[i - n8];
    return (uint64_t)(int64_t)interesting32[i - n16];
}

/* A block length for a buffer of len bytes, biased small (AFL's choose_block_len). */
static size_t block_len(rng *r, size_t len)
{
    if (len <= 1)
        return len;
    size_t cap;
    switch (rng_below(r, 3)) {
    case 0: cap = 8; break;
    case 1: cap = 32; break;
    default: cap = 128; break;
    }
    if (cap > len)
        cap = len;
    return 1 + (size_t)rng_below(r, cap);
}

/* Makes room for n bytes at pos (shifting the tail); returns how many fit. */
static size_t open_gap(uint8_t *buf, size_t *len, size_t max, size_t pos, size_t n)
{
    if (*len + n > max)
        n = max - *len;
    memmove(buf + pos + n, buf + pos, *len - pos);
    *len += n;
    return n;
}

/* ==== byte operators ====================================================== */

typedef size_t (*mut_op)(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s);

static size_t op_flip(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max, (void)s;
    if (len)
        buf[rng_below(r, len)] ^= (uint8_t)(1u << rng_below(r, 8));
    return len;
}

static size_t op_interesting(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max, (void)s;
    size_t n = pick_width(r, len);
    if (!n)
        return len;
    uint64_t v = interesting(r, n);
    if (n > 1 && rng_chance(r, 0.5))
        v = bswap(v, n);
    store_le(buf + rng_below(r, len - n + 1), v, n);
    return len;
}

static size_t op_arith(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max, (void)s;
    size_t n = pick_width(r, len);
    if (!n)
        return len;
    uint8_t *p = buf + rng_below(r, len - n + 1);
    bool big = n > 1 && rng_chance(r, 0.5);
    uint64_t v = load_le(p, n), d = 1 + rng_below(r, 35);
    if (big)
        v = bswap(v, n);
    v = rng_chance(r, 0.5) ? v + d : v - d;
    store_le(p, big ? bswap(v, n) : v, n);
    return len;
}

static size_t op_random_byte(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max, (void)s;
    if (len)
        buf[rng_below(r, len)] ^= (uint8_t)(1 + rng_below(r, 255));
    return len;
}

static size_t op_delete(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max, (void)s;
    if (len < 2)
        return len;
    size_t n = block_len(r, len - 1), pos = rng_below(r, len - n + 1);
    memmove(buf + pos, buf + pos + n, len - pos - n);
    return len - n;
}

static size_t op_insert(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)s;
    if (len >= max)
        return len;
    bool copy = len > 0 && rng_chance(r, 0.75);
    size_t n = block_len(r, copy ? len : 16), from = copy ? rng_below(r, len - n + 1) : 0;
    uint8_t tmp[128];
    if (copy)
        memcpy(tmp, buf + from, n);
    else
        memset(tmp, rng_chance(r, 0.5) ? (int)rng_below(r, 256) : (int)buf[len ? rng_below(r, len) : 0],
               n);
    size_t pos = rng_below(r, len + 1);
    n = open_gap(buf, &len, max, pos, n);
    memcpy(buf + pos, tmp, n);
    return len;
}

static size_t op_overwrite(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max, (void)s;
    if (len < 2)
        return len;
    size_t n = block_len(r, len - 1), from = rng_below(r, len - n + 1), to = rng_below(r, len - n + 1);
    if (rng_chance(r, 0.75))
        memmove(buf + to, buf + from, n);
    else
        memset(buf + to, (int)rng_below(r, 256), n);
    return len;
}

/* A block of another input (s->other) inserted at a random position or
 * written over the bytes there: how two structures that each cover
 * nothing new together ("[x]" and "k=v" of an INI file, each kept for
 * its own lines) meet in one input.  pick_op chooses it only when there
 * is another input (op_entry.other). */
static size_t op_other_part(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    size_t n = block_len(r, s->other_len), from = rng_below(r, s->other_len - n + 1);
    if (len > n && rng_chance(r, 0.5)) {
        memcpy(buf + rng_below(r, len - n + 1), s->other + from, n);
        return len;
    }
    if (len >= max)
        return len;
    size_t pos = rng_below(r, len + 1);
    n = open_gap(buf, &len, max, pos, n);
    memcpy(buf + pos, s->other + from, n);
    return len;
}

static size_t op_dict_insert(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    size_t n = mut_dict_size(s->dict), tl;
    if (!n || len >= max)
        return len;
    const uint8_t *t = mut_dict_get(s->dict, rng_below(r, n), &tl);
    size_t pos = rng_below(r, len + 1);
    tl = open_gap(buf, &len, max, pos, tl);
    memcpy(buf + pos, t, tl);
    return len;
}

static size_t op_dict_overwrite(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max;
    size_t n = mut_dict_size(s->dict), tl;
    if (!n || !len)
        return len;
    const uint8_t *t = mut_dict_get(s->dict, rng_below(r, n), &tl);
    if (tl > len)
        return len;
    memcpy(buf + rng_below(r, len - tl + 1), t, tl);
    return len;
}

static size_t op_i2s(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    if (rng_chance(r, 0.5)) {
        size_t n = mut_i2s_text(r, buf, len, max, s);
        if (n)
            return n;
    }
    mut_i2s(r, buf, &len, max, s);
    return len;
}

/* ==== typed operators ====================================================== */

/* A new value for the float/double at p (size 4 or 8). */
static void float_value(rng *r, uint8_t *p, size_t size)
{
    static const double special[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, 10.0, 100.0, 1e-6,
                                     1e6, 1e308, -1e308, 2.2250738585072014e-308};
    double v;
    if (size == 8) {
        memcpy(&v, p, 8);
    } else {
        float f;
        memcpy(&f, p, 4);
        v = f;
    }
    switch (rng_below(r, 6)) {
    case 0: v = special[rng_below(r, sizeof special / sizeof *special)]; break;
    case 1: v = rng_chance(r, 0.5) ? INFINITY : rng_chance(r, 0.5) ? -INFINITY : NAN; break;
    case 2: v = rng_chance(r, 0.5) ? v * 2 : v / 2; break;
    case 3: v = v + (rng_chance(r, 0.5) ? 1.0 : -1.0) * (double)(1 + rng_below(r, 35)); break;
    case 4: v = -v; break;
    default: v = (double)rng_range(r, -1000, 1000) / (double)(1 + rng_below(r, 100)); break;
    }
    if (size == 8) {
        memcpy(p, &v, 8);
    } else {
        float f = (float)v;
        memcpy(p, &f, 4);
    }
}

/* A new value for the integer value of `size` bytes at p. */
static void int_value(rng *r, uint8_t *p, size_t size, enum ctg_type t, const mut_src *s)
{
    unsigned bits = (unsigned)size * 8u;
    uint64_t v = load_le(p, size), m = ctg_vg_mask(bits);
    switch (rng_below(r, 6)) {
    case 0: {
        ctg_vg g;
        ctg_vg_seed(&g, rng_next(r));
        v = ctg_vg_boundary(&g, bits, ctg_vg_signed(t));
        break;
    }
    case 1: v = (uint64_t)rng_range(r, -16, 16); break;
    case 2: v = rng_chance(r, 0.5) ? v + 1 + rng_below(r, 35) : v - 1 - rng_below(r, 35); break;
    case 3: v = rng_chance(r, 0.5) ? (uint64_t)0 - v : v << 1; break;
    case 4: { /* an operand the program compared something of this width with */
        size_t k = s->n_cmps ? (size_t)rng_below(r, s->n_cmps) : 0;
        if (s->n_cmps && s->cmps[k].bits == bits && !s->cmps[k].str)
            v = rng_chance(r, 0.5) ? s->cmps[k].a : s->cmps[k].b;
        else
            v ^= (uint64_t)1 << rng_below(r, bits);
        break;
    }
    default: {
        ctg_vg g;
        ctg_vg_seed(&g, rng_next(r));
        ctg_vg_value(&g, (uint32_t)t, (unsigned)size, p);
        return;
    }
    }
    store_le(p, v & m, size);
}

/* Index of a random value with a fixed size (not the libFuzzer bytes) that
 * lies inside buf, or -1. */
static long pick_value(rng *r, size_t len, const mut_src *s)
{
    for (int tries = 0; tries < 4 && s->n_vals; tries++) {
        size_t i = (size_t)rng_below(r, s->n_vals);
        const ctg_value_rec *v = &s->vals[i];
        if (v->type != CTG_T_BYTES && v->size && v->offset + (size_t)v->size <= len)
            return (long)i;
    }
    return -1;
}

static size_t op_value(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    (void)max;
    long i = pick_value(r, len, s);
    if (i < 0)
        return len;
    const ctg_value_rec *v = &s->vals[i];
    uint8_t *p = buf + v->offset;
    if (v->type == CTG_T_BOOL)
        p[0] ^= 1u;
    else if (v->type == CTG_T_FLOAT || v->type == CTG_T_DOUBLE)
        float_value(r, p, v->size);
    else if ((v->type == CTG_T_CHAR || v->type == CTG_T_UCHAR) && rng_chance(r, 0.5)) {
        ctg_vg g;
        ctg_vg_seed(&g, rng_next(r));
        p[0] = ctg_vg_char(&g);
    } else
        int_value(r, p, v->size, (enum ctg_type)v->type, s);
    return len;
}

/* Deletes, duplicates or swaps whole values.  Changes the layout: the
 * value log is stale afterwards (the caller stops using it). */
static size_t op_value_shape(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    long i = pick_value(r, len, s);
    if (i < 0)
        return len;
    const ctg_value_rec *v = &s->vals[i];
    size_t off = v->offset, n = v->size;
    switch (rng_below(r, 3)) {
    case 0: /* delete */
        memmove(buf + off, buf + off + n, len - off - n);
        return len - n;
    case 1: { /* duplicate */
        uint8_t tmp[16];
        if (n > sizeof tmp)
            return len;
        memcpy(tmp, buf + off, n);
        size_t got = open_gap(buf, &len, max, off, n);
        memcpy(buf + off, tmp, got);
        return len;
    }
    default: { /* swap with another value of the same size */
        long j = pick_value(r, len, s);
        if (j < 0 || s->vals[j].size != n || n > 16)
            return len;
        uint8_t tmp[16];
        memcpy(tmp, buf + off, n);
        memcpy(buf + off, buf + s->vals[j].offset, n);
        memcpy(buf + s->vals[j].offset, tmp, n);
        return len;
    }
    }
}

/* ==== the stack =========================================================== */

typedef struct op_entry {
    mut_op fn;
    unsigned weight;
    bool typed;       /* needs the value log            */
    bool keeps_shape; /* leaves offsets of values alone */
    bool other;       /* needs another input (s->other) */
} op_entry;

static const op_entry ops[] = {
    {op_flip, 4, false, true, false},
    {op_interesting, 4, false, true, false},
    {op_arith, 4, false, true, false},
    {op_random_byte, 3, false, true, false},
    {op_delete, 3, false, false, false},
    {op_insert, 2, false, false, false},
    {op_overwrite, 2, false, true, false},
    {op_dict_insert, 2, false, false, false},
    {op_dict_overwrite, 3, false, true, false},
    {op_i2s, 3, false, true, false},
    {op_value, 10, true, true, false},
    {op_value_shape, 2, true, false, false},
    {op_other_part, 2, false, false, true}, /* last: without another input the
                                               draws are those of the others */
};
#define N_OPS (sizeof ops / sizeof *ops)

/* The weight of op: 0 when it needs what this mutation lacks. */
static unsigned op_weight(const op_entry *op, bool typed, bool other)
{
    return (op->typed && !typed) || (op->other && !other) ? 0 : op->weight;
}

/* A random operator by weight; typed ones only when allowed. */
static const op_entry *pick_op(rng *r, bool typed, bool other)
{
    unsigned total = 0;
    for (size_t i = 0; i < N_OPS; i++)
        total += op_weight(&ops[i], typed, other);
    unsigned x = (unsigned)rng_below(r, total);
    for (size_t i = 0; i < N_OPS; i++) {
        unsigned w = op_weight(&ops[i], typed, other);
        if (x < w)
            return &ops[i];
        x -= w;
    }
    return &ops[0];
}

size_t mut_havoc(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s, unsigned stack)
{
    bool typed = s->vals && s->n_vals > 0 &&
                 !(s->n_vals == 1 && s->vals[0].type == CTG_T_BYTES);
    if (len > max)
        len = max;
    for (unsigned k = 0; k < stack; k++) {
        const op_entry *op = pick_op(r, typed, s->other && s->other_len);
        size_t before = len;
        len = op->fn(r, buf, len, max, s);
        if (typed && (!op->keeps_shape || len != before))
            typed = false;
    }
    if (len == 0 && max > 0) { /* never hand back an empty input from a non-empty one */
        buf[0] = (uint8_t)rng_below(r, 256);
        len = 1;
    }
    return len;
}

/* ==== input-to-state and splice ============================================== */

/* The occurrences of pat[0..n) in buf[0..len) in the order of a scan of
 * positions start, start + 1, ... wrapping around to 0 (start < len - n +
 * 1): the first one that accept takes (accept NULL: any), or SIZE_MAX.
 * memchr finds the candidates for the first byte, so a scan costs no
 * function call per position. */
static size_t find_wrapped(const uint8_t *buf, size_t len, const uint8_t *pat, size_t n,
                           size_t start, bool (*accept)(const uint8_t *, size_t, size_t, size_t),
                           size_t arg)
{
    size_t slots = len - n + 1;
    for (int seg = 0; seg < 2; seg++) {
        size_t at = seg ? 0 : start, end = seg ? start : slots;
        while (at < end) {
            const uint8_t *p = memchr(buf + at, pat[0], end - at);
            if (!p)
                break;
            size_t i = (size_t)(p - buf);
            if (memcmp(p + 1, pat + 1, n - 1) == 0 && (!accept || accept(buf, len, i, arg)))
                return i;
            at = i + 1;
        }
    }
    return SIZE_MAX;
}

/* Replaces one occurrence (from a random start) of the n-byte pattern `from`
 * by `to` in buf; true when found. */
static bool replace_once(rng *r, uint8_t *buf, size_t len, uint64_t from, uint64_t to, size_t n)
{
    if (n > len)
        return false;
    uint8_t pat[8], rep[8];
    store_le(pat, from, n);
    store_le(rep, to, n);
    size_t slots = len - n + 1, start = (size_t)rng_below(r, slots);
    size_t i = find_wrapped(buf, len, pat, n, start, NULL, 0);
    if (i == SIZE_MAX)
        return false;
    memcpy(buf + i, rep, n);
    return true;
}

/* Length of the string in the n bytes of v (up to its first NUL). */
static size_t str_len(uint64_t v, size_t n)
{
    size_t k = 0;
    while (k < n && (v >> (8 * k)) & 0xff)
        k++;
    return k;
}

/* Replaces one occurrence (a random one) of the string operand `from`
 * with `to` (each the bytes up to its NUL), moving the tail when the
 * lengths differ.  False when from is empty, absent, or the result would
 * exceed max. */
static bool replace_str(rng *r, uint8_t *buf, size_t *len, size_t max, uint64_t from, uint64_t to,
                        size_t n)
{
    size_t fl = str_len(from, n), tl = str_len(to, n);
    if (!fl || fl > *len || *len - fl + tl > max)
        return false;
    uint8_t pat[8], rep[8];
    store_le(pat, from, fl);
    store_le(rep, to, tl);
    size_t slots = *len - fl + 1, start = (size_t)rng_below(r, slots);
    size_t i = find_wrapped(buf, *len, pat, fl, start, NULL, 0);
    if (i == SIZE_MAX)
        return false;
    memmove(buf + i + tl, buf + i + fl, *len - i - fl);
    memcpy(buf + i, rep, tl);
    *len = *len - fl + tl;
    return true;
}

/* True when the n-byte value v is the zero or sign extension of its low
 * w bytes. */
static bool fits(uint64_t v, size_t n, size_t w)
{
    uint64_t m = ctg_vg_mask((unsigned)w * 8u), all = ctg_vg_mask((unsigned)n * 8u);
    uint64_t sext = (v & (((uint64_t)1) << (w * 8 - 1))) ? (v | ~m) & all : v & m;
    return (v & all) == (v & m) || (v & all) == sext;
}

/* The width to look for: the comparison's, or (half of the time) the
 * smallest that holds both operands, since programs widen chars and shorts
 * before comparing them. */
static size_t i2s_width(rng *r, const mut_cmp *c)
{
    size_t n = c->bits / 8;
    if (rng_chance(r, 0.5))
        for (size_t w = 1; w < n; w *= 2)
            if (fits(c->a, n, w) && fits(c->b, n, w))
                return w;
    return n;
}

bool mut_i2s(rng *r, uint8_t *buf, size_t *len, size_t max, const mut_src *s)
{
    if (!s->n_cmps)
        return false;
    for (int tries = 0; tries < 8; tries++) {
        const mut_cmp *c = &s->cmps[rng_below(r, s->n_cmps)];
        size_t n = c->bits / 8;
        if (c->a == c->b || n == 0 || n > 8)
            continue;
        if (!c->str)
            n = i2s_width(r, c);
        bool swap = rng_chance(r, 0.5), big = !c->str && n > 1 && rng_chance(r, 0.3);
        uint64_t from = swap ? c->b : c->a, to = swap ? c->a : c->b;
        if (!c->str && !c->exact) /* <, <=, > need +-1 */
            to += (uint64_t)((int64_t)rng_below(r, 3) - 1);
        if (big) {
            from = bswap(from, n);
            to = bswap(to, n);
        }
        uint64_t m = ctg_vg_mask((unsigned)n * 8u);
        if (c->str ? replace_str(r, buf, len, max, from & m, to & m, n)
                   : replace_once(r, buf, *len, from & m, to & m, n))
            return true;
    }
    return false;
}

/* The signed value of a comparison operand of `bits` bits. */
static int64_t signed_of(uint64_t v, uint32_t bits)
{
    return bits >= 64 ? (int64_t)v : (int64_t)(v << (64 - bits)) >> (64 - bits);
}

static bool is_digit(uint8_t c) { return c >= '0' && c <= '9'; }

/* v in decimal as "%lld" writes it, into buf (24 bytes); its length.
 * (snprintf was 2.7 % of all samples in a perf profile of json.) */
static size_t fmt_i64(char *buf, int64_t v)
{
    char tmp[24];
    size_t n = 0, k = 0;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    do {
        tmp[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        buf[k++] = '-';
    while (n)
        buf[k++] = tmp[--n];
    buf[k] = '\0';
    return k;
}

/* v in hexadecimal, as many digit pairs as the larger of v and w needs
 * (at least one pair: "%2B", "0x0a"), into buf (17 bytes); the digit
 * count.  upper: A-F, else a-f. */
static size_t fmt_hex(char *buf, uint64_t v, uint64_t w, bool upper)
{
    const char *dig = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    uint64_t m = v > w ? v : w;
    size_t n = 2;
    while (n < 16 && (m >> (4 * n)) != 0)
        n += 2;
    for (size_t k = 0; k < n; k++)
        buf[k] = dig[(v >> (4 * (n - 1 - k))) & 15];
    buf[n] = '\0';
    return n;
}

/* find_wrapped's test for a number of n characters at i: no digit on
 * either side (whole_unsigned: no minus sign before it either). */
static bool whole_number(const uint8_t *buf, size_t len, size_t i, size_t n)
{
    return !(i > 0 && is_digit(buf[i - 1])) && !(i + n < len && is_digit(buf[i + n]));
}

static bool whole_unsigned(const uint8_t *buf, size_t len, size_t i, size_t n)
{
    return whole_number(buf, len, i, n) && !(i > 0 && buf[i - 1] == '-');
}

size_t mut_i2s_text(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    if (!s->n_cmps || !len)
        return 0;
    for (int tries = 0; tries < 8; tries++) {
        const mut_cmp *c = &s->cmps[rng_below(r, s->n_cmps)];
        if (c->str || c->a == c->b || c->bits == 0 || c->bits > 64)
            continue;
        bool swap = rng_chance(r, 0.5);
        int64_t from = signed_of(swap ? c->b : c->a, c->bits);
        int64_t to = signed_of(swap ? c->a : c->b, c->bits);
        if (!c->exact)
            to += (int64_t)rng_below(r, 3) - 1;
        bool hex = from >= 0 && to >= 0 && from <= UINT32_MAX && to <= UINT32_MAX &&
                   rng_chance(r, 0.5);
        char pf[24], pt[24];
        size_t nf, nt;
        if (hex) {
            size_t digits = fmt_hex(pf, (uint64_t)from, (uint64_t)to, false);
            fmt_hex(pt, (uint64_t)to, (uint64_t)from, false);
            nf = nt = digits;
        } else {
            nf = fmt_i64(pf, from);
            nt = fmt_i64(pt, to);
        }
        if (nf > len || len - nf + nt > max)
            continue;
        size_t slots = len - nf + 1, start = (size_t)rng_below(r, slots);
        size_t i = hex ? find_wrapped(buf, len, (const uint8_t *)pf, nf, start, NULL, 0)
                       : find_wrapped(buf, len, (const uint8_t *)pf, nf, start,
                                      from >= 0 ? whole_unsigned : whole_number, nf);
        if (i == SIZE_MAX && hex) { /* the same digits in upper case */
            fmt_hex(pf, (uint64_t)from, (uint64_t)to, true);
            fmt_hex(pt, (uint64_t)to, (uint64_t)from, true);
            i = find_wrapped(buf, len, (const uint8_t *)pf, nf, start, NULL, 0);
        }
        if (i == SIZE_MAX)
            continue;
        memmove(buf + i + nt, buf + i + nf, len - i - nf);
        memcpy(buf + i, pt, nt);
        return len - nf + nt;
    }
    return 0;
}

size_t mut_splice(rng *r, uint8_t *buf, size_t len, size_t max, const mut_src *s)
{
    if (!s->splice || s->splice_len < 2 || len < 2)
        return len;
    size_t lim = len < s->splice_len ? len : s->splice_len;
    size_t cut = 1 + (size_t)rng_below(r, lim - 1);
    size_t n = s->splice_len - cut;
    if (cut + n > max)
        n = max - cut;
    memcpy(buf + cut, s->splice + cut, n);
    return cut + n;
}
