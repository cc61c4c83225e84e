/*
 * inst_faults.c - keeps the faults that gcc -O0 shows (see instrument.h,
 * inst_keep_faults).
 *
 * The engine's binaries are optimised; the validator's build is gcc -O0.
 * Where a program divides by zero the optimiser may fold the division away
 * (it is undefined behaviour), while gcc's build traps with SIGFPE.  So the
 * divisor of every division and remainder that could trap passes through
 * an empty inline assembly statement ("=r,0"): the optimiser can no longer
 * see its value, and the hardware division runs as gcc -O0 runs it.  A
 * divisor that is a constant other than 0 (and, signed, other than -1) is
 * left alone: x / 10 stays a multiplication.
 *
 * Null stores and loads are kept by clang's -fno-delete-null-pointer-checks,
 * signed overflow wraps by -fwrapv, and loops are not assumed to end by
 * -fno-finite-loops (build.c, the flags of every engine compile).
 */
#include <llvm-c/Core.h>
#include <stdbool.h>

#include "instrument.h"

/* Whether divisor d of opcode op cannot trap: a constant other than 0 and,
 * for a signed division, other than -1 (INT_MIN / -1). */
static bool safe_divisor(LLVMValueRef d, LLVMOpcode op)
{
    if (!LLVMIsAConstantInt(d))
        return false;
    unsigned long long z = LLVMConstIntGetZExtValue(d);
    long long s = LLVMConstIntGetSExtValue(d);
    bool sign = op == LLVMSDiv || op == LLVMSRem;
    return z != 0 && !(sign && s == -1);
}

/* Hides the divisor of division i from the optimiser. */
static void hide_divisor(LLVMBuilderRef b, LLVMValueRef i)
{
    LLVMValueRef d = LLVMGetOperand(i, 1);
    LLVMTypeRef t = LLVMTypeOf(d);
    LLVMTypeRef ft = LLVMFunctionType(t, &t, 1, 0);
    LLVMValueRef asm_fn = LLVMGetInlineAsm(ft, "", 0, "=r,0", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
    LLVMPositionBuilderBefore(b, i);
    LLVMValueRef hidden = LLVMBuildCall2(b, ft, asm_fn, &d, 1, "");
    LLVMSetOperand(i, 1, hidden);
}

unsigned inst_keep_faults(LLVMModuleRef m)
{
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    unsigned n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
                LLVMOpcode op = LLVMGetInstructionOpcode(i);
                if (op != LLVMSDiv && op != LLVMUDiv && op != LLVMSRem && op != LLVMURem)
                    continue;
                if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMIntegerTypeKind ||
                    safe_divisor(LLVMGetOperand(i, 1), op))
                    continue;
                hide_divisor(b, i);
                n++;
            }
    LLVMDisposeBuilder(b);
    return n;
}
