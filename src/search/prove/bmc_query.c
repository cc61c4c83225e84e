/*
 * bmc_query.c - bmc_check: the unrolling (bmc.c, bmc_step.c), then one
 * solver query per goal; a model is an input, and every goal it also
 * reaches (by evaluation) shares it without a query of its own.  The
 * result as a file, for the child of bmc_job.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/sbuf.h"
#include "../../solver/solver.h"
#include "bmc_int.h"

#define BMC_CHECKPOINT_S 0.5

/* The input of model m: max_pos bytes, the unassigned ones 0. */
static bool model_bytes(const bmc *B, const solver_model *m, bmc_goal *g)
{
    g->n_bytes = B->max_pos ? B->max_pos : 1;
    g->bytes = ctg_calloc(g->n_bytes, 1);
    if (!g->bytes)
        return false;
    for (size_t i = 0; i < m->n; i++)
        if (m->v[i].key < g->n_bytes)
            g->bytes[m->v[i].key] = (uint8_t)m->v[i].val;
    return true;
}

/* Every goal not yet answered that input bytes[0 .. n) reaches gets it. */
static bool share(bmc *B, bmc_result *r, const bmc_goal *src)
{
    expr_env env = {.bytes = src->bytes, .n_bytes = src->n_bytes};
    expr_u128 *vals = ctg_calloc(B->n_goals + 1, sizeof *vals);
    expr **roots = ctg_calloc(B->n_goals + 1, sizeof *roots);
    uint32_t *idx = ctg_calloc(B->n_goals + 1, sizeof *idx);
    size_t n = 0;
    bool ok = vals && roots && idx;
    for (uint32_t g = 0; ok && g < B->n_goals; g++)
        if (r->goals[g].answer == BMC_NONE && B->reach[g] && !(B->reach[g]->flags & EXPR_F_INEXACT)) {
            roots[n] = B->reach[g];
            idx[n++] = g;
        }
    ok = ok && (!n || expr_eval(B->x, roots, n, &env, vals));
    for (size_t i = 0; ok && i < n; i++) {
        if (!(vals[i] & 1))
            continue;
        bmc_goal *d = &r->goals[idx[i]];
        d->bytes = ctg_malloc(src->n_bytes);
        if (!(ok = d->bytes != NULL))
            break;
        memcpy(d->bytes, src->bytes, src->n_bytes);
        d->n_bytes = src->n_bytes;
        d->answer = BMC_SAT;
        r->sat++;
    }
    ctg_free(vals);
    ctg_free(roots);
    ctg_free(idx);
    return ok;
}

/* Asks the solver for goal g. */
static bool ask(bmc *B, solver *sv, bmc_result *r, uint32_t g, ctg_err *e)
{
    bmc_goal *d = &r->goals[g];
    if (!B->reach[g] || expr_is_false(B->reach[g])) {
        d->answer = BMC_UNSAT;
        r->unsat++;
        return true;
    }
    solver_model m = SOLVER_MODEL_INIT;
    expr_env none = {0};
    solver_result a = solver_solve(sv, B->x, &B->reach[g], 1, 0, &none, &m, e);
    bool ok = a != SOLVER_FAIL;
    if (a == SOLVER_SAT && (ok = model_bytes(B, &m, d))) {
        d->answer = BMC_SAT;
        r->sat++;
        ok = share(B, r, d);
    } else if (a == SOLVER_UNSAT) {
        d->answer = BMC_UNSAT;
        r->unsat++;
    } else if (a == SOLVER_SKIP) {
        d->answer = BMC_UNKNOWN;
        r->unknown++;
    }
    solver_model_release(&m);
    return ok;
}

/* Whether a path still running at the bound is feasible: unsat means every
 * execution ended within it. */
static bool none_left(bmc *B, solver *sv, ctg_err *e)
{
    expr *any = expr_bool(B->x, false);
    for (size_t i = 0; i < B->cur.n; i++)
        any = expr_or(B->x, any, B->cur.s[i].guard);
    if (!any || expr_is_false(any))
        return any != NULL;
    solver_model m = SOLVER_MODEL_INIT;
    expr_env none = {0};
    solver_result a = solver_solve(sv, B->x, &any, 1, 0, &none, &m, e);
    solver_model_release(&m);
    return a == SOLVER_UNSAT;
}

/* Writes what r holds so far to in->result_path (if any), at most every
 * BMC_CHECKPOINT_S: a child stopped at its CPU limit leaves its answers. */
static void checkpoint(const bmc_input *in, bmc_result *r, double *last)
{
    if (!in->result_path || fs_now() - *last < BMC_CHECKPOINT_S)
        return;
    ctg_err e = {{0}};
    r->ok = true; /* what is there is sound: unset answers are not asked */
    bmc_result_write(r, in->result_path, &e);
    r->ok = false;
    *last = fs_now();
}

static bool queries(bmc *B, const bmc_input *in, bmc_result *r, double deadline, ctg_err *e)
{
    solver_opts so;
    solver_opts_default(&so);
    so.timeout_ms = in->query_ms;
    so.slice = false;
    solver *sv = solver_new(&so, e);
    if (!sv)
        return false;
    bool ok = true;
    double last = 0;
    checkpoint(in, r, &last);
    if (!r->exhaustive && fs_now() < deadline)
        r->exhaustive = none_left(B, sv, e);
    /* error calls first: they matter most */
    for (uint32_t k = 0; ok && k < B->n_goals && fs_now() < deadline; k++) {
        uint32_t g = (k + B->n_edges) % B->n_goals;
        if (r->goals[g].answer == BMC_NONE)
            ok = ask(B, sv, r, g, e);
        checkpoint(in, r, &last);
    }
    solver_free(sv);
    return ok;
}

static void bmc_release(bmc *B)
{
    bmc_states_release(&B->cur);
    bmc_states_release(&B->nxt);
    hmap_release(&B->slot);
    hmap_release(&B->bidx);
    ctg_free(B->blocks);
    ctg_free(B->reach);
    expr_ctx_free(B->x);
    if (B->mod)
        LLVMDisposeModule(B->mod);
    if (B->cx)
        LLVMContextDispose(B->cx);
}

bool bmc_check(const bmc_input *in, bmc_result *r, ctg_err *e)
{
    double t0 = fs_now(), deadline = t0 + (in->cpu_s > 0 ? in->cpu_s * 0.9 : 1e12);
    bmc B = {.n_edges = in->n_edges, .n_goals = in->n_edges + in->n_errors};
    memset(r, 0, sizeof *r);
    r->n_goals = B.n_goals;
    r->goals = ctg_calloc(B.n_goals + 1, sizeof *r->goals);
    B.reach = ctg_calloc(B.n_goals + 1, sizeof *B.reach);
    B.x = expr_ctx_new();
    bool ok = r->goals && B.reach && B.x;
    if (!ok)
        err_set(e, "out of memory");
    ok = ok && bmc_load(&B, in->bitcode, e) && bmc_first(&B);
    if (ok)
        r->exhaustive = bmc_unroll(&B, in->max_steps, in->max_nodes, t0 + (deadline - t0) / 2,
                                   &r->steps); /* half the time at most: the queries get the rest */
    r->secs = fs_now() - t0;
    ok = ok && !B.failed && queries(&B, in, r, deadline, e);
    r->ok = ok && !B.failed;
    if (B.failed)
        snprintf(r->why, sizeof r->why, "%s", B.why);
    r->secs = fs_now() - t0;
    bmc_release(&B);
    return !e->msg[0];
}

void bmc_result_release(bmc_result *r)
{
    for (uint32_t g = 0; r->goals && g < r->n_goals; g++)
        ctg_free(r->goals[g].bytes);
    ctg_free(r->goals);
    memset(r, 0, sizeof *r);
}

bool bmc_result_write(const bmc_result *r, const char *path, ctg_err *e)
{
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "ok %d\nsteps %u\nexhaustive %d\nsecs %.3f\nwhy %s\n", r->ok, r->steps,
                r->exhaustive, r->secs, r->why[0] ? r->why : "-");
    static const char *const names[] = {"none", "sat", "unsat", "unknown"};
    for (uint32_t g = 0; r->ok && g < r->n_goals; g++) {
        if (r->goals[g].answer == BMC_NONE)
            continue;
        sbuf_printf(&b, "goal %u %s ", g, names[r->goals[g].answer]);
        for (size_t i = 0; i < r->goals[g].n_bytes; i++)
            sbuf_printf(&b, "%02x", r->goals[g].bytes[i]);
        sbuf_puts(&b, "-\n");
    }
    bool ok = sbuf_ok(&b) ? fs_write_atomic(path, sbuf_str(&b), b.len, e)
                          : (err_set(e, "out of memory"), false);
    sbuf_release(&b);
    return ok;
}
