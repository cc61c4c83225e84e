/*
 * jobs.h - `ctestgen run --jobs N`: N worker processes on one output
 * directory, merged into one suite at the end (the engine's side is
 * search/engine_jobs.c).
 */
#ifndef CTG_JOBS_H
#define CTG_JOBS_H

#include <stdbool.h>

#include "../compile/build.h"
#include "../opt/options.h"
#include "../search/engine.h"

/* Runs o->exec.jobs workers on the built program (each an ordinary run in
 * OUT/.jobs/wK with its own seed and an equal share of --max-execs, the
 * same --time), then merges their tests, crashes and counters into OUT;
 * s summarises the whole run.  t_start: when the run began (its build
 * counts in --time).  False with e set. */
bool jobs_run(const ctg_options *o, const char *program_file, build_result *br, double t_start,
              engine_summary *s, ctg_err *e);

/* The options of worker k of n in dir (its output directory dir/wK, which
 * it returns, to ctg_free; NULL when out of memory). */
char *jobs_worker_opts(const ctg_options *o, const char *dir, int k, int n, ctg_options *w);
/* Merges the n workers' directories dir/wK into OUT (see above) and
 * removes dir. */
bool jobs_merge(const ctg_options *o, const char *program_file, build_result *br,
                const char *dir, int n, double t_start, engine_summary *s, ctg_err *e);
/* Refuses an OUT that holds an earlier run (without --force) and --resume. */
bool jobs_check_out(const ctg_options *o, ctg_err *e);

#endif
