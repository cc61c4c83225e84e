/*
 * inst_sym.c - the driver of the symbolic pass (see inst_sym.h): the shadow
 * map, the walk over each function in reverse post-order (so the shadow of
 * every operand but a phi's is known when an instruction is visited), the
 * per-opcode dispatch table and the second phase that fills shadow phis.
 */
#include "inst_sym.h"

#include <llvm-c/DebugInfo.h>
#include <string.h>

#include "../base/mem.h"
#include "../runtime/rt_protocol.h"

/* ==== shadows and positions =================================================== */

LLVMValueRef isym_shadow(isym_pass *P, LLVMValueRef v)
{
    LLVMValueRef s = isym_map_get(&P->shadow, v);
    return s ? s : P->zero;
}

void isym_set_shadow(isym_pass *P, LLVMValueRef v, LLVMValueRef s)
{
    if (!s || isym_is_zero(s))
        return;
    if (!isym_map_put(&P->shadow, v, s))
        P->oom = true;
}

bool isym_is_zero(LLVMValueRef s)
{
    return LLVMIsAConstantInt(s) && LLVMConstIntGetZExtValue(s) == 0;
}

void isym_before(isym_pass *P, LLVMValueRef i)
{
    LLVMPositionBuilderBefore(P->b, i);
    LLVMSetCurrentDebugLocation2(P->b, LLVMInstructionGetDebugLoc(i));
}

void isym_after(isym_pass *P, LLVMValueRef i)
{
    LLVMValueRef next = LLVMGetNextInstruction(i);
    LLVMPositionBuilderBefore(P->b, next);
    LLVMSetCurrentDebugLocation2(P->b, LLVMInstructionGetDebugLoc(i));
}

void isym_add_phi(isym_pass *P, LLVMValueRef phi)
{
    if (ctg_grow((void **)&P->phis, &P->cap_phis, P->n_phis + 1, sizeof *P->phis) != 0) {
        P->oom = true;
        return;
    }
    P->phis[P->n_phis++] = phi;
}

/* Second phase: the incoming values of every shadow phi of the function. */
static void fill_phis(isym_pass *P)
{
    for (size_t i = 0; i < P->n_phis; i++) {
        LLVMValueRef phi = P->phis[i], sphi = isym_map_get(&P->shadow, phi);
        if (!sphi)
            continue;
        unsigned n = LLVMCountIncoming(phi);
        for (unsigned k = 0; k < n; k++) {
            LLVMValueRef v = isym_shadow(P, LLVMGetIncomingValue(phi, k));
            LLVMBasicBlockRef bb = LLVMGetIncomingBlock(phi, k);
            LLVMAddIncoming(sphi, &v, &bb, 1);
        }
    }
}

/* ==== dispatch ================================================================== */

#define SYM_MAX_OPCODE 80

/* Handler per LLVMOpcode; NULL: no shadow, operands' shadows lost. */
static isym_handler handlers[SYM_MAX_OPCODE];
/* Opcodes that never need anything (no value, or no symbolic operand). */
static bool ignored[SYM_MAX_OPCODE];

static void init_tables(void)
{
    static const LLVMOpcode bin[] = {LLVMAdd,  LLVMSub,  LLVMMul,  LLVMUDiv, LLVMSDiv, LLVMURem,
                                     LLVMSRem, LLVMShl,  LLVMLShr, LLVMAShr, LLVMAnd,  LLVMOr,
                                     LLVMXor,  LLVMFAdd, LLVMFSub, LLVMFMul, LLVMFDiv, LLVMFRem};
    static const LLVMOpcode casts[] = {LLVMTrunc,   LLVMZExt,     LLVMSExt,     LLVMFPToUI,
                                       LLVMFPToSI,  LLVMUIToFP,   LLVMSIToFP,   LLVMFPTrunc,
                                       LLVMFPExt,   LLVMPtrToInt, LLVMIntToPtr, LLVMBitCast,
                                       LLVMAddrSpaceCast, LLVMFreeze};
    static const LLVMOpcode none[] = {LLVMUnreachable, LLVMFence, LLVMIndirectBr, LLVMVAArg,
                                      LLVMResume, LLVMLandingPad};
    for (size_t k = 0; k < sizeof bin / sizeof *bin; k++)
        handlers[bin[k]] = isym_binop;
    for (size_t k = 0; k < sizeof casts / sizeof *casts; k++)
        handlers[casts[k]] = isym_cast;
    for (size_t k = 0; k < sizeof none / sizeof *none; k++)
        ignored[none[k]] = true;
    handlers[LLVMFNeg] = isym_fneg;
    handlers[LLVMICmp] = isym_icmp;
    handlers[LLVMFCmp] = isym_fcmp;
    handlers[LLVMSelect] = isym_select;
    handlers[LLVMPHI] = isym_phi;
    handlers[LLVMGetElementPtr] = isym_gep;
    handlers[LLVMBr] = isym_br;
    handlers[LLVMSwitch] = isym_switch;
    handlers[LLVMLoad] = isym_load;
    handlers[LLVMStore] = isym_store;
    handlers[LLVMAlloca] = isym_alloca;
    handlers[LLVMAtomicRMW] = isym_atomic;
    handlers[LLVMAtomicCmpXchg] = isym_atomic;
    handlers[LLVMCall] = isym_call;
    handlers[LLVMRet] = isym_ret;
}

/* Instruments one instruction by its opcode. */
static void visit(isym_pass *P, LLVMValueRef i)
{
    unsigned op = (unsigned)LLVMGetInstructionOpcode(i);
    if (op < SYM_MAX_OPCODE && handlers[op]) {
        handlers[op](P, i);
        return;
    }
    if (op < SYM_MAX_OPCODE && ignored[op])
        return;
    isym_lose_operands(P, i); /* vectors, aggregates, ...: concrete result */
}

/* ==== functions =================================================================== */

/* The reachable blocks of f in reverse post-order into order[]; returns
 * their number, or -1 on oom.  Unreachable blocks never run and are left
 * alone (a phi's input from one gets shadow 0). */
static int64_t block_order(const inst_fn *f, LLVMBasicBlockRef *order)
{
    uint32_t n = f->n_blocks, top = 0, post = 0;
    uint32_t *stack = ctg_calloc(n + 1, sizeof *stack), *next = ctg_calloc(n + 1, sizeof *next);
    bool *seen = ctg_calloc(n + 1, sizeof *seen);
    if (!stack || !next || !seen) {
        ctg_free(stack), ctg_free(next), ctg_free(seen);
        return -1;
    }
    if (n) {
        stack[top++] = 0;
        seen[0] = true;
    }
    while (top) { /* iterative DFS; blocks leave the stack in post-order */
        uint32_t b = stack[top - 1];
        LLVMValueRef t = LLVMGetBasicBlockTerminator(f->blocks[b]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        if (next[b] < ns) {
            int32_t s = inst_block_index(f, LLVMGetSuccessor(t, next[b]++));
            if (s >= 0 && !seen[s]) {
                seen[s] = true;
                stack[top++] = (uint32_t)s;
            }
            continue;
        }
        order[post++] = f->blocks[b];
        top--;
    }
    for (uint32_t i = 0; i < post / 2; i++) { /* reverse: RPO */
        LLVMBasicBlockRef t = order[i];
        order[i] = order[post - 1 - i];
        order[post - 1 - i] = t;
    }
    ctg_free(stack), ctg_free(next), ctg_free(seen);
    return post;
}

/* ==== no undefined behaviour to exploit ========================================= */

/* Rebuilds integer arithmetic without nsw/nuw/exact, so -O2 cannot use
 * overflow (undefined in C) to compute something other than the wrapping
 * arithmetic the shadow expressions describe.  LLVM 14's C API cannot clear
 * the flags in place. */
static void strip_poison_flags(isym_pass *P, LLVMBasicBlockRef bb)
{
    typedef LLVMValueRef (*build2)(LLVMBuilderRef, LLVMValueRef, LLVMValueRef, const char *);
    LLVMValueRef next;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
        next = LLVMGetNextInstruction(i);
        build2 mk = NULL;
        switch (LLVMGetInstructionOpcode(i)) {
        case LLVMAdd: mk = LLVMBuildAdd; break;
        case LLVMSub: mk = LLVMBuildSub; break;
        case LLVMMul: mk = LLVMBuildMul; break;
        case LLVMShl: mk = LLVMBuildShl; break;
        case LLVMUDiv: mk = LLVMBuildUDiv; break;
        case LLVMSDiv: mk = LLVMBuildSDiv; break;
        case LLVMLShr: mk = LLVMBuildLShr; break;
        case LLVMAShr: mk = LLVMBuildAShr; break;
        default: break;
        }
        if (!mk)
            continue;
        isym_before(P, i);
        LLVMValueRef r = mk(P->b, LLVMGetOperand(i, 0), LLVMGetOperand(i, 1), "");
        LLVMReplaceAllUsesWith(i, r);
        LLVMInstructionEraseFromParent(i);
    }
}

/* Instruments every original instruction of bb: from first (the entry
 * block's first original one, past the prologue's) or the block's first. */
static bool visit_block(isym_pass *P, LLVMBasicBlockRef bb, LLVMValueRef first)
{
    size_t n = 0, cap = 0;
    LLVMValueRef *insts = NULL;
    if (!first || LLVMGetInstructionParent(first) != bb)
        first = LLVMGetFirstInstruction(bb);
    for (LLVMValueRef i = first; i; i = LLVMGetNextInstruction(i)) {
        if (ctg_grow((void **)&insts, &cap, n + 1, sizeof *insts) != 0) {
            ctg_free(insts);
            return false;
        }
        insts[n++] = i;
    }
    for (size_t k = 0; k < n; k++)
        visit(P, insts[k]);
    ctg_free(insts);
    return true;
}

/* Instruments function f. */
static bool instrument_fn(isym_pass *P, const inst_fn *f)
{
    LLVMBasicBlockRef *order = ctg_calloc(f->n_blocks + 1, sizeof *order);
    int64_t n = order ? block_order(f, order) : -1;
    if (n < 0) {
        ctg_free(order);
        return false;
    }
    isym_map_clear(&P->shadow);
    P->n_phis = 0;
    P->fn = f->fn;
    for (uint32_t k = 0; k < f->n_blocks; k++)
        strip_poison_flags(P, f->blocks[k]);
    /* the prologue's own code (argument shadows, the libFuzzer input's
     * size cast) is not the program's: it is not instrumented */
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f->fn));
    isym_prologue(P, f->fn);
    for (int64_t k = 0; k < n; k++)
        if (!visit_block(P, order[k], first)) {
            ctg_free(order);
            return false;
        }
    fill_phis(P);
    ctg_free(order);
    P->st->functions++;
    return !P->oom;
}

/* ==== entry point ================================================================== */

/* Checks that the walk agrees with the program database. */
static bool check_db(const inst_walk *w, const progdb *db, ctg_err *e)
{
    if (w->n_edges == db->n_edges && w->n_branches == db->n_branches && w->n_cmp == db->n_cmp &&
        w->n_errors == db->n_errors)
        return true;
    return err_set(e, "instrumenter: module and program database disagree (%u/%u edges); "
                      "rebuild with --no-cache", w->n_edges, db->n_edges);
}

/* Maps every br and switch of the walk to its site. */
static bool map_sites(isym_pass *P, const inst_walk *w)
{
    for (size_t i = 0; i < w->n_sites; i++) {
        inst_site *s = &w->sites[i];
        if ((s->kind == SITE_BR || s->kind == SITE_SWITCH) && !isym_map_put(&P->sites, s->inst, s))
            return false;
    }
    return true;
}

/* Releases what the pass allocated. */
static void pass_release(isym_pass *P)
{
    if (P->b)
        LLVMDisposeBuilder(P->b);
    if (P->td)
        LLVMDisposeTargetData(P->td);
    isym_map_release(&P->shadow);
    isym_map_release(&P->sites);
    ctg_free(P->phis);
}

bool inst_sym(LLVMModuleRef m, const progdb *db, inst_sym_stats *st, ctg_err *e)
{
    static bool tables;
    if (!tables) {
        init_tables();
        tables = true;
    }
    inst_sym_stats dummy;
    isym_pass P = {.m = m, .st = st ? st : &dummy, .harness = db->harness};
    memset(P.st, 0, sizeof *P.st);
    inst_walk w = {0};
    bool ok = inst_walk_module(m, &w, e) && check_db(&w, db, e) && isym_rt_init(&P, e);
    if (ok && !map_sites(&P, &w))
        ok = err_set(e, "instrumenter: out of memory");
    if (ok) {
        P.b = LLVMCreateBuilderInContext(P.ctx);
        for (size_t k = 0; ok && k < w.n_fns; k++)
            if (!instrument_fn(&P, &w.fns[k]))
                ok = err_set(e, "instrumenter: out of memory in the symbolic pass");
    }
    inst_walk_release(&w);
    pass_release(&P);
    return ok;
}
