/*
 * inst_sym_call.c - calls, returns and function entries in the symbolic
 * pass, the inputs of the program, intrinsics and the libc models.
 *
 * Calls into instrumented code pass argument shadows through the global
 * slots CTG_SYM_ARGS, tagged with the callee in CTG_SYM_ARG_FN; the callee's
 * prologue takes them only when the tag names itself (so a function called
 * back from uninstrumented code sees concrete arguments) and clears the tag.
 * A return stores its shadow in CTG_SYM_RET tagged with the returning
 * function; the caller accepts it only when the tag names the function it
 * called, and clears the tag, so an uninstrumented callee yields concrete.
 *
 * Calls of declarations are libc or the harness: __VERIFIER_nondet_* make
 * input values symbolic, __VERIFIER_assume records its condition, string
 * compares, strlen and strchr get result expressions, copies move the shadow along
 * and functions that fill buffers with fresh data make them concrete.
 */
#include "inst_sym.h"

#include <string.h>

#include "../runtime/rt_protocol.h"
#include "../runtime/rt_symabi.h"
#include "../runtime/rt_symtrace.h"
#include "inst_stdin.h"

/* Argument k of call i. */
static LLVMValueRef arg(LLVMValueRef i, unsigned k) { return LLVMGetOperand(i, k); }

/* Pointer to argument slot k (constant expression). */
static LLVMValueRef arg_slot(isym_pass *P, unsigned k)
{
    LLVMValueRef idx[2] = {isym_c32(P, 0), isym_c32(P, k)};
    return LLVMConstInBoundsGEP2(LLVMArrayType(P->t_i32, CTG_SYM_MAX_ARGS), P->g_args, idx, 2);
}

/* ==== function entry and return ==================================================== */

/* libFuzzer entry: data[] become input bytes, size the length variable. */
static void fuzz_entry(isym_pass *P, LLVMValueRef fn)
{
    if (P->harness != CTG_HARNESS_LIBFUZZER || !inst_name_is(fn, "LLVMFuzzerTestOneInput") ||
        LLVMCountParams(fn) != 2)
        return;
    LLVMValueRef data = LLVMGetParam(fn, 0), size = LLVMGetParam(fn, 1);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(size));
    if (LLVMGetTypeKind(LLVMTypeOf(data)) != LLVMPointerTypeKind ||
        LLVMGetTypeKind(LLVMTypeOf(size)) != LLVMIntegerTypeKind || !w)
        return;
    LLVMValueRef args[3] = {isym_ptr8(P, data), isym_int64(P, size, false), isym_c32(P, w)};
    isym_set_shadow(P, size, isym_rt_call(P, SR_FUZZ, args));
}

void isym_prologue(isym_pass *P, LLVMValueRef fn)
{
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
    unsigned n = LLVMCountParams(fn);
    if (!first)
        return;
    LLVMPositionBuilderBefore(P->b, first);
    LLVMSetCurrentDebugLocation2(P->b, NULL);
    if (n) {
        LLVMValueRef tag = LLVMBuildLoad2(P->b, P->t_ptr8, P->g_arg_fn, "ctg.argfn");
        LLVMValueRef mine = LLVMBuildICmp(P->b, LLVMIntEQ, tag, isym_ptr8(P, fn), "");
        LLVMBuildStore(P->b, LLVMConstNull(P->t_ptr8), P->g_arg_fn);
        for (unsigned k = 0; k < n && k < CTG_SYM_MAX_ARGS; k++) {
            LLVMValueRef p = LLVMGetParam(fn, k);
            if (!isym_scalar_bits(P, LLVMTypeOf(p)))
                continue;
            LLVMValueRef s = LLVMBuildLoad2(P->b, P->t_i32, arg_slot(P, k), "");
            isym_set_shadow(P, p, LLVMBuildSelect(P->b, mine, s, P->zero, "ctg.sarg"));
        }
    }
    fuzz_entry(P, fn);
}

void isym_ret(isym_pass *P, LLVMValueRef i)
{
    if (LLVMGetNumOperands(i) < 1)
        return;
    LLVMValueRef v = LLVMGetOperand(i, 0), s = isym_shadow(P, v);
    if (isym_is_zero(s) || !isym_scalar_bits(P, LLVMTypeOf(v)))
        return;
    isym_before(P, i);
    LLVMBuildStore(P->b, s, P->g_ret);
    LLVMBuildStore(P->b, isym_ptr8(P, P->fn), P->g_ret_fn);
}

/* ==== calls into instrumented code ========================================================= */

/* Stores the argument shadows of call i into the slots, tagged with the
 * called value, unless every one is constant 0. */
static void pass_args(isym_pass *P, LLVMValueRef i, LLVMValueRef called)
{
    unsigned n = (unsigned)LLVMGetNumArgOperands(i);
    unsigned np = LLVMCountParamTypes(LLVMGetCalledFunctionType(i));
    bool any = false;
    for (unsigned k = 0; k < n && k < np && k < CTG_SYM_MAX_ARGS; k++)
        any |= !isym_is_zero(isym_shadow(P, arg(i, k)));
    if (!any)
        return;
    isym_before(P, i);
    for (unsigned k = 0; k < n && k < np && k < CTG_SYM_MAX_ARGS; k++)
        if (isym_scalar_bits(P, LLVMTypeOf(arg(i, k))))
            LLVMBuildStore(P->b, isym_shadow(P, arg(i, k)), arg_slot(P, k));
    LLVMBuildStore(P->b, isym_ptr8(P, called), P->g_arg_fn);
}

/* Takes the return shadow of call i if the callee left one. */
static void take_ret(isym_pass *P, LLVMValueRef i, LLVMValueRef called)
{
    if (!isym_scalar_bits(P, LLVMTypeOf(i)))
        return;
    isym_after(P, i);
    LLVMValueRef tag = LLVMBuildLoad2(P->b, P->t_ptr8, P->g_ret_fn, "ctg.retfn");
    LLVMValueRef ok = LLVMBuildICmp(P->b, LLVMIntEQ, tag, isym_ptr8(P, called), "");
    LLVMValueRef s = LLVMBuildLoad2(P->b, P->t_i32, P->g_ret, "");
    LLVMBuildStore(P->b, LLVMConstNull(P->t_ptr8), P->g_ret_fn);
    isym_set_shadow(P, i, LLVMBuildSelect(P->b, ok, s, P->zero, "ctg.sret"));
}

/* ==== inputs and libc models ==================================================================== */

/* __VERIFIER_nondet_T(): the value is input. */
static void model_nondet(isym_pass *P, LLVMValueRef i)
{
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if (!w)
        return;
    isym_after(P, i);
    LLVMValueRef a = isym_c32(P, w);
    isym_set_shadow(P, i, isym_rt_call(P, SR_NONDET, &a));
}

/* __VERIFIER_assume(c): c held (the run ends otherwise). */
static void model_assume(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef c = arg(i, 0), s = isym_shadow(P, c);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(c));
    if (isym_is_zero(s) || !w || LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind)
        return;
    isym_before(P, i);
    LLVMValueRef args[3] = {s, isym_bits64(P, c), isym_c32(P, w)};
    isym_rt_call(P, SR_ASSUME, args);
}

/* The shadow of an integer length argument at pointer width (0 when it is
 * not symbolic or has another width). */
static LLVMValueRef len_shadow(isym_pass *P, LLVMValueRef n)
{
    LLVMValueRef s = isym_shadow(P, n);
    return isym_scalar_bits(P, LLVMTypeOf(n)) == P->ptr_bits ? s : P->zero;
}

/* Result expression of strcmp/strncmp/memcmp/bcmp/strlen, after the call. */
static void model_compare(isym_pass *P, LLVMValueRef i, isym_rt f)
{
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if (!w || LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMIntegerTypeKind)
        return;
    isym_after(P, i);
    LLVMValueRef args[5];
    args[0] = isym_ptr8(P, arg(i, 0));
    if (f == SR_STRLEN) {
        args[1] = isym_c32(P, w);
    } else if (f == SR_STRCMP) {
        args[1] = isym_ptr8(P, arg(i, 1));
        args[2] = isym_c32(P, w);
    } else {
        args[1] = isym_ptr8(P, arg(i, 1));
        args[2] = isym_int64(P, arg(i, 2), false);
        args[3] = len_shadow(P, arg(i, 2));
        args[4] = isym_c32(P, w);
    }
    isym_set_shadow(P, i, isym_rt_call(P, f, args));
    P->st->calls++;
}

/* strchr(s, c): the returned pointer as an expression of the bytes of s. */
static void model_strchr(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef c = arg(i, 1);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(c));
    if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMPointerTypeKind || !w || w > 32 ||
        LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind)
        return;
    isym_after(P, i);
    LLVMValueRef sc = isym_shadow(P, c);
    if (!isym_is_zero(sc) && w != 8) {
        LLVMValueRef a[4] = {isym_c32(P, CTG_SOP_TRUNC), sc, isym_c32(P, w), isym_c32(P, 8)};
        sc = isym_rt_call(P, SR_CAST, a);
    }
    LLVMValueRef args[3] = {isym_ptr8(P, arg(i, 0)), LLVMBuildZExt(P->b, LLVMBuildTrunc(P->b, c, P->t_i8, ""), P->t_i32, ""), sc};
    isym_set_shadow(P, i, isym_rt_call(P, SR_STRCHR, args));
    P->st->calls++;
}

/* memcpy/memmove (libc or intrinsic): the shadow moves along (before). */
static void model_memcpy(isym_pass *P, LLVMValueRef i)
{
    isym_before(P, i);
    LLVMValueRef args[4] = {isym_ptr8(P, arg(i, 0)), isym_ptr8(P, arg(i, 1)),
                            isym_int64(P, arg(i, 2), false), len_shadow(P, arg(i, 2))};
    isym_rt_call(P, SR_MEMCPY, args);
}

/* memset (libc: int value; intrinsic: i8 value). */
static void model_memset(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef v = arg(i, 1), sv = isym_shadow(P, v);
    isym_before(P, i);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(v));
    if (!isym_is_zero(sv) && w != 8) {
        LLVMValueRef a[4] = {isym_c32(P, CTG_SOP_TRUNC), sv, isym_c32(P, w), isym_c32(P, 8)};
        sv = w > 8 && w <= 64 ? isym_rt_call(P, SR_CAST, a) : P->zero;
    }
    LLVMValueRef args[4] = {isym_ptr8(P, arg(i, 0)), sv, isym_int64(P, arg(i, 2), false),
                            len_shadow(P, arg(i, 2))};
    isym_rt_call(P, SR_MEMSET, args);
}

/* strcpy/stpcpy/strncpy (n: argument index of the bound, or -1) and strcat,
 * before the call. */
static void model_strcopy(isym_pass *P, LLVMValueRef i, int n, bool cat)
{
    isym_before(P, i);
    LLVMValueRef args[3] = {isym_ptr8(P, arg(i, 0)), isym_ptr8(P, arg(i, 1)), NULL};
    if (cat) {
        isym_rt_call(P, SR_STRCAT, args);
        return;
    }
    args[2] = n >= 0 ? isym_int64(P, arg(i, (unsigned)n), false) : isym_c64(P, UINT64_MAX);
    isym_rt_call(P, SR_STRCPY, args);
}

/* Makes n bytes at p concrete (the builder is after the call). */
static void clear_after(isym_pass *P, LLVMValueRef p, LLVMValueRef n)
{
    LLVMValueRef args[2] = {isym_ptr8(P, p), n};
    isym_rt_call(P, SR_CLEAR, args);
}

/* Functions that fill a buffer with data from outside or rearrange it
 * where the pass cannot see: the buffer becomes concrete (calloc, fgets,
 * snprintf, qsort, read, fread, sprintf). */
static bool model_fill(isym_pass *P, LLVMValueRef i, LLVMValueRef f)
{
    unsigned na = (unsigned)LLVMGetNumArgOperands(i);
    if (inst_name_is(f, "calloc") && na == 2) {
        isym_after(P, i);
        clear_after(P, i, LLVMBuildMul(P->b, isym_int64(P, arg(i, 0), false),
                                          isym_int64(P, arg(i, 1), false), ""));
    } else if ((inst_name_is(f, "fgets") && na == 3) || (inst_name_is(f, "snprintf") && na >= 2)) {
        isym_after(P, i);
        clear_after(P, arg(i, 0), isym_int64(P, arg(i, 1), false));
    } else if (inst_name_is(f, "qsort") && na == 4) { /* sorted behind our back: concrete */
        isym_after(P, i);
        clear_after(P, arg(i, 0), LLVMBuildMul(P->b, isym_int64(P, arg(i, 1), false),
                                               isym_int64(P, arg(i, 2), false), ""));
    } else if (inst_name_is(f, "read") && na == 3) {
        isym_after(P, i);
        clear_after(P, arg(i, 1), isym_int64(P, arg(i, 2), false));
    } else if (inst_name_is(f, "fread") && na == 4) {
        isym_after(P, i);
        clear_after(P, arg(i, 0), LLVMBuildMul(P->b, isym_int64(P, arg(i, 1), false),
                                                  isym_int64(P, arg(i, 2), false), ""));
    } else if (inst_name_is(f, "sprintf") && na >= 2 &&
               LLVMGetTypeKind(LLVMTypeOf(i)) == LLVMIntegerTypeKind) {
        isym_after(P, i);
        LLVMValueRef r = isym_int64(P, i, true);
        LLVMValueRef neg = LLVMBuildICmp(P->b, LLVMIntSLT, r, isym_c64(P, 0), "");
        LLVMValueRef n = LLVMBuildSelect(P->b, neg, isym_c64(P, 0),
                                         LLVMBuildAdd(P->b, r, isym_c64(P, 1), ""), "");
        clear_after(P, arg(i, 0), n);
    } else {
        return false;
    }
    return true;
}

/* realloc(p, n): the shadow of the old block moves to the new one. */
static void model_realloc(isym_pass *P, LLVMValueRef i)
{
    isym_after(P, i);
    LLVMValueRef args[4] = {isym_ptr8(P, i), isym_ptr8(P, arg(i, 0)), isym_int64(P, arg(i, 1), false),
                            P->zero};
    isym_rt_call(P, SR_MEMCPY, args);
}

/* Number of arguments a call has, if it is a declaration of that arity
 * whose first arguments are pointers. */
static bool ptr_args(LLVMValueRef i, unsigned n, unsigned nptr)
{
    if ((unsigned)LLVMGetNumArgOperands(i) != n)
        return false;
    for (unsigned k = 0; k < nptr; k++)
        if (LLVMGetTypeKind(LLVMTypeOf(arg(i, k))) != LLVMPointerTypeKind)
            return false;
    return true;
}

_Static_assert(INST_STDIN_FREAD == CTG_SYM_STDIN_FREAD && INST_STDIN_FGETS == CTG_SYM_STDIN_FGETS &&
                   INST_STDIN_READ == CTG_SYM_STDIN_READ,
               "the kinds the runtime's stdin model takes");

/* scanf / fscanf on a stdin target's stdin: the call goes to the runtime's
 * wrapper of the same type, which runs the real one and models what it
 * converted (rt_symabi.h).  False for the other unmodelled readers. */
static bool model_scanf(isym_pass *P, LLVMValueRef i, const char *callee)
{
    bool f = !strcmp(callee, "fscanf") || !strcmp(callee, "__isoc99_fscanf");
    if (!f && strcmp(callee, "scanf") && strcmp(callee, "__isoc99_scanf"))
        return false;
    const char *name = f ? CTG_SYMFN_FSCANF : CTG_SYMFN_SCANF;
    LLVMTypeRef t = LLVMGetCalledFunctionType(i);
    LLVMValueRef w = LLVMGetNamedFunction(P->m, name);
    if (!w)
        w = LLVMAddFunction(P->m, name, t);
    if (LLVMGlobalGetValueType(w) != t)
        return false; /* an odd prototype: the call stays as it is */
    LLVMSetOperand(i, (unsigned)LLVMGetNumOperands(i) - 1, w);
    return true;
}

/* Reads of a stdin target's stdin (inst_stdin.h): a byte read is input
 * byte (its position in the stream), the bytes fread, fgets and read(0)
 * put in a buffer become input bytes; scanf and the others stay concrete.
 * False when i is no such read. */
static bool model_stdin(isym_pass *P, LLVMValueRef i, LLVMValueRef f)
{
    size_t n;
    inst_stdin_kind k = P->harness == CTG_HARNESS_STDIN
                            ? inst_stdin_call(i, LLVMGetValueName2(f, &n))
                            : INST_STDIN_NONE;
    if (k == INST_STDIN_OTHER)
        return model_scanf(P, i, LLVMGetValueName2(f, &n));
    if (k == INST_STDIN_NONE)
        return false;
    isym_after(P, i);
    if (k == INST_STDIN_CHAR) {
        unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
        if (w != 32)
            return true;
        LLVMValueRef r = isym_int64(P, i, true);
        isym_set_shadow(P, i, isym_rt_call(P, SR_STDIN_CHAR, &r));
        return true;
    }
    LLVMValueRef buf = arg(i, k == INST_STDIN_READ ? 1 : 0);
    LLVMValueRef size = k == INST_STDIN_FREAD ? isym_int64(P, arg(i, 1), false) : isym_c64(P, 1);
    LLVMValueRef ret = k == INST_STDIN_FGETS ? LLVMBuildPtrToInt(P->b, i, P->t_i64, "")
                                             : isym_int64(P, i, k == INST_STDIN_READ);
    LLVMValueRef args[4] = {isym_ptr8(P, buf), ret, size, isym_c32(P, (unsigned)k)};
    isym_rt_call(P, SR_STDIN_BUF, args);
    return true;
}

/* A call of declaration f: the harness functions and the libc models. */
static void call_external(isym_pass *P, LLVMValueRef i, LLVMValueRef f)
{
    if (model_stdin(P, i, f))
        return;
    if (inst_name_starts(f, "__VERIFIER_nondet_"))
        model_nondet(P, i);
    else if (inst_name_is(f, "__VERIFIER_assume") && ptr_args(i, 1, 0))
        model_assume(P, i);
    else if (inst_name_is(f, "strcmp") && ptr_args(i, 2, 2))
        model_compare(P, i, SR_STRCMP);
    else if (inst_name_is(f, "strncmp") && ptr_args(i, 3, 2))
        model_compare(P, i, SR_STRNCMP);
    else if ((inst_name_is(f, "memcmp") || inst_name_is(f, "bcmp")) && ptr_args(i, 3, 2))
        model_compare(P, i, SR_MEMCMP);
    else if (inst_name_is(f, "strlen") && ptr_args(i, 1, 1))
        model_compare(P, i, SR_STRLEN);
    else if (inst_name_is(f, "strchr") && ptr_args(i, 2, 1))
        model_strchr(P, i);
    else if ((inst_name_is(f, "memcpy") || inst_name_is(f, "memmove")) && ptr_args(i, 3, 2))
        model_memcpy(P, i);
    else if (inst_name_is(f, "memset") && ptr_args(i, 3, 1))
        model_memset(P, i);
    else if ((inst_name_is(f, "strcpy") || inst_name_is(f, "stpcpy")) && ptr_args(i, 2, 2))
        model_strcopy(P, i, -1, false);
    else if (inst_name_is(f, "strncpy") && ptr_args(i, 3, 2))
        model_strcopy(P, i, 2, false);
    else if (inst_name_is(f, "strcat") && ptr_args(i, 2, 2))
        model_strcopy(P, i, -1, true);
    else if (inst_name_is(f, "realloc") && ptr_args(i, 2, 1))
        model_realloc(P, i);
    else if (inst_name_is(f, "pthread_create") || inst_name_is(f, "thrd_create")) {
        isym_before(P, i); /* the runtime is not thread-safe: concrete from here */
        isym_rt_call(P, SR_THREADS, NULL);
    }
    else
        model_fill(P, i, f);
}

/* ==== intrinsics ========================================================================= */

/* llvm.{s,u}{max,min}.iN: an ite on the comparison. */
static void intrinsic_minmax(isym_pass *P, LLVMValueRef i, LLVMIntPredicate pred)
{
    LLVMValueRef a = arg(i, 0), b = arg(i, 1), sa = isym_shadow(P, a), sb = isym_shadow(P, b);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if ((isym_is_zero(sa) && isym_is_zero(sb)) || !w)
        return;
    isym_after(P, i);
    LLVMValueRef c = LLVMBuildICmp(P->b, pred, a, b, "");
    LLVMValueRef ca[6] = {isym_c32(P, pred), sa, sb, isym_bits64(P, a), isym_bits64(P, b), isym_c32(P, w)};
    LLVMValueRef sc = isym_rt_call(P, SR_ICMP, ca);
    LLVMValueRef ia[7] = {sc, sa, sb, LLVMBuildZExt(P->b, c, P->t_i32, ""), isym_bits64(P, a),
                          isym_bits64(P, b), isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_ITE, ia));
}

/* llvm.abs.iN: x < 0 ? 0 - x : x. */
static void intrinsic_abs(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef x = arg(i, 0), s = isym_shadow(P, x);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if (isym_is_zero(s) || !w)
        return;
    isym_after(P, i);
    LLVMValueRef x64 = isym_bits64(P, x), zero = isym_c64(P, 0);
    LLVMValueRef na[6] = {isym_c32(P, CTG_SOP_SUB), P->zero, s, zero, x64, isym_c32(P, w)};
    LLVMValueRef neg = isym_rt_call(P, SR_BIN, na);
    LLVMValueRef ca[6] = {isym_c32(P, LLVMIntSLT), s, P->zero, x64, zero, isym_c32(P, w)};
    LLVMValueRef sc = isym_rt_call(P, SR_ICMP, ca);
    LLVMValueRef c = LLVMBuildICmp(P->b, LLVMIntSLT, x, LLVMConstNull(LLVMTypeOf(x)), "");
    LLVMValueRef ia[7] = {sc, neg, s, LLVMBuildZExt(P->b, c, P->t_i32, ""),
                          LLVMBuildSub(P->b, zero, x64, ""), x64, isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_ITE, ia));
}

/* llvm.fabs.f32/f64: clear the sign bit of the IEEE bits. */
static void intrinsic_fabs(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef x = arg(i, 0), s = isym_shadow(P, x);
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if (isym_is_zero(s) || !isym_is_fp(LLVMTypeOf(i)))
        return;
    isym_after(P, i);
    uint64_t mask = w == 32 ? 0x7fffffffu : 0x7fffffffffffffffu;
    LLVMValueRef a[6] = {isym_c32(P, CTG_SOP_AND), s, P->zero, isym_bits64(P, x), isym_c64(P, mask),
                         isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_BIN, a));
}

/* Intrinsics without any effect on shadows. */
static bool intrinsic_inert(LLVMValueRef f)
{
    static const char *const inert[] = {"llvm.dbg.", "llvm.lifetime.", "llvm.stacksave",
                                        "llvm.stackrestore", "llvm.va_", "llvm.trap",
                                        "llvm.debugtrap", "llvm.prefetch", "llvm.assume",
                                        "llvm.donothing", "llvm.experimental.noalias"};
    for (size_t k = 0; k < sizeof inert / sizeof *inert; k++)
        if (inst_name_starts(f, inert[k]))
            return true;
    return false;
}

/* A call of intrinsic f. */
static void call_intrinsic(isym_pass *P, LLVMValueRef i, LLVMValueRef f)
{
    if (intrinsic_inert(f))
        return;
    if (inst_name_starts(f, "llvm.memcpy.") || inst_name_starts(f, "llvm.memmove."))
        model_memcpy(P, i);
    else if (inst_name_starts(f, "llvm.memset."))
        model_memset(P, i);
    else if (inst_name_starts(f, "llvm.expect."))
        isym_set_shadow(P, i, isym_shadow(P, arg(i, 0)));
    else if (inst_name_starts(f, "llvm.smax."))
        intrinsic_minmax(P, i, LLVMIntSGT);
    else if (inst_name_starts(f, "llvm.smin."))
        intrinsic_minmax(P, i, LLVMIntSLT);
    else if (inst_name_starts(f, "llvm.umax."))
        intrinsic_minmax(P, i, LLVMIntUGT);
    else if (inst_name_starts(f, "llvm.umin."))
        intrinsic_minmax(P, i, LLVMIntULT);
    else if (inst_name_starts(f, "llvm.abs."))
        intrinsic_abs(P, i);
    else if (inst_name_starts(f, "llvm.fabs."))
        intrinsic_fabs(P, i);
    else
        isym_lose_operands(P, i); /* overflow arithmetic, bit counts, ...: concrete */
}

/* ==== the call handler ===================================================================== */

/* True for calls of inline assembly. */
static bool is_asm(LLVMValueRef i)
{
    LLVMValueRef v = LLVMGetCalledValue(i);
    return v && LLVMGetValueKind(v) == LLVMInlineAsmValueKind;
}

void isym_call(isym_pass *P, LLVMValueRef i)
{
    if (is_asm(i))
        return;
    LLVMValueRef f = inst_callee(i), called = LLVMGetCalledValue(i);
    if (f && LLVMGetIntrinsicID(f)) {
        call_intrinsic(P, i, f);
        return;
    }
    if (f && LLVMIsDeclaration(f)) {
        call_external(P, i, f);
        return;
    }
    if (f && inst_name_starts(f, "__ctg_"))
        return; /* ctestgen's own helpers */
    pass_args(P, i, called);
    take_ret(P, i, called);
    P->st->calls++;
}
