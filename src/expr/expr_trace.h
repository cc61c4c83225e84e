/*
 * expr_trace.h - path constraints: the list of decisions of one concolic run
 * over expressions of one expr_ctx, and the reader that builds it from the
 * symbolic trace the runtime wrote (format: src/runtime/rt_symtrace.h).
 *
 * An entry asserts `taken ? cond : !cond` (expr_pc_asserted).  Kinds are
 * enum ctg_spc_kind: BRANCH, SWITCH and LENGTH entries are negated by the
 * search; PTR (pointer concretisation) and ASSUME entries only constrain.
 */
#ifndef CTG_EXPR_TRACE_H
#define CTG_EXPR_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/err.h"
#include "../runtime/rt_symtrace.h"
#include "expr.h"

typedef struct expr_pc_entry {
    expr *cond;    /* width-1 condition as evaluated by the program        */
    uint32_t site; /* edge base id (rt_protocol.h) or CTG_SYM_NONE         */
    uint32_t arg;  /* SWITCH: case index                                   */
    uint8_t kind;  /* enum ctg_spc_kind                                    */
    bool taken;    /* cond was true                                        */
} expr_pc_entry;

typedef struct expr_pc {
    expr_pc_entry *v;
    size_t n, cap;
    uint32_t flags; /* CTG_STF_* of the trace it came from                 */
    uint64_t serial;/* this list's identity in the process (set by its first
                       push, 0 before): caches of what a path scores key on
                       it, as an address can be reused by the next path   */
} expr_pc;

#define EXPR_PC_INIT {NULL, 0, 0, 0, 0}

/* Appends an entry; false when out of memory or cond is NULL. */
bool expr_pc_push(expr_pc *pc, expr *cond, bool taken, uint32_t site, uint8_t kind, uint32_t arg);
/* Frees the entries (not the expressions, which belong to their context). */
void expr_pc_release(expr_pc *pc);
/* The constraint an entry asserts: cond or not(cond); NULL on error. */
expr *expr_pc_asserted(expr_ctx *c, const expr_pc_entry *en);
/* True for kinds the search negates (BRANCH, SWITCH, LENGTH). */
bool expr_pc_negatable(uint8_t kind);

/* Reads the trace in region[0..size) into pc (appending), building the
 * nodes in c (hash-consed and simplified).  Every index, width and kind is
 * validated: a corrupt trace gives false with e set, never a crash.  Out of
 * memory also gives false with e set. */
bool expr_trace_read(expr_ctx *c, const void *region, size_t size, expr_pc *pc, ctg_err *e);

#endif
