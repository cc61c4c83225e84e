/*
 * cmd_outdir.c - the commands that read what runs wrote: replay (a suite,
 * or raw inputs with --corpus), report, export (each finds the program of
 * the output directory, run/outprog.h) and compare.
 */
#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../report/compare.h"
#include "../report/export.h"
#include "../report/htmlreport.h"
#include "../report/replay.h"
#include "../run/outprog.h"
#include "commands.h"

/* replay options for OUT with the program p found for it */
static replay_opts replay_opts_prog(const ctg_options *o, const char *out, const outprog *p)
{
    replay_opts ro = run_replay_opts(o, out, p->sources, p->n_sources);
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
    replay_opts ro = run_replay_opts(o, NULL, o->positional.items, o->positional.n);
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
