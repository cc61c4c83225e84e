/*
 * mosa.c - MOSA and DynaMOSA (see mosa.h), following seed 001's mosa():
 * initial random population, then generations of offspring bred by binary
 * rank tournament, crossover and mutation; survivors are taken front by
 * front from the preference sorting of parents + offspring, each front
 * ordered by crowding distance.  Objectives are the per-goal fitness
 * (approach level + normalised branch distance) of the uncovered targets.
 */
#include "mosa.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/mem.h"

struct mosa {
    sbst_t *s;
    mosa_params p;
    uint32_t n_goals, n_cov;
    sbst_ind **pop, **off;
    uint32_t n_pop, n_off;
    sbst_ind **arch;     /* per goal: shortest covering test        */
    uint8_t *target;     /* per goal: optimised (DynaMOSA)          */
    uint32_t *active;    /* uncovered targets of this selection     */
    uint32_t n_active;
    uint32_t *stamp;     /* per goal, for target expansion          */
    uint32_t *queue;
    uint64_t gen;
    /* selection scratch, 2 * pop entries each */
    sbst_ind **all;
    uint32_t *dom_n, *order;
    uint32_t *dom_list, *dom_off;  /* who each one dominates (CSR-like) */
};

void mosa_params_default(mosa_params *p)
{
    p->pop = 50;
    p->p_xover = 0.7;
    p->cross = -1;
    p->dynamic = false;
}

/* ==== archive and targets ============================================== */

/* Makes the uncovered children of a covered goal targets; covered children
 * pass the activation on (DynaMOSA's update of the target set). */
static void expand_targets(mosa_t *m, uint32_t goal)
{
    const cdg_t *g = sbst_cdg(m->s);
    uint32_t qn = 0;
    m->queue[qn++] = goal;
    m->stamp[goal] = (uint32_t)m->gen + 1u;
    while (qn) {
        uint32_t x = m->queue[--qn];
        if (x >= cdg_n_edges(g))
            continue;
        uint32_t n;
        const uint32_t *ch = cdg_edge_children(g, x, &n);
        for (uint32_t i = 0; i < n; i++) {
            uint32_t c = ch[i];
            if (!m->arch[c]) {
                m->target[c] = !sbst_goal_dropped(m->s, c);
            } else if (m->stamp[c] != (uint32_t)m->gen + 1u) {
                m->stamp[c] = (uint32_t)m->gen + 1u;
                m->queue[qn++] = c;
            }
        }
    }
}

/* Seed 001's update_archive with the shorter-test secondary criterion. */
static void update_archive(mosa_t *m, sbst_ind *x)
{
    if (x->discard)
        return;
    for (uint32_t g = 0; g < m->n_goals; g++) {
        if (x->fit[g] != 0)
            continue;
        sbst_ind *old = m->arch[g];
        if (old && old->tc.n <= x->tc.n)
            continue;
        m->arch[g] = sbst_ind_ref(x);
        sbst_ind_unref(old);
        if (!old) {
            m->n_cov++;
            m->target[g] = 0;
            if (m->p.dynamic)
                expand_targets(m, g);
        }
    }
}

/* The goals the next selection optimises: uncovered targets not proven
 * unreachable; if DynaMOSA
 * has none left while goals are uncovered (goals only reachable through a
 * dependence cycle), every uncovered goal. */
static void collect_active(mosa_t *m)
{
    m->n_active = 0;
    for (uint32_t g = 0; g < m->n_goals; g++) {
        if (!m->arch[g] && sbst_goal_dropped(m->s, g))
            m->target[g] = 0; /* proven unreachable: no target */
        else if (!m->arch[g] && (m->target[g] || !m->p.dynamic))
            m->active[m->n_active++] = g;
    }
    if (m->n_active == 0 && m->p.dynamic)
        for (uint32_t g = 0; g < m->n_goals; g++)
            if (!m->arch[g] && !sbst_goal_dropped(m->s, g)) {
                m->target[g] = 1;
                m->active[m->n_active++] = g;
            }
}

/* ==== preference sorting =============================================== */

/* a dominates b on the active goals. */
static bool dominates(const mosa_t *m, const sbst_ind *a, const sbst_ind *b)
{
    bool better = false;
    for (uint32_t i = 0; i < m->n_active; i++) {
        uint32_t g = m->active[i];
        if (a->fit[g] > b->fit[g])
            return false;
        better |= a->fit[g] < b->fit[g];
    }
    return better;
}

/* Fast non-dominated sort (Deb et al.) of all[lo..n) whose rank is unset
 * (UINT32_MAX); ranks start at first_rank.  Returns the number of fronts. */
static uint32_t nondominated_sort(mosa_t *m, uint32_t n, uint32_t first_rank)
{
    uint32_t k = 0; /* candidates in order[] */
    for (uint32_t i = 0; i < n; i++)
        if (m->all[i]->rank == UINT32_MAX)
            m->order[k++] = i;
    uint32_t fill = 0;
    for (uint32_t a = 0; a < k; a++) {
        uint32_t p = m->order[a];
        m->dom_n[p] = 0;
        m->dom_off[p] = fill;
        for (uint32_t b = 0; b < k; b++) {
            uint32_t q = m->order[b];
            if (p == q)
                continue;
            if (dominates(m, m->all[p], m->all[q]))
                m->dom_list[fill++] = q;
            else if (dominates(m, m->all[q], m->all[p]))
                m->dom_n[p]++;
        }
        m->dom_off[p + n] = fill; /* end, stored in the second half */
    }
    uint32_t rank = first_rank, done = 0;
    while (done < k) {
        uint32_t cnt = 0;
        for (uint32_t a = 0; a < k; a++) {
            uint32_t p = m->order[a];
            if (m->all[p]->rank == UINT32_MAX && m->dom_n[p] == 0) {
                m->all[p]->rank = rank;
                cnt++;
            }
        }
        if (cnt == 0) /* cannot happen for a strict order; be safe */
            break;
        for (uint32_t a = 0; a < k; a++) {
            uint32_t p = m->order[a];
            if (m->all[p]->rank != rank)
                continue;
            for (uint32_t i = m->dom_off[p]; i < m->dom_off[p + n]; i++)
                m->dom_n[m->dom_list[i]]--;
            m->dom_n[p] = UINT32_MAX; /* out */
        }
        done += cnt;
        rank++;
    }
    for (uint32_t a = 0; a < k; a++)
        if (m->all[m->order[a]]->rank == UINT32_MAX)
            m->all[m->order[a]]->rank = rank;
    return rank - first_rank + 1;
}

/* Preference sorting: front 0 holds the best test (shortest among equals)
 * of every active goal, the rest is sorted by non-domination. */
static void preference_sort(mosa_t *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        m->all[i]->rank = UINT32_MAX;
    for (uint32_t a = 0; a < m->n_active; a++) {
        uint32_t g = m->active[a], best = 0;
        for (uint32_t i = 1; i < n; i++) {
            float fi = m->all[i]->fit[g], fb = m->all[best]->fit[g];
            if (fi < fb || (fi == fb && m->all[i]->tc.n < m->all[best]->tc.n))
                best = i;
        }
        m->all[best]->rank = 0;
    }
    nondominated_sort(m, n, 1);
}

/* Crowding distance (seed's calculate_crowding_distance) of the front
 * front[0..k) over the active goals. */
static void crowding(mosa_t *m, sbst_ind **front, uint32_t k)
{
    for (uint32_t i = 0; i < k; i++)
        front[i]->crowd = 0;
    for (uint32_t a = 0; a < m->n_active; a++) {
        uint32_t g = m->active[a];
        /* insertion sort by fitness of goal g (fronts are small) */
        for (uint32_t i = 1; i < k; i++)
            for (uint32_t j = i; j > 0 && front[j - 1]->fit[g] > front[j]->fit[g]; j--) {
                sbst_ind *t = front[j];
                front[j] = front[j - 1];
                front[j - 1] = t;
            }
        double range = front[k - 1]->fit[g] - front[0]->fit[g];
        if (range <= 0)
            continue;
        front[0]->crowd = front[k - 1]->crowd = INFINITY;
        for (uint32_t i = 1; i + 1 < k; i++)
            front[i]->crowd += (front[i + 1]->fit[g] - front[i - 1]->fit[g]) / range;
    }
}

static int by_crowd_desc(const void *a, const void *b)
{
    const sbst_ind *x = *(sbst_ind *const *)a, *y = *(sbst_ind *const *)b;
    return x->crowd > y->crowd ? -1 : x->crowd < y->crowd;
}

/* Survivors of all[0..n): fronts in rank order, each by crowding distance,
 * until the population is full.  The others are released. */
static void select_survivors(mosa_t *m, uint32_t n)
{
    collect_active(m);
    preference_sort(m, n);
    /* group by rank: order[] gets indices sorted by rank (counting) */
    uint32_t max_rank = 0;
    for (uint32_t i = 0; i < n; i++)
        max_rank = m->all[i]->rank > max_rank ? m->all[i]->rank : max_rank;
    sbst_ind **front = ctg_malloc(n * sizeof *front);
    m->n_pop = 0;
    for (uint32_t r = 0; r <= max_rank && front; r++) {
        uint32_t k = 0;
        for (uint32_t i = 0; i < n; i++)
            if (m->all[i] && m->all[i]->rank == r)
                front[k++] = m->all[i];
        if (k == 0)
            continue;
        crowding(m, front, k);
        qsort(front, k, sizeof *front, by_crowd_desc);
        for (uint32_t i = 0; i < k && m->n_pop < (uint32_t)m->p.pop; i++)
            m->pop[m->n_pop++] = sbst_ind_ref(front[i]);
    }
    if (!front) /* out of memory: keep the first ones */
        for (uint32_t i = 0; i < n && m->n_pop < (uint32_t)m->p.pop; i++)
            m->pop[m->n_pop++] = sbst_ind_ref(m->all[i]);
    ctg_free(front);
    for (uint32_t i = 0; i < n; i++)
        sbst_ind_unref(m->all[i]);
}

/* ==== breeding ========================================================= */

/* Binary rank tournament: lower rank wins, then larger crowding distance. */
static const sbst_ind *tournament(mosa_t *m)
{
    rng *r = sbst_rng(m->s);
    const sbst_ind *a = m->pop[rng_below(r, m->n_pop)], *b = m->pop[rng_below(r, m->n_pop)];
    if (a->rank != b->rank)
        return a->rank < b->rank ? a : b;
    return a->crowd >= b->crowd ? a : b;
}

/* Evaluates a bred test into the offspring and the archive. */
static bool add_offspring(mosa_t *m, tcase *t)
{
    sbst_ind *x = sbst_eval(m->s, t);
    if (!x)
        return false;
    update_archive(m, x);
    m->off[m->n_off++] = x;
    return true;
}

/* Two offspring: selection, crossover with p_xover, mutation of both. */
static bool breed_pair(mosa_t *m)
{
    rng *r = sbst_rng(m->s);
    const sbst_ind *p1 = tournament(m), *p2 = tournament(m);
    tcase c1, c2;
    tc_init(&c1);
    tc_init(&c2);
    bool ok;
    if (rng_chance(r, m->p.p_xover)) {
        int k = m->p.cross >= 0 ? m->p.cross
                                : (sbst_variable(m->s) ? TC_CROSS_RELATIVE : TC_CROSS_SINGLE);
        ok = tc_crossover(&p1->tc, &p2->tc, (tc_cross_kind)k, r, &c1, &c2);
    } else {
        ok = tc_copy(&c1, &p1->tc) && tc_copy(&c2, &p2->tc);
    }
    const tc_params *tp = sbst_params(m->s);
    ok = ok && tc_mutate(&c1, tp, sbst_variable(m->s), r) &&
         tc_mutate(&c2, tp, sbst_variable(m->s), r);
    ok = ok && add_offspring(m, &c1) && add_offspring(m, &c2);
    tc_release(&c1);
    tc_release(&c2);
    return ok;
}

/* ==== public =========================================================== */

mosa_t *mosa_new(sbst_t *s, const mosa_params *p, ctg_err *e)
{
    mosa_t *m = ctg_calloc(1, sizeof *m);
    if (!m)
        goto oom;
    m->s = s;
    m->p = *p;
    if (m->p.pop < 2)
        m->p.pop = 2;
    m->p.pop += m->p.pop & 1; /* offspring come in pairs */
    m->n_goals = sbst_n_goals(s);
    size_t ng = (size_t)m->n_goals + 1, np = (size_t)m->p.pop;
    m->pop = ctg_calloc(np, sizeof *m->pop);
    m->off = ctg_calloc(np, sizeof *m->off);
    m->arch = ctg_calloc(ng, sizeof *m->arch);
    m->target = ctg_calloc(ng, 1);
    m->active = ctg_calloc(ng, sizeof *m->active);
    m->stamp = ctg_calloc(ng, sizeof *m->stamp);
    m->queue = ctg_calloc(ng, sizeof *m->queue);
    m->all = ctg_calloc(2 * np, sizeof *m->all);
    m->dom_n = ctg_calloc(2 * np, sizeof *m->dom_n);
    m->order = ctg_calloc(2 * np, sizeof *m->order);
    m->dom_off = ctg_calloc(4 * np, sizeof *m->dom_off);
    m->dom_list = ctg_calloc(4 * np * np, sizeof *m->dom_list);
    if (!m->pop || !m->off || !m->arch || !m->target || !m->active || !m->stamp || !m->queue ||
        !m->all || !m->dom_n || !m->order || !m->dom_off || !m->dom_list)
        goto oom;
    for (uint32_t g = 0; g < m->n_goals; g++)
        m->target[g] = (!p->dynamic || cdg_goal_is_root(sbst_cdg(s), g)) && !sbst_goal_dropped(s, g);
    return m;
oom:
    mosa_free(m);
    err_set(e, "mosa: out of memory");
    return NULL;
}

void mosa_free(mosa_t *m)
{
    if (!m)
        return;
    for (uint32_t i = 0; m->pop && i < m->n_pop; i++)
        sbst_ind_unref(m->pop[i]);
    for (uint32_t i = 0; m->off && i < m->n_off; i++)
        sbst_ind_unref(m->off[i]);
    for (uint32_t g = 0; m->arch && g < m->n_goals; g++)
        sbst_ind_unref(m->arch[g]);
    ctg_free(m->pop);
    ctg_free(m->off);
    ctg_free(m->arch);
    ctg_free(m->target);
    ctg_free(m->active);
    ctg_free(m->stamp);
    ctg_free(m->queue);
    ctg_free(m->all);
    ctg_free(m->dom_n);
    ctg_free(m->order);
    ctg_free(m->dom_off);
    ctg_free(m->dom_list);
    ctg_free(m);
}

/* Ends a generation: parents + offspring -> next population. */
static void next_generation(mosa_t *m)
{
    uint32_t n = 0;
    for (uint32_t i = 0; i < m->n_pop; i++)
        m->all[n++] = m->pop[i];
    for (uint32_t i = 0; i < m->n_off; i++)
        m->all[n++] = m->off[i];
    m->n_pop = m->n_off = 0;
    select_survivors(m, n);
    m->gen++;
}

bool mosa_step(mosa_t *m)
{
    if (m->gen == 0 && m->n_pop < (uint32_t)m->p.pop) {
        sbst_ind *x = sbst_eval_random(m->s);
        if (!x)
            return false;
        update_archive(m, x);
        m->pop[m->n_pop++] = x;
        if (m->n_pop == (uint32_t)m->p.pop) { /* rank the initial population */
            memcpy(m->all, m->pop, m->n_pop * sizeof *m->pop);
            uint32_t n = m->n_pop;
            m->n_pop = 0;
            select_survivors(m, n);
            m->gen = 1;
        }
        return true;
    }
    if (!breed_pair(m))
        return false;
    if (m->n_off >= (uint32_t)m->p.pop)
        next_generation(m);
    return true;
}

uint32_t mosa_n_covered(const mosa_t *m) { return m->n_cov; }

const tcase *mosa_solution(const mosa_t *m, uint32_t goal)
{
    return m->arch[goal] ? &m->arch[goal]->tc : NULL;
}

uint32_t mosa_n_targets(const mosa_t *m)
{
    uint32_t n = 0;
    for (uint32_t g = 0; g < m->n_goals; g++)
        n += !m->arch[g] && m->target[g];
    return n;
}

bool mosa_is_target(const mosa_t *m, uint32_t goal) { return !m->arch[goal] && m->target[goal]; }

uint64_t mosa_generations(const mosa_t *m) { return m->gen; }
