/*
 * test_task.c - Test-Comp task definitions and properties (cli/task.h):
 * program, data model and properties read from a format-2.0 .yml, the
 * property picked and applied to the options, one-line errors otherwise.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "run/task.h"
#include "search/strategy.h"

static char dir[64];

/* Writes dir/name with text; returns its path (static buffer). */
static const char *put(const char *name, const char *text)
{
    static char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(path, text, strlen(text), &e));
    return path;
}

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/ctg-task-%ld", (long)getpid());
    ctg_err e = {{0}};
    return fs_mkdir_p(dir, &e) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    return fs_rm_rf(dir, &e) ? 0 : -1;
}

#define TASK_SV                                                                               \
    "format_version: '2.0'\n"                                                                 \
    "# a comment\n"                                                                           \
    "input_files: 'prog.c'\n"                                                                 \
    "properties:\n"                                                                           \
    "  - property_file: ../properties/unreach-call.prp\n"                                     \
    "    expected_verdict: true\n"                                                            \
    "  - property_file: ../properties/coverage-error-call.prp\n"                              \
    "  - property_file: ../properties/coverage-branches.prp\n"                                \
    "options:\n"                                                                              \
    "  language: C\n"                                                                         \
    "  data_model: ILP32\n"

static void test_load(void **state)
{
    (void)state;
    ctg_task t;
    ctg_err e = {{0}};
    assert_true(task_load(put("a.yml", TASK_SV), &t, &e));
    char want[128];
    snprintf(want, sizeof want, "%s/prog.c", dir);
    assert_string_equal(t.program, want);
    assert_int_equal(t.arch_bits, 32);
    assert_string_equal(t.language, "C");
    assert_int_equal(t.n_props, 3);
    assert_string_equal(t.props[0], "unreach-call");
    assert_string_equal(t.props[1], PROP_ERROR_CALL);
    assert_string_equal(t.props[2], PROP_BRANCHES);
    task_release(&t);

    /* a list of one input file, LP64 */
    assert_true(task_load(put("b.yml", "format_version: '2.0'\ninput_files:\n  - 'x.i'\n"
                                       "options:\n  data_model: LP64\n"),
                          &t, &e));
    assert_int_equal(t.arch_bits, 64);
    assert_non_null(strstr(t.program, "/x.i"));
    assert_int_equal(t.n_props, 0);
    task_release(&t);
}

/* task_load fails with a one-line message naming the file and the problem. */
static void expect_fail(const char *text, const char *what)
{
    ctg_task t;
    ctg_err e = {{0}};
    const char *p = put("bad.yml", text);
    assert_false(task_load(p, &t, &e));
    if (!strstr(e.msg, what) || !strstr(e.msg, "bad.yml") || strchr(e.msg, '\n'))
        fail_msg("message '%s' lacks '%s'", e.msg, what);
}

static void test_load_errors(void **state)
{
    (void)state;
    expect_fail("format_version: '1.0'\ninput_files: 'x.c'\n", "format_version is '1.0'");
    expect_fail("input_files: 'x.c'\n", "format_version is missing");
    expect_fail("format_version: '2.0'\n", "no input_files");
    expect_fail("format_version: '2.0'\ninput_files: ['a.c', 'b.c']\n", "lists 2 files");
    expect_fail("format_version: '2.0'\ninput_files: 'x.c'\noptions: {data_model: ILP64}\n",
                "data_model 'ILP64'");
    expect_fail("format_version: '2.0'\ninput_files: [x.c\n", "not valid YAML");
    expect_fail("- just\n- a list\n", "not a task definition");
    ctg_task t;
    ctg_err e = {{0}};
    assert_false(task_load("/nonexistent/t.yml", &t, &e));
    assert_non_null(strstr(e.msg, "/nonexistent/t.yml"));
}

static void test_property(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    assert_string_equal(task_property("coverage-branches", &e), PROP_BRANCHES);
    assert_string_equal(task_property("/no/such/coverage-error-call.prp", &e), PROP_ERROR_CALL);
    /* an existing file: its text decides, not its name */
    const char *p = put("renamed.prp", "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n");
    assert_string_equal(task_property(p, &e), PROP_ERROR_CALL);
    p = put("coverage-branches.prp", "CHECK( init(main()), LTL(G ! call(reach_error())) )\n");
    assert_null(task_property(p, &e));
    assert_non_null(strstr(e.msg, "not a Test-Comp test property"));
    memset(&e, 0, sizeof e);
    assert_null(task_property("coverage-statements", &e));
    assert_non_null(strstr(e.msg, "'coverage-statements' is not supported"));
    assert_non_null(strstr(task_spec(PROP_BRANCHES), "@DECISIONEDGE"));
    assert_non_null(strstr(task_spec(PROP_ERROR_CALL), "@CALL(reach_error)"));
}

/* Options as after parsing `run ARG` with the given property. */
static void opts(ctg_options *o, const char *arg, const char *prop, int arch)
{
    static const char *pos[1];
    strategy_register_options();
    options_defaults(o);
    o->command = "run";
    pos[0] = arg;
    o->positional.items = pos;
    o->positional.n = 1;
    o->search.property = prop;
    o->build.arch_bits = arch;
}

static void test_apply(void **state)
{
    (void)state;
    put("prog.c", "int main(void) { return 0; }\n");
    const char *yml = put("a.yml", TASK_SV);
    char y[128];
    snprintf(y, sizeof y, "%s", yml);
    ctg_options o;
    ctg_err e = {{0}};
    /* the task: ILP32, branches preferred, zip, no stop at the error */
    opts(&o, y, NULL, 0);
    assert_true(task_apply(&o, &e));
    assert_int_equal(o.build.arch_bits, 32);
    assert_string_equal(o.search.property, PROP_BRANCHES);
    assert_false(o.search.stop_on_error);
    assert_true(o.out.suite_zip);
    assert_non_null(strstr(o.positional.items[0], "/prog.c"));
    ctg_free(o.task.program);
    /* --property coverage-error-call and --arch 64 win over the task */
    opts(&o, y, "coverage-error-call", 64);
    assert_true(task_apply(&o, &e));
    assert_int_equal(o.build.arch_bits, 64);
    assert_true(o.search.stop_on_error);
    ctg_free(o.task.program);
    /* a plain program: 64-bit, branches */
    opts(&o, "prog.c", NULL, 0);
    assert_true(task_apply(&o, &e));
    assert_int_equal(o.build.arch_bits, 64);
    assert_string_equal(o.search.property, PROP_BRANCHES);
    assert_false(o.out.suite_zip);
    /* a property the task does not list */
    put("c.yml", "format_version: '2.0'\ninput_files: 'prog.c'\nproperties:\n"
                 "  - property_file: p/coverage-branches.prp\n");
    snprintf(y, sizeof y, "%s/c.yml", dir);
    opts(&o, y, "coverage-error-call", 0);
    memset(&e, 0, sizeof e);
    assert_false(task_apply(&o, &e));
    assert_non_null(strstr(e.msg, "does not list coverage-error-call"));
    /* a program that is not there */
    put("d.yml", "format_version: '2.0'\ninput_files: 'gone.c'\nproperties:\n"
                 "  - property_file: p/coverage-branches.prp\n");
    snprintf(y, sizeof y, "%s/d.yml", dir);
    opts(&o, y, NULL, 0);
    memset(&e, 0, sizeof e);
    assert_false(task_apply(&o, &e));
    assert_non_null(strstr(e.msg, "gone.c does not exist"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load),
        cmocka_unit_test(test_load_errors),
        cmocka_unit_test(test_property),
        cmocka_unit_test(test_apply),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
