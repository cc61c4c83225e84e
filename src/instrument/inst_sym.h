/*
 * inst_sym.h - internals of the symbolic pass that makes prog.sym (internal
 * to src/instrument; the entry point inst_sym() is in instrument.h).
 *
 * The pass follows SymCC's execution model with our own runtime interface
 * (src/runtime/rt_symabi.h): every SSA value that may be symbolic gets an
 * i32 shadow (0 = concrete) computed next to it; phi nodes get shadow phis
 * whose incoming values are filled once the whole function is done (two
 * phases); arguments and return values travel through global slots guarded
 * by the function they are meant for; memory has byte-granular shadow kept
 * by the runtime.  Runtime calls go through small inlined helpers that skip
 * the call while every shadow operand is 0.
 *
 * Files: inst_sym.c (driver, shadow map, phis, dispatch), inst_sym_rt.c
 * (runtime table, helpers, value conversions), inst_sym_ops.c (arithmetic,
 * comparisons, casts, select, GEP, branches), inst_sym_mem.c (loads, stores,
 * allocas), inst_sym_call.c (calls, returns, intrinsics, libc models, inputs).
 */
#ifndef CTG_INST_SYM_H
#define CTG_INST_SYM_H

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/hmap.h"
#include "inst_sites.h"
#include "instrument.h"

/* The runtime functions of rt_symabi.h, in the order of the table in
 * inst_sym_rt.c. */
typedef enum isym_rt {
    SR_BIN = 0,
    SR_ICMP,
    SR_FCMP,
    SR_CAST,
    SR_ITE,
    SR_GEP_IDX,
    SR_GEP_END,
    SR_LOAD,
    SR_STORE,
    SR_MEMCPY,
    SR_MEMSET,
    SR_CLEAR,
    SR_BRANCH,
    SR_SWITCH,
    SR_ASSUME,
    SR_LOST,
    SR_THREADS,
    SR_NONDET,
    SR_FUZZ,
    SR_STRCMP,
    SR_STRNCMP,
    SR_MEMCMP,
    SR_STRLEN,
    SR_STRCHR,
    SR_STRCPY,
    SR_STRCAT,
    SR_STDIN_CHAR,
    SR_STDIN_BUF,
    SR__COUNT
} isym_rt;

/* Pointer -> pointer map (base/hmap; a zero-initialised one is empty). */
typedef hmap isym_map;

typedef struct isym_pass {
    LLVMModuleRef m;
    LLVMContextRef ctx;
    LLVMTargetDataRef td;
    LLVMBuilderRef b;
    LLVMTypeRef t_void, t_i1, t_i8, t_i32, t_i64, t_ptr8, t_ptr64;
    unsigned ptr_bits;
    LLVMValueRef zero;                /* i32 0: the shadow of concrete values */
    LLVMTypeRef rt_ty[SR__COUNT];
    LLVMValueRef rt_fn[SR__COUNT];    /* declarations, made on first use      */
    LLVMValueRef fast_fn[SR__COUNT];  /* fast-path helpers, made on first use */
    LLVMValueRef g_live, g_args, g_arg_fn, g_ret, g_ret_fn;
    int harness;                      /* enum ctg_harness                     */
    isym_map shadow;                   /* value -> shadow (current function)   */
    isym_map sites;                    /* br/switch -> inst_site *             */
    LLVMValueRef fn;                  /* function being instrumented          */
    LLVMValueRef *phis;               /* phis of fn whose shadows need inputs */
    size_t n_phis, cap_phis;
    inst_sym_stats *st;
    bool oom;
} isym_pass;

/* ---- inst_sym.c ------------------------------------------------------------ */

static inline bool isym_map_put(isym_map *m, void *key, void *val)
{
    return hmap_put(m, (uintptr_t)key, (uintptr_t)val);
}
/* key's value, or NULL when absent */
static inline void *isym_map_get(const isym_map *m, const void *key)
{
    uint64_t v;
    return hmap_get(m, (uintptr_t)key, &v) ? (void *)(uintptr_t)v : NULL;
}
static inline void isym_map_clear(isym_map *m) { hmap_clear(m); }
static inline void isym_map_release(isym_map *m) { hmap_release(m); }

/* Shadow of v: its entry in the map, i32 0 for constants and unknowns. */
LLVMValueRef isym_shadow(isym_pass *P, LLVMValueRef v);
/* Records s as the shadow of v. */
void isym_set_shadow(isym_pass *P, LLVMValueRef v, LLVMValueRef s);
/* True when the shadow s is the constant 0 (statically concrete). */
bool isym_is_zero(LLVMValueRef s);
/* Builder before / after instruction i, with i's debug location. */
void isym_before(isym_pass *P, LLVMValueRef i);
void isym_after(isym_pass *P, LLVMValueRef i);
/* Records a phi whose shadow phi needs its incoming values. */
void isym_add_phi(isym_pass *P, LLVMValueRef phi);

/* ---- inst_sym_rt.c ----------------------------------------------------------- */

/* Declares the runtime's globals and types; false with e set when the
 * program uses one of the names. */
bool isym_rt_init(isym_pass *P, ctg_err *e);
/* Calls runtime function f (through its fast-path helper when it has one)
 * with args as rt_symabi.h lists them; returns the call. */
LLVMValueRef isym_rt_call(isym_pass *P, isym_rt f, LLVMValueRef *args);
/* Bits of a scalar the runtime can shadow: integers <= 64, float, double,
 * pointers; 0 for anything else. */
unsigned isym_scalar_bits(isym_pass *P, LLVMTypeRef t);
bool isym_is_fp(LLVMTypeRef t);
/* Scalar v as i64 (integers zero-extended, pointers as integers,
 * floating point as its IEEE bits). */
LLVMValueRef isym_bits64(isym_pass *P, LLVMValueRef v);
/* v (pointer) as i8*. */
LLVMValueRef isym_ptr8(isym_pass *P, LLVMValueRef v);
/* v (integer) as i64, zero- or sign-extended. */
LLVMValueRef isym_int64(isym_pass *P, LLVMValueRef v, bool sign);
LLVMValueRef isym_c32(isym_pass *P, uint64_t v);
LLVMValueRef isym_c64(isym_pass *P, uint64_t v);
/* Notes (at run time) that the shadows of i's operands are lost. */
void isym_lose_operands(isym_pass *P, LLVMValueRef i);

/* ---- handlers (inst_sym_ops.c, inst_sym_mem.c, inst_sym_call.c) -------------- */

typedef void (*isym_handler)(isym_pass *P, LLVMValueRef i);

void isym_binop(isym_pass *P, LLVMValueRef i);
void isym_fneg(isym_pass *P, LLVMValueRef i);
void isym_icmp(isym_pass *P, LLVMValueRef i);
void isym_fcmp(isym_pass *P, LLVMValueRef i);
void isym_cast(isym_pass *P, LLVMValueRef i);
void isym_select(isym_pass *P, LLVMValueRef i);
void isym_phi(isym_pass *P, LLVMValueRef i);
void isym_gep(isym_pass *P, LLVMValueRef i);
void isym_br(isym_pass *P, LLVMValueRef i);
void isym_switch(isym_pass *P, LLVMValueRef i);
void isym_load(isym_pass *P, LLVMValueRef i);
void isym_store(isym_pass *P, LLVMValueRef i);
void isym_alloca(isym_pass *P, LLVMValueRef i);
void isym_atomic(isym_pass *P, LLVMValueRef i);
void isym_call(isym_pass *P, LLVMValueRef i);
void isym_ret(isym_pass *P, LLVMValueRef i);
/* Function entry: shadows of the parameters from the argument slots. */
void isym_prologue(isym_pass *P, LLVMValueRef fn);

#endif
