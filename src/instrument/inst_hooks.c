/*
 * inst_hooks.c - declarations of the runtime's hooks in the instrumented
 * module, driven by one table (see inst_hooks.h and rt_protocol.h).
 */
#include "inst_hooks.h"

#include <llvm-c/Target.h>
#include <stdio.h>
#include <string.h>

#include "../runtime/rt_protocol.h"
#include "instrument.h"

/* One runtime hook: name, return type and parameter types, one letter each:
 *   v void, i i32, L i64, d double, p i8*, q i64*, z intptr (size_t);
 * pm: the runtime defines its preserve_most form (CTG_HOOK_PM_SUFFIX). */
typedef struct hook_spec {
    const char *name;
    char ret;
    const char *params;
    bool pm;
} hook_spec;

static const hook_spec hook_table[HOOK__COUNT] = {
    [HOOK_CMP] = {CTG_HOOK_CMP, 'v', "iiLLii", true},
    [HOOK_FCMP] = {CTG_HOOK_FCMP, 'v', "iiddi", true},
    [HOOK_BR] = {CTG_HOOK_BR, 'v', "ii", true},
    [HOOK_SWITCH] = {CTG_HOOK_SWITCH, 'v', "iLiqi", false},
    [HOOK_ERROR] = {CTG_HOOK_ERROR, 'v', "i", false},
    [HOOK_STRCMP] = {CTG_HOOK_STRCMP, 'i', "ipp", false},
    [HOOK_STRNCMP] = {CTG_HOOK_STRNCMP, 'i', "ippz", false},
    [HOOK_MEMCMP] = {CTG_HOOK_MEMCMP, 'i', "ippz", false},
    [HOOK_CMP_STR] = {CTG_HOOK_CMP_STR, 'v', "iiLLi", true},
    [HOOK_CMP32] = {CTG_HOOK_CMP32, 'v', "iiiiii", true},
    [HOOK_SWITCH32] = {CTG_HOOK_SWITCH32, 'v', "iiiqi", false},
    [HOOK_CMP_STR32] = {CTG_HOOK_CMP_STR32, 'v', "iiiii", true},
    [HOOK_CMPC] = {CTG_HOOK_CMPC, 'v', "iL", false},
    [HOOK_CMPC32] = {CTG_HOOK_CMPC32, 'v', "ii", false},
};

/* Library functions whose calls go to a runtime wrapper of the same type. */
static const struct {
    const char *from, *to;
} redirect_table[] = {
    {"fork", CTG_HOOK_FORK},     {"vfork", CTG_HOOK_FORK},      {"malloc", CTG_HOOK_MALLOC},
    {"calloc", CTG_HOOK_CALLOC}, {"realloc", CTG_HOOK_REALLOC},
};

/* Constants the pass defines, in the order of inst_hooks_define_counts. */
static const char *const count_names[4] = {CTG_SYM_N_EDGES, CTG_SYM_N_CMP, CTG_SYM_N_ERRORS,
                                           CTG_SYM_HARNESS};

/* LLVM type of one table letter: v void, i i32, L i64, d double, p i8*,
 * q i64*, z intptr (the type given). */
static LLVMTypeRef letter_type(LLVMContextRef ctx, LLVMTypeRef intptr, char c)
{
    switch (c) {
    case 'i': return LLVMInt32TypeInContext(ctx);
    case 'L': return LLVMInt64TypeInContext(ctx);
    case 'd': return LLVMDoubleTypeInContext(ctx);
    case 'p': return LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
    case 'q': return LLVMPointerType(LLVMInt64TypeInContext(ctx), 0);
    case 'z': return intptr;
    default: return LLVMVoidTypeInContext(ctx);
    }
}

LLVMTypeRef inst_letters_type(LLVMContextRef ctx, LLVMTypeRef intptr, char ret, const char *params)
{
    LLVMTypeRef p[8];
    unsigned n = (unsigned)strlen(params);
    for (unsigned i = 0; i < n && i < 8; i++)
        p[i] = letter_type(ctx, intptr, params[i]);
    return LLVMFunctionType(letter_type(ctx, intptr, ret), p, n < 8 ? n : 8, 0);
}

/* Function type of a table entry. */
static LLVMTypeRef spec_type(const inst_hooks *h, const hook_spec *s)
{
    return inst_letters_type(h->ctx, h->t_intptr, s->ret, s->params);
}

/* True when m has a global variable or alias called name. */
static bool var_named(LLVMModuleRef m, const char *name)
{
    return LLVMGetNamedGlobal(m, name) || LLVMGetNamedGlobalAlias(m, name, strlen(name));
}

/* The error for a program that uses one of ctestgen's names. */
static bool reserved(ctg_err *e, const char *name)
{
    return err_set(e, "program defines %s, a name ctestgen reserves; rename it", name);
}

bool inst_hooks_init(inst_hooks *h, LLVMModuleRef m, ctg_err *e)
{
    memset(h, 0, sizeof *h);
    h->m = m;
    h->ctx = LLVMGetModuleContext(m);
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    h->t_intptr = LLVMIntPtrTypeInContext(h->ctx, td);
    h->ptr_bits = LLVMPointerSize(td) * 8;
    LLVMDisposeTargetData(td);
    h->t_void = LLVMVoidTypeInContext(h->ctx);
    h->t_i1 = LLVMInt1TypeInContext(h->ctx);
    h->t_i8 = LLVMInt8TypeInContext(h->ctx);
    h->t_i32 = LLVMInt32TypeInContext(h->ctx);
    h->t_i64 = LLVMInt64TypeInContext(h->ctx);
    h->t_double = LLVMDoubleTypeInContext(h->ctx);
    h->t_ptr8 = LLVMPointerType(h->t_i8, 0);
    h->t_ptr64 = LLVMPointerType(h->t_i64, 0);
    for (int i = 0; i < HOOK__COUNT; i++) {
        h->types[i] = spec_type(h, &hook_table[i]);
        LLVMValueRef f = LLVMGetNamedFunction(m, hook_table[i].name);
        if ((f && LLVMGlobalGetValueType(f) != h->types[i]) || var_named(m, hook_table[i].name))
            return reserved(e, hook_table[i].name);
        h->fns[i] = f;
        char pm[64]; /* the preserve_most form inst_hooks_fast_guards may call */
        snprintf(pm, sizeof pm, "%s" CTG_HOOK_PM_SUFFIX, hook_table[i].name);
        if (hook_table[i].pm && (LLVMGetNamedFunction(m, pm) || var_named(m, pm)))
            return reserved(e, pm);
    }
    for (size_t i = 0; i < sizeof redirect_table / sizeof *redirect_table; i++)
        if (var_named(m, redirect_table[i].to) ||
            (LLVMGetNamedFunction(m, redirect_table[i].to) &&
             !LLVMIsDeclaration(LLVMGetNamedFunction(m, redirect_table[i].to))))
            return reserved(e, redirect_table[i].to);
    if (LLVMGetNamedFunction(m, CTG_SYM_COV_PTR) || LLVMGetNamedGlobal(m, CTG_SYM_COV_PTR))
        return reserved(e, CTG_SYM_COV_PTR);
    for (int i = 0; i < 4; i++)
        if (var_named(m, count_names[i]) || LLVMGetNamedFunction(m, count_names[i]))
            return reserved(e, count_names[i]);
    if (LLVMGetNamedFunction(m, CTG_SYM_RUN_FLAGS) || var_named(m, CTG_SYM_RUN_FLAGS))
        return reserved(e, CTG_SYM_RUN_FLAGS);
    if (LLVMGetNamedFunction(m, CTG_SYM_CMPC_TAB) || var_named(m, CTG_SYM_CMPC_TAB))
        return reserved(e, CTG_SYM_CMPC_TAB); /* inst_cov defines it */
    h->cov_ptr = LLVMAddGlobal(m, h->t_ptr8, CTG_SYM_COV_PTR);
    return true;
}

/* The declaration of hook id, made on first use. */
static LLVMValueRef declared(inst_hooks *h, inst_hook id)
{
    if (!h->fns[id])
        h->fns[id] = LLVMAddFunction(h->m, hook_table[id].name, h->types[id]);
    return h->fns[id];
}

/* Defines the internal always-inline wrapper `name` of type `type`: calls
 * `hook` (with calling convention cc) when the run's flags (`flags`, the
 * global CTG_SYM_RUN_FLAGS) have CTG_FL_DIST or CTG_FL_CMPLOG. */
static LLVMValueRef build_guard(LLVMModuleRef m, const char *name, LLVMTypeRef type,
                                LLVMValueRef hook, unsigned cc, LLVMValueRef flags)
{
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    LLVMTypeRef t_i32 = LLVMInt32TypeInContext(ctx);
    LLVMValueRef f = LLVMAddFunction(m, name, type);
    LLVMSetLinkage(f, LLVMInternalLinkage);
    static const char *const attrs[] = {"alwaysinline", "nounwind"};
    for (size_t k = 0; k < sizeof attrs / sizeof *attrs; k++) {
        unsigned kind = LLVMGetEnumAttributeKindForName(attrs[k], strlen(attrs[k]));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(ctx, kind, 0));
    }
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
    LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(ctx, f, "call");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, f, "done");
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, entry);
    LLVMValueRef fl = LLVMBuildLoad2(b, t_i32, flags, "ctg.flags");
    LLVMValueRef mask = LLVMConstInt(t_i32, CTG_FL_DIST | CTG_FL_CMPLOG, 0);
    LLVMValueRef on = LLVMBuildAnd(b, fl, mask, "");
    LLVMValueRef zero = LLVMConstInt(t_i32, 0, 0);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, on, zero, ""), call, done);
    LLVMPositionBuilderAtEnd(b, call);
    LLVMValueRef args[8];
    unsigned n = LLVMCountParams(f);
    for (unsigned k = 0; k < n && k < 8; k++)
        args[k] = LLVMGetParam(f, k);
    LLVMSetInstructionCallConv(LLVMBuildCall2(b, type, hook, args, n, ""), cc);
    LLVMBuildBr(b, done);
    LLVMPositionBuilderAtEnd(b, done);
    LLVMBuildRetVoid(b);
    LLVMDisposeBuilder(b);
    return f;
}

/* The wrapper of hook id for inst_hook_call_guarded: calls it when the
 * run's flags have CTG_FL_DIST or CTG_FL_CMPLOG. */
static LLVMValueRef guard_fn(inst_hooks *h, inst_hook id)
{
    if (h->guards[id])
        return h->guards[id];
    LLVMValueRef hook = declared(h, id);
    if (!h->run_flags)
        h->run_flags = LLVMAddGlobal(h->m, h->t_i32, CTG_SYM_RUN_FLAGS);
    char name[64];
    snprintf(name, sizeof name, CTG_GUARD_PREFIX "%s", hook_table[id].name);
    return h->guards[id] =
               build_guard(h->m, name, h->types[id], hook, LLVMCCallConv, h->run_flags);
}

unsigned inst_hooks_fast_guards(LLVMModuleRef m)
{
    if (strncmp(LLVMGetTarget(m), "x86_64", 6) != 0)
        return 0;
    LLVMValueRef flags = LLVMGetNamedGlobal(m, CTG_SYM_RUN_FLAGS);
    unsigned on = LLVMGetEnumAttributeKindForName("optnone", 7), moved = 0;
    for (int id = 0; id < HOOK__COUNT && flags; id++) {
        char name[64], pm_name[64];
        snprintf(name, sizeof name, CTG_GUARD_PREFIX "%s", hook_table[id].name);
        LLVMValueRef g = hook_table[id].pm ? LLVMGetNamedFunction(m, name) : NULL;
        if (!g)
            continue;
        LLVMValueRef pm = NULL;
        LLVMUseRef u = LLVMGetFirstUse(g);
        while (u) {
            LLVMValueRef call = LLVMGetUser(u);
            u = LLVMGetNextUse(u); /* before the use moves to the other wrapper */
            if (!LLVMIsACallInst(call) || LLVMGetCalledValue(call) != g ||
                LLVMGetEnumAttributeAtIndex(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)),
                                            LLVMAttributeFunctionIndex, on))
                continue;
            if (!pm) {
                LLVMTypeRef type = LLVMGlobalGetValueType(g);
                snprintf(pm_name, sizeof pm_name, "%s" CTG_HOOK_PM_SUFFIX, hook_table[id].name);
                LLVMValueRef hook = LLVMGetNamedFunction(m, pm_name);
                if (!hook) {
                    hook = LLVMAddFunction(m, pm_name, type);
                    LLVMSetFunctionCallConv(hook, LLVMPreserveMostCallConv);
                }
                snprintf(name, sizeof name, CTG_GUARD_PREFIX "%s" CTG_HOOK_PM_SUFFIX,
                         hook_table[id].name);
                pm = build_guard(m, name, type, hook, LLVMPreserveMostCallConv, flags);
            }
            LLVMSetOperand(call, (unsigned)LLVMGetNumOperands(call) - 1, pm);
            moved++;
        }
    }
    return moved;
}

void inst_hook_call_guarded(inst_hooks *h, LLVMBuilderRef b, inst_hook id, LLVMValueRef *args)
{
    LLVMValueRef f = guard_fn(h, id);
    LLVMBuildCall2(b, h->types[id], f, args, (unsigned)strlen(hook_table[id].params), "");
}

LLVMValueRef inst_hook_call(inst_hooks *h, LLVMBuilderRef b, inst_hook id, LLVMValueRef *args)
{
    unsigned n = (unsigned)strlen(hook_table[id].params);
    return LLVMBuildCall2(b, h->types[id], declared(h, id), args, n, "");
}

/* The address of counter idx of the coverage map. */
static LLVMValueRef cov_slot(inst_hooks *h, LLVMBuilderRef b, LLVMValueRef idx)
{
    LLVMValueRef map = LLVMBuildLoad2(b, h->t_ptr8, h->cov_ptr, "ctg.map");
    return LLVMBuildInBoundsGEP2(b, h->t_i8, map, &idx, 1, "ctg.slot");
}

void inst_hook_cov_add(inst_hooks *h, LLVMBuilderRef b, LLVMValueRef idx, LLVMValueRef n)
{
    LLVMValueRef slot = cov_slot(h, b, idx);
    LLVMValueRef old = LLVMBuildLoad2(b, h->t_i8, slot, "ctg.hits");
    LLVMValueRef sum = LLVMBuildAdd(b, LLVMBuildZExt(b, old, h->t_i32, ""), n, "");
    LLVMValueRef max = LLVMConstInt(h->t_i32, 255, 0);
    LLVMValueRef full = LLVMBuildICmp(b, LLVMIntUGT, sum, max, "");
    LLVMBuildStore(b, LLVMBuildTrunc(b, LLVMBuildSelect(b, full, max, sum, ""), h->t_i8, ""), slot);
}

void inst_hook_cov(inst_hooks *h, LLVMBuilderRef b, LLVMValueRef idx)
{
    LLVMValueRef slot = cov_slot(h, b, idx);
    LLVMValueRef old = LLVMBuildLoad2(b, h->t_i8, slot, "ctg.hits");
    /* old + (old != 255), a saturating increment; not llvm.uadd.sat, which
     * -O0's fast instruction selector does not handle (every block of a
     * huge function then went through the slow selector) */
    LLVMValueRef room = LLVMBuildICmp(b, LLVMIntNE, old, LLVMConstInt(h->t_i8, 255, 0), "ctg.room");
    LLVMValueRef inc = LLVMBuildAdd(b, old, LLVMBuildZExt(b, room, h->t_i8, ""), "ctg.inc");
    LLVMBuildStore(b, inc, slot);
}

unsigned inst_hooks_redirect(inst_hooks *h)
{
    unsigned n = 0;
    for (size_t i = 0; i < sizeof redirect_table / sizeof *redirect_table; i++) {
        LLVMValueRef from = LLVMGetNamedFunction(h->m, redirect_table[i].from);
        if (!from || !LLVMIsDeclaration(from) || !LLVMGetFirstUse(from))
            continue;
        LLVMTypeRef ty = LLVMGlobalGetValueType(from);
        LLVMValueRef to = LLVMGetNamedFunction(h->m, redirect_table[i].to);
        if (!to)
            to = LLVMAddFunction(h->m, redirect_table[i].to, ty);
        if (LLVMGlobalGetValueType(to) != ty)
            to = LLVMConstBitCast(to, LLVMTypeOf(from));
        LLVMReplaceAllUsesWith(from, to);
        n++;
    }
    return n;
}

bool inst_hooks_define_counts(inst_hooks *h, const unsigned counts[4], ctg_err *e)
{
    for (int i = 0; i < 4; i++) {
        if (var_named(h->m, count_names[i]) || LLVMGetNamedFunction(h->m, count_names[i]))
            return reserved(e, count_names[i]);
        LLVMValueRef g = LLVMAddGlobal(h->m, h->t_i32, count_names[i]);
        LLVMSetInitializer(g, LLVMConstInt(h->t_i32, counts[i], 0));
        LLVMSetGlobalConstant(g, 1);
        LLVMSetLinkage(g, LLVMExternalLinkage);
    }
    return true;
}
