/*
 * test_inst_sym.c - the symbolic pass and runtime end to end: small C
 * programs are built into prog.sym (build_program, want_sym), run on chosen
 * inputs through the executor's trace region, and the path constraint read
 * back with expr_trace_read is checked:
 *   - its shape: number of entries, kinds, sites (the edge base ids of the
 *     program database), taken bits;
 *   - consistency: every condition evaluates to its taken bit under the
 *     run's own input;
 *   - prediction: under another input, the first entry whose condition
 *     evaluates differently is exactly where that input's run leaves the
 *     path, in the direction the evaluation says.  This checks the
 *     expressions' semantics (calls, memory, strings, floating point,
 *     arrays) against the compiled program itself.
 * Also: a program without input creates no node (the fast paths), ran-out
 * values, the libFuzzer length variable, the node cap, threads, 32-bit
 * builds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "base/rng.h"
#include "compile/build.h"
#include "exec/exec.h"
#include "expr/expr.h"
#include "expr/expr_trace.h"
#include "host_skip.h"
#include "runtime/rt_protocol.h"
#include "runtime/rt_symtrace.h"

static char tmpdir[256];
/* Trust expr_eval on floating-point conditions too (EXPR_F_INEXACT only
 * warns about NaN bit patterns and out-of-range conversions, which the
 * float test's inputs avoid). */
static bool trust_fp;

/* True when the condition of e can be evaluated exactly. */
static bool exact(const expr_pc_entry *e)
{
    return trust_fp || !(e->cond->flags & EXPR_F_INEXACT);
}

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ctg-instsym-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(tmpdir, NULL) ? 0 : -1;
}

/* True when the runtime archives for `bits` exist. */
static bool runtime_ready(int bits)
{
    char a[4096], b[4096];
    struct stat st;
    snprintf(a, sizeof a, "%s/libctg_rt%d.a", build_runtime_dir(), bits);
    snprintf(b, sizeof b, "%s/libctg_sym%d.a", build_runtime_dir(), bits);
    return stat(a, &st) == 0 && st.st_size > 64 && stat(b, &st) == 0 && st.st_size > 64;
}

/* ==== fixture: one program built as prog.sym, its executor ================== */

typedef struct prog {
    build_result br;
    exec_t *x;
} prog;

/* Builds `text` as name.c (prog.sym for `bits`) and starts its executor
 * with a trace of `nodes` nodes. */
static void prog_open(prog *p, const char *name, const char *text, int bits, uint32_t nodes)
{
    char file[300];
    snprintf(file, sizeof file, "%s/%s.c", tmpdir, name);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(file, text, strlen(text), &e));
    const char *srcs[] = {file};
    build_opts o = {.sources = srcs, .n_sources = 1, .arch_bits = bits, .want_sym = true};
    if (!build_program(&o, &p->br, &e))
        fail_msg("build %s: %s", name, e.msg);
    assert_non_null(p->br.sym_bin);
    exec_config c = {p->br.sym_bin, p->br.db->n_edges, p->br.db->n_cmp, 5000, 0, NULL, NULL, 0, NULL, 0, false};
    p->x = exec_new_traced(&c, nodes, 4096, &e);
    if (!p->x)
        fail_msg("exec %s: %s", name, e.msg);
}

static void prog_close(prog *p)
{
    exec_free(p->x);
    build_result_release(&p->br);
}

/* One run: its result and path constraint (built in *ctx, a new context). */
typedef struct run {
    exec_result r;
    expr_ctx *ctx;
    expr_pc pc;
    uint32_t n_nodes;
    uint8_t input[512]; /* the input as the run consumed it */
    size_t len;
} run;

static void run_input(prog *p, const void *in, size_t len, uint32_t flags, run *out)
{
    ctg_err e = {{0}};
    memset(out, 0, sizeof *out);
    if (!exec_run(p->x, in, len, flags, 1, &out->r, &e))
        fail_msg("run: %s", e.msg);
    size_t size;
    const void *t = exec_trace(p->x, &size);
    assert_non_null(t);
    out->ctx = expr_ctx_new();
    out->pc = (expr_pc)EXPR_PC_INIT;
    if (!expr_trace_read(out->ctx, t, size, &out->pc, &e))
        fail_msg("trace: %s", e.msg);
    out->n_nodes = ((const ctg_symtrace_hdr *)t)->n_nodes;
    const uint8_t *bytes = exec_input(p->x, &out->len);
    if (out->len > sizeof out->input)
        out->len = sizeof out->input;
    memcpy(out->input, bytes, out->len);
}

static void run_release(run *r)
{
    expr_pc_release(&r->pc);
    expr_ctx_free(r->ctx);
}

/* Values of the conditions of r's entries under input (len bytes; the
 * length variable is len). */
static void eval_under(run *r, const uint8_t *input, size_t len, expr_u128 *vals)
{
    expr **roots = ctg_calloc(r->pc.n + 1, sizeof *roots);
    assert_non_null(roots);
    for (size_t i = 0; i < r->pc.n; i++)
        roots[i] = r->pc.v[i].cond;
    uint32_t id = CTG_SYMVAR_LEN;
    uint64_t lv = len;
    expr_env env = {input, len, &id, &lv, 1};
    assert_true(expr_eval(r->ctx, roots, r->pc.n, &env, vals));
    ctg_free(roots);
}

/* Every exactly evaluable condition of r evaluates to its taken bit under
 * r's own input. */
static void check_consistent(run *r)
{
    expr_u128 vals[4096];
    assert_true(r->pc.n <= 4096);
    eval_under(r, r->input, r->len, vals);
    for (size_t i = 0; i < r->pc.n; i++)
        if (exact(&r->pc.v[i]) && ((vals[i] & 1u) != 0) != r->pc.v[i].taken)
            fail_msg("entry %zu (site %u) evaluates to %d, taken %d", i, r->pc.v[i].site,
                     (int)(vals[i] & 1u), r->pc.v[i].taken);
}

/* The path of a run on input b is predicted by a's constraint: both agree up
 * to the first entry of a whose condition differs under b, and b takes the
 * evaluated side there.  Returns the index of that entry (a.pc.n: none). */
static size_t check_predicts(prog *p, run *a, const uint8_t *b, size_t blen, uint32_t flags)
{
    run rb;
    run_input(p, b, blen, flags, &rb);
    expr_u128 vals[4096];
    eval_under(a, rb.input, rb.len, vals);
    size_t k = 0;
    while (k < a->pc.n && exact(&a->pc.v[k]) && ((vals[k] & 1u) != 0) == a->pc.v[k].taken)
        k++;
    size_t stop = k < a->pc.n && !exact(&a->pc.v[k]) ? k : a->pc.n; /* cannot tell */
    for (size_t i = 0; i < k && i < stop; i++)
        if (i >= rb.pc.n || rb.pc.v[i].site != a->pc.v[i].site ||
            rb.pc.v[i].arg != a->pc.v[i].arg || rb.pc.v[i].taken != a->pc.v[i].taken)
            fail_msg("entry %zu of %zu (site %u, taken %d) predicted the same, the run has "
                     "%zu entries (site %u, taken %d)", i, k, a->pc.v[i].site,
                     a->pc.v[i].taken, rb.pc.n, i < rb.pc.n ? rb.pc.v[i].site : 0,
                     i < rb.pc.n ? rb.pc.v[i].taken : -1);
    /* a concretisation (PTR) that no longer holds says nothing about the rest */
    if (k < a->pc.n && stop == a->pc.n && expr_pc_negatable(a->pc.v[k].kind)) {
        if (k >= rb.pc.n)
            fail_msg("predicted a different decision at entry %zu (site %u), run has %zu", k,
                     a->pc.v[k].site, rb.pc.n);
        assert_int_equal(rb.pc.v[k].site, a->pc.v[k].site);
        assert_int_equal(rb.pc.v[k].taken, (int)(vals[k] & 1u));
    }
    check_consistent(&rb);
    run_release(&rb);
    return k;
}

/* Runs prediction checks of `n` seeded random inputs of `len` bytes and of
 * the given extra inputs against the run of input `a`. */
static void check_random_predictions(prog *p, const uint8_t *a, size_t alen, size_t len, int n,
                                     uint32_t flags)
{
    run ra;
    run_input(p, a, alen, flags, &ra);
    check_consistent(&ra);
    rng g;
    rng_seed(&g, 42);
    uint8_t buf[64];
    assert_true(len <= sizeof buf);
    for (int t = 0; t < n; t++) {
        for (size_t i = 0; i < len; i++) /* small values hit the branches */
            buf[i] = (uint8_t)(rng_below(&g, 4) ? rng_below(&g, 16) : rng_next(&g));
        check_predicts(p, &ra, buf, len, flags);
    }
    run_release(&ra);
}

/* The first edge of branch `b` in the program database. */
static uint32_t edge_of(const prog *p, uint32_t b)
{
    assert_true(b < p->br.db->n_branches);
    return p->br.db->branches[b].first_edge;
}

/* ==== programs ============================================================== */

static const char src_deadbeef[] =
    "extern int __VERIFIER_nondet_int(void);\n"
    "extern void abort(void);\n"
    "void reach_error(void) { abort(); }\n"
    "static int f(int a, int b) { return 3 * a + 2 * b; }\n"
    "int main(void) {\n"
    "  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(), z = __VERIFIER_nondet_int();\n"
    "  if (x == (int)0xdeadbeef) {\n"
    "    if (f(y, z) == 17)\n"
    "      reach_error();\n"
    "  }\n"
    "  return 0;\n"
    "}\n";

/* The shape of the constraint: two branch entries, the sites of the two
 * branches, the taken bits; and the prediction of a run that reaches the
 * error. */
static void test_shape(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    prog p;
    prog_open(&p, "deadbeef", src_deadbeef, 64, 1u << 16);
    int32_t in[3] = {(int32_t)0xdeadbeef, 3, 5};
    run r;
    run_input(&p, in, sizeof in, 0, &r);
    assert_int_equal(r.r.kind, EXEC_NORMAL);
    assert_int_equal(r.pc.n, 2);
    assert_int_equal(r.pc.v[0].kind, CTG_SPC_BRANCH);
    assert_int_equal(r.pc.v[1].kind, CTG_SPC_BRANCH);
    assert_int_equal(r.pc.v[0].site, edge_of(&p, 0));
    assert_int_equal(r.pc.v[1].site, edge_of(&p, 1));
    assert_true(r.pc.v[0].taken);
    assert_false(r.pc.v[1].taken); /* 3*3 + 2*5 = 19 */
    check_consistent(&r);
    int32_t win[3] = {(int32_t)0xdeadbeef, 1, 7};
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)win, sizeof win, 0), 1);
    run e;
    run_input(&p, win, sizeof win, 0, &e);
    assert_int_equal(e.r.kind, EXEC_ERROR);
    run_release(&e);
    int32_t other[3] = {1, 1, 7};
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)other, sizeof other, 0), 0);
    run_release(&r);
    prog_close(&p);
}

/* Values past the end of the input are symbolic input bytes at the offsets
 * they would have had (with and without the zero extension). */
static void test_ran_out(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    prog p;
    prog_open(&p, "ranout", src_deadbeef, 64, 1u << 16);
    for (int k = 0; k < 2; k++) {
        run r;
        run_input(&p, NULL, 0, k ? CTG_FL_EXTEND_ZERO : 0, &r);
        assert_int_equal(r.pc.n, 1);
        assert_false(r.pc.v[0].taken);
        assert_int_equal(r.len, k ? 12 : 0);
        check_consistent(&r);
        int32_t in[3] = {(int32_t)0xdeadbeef, 0, 0};
        check_predicts(&p, &r, (const uint8_t *)in, 4, k ? CTG_FL_EXTEND_ZERO : 0);
        run_release(&r);
    }
    prog_close(&p);
}

/* Code that never touches input creates no node at all. */
static void test_concrete_program(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "#include <string.h>\n"
        "static int h(const char *s) { int v = 0; while (*s) v = v * 31 + *s++; return v; }\n"
        "int main(void) {\n"
        "  char buf[32]; int acc = 0;\n"
        "  for (int i = 0; i < 1000; i++) { memset(buf, 'a' + i % 26, 31); buf[31] = 0;\n"
        "    acc += h(buf); if (acc % 7 == 3) acc ^= i; }\n"
        "  return acc == 42;\n"
        "}\n";
    prog p;
    prog_open(&p, "concrete", src, 64, 1u << 16);
    run r;
    run_input(&p, NULL, 0, 0, &r);
    assert_int_equal(r.r.kind, EXEC_NORMAL);
    assert_int_equal(r.pc.n, 0);
    assert_int_equal(r.n_nodes, 0);
    run_release(&r);
    prog_close(&p);
}

/* A switch gives one entry per case, in case order, with its case index. */
static void test_switch(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "extern int __VERIFIER_nondet_int(void);\n"
        "int main(void) { int k = __VERIFIER_nondet_int();\n"
        "  switch (k) { case 3: return 1; case -4: return 2; case 100: return 3; default: break; }\n"
        "  return 0; }\n";
    prog p;
    prog_open(&p, "switch", src, 64, 1u << 16);
    int32_t k = -4;
    run r;
    run_input(&p, &k, sizeof k, 0, &r);
    assert_int_equal(r.pc.n, 3);
    for (uint32_t i = 0; i < 3; i++) {
        assert_int_equal(r.pc.v[i].kind, CTG_SPC_SWITCH);
        assert_int_equal(r.pc.v[i].arg, i);
        assert_int_equal(r.pc.v[i].site, edge_of(&p, 0));
        assert_int_equal(r.pc.v[i].taken, i == 1);
    }
    check_consistent(&r);
    int32_t other = 100;
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)&other, 4, 0), 1);
    run_release(&r);
    prog_close(&p);
}

/* Shadows through calls, recursion, function pointers, returns; an
 * uninstrumented callee (qsort and the comparator it calls) yields
 * concrete values, never wrong ones. */
static void test_calls(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "#include <stdlib.h>\n"
        "extern int __VERIFIER_nondet_int(void);\n"
        "static int sq(int v) { return v * v; }\n"
        "static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
        "static int apply(int (*f)(int), int v) { return f(v); }\n"
        "static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n"
        "static long mix(int a, long b, char c) { return a + b * c; }\n"
        "int main(void) {\n"
        "  int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();\n"
        "  if (apply(sq, a) > 100) return 1;\n"
        "  if (fact(b & 7) == 24) return 2;\n"
        "  int v[2] = {a, b};\n"
        "  qsort(v, 2, sizeof v[0], cmp);\n"
        "  if (v[0] == 5) return 3;\n"
        "  if (mix(a, b, 3) == 40) return 4;\n"
        "  return 0;\n"
        "}\n";
    prog p;
    prog_open(&p, "calls", src, 64, 1u << 16);
    int32_t in[2] = {2, 1};
    run r;
    run_input(&p, in, sizeof in, 0, &r);
    /* sq > 100, fact's n <= 1 (fact(1) returns the constant 1, so
     * fact(..) == 24 is concrete), mix == 40; v[0] after qsort is concrete
     * (the comparator ran with concrete arguments) */
    assert_int_equal(r.pc.n, 3);
    check_consistent(&r);
    run_release(&r);
    check_random_predictions(&p, (const uint8_t *)in, sizeof in, 8, 40, 0);
    prog_close(&p);
}

/* Memory: struct copies, parts of an int read as bytes, memset, arrays,
 * shorts stored from ints. */
static void test_memory(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "#include <string.h>\n"
        "extern int __VERIFIER_nondet_int(void);\n"
        "extern unsigned char __VERIFIER_nondet_uchar(void);\n"
        "struct s { char c; int i; short h; };\n"
        "union u { int i; unsigned char b[4]; };\n"
        "int main(void) {\n"
        "  struct s x; x.c = (char)__VERIFIER_nondet_uchar(); x.i = __VERIFIER_nondet_int();\n"
        "  x.h = (short)x.i;\n"
        "  struct s y; memcpy(&y, &x, sizeof y);\n"
        "  if (y.c == 'a') return 1;\n"
        "  if (y.h == 300) return 2;\n"
        "  union u w; w.i = y.i;\n"
        "  if (w.b[1] == 0x12) return 3;\n"
        "  unsigned char buf[8]; memset(buf, x.c, sizeof buf);\n"
        "  if (buf[5] == 'z') return 4;\n"
        "  int arr[4]; for (int k = 0; k < 4; k++) arr[k] = x.i + k;\n"
        "  if (arr[3] == 10) return 5;\n"
        "  return 0;\n"
        "}\n";
    prog p;
    prog_open(&p, "memory", src, 64, 1u << 16);
    uint8_t in[5] = {'b', 1, 2, 3, 4};
    run r;
    run_input(&p, in, sizeof in, 0, &r);
    assert_int_equal(r.pc.n, 5);
    check_consistent(&r);
    uint8_t hit[5] = {'b', 0x2c, 0x01, 0, 0}; /* x.i = 300: y.h == 300 */
    assert_int_equal(check_predicts(&p, &r, hit, sizeof hit, 0), 1);
    run_release(&r);
    check_random_predictions(&p, in, sizeof in, 5, 40, 0);
    prog_close(&p);
}

/* The string models keep strcmp/strncmp/memcmp/strlen and copies symbolic. */
static void test_strings(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "#include <string.h>\n"
        "extern char __VERIFIER_nondet_char(void);\n"
        "int main(void) {\n"
        "  char s[8]; for (int i = 0; i < 7; i++) s[i] = __VERIFIER_nondet_char(); s[7] = 0;\n"
        "  if (strcmp(s, \"key\") == 0) return 1;\n"
        "  if (strncmp(s, \"ab\", 2) == 0) return 2;\n"
        "  if (memcmp(s + 2, \"xy\", 2) == 0) return 3;\n"
        "  if (strlen(s) == 2) return 4;\n"
        "  char t[8]; strcpy(t, s);\n"
        "  if (t[0] == 'q') return 5;\n"
        "  return 0;\n"
        "}\n";
    prog p;
    prog_open(&p, "strings", src, 64, 1u << 16);
    const char *in = "kez\0\0\0\0";
    run r;
    run_input(&p, in, 7, 0, &r);
    assert_int_equal(r.pc.n, 5);
    check_consistent(&r);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)"key\0\0\0\0", 7, 0), 0);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)"abc\0\0\0\0", 7, 0), 1);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)"kexy\0\0\0", 7, 0), 2);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)"kk\0\0\0\0\0", 7, 0), 3);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)"qqqq\0\0\0", 7, 0), 4);
    run_release(&r);
    prog_close(&p);
}

/* Floating point stays symbolic (IEEE bits, FP operations). */
static void test_float(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "extern double __VERIFIER_nondet_double(void);\n"
        "extern float __VERIFIER_nondet_float(void);\n"
        "int main(void) {\n"
        "  double d = __VERIFIER_nondet_double(); float f = __VERIFIER_nondet_float();\n"
        "  if (d + 1.5 > 10.0) return 1;\n"
        "  if ((float)d * f < -2.0f) return 2;\n"
        "  if ((int)d == 7) return 3;\n"
        "  if (-f >= 3.25f) return 4;\n"
        "  return 0;\n"
        "}\n";
    prog p;
    prog_open(&p, "float", src, 64, 1u << 16);
    trust_fp = true;
    struct __attribute__((packed)) {
        double d;
        float f;
    } in = {1.0, 1.0f}, big = {9.0, 1.0f}, neg = {1.0, -3.0f}, seven = {7.25, 1.0f},
      low = {-1.0, -3.5f};
    run r;
    run_input(&p, &in, sizeof in, 0, &r);
    assert_int_equal(r.pc.n, 4);
    for (size_t i = 0; i < r.pc.n; i++)
        assert_true(r.pc.v[i].cond->flags & EXPR_F_FP);
    check_consistent(&r);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)&big, sizeof big, 0), 0);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)&neg, sizeof neg, 0), 1);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)&seven, sizeof seven, 0), 2);
    assert_int_equal(check_predicts(&p, &r, (const uint8_t *)&low, sizeof low, 0), 3);
    trust_fp = false;
    run_release(&r);
    prog_close(&p);
}

static const char src_index[] =
    "extern unsigned int __VERIFIER_nondet_uint(void);\n"
    "extern int __VERIFIER_nondet_int(void);\n"
    "int main(void) {\n"
    "  int x[4] = {1, 2, 3, 4};\n"
    "  unsigned int i = __VERIFIER_nondet_uint(), j = __VERIFIER_nondet_uint();\n"
    "  int a = __VERIFIER_nondet_int();\n"
    "  if (i >= 4 || j >= 4) return 3;\n"
    "  x[i] = a;\n"
    "  if (x[j] == 7) return 0;\n"
    "  if (x[3] == 4) return 1;\n"
    "  return 2;\n"
    "}\n";

/* A symbolic index: concretised with a PTR entry, or read through array
 * select/store (with a PTR entry keeping it in the array). */
static void test_arrays(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    prog p;
    prog_open(&p, "index", src_index, 64, 1u << 16);
    uint32_t in[3] = {1, 2, 5};
    for (int theory = 0; theory < 2; theory++) {
        uint32_t fl = theory ? CTG_FL_SYM_ARRAYS : 0;
        run r;
        run_input(&p, in, sizeof in, fl, &r);
        size_t ptr = 0, arr = 0;
        for (size_t i = 0; i < r.pc.n; i++) {
            ptr += r.pc.v[i].kind == CTG_SPC_PTR;
            arr += (r.pc.v[i].cond->flags & EXPR_F_ARRAY) != 0;
        }
        assert_true(ptr >= 1);
        if (theory)
            assert_true(arr >= 2); /* x[j] == 7 and x[3] == 4 read the array */
        else
            assert_int_equal(arr, 0);
        check_consistent(&r);
        uint32_t hit[3] = {2, 2, 7}; /* x[2] = 7, read back */
        size_t k = check_predicts(&p, &r, (const uint8_t *)hit, sizeof hit, fl);
        if (theory)
            assert_true(k < r.pc.n && r.pc.v[k].kind == CTG_SPC_BRANCH);
        run_release(&r);
    }
    check_random_predictions(&p, (const uint8_t *)in, sizeof in, 12, 30, CTG_FL_SYM_ARRAYS);
    prog_close(&p);
}

/* libFuzzer: the data are input bytes, the size is the length variable and
 * a decision on it is a LENGTH entry. */
static void test_libfuzzer_length(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n"
        "int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {\n"
        "  if (size / 4 <= 2) return -1;\n"
        "  int32_t x2; memcpy(&x2, data + 8, 4);\n"
        "  if (x2 == 3) return 0;\n"
        "  if (data[0] == 'F') return 2;\n"
        "  return 1;\n"
        "}\n";
    prog p;
    prog_open(&p, "fuzz", src, 64, 1u << 16);
    run r;
    run_input(&p, "AB", 2, 0, &r);
    assert_int_equal(r.pc.n, 1);
    assert_int_equal(r.pc.v[0].kind, CTG_SPC_LENGTH);
    assert_true(r.pc.v[0].taken);
    check_consistent(&r);
    run_release(&r);
    uint8_t in[12] = {'A', 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0};
    run_input(&p, in, sizeof in, 0, &r);
    assert_int_equal(r.pc.n, 2);
    assert_int_equal(r.pc.v[0].kind, CTG_SPC_LENGTH);
    assert_false(r.pc.v[0].taken);
    assert_int_equal(r.pc.v[1].kind, CTG_SPC_BRANCH);
    assert_true(r.pc.v[1].taken);
    check_consistent(&r);
    uint8_t f[12] = {'F', 0, 0, 0, 0, 0, 0, 0, 9, 0, 0, 0};
    assert_int_equal(check_predicts(&p, &r, f, sizeof f, 0), 1);
    run_release(&r);
    prog_close(&p);
}

/* A tiny node array: the run goes on concretised, the trace says so and
 * stays readable. */
static void test_node_cap(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    prog p;
    prog_open(&p, "cap", src_deadbeef, 64, 12);
    int32_t in[3] = {(int32_t)0xdeadbeef, 3, 5};
    run r;
    run_input(&p, in, sizeof in, 0, &r);
    assert_int_equal(r.r.kind, EXEC_NORMAL);
    assert_true(r.pc.flags & CTG_STF_NODES_FULL);
    assert_true(r.n_nodes <= 12);
    assert_true(r.pc.n < 2);
    check_consistent(&r);
    run_release(&r);
    prog_close(&p);
}

/* The same program in 32 bits gives the same constraint. */
static void test_32bit(void **state)
{
    (void)state;
    if (!runtime_ready(32))
        skip();
    SKIP_UNLESS_EXEC32(); /* a kernel without 32-bit execution: Exec format error */
    prog p;
    prog_open(&p, "deadbeef32", src_deadbeef, 32, 1u << 16);
    int32_t in[3] = {(int32_t)0xdeadbeef, 3, 5};
    run r;
    run_input(&p, in, sizeof in, 0, &r);
    assert_int_equal(r.pc.n, 2);
    assert_true(r.pc.v[0].taken);
    assert_false(r.pc.v[1].taken);
    check_consistent(&r);
    run_release(&r);
    prog_close(&p);
    prog_open(&p, "index32", src_index, 32, 1u << 16);
    uint32_t idx[3] = {1, 2, 5};
    check_random_predictions(&p, (const uint8_t *)idx, sizeof idx, 12, 20, CTG_FL_SYM_ARRAYS);
    prog_close(&p);
}

/* Once the program starts a thread the rest of the run is concrete (the
 * runtime is not thread-safe), noted in the trace. */
static void test_threads(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    static const char src[] =
        "#include <pthread.h>\n"
        "extern int __VERIFIER_nondet_int(void);\n"
        "static int g;\n"
        "static void *worker(void *p) { for (int i = 0; i < 1000; i++) g += *(int *)p; return 0; }\n"
        "int main(void) {\n"
        "  int x = __VERIFIER_nondet_int();\n"
        "  if (x == 5) g = 1;\n"
        "  pthread_t t[4];\n"
        "  for (int i = 0; i < 4; i++) pthread_create(&t[i], 0, worker, &x);\n"
        "  for (int i = 0; i < 4; i++) pthread_join(t[i], 0);\n"
        "  if (g == 123 || x == 9) return 1;\n"
        "  return 0;\n"
        "}\n";
    prog p;
    prog_open(&p, "threads", src, 64, 1u << 16);
    int32_t x = 5;
    run r;
    run_input(&p, &x, sizeof x, 0, &r);
    assert_int_equal(r.r.kind, EXEC_NORMAL);
    assert_int_equal(r.pc.n, 1); /* x == 5; nothing after pthread_create */
    assert_true(r.pc.flags & CTG_STF_CONCRETIZED);
    check_consistent(&r);
    run_release(&r);
    prog_close(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_threads),
        cmocka_unit_test(test_shape),        cmocka_unit_test(test_ran_out),
        cmocka_unit_test(test_concrete_program), cmocka_unit_test(test_switch),
        cmocka_unit_test(test_calls),        cmocka_unit_test(test_memory),
        cmocka_unit_test(test_strings),      cmocka_unit_test(test_float),
        cmocka_unit_test(test_arrays),       cmocka_unit_test(test_libfuzzer_length),
        cmocka_unit_test(test_node_cap),     cmocka_unit_test(test_32bit),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
