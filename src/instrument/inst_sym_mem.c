/*
 * inst_sym_mem.c - shadow code of the memory instructions of the symbolic
 * pass: loads read the byte-granular shadow memory of the runtime, stores
 * write it (before the store: under --sym-arrays=theory the runtime reads
 * the old bytes), allocas start out concrete (a stack slot may hold the
 * shadow of an earlier frame), and atomic read-modify-writes make their
 * target concrete.  A symbolic address is handed to the runtime, which
 * concretises it or goes through array theory.
 */
#include "inst_sym.h"

/* Store size in bytes of type t. */
static uint64_t store_size(sym_pass *P, LLVMTypeRef t) { return LLVMStoreSizeOfType(P->td, t); }

void sym_load(sym_pass *P, LLVMValueRef i)
{
    LLVMValueRef ptr = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(i);
    unsigned w = sym_scalar_bits(P, t);
    uint64_t size = store_size(P, t);
    LLVMValueRef sp = sym_shadow(P, ptr);
    if (!w || size > 8) { /* aggregates, vectors, long double: concrete */
        if (!sym_is_zero(sp))
            sym_lose_operands(P, i);
        return;
    }
    sym_after(P, i);
    LLVMValueRef args[4] = {sym_ptr8(P, ptr), sym_c32(P, size), sp, sym_c32(P, w)};
    sym_set_shadow(P, i, sym_rt_call(P, SR_LOAD, args));
    P->st->loads++;
}

void sym_store(sym_pass *P, LLVMValueRef i)
{
    LLVMValueRef val = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    unsigned w = sym_scalar_bits(P, t);
    uint64_t size = store_size(P, t);
    sym_before(P, i);
    LLVMValueRef s = P->zero, v = sym_c64(P, 0);
    if (w && size <= 8) {
        s = sym_shadow(P, val);
        v = sym_bits64(P, val);
    } else if (!sym_is_zero(sym_shadow(P, val))) {
        LLVMValueRef lost = sym_shadow(P, val);
        sym_rt_call(P, SR_LOST, &lost);
    }
    if (size > 0xffffffffu)
        size = 0xffffffffu;
    LLVMValueRef args[5] = {sym_ptr8(P, ptr), sym_c32(P, size), s, sym_shadow(P, ptr), v};
    sym_rt_call(P, SR_STORE, args);
    P->st->stores++;
}

void sym_alloca(sym_pass *P, LLVMValueRef i)
{
    LLVMTypeRef t = LLVMGetAllocatedType(i);
    LLVMValueRef count = LLVMGetOperand(i, 0);
    sym_after(P, i);
    LLVMValueRef n = sym_c64(P, LLVMABISizeOfType(P->td, t));
    if (!LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1)
        n = LLVMBuildMul(P->b, n, sym_int64(P, count, false), "");
    LLVMValueRef args[2] = {sym_ptr8(P, i), n};
    sym_rt_call(P, SR_CLEAR, args);
}

void sym_atomic(sym_pass *P, LLVMValueRef i)
{
    LLVMValueRef ptr = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMGetElementType(LLVMTypeOf(ptr));
    sym_before(P, i);
    LLVMValueRef args[2] = {sym_ptr8(P, ptr), sym_c64(P, store_size(P, t))};
    sym_rt_call(P, SR_CLEAR, args);
}
