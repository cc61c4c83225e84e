/*
 * inst_sites.c - the canonical walk that assigns branch, edge, comparison and
 * error-site ids (see inst_sites.h for the order).
 */
#include "inst_sites.h"

#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"
#include "../runtime/rt_protocol.h"
#include "instrument.h"

/* Block -> layout index pair, sorted by block pointer for bsearch. */
typedef struct block_key {
    LLVMBasicBlockRef bb;
    uint32_t index;
} block_key;

/* ==== small helpers ======================================================= */

const char *inst_name(LLVMValueRef v, char *buf, size_t size)
{
    size_t len = 0;
    const char *s = LLVMGetValueName2(v, &len);
    if (len >= size)
        len = size - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
    return buf;
}

bool inst_name_is(LLVMValueRef v, const char *s)
{
    size_t len = 0;
    const char *n = LLVMGetValueName2(v, &len);
    return len == strlen(s) && memcmp(n, s, len) == 0;
}

bool inst_name_starts(LLVMValueRef v, const char *prefix)
{
    size_t len = 0, lp = strlen(prefix);
    const char *n = LLVMGetValueName2(v, &len);
    return len >= lp && memcmp(n, prefix, lp) == 0;
}

LLVMValueRef inst_callee(LLVMValueRef call)
{
    LLVMValueRef v = LLVMGetCalledValue(call);
    while (v && LLVMIsAConstantExpr(v) &&
           (LLVMGetConstOpcode(v) == LLVMBitCast || LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
        v = LLVMGetOperand(v, 0);
    return v && LLVMIsAFunction(v) ? v : NULL;
}

/* True for calls whose target is inline assembly. */
static bool is_asm_call(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst) && !LLVMIsACallBrInst(inst))
        return false;
    LLVMValueRef v = LLVMGetCalledValue(inst);
    return v && LLVMGetValueKind(v) == LLVMInlineAsmValueKind;
}

unsigned inst_fn_size(LLVMValueRef f, unsigned stop)
{
    unsigned n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b && n <= stop; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i))
            n++;
    return n;
}

LLVMIntPredicate inst_swap_pred(LLVMIntPredicate p)
{
    switch (p) {
    case LLVMIntUGT: return LLVMIntULT;
    case LLVMIntUGE: return LLVMIntULE;
    case LLVMIntULT: return LLVMIntUGT;
    case LLVMIntULE: return LLVMIntUGE;
    case LLVMIntSGT: return LLVMIntSLT;
    case LLVMIntSGE: return LLVMIntSLE;
    case LLVMIntSLT: return LLVMIntSGT;
    case LLVMIntSLE: return LLVMIntSGE;
    default: return p; /* eq, ne */
    }
}

static int block_key_cmp(const void *a, const void *b)
{
    const block_key *x = a, *y = b;
    return x->bb < y->bb ? -1 : x->bb > y->bb;
}

int32_t inst_block_index(const inst_fn *f, LLVMBasicBlockRef bb)
{
    block_key k = {bb, 0};
    const block_key *r = bsearch(&k, f->sorted, f->n_blocks, sizeof k, block_key_cmp);
    return r ? (int32_t)r->index : -1;
}

/* ==== site classification ================================================= */

/* Kind of string compare a call performs, or -1: a call of a declared
 * strcmp/strncmp/memcmp/bcmp with the usual argument count and an integer
 * result. */
static int str_call_kind(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return -1;
    LLVMValueRef f = inst_callee(inst);
    if (!f || !LLVMIsDeclaration(f))
        return -1;
    if (LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMIntegerTypeKind)
        return -1;
    unsigned nargs = (unsigned)LLVMGetNumArgOperands(inst);
    int kind = inst_name_is(f, "strcmp")    ? STR_STRCMP
               : inst_name_is(f, "strncmp") ? STR_STRNCMP
               : inst_name_is(f, "memcmp") || inst_name_is(f, "bcmp") ? STR_MEMCMP
                                                            : -1;
    if (kind < 0 || nargs != (kind == STR_STRCMP ? 2u : 3u))
        return -1;
    for (unsigned i = 0; i < 2; i++)
        if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(inst, i))) != LLVMPointerTypeKind)
            return -1;
    if (kind != STR_STRCMP &&
        LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(inst, 2))) != LLVMIntegerTypeKind)
        return -1;
    return kind;
}

/* True for a call of reach_error or __VERIFIER_error. */
static bool is_error_call(LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst))
        return false;
    LLVMValueRef f = inst_callee(inst);
    return f && (inst_name_is(f, "reach_error") || inst_name_is(f, "__VERIFIER_error"));
}

/* Comparison site already assigned to a str call `call` in function fi. */
static int32_t str_site_of(const inst_walk *w, uint32_t fi, LLVMValueRef call)
{
    for (size_t i = w->n_sites; i-- > 0 && w->sites[i].func == fi;)
        if (w->sites[i].kind == SITE_STRCALL && w->sites[i].inst == call)
            return w->sites[i].cmp_site;
    return -1;
}

/* Classifies the condition of br into s (cond, str_operand, cmp_site). */
static void classify_cond(inst_walk *w, inst_site *s, LLVMValueRef br)
{
    LLVMValueRef c = LLVMGetCondition(br);
    s->cond = COND_BOOL;
    s->cmp_site = -1;
    if (LLVMIsAFCmpInst(c)) {
        s->cond = COND_FCMP;
        s->cmp_site = (int32_t)w->n_cmp++;
        return;
    }
    if (!LLVMIsAICmpInst(c))
        return;
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(c, 0));
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) > 64) {
        s->cond = COND_WIDE;
        return;
    }
    for (int k = 0; k < 2; k++) {
        LLVMValueRef a = LLVMGetOperand(c, (unsigned)k), b = LLVMGetOperand(c, (unsigned)(1 - k));
        int32_t site = -1;
        if (LLVMIsACallInst(a) && LLVMIsAConstantInt(b))
            site = str_site_of(w, s->func, a);
        if (site >= 0) {
            s->cond = COND_STR;
            s->str_operand = k;
            s->str_pred = LLVMGetICmpPredicate(c);
            if (k == 1)
                s->str_pred = inst_swap_pred(s->str_pred);
            s->cmp_site = site;
            return;
        }
    }
    s->cond = COND_ICMP;
    s->cmp_site = (int32_t)w->n_cmp++;
}

/* ==== the walk ============================================================= */

/* Appends a zeroed site; NULL on oom. */
static inst_site *add_site(inst_walk *w, inst_site_kind kind, LLVMValueRef inst, uint32_t fi,
                           uint32_t bi)
{
    if (ctg_grow((void **)&w->sites, &w->cap_sites, w->n_sites + 1, sizeof *w->sites) != 0)
        return NULL;
    inst_site *s = &w->sites[w->n_sites++];
    memset(s, 0, sizeof *s);
    s->kind = kind, s->inst = inst, s->func = fi, s->block = bi, s->cmp_site = -1;
    return s;
}

/* Assigns the branch and edge ids of a terminator site. */
static void add_branch_ids(inst_walk *w, inst_site *s, uint32_t n_edges)
{
    s->branch = w->n_branches++;
    s->first_edge = w->n_edges;
    s->n_edges = n_edges;
    w->n_edges += n_edges;
}

bool inst_sanitizer_check(LLVMValueRef inst)
{
    static LLVMContextRef ctx;
    static unsigned kind;
    LLVMContextRef c = LLVMGetModuleContext(LLVMGetGlobalParent(LLVMGetBasicBlockParent(
        LLVMGetInstructionParent(inst))));
    if (c != ctx) {
        kind = LLVMGetMDKindIDInContext(c, "nosanitize", 10);
        ctx = c;
    }
    return LLVMGetMetadata(inst, kind) != NULL;
}

/* Visits one instruction; false on oom. */
static bool visit_inst(inst_walk *w, LLVMValueRef inst, uint32_t fi, uint32_t bi)
{
    inst_site *s;
    if ((LLVMIsABranchInst(inst) || LLVMIsASwitchInst(inst)) && inst_sanitizer_check(inst))
        return true;
    if (is_asm_call(inst)) {
        w->n_asm++;
        return add_site(w, SITE_ASM, inst, fi, bi) != NULL;
    }
    if (is_error_call(inst)) {
        if (!(s = add_site(w, SITE_ERROR, inst, fi, bi)))
            return false;
        s->error_site = w->n_errors++;
        return true;
    }
    int sk = str_call_kind(inst);
    if (sk >= 0) {
        if (!(s = add_site(w, SITE_STRCALL, inst, fi, bi)))
            return false;
        s->str = (inst_str_kind)sk;
        s->cmp_site = (int32_t)w->n_cmp++;
        return true;
    }
    if (LLVMIsABranchInst(inst) && LLVMIsConditional(inst)) {
        if (!(s = add_site(w, SITE_BR, inst, fi, bi)))
            return false;
        add_branch_ids(w, s, 2);
        classify_cond(w, s, inst);
        return true;
    }
    if (LLVMIsASwitchInst(inst)) {
        if (!(s = add_site(w, SITE_SWITCH, inst, fi, bi)))
            return false;
        add_branch_ids(w, s, LLVMGetNumSuccessors(inst));
    }
    return true;
}

/* True for functions that get numbered. */
static bool numbered(LLVMValueRef fn)
{
    if (LLVMIsDeclaration(fn) || LLVMGetLinkage(fn) == LLVMAvailableExternallyLinkage)
        return false;
    return !inst_name_starts(fn, "__ctg_") || inst_name_is(fn, CTG_SYM_USER_MAIN);
}

/* Records fn's blocks and their lookup table; false on oom. */
static bool add_fn(inst_walk *w, LLVMValueRef fn)
{
    if (ctg_grow((void **)&w->fns, &w->cap_fns, w->n_fns + 1, sizeof *w->fns) != 0)
        return false;
    inst_fn *f = &w->fns[w->n_fns];
    memset(f, 0, sizeof *f);
    f->fn = fn;
    f->n_blocks = LLVMCountBasicBlocks(fn);
    f->blocks = ctg_calloc(f->n_blocks, sizeof *f->blocks);
    block_key *keys = ctg_calloc(f->n_blocks, sizeof *keys);
    f->sorted = keys;
    w->n_fns++;
    if (!f->blocks || !keys)
        return false;
    LLVMGetBasicBlocks(fn, f->blocks);
    for (uint32_t i = 0; i < f->n_blocks; i++)
        keys[i] = (block_key){f->blocks[i], i};
    qsort(keys, f->n_blocks, sizeof *keys, block_key_cmp);
    return true;
}

bool inst_walk_module(LLVMModuleRef m, inst_walk *w, ctg_err *e)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn)) {
        if (!numbered(fn))
            continue;
        if (!add_fn(w, fn))
            return err_set(e, "instrumenter: out of memory");
        inst_fn *f = &w->fns[w->n_fns - 1];
        uint32_t fi = (uint32_t)(w->n_fns - 1);
        for (uint32_t bi = 0; bi < f->n_blocks; bi++)
            for (LLVMValueRef i = LLVMGetFirstInstruction(f->blocks[bi]); i;
                 i = LLVMGetNextInstruction(i))
                if (!visit_inst(w, i, fi, bi))
                    return err_set(e, "instrumenter: out of memory");
    }
    return true;
}

void inst_walk_release(inst_walk *w)
{
    for (size_t i = 0; i < w->n_fns; i++) {
        ctg_free(w->fns[i].blocks);
        ctg_free(w->fns[i].sorted);
    }
    ctg_free(w->fns);
    ctg_free(w->sites);
    memset(w, 0, sizeof *w);
}
