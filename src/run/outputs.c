/*
 * outputs.c - what a run writes after the search beyond the search's own
 * files (test-suite/, corpus/, crashes/, stats.json): one table, an entry
 * an output, each written when it is wanted, in the table's order.  A new
 * output is one entry.  A failure of one is a warning (the suite is written
 * and valid), but for the zip, whose failure makes the output incomplete.
 */
#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../report/export.h"
#include "../report/htmlreport.h"
#include "../report/runcheck.h"
#include "../suite/suite.h"
#include "outprog.h"
#include "session.h"

typedef struct run_output {
    const char *name;
    bool (*wanted)(const run_session *S);
    void (*write)(run_session *S);
} run_output;

/* Whether the run ended with something on disk to go on from. */
static bool suite_whole(const run_session *S)
{
    return !interrupt_requested() && !S->s.write_failed;
}

/* Whether the suite's tests are the bytes the program reads (stdin, @@). */
static bool bytes(const run_session *S) { return S->target->raw_tests; }

/* ==== build.json ================================================================ */

static bool want_buildrec(const run_session *S)
{
    return !S->s.write_failed && fs_is_dir(S->o->out.out_dir);
}

/* OUT/build.json: the program's files and flags, for replay, export and
 * report from anywhere (buildrec.h). */
static void write_buildrec(run_session *S)
{
    const ctg_options *o = S->o;
    ctg_err e = {{0}};
    const char *san = S->br.san_bin ? strchr(S->br.san_bin, '-') : NULL;
    if (!buildrec_make(&S->rec, o->positional.items, o->positional.n, o->build.cflags.items,
                       o->build.cflags.n, S->br.db->arch_bits, san ? san + 1 : NULL, &e) ||
        !buildrec_write(o->out.out_dir, &S->rec, &e)) {
        fflush(stdout);
        fprintf(stderr, "ctestgen: warning: %s not written: %s\n", BUILDREC_FILE, e.msg);
    }
}

/* ==== the replay check =============================================================== */

static bool want_check(const run_session *S)
{
    return !S->o->replay.no_check && suite_whole(S) && S->s.tests;
}

/* The check's line of the summary. */
static void print_check(const ctg_options *o, const runcheck_result *r)
{
    printf("  gcov replay       branches %u/%u (%.1f%%), error %s, %u test%s", r->branches_covered,
           r->branches, run_pct(r->branches_covered, r->branches),
           r->error_reached ? "reached" : "not reached", r->tests, r->tests == 1 ? "" : "s");
    if (r->crashed)
        printf(", %u crashed", r->crashed);
    if (r->ran_out)
        printf(", %u ran out of values", r->ran_out);
    printf("  (gcc --coverage, as TestCov%s)\n",
           r->generated ? "; the program's files, not the generated driver" : "");
    if (r->removed)
        printf("  replay timeouts   %u test%s ran past %g s under gcc: moved to crashes/\n",
               r->removed, r->removed == 1 ? "" : "s", o->replay.timeout_s);
}

/* The replay check after the search (runcheck.h): gcov's figure beside the
 * engine's, hanging tests out of the suite, a warning when they disagree;
 * a byte-input target's replay is kept for regression.c. */
static void write_check(run_session *S)
{
    char *driver;
    int n_src;
    const char **src = run_sources(S, &n_src, &driver);
    runcheck_opts ro = {
        .replay = run_replay_opts(S->o, S->o->out.out_dir, src, n_src),
        .engine_pct = run_pct(S->s.edges_covered, S->s.n_edges),
        .kinds = S->s.test_kinds,
        .n_kinds = S->s.n_test_kinds,
    };
    runcheck_result r;
    ctg_err e = {{0}};
    bool ok = src && runcheck(&ro, &r, bytes(S) ? &S->rr : NULL, &e);
    S->checked = ok && bytes(S);
    ctg_free(src);
    ctg_free(driver);
    fflush(stdout);
    if (!ok)
        fprintf(stderr, "ctestgen: warning: replay check skipped: %s\n",
                src ? e.msg : "out of memory");
    else if (!S->o->ui.quiet)
        print_check(S->o, &r);
    fflush(stdout);
    if (ok && r.warning[0])
        fprintf(stderr, "ctestgen: warning: %s\n", r.warning);
}

/* ==== regression.c ================================================================== */

static bool want_regression(const run_session *S)
{
    return bytes(S) && suite_whole(S) && S->s.tests;
}

/* A byte-input target's C regression tests, OUT/regression.c (export.h),
 * from the replay check's replay when there was one. */
static void write_regression(run_session *S)
{
    const ctg_options *o = S->o;
    char *driver, *path = fs_join(o->out.out_dir, SUITE_REGRESSION_FILE);
    int n_src, arch = 64;
    const char **src = run_sources(S, &n_src, &driver);
    replay_opts ro = run_replay_opts(o, o->out.out_dir, src, n_src);
    ctg_err e = {{0}};
    unsigned n = 0;
    bool ok = src && path && export_c(&ro, S->checked ? &S->rr : NULL, path, &n, &arch, &e);
    fflush(stdout);
    if (!ok)
        fprintf(stderr, "ctestgen: warning: no %s: %s\n", SUITE_REGRESSION_FILE,
                src && path ? e.msg : "out of memory");
    else if (!o->ui.quiet) {
        const buildrec *r = &S->rec;
        printf("  regression tests  %u in %s (run them: ", n, path);
        if (S->gen || !r->n_sources)
            outprog_print_cc(stdout, path, src, n_src, o->build.cflags.items, o->build.cflags.n,
                             arch);
        else
            outprog_print_cc(stdout, path, (const char *const *)r->sources, r->n_sources,
                             (const char *const *)r->flags, r->n_flags, arch);
        printf(" && ./a.out)\n");
    }
    ctg_free(src);
    ctg_free(driver);
    ctg_free(path);
}

/* ==== the report and the zip ============================================================= */

static bool want_report(const run_session *S) { return S->o->replay.report && suite_whole(S); }

/* run --report: OUT/report/index.html. */
static void write_report(run_session *S)
{
    char *driver, *path = NULL;
    int n_src;
    const char **src = run_sources(S, &n_src, &driver);
    replay_opts ro = run_replay_opts(S->o, S->o->out.out_dir, src, n_src);
    ctg_err e = {{0}};
    bool ok = src && html_report(&ro, &path, &e);
    ctg_free(src);
    ctg_free(driver);
    fflush(stdout);
    if (!ok)
        fprintf(stderr, "ctestgen: warning: no report: %s\n", src ? e.msg : "out of memory");
    else if (!S->o->ui.quiet)
        printf("  report            %s\n", path);
    ctg_free(path);
}

static bool want_zip(const run_session *S) { return S->o->out.suite_zip && !S->s.write_failed; }

/* OUT/test-suite.zip as Test-Comp collects it; a failure makes the output
 * incomplete, as a test that could not be written does. */
static void write_zip(run_session *S)
{
    ctg_err ze = {{0}};
    if (!suite_write_zip(S->o->out.out_dir, &ze)) {
        fflush(stdout);
        fprintf(stderr, "ctestgen: %s\n", ze.msg); /* named once, here */
        S->s.write_failed = true;
        snprintf(S->s.write_error, sizeof S->s.write_error, "%s", ze.msg);
    }
}

/* ==== the table ============================================================================ */

static const run_output outputs[] = {
    {"build.json", want_buildrec, write_buildrec},
    {"replay check", want_check, write_check},
    {"regression.c", want_regression, write_regression},
    {"report", want_report, write_report},
    {"test-suite.zip", want_zip, write_zip},
};

void run_outputs(run_session *S)
{
    for (size_t i = 0; i < sizeof outputs / sizeof outputs[0]; i++)
        if (outputs[i].wanted(S))
            outputs[i].write(S);
}
