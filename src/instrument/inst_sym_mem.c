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
static uint64_t store_size(isym_pass *P, LLVMTypeRef t) { return LLVMStoreSizeOfType(P->td, t); }

void isym_load(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef ptr = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMTypeOf(i);
    unsigned w = isym_scalar_bits(P, t);
    uint64_t size = store_size(P, t);
    LLVMValueRef sp = isym_shadow(P, ptr);
    if (!w || size > 8) { /* aggregates, vectors, long double: concrete */
        if (!isym_is_zero(sp))
            isym_lose_operands(P, i);
        return;
    }
    isym_after(P, i);
    LLVMValueRef args[4] = {isym_ptr8(P, ptr), isym_c32(P, size), sp, isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_LOAD, args));
    P->st->loads++;
}

void isym_store(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef val = LLVMGetOperand(i, 0), ptr = LLVMGetOperand(i, 1);
    LLVMTypeRef t = LLVMTypeOf(val);
    unsigned w = isym_scalar_bits(P, t);
    uint64_t size = store_size(P, t);
    isym_before(P, i);
    LLVMValueRef s = P->zero, v = isym_c64(P, 0);
    if (w && size <= 8) {
        s = isym_shadow(P, val);
        v = isym_bits64(P, val);
    } else if (!isym_is_zero(isym_shadow(P, val))) {
        LLVMValueRef lost = isym_shadow(P, val);
        isym_rt_call(P, SR_LOST, &lost);
    }
    if (size > 0xffffffffu)
        size = 0xffffffffu;
    LLVMValueRef args[5] = {isym_ptr8(P, ptr), isym_c32(P, size), s, isym_shadow(P, ptr), v};
    isym_rt_call(P, SR_STORE, args);
    P->st->stores++;
}

void isym_alloca(isym_pass *P, LLVMValueRef i)
{
    LLVMTypeRef t = LLVMGetAllocatedType(i);
    LLVMValueRef count = LLVMGetOperand(i, 0);
    isym_after(P, i);
    LLVMValueRef n = isym_c64(P, LLVMABISizeOfType(P->td, t));
    if (!LLVMIsAConstantInt(count) || LLVMConstIntGetZExtValue(count) != 1)
        n = LLVMBuildMul(P->b, n, isym_int64(P, count, false), "");
    LLVMValueRef args[2] = {isym_ptr8(P, i), n};
    isym_rt_call(P, SR_CLEAR, args);
}

void isym_atomic(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef ptr = LLVMGetOperand(i, 0);
    LLVMTypeRef t = LLVMGetElementType(LLVMTypeOf(ptr));
    isym_before(P, i);
    LLVMValueRef args[2] = {isym_ptr8(P, ptr), isym_c64(P, store_size(P, t))};
    isym_rt_call(P, SR_CLEAR, args);
}
