/*
 * bmc_int.h - the bounded checker's state (internal to bmc*.c): the
 * module, main's blocks and value slots, the states of the current and the
 * next step, and per goal the disjunction of the path conditions reaching it.
 */
#ifndef CTG_BMC_INT_H
#define CTG_BMC_INT_H

#include <llvm-c/Core.h>

#include "../../base/hmap.h"
#include "../../expr/expr.h"
#include "bmc.h"

/* All paths at one block having read pos input bytes, merged. */
typedef struct bstate {
    expr *guard;    /* the disjunction of their path conditions            */
    expr **v;       /* per slot: the value (NULL: not yet defined)         */
    uint32_t block; /* index in bmc.blocks                                 */
    uint32_t pos;   /* input bytes read                                    */
} bstate;

typedef struct bstates {
    bstate *s;
    size_t n, cap;
    hmap at; /* (block << 32 | pos) -> index in s */
} bstates;

typedef struct bmc {
    LLVMContextRef cx;
    LLVMModuleRef mod;
    LLVMValueRef fn;           /* main, everything inlined                 */
    LLVMBasicBlockRef *blocks; /* layout order; 0 is the entry             */
    size_t n_blocks, cap_blocks;
    hmap bidx;                 /* block -> index                           */
    hmap slot;                 /* instruction or scalar global -> slot     */
    uint32_t n_slots, n_globals;
    expr_ctx *x;
    uint32_t n_havoc;          /* named variables made so far (undef)      */
    uint32_t max_pos;          /* the most input bytes a path read         */
    bstates cur, nxt;
    uint32_t n_edges, n_goals;
    expr **reach;              /* per goal                                 */
    bool failed;               /* gave up: why                             */
    char why[200];
} bmc;

bool bmc_fail(bmc *B, const char *fmt, const char *arg);
/* The term of operand v in state s (an undefined value: any value); NULL
 * after bmc_fail. */
expr *bmc_val(bmc *B, const bstate *s, LLVMValueRef v);
bool bmc_load(bmc *B, const char *bitcode, ctg_err *e);
bool bmc_first(bmc *B);
void bmc_run_state(bmc *B, bstate *s);
void bmc_switch(bmc *B, bstate *s, LLVMValueRef T, uint32_t first);

/* bmc_step.c: paths into goals, successors, the states of a step. */
void bmc_reach(bmc *B, uint32_t goal, expr *g);
void bmc_goto(bmc *B, const bstate *s, LLVMBasicBlockRef to, expr *g);
bool bmc_add_state(bmc *B, const bstate *s);
/* Unrolls up to max_steps (or the node budget, or the deadline); the
 * steps done into *steps; true when no path is left running. */
bool bmc_unroll(bmc *B, unsigned max_steps, size_t max_nodes, double deadline, unsigned *steps);
void bmc_states_release(bstates *S);

#endif
