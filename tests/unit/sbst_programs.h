/*
 * sbst_programs.h - seed 001's programs instrumented by hand, run in-process
 * behind an sbst_env, so the search algorithms are tested without the
 * instrumenter, runtime or executor:
 *
 *   triangle(a, b, c)  three ints, 11 conditions / 22 edges (the seed's
 *                      instrumented triangle, short-circuit order kept)
 *   cgi_decode(s)      chars up to NUL (at most 16), 5 conditions / 10
 *                      edges: i < len, c == '+', c == '%', hi in hex,
 *                      lo in hex (the seed's Python version); an error site
 *                      when the decoded text starts with "Hi!"
 *
 * The distances follow the seed's evaluate_condition (Eq, Lt, LtE, In); the
 * maps follow rt_protocol.h: cov[e] hit counters, dist[e] = 1 + the smallest
 * distance seen, cmp[] the last operands of each two-way condition (as
 * 32-bit ints); exhausted inputs are extended with random values (ints in
 * +-1000, printable chars or NUL) and logged like the runtime does.
 */
#ifndef CTG_SBST_PROGRAMS_H
#define CTG_SBST_PROGRAMS_H

#include <math.h>
#include <string.h>

#include "sbst_fixture.h"
#include "search/sbst/sbst.h"

enum { IP_TRIANGLE, IP_CGI };
enum { IP_EQ, IP_LT, IP_LE };

typedef struct ip_prog {
    int kind;
    progdb db;
    uint8_t cov[32];
    double dist[32];
    uint8_t in[4096];
    size_t len, pos;
    ctg_value_rec vals[512];
    size_t nv;
    ctg_cmp_rec cmp[16];   /* cmplog: one site per two-way condition */
    bool no_cmplog;
    bool error;
    rng ext;
    uint64_t runs, budget; /* stop after budget runs */
    int ret;               /* return value of the last run */
} ip_prog;

/* Records the distance of an edge: 1 + raw, keeping the smallest. */
static inline void ip_rec(ip_prog *p, uint32_t e, double raw)
{
    double v = 1.0 + raw;
    if (p->dist[e] == 0 || v < p->dist[e])
        p->dist[e] = v;
}

/* The seed's evaluate_condition for Eq, Lt and LtE, on edges base/base+1. */
static inline bool ip_cmp(ip_prog *p, uint32_t base, int op, double a, double b)
{
    bool t;
    double dt = 0, df = 0;
    if (op == IP_EQ) {
        t = a == b;
        dt = t ? 0 : fabs(a - b);
        df = t ? 1 : 0;
    } else if (op == IP_LT) {
        t = a < b;
        dt = t ? 0 : a - b + 1;
        df = t ? b - a : 0;
    } else {
        t = a <= b;
        dt = t ? 0 : a - b;
        df = t ? b - a + 1 : 0;
    }
    ip_rec(p, base, dt);
    ip_rec(p, base + 1, df);
    p->cov[base + (t ? 0 : 1)]++;
    ctg_cmp_rec *c = &p->cmp[base / 2];
    *c = (ctg_cmp_rec){(uint64_t)(int64_t)a & 0xffffffffu, (uint64_t)(int64_t)b & 0xffffffffu,
                       c->hits + 1, 32};
    return t;
}

/* The seed's "In" against the hex digits: distance to the nearest one. */
static inline bool ip_in_hex(ip_prog *p, uint32_t base, int c)
{
    static const char hex[] = "0123456789abcdefABCDEF";
    double best = 1e9;
    for (const char *h = hex; *h; h++)
        best = fmin(best, fabs((double)c - *h));
    bool t = best == 0;
    ip_rec(p, base, best);
    ip_rec(p, base + 1, t ? 1 : 0);
    p->cov[base + (t ? 0 : 1)]++;
    return t;
}

/* Next value of `size` bytes, extended randomly when the input runs out. */
static inline uint64_t ip_next(ip_prog *p, int type, size_t size)
{
    if (p->pos + size > p->len) {
        while (p->len < p->pos + size) {
            uint64_t v;
            if (type == CTG_T_INT)
                v = (uint64_t)(int64_t)rng_range(&p->ext, -1000, 1000);
            else
                v = rng_chance(&p->ext, 0.1) ? 0 : (uint64_t)rng_range(&p->ext, 32, 126);
            for (size_t k = 0; k < size; k++)
                p->in[p->len++] = (uint8_t)(v >> (8 * k));
        }
    }
    uint64_t x = 0;
    for (size_t k = 0; k < size; k++)
        x |= (uint64_t)p->in[p->pos + k] << (8 * k);
    p->vals[p->nv++] = (ctg_value_rec){(uint32_t)p->pos, (uint16_t)type, (uint16_t)size};
    p->pos += size;
    return x;
}

/* triangle with the seed's 11 conditions; edge 2k is condition k's true side. */
static inline int ip_triangle(ip_prog *p)
{
    int a = (int)(int32_t)ip_next(p, CTG_T_INT, 4);
    int b = (int)(int32_t)ip_next(p, CTG_T_INT, 4);
    int c = (int)(int32_t)ip_next(p, CTG_T_INT, 4);
    double A = a, B = b, C = c;
    if (ip_cmp(p, 0, IP_LE, A, 0) || ip_cmp(p, 2, IP_LE, B, 0) || ip_cmp(p, 4, IP_LE, C, 0))
        return 4;
    if (ip_cmp(p, 6, IP_LE, A + B, C) || ip_cmp(p, 8, IP_LE, A + C, B) ||
        ip_cmp(p, 10, IP_LE, B + C, A))
        return 4;
    if (ip_cmp(p, 12, IP_EQ, A, B) && ip_cmp(p, 14, IP_EQ, B, C))
        return 1;
    if (ip_cmp(p, 16, IP_EQ, A, B) || ip_cmp(p, 18, IP_EQ, B, C) || ip_cmp(p, 20, IP_EQ, A, C))
        return 2;
    return 3;
}

/* cgi_decode of the seed; error when the output starts with "Hi!". */
static inline int ip_cgi(ip_prog *p)
{
    char s[17], t[17];
    int n = 0;
    while (n < 16) {
        s[n] = (char)ip_next(p, CTG_T_CHAR, 1);
        if (!s[n])
            break;
        n++;
    }
    s[n] = 0;
    int i = 0, k = 0;
    while (ip_cmp(p, 0, IP_LT, i, n)) {
        int c = s[i];
        if (ip_cmp(p, 2, IP_EQ, c, '+')) {
            t[k++] = ' ';
        } else if (ip_cmp(p, 4, IP_EQ, c, '%')) {
            int hi = s[i + 1], lo = i + 2 <= n ? s[i + 2] : 0;
            i += 2;
            if (ip_in_hex(p, 6, hi) && ip_in_hex(p, 8, lo)) {
                t[k++] = (char)(((hi % 32 + 9 * (hi > '9')) & 15) * 16 + ((lo % 32 + 9 * (lo > '9')) & 15));
            } else {
                return -1;
            }
        } else {
            t[k++] = (char)c;
        }
        i++;
    }
    if (k >= 3 && t[0] == 'H' && t[1] == 'i' && t[2] == '!')
        p->error = true;
    return k;
}

/* The CFG of ip_triangle: blocks 0-2 the first if, 4-6 the second, 8-9 the
 * equilateral test, 10/12/14 the isosceles test; 3, 7, 11, 13, 15 return. */
static inline void ip_triangle_db(progdb *db)
{
    fx_block bl[] = {FX_B(3, 1),  FX_B(3, 2),  FX_B(3, 4),  FX_R,        FX_B(7, 5), FX_B(7, 6),
                     FX_B(7, 8),  FX_R,        FX_B(9, 10), FX_B(11, 10), FX_B(13, 12), FX_R,
                     FX_B(13, 14), FX_R,       FX_B(13, 15), FX_R};
    fx_add_func(db, "triangle", bl, 16);
}

/* The CFG of ip_cgi: 1 loop test, 2 '+', 4 '%', 5/6 hex tests, 10 invalid,
 * 8 latch, 9 the tail whose 'Hi!' test holds the error site (block 12). */
static inline void ip_cgi_db(progdb *db)
{
    fx_block bl[] = {FX_J(1), FX_B(2, 9), FX_B(3, 4), FX_J(8), FX_B(5, 7), FX_B(6, 10),
                     FX_B(11, 10), FX_J(8), FX_J(1), FX_J(12), FX_R, FX_J(8), FX_R};
    uint32_t f = fx_add_func(db, "cgi_decode", bl, 13);
    fx_add_error(db, f, 12);
}

static inline void ip_init(ip_prog *p, int kind, uint64_t budget, uint64_t seed)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    p->budget = budget;
    rng_seed(&p->ext, seed ^ 0x5eed);
    if (kind == IP_TRIANGLE)
        ip_triangle_db(&p->db);
    else
        ip_cgi_db(&p->db);
}

static inline void ip_release(ip_prog *p) { fx_release(&p->db); }

/* sbst_env.run */
static inline bool ip_run(void *ud, const uint8_t *in, size_t len, sbst_obs *o)
{
    ip_prog *p = ud;
    if (p->runs >= p->budget)
        return false;
    p->runs++;
    memset(p->cov, 0, sizeof p->cov);
    memset(p->dist, 0, sizeof p->dist);
    memset(p->cmp, 0, sizeof p->cmp);
    if (len > 1024)
        len = 1024;
    memcpy(p->in, in, len);
    p->len = len;
    p->pos = p->nv = 0;
    p->error = false;
    p->ret = p->kind == IP_TRIANGLE ? ip_triangle(p) : ip_cgi(p);
    *o = (sbst_obs){p->cov,  p->dist, p->error, 0,    false, p->in,
                    p->len,  p->vals, p->nv,    NULL, 0};
    if (!p->no_cmplog) {
        o->cmp = p->cmp;
        o->n_cmp = 16;
    }
    return true;
}

static inline double ip_progress(void *ud)
{
    ip_prog *p = ud;
    return (double)p->runs / (double)p->budget;
}

static inline sbst_env ip_env(ip_prog *p, uint64_t seed)
{
    return (sbst_env){p, ip_run, ip_progress, &p->db, seed, NULL};
}

#endif
