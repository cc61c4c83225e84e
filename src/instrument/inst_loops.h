/*
 * inst_loops.h - the call-free inner loops of a function, whose inline edge
 * counters inst_cov.c keeps in registers until the loop exits (internal
 * to src/instrument).
 *
 * A counter updated in memory on every iteration is a load and a store on
 * the same byte: the next iteration's load waits for the store (some five
 * cycles), and a tight loop of a libFuzzer target (a checksum over the
 * input) ran twice as long instrumented as plain.  In a loop that calls
 * nothing, the only way out other than its exit edges is a crash or a
 * kill, whose hit counts matter to nobody, so the loop may count in
 * registers and add the counts to the map at its exits: every run that
 * ends normally leaves the same map as before.
 */
#ifndef CTG_INST_LOOPS_H
#define CTG_INST_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "inst_sites.h"

/* The loops of one function of the walk that may count in registers:
 * natural loops that hold no other loop, whose blocks end in a plain br
 * (no switch: its hook counts) and call nothing but intrinsics. */
typedef struct inst_loops {
    uint32_t n_blocks;
    uint32_t *loop;   /* per block (layout index): 1 + the loop it is in, 0 none */
    uint32_t n_loops;
} inst_loops;

/* Finds f's loops into L (zeroed first).  Call it before the function is
 * instrumented: the calls the pass adds are its own.  False on out of
 * memory (L then has no loop). */
bool inst_loops_find(const inst_fn *f, inst_loops *L);
void inst_loops_release(inst_loops *L);

/* The blocks outside loop k (1-based) that a block of it branches to, into
 * out (room for n_blocks); returns how many. */
uint32_t inst_loops_exits(const inst_fn *f, const inst_loops *L, uint32_t k, uint32_t *out);

#endif
