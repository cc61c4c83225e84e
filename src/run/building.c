/*
 * building.c - a run's build phase (run.h): the build options of the
 * command line, prog.cov, prog.sym (now or in the background), prog.san
 * (--sanitize; auto: for a libFuzzer target), and the warnings a user
 * should see about them.
 */
#include "session.h"

#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"

/* The sanitizers a run with --sanitize auto (the default) gets for a
 * libFuzzer target, as its users build it (-fsanitize=fuzzer,address,
 * undefined); other programs get none. */
#define SANITIZE_AUTO "address,undefined"

/* Whether --sanitize is auto: given as such, or not given. */
static bool sanitize_auto(const ctg_options *o)
{
    return !o->build.sanitize || !strcmp(o->build.sanitize, "auto");
}

bool run_sanitize_ok(const ctg_options *o, ctg_err *e)
{
    char san[256];
    return sanitize_auto(o) || !strcmp(o->build.sanitize, "none") ||
           build_sanitize_list(o->build.sanitize, san, sizeof san, e);
}

void run_build_opts(const ctg_options *o, build_opts *b)
{
    memset(b, 0, sizeof *b);
    b->sources = o->positional.items;
    b->n_sources = o->positional.n;
    b->cflags = o->build.cflags.items;
    b->n_cflags = o->build.cflags.n;
    b->arch_bits = o->build.arch_bits;
    b->cache_dir = o->build.cache_dir;
    b->no_cache = o->build.no_cache;
    b->verbose = o->ui.verbose;
    const strategy *st = strategy_find(o->search.strategy);
    b->want_sym = st && st->needs_sym;
    static char san[256]; /* checked by run_sanitize_ok */
    ctg_err ignored = {{0}};
    b->sanitize = !sanitize_auto(o) && build_sanitize_list(o->build.sanitize, san, sizeof san,
                                                           &ignored) && san[0] ? san : NULL;
}

/* Adds prog.san (SANITIZE_AUTO) to the finished build of a target whose
 * kind asks for it (libFuzzer's) when --sanitize is auto; a program it cannot be built for
 * (bitcode inputs, checks clang refuses) runs without, with a note. */
static void add_auto_sanitizer(const ctg_options *o, const target_kind *k, build_opts *bo,
                               build_result *br)
{
    if (!sanitize_auto(o) || !k->sanitize_auto || br->san_bin)
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

/* prog.sym for a strategy that wants it: with a time budget only, built
 * while the search starts on prog.cov (an execution budget keeps the run
 * reproducible: built first); --jobs workers watch the one build (not
 * --mpi: ranks may be on other machines). */
static void add_sym(run_session *S)
{
    const ctg_options *o = S->o;
    ctg_err be = {{0}};
    if (S->st && S->st->wants_sym && !S->br.sym_bin &&
        !(!o->search.max_execs && o->search.time_s > 0 && !o->exec.mpi &&
          build_sym_background(&S->bo, &S->br, &be)))
        add_optional_sym(o, &S->bo, &S->br);
}

/* The warnings of the build: most of the budget gone, inline assembly
 * left alone, stdin and nondet values mixed. */
static void warn_build(const run_session *S)
{
    const ctg_options *o = S->o;
    const char *prog = o->positional.items[0];
    double secs = S->br.secs, budget = o->search.time_s;
    if (o->ui.quiet)
        return;
    if (budget > 0 && secs >= budget * 0.5)
        fprintf(stderr, "ctestgen: %s: warning: the build took %.1f s of the %g s budget (--time "
                        "counts it)%s\n", prog, secs, budget,
                secs >= budget ? ": no time is left to search; give a larger --time" : "");
    if (S->br.warning)
        fprintf(stderr, "ctestgen: %s: warning: %s\n", prog, S->br.warning);
}

/* Whether the program's arguments (after "--") contain "@@". */
bool run_build(run_session *S, ctg_err *e)
{
    run_build_opts(S->o, &S->bo);
    if (S->gen) {
        S->bo.sources = (const char *const *)S->gen;
        S->bo.n_sources = S->n_gen;
    } else if (S->fn) {
        S->bo.sources = S->fm.sources;
        S->bo.n_sources = S->fm.n_sources;
    }
    if (!build_program(&S->bo, &S->br, e))
        return false;
    S->built = true;
    const ctg_options *o = S->o;
    S->target = target_resolve((uint32_t)S->br.db->harness,
                               (const char *const *)o->exec.prog_args.items, o->exec.prog_args.n,
                               S->fn);
    S->br.db->harness = (int)S->target->harness; /* "@@": a Test-Comp main reads the file */
    add_auto_sanitizer(S->o, S->target, &S->bo, &S->br);
    add_sym(S);
    S->br.secs = S->build_s = fs_now() - S->t_start;
    warn_build(S);
    return true;
}
