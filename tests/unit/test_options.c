/*
 * test_options.c - the command-line parser: values land in the right fields,
 * compiler flags are passed through, bad input gives a one-line error.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "base/ccflags.h"
#include "opt/options.h"
#include "search/strategy.h"

/* Parses a NULL-terminated argument list (argv[0] added). */
static bool parse(ctg_options *o, ctg_err *e, ...)
{
    static char *argv[64];
    int argc = 0;
    argv[argc++] = "ctestgen";
    va_list ap;
    va_start(ap, e);
    for (char *a; (a = va_arg(ap, char *));)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    strategy_register_options();
    options_defaults(o);
    memset(e, 0, sizeof *e);
    return options_parse(o, argc, argv, e);
}

static void test_defaults(void **state)
{
    (void)state;
    ctg_options o;
    ctg_err e;
    assert_true(parse(&o, &e, "run", "prog.c", NULL));
    assert_string_equal(o.command, "run");
    assert_int_equal(o.positional.n, 1);
    assert_string_equal(o.positional.items[0], "prog.c");
    assert_string_equal(o.search.strategy, "auto");
    assert_int_equal(o.search.seed, 1);
    assert_int_equal(o.build.arch_bits, 0); /* unset until task_apply (test_task.c) */
    assert_int_equal(o.exec.timeout_ms, 1000);
    assert_int_equal(o.search.crash_min_execs, 256);
    assert_string_equal(o.out.out_dir, "ctestgen-out");
    options_release(&o);
}

static void test_values_and_cflags(void **state)
{
    (void)state;
    ctg_options o;
    ctg_err e;
    assert_true(parse(&o, &e, "run", "a.c", "--max-execs", "20000", "--seed", "7", "-o", "out",
                      "-I", "inc", "-DFOO=1", "b.c", "--time", "2.5", "-m32", "--strategy",
                      "random", "--force", "--crash-min-execs", "0", NULL));
    assert_int_equal(o.search.max_execs, 20000);
    assert_int_equal(o.search.crash_min_execs, 0);
    assert_int_equal(o.search.seed, 7);
    assert_string_equal(o.out.out_dir, "out");
    assert_true(o.out.force);
    assert_true(o.search.time_s > 2.49 && o.search.time_s < 2.51);
    assert_int_equal(o.build.arch_bits, 32);
    assert_int_equal(o.positional.n, 2);
    assert_string_equal(o.positional.items[1], "b.c");
    assert_int_equal(o.build.cflags.n, 2);
    assert_string_equal(o.build.cflags.items[0], "-Iinc"); /* -I DIR joined */
    assert_string_equal(o.build.cflags.items[1], "-DFOO=1");
    options_release(&o);
}

/* Compiler and linker flags given directly: passed on, ignored with a
 * reason, or a sanitizer list; a real unknown option is named. */
static void test_compiler_flags(void **state)
{
    (void)state;
    ctg_options o;
    ctg_err e;
    assert_true(parse(&o, &e, "run", "fuzz_te.c", "tinyexpr.c", "-lm", "-O2", "-Wall",
                      "-L", "lib", "-pthread", "-fno-strict-aliasing", "-g", "-include", "cfg.h",
                      "-fsanitize=address,undefined", "-Wl,--as-needed", "-f", NULL));
    assert_int_equal(o.positional.n, 2);
    assert_string_equal(o.positional.items[1], "tinyexpr.c");
    assert_true(o.out.force); /* -f alone is --force */
    assert_string_equal(o.build.sanitize, "address,undefined");
    const char *want[] = {"-lm", "-Llib", "-pthread", "-fno-strict-aliasing", "-include",
                          "cfg.h", "-Wl,--as-needed"};
    assert_int_equal(o.build.cflags.n, 7);
    for (int i = 0; i < 7; i++)
        assert_string_equal(o.build.cflags.items[i], want[i]);
    assert_int_equal(o.build.ignored.n, 3);
    assert_string_equal(o.build.ignored.items[0], "-O2");
    assert_string_equal(o.build.ignored.items[2], "-g");
    options_release(&o);
    /* the argument named is the unknown one, wherever it stands */
    assert_false(parse(&o, &e, "run", "fuzz_te.c", "tinyexpr.c", "-lm", "--frobnicate", NULL));
    assert_non_null(strstr(e.msg, "--frobnicate: unknown option"));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "b.c", "-qx", NULL));
    assert_non_null(strstr(e.msg, "-x: unknown option"));
    options_release(&o);
}

/* Which flags reach the compiler and which the link (ccflags.h). */
static void test_flag_kinds(void **state)
{
    (void)state;
    assert_true(ccf_for_compile("-Iinc") && !ccf_for_link("-Iinc"));
    assert_true(ccf_for_link("-lm") && !ccf_for_compile("-lm"));
    assert_true(ccf_for_link("-Wl,-z,now") && !ccf_for_compile("-Wl,-z,now"));
    assert_true(ccf_for_link("-pthread") && ccf_for_compile("-pthread"));
    assert_true(!ccf_for_compile("-O2") && !ccf_for_link("-O2"));
    int pre;
    assert_true(ccf_takes_path("-I/x", &pre) && pre == 2);
    assert_true(ccf_takes_path("-include", &pre) && pre == 0);
    assert_false(ccf_takes_path("-DX", &pre));
}

static void test_errors(void **state)
{
    (void)state;
    ctg_options o;
    ctg_err e;
    assert_false(parse(&o, &e, "run", "a.c", "--no-such-option", NULL));
    assert_non_null(strstr(e.msg, "--no-such-option"));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "--max-execs", NULL));
    assert_non_null(strstr(e.msg, "needs a value"));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "--max-execs", "12x", NULL));
    assert_non_null(strstr(e.msg, "not a valid number"));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "--max-execs", "-5", NULL));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "--strategy", "magic", NULL));
    assert_non_null(strstr(e.msg, "magic"));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "--arch", "16", NULL));
    options_release(&o);
    assert_false(parse(&o, &e, "run", "a.c", "--time", "-1", NULL));
    options_release(&o);
    assert_null(strchr(e.msg, '\n'));
    assert_false(parse(&o, &e, "run", "a.c", "--corpus", "q", NULL));
    assert_non_null(strstr(e.msg, "--corpus: only 'ctestgen replay'"));
    options_release(&o);
}

/* replay --corpus: repeatable, the positionals are all sources. */
static void test_replay_corpus(void **state)
{
    (void)state;
    ctg_options o;
    ctg_err e;
    assert_true(parse(&o, &e, "replay", "--corpus", "q1", "a.c", "--corpus", "q2", "b.c", NULL));
    assert_string_equal(o.command, "replay");
    assert_int_equal(o.replay.corpus.n, 2);
    assert_string_equal(o.replay.corpus.items[0], "q1");
    assert_string_equal(o.replay.corpus.items[1], "q2");
    assert_int_equal(o.positional.n, 2);
    assert_string_equal(o.positional.items[0], "a.c");
    options_release(&o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_values_and_cflags),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_compiler_flags),
        cmocka_unit_test(test_flag_kinds),
        cmocka_unit_test(test_replay_corpus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
