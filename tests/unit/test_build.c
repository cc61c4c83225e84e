/*
 * test_build.c - build_program end to end: the one-line errors (missing
 * file, not compiling, no entry point, duplicate definitions), prog.sym
 * added to a cached entry, real C constructs in 64 and 32 bits, several
 * sources with -I/-D, the inline-assembly warning, the functions -O2 leaves
 * unoptimised, and the cache (hit, miss after a header change, concurrent
 * builds).
 *
 * Tests that link prog.cov need the runtime archive; they skip while
 * build/rt/libctg_rt64.a is missing or still empty (before the runtime lands).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "host_skip.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "base/proc.h"
#include "base/sbuf.h"
#include "compile/build.h"
#include "exec/exec.h"
#include "runtime/rt_protocol.h"

static char tmpdir[256];

static int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ctg-build-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(tmpdir, NULL) ? 0 : -1;
}

/* Path of name in the temporary directory (new string, ctg_free). */
static char *tmp_path(const char *name) { return fs_join(tmpdir, name); }

/* Writes text to tmpdir/name; returns the path (ctg_free). */
static char *write_src(const char *name, const char *text)
{
    char *p = tmp_path(name);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(p, text, strlen(text), &e));
    return p;
}

/* True when the runtime archive for bits exists and is not empty. */
static bool runtime_ready(int bits)
{
    char name[64];
    snprintf(name, sizeof name, "%s/libctg_rt%d.a", build_runtime_dir(), bits);
    struct stat st;
    return stat(name, &st) == 0 && st.st_size > 64;
}

/* Options for one source with the test's private cache. */
static build_opts opts_for(const char *const *srcs, int n, int bits)
{
    static char cache[512];
    snprintf(cache, sizeof cache, "%s/cache", tmpdir);
    build_opts o = {.sources = srcs, .n_sources = n, .arch_bits = bits, .cache_dir = cache};
    return o;
}

/* Expects build_program to fail with exactly msg. */
static void expect_error(const build_opts *o, const char *msg)
{
    build_result r;
    ctg_err e = {{0}};
    assert_false(build_program(o, &r, &e));
    assert_string_equal(e.msg, msg);
    build_result_release(&r);
}

/* Runs a built binary with 64 zero bytes of input; returns its exit code. */
static int run_cov(const char *bin)
{
    char *in = tmp_path("zeros.in");
    char zeros[64] = {0};
    assert_true(fs_write_atomic(in, zeros, sizeof zeros, NULL));
    char env[600];
    snprintf(env, sizeof env, "%s=%s", CTG_ENV_INPUT, in);
    char *envs[] = {env, NULL};
    char *argv[] = {(char *)bin, NULL};
    proc_opts po = {.env_add = envs, .timeout_s = 20};
    proc_result r;
    ctg_err e = {{0}};
    assert_true(proc_run(argv, &po, &r, &e));
    ctg_free(in);
    assert_true(r.exited);
    return r.code;
}

/* ==== errors ================================================================ */

static void test_missing_file(void **state)
{
    (void)state;
    const char *srcs[] = {"no-such-dir/prog.c"};
    build_opts o = opts_for(srcs, 1, 64);
    expect_error(&o, "no-such-dir/prog.c: no such file");
}

static void test_not_compiling(void **state)
{
    (void)state;
    char *src = write_src("bad.c", "int main(void)\n{\n    return x + y;\n}\n");
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, 64);
    char want[1024];
    snprintf(want, sizeof want, "%s: does not compile (clang-14 reported 2 errors above); fix them "
                                "or pass -I/-D flags", src);
    expect_error(&o, want);
    ctg_free(src);
}

static void test_no_entry_point(void **state)
{
    (void)state;
    char *src = write_src("lib.c", "int triangle(int a, int b) { return a == b; }\n");
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, 64);
    char want[1024];
    snprintf(want, sizeof want, "%s: defines neither main nor LLVMFuzzerTestOneInput; write a "
                                "harness or use --function NAME", src);
    expect_error(&o, want);
    ctg_free(src);
}

static void test_duplicate_definition(void **state)
{
    (void)state;
    char *a = write_src("dup1.c", "int f(void) { return 1; }\nint main(void) { return f(); }\n");
    char *b = write_src("dup2.c", "int f(void) { return 2; }\n");
    const char *srcs[] = {a, b};
    build_opts o = opts_for(srcs, 2, 64);
    build_result r;
    ctg_err e = {{0}};
    assert_false(build_program(&o, &r, &e));
    assert_non_null(strstr(e.msg, "dup2.c: cannot be linked with"));
    assert_non_null(strstr(e.msg, "remove the duplicate definitions"));
    assert_null(strchr(e.msg, '\n'));
    build_result_release(&r);
    ctg_free(a);
    ctg_free(b);
}

/* prog.sym: added to an entry built without it, then found in the cache. */
static void test_want_sym(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *src = write_src("sym.c", "int main(void) { return 0; }\n");
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, 64);
    build_result r;
    ctg_err e = {{0}};
    assert_true(build_program(&o, &r, &e));
    assert_null(r.sym_bin);
    char *dir = ctg_strdup(r.dir);
    build_result_release(&r);
    o.want_sym = true;
    assert_true(build_program(&o, &r, &e));
    assert_true(r.cached);
    assert_string_equal(r.dir, dir);
    assert_non_null(r.sym_bin);
    assert_int_equal(access(r.sym_bin, X_OK), 0);
    build_result_release(&r);
    assert_true(build_program(&o, &r, &e));
    assert_true(r.cached);
    assert_non_null(r.sym_bin);
    build_result_release(&r);
    ctg_free(dir);
    ctg_free(src);
}

/* ==== what -O2 leaves unoptimised =========================================== */

/* A program with big() of n compares, a function with a loop and one
 * without; a libFuzzer target instead of main when fuzz. */
static char *spare_src(int n, bool fuzz)
{
    sbuf s = SBUF_INIT;
    sbuf_puts(&s, "#include <stddef.h>\n#include <stdint.h>\n"
                  "extern int __VERIFIER_nondet_int(void);\n"
                  "int big(int x) {\n  int r = 7;\n");
    for (int i = 1; i <= n; i++)
        sbuf_printf(&s, "  if (x == %d) r += %d;\n", i, i * 3);
    sbuf_puts(&s, "  return r;\n}\n"
                  "int looping(int x) { int s = 0; for (int i = 0; i < 10; i++) s += i + x; return s; }\n"
                  "int flat(int x) { return x * 2 + 5; }\n");
    if (fuzz)
        sbuf_puts(&s, "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {\n"
                      "  int x = n ? d[0] : 0;\n  return big(x) + looping(x) + flat(x) == 1000;\n}\n");
    else
        sbuf_puts(&s, "int main(void) {\n  int x = __VERIFIER_nondet_int();\n"
                      "  return big(x) + looping(x) + flat(x);\n}\n");
    return sbuf_take(&s);
}

/* In a program run by a fork per input, -O2 leaves unoptimised a function
 * over BUILD_O2_FUNCTION instructions and, the module being over
 * BUILD_O2_MODULE, the functions without a loop (big, flat, main), not the
 * one with a loop; a small program and a libFuzzer target are optimised
 * whole.  Each binary computes what the source says. */
static void test_spared(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    struct {
        int n;
        bool fuzz;
        unsigned spared;
    } cases[] = {{150, false, 3}, {150, true, 0}, {3, false, 0}};
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        char name[32];
        snprintf(name, sizeof name, "spare%zu.c", k);
        char *text = spare_src(cases[k].n, cases[k].fuzz);
        char *src = write_src(name, text);
        const char *srcs[] = {src};
        build_opts o = opts_for(srcs, 1, 64);
        build_result r;
        ctg_err e = {{0}};
        assert_true(build_program(&o, &r, &e));
        assert_int_equal(r.stage.cov_opt, 2);
        if (cases[k].n > 100) { /* big is between the two limits */
            assert_true(r.stage.cov_largest > BUILD_O2_FUNCTION);
            assert_true(r.stage.cov_largest <= BUILD_HUGE_FUNCTION);
        }
        assert_int_equal(r.stage.cov_spared, cases[k].spared);
        if (!cases[k].fuzz)
            assert_int_equal(run_cov(r.cov_bin), 7 + 45 + 5); /* x = 0 */
        build_result_release(&r);
        ctg_free(src), ctg_free(text);
    }
}

/* ==== real C ================================================================= */

static const char real_c[] =
    "#include <setjmp.h>\n"
    "#include <stdarg.h>\n"
    "#include <stdlib.h>\n"
    "#include <string.h>\n"
    "#include <math.h>\n"
    "extern int __VERIFIER_nondet_int(void);\n"
    "extern double __VERIFIER_nondet_double(void);\n"
    "void reach_error(void) { abort(); }\n"
    "struct point { int x, y; struct point *next; };\n"
    "union num { int i; float f; unsigned char b[4]; };\n"
    "static struct point origin = {0, 0, 0};\n"
    "static const char *names[] = {\"zero\", \"one\", \"two\"};\n"
    "static int table[4] = {1, 2, 3, 4};\n"
    "static jmp_buf env;\n"
    "static int sum(int n, ...)\n"
    "{ va_list ap; va_start(ap, n); int s = 0;\n"
    "  for (int i = 0; i < n; i++) s += va_arg(ap, int);\n"
    "  va_end(ap); return s; }\n"
    "static int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }\n"
    "static int twice(int v) { return 2 * v; }\n"
    "static int apply(int (*f)(int), int v) { return f(v); }\n"
    "static void jump(int v) { if (v > 100) longjmp(env, 1); }\n"
    "static unsigned ticks(void)\n"
    "{ unsigned lo, hi; __asm__ volatile(\"rdtsc\" : \"=a\"(lo), \"=d\"(hi)); return lo ^ hi; }\n"
    "int main(void)\n"
    "{\n"
    "  int a = __VERIFIER_nondet_int();\n"
    "  double d = __VERIFIER_nondet_double();\n"
    "  struct point p = {a, 2, &origin};\n"
    "  union num u; u.f = 1.0f;\n"
    "  if (u.b[3] != 0x3f) return 10;\n"
    "  if (sum(3, 1, 2, 3) != 6) return 11;\n"
    "  if (fact(5) != 120) return 12;\n"
    "  if (apply(twice, 21) != 42) return 13;\n"
    "  if (setjmp(env) == 0) jump(a); else a = 0;\n"
    "  if (d > 1e10 || sqrt((double)table[3]) != 2.0) return 14;\n"
    "  if (strcmp(names[1], \"one\") != 0) return 15;\n"
    "  char *m = malloc(16); if (!m) return 16; strcpy(m, \"hi\"); free(m);\n"
    "  (void)ticks();\n"
    "  if (p.next->x != 0 || table[0] + origin.y != 1) return 17;\n"
    "  switch (a % 4) { case 0: a++; break; case 1: a--; break; default: break; }\n"
    "  if (a == 123456) reach_error();\n"
    "  return 0;\n"
    "}\n";

/* Builds real_c for bits, checks the db and runs the binary. */
static void build_real_c(int bits)
{
    char *src = write_src("real.c", real_c);
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, bits);
    o.want_sym = true; /* the symbolic pass must handle all of it too */
    build_result r;
    ctg_err e = {{0}};
    if (!build_program(&o, &r, &e))
        fail_msg("build (%d bits): %s", bits, e.msg);
    assert_int_equal(r.db->arch_bits, bits);
    assert_int_equal(r.db->n_errors, 1);
    assert_true(r.db->n_branches >= 14);
    assert_int_equal(r.warnings, 1); /* the rdtsc */
    assert_non_null(strstr(r.warning, "inline assembly"));
    assert_true(fs_exists(r.cov_bin));
    assert_true(fs_exists(r.bitcode));
    assert_int_equal(run_cov(r.cov_bin), 0);
    assert_non_null(r.sym_bin);
    assert_int_equal(run_cov(r.sym_bin), 0);
    build_result_release(&r);
    ctg_free(src);
}

static void test_real_c_64(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    build_real_c(64);
}

static void test_real_c_32(void **state)
{
    (void)state;
    if (!runtime_ready(32))
        skip();
    SKIP_UNLESS_EXEC32();
    build_real_c(32);
}

/* A -m32 among the flags selects the 32-bit build like --arch 32. */
static void test_m32_flag(void **state)
{
    (void)state;
    if (!runtime_ready(32))
        skip();
    SKIP_UNLESS_EXEC32();
    char *src = write_src("m32.c", "int main(void) { return sizeof(void *) == 4 ? 0 : 1; }\n");
    const char *srcs[] = {src}, *flags[] = {"-m32"};
    build_opts o = opts_for(srcs, 1, 64);
    o.cflags = flags, o.n_cflags = 1;
    build_result r;
    ctg_err e = {{0}};
    if (!build_program(&o, &r, &e))
        fail_msg("build: %s", e.msg);
    assert_int_equal(r.db->arch_bits, 32);
    assert_int_equal(run_cov(r.cov_bin), 0);
    build_result_release(&r);
    ctg_free(src);
}

/* Two sources, an -I directory and a -D flag. */
static void test_two_sources_flags(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *inc = tmp_path("inc");
    assert_true(fs_mkdir_p(inc, NULL));
    char *h = write_src("inc/util.h", "int util(int);\n");
    char *a = write_src("two_main.c", "#include \"util.h\"\nint main(void) { if (util(VAL) == 4) return 0; return 1; }\n");
    char *b = write_src("two_util.c", "#include \"util.h\"\nint util(int v) { if (v > 2) return v + 1; return 0; }\n");
    const char *srcs[] = {a, b};
    char iflag[600];
    snprintf(iflag, sizeof iflag, "-I%s", inc);
    const char *flags[] = {iflag, "-DVAL=3"};
    build_opts o = opts_for(srcs, 2, 64);
    o.cflags = flags, o.n_cflags = 2;
    build_result r;
    ctg_err e = {{0}};
    if (!build_program(&o, &r, &e))
        fail_msg("build: %s", e.msg);
    assert_int_equal(r.db->n_funcs, 2);
    assert_int_equal(r.db->n_branches, 2);
    assert_int_equal(run_cov(r.cov_bin), 0);
    build_result_release(&r);
    ctg_free(inc), ctg_free(h), ctg_free(a), ctg_free(b);
}

static void test_undefined_function(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *src = write_src("undef.c", "int helper(int);\nint main(void) { return helper(1); }\n");
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, 64);
    char want[1024];
    snprintf(want, sizeof want, "%s: does not link (see the linker messages above); pass every "
                                "source file of the program and its -l flags", src);
    expect_error(&o, want);
    ctg_free(src);
}

/* ==== the cache ============================================================== */

/* Builds srcs with -I tmpdir; returns whether it came from the cache and
 * copies the entry directory to dir. */
static bool build_cached(const char *src, char *dir, size_t size, bool no_cache)
{
    const char *srcs[] = {src};
    char iflag[600];
    snprintf(iflag, sizeof iflag, "-I%s", tmpdir);
    const char *flags[] = {iflag};
    build_opts o = opts_for(srcs, 1, 64);
    o.cflags = flags, o.n_cflags = 1, o.no_cache = no_cache;
    build_result r;
    ctg_err e = {{0}};
    if (!build_program(&o, &r, &e))
        fail_msg("build: %s", e.msg);
    snprintf(dir, size, "%s", r.dir);
    bool cached = r.cached;
    assert_true(fs_exists(r.cov_bin));
    build_result_release(&r);
    return cached;
}

static void test_cache(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *h = write_src("limit.h", "#define LIMIT 5\n");
    char *src = write_src("cached.c", "#include \"limit.h\"\nextern int __VERIFIER_nondet_int(void);\n"
                                      "int main(void) { return __VERIFIER_nondet_int() > LIMIT; }\n");
    char d1[512], d2[512], d3[512], d4[512];
    assert_false(build_cached(src, d1, sizeof d1, false));
    assert_true(build_cached(src, d2, sizeof d2, false));
    assert_string_equal(d1, d2);
    ctg_free(write_src("limit.h", "#define LIMIT 6\n")); /* a header change invalidates */
    assert_false(build_cached(src, d3, sizeof d3, false));
    assert_true(build_cached(src, d4, sizeof d4, false));
    assert_string_equal(d3, d4);
    /* leftovers of interrupted builds: an old one is swept, a fresh one kept */
    char old_tmp[600], new_tmp[600];
    snprintf(old_tmp, sizeof old_tmp, "%s.tmp.dead", d4);
    snprintf(new_tmp, sizeof new_tmp, "%s.tmp.busy", d4);
    assert_true(fs_mkdir_p(old_tmp, NULL) && fs_mkdir_p(new_tmp, NULL));
    struct timeval tv[2] = {{time(NULL) - 7200, 0}, {time(NULL) - 7200, 0}};
    assert_int_equal(utimes(old_tmp, tv), 0);
    char bin[600];
    snprintf(bin, sizeof bin, "%s/prog.cov", d4);
    struct stat before, after;
    assert_int_equal(stat(bin, &before), 0);
    assert_false(build_cached(src, d4, sizeof d4, true)); /* --no-cache rebuilds */
    assert_int_equal(stat(bin, &after), 0);
    assert_true(before.st_ino != after.st_ino); /* and replaces the entry */
    assert_false(fs_exists(old_tmp));
    assert_true(fs_exists(new_tmp));
    ctg_free(src);
    ctg_free(h);
}

/* A cache entry whose database cannot be read is rebuilt and replaced;
 * allocation failures while reading the cache are reported, never a crash,
 * and leave the entry alone. */
static void test_cache_broken_and_oom(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *src = write_src("broken.c", "int main(void) { int x = 3; if (x > 2) return 0; return 1; }\n");
    char d1[512], d2[512], db[600];
    assert_false(build_cached(src, d1, sizeof d1, false));
    snprintf(db, sizeof db, "%s/progdb.json", d1);
    assert_true(fs_write_atomic(db, "{ broken", 8, NULL));
    assert_false(build_cached(src, d2, sizeof d2, false)); /* rebuilt */
    assert_string_equal(d1, d2);
    assert_true(build_cached(src, d2, sizeof d2, false)); /* and replaced */
    const char *srcs[] = {src};
    char iflag[600];
    snprintf(iflag, sizeof iflag, "-I%s", tmpdir);
    const char *flags[] = {iflag};
    build_opts o = opts_for(srcs, 1, 64);
    o.cflags = flags, o.n_cflags = 1;
    for (long n = 0; n < 80; n += 3) {
        build_result r;
        ctg_err e = {{0}};
        mem_fail_after(n);
        bool ok = build_program(&o, &r, &e);
        mem_fail_reset();
        if (!ok)
            assert_true(err_is_set(&e));
        build_result_release(&r);
    }
    assert_true(build_cached(src, d2, sizeof d2, false));
    ctg_free(src);
}

/* Several processes building the same program at once all succeed and
 * leave one valid entry. */
static void test_cache_concurrent(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *src = write_src("conc.c", "int main(void) { int x = 3; if (x > 2) return 0; return 1; }\n");
    const int n = 3;
    pid_t pids[3];
    for (int i = 0; i < n; i++) {
        pids[i] = fork();
        assert_true(pids[i] >= 0);
        if (pids[i] == 0) {
            const char *srcs[] = {src};
            build_opts o = opts_for(srcs, 1, 64);
            build_result r;
            ctg_err e = {{0}};
            bool ok = build_program(&o, &r, &e) && run_cov(r.cov_bin) == 0;
            if (!ok)
                fprintf(stderr, "child: %s\n", e.msg);
            _exit(ok ? 0 : 1);
        }
    }
    for (int i = 0; i < n; i++) {
        int st = 0;
        assert_int_equal(waitpid(pids[i], &st, 0), pids[i]);
        assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    }
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, 64);
    build_result r;
    ctg_err e = {{0}};
    assert_true(build_program(&o, &r, &e));
    assert_true(r.cached);
    build_result_release(&r);
    ctg_free(src);
}

/* ==== loops counting in registers ============================================ */

static const char loop_src[] =
    "#include <stddef.h>\n"                                 /* 1 */
    "#include <stdint.h>\n"                                 /* 2 */
    "volatile unsigned sink;\n"                             /* 3 */
    "__attribute__((noinline)) int ext(int v) { return v & 3; }\n" /* 4 */
    "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {\n" /* 5 */
    "  unsigned s = 0;\n"                                   /* 6 */
    "  for (size_t i = 0; i < n; i++)\n"                    /* 7: registers */
    "    if (d[i] & 1)\n"                                   /* 8: registers */
    "      s += d[i];\n"                                    /* 9 */
    "  for (int k = 0; k < 3; k++)\n"                       /* 10: memory (holds a loop) */
    "    for (size_t i = 0; i < n; i++)\n"                  /* 11: registers */
    "      s ^= d[i];\n"                                    /* 12 */
    "  for (size_t i = 0; i < n; i++)\n"                    /* 13: memory (a call) */
    "    s += (unsigned)ext(d[i]);\n"                       /* 14 */
    "  sink = s;\n"                                         /* 15 */
    "  return 0;\n"                                         /* 16 */
    "}\n";

/* Runs input d[i] = i, i < n, and checks the hit counts (taken, not
 * taken) of the branches of lines 7, 8, 10, 11 and 13: a loop that counts
 * in registers leaves the map a run in memory leaves, saturated at 255. */
static void check_loop_counts(exec_t *x, const progdb *db, size_t n)
{
    uint8_t in[400];
    for (size_t i = 0; i < n; i++)
        in[i] = (uint8_t)i;
    exec_result r;
    ctg_err e = {{0}};
    assert_true(exec_run(x, in, n, 0, 0, &r, &e));
    assert_int_equal(r.kind, EXEC_NORMAL);
    unsigned odd = (unsigned)(n / 2);
    const struct {
        int line;
        unsigned taken, other;
    } want[] = {{7, (unsigned)n, 1}, {8, odd, (unsigned)n - odd}, {10, 3, 1},
                {11, 3 * (unsigned)n, 3}, {13, (unsigned)n, 1}};
    const uint8_t *cov = exec_cov(x);
    for (size_t k = 0; k < sizeof want / sizeof *want; k++) {
        int seen = 0;
        for (uint32_t b = 0; b < db->n_branches; b++) {
            if (db->branches[b].loc.line != want[k].line)
                continue;
            seen++;
            unsigned t = want[k].taken > 255 ? 255 : want[k].taken;
            unsigned o = want[k].other > 255 ? 255 : want[k].other;
            uint32_t at = db->branches[b].first_edge;
            if (cov[at] != t || cov[at + 1] != o)
                fail_msg("n = %zu, line %d: hits %u / %u, want %u / %u", n, want[k].line,
                         cov[at], cov[at + 1], t, o);
        }
        assert_int_equal(seen, 1);
    }
}

static void test_loop_counts(void **state)
{
    (void)state;
    if (!runtime_ready(64))
        skip();
    char *src = write_src("loops.c", loop_src);
    const char *srcs[] = {src};
    build_opts o = opts_for(srcs, 1, 64);
    build_result r;
    ctg_err e = {{0}};
    if (!build_program(&o, &r, &e))
        fail_msg("build: %s", e.msg);
    assert_int_equal(r.stage.cov_opt, 2);
    exec_config c = {.binary = r.cov_bin, .n_edges = r.db->n_edges, .n_cmp = r.db->n_cmp,
                     .timeout_ms = 2000};
    exec_t *x = exec_new(&c, &e);
    if (!x)
        fail_msg("exec_new: %s", e.msg);
    static const size_t sizes[] = {0, 1, 5, 84, 85, 86, 300};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++)
        check_loop_counts(x, r.db, sizes[k]);
    exec_free(x);
    build_result_release(&r);
    ctg_free(src);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_missing_file),       cmocka_unit_test(test_not_compiling),
        cmocka_unit_test(test_no_entry_point),     cmocka_unit_test(test_duplicate_definition),
        cmocka_unit_test(test_want_sym),           cmocka_unit_test(test_spared),
        cmocka_unit_test(test_real_c_64),
        cmocka_unit_test(test_real_c_32),          cmocka_unit_test(test_m32_flag),
        cmocka_unit_test(test_two_sources_flags),
        cmocka_unit_test(test_undefined_function), cmocka_unit_test(test_cache),
        cmocka_unit_test(test_cache_broken_and_oom), cmocka_unit_test(test_cache_concurrent),
        cmocka_unit_test(test_loop_counts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
