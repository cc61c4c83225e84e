/*
 * commands.c - run, build and replay: glue from the options to the build,
 * the engine and the replay, and the human-readable summaries.
 */
#include "commands.h"

#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/host.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../compile/build.h"
#include "../exec/triage.h"
#include "../report/compare.h"
#include "../report/export.h"
#include "../report/htmlreport.h"
#include "../report/replay.h"
#include "../report/runcheck.h"
#include "../report/stats.h"
#include "../search/engine.h"
#include "../search/strategy.h"
#include "../suite/buildrec.h"
#include "../suite/suite.h"
#include "funcmode.h"
#include "jobs.h"
#include "mpi.h"
#include "outprog.h"

#define EXIT_ERR 1
#define EXIT_USAGE 2
#define EXIT_WRITE 3 /* the output could not be completely written */

/* Whether --sanitize is auto: given as such, or not given. */
static bool sanitize_auto(const ctg_options *o)
{
    return !o->build.sanitize || !strcmp(o->build.sanitize, "auto");
}

/* Fills build options from the command line (sources from `first` on). */
static void build_opts_from(const ctg_options *o, int first, build_opts *b)
{
    memset(b, 0, sizeof *b);
    b->sources = o->positional.items + first;
    b->n_sources = o->positional.n - first;
    b->cflags = o->build.cflags.items;
    b->n_cflags = o->build.cflags.n;
    b->arch_bits = o->build.arch_bits;
    b->cache_dir = o->build.cache_dir;
    b->no_cache = o->build.no_cache;
    b->verbose = o->ui.verbose;
    const strategy *st = strategy_find(o->search.strategy);
    b->want_sym = st && st->needs_sym;
    static char san[256]; /* checked by sanitize_ok */
    ctg_err ignored = {{0}};
    b->sanitize = !sanitize_auto(o) && build_sanitize_list(o->build.sanitize, san, sizeof san,
                                                           &ignored) && san[0] ? san : NULL;
}

/* The sanitizers a run with --sanitize auto (the default) gets for a
 * libFuzzer target, as its users build it (-fsanitize=fuzzer,address,
 * undefined); other programs get none. */
#define SANITIZE_AUTO "address,undefined"

/* Adds prog.san (SANITIZE_AUTO) to the finished build of a libFuzzer
 * target when --sanitize is auto; a program it cannot be built for
 * (bitcode inputs, checks clang refuses) runs without, with a note. */
static void add_auto_sanitizer(const ctg_options *o, build_opts *bo, build_result *br)
{
    if (!sanitize_auto(o) || br->db->harness != CTG_HARNESS_LIBFUZZER || br->san_bin)
        return;
    build_opts with = *bo;
    with.sanitize = SANITIZE_AUTO;
    with.no_cache = false; /* prog.cov was just built */
    build_result r2;
    ctg_err e2 = {{0}};
    if (!build_program(&with, &r2, &e2)) {
        if (!o->ui.quiet)
            fprintf(stderr, "ctestgen: note: no sanitizer build (%s); the run goes on without\n",
                    e2.msg);
        return;
    }
    bo->sanitize = SANITIZE_AUTO; /* the builds after this one keep it */
    ctg_free(br->san_bin);
    br->san_bin = r2.san_bin;
    br->san_aligned = r2.san_aligned;
    br->san_n_edges = r2.san_n_edges;
    br->san_n_cmp = r2.san_n_cmp;
    br->stage.san = r2.stage.san;
    r2.san_bin = NULL;
    build_result_release(&r2);
}

/* Whether --sanitize names what ctestgen supports (e says why not). */
static bool sanitize_ok(const ctg_options *o, ctg_err *e)
{
    char san[256];
    return sanitize_auto(o) || !strcmp(o->build.sanitize, "none") ||
           build_sanitize_list(o->build.sanitize, san, sizeof san, e);
}

/* Percentage, 0 when total is 0. */
static double pct(double part, double total) { return total > 0 ? 100.0 * part / total : 0.0; }

/* Prints the end-of-run summary (stdout). */
static void print_summary(const ctg_options *o, const char *prog, const engine_summary *s)
{
    printf("ctestgen: %s: %llu executions in %.1fs (%.0f/s); stopped: %s\n", prog,
           (unsigned long long)s->execs, s->secs, s->secs > 0 ? (double)s->execs / s->secs : 0.0,
           s->stop_reason);
    printf("  strategy          %s", o->search.strategy);
    if (!strcmp(o->search.strategy, "auto"))
        printf(" (%s)", opt_get_str(o, "auto-arms"));
    printf("\n");
    if (o->exec.mpi)
        printf("  jobs              one per MPI rank, merged (each one's counters: stats.json "
               "jobs.wK.*)\n");
    else if (o->exec.jobs > 1)
        printf("  jobs              %d processes, merged (each one's counters: stats.json "
               "jobs.wK.*)\n", o->exec.jobs);
    printf("  edges covered     %u/%u (%.1f%%)  (engine: LLVM conditional-branch edges)\n",
           s->edges_covered, s->n_edges, pct(s->edges_covered, s->n_edges));
    printf("  errors reached    %u/%u", s->errors_reached, s->n_errors);
    if (s->errors_checked && s->errors_reached) {
        printf("  (under gcc -O0: %u confirmed", s->errors_confirmed);
        if (s->error_tests_failed)
            printf("; %u test%s reached an error in the engine's build only",
                   s->error_tests_failed, s->error_tests_failed == 1 ? "" : "s");
        printf(")");
    }
    printf("\n");
    printf("  tests kept        %u%s\n", s->tests, s->write_failed ? " (on disk)" : "");
    if (s->write_failed)
        printf("  NOT WRITTEN       %u test%s/crash%s: %s\n", s->unwritten,
               s->unwritten == 1 ? "" : "s", s->unwritten == 1 ? "" : "es", s->write_error);
    printf("  crashes recorded  %u", s->crashes);
    if (s->error_records)
        printf(" (crashes/ also holds %u reproducer%s of reached errors)", s->error_records,
               s->error_records == 1 ? "" : "s");
    if (s->n_bugs)
        printf(", one per bug (by kind and top %d stack frames)", TRIAGE_FRAMES);
    if (s->same_bug)
        printf("; %u other crash%s had the stack of one of them", s->same_bug,
               s->same_bug == 1 ? "" : "es");
    printf("\n%s", s->bugs);
    printf("  runs by result   ");
    for (int k = 0; k < EXEC__COUNT; k++)
        if (s->kinds[k])
            printf(" %s %llu", exec_kind_name((exec_kind)k), (unsigned long long)s->kinds[k]);
    printf("\n%s", s->notes);
}

/* The summary's last line: a byte-input target's tests are corpus/ and
 * regression.c, no Test-Comp suite (bytes). */
static void print_output_line(const ctg_options *o, bool bytes)
{
    if (bytes)
        printf("  output            %s/ (corpus/, crashes/, %s, stats.json)\n", o->out.out_dir,
               SUITE_REGRESSION_FILE);
    else
        printf("  output            %s/ (test-suite/%s, corpus/, crashes/, stats.json)\n",
               o->out.out_dir, o->out.suite_zip ? ", test-suite.zip" : "");
}

/* The replay options of OUT (out_dir, NULL for a corpus) and the sources,
 * with the limits, exports and program arguments of the command line. */
static replay_opts replay_opts_from(const ctg_options *o, const char *out_dir,
                                    const char *const *sources, int n_sources)
{
    replay_opts ro = {
        .out_dir = out_dir,
        .sources = sources,
        .n_sources = n_sources,
        .cflags = o->build.cflags.items,
        .n_cflags = o->build.cflags.n,
        .arch_bits = 0,
        .timeout_s = o->replay.timeout_s,
        .mem_limit_mb = (long)o->exec.mem_mb,
        .lcov_file = o->replay.lcov,
        .cobertura_file = o->replay.cobertura,
        .args = o->exec.prog_args.items,
        .n_args = o->exec.prog_args.n,
    };
    return ro;
}

/* The sources the run's suite replays with: a generated harness (gen, the
 * caller's) if the strategy built one, else the program's files and, in
 * function mode, the driver from OUT (*driver, a new list to ctg_free). */
static const char **run_sources(const ctg_options *o, char **gen, int n_gen, int *n_src,
                                char **driver)
{
    *n_src = n_gen;
    return gen ? (const char **)gen
               : fmode_replay_sources(o->out.out_dir, o->positional.items, o->positional.n,
                                      n_src, driver);
}

/* The check of error tests during the search (engine_set_error_check):
 * the program is built with gcc at the first test that reaches an error,
 * and each such test runs as the replay check will run it. */
typedef struct errcheck {
    const ctg_options *o;
    const char *const *src;
    int n_src;
    replay_session *s;
} errcheck;

static int check_error_test(void *arg, const test_t *t, char *how, size_t cap, ctg_err *e)
{
    errcheck *k = arg;
    if (!k->s) {
        replay_opts ro = replay_opts_from(k->o, k->o->out.out_dir, k->src, k->n_src);
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

/* The replay check after the search (runcheck.h): gcov's figure beside the
 * engine's, hanging tests out of the suite, a warning when they disagree.
 * A failing replay (gcc cannot build what clang built) is a warning too:
 * the suite is written and valid. */
static void check_by_replay(const ctg_options *o, const engine_summary *s, char **gen, int n_gen,
                            replay_result *keep, bool *kept)
{
    char *driver = NULL;
    int n_src;
    const char **src = run_sources(o, gen, n_gen, &n_src, &driver);
    runcheck_opts ro = {
        .replay = replay_opts_from(o, o->out.out_dir, src, n_src),
        .engine_pct = pct(s->edges_covered, s->n_edges),
        .kinds = s->test_kinds,
        .n_kinds = s->n_test_kinds,
    };
    runcheck_result r;
    ctg_err e = {{0}};
    bool ok = src && runcheck(&ro, &r, keep, &e);
    *kept = ok && keep;
    if (!gen)
        ctg_free(src);
    ctg_free(driver);
    if (!ok) {
        fflush(stdout);
        fprintf(stderr, "ctestgen: warning: replay check skipped: %s\n",
                src ? e.msg : "out of memory");
        return;
    }
    if (!o->ui.quiet) {
        printf("  gcov replay       branches %u/%u (%.1f%%), error %s, %u test%s", r.branches_covered,
               r.branches, pct(r.branches_covered, r.branches),
               r.error_reached ? "reached" : "not reached", r.tests, r.tests == 1 ? "" : "s");
        if (r.crashed)
            printf(", %u crashed", r.crashed);
        if (r.ran_out)
            printf(", %u ran out of values", r.ran_out);
        printf("  (gcc --coverage, as TestCov)\n");
        if (r.removed)
            printf("  replay timeouts   %u test%s ran past %g s under gcc: moved to crashes/\n",
                   r.removed, r.removed == 1 ? "" : "s", o->replay.timeout_s);
    }
    if (r.warning[0]) {
        fflush(stdout);
        fprintf(stderr, "ctestgen: warning: %s\n", r.warning);
    }
}

/* A byte-input target's C regression tests, OUT/regression.c (export.h),
 * from the replay check's replay when there was one (rr, may be NULL); a
 * failure is a warning (the corpus is written and valid). */
static void write_regression(const ctg_options *o, char **gen, int n_gen, const replay_result *rr,
                             const buildrec *rec)
{
    char *driver = NULL, *path = fs_join(o->out.out_dir, SUITE_REGRESSION_FILE);
    int n_src;
    const char **src = run_sources(o, gen, n_gen, &n_src, &driver);
    replay_opts ro = replay_opts_from(o, o->out.out_dir, src, n_src);
    ctg_err e = {{0}};
    unsigned n = 0;
    int arch = 64;
    bool ok = src && path && export_c(&ro, rr, path, &n, &arch, &e);
    fflush(stdout);
    if (!ok)
        fprintf(stderr, "ctestgen: warning: no %s: %s\n", SUITE_REGRESSION_FILE,
                src && path ? e.msg : "out of memory");
    else if (!o->ui.quiet) {
        printf("  regression tests  %u in %s (run them: ", n, path);
        if (gen || !rec->n_sources)
            outprog_print_cc(stdout, path, src, n_src, o->build.cflags.items, o->build.cflags.n,
                             arch);
        else
            outprog_print_cc(stdout, path, (const char *const *)rec->sources, rec->n_sources,
                             (const char *const *)rec->flags, rec->n_flags, arch);
        printf(" && ./a.out)\n");
    }
    if (!gen)
        ctg_free(src);
    ctg_free(driver);
    ctg_free(path);
}

/* run --report: OUT/report/index.html; a failure is a warning (the suite
 * is written and valid). */
static void run_report(const ctg_options *o, char **gen, int n_gen)
{
    char *driver = NULL, *path = NULL;
    int n_src;
    const char **src = run_sources(o, gen, n_gen, &n_src, &driver);
    replay_opts ro = replay_opts_from(o, o->out.out_dir, src, n_src);
    ctg_err e = {{0}};
    bool ok = src && html_report(&ro, &path, &e);
    if (!gen)
        ctg_free(src);
    ctg_free(driver);
    fflush(stdout);
    if (!ok)
        fprintf(stderr, "ctestgen: warning: no report: %s\n", src ? e.msg : "out of memory");
    else if (!o->ui.quiet)
        printf("  report            %s\n", path);
    ctg_free(path);
}

/* replay options for OUT with the program p found for it */
static replay_opts replay_opts_prog(const ctg_options *o, const char *out, const outprog *p)
{
    replay_opts ro = replay_opts_from(o, out, p->sources, p->n_sources);
    ro.cflags = p->flags;
    ro.n_cflags = p->n_flags;
    if (p->recorded)
        ro.arch_bits = p->arch_bits;
    return ro;
}

/* ctestgen report OUT [PROG.c ...]: the program defaults to the one the run
 * recorded (outprog.h). */
int cmd_report(const ctg_options *o, ctg_err *e)
{
    if (o->positional.n < 1) {
        err_set(e, "report: usage: ctestgen report OUT [PROG.c ...]");
        return EXIT_USAGE;
    }
    const char *out = o->positional.items[0];
    char *sp = fs_join(out, "stats.json");
    bool have = sp && fs_exists(sp);
    ctg_free(sp);
    if (!have) {
        err_set(e, "%s/stats.json: no such file; name the output directory of a run", out);
        return EXIT_ERR;
    }
    outprog p;
    bool usage;
    if (!outprog_find(o, out, 1, &p, &usage, e)) {
        outprog_release(&p);
        return usage ? EXIT_USAGE : EXIT_ERR;
    }
    char *path = NULL;
    replay_opts ro = replay_opts_prog(o, out, &p);
    int rc = 0;
    if (!html_report(&ro, &path, e))
        rc = EXIT_ERR;
    else if (!o->ui.quiet)
        printf("ctestgen: report %s\n", path);
    ctg_free(path);
    outprog_release(&p);
    return rc;
}

/* ctestgen export OUT --c FILE [PROG.c ...]: the program defaults to the
 * one the run recorded (outprog.h). */
int cmd_export(const ctg_options *o, ctg_err *e)
{
    if (o->positional.n < 1 || !o->replay.export_c) {
        err_set(e, "export: usage: ctestgen export OUT --c FILE [PROG.c ...]");
        return EXIT_USAGE;
    }
    const char *out = o->positional.items[0];
    outprog p;
    bool usage;
    if (!outprog_find(o, out, 1, &p, &usage, e)) {
        outprog_release(&p);
        return usage ? EXIT_USAGE : EXIT_ERR;
    }
    int rc = 0, arch = 64;
    unsigned n = 0;
    if (p.driver) {
        err_set(e, "%s: a --function suite; its regression tests are %s/tests_<function>.c",
                out, out);
        rc = EXIT_ERR;
    } else {
        replay_opts ro = replay_opts_prog(o, out, &p);
        if (!export_c(&ro, NULL, o->replay.export_c, &n, &arch, e))
            rc = EXIT_ERR;
        else if (!o->ui.quiet) {
            printf("ctestgen: %u tests in %s; run them: ", n, o->replay.export_c);
            outprog_print_cc(stdout, o->replay.export_c, p.sources, p.n_sources, p.flags,
                             p.n_flags, arch);
            printf(" && ./a.out\n");
        }
    }
    outprog_release(&p);
    return rc;
}

/* Prints the build's one-line warning (inline assembly left alone) unless
 * quiet. */
static void print_build_warning(const ctg_options *o, const build_result *br)
{
    if (br->warning && !o->ui.quiet)
        fprintf(stderr, "ctestgen: %s: warning: %s\n", o->positional.items[0], br->warning);
}

/* Frees a source list made by a strategy's prepare hook. */
static void free_sources(char **s, int n)
{
    for (int i = 0; s && i < n; i++)
        ctg_free(s[i]);
    ctg_free(s);
}

/* Adds prog.sym to a finished build for strategies that can use it; when the
 * symbolic pass cannot handle the program, says so and goes on without. */
static void add_optional_sym(const ctg_options *o, build_opts *bo, build_result *br)
{
    build_opts with = *bo;
    with.want_sym = true;
    with.no_cache = false; /* prog.cov was just built: reuse it */
    build_result r2;
    ctg_err e2 = {{0}};
    if (build_program(&with, &r2, &e2)) {
        double sp = r2.stage.sym_passes, sc = r2.stage.sym_codegen;
        int so = r2.stage.sym_opt;
        unsigned sl = r2.stage.sym_largest, ss = r2.stage.sym_spared;
        r2.stage = br->stage; /* the prog.cov stages of the first call */
        r2.stage.sym_passes = sp, r2.stage.sym_codegen = sc, r2.stage.sym_opt = so;
        r2.stage.sym_largest = sl, r2.stage.sym_spared = ss;
        build_result_release(br);
        *br = r2;
        br->opts = bo;
    } else {
        snprintf(br->sym_error, sizeof br->sym_error, "%s", e2.msg); /* into stats.json */
        if (!o->ui.quiet)
            fprintf(stderr, "ctestgen: concolic execution disabled for this program: %s\n",
                    e2.msg);
    }
}

/* OUT/build.json: the program's files and flags, for replay, export and
 * report from anywhere (buildrec.h); a failure is a warning (rec stays
 * empty). */
static void record_build(const ctg_options *o, const build_result *br, buildrec *rec)
{
    ctg_err e = {{0}};
    if (!fs_is_dir(o->out.out_dir))
        return;
    if (!buildrec_make(rec, o->positional.items, o->positional.n, o->build.cflags.items,
                       o->build.cflags.n, br->db->arch_bits,
                       br->san_bin ? strchr(br->san_bin, '-') + 1 : NULL, &e) ||
        !buildrec_write(o->out.out_dir, rec, &e)) {
        fflush(stdout);
        fprintf(stderr, "ctestgen: warning: %s not written: %s\n", BUILDREC_FILE, e.msg);
    }
}

/* Whether the program's arguments (after "--") contain "@@". */
static bool has_at_arg(const ctg_options *o)
{
    for (int i = 0; i < o->exec.prog_args.n; i++)
        if (!strcmp(o->exec.prog_args.items[i], "@@"))
            return true;
    return false;
}

int cmd_run(const ctg_options *o, ctg_err *e)
{
    interrupt_install();
    if (o->positional.n < 1) {
        err_set(e, "run: no program given; usage: ctestgen run PROG.c [MORE.c ...] [options]");
        return EXIT_USAGE;
    }
    if (!sanitize_ok(o, e))
        return EXIT_USAGE;
    /* a strategy may build a generated harness instead of the sources */
    const strategy *st = strategy_find(o->search.strategy);
    char **gen = NULL;
    int n_gen = 0;
    if (st && st->prepare && !st->prepare(o, &gen, &n_gen, e))
        return EXIT_ERR;
    /* else --function: the generated driver joins the sources */
    bool fn = o->build.function && !gen;
    fmode fm = {0};
    if (fn && !fmode_prepare(o, &fm, e)) {
        fmode_release(&fm);
        return EXIT_ERR;
    }
    build_opts bo;
    build_opts_from(o, 0, &bo);
    if (gen) {
        bo.sources = (const char *const *)gen;
        bo.n_sources = n_gen;
    } else if (fn) {
        bo.sources = fm.sources;
        bo.n_sources = fm.n_sources;
    }
    double t_start = fs_now();
    build_result br;
    if (!build_program(&bo, &br, e)) {
        free_sources(gen, n_gen);
        fmode_release(&fm);
        return EXIT_ERR;
    }
    add_auto_sanitizer(o, &bo, &br);
    /* with a time budget only, prog.sym is built while the search starts on
     * prog.cov (an execution budget keeps the run reproducible: built first);
     * --jobs workers watch the one build (not --mpi: ranks may be on other
     * machines) */
    ctg_err be = {{0}};
    if (st && st->wants_sym && !br.sym_bin &&
        !(!o->search.max_execs && o->search.time_s > 0 && !o->exec.mpi &&
          build_sym_background(&bo, &br, &be)))
        add_optional_sym(o, &bo, &br);
    br.secs = fs_now() - t_start;
    if (o->search.time_s > 0 && br.secs >= o->search.time_s * 0.5 && !o->ui.quiet)
        fprintf(stderr, "ctestgen: %s: warning: the build took %.1f s of the %g s budget (--time "
                        "counts it)%s\n", o->positional.items[0], br.secs, o->search.time_s,
                br.secs >= o->search.time_s ? ": no time is left to search; give a larger --time"
                                            : "");
    /* "@@" among the program's arguments: the test is the file it names */
    if (has_at_arg(o) && br.db->harness == CTG_HARNESS_TESTCOMP)
        br.db->harness = CTG_HARNESS_STDIN;
    print_build_warning(o, &br);
    engine_summary s;
    memset(&s, 0, sizeof s);
    /* the suite's program is what was built: a generated harness if any */
    const char *suite_prog = gen ? gen[0] : o->positional.items[0];
    bool root = true;
    /* a Test-Comp harness run in one process: error tests checked under gcc */
    errcheck ek = {.o = o,
                   .src = gen ? (const char *const *)gen : o->positional.items,
                   .n_src = gen ? n_gen : o->positional.n};
    if (!o->replay.no_error_check && !fn && br.db->harness == CTG_HARNESS_TESTCOMP && !o->exec.mpi &&
        o->exec.jobs <= 1)
        engine_set_error_check(check_error_test, &ek);
    bool ok = o->exec.mpi         ? mpi_run(o, suite_prog, &br, t_start, &s, &root, e)
              : o->exec.jobs > 1 ? jobs_run(o, suite_prog, &br, t_start, &s, e)
                                 : engine_run(o, suite_prog, &br, &s, e);
    engine_set_error_check(NULL, NULL);
    replay_close(ek.s);
    if (!root) { /* an MPI rank other than 0: rank 0 reports the run */
        engine_summary_release(&s);
        build_result_release(&br);
        free_sources(gen, n_gen);
        fmode_release(&fm);
        return ok ? 0 : EXIT_ERR;
    }
    if (s.stop_reason && !o->ui.quiet && (ok || s.execs > 0))
        print_summary(o, o->positional.items[0], &s);
    if (ok && fn)
        ok = fmode_finish(o, &fm, e);
    bool bytes = br.db->harness == CTG_HARNESS_STDIN, checked = false;
    buildrec rec = {0};
    if (!s.write_failed) /* a full disk: the summary's line says what to do */
        record_build(o, &br, &rec);
    replay_result rr; /* the check's replay, for regression.c */
    if (ok && !o->replay.no_check && !interrupt_requested() && !s.write_failed && s.tests)
        check_by_replay(o, &s, gen, n_gen, bytes ? &rr : NULL, &checked);
    if (ok && bytes && !interrupt_requested() && !s.write_failed && s.tests)
        write_regression(o, gen, n_gen, checked ? &rr : NULL, &rec);
    buildrec_release(&rec);
    if (checked)
        replay_result_release(&rr);
    if (ok && o->replay.report && !interrupt_requested() && !s.write_failed)
        run_report(o, gen, n_gen);
    if (ok && o->out.suite_zip && !s.write_failed) {
        ctg_err ze = {{0}};
        if (!suite_write_zip(o->out.out_dir, &ze)) {
            s.write_failed = true;
            snprintf(s.write_error, sizeof s.write_error, "%s", ze.msg);
        }
    }
    if (s.stop_reason && !o->ui.quiet && (ok || s.execs > 0))
        print_output_line(o, bytes);
    fmode_release(&fm);
    engine_summary_release(&s);
    build_result_release(&br);
    free_sources(gen, n_gen);
    if (ok && interrupt_requested()) {
        err_set(e, "interrupted; what was found is in %s/ (continue with --resume -o %s)",
                o->out.out_dir, o->out.out_dir);
        return INTERRUPT_EXIT;
    }
    if (ok && s.write_failed) {
        err_set(e, "%s: the output is incomplete: %s; free space and run again",
                o->out.out_dir, s.write_error);
        return EXIT_WRITE;
    }
    return ok ? 0 : EXIT_ERR;
}

/* One line of the build's stage times (what this call built). */
static void print_build_stages(FILE *f, const build_result *br)
{
    fprintf(f, "stages    compile %.2fs, passes %.2fs, prog.cov -O%d %.2fs (largest function %u",
            br->stage.compile, br->stage.passes, br->stage.cov_opt, br->stage.cov_codegen,
            br->stage.cov_largest);
    if (br->stage.cov_spared)
        fprintf(f, ", %u function%s not optimised", br->stage.cov_spared,
                br->stage.cov_spared == 1 ? "" : "s");
    fprintf(f, ")");
    if (br->stage.sym_passes > 0)
        fprintf(f, ", symbolic pass %.2fs, prog.sym -O%d %.2fs (%u)", br->stage.sym_passes,
                br->stage.sym_opt, br->stage.sym_codegen, br->stage.sym_largest);
    fprintf(f, "\n");
}

int cmd_build(const ctg_options *o, ctg_err *e)
{
    if (o->positional.n < 1) {
        err_set(e, "build: no program given; usage: ctestgen build PROG.c [MORE.c ...]");
        return EXIT_USAGE;
    }
    if (!sanitize_ok(o, e))
        return EXIT_USAGE;
    build_opts bo;
    build_opts_from(o, 0, &bo);
    bo.no_cache = o->build.no_cache;
    build_result br;
    if (!build_program(&bo, &br, e))
        return EXIT_ERR;
    print_build_warning(o, &br);
    printf("binary    %s%s\n", br.cov_bin, br.cached ? " (cached)" : "");
    if (br.sym_bin)
        printf("concolic  %s\n", br.sym_bin);
    if (br.san_bin)
        printf("sanitizer %s (%s)\n", br.san_bin,
               br.san_aligned ? "same edge ids: runs every input" : "re-runs inputs only");
    printf("database  %s\n", br.db_path);
    printf("branches  %u (%u edges), comparison sites %u, error sites %u\n", br.db->n_branches,
           br.db->n_edges, br.db->n_cmp, br.db->n_errors);
    if (!br.cached)
        print_build_stages(stdout, &br);
    build_result_release(&br);
    return 0;
}

/* Replays and prints the report; the exit code. */
static int replay_and_print(const replay_opts *ro, ctg_err *e)
{
    replay_result rr;
    if (!replay_suite(ro, &rr, e)) {
        replay_result_release(&rr);
        return EXIT_ERR;
    }
    sbuf b = SBUF_INIT;
    replay_format(&rr, &b);
    fputs(sbuf_str(&b), stdout);
    sbuf_release(&b);
    int rc = 0;
    if (rr.n_bad > 0) { /* every bad file one line, the last as the error */
        fflush(stdout);
        for (size_t i = 0; i + 1 < rr.n_bad; i++)
            fprintf(stderr, "ctestgen: %s\n", rr.bad[i]);
        err_set(e, "%s (%zu bad testcase file%s skipped, the others replayed)",
                rr.bad[rr.n_bad - 1], rr.n_bad, rr.n_bad == 1 ? "" : "s");
        rc = EXIT_ERR;
    }
    replay_result_release(&rr);
    return rc;
}

/* ctestgen replay --corpus PATH... PROG.c [MORE.c ...]: raw inputs. */
static int cmd_replay_corpus(const ctg_options *o, ctg_err *e)
{
    if (o->positional.n < 1) {
        err_set(e, "replay: usage: ctestgen replay --corpus DIR PROG.c [MORE.c ...]");
        return EXIT_USAGE;
    }
    replay_opts ro = replay_opts_from(o, NULL, o->positional.items, o->positional.n);
    ro.corpus = o->replay.corpus.items;
    ro.n_corpus = o->replay.corpus.n;
    ro.arch_bits = o->build.arch_bits;
    return replay_and_print(&ro, e);
}

int cmd_replay(const ctg_options *o, ctg_err *e)
{
    if (o->replay.corpus.n > 0)
        return cmd_replay_corpus(o, e);
    if (o->positional.n < 1) {
        err_set(e, "replay: usage: ctestgen replay DIR [PROG.c ...]"
                   " or ctestgen replay --corpus DIR PROG.c [MORE.c ...]");
        return EXIT_USAGE;
    }
    outprog p; /* the files given, else those the run recorded */
    bool usage;
    if (!outprog_find(o, o->positional.items[0], 1, &p, &usage, e)) {
        outprog_release(&p);
        return usage ? EXIT_USAGE : EXIT_ERR;
    }
    replay_opts ro = replay_opts_prog(o, o->positional.items[0], &p);
    int rc = replay_and_print(&ro, e);
    outprog_release(&p);
    return rc;
}

/* "yes" or "no: WHY" for one capability line. */
static void doctor_line(const char *what, bool ok, const char *why)
{
    printf("%-9s %s%s%s\n", what, ok ? "yes" : "no", ok ? "" : ": ", ok ? "" : why);
}

int cmd_doctor(const ctg_options *o, ctg_err *e)
{
    (void)o;
    const char *dir = build_runtime_dir();
    bool ok = true;
    for (int bits = 64; bits >= 32; bits -= 32) {
        char name[32], what[16];
        snprintf(name, sizeof name, "libctg_rt%d.a", bits);
        snprintf(what, sizeof what, "runtime%d", bits);
        char *p = fs_join(dir, name);
        bool have = p && fs_exists(p);
        doctor_line(what, have, bits == 64 ? "not found; build ctestgen with cmake"
                                           : "not built; install gcc-multilib and rebuild");
        ok = ok && (have || bits == 32);
        ctg_free(p);
    }
    ctg_err why = {{0}};
    doctor_line("exec32", host_exec32(build_runtime_dir(), &why), why.msg);
#ifdef CTG_HAVE_MPI
    doctor_line("mpi", true, "");
#else
    doctor_line("mpi", false, "built without MPI (install libopenmpi-dev and rebuild for --mpi)");
#endif
    if (!ok)
        err_set(e, "%s: no 64-bit runtime; build ctestgen with cmake or set CTESTGEN_RUNTIME_DIR",
                dir);
    return ok ? 0 : EXIT_ERR;
}

int cmd_compare(const ctg_options *o, ctg_err *e)
{
    compare_opts co = {o->positional.items, o->positional.n, o->compare.by, o->compare.json};
    sbuf b = SBUF_INIT;
    bool ok = compare_runs(&co, &b, e);
    if (ok)
        fputs(sbuf_str(&b), stdout);
    sbuf_release(&b);
    return ok ? 0 : o->positional.n ? EXIT_ERR : EXIT_USAGE;
}
