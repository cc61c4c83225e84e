/*
 * rt_state.h - state shared by the runtime's files (rt_main.c, rt_nondet.c,
 * rt_hooks.c, rt_libc.c, rt_signal.c, rt_exit.c).  Internal to the runtime: neither the
 * instrumenter nor the executor includes it; their contract is
 * rt_protocol.h.
 *
 * Before the runtime has mapped the shared memory (global constructors of the
 * program, LLVMFuzzerInitialize) every pointer here refers to private dummy
 * storage and rt_g.flags is 0, so instrumented code can run at any time.
 */
#ifndef CTG_RT_STATE_H
#define CTG_RT_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "rt_protocol.h"
#include "rt_valgen.h"

typedef struct rt_state {
    uint32_t flags;        /* CTG_FL_* of the current run (0 outside runs);
                              first: the instrumented code's guarded hooks
                              read it as CTG_SYM_RUN_FLAGS                  */
    ctg_shm_hdr *hdr;      /* shared header (a private dummy before mapping) */
    uint8_t *input;        /* CTG_MAX_INPUT bytes, NULL before mapping       */
    ctg_value_rec *values; /* CTG_MAX_VALUES records                          */
    double *dist;          /* n_edges + 1 distances                           */
    ctg_cmp_rec *cmp;      /* n_cmp + 1 operand records                       */
    uint32_t n_edges;      /* capacities of the maps above                    */
    uint32_t n_cmp;
    int standalone;        /* reproduce mode: messages go to stderr          */
    ctg_vg rng;            /* random extension, seeded per run               */
    uint32_t extend_end;   /* input bytes the extension may reach this run   */
    uint32_t zero_budget;  /* bytes of zeros a run without extension may read
                              past its input before it ends (0: no bound)     */
} rt_state;

/* The runtime's own globals carry __ctg_ symbol names (asm labels), so they
 * cannot clash with a program that has an rt_g or rt_end_run of its own. */
extern rt_state rt_g __asm__("__ctg_rt_g");
extern uint8_t *__ctg_cov_ptr;

/* Counts written by the instrumenter (or by a test program). */
extern const uint32_t __ctg_n_edges;
extern const uint32_t __ctg_n_cmp;
extern const uint32_t __ctg_n_errors;

/* Sets status bits in the shared header (async-signal-safe). */
static inline void rt_status(uint32_t bits)
{
    __atomic_fetch_or(&rt_g.hdr->status, bits, __ATOMIC_RELAXED);
}

/* Ends the run with `code` right away (no atexit handlers, no stdio). */
_Noreturn void rt_end_run(int code) __asm__("__ctg_rt_end_run");

/* rt_exit.c: ends the run after main returned: exit(code), or _exit(code)
 * in a fork-server child when the program has no exit handlers and no
 * destructors. */
_Noreturn void rt_return_from_main(int code) __asm__("__ctg_rt_return_from_main");

/* rt_signal.c: alternate stack and SIGSEGV handler (stack overflow). */
void rt_signal_init(void) __asm__("__ctg_rt_signal_init");

/* rt_nondet.c: consumes the whole input as one CTG_T_BYTES value (libFuzzer
 * harness), generating random bytes when it is empty under
 * CTG_FL_EXTEND_RANDOM.  Returns the length; *data points into the input. */
size_t rt_take_all(const uint8_t **data) __asm__("__ctg_rt_take_all");

#endif /* CTG_RT_STATE_H */
