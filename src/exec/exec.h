/*
 * exec.h - the executor: runs the instrumented program under test through its
 * fork server, one input at a time, and classifies each run.
 *
 * One exec_t owns one fork server (one binary) and one shared-memory region
 * laid out as in rt_protocol.h.  After exec_run() the maps of that run (edge
 * counters, branch distances, comparison operands, the consumed input and its
 * typed value log) are readable until the next exec_run().
 *
 * A crash, hang, memory blow-up or output flood of the program under test is
 * a result, never a failure of the executor.  exec_run() fails only when the
 * fork server cannot be (re)started.
 */
#ifndef CTG_EXEC_H
#define CTG_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/err.h"
#include "../runtime/rt_protocol.h"

typedef enum exec_kind {
    EXEC_NORMAL = 0, /* exited; exit_code holds the code                      */
    EXEC_ERROR,      /* reach_error / __VERIFIER_error reached (error_site)   */
    EXEC_ASSUME,     /* __VERIFIER_assume failed: the run does not count      */
    EXEC_ABORT,      /* SIGABRT: abort() or a failed assert()                 */
    EXEC_CRASH,      /* another fatal signal (signal holds it)                */
    EXEC_TIMEOUT,    /* killed after the per-run timeout                      */
    EXEC_OOM,        /* allocation failed under the memory limit              */
    EXEC_SANITIZER,  /* a sanitizer of prog.san-LIST reported an error
                        (crash_site: its kind and place)                      */
    EXEC__COUNT
} exec_kind;

/* Short lower-case name of a kind ("normal", "error", ...). */
const char *exec_kind_name(exec_kind k);

typedef struct exec_result {
    exec_kind kind;
    int exit_code;       /* EXEC_NORMAL                                     */
    int signal;          /* EXEC_CRASH / EXEC_ABORT / EXEC_TIMEOUT          */
    uint32_t error_site; /* EXEC_ERROR                                      */
    uint32_t status;     /* raw CTG_ST_* bits the runtime reported          */
    bool stack_overflow; /* EXEC_CRASH caused by unbounded recursion        */
    uint64_t crash_site; /* EXEC_CRASH / EXEC_ABORT: where the fatal signal
                            hit (rt_protocol.h); 0 when unknown             */
    double usecs;        /* wall-clock time of the run                      */
} exec_result;

typedef struct exec_config {
    const char *binary;     /* instrumented executable                       */
    uint32_t n_edges;       /* from the program database                     */
    uint32_t n_cmp;
    uint32_t timeout_ms;    /* per run; default 1000                         */
    uint64_t mem_limit_mb;  /* address-space limit of the PUT; default 2048  */
    const char *stderr_log; /* file that receives the PUT's stderr (capped at
                               1 MiB per fork server); NULL: /dev/null       */
    const char *work_dir;   /* working directory of the runs (a scratch
                               directory); NULL: the tool's                  */
    uint32_t run_flags;     /* CTG_FL_* added to every run (MALLOC_NULL)     */
    const char *const *args;/* the program's arguments (argv[1..]); "@@" is
                               replaced by the runtime (rt_main.c)          */
    int n_args;
    bool sanitizer;         /* a sanitizer binary (prog.san-LIST): no
                               address-space limit (ASan reserves terabytes
                               of shadow; mem_limit_mb bounds its heap
                               instead), the sanitizers' options set
                               (EXEC_SANITIZER_OPTIONS)                      */
} exec_config;

/* The sanitizers' options of a run under the executor: the report ends the
 * run by abort (exit codes are the program's), our handler keeps the
 * signals, no leak check at exit, no symbolising (triage symbolises). */
#define EXEC_ASAN_OPTIONS                                                                      \
    "abort_on_error=1:detect_leaks=0:symbolize=0:handle_segv=0:handle_sigbus=0:"               \
    "handle_sigfpe=0:handle_sigill=0:handle_abort=0:allocator_may_return_null=1:"              \
    "detect_odr_violation=0:print_summary=1"
#define EXEC_UBSAN_OPTIONS "abort_on_error=1:halt_on_error=1:print_stacktrace=0:symbolize=0"

typedef struct exec exec_t;

/* Starts the fork server.  Returns NULL with e set when the binary cannot be
 * started or does not speak the protocol (e.g. it was not instrumented). */
exec_t *exec_new(const exec_config *c, ctg_err *e);
/* Like exec_new, for prog.sym: also creates the symbolic trace region
 * (rt_symtrace.h) with room for trace_nodes nodes and trace_pc path entries,
 * handed to the program on descriptor CTG_FD_TRACE (exec_trace reads it). */
exec_t *exec_new_traced(const exec_config *c, uint32_t trace_nodes, uint32_t trace_pc,
                        ctg_err *e);
void exec_free(exec_t *x);

/* Runs one input.  flags are CTG_FL_* (distances, cmplog, random extension);
 * rng_seed seeds the runtime's random extension.  Returns false with e set
 * only if the fork server died and could not be restarted. */
bool exec_run(exec_t *x, const uint8_t *input, size_t len, uint32_t flags, uint64_t rng_seed,
              exec_result *r, ctg_err *e);

/* Batches (libFuzzer targets in persistent mode, CTG_CMD_BATCH): the child
 * runs the inputs one after another and stops after the first interesting
 * one: a status other than a normal return (crash, timeout, error, ...) or
 * an edge counter whose hit-count bucket (ctg_bucket) is not among the bits
 * of known[edge] (n_edges bytes, then the spare counter and the features:
 * ctg_cov_len bytes, rt_protocol.h).  The others ran normally and found
 * nothing new; they leave no trace.  Per input, results and maps are what
 * exec_run would give for it alone. */
typedef struct exec_batch {
    uint32_t ran;        /* inputs run: the first ran - stopped were plain */
    bool stopped;        /* input ran - 1 was interesting: r and the maps
                            are its run                                     */
    double plain_max_us; /* longest run time of the plain inputs           */
} exec_batch;

/* fn(arg) is called once in every exec_run_batch that sends a batch,
 * while the program runs it (after the command is sent, before the reply
 * is awaited): the caller's work in that time overlaps with the run on
 * another CPU.  fn must not use x.  NULL: none. */
void exec_set_overlap(exec_t *x, void (*fn)(void *), void *arg);

/* Watched comparison sites of the next batches (the fuzzer's repair):
 * input i of a batch with log[i] runs with comparison logging, and the
 * sites of sites[0 .. n) it ran whose last operands differ are kept (at
 * most CTG_WATCH_MAX sites, CTG_WATCH_REC records per input).  The arrays
 * must live until the batch has run; sites NULL: none. */
void exec_set_watch(exec_t *x, const uint32_t *sites, uint32_t n, const uint8_t *log);
/* The kept records of input i of the last batch, in the order of the
 * watched sites; UINT32_MAX when there are none to read (input i was not
 * logged, did not run, or the batch's child died). */
uint32_t exec_batch_broken(const exec_t *x, uint32_t i, const ctg_cmp_rec **recs);

/* Whether x can run batches (a libFuzzer target, not prog.sym). */
bool exec_can_batch(const exec_t *x);
/* Runs in[0 .. n) as one batch, or the first of them that fit in the
 * batch region (CTG_BATCH_MAX inputs, CTG_BATCH_BYTES bytes; at least one);
 * flags as for exec_run (no CTG_FL_DIST / CMPLOG: those maps are not reset
 * per input).  When the fork server dies, the input it died on is run
 * alone by exec_run.  False with e set only if the server cannot be
 * (re)started. */
bool exec_run_batch(exec_t *x, const uint8_t *const *in, const size_t *len, uint32_t n,
                    const uint8_t *known, uint32_t flags, exec_batch *out, exec_result *r,
                    ctg_err *e);

/* Maps of the last run.  exec_dist is reset (and meaningful) only for runs
 * with CTG_FL_DIST, exec_cmp only for runs with CTG_FL_CMPLOG. */
const uint8_t *exec_cov(const exec_t *x);       /* n_edges hit counters, a spare
                                                   one, the features (ctg_cov_len) */
const double *exec_dist(const exec_t *x);       /* n_edges; 0 = none, else 1 + d  */
const ctg_cmp_rec *exec_cmp(const exec_t *x);   /* n_cmp records                  */
/* The input as the run consumed it: the given bytes plus any random extension.
 * *len counts every byte in the input area (consumed or not). */
const uint8_t *exec_input(const exec_t *x, size_t *len);
/* Bytes the run actually consumed (prefix of exec_input). */
size_t exec_consumed(const exec_t *x);
const ctg_value_rec *exec_values(const exec_t *x, size_t *n);
/* The symbolic trace region of the last run (prog.sym, see rt_symtrace.h,
 * read it with expr_trace_read) and its size; NULL without a trace region.
 * It is written by the program under test: treat it as untrusted. */
const void *exec_trace(const exec_t *x, size_t *size);
uint32_t exec_n_edges(const exec_t *x);
uint32_t exec_n_cmp(const exec_t *x);

/* Bounds CTG_FL_EXTEND_* to `bytes` past the given input from the next run
 * on (0: up to CTG_MAX_INPUT); a run that needs more ends there as "ran
 * out" (rt_protocol.h, extend_max). */
void exec_set_extend_max(exec_t *x, uint32_t bytes);
/* A traced executor's runs keep the input bytes before offset concrete
 * (ctg_symtrace_hdr.sym_from: a window on the end of a long input); 0, the
 * default, makes every byte symbolic. */
void exec_set_sym_from(exec_t *x, uint32_t offset);
/* Changes the per-run timeout from the next run on (ms > 0). */
void exec_set_timeout(exec_t *x, uint32_t ms);
uint32_t exec_timeout(const exec_t *x);

/* Statistics of this executor. */
uint64_t exec_count(const exec_t *x);     /* runs so far                   */
uint64_t exec_restarts(const exec_t *x);  /* fork-server restarts          */
/* Wall time of the batches so far (exec_run_batch): from each command to
 * the end of the caller's overlap work, and from there to the batch's
 * status (the caller waiting for the program), in seconds. */
void exec_batch_times(const exec_t *x, double *overlap_s, double *wait_s);
/* enum ctg_harness the binary reported in its hello. */
uint32_t exec_harness(const exec_t *x);

#endif
