/*
 * fitness.c - per-goal fitness (approach level + normalised branch distance)
 * and seed 001's whole-suite fitness with the executed-once rule (see
 * fitness.h).
 */
#include "fitness.h"

#include <string.h>

#include "../../base/mem.h"

struct fit {
    const progdb *db;
    const cdg_t *g;
    uint32_t n_edges, n_errors, n_goals;
    fit_run run;
    uint8_t *br_exec;    /* per branch: executed by the current run */
    uint8_t *fn_exec;    /* per function: one of its branches was   */
    /* whole-suite scratch */
    uint32_t *s_count;   /* per branch                              */
    float *s_edge;       /* per edge, minimal normalised distance   */
    float *s_err;        /* per error site                          */
};

double fit_norm(double d) { return d > 0 ? d / (d + 1.0) : 0.0; }

fit_t *fit_new(const progdb *db, const cdg_t *g)
{
    fit_t *f = ctg_calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->db = db;
    f->g = g;
    f->n_edges = db->n_edges;
    f->n_errors = db->n_errors;
    f->n_goals = db->n_edges + db->n_errors;
    f->br_exec = ctg_calloc(db->n_branches + 1, 1);
    f->fn_exec = ctg_calloc(db->n_funcs + 1, 1);
    f->s_count = ctg_calloc(db->n_branches + 1, sizeof *f->s_count);
    f->s_edge = ctg_calloc(db->n_edges + 1, sizeof *f->s_edge);
    f->s_err = ctg_calloc(db->n_errors + 1, sizeof *f->s_err);
    if (!f->br_exec || !f->fn_exec || !f->s_count || !f->s_edge || !f->s_err) {
        fit_free(f);
        return NULL;
    }
    return f;
}

void fit_free(fit_t *f)
{
    if (!f)
        return;
    ctg_free(f->br_exec);
    ctg_free(f->fn_exec);
    ctg_free(f->s_count);
    ctg_free(f->s_edge);
    ctg_free(f->s_err);
    ctg_free(f);
}

uint32_t fit_n_goals(const fit_t *f) { return f->n_goals; }

/* True when the current run took edge e. */
static bool edge_hit(const fit_t *f, uint32_t e)
{
    return f->run.cov[e] != 0 || f->run.dist[e] == 1.0;
}

void fit_begin(fit_t *f, const fit_run *r)
{
    f->run = *r;
    const progdb *db = f->db;
    memset(f->fn_exec, 0, db->n_funcs);
    for (uint32_t b = 0; b < db->n_branches; b++) {
        const pdb_branch *br = &db->branches[b];
        uint8_t x = 0;
        for (uint32_t k = 0; k < br->n_edges && !x; k++) {
            uint32_t e = br->first_edge + k;
            x = r->cov[e] != 0 || r->dist[e] != 0;
        }
        f->br_exec[b] = x;
        if (x && br->func < db->n_funcs)
            f->fn_exec[br->func] = 1;
    }
}

/* False when the run executed no branch of the goal's function: its
 * approach layers (control dependence stays inside a function) cannot
 * hold an executed one, so the goal is unreached without looking.  On
 * generated state machines most goals sit in functions a run never
 * enters. */
static bool goal_func_ran(const fit_t *f, uint32_t goal)
{
    uint32_t fn = cdg_goal_func(f->g, goal);
    return fn >= f->db->n_funcs || f->fn_exec[fn];
}

bool fit_covered(const fit_t *f, uint32_t goal)
{
    if (goal < f->n_edges)
        return edge_hit(f, goal);
    return f->run.error && f->run.error_site == goal - f->n_edges;
}

double fit_unreached(const fit_t *f, uint32_t goal) { return cdg_goal_levels(f->g, goal) + 1.0; }

/* Normalised distance of the current run towards edge e, whose branch ran. */
static double edge_norm(const fit_t *f, uint32_t e)
{
    if (edge_hit(f, e))
        return 0.0;
    double d = f->run.dist[e];
    return fit_norm(d > 0 ? d - 1.0 : 1.0);
}

double fit_goal(const fit_t *f, uint32_t goal)
{
    if (fit_covered(f, goal))
        return 0.0;
    if (!goal_func_ran(f, goal))
        return fit_unreached(f, goal);
    uint32_t n;
    const cdg_step *st = cdg_goal_steps(f->g, goal, &n);
    for (uint32_t i = 0; i < n;) {
        uint32_t level = st[i].level;
        double best = 2.0;
        for (; i < n && st[i].level == level; i++)
            if (f->br_exec[f->db->edges[st[i].edge].branch]) {
                double d = edge_norm(f, st[i].edge);
                best = d < best ? d : best;
            }
        if (best <= 1.0) {
            double v = level + best;
            /* taken dependence, yet the goal was missed (the run ended
             * early): keep it distinct from "covered" */
            return v > 0 ? v : 1e-6;
        }
    }
    return fit_unreached(f, goal);
}

fit_exact fit_goal_exact(const fit_t *f, uint32_t goal)
{
    if (fit_covered(f, goal))
        return (fit_exact){true, 0, 0.0};
    if (!goal_func_ran(f, goal))
        return (fit_exact){false, (uint32_t)fit_unreached(f, goal), 0.0};
    uint32_t n;
    const cdg_step *st = cdg_goal_steps(f->g, goal, &n);
    for (uint32_t i = 0; i < n;) {
        uint32_t level = st[i].level;
        double best = -1;
        for (; i < n && st[i].level == level; i++)
            if (f->br_exec[f->db->edges[st[i].edge].branch]) {
                uint32_t e = st[i].edge;
                double dd = f->run.dist[e];
                double d = edge_hit(f, e) ? 1e-300 : dd > 0 ? dd - 1.0 : 1.0;
                best = best < 0 || d < best ? d : best;
            }
        if (best >= 0)
            return (fit_exact){false, level, best > 0 ? best : 1e-300};
    }
    return (fit_exact){false, (uint32_t)fit_unreached(f, goal), 0.0};
}

bool fit_exact_less(fit_exact a, fit_exact b)
{
    if (a.covered != b.covered)
        return a.covered;
    if (a.covered)
        return false;
    return a.level < b.level || (a.level == b.level && a.d < b.d);
}

uint32_t fit_all(const fit_t *f, float *out)
{
    uint32_t zeros = 0;
    for (uint32_t g = 0; g < f->n_goals; g++) {
        out[g] = (float)fit_goal(f, g);
        zeros += out[g] == 0.0f;
    }
    return zeros;
}

/* How often branch b ran in the current run; a wrapped counter with a
 * recorded distance counts as "many". */
static uint32_t branch_count(const fit_t *f, const pdb_branch *br)
{
    uint32_t c = 0;
    for (uint32_t k = 0; k < br->n_edges; k++)
        c += f->run.cov[br->first_edge + k];
    return c ? c : 2;
}

bool fit_trace_make(const fit_t *f, fit_trace *t)
{
    memset(t, 0, sizeof *t);
    const progdb *db = f->db;
    uint32_t nb = 0, ne = 0;
    for (uint32_t b = 0; b < db->n_branches; b++)
        if (f->br_exec[b]) {
            nb++;
            ne += db->branches[b].n_edges;
        }
    t->br = ctg_malloc((nb + 1) * sizeof *t->br);
    t->count = ctg_malloc((nb + 1) * sizeof *t->count);
    t->d = ctg_malloc((ne + 1) * sizeof *t->d);
    t->err = ctg_malloc((f->n_errors + 1) * sizeof *t->err);
    if (!t->br || !t->count || !t->d || !t->err) {
        fit_trace_release(t);
        return false;
    }
    uint32_t k = 0;
    for (uint32_t b = 0; b < db->n_branches; b++) {
        if (!f->br_exec[b])
            continue;
        const pdb_branch *br = &db->branches[b];
        t->br[t->n_br] = b;
        t->count[t->n_br++] = branch_count(f, br);
        for (uint32_t j = 0; j < br->n_edges; j++)
            t->d[k++] = (float)edge_norm(f, br->first_edge + j);
    }
    for (uint32_t s = 0; s < f->n_errors; s++)
        t->err[s] = (float)fit_norm(fit_goal(f, f->n_edges + s));
    return true;
}

void fit_trace_release(fit_trace *t)
{
    if (!t)
        return;
    ctg_free(t->br);
    ctg_free(t->count);
    ctg_free(t->d);
    ctg_free(t->err);
    memset(t, 0, sizeof *t);
}

/* Folds one test's trace into the suite scratch (counts, minima). */
static void suite_add(fit_t *f, const fit_trace *t)
{
    uint32_t k = 0;
    if (!t->err) /* a discarded run (assume failed) adds nothing */
        return;
    for (uint32_t i = 0; i < t->n_br; i++) {
        const pdb_branch *br = &f->db->branches[t->br[i]];
        uint32_t c = f->s_count[t->br[i]] + t->count[i];
        f->s_count[t->br[i]] = c < t->count[i] ? UINT32_MAX : c;
        for (uint32_t j = 0; j < br->n_edges; j++, k++) {
            float *m = &f->s_edge[br->first_edge + j];
            *m = t->d[k] < *m ? t->d[k] : *m;
        }
    }
    for (uint32_t s = 0; s < f->n_errors; s++)
        f->s_err[s] = t->err[s] < f->s_err[s] ? t->err[s] : f->s_err[s];
}

double fit_suite(fit_t *f, const fit_trace *const *tests, size_t n, uint32_t *covered)
{
    const progdb *db = f->db;
    memset(f->s_count, 0, db->n_branches * sizeof *f->s_count);
    for (uint32_t e = 0; e < f->n_edges; e++)
        f->s_edge[e] = 1.0f;
    for (uint32_t s = 0; s < f->n_errors; s++)
        f->s_err[s] = 1.0f;
    for (size_t i = 0; i < n; i++)
        suite_add(f, tests[i]);
    double sum = 0;
    uint32_t cov = 0;
    for (uint32_t b = 0; b < db->n_branches; b++) {
        const pdb_branch *br = &db->branches[b];
        for (uint32_t j = 0; j < br->n_edges; j++) {
            float m = f->s_edge[br->first_edge + j];
            cov += m == 0.0f;
            /* executed once: the other sides count 1, not their distance */
            sum += (f->s_count[b] == 1 && m != 0.0f) ? 1.0 : m;
        }
    }
    for (uint32_t s = 0; s < f->n_errors; s++) {
        cov += f->s_err[s] == 0.0f;
        sum += f->s_err[s];
    }
    if (covered)
        *covered = cov;
    return sum;
}
