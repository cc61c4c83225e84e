/*
 * mio.c - the MIO algorithm (Arcuri, "Many Independent Objective (MIO)
 * Algorithm for Test Suite Generation", SSBSE 2017), as seed 001 builds it:
 *
 *   - one archive per goal, at most archive_size tests sorted by fitness;
 *     a test covering the goal replaces the whole archive, and a covering
 *     test is later replaced only by a shorter covering one (the seed's
 *     secondary criterion for variable-length tests);
 *   - feedback-directed sampling: the goal sampled from is the uncovered
 *     goal with the lowest sample counter, counters reset when the goal's
 *     archive improves;
 *   - focused phase: P_sample, archive size and the number of mutations of
 *     one test move linearly from their first to their focused values until
 *     F of the budget is spent, then stay there.
 *
 * The test being mutated: a freshly sampled (or random) test is mutated up
 * to `mutations` times in a row; a mutant that improves some archive takes
 * its place (the paper's rule).  With seed_current (--sbst-as-seed) the
 * seed's: only a test that improved an archive, fresh or mutant, becomes
 * the one mutated next.
 */
#include "mio.h"

#include "../../base/mem.h"

typedef struct slot {
    sbst_ind *t;
    float h;
} slot;

struct mio {
    sbst_t *s;
    mio_params p;
    uint32_t n_goals, n_cov;
    slot *arch;        /* n_goals rows of archive_first slots */
    uint32_t *n_in;    /* tests in each archive              */
    uint8_t *covered;  /* archive holds a covering test      */
    uint64_t *counter; /* sample counters                    */
    uint64_t bests;    /* new best tests of uncovered goals  */
    double p_sample;
    int asize, nmut;
    sbst_ind *current;
    int cur_mut;
    mio_trace trace;   /* mio_last_step                         */
    sbst_ind *last;    /* the last step's test (trace.last)     */
    bool focused;      /* the focused phase has begun           */
    avm_t *avm;        /* local search, with p_avm > 0          */
};

void mio_params_default(mio_params *p)
{
    p->p_sample_first = 0.5;
    p->p_sample_focused = 0.0;
    p->archive_first = 10;
    p->archive_focused = 1;
    p->mutations_first = 1;
    p->mutations_focused = 10;
    p->F = 0.5;
    p->p_avm = 0.5;
    p->avm_evals = 500;
    p->seed_current = false;
}

mio_t *mio_new(sbst_t *s, const mio_params *p, ctg_err *e)
{
    mio_t *m = ctg_calloc(1, sizeof *m);
    if (!m)
        goto oom;
    m->s = s;
    m->p = *p;
    if (m->p.archive_first < 1)
        m->p.archive_first = 1;
    if (m->p.archive_focused < 1)
        m->p.archive_focused = 1;
    m->n_goals = sbst_n_goals(s);
    size_t n = (size_t)m->n_goals + 1;
    m->arch = ctg_calloc(n * (size_t)m->p.archive_first, sizeof *m->arch);
    m->n_in = ctg_calloc(n, sizeof *m->n_in);
    m->covered = ctg_calloc(n, 1);
    m->counter = ctg_calloc(n, sizeof *m->counter);
    if (!m->arch || !m->n_in || !m->covered || !m->counter)
        goto oom;
    if (p->p_avm > 0 && !(m->avm = avm_new(s, p->avm_evals)))
        goto oom;
    m->p_sample = p->p_sample_first;
    m->asize = m->p.archive_first;
    m->nmut = p->mutations_first;
    return m;
oom:
    mio_free(m);
    err_set(e, "mio: out of memory");
    return NULL;
}

void mio_free(mio_t *m)
{
    if (!m)
        return;
    if (m->arch)
        for (uint32_t g = 0; g < m->n_goals; g++)
            for (uint32_t i = 0; i < m->n_in[g]; i++)
                sbst_ind_unref(m->arch[(size_t)g * m->p.archive_first + i].t);
    sbst_ind_unref(m->current);
    sbst_ind_unref(m->last);
    avm_free(m->avm);
    ctg_free(m->arch);
    ctg_free(m->n_in);
    ctg_free(m->covered);
    ctg_free(m->counter);
    ctg_free(m);
}

static slot *row(const mio_t *m, uint32_t g) { return m->arch + (size_t)g * m->p.archive_first; }

/* Empties the archive of goal g from index `keep` on. */
static void crop(mio_t *m, uint32_t g, uint32_t keep)
{
    slot *r = row(m, g);
    while (m->n_in[g] > keep)
        sbst_ind_unref(r[--m->n_in[g]].t);
}

/* The seed's update_parameters: linear schedule until F, then focused. */
static void update_params(mio_t *m)
{
    double prog = sbst_progress(m->s);
    const mio_params *p = &m->p;
    int old = m->asize;
    if (p->F <= 0 || prog > p->F) {
        m->focused = true;
        m->p_sample = p->p_sample_focused;
        m->asize = p->archive_focused;
        m->nmut = p->mutations_focused;
    } else {
        double u = prog / p->F;
        m->p_sample = p->p_sample_first + (p->p_sample_focused - p->p_sample_first) * u;
        m->asize = (int)(p->archive_first + (p->archive_focused - p->archive_first) * u);
        m->nmut = (int)(p->mutations_first + (p->mutations_focused - p->mutations_first) * u);
    }
    if (m->asize < 1)
        m->asize = 1;
    if (m->asize > p->archive_first)
        m->asize = p->archive_first;
    if (m->nmut < 1)
        m->nmut = 1;
    if (m->asize < old)
        for (uint32_t g = 0; g < m->n_goals; g++)
            if (m->n_in[g] > (uint32_t)m->asize)
                crop(m, g, (uint32_t)m->asize);
}

/* Puts x with fitness h into goal g's sorted archive at its place; the
 * archive must have room. */
static void insert_sorted(mio_t *m, uint32_t g, sbst_ind *x, float h)
{
    slot *r = row(m, g);
    uint32_t i = m->n_in[g]++;
    while (i > 0 && r[i - 1].h > h) {
        r[i] = r[i - 1];
        i--;
    }
    r[i] = (slot){sbst_ind_ref(x), h};
}

static bool in_archive(const mio_t *m, uint32_t g, const sbst_ind *x)
{
    const slot *r = row(m, g);
    for (uint32_t i = 0; i < m->n_in[g]; i++)
        if (r[i].t == x || tc_equal(&r[i].t->tc, &x->tc))
            return true;
    return false;
}

/* Offers x to goal g's archive; true when the archive changed. */
static bool offer(mio_t *m, uint32_t g, sbst_ind *x)
{
    float h = x->fit[g];
    slot *r = row(m, g);
    if (m->covered[g]) { /* covered: only a shorter covering test */
        if (h != 0 || x->tc.n >= r[0].t->tc.n)
            return false;
        crop(m, g, 0);
        insert_sorted(m, g, x, 0);
        return true;
    }
    if (h == 0) {
        crop(m, g, 0);
        insert_sorted(m, g, x, 0);
        m->covered[g] = 1;
        m->n_cov++;
        return true;
    }
    if (h >= fit_unreached(sbst_fit(m->s), g) || in_archive(m, g, x))
        return false;
    m->bests += m->n_in[g] == 0 || h < r[0].h;
    if (m->n_in[g] < (uint32_t)m->asize) {
        insert_sorted(m, g, x, h);
        return true;
    }
    if (h < r[m->n_in[g] - 1].h) {
        crop(m, g, m->n_in[g] - 1);
        insert_sorted(m, g, x, h);
        return true;
    }
    return false;
}

/* The seed's update_mio_archive with sample-counter resets. */
static bool update_archive(mio_t *m, sbst_ind *x)
{
    bool updated = false;
    if (x->discard)
        return false;
    for (uint32_t g = 0; g < m->n_goals; g++)
        if (offer(m, g, x)) {
            m->counter[g] = 0;
            updated = true;
        }
    return updated;
}

/* Feedback-directed sampling: among uncovered goals with tests (else all
 * goals with tests) the one sampled least since its last improvement, ties
 * broken at random; then a random test of its archive (*goal: the goal).
 * NULL when the archives are empty. */
static const slot *sample(mio_t *m, uint32_t *goal)
{
    rng *r = sbst_rng(m->s);
    for (int pass = 0; pass < 2; pass++) {
        uint32_t best = UINT32_MAX, ties = 0;
        for (uint32_t g = 0; g < m->n_goals; g++) {
            if (m->n_in[g] == 0 || (pass == 0 && m->covered[g]) ||
                (!m->covered[g] && sbst_goal_dropped(m->s, g)))
                continue;
            if (best == UINT32_MAX || m->counter[g] < m->counter[best]) {
                best = g;
                ties = 1;
            } else if (m->counter[g] == m->counter[best] && rng_below(r, ++ties) == 0) {
                best = g;
            }
        }
        if (best != UINT32_MAX) {
            m->counter[best]++;
            *goal = best;
            return &row(m, best)[rng_below(r, m->n_in[best])];
        }
    }
    return NULL;
}

/* A local search from the sampled test towards its (uncovered) goal, in
 * the focused phase with probability p_avm: its first evaluation, or NULL
 * when no search started or it ran nothing. */
static sbst_ind *try_avm(mio_t *m, const slot *parent, uint32_t goal)
{
    if (!m->avm || !m->focused || m->covered[goal] || parent->h <= 0 ||
        !rng_chance(sbst_rng(m->s), m->p.p_avm))
        return NULL;
    return avm_start(m->avm, &parent->t->tc, goal) ? avm_step(m->avm) : NULL;
}

bool mio_step(mio_t *m)
{
    update_params(m);
    rng *r = sbst_rng(m->s);
    sbst_ind *off = NULL;
    bool fresh = true;
    if (m->avm && avm_active(m->avm)) {
        off = avm_step(m->avm);
        fresh = false;
        if (!off && sbst_stopped(m->s))
            return false;
    }
    if (off) {
        /* the local search's test */
    } else if (m->current && m->cur_mut < m->nmut) {
        off = sbst_eval_mutant(m->s, &m->current->tc);
        m->cur_mut++;
        fresh = false;
    } else {
        uint32_t goal = 0;
        const slot *parent = rng_chance(r, m->p_sample) ? NULL : sample(m, &goal);
        off = parent ? try_avm(m, parent, goal) : NULL;
        if (!off && sbst_stopped(m->s))
            return false;
        fresh = off == NULL;
        if (!off)
            off = parent ? sbst_eval_mutant(m->s, &parent->t->tc) : sbst_eval_random(m->s);
        m->cur_mut = 1;
    }
    if (!off)
        return false;
    bool updated = update_archive(m, off);
    /* the archives keep the fitness they need: drop the vector */
    ctg_free(off->fit);
    off->fit = NULL;
    if ((fresh && !m->p.seed_current) || updated) {
        sbst_ind_unref(m->current);
        m->current = sbst_ind_ref(off);
    }
    sbst_ind_unref(m->last);
    m->last = off; /* our reference passes to last */
    m->trace = (mio_trace){fresh, updated, &off->tc, m->current ? &m->current->tc : NULL};
    return true;
}

mio_trace mio_last_step(const mio_t *m) { return m->trace; }

uint32_t mio_n_covered(const mio_t *m) { return m->n_cov; }

uint64_t mio_bests(const mio_t *m) { return m->bests + m->n_cov; }

const tcase *mio_solution(const mio_t *m, uint32_t goal)
{
    return m->covered[goal] ? &row(m, goal)[0].t->tc : NULL;
}

double mio_p_sample(const mio_t *m) { return m->p_sample; }
int mio_archive_size(const mio_t *m) { return m->asize; }
int mio_mutations(const mio_t *m) { return m->nmut; }

avm_stats mio_avm_stats(const mio_t *m)
{
    return m->avm ? avm_get_stats(m->avm) : (avm_stats){0};
}
