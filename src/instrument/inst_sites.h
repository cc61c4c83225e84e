/*
 * inst_sites.h - the one walk over a module that decides every id
 * (internal to src/instrument).
 *
 * inst_number() and inst_cov() (and later passes) never number anything
 * themselves: they call inst_walk_module() and use the sites it returns, so
 * the ids of the program database and of every binary agree by construction.
 *
 * Canonical order: defined functions in module order (declarations and
 * ctestgen's own __ctg_* functions skipped, the renamed user main included),
 * blocks in layout order, instructions in block order.  Visiting an
 * instruction assigns, in this order of appearance:
 *   - a call to reach_error / __VERIFIER_error: the next error site;
 *   - a call to strcmp/strncmp/memcmp/bcmp (a declaration): the next
 *     comparison site (str site);
 *   - a conditional `br`: the next branch, 2 edges, and when its condition is
 *     an icmp (<= 64 bits, not against a string-compare result) or an fcmp,
 *     the next comparison site;
 *   - a `switch`: the next branch, ncases + 1 edges.
 * Inline assembly (asm calls, callbr) is counted and left alone.
 */
#ifndef CTG_INST_SITES_H
#define CTG_INST_SITES_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <stdint.h>

#include "../base/err.h"

typedef enum inst_site_kind {
    SITE_BR = 0,  /* conditional br                         */
    SITE_SWITCH,  /* switch                                  */
    SITE_STRCALL, /* strcmp / strncmp / memcmp call          */
    SITE_ERROR,   /* call of reach_error / __VERIFIER_error  */
    SITE_ASM      /* inline assembly (no id)                 */
} inst_site_kind;

/* What feeds a conditional br. */
typedef enum inst_cond {
    COND_BOOL = 0, /* not a comparison: __ctg_br                          */
    COND_ICMP,     /* icmp of integers <= 64 bits or pointers: __ctg_cmp  */
    COND_FCMP,     /* fcmp: __ctg_fcmp                                    */
    COND_STR,      /* icmp of a str site's result against a constant      */
    COND_WIDE      /* icmp wider than 64 bits: __ctg_br                   */
} inst_cond;

typedef enum inst_str_kind { STR_STRCMP = 0, STR_STRNCMP, STR_MEMCMP } inst_str_kind;

typedef struct inst_site {
    inst_site_kind kind;
    LLVMValueRef inst;    /* the terminator or the call                    */
    uint32_t func, block; /* indices in the walk's functions / blocks      */
    uint32_t branch;      /* SITE_BR / SITE_SWITCH: branch id              */
    uint32_t first_edge, n_edges;
    int32_t cmp_site;     /* BR: comparison site of the condition, -1 none;
                             STRCALL: its own id                            */
    inst_cond cond;       /* SITE_BR                                       */
    int str_operand;      /* COND_STR: icmp operand holding the result (0/1) */
    LLVMIntPredicate str_pred; /* COND_STR: predicate with the result on the
                                  left (swapped when it was on the right)  */
    inst_str_kind str;    /* SITE_STRCALL                                  */
    uint32_t error_site;  /* SITE_ERROR                                    */
} inst_site;

/* A numbered function and its blocks in layout order. */
typedef struct inst_fn {
    LLVMValueRef fn;
    uint32_t n_blocks;
    LLVMBasicBlockRef *blocks; /* layout order                    */
    void *sorted;              /* private: block -> index lookup */
} inst_fn;

typedef struct inst_walk {
    inst_site *sites;
    size_t n_sites, cap_sites;
    inst_fn *fns;
    size_t n_fns, cap_fns;
    uint32_t n_branches, n_edges, n_cmp, n_errors, n_asm;
} inst_walk;

/* Walks m and fills w (zero-initialised by the caller).  False with e set on
 * out of memory; release w either way. */
bool inst_walk_module(LLVMModuleRef m, inst_walk *w, ctg_err *e);
void inst_walk_release(inst_walk *w);

/* Index of bb in f's layout, or -1. */
int32_t inst_block_index(const inst_fn *f, LLVMBasicBlockRef bb);

/* True when the name of v is exactly s. */
bool inst_name_is(LLVMValueRef v, const char *s);
/* True when the name of v starts with prefix. */
bool inst_name_starts(LLVMValueRef v, const char *prefix);

/* The predicate p with its operands swapped (sgt <-> slt, ...). */
LLVMIntPredicate inst_swap_pred(LLVMIntPredicate p);

/* Name of a value as a NUL-terminated string in buf (truncated). */
const char *inst_name(LLVMValueRef v, char *buf, size_t size);

/* True for an instruction clang's sanitizers added (-fsanitize=undefined:
 * the checks carry !nosanitize): not the program's.  Such branches are not
 * numbered (nor exposed by inst_prepare), so the ids of a sanitizer build
 * agree with those of prog.cov. */
bool inst_sanitizer_check(LLVMValueRef inst);

#endif
