/*
 * session.c - a `ctestgen run` from the options to the finished output
 * directory (run.h): prepare, build (building.c), search, finish.
 */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "jobs.h"
#include "mpi.h"

/* engine_set_error_check's hook: runs an error test as the replay will. */
static int check_error_test(void *arg, const test_t *t, char *how, size_t cap, ctg_err *e)
{
    run_errcheck *k = arg;
    if (!k->s) {
        replay_opts ro = run_replay_opts(k->o, k->o->out.out_dir, k->src, k->n_src);
        ro.arch_bits = k->o->build.arch_bits;
        if (!(k->s = replay_open(&ro, e)))
            return -1;
    }
    replay_test rt;
    if (!replay_one(k->s, t, true, &rt, e))
        return -1;
    ctg_free(rt.name);
    snprintf(how, cap, "%s", replay_outcome_name(rt.outcome));
    return rt.reached_error ? 1 : 0;
}

/* The strategy's option values, checked before any work (a usage error). */
static bool strategy_options_ok(const ctg_options *o, ctg_err *e)
{
    const strategy *st = strategy_find(o->search.strategy);
    return !st || !st->check || st->check(o, e);
}

/* The prepare phase: a strategy's generated harness, --function's driver. */
static bool run_prepare(run_session *S, ctg_err *e)
{
    const ctg_options *o = S->o;
    S->st = strategy_find(o->search.strategy);
    if (S->st && S->st->prepare && !S->st->prepare(o, &S->gen, &S->n_gen, e))
        return false;
    S->fn = o->build.function && !S->gen;
    return !S->fn || fmode_prepare(o, &S->fm, e);
}

/* The search phase: one process, --jobs workers or MPI ranks; a Test-Comp
 * harness run in one process has its error tests checked under gcc. */
static bool run_search(run_session *S, ctg_err *e)
{
    const ctg_options *o = S->o;
    const char *prog = S->gen ? S->gen[0] : o->positional.items[0]; /* what was built */
    S->ek = (run_errcheck){.o = o,
                           .src = S->gen ? (const char *const *)S->gen : o->positional.items,
                           .n_src = S->gen ? S->n_gen : o->positional.n};
    if (!o->replay.no_error_check && S->target->error_check &&
        !o->exec.mpi && o->exec.jobs <= 1)
        engine_set_error_check(check_error_test, &S->ek);
    bool ok = o->exec.mpi       ? mpi_run(o, prog, &S->br, S->t_start, &S->s, &S->root, e)
              : o->exec.jobs > 1 ? jobs_run(o, prog, &S->br, S->t_start, &S->s, e)
                                 : engine_run(o, prog, &S->br, &S->s, e);
    engine_set_error_check(NULL, NULL);
    replay_close(S->ek.s);
    S->ek.s = NULL;
    S->searched = S->s.stop_reason && !o->ui.quiet && (ok || S->s.execs > 0);
    return ok;
}

/* The finish phase: the summary, and when the search went well function
 * mode's files and the outputs; ok: how the search went (the result). */
static bool run_finish(run_session *S, bool ok, ctg_err *e)
{
    if (S->searched)
        run_print_summary(S);
    if (ok && S->fn)
        ok = fmode_finish(S->o, &S->fm, e);
    if (ok)
        run_outputs(S);
    if (S->searched)
        run_print_output_line(S);
    return ok;
}

static void run_release(run_session *S)
{
    if (S->checked)
        replay_result_release(&S->rr);
    buildrec_release(&S->rec);
    fmode_release(&S->fm);
    engine_summary_release(&S->s);
    if (S->built)
        build_result_release(&S->br);
    for (int i = 0; S->gen && i < S->n_gen; i++)
        ctg_free(S->gen[i]);
    ctg_free(S->gen);
}

/* The status of a finished session, e set to what the user should do. */
static run_status end_status(const run_session *S, bool ok, ctg_err *e)
{
    const char *out = S->o->out.out_dir;
    if (!ok)
        return RUN_FAILED;
    if (interrupt_requested()) {
        err_set(e, "interrupted; what was found is in %s/ (continue with --resume -o %s)", out,
                out);
        return RUN_INTERRUPTED;
    }
    if (S->s.write_failed) { /* the failure was named when it happened, but with -q */
        if (S->o->ui.quiet)
            err_set(e, "%s: the output is incomplete: %s; free space and run again", out,
                    S->s.write_error);
        else
            err_set(e, "%s: the output is incomplete (a file could not be written); free space "
                       "and run again", out);
        return RUN_INCOMPLETE;
    }
    return RUN_OK;
}

run_status run_main(const ctg_options *o, ctg_err *e)
{
    interrupt_install();
    if (o->positional.n < 1) {
        err_set(e, "run: no program given; usage: ctestgen run PROG.c [MORE.c ...] [options]");
        return RUN_USAGE;
    }
    if (!run_sanitize_ok(o, e) || !strategy_options_ok(o, e))
        return RUN_USAGE;
    run_session S = {.o = o, .root = true, .t_start = fs_now()};
    bool ok = run_prepare(&S, e) && run_build(&S, e);
    ok = ok && run_search(&S, e);
    if (S.root && S.built) /* an MPI rank other than 0: rank 0 reports */
        ok = run_finish(&S, ok, e);
    run_status st = S.root ? end_status(&S, ok, e) : ok ? RUN_OK : RUN_FAILED;
    run_release(&S);
    return st;
}
