/*
 * run.h - a `ctestgen run`: the layer between the command line (cli/:
 * options, dispatch, exit codes) and what a run uses (compile/, search/,
 * report/).  A run session (session.c) goes through three phases:
 *
 *   build   the program's binaries (building.c): a strategy's generated
 *           harness or --function's driver, prog.cov, prog.sym (now or in
 *           the background), prog.san (--sanitize, auto for libFuzzer
 *           targets);
 *   search  one process, --jobs workers (jobs.c) or MPI ranks (mpi.c), with
 *           the check of error tests under gcc;
 *   finish  the summary (summary.c) and the outputs beyond the search's own
 *           files, a table (outputs.c): build.json, the replay check,
 *           regression.c, the report, test-suite.zip.
 *
 * Also here because a run owns them: task files (task.h), a project's
 * build as files and flags (project.h), function mode (funcmode.h), and
 * the program of an output directory (outprog.h).
 */
#ifndef CTG_RUN_H
#define CTG_RUN_H

#include <stdbool.h>

#include "../base/err.h"
#include "../compile/build.h"
#include "../opt/options.h"
#include "../report/replay.h"

/* How a command ended; cli/ maps it to an exit code. */
typedef enum run_status {
    RUN_OK = 0,
    RUN_FAILED,      /* e says why (bad input, a build that failed)        */
    RUN_USAGE,       /* the command line does not make sense               */
    RUN_INCOMPLETE,  /* the output could not be completely written (disk)   */
    RUN_INTERRUPTED  /* SIGINT/SIGTERM: what was found is written           */
} run_status;

/* ctestgen run: the whole session.  e is set for every status but RUN_OK. */
run_status run_main(const ctg_options *o, ctg_err *e);

/* The build options of the command line (sources from positional[0]). */
void run_build_opts(const ctg_options *o, build_opts *b);
/* Whether --sanitize names what ctestgen supports (e says why not). */
bool run_sanitize_ok(const ctg_options *o, ctg_err *e);
/* The replay options of OUT (out_dir; NULL for a corpus) and the sources,
 * with the limits, exports, flags and program arguments of the command
 * line. */
replay_opts run_replay_opts(const ctg_options *o, const char *out_dir,
                            const char *const *sources, int n_sources);

#endif
