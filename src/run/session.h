/*
 * session.h - a run session's state and its phases (internal to src/run;
 * run.h says what a session does).
 */
#ifndef CTG_SESSION_H
#define CTG_SESSION_H

#include <stdbool.h>

#include "../base/target.h"
#include "../compile/build.h"
#include "../report/replay.h"
#include "../search/engine.h"
#include "../search/strategy.h"
#include "../suite/buildrec.h"
#include "funcmode.h"
#include "run.h"

/* The check of error tests during the search (engine_set_error_check):
 * the program is built with gcc at the first test that reaches an error,
 * and each such test runs as the replay check will run it. */
typedef struct run_errcheck {
    const ctg_options *o;
    const char *const *src;
    int n_src;
    replay_session *s;
} run_errcheck;

typedef struct run_session {
    const ctg_options *o;
    const strategy *st;
    char **gen;          /* a strategy's generated harness (owned), or NULL */
    int n_gen;
    bool fn;             /* --function: the driver joins the sources       */
    fmode fm;
    build_opts bo;
    build_result br;
    bool built;
    const target_kind *target; /* the program's kind, set by run_build     */
    double t_start;
    double build_s;      /* the build's wall time (run_build)              */
    engine_summary s;
    bool searched;       /* the search ran (a summary to print)            */
    bool root;           /* this process reports the run (not an MPI rank > 0) */
    run_errcheck ek;
    buildrec rec;        /* OUT/build.json as written                      */
    replay_result rr;    /* the replay check's replay, when kept           */
    bool checked;
} run_session;

/* The build phase (building.c): the binaries into S->br, with the
 * warnings a user should see.  False with e set. */
bool run_build(run_session *S, ctg_err *e);

/* The sources the run's suite replays with (a generated harness, else the
 * program's files plus a --function driver from OUT: *driver, to
 * ctg_free); a new list to ctg_free, or NULL on oom. */
const char **run_sources(const run_session *S, int *n_src, char **driver);

/* The finish phase's outputs (outputs.c), each in its table's order. */
void run_outputs(run_session *S);

/* The summary (summary.c): the search's lines, then, after the outputs,
 * the line naming OUT. */
void run_print_summary(const run_session *S);
void run_print_output_line(const run_session *S);

/* Percentage, 0 when total is 0. */
double run_pct(double part, double total);

#endif
