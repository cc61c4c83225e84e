/*
 * engine_bugs.c - the bugs a search finds beyond its plain runs: the
 * sanitizer binary (--sanitize, --sanitize-mode; build_extra.c builds it)
 * and the triage of each new crash (exec/triage.h).
 *
 * How ASan's cost is paid is --sanitize-mode's choice:
 *   all  every input runs on prog.san, as libFuzzer runs every input under
 *        ASan: prog.san replaces prog.cov (its edge ids are the same,
 *        build_result.san_aligned; else `new` is used);
 *   new  prog.cov runs the inputs and prog.san, in a second executor,
 *        re-runs each input that became a test and each crash, as AFL++
 *        users run a sanitizer build over the queue;
 *   N    as new, and one input in N besides (a bug that changes no
 *        coverage, an overflow by a value, can still be met).
 * A sanitizer's report ends its run as EXEC_SANITIZER (rt_signal.c), a
 * crash of its own kind; those of the second executor are crash
 * namespace 2.  Re-runs are executions of the budget.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../compile/build.h"
#include "engine_int.h"

/* ==== crash triage ============================================================ */

/* The binary with line tables that shows a crash of namespace ns and kind k
 * (*san: a sanitizer binary), or NULL: prog.san for what a sanitizer
 * reported or for prog.san's own crashes, else prog.dbg (built at the
 * first crash). */
static const char *triage_binary(search_ctx *c, unsigned ns, exec_kind k, bool *san)
{
    *san = k == EXEC_SANITIZER || ns == 2 || (ns == 0 && c->san.main);
    if (*san)
        return c->build->san_bin;
    if (!c->tri.dbg_bin && !c->tri.dbg_failed) {
        ctg_err e = {{0}};
        double t0 = fs_now();
        if (!c->build->opts || !(c->tri.dbg_bin = build_debug_twin(c->build, c->build->opts, &e))) {
            c->tri.dbg_failed = true;
            ctx_log(c, "crash triage: no build with line tables: %s", e.msg);
        }
        stats_set(c->out.stats, "crashes.dbg_build_s", fs_now() - t0);
    }
    return c->tri.dbg_bin;
}

/* crash_triage_fn of the engine: the kind, place and frames of a new crash
 * signature.  Timeouts, memory exhaustion, errors and stack overflows are
 * known by their signature alone. */
static bool triage_crash(void *arg, unsigned ns, const exec_result *r, const test_t *t,
                         triage_info *out)
{
    search_ctx *c = arg;
    if (r->kind != EXEC_CRASH && r->kind != EXEC_ABORT && r->kind != EXEC_SANITIZER)
        return false;
    if (r->stack_overflow)
        return false;
    bool san;
    const char *bin = triage_binary(c, ns, r->kind, &san);
    if (!bin)
        return false;
    triage_opts o = {bin, san, c->opts->exec.prog_args.items, c->opts->exec.prog_args.n,
                     c->out.scratch, 10.0, (long)c->opts->exec.mem_mb};
    ctg_err e = {{0}};
    double t0 = fs_now();
    bool ok = triage_run(&o, t->data, t->len, out, &e);
    c->tri.secs += fs_now() - t0;
    c->tri.triaged++;
    if (!ok)
        ctx_log(c, "crash triage: %s", e.msg);
    return ok && out->key;
}

void eng_triage_start(search_ctx *c)
{
    crashes_set_triage(c->out.crashes, triage_crash, c);
    if (c->build->san_bin)
        crashes_set_binary(c->out.crashes, 2, c->build->san_bin);
}

/* ==== the sanitizer binary ====================================================== */

bool eng_san_is_main(const search_ctx *c) { return c->san.main; }

/* The executor config of prog.san in a second executor: the run's, with
 * the binary's own counts (prog.cov's when its ids agree) and the
 * timeout's cap (it is not calibrated). */
static exec_config san_config(const search_ctx *c, const char *binary)
{
    exec_config xc = eng_run_config(c, binary, true);
    xc.n_edges = c->build->san_n_edges;
    xc.n_cmp = c->build->san_n_cmp;
    xc.timeout_ms = c->opts->exec.timeout_auto ? 1000u : c->opts->exec.timeout_ms;
    return xc;
}

bool eng_san_start(search_ctx *c, ctg_err *e)
{
    const build_result *b = c->build;
    if (!b->san_bin || c->san.main)
        return true;
    const char *mode = c->opts->exec.san_mode;
    c->san.every = 0;
    if (strcmp(mode, "new") && strcmp(mode, "all"))
        c->san.every = strtoull(mode, NULL, 10);
    exec_config xc = san_config(c, b->san_bin);
    c->san.x = exec_new(&xc, e);
    return c->san.x != NULL;
}

void eng_san_free(search_ctx *c)
{
    exec_free(c->san.x);
    c->san.x = NULL;
}

/* Runs in on sanitizer executor x and records what a sanitizer says. */
static void san_run(search_ctx *c, exec_t *x, const uint8_t *in, size_t len)
{
    if (!eng_execs_left(c, 1)) /* a test kept as the last goal is covered is checked too */
        return;
    if (x == c->x) /* its crashes waiting for minimisation first: they use its maps */
        eng_minimise_crashes(c, c->x);
    exec_result r;
    if (!exec_run(x, in, len, 0, 0, &r, &c->err)) {
        c->failed = true;
        return;
    }
    c->execs++;
    c->kinds[r.kind]++;
    c->san.runs++;
    if (r.kind != EXEC_SANITIZER)
        return;
    c->san.found++;
    eng_record_crash(c, x, &r);
    eng_minimise_crashes(c, x);
}

/* The executor that re-runs a run of x under the sanitizers: the second
 * one, or with --sanitize-mode all prog.san itself for the runs of another
 * binary (prog.sym's); NULL when none is due. */
static exec_t *san_target(const search_ctx *c, const exec_t *x)
{
    if (c->san.x)
        return x == c->san.x ? NULL : c->san.x;
    return c->san.main && x != c->x ? c->x : NULL;
}

void eng_san_after(search_ctx *c, exec_t *x, const exec_result *r, bool kept)
{
    exec_t *to = san_target(c, x);
    if (!to || c->failed)
        return;
    bool crash = r->kind == EXEC_CRASH || r->kind == EXEC_ABORT;
    bool sample = c->san.x && c->san.every && ++c->san.due >= c->san.every;
    if (!kept && !crash && !sample)
        return;
    if (sample)
        c->san.due = 0;
    if (crash && to == c->x)
        return; /* record_crash_via_cov ran it there already */
    size_t area, used = exec_consumed(x);
    uint8_t *copy = ctg_malloc(used + 1);
    if (!copy)
        return;
    memcpy(copy, exec_input(x, &area), used);
    san_run(c, to, copy, used);
    ctg_free(copy);
}

void eng_san_batch(search_ctx *c, const uint8_t *const *in, const size_t *len, uint32_t n)
{
    if (!c->san.x || !c->san.every || !n || c->failed)
        return;
    c->san.due += n;
    if (c->san.due < c->san.every)
        return;
    uint64_t back = c->san.due - c->san.every; /* the input that made it due */
    c->san.due = 0;
    uint32_t k = back < n ? n - 1 - (uint32_t)back : 0;
    san_run(c, c->san.x, in[k], len[k]);
}

/* stats.json's "bugs" and the summary's lines of them (into b). */
static void list_bugs(search_ctx *c, sbuf *b)
{
    size_t n = crashes_count(c->out.crashes), k = 0;
    stats_bug *v = ctg_calloc(n + 1, sizeof *v);
    char (*names)[64] = ctg_calloc(n + 1, sizeof *names);
    for (size_t i = 0; v && names && i < n; i++) {
        unsigned num;
        exec_kind kind;
        const char *bug_kind, *line = crashes_bug(c->out.crashes, i, &num, &kind, &bug_kind);
        if (!line)
            continue;
        suite_crash_name(kind, num, names[k], sizeof names[k]);
        v[k].file = names[k];
        v[k].kind = (char *)bug_kind;
        v[k].where = (char *)line + strlen(bug_kind) + strlen(" in ");
        if (b)
            sbuf_printf(b, "    %s in %s  (%s)\n", bug_kind, v[k].where, names[k]);
        k++;
    }
    if (v && names)
        stats_set_bugs(c->out.stats, v, k);
    ctg_free(v);
    ctg_free(names);
}

void eng_bug_lines(search_ctx *c, sbuf *b) { list_bugs(c, b); }

void eng_san_counters(search_ctx *c)
{
    list_bugs(c, NULL);
    stats_set(c->out.stats, "crashes.triaged", (double)c->tri.triaged);
    stats_set(c->out.stats, "crashes.triage_s", c->tri.secs);
    stats_set(c->out.stats, "crashes.same_bug", (double)crashes_aliases(c->out.crashes));
    if (!c->build->san_bin)
        return;
    stats_set(c->out.stats, "sanitizer.runs", (double)c->san.runs);
    stats_set(c->out.stats, "sanitizer.reports", (double)c->kinds[EXEC_SANITIZER]);
    stats_set_info(c->out.stats, "sanitize.mode", c->san.main ? "all" : c->opts->exec.san_mode);
}
