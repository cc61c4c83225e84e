/*
 * prove.h - proofs that goals cannot be reached (issue 58): an analyser runs
 * beside the search, in a process of its own, and says which functions of
 * the program no execution reaches.  The engine turns that into statuses of
 * branch edges and error sites (engine_prove.c).
 *
 * The analyser is Frama-C's Eva (Debian's frama-c-base), an abstract
 * interpreter that over-approximates every execution of the program.  Eva
 * cuts an execution at each alarm (undefined behaviour it cannot rule out),
 * where gcc -O0 would go on; so a result counts only when the analysis
 * completed with no alarm at all, and the semantics are set to gcc's where
 * C leaves them open: signed arithmetic wraps (-fwrapv), non-finite floats
 * flow on, locals start with any value.  Functions without code get a
 * stub (the __VERIFIER_nondet_* family: any value of the type); a call of
 * any other function with neither code nor a specification voids the
 * result.  What is claimed holds for every input (no bound).
 */
#ifndef CTG_PROVE_H
#define CTG_PROVE_H

#include <stdbool.h>

#include "../../base/err.h"

typedef struct prove_input {
    const char *const *sources; /* the program's C files                      */
    int n_sources;
    const char *const *cflags;  /* -I, -D, ... (others are left out)          */
    int n_cflags;
    int arch_bits;              /* 32: ILP32 (x86_32), else LP64 (x86_64)     */
    const char *dir;            /* where the stub file and the log go         */
    double cpu_s;               /* the analyser's CPU time limit              */
    bool escalate;              /* a second, more precise analysis when the
                                   first proves no error call unreachable  */
} prove_input;

typedef struct prove_job prove_job;

/* Whether the analyser is installed (frama-c on PATH). */
bool prove_available(void);
/* Starts the analysis in the background (its own process group; nice 10
 * with escalate, the mode of a run that does not wait for it;
 * in's sources and flags must outlive the job, the rest is copied);
 * NULL with e set when it cannot start. */
prove_job *prove_start(const prove_input *in, ctg_err *e);
/* Whether the analysis has ended (wait: blocks until it has).  Once it has,
 * prove_result tells what it found. */
bool prove_poll(prove_job *j, bool wait);
/* After the end: whether it proved anything.  *unreached: the names of the
 * functions no execution reaches (owned by j, n of them); why: the reason
 * when it proved nothing ("3 alarms", "parse error", ...). */
bool prove_result(const prove_job *j, const char *const **unreached, int *n, const char **why);
/* Seconds from its start to the poll that saw it end (or so far). */
double prove_seconds(const prove_job *j);
/* The CPU seconds of its analyses that ended (its own, whatever the load). */
double prove_cpu_seconds(const prove_job *j);
/* The log's path (Eva's own output). */
const char *prove_log(const prove_job *j);
/* Stops the analysis if it still runs and frees j (NULL: nothing). */
void prove_free(prove_job *j);

#endif
