/*
 * test_bmc.c - the bounded checker (src/search/prove/bmc.h) in process, on
 * modules compiled from C strings and prepared as prog.bc is: the answers
 * per goal (an input that reaches a reachable error, checked by running
 * the program's logic on it; unsat for a dead error), whether every
 * execution ends within the bound, a loop bounded by an input (not
 * exhaustive), a local whose address an inlined function takes, a
 * program it cannot model (gives up, claims nothing), and
 * the result file read back as written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <llvm-c/BitWriter.h>

#include "base/mem.h"
#include "search/prove/bmc.h"

#include "llvm_fixture.h"

/* Compiles, prepares and numbers text, writes prog.bc, checks it (bound
 * steps) into *r; returns the number of edges. */
static uint32_t check(const char *text, unsigned steps, bmc_result *r)
{
    LLVMContextRef cx = LLVMContextCreate();
    LLVMModuleRef m = compile(cx, "p.c", text, 64);
    int harness;
    progdb *db = number(m, &harness);
    char bc[300];
    snprintf(bc, sizeof bc, "%s/prog.bc", tmpdir);
    assert_int_equal(LLVMWriteBitcodeToFile(m, bc), 0);
    uint32_t n_edges = db->n_edges;
    bmc_input in = {bc, db->n_edges, db->n_errors, steps, 1000000, 10000, 0, tmpdir, NULL};
    ctg_err e = {{0}};
    assert_true(bmc_check(&in, r, &e));
    progdb_free(db);
    LLVMDisposeModule(m);
    LLVMContextDispose(cx);
    return n_edges;
}

static const char prog_errors[] =
    "extern int __VERIFIER_nondet_int(void);\n"
    "extern _Bool __VERIFIER_nondet_bool(void);\n"
    "extern void __VERIFIER_assume(int);\n"
    "extern void reach_error(void);\n"
    "int g;\n"
    "int main(void) {\n"
    "  int x = __VERIFIER_nondet_int();\n"
    "  _Bool b = __VERIFIER_nondet_bool();\n"
    "  __VERIFIER_assume(x > 0);\n"
    "  if (b) g = x; else g = -x;\n"
    "  switch (x & 3) { case 1: g += 7; break; case 2: g += 9; break; default: break; }\n"
    "  if (g < 0 && x <= 0) reach_error();\n"
    "  if (g == 12352) reach_error();\n"
    "  return 0;\n"
    "}\n";

/* prog_errors's logic on an input: which error it reaches (0: none). */
static int run_errors(const uint8_t *in, size_t n)
{
    assert_true(n >= 5);
    int32_t x;
    memcpy(&x, in, 4);
    int b = in[4] & 1, g = b ? x : -x;
    if (x <= 0)
        return 0; /* the assumption fails: the run is discarded */
    g += (x & 3) == 1 ? 7 : (x & 3) == 2 ? 9 : 0;
    return g < 0 && x <= 0 ? 1 : g == 12352 ? 2 : 0;
}

static void test_errors(void **state)
{
    (void)state;
    bmc_result r;
    uint32_t ne = check(prog_errors, 100, &r);
    assert_true(r.ok);
    assert_true(r.exhaustive);
    assert_int_equal(r.n_goals, ne + 2);
    assert_int_equal(r.goals[ne].answer, BMC_UNSAT);  /* x > 0 by assumption */
    assert_int_equal(r.goals[ne + 1].answer, BMC_SAT);
    assert_int_equal(run_errors(r.goals[ne + 1].bytes, r.goals[ne + 1].n_bytes), 2);
    unsigned unsat_edges = 0;
    for (uint32_t g = 0; g < ne; g++) {
        assert_int_not_equal(r.goals[g].answer, BMC_NONE);
        unsat_edges += r.goals[g].answer == BMC_UNSAT;
    }
    assert_int_equal(unsat_edges, 1); /* x <= 0's true side */
    char path[300];
    snprintf(path, sizeof path, "%s/r", tmpdir);
    ctg_err e = {{0}};
    assert_true(bmc_result_write(&r, path, &e));
    bmc_result back;
    assert_true(bmc_result_read(path, r.n_goals, &back, &e));
    assert_true(back.ok && back.exhaustive);
    assert_int_equal(back.steps, r.steps);
    for (uint32_t g = 0; g < r.n_goals; g++) {
        assert_int_equal(back.goals[g].answer, r.goals[g].answer);
        assert_int_equal(back.goals[g].n_bytes, r.goals[g].n_bytes);
        if (r.goals[g].n_bytes)
            assert_memory_equal(back.goals[g].bytes, r.goals[g].bytes, r.goals[g].n_bytes);
    }
    bmc_result_release(&back);
    bmc_result_release(&r);
}

static void test_input_bound(void **state)
{
    (void)state;
    bmc_result r;
    uint32_t ne = check("extern unsigned __VERIFIER_nondet_uint(void);\n"
                        "extern void reach_error(void);\n"
                        "int main(void) {\n"
                        "  unsigned n = __VERIFIER_nondet_uint(), s = 0;\n"
                        "  for (unsigned i = 0; i < n; i++) s += 2;\n"
                        "  if (s == 7) reach_error();\n"
                        "  if (s == 40) reach_error();\n"
                        "  return 0;\n"
                        "}\n", 200, &r);
    assert_true(r.ok);
    assert_false(r.exhaustive); /* n can be larger than any bound */
    assert_int_equal(r.goals[ne].answer, BMC_UNSAT);
    assert_int_equal(r.goals[ne + 1].answer, BMC_SAT); /* n = 20 */
    uint32_t n;
    memcpy(&n, r.goals[ne + 1].bytes, 4);
    assert_int_equal(n, 20);
    bmc_result_release(&r);
}

/* A local whose address only an inlined function takes is a register
 * after inlining: the program is modelled. */
static void test_address_of_local(void **state)
{
    (void)state;
    bmc_result r;
    uint32_t ne = check("extern int __VERIFIER_nondet_int(void);\n"
                        "extern void reach_error(void);\n"
                        "static void bump(int *p) { *p += 3; }\n"
                        "int main(void) {\n"
                        "  int x = __VERIFIER_nondet_int();\n"
                        "  bump(&x);\n"
                        "  if (x == 10) reach_error();\n"
                        "  return 0;\n"
                        "}\n", 100, &r);
    assert_true(r.ok);
    assert_true(r.exhaustive);
    assert_int_equal(r.goals[ne].answer, BMC_SAT);
    int32_t x;
    memcpy(&x, r.goals[ne].bytes, 4);
    assert_int_equal(x, 7);
    bmc_result_release(&r);
}

static void test_gives_up(void **state)
{
    (void)state;
    bmc_result r;
    check("extern int __VERIFIER_nondet_int(void);\n"
          "extern void reach_error(void);\n"
          "int main(void) {\n"
          "  int a[3] = {0};\n"
          "  a[__VERIFIER_nondet_int() & 1] = 5;\n"
          "  if (a[1] == 5) reach_error();\n"
          "  return 0;\n"
          "}\n", 100, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.why, "cannot model"));
    for (uint32_t g = 0; g < r.n_goals; g++)
        assert_int_equal(r.goals[g].answer, BMC_NONE);
    bmc_result_release(&r);
    /* a constructor changes g before main: main alone would "prove" the
     * error unreachable */
    check("extern void reach_error(void);\n"
          "int g;\n"
          "__attribute__((constructor)) static void init(void) { g = 1; }\n"
          "int main(void) { if (g) reach_error(); return 0; }\n", 100, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.why, "constructors"));
    bmc_result_release(&r);
    /* a path ends at the error call, but the error function's own branch
     * runs: it is not claimed unreachable */
    check("extern int __VERIFIER_nondet_int(void);\n"
          "int flag;\n"
          "void reach_error(void) { if (flag) flag = 2; }\n"
          "int main(void) {\n"
          "  if (__VERIFIER_nondet_int() == 3) { flag = 1; reach_error(); }\n"
          "  return 0;\n"
          "}\n", 100, &r);
    assert_false(r.ok);
    assert_non_null(strstr(r.why, "error function"));
    bmc_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_input_bound, setup, teardown),
        cmocka_unit_test_setup_teardown(test_address_of_local, setup, teardown),
        cmocka_unit_test_setup_teardown(test_gives_up, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
