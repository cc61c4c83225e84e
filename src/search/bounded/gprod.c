/*
 * gprod.c - the grammar producer (seed 002, "Grammar Producer" and "Best
 * Priority"): a binary heap of sentential forms keyed by priority, a hash
 * seen-set owning every form ever queued, and the two expansion rules of
 * gprod.h (GPROD_SEED: the seed's string rewriting; GPROD_BEST: leftmost
 * expansion with the shortest-completion estimate).
 *
 * Forms are byte strings.  GPROD_SEED stores them as the seed does (text with
 * $NAME symbols).  GPROD_BEST encodes symbols so that any terminal byte is
 * allowed: a terminal byte b is itself unless b == 0xFF (then FF 00); a
 * nonterminal k is FF 01 k3 k2 k1 k0 (big endian).
 */
#include "gprod.h"

#include <string.h>

#include "../../base/hash.h"
#include "../../base/hmap.h"
#include "../../base/mem.h"
#include "../../base/sbuf.h"

/* One distinct form, owned by the seen-set. */
typedef struct form {
    uint64_t hash;
    size_t len;
    uint8_t b[];
} form;

typedef struct hent {
    uint64_t prio;
    uint32_t nnt; /* nonterminals in the form (0 in GPROD_SEED) */
    form *f;
} hent;

struct gprod {
    const grammar *g;
    gprod_opts o;
    /* seen-set: form hash -> form (several under one hash) */
    hmap set;
    /* priority queue */
    hent *heap;
    size_t heap_n, heap_cap;
    /* GPROD_SEED: $NAME of each nonterminal and rendered alternatives */
    char **seed_name;
    sbuf **seed_alts;
    /* GPROD_BEST: cost (terminal bytes + min_len of nts) and nts of each alt */
    uint64_t **alt_cost;
    uint32_t **alt_nnt;
    form *cur;      /* form handed out last (GPROD_SEED start form is owned here) */
    form *start;    /* GPROD_SEED start form (not in the seen-set, as in the seed) */
    sbuf out;       /* rendering of cur */
    gprod_filter filter;
    void *filter_user;
    bool failed;
    gprod_stats st;
};

/* ==== seen-set ================================================================ */

static uint64_t hash_bytes(const uint8_t *b, size_t n)
{
    uint64_t h = hash_fnv1a64(HASH_FNV64_INIT, b, n);
    return h ^ (h >> 29);
}

/* The form b[0..n) (hash h) when the seen-set holds it, else NULL. */
static form *set_find(const gprod *p, const uint8_t *b, size_t n, uint64_t h)
{
    size_t cur = 0;
    uint64_t v;
    while (hmap_next(&p->set, h, &cur, &v)) {
        form *f = (form *)(uintptr_t)v;
        if (f->len == n && memcmp(f->b, b, n) == 0)
            return f;
    }
    return NULL;
}

/* Adds the form b[0..n) unless present.  Returns the new form, or NULL when it
 * was present (*dup set) or memory ran out (p->failed set). */
static form *set_add(gprod *p, const uint8_t *b, size_t n, bool *dup)
{
    uint64_t h = hash_bytes(b, n);
    *dup = set_find(p, b, n, h) != NULL;
    if (*dup)
        return NULL;
    form *f = ctg_malloc(sizeof *f + n + 1);
    if (!f || !hmap_push(&p->set, h, (uintptr_t)f)) {
        ctg_free(f);
        p->failed = true;
        return NULL;
    }
    f->hash = h;
    f->len = n;
    memcpy(f->b, b, n);
    f->b[n] = 0;
    return f;
}

/* ==== priority queue ============================================================ */

/* Heap order: priority, then fewer nonterminals, then bytes (a proper prefix
 * first), which is Python's (prio, term) order for GPROD_SEED. */
static bool hent_less(const hent *a, const hent *b)
{
    if (a->prio != b->prio)
        return a->prio < b->prio;
    if (a->nnt != b->nnt)
        return a->nnt < b->nnt;
    size_t n = a->f->len < b->f->len ? a->f->len : b->f->len;
    int c = memcmp(a->f->b, b->f->b, n);
    return c ? c < 0 : a->f->len < b->f->len;
}

static bool heap_push(gprod *p, hent e)
{
    if (ctg_grow((void **)&p->heap, &p->heap_cap, p->heap_n + 1, sizeof *p->heap) < 0) {
        p->failed = true;
        return false;
    }
    size_t i = p->heap_n++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!hent_less(&e, &p->heap[up]))
            break;
        p->heap[i] = p->heap[up];
        i = up;
    }
    p->heap[i] = e;
    return true;
}

static hent heap_pop(gprod *p)
{
    hent top = p->heap[0], last = p->heap[--p->heap_n];
    size_t i = 0, n = p->heap_n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && hent_less(&p->heap[c + 1], &p->heap[c]))
            c++;
        if (!hent_less(&p->heap[c], &last))
            break;
        p->heap[i] = p->heap[c];
        i = c;
    }
    if (n)
        p->heap[i] = last;
    return top;
}

/* Queues b[0..n) with the given key unless it was seen or the set is full. */
static void enqueue(gprod *p, const uint8_t *b, size_t n, uint64_t prio, uint32_t nnt)
{
    if (p->o.max_forms && hmap_count(&p->set) >= p->o.max_forms) {
        p->st.truncated |= !set_find(p, b, n, hash_bytes(b, n));
        return;
    }
    bool dup;
    form *f = set_add(p, b, n, &dup);
    if (!f)
        return;
    if (heap_push(p, (hent){prio, nnt, f}))
        p->st.queued++;
}

/* ==== GPROD_SEED: the seed's producer ============================================ */

static bool is_letter(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* Python len() of a UTF-8 string: code points. */
static size_t u8_len(const uint8_t *b, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += (b[i] & 0xC0) != 0x80;
    return k;
}

/* Checks the seed's restrictions and renders names and alternatives. */
static bool seed_prepare(gprod *p, ctg_err *e)
{
    const grammar *g = p->g;
    for (size_t i = 0; i < g->n_nts; i++) {
        const char *nm = g->nts[i].name;
        bool ok = !g->nts[i].anonymous && nm[0];
        for (const char *c = nm; *c; c++)
            ok = ok && is_letter((unsigned char)*c);
        if (!ok)
            return err_set(e, "grammar: <%s>: the seed order needs nonterminal names made of "
                              "letters only (the seed's $NAME symbols); rename it or use the best order",
                           nm);
    }
    if (!(p->seed_name = ctg_calloc(g->n_nts, sizeof *p->seed_name)) ||
        !(p->seed_alts = ctg_calloc(g->n_nts, sizeof *p->seed_alts)))
        return err_set(e, "grammar: out of memory");
    for (size_t i = 0; i < g->n_nts; i++) {
        const gram_nt *n = &g->nts[i];
        sbuf nb = SBUF_INIT;
        sbuf_printf(&nb, "$%s", n->name);
        if (!(p->seed_name[i] = sbuf_take(&nb)) ||
            !(p->seed_alts[i] = ctg_calloc(n->n_alts ? n->n_alts : 1, sizeof(sbuf))))
            return err_set(e, "grammar: out of memory");
        for (size_t a = 0; a < n->n_alts; a++) {
            sbuf *r = &p->seed_alts[i][a];
            for (size_t s = 0; s < n->alts[a].n; s++) {
                const gram_sym *y = &n->alts[a].syms[s];
                if (y->nt >= 0) {
                    sbuf_printf(r, "$%s", g->nts[y->nt].name);
                } else if (memchr(y->text, '$', y->len)) {
                    return err_set(e, "grammar: <%s>: a terminal contains '$', which the seed "
                                      "order reads as a symbol; use the best order", n->name);
                } else {
                    sbuf_append(r, y->text, y->len);
                }
            }
            if (!sbuf_ok(r))
                return err_set(e, "grammar: out of memory");
        }
    }
    return true;
}

/* Python's s.find(c, from) on bytes: absolute index or -1. */
static long find_byte(const form *t, size_t from, uint8_t c)
{
    if (from > t->len)
        return -1;
    const uint8_t *q = memchr(t->b + from, c, t->len - from);
    return q ? (long)(q - t->b) : -1;
}

/* apply(term, (old, new), instance) of the seed, literally:
 *   index = 0
 *   for i in range(instance): index = term[index:].find('$') + 1
 *   return term[:index] + term[index:].replace(old, new, 1)
 * Writes the result to out. */
static void seed_apply(const form *t, const char *old, const sbuf *nw, size_t instance, sbuf *out)
{
    size_t index = 0, olen = strlen(old);
    for (size_t i = 0; i < instance; i++) {
        long f = find_byte(t, index, '$');
        index = (size_t)((f < 0 ? -1 : f - (long)index) + 1);
    }
    sbuf_reset(out);
    const uint8_t *hit = NULL;
    for (size_t k = index; k + olen <= t->len && !hit; k++)
        if (memcmp(t->b + k, old, olen) == 0)
            hit = t->b + k;
    if (!hit) {
        sbuf_append(out, t->b, t->len);
        return;
    }
    size_t at = (size_t)(hit - t->b);
    sbuf_append(out, t->b, at);
    sbuf_append(out, nw->data ? nw->data : "", nw->len);
    sbuf_append(out, t->b + at + olen, t->len - at - olen);
}

/* Expands every symbol instance of t with every rule, as the seed does. */
static void seed_expand(gprod *p, const form *t)
{
    sbuf nt = SBUF_INIT;
    size_t instance = 0;
    for (size_t i = 0; i < t->len; i++) {
        if (t->b[i] != '$')
            continue;
        size_t j = i + 1;
        while (j < t->len && is_letter(t->b[j]))
            j++;
        int k = -1;
        for (size_t n = 0; n < p->g->n_nts && k < 0; n++)
            if (strlen(p->seed_name[n]) == j - i && !memcmp(p->seed_name[n], t->b + i, j - i))
                k = (int)n;
        for (size_t a = 0; k >= 0 && a < p->g->nts[k].n_alts; a++) {
            seed_apply(t, p->seed_name[k], &p->seed_alts[k][a], instance, &nt);
            if (!sbuf_ok(&nt)) {
                p->failed = true;
                break;
            }
            const uint8_t *b = (const uint8_t *)sbuf_str(&nt);
            enqueue(p, b, nt.len, u8_len(b, nt.len), 0);
        }
        instance++;
        i = j - 1;
    }
    sbuf_release(&nt);
}

/* ==== GPROD_BEST: leftmost expansion with the best priority ======================= */

static void enc_nt(sbuf *b, uint32_t k)
{
    uint8_t m[6] = {0xFF, 0x01, (uint8_t)(k >> 24), (uint8_t)(k >> 16), (uint8_t)(k >> 8),
                    (uint8_t)k};
    sbuf_append(b, m, sizeof m);
}

static void enc_text(sbuf *b, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        sbuf_putc(b, (char)s[i]);
        if (s[i] == 0xFF)
            sbuf_putc(b, 0);
    }
}

/* Precomputes each alternative's cost and nonterminal count. */
static bool best_prepare(gprod *p, ctg_err *e)
{
    const grammar *g = p->g;
    if (!(p->alt_cost = ctg_calloc(g->n_nts, sizeof *p->alt_cost)) ||
        !(p->alt_nnt = ctg_calloc(g->n_nts, sizeof *p->alt_nnt)))
        return err_set(e, "grammar: out of memory");
    for (size_t i = 0; i < g->n_nts; i++) {
        const gram_nt *n = &g->nts[i];
        p->alt_cost[i] = ctg_calloc(n->n_alts + 1, sizeof(uint64_t));
        p->alt_nnt[i] = ctg_calloc(n->n_alts + 1, sizeof(uint32_t));
        if (!p->alt_cost[i] || !p->alt_nnt[i])
            return err_set(e, "grammar: out of memory");
        for (size_t a = 0; a < n->n_alts; a++)
            for (size_t s = 0; s < n->alts[a].n; s++) {
                const gram_sym *y = &n->alts[a].syms[s];
                p->alt_cost[i][a] += y->nt < 0 ? y->len : g->nts[y->nt].min_len;
                p->alt_nnt[i][a] += y->nt >= 0;
            }
    }
    return true;
}

/* Position of the first nonterminal marker in t and its index, or false. */
static bool best_leftmost(const form *t, size_t *at, uint32_t *k)
{
    for (size_t i = 0; i < t->len; i++) {
        if (t->b[i] != 0xFF)
            continue;
        if (t->b[i + 1] == 0x01) {
            const uint8_t *m = t->b + i + 2;
            *k = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
            *at = i;
            return true;
        }
        i++; /* escaped 0xFF */
    }
    return false;
}

/* Replaces the leftmost nonterminal of t by each of its alternatives. */
static void best_expand(gprod *p, const hent *h)
{
    size_t at;
    uint32_t k;
    if (!best_leftmost(h->f, &at, &k))
        return;
    const gram_nt *n = &p->g->nts[k];
    sbuf b = SBUF_INIT;
    for (size_t a = 0; a < n->n_alts; a++) {
        uint64_t prio = h->prio - n->min_len + p->alt_cost[k][a];
        if (p->o.max_len && prio > p->o.max_len)
            continue;
        sbuf_reset(&b);
        sbuf_append(&b, h->f->b, at);
        for (size_t s = 0; s < n->alts[a].n; s++) {
            const gram_sym *y = &n->alts[a].syms[s];
            if (y->nt >= 0)
                enc_nt(&b, (uint32_t)y->nt);
            else
                enc_text(&b, y->text, y->len);
        }
        sbuf_append(&b, h->f->b + at + 6, h->f->len - at - 6);
        if (!sbuf_ok(&b)) {
            p->failed = true;
            break;
        }
        enqueue(p, (const uint8_t *)b.data, b.len, prio, h->nnt - 1 + p->alt_nnt[k][a]);
    }
    sbuf_release(&b);
}

/* Renders an encoded form: terminals as bytes, nonterminals as <name>. */
static void best_render(const gprod *p, const form *t, sbuf *out)
{
    sbuf_reset(out);
    for (size_t i = 0; i < t->len; i++) {
        if (t->b[i] != 0xFF) {
            sbuf_putc(out, (char)t->b[i]);
        } else if (t->b[i + 1] == 0x00) {
            sbuf_putc(out, (char)0xFF);
            i++;
        } else {
            const uint8_t *m = t->b + i + 2;
            uint32_t k = (uint32_t)m[0] << 24 | (uint32_t)m[1] << 16 | (uint32_t)m[2] << 8 | m[3];
            const gram_nt *n = &p->g->nts[k];
            sbuf_printf(out, n->anonymous ? "%s" : "<%s>", n->name);
            i += 5;
        }
    }
}

/* ==== public API ================================================================== */

gprod *gprod_new(const grammar *g, const gprod_opts *o, ctg_err *e)
{
    gprod *p = ctg_calloc(1, sizeof *p);
    if (!p) {
        err_set(e, "grammar: out of memory");
        return NULL;
    }
    p->g = g;
    if (o)
        p->o = *o;
    bool ok;
    if (p->o.order == GPROD_SEED) {
        ok = seed_prepare(p, e);
        const char *s = ok ? p->seed_name[g->start] : "";
        size_t n = strlen(s);
        if (ok && !(p->start = ctg_malloc(sizeof(form) + n + 1)))
            ok = err_set(e, "grammar: out of memory");
        if (ok) {
            p->start->len = n;
            p->start->hash = 0;
            memcpy(p->start->b, s, n + 1);
            ok = heap_push(p, (hent){0, 0, p->start});
        }
    } else {
        sbuf b = SBUF_INIT;
        enc_nt(&b, (uint32_t)g->start);
        ok = best_prepare(p, e) && sbuf_ok(&b);
        if (ok && (!p->o.max_len || g->nts[g->start].min_len <= p->o.max_len))
            enqueue(p, (const uint8_t *)b.data, b.len, g->nts[g->start].min_len, 1);
        sbuf_release(&b);
    }
    if (!ok || p->failed) {
        err_set(e, "grammar: out of memory");
        gprod_free(p);
        return NULL;
    }
    return p;
}

void gprod_free(gprod *p)
{
    if (!p)
        return;
    uint64_t v;
    for (size_t cur = 0; hmap_each(&p->set, &cur, NULL, &v);)
        ctg_free((form *)(uintptr_t)v);
    hmap_release(&p->set);
    ctg_free(p->heap);
    for (size_t i = 0; i < p->g->n_nts; i++) {
        if (p->seed_name)
            ctg_free(p->seed_name[i]);
        if (p->seed_alts && p->seed_alts[i]) {
            for (size_t a = 0; a < p->g->nts[i].n_alts; a++)
                sbuf_release(&p->seed_alts[i][a]);
            ctg_free(p->seed_alts[i]);
        }
        if (p->alt_cost)
            ctg_free(p->alt_cost[i]);
        if (p->alt_nnt)
            ctg_free(p->alt_nnt[i]);
    }
    ctg_free(p->seed_name);
    ctg_free(p->seed_alts);
    ctg_free(p->alt_cost);
    ctg_free(p->alt_nnt);
    ctg_free(p->start);
    sbuf_release(&p->out);
    ctg_free(p);
}

void gprod_set_filter(gprod *p, gprod_filter f, void *user)
{
    p->filter = f;
    p->filter_user = user;
}

bool gprod_next_form(gprod *p, const uint8_t **s, size_t *len, bool *complete)
{
    if (p->failed || p->heap_n == 0)
        return false;
    hent h = heap_pop(p);
    p->st.forms++;
    if (p->o.order == GPROD_SEED) {
        seed_expand(p, h.f);
        *s = h.f->b;
        *len = h.f->len;
        *complete = memchr(h.f->b, '$', h.f->len) == NULL;
    } else {
        best_expand(p, &h);
        best_render(p, h.f, &p->out);
        if (!sbuf_ok(&p->out))
            p->failed = true;
        *s = (const uint8_t *)sbuf_str(&p->out);
        *len = p->out.len;
        *complete = h.nnt == 0;
    }
    p->st.queue_len = p->heap_n;
    return !p->failed;
}

bool gprod_next(gprod *p, const uint8_t **s, size_t *len)
{
    bool complete;
    while (gprod_next_form(p, s, len, &complete)) {
        if (!complete)
            continue;
        if (p->filter && !p->filter(p->filter_user, *s, *len)) {
            p->st.rejected++;
            continue;
        }
        p->st.strings++;
        return true;
    }
    return false;
}

bool gprod_failed(const gprod *p) { return p->failed; }

const gprod_stats *gprod_get_stats(const gprod *p) { return &p->st; }
