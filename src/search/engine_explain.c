/*
 * engine_explain.c - why a goal was not reached (issue 58): at the end of
 * a run, the suite's tests run once more on prog.cov with branch distances
 * on (CTG_FL_DIST), and each uncovered edge gets the test that came
 * closest to taking it and its distance (the SBST fitness's branch
 * distance: 0 would have taken it), or the fact that its branch never ran
 * or ran without a comparison to measure.  These runs are not searched:
 * they change no coverage, count in no budget and write nothing.  What
 * the solver answered when concolic asked for a path into the edge (sat,
 * unsat, unknown) is counted as the search goes (ctx_note_flip).
 */
#include <math.h>
#include <string.h>

#include "../base/interrupt.h"
#include "../base/mem.h"
#include "engine_int.h"
#include "prove/bmc.h"

#define EXPLAIN_MAX_TESTS 512 /* the suite's last tests, when it has more */

/* Marks the branch of every edge that test's run executed in ran[]. */
static void note_ran(const progdb *db, const uint8_t *cov, const double *dist, bool *ran)
{
    for (uint32_t i = 0; i < db->n_edges; i++)
        if (cov[i] || dist[i] > 0)
            ran[db->edges[i].branch] = true;
}

/* Runs test t with distances on, folding them into m (kept index k). */
static bool measure(search_ctx *c, const test_t *t, eng_miss *m, bool *ran)
{
    exec_result r;
    ctg_err e = {{0}};
    if (!exec_run(c->x, t->data, t->len, CTG_FL_DIST, 0, &r, &e))
        return false;
    const double *dist = exec_dist(c->x);
    const uint8_t *cov = exec_cov(c->x);
    note_ran(c->db, cov, dist, ran);
    for (uint32_t i = 0; i < c->db->n_edges; i++) {
        if (archive_edge_covered(c->archive, i) || dist[i] <= 0)
            continue;
        if (m[i].test < 0 || dist[i] - 1 < m[i].dist) {
            m[i].dist = dist[i] - 1;
            m[i].test = (int32_t)t->id;
        }
    }
    return true;
}

void ctx_note_flip(search_ctx *c, uint32_t edge, int answer)
{
    if (edge >= c->db->n_edges || answer < CTX_FLIP_SAT || answer > CTX_FLIP_UNKNOWN)
        return;
    if (!c->flips && !(c->flips = ctg_calloc(c->db->n_edges, sizeof *c->flips)))
        return; /* out of memory: the explanation goes without */
    if (c->flips[edge][answer] < UINT32_MAX)
        c->flips[edge][answer]++;
}

eng_miss *eng_explain_misses(search_ctx *c)
{
    const progdb *db = c->db;
    if (!c->x || c->failed || c->opts->search.no_explain || interrupt_requested() ||
        archive_covered_edges(c->archive) == db->n_edges)
        return NULL;
    eng_miss *m = ctg_calloc(db->n_edges + 1, sizeof *m);
    bool *ran = ctg_calloc(db->n_branches + 1, sizeof *ran);
    if (!m || !ran) {
        ctg_free(m);
        ctg_free(ran);
        return NULL;
    }
    for (uint32_t i = 0; i < db->n_edges; i++)
        m[i].test = -1;
    size_t from = c->n_kept > EXPLAIN_MAX_TESTS ? c->n_kept - EXPLAIN_MAX_TESTS : 0;
    for (size_t k = from; k < c->n_kept; k++)
        if (!measure(c, c->kept[k], m, ran))
            break;
    for (uint32_t i = 0; i < db->n_edges; i++) /* a covered side: its branch ran */
        ran[db->edges[i].branch] |= archive_edge_covered(c->archive, i);
    for (uint32_t i = 0; i < db->n_edges; i++) {
        m[i].branch_ran = ran[db->edges[i].branch];
        if (c->flips)
            memcpy(m[i].flips, c->flips[i], sizeof m[i].flips);
    }
    ctg_free(ran);
    return m;
}

/* The words of an uncovered goal's "why" (stats.json, report). */
void eng_miss_why(const eng_miss *m, char *buf, size_t cap)
{
    int n;
    if (m->test >= 0)
        n = snprintf(buf, cap, "closest: test-%05d.xml, branch distance %.4g", m->test, m->dist);
    else if (m->branch_ran)
        n = snprintf(buf, cap, "its branch ran, always the other way (no comparison to measure)");
    else
        n = snprintf(buf, cap, "its branch never ran");
    const uint32_t *f = m->flips;
    if (n < 0 || (size_t)n >= cap || !(f[0] + f[1] + f[2]))
        return;
    static const char *const words[] = {"sat %u (the run went elsewhere)", "unsat %u", "unknown %u"};
    size_t at = (size_t)n;
    at += (size_t)snprintf(buf + at, cap - at, "; the solver, asked for a path into it:");
    for (int k = 0; k < 3 && at < cap; k++)
        if (f[k]) {
            at += (size_t)snprintf(buf + at, cap - at, " ");
            if (at < cap)
                at += (size_t)snprintf(buf + at, cap - at, words[k], f[k]);
        }
}

/* What may have stopped the engines, from their counters: into b. */
static void stoppers(search_ctx *c, sbuf *b)
{
    static const struct {
        const char *counter, *words;
    } table[] = {
        {"solver.timeout", "solver timeouts"},
        {"solver.unknown", "solver unknowns"},
        {"concolic.concretized_runs", "concolic runs with an operation made concrete"},
        {"concolic.truncated_traces", "concolic traces cut at their size"},
        {"concolic.divergences", "concolic runs that left the predicted path"},
        {"tests.cut_at_cap", "tests cut at the input cap"},
        {"runs.timeout", "runs timed out"},
    };
    for (size_t i = 0; i < sizeof table / sizeof *table; i++) {
        double v = stats_get(c->out.stats, table[i].counter);
        if (v > 0)
            sbuf_printf(b, "%s%.0f %s", b->len ? ", " : "", v, table[i].words);
    }
}

void eng_miss_summary(search_ctx *c, const eng_miss *m)
{
    uint32_t closest = 0, other = 0, never = 0, unsat = 0, bounded = 0;
    unsigned steps = 0;
    double lo = 0, hi = 0;
    for (uint32_t i = 0; m && i < c->db->n_edges; i++) {
        if (archive_edge_covered(c->archive, i) || ctx_goal_unreachable(c, i))
            continue;
        unsat += m[i].flips[CTX_FLIP_UNSAT] && !m[i].flips[CTX_FLIP_SAT] &&
                 !m[i].flips[CTX_FLIP_UNKNOWN];
        bounded += eng_bmc_answer(c, i, &steps) == BMC_UNSAT;
        if (m[i].test >= 0) {
            lo = closest++ == 0 || m[i].dist < lo ? m[i].dist : lo;
            hi = m[i].dist > hi ? m[i].dist : hi;
        } else if (m[i].branch_ran) {
            other++;
        } else {
            never++;
        }
    }
    stats_set(c->out.stats, "goals.not_reached.closest", closest);
    stats_set(c->out.stats, "goals.not_reached.other_way", other);
    stats_set(c->out.stats, "goals.not_reached.never_ran", never);
    stats_set(c->out.stats, "goals.not_reached.solver_unsat", unsat);
    stats_set(c->out.stats, "goals.not_reached.bmc_bound", bounded);
    if (!closest && !other && !never)
        return;
    sbuf b = SBUF_INIT, e = SBUF_INIT;
    if (closest && lo == hi)
        sbuf_printf(&b, "%u with a closest test (branch distance %.3g)", closest, lo);
    else if (closest)
        sbuf_printf(&b, "%u with a closest test (branch distance %.3g to %.3g)", closest, lo, hi);
    if (other)
        sbuf_printf(&b, "%s%u whose branch always went the other way", b.len ? ", " : "", other);
    if (never)
        sbuf_printf(&b, "%s%u whose branch never ran", b.len ? ", " : "", never);
    if (unsat)
        sbuf_printf(&b, "; %u the solver found unsat on every path it was asked for", unsat);
    if (bounded)
        sbuf_printf(&b, "; %u no path of at most %u blocks reaches (bounded checker)", bounded,
                    steps);
    stoppers(c, &e);
    ctx_summary_line(c, "  not reached       %u edge%s: %s%s%s", closest + other + never,
                     closest + other + never == 1 ? "" : "s", sbuf_str(&b),
                     e.len ? "; the engines met " : "", sbuf_str(&e));
    sbuf_release(&e);
    sbuf_release(&b);
}
