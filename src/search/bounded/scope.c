/*
 * scope.c - small-scope enumeration (see scope.h): per-type value domains
 * with their --domain spec parser, and the lazily generated tree of value
 * prefixes explored in order of total size.
 */
#include "scope.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/ctype.h"
#include "../../base/mem.h"

/* ==== types ==================================================================== */

size_t scope_type_size(enum ctg_type t, int arch_bits) { return ctg_type_size(t, arch_bits); }

static bool is_signed_type(enum ctg_type t) { return ctg_type_is_signed(t); }

static bool is_float_type(enum ctg_type t) { return ctg_type_is_float(t); }

#define SIGNED_SET (1u << CTG_T_SHORT | 1u << CTG_T_INT | 1u << CTG_T_LONG | 1u << CTG_T_LONGLONG)
#define UNSIGNED_SET                                                                              \
    (1u << CTG_T_USHORT | 1u << CTG_T_UINT | 1u << CTG_T_ULONG | 1u << CTG_T_ULONGLONG |          \
     1u << CTG_T_SIZE_T)
#define CHAR_SET (1u << CTG_T_CHAR | 1u << CTG_T_UCHAR)
#define FLOAT_SET (1u << CTG_T_FLOAT | 1u << CTG_T_DOUBLE)

/* Set of types named by s (n bytes); 0 when unknown. */
static uint32_t types_named(const char *s, size_t n)
{
    static const struct {
        const char *name;
        uint32_t types;
    } groups[] = {{"signed", SIGNED_SET},  {"unsigned", UNSIGNED_SET},
                  {"integers", SIGNED_SET | UNSIGNED_SET}, {"chars", CHAR_SET},
                  {"floats", FLOAT_SET}};
    for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
        if (strlen(groups[i].name) == n && !strncmp(groups[i].name, s, n))
            return groups[i].types;
    char name[32]; /* one type: its names are base/ctype.h's */
    enum ctg_type t;
    if (n >= sizeof name)
        return 0;
    memcpy(name, s, n);
    name[n] = 0;
    return ctg_type_from_name(name, &t) ? 1u << t : 0;
}

/* ==== domains ==================================================================== */

/* A parsed value of a spec: an integer or a floating-point number. */
typedef struct dval {
    bool is_float;
    int64_t i;
    double f;
} dval;

typedef struct dlist {
    dval *v;
    size_t n, cap;
} dlist;

static bool dl_push(dlist *l, dval v)
{
    if (ctg_grow((void **)&l->v, &l->cap, l->n + 1, sizeof *l->v) < 0)
        return false;
    l->v[l->n++] = v;
    return true;
}

/* Raw bits of v as type t; false when t cannot hold it. */
static bool dval_raw(dval v, enum ctg_type t, int arch, uint64_t *raw)
{
    size_t sz = scope_type_size(t, arch);
    if (is_float_type(t)) {
        double d = v.is_float ? v.f : (double)v.i;
        if (t == CTG_T_FLOAT) {
            float f = (float)d;
            uint32_t b;
            memcpy(&b, &f, 4);
            *raw = b;
        } else {
            memcpy(raw, &d, 8);
        }
        return true;
    }
    if (v.is_float)
        return false;
    if (t == CTG_T_BOOL && (v.i < 0 || v.i > 1))
        return false;
    if (is_signed_type(t) && sz < 8) {
        int64_t lim = (int64_t)1 << (8 * sz - 1);
        if (v.i < -lim || v.i >= lim)
            return false;
    } else if (!is_signed_type(t)) {
        if (v.i < 0 || (sz < 8 && (uint64_t)v.i >= (uint64_t)1 << (8 * sz)))
            return false;
    }
    *raw = sz < 8 ? (uint64_t)v.i & (((uint64_t)1 << (8 * sz)) - 1) : (uint64_t)v.i;
    return true;
}

/* Builds the domain of t from the values (duplicates dropped, 0 first). */
static bool dom_build(scope_dom *d, const dlist *l, enum ctg_type t, int arch)
{
    uint64_t *vals = ctg_malloc((l->n ? l->n : 1) * sizeof *vals);
    size_t n = 0;
    if (!vals)
        return false;
    for (size_t i = 0; i < l->n; i++) {
        uint64_t raw;
        if (!dval_raw(l->v[i], t, arch, &raw))
            continue;
        bool dup = false;
        for (size_t j = 0; j < n && !dup; j++)
            dup = vals[j] == raw;
        if (!dup)
            vals[n++] = raw;
    }
    for (size_t i = 0; i < n; i++)
        if (vals[i] == 0) {
            memmove(vals + 1, vals, i * sizeof *vals);
            vals[0] = 0;
            break;
        }
    ctg_free(d->vals);
    d->vals = vals;
    d->n = n;
    d->zero_first = n && vals[0] == 0;
    return true;
}

/* Parses a character literal 'c' / '\n' / '\xHH' at *p. */
static bool parse_char(const char **p, int64_t *out)
{
    const char *s = *p;
    if (s[0] != '\'')
        return false;
    int c;
    if (s[1] == '\\') {
        static const char from[] = "ntr0\\'\"", to[] = "\n\t\r\0\\'\"";
        const char *q = s[2] ? strchr(from, s[2]) : NULL;
        if (q) {
            c = (unsigned char)to[q - from];
            s += 3;
        } else if (s[2] == 'x' && isxdigit((unsigned char)s[3]) && isxdigit((unsigned char)s[4])) {
            char hex[3] = {s[3], s[4], 0};
            c = (int)strtol(hex, NULL, 16);
            s += 5;
        } else {
            return false;
        }
    } else if (s[1] && s[1] != '\'') {
        c = (unsigned char)s[1];
        s += 2;
    } else {
        return false;
    }
    if (*s != '\'')
        return false;
    *p = s + 1;
    *out = c;
    return true;
}

/* Parses one number or character of a spec item. */
static bool parse_scalar(const char **p, dval *v)
{
    const char *s = *p;
    memset(v, 0, sizeof *v);
    if (*s == '\'')
        return parse_char(p, &v->i);
    char *end;
    errno = 0;
    long long i = strtoll(s, &end, 0);
    bool fraction = (end[0] == '.' && end[1] != '.') || end[0] == 'e' || end[0] == 'E';
    if (end != s && errno == 0 && !fraction) {
        v->i = i;
        *p = end;
        return true;
    }
    double d = strtod(s, &end);
    if (end == s || (end[-1] == '.' && end[0] == '.')) /* "1.." is a range */
        return false;
    v->is_float = true;
    v->f = d;
    *p = end;
    return true;
}

/* Appends lo..hi in magnitude order 0, 1, -1, 2, -2, ... */
static bool push_range(dlist *l, int64_t lo, int64_t hi)
{
    int64_t mlo = lo > 0 ? lo : hi < 0 ? -hi : 0;
    int64_t mhi = -lo > hi ? -lo : hi;
    for (int64_t m = mlo; m <= mhi; m++) {
        if (m >= lo && m <= hi && !dl_push(l, (dval){false, m, 0}))
            return false;
        if (m && -m >= lo && -m <= hi && !dl_push(l, (dval){false, -m, 0}))
            return false;
    }
    return true;
}

/* Parses "v, lo..hi, 'c', ..." into l; ranges in magnitude order, or
 * ascending when !magnitude.  spec names the option in messages. */
static bool parse_values(const char *spec, const char *s, dlist *l, bool magnitude, ctg_err *e)
{
    for (;;) {
        while (*s == ' ')
            s++;
        dval a, b;
        const char *at = s;
        if (!parse_scalar(&s, &a))
            return err_set(e, "%s: expected a number, a range lo..hi or a character 'c' at \"%s\"",
                           spec, at);
        if (s[0] == '.' && s[1] == '.') {
            s += 2;
            if (!parse_scalar(&s, &b) || a.is_float || b.is_float || b.i < a.i)
                return err_set(e, "%s: a range is lo..hi with integers lo <= hi", spec);
            if ((uint64_t)b.i - (uint64_t)a.i >= 65536) /* no signed overflow */
                return err_set(e, "%s: range too large for exhaustive enumeration "
                                  "(at most 65536 values)", spec);
            bool ok = true;
            if (magnitude)
                ok = push_range(l, a.i, b.i);
            for (int64_t v = a.i; !magnitude && ok && v <= b.i; v++)
                ok = dl_push(l, (dval){false, v, 0});
            if (!ok)
                return err_set(e, "%s: out of memory", spec);
        } else if (!dl_push(l, a)) {
            return err_set(e, "%s: out of memory", spec);
        }
        while (*s == ' ' || *s == '\t')
            s++;
        if (*s == '\0')
            return true;
        if (*s != ',')
            return err_set(e, "%s: expected ',' between values at \"%s\"", spec, s);
        s++;
    }
}

bool scope_dom_parse(scope_domains *d, const char *spec, ctg_err *e)
{
    const char *eq = strchr(spec, '=');
    uint32_t types = SIGNED_SET | UNSIGNED_SET;
    const char *vals = spec;
    if (eq) {
        types = types_named(spec, (size_t)(eq - spec));
        if (!types)
            return err_set(e, "--domain %s: unknown type '%.*s' (use int, uint, char, long, "
                              "size_t, ... or signed, unsigned, integers, chars, floats)",
                           spec, (int)(eq - spec), spec);
        vals = eq + 1;
    }
    dlist l = {0};
    char where[128];
    snprintf(where, sizeof where, "--domain %s", spec);
    bool ok = parse_values(where, vals, &l, true, e);
    for (int t = 0; ok && t < CTG_T__COUNT; t++) {
        if (!(types & (1u << t)))
            continue;
        scope_dom nd = {0};
        if (!dom_build(&nd, &l, (enum ctg_type)t, d->arch_bits)) {
            ok = err_set(e, "--domain: out of memory");
        } else if (nd.n == 0) {
            ctg_free(nd.vals);
            if (eq) /* a named type must get values */
                ok = err_set(e, "--domain %s: no value fits the type", spec);
        } else {
            ctg_free(d->d[t].vals);
            d->d[t] = nd;
        }
    }
    ctg_free(l.v);
    return ok;
}

bool scope_parse_ints(const char *where, const char *text, int64_t **vals, size_t *n, ctg_err *e)
{
    dlist l = {0};
    *vals = NULL;
    *n = 0;
    if (!parse_values(where, text, &l, false, e)) {
        ctg_free(l.v);
        return false;
    }
    int64_t *v = ctg_malloc((l.n ? l.n : 1) * sizeof *v);
    for (size_t i = 0; v && i < l.n; i++) {
        if (l.v[i].is_float) { /* the message before the list is freed */
            err_set(e, "%s: %g is not an integer", where, l.v[i].f);
            ctg_free(v), ctg_free(l.v);
            return false;
        }
        v[i] = l.v[i].i;
    }
    ctg_free(l.v);
    if (!v)
        return err_set(e, "%s: out of memory", where);
    *vals = v;
    *n = l.n;
    return true;
}

bool scope_dom_defaults(scope_domains *d, int arch_bits)
{
    memset(d, 0, sizeof *d);
    d->arch_bits = arch_bits;
    static const char *const specs[] = {
        "signed=-3..3", "unsigned=0..6", "chars=0,'a','0',' ','\\n','+','%'",
        "bool=0,1",     "floats=0,1,-1,0.5,2", "pointer=0",
    };
    ctg_err e = {{0}};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++)
        if (!scope_dom_parse(d, specs[i], &e))
            return false;
    return true;
}

void scope_dom_release(scope_domains *d)
{
    for (int t = 0; t < CTG_T__COUNT; t++) {
        ctg_free(d->d[t].vals);
        d->d[t].vals = NULL;
        d->d[t].n = 0;
    }
}

void scope_dom_encode(const scope_domains *d, enum ctg_type t, uint32_t idx, uint8_t *out)
{
    uint64_t raw = d->d[t].vals[idx];
    size_t sz = scope_type_size(t, d->arch_bits);
    for (size_t i = 0; i < sz; i++)
        out[i] = (uint8_t)(raw >> (8 * i));
}

void scope_dom_describe(const scope_domains *d, enum ctg_type t, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < d->d[t].n && len + 32 < cap; i++) {
        uint64_t raw = d->d[t].vals[i];
        size_t sz = scope_type_size(t, d->arch_bits);
        const char *sep = i ? "," : "";
        if (t == CTG_T_FLOAT) {
            float f;
            uint32_t b = (uint32_t)raw;
            memcpy(&f, &b, 4);
            len += (size_t)snprintf(out + len, cap - len, "%s%g", sep, f);
        } else if (t == CTG_T_DOUBLE) {
            double f;
            memcpy(&f, &raw, 8);
            len += (size_t)snprintf(out + len, cap - len, "%s%g", sep, f);
        } else if (is_signed_type(t) && sz < 8 && (raw >> (8 * sz - 1)) & 1) {
            len += (size_t)snprintf(out + len, cap - len, "%s%lld", sep,
                                    (long long)(raw | ~(((uint64_t)1 << (8 * sz)) - 1)));
        } else if (is_signed_type(t)) {
            len += (size_t)snprintf(out + len, cap - len, "%s%lld", sep, (long long)raw);
        } else {
            len += (size_t)snprintf(out + len, cap - len, "%s%llu", sep, (unsigned long long)raw);
        }
    }
}

/* ==== the tree of prefixes ========================================================= */

#define NONE UINT32_MAX

/* One executed prefix. */
typedef struct snode {
    uint32_t parent; /* NONE for the root (the empty prefix)            */
    uint32_t pos;    /* position of its own value (k - 1)               */
    uint32_t idx;    /* domain index of that value                      */
    uint32_t k, m;   /* prefix length; values the run consumed          */
    uint32_t j;      /* first position >= k whose zero is out of domain (or m) */
    uint32_t maxr;   /* largest rank of a child                         */
    size_t tail;     /* types of positions k..m-1 in s->types           */
    uint64_t size;   /* sum of ranks                                    */
} snode;

/* A generator: the next child (rank, pos) of a node. */
typedef struct sgen {
    uint64_t size; /* size of that child */
    uint32_t node, rank, pos;
} sgen;

struct scope {
    scope_domains d;
    size_t max_values;
    snode *nodes;
    size_t n_nodes, cap_nodes;
    uint16_t *types;
    size_t n_types, cap_types;
    sgen *heap;
    size_t heap_n, heap_cap;
    scope_val *prefix;    /* the prefix handed out */
    sgen cur;             /* which child it is (node NONE: the root) */
    bool started, waiting, failed;
    scope_stats st;
};

scope *scope_new(const scope_domains *d, size_t max_values, ctg_err *e)
{
    scope *s = ctg_calloc(1, sizeof *s);
    if (!s || !(s->prefix = ctg_calloc(max_values + 1, sizeof *s->prefix))) {
        ctg_free(s);
        err_set(e, "small scope: out of memory");
        return NULL;
    }
    s->d.arch_bits = d->arch_bits;
    for (int t = 0; t < CTG_T__COUNT; t++) {
        s->d.d[t] = d->d[t];
        s->d.d[t].vals = NULL;
        if (d->d[t].n && !(s->d.d[t].vals = ctg_malloc(d->d[t].n * sizeof(uint64_t)))) {
            scope_free(s);
            err_set(e, "small scope: out of memory");
            return NULL;
        }
        if (d->d[t].n)
            memcpy(s->d.d[t].vals, d->d[t].vals, d->d[t].n * sizeof(uint64_t));
    }
    s->max_values = max_values;
    return s;
}

void scope_free(scope *s)
{
    if (!s)
        return;
    scope_dom_release(&s->d);
    ctg_free(s->nodes);
    ctg_free(s->types);
    ctg_free(s->heap);
    ctg_free(s->prefix);
    ctg_free(s);
}

bool scope_failed(const scope *s) { return s->failed; }

const scope_stats *scope_get_stats(const scope *s) { return &s->st; }

static uint16_t type_at(const scope *s, const snode *x, uint32_t p)
{
    return s->types[x->tail + (p - x->k)];
}

/* Domain index of rank r at position p of node x, or -1 when the domain has
 * no value of that rank.  Below j the zero is rank 0 and is not a child. */
static long idx_of_rank(const scope *s, const snode *x, uint32_t p, uint32_t r)
{
    size_t n = s->d.d[type_at(s, x, p)].n;
    long idx = p < x->j ? (long)r : (long)r - 1;
    return r >= 1 && (size_t)idx < n ? idx : -1;
}

/* Last position of x with children, or -1. */
static long last_pos(const snode *x)
{
    return x->m == x->k ? -1 : x->j < x->m ? (long)x->j : (long)x->m - 1;
}

static bool gen_less(const sgen *a, const sgen *b)
{
    if (a->size != b->size)
        return a->size < b->size;
    if (a->node != b->node)
        return a->node < b->node;
    return a->pos < b->pos;
}

static bool heap_push(scope *s, sgen g)
{
    if (ctg_grow((void **)&s->heap, &s->heap_cap, s->heap_n + 1, sizeof *s->heap) < 0)
        return !(s->failed = true);
    size_t i = s->heap_n++;
    while (i > 0 && gen_less(&g, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = g;
    return true;
}

static sgen heap_pop(scope *s)
{
    sgen top = s->heap[0], last = s->heap[--s->heap_n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->heap_n)
            break;
        if (c + 1 < s->heap_n && gen_less(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!gen_less(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (s->heap_n)
        s->heap[i] = last;
    return top;
}

/* Moves g to the child after (g.rank, g.pos) in (rank, position) order and
 * queues it; drops it when the node has no more children. */
static void gen_advance(scope *s, sgen g, bool include_current)
{
    const snode *x = &s->nodes[g.node];
    long last = last_pos(x);
    uint32_t r = g.rank, p = include_current ? g.pos : g.pos + 1;
    for (; r <= x->maxr; r++, p = x->k) {
        for (; (long)p <= last; p++) {
            if (idx_of_rank(s, x, p, r) >= 0) {
                heap_push(s, (sgen){x->size + r, g.node, r, p});
                return;
            }
        }
    }
}

/* Writes the prefix of child (node x, position pos, index idx) to s->prefix. */
static size_t build_prefix(scope *s, uint32_t node, uint32_t pos, uint32_t idx)
{
    const snode *x = &s->nodes[node];
    s->prefix[pos] = (scope_val){type_at(s, x, pos), idx};
    for (uint32_t p = x->k; p < pos; p++)
        s->prefix[p] = (scope_val){type_at(s, x, p), 0};
    while (x->parent != NONE) {
        const snode *par = &s->nodes[x->parent];
        s->prefix[x->pos] = (scope_val){type_at(s, par, x->pos), x->idx};
        for (uint32_t p = par->k; p < x->pos; p++)
            s->prefix[p] = (scope_val){type_at(s, par, p), 0};
        x = par;
    }
    return pos + 1;
}

bool scope_next(scope *s, const scope_val **prefix, size_t *k)
{
    if (s->failed)
        return false;
    *prefix = s->prefix;
    if (!s->started) {
        s->started = s->waiting = true;
        s->cur = (sgen){0, NONE, 0, 0};
        *k = 0;
        return true;
    }
    if (s->heap_n == 0)
        return false;
    sgen g = heap_pop(s);
    s->cur = g;
    const snode *x = &s->nodes[g.node];
    uint32_t idx = (uint32_t)idx_of_rank(s, x, g.pos, g.rank);
    *k = build_prefix(s, g.node, g.pos, idx);
    s->cur.rank = g.rank;
    s->waiting = true;
    s->st.max_size = g.size;
    gen_advance(s, g, false);
    return !s->failed;
}

/* Appends node for the reported run; returns its index or NONE on oom. */
static uint32_t add_node(scope *s, const uint16_t *types, uint32_t k, uint32_t m)
{
    if (ctg_grow((void **)&s->nodes, &s->cap_nodes, s->n_nodes + 1, sizeof *s->nodes) < 0 ||
        ctg_grow((void **)&s->types, &s->cap_types, s->n_types + (m - k) + 1, sizeof *s->types) < 0) {
        s->failed = true;
        return NONE;
    }
    snode *x = &s->nodes[s->n_nodes];
    memset(x, 0, sizeof *x);
    x->k = k;
    x->m = m;
    x->j = m;
    x->tail = s->n_types;
    if (m > k)
        memcpy(s->types + s->n_types, types + k, (m - k) * sizeof *types);
    s->n_types += m - k;
    for (uint32_t p = k; p < m; p++) {
        const scope_dom *dm = &s->d.d[types[p]];
        if (!dm->zero_first && x->j == m)
            x->j = p;
        uint32_t top = (uint32_t)dm->n - (dm->zero_first ? 1 : 0);
        if (p <= x->j && top > x->maxr)
            x->maxr = top;
    }
    return (uint32_t)s->n_nodes++;
}

bool scope_report(scope *s, const uint16_t *types, size_t m, bool truncated)
{
    if (!s->waiting || s->failed)
        return false;
    s->waiting = false;
    bool root = s->cur.node == NONE;
    uint32_t k = root ? 0 : s->cur.pos + 1;
    if (m > s->max_values) {
        m = s->max_values;
        truncated = true;
    }
    size_t valid = 0; /* stop at a type the domains do not know */
    while (valid < m && types[valid] < CTG_T__COUNT && s->d.d[types[valid]].n)
        valid++;
    bool diverged = valid < k;
    for (uint32_t p = 0; p < k && !diverged; p++)
        diverged = types[p] != s->prefix[p].type;
    s->st.runs++;
    s->st.values += m;
    s->st.truncated += truncated;
    s->st.diverged += diverged;
    if (m > s->st.max_depth)
        s->st.max_depth = m;
    uint32_t mm = diverged ? k : (uint32_t)valid;
    uint32_t id = add_node(s, diverged ? NULL : types, k, diverged ? k : mm);
    if (id == NONE)
        return false;
    snode *x = &s->nodes[id];
    if (!root) {
        x->parent = s->cur.node;
        x->pos = s->cur.pos;
        x->idx = (uint32_t)idx_of_rank(s, &s->nodes[s->cur.node], s->cur.pos, s->cur.rank);
        x->size = s->nodes[s->cur.node].size + s->cur.rank;
    } else {
        x->parent = NONE;
    }
    if (last_pos(x) >= (long)x->k)
        gen_advance(s, (sgen){0, id, 1, x->k}, true);
    s->st.pending = s->heap_n;
    return !s->failed;
}

long scope_explore(scope *s, scope_run_fn run, void *user, uint64_t max_runs)
{
    uint16_t *types = ctg_malloc((s->max_values + 1) * sizeof *types);
    const scope_val *prefix;
    size_t k;
    long n = 0;
    if (!types) {
        s->failed = true;
        return -1;
    }
    while ((!max_runs || (uint64_t)n < max_runs) && scope_next(s, &prefix, &k)) {
        bool truncated = false;
        size_t m = run(user, prefix, k, types, s->max_values, &truncated);
        if (!scope_report(s, types, m, truncated))
            break;
        n++;
    }
    ctg_free(types);
    return s->failed ? -1 : n;
}
