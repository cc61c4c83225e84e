/*
 * avm.c - the alternating variable method (see avm.h).
 */
#include "avm.h"

#include <math.h>

#include "../../base/mem.h"

typedef enum phase { EXPLORE_UP, EXPLORE_DOWN, PATTERN } phase;

struct avm {
    sbst_t *s;
    uint32_t max_evals;
    bool active;
    uint32_t goal;
    tcase start;    /* to run first                            */
    bool started;   /* the start test has run                  */
    sbst_ind *best; /* the episode's best test (a reference)   */
    fit_exact h;    /* its fitness for the goal                */
    uint32_t var;   /* the value being moved                   */
    uint32_t fails; /* values in a row that improved nothing   */
    bool improved;  /* the current value improved              */
    phase ph;
    int dir;        /* direction of the pattern moves          */
    double step;
    uint32_t evals; /* of this episode                         */
    avm_stats st;
};

avm_t *avm_new(sbst_t *s, uint32_t max_evals)
{
    avm_t *a = ctg_calloc(1, sizeof *a);
    if (a) {
        a->s = s;
        a->max_evals = max_evals ? max_evals : 1;
    }
    return a;
}

void avm_free(avm_t *a)
{
    if (!a)
        return;
    sbst_ind_unref(a->best);
    tc_release(&a->start);
    ctg_free(a);
}

bool avm_active(const avm_t *a) { return a->active; }
avm_stats avm_get_stats(const avm_t *a) { return a->st; }

const sbst_ind *avm_best(const avm_t *a, fit_exact *h)
{
    if (h)
        *h = a->h;
    return a->best;
}

/* Begins the value at a->var (wrapping around the test). */
static void begin_value(avm_t *a)
{
    if (a->var >= a->best->tc.n)
        a->var = 0;
    const tc_val *v = &a->best->tc.v[a->var];
    double x = tc_is_float(v) ? fabs(tc_get_f64(v)) : 0;
    a->step = tc_is_float(v) && isfinite(x) && x > 1 ? x : 1;
    a->ph = EXPLORE_UP;
    a->improved = false;
}

bool avm_start(avm_t *a, const tcase *t, uint32_t goal)
{
    a->active = false;
    if (!t || t->n == 0 || !tc_copy(&a->start, t))
        return false;
    sbst_ind_unref(a->best);
    a->best = NULL;
    a->started = false;
    a->goal = goal;
    a->var = 0;
    a->fails = 0;
    a->evals = 0;
    a->active = true;
    a->st.episodes++;
    sbst_set_focus(a->s, goal);
    return true;
}

/* The state machine after a move that improved (better) or did not. */
static void advance(avm_t *a, bool better)
{
    const tc_val *v = &a->best->tc.v[a->var < a->best->tc.n ? a->var : 0];
    double min = tc_min_step(v);
    if (better) {
        if (a->ph != PATTERN)
            a->dir = a->ph == EXPLORE_UP ? 1 : -1;
        a->ph = PATTERN;
        a->step *= 2;
        a->improved = true;
        return;
    }
    switch (a->ph) {
    case EXPLORE_UP:
        a->ph = EXPLORE_DOWN;
        return;
    case PATTERN: /* overshot: explore at half the last successful step */
        a->step = fmax(min, a->step / 4);
        a->ph = EXPLORE_UP;
        return;
    case EXPLORE_DOWN:
        if (a->step > min) {
            a->step = fmax(min, a->step / (a->improved ? 2 : 16));
            a->ph = EXPLORE_UP;
            return;
        }
        a->fails = a->improved ? 0 : a->fails + 1;
        a->var++;
        begin_value(a);
        return;
    }
}

static void end(avm_t *a)
{
    a->active = false;
    sbst_set_focus(a->s, UINT32_MAX);
}

sbst_ind *avm_step(avm_t *a)
{
    const tc_params *tp = sbst_params(a->s);
    if (a->active && !a->started) { /* the start test, for its exact fitness */
        tcase c;
        tc_init(&c);
        sbst_ind *x = tc_copy(&c, &a->start) ? sbst_eval(a->s, &c) : NULL;
        a->started = true;
        if (!x || x->tc.n == 0 || x->focus.covered) {
            end(a);
            return x;
        }
        a->evals++;
        a->st.evals++;
        a->best = sbst_ind_ref(x);
        a->h = x->focus;
        begin_value(a);
        return x;
    }
    /* moves that cannot change their value advance without a run; the
     * state machine ends every value after a bounded number of them */
    for (unsigned guard = 0; a->active && guard < 100000; guard++) {
        uint32_t n = a->best->tc.n;
        if (a->evals >= a->max_evals || n == 0 || a->fails >= n) {
            end(a);
            break;
        }
        if (a->var >= n)
            begin_value(a);
        tcase c;
        tc_init(&c);
        if (!tc_copy(&c, &a->best->tc)) {
            end(a);
            break;
        }
        int dir = a->ph == EXPLORE_UP ? 1 : a->ph == EXPLORE_DOWN ? -1 : a->dir;
        if (!tc_move(&c.v[a->var], dir, a->step, tp)) {
            tc_release(&c);
            advance(a, false);
            continue;
        }
        sbst_ind *x = sbst_eval(a->s, &c);
        if (!x) {
            end(a);
            break;
        }
        a->evals++;
        a->st.evals++;
        fit_exact h = x->focus;
        bool better = !x->discard && fit_exact_less(h, a->h);
        if (better) {
            uint32_t old_n = n;
            sbst_ind_unref(a->best);
            a->best = sbst_ind_ref(x);
            a->h = h;
            a->st.improved++;
            if (a->best->tc.n != old_n && a->var >= a->best->tc.n)
                a->var = 0;
        }
        if (a->best->tc.n > 0)
            advance(a, better);
        if (a->h.covered) {
            a->st.covered++;
            end(a);
        }
        return x;
    }
    return NULL;
}
