/*
 * test_sbst_engine.c - src/search/sbst/sbst_engine.c, the search-based
 * strategies' glue to the engine (engine_fixture.h): with branch distances
 * from the runs, mio, mosa, dynamosa and wts each cover x == 123456 in a
 * few thousand executions, which random testing does not; the strategy's
 * counters reach stats.json and its goals match the engine's; a test whose
 * values run out is extended (a loop reading values keeps going); an
 * unknown value of an enumerated strategy option is a one-line error
 * naming the option.
 */
#include "engine_fixture.h" /* before cmocka.h, which defines test_free */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

static const char *needle_src =
    "extern int __VERIFIER_nondet_int(void);\n"
    "extern void abort(void);\n"
    "void reach_error(void) { abort(); }\n"
    "int main(void)\n{\n"
    "    int x = __VERIFIER_nondet_int();\n"
    "    if (x > 1000) {\n"
    "        if (x == 123456)\n            reach_error();\n"
    "        return 1;\n    }\n"
    "    return 0;\n}\n";

/* Sums values until one is 0; needs three values above 100 to reach 3. */
static const char *loop_src =
    "extern int __VERIFIER_nondet_int(void);\n"
    "int main(void)\n{\n"
    "    int big = 0;\n"
    "    for (int i = 0; i < 8; i++) {\n"
    "        int v = __VERIFIER_nondet_int();\n"
    "        if (v > 100)\n            big++;\n"
    "    }\n"
    "    if (big >= 3)\n        return 1;\n"
    "    return 0;\n}\n";

static void run_needle(const char *algo, const char *out_name, engine_summary *s)
{
    char *prog = efx_write("needle.c", needle_src), *out = efx_path(out_name);
    ctg_err e = {{0}};
    bool ok = efx_run(s, &e, prog, "--strategy", algo, "--max-execs", "6000", "--seed", "1",
                      "-q", "-o", out, NULL);
    if (!ok)
        print_error("%s: %s\n", algo, e.msg);
    assert_true(ok);
    ctg_free(prog), ctg_free(out);
}

static void test_distance_guided(void **state)
{
    (void)state;
    static const char *const algos[] = {"mio", "mosa", "dynamosa", "wts"};
    engine_summary s;
    for (size_t i = 0; i < sizeof algos / sizeof algos[0]; i++) {
        run_needle(algos[i], algos[i], &s);
        if (s.errors_reached != 1)
            print_error("%s: error not reached in %llu executions\n", algos[i],
                        (unsigned long long)s.execs);
        assert_int_equal(s.errors_reached, 1);
        assert_int_equal(s.edges_covered, s.n_edges);
        /* the strategy's goals are the engine's: 4 edges and the error */
        assert_int_equal((int)efx_stat(algos[i], "sbst.goals"), (int)(s.n_edges + s.n_errors));
        assert_int_equal((int)efx_stat(algos[i], "sbst.goals_covered"),
                         (int)(s.n_edges + s.n_errors));
        engine_summary_release(&s);
    }
    run_needle("random", "random", &s); /* without distances: not found */
    assert_int_equal(s.errors_reached, 0);
    engine_summary_release(&s);
}

static void test_values_extended(void **state)
{
    (void)state;
    char *prog = efx_write("loop.c", loop_src), *out = efx_path("loop");
    engine_summary s;
    ctg_err e = {{0}};
    assert_true(efx_run(&s, &e, prog, "--strategy", "mio", "--max-execs", "3000", "--seed", "1",
                        "-q", "-o", out, NULL));
    assert_int_equal(s.edges_covered, s.n_edges);
    engine_summary_release(&s);
    ctg_free(prog), ctg_free(out);
}

static void test_bad_option_value(void **state)
{
    (void)state;
    char *prog = efx_write("needle.c", needle_src), *out = efx_path("bad");
    engine_summary s;
    ctg_err e = {{0}};
    assert_false(efx_run(&s, &e, prog, "--strategy", "wts", "--max-execs", "100", "--selection",
                         "roulette", "-q", "-o", out, NULL));
    assert_string_equal(e.msg, "--selection: unknown value 'roulette'; see --help");
    engine_summary_release(&s);
    ctg_free(prog), ctg_free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_distance_guided),
        cmocka_unit_test(test_values_extended),
        cmocka_unit_test(test_bad_option_value),
    };
    return cmocka_run_group_tests(tests, efx_group_setup, efx_group_teardown);
}
