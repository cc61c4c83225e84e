/*
 * test_instrument.c - the LLVM-C passes on modules compiled from C strings:
 * harness detection, numbering (counts, labels, lines, stability), and the
 * coverage pass (hooks, constants, string compares, redirections, error
 * sites, inline assembly, wide integers).  No runtime needed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "base/proc.h"
#include "instrument/instrument.h"
#include "runtime/rt_protocol.h"

#include "llvm_fixture.h"

/* Index of the function called name in db, or -1. */
static int func_index(const progdb *db, const char *name)
{
    for (uint32_t i = 0; i < db->n_funcs; i++)
        if (strcmp(db->funcs[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* Value of the i32 constant global name. */
static long long const_global(LLVMModuleRef m, const char *name)
{
    LLVMValueRef g = LLVMGetNamedGlobal(m, name);
    assert_non_null(g);
    assert_true(LLVMIsGlobalConstant(g));
    return LLVMConstIntGetZExtValue(LLVMGetInitializer(g));
}

/* Number of calls in m whose callee is named name. */
/* Calls of a hook through its guard (inst_hook_call_guarded, an internal
 * function named GUARD_PREFIX + the hook) count as calls of the hook; the
 * guard's own call of the hook does not. */
#define GUARD_PREFIX "ctg.guard."

static bool is_guard(LLVMValueRef f)
{
    size_t len;
    const char *s = LLVMGetValueName2(f, &len);
    return len > strlen(GUARD_PREFIX) && memcmp(s, GUARD_PREFIX, strlen(GUARD_PREFIX)) == 0;
}

/* Calls of name outside the guards: direct ones (want_guarded false) or
 * through name's guard (true). */
static int calls_of(LLVMModuleRef m, const char *name, bool want_guarded)
{
    int n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef b = is_guard(f) ? NULL : LLVMGetFirstBasicBlock(f); b;
             b = LLVMGetNextBasicBlock(b))
            for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
                if (!LLVMIsACallInst(i))
                    continue;
                LLVMValueRef c = LLVMGetCalledValue(i);
                if (LLVMIsAConstantExpr(c))
                    c = LLVMGetOperand(c, 0);
                size_t len;
                const char *s = LLVMGetValueName2(c, &len);
                bool guarded = is_guard(c);
                if (guarded)
                    s += strlen(GUARD_PREFIX), len -= strlen(GUARD_PREFIX);
                n += guarded == want_guarded && len == strlen(name) && memcmp(s, name, len) == 0;
            }
    return n;
}

static int count_calls(LLVMModuleRef m, const char *name)
{
    return calls_of(m, name, false) + calls_of(m, name, true);
}

/* Runs inst_cov on m and checks the result verifies. */
static void cov(LLVMModuleRef m, const progdb *db, inst_stats *st)
{
    ctg_err e = {{0}};
    if (!inst_cov(m, db, st, &e))
        fail_msg("inst_cov: %s", e.msg);
    char *msg = NULL;
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
        fail_msg("invalid module: %s", msg);
    LLVMDisposeMessage(msg);
}

/* ==== numbering ============================================================ */

static const char numbering_src[] =
    "int f(int x)\n"                         /* 1 */
    "{\n"                                    /* 2 */
    "    int s = 0;\n"                       /* 3 */
    "    if (x > 10)\n"                      /* 4 */
    "        s = 1;\n"                       /* 5 */
    "    else\n"                             /* 6 */
    "        s = 2;\n"                       /* 7 */
    "    switch (x) {\n"                     /* 8 */
    "    case 1: s += 1; break;\n"           /* 9 */
    "    case -2: s += 2; break;\n"          /* 10 */
    "    case 7: s += 7; break;\n"           /* 11 */
    "    default: s = 0;\n"                  /* 12 */
    "    }\n"                                /* 13 */
    "    for (int i = 0; i < x; i++)\n"      /* 14 */
    "        s += i;\n"                      /* 15 */
    "    return s;\n"                        /* 16 */
    "}\n"                                    /* 17 */
    "int main(void) { return f(3); }\n";     /* 18 */

static void test_numbering(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "num.c", numbering_src, 64);
    int harness = -1;
    progdb *db = number(m, &harness);
    assert_int_equal(harness, CTG_HARNESS_TESTCOMP);
    assert_int_equal(db->harness, CTG_HARNESS_TESTCOMP);
    assert_int_equal(db->arch_bits, 64);
    assert_int_equal(db->n_branches, 3);
    assert_int_equal(db->n_edges, 2 + 4 + 2);
    assert_int_equal(db->n_cmp, 2);
    assert_int_equal(db->n_errors, 0);
    int fi = func_index(db, "f");
    assert_true(fi >= 0);
    assert_true(func_index(db, "main") >= 0);
    assert_int_equal(func_index(db, CTG_SYM_USER_MAIN), -1);
    assert_int_equal(db->funcs[fi].loc.line, 1);
    assert_non_null(strstr(db->funcs[fi].loc.file, "/num.c"));
    const pdb_branch *b = db->branches;
    assert_int_equal(b[0].kind, PDB_BR);
    assert_int_equal(b[0].loc.line, 4);
    assert_string_equal(b[0].cond, "icmp sgt");
    assert_int_equal(b[0].cmp_site, 0);
    assert_int_equal(b[1].kind, PDB_SWITCH);
    assert_int_equal(b[1].loc.line, 8);
    assert_int_equal(b[1].n_edges, 4);
    assert_int_equal(b[1].first_edge, 2);
    assert_int_equal(b[1].cmp_site, -1);
    assert_int_equal(b[2].loc.line, 14);
    assert_string_equal(b[2].cond, "icmp slt");
    assert_int_equal(b[2].cmp_site, 1);
    static const char *const labels[] = {"true", "false", "case 1", "case -2",
                                         "case 7", "default", "true", "false"};
    for (int k = 0; k < 8; k++) {
        assert_string_equal(db->edges[k].label, labels[k]);
        assert_int_equal(db->edges[k].branch, k < 2 ? 0 : k < 6 ? 1 : 2);
    }
    char want[64];
    snprintf(want, sizeof want, "f:%u:D", b[1].block);
    assert_string_equal(progdb_edge_name(db, 5), want);
    assert_true(b[1].block > b[0].block && b[2].block > b[1].block);
    /* the CFG: every branch's edges are successors of its block */
    for (uint32_t i = 0; i < db->n_branches; i++) {
        const pdb_func *f = &db->funcs[b[i].func];
        assert_int_equal(f->block_branch[b[i].block], (int)i);
        for (uint32_t k = 0; k < b[i].n_edges; k++) {
            uint32_t t = db->edges[b[i].first_edge + k].target;
            bool found = false;
            for (uint32_t s = f->succ_start[b[i].block]; s < f->succ_start[b[i].block + 1]; s++)
                found = found || f->succ[s] == t;
            assert_true(found);
        }
    }
    assert_int_equal(db->cmps[0].branch, 0);
    assert_string_equal(db->cmps[1].kind, "icmp");
    assert_int_equal(db->cmps[1].loc.line, 14);
    assert_true(db->cmps[0].konst);  /* x > 10 */
    assert_false(db->cmps[1].konst); /* i < x */
    /* main was renamed */
    assert_null(LLVMGetNamedFunction(m, "main"));
    assert_non_null(LLVMGetNamedFunction(m, CTG_SYM_USER_MAIN));
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* Two compilations of the same program give byte-identical databases. */
static void test_stable_ids(void **state)
{
    (void)state;
    char path[2][512];
    for (int k = 0; k < 2; k++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = compile(ctx, "stable.c", numbering_src, 64);
        progdb *db = number(m, NULL);
        snprintf(path[k], sizeof path[k], "%s/stable%d.json", tmpdir, k);
        ctg_err e = {{0}};
        assert_true(progdb_save(db, path[k], &e));
        progdb_free(db);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    char *a, *b;
    size_t la, lb;
    assert_true(fs_read(path[0], &a, &la, NULL));
    assert_true(fs_read(path[1], &b, &lb, NULL));
    assert_int_equal(la, lb);
    assert_memory_equal(a, b, la);
    ctg_free(a);
    ctg_free(b);
}

/* Preparing a prepared module (prog.bc) changes nothing: same ids. */
static void test_prepare_twice(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "twice.c", numbering_src, 64);
    progdb *db = number(m, NULL);
    int harness = -1;
    ctg_err e = {{0}};
    if (!inst_prepare(m, &harness, &e))
        fail_msg("second inst_prepare: %s", e.msg);
    assert_int_equal(harness, CTG_HARNESS_TESTCOMP);
    progdb *db2 = progdb_new();
    assert_true(inst_number(m, db2, &e));
    assert_int_equal(db2->n_edges, db->n_edges);
    assert_int_equal(db2->n_cmp, db->n_cmp);
    for (uint32_t i = 0; i < db->n_branches; i++) {
        assert_int_equal(db2->branches[i].block, db->branches[i].block);
        assert_int_equal(db2->branches[i].first_edge, db->branches[i].first_edge);
    }
    progdb_free(db2);
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* ==== harness detection ===================================================== */

static void test_no_entry(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "lib.c", "int f(int x) { return x > 2; }\n", 64);
    ctg_err e = {{0}};
    assert_false(inst_prepare(m, NULL, &e));
    assert_string_equal(e.msg, "lib.c: defines neither main nor LLVMFuzzerTestOneInput; write a "
                               "harness or use --function NAME");
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

static void test_libfuzzer_harness(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "fz.c",
                              "#include <stdint.h>\n#include <stddef.h>\n"
                              "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)\n"
                              "{ if (n > 3 && d[0] == 'F') return 1; return 0; }\n"
                              "int main(int c, char **v) { if (c > 1) return *v[1]; return 0; }\n",
                              64);
    int harness = -1;
    progdb *db = number(m, &harness);
    assert_int_equal(harness, CTG_HARNESS_LIBFUZZER);
    assert_int_equal(db->harness, CTG_HARNESS_LIBFUZZER);
    /* the stand-alone main of a fuzz target is neither run nor numbered */
    assert_int_equal(db->n_branches, 2);
    assert_int_equal(db->n_funcs, 1);
    assert_null(LLVMGetNamedFunction(m, "main"));
    assert_null(LLVMGetNamedFunction(m, CTG_SYM_USER_MAIN));
    inst_stats st;
    cov(m, db, &st);
    assert_int_equal(const_global(m, CTG_SYM_HARNESS), CTG_HARNESS_LIBFUZZER);
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* ==== the coverage pass ===================================================== */

static const char hooks_src[] =
    "#include <string.h>\n"
    "#include <stdlib.h>\n"
    "#include <unistd.h>\n"
    "extern int __VERIFIER_nondet_int(void);\n"
    "int __VERIFIER_nondet_char(void) { return 'x'; }\n"
    "void reach_error(void) { abort(); }\n"
    "static int cmp_ptr(int *p, int *q) { return p < q; }\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    int x = __VERIFIER_nondet_int();\n"
    "    double d = x / 3.0;\n"
    "    char *buf = malloc(8);\n"
    "    if (!buf) return 1;\n"
    "    if (d < 1.5) x++;\n"
    "    if (strcmp(argv[0], \"abc\") == 0) x++;\n"
    "    if (!strncmp(argv[0], \"abcdef\", 2)) x++;\n"
    "    if (memcmp(argv[0], \"zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz\", 40) > 0) x++;\n"
    "    if (cmp_ptr(&x, &argc)) x++;\n"
    "    __int128 w = (__int128)x << 70;\n"
    "    if (w > 5) x++;\n"
    "    switch (w) { case 1: x++; break; case 2: x--; break; }\n"
    "    _Bool flag = x & 1;\n"
    "    if (flag) x++;\n"
    "    if (fork() == 0) x++;\n"
    "    buf = realloc(buf, 16); free(calloc(2, 2));\n"
    "    __asm__ volatile(\"nop\");\n"
    "    if (x == 42) reach_error();\n"
    "    if (x == 43) reach_error();\n"
    "    free(buf);\n"
    "    return __VERIFIER_nondet_char();\n"
    "}\n";

static void test_cov_hooks(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "hooks.c", hooks_src, 64);
    progdb *db = number(m, NULL);
    /* the program's own __VERIFIER_nondet_char body was dropped */
    LLVMValueRef nd = LLVMGetNamedFunction(m, "__VERIFIER_nondet_char");
    assert_non_null(nd);
    assert_true(LLVMIsDeclaration(nd));
    assert_int_equal(db->n_errors, 2);
    assert_string_equal(db->errors[0].callee, "reach_error");
    assert_int_equal(db->errors[1].loc.line, 28);
    assert_int_equal(db->n_inline_asm, 1);
    inst_stats st;
    cov(m, db, &st);
    assert_int_equal(const_global(m, CTG_SYM_N_EDGES), db->n_edges);
    assert_int_equal(const_global(m, CTG_SYM_N_CMP), db->n_cmp);
    assert_int_equal(const_global(m, CTG_SYM_N_ERRORS), 2);
    assert_int_equal(const_global(m, CTG_SYM_HARNESS), CTG_HARNESS_TESTCOMP);
    assert_int_equal(st.inline_asm, 1);
    assert_int_equal(st.error_sites, 2);
    assert_int_equal(st.str_hooks, 3);
    assert_int_equal(st.switches, 1);
    assert_int_equal(st.branches, db->n_branches - st.switches);
    assert_int_equal(count_calls(m, CTG_HOOK_ERROR), 2);
    assert_int_equal(count_calls(m, "reach_error"), 2);
    assert_int_equal(count_calls(m, CTG_HOOK_STRCMP), 1);
    assert_int_equal(count_calls(m, CTG_HOOK_STRNCMP), 1);
    assert_int_equal(count_calls(m, CTG_HOOK_MEMCMP), 1);
    assert_int_equal(count_calls(m, "strcmp"), 0);
    /* int results and operands go to the 32-bit forms of the hooks */
    assert_int_equal(count_calls(m, CTG_HOOK_CMP_STR32), 3);
    assert_int_equal(count_calls(m, CTG_HOOK_CMP_STR), 0);
    assert_int_equal(count_calls(m, CTG_HOOK_FCMP), 1);
    assert_true(count_calls(m, CTG_HOOK_CMP) + count_calls(m, CTG_HOOK_CMP32) >= 4); /* !buf, x==42, x==43, p<q */
    assert_true(count_calls(m, CTG_HOOK_CMP32) >= 2); /* x==42, x==43 */
    assert_true(count_calls(m, CTG_HOOK_CMP) >= 1);   /* !buf: a 64-bit pointer */
    assert_int_equal(count_calls(m, CTG_HOOK_BR), 2); /* the i128 compare, flag */
    assert_int_equal(count_calls(m, CTG_HOOK_SWITCH), 0); /* i128 switch: inline */
    /* the distance hooks are called through their guards: internal,
     * always inlined, a load of the run's flags before the call */
    assert_int_equal(calls_of(m, CTG_HOOK_FCMP, true), 1);
    assert_int_equal(calls_of(m, CTG_HOOK_CMP_STR32, true), 3);
    assert_int_equal(calls_of(m, CTG_HOOK_BR, true), 2);
    assert_int_equal(calls_of(m, CTG_HOOK_CMP32, false) + calls_of(m, CTG_HOOK_CMP, false), 0);
    LLVMValueRef g = LLVMGetNamedFunction(m, GUARD_PREFIX CTG_HOOK_FCMP);
    assert_non_null(g);
    assert_int_equal(LLVMGetLinkage(g), LLVMInternalLinkage);
    unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
    assert_non_null(LLVMGetEnumAttributeAtIndex(g, LLVMAttributeFunctionIndex, always));
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(g));
    assert_true(LLVMIsALoadInst(first));
    assert_ptr_equal(LLVMGetOperand(first, 0), LLVMGetNamedGlobal(m, CTG_SYM_RUN_FLAGS));
    assert_int_equal(count_calls(m, CTG_HOOK_FORK), 1);
    assert_int_equal(count_calls(m, "fork"), 0);
    assert_int_equal(count_calls(m, CTG_HOOK_MALLOC), 1);
    assert_int_equal(count_calls(m, CTG_HOOK_CALLOC), 1);
    assert_int_equal(count_calls(m, CTG_HOOK_REALLOC), 1);
    assert_int_equal(count_calls(m, "malloc"), 0);
    assert_int_equal(count_calls(m, "free"), 2);
    /* the branch on strcmp(...) == 0 is labelled with the string compare */
    bool seen = false;
    for (uint32_t i = 0; i < db->n_branches; i++)
        seen = seen || strcmp(db->branches[i].cond, "strcmp eq") == 0;
    assert_true(seen);
    assert_int_equal(db->cmps[db->n_cmp - 1].kind[0], 'i');
    /* a string compare's constant operand is kept (its compared bytes, in
     * hex) for the fuzzer's dictionary; an integer compare has none */
    /* (memcmp: 40 bytes compared, the first 32 kept) */
    const char *want[][2] = {{"strcmp", "616263"}, {"strncmp", "6162"},
                             {"memcmp", "7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"
                                        "7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a7a"}};
    for (int k = 0; k < 3; k++) {
        const char *got = NULL;
        for (uint32_t i = 0; i < db->n_cmp; i++)
            if (strcmp(db->cmps[i].kind, want[k][0]) == 0)
                got = db->cmps[i].token;
        assert_non_null(got);
        assert_string_equal(got, want[k][1]);
    }
    assert_null(db->cmps[db->n_cmp - 1].token);
    /* a second pass over the same db refuses a module that does not match */
    ctg_err e = {{0}};
    LLVMModuleRef other = compile(ctx, "other.c", numbering_src, 64);
    progdb *odb = number(other, NULL);
    assert_false(inst_cov(other, db, NULL, &e));
    assert_non_null(strstr(e.msg, "disagree"));
    progdb_free(odb);
    LLVMDisposeModule(other);
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* Pointer compares, a 64-bit switch and -m32 instrument and verify; on a
 * 32-bit target a pointer compare takes the 32-bit hook (i386's fast
 * instruction selector cannot pass an i64). */
static void test_cov_switch_m32(void **state)
{
    (void)state;
    static const char src[] =
        "extern long long __VERIFIER_nondet_longlong(void);\n"
        "int main(void) {\n"
        "  long long v = __VERIFIER_nondet_longlong();\n"
        "  char c[2]; char *p = v ? c : 0;\n"
        "  if (p == 0) return 1;\n"
        "  switch (v) { case -5: return 2; case 1LL << 40: return 3; default: return 0; }\n"
        "}\n";
    for (int bits = 64; bits >= 32; bits -= 32) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = compile(ctx, "sw.c", src, bits);
        progdb *db = number(m, NULL);
        assert_int_equal(db->arch_bits, bits);
        assert_int_equal(db->n_branches, 3); /* v ? :, p == 0, switch */
        inst_stats st;
        cov(m, db, &st);
        assert_int_equal(st.switches, 1);
        assert_int_equal(count_calls(m, CTG_HOOK_SWITCH), 1); /* long long: the 64-bit form */
        assert_int_equal(count_calls(m, CTG_HOOK_SWITCH32), 0);
        /* v != 0 is 64-bit; p == 0 takes the 32-bit form on a 32-bit target */
        assert_int_equal(count_calls(m, CTG_HOOK_CMP) + count_calls(m, CTG_HOOK_CMP32), 2);
        assert_int_equal(count_calls(m, CTG_HOOK_CMP32), bits == 32 ? 1 : 0);
        assert_int_equal(count_calls(m, CTG_HOOK_BR), 0);
        progdb_free(db);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
}

/* In function fn of m: loads of the coverage map pointer (one per inline
 * counter), and calls of __ctg_cmp32 / __ctg_br whose flag argument (bits,
 * cond) carries the hook's count flag, and of __ctg_cmpc32 (which always
 * counts: the flag is in its table row). */
static void lean_census(LLVMModuleRef m, const char *fn, int *map_loads, int *counted, int *hooks,
                        int *guarded)
{
    *map_loads = *counted = *hooks = *guarded = 0;
    LLVMValueRef f = LLVMGetNamedFunction(m, fn);
    assert_non_null(f);
    LLVMValueRef map = LLVMGetNamedGlobal(m, CTG_SYM_COV_PTR);
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            if (LLVMIsALoadInst(i) && LLVMGetOperand(i, 0) == map)
                (*map_loads)++;
            if (!LLVMIsACallInst(i))
                continue;
            size_t len;
            const char *name = LLVMGetValueName2(LLVMGetCalledValue(i), &len);
            bool via_guard = is_guard(LLVMGetCalledValue(i));
            if (via_guard)
                name += strlen(GUARD_PREFIX), len -= strlen(GUARD_PREFIX);
            bool cmp = len == strlen(CTG_HOOK_CMP32) && !memcmp(name, CTG_HOOK_CMP32, len);
            bool br = len == strlen(CTG_HOOK_BR) && !memcmp(name, CTG_HOOK_BR, len);
            bool cmpc = len == strlen(CTG_HOOK_CMPC32) && !memcmp(name, CTG_HOOK_CMPC32, len);
            if (cmpc) {
                (*hooks)++, (*counted)++;
                *guarded += via_guard;
                continue;
            }
            if (!cmp && !br)
                continue;
            (*hooks)++;
            *guarded += via_guard;
            LLVMValueRef flag = LLVMGetOperand(i, cmp ? 4 : 1);
            if (cmp && LLVMIsAConstantInt(flag))
                *counted += (LLVMConstIntGetZExtValue(flag) & CTG_CMP_COUNT) != 0;
            if (br && LLVMIsASelectInst(flag)) /* select c, 1|COUNT, COUNT */
                *counted += (LLVMConstIntGetZExtValue(LLVMGetOperand(flag, 2)) & CTG_BR_COUNT) != 0;
        }
}

/* A function over INST_LEAN_FUNCTION instructions has no inline counters: its
 * integer compares and boolean branches pass the count flag to their hooks
 * (a compare with a constant calls __ctg_cmpc32 with its table row, which
 * holds the constant, the predicate, the edge and the flag); a small
 * function of the same module keeps its counters and plain hooks. */
static void test_cov_lean(void **state)
{
    (void)state;
    sbuf src = SBUF_INIT;
    sbuf_puts(&src, "extern int __VERIFIER_nondet_int(void);\n"
                    "extern _Bool __VERIFIER_nondet_bool(void);\n"
                    "int big(int x, _Bool f) {\n  int s = 0;\n  if (f) s = 1;\n");
    for (int k = 0; k < 1000; k++)
        sbuf_printf(&src, "  if (x == %d) s += %d;\n", k, k);
    sbuf_puts(&src, "  return s;\n}\n"
                    "int main(void) {\n  int x = __VERIFIER_nondet_int();\n"
                    "  _Bool f = __VERIFIER_nondet_bool();\n  if (f) x++;\n"
                    "  return x > 5 ? big(x, f) : 0;\n}\n");
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "lean.c", sbuf_str(&src), 64);
    progdb *db = number(m, NULL);
    inst_stats st;
    cov(m, db, &st);
    assert_int_equal(st.lean_functions, 1);
    int loads, counted, hooks, guarded;
    lean_census(m, "big", &loads, &counted, &hooks, &guarded);
    assert_int_equal(loads, 0);
    assert_int_equal(hooks, 1001); /* the bool and the 1000 compares */
    assert_int_equal(counted, 1001);
    assert_int_equal(guarded, 0); /* a counting hook is always called */
    LLVMValueRef tab = LLVMGetNamedGlobal(m, CTG_SYM_CMPC_TAB);
    assert_non_null(tab);
    LLVMValueRef rows = LLVMGetInitializer(tab);
    assert_int_equal(LLVMGetArrayLength(LLVMTypeOf(rows)), 1000);
    for (unsigned k = 0; k < 1000; k += 333) { /* row k: x == k */
        LLVMValueRef row = LLVMGetOperand(rows, k);
        uint64_t f[5];
        for (unsigned j = 0; j < 5; j++)
            f[j] = LLVMConstIntGetZExtValue(LLVMGetOperand(row, j));
        assert_int_equal(f[0], k);
        assert_int_equal(f[2], LLVMIntEQ);
        assert_int_equal(f[3], 32u | CTG_CMP_COUNT);
        assert_int_equal(db->branches[db->cmps[f[4]].branch].first_edge, f[1]);
    }
    lean_census(m, CTG_SYM_USER_MAIN, &loads, &counted, &hooks, &guarded);
    assert_int_equal(loads, 2); /* f and x > 5: inline */
    assert_int_equal(hooks, 2);
    assert_int_equal(counted, 0);
    assert_int_equal(guarded, 2); /* distance only: behind the flags' guard */
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    sbuf_release(&src);
}

/* ==== loops counting in registers ============================================ */

static const char loops_src[] =
    "extern int ext(int);\n"
    "int simple(const unsigned char *d, int n) {\n" /* loop and if: 2 */
    "  int s = 0;\n"
    "  for (int i = 0; i < n; i++)\n"
    "    if (d[i] & 1) s += d[i];\n"
    "  return s;\n}\n"
    "int nested(const unsigned char *d, int n) {\n" /* the inner loop: 1 */
    "  int s = 0;\n"
    "  for (int k = 0; k < 3; k++)\n"
    "    for (int i = 0; i < n; i++) s ^= d[i];\n"
    "  return s;\n}\n"
    "int calls(const unsigned char *d, int n) {\n" /* a call: 0 */
    "  int s = 0;\n"
    "  for (int i = 0; i < n; i++) s += ext(d[i]);\n"
    "  return s;\n}\n"
    "int sw(const unsigned char *d, int n) {\n" /* a switch (its hook counts): 0 */
    "  int s = 0;\n"
    "  for (int i = 0; i < n; i++)\n"
    "    switch (d[i]) { case 1: s++; break; case 2: s--; break; case 9: s *= 2; break; }\n"
    "  return s;\n}\n"
    "int cmp(const char *a, int n) {\n" /* a string compare (a call): 0 */
    "  int s = 0;\n"
    "  for (int i = 0; i < n; i++) s += __builtin_strcmp(a + i, \"x\") == 0;\n"
    "  return s;\n}\n"
    "int main(void) { return 0; }\n";

/* Allocas named name in function fn of m. */
static int allocas_named(LLVMModuleRef m, const char *fn, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, fn);
    assert_non_null(f);
    int n = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)); i;
         i = LLVMGetNextInstruction(i)) {
        size_t len;
        const char *s = LLVMIsAAllocaInst(i) ? LLVMGetValueName2(i, &len) : NULL;
        n += s && len >= strlen(name) && memcmp(s, name, strlen(name)) == 0;
    }
    return n;
}

/* The branches of call-free inner loops count in registers (two allocas
 * each, promoted by -O2); a loop with a call, a switch or an inner loop
 * keeps its counters in memory.  (test_build's test_loop_counts checks the
 * counts a run leaves.) */
static void test_cov_loops(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "loops.c", loops_src, 64);
    progdb *db = number(m, NULL);
    inst_stats st;
    cov(m, db, &st);
    assert_int_equal(st.loop_counters, 3);
    static const struct {
        const char *fn;
        int regs;
    } want[] = {{"simple", 2}, {"nested", 1}, {"calls", 0}, {"sw", 0}, {"cmp", 0}};
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        if (allocas_named(m, want[k].fn, "ctg.taken") != want[k].regs ||
            allocas_named(m, want[k].fn, "ctg.other") != want[k].regs)
            fail_msg("%s: %d / %d register counters, want %d", want[k].fn,
                     allocas_named(m, want[k].fn, "ctg.taken"),
                     allocas_named(m, want[k].fn, "ctg.other"), want[k].regs);
    }
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

/* Calls in function fn of m whose callee is named name. */
static int calls_in(LLVMModuleRef m, const char *fn, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, fn);
    assert_non_null(f);
    int n = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
        for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
            if (!LLVMIsACallInst(i))
                continue;
            size_t len;
            const char *s = LLVMGetValueName2(LLVMGetCalledValue(i), &len);
            n += len == strlen(name) && memcmp(s, name, len) == 0;
        }
    return n;
}

/* inst_hooks_fast_guards: on x86-64 the guarded calls of optimised
 * functions go to the preserve_most entry points, those of optnone
 * functions stay; on i386 nothing moves. */
static void test_fast_guards(void **state)
{
    (void)state;
    static const char src[] = "extern int __VERIFIER_nondet_int(void);\n"
                              "int f(int x) { if (x > 3) return 1; return 0; }\n"
                              "int g(int x) { if (x < 7) return 1; return 0; }\n"
                              "int main(void) { int v = __VERIFIER_nondet_int();\n"
                              "  return f(v) + g(v); }\n";
    const char *plain = GUARD_PREFIX CTG_HOOK_CMP32, *pm = GUARD_PREFIX CTG_HOOK_CMP32 CTG_HOOK_PM_SUFFIX;
    for (int bits = 64; bits >= 32; bits -= 32) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = compile(ctx, "fg.c", src, bits);
        progdb *db = number(m, NULL);
        inst_stats st;
        cov(m, db, &st);
        assert_int_equal(calls_in(m, "f", plain), 1);
        assert_int_equal(calls_in(m, "g", plain), 1);
        for (int k = 0; k < 2; k++) { /* as build.c's spare_large marks a function */
            const char *a = k ? "noinline" : "optnone";
            LLVMAddAttributeAtIndex(LLVMGetNamedFunction(m, "g"), LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(ctx, LLVMGetEnumAttributeKindForName(a, strlen(a)), 0));
        }
        unsigned moved = inst_hooks_fast_guards(m);
        char *msg = NULL;
        if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
            fail_msg("invalid module: %s", msg);
        LLVMDisposeMessage(msg);
        if (bits == 64) {
            assert_true(moved >= 1);
            assert_int_equal(calls_in(m, "f", plain), 0);
            assert_int_equal(calls_in(m, "f", pm), 1);
            assert_int_equal(calls_in(m, "g", plain), 1); /* optnone: the plain call */
            assert_int_equal(calls_in(m, "g", pm), 0);
            /* the wrapper calls the entry point with its convention */
            assert_int_equal(calls_in(m, pm, CTG_HOOK_CMP32 CTG_HOOK_PM_SUFFIX), 1);
            LLVMValueRef hook = LLVMGetNamedFunction(m, CTG_HOOK_CMP32 CTG_HOOK_PM_SUFFIX);
            assert_non_null(hook);
            assert_int_equal(LLVMGetFunctionCallConv(hook), LLVMPreserveMostCallConv);
        } else {
            assert_int_equal(moved, 0);
            assert_int_equal(calls_in(m, "f", plain), 1);
            assert_null(LLVMGetNamedFunction(m, pm));
        }
        progdb_free(db);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
}

/* A program defining a hook name is refused with a one-line message. */
static void test_reserved_name(void **state)
{
    (void)state;
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = compile(ctx, "res.c", "int __ctg_cmp;\nint main(void) { return __ctg_cmp > 1; }\n",
                              64);
    progdb *db = number(m, NULL);
    ctg_err e = {{0}};
    assert_false(inst_cov(m, db, NULL, &e));
    assert_non_null(strstr(e.msg, "__ctg_cmp"));
    progdb_free(db);
    LLVMDisposeModule(m);
    /* so is the name of a hook's preserve_most form (inst_hooks_fast_guards) */
    m = compile(ctx, "res2.c", "int __ctg_cmp32_pm(int x) { return x; }\n"
                               "int main(void) { return __ctg_cmp32_pm(2) > 1; }\n", 64);
    db = number(m, NULL);
    e = (ctg_err){{0}};
    assert_false(inst_cov(m, db, NULL, &e));
    assert_non_null(strstr(e.msg, "__ctg_cmp32_pm"));
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbering),      cmocka_unit_test(test_stable_ids),
        cmocka_unit_test(test_prepare_twice),
        cmocka_unit_test(test_no_entry),       cmocka_unit_test(test_libfuzzer_harness),
        cmocka_unit_test(test_cov_hooks),      cmocka_unit_test(test_cov_switch_m32),
        cmocka_unit_test(test_reserved_name),  cmocka_unit_test(test_cov_lean),
        cmocka_unit_test(test_cov_loops),      cmocka_unit_test(test_fast_guards),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
