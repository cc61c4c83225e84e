/*
 * inst_hooks.h - the table of runtime symbols the coverage pass emits
 * (internal to src/instrument), as SymCC's Runtime.cpp: every hook of
 * rt_protocol.h is declared in the module at most once, with the one type the
 * table gives, and called through inst_hook_call().
 */
#ifndef CTG_INST_HOOKS_H
#define CTG_INST_HOOKS_H

#include <llvm-c/Core.h>
#include <stdbool.h>

#include "../base/err.h"

typedef enum inst_hook {
    HOOK_CMP = 0, /* void (i32 base, i32 pred, i64 a, i64 b, i32 bits, i32 site) */
    HOOK_FCMP,    /* void (i32 base, i32 pred, double a, double b, i32 site)      */
    HOOK_BR,      /* void (i32 base, i32 cond)                                   */
    HOOK_SWITCH,  /* void (i32 base, i64 v, i32 ncases, i64 *cases, i32 bits)    */
    HOOK_ERROR,   /* void (i32 site)                                             */
    HOOK_STRCMP,  /* i32 (i32 site, i8 *a, i8 *b)                                */
    HOOK_STRNCMP, /* i32 (i32 site, i8 *a, i8 *b, intptr n)                      */
    HOOK_MEMCMP,  /* i32 (i32 site, i8 *a, i8 *b, intptr n)                      */
    HOOK_CMP_STR, /* void (i32 base, i32 pred, i64 res, i64 rhs, i32 site)       */
    /* the same with 32-bit operands, for operands that fit: i386's fast
     * instruction selector cannot pass an i64, and one i64 argument sent
     * a whole block to the slow selector at -O0 (rt_protocol.h) */
    HOOK_CMP32,    /* void (i32 base, i32 pred, i32 a, i32 b, i32 bits, i32 site) */
    HOOK_SWITCH32, /* void (i32 base, i32 v, i32 ncases, i64 *cases, i32 bits)    */
    HOOK_CMP_STR32,/* void (i32 base, i32 pred, i32 res, i32 rhs, i32 site)       */
    /* a lean function's counting compare with a constant: the rest from
     * the pass's table (CTG_HOOK_CMPC) */
    HOOK_CMPC,     /* void (i32 k, i64 a)                                         */
    HOOK_CMPC32,   /* void (i32 k, i32 a)                                         */
    HOOK__COUNT
} inst_hook;

typedef struct inst_hooks {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMTypeRef t_void, t_i1, t_i8, t_i32, t_i64, t_double, t_ptr8, t_ptr64, t_intptr;
    unsigned ptr_bits;              /* pointer width of the target        */
    LLVMTypeRef types[HOOK__COUNT]; /* function types from the table      */
    LLVMValueRef fns[HOOK__COUNT];  /* declarations, made on first use    */
    LLVMValueRef cov_ptr;           /* external global i8* __ctg_cov_ptr  */
    LLVMValueRef run_flags;         /* external i32 CTG_SYM_RUN_FLAGS     */
    LLVMValueRef guards[HOOK__COUNT]; /* inst_hook_call_guarded's wrappers */
} inst_hooks;

/* The function type of a table of letters, one a type: v void, i i32,
 * L i64, d double, p i8*, q i64*, z intptr (given); at most 8 parameters.
 * The hook table here and the symbolic runtime's (inst_sym_rt.c) use it. */
LLVMTypeRef inst_letters_type(LLVMContextRef ctx, LLVMTypeRef intptr, char ret, const char *params);

/* Builds the types of the table for module m.  False with e set when the
 * program already uses one of the hook names with another type. */
bool inst_hooks_init(inst_hooks *h, LLVMModuleRef m, ctg_err *e);

/* Emits a call of hook id at the builder's position; args as the table says. */
LLVMValueRef inst_hook_call(inst_hooks *h, LLVMBuilderRef b, inst_hook id, LLVMValueRef *args);

/* The same for a hook whose only work is for runs with CTG_FL_DIST or
 * CTG_FL_CMPLOG (a distance or comparison hook that does not count an
 * edge): the call goes to an internal always-inline wrapper that calls
 * the hook only when the run's flags (CTG_SYM_RUN_FLAGS) ask for it, so
 * the optimiser leaves a load and a branch where a call was. */
void inst_hook_call_guarded(inst_hooks *h, LLVMBuilderRef b, inst_hook id, LLVMValueRef *args);

/* The name of inst_hook_call_guarded's wrapper of a hook: this prefix and
 * the hook's name. */
#define CTG_GUARD_PREFIX "ctg.guard."

/* Emits the inline coverage increment cov[idx] (saturating), idx an i32. */
void inst_hook_cov(inst_hooks *h, LLVMBuilderRef b, LLVMValueRef idx);
/* Emits cov[idx] = min(255, cov[idx] + n), idx and n i32 (a loop's counts
 * kept in registers, added where it exits). */
void inst_hook_cov_add(inst_hooks *h, LLVMBuilderRef b, LLVMValueRef idx, LLVMValueRef n);

/* Redirects every use of the declared fork/vfork/malloc/calloc/realloc to the
 * runtime's wrappers; returns how many functions were redirected. */
unsigned inst_hooks_redirect(inst_hooks *h);

/* Defines the __ctg_n_edges/__ctg_n_cmp/__ctg_n_errors/__ctg_harness
 * constants.  False with e set when the program defines one already. */
bool inst_hooks_define_counts(inst_hooks *h, const unsigned counts[4], ctg_err *e);

#endif
