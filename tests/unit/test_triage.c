/*
 * test_triage.c - unit tests of src/exec/triage: a crash's kind, top
 * frames and key from AddressSanitizer's and UndefinedBehaviorSanitizer's
 * reports and from ctestgen's symbolised stacks; the same bug gives the same
 * key, another place or kind another one; ctestgen's runtime and the
 * sanitizers' frames are not the program's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "exec/triage.h"

#include <cmocka.h>

static const char *const asan_report =
    "=================================================================\n"
    "==9806==ERROR: AddressSanitizer: heap-buffer-overflow on address 0x602000000033 at pc "
    "0x55dd8619df79 bp 0x7ffe63099f90 sp 0x7ffe63099f88\n"
    "READ of size 1 at 0x602000000033 thread T0\n"
    "    #0 0x55dd8619df78 in ml_decode /src/minilib/src/decode.c:27:20\n"
    "    #1 0x55dd8619d208 in LLVMFuzzerTestOneInput /src/minilib/fuzz/fuzz_minilib.c:11:9\n"
    "    #2 0x55dd861a14af in rt_run_libfuzzer " CTG_RUNTIME_SRC "rt_main.c:401:5\n"
    "    #3 0x55dd861a14af in main " CTG_RUNTIME_SRC "rt_main.c:667:14\n"
    "\n"
    "0x602000000033 is located 0 bytes to the right of 3-byte region\n"
    "allocated by thread T0 here:\n"
    "    #0 0x55dd861623ae in __interceptor_malloc (/x/prog.san+0xa53ae)\n"
    "    #1 0x55dd861a03cb in __ctg_malloc " CTG_RUNTIME_SRC "rt_libc.c:42:15\n"
    "    #2 0x55dd8619d208 in other /src/minilib/src/alloc.c:3:9\n";

static void test_asan(void **state)
{
    (void)state;
    triage_info t = {0};
    triage_parse(asan_report, 6, &t);
    assert_string_equal(t.kind, "heap-buffer-overflow");
    assert_int_equal(t.n_top, 2); /* the runtime's frames are not the program's */
    assert_string_equal(t.top[0].func, "ml_decode");
    assert_string_equal(t.top[0].file, "/src/minilib/src/decode.c");
    assert_int_equal(t.top[0].line, 27);
    assert_int_equal(t.top[0].col, 20);
    assert_string_equal(t.top[1].func, "LLVMFuzzerTestOneInput");
    assert_true(t.key != 0);
    char where[256];
    triage_where(&t, where, sizeof where);
    assert_string_equal(where, "ml_decode at /src/minilib/src/decode.c:27");
    /* double free: "attempting double-free", the kind without "attempting" */
    triage_info d = {0};
    triage_parse("==1==ERROR: AddressSanitizer: attempting double-free on 0x6 in thread T0:\n"
                 "    #0 0x4 in __interceptor_free (/x+0x1)\n"
                 "    #1 0x5 in parse /p/kv.c:19:13\n", 6, &d);
    assert_string_equal(d.kind, "double-free");
    assert_int_equal(d.n_top, 1);
    assert_string_equal(d.top[0].func, "parse");
}

static void test_ubsan(void **state)
{
    (void)state;
    triage_info t = {0};
    triage_parse("/p/ub.c:5:36: runtime error: signed integer overflow: 1648712529 * 1000 "
                 "cannot be represented in type 'int'\n"
                 "    #0 0x557df0571267 in scale /p/ub.c:5:36\n"
                 "    #1 0x557df0571267 in __ctg_user_main /p/ub.c:11:16\n"
                 "    #2 0x557df0573627 in main " CTG_RUNTIME_SRC "rt_main.c:665:29\n"
                 "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior /p/ub.c:5:36 in\n",
                 6, &t);
    assert_string_equal(t.kind, "signed-integer-overflow");
    assert_int_equal(t.n_top, 2);
    assert_string_equal(t.top[0].func, "scale");
    assert_string_equal(t.top[1].func, "main"); /* the program's main, renamed by ctestgen */
    triage_info s = {0};
    triage_parse("/p/a.c:3:10: runtime error: shift exponent 40 is too large for 32-bit type "
                 "'int'\n    #0 0x1 in f /p/a.c:3:10\n", 6, &s);
    assert_string_equal(s.kind, "shift-exponent");
    triage_info n = {0};
    triage_parse("/p/a.c:4:5: runtime error: store to null pointer of type 'int'\n"
                 "    #0 0x1 in f /p/a.c:4:5\n", 6, &n);
    assert_string_equal(n.kind, "null-pointer");
}

static void test_signal_and_keys(void **state)
{
    (void)state;
    const char *stack = "Segmentation fault (signal 11); the stack:\n"
                        "    #0 in main /p/null.c:10:9\n";
    triage_info a = {0}, b = {0}, c = {0}, d = {0};
    triage_parse(stack, 11, &a);
    assert_string_equal(a.kind, "segv");
    assert_int_equal(a.n_top, 1);
    assert_int_equal(a.top[0].line, 10);
    /* the same stack from another binary (addresses differ): the same bug */
    triage_parse("SEGV\n    #0 0xdeadbeef in main /other/dir/null.c:10:3\n", 11, &b);
    assert_true(a.key == b.key);
    /* another line, or another kind: another bug */
    triage_parse("SEGV\n    #0 in main /p/null.c:11:9\n", 11, &c);
    assert_true(a.key != c.key);
    triage_parse(stack, 8, &d);
    assert_string_equal(d.kind, "fpe");
    assert_true(a.key != d.key);
    /* nothing that looks like a report: nothing learnt */
    triage_info e = {0};
    triage_parse("the program printed this\n", 11, &e);
    assert_true(e.key == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_asan),
        cmocka_unit_test(test_ubsan),
        cmocka_unit_test(test_signal_and_keys),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
