/*
 * engine_int.h - the search context's fields, for the engine's own files
 * (engine.c, engine_limits.c, engine_resume.c, engine_jobs.c).  Strategies
 * see search_ctx through engine.h only.
 */
#ifndef CTG_ENGINE_INT_H
#define CTG_ENGINE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/err.h"
#include "../base/rng.h"
#include "../base/sbuf.h"
#include "../report/stats.h"
#include "../suite/suite.h"
#include "crashes.h"
#include "engine.h"

struct search_ctx {
    const ctg_options *opts;
    const progdb *db;
    const char *cov_bin;
    const char *sym_bin; /* prog.sym, when built                        */
    struct build_result *build; /* the run's build (prog.sym may still be building) */
    exec_t *x;
    exec_t *xs;          /* prog.sym's executor (ctx_sym_start)          */
    archive_t *archive;
    rng rng;
    double t0, last_progress, last_stats;
    uint64_t execs;
    uint64_t min_execs;  /* of execs: runs minimising crashes           */
    uint64_t min_capped; /* minimisations cut short by their share       */
    uint64_t kinds[EXEC__COUNT];
    bool failed, stop, tty, progress_drawn;
    const char *stop_reason;
    ctg_err err;
    test_t **kept;       /* every test written to the suite              */
    size_t n_kept, cap_kept;
    struct eout {        /* what the run writes                           */
        suite_t *suite;
        crashes_t *crashes; /* crashes/: one file per bug                */
        stats_t *stats;
        char *stats_path;
        char *scratch;   /* OUT/.work: working directory of the runs      */
        sbuf notes;      /* lines for the final summary                   */
        bool write_failed; /* a file of the output could not be written  */
        unsigned unwritten; /* tests and crashes not written since        */
        ctg_err write_err;  /* the first write failure                    */
    } out;
    struct elim {        /* a run's limits (engine_limits.c)              */
        uint32_t ext_limit; /* current extension bound (exec_set_extend_max) */
        uint32_t probe_max; /* bytes past its input a probe may draw      */
        uint64_t ext_drawn; /* bytes drawn by c->x's runs that hit the bound */
        uint64_t probe_due; /* ext_drawn at which the next probe comes    */
        uint32_t ended_max; /* most bytes a run that ended by itself drew */
        uint32_t sym_limit; /* extension bound of c->xs (eng_sym_start)    */
        uint64_t sym_hits;  /* runs of c->xs that hit it (eng_probe_sym)   */
        struct tcal {    /* timeout calibration of c->x [0] and c->xs [1] */
            double max_us; /* slowest run that did not time out          */
            uint64_t timeouts, rechecks, recovered;
        } cal[2];
    } lim;
    struct ebat {        /* executor batches (ctx_exec_batch)             */
        uint8_t *known;  /* scratch: n_edges bytes                        */
        void (*overlap)(void *); /* ctx_set_overlap                        */
        void *overlap_arg;
        bool overlap_done; /* called in this ctx_exec_batch               */
        bool batch_sent;   /* the last ctx_exec_batch ran a batch         */
        uint64_t batches, batched; /* batches and the inputs they ran     */
    } bat;
    struct esync {       /* a --jobs worker's imports (engine_jobs.c)     */
        double next_sync;  /* when it next imports                        */
        uint32_t *sync_next; /* per sibling: the next corpus id to import */
    } sync;
    struct esan {        /* the sanitizer binary (engine_bugs.c)          */
        exec_t *x;       /* its executor when it re-runs inputs, or NULL  */
        bool main;       /* c->x runs prog.san itself (--sanitize-mode all) */
        uint64_t every;  /* one input in `every` re-runs on it (0: none)  */
        uint64_t due;    /* inputs since the last sampled one             */
        uint64_t runs, found; /* its runs, and those a sanitizer ended    */
    } san;
    struct etri {        /* crash triage (engine_bugs.c)                  */
        char *dbg_bin;   /* prog.dbg (built at the first crash)           */
        bool dbg_failed; /* it could not be built                         */
        uint64_t triaged;/* crash signatures triaged                      */
        double secs;     /* seconds they took                             */
    } tri;
    struct echk {        /* the check of error tests (engine_errcheck.c)  */
        bool on;
        uint8_t *tries;  /* per error site (unnumbered: n_errors): tests
                            checked; done[] once confirmed or given up   */
        bool *done;
        uint32_t n_done, n_confirmed;
        unsigned failed; /* tests not confirmed                           */
        double secs;     /* spent checking                               */
    } echk;
    struct eprv {        /* proofs of unreachable goals (engine_prove.c)  */
        struct prove_job *job; /* the prover, running or ended           */
        bool polling;    /* a time budget: its result is used as it comes */
        bool done;       /* its result has been taken                     */
        double next_poll;
        uint64_t *edge;  /* n_edges bits: proven unreachable              */
        bool *error;     /* per error site: proven unreachable            */
        uint32_t n_edges, n_errors; /* goals proven unreachable          */
        bool no_error_call; /* a Test-Comp program that calls no error
                               function (nor takes one's address)      */
        char note[320];  /* what it proved, or why nothing                */
        uint8_t *by;     /* per goal (edges, then error sites): the
                            method that proved it (PRV_BY_*)            */
        uint8_t marking; /* the method whose claims are being marked      */
        struct bmc_job *bmc; /* the bounded checker (engine_bmc.c)        */
        bool bmc_done, draining;
        const struct bmc_result *bmc_res; /* its result (owned by bmc)  */
        uint32_t *pend;  /* goals of bmc_res whose inputs (one per distinct
                            input) run; next_pend the next to run       */
        size_t n_pend, next_pend;
        uint32_t bmc_ran, bmc_new; /* its inputs run, goals they covered */
        char bmc_note[320];
    } prv;
    uint32_t (*flips)[3]; /* per edge: the solver's answers for a path into
                             it (ctx_note_flip; NULL until the first)    */
};

/* Proofs (engine_prove.c): eng_prove_start starts the prover with the
 * search; eng_prove_poll takes its result when it has come (with a time
 * budget); eng_prove_stop is the reason to stop that proofs give, or NULL;
 * eng_prove_finish takes the result at the end (waiting for it with --time
 * 0), adds the summary line and stats.json's goals; eng_edge_unreachable
 * whether an edge is proven unreachable. */
void eng_prove_start(search_ctx *c);
void eng_prove_poll(search_ctx *c);
const char *eng_prove_stop(const search_ctx *c);
void eng_prove_finish(search_ctx *c);
void eng_prove_free(search_ctx *c);
/* Proof methods of eprv.by. */
enum { PRV_BY_NONE = 0, PRV_BY_EVA, PRV_BY_BMC };
/* Marks a goal proven unreachable by eprv.marking (engine_prove.c). */
void eng_prove_mark_edge(search_ctx *c, uint32_t edge);
void eng_prove_mark_error(search_ctx *c, uint32_t site);
bool eng_prove_alloc(search_ctx *c);
/* A prover's seconds: --prove-time, or a quarter of --time (2 to 30 s);
 * with --time 0, wait_s. */
double eng_prove_budget(const ctg_options *o, double wait_s);
/* A claim a test contradicts (engine_prove.c). */
bool eng_prove_contradicted(search_ctx *c);
/* The bounded checker (engine_bmc.c): started with the prover, polled
 * with it; its inputs run before the next run of the search (or at the
 * end), then its claims are marked. */
void eng_bmc_start(search_ctx *c, const char *dir);
void eng_bmc_poll(search_ctx *c);
bool eng_bmc_before_run(search_ctx *c, exec_t *x);
void eng_bmc_finish(search_ctx *c);
void eng_bmc_free(search_ctx *c);
/* The bounded checker's answer for goal (bmc_answer; 0: none) and its
 * bound into *steps. */
int eng_bmc_answer(const search_ctx *c, uint32_t goal, unsigned *steps);
/* The merge of --jobs: the statuses worker 0 proved (its stats.json). */
void eng_prove_import(search_ctx *c, const char *stats_path);
bool eng_edge_unreachable(const search_ctx *c, uint32_t edge);

/* Why goals were not reached (engine_explain.c): per edge not covered, the
 * suite's test that came closest (its id, -1: none measured) and its
 * branch distance, and whether the edge's branch ran at all; NULL when
 * every edge is covered or nothing could run (ctg_free).  eng_miss_why
 * puts it in words. */
typedef struct eng_miss {
    double dist;
    int32_t test;
    bool branch_ran;
    uint32_t flips[3]; /* the solver's answers for a path into it (CTX_FLIP_*) */
} eng_miss;
eng_miss *eng_explain_misses(search_ctx *c);
void eng_miss_why(const eng_miss *m, char *buf, size_t cap);
/* The summary's line on the edges not reached (m: eng_explain_misses),
 * with what the engines met (solver timeouts, concretised runs, ...), and
 * stats.json's goals.not_reached.* counters. */
void eng_miss_summary(search_ctx *c, const eng_miss *m);

/* The check of error tests (engine_errcheck.c, engine.h): eng_errcheck_start
 * sets it up when a check is set and the run is one process;
 * eng_errcheck_wanted says whether a run that covers nothing new is still
 * to be kept, for its error (r: its result); eng_errcheck_test checks a
 * kept test of an error run; eng_errors_done counts the error sites that
 * count as reached (confirmed or given up while checking, else the
 * archive's). */
void eng_errcheck_start(search_ctx *c);
void eng_errcheck_free(search_ctx *c);
bool eng_errcheck_wanted(const search_ctx *c, const exec_result *r);
void eng_errcheck_test(search_ctx *c, const test_t *t, const exec_result *r);
uint32_t eng_errors_done(const search_ctx *c);

/* The sanitizer binary (engine_san.c, --sanitize): eng_san_start picks
 * how it runs (c->x itself, or a second executor re-running inputs);
 * eng_san_config marks an executor's config for it; eng_san_after re-runs
 * a run of x (result r, kept: it became a test) on it when that is due:
 * a new test, a crash, or the sampled input; eng_san_batch the sampled
 * input of a batch's plain inputs in[0 .. n).  crash namespace 2. */
bool eng_san_start(search_ctx *c, ctg_err *e);
bool eng_san_is_main(const search_ctx *c);
void eng_san_after(search_ctx *c, exec_t *x, const exec_result *r, bool kept);
void eng_san_batch(search_ctx *c, const uint8_t *const *in, const size_t *len, uint32_t n);
void eng_san_free(search_ctx *c);
/* The summary's lines of the bugs triage named, one per crash file
 * (engine_bugs.c), into b; stats.json's "bugs" too. */
void eng_bug_lines(search_ctx *c, sbuf *b);
/* Sets the crash table's triage (engine_bugs.c). */
void eng_triage_start(search_ctx *c);
void eng_san_counters(search_ctx *c);
/* The executor settings of the run for binary: limits, the scratch
 * directory, --malloc-fail, and the first timeout (ENG_TMO_START_MS when it
 * is calibrated); sanitizer: prog.san's (engine.c). */
exec_config eng_run_config(const search_ctx *c, const char *binary, bool sanitizer);
/* Records the last run of x in crashes/ (engine.c). */
void eng_record_crash(search_ctx *c, const exec_t *x, const exec_result *r);
/* Minimises the crashes waiting for executor x (engine.c). */
void eng_minimise_crashes(search_ctx *c, exec_t *x);

/* "runs.<kind>": the stats.json counter of runs of kind k, in buf. */
const char *eng_runs_counter(char *buf, size_t size, int k);
/* --resume (engine_resume.c): reads the earlier run of the output
 * directory back; false with e set. */
bool eng_resume_run(search_ctx *c, ctg_err *e);
/* run --jobs (engine_jobs.c): a worker imports its siblings' new tests
 * when --sync-s has passed; the merge reads every worker's tests and
 * crashes into the run and takes their counters. */
void eng_sync(search_ctx *c);
void eng_merge(search_ctx *c);

/* One run of in on executor x (c->x or c->xs) with the engine's
 * bookkeeping (see ctx_exec). */
bool eng_run_on(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                ctx_run *out);

/* The limits of a run (engine_limits.c).  --timeout-ms auto starts every
 * executor at ENG_TMO_START_MS; eng_calibrate learns from a run that did
 * not time out; eng_settle_timeout re-checks a timeout picked for it (one
 * more execution) and calibrates; eng_timed_run is exec_run followed by
 * it (false when the executor failed). */
#define ENG_TMO_START_MS 100u
void eng_calibrate(search_ctx *c, exec_t *x, const exec_result *r);
bool eng_settle_timeout(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                        uint64_t seed, exec_result *r);
bool eng_timed_run(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                   exec_result *r);
/* The extension bound: eng_extension_start sets --extend-limit on c->x;
 * eng_probe_extension runs a probe of in on x before its run when one is
 * due (false when the executor failed); eng_note_run learns from every run
 * (the bytes that pay for probes, the bound of prog.sym); eng_sym_start
 * sets prog.sym's bound on c->xs. */
void eng_extension_start(search_ctx *c, uint32_t limit);
/* Whether n more executions fit in --max-execs. */
bool eng_execs_left(const search_ctx *c, uint64_t n);
bool eng_probe_extension(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags);
void eng_note_run(search_ctx *c, exec_t *x, const exec_result *r);
/* After a run of in on c->xs that gave r: when it hit prog.sym's bound, now
 * and then the same input on c->x with prog.cov's bound, to learn whether
 * the program ends by itself (false when the executor failed).  The
 * crashes waiting for c->x must be minimised first. */
bool eng_probe_sym(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags,
                   const exec_result *r);
void eng_sym_start(search_ctx *c);

#endif
