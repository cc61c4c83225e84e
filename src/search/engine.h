/*
 * engine.h - what a strategy sees of a run of ctestgen: execution with
 * budgets, the shared archive of covered goals, the program database, the
 * options and a seeded rng.  The engine writes kept tests to the suite,
 * samples coverage over time for stats.json and draws the progress line.
 */
#ifndef CTG_ENGINE_H
#define CTG_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/rng.h"
#include "../opt/options.h"
#include "../exec/exec.h"
#include "../instrument/progdb.h"
#include "../suite/archive.h"
#include "../suite/test.h"

typedef struct search_ctx search_ctx;

typedef struct ctx_run {
    exec_result r;
    uint32_t new_goals; /* goals this run covered first (0: not kept) */
    bool kept;          /* written to the suite                       */
    bool stopped;       /* ctx_exec_batch: r is the last input's run   */
} ctx_run;

/* Runs one input on prog.cov (flags CTG_FL_*; the engine adds the random seed
 * for CTG_FL_EXTEND_RANDOM).  Keeps the test when it adds coverage or reaches
 * a new error; records crashes (crashes.h).  Before the run it may spend
 * executions of the budget minimising a crash an earlier run found (so
 * ctx_execs can grow by more than one).  Returns false without running when
 * the budget is spent or the executor failed (ctx_failed tells). */
bool ctx_exec(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags, ctx_run *out);
/* Runs in[0 .. n) as ctx_exec would, one after another, in batches of the
 * executor where it can (a libFuzzer target; flags without DIST, CMPLOG or
 * an extension): a run that ends normally, covers no edge the archive
 * lacks and no hit-count bucket beyond seen[edge] (the strategy's bucket
 * bits, n_edges bytes; NULL: any bucket of a covered edge is known) is
 * counted and leaves nothing; the batch stops after the first other run,
 * which gets ctx_exec's bookkeeping and is returned in out (out->stopped).
 * Otherwise in[0] runs alone through ctx_exec (out->stopped).  Returns how
 * many inputs ran: the last is out's when out->stopped; 0 when none ran
 * (budget spent or the executor failed, as ctx_exec returns false).  The
 * maps of the executor are the stopped run's. */
uint32_t ctx_exec_batch(search_ctx *c, const uint8_t *const *in, const size_t *len, uint32_t n,
                        uint32_t flags, const uint8_t *seen, ctx_run *out);
/* fn(arg) runs exactly once in every ctx_exec_batch that runs something:
 * while the program runs the batch when there is one (the strategy's
 * work then overlaps with it on another CPU), else before the single
 * run; so what fn does, and in which order, does not depend on timing.
 * fn must not run or read the executor.  NULL: none. */
void ctx_set_overlap(search_ctx *c, void (*fn)(void *), void *arg);
/* Comparison sites watched in the batches of ctx_exec_batch
 * (exec_set_watch): input i with log[i] runs with comparison logging, and
 * ctx_batch_broken gives the watched sites it ran whose operands differ.
 * The arrays must live until the batch has run; NULL: none. */
void ctx_set_watch(search_ctx *c, const uint32_t *sites, uint32_t n, const uint8_t *log);
/* After ctx_exec_batch: those records of input i (exec_batch_broken);
 * UINT32_MAX when they are not known (input i was not logged, or ran
 * alone: the caller then logs it itself). */
uint32_t ctx_batch_broken(const search_ctx *c, uint32_t i, const ctg_cmp_rec **recs);

/* Tests kept so far (every strategy's), in the order they were found: lets
 * a strategy import what others found (the `auto` portfolio relies on it).
 * The pointers stay valid until the run ends. */
size_t ctx_n_kept(const search_ctx *c);
const test_t *ctx_kept(const search_ctx *c, size_t i);

/* Maps of the last ctx_exec (see exec.h). */
const exec_t *ctx_executor(const search_ctx *c);

/* ---- prog.sym (concolic strategies) ---------------------------------------- */

/* Starts the executor of prog.sym with a symbolic trace region for
 * trace_nodes nodes and trace_pc path entries.  False with e set when the
 * program was built without prog.sym (the command line builds it for
 * strategies that need it) or it cannot start. */
bool ctx_sym_start(search_ctx *c, uint32_t trace_nodes, uint32_t trace_pc, ctg_err *e);
/* Whether prog.sym is still being built in the background (a time-budget
 * run of a strategy that can do without it starts on prog.cov at once);
 * once it is ready, ctx_sym_start works.  A failed build is logged once. */
bool ctx_sym_pending(search_ctx *c);
/* ctx_exec on prog.sym: budgets, coverage, suite and crashes as for prog.cov
 * (the binaries share their edge ids); the run's path constraint is then in
 * exec_trace(ctx_sym_executor(c)).  False as ctx_exec, or before
 * ctx_sym_start. */
bool ctx_exec_sym(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags, ctx_run *out);
/* prog.sym's runs from now on keep the input bytes before from concrete (a
 * window on the end of a long input, exec_set_sym_from); 0: none. */
void ctx_sym_window(search_ctx *c, uint32_t from);
/* Maps and trace of the last ctx_exec_sym; NULL before ctx_sym_start. */
const exec_t *ctx_sym_executor(const search_ctx *c);
/* Adds a line to the final summary (stdout), e.g. solver statistics. */
void ctx_summary_line(search_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Whether a goal (an edge id, or n_edges + an error site) is proven
 * unreachable (the prover, engine_prove.c): strategies leave it out. */
bool ctx_goal_unreachable(const search_ctx *c, uint32_t goal);
/* The solver's answer to a query for a path into edge (concolic's
 * negations): CTX_FLIP_SAT, _UNSAT or _UNKNOWN (timeout, unknown, too
 * large); a goal not reached says what the solver answered for it. */
enum { CTX_FLIP_SAT, CTX_FLIP_UNSAT, CTX_FLIP_UNKNOWN };
void ctx_note_flip(search_ctx *c, uint32_t edge, int answer);

bool ctx_budget_left(const search_ctx *c);
bool ctx_failed(const search_ctx *c);
uint64_t ctx_execs(const search_ctx *c);
double ctx_elapsed(const search_ctx *c);

rng *ctx_rng(search_ctx *c);
const progdb *ctx_db(const search_ctx *c);
const ctg_options *ctx_opts(const search_ctx *c);
const archive_t *ctx_archive(const search_ctx *c);
int ctx_arch_bits(const search_ctx *c);
/* A string of stats.json's info ("search" = "cfds"), e.g. for compare --by. */
void ctx_stat_info(search_ctx *c, const char *name, const char *value);
/* Extra counters a strategy wants in stats.json ("solver.sat" = 12). */
void ctx_stat_set(search_ctx *c, const char *name, double value);
/* Prints a line above the progress line (stderr), e.g. a warning. */
void ctx_log(search_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* run --mpi: a function the --jobs exchange calls at each of a worker's
 * imports, before it reads its siblings' directories (MPI fills them). */
void engine_set_sync_hook(void (*hook)(void *arg), void *arg);
/* The check of error tests (run, a Test-Comp harness, one process): fn is
 * called with every test the engine writes that reaches an error site not
 * yet confirmed, and says whether the validator's build reaches it too: 1
 * yes, 0 no (*how: how that run ended, e.g. "normal"), -1 when no check can
 * be made (e says why; the run goes on unchecked).  While it is set, an
 * error counts for --stop-on-error / coverage-error-call and for "every
 * goal covered" only once confirmed (or after ENG_ERRCHECK_MAX tests of
 * its site were not); the engine keeps the test of every run that reaches
 * such a site, so the search can try again, and a test that is not
 * confirmed claims no error in its testcase.  NULL: no checks. */
typedef int (*engine_error_check)(void *arg, const test_t *t, char *how, size_t cap, ctg_err *e);
void engine_set_error_check(engine_error_check fn, void *arg);
#define ENG_ERRCHECK_MAX 32

/* run --jobs / --mpi: worker k's directory in sync directory dir, or its
 * file sub/name there (either NULL or ""), as a new string (ctg_free). */
char *engine_worker_path(const char *dir, int k, const char *sub, const char *name);

/* ---- the driver (used by the command line) -------------------------------- */

struct build_result;

typedef struct engine_summary {
    uint64_t execs;
    double secs;
    uint32_t edges_covered, n_edges;
    uint32_t errors_reached, n_errors;
    uint32_t edges_unreachable, errors_unreachable; /* proven (engine_prove.c) */
    bool errors_checked;         /* engine_set_error_check was in effect */
    uint32_t errors_confirmed;   /* of errors_reached, by the check      */
    unsigned error_tests_failed; /* error tests the check did not confirm */
    unsigned tests, crashes;     /* crashes: records of crashes, hangs, ... */
    unsigned error_records;      /* records of reached errors in crashes/  */
    uint64_t kinds[EXEC__COUNT]; /* runs per result kind */
    const char *stop_reason;     /* "budget", "all goals covered", ...   */
    char notes[2048];            /* the strategy's summary lines          */
    char bugs[2048];             /* one line per bug triage named: kind,
                                    place, crash file                     */
    unsigned n_bugs;             /* bugs named (crash files of them)       */
    unsigned same_bug;           /* crash signatures found to be one of them */
    bool write_failed;           /* part of the output is not on disk     */
    unsigned unwritten;          /* tests and crashes not written         */
    char write_error[1024];      /* the first write failure               */
    exec_kind *test_kinds;       /* how each test on disk ended in the
                                    engine, in file-name order (the replay
                                    check compares); free with
                                    engine_summary_release                */
    size_t n_test_kinds;
} engine_summary;

void engine_summary_release(engine_summary *s);

/* Runs the configured strategy on the built program and writes the output
 * directory (test suite, corpus, crashes, stats.json).  program_file is the
 * user's main source (for the metadata).  False with e set when the output
 * cannot be written or the executor cannot start; a crashing, hanging or
 * memory-hungry program under test is never a failure. */
bool engine_run(const ctg_options *o, const char *program_file, struct build_result *b,
                engine_summary *s, ctg_err *e);

#endif
