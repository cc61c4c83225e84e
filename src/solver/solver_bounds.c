/*
 * solver_bounds.c - bound subsumption, the layer between slicing and the
 * caches: of the constraints that bound one term t by constants, only the
 * (at most two) that make the tightest bound go to the back end.
 *
 * A loop whose exit test reads a variable the input sets (`while (x < 100
 * && 100 < z) { ... z--; }`) leaves one constraint per iteration on the
 * path, `100 <s z0 + c_i` for c_i = 0, -1, -2, ...: thousands of bounds of
 * one term.  Each implies the ones before it, and Z3 takes time quadratic
 * in their number to internalise them (4,000 such bounds: 40 s, 3,000:
 * 7 s with the z3 4.8.12 command line, any logic or tactic that
 * bit-blasts); a concolic search that negates a late branch of such a path
 * asks exactly that.  SAGE drops a constraint implied by a later one of the
 * same branch (constraint subsumption, checked syntactically); this layer
 * does the same by value, across branches.
 *
 * A constraint cmp(t + k, K) or cmp(K, t + k) of width w <= 64 (cmp one of
 * == != <u <=u <s <=s, k and K constants, k = 0 when there is no addition)
 * holds for t in one arc of the circle Z/2^w: values start, start+1, ...,
 * start+len-1 modulo 2^w.  Let p be t's value in the base run: every
 * non-focus constraint holds there (the path it describes), so p lies in
 * its arc, at offset a from the arc's start and b before its end.  With i
 * the constraint of least b and j the one of least a, i and j together
 * allow exactly the values p - min a .. p + min b when a_i + b_j < 2^w
 * (else they also allow a second arc, on the far side of the circle), and
 * every other constraint of the group allows all of them: it is implied by
 * i and j and is dropped.  When i and j would allow a second arc, a third
 * constraint that excludes all of it keeps the rest implied; without one,
 * only the constraints whose arc holds another's (no smaller a, no
 * smaller b) go.
 *
 * A loop that adds the input to an accumulator (`x = x + y; y++` while
 * x < 0) leaves bounds of multiples of the term instead, m_i * y + c_i <s 0
 * (the expression builder keeps such sums as one multiple), one per
 * iteration: thousands of constant products, each bit-blasted (1,536 of
 * them: 1.7-4.4 s in Z3).  When the plain bounds of t (m = 1) leave one
 * arc, t in p - A .. p + B, a bound of m * t + c on it is one arc of t too
 * when m * t does not wrap onto the bound's arc again over that range:
 * t in p - alpha .. p + beta, with alpha and beta from the bound's offsets
 * a and b around m * p divided by |m|.  Of those only the least alpha and
 * the least beta stay (and only where tighter than A and B).  Without
 * such an arc the bounds of each multiple are grouped as bounds of one
 * term, as above.
 * The query keeps its answer and its solutions.
 */
#include "solver_int.h"

#include <stdlib.h>

#include "../base/mem.h"

/* The values of m * t that satisfy a constraint: len values from start. */
typedef struct barc {
    expr *t;
    expr_u128 m; /* 1 for a bound of t itself */
    expr_u128 start, len;
    size_t at; /* index in the query */
    bool focus; /* from the focus constraint: kept; does not hold at p */
    expr_u128 a, b;
} barc;

/* The arc of values of y (width w) with cmp(y, K) (y_left) or cmp(K, y),
 * in start/len; false when every or no value does. */
static bool cmp_arc(expr_op op, bool y_left, expr_u128 k, unsigned w, expr_u128 *start,
                    expr_u128 *len)
{
    expr_u128 mask = expr_mask(w), m = mask + 1, bias = 0;
    if (op == EXPR_SLT || op == EXPR_SLE) { /* y <s K  iff  y + 2^(w-1) <u K + 2^(w-1) */
        bias = (expr_u128)1 << (w - 1);
        k = (k + bias) & mask;
        op = op == EXPR_SLT ? EXPR_ULT : EXPR_ULE;
    }
    switch (op) {
    case EXPR_EQ: *start = k, *len = 1; break;
    case EXPR_NE: *start = (k + 1) & mask, *len = mask; break;
    case EXPR_ULT: *start = y_left ? 0 : (k + 1) & mask, *len = y_left ? k : mask - k; break;
    case EXPR_ULE: *start = y_left ? 0 : k, *len = y_left ? k + 1 : m - k; break;
    default: return false;
    }
    *start = (*start - bias) & mask;
    return *len > 0 && *len < m;
}

/* e as a bound of a term: true and *arc filled when e is one. */
static bool as_arc(const expr *e, barc *arc)
{
    bool negated = e->width == 1 && e->op == EXPR_NOT; /* x != K is not(x == K) */
    if (negated)
        e = e->args[0];
    if (e->width != 1 || e->op < EXPR_EQ || e->op > EXPR_SLE)
        return false;
    expr *x = e->args[0], *y = e->args[1];
    bool y_left = !expr_is_const(x);
    expr *s = y_left ? x : y, *kc = y_left ? y : x;
    unsigned w = s->width;
    if (!expr_is_const(kc) || expr_is_const(s) || w > 64 || (s->flags & EXPR_F_INEXACT) ||
        (s->flags & (EXPR_F_FP | EXPR_F_ARRAY)))
        return false;
    expr_u128 start, len, mask = expr_mask(w), add = 0;
    if (!cmp_arc((expr_op)e->op, y_left, kc->val, w, &start, &len))
        return false;
    if (negated) { /* the rest of the circle */
        start = (start + len) & mask;
        len = mask + 1 - len;
    }
    if (s->op == EXPR_ADD && expr_is_const(s->args[1])) { /* t + add in the arc */
        add = s->args[1]->val;
        s = s->args[0];
    }
    arc->m = 1;
    if (s->op == EXPR_MUL && expr_is_const(s->args[1])) {
        arc->m = s->args[1]->val;
        s = s->args[0];
    } else if (s->op == EXPR_NEG) {
        arc->m = mask;
        s = s->args[0];
    }
    arc->t = s;
    arc->start = (start - add) & mask;
    arc->len = len;
    return true;
}

static int by_term(const void *x, const void *y)
{
    const barc *a = x, *b = y;
    if (a->t != b->t)
        return a->t->id < b->t->id ? -1 : 1;
    if (a->m != b->m) /* the plain bounds (m = 1) first */
        return a->m == 1 ? -1 : b->m == 1 ? 1 : a->m < b->m ? -1 : 1;
    return (a->at > b->at) - (a->at < b->at);
}

static int by_a_then_b(const void *x, const void *y)
{
    const barc *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    if (p->b != q->b)
        return p->b < q->b ? -1 : 1;
    return (p->at > q->at) - (p->at < q->at);
}

/* Marks in drop[] the members of g[0..n) (sorted by a, then b) whose b
 * is no smaller than the least b before them: that member's arc lies in
 * theirs.  Returns how many. */
static size_t drop_dominated(barc *g, size_t n, bool *drop)
{
    size_t dropped = 0;
    expr_u128 least_b = g[0].b;
    for (size_t i = 1; i < n; i++) {
        if (g[i].b >= least_b) {
            drop[g[i].at] = true;
            dropped++;
        } else {
            least_b = g[i].b;
        }
    }
    return dropped;
}

/* The arc that the kept bounds of a group allow, p - a .. p + b. */
typedef struct span {
    bool one; /* they allow that arc and nothing else */
    expr_u128 a, b;
} span;

/* Marks in drop[] the members of the group g[0..n) (bounds of one term,
 * valued p) that the others imply; returns how many; *sp: the arc the
 * group allows, when one.  The tightest pair (least a, least b) implies
 * all others when it allows one arc, or with a third member that excludes
 * the pair's second arc (n <=s 46340 and 0 <=s n - k also allow n in
 * [INT_MIN, INT_MIN + k), which 0 <=s n excludes); else a member goes
 * when one other member's arc lies in its own. */
static size_t plain_drop(barc *g, size_t n, expr_u128 p, bool *drop, span *sp)
{
    expr_u128 mask = expr_mask(g->t->width);
    size_t in = 0; /* members whose arc holds p, moved to the front */
    sp->one = false;
    for (size_t i = 0; i < n; i++) {
        expr_u128 d = (p - g[i].start) & mask;
        if (d >= g[i].len)
            continue; /* does not hold in the base run: kept as it is */
        barc tmp = g[in];
        g[in] = g[i];
        g[i] = tmp;
        g[in].a = d;
        g[in].b = g[in].len - 1 - d;
        in++;
    }
    if (in < 2) {
        *sp = (span){in == 1, in ? g[0].a : 0, in ? g[0].b : 0};
        return 0;
    }
    qsort(g, in, sizeof *g, by_a_then_b);
    size_t lo = 0, hi = 0; /* least a (then b), least b (then a) */
    for (size_t i = 1; i < in; i++)
        if (g[i].b < g[hi].b || (g[i].b == g[hi].b && g[i].a < g[hi].a))
            hi = i;
    size_t third = lo; /* a member that excludes the pair's second arc */
    if (g[hi].a + g[lo].b > mask) {
        third = in;
        for (size_t i = 0; i < in && third == in; i++)
            if (g[i].b + g[hi].a <= mask && g[i].a + g[lo].b <= mask)
                third = i;
        if (third == in)
            return drop_dominated(g, in, drop);
    }
    *sp = (span){true, g[lo].a, g[hi].b};
    size_t dropped = 0;
    for (size_t i = 0; i < in; i++)
        if (i != lo && i != hi && i != third) {
            drop[g[i].at] = true;
            dropped++;
        }
    return dropped;
}

/* For a bound of m * t + c in g (arc of m * t) and t in p - sp.a .. p +
 * sp.b: the values of t it allows there as an arc p - g->a .. p + g->b
 * (capped at sp's); false when m * t wraps onto the bound's arc again
 * over that range, or the bound does not hold at p. */
static bool linear_arc(barc *g, expr_u128 p, const span *sp)
{
    expr_u128 mask = expr_mask(g->t->width);
    bool neg = g->m >> (g->t->width - 1);
    expr_u128 mm = neg ? (mask + 1 - g->m) : g->m; /* |m| */
    expr_u128 au = ((g->m * p) - g->start) & mask, bu;
    if (au >= g->len)
        return false;
    bu = g->len - 1 - au;
    /* m * d for d in -sp.a .. sp.b spans -lo .. hi around m * p */
    expr_u128 lo = mm * (neg ? sp->b : sp->a), hi = mm * (neg ? sp->a : sp->b);
    if (hi + au > mask || lo + bu > mask)
        return false;
    expr_u128 alpha = (neg ? bu : au) / mm, beta = (neg ? au : bu) / mm;
    g->a = alpha < sp->a ? alpha : sp->a;
    g->b = beta < sp->b ? beta : sp->b;
    return true;
}

/* The bounds of multiples of t in g[0..n) (each multiple together; t
 * valued p), each multiple's by the plain rule among its own: a bound of
 * m * t is a bound of one term there.  Returns how many were dropped. */
static size_t multiples_drop(barc *g, size_t n, expr_u128 p, bool *drop)
{
    if (!n)
        return 0;
    expr_u128 mask = expr_mask(g->t->width);
    size_t dropped = 0;
    span unused;
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && g[j].m == g[i].m;)
            j++;
        dropped += plain_drop(g + i, j - i, (g[i].m * p) & mask, drop, &unused);
    }
    return dropped;
}

/* The bounds of multiples of t in g[0..n) (each multiple together), t
 * confined to sp's arc: of those that linear_arc reads as an arc of t,
 * keeps the one of least a and the one of least b where tighter than sp
 * and drops the others; the rest go by plain_drop among the bounds of
 * their own multiple.  Returns how many were dropped. */
static size_t linear_drop(barc *g, size_t n, expr_u128 p, const span *sp, bool *drop)
{
    if (!n)
        return 0;
    size_t ia = n, ib = n, dropped = 0, nr = 0;
    barc *rest = ctg_malloc((n + 1) * sizeof *rest);
    bool *arc = ctg_calloc(n + 1, sizeof *arc);
    if (!rest || !arc)
        goto out;
    for (size_t i = 0; i < n; i++) {
        if (!(arc[i] = linear_arc(&g[i], p, sp))) {
            rest[nr++] = g[i];
            continue;
        }
        if (ia == n || g[i].a < g[ia].a)
            ia = i;
        if (ib == n || g[i].b < g[ib].b)
            ib = i;
    }
    for (size_t i = 0; i < n; i++) {
        bool keep = (i == ia && g[i].a < sp->a) || (i == ib && g[i].b < sp->b);
        if (arc[i] && !keep) {
            drop[g[i].at] = true;
            dropped++;
        }
    }
    dropped += multiples_drop(rest, nr, p, drop);
out:
    ctg_free(rest);
    ctg_free(arc);
    return dropped;
}

/* Marks in drop[] the members of g[0..n) (bounds of t and of multiples
 * of t, the plain ones first, each multiple together; t valued p) that
 * the others imply; returns how many. */
static size_t group_drop(barc *g, size_t n, expr_u128 p, bool *drop)
{
    size_t np = 0, dropped = 0;
    while (np < n && g[np].m == 1)
        np++;
    span sp = {false, 0, 0};
    if (np)
        dropped = plain_drop(g, np, p, drop, &sp);
    if (sp.one)
        return dropped + linear_drop(g + np, n - np, p, &sp, drop);
    return dropped + multiples_drop(g + np, n - np, p, drop);
}

/* The values of the groups' terms under base into vals (one per group
 * start in arcs[0..n), sorted by term).  False when out of memory. */
static bool term_values(expr_ctx *c, const barc *arcs, size_t n, const expr_env *base,
                        expr_u128 **vals)
{
    size_t ng = 0;
    expr **ts = ctg_malloc((n + 1) * sizeof *ts);
    if (!ts)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!i || arcs[i].t != arcs[i - 1].t)
            ts[ng++] = arcs[i].t;
    *vals = ctg_malloc((ng + 1) * sizeof **vals);
    bool ok = *vals && expr_eval(c, ts, ng, base, *vals);
    ctg_free(ts);
    return ok;
}

#define FOCUS_MAX 8 /* focus bounds of one term compared with the others */

/* Marks in drop[] the non-focus members of g[0..n) (one term) whose arc
 * holds a focus member's arc of the same multiple (x != j for every j
 * other than k, under the focus x == k), and moves the members left for
 * group_drop (not focus, not dropped) to the front, in order; returns how
 * many those are, and adds the number marked to *dropped. */
static size_t focus_drop(barc *g, size_t n, bool *drop, size_t *dropped)
{
    expr_u128 mask = expr_mask(g->t->width);
    barc f[FOCUS_MAX];
    size_t nf = 0, left = 0;
    for (size_t i = 0; i < n; i++)
        if (g[i].focus && nf < FOCUS_MAX)
            f[nf++] = g[i];
    for (size_t i = 0; i < n; i++) {
        if (g[i].focus)
            continue;
        bool implied = false;
        for (size_t k = 0; k < nf && !implied; k++)
            implied = f[k].m == g[i].m &&
                      ((f[k].start - g[i].start) & mask) + f[k].len <= g[i].len;
        if (implied) {
            drop[g[i].at] = true;
            ++*dropped;
        } else {
            g[left++] = g[i];
        }
    }
    return left;
}

/* ---- pinned bytes ---------------------------------------------------------- *
 *
 * A constraint in == K of one input byte pins it.  A wider equality is
 * built byte by byte (x == 600 for a 4-byte x is an and of four byte
 * equalities, which normalisation splits), so a negated entry x == k
 * pins all of x, and every constraint that reads only pinned bytes has
 * one value under the pins: true, it is implied (dropped); false, the
 * query has no solution.  recursive-simple/id2_b3_o5 (`id(x)` recurses
 * while x != 0) asks x != 0, ..., x != k-1 under x == k, 65,000
 * constraints of which only the pins are needed. */

#define PIN_WALK 64 /* nodes walked per constraint to find its bytes */

static bool is_pin(const expr *e)
{
    return e->op == EXPR_EQ && e->args[0]->op == EXPR_INPUT && expr_is_const(e->args[1]);
}

/* True when e reads input bytes only, each pinned[] (within PIN_WALK nodes,
 * counted with repeats; stack holds PIN_WALK * 3 + 1 entries). */
static bool all_pinned(const expr *e, const bool *pinned, size_t n_pinned, const expr **stack)
{
    size_t sn = 0, seen = 0;
    stack[sn++] = e;
    while (sn) {
        const expr *x = stack[--sn];
        if (++seen > PIN_WALK || x->op == EXPR_VAR || (x->flags & EXPR_F_ARRAY))
            return false;
        if (x->op == EXPR_INPUT && (x->aux >= n_pinned || !pinned[x->aux]))
            return false;
        for (unsigned k = 0; k < expr_nargs((expr_op)x->op); k++)
            stack[sn++] = x->args[k];
    }
    return true;
}

/* Marks in drop[] the non-focus constraints of q that the pins imply;
 * PREP_FALSE when the pins contradict one (or each other). */
static prep_result pin_drop(squery *q, expr_ctx *c, const expr_env *base, bool *drop,
                            size_t *dropped)
{
    size_t len = 0, n_cand = 0;
    for (size_t i = 0; i < q->n; i++)
        if (is_pin(q->cs[i]) && q->cs[i]->args[0]->aux >= len)
            len = q->cs[i]->args[0]->aux + 1;
    if (!len || len > (1u << 20))
        return PREP_OK;
    prep_result r = PREP_OOM;
    bool *pinned = ctg_calloc(len, sizeof *pinned);
    uint8_t *bytes = ctg_calloc(len, 1);
    const expr **stack = ctg_malloc((PIN_WALK * 3 + 1) * sizeof *stack);
    expr **cand = ctg_malloc(q->n * sizeof *cand);
    size_t *at = ctg_malloc(q->n * sizeof *at);
    expr_u128 *vals = ctg_malloc(q->n * sizeof *vals);
    if (!pinned || !bytes || !stack || !cand || !at || !vals)
        goto out;
    for (size_t i = 0; i < q->n; i++) {
        const expr *e = q->cs[i];
        if (!is_pin(e))
            continue;
        uint32_t b = e->args[0]->aux;
        uint8_t v = (uint8_t)e->args[1]->val;
        if (pinned[b] && bytes[b] != v) {
            r = PREP_FALSE;
            goto out;
        }
        pinned[b] = true;
        bytes[b] = v;
    }
    for (size_t i = 0; i < q->n; i++)
        if (!is_pin(q->cs[i]) && all_pinned(q->cs[i], pinned, len, stack)) {
            cand[n_cand] = q->cs[i];
            at[n_cand++] = i;
        }
    r = PREP_OK;
    if (!n_cand)
        goto out;
    /* bytes beyond the pins keep the base run's values; no candidate reads them */
    expr_env env = {bytes, len, base->named_ids, base->named_vals, base->n_named};
    if (!expr_eval(c, cand, n_cand, &env, vals)) {
        r = PREP_OOM;
        goto out;
    }
    for (size_t i = 0; i < n_cand; i++) {
        if (!vals[i]) {
            r = PREP_FALSE;
            goto out;
        }
        if (!q->focus[at[i]]) {
            drop[at[i]] = true;
            ++*dropped;
        }
    }
out:
    ctg_free(pinned);
    ctg_free(bytes);
    ctg_free(stack);
    ctg_free(cand);
    ctg_free(at);
    ctg_free(vals);
    return r;
}

prep_result squery_subsume(squery *q, expr_ctx *c, const expr_env *base, solver_stats *st)
{
    if (!base || q->n < 2)
        return PREP_OK;
    barc *arcs = ctg_malloc(q->n * sizeof *arcs);
    bool *drop = ctg_calloc(q->n, sizeof *drop);
    expr_u128 *vals = NULL;
    prep_result r = PREP_OOM;
    size_t n = 0;
    size_t dropped = 0;
    if (!arcs || !drop)
        goto out;
    if ((r = pin_drop(q, c, base, drop, &dropped)) != PREP_OK)
        goto out;
    for (size_t i = 0; i < q->n; i++)
        if (!drop[i] && as_arc(q->cs[i], &arcs[n])) {
            arcs[n].focus = q->focus[i];
            arcs[n++].at = i;
        }
    if (n >= 2) {
        qsort(arcs, n, sizeof *arcs, by_term);
        if (!term_values(c, arcs, n, base, &vals)) {
            r = PREP_OOM;
            goto out;
        }
        for (size_t i = 0, g = 0, j; i < n; i = j, g++) {
            for (j = i + 1; j < n && arcs[j].t == arcs[i].t;)
                j++;
            size_t left = focus_drop(arcs + i, j - i, drop, &dropped);
            if (left)
                dropped += group_drop(arcs + i, left, vals[g], drop);
        }
    }
    if (dropped) {
        size_t out = 0;
        for (size_t i = 0; i < q->n; i++)
            if (!drop[i]) {
                q->cs[out] = q->cs[i];
                q->focus[out++] = q->focus[i];
            }
        q->n = out;
        st->subsumed += dropped;
    }
out:
    ctg_free(arcs);
    ctg_free(drop);
    ctg_free(vals);
    return r;
}
