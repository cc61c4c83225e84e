/*
 * bmc.h - bounded symbolic reachability (issue 58, part 2): the program's
 * prepared module (prog.bc), every function inlined into main, is executed
 * symbolically over every path at once, block by block, up to a bound of
 * block executions; paths that reach one block having read the same number
 * of input bytes are merged (their values become if-then-else terms).  For
 * every goal (branch edge, error call) the disjunction of the path
 * conditions reaching it goes to the solver:
 *   - sat: the model is an input that reaches it, a new test (the engine
 *     runs it: the replay decides, nothing is claimed from the model);
 *   - unsat: no path of at most `steps` blocks reaches it.  When no path is
 *     still running after the bound (every execution ends within it), that
 *     holds for every input: the goal is proven unreachable.
 * Soundness: an operation it cannot model exactly (memory beyond scalar
 * globals, floating point, calls it does not know, recursion, main's
 * arguments) makes it give up on the program: it then claims nothing and
 * writes no test.  Where C's behaviour traps (a division by zero) the model
 * runs on, which only adds executions.  Input follows rt_protocol.h: each
 * __VERIFIER_nondet_T() reads the next sizeof(T) bytes, a bool the low bit
 * of one byte.
 * The check runs in a child process (its own CPU limit, nice 10); the
 * result comes back through a file.
 */
#ifndef CTG_BMC_H
#define CTG_BMC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"

typedef struct bmc_input {
    const char *bitcode; /* prog.bc (prepared, numbered)                     */
    uint32_t n_edges, n_errors;
    unsigned max_steps;  /* block executions of one path                     */
    size_t max_nodes;    /* expression nodes before the unrolling stops      */
    uint32_t query_ms;   /* per solver query                                 */
    double cpu_s;        /* limit (0: none): it stops at 0.9 of it, in time  */
    const char *dir;     /* where the child's result file goes               */
    const char *result_path; /* bmc_check writes what it has there as it goes
                                (NULL: not): a child stopped at its CPU limit
                                leaves its answers                          */
} bmc_input;

typedef enum bmc_answer {
    BMC_NONE = 0, /* not asked (out of time)                       */
    BMC_SAT,      /* bytes: an input that reaches it                 */
    BMC_UNSAT,    /* no path within the bound reaches it             */
    BMC_UNKNOWN   /* the solver gave no answer                       */
} bmc_answer;

typedef struct bmc_goal {
    uint8_t answer;  /* bmc_answer                                */
    uint8_t *bytes;  /* BMC_SAT: the input                        */
    size_t n_bytes;
} bmc_goal;

typedef struct bmc_result {
    bool ok;           /* false: gave up (why)                          */
    char why[200];
    unsigned steps;    /* the bound reached                             */
    bool exhaustive;   /* no path runs beyond it: unsat holds for every input */
    uint32_t n_goals;  /* n_edges + n_errors                            */
    bmc_goal *goals;
    unsigned sat, unsat, unknown;
    double secs;
} bmc_result;

/* Runs the check in this process into *r (release with bmc_result_release);
 * false with e set only on an internal failure (out of memory, unreadable
 * bitcode); a program it cannot model is r->ok false. */
bool bmc_check(const bmc_input *in, bmc_result *r, ctg_err *e);
void bmc_result_release(bmc_result *r);

/* Writes / reads a result as the child's file. */
bool bmc_result_write(const bmc_result *r, const char *path, ctg_err *e);
bool bmc_result_read(const char *path, uint32_t n_goals, bmc_result *r, ctg_err *e);

typedef struct bmc_job bmc_job;
/* Starts bmc_check in a child process; NULL with e set when it cannot. */
bmc_job *bmc_start(const bmc_input *in, ctg_err *e);
/* Whether the child has ended (wait: blocks until it has, or until an
 * interrupt, or until twice its seconds plus 10 have passed: then it is
 * killed and has failed). */
bool bmc_poll(bmc_job *j, bool wait);
/* After the end: its result (owned by j); NULL when the child failed (why). */
const bmc_result *bmc_job_result(const bmc_job *j, const char **why);
/* Kills the child if it still runs and frees j (NULL: nothing). */
void bmc_free(bmc_job *j);

#endif
