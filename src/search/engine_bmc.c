/*
 * engine_bmc.c - the bounded checker (prove/bmc.h) in a run (issue 58,
 * part 2): it starts with the search in a child process; its result comes
 * when it comes with a time budget, at the end with --time 0 (waited for).  Its inputs run through the engine like any other (the
 * replay decides what they cover), before the search's next run, or at
 * the end beyond the budget, as the explanation runs do.  Then its claims:
 * when no execution runs beyond the bound, a goal no path reaches is
 * unreachable for every input; otherwise it is reported as not reached,
 * with the bound within which no path reaches it.
 */
#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../compile/build.h"
#include "engine_int.h"
#include "prove/bmc.h"

#define BMC_STEPS 400u           /* block executions of a path             */
#define BMC_NODES 3000000u       /* expression nodes of the unrolling      */
#define BMC_QUERY_MS 4000u       /* per solver query                       */
/* Its seconds: as Eva's (eng_prove_budget); with --time 0, when the run
 * waits for it, this.  It stops unrolling and asking at nine tenths of
 * them and writes what it has (a program small enough answers within its
 * bounds, the same every time). */
#define BMC_WAIT_CPU_S 10.0

void eng_bmc_start(search_ctx *c, const char *dir)
{
    const char *p = c->opts->search.prove;
    bool timed = c->opts->search.time_s > 0; /* auto: beside a timed search only */
    if ((strcmp(p, "bmc") && (strcmp(p, "auto") || !timed)) || !c->build->bitcode || !dir)
        return;
    ctg_err e = {{0}};
    if (!eng_prove_alloc(c) || !fs_mkdir_p(dir, &e)) {
        snprintf(c->prv.bmc_note, sizeof c->prv.bmc_note, "bounded checker: %.280s",
                 e.msg[0] ? e.msg : "out of memory");
        return;
    }
    bmc_input in = {c->build->bitcode, c->db->n_edges, c->db->n_errors, BMC_STEPS, BMC_NODES,
                    BMC_QUERY_MS, eng_prove_budget(c->opts, BMC_WAIT_CPU_S), dir, NULL};
    c->prv.bmc = bmc_start(&in, &e);
    if (!c->prv.bmc)
        snprintf(c->prv.bmc_note, sizeof c->prv.bmc_note, "bounded checker: %.280s", e.msg);
}

/* Queues the goals of the result whose inputs run (one per distinct input). */
static void queue(search_ctx *c, const bmc_result *r)
{
    c->prv.pend = ctg_calloc(r->sat + 1, sizeof *c->prv.pend);
    for (uint32_t g = 0; c->prv.pend && g < r->n_goals; g++) {
        const bmc_goal *d = &r->goals[g];
        bool dup = d->answer != BMC_SAT || !d->bytes;
        for (size_t i = 0; i < c->prv.n_pend && !dup; i++) {
            const bmc_goal *q = &r->goals[c->prv.pend[i]];
            dup = q->n_bytes == d->n_bytes && !memcmp(q->bytes, d->bytes, d->n_bytes);
        }
        if (!dup)
            c->prv.pend[c->prv.n_pend++] = g;
    }
}

/* The exhaustive result's unsat goals become proofs. */
static void mark_proofs(search_ctx *c, const bmc_result *r)
{
    if (!r->exhaustive)
        return;
    c->prv.marking = PRV_BY_BMC;
    for (uint32_t g = 0; g < c->db->n_edges + c->db->n_errors && g < r->n_goals; g++) {
        if (r->goals[g].answer != BMC_UNSAT)
            continue;
        if (g < c->db->n_edges)
            eng_prove_mark_edge(c, g);
        else
            eng_prove_mark_error(c, g - c->db->n_edges);
    }
}

/* Takes the ended child's result. */
static void take(search_ctx *c)
{
    const char *why;
    const bmc_result *r = bmc_job_result(c->prv.bmc, &why);
    c->prv.bmc_done = true;
    if (!r || !r->ok) {
        snprintf(c->prv.bmc_note, sizeof c->prv.bmc_note, "bounded checker claims nothing: %.260s",
                 why && why[0] ? why : "gave up");
        return;
    }
    c->prv.bmc_res = r;
    queue(c, r);
    unsigned asked = r->sat + r->unsat + r->unknown;
    char rest[64] = "";
    if (asked < r->n_goals)
        snprintf(rest, sizeof rest, ", %u not asked (out of time)", r->n_goals - asked);
    snprintf(c->prv.bmc_note, sizeof c->prv.bmc_note,
             "bounded checker (%.1fs, %u blocks a path%s): %u goals reachable, %u not within the "
             "bound, %u unknown%s", r->secs, r->steps,
             r->exhaustive ? ", every execution ends within them" : "", r->sat, r->unsat,
             r->unknown, rest);
    mark_proofs(c, r); /* a test that covers one voids every claim (engine_prove.c) */
}

void eng_bmc_poll(search_ctx *c)
{
    if (c->prv.bmc && !c->prv.bmc_done && c->prv.polling && bmc_poll(c->prv.bmc, false))
        take(c);
}

/* Runs the queued inputs on x (prog.cov's executor only). */
bool eng_bmc_before_run(search_ctx *c, exec_t *x)
{
    while (x == c->x && c->prv.next_pend < c->prv.n_pend && !c->failed) {
        const bmc_goal *d = &c->prv.bmc_res->goals[c->prv.pend[c->prv.next_pend++]];
        ctx_run out;
        uint32_t before = archive_covered_edges(c->archive);
        if (!eng_run_on(c, x, d->bytes, d->n_bytes, 0, &out))
            return !c->failed;
        c->prv.bmc_ran++;
        c->prv.bmc_new += archive_covered_edges(c->archive) - before;
    }
    return true;
}

void eng_bmc_finish(search_ctx *c)
{
    if (!c->prv.bmc)
        return;
    if (!c->prv.bmc_done && bmc_poll(c->prv.bmc, !c->prv.polling && !interrupt_requested()))
        take(c);
    else if (!c->prv.bmc_done)
        snprintf(c->prv.bmc_note, sizeof c->prv.bmc_note,
                 "the bounded checker had not finished when the search ended");
    bool stop = c->stop;
    const char *reason = c->stop_reason;
    c->stop = false; /* its inputs run beyond the budget, as explanations do */
    c->prv.draining = true;
    eng_bmc_before_run(c, c->x);
    c->prv.draining = false;
    c->stop = stop;
    c->stop_reason = reason;
    if (c->prv.bmc_note[0])
        stats_set_info(c->out.stats, "bmc", c->prv.bmc_note);
    stats_set(c->out.stats, "bmc.inputs_run", c->prv.bmc_ran);
    stats_set(c->out.stats, "bmc.edges_new", c->prv.bmc_new);
    if (c->prv.bmc_ran)
        ctx_log(c, "bounded checker: %u input%s ran, %u edge%s newly covered", c->prv.bmc_ran,
                c->prv.bmc_ran == 1 ? "" : "s", c->prv.bmc_new, c->prv.bmc_new == 1 ? "" : "s");
}

int eng_bmc_answer(const search_ctx *c, uint32_t goal, unsigned *steps)
{
    const bmc_result *r = c->prv.bmc_res;
    *steps = r ? r->steps : 0;
    return r && goal < r->n_goals ? r->goals[goal].answer : BMC_NONE;
}

void eng_bmc_free(search_ctx *c)
{
    bmc_free(c->prv.bmc); /* and its result */
    c->prv.bmc = NULL;
    c->prv.bmc_res = NULL;
    ctg_free(c->prv.pend);
    c->prv.pend = NULL;
    c->prv.n_pend = c->prv.next_pend = 0;
}
