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
typedef enum sym_rt {
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
} sym_rt;

/* Pointer -> pointer map (base/hmap; a zero-initialised one is empty). */
typedef hmap sym_map;

typedef struct sym_pass {
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
    sym_map shadow;                   /* value -> shadow (current function)   */
    sym_map sites;                    /* br/switch -> inst_site *             */
    LLVMValueRef fn;                  /* function being instrumented          */
    LLVMValueRef *phis;               /* phis of fn whose shadows need inputs */
    size_t n_phis, cap_phis;
    inst_sym_stats *st;
    bool oom;
} sym_pass;

/* ---- inst_sym.c ------------------------------------------------------------ */

static inline bool sym_map_put(sym_map *m, void *key, void *val)
{
    return hmap_put(m, (uintptr_t)key, (uintptr_t)val);
}
/* key's value, or NULL when absent */
static inline void *sym_map_get(const sym_map *m, const void *key)
{
    uint64_t v;
    return hmap_get(m, (uintptr_t)key, &v) ? (void *)(uintptr_t)v : NULL;
}
static inline void sym_map_clear(sym_map *m) { hmap_clear(m); }
static inline void sym_map_release(sym_map *m) { hmap_release(m); }

/* Shadow of v: its entry in the map, i32 0 for constants and unknowns. */
LLVMValueRef sym_shadow(sym_pass *P, LLVMValueRef v);
/* Records s as the shadow of v. */
void sym_set_shadow(sym_pass *P, LLVMValueRef v, LLVMValueRef s);
/* True when the shadow s is the constant 0 (statically concrete). */
bool sym_is_zero(LLVMValueRef s);
/* Builder before / after instruction i, with i's debug location. */
void sym_before(sym_pass *P, LLVMValueRef i);
void sym_after(sym_pass *P, LLVMValueRef i);
/* Records a phi whose shadow phi needs its incoming values. */
void sym_add_phi(sym_pass *P, LLVMValueRef phi);

/* ---- inst_sym_rt.c ----------------------------------------------------------- */

/* Declares the runtime's globals and types; false with e set when the
 * program uses one of the names. */
bool sym_rt_init(sym_pass *P, ctg_err *e);
/* Calls runtime function f (through its fast-path helper when it has one)
 * with args as rt_symabi.h lists them; returns the call. */
LLVMValueRef sym_rt_call(sym_pass *P, sym_rt f, LLVMValueRef *args);
/* Bits of a scalar the runtime can shadow: integers <= 64, float, double,
 * pointers; 0 for anything else. */
unsigned sym_scalar_bits(sym_pass *P, LLVMTypeRef t);
bool sym_is_fp(LLVMTypeRef t);
/* Scalar v as i64 (integers zero-extended, pointers as integers,
 * floating point as its IEEE bits). */
LLVMValueRef sym_bits64(sym_pass *P, LLVMValueRef v);
/* v (pointer) as i8*. */
LLVMValueRef sym_ptr8(sym_pass *P, LLVMValueRef v);
/* v (integer) as i64, zero- or sign-extended. */
LLVMValueRef sym_int64(sym_pass *P, LLVMValueRef v, bool sign);
LLVMValueRef sym_c32(sym_pass *P, uint64_t v);
LLVMValueRef sym_c64(sym_pass *P, uint64_t v);
/* Notes (at run time) that the shadows of i's operands are lost. */
void sym_lose_operands(sym_pass *P, LLVMValueRef i);

/* ---- handlers (inst_sym_ops.c, inst_sym_mem.c, inst_sym_call.c) -------------- */

typedef void (*sym_handler)(sym_pass *P, LLVMValueRef i);

void sym_binop(sym_pass *P, LLVMValueRef i);
void sym_fneg(sym_pass *P, LLVMValueRef i);
void sym_icmp(sym_pass *P, LLVMValueRef i);
void sym_fcmp(sym_pass *P, LLVMValueRef i);
void sym_cast(sym_pass *P, LLVMValueRef i);
void sym_select(sym_pass *P, LLVMValueRef i);
void sym_phi(sym_pass *P, LLVMValueRef i);
void sym_gep(sym_pass *P, LLVMValueRef i);
void sym_br(sym_pass *P, LLVMValueRef i);
void sym_switch(sym_pass *P, LLVMValueRef i);
void sym_load(sym_pass *P, LLVMValueRef i);
void sym_store(sym_pass *P, LLVMValueRef i);
void sym_alloca(sym_pass *P, LLVMValueRef i);
void sym_atomic(sym_pass *P, LLVMValueRef i);
void sym_call(sym_pass *P, LLVMValueRef i);
void sym_ret(sym_pass *P, LLVMValueRef i);
/* Function entry: shadows of the parameters from the argument slots. */
void sym_prologue(sym_pass *P, LLVMValueRef fn);

#endif
