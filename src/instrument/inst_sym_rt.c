/*
 * inst_sym_rt.c - the symbolic runtime as the pass sees it: one table of the
 * functions of rt_symabi.h (name, type, fast path), their declarations, the
 * inlined fast-path helpers, the runtime's globals, and conversions of
 * program values to what the runtime takes.
 *
 * A fast-path helper is an internal always-inline function with the
 * runtime function's signature:
 *     if ((shadow params ORed [| live]) == 0) return default; else call
 * so that after -O2 a concrete operation costs a test and a branch, and
 * operations whose shadows are constant 0 disappear entirely.
 */
#include "inst_hooks.h"
#include "inst_sym.h"

#include <stdio.h>
#include <string.h>

#include "../runtime/rt_symabi.h"

/* Default result of a skipped call. */
enum { DEF_ZERO = -1, DEF_SELECT = -2 /* ITE: c ? st : sf */, DEF_NONE = -3 /* no fast path */ };

/* One runtime function: letters as in inst_hooks.c (v void, i i32, L i64,
 * p i8*, q i64*); mask: bits of the i32 shadow parameters the fast path
 * tests; live: also test CTG_SYM_LIVE; dflt: DEF_* or the parameter the
 * fast path returns. */
typedef struct sr_spec {
    const char *name;
    char ret;
    const char *params;
    unsigned mask;
    bool live;
    int dflt;
} sr_spec;

static const sr_spec specs[SR__COUNT] = {
    [SR_BIN] = {CTG_SYMFN_BIN, 'i', "iiiLLi", 0x6, false, DEF_ZERO},
    [SR_ICMP] = {CTG_SYMFN_ICMP, 'i', "iiiLLi", 0x6, false, DEF_ZERO},
    [SR_FCMP] = {CTG_SYMFN_FCMP, 'i', "iiiLLi", 0x6, false, DEF_ZERO},
    [SR_CAST] = {CTG_SYMFN_CAST, 'i', "iiii", 0x2, false, DEF_ZERO},
    [SR_ITE] = {CTG_SYMFN_ITE, 'i', "iiiiLLi", 0x1, false, DEF_SELECT},
    [SR_GEP_IDX] = {CTG_SYMFN_GEP_IDX, 'i', "iiLiL", 0x2, false, 0},
    [SR_GEP_END] = {CTG_SYMFN_GEP_END, 'i', "iiLLLLL", 0x3, false, DEF_ZERO},
    [SR_LOAD] = {CTG_SYMFN_LOAD, 'i', "piii", 0x4, true, DEF_ZERO},
    [SR_STORE] = {CTG_SYMFN_STORE, 'v', "piiiL", 0xc, true, DEF_ZERO},
    [SR_MEMCPY] = {CTG_SYMFN_MEMCPY, 'v', "ppLi", 0x8, true, DEF_ZERO},
    [SR_MEMSET] = {CTG_SYMFN_MEMSET, 'v', "piLi", 0xa, true, DEF_ZERO},
    [SR_CLEAR] = {CTG_SYMFN_CLEAR, 'v', "pL", 0, true, DEF_ZERO},
    [SR_BRANCH] = {CTG_SYMFN_BRANCH, 'v', "iii", 0x1, false, DEF_ZERO},
    [SR_SWITCH] = {CTG_SYMFN_SWITCH, 'v', "iLiiqi", 0x1, false, DEF_ZERO},
    [SR_ASSUME] = {CTG_SYMFN_ASSUME, 'v', "iLi", 0x1, false, DEF_ZERO},
    [SR_LOST] = {CTG_SYMFN_LOST, 'v', "i", 0x1, false, DEF_ZERO},
    [SR_THREADS] = {CTG_SYMFN_THREADS, 'v', "", 0, false, DEF_NONE},
    [SR_NONDET] = {CTG_SYMFN_NONDET, 'i', "i", 0, false, DEF_NONE},
    [SR_FUZZ] = {CTG_SYMFN_FUZZ, 'i', "pLi", 0, false, DEF_NONE},
    [SR_STRCMP] = {CTG_SYMFN_STRCMP, 'i', "ppi", 0, true, DEF_ZERO},
    [SR_STRNCMP] = {CTG_SYMFN_STRNCMP, 'i', "ppLii", 0x8, true, DEF_ZERO},
    [SR_MEMCMP] = {CTG_SYMFN_MEMCMP, 'i', "ppLii", 0x8, true, DEF_ZERO},
    [SR_STRLEN] = {CTG_SYMFN_STRLEN, 'i', "pi", 0, true, DEF_ZERO},
    [SR_STRCHR] = {CTG_SYMFN_STRCHR, 'i', "pii", 0x4, true, DEF_ZERO},
    [SR_STRCPY] = {CTG_SYMFN_STRCPY, 'v', "ppL", 0, true, DEF_ZERO},
    [SR_STRCAT] = {CTG_SYMFN_STRCAT, 'v', "pp", 0, true, DEF_ZERO},
    [SR_STDIN_CHAR] = {CTG_SYMFN_STDIN_CHAR, 'i', "L", 0, false, DEF_NONE},
    [SR_STDIN_BUF] = {CTG_SYMFN_STDIN_BUF, 'v', "pLLi", 0, false, DEF_NONE},
};

/* Function type of a table entry. */
static LLVMTypeRef spec_type(const isym_pass *P, const sr_spec *s)
{
    return inst_letters_type(P->ctx, NULL, s->ret, s->params);
}

/* ==== globals ===================================================================== */

/* True when m defines or declares something called name. */
static bool taken(LLVMModuleRef m, const char *name)
{
    return LLVMGetNamedFunction(m, name) || LLVMGetNamedGlobal(m, name) ||
           LLVMGetNamedGlobalAlias(m, name, strlen(name));
}

/* An external global of type t called name. */
static LLVMValueRef ext_global(isym_pass *P, LLVMTypeRef t, const char *name)
{
    LLVMValueRef g = LLVMAddGlobal(P->m, t, name);
    LLVMSetLinkage(g, LLVMExternalLinkage);
    return g;
}

bool isym_rt_init(isym_pass *P, ctg_err *e)
{
    static const char *const globals[] = {CTG_SYM_LIVE, CTG_SYM_ARGS, CTG_SYM_ARG_FN, CTG_SYM_RET,
                                          CTG_SYM_RET_FN};
    P->ctx = LLVMGetModuleContext(P->m);
    P->td = LLVMCreateTargetData(LLVMGetDataLayoutStr(P->m));
    P->ptr_bits = LLVMPointerSize(P->td) * 8;
    P->t_void = LLVMVoidTypeInContext(P->ctx);
    P->t_i1 = LLVMInt1TypeInContext(P->ctx);
    P->t_i8 = LLVMInt8TypeInContext(P->ctx);
    P->t_i32 = LLVMInt32TypeInContext(P->ctx);
    P->t_i64 = LLVMInt64TypeInContext(P->ctx);
    P->t_ptr8 = LLVMPointerType(P->t_i8, 0);
    P->t_ptr64 = LLVMPointerType(P->t_i64, 0);
    P->zero = LLVMConstInt(P->t_i32, 0, 0);
    for (size_t i = 0; i < sizeof globals / sizeof *globals; i++)
        if (taken(P->m, globals[i]))
            return err_set(e, "program defines %s, a name ctestgen reserves; rename it", globals[i]);
    for (int i = 0; i < SR__COUNT; i++) {
        P->rt_ty[i] = spec_type(P, &specs[i]);
        if (taken(P->m, specs[i].name))
            return err_set(e, "program defines %s, a name ctestgen reserves; rename it",
                           specs[i].name);
    }
    P->g_live = ext_global(P, P->t_i32, CTG_SYM_LIVE);
    P->g_args = ext_global(P, LLVMArrayType(P->t_i32, CTG_SYM_MAX_ARGS), CTG_SYM_ARGS);
    P->g_arg_fn = ext_global(P, P->t_ptr8, CTG_SYM_ARG_FN);
    P->g_ret = ext_global(P, P->t_i32, CTG_SYM_RET);
    P->g_ret_fn = ext_global(P, P->t_ptr8, CTG_SYM_RET_FN);
    return true;
}

/* ==== calls and fast paths ============================================================ */

/* The declaration of runtime function f. */
static LLVMValueRef rt_decl(isym_pass *P, isym_rt f)
{
    if (!P->rt_fn[f])
        P->rt_fn[f] = LLVMAddFunction(P->m, specs[f].name, P->rt_ty[f]);
    return P->rt_fn[f];
}

/* The fast-path result of helper h (entry values params). */
static LLVMValueRef fast_default(isym_pass *P, const sr_spec *s, LLVMValueRef h)
{
    if (s->dflt >= 0)
        return LLVMGetParam(h, (unsigned)s->dflt);
    if (s->dflt == DEF_SELECT) { /* ite(sc, st, sf, c, ...): c ? st : sf */
        LLVMValueRef c = LLVMBuildICmp(P->b, LLVMIntNE, LLVMGetParam(h, 3), P->zero, "");
        return LLVMBuildSelect(P->b, c, LLVMGetParam(h, 1), LLVMGetParam(h, 2), "");
    }
    return P->zero;
}

/* Defines the fast-path helper of runtime function f (see the file comment). */
static LLVMValueRef make_helper(isym_pass *P, isym_rt f)
{
    const sr_spec *s = &specs[f];
    char name[96];
    snprintf(name, sizeof name, "%s%s", CTG_SYM_HELPER_PREFIX, s->name + strlen("__ctg_sym_"));
    LLVMValueRef h = LLVMAddFunction(P->m, name, P->rt_ty[f]);
    LLVMSetLinkage(h, LLVMInternalLinkage);
    unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    LLVMAddAttributeAtIndex(h, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(P->ctx, ai, 0));
    LLVMBuilderRef saved = P->b;
    P->b = LLVMCreateBuilderInContext(P->ctx);
    LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(P->ctx, h, "entry");
    LLVMBasicBlockRef fast = LLVMAppendBasicBlockInContext(P->ctx, h, "fast");
    LLVMBasicBlockRef slow = LLVMAppendBasicBlockInContext(P->ctx, h, "slow");
    LLVMPositionBuilderAtEnd(P->b, entry);
    LLVMValueRef any = P->zero;
    unsigned n = (unsigned)strlen(s->params);
    for (unsigned i = 0; i < n; i++)
        if (s->mask & (1u << i))
            any = LLVMBuildOr(P->b, any, LLVMGetParam(h, i), "");
    if (s->live)
        any = LLVMBuildOr(P->b, any, LLVMBuildLoad2(P->b, P->t_i32, P->g_live, "live"), "");
    LLVMBuildCondBr(P->b, LLVMBuildICmp(P->b, LLVMIntEQ, any, P->zero, ""), fast, slow);
    LLVMPositionBuilderAtEnd(P->b, fast);
    if (s->ret == 'v')
        LLVMBuildRetVoid(P->b);
    else
        LLVMBuildRet(P->b, fast_default(P, s, h));
    LLVMPositionBuilderAtEnd(P->b, slow);
    LLVMValueRef args[8];
    for (unsigned i = 0; i < n; i++)
        args[i] = LLVMGetParam(h, i);
    LLVMValueRef r = LLVMBuildCall2(P->b, P->rt_ty[f], rt_decl(P, f), args, n, "");
    if (s->ret == 'v')
        LLVMBuildRetVoid(P->b);
    else
        LLVMBuildRet(P->b, r);
    LLVMDisposeBuilder(P->b);
    P->b = saved;
    return h;
}

LLVMValueRef isym_rt_call(isym_pass *P, isym_rt f, LLVMValueRef *args)
{
    const sr_spec *s = &specs[f];
    LLVMValueRef callee;
    if (s->dflt == DEF_NONE) {
        callee = rt_decl(P, f);
    } else {
        if (!P->fast_fn[f])
            P->fast_fn[f] = make_helper(P, f);
        callee = P->fast_fn[f];
    }
    return LLVMBuildCall2(P->b, P->rt_ty[f], callee, args, (unsigned)strlen(s->params), "");
}

/* ==== values ============================================================================= */

bool isym_is_fp(LLVMTypeRef t)
{
    LLVMTypeKind k = LLVMGetTypeKind(t);
    return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

unsigned isym_scalar_bits(isym_pass *P, LLVMTypeRef t)
{
    switch (LLVMGetTypeKind(t)) {
    case LLVMIntegerTypeKind: {
        unsigned w = LLVMGetIntTypeWidth(t);
        return w <= 64 ? w : 0;
    }
    case LLVMFloatTypeKind: return 32;
    case LLVMDoubleTypeKind: return 64;
    case LLVMPointerTypeKind: return P->ptr_bits;
    default: return 0;
    }
}

LLVMValueRef isym_c32(isym_pass *P, uint64_t v) { return LLVMConstInt(P->t_i32, v, 0); }
LLVMValueRef isym_c64(isym_pass *P, uint64_t v) { return LLVMConstInt(P->t_i64, v, 0); }

LLVMValueRef isym_int64(isym_pass *P, LLVMValueRef v, bool sign)
{
    return LLVMBuildIntCast2(P->b, v, P->t_i64, sign, "");
}

LLVMValueRef isym_bits64(isym_pass *P, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    switch (LLVMGetTypeKind(t)) {
    case LLVMPointerTypeKind: return LLVMBuildPtrToInt(P->b, v, P->t_i64, "");
    case LLVMFloatTypeKind:
        return LLVMBuildZExt(P->b, LLVMBuildBitCast(P->b, v, P->t_i32, ""), P->t_i64, "");
    case LLVMDoubleTypeKind: return LLVMBuildBitCast(P->b, v, P->t_i64, "");
    default: return isym_int64(P, v, false);
    }
}

LLVMValueRef isym_ptr8(isym_pass *P, LLVMValueRef v)
{
    return LLVMBuildPointerCast(P->b, v, P->t_ptr8, "");
}

void isym_lose_operands(isym_pass *P, LLVMValueRef i)
{
    unsigned n = (unsigned)LLVMGetNumOperands(i);
    LLVMValueRef any = NULL;
    bool positioned = false;
    for (unsigned k = 0; k < n; k++) {
        LLVMValueRef s = isym_shadow(P, LLVMGetOperand(i, k));
        if (isym_is_zero(s))
            continue;
        if (!positioned) {
            isym_before(P, i);
            positioned = true;
        }
        any = any ? LLVMBuildOr(P->b, any, s, "") : s;
    }
    if (any) {
        isym_rt_call(P, SR_LOST, &any);
        P->st->unsupported++;
    }
}
