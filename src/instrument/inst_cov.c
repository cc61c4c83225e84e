/*
 * inst_cov.c - the coverage and branch-distance pass that makes prog.cov
 * (DESIGN.md section 4, seed 001's branch distances computed by the runtime).
 *
 * For every site of the canonical walk (inst_sites.c):
 *   br i1 %c      inline  cov[base + !c] += 1 (saturating) - in a call-free
 *                 inner loop (inst_loops.h) two counters in registers,
 *                 added to the map where the loop exits - then
 *                 __ctg_cmp / __ctg_fcmp / __ctg_cmp_str / __ctg_br by what
 *                 feeds %c; in a function over INST_LEAN_FUNCTION
 *                 instructions __ctg_cmp / __ctg_br count the edge
 *                 themselves (CTG_CMP_COUNT) and there is no inline counter,
 *                 and a compare with a constant calls __ctg_cmpc(k, a),
 *                 the rest in a table (CTG_SYM_CMPC_TAB);
 *   switch        __ctg_switch with a constant array of the case values
 *                 (wider than 64 bits: inline coverage of the taken edge);
 *   strcmp ...    replaced by the __ctg_ wrapper with the site id;
 *   reach_error   __ctg_error(site) inserted before the call;
 *   inline asm    left alone, counted.
 * Then fork/vfork/malloc/calloc/realloc are redirected to the runtime and the
 * __ctg_n_* constants defined.
 */
#include <llvm-c/DebugInfo.h>
#include <stdio.h>
#include <string.h>

#include "../base/mem.h"
#include "../runtime/rt_protocol.h"
#include "inst_hooks.h"
#include "inst_loops.h"
#include "inst_sites.h"
#include "instrument.h"

/* A branch counted in registers: its edges' counts since the last exit
 * of its loop, in two allocas of the function's entry (SSA values after
 * -O2's SROA). */
typedef struct cov_reg {
    uint32_t func, loop, edge;
    LLVMValueRef count[2];
} cov_reg;

/* Pass state. */
typedef struct cov_pass {
    inst_hooks h;
    LLVMBuilderRef b;
    LLVMBuilderRef eb; /* the register counters' allocas, in a function's entry */
    inst_stats *st;
    const inst_walk *w;
    bool *lean; /* per function of the walk: over INST_LEAN_FUNCTION */
    inst_loops *loops; /* per function of the walk (NULL: none counts in registers) */
    cov_reg *regs;
    size_t n_regs, cap_regs;
    ctg_cmpc *tab; /* the compact compares' constants (CTG_HOOK_CMPC) */
    size_t n_tab, cap_tab;
} cov_pass;

static LLVMValueRef c32(cov_pass *P, uint64_t v) { return LLVMConstInt(P->h.t_i32, v, 0); }

/* Whether v (an integer or pointer operand) fits the 32-bit hooks. */
static bool fits32(cov_pass *P, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? P->h.ptr_bits <= 32
                                                     : LLVMGetIntTypeWidth(t) <= 32;
}

/* Integer or pointer v as an i32 (narrow) or i64, zero- or sign-extended:
 * the operand of a hook's 32- or 64-bit form. */
static LLVMValueRef hook_int(cov_pass *P, LLVMValueRef v, bool narrow, bool sign)
{
    LLVMTypeRef t = narrow ? P->h.t_i32 : P->h.t_i64;
    if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind)
        return LLVMBuildPtrToInt(P->b, v, t, "");
    return LLVMBuildIntCast2(P->b, v, t, sign, "");
}

/* The bits argument of __ctg_cmp for operand v: its width, with
 * CTG_CMP_PTR for a pointer. */
static unsigned width_of(cov_pass *P, LLVMValueRef v)
{
    LLVMTypeRef t = LLVMTypeOf(v);
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? P->h.ptr_bits | CTG_CMP_PTR
                                                     : LLVMGetIntTypeWidth(t);
}

/* Puts the builder before inst, with inst's debug location. */
static void position(cov_pass *P, LLVMValueRef inst)
{
    LLVMPositionBuilderBefore(P->b, inst);
    LLVMSetCurrentDebugLocation2(P->b, LLVMInstructionGetDebugLoc(inst));
}

/* ==== branches ============================================================== */

/* Whether the hook of site s counts its taken edge (a lean function's
 * integer comparison or plain boolean; the others keep the inline counter). */
static bool hook_counts(const cov_pass *P, const inst_site *s)
{
    return P->lean && P->lean[s->func] && (s->cond == COND_ICMP || s->cond == COND_BOOL);
}

/* A call of a distance hook: guarded (called only in runs that record
 * distances or comparisons) unless it counts the taken edge. */
static void hook(cov_pass *P, inst_hook id, LLVMValueRef *args, bool count)
{
    if (count)
        inst_hook_call(&P->h, P->b, id, args);
    else
        inst_hook_call_guarded(&P->h, P->b, id, args);
}

/* The compact form of a counting compare c with a constant right operand
 * of at most 64 bits (CTG_HOOK_CMPC): its constants go to the table;
 * false (nothing emitted) when c has no such operand or memory is short. */
static bool compact_cmp(cov_pass *P, const inst_site *s, LLVMValueRef c)
{
    LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
    if (!LLVMIsAConstantInt(b) || LLVMGetIntTypeWidth(LLVMTypeOf(b)) > 64)
        return false;
    if (P->n_tab == P->cap_tab) {
        size_t cap = P->cap_tab ? 2 * P->cap_tab : 256;
        ctg_cmpc *t = ctg_realloc(P->tab, cap * sizeof *t);
        if (!t)
            return false;
        P->tab = t, P->cap_tab = cap;
    }
    P->tab[P->n_tab] = (ctg_cmpc){LLVMConstIntGetZExtValue(b), s->first_edge,
                                  (uint32_t)LLVMGetICmpPredicate(c), width_of(P, a) | CTG_CMP_COUNT,
                                  (uint32_t)s->cmp_site};
    bool narrow = fits32(P, a);
    LLVMValueRef args[2] = {c32(P, (uint32_t)P->n_tab++), hook_int(P, a, narrow, false)};
    inst_hook_call(&P->h, P->b, narrow ? HOOK_CMPC32 : HOOK_CMPC, args);
    return true;
}

/* Defines CTG_SYM_CMPC_TAB, the compact compares' table, when there are
 * any (inst_hooks_init refused a program with the name).  False with e
 * set when out of memory. */
static bool define_cmpc_tab(cov_pass *P, ctg_err *e)
{
    if (!P->n_tab)
        return true;
    LLVMTypeRef f[5] = {P->h.t_i64, P->h.t_i32, P->h.t_i32, P->h.t_i32, P->h.t_i32};
    LLVMTypeRef t = LLVMStructTypeInContext(P->h.ctx, f, 5, 0);
    LLVMValueRef *rows = ctg_calloc(P->n_tab, sizeof *rows);
    if (!rows)
        return err_set(e, "out of memory");
    for (size_t i = 0; i < P->n_tab; i++) {
        const ctg_cmpc *c = &P->tab[i];
        LLVMValueRef v[5] = {LLVMConstInt(P->h.t_i64, c->b, 0), c32(P, c->base), c32(P, c->pred),
                             c32(P, c->bits), c32(P, c->site)};
        rows[i] = LLVMConstNamedStruct(t, v, 5);
    }
    LLVMValueRef init = LLVMConstArray(t, rows, (unsigned)P->n_tab);
    ctg_free(rows);
    LLVMValueRef g = LLVMAddGlobal(P->h.m, LLVMTypeOf(init), CTG_SYM_CMPC_TAB);
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    return true;
}

/* Distance hook of a br whose condition is c; with `count` the hook also
 * counts the taken edge. */
static void br_distance(cov_pass *P, const inst_site *s, LLVMValueRef c, bool count)
{
    LLVMValueRef base = c32(P, s->first_edge);
    if (s->cond == COND_ICMP && count && compact_cmp(P, s, c)) {
        P->st->cmp_hooks++;
    } else if (s->cond == COND_ICMP) {
        LLVMValueRef a = LLVMGetOperand(c, 0), b = LLVMGetOperand(c, 1);
        bool narrow = fits32(P, a);
        LLVMValueRef args[6] = {base,
                                c32(P, LLVMGetICmpPredicate(c)),
                                hook_int(P, a, narrow, false),
                                hook_int(P, b, narrow, false),
                                c32(P, width_of(P, a) | (count ? CTG_CMP_COUNT : 0u)),
                                c32(P, (uint32_t)s->cmp_site)};
        hook(P, narrow ? HOOK_CMP32 : HOOK_CMP, args, count);
        P->st->cmp_hooks++;
    } else if (s->cond == COND_FCMP) {
        LLVMValueRef args[5] = {base, c32(P, LLVMGetFCmpPredicate(c)),
                                LLVMBuildFPCast(P->b, LLVMGetOperand(c, 0), P->h.t_double, ""),
                                LLVMBuildFPCast(P->b, LLVMGetOperand(c, 1), P->h.t_double, ""),
                                c32(P, (uint32_t)s->cmp_site)};
        hook(P, HOOK_FCMP, args, false);
        P->st->cmp_hooks++;
    } else if (s->cond == COND_STR) {
        LLVMValueRef res = LLVMGetOperand(c, (unsigned)s->str_operand);
        LLVMValueRef rhs = LLVMGetOperand(c, (unsigned)(1 - s->str_operand));
        bool narrow = fits32(P, res) && fits32(P, rhs);
        LLVMValueRef args[5] = {base, c32(P, s->str_pred),
                                hook_int(P, res, narrow, true),
                                hook_int(P, rhs, narrow, true),
                                c32(P, (uint32_t)s->cmp_site)};
        hook(P, narrow ? HOOK_CMP_STR32 : HOOK_CMP_STR, args, false);
    } else {
        LLVMValueRef flag = count ? LLVMBuildSelect(P->b, c, c32(P, 1u | CTG_BR_COUNT),
                                                    c32(P, CTG_BR_COUNT), "")
                                  : LLVMBuildZExt(P->b, c, P->h.t_i32, "");
        LLVMValueRef args[2] = {base, flag};
        hook(P, HOOK_BR, args, count);
    }
}

/* Counts the edges of br site s in registers when it is in a loop that may
 * (the builder is before the br); false when it is not. */
static bool cov_br_in_loop(cov_pass *P, const inst_site *s, LLVMValueRef c)
{
    const inst_loops *L = P->loops ? &P->loops[s->func] : NULL;
    if (!L || !L->loop || s->block >= L->n_blocks || !L->loop[s->block] ||
        ctg_grow((void **)&P->regs, &P->cap_regs, P->n_regs + 1, sizeof *P->regs) != 0)
        return false;
    cov_reg *r = &P->regs[P->n_regs++];
    *r = (cov_reg){s->func, L->loop[s->block], s->first_edge, {NULL, NULL}};
    LLVMValueRef zero = c32(P, 0);
    LLVMPositionBuilderBefore(P->eb, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(P->w->fns[s->func].fn)));
    for (int k = 0; k < 2; k++) {
        r->count[k] = LLVMBuildAlloca(P->eb, P->h.t_i32, k ? "ctg.other" : "ctg.taken");
        LLVMBuildStore(P->eb, zero, r->count[k]);
    }
    LLVMValueRef taken = LLVMBuildZExt(P->b, c, P->h.t_i32, "");
    LLVMValueRef step[2] = {taken, LLVMBuildXor(P->b, taken, c32(P, 1), "")};
    for (int k = 0; k < 2; k++) {
        LLVMValueRef n = LLVMBuildLoad2(P->b, P->h.t_i32, r->count[k], "");
        LLVMBuildStore(P->b, LLVMBuildAdd(P->b, n, step[k], ""), r->count[k]);
    }
    P->st->loop_counters++;
    return true;
}

/* Adds the register counts of loop k of function f to the map and clears
 * them, at the start of every block the loop exits to (after its phis).
 * Reached from outside the loop, the counts are 0 there: every exit
 * cleared them. */
static void flush_loop(cov_pass *P, uint32_t f, uint32_t k, uint32_t *exits)
{
    const inst_fn *fn = &P->w->fns[f];
    uint32_t n = inst_loops_exits(fn, &P->loops[f], k, exits);
    LLVMSetCurrentDebugLocation2(P->b, NULL);
    for (uint32_t x = 0; x < n; x++) {
        LLVMValueRef at = LLVMGetFirstInstruction(fn->blocks[exits[x]]);
        while (at && LLVMIsAPHINode(at))
            at = LLVMGetNextInstruction(at);
        if (!at)
            continue;
        LLVMPositionBuilderBefore(P->b, at);
        for (size_t i = 0; i < P->n_regs; i++) {
            const cov_reg *r = &P->regs[i];
            if (r->func != f || r->loop != k)
                continue;
            for (uint32_t e = 0; e < 2; e++) {
                LLVMValueRef cnt = LLVMBuildLoad2(P->b, P->h.t_i32, r->count[e], "");
                inst_hook_cov_add(&P->h, P->b, c32(P, r->edge + e), cnt);
                LLVMBuildStore(P->b, c32(P, 0), r->count[e]);
            }
        }
    }
}

/* Inline coverage and the distance hook of a conditional br. */
static void cov_br(cov_pass *P, const inst_site *s)
{
    position(P, s->inst);
    LLVMValueRef c = LLVMGetCondition(s->inst);
    bool count = hook_counts(P, s);
    if (!count && !cov_br_in_loop(P, s, c)) {
        LLVMValueRef idx = LLVMBuildSelect(P->b, c, c32(P, s->first_edge),
                                           c32(P, s->first_edge + 1), "ctg.edge");
        inst_hook_cov(&P->h, P->b, idx);
    }
    br_distance(P, s, c, count);
    P->st->branches++;
}

/* Constant i64* to a private array of the switch's case values. */
static LLVMValueRef case_array(cov_pass *P, LLVMValueRef sw, uint32_t ncases)
{
    if (!ncases)
        return LLVMConstNull(P->h.t_ptr64);
    LLVMValueRef *vals = ctg_calloc(ncases, sizeof *vals);
    if (!vals)
        return LLVMConstNull(P->h.t_ptr64);
    for (uint32_t k = 0; k < ncases; k++) {
        long long v = LLVMConstIntGetSExtValue(LLVMGetOperand(sw, 2 + 2 * k));
        vals[k] = LLVMConstInt(P->h.t_i64, (unsigned long long)v, 1);
    }
    LLVMValueRef init = LLVMConstArray(P->h.t_i64, vals, ncases);
    ctg_free(vals);
    LLVMValueRef g = LLVMAddGlobal(P->h.m, LLVMTypeOf(init), "ctg.cases");
    LLVMSetInitializer(g, init);
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
    return LLVMConstBitCast(g, P->h.t_ptr64);
}

/* Inline coverage of a switch wider than 64 bits: the taken edge by a chain
 * of selects (default unless a case matches). */
static void cov_wide_switch(cov_pass *P, const inst_site *s, LLVMValueRef v, uint32_t ncases)
{
    LLVMValueRef idx = c32(P, s->first_edge + ncases);
    for (uint32_t k = ncases; k-- > 0;) {
        LLVMValueRef eq = LLVMBuildICmp(P->b, LLVMIntEQ, v, LLVMGetOperand(s->inst, 2 + 2 * k), "");
        idx = LLVMBuildSelect(P->b, eq, c32(P, s->first_edge + k), idx, "");
    }
    inst_hook_cov(&P->h, P->b, idx);
}

/* The switch hook (it counts the taken edge and records case distances). */
static void cov_switch(cov_pass *P, const inst_site *s)
{
    position(P, s->inst);
    LLVMValueRef v = LLVMGetOperand(s->inst, 0);
    uint32_t ncases = s->n_edges - 1;
    unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
    P->st->switches++;
    if (bits > 64) {
        cov_wide_switch(P, s, v, ncases);
        return;
    }
    bool narrow = bits <= 32;
    LLVMValueRef args[5] = {c32(P, s->first_edge),
                            hook_int(P, v, narrow, true), c32(P, ncases),
                            case_array(P, s->inst, ncases), c32(P, bits)};
    inst_hook_call(&P->h, P->b, narrow ? HOOK_SWITCH32 : HOOK_SWITCH, args);
}

/* ==== calls ================================================================= */

/* Replaces a strcmp/strncmp/memcmp call by the runtime wrapper with its site. */
static void cov_strcall(cov_pass *P, const inst_site *s)
{
    static const inst_hook hooks[] = {HOOK_STRCMP, HOOK_STRNCMP, HOOK_MEMCMP};
    position(P, s->inst);
    LLVMValueRef args[4] = {c32(P, (uint32_t)s->cmp_site),
                            LLVMBuildPointerCast(P->b, LLVMGetOperand(s->inst, 0), P->h.t_ptr8, ""),
                            LLVMBuildPointerCast(P->b, LLVMGetOperand(s->inst, 1), P->h.t_ptr8, ""),
                            NULL};
    if (s->str != STR_STRCMP)
        args[3] = LLVMBuildIntCast2(P->b, LLVMGetOperand(s->inst, 2), P->h.t_intptr, 0, "");
    LLVMValueRef call = inst_hook_call(&P->h, P->b, hooks[s->str], args);
    LLVMValueRef res = LLVMBuildIntCast2(P->b, call, LLVMTypeOf(s->inst), 1, "");
    LLVMReplaceAllUsesWith(s->inst, res);
    LLVMInstructionEraseFromParent(s->inst);
    P->st->str_hooks++;
}

/* __ctg_error(site) right before a call of reach_error / __VERIFIER_error. */
static void cov_error(cov_pass *P, const inst_site *s)
{
    position(P, s->inst);
    LLVMValueRef arg = c32(P, s->error_site);
    inst_hook_call(&P->h, P->b, HOOK_ERROR, &arg);
    P->st->error_sites++;
}

/* ==== entry point ============================================================ */

/* Checks that the walk agrees with the program database it must match. */
static bool check_db(const inst_walk *w, const progdb *db, ctg_err *e)
{
    if (w->n_edges == db->n_edges && w->n_branches == db->n_branches && w->n_cmp == db->n_cmp &&
        w->n_errors == db->n_errors)
        return true;
    return err_set(e, "instrumenter: module and program database disagree (%u/%u edges, %u/%u "
                      "comparison sites); rebuild with --no-cache",
                   w->n_edges, db->n_edges, w->n_cmp, db->n_cmp);
}

/* Marks the walk's functions over INST_LEAN_FUNCTION instructions (NULL on
 * out of memory: every function keeps its inline counters). */
static bool *lean_functions(const inst_walk *w, unsigned *n_lean)
{
    bool *lean = ctg_calloc(w->n_fns ? w->n_fns : 1, sizeof *lean);
    for (size_t i = 0; lean && i < w->n_fns; i++) {
        lean[i] = inst_fn_size(w->fns[i].fn, INST_LEAN_FUNCTION) > INST_LEAN_FUNCTION;
        *n_lean += lean[i];
    }
    return lean;
}

/* The loops of every function that is not lean, and room for the exits
 * of the largest (NULL on out of memory: every branch keeps its counter
 * in memory). */
static inst_loops *find_loops(const inst_walk *w, const bool *lean, uint32_t **exits)
{
    inst_loops *L = ctg_calloc(w->n_fns ? w->n_fns : 1, sizeof *L);
    uint32_t most = 1;
    for (size_t i = 0; L && lean && i < w->n_fns; i++) {
        if (!lean[i] && !inst_loops_find(&w->fns[i], &L[i]))
            inst_loops_release(&L[i]);
        most = L[i].n_blocks > most ? L[i].n_blocks : most;
    }
    *exits = L ? ctg_malloc((size_t)most * sizeof **exits) : NULL;
    if (*exits)
        return L;
    for (size_t i = 0; L && i < w->n_fns; i++)
        inst_loops_release(&L[i]);
    ctg_free(L);
    return NULL;
}

/* flush_loop for every loop with a branch counted in registers. */
static void flush_loops(cov_pass *P, uint32_t *exits)
{
    for (size_t f = 0; P->n_regs && f < P->w->n_fns; f++)
        for (uint32_t k = 1; k <= P->loops[f].n_loops; k++)
            flush_loop(P, (uint32_t)f, k, exits);
}

static void release_loops(cov_pass *P)
{
    for (size_t f = 0; P->loops && f < P->w->n_fns; f++)
        inst_loops_release(&P->loops[f]);
    ctg_free(P->loops);
    ctg_free(P->regs);
}

/* Instruments every site of the walk. */
static void instrument_sites(cov_pass *P, const inst_walk *w)
{
    for (size_t i = 0; i < w->n_sites; i++) {
        const inst_site *s = &w->sites[i];
        switch (s->kind) {
        case SITE_BR: cov_br(P, s); break;
        case SITE_SWITCH: cov_switch(P, s); break;
        case SITE_STRCALL: cov_strcall(P, s); break;
        case SITE_ERROR: cov_error(P, s); break;
        case SITE_ASM: P->st->inline_asm++; break;
        }
    }
}

bool inst_cov(LLVMModuleRef m, const progdb *db, inst_stats *st, ctg_err *e)
{
    inst_stats dummy;
    cov_pass P = {.st = st ? st : &dummy};
    memset(P.st, 0, sizeof *P.st);
    inst_walk w = {0};
    P.w = &w;
    bool ok = inst_walk_module(m, &w, e) && check_db(&w, db, e) && inst_hooks_init(&P.h, m, e);
    if (ok) {
        P.b = LLVMCreateBuilderInContext(P.h.ctx);
        P.eb = LLVMCreateBuilderInContext(P.h.ctx);
        P.lean = lean_functions(&w, &P.st->lean_functions);
        uint32_t *exits;
        P.loops = find_loops(&w, P.lean, &exits);
        instrument_sites(&P, &w);
        if (P.loops)
            flush_loops(&P, exits);
        ctg_free(exits);
        release_loops(&P);
        ctg_free(P.lean);
        LLVMDisposeBuilder(P.b);
        LLVMDisposeBuilder(P.eb);
        inst_hooks_redirect(&P.h);
        unsigned counts[4] = {w.n_edges, w.n_cmp, w.n_errors, (unsigned)db->harness};
        ok = inst_hooks_define_counts(&P.h, counts, e) && define_cmpc_tab(&P, e);
    }
    ctg_free(P.tab);
    inst_walk_release(&w);
    return ok;
}
