/*
 * test_emit.c - LLVM's code generator run by ctestgen (build_emit.c): a
 * module written as one object or split in two, linked by clang, behaves
 * as the same program built by clang alone (locals shared by both parts,
 * string constants, function-pointer tables, a constructor); a module that
 * one function dominates, or that takes a block's address in a global, is
 * not split; at -O2 the optnone functions are generated apart, and only
 * what the other part uses becomes visible to it; a cancelled job reports
 * failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <llvm-c/BitReader.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "base/proc.h"
#include "base/sbuf.h"
#include "compile/build_emit.h"

static char dir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ctg-emit-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(dir, NULL) ? 0 : -1;
}

/* Runs argv; returns its stdout (static buffer) or fails the test. */
static const char *run(char *const argv[])
{
    static sbuf out = SBUF_INIT;
    out.len = 0;
    sbuf err = SBUF_INIT;
    proc_result r;
    ctg_err e = {{0}};
    proc_opts po = {.out = &out, .err = &err, .timeout_s = 60};
    assert_true(proc_run(argv, &po, &r, &e));
    if (!r.exited || r.code != 0)
        fail_msg("%s failed: %s", argv[0], sbuf_str(&err));
    sbuf_release(&err);
    return sbuf_str(&out);
}

/* dir/name */
static char *at(const char *name)
{
    static char buf[8][512];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

/* Source text -> module (clang -O0 bitcode, as the build makes it). */
static LLVMModuleRef module_of(LLVMContextRef ctx, const char *text)
{
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(at("p.c"), text, strlen(text), &e));
    char *cc[] = {CTG_CLANG, "-c", "-emit-llvm", "-O0", "-Xclang", "-disable-O0-optnone", "-w",
                  "-o", at("p.bc"), at("p.c"), NULL};
    run(cc);
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    assert_false(LLVMCreateMemoryBufferWithContentsOfFile(at("p.bc"), &buf, &msg));
    LLVMModuleRef m = NULL;
    assert_false(LLVMParseBitcodeInContext2(ctx, buf, &m));
    LLVMDisposeMemoryBuffer(buf);
    return m;
}

/* Emits m at level, links the objects, runs the program; its output
 * (static) and the number of objects. */
static const char *emit_and_run(LLVMModuleRef m, int level, int *parts)
{
    char *paths[EMIT_MAX_PARTS] = {ctg_strdup(at("p.0.o")), ctg_strdup(at("p.1.o"))};
    emit_job j;
    ctg_err e = {{0}};
    emit_start(&j, m, level, paths, &e);
    if (!emit_finish(&j, false, m, paths, "p.c", &e))
        fail_msg("emit: %s", e.msg);
    *parts = j.n;
    char *ld[6] = {CTG_CLANG, paths[0], paths[1], NULL, NULL, NULL};
    ld[1 + j.n] = "-o", ld[2 + j.n] = at("p.emit");
    run(ld);
    ctg_free(paths[0]), ctg_free(paths[1]);
    char *exe[] = {at("p.emit"), NULL};
    return run(exe);
}

/* The same program built by clang alone: its output (static). */
static const char *clang_run(void)
{
    char *cc[] = {CTG_CLANG, "-O0", "-w", "-o", at("p.ref"), at("p.c"), NULL};
    run(cc);
    char *exe[] = {at("p.ref"), NULL};
    static char ref[4096];
    snprintf(ref, sizeof ref, "%s", run(exe));
    return ref;
}

static int cpus(void)
{
    cpu_set_t s;
    return sched_getaffinity(0, sizeof s, &s) == 0 ? CPU_COUNT(&s) : 1;
}

/* big<k>: a chain of `n` compares over x, as generated state machines are. */
static void big_function(sbuf *s, int k, int n)
{
    sbuf_printf(s, "int big%d(int x) {\n  int r = 0;\n", k);
    for (int i = 0; i < n; i++)
        sbuf_printf(s, "  if (x == %d) r += helper(%d) + (int)strlen(tag);\n", i, i + k);
    sbuf_puts(s, "  return r;\n}\n");
}

/* A program whose functions big0 and big1 have n0 and n1 compares. */
static char *program(int n0, int n1, bool blockaddr)
{
    sbuf s = SBUF_INIT;
    sbuf_puts(&s, "#include <stdio.h>\n#include <string.h>\n"
                  "static int counter;\nstatic const char *tag = \"part\";\n"
                  "static int helper(int x) { counter += x; return x * 2; }\n");
    big_function(&s, 0, n0);
    big_function(&s, 1, n1);
    sbuf_puts(&s, "static int (*table[])(int) = {big0, big1};\nstatic int inited;\n"
                  "__attribute__((constructor)) static void init(void) { inited = 42; }\n");
    if (blockaddr)
        sbuf_puts(&s, "int jump(int i) {\n  static void *labels[] = {&&a, &&b};\n"
                      "  goto *labels[i & 1];\na: return 1;\nb: return 2;\n}\n");
    else
        sbuf_puts(&s, "int jump(int i) { return 1 + (i & 1); }\n");
    sbuf_puts(&s, "int main(void) {\n  int s = 0;\n"
                  "  for (int i = 0; i < 400; i++) s += table[i & 1](i % 300) + jump(i);\n"
                  "  printf(\"%s %d %d %d\\n\", tag, s, counter, inited);\n  return 0;\n}\n");
    return sbuf_take(&s);
}

/* Two functions of similar size: two objects (with two CPUs), the same
 * behaviour as clang's build. */
static void test_split(void **state)
{
    (void)state;
    char *src = program(300, 260, false);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = module_of(ctx, src);
    const char *ref = clang_run();
    assert_non_null(strstr(ref, "part "));
    assert_non_null(strstr(ref, " 42\n"));
    int parts;
    assert_string_equal(emit_and_run(m, 0, &parts), ref);
    assert_int_equal(parts, cpus() >= 2 ? 2 : 1);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    ctg_free(src);
}

/* One function dominates, or a global holds a block's address: one object,
 * the same behaviour. */
static void test_no_split(void **state)
{
    (void)state;
    for (int k = 0; k < 2; k++) {
        char *src = k ? program(300, 260, true) : program(600, 20, false);
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = module_of(ctx, src);
        const char *ref = clang_run();
        int parts;
        assert_string_equal(emit_and_run(m, 0, &parts), ref);
        assert_int_equal(parts, 1);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
        ctg_free(src);
    }
}

/* Size of the file at path. */
static long file_size(const char *path)
{
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    return (long)st.st_size;
}

/* At -O2 the module is optimised (its code shrinks: clang -O0's bitcode
 * keeps every local in memory), as one object even where -O0 splits, with
 * clang's behaviour. */
static void test_optimised(void **state)
{
    (void)state;
    char *src = program(300, 260, false);
    const char *ref = clang_run();
    long size[3] = {0, 0, 0};
    for (int level = 0; level <= 2; level += 2) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = module_of(ctx, src);
        int parts;
        char *paths[EMIT_MAX_PARTS] = {ctg_strdup(at("o.0.o")), ctg_strdup(at("o.1.o"))};
        emit_job j;
        ctg_err e = {{0}};
        emit_start(&j, m, level, paths, &e);
        assert_true(emit_finish(&j, false, m, paths, "p.c", &e));
        for (int k = 0; k < j.n; k++)
            size[level] += file_size(paths[k]);
        ctg_free(paths[0]), ctg_free(paths[1]);
        LLVMDisposeModule(m);
        m = module_of(ctx, src);
        assert_string_equal(emit_and_run(m, level, &parts), ref);
        assert_int_equal(parts, level ? 1 : cpus() >= 2 ? 2 : 1);
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
    }
    print_message("objects: -O0 %ld bytes, -O2 %ld\n", size[0], size[2]);
    assert_true(size[2] * 4 < size[0] * 3);
    ctg_free(src);
}

/* Marks function name of m optnone and noinline (as build.c's
 * spare_large does). */
static void spare(LLVMModuleRef m, const char *name)
{
    LLVMValueRef f = LLVMGetNamedFunction(m, name);
    assert_non_null(f);
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    const char *kinds[] = {"optnone", "noinline"};
    for (int k = 0; k < 2; k++) {
        unsigned id = LLVMGetEnumAttributeKindForName(kinds[k], strlen(kinds[k]));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex, LLVMCreateEnumAttribute(ctx, id, 0));
    }
}

/* Linkage of global value name of m (a function or a variable), with the
 * name it has now. */
static LLVMLinkage linkage_of(LLVMModuleRef m, const char *name)
{
    LLVMValueRef g = LLVMGetNamedFunction(m, name);
    if (!g)
        g = LLVMGetNamedGlobal(m, name);
    assert_non_null(g);
    return LLVMGetLinkage(g);
}

/* At -O2, big0 and big1 marked optnone: two objects (the optnone part at
 * -O0), clang's behaviour.  The static helper they call and the static
 * string both parts read get hidden global names; `counter` and `inited`,
 * which only the -O2 part uses, stay local. */
static void test_optnone_apart(void **state)
{
    (void)state;
    char *src = program(300, 260, false);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = module_of(ctx, src);
    const char *ref = clang_run();
    spare(m, "big0"), spare(m, "big1");
    int parts;
    assert_string_equal(emit_and_run(m, 2, &parts), ref);
    assert_int_equal(parts, 2);
    assert_null(LLVMGetNamedFunction(m, "helper"));
    assert_int_equal(linkage_of(m, "helper.ctg0"), LLVMExternalLinkage);
    assert_int_equal(LLVMGetVisibility(LLVMGetNamedFunction(m, "helper.ctg0")),
                     LLVMHiddenVisibility);
    assert_int_equal(linkage_of(m, "tag.ctg1"), LLVMExternalLinkage);
    assert_int_equal(linkage_of(m, "counter"), LLVMInternalLinkage);
    assert_int_equal(linkage_of(m, "inited"), LLVMInternalLinkage);
    assert_int_equal(linkage_of(m, "init"), LLVMInternalLinkage);
    LLVMDisposeModule(m);

    /* nothing optnone, or everything: one object */
    for (int k = 0; k < 2; k++) {
        m = module_of(ctx, src);
        if (k)
            for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
                if (!LLVMIsDeclaration(f))
                    spare(m, LLVMGetValueName2(f, &(size_t){0}));
        assert_string_equal(emit_and_run(m, 2, &parts), ref);
        assert_int_equal(parts, 1);
        LLVMDisposeModule(m);
    }
    LLVMContextDispose(ctx);
    ctg_free(src);
}

/* A cancelled job fails and leaves no child behind. */
static void test_cancel(void **state)
{
    (void)state;
    char *src = program(300, 260, false);
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef m = module_of(ctx, src);
    char *paths[EMIT_MAX_PARTS] = {ctg_strdup(at("c.0.o")), ctg_strdup(at("c.1.o"))};
    emit_job j;
    ctg_err e = {{0}};
    emit_start(&j, m, 0, paths, &e);
    assert_false(emit_finish(&j, true, m, paths, "p.c", &e));
    for (int k = 0; k < EMIT_MAX_PARTS; k++)
        assert_int_equal(j.pid[k], 0);
    assert_int_equal(waitpid(-1, NULL, WNOHANG), -1); /* nothing left to reap */
    ctg_free(paths[0]), ctg_free(paths[1]);
    LLVMDisposeModule(m);
    LLVMContextDispose(ctx);
    ctg_free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test(test_no_split),
        cmocka_unit_test(test_optimised),
        cmocka_unit_test(test_optnone_apart),
        cmocka_unit_test(test_cancel),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
