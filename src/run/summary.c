/*
 * summary.c - the end-of-run summary a run prints on stdout (run.h): what
 * the search did, its bugs, and the line naming the output directory.
 */
#include <stdio.h>
#include <string.h>

#include "../exec/triage.h"
#include "../suite/suite.h"
#include "session.h"

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
    printf("  edges covered     %u/%u (%.1f%%)", s->edges_covered, s->n_edges,
           run_pct(s->edges_covered, s->n_edges));
    if (s->edges_unreachable)
        printf(" (%u proven unreachable)", s->edges_unreachable);
    printf("  (engine: LLVM conditional-branch edges)\n");
    printf("  errors reached    %u/%u", s->errors_reached, s->n_errors);
    if (s->errors_unreachable)
        printf(" (%u proven unreachable)", s->errors_unreachable);
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
        printf("  NOT WRITTEN       %u test%s/crash%s (the write failure is named above)\n",
               s->unwritten, s->unwritten == 1 ? "" : "s", s->unwritten == 1 ? "" : "es");
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

/* The time line: the build (which --time counts) apart from the search. */
static void print_time(const run_session *S)
{
    double search = S->s.secs - S->build_s;
    printf("  wall time         build %.1fs%s, search %.1fs\n", S->build_s,
           S->br.cached ? " (binaries from the cache)" : "", search > 0 ? search : 0.0);
}

void run_print_summary(const run_session *S)
{
    print_summary(S->o, S->o->positional.items[0], &S->s);
    print_time(S);
}

void run_print_output_line(const run_session *S)
{
    print_output_line(S->o, S->target->raw_tests);
}
