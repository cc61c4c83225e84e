/*
 * inst_sym_ops.c - shadow code of the value-computing instructions of the
 * symbolic pass: integer and floating-point arithmetic, comparisons, casts,
 * select, phi, getelementptr, and the decisions (br, switch) that make the
 * path constraint.
 *
 * Each handler computes its shadow right after the instruction (phi: a
 * shadow phi next to it) and does nothing at all when every operand's shadow
 * is the constant 0, so code that never touches input stays as it was.
 * Operands the runtime cannot represent (vectors, integers wider than 64
 * bits, x86_fp80) make the result concrete; a symbolic operand lost that way
 * is noted at run time (CTG_STF_CONCRETIZED).
 */
#include "inst_sym.h"

#include "../base/mem.h"
#include "../runtime/rt_symtrace.h"

/* Trace op of an LLVM binary opcode (0: none). */
static unsigned bin_sop(LLVMOpcode op)
{
    switch (op) {
    case LLVMAdd: return CTG_SOP_ADD;
    case LLVMSub: return CTG_SOP_SUB;
    case LLVMMul: return CTG_SOP_MUL;
    case LLVMUDiv: return CTG_SOP_UDIV;
    case LLVMSDiv: return CTG_SOP_SDIV;
    case LLVMURem: return CTG_SOP_UREM;
    case LLVMSRem: return CTG_SOP_SREM;
    case LLVMShl: return CTG_SOP_SHL;
    case LLVMLShr: return CTG_SOP_LSHR;
    case LLVMAShr: return CTG_SOP_ASHR;
    case LLVMAnd: return CTG_SOP_AND;
    case LLVMOr: return CTG_SOP_OR;
    case LLVMXor: return CTG_SOP_XOR;
    case LLVMFAdd: return CTG_SOP_FADD;
    case LLVMFSub: return CTG_SOP_FSUB;
    case LLVMFMul: return CTG_SOP_FMUL;
    case LLVMFDiv: return CTG_SOP_FDIV;
    default: return 0; /* frem: no trace op */
    }
}

/* True when both shadows of a two-operand instruction are constant 0. */
static bool both_zero(isym_pass *P, LLVMValueRef i, LLVMValueRef *sa, LLVMValueRef *sb)
{
    *sa = isym_shadow(P, LLVMGetOperand(i, 0));
    *sb = isym_shadow(P, LLVMGetOperand(i, 1));
    return isym_is_zero(*sa) && isym_is_zero(*sb);
}

/* Emits a two-operand builder call (bin/icmp/fcmp) after i. */
static void two_operand(isym_pass *P, LLVMValueRef i, isym_rt f, unsigned code, unsigned w,
                        LLVMValueRef sa, LLVMValueRef sb)
{
    isym_after(P, i);
    LLVMValueRef args[6] = {isym_c32(P, code), sa, sb, isym_bits64(P, LLVMGetOperand(i, 0)),
                            isym_bits64(P, LLVMGetOperand(i, 1)), isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, f, args));
    P->st->shadowed++;
}

void isym_binop(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef sa, sb;
    if (both_zero(P, i, &sa, &sb))
        return;
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    unsigned op = bin_sop(LLVMGetInstructionOpcode(i));
    if (!w || !op) {
        isym_lose_operands(P, i);
        return;
    }
    two_operand(P, i, SR_BIN, op, w, sa, sb);
}

void isym_fneg(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef s = isym_shadow(P, LLVMGetOperand(i, 0));
    if (isym_is_zero(s))
        return;
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if (!isym_is_fp(LLVMTypeOf(i))) {
        isym_lose_operands(P, i);
        return;
    }
    isym_after(P, i);
    LLVMValueRef args[4] = {isym_c32(P, CTG_SOP_FNEG), s, isym_c32(P, w), isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_CAST, args));
    P->st->shadowed++;
}

void isym_icmp(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef sa, sb;
    if (both_zero(P, i, &sa, &sb))
        return;
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(LLVMGetOperand(i, 0)));
    if (!w || LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMIntegerTypeKind) {
        isym_lose_operands(P, i);
        return;
    }
    two_operand(P, i, SR_ICMP, (unsigned)LLVMGetICmpPredicate(i), w, sa, sb);
}

void isym_fcmp(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef sa, sb;
    if (both_zero(P, i, &sa, &sb))
        return;
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
    if (!isym_is_fp(t)) {
        isym_lose_operands(P, i);
        return;
    }
    two_operand(P, i, SR_FCMP, (unsigned)LLVMGetFCmpPredicate(i), isym_scalar_bits(P, t), sa, sb);
}

/* ==== casts ======================================================================== */

/* Trace op of a cast between scalars of widths from -> to; 0 for a cast
 * whose shadow passes through unchanged, -1 when unsupported. */
static int cast_sop(isym_pass *P, LLVMOpcode op, LLVMTypeRef ft, LLVMTypeRef tt)
{
    unsigned from = isym_scalar_bits(P, ft), to = isym_scalar_bits(P, tt);
    if (!from || !to)
        return -1;
    switch (op) {
    case LLVMTrunc: return CTG_SOP_TRUNC;
    case LLVMZExt: return CTG_SOP_ZEXT;
    case LLVMSExt: return CTG_SOP_SEXT;
    case LLVMFPToUI: return isym_is_fp(ft) ? CTG_SOP_FPTOUI : -1;
    case LLVMFPToSI: return isym_is_fp(ft) ? CTG_SOP_FPTOSI : -1;
    case LLVMUIToFP: return isym_is_fp(tt) ? CTG_SOP_UITOFP : -1;
    case LLVMSIToFP: return isym_is_fp(tt) ? CTG_SOP_SITOFP : -1;
    case LLVMFPTrunc: return isym_is_fp(ft) && isym_is_fp(tt) ? CTG_SOP_FPTRUNC : -1;
    case LLVMFPExt: return isym_is_fp(ft) && isym_is_fp(tt) ? CTG_SOP_FPEXT : -1;
    case LLVMPtrToInt:
    case LLVMIntToPtr: return from == to ? 0 : from < to ? CTG_SOP_ZEXT : CTG_SOP_TRUNC;
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMFreeze: return from == to ? 0 : -1;
    default: return -1;
    }
}

void isym_cast(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef v = LLVMGetOperand(i, 0), s = isym_shadow(P, v);
    if (isym_is_zero(s))
        return;
    LLVMTypeRef ft = LLVMTypeOf(v), tt = LLVMTypeOf(i);
    int op = cast_sop(P, LLVMGetInstructionOpcode(i), ft, tt);
    if (op < 0) {
        isym_lose_operands(P, i);
        return;
    }
    if (op == 0) {
        isym_set_shadow(P, i, s);
        return;
    }
    isym_after(P, i);
    LLVMValueRef args[4] = {isym_c32(P, (unsigned)op), s, isym_c32(P, isym_scalar_bits(P, ft)),
                            isym_c32(P, isym_scalar_bits(P, tt))};
    isym_set_shadow(P, i, isym_rt_call(P, SR_CAST, args));
    P->st->shadowed++;
}

/* ==== select and phi ================================================================ */

void isym_select(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef c = LLVMGetOperand(i, 0), t = LLVMGetOperand(i, 1), f = LLVMGetOperand(i, 2);
    LLVMValueRef sc = isym_shadow(P, c), st = isym_shadow(P, t), sf = isym_shadow(P, f);
    if (isym_is_zero(sc) && isym_is_zero(st) && isym_is_zero(sf))
        return;
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(i));
    if (!w || LLVMGetTypeKind(LLVMTypeOf(c)) != LLVMIntegerTypeKind) {
        isym_lose_operands(P, i);
        return;
    }
    isym_after(P, i);
    if (isym_is_zero(sc)) { /* the shadow of the chosen side */
        isym_set_shadow(P, i, LLVMBuildSelect(P->b, c, st, sf, ""));
        return;
    }
    LLVMValueRef args[7] = {sc, st, sf, LLVMBuildZExt(P->b, c, P->t_i32, ""), isym_bits64(P, t),
                            isym_bits64(P, f), isym_c32(P, w)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_ITE, args));
    P->st->shadowed++;
}

void isym_phi(isym_pass *P, LLVMValueRef i)
{
    if (!isym_scalar_bits(P, LLVMTypeOf(i)))
        return; /* aggregates and vectors stay concrete */
    LLVMPositionBuilderBefore(P->b, i);
    LLVMSetCurrentDebugLocation2(P->b, NULL);
    LLVMValueRef sphi = LLVMBuildPhi(P->b, P->t_i32, "");
    if (!isym_map_put(&P->shadow, i, sphi)) {
        P->oom = true;
        return;
    }
    isym_add_phi(P, i);
}

/* ==== getelementptr ========================================================== */

/* State of the walk over a GEP's indices. */
typedef struct gep_walk {
    LLVMValueRef acc;     /* shadow of the symbolic offset so far (i32)    */
    LLVMValueRef acc_val; /* its concrete value (i64)                      */
    LLVMValueRef obj_lo;  /* start of the indexed array (i64) or 0          */
    uint64_t obj_size;
    bool any;
} gep_walk;

/* Adds index k (value idx, element stride) to the walk when it is symbolic;
 * arr is the array type it indexes (NULL for the pointer operand). */
static void gep_index(isym_pass *P, LLVMValueRef i, gep_walk *g, unsigned k, LLVMTypeRef arr,
                      uint64_t stride)
{
    LLVMValueRef idx = LLVMGetOperand(i, k), s = isym_shadow(P, idx);
    if (isym_is_zero(s))
        return;
    LLVMValueRef idx64 = isym_int64(P, idx, true);
    LLVMValueRef args[5] = {g->acc, s, idx64, isym_c32(P, LLVMGetIntTypeWidth(LLVMTypeOf(idx))),
                            isym_c64(P, stride)};
    g->acc = isym_rt_call(P, SR_GEP_IDX, args);
    g->acc_val = LLVMBuildAdd(P->b, g->acc_val, LLVMBuildMul(P->b, idx64, isym_c64(P, stride), ""), "");
    if (arr && !g->obj_size) { /* the outermost array a symbolic index selects in */
        LLVMValueRef idxs[16];
        unsigned n = k < 16 ? k : 15;
        for (unsigned j = 1; j < n; j++)
            idxs[j - 1] = LLVMGetOperand(i, j);
        idxs[n - 1] = LLVMConstInt(LLVMTypeOf(idx), 0, 0);
        LLVMValueRef start = LLVMBuildGEP2(P->b, LLVMGetGEPSourceElementType(i),
                                           LLVMGetOperand(i, 0), idxs, n, "");
        g->obj_lo = LLVMBuildPtrToInt(P->b, start, P->t_i64, "");
        g->obj_size = LLVMABISizeOfType(P->td, arr);
    }
    g->any = true;
}

/* Walks the indices of GEP i; false when one cannot be handled. */
static bool gep_indices(isym_pass *P, LLVMValueRef i, gep_walk *g)
{
    unsigned n = (unsigned)LLVMGetNumOperands(i);
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(i);
    gep_index(P, i, g, 1, NULL, LLVMABISizeOfType(P->td, cur));
    for (unsigned k = 2; k < n; k++) {
        LLVMTypeKind kind = LLVMGetTypeKind(cur);
        if (kind == LLVMStructTypeKind) { /* constant field index: no shadow */
            LLVMValueRef f = LLVMGetOperand(i, k);
            if (!LLVMIsAConstantInt(f))
                return false;
            cur = LLVMStructGetTypeAtIndex(cur, (unsigned)LLVMConstIntGetZExtValue(f));
            continue;
        }
        if (kind != LLVMArrayTypeKind)
            return false;
        LLVMTypeRef elem = LLVMGetElementType(cur);
        gep_index(P, i, g, k, k < 16 ? cur : NULL, LLVMABISizeOfType(P->td, elem));
        cur = elem;
    }
    return true;
}

/* True when some index of GEP i may be symbolic. */
static bool gep_symbolic_index(isym_pass *P, LLVMValueRef i)
{
    unsigned n = (unsigned)LLVMGetNumOperands(i);
    for (unsigned k = 1; k < n; k++)
        if (!isym_is_zero(isym_shadow(P, LLVMGetOperand(i, k))))
            return true;
    return false;
}

void isym_gep(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef base = LLVMGetOperand(i, 0), sbase = isym_shadow(P, base);
    bool idx = gep_symbolic_index(P, i);
    if (isym_is_zero(sbase) && !idx)
        return;
    if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMPointerTypeKind) {
        isym_lose_operands(P, i);
        return;
    }
    isym_after(P, i);
    gep_walk g = {P->zero, isym_c64(P, 0), isym_c64(P, 0), 0, false};
    if (!gep_indices(P, i, &g)) {
        isym_lose_operands(P, i);
        return;
    }
    LLVMValueRef args[7] = {g.acc, sbase, isym_bits64(P, base), isym_bits64(P, i), g.acc_val,
                            g.obj_lo, isym_c64(P, g.obj_size)};
    isym_set_shadow(P, i, isym_rt_call(P, SR_GEP_END, args));
    P->st->shadowed++;
}

/* ==== decisions ================================================================== */

/* The walk's site of a br/switch, or NULL when it has none. */
static const inst_site *site_of(isym_pass *P, LLVMValueRef i)
{
    return isym_map_get(&P->sites, i);
}

void isym_br(isym_pass *P, LLVMValueRef i)
{
    if (!LLVMIsConditional(i))
        return;
    LLVMValueRef c = LLVMGetCondition(i), s = isym_shadow(P, c);
    const inst_site *site = site_of(P, i);
    if (isym_is_zero(s) || !site)
        return;
    isym_before(P, i);
    LLVMValueRef args[3] = {s, LLVMBuildZExt(P->b, c, P->t_i32, ""), isym_c32(P, site->first_edge)};
    isym_rt_call(P, SR_BRANCH, args);
    P->st->branches++;
}

/* Constant i64* to a private array of the case values of switch sw. */
static LLVMValueRef case_values(isym_pass *P, LLVMValueRef sw, uint32_t ncases)
{
    if (!ncases)
        return LLVMConstNull(P->t_ptr64);
    LLVMValueRef *vals = ctg_calloc(ncases, sizeof *vals);
    if (!vals) {
        P->oom = true;
        return LLVMConstNull(P->t_ptr64);
    }
    for (uint32_t k = 0; k < ncases; k++)
        vals[k] = LLVMConstInt(P->t_i64, LLVMConstIntGetZExtValue(LLVMGetOperand(sw, 2 + 2 * k)), 0);
    LLVMValueRef init = LLVMConstArray(P->t_i64, vals, ncases);
    ctg_free(vals);
    LLVMValueRef g = LLVMAddGlobal(P->m, LLVMTypeOf(init), "ctg.sym.cases");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return LLVMConstBitCast(g, P->t_ptr64);
}

void isym_switch(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef v = LLVMGetOperand(i, 0), s = isym_shadow(P, v);
    const inst_site *site = site_of(P, i);
    if (isym_is_zero(s) || !site)
        return;
    unsigned w = isym_scalar_bits(P, LLVMTypeOf(v));
    if (!w) {
        isym_lose_operands(P, i);
        return;
    }
    isym_before(P, i);
    uint32_t ncases = site->n_edges - 1;
    LLVMValueRef args[6] = {s, isym_bits64(P, v), isym_c32(P, site->first_edge), isym_c32(P, ncases),
                            case_values(P, i, ncases), isym_c32(P, w)};
    isym_rt_call(P, SR_SWITCH, args);
    P->st->switches++;
}
