/*
 * inst_number.c - fills the program database from a prepared module: the
 * functions with their CFGs (CSR), branches with edge ids, labels and source
 * locations, comparison sites and error sites.  The ids come from the
 * canonical walk of inst_sites.c, which inst_cov() repeats.
 */
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"
#include "../runtime/rt_protocol.h"
#include "inst_sites.h"
#include "inst_stdin.h"
#include "instrument.h"

static const char *const icmp_names[] = {"eq",  "ne",  "ugt", "uge", "ult",
                                         "ule", "sgt", "sge", "slt", "sle"};
static const char *const fcmp_names[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                         "one",   "ord", "uno", "ueq", "ugt", "uge",
                                         "ult",   "ule", "une", "true"};
static const char *const str_names[] = {"strcmp", "strncmp", "memcmp"};

/* A defined function and its index in the walk (sorted by fn for lookup). */
typedef struct fn_index {
    LLVMValueRef fn;
    uint32_t index;
} fn_index;

/* Numbering state: the walk, the db being filled, the function lookup, the
 * first oom. */
typedef struct numberer {
    inst_walk w;
    progdb *db;
    fn_index *by_fn; /* w.n_fns entries sorted by fn */
    bool oom;
} numberer;

/* Interns s, remembering an out-of-memory failure. */
static const char *intern(numberer *N, const char *s)
{
    const char *r = progdb_intern(N->db, s);
    if (!r) {
        N->oom = true;
        return "";
    }
    return r;
}

/* Source location of an instruction or function from its debug info. */
static pdb_loc loc_of(numberer *N, LLVMValueRef v)
{
    pdb_loc loc = {"", 0, 0};
    unsigned len = 0;
    const char *file = LLVMGetDebugLocFilename(v, &len);
    if (!file || !len)
        return loc;
    char buf[4096];
    unsigned dlen = 0;
    const char *dir = LLVMGetDebugLocDirectory(v, &dlen);
    if (file[0] != '/' && dir && dlen)
        snprintf(buf, sizeof buf, "%.*s/%.*s", (int)dlen, dir, (int)len, file);
    else
        snprintf(buf, sizeof buf, "%.*s", (int)len, file);
    loc.file = intern(N, buf);
    loc.line = (int)LLVMGetDebugLocLine(v);
    if (!LLVMIsAFunction(v))
        loc.col = (int)LLVMGetDebugLocColumn(v);
    return loc;
}

/* ==== functions and their CFGs ============================================ */

/* True when v[from..to) already holds b. */
static bool holds(const uint32_t *v, uint32_t from, uint32_t to, uint32_t b)
{
    for (uint32_t i = from; i < to; i++)
        if (v[i] == b)
            return true;
    return false;
}

/* Fills the CSR successor lists of function fi (duplicates removed). */
static bool fill_cfg(numberer *N, uint32_t fi)
{
    const inst_fn *wf = &N->w.fns[fi];
    pdb_func *f = &N->db->funcs[fi];
    size_t total = 0;
    for (uint32_t b = 0; b < wf->n_blocks; b++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(wf->blocks[b]);
        total += t ? LLVMGetNumSuccessors(t) : 0;
    }
    f->n_blocks = wf->n_blocks;
    f->succ_start = ctg_calloc(wf->n_blocks + 1, sizeof *f->succ_start);
    f->succ = ctg_calloc(total + 1, sizeof *f->succ);
    f->block_branch = ctg_calloc(wf->n_blocks + 1, sizeof *f->block_branch);
    if (!f->succ_start || !f->succ || !f->block_branch)
        return false;
    uint32_t n = 0;
    for (uint32_t b = 0; b < wf->n_blocks; b++) {
        f->succ_start[b] = n;
        f->block_branch[b] = -1;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(wf->blocks[b]);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < ns; k++) {
            int32_t s = inst_block_index(wf, LLVMGetSuccessor(t, k));
            if (s >= 0 && !holds(f->succ, f->succ_start[b], n, (uint32_t)s))
                f->succ[n++] = (uint32_t)s;
        }
    }
    f->succ_start[wf->n_blocks] = n;
    return true;
}

static int cmp_fn_index(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const fn_index *)a)->fn, y = (uintptr_t)((const fn_index *)b)->fn;
    return x < y ? -1 : x > y;
}

/* Sorts the walk's functions for callee lookup; false on oom. */
static bool index_functions(numberer *N)
{
    N->by_fn = ctg_malloc((N->w.n_fns + 1) * sizeof *N->by_fn);
    if (!N->by_fn)
        return false;
    for (uint32_t i = 0; i < N->w.n_fns; i++)
        N->by_fn[i] = (fn_index){N->w.fns[i].fn, i};
    qsort(N->by_fn, N->w.n_fns, sizeof *N->by_fn, cmp_fn_index);
    return true;
}

/* Index of the function an instruction calls directly, or -1 (not a call,
 * indirect, or a function without a body in the walk). */
static int64_t callee_index(const numberer *N, LLVMValueRef inst)
{
    if (!LLVMIsACallInst(inst) && !LLVMIsAInvokeInst(inst))
        return -1;
    fn_index key = {inst_callee(inst), 0};
    if (!key.fn)
        return -1;
    const fn_index *hit = bsearch(&key, N->by_fn, N->w.n_fns, sizeof *N->by_fn, cmp_fn_index);
    return hit ? (int64_t)hit->index : -1;
}

/* Whether instruction i always completes and goes on to the next one:
 * no call (debug intrinsics aside), no division, no memory access other
 * than a load or store of a local variable itself. */
static bool completes(LLVMValueRef i)
{
    char name[256];
    LLVMOpcode op = LLVMGetInstructionOpcode(i);
    switch (op) {
    case LLVMPHI: case LLVMGetElementPtr: case LLVMAdd: case LLVMFAdd: case LLVMSub:
    case LLVMFSub: case LLVMMul: case LLVMFMul: case LLVMFDiv: case LLVMFRem: case LLVMFNeg:
    case LLVMShl: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI: case LLVMFPToSI:
    case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc: case LLVMFPExt: case LLVMPtrToInt:
    case LLVMIntToPtr: case LLVMBitCast: case LLVMICmp: case LLVMFCmp: case LLVMSelect:
    case LLVMFreeze: case LLVMExtractValue: case LLVMInsertValue:
        return true;
    case LLVMLoad:
        return LLVMIsAAllocaInst(LLVMGetOperand(i, 0)) != NULL;
    case LLVMStore:
        return LLVMIsAAllocaInst(LLVMGetOperand(i, 1)) != NULL;
    case LLVMCall:
        return inst_callee(i) && !strncmp(inst_name(inst_callee(i), name, sizeof name), "llvm.dbg.", 9);
    default:
        return false;
    }
}

/* Whether every execution entering call's block makes the call: only
 * instructions that always complete come before it. */
static bool leads_block(LLVMValueRef call)
{
    for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetInstructionParent(call)); i;
         i = LLVMGetNextInstruction(i)) {
        if (i == call)
            return true;
        if (!completes(i))
            return false;
    }
    return false;
}

/* Fills the CSR call lists of function fi (duplicates within a block
 * removed). */
static bool fill_calls(numberer *N, uint32_t fi)
{
    const inst_fn *wf = &N->w.fns[fi];
    pdb_func *f = &N->db->funcs[fi];
    size_t cap = 0;
    for (uint32_t b = 0; b < wf->n_blocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(wf->blocks[b]); i;
             i = LLVMGetNextInstruction(i))
            cap += callee_index(N, i) >= 0;
    f->call_start = ctg_calloc(wf->n_blocks + 1, sizeof *f->call_start);
    f->calls = ctg_calloc(cap + 1, sizeof *f->calls);
    if (!f->call_start || !f->calls)
        return false;
    uint32_t n = 0;
    for (uint32_t b = 0; b < wf->n_blocks; b++) {
        f->call_start[b] = n;
        for (LLVMValueRef i = LLVMGetFirstInstruction(wf->blocks[b]); i;
             i = LLVMGetNextInstruction(i)) {
            int64_t c = callee_index(N, i);
            if (c >= 0 && !holds(f->calls, f->call_start[b], n, (uint32_t)c))
                f->calls[n++] = (uint32_t)c;
        }
    }
    f->call_start[wf->n_blocks] = n;
    f->call_leads = ctg_calloc(wf->n_blocks + 1, 1);
    if (!f->call_leads)
        return false;
    for (uint32_t b = 0; b < wf->n_blocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(wf->blocks[b]); i; i = LLVMGetNextInstruction(i))
            if (callee_index(N, i) >= 0 || !completes(i)) { /* the first db call leads or none */
                f->call_leads[b] = callee_index(N, i) >= 0;
                break;
            }
    return true;
}

/* Fills funcs[fi]: name (the user's main under its own name), location, CFG,
 * call sites. */
static bool fill_func(numberer *N, uint32_t fi)
{
    char name[1024];
    LLVMValueRef fn = N->w.fns[fi].fn;
    inst_name(fn, name, sizeof name);
    pdb_func *f = &N->db->funcs[fi];
    f->name = intern(N, strcmp(name, CTG_SYM_USER_MAIN) == 0 ? "main" : name);
    f->loc = loc_of(N, fn);
    return fill_cfg(N, fi) && fill_calls(N, fi);
}

/* ==== branches ============================================================== */

/* Condition text of a br site ("icmp sle", "fcmp olt", "strcmp eq", "bool"). */
static const char *cond_text(numberer *N, const inst_site *s)
{
    char buf[64];
    LLVMValueRef c = LLVMGetCondition(s->inst);
    switch (s->cond) {
    case COND_ICMP:
    case COND_WIDE:
        snprintf(buf, sizeof buf, "icmp %s", icmp_names[LLVMGetICmpPredicate(c) - LLVMIntEQ]);
        break;
    case COND_FCMP:
        snprintf(buf, sizeof buf, "fcmp %s", fcmp_names[LLVMGetFCmpPredicate(c)]);
        break;
    case COND_STR:
        snprintf(buf, sizeof buf, "%s %s", N->db->cmps[s->cmp_site].kind,
                 icmp_names[s->str_pred - LLVMIntEQ]);
        break;
    default:
        snprintf(buf, sizeof buf, "bool");
    }
    return intern(N, buf);
}

/* Sets edge k of site s: target block and label. */
static void set_edge(numberer *N, const inst_site *s, uint32_t k, LLVMBasicBlockRef target,
                     const char *label)
{
    pdb_edge *ed = &N->db->edges[s->first_edge + k];
    ed->branch = s->branch;
    int32_t t = inst_block_index(&N->w.fns[s->func], target);
    ed->target = t < 0 ? 0 : (uint32_t)t;
    ed->label = intern(N, label);
}

/* Whether one of the first n operands of inst (a comparison's two, a
 * string call's two pointers) is a constant: a literal, or a global such
 * as a string constant. */
static bool has_const_operand(LLVMValueRef inst, unsigned n)
{
    if (!LLVMIsAUser(inst))
        return false;
    for (unsigned i = 0; i < n && i < (unsigned)LLVMGetNumOperands(inst); i++)
        if (LLVMIsConstant(LLVMGetOperand(inst, i)))
            return true;
    return false;
}

/* The bytes of a constant C string v points at (a global constant with a
 * string initializer, reached through a constant GEP or cast): up to its
 * first NUL, at most `limit` bytes (memcmp: up to limit, NULs included).
 * Returns the count, 0 when v is no such constant. */
static size_t const_bytes(LLVMValueRef v, const char **bytes, size_t limit, bool nul_ends)
{
    while (v && LLVMIsAConstantExpr(v) &&
           (LLVMGetConstOpcode(v) == LLVMGetElementPtr || LLVMGetConstOpcode(v) == LLVMBitCast)) {
        if (LLVMGetConstOpcode(v) == LLVMGetElementPtr) /* only the start of the array */
            for (int k = 1; k < LLVMGetNumOperands(v); k++) {
                LLVMValueRef ix = LLVMGetOperand(v, (unsigned)k);
                if (!LLVMIsAConstantInt(ix) || LLVMConstIntGetZExtValue(ix) != 0)
                    return 0;
            }
        v = LLVMGetOperand(v, 0);
    }
    if (!v || !LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v))
        return 0;
    LLVMValueRef init = LLVMGetInitializer(v);
    if (!init || !LLVMIsAConstantDataSequential(init) || !LLVMIsConstantString(init))
        return 0;
    size_t len = 0;
    const char *s = LLVMGetAsString(init, &len);
    size_t n = 0;
    while (n < len && n < limit && !(nul_ends && s[n] == '\0'))
        n++;
    *bytes = s;
    return n;
}

/* The hex digits of a string compare's constant operand (pdb_cmp.token),
 * interned; NULL when neither pointer is a constant string. */
static const char *str_token(numberer *N, const inst_site *s)
{
    LLVMValueRef call = s->inst;
    size_t limit = PDB_TOKEN_MAX;
    bool nul_ends = s->str != STR_MEMCMP; /* memcmp compares NULs too */
    if (s->str != STR_STRCMP) { /* strncmp, memcmp: a constant length bounds it */
        LLVMValueRef n = LLVMGetNumArgOperands(call) > 2 ? LLVMGetOperand(call, 2) : NULL;
        if (n && LLVMIsAConstantInt(n)) {
            if (LLVMConstIntGetZExtValue(n) < limit)
                limit = (size_t)LLVMConstIntGetZExtValue(n);
        } else if (!nul_ends) {
            return NULL; /* memcmp of an unknown length */
        }
    }
    for (unsigned i = 0; i < 2; i++) {
        const char *b = NULL;
        size_t n = const_bytes(LLVMGetOperand(call, i), &b, limit, nul_ends);
        if (n == 0)
            continue;
        char hex[2 * PDB_TOKEN_MAX + 1];
        for (size_t k = 0; k < n; k++)
            snprintf(hex + 2 * k, 3, "%02x", (unsigned char)b[k]);
        return intern(N, hex);
    }
    return NULL;
}

/* Fills the branch of a br or switch site and its edges. */
static void fill_branch(numberer *N, const inst_site *s)
{
    pdb_branch *b = &N->db->branches[s->branch];
    b->func = s->func;
    b->block = s->block;
    b->first_edge = s->first_edge;
    b->n_edges = s->n_edges;
    b->cmp_site = s->cmp_site;
    b->loc = loc_of(N, s->inst);
    N->db->funcs[s->func].block_branch[s->block] = (int32_t)s->branch;
    if (s->kind == SITE_BR) {
        b->kind = PDB_BR;
        b->cond = cond_text(N, s);
        set_edge(N, s, 0, LLVMGetSuccessor(s->inst, 0), "true");
        set_edge(N, s, 1, LLVMGetSuccessor(s->inst, 1), "false");
        if (s->cmp_site >= 0 && s->cond != COND_STR) {
            pdb_cmp *c = &N->db->cmps[s->cmp_site];
            c->branch = (int32_t)s->branch;
            c->kind = intern(N, s->cond == COND_FCMP ? "fcmp" : "icmp");
            c->loc = loc_of(N, LLVMGetCondition(s->inst));
            c->konst = has_const_operand(LLVMGetCondition(s->inst), 2);
        }
        return;
    }
    b->kind = PDB_SWITCH;
    b->cond = intern(N, "switch");
    uint32_t ncases = s->n_edges - 1;
    for (uint32_t k = 0; k < ncases; k++) {
        char label[64];
        LLVMValueRef v = LLVMGetOperand(s->inst, 2 + 2 * k);
        if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) <= 64)
            snprintf(label, sizeof label, "case %lld", LLVMConstIntGetSExtValue(v));
        else
            snprintf(label, sizeof label, "case #%u", k);
        set_edge(N, s, k, LLVMGetSuccessor(s->inst, k + 1), label);
    }
    set_edge(N, s, ncases, LLVMGetSwitchDefaultDest(s->inst), "default");
}

/* Records a str call site or an error site. */
static void fill_call_site(numberer *N, const inst_site *s)
{
    char name[256];
    if (s->kind == SITE_STRCALL) {
        pdb_cmp *c = &N->db->cmps[s->cmp_site];
        c->branch = -1;
        c->kind = intern(N, str_names[s->str]);
        c->loc = loc_of(N, s->inst);
        c->konst = has_const_operand(s->inst, 2);
        c->token = str_token(N, s);
    } else if (s->kind == SITE_ERROR) {
        pdb_error *er = &N->db->errors[s->error_site];
        er->func = s->func;
        er->block = s->block;
        er->loc = loc_of(N, s->inst);
        er->callee = intern(N, inst_name(inst_callee(s->inst), name, sizeof name));
        er->leads = leads_block(s->inst);
    }
}

/* Links string-compare sites to the branch consuming their result. */
static void link_str_branches(numberer *N)
{
    for (size_t i = 0; i < N->w.n_sites; i++) {
        const inst_site *s = &N->w.sites[i];
        if (s->kind == SITE_BR && s->cond == COND_STR && N->db->cmps[s->cmp_site].branch < 0)
            N->db->cmps[s->cmp_site].branch = (int32_t)s->branch;
    }
}

/* ==== entry point ============================================================ */

/* Pointer width of the module's target in bits (64 when unknown). */
static int module_arch_bits(LLVMModuleRef m)
{
    LLVMTargetDataRef td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
    int bits = (int)LLVMPointerSize(td) * 8;
    LLVMDisposeTargetData(td);
    return bits == 32 ? 32 : 64;
}

/* ==== stdin targets ============================================================ */

/* Scans the calls of the module: does it read stdin, does it call
 * __VERIFIER_nondet_*. */
static void stdin_use(LLVMModuleRef m, bool *in, bool *nondet)
{
    *in = *nondet = false;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(i);
                size_t n;
                const char *name = callee && LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n)
                                                                    : "";
                if (!strncmp(name, "__VERIFIER_nondet_", 18))
                    *nondet = true;
                else if (inst_stdin_call(i, name) != INST_STDIN_NONE)
                    *in = true;
            }
}

/* Whether the address of an error function (reach_error, __VERIFIER_error)
 * is used other than as the callee of a direct call: it may then be called
 * where no error site records it. */
static bool error_fn_escapes(LLVMModuleRef m)
{
    static const char *const names[] = {"reach_error", "__VERIFIER_error"};
    for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
        LLVMValueRef f = LLVMGetNamedFunction(m, names[k]);
        for (LLVMUseRef u = f ? LLVMGetFirstUse(f) : NULL; u; u = LLVMGetNextUse(u)) {
            LLVMValueRef user = LLVMGetUser(u);
            if (!LLVMIsACallInst(user) || LLVMGetCalledValue(user) != f)
                return true;
            for (unsigned a = 0; a + 1 < (unsigned)LLVMGetNumOperands(user); a++)
                if (LLVMGetOperand(user, a) == f)
                    return true; /* passed as an argument too */
        }
    }
    return false;
}

/* Fills the db from the walk; false on oom. */
static bool fill_db(numberer *N, LLVMModuleRef m)
{
    inst_walk *w = &N->w;
    progdb *db = N->db;
    if (!progdb_alloc(db, (uint32_t)w->n_fns, w->n_branches, w->n_edges, w->n_errors, w->n_cmp))
        return false;
    LLVMValueRef fuzz = LLVMGetNamedFunction(m, "LLVMFuzzerTestOneInput");
    db->harness = fuzz && !LLVMIsDeclaration(fuzz) ? CTG_HARNESS_LIBFUZZER : CTG_HARNESS_TESTCOMP;
    if (db->harness == CTG_HARNESS_TESTCOMP) {
        bool in, nondet;
        stdin_use(m, &in, &nondet);
        if (in && !nondet)
            db->harness = CTG_HARNESS_STDIN;
        db->stdin_mixed = in && nondet;
    }
    db->arch_bits = module_arch_bits(m);
    db->n_inline_asm = w->n_asm;
    db->error_escapes = error_fn_escapes(m);
    if (!index_functions(N))
        return false;
    for (uint32_t fi = 0; fi < w->n_fns; fi++)
        if (!fill_func(N, fi))
            return false;
    for (size_t i = 0; i < w->n_sites; i++) {
        const inst_site *s = &w->sites[i];
        if (s->kind == SITE_BR || s->kind == SITE_SWITCH)
            fill_branch(N, s);
        else
            fill_call_site(N, s);
    }
    link_str_branches(N);
    return !N->oom;
}

bool inst_number(LLVMModuleRef m, progdb *db, ctg_err *e)
{
    if (db->funcs || db->branches)
        return err_set(e, "instrumenter: program database already filled");
    numberer N = {{0}, db, NULL, false};
    bool ok = inst_walk_module(m, &N.w, e);
    if (ok && !fill_db(&N, m))
        ok = err_set(e, "instrumenter: out of memory while numbering the program");
    ctg_free(N.by_fn);
    inst_walk_release(&N.w);
    return ok;
}
