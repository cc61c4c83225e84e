/*
 * test_mio.c - MIO on the in-process seed programs: the parameter schedule
 * of the focused phase, all 22 triangle goals within 20,000 runs in at least
 * 9 of 10 seeds (values in +-1,000,000, the seed's hardest setting), every
 * cgi_decode branch, and short covering tests in the archive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sbst_programs.h"
#include "search/sbst/mio.h"

/* Runs MIO on an in-process program; returns goals covered (edges only
 * when edges_only) and leaves the run count in *runs. */
static uint32_t run_mio(int kind, uint64_t seed, uint64_t budget, bool edges_only, uint64_t *runs)
{
    ip_prog p;
    ip_init(&p, kind, budget, seed);
    sbst_env env = ip_env(&p, seed);
    tc_params tp;
    tc_params_default(&tp);
    tp.range = 1000000; /* the seed's MAX */
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    assert_non_null(s);
    mio_params mp;
    mio_params_default(&mp);
    mio_t *m = mio_new(s, &mp, &e);
    assert_non_null(m);
    uint32_t want = edges_only ? p.db.n_edges : sbst_n_goals(s);
    uint32_t got = 0;
    while (mio_step(m)) {
        got = 0;
        for (uint32_t g = 0; g < want; g++)
            got += mio_solution(m, g) != NULL;
        if (got == want)
            break;
    }
    /* every archived solution really covers its goal: re-run it */
    for (uint32_t g = 0; g < want; g++) {
        const tcase *t = mio_solution(m, g);
        if (t)
            assert_true(sbst_goal_covered(s, g));
    }
    *runs = p.runs;
    mio_free(m);
    sbst_free(s);
    ip_release(&p);
    return got;
}

/* P_sample, archive size and mutations move from first to focused values. */
static void test_schedule(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_TRIANGLE, 1000, 1);
    sbst_env env = ip_env(&p, 1);
    tc_params tp;
    tc_params_default(&tp);
    tp.range = 1000000; /* the seed's MAX */
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    mio_params mp;
    mio_params_default(&mp);
    mio_t *m = mio_new(s, &mp, &e);
    assert_true(mio_step(m));
    assert_true(mio_p_sample(m) == 0.5);
    assert_int_equal(mio_archive_size(m), 10);
    assert_int_equal(mio_mutations(m), 1);
    while (p.runs < 250)
        assert_true(mio_step(m));
    /* a quarter of the budget: halfway to the focused values */
    assert_true(mio_p_sample(m) > 0.2 && mio_p_sample(m) < 0.3);
    assert_int_equal(mio_archive_size(m), 5);
    assert_int_equal(mio_mutations(m), 5);
    while (p.runs < 600)
        assert_true(mio_step(m));
    assert_true(mio_p_sample(m) == 0);
    assert_int_equal(mio_archive_size(m), 1);
    assert_int_equal(mio_mutations(m), 10);
    while (mio_step(m))
        ;
    assert_int_equal(p.runs, 1000);
    mio_free(m);
    sbst_free(s);
    ip_release(&p);
}

/* Issue 3's bar, in-process: 22/22 within 20,000 runs in >= 9 of 10 seeds. */
static void test_triangle(void **state)
{
    (void)state;
    int full = 0;
    for (uint64_t seed = 1; seed <= 10; seed++) {
        uint64_t runs;
        uint32_t c = run_mio(IP_TRIANGLE, seed, 20000, true, &runs);
        print_message("triangle seed %d: %u goals, %lu runs\n", (int)seed, c, (unsigned long)runs);
        full += c == 22;
    }
    assert_true(full >= 9);
}

/* cgi_decode: every branch edge (strings of variable length). */
static void test_cgi(void **state)
{
    (void)state;
    int full = 0;
    for (uint64_t seed = 1; seed <= 5; seed++) {
        uint64_t runs;
        uint32_t c = run_mio(IP_CGI, seed, 20000, true, &runs);
        print_message("cgi seed %d: %u goals, %lu runs\n", (int)seed, c, (unsigned long)runs);
        full += c == 10;
    }
    assert_true(full >= 4);
}

/* Shorter covering tests replace longer ones (variable length). */
static void test_shorter(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_CGI, 3000, 3);
    sbst_env env = ip_env(&p, 3);
    tc_params tp;
    tc_params_default(&tp);
    tp.range = 1000000; /* the seed's MAX */
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    mio_params mp;
    mio_params_default(&mp);
    mio_t *m = mio_new(s, &mp, &e);
    while (mio_step(m))
        ;
    /* "loop entered" (i < len true) needs one char plus the NUL */
    const tcase *t = mio_solution(m, 0);
    assert_non_null(t);
    assert_true(t->n <= 3);
    /* "loop left" is covered by every test: the shortest is the empty string */
    t = mio_solution(m, 1);
    assert_non_null(t);
    assert_int_equal(t->n, 1);
    mio_free(m);
    sbst_free(s);
    ip_release(&p);
}

/* The test mutated next, on the seed's pseudo-code ("if result: current
 * = deepcopy(offspring)"): with seed_current a fresh test that improved no
 * archive leaves the current test as it was; without it (the paper's rule)
 * the fresh test becomes the current one.  A test that improved an archive
 * becomes the current one either way.  Random tests only (P_sample 1),
 * each mutated twice. */
static void test_seed_current(void **state)
{
    (void)state;
    for (int seed_rule = 0; seed_rule < 2; seed_rule++) {
        ip_prog p;
        ip_init(&p, IP_TRIANGLE, 600, 5);
        sbst_env env = ip_env(&p, 5);
        tc_params tp;
        tc_params_default(&tp);
        tp.range = 1000000;
        ctg_err e = {{0}};
        sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
        mio_params mp;
        mio_params_default(&mp);
        mp.p_sample_first = mp.p_sample_focused = 1.0;
        mp.mutations_first = mp.mutations_focused = 2;
        mp.p_avm = 0;
        mp.seed_current = seed_rule;
        mio_t *m = mio_new(s, &mp, &e);
        unsigned fresh_idle = 0;
        const tcase *before = NULL;
        while (mio_step(m)) {
            mio_trace t = mio_last_step(m);
            if (t.updated)
                assert_ptr_equal(t.current, t.last);
            else if (t.fresh && seed_rule) {
                assert_ptr_equal(t.current, before); /* kept */
                fresh_idle++;
            } else if (t.fresh) {
                assert_ptr_equal(t.current, t.last); /* replaced */
                fresh_idle++;
            }
            before = t.current;
        }
        assert_true(fresh_idle > 0);
        mio_free(m);
        sbst_free(s);
        ip_release(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_current),
        cmocka_unit_test(test_schedule),
        cmocka_unit_test(test_triangle),
        cmocka_unit_test(test_cgi),
        cmocka_unit_test(test_shorter),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
