/*
 * test_mosa.c - MOSA and DynaMOSA on the in-process seed programs: all 22
 * triangle goals within 20,000 runs in at least 9 of 10 seeds (values in
 * +-1,000,000), every cgi_decode branch, DynaMOSA's goal activation by
 * control dependence, and the shorter-test archive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sbst_programs.h"
#include "search/sbst/mosa.h"

/* Runs (Dyna)MOSA on an in-process program until its edges are covered or
 * the budget is spent; returns the edges covered, *runs the runs used. */
static uint32_t run_mosa(int kind, bool dynamic, uint64_t seed, uint64_t budget, uint64_t *runs)
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
    mosa_params mp;
    mosa_params_default(&mp);
    mp.dynamic = dynamic;
    mosa_t *m = mosa_new(s, &mp, &e);
    assert_non_null(m);
    uint32_t want = p.db.n_edges, got = 0;
    while (mosa_step(m)) {
        got = 0;
        for (uint32_t g = 0; g < want; g++)
            got += mosa_solution(m, g) != NULL;
        if (got == want)
            break;
    }
    *runs = p.runs;
    mosa_free(m);
    sbst_free(s);
    ip_release(&p);
    return got;
}

/* Runs both variants on 10 (or 5) seeds and checks the coverage bar. */
static void bar(int kind, bool dynamic, int seeds, uint32_t goals, int need)
{
    int full = 0;
    for (uint64_t seed = 1; seed <= (uint64_t)seeds; seed++) {
        uint64_t runs;
        uint32_t c = run_mosa(kind, dynamic, seed, 20000, &runs);
        print_message("%s %s seed %d: %u goals, %lu runs\n", dynamic ? "dynamosa" : "mosa",
                      kind == IP_TRIANGLE ? "triangle" : "cgi", (int)seed, c, (unsigned long)runs);
        full += c == goals;
    }
    assert_true(full >= need);
}

static void test_triangle_mosa(void **state)
{
    (void)state;
    bar(IP_TRIANGLE, false, 10, 22, 9);
}

static void test_triangle_dynamosa(void **state)
{
    (void)state;
    bar(IP_TRIANGLE, true, 10, 22, 9);
}

static void test_cgi(void **state)
{
    (void)state;
    bar(IP_CGI, false, 5, 10, 4);
    bar(IP_CGI, true, 5, 10, 4);
}

/* DynaMOSA starts from the root goals (triangle: a <= 0 both ways) and
 * activates the children of covered goals. */
static void test_activation(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_TRIANGLE, 200, 1);
    sbst_env env = ip_env(&p, 1);
    tc_params tp;
    tc_params_default(&tp);
    tp.range = 1000000; /* the seed's MAX */
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    mosa_params mp;
    mosa_params_default(&mp);
    mp.dynamic = true;
    mosa_t *m = mosa_new(s, &mp, &e);
    assert_int_equal(mosa_n_targets(m), 2);
    assert_true(mosa_is_target(m, 0) && mosa_is_target(m, 1));
    assert_false(mosa_is_target(m, 2));
    while (mosa_step(m))
        ;
    /* covered edges are no targets; an uncovered goal is a target only
     * when one of its dependences is covered */
    const cdg_t *g = sbst_cdg(s);
    for (uint32_t goal = 0; goal < 22; goal++) {
        if (mosa_solution(m, goal)) {
            assert_false(mosa_is_target(m, goal));
            continue;
        }
        if (!mosa_is_target(m, goal))
            continue;
        uint32_t n;
        const uint32_t *dep = cdg_block_deps(g, 0, p.db.branches[p.db.edges[goal].branch].block, &n);
        bool parent = cdg_goal_is_root(g, goal);
        for (uint32_t i = 0; i < n; i++)
            parent |= mosa_solution(m, dep[i]) != NULL;
        assert_true(parent);
    }
    assert_true(mosa_generations(m) >= 2);
    mosa_free(m);
    sbst_free(s);
    ip_release(&p);
}

/* sbst_env.dropped: the goals it names (proven unreachable) never become
 * targets, whatever is covered, and the others still do; edge 1 is a root
 * target in the triangle, so dropping it shows. */
static bool drop_odd(void *ud, uint32_t goal)
{
    (void)ud;
    return goal % 2 == 1;
}

static void test_dropped(void **state)
{
    (void)state;
    ip_prog p;
    ip_init(&p, IP_TRIANGLE, 2000, 1);
    sbst_env env = ip_env(&p, 1);
    env.dropped = drop_odd;
    tc_params tp;
    tc_params_default(&tp);
    tp.range = 1000000;
    ctg_err e = {{0}};
    sbst_t *s = sbst_new(&env, &tp, SBST_DENSE, &e);
    mosa_params mp;
    mosa_params_default(&mp);
    mp.dynamic = true;
    mosa_t *m = mosa_new(s, &mp, &e);
    unsigned steps = 0, targets = 0;
    while (mosa_step(m)) {
        steps++;
        for (uint32_t goal = 0; goal < 22; goal++) {
            if (goal % 2 == 1)
                assert_false(mosa_is_target(m, goal));
            targets += mosa_is_target(m, goal);
        }
    }
    assert_true(steps > 0);
    assert_true(targets > 0); /* the even goals were targets */
    assert_true(sbst_goal_dropped(s, 1) && !sbst_goal_dropped(s, 0));
    mosa_free(m);
    sbst_free(s);
    ip_release(&p);
}

/* The archive keeps the shortest covering test (variable length). */
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
    mosa_params mp;
    mosa_params_default(&mp);
    mosa_t *m = mosa_new(s, &mp, &e);
    while (mosa_step(m))
        ;
    const tcase *t = mosa_solution(m, 1);
    assert_non_null(t);
    assert_int_equal(t->n, 1);
    t = mosa_solution(m, 2); /* c == '+': "+" and the NUL */
    assert_non_null(t);
    assert_true(t->n <= 3);
    mosa_free(m);
    sbst_free(s);
    ip_release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_triangle_mosa), cmocka_unit_test(test_triangle_dynamosa),
        cmocka_unit_test(test_cgi),           cmocka_unit_test(test_activation),
        cmocka_unit_test(test_shorter),      cmocka_unit_test(test_dropped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
