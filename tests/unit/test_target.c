/*
 * test_target.c - the one table of target kinds (src/base/target.h): every
 * row pinned (name, recorded input, harness, what follows from the kind),
 * the kind a harness, "@@" and --function resolve to, and names read back
 * from stats.json's info.input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/target.h"
#include "runtime/rt_protocol.h"

static const struct row {
    const char *name, *input;
    uint32_t harness;
    bool bytes, raw, text, sized, persistent, echeck, san, feed, at, driver, runner;
} rows[] = {
    {"values", "values", CTG_HARNESS_TESTCOMP, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0},
    {"libfuzzer", "libfuzzer", CTG_HARNESS_LIBFUZZER, 1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1},
    {"stdin", "stdin", CTG_HARNESS_STDIN, 1, 1, 1, 0, 0, 0, 0, 1, 0, 0, 0},
    {"file", "file", CTG_HARNESS_STDIN, 1, 1, 1, 0, 0, 0, 0, 1, 1, 0, 0},
    {"function", "values", CTG_HARNESS_TESTCOMP, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0},
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static void test_every_row(void **state)
{
    (void)state;
    assert_int_equal(target_count(), N_ROWS);
    assert_null(target_at(-1));
    assert_null(target_at((int)N_ROWS));
    for (size_t i = 0; i < N_ROWS; i++) {
        const struct row *r = &rows[i];
        const target_kind *k = target_by_name(r->name);
        assert_non_null(k);
        assert_ptr_equal(k, target_at((int)i));
        assert_string_equal(k->input, r->input);
        assert_non_null(k->about);
        assert_int_equal(k->harness, r->harness);
        assert_int_equal(k->bytes, r->bytes);
        assert_int_equal(k->raw_tests, r->raw);
        assert_int_equal(k->text, r->text);
        assert_int_equal(k->sized, r->sized);
        assert_int_equal(k->persistent, r->persistent);
        assert_int_equal(k->error_check, r->echeck);
        assert_int_equal(k->sanitize_auto, r->san);
        assert_int_equal(k->feed, r->feed);
        assert_int_equal(k->at_file, r->at);
        assert_int_equal(k->driver, r->driver);
        assert_int_equal(k->runner_main, r->runner);
    }
}

/* harness, "@@" among the arguments and --function give the kind. */
static void test_resolve(void **state)
{
    (void)state;
    const char *none[] = {"-v"}, *at[] = {"-v", "@@"};
    assert_string_equal(target_resolve(CTG_HARNESS_TESTCOMP, none, 1, false)->name, "values");
    assert_string_equal(target_resolve(CTG_HARNESS_TESTCOMP, at, 2, false)->name, "file");
    assert_string_equal(target_resolve(CTG_HARNESS_TESTCOMP, NULL, 0, true)->name, "function");
    assert_string_equal(target_resolve(CTG_HARNESS_STDIN, none, 1, false)->name, "stdin");
    assert_string_equal(target_resolve(CTG_HARNESS_STDIN, at, 2, false)->name, "file");
    assert_string_equal(target_resolve(CTG_HARNESS_LIBFUZZER, at, 2, false)->name, "libfuzzer");
    assert_string_equal(target_resolve(CTG_HARNESS_LIBFUZZER, NULL, 0, true)->name, "libfuzzer");
    /* a file target's harness is stdin's: the runtime opens the file */
    assert_int_equal(target_resolve(CTG_HARNESS_TESTCOMP, at, 2, false)->harness,
                     CTG_HARNESS_STDIN);
    assert_string_equal(target_of_harness(99)->name, "values");
}

/* stats.json's input reads back as the first kind that records it. */
static void test_by_input(void **state)
{
    (void)state;
    assert_string_equal(target_by_input("values")->name, "values");
    assert_string_equal(target_by_input("file")->name, "file");
    assert_string_equal(target_by_input("libfuzzer")->name, "libfuzzer");
    assert_null(target_by_input("function"));
    assert_null(target_by_input("tape"));
    assert_null(target_by_input(NULL));
    assert_null(target_by_name("tape"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row),
        cmocka_unit_test(test_resolve),
        cmocka_unit_test(test_by_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
