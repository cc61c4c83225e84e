/*
 * cc_work.c - the containers of the concolic search (cc_int.h): a hash set
 * of path hashes, the score-ordered work list of the generational order
 * (seed 003: "la work list es implementada como una cola de prioridad")
 * the deque of pending negations of dfs / bfs / random-branch, and the
 * ranking of one path's entries that cfds and param pick from.
 */
#include "cc_int.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/mem.h"

/* ---- hash set ---------------------------------------------------------------- */

bool cc_set_add(cc_set *s, uint64_t h, bool *added)
{
    if (s->max && hmap_count(&s->h) >= s->max) {
        *added = false;
        return true;
    }
    return hmap_add(&s->h, h, added);
}

bool cc_set_has(const cc_set *s, uint64_t h) { return hmap_get(&s->h, h, NULL); }

void cc_set_release(cc_set *s)
{
    hmap_release(&s->h);
    s->max = 0;
}

/* ---- heap ---------------------------------------------------------------------- */

/* a before b: higher score, then higher tie, then older. */
static bool before(const cc_node *a, const cc_node *b)
{
    if (a->score != b->score)
        return a->score > b->score;
    return a->tie != b->tie ? a->tie > b->tie : a->seq < b->seq;
}

static void swap(cc_node **v, size_t i, size_t j)
{
    cc_node *t = v[i];
    v[i] = v[j];
    v[j] = t;
}

bool cc_heap_push(cc_heap *h, cc_node *n)
{
    if (ctg_grow((void **)&h->v, &h->cap, h->n + 1, sizeof *h->v))
        return false;
    size_t i = h->n++;
    h->v[i] = n;
    while (i && before(h->v[i], h->v[(i - 1) / 2])) {
        swap(h->v, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
    return true;
}

cc_node *cc_heap_pop(cc_heap *h)
{
    if (!h->n)
        return NULL;
    cc_node *top = h->v[0];
    h->v[0] = h->v[--h->n];
    for (size_t i = 0;;) {
        size_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && before(h->v[l], h->v[m]))
            m = l;
        if (r < h->n && before(h->v[r], h->v[m]))
            m = r;
        if (m == i)
            break;
        swap(h->v, i, m);
        i = m;
    }
    return top;
}

static int by_rank(const void *x, const void *y)
{
    const cc_node *a = *(cc_node *const *)x, *b = *(cc_node *const *)y;
    return before(a, b) ? -1 : before(b, a) ? 1 : 0;
}

void cc_heap_trim(cc_heap *h, size_t keep, void (*drop)(void *user, cc_node *n), void *user)
{
    if (h->n <= keep)
        return;
    qsort(h->v, h->n, sizeof *h->v, by_rank); /* a sorted array is a heap */
    for (size_t i = keep; i < h->n; i++)
        drop(user, h->v[i]);
    h->n = keep;
}

void cc_heap_release(cc_heap *h)
{
    ctg_free(h->v);
    memset(h, 0, sizeof *h);
}

/* ---- deque of pending negations ------------------------------------------------- */

bool cc_items_push(cc_items *q, cc_node *node, uint32_t j)
{
    if (q->head && q->head + q->n == q->cap) { /* slide to the front first */
        memmove(q->v, q->v + q->head, q->n * sizeof *q->v);
        q->head = 0;
    }
    if (ctg_grow((void **)&q->v, &q->cap, q->head + q->n + 1, sizeof *q->v))
        return false;
    q->v[q->head + q->n++] = (cc_item){node, j};
    return true;
}

cc_item cc_items_pop_back(cc_items *q) { return q->v[q->head + --q->n]; }

cc_item cc_items_pop_front(cc_items *q)
{
    cc_item it = q->v[q->head++];
    if (!--q->n)
        q->head = 0;
    return it;
}

cc_item cc_items_take(cc_items *q, size_t i)
{
    cc_item it = q->v[q->head + i];
    q->v[q->head + i] = q->v[q->head + q->n - 1];
    q->n--;
    return it;
}

void cc_items_release(cc_items *q)
{
    ctg_free(q->v);
    memset(q, 0, sizeof *q);
}

size_t cc_items_min_j(const cc_items *q)
{
    size_t best = 0;
    for (size_t i = 1; i < q->n; i++)
        if (q->v[q->head + i].j < q->v[q->head + best].j)
            best = i;
    return best;
}

/* ---- one path's entries ranked, for cfds / param ------------------------------ */

/* cfds / param: the highest-scoring untried entry of n, -1 when none is
 * left.  Ties go to the deepest entry (the shallowest with shallow).
 * *score gets its score; n->best the score of the best entry after it
 * (what n offers once it is tried). */
static int64_t scan_best(const cc_heuristic *k, cc_node *n, bool shallow, double *score)
{
    int64_t best = -1, second = -1;
    double bs = -INFINITY, bs2 = -INFINITY;
    for (uint32_t j = 0; j < n->n_pc; j++) {
        if (n->tried[j] || !expr_pc_negatable(n->pc.v[j].kind))
            continue;
        double sc = k->score ? k->score(k->user, &n->pc, j) : 0.0;
        if (best < 0 || sc > bs || (sc == bs && !shallow)) {
            second = best, bs2 = bs;
            best = j, bs = sc;
        } else if (second < 0 || sc > bs2 || (sc == bs2 && !shallow)) {
            second = j, bs2 = sc;
        }
    }
    *score = bs;
    n->best = bs2;
    n->scored = second >= 0;
    return best;
}

/* Score down, then the deepest entry first (by_score) or the shallowest
 * (by_score_shallow). */
static int by_score(const void *x, const void *y)
{
    const cc_ranked *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    return (a->j < b->j) - (a->j > b->j);
}

static int by_score_shallow(const void *x, const void *y)
{
    const cc_ranked *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    return (a->j > b->j) - (a->j < b->j);
}

/* Ranks n's untried entries for heuristic version ver; false when out of
 * memory (the caller scans instead). */
static bool rank_entries(const cc_heuristic *k, cc_node *n, bool shallow, uint64_t ver)
{
    size_t m = 0;
    for (uint32_t j = 0; j < n->n_pc; j++)
        m += !n->tried[j] && expr_pc_negatable(n->pc.v[j].kind);
    cc_ranked *r = ctg_realloc(n->rank, (m ? m : 1) * sizeof *r);
    if (!r)
        return false;
    n->rank = r;
    m = 0;
    for (uint32_t j = 0; j < n->n_pc; j++)
        if (!n->tried[j] && expr_pc_negatable(n->pc.v[j].kind))
            r[m++] = (cc_ranked){k->score(k->user, &n->pc, j), j};
    qsort(r, m, sizeof *r, shallow ? by_score_shallow : by_score);
    n->n_rank = (uint32_t)m;
    n->rank_at = 0;
    n->rank_ver = ver;
    return true;
}

int64_t cc_best_entry(const cc_heuristic *k, cc_node *n, bool shallow, double *score)
{
    if (!k->score || !k->version)
        return scan_best(k, n, shallow, score);
    uint64_t ver = k->version(k->user);
    if ((!n->rank || n->rank_ver != ver) && !rank_entries(k, n, shallow, ver))
        return scan_best(k, n, shallow, score);
    while (n->rank_at < n->n_rank && n->tried[n->rank[n->rank_at].j])
        n->rank_at++;
    uint32_t i = n->rank_at, i2 = i + 1;
    while (i2 < n->n_rank && n->tried[n->rank[i2].j])
        i2++;
    n->scored = i2 < n->n_rank;
    n->best = n->scored ? n->rank[i2].score : -INFINITY;
    if (i >= n->n_rank) {
        *score = -INFINITY;
        return -1;
    }
    *score = n->rank[i].score;
    return n->rank[i].j;
}
