/*
 * bmc.c - the unrolling of bmc.h: main's blocks executed symbolically,
 * every path at once, states merged by (block, input bytes read).  The
 * queries and the result are bmc_query.c's.
 */
#include "bmc_int.h"

#include <llvm-c/BitReader.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../instrument/instrument.h"
#include "../../runtime/rt_protocol.h"

/* Gives up on the program, saying why (the first reason stays). */
bool bmc_fail(bmc *B, const char *fmt, const char *arg)
{
    if (!B->why[0])
        snprintf(B->why, sizeof B->why, fmt, arg ? arg : "?");
    B->failed = true;
    return false;
}

static bool fail_inst(bmc *B, LLVMValueRef I, const char *what)
{
    char *s = LLVMPrintValueToString(I);
    char buf[120];
    snprintf(buf, sizeof buf, "%s: %.80s", what, s ? s + strspn(s, " ") : "?");
    LLVMDisposeMessage(s);
    return bmc_fail(B, "cannot model %s", buf);
}

/* A fresh unconstrained value of width w (undef: any value). */
static expr *havoc(bmc *B, unsigned w)
{
    return expr_var(B->x, B->n_havoc++, w);
}

static unsigned width_of(LLVMTypeRef t)
{
    return LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMGetIntTypeWidth(t) : 0;
}

expr *bmc_val(bmc *B, const bstate *s, LLVMValueRef v)
{
    unsigned w = width_of(LLVMTypeOf(v));
    uint64_t slot;
    if (hmap_get(&B->slot, (uint64_t)(uintptr_t)v, &slot) && !LLVMIsAGlobalVariable(v))
        return s->v[slot] ? s->v[slot] : havoc(B, w);
    if (!w || w > 64)
        return fail_inst(B, v, "a value that is not an integer of at most 64 bits"), NULL;
    if (LLVMIsUndef(v) || LLVMIsPoison(v))
        return havoc(B, w);
    if (LLVMIsAConstantInt(v))
        return expr_const(B->x, w, LLVMConstIntGetZExtValue(v));
    return fail_inst(B, v, "an operand"), NULL;
}

static void set(bmc *B, bstate *s, LLVMValueRef I, expr *t)
{
    uint64_t slot;
    if (t && hmap_get(&B->slot, (uint64_t)(uintptr_t)I, &slot))
        s->v[slot] = t;
    else if (!t && !B->failed)
        fail_inst(B, I, expr_ctx_status(B->x) == EXPR_ENOMEM ? "(out of memory)" : "a term");
}

/* Integer binary operators; shifts take x86's count (mod the width) at 32
 * and 64 bits, as gcc's code does. */
static expr *binop(bmc *B, bstate *s, LLVMValueRef I, LLVMOpcode op)
{
    static const struct { LLVMOpcode llvm; expr_op e; } map[] = {
        {LLVMAdd, EXPR_ADD},   {LLVMSub, EXPR_SUB},   {LLVMMul, EXPR_MUL},
        {LLVMUDiv, EXPR_UDIV}, {LLVMSDiv, EXPR_SDIV}, {LLVMURem, EXPR_UREM},
        {LLVMSRem, EXPR_SREM}, {LLVMShl, EXPR_SHL},   {LLVMLShr, EXPR_LSHR},
        {LLVMAShr, EXPR_ASHR}, {LLVMAnd, EXPR_AND},   {LLVMOr, EXPR_OR},
        {LLVMXor, EXPR_XOR}};
    expr *a = bmc_val(B, s, LLVMGetOperand(I, 0)), *b = bmc_val(B, s, LLVMGetOperand(I, 1));
    if (!a || !b)
        return NULL;
    bool shift = op == LLVMShl || op == LLVMLShr || op == LLVMAShr;
    if (shift && (b->width == 32 || b->width == 64))
        b = expr_binop(B->x, EXPR_AND, b, expr_const(B->x, b->width, b->width - 1));
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (map[i].llvm == op)
            return expr_binop(B->x, map[i].e, a, b);
    return NULL;
}

static expr *cast(bmc *B, bstate *s, LLVMValueRef I, LLVMOpcode op)
{
    expr *a = bmc_val(B, s, LLVMGetOperand(I, 0));
    unsigned w = width_of(LLVMTypeOf(I));
    if (!a || !w || w > 64)
        return a ? (fail_inst(B, I, "a cast"), NULL) : NULL;
    if (op == LLVMTrunc)
        return expr_trunc(B->x, a, w);
    return expr_cast(B->x, op == LLVMZExt ? EXPR_ZEXT : EXPR_SEXT, a, w);
}

/* A scalar global accessed by a load or a store: its slot. */
static bool global_slot(bmc *B, LLVMValueRef ptr, LLVMTypeRef t, uint64_t *slot)
{
    if (!LLVMIsAGlobalVariable(ptr) || !hmap_get(&B->slot, (uint64_t)(uintptr_t)ptr, slot))
        return false;
    return width_of(LLVMGlobalGetValueType(ptr)) == width_of(t) && width_of(t);
}

static bool mem(bmc *B, bstate *s, LLVMValueRef I, LLVMOpcode op)
{
    uint64_t slot;
    if (op == LLVMLoad) {
        if (!global_slot(B, LLVMGetOperand(I, 0), LLVMTypeOf(I), &slot))
            return fail_inst(B, I, "memory");
        set(B, s, I, s->v[slot]);
        return !B->failed;
    }
    LLVMValueRef v = LLVMGetOperand(I, 0);
    if (!global_slot(B, LLVMGetOperand(I, 1), LLVMTypeOf(v), &slot))
        return fail_inst(B, I, "memory");
    expr *t = bmc_val(B, s, v);
    s->v[slot] = t;
    return t != NULL;
}

/* The next value of `w` bits of the input (rt_protocol.h: sizeof(T) bytes,
 * little endian; a bool is the low bit of one byte). */
static expr *input(bmc *B, bstate *s, unsigned w)
{
    expr *t = NULL;
    for (unsigned i = 0; i < (w == 1 ? 1 : w / 8); i++) {
        expr *b = expr_input(B->x, s->pos++);
        t = t ? expr_binop(B->x, EXPR_CONCAT, b, t) : b;
    }
    if (s->pos > B->max_pos)
        B->max_pos = s->pos;
    return w == 1 ? expr_extract(B->x, t, 0, 1) : t;
}

/* A call: 1 the path goes on, 0 it ends here, -1 gave up. */
static int call(bmc *B, bstate *s, LLVMValueRef I)
{
    uint32_t id;
    if (inst_site_tag(I, &id) && id >= B->n_edges && id < B->n_goals) {
        bmc_reach(B, id, s->guard);
        return 0; /* an error call ends the run */
    }
    LLVMValueRef f = inst_callee(I); /* through an unprototyped declaration's cast */
    size_t n = 0;
    const char *name = f ? LLVMGetValueName2(f, &n) : "";
    if (!strncmp(name, "llvm.dbg.", 9) || !strncmp(name, "llvm.lifetime.", 14))
        return 1;
    if (!strcmp(name, "abort") || !strcmp(name, "exit") || !strcmp(name, "_exit") ||
        !strcmp(name, "__assert_fail") || !strcmp(name, "reach_error") ||
        !strcmp(name, "__VERIFIER_error"))
        return 0;
    if (!strcmp(name, "__VERIFIER_assume")) {
        expr *c = bmc_val(B, s, LLVMGetOperand(I, 0));
        if (!c)
            return -1;
        s->guard = expr_and(B->x, s->guard, expr_not(B->x, expr_icmp(B->x, LLVMIntEQ, c,
                                                                       expr_const(B->x, c->width, 0))));
        return 1;
    }
    unsigned w = width_of(LLVMTypeOf(I));
    if (!strncmp(name, "__VERIFIER_nondet_", 18) && w && (w == 1 || (w % 8 == 0 && w <= 64))) {
        set(B, s, I, input(B, s, w));
        return B->failed ? -1 : 1;
    }
    fail_inst(B, I, f && LLVMCountBasicBlocks(f) ? "a call left after inlining (recursion)"
                                                 : "a call");
    return -1;
}

/* One non-terminator, non-phi instruction: 1 go on, 0 the path ends, -1
 * gave up. */
static int step_inst(bmc *B, bstate *s, LLVMValueRef I)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    switch (op) {
    case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv: case LLVMURem:
    case LLVMSRem: case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr:
    case LLVMXor:
        if (!width_of(LLVMTypeOf(I)) || width_of(LLVMTypeOf(I)) > 64)
            return fail_inst(B, I, "arithmetic"), -1;
        set(B, s, I, binop(B, s, I, op));
        break;
    case LLVMICmp: {
        expr *a = bmc_val(B, s, LLVMGetOperand(I, 0)), *b = bmc_val(B, s, LLVMGetOperand(I, 1));
        set(B, s, I, a && b ? expr_icmp(B->x, LLVMGetICmpPredicate(I), a, b) : NULL);
        break;
    }
    case LLVMSelect: {
        expr *c = bmc_val(B, s, LLVMGetOperand(I, 0)), *a = bmc_val(B, s, LLVMGetOperand(I, 1)),
             *b = bmc_val(B, s, LLVMGetOperand(I, 2));
        set(B, s, I, c && a && b ? expr_ite(B->x, c, a, b) : NULL);
        break;
    }
    case LLVMZExt: case LLVMSExt: case LLVMTrunc:
        set(B, s, I, cast(B, s, I, op));
        break;
    case LLVMLoad: case LLVMStore:
        return mem(B, s, I, op) ? 1 : -1;
    case LLVMCall:
        return call(B, s, I);
    case LLVMFreeze:
        set(B, s, I, bmc_val(B, s, LLVMGetOperand(I, 0)));
        break;
    default:
        return fail_inst(B, I, "an instruction"), -1;
    }
    return B->failed ? -1 : 1;
}

/* The blocks' instructions up to the terminator, on s: false when the path
 * ends (or gave up); *term the terminator. */
static bool run_body(bmc *B, bstate *s, LLVMBasicBlockRef bb, LLVMValueRef *term)
{
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
        if (LLVMIsATerminatorInst(I)) {
            *term = I;
            return true;
        }
        if (LLVMIsAPHINode(I))
            continue;
        if (step_inst(B, s, I) <= 0)
            return false;
    }
    return bmc_fail(B, "%s", "a block without terminator");
}

/* The terminator of s's block: its successors get the state. */
static void run_term(bmc *B, bstate *s, LLVMValueRef T)
{
    LLVMOpcode op = LLVMGetInstructionOpcode(T);
    uint32_t first;
    bool tagged = inst_site_tag(T, &first);
    if (op == LLVMBr && !LLVMIsConditional(T)) {
        bmc_goto(B, s, LLVMGetSuccessor(T, 0), s->guard);
    } else if (op == LLVMBr) {
        expr *c = bmc_val(B, s, LLVMGetCondition(T));
        if (!c)
            return;
        expr *g0 = expr_and(B->x, s->guard, c), *g1 = expr_and(B->x, s->guard, expr_not(B->x, c));
        if (tagged) {
            bmc_reach(B, first, g0);
            bmc_reach(B, first + 1, g1);
        }
        bmc_goto(B, s, LLVMGetSuccessor(T, 0), g0);
        bmc_goto(B, s, LLVMGetSuccessor(T, 1), g1);
    } else if (op == LLVMSwitch) {
        bmc_switch(B, s, T, tagged ? first : UINT32_MAX);
    } else if (op != LLVMRet && op != LLVMUnreachable) {
        fail_inst(B, T, "a terminator");
    }
}

/* Cases in order, then the default (the ids of inst_sites.h). */
void bmc_switch(bmc *B, bstate *s, LLVMValueRef T, uint32_t first)
{
    expr *v = bmc_val(B, s, LLVMGetOperand(T, 0)), *none = expr_bool(B->x, true);
    if (!v)
        return;
    unsigned ncases = LLVMGetNumSuccessors(T) - 1;
    for (unsigned k = 0; k < ncases; k++) {
        expr *cv = bmc_val(B, s, LLVMGetOperand(T, 2 + 2 * k));
        if (!cv)
            return;
        expr *eq = expr_icmp(B->x, LLVMIntEQ, v, cv), *g = expr_and(B->x, s->guard, eq);
        none = expr_and(B->x, none, expr_not(B->x, eq));
        if (first != UINT32_MAX)
            bmc_reach(B, first + k, g);
        bmc_goto(B, s, LLVMGetSuccessor(T, k + 1), g);
    }
    expr *gd = expr_and(B->x, s->guard, none);
    if (first != UINT32_MAX)
        bmc_reach(B, first + ncases, gd);
    bmc_goto(B, s, LLVMGetSuccessor(T, 0), gd);
}

/* Executes state s (its block); the successors land in B's next step. */
void bmc_run_state(bmc *B, bstate *s)
{
    LLVMValueRef term = NULL;
    if (run_body(B, s, B->blocks[s->block], &term) && !B->failed)
        run_term(B, s, term);
}

/* Numbers every integer instruction of main and every scalar global. */
static bool number_slots(bmc *B)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(B->mod); g; g = LLVMGetNextGlobal(g))
        if (width_of(LLVMGlobalGetValueType(g)) && width_of(LLVMGlobalGetValueType(g)) <= 64 &&
            !hmap_put(&B->slot, (uint64_t)(uintptr_t)g, B->n_slots++))
            return false;
    B->n_globals = B->n_slots;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(B->fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
        if (!hmap_put(&B->bidx, (uint64_t)(uintptr_t)bb, B->n_blocks))
            return false;
        if (ctg_grow((void **)&B->blocks, &B->cap_blocks, B->n_blocks + 1, sizeof *B->blocks))
            return false;
        B->blocks[B->n_blocks++] = bb;
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I))
            if (width_of(LLVMTypeOf(I)) &&
                !hmap_put(&B->slot, (uint64_t)(uintptr_t)I, B->n_slots++))
                return false;
    }
    return true;
}

/* The initial values of the scalar globals (their initialisers; one
 * without a constant initialiser, or one some other code may change:
 * any value). */
static void init_globals(bmc *B, bstate *s)
{
    for (LLVMValueRef g = LLVMGetFirstGlobal(B->mod); g; g = LLVMGetNextGlobal(g)) {
        uint64_t slot;
        if (!hmap_get(&B->slot, (uint64_t)(uintptr_t)g, &slot))
            continue;
        LLVMValueRef init = LLVMGetInitializer(g);
        unsigned w = width_of(LLVMGlobalGetValueType(g));
        s->v[slot] = init && LLVMIsAConstantInt(init) && !LLVMIsExternallyInitialized(g)
                         ? expr_const(B->x, w, LLVMConstIntGetZExtValue(init))
                     : init && LLVMIsNull(init) ? expr_const(B->x, w, 0) : havoc(B, w);
    }
}

/* Whether error function f (not inlined: a path ends at its call) runs
 * nothing the checker would then miss: no goal and no call of a function
 * with code in its body. */
static bool plain_error_fn(LLVMValueRef f)
{
    uint32_t id;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I; I = LLVMGetNextInstruction(I)) {
            if (inst_site_tag(I, &id))
                return false;
            if (!LLVMIsACallInst(I))
                continue;
            LLVMValueRef g = inst_callee(I); /* NULL: indirect, or assembly */
            if (!g || LLVMCountBasicBlocks(g))
                return false;
        }
    return true;
}

/* Every defined function but main and the error functions is always
 * inlined (a recursive one stays a call, which gives up); the result is
 * main alone, whose locals that only an inlined call took the address
 * of are promoted to registers once more. */
static bool inline_all(bmc *B)
{
    unsigned kind = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    unsigned noinl = LLVMGetEnumAttributeKindForName("noinline", 8);
    unsigned optn = LLVMGetEnumAttributeKindForName("optnone", 7);
    LLVMContextRef cx = LLVMGetModuleContext(B->mod);
    for (LLVMValueRef f = LLVMGetFirstFunction(B->mod); f; f = LLVMGetNextFunction(f)) {
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, noinl);
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optn);
        size_t n;
        const char *name = LLVMGetValueName2(f, &n);
        bool error_fn = !strcmp(name, "reach_error") || !strcmp(name, "__VERIFIER_error");
        if (error_fn && !plain_error_fn(f))
            return bmc_fail(B, "%s", "an error function whose body has branches or calls");
        if (LLVMCountBasicBlocks(f) && strcmp(name, CTG_SYM_USER_MAIN) && !error_fn)
            LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(cx, kind, 0));
    }
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMErrorRef err = LLVMRunPasses(B->mod, "always-inline,function(mem2reg)", NULL, po);
    LLVMDisposePassBuilderOptions(po);
    if (err) {
        char *m = LLVMGetErrorMessage(err);
        bmc_fail(B, "inlining failed: %s", m);
        LLVMDisposeErrorMessage(m);
        return false;
    }
    B->fn = LLVMGetNamedFunction(B->mod, CTG_SYM_USER_MAIN);
    if (!B->fn || !LLVMCountBasicBlocks(B->fn))
        return bmc_fail(B, "%s", "no main function");
    if (LLVMCountParams(B->fn))
        return bmc_fail(B, "%s", "main takes arguments");
    return true;
}

/* Loads the module, tags its goals, inlines and numbers; false: gave up
 * (B->why) or failed (e). */
bool bmc_load(bmc *B, const char *bitcode, ctg_err *e)
{
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    B->cx = LLVMContextCreate();
    if (LLVMCreateMemoryBufferWithContentsOfFile(bitcode, &buf, &msg)) {
        err_set(e, "%s: cannot read bitcode (%s)", bitcode, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return false;
    }
    bool bad = LLVMParseBitcodeInContext2(B->cx, buf, &B->mod);
    LLVMDisposeMemoryBuffer(buf);
    if (bad)
        return err_set(e, "%s: unreadable bitcode", bitcode), false;
    if (!inst_tag_sites(B->mod, e))
        return false;
    if (LLVMGetNamedGlobal(B->mod, "llvm.global_ctors")) /* code before main */
        return bmc_fail(B, "%s", "constructors that run before main");
    if (!inline_all(B))
        return false;
    if (!number_slots(B))
        return err_set(e, "out of memory"), false;
    return true;
}

/* The first state: main's entry, nothing read. */
bool bmc_first(bmc *B)
{
    bstate s = {.guard = expr_bool(B->x, true), .block = 0, .pos = 0};
    s.v = ctg_calloc(B->n_slots + 1, sizeof *s.v);
    if (!s.v)
        return false;
    init_globals(B, &s);
    bool ok = bmc_add_state(B, &s);
    ctg_free(s.v);
    return ok;
}
