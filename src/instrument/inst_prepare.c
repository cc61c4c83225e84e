/*
 * inst_prepare.c - normalises a freshly linked module before numbering:
 * promotes allocas to registers (mem2reg, so conditions are visible as
 * icmp/fcmp of values rather than loads), lets -O2 inline the program later
 * (drops the noinline clang -O0 puts everywhere), hands the input functions
 * of the harness to the runtime, detects the harness and renames main.
 */
#include "instrument.h"

#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <string.h>

#include "../runtime/rt_protocol.h"
#include "inst_sites.h"

/* Name of the main of a fuzz target that also defines one (never called). */
#define CTG_SYM_UNUSED_MAIN "__ctg_unused_main"

/* Input functions of DESIGN.md section 2 that the runtime defines: a body the
 * program brings for one of them is dropped so the runtime's wins. */
static const char *const runtime_inputs[] = {
    "__VERIFIER_nondet_bool",   "__VERIFIER_nondet_char",      "__VERIFIER_nondet_uchar",
    "__VERIFIER_nondet_short",  "__VERIFIER_nondet_ushort",    "__VERIFIER_nondet_int",
    "__VERIFIER_nondet_uint",   "__VERIFIER_nondet_long",      "__VERIFIER_nondet_ulong",
    "__VERIFIER_nondet_longlong", "__VERIFIER_nondet_ulonglong", "__VERIFIER_nondet_float",
    "__VERIFIER_nondet_double", "__VERIFIER_nondet_pointer",   "__VERIFIER_nondet_size_t",
    "__VERIFIER_assume",
};

/* Name of the module for messages: its identifier (the first source file). */
static const char *module_name(LLVMModuleRef m, char *buf, size_t size)
{
    size_t len = 0;
    const char *id = LLVMGetModuleIdentifier(m, &len);
    if (len >= size)
        len = size - 1;
    memcpy(buf, id, len);
    buf[len] = '\0';
    return buf;
}

/* Runs mem2reg over every function. */
static bool run_mem2reg(LLVMModuleRef m, ctg_err *e)
{
    LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(m, "function(mem2reg)", NULL, opts);
    LLVMDisposePassBuilderOptions(opts);
    if (!err)
        return true;
    char *msg = LLVMGetErrorMessage(err);
    char name[512];
    err_set(e, "%s: instrumenter failed to run mem2reg (%s); please report this",
            module_name(m, name, sizeof name), msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

/* Removes the noinline attribute clang -O0 adds to every definition. */
static void drop_noinline(LLVMModuleRef m)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("noinline", 8);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
}

/* Turns a definition into a declaration of the same name and type. */
static void drop_body(LLVMModuleRef m, LLVMValueRef f)
{
    char name[256];
    inst_name(f, name, sizeof name);
    LLVMSetValueName2(f, "", 0);
    LLVMValueRef decl = LLVMAddFunction(m, name, LLVMGlobalGetValueType(f));
    LLVMReplaceAllUsesWith(f, decl);
    LLVMDeleteFunction(f);
}

/* Drops the program's own bodies of runtime input functions. */
static void drop_input_bodies(LLVMModuleRef m)
{
    for (size_t i = 0; i < sizeof runtime_inputs / sizeof *runtime_inputs; i++) {
        LLVMValueRef f = LLVMGetNamedFunction(m, runtime_inputs[i]);
        if (f && !LLVMIsDeclaration(f))
            drop_body(m, f);
    }
}

/* Defined function called name, or NULL. */
static LLVMValueRef defined(LLVMModuleRef m, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    return f && !LLVMIsDeclaration(f) ? f : NULL;
}

/* Zero-initialised locals (build.c passes -ftrivial-auto-var-init=zero) are
 * meant for scalars and small structs, which gcc -O0 mostly finds zero on a
 * fresh stack.  Clearing a variable-length or large array is another matter:
 * it costs a memset per call, and a VLA too big for the stack then faults at
 * once instead of where the gcc build first touches the far end
 * (array-multidimensional/add-2-n-u: 18 MB of VLAs).  So clang's auto-init
 * memsets (annotated "auto-init") of a non-constant or larger size than this
 * are dropped again. */
#define AUTO_INIT_MAX_BYTES 256

/* True for clang's auto-init memset of a VLA or a large array. */
static bool big_auto_init(LLVMValueRef i, unsigned annot_kind)
{
    if (!LLVMIsACallInst(i) || !LLVMGetMetadata(i, annot_kind))
        return false;
    LLVMValueRef callee = LLVMGetCalledValue(i);
    size_t len = 0;
    const char *name = callee ? LLVMGetValueName2(callee, &len) : NULL;
    if (!name || strncmp(name, "llvm.memset.", 12) != 0)
        return false;
    LLVMValueRef size = LLVMGetOperand(i, 2);
    return !LLVMIsAConstantInt(size) || LLVMConstIntGetZExtValue(size) > AUTO_INIT_MAX_BYTES;
}

/* Drops the auto-init memsets big_auto_init describes. */
static void drop_big_auto_init(LLVMModuleRef m)
{
    unsigned kind = LLVMGetMDKindIDInContext(LLVMGetModuleContext(m), "annotation", 10);
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
            LLVMValueRef i = LLVMGetFirstInstruction(b);
            while (i) {
                LLVMValueRef next = LLVMGetNextInstruction(i);
                if (big_auto_init(i, kind))
                    LLVMInstructionEraseFromParent(i);
                i = next;
            }
        }
}

/* The i1 comparison block b hands over to the phis of its single successor
 * s (the last condition of a && or || whose value is used, not branched
 * on), or NULL. */
static LLVMValueRef handed_condition(LLVMBasicBlockRef b, LLVMBasicBlockRef s)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(s); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i)) {
        if (LLVMTypeOf(i) != LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(i))))
            continue;
        for (unsigned k = 0; k < LLVMCountIncoming(i); k++) {
            LLVMValueRef v = LLVMGetIncomingValue(i, k);
            if (LLVMGetIncomingBlock(i, k) == b && (LLVMIsAICmpInst(v) || LLVMIsAFCmpInst(v)) &&
                LLVMGetInstructionParent(v) == b)
                return v;
        }
    }
    return NULL;
}

/* Makes the conditions of && and || in value context branches of their own.
 * Clang lowers `f(a && b)` or `while (a || b)` so that only `a` is a
 * conditional branch: `b` is computed and handed to a phi.  gcc --coverage
 * (what the validator counts) sees both as decisions, so without this the
 * engine would call a program fully covered while gcov finds `b`'s other
 * outcome missing (termination-crafted/Copenhagen_disj-1: 4/4 edges against
 * 3/4 gcov branches after one run).  The block's `br label %s` becomes
 * `br i1 %b, label %s, label %s` (one more phi entry per phi of s, as LLVM
 * wants one per incoming edge): same control flow, and the numbering, the
 * coverage counters, distances and path constraints all see `b`. */
static void expose_conditions(LLVMModuleRef m)
{
    LLVMBuilderRef bld = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
            LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
            if (!t || !LLVMIsABranchInst(t) || LLVMIsConditional(t) || inst_sanitizer_check(t))
                continue;
            LLVMBasicBlockRef s = LLVMGetSuccessor(t, 0);
            LLVMValueRef c = handed_condition(b, s);
            if (!c)
                continue;
            LLVMPositionBuilderBefore(bld, t);
            LLVMValueRef br = LLVMBuildCondBr(bld, c, s, s);
            LLVMInstructionSetDebugLoc(br, LLVMInstructionGetDebugLoc(t));
            LLVMInstructionEraseFromParent(t);
            for (LLVMValueRef i = LLVMGetFirstInstruction(s); i && LLVMIsAPHINode(i);
                 i = LLVMGetNextInstruction(i)) {
                for (unsigned k = 0; k < LLVMCountIncoming(i); k++)
                    if (LLVMGetIncomingBlock(i, k) == b) {
                        LLVMValueRef v = LLVMGetIncomingValue(i, k);
                        LLVMAddIncoming(i, &v, &b, 1);
                        break;
                    }
            }
        }
    LLVMDisposeBuilder(bld);
}

/* Idempotent: a prepared module (prog.bc) comes out unchanged. */
bool inst_prepare(LLVMModuleRef m, int *harness, ctg_err *e)
{
    char name[512];
    LLVMValueRef main_fn = defined(m, "main");
    LLVMValueRef fuzz_fn = defined(m, "LLVMFuzzerTestOneInput");
    LLVMValueRef user_main = LLVMGetNamedFunction(m, CTG_SYM_USER_MAIN);
    if (user_main && main_fn)
        return err_set(e, "%s: defines %s, a name ctestgen reserves; rename it",
                       module_name(m, name, sizeof name), CTG_SYM_USER_MAIN);
    if (!main_fn && !fuzz_fn && !(user_main && !LLVMIsDeclaration(user_main)))
        return err_set(e, "%s: defines neither main nor LLVMFuzzerTestOneInput; write a harness "
                          "or use --function NAME", module_name(m, name, sizeof name));
    /* a module prepared before (prog.bc) has __ctg_user_main and no main:
     * preparing it again changes nothing */
    drop_big_auto_init(m);
    if (!run_mem2reg(m, e))
        return false;
    expose_conditions(m);
    drop_noinline(m);
    drop_input_bodies(m);
    /* The runtime runs __ctg_user_main when it exists, else the libFuzzer
     * entry; a fuzz target that also brings a main (a stand-alone driver)
     * is fuzzed, its main kept out of the way. */
    if (main_fn && fuzz_fn) {
        LLVMSetValueName2(main_fn, CTG_SYM_UNUSED_MAIN, strlen(CTG_SYM_UNUSED_MAIN));
        LLVMSetLinkage(main_fn, LLVMInternalLinkage);
    } else if (main_fn) {
        LLVMSetValueName2(main_fn, CTG_SYM_USER_MAIN, strlen(CTG_SYM_USER_MAIN));
    }
    if (harness)
        *harness = fuzz_fn ? CTG_HARNESS_LIBFUZZER : CTG_HARNESS_TESTCOMP;
    return true;
}
