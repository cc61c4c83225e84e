/*
 * jobs.h - `ctestgen run --jobs N`: N worker processes on one output
 * directory, merged into one suite at the end (the engine's side is
 * search/engine_jobs.c).
 */
#ifndef CTG_JOBS_H
#define CTG_JOBS_H

#include <stdbool.h>

#include "../build/build.h"
#include "../opt/options.h"
#include "../search/engine.h"

/* Runs o->exec.jobs workers on the built program (each an ordinary run in
 * OUT/.jobs/wK with its own seed and an equal share of --max-execs, the
 * same --time), then merges their tests, crashes and counters into OUT;
 * s summarises the whole run.  t_start: when the run began (its build
 * counts in --time).  False with e set. */
bool jobs_run(const ctg_options *o, const char *program_file, build_result *br, double t_start,
              engine_summary *s, ctg_err *e);

#endif
