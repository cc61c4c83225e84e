/*
 * test_cdg.c - post-dominators, control dependence and approach layers on
 * hand-built CFGs: if/else, nested ifs, a loop with an if inside, a switch,
 * an infinite loop, error sites, several functions, malformed input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/mem.h"
#include "sbst_fixture.h"
#include "search/sbst/cdg.h"

/* Builds the cdg or fails the test. */
static cdg_t *build(const progdb *db)
{
    ctg_err e = {{0}};
    cdg_t *g = cdg_build(db, &e);
    if (!g)
        fail_msg("cdg_build: %s", e.msg);
    return g;
}

/* Asserts the dependences of a block equal the given edge list. */
static void expect_deps(const cdg_t *g, uint32_t f, uint32_t b, int n, const uint32_t *want)
{
    uint32_t got_n;
    const uint32_t *got = cdg_block_deps(g, f, b, &got_n);
    assert_int_equal(got_n, n);
    for (int i = 0; i < n; i++)
        assert_int_equal(got[i], want[i]);
}

/* Asserts a goal's approach layers equal pairs (edge, level). */
static void expect_steps(const cdg_t *g, uint32_t goal, int n, const uint32_t (*want)[2])
{
    uint32_t got_n;
    const cdg_step *st = cdg_goal_steps(g, goal, &got_n);
    assert_int_equal(got_n, n);
    for (int i = 0; i < n; i++) {
        assert_int_equal(st[i].edge, want[i][0]);
        assert_int_equal(st[i].level, want[i][1]);
    }
}

/* if (c) A else B; join; return */
static void test_if_else(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_B(1, 2), FX_J(3), FX_J(3), FX_R};
    fx_add_func(&db, "f", bl, 4);
    cdg_t *g = build(&db);
    assert_int_equal(cdg_ipdom(g, 0, 0), 3);
    assert_int_equal(cdg_ipdom(g, 0, 1), 3);
    assert_int_equal(cdg_ipdom(g, 0, 2), 3);
    assert_int_equal(cdg_ipdom(g, 0, 3), -1);
    expect_deps(g, 0, 0, 0, NULL);
    expect_deps(g, 0, 1, 1, (uint32_t[]){0});
    expect_deps(g, 0, 2, 1, (uint32_t[]){1});
    expect_deps(g, 0, 3, 0, NULL);
    expect_steps(g, 0, 1, (const uint32_t[][2]){{0, 0}});
    assert_int_equal(cdg_goal_levels(g, 1), 1);
    assert_true(cdg_goal_is_root(g, 0));
    assert_true(cdg_goal_is_root(g, 1));
    cdg_free(g);
    fx_release(&db);
}

/* if (a) { if (b) X; Y; } return */
static void test_nested_if(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_B(1, 4), FX_B(2, 3), FX_J(3), FX_J(4), FX_R};
    fx_add_func(&db, "f", bl, 5);
    cdg_t *g = build(&db);
    expect_deps(g, 0, 1, 1, (uint32_t[]){0});
    expect_deps(g, 0, 2, 1, (uint32_t[]){2});
    expect_deps(g, 0, 3, 1, (uint32_t[]){0});
    expect_deps(g, 0, 4, 0, NULL);
    expect_steps(g, 2, 2, (const uint32_t[][2]){{2, 0}, {0, 1}});
    expect_steps(g, 3, 2, (const uint32_t[][2]){{3, 0}, {0, 1}});
    assert_int_equal(cdg_goal_levels(g, 3), 2);
    assert_false(cdg_goal_is_root(g, 2));
    uint32_t n;
    const uint32_t *ch = cdg_edge_children(g, 0, &n);
    assert_int_equal(n, 2);
    assert_int_equal(ch[0], 2);
    assert_int_equal(ch[1], 3);
    cdg_edge_children(g, 1, &n);
    assert_int_equal(n, 0);
    cdg_free(g);
    fx_release(&db);
}

/* while (c) { if (d) X; } return: the loop header depends on its own
 * back-edge branch, the if inside depends on entering the loop. */
static void test_loop(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_J(1), FX_B(2, 5), FX_B(3, 4), FX_J(4), FX_J(1), FX_R};
    fx_add_func(&db, "f", bl, 6);
    cdg_t *g = build(&db);
    assert_int_equal(cdg_ipdom(g, 0, 1), 5);
    assert_int_equal(cdg_ipdom(g, 0, 2), 4);
    assert_int_equal(cdg_ipdom(g, 0, 4), 1);
    expect_deps(g, 0, 1, 1, (uint32_t[]){0});
    expect_deps(g, 0, 2, 1, (uint32_t[]){0});
    expect_deps(g, 0, 3, 1, (uint32_t[]){2});
    expect_deps(g, 0, 4, 1, (uint32_t[]){0});
    expect_deps(g, 0, 0, 0, NULL);
    /* X's edge: the inner branch, then the loop condition once */
    expect_steps(g, 2, 2, (const uint32_t[][2]){{2, 0}, {0, 1}});
    /* the exit edge of the loop depends on the loop edge (header re-entry) */
    expect_steps(g, 1, 2, (const uint32_t[][2]){{1, 0}, {0, 1}});
    /* the header depends only on its own branch: a root; the if inside not */
    assert_true(cdg_goal_is_root(g, 1));
    assert_false(cdg_goal_is_root(g, 2));
    cdg_free(g);
    fx_release(&db);
}

/* switch (v) { case 1: A; case 2: B; default: C } return */
static void test_switch(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {{FX_SW, 3, {1, 2, 3}}, FX_J(4), FX_J(4), FX_J(4), FX_B(5, 6), FX_R, FX_R};
    fx_add_func(&db, "f", bl, 7);
    cdg_t *g = build(&db);
    expect_deps(g, 0, 1, 1, (uint32_t[]){0});
    expect_deps(g, 0, 2, 1, (uint32_t[]){1});
    expect_deps(g, 0, 3, 1, (uint32_t[]){2});
    expect_deps(g, 0, 4, 0, NULL);
    expect_deps(g, 0, 5, 1, (uint32_t[]){3});
    expect_deps(g, 0, 6, 1, (uint32_t[]){4});
    assert_true(cdg_goal_is_root(g, 2));
    assert_true(cdg_goal_is_root(g, 3));
    cdg_free(g);
    fx_release(&db);
}

/* if (c) for (;;); return: the endless loop cannot reach the exit but must
 * still get post-dominators and dependences. */
static void test_infinite_loop(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_B(1, 3), FX_B(2, 1), FX_J(1), FX_R};
    fx_add_func(&db, "f", bl, 4);
    cdg_t *g = build(&db);
    assert_int_equal(cdg_ipdom(g, 0, 0), -1);
    /* entered from the if, and re-entered by its own self loop */
    expect_deps(g, 0, 1, 2, (uint32_t[]){0, 3});
    expect_deps(g, 0, 3, 1, (uint32_t[]){1});
    uint32_t n;
    cdg_goal_steps(g, 2, &n);
    assert_true(n >= 2);
    cdg_free(g);
    fx_release(&db);
}

/* Error sites: one under a condition, one in the entry block; a second
 * function keeps its own numbering. */
static void test_errors_and_functions(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block f0[] = {FX_B(1, 2), FX_J(2), FX_R};
    fx_block f1[] = {FX_B(1, 2), FX_B(3, 2), FX_R, FX_R};
    fx_add_func(&db, "main", f0, 3);
    fx_add_func(&db, "g", f1, 4);
    fx_add_error(&db, 1, 3);
    fx_add_error(&db, 0, 0);
    cdg_t *g = build(&db);
    assert_int_equal(cdg_n_goals(g), 6 + 2);
    /* error 0 in g, block 3: depends on edge 4 (g's second branch, true) */
    expect_steps(g, 6, 2, (const uint32_t[][2]){{4, 0}, {2, 1}});
    assert_int_equal(cdg_goal_levels(g, 6), 2);
    assert_int_equal(cdg_goal_func(g, 6), 1);
    assert_false(cdg_goal_is_root(g, 6));
    /* error 1 in main's entry: no layers, a root */
    assert_int_equal(cdg_goal_levels(g, 7), 0);
    assert_true(cdg_goal_is_root(g, 7));
    uint32_t n;
    const uint32_t *ch = cdg_edge_children(g, 4, &n);
    assert_int_equal(n, 1);
    assert_int_equal(ch[0], 6);
    assert_int_equal(cdg_goal_func(g, 3), 1);
    cdg_free(g);
    fx_release(&db);
}

/* A successor out of range is reported, not followed. */
/* A chain of 200 `if (c_r) return;` rules, as generated state machines are:
 * rule r depends on rule r - 1's false edge, so goal r has r + 1 layers of
 * one edge each.  Layers stop at CDG_MAX_STEPS entries (whole levels); a
 * goal near the top keeps all of its. */
static void test_long_chain(void **state)
{
    (void)state;
    enum { N = 200 };
    fx_block bl[2 * N + 1];
    for (int r = 0; r < N; r++) {
        bl[2 * r] = (fx_block)FX_B(2 * r + 1, 2 * r + 2);
        bl[2 * r + 1] = (fx_block)FX_R;
    }
    bl[2 * N] = (fx_block)FX_R;
    progdb db = {0};
    fx_add_func(&db, "chain", bl, 2 * N + 1);
    cdg_t *g = build(&db);
    /* rule 10's true edge (20): itself, then the false edges of rules 9..0 */
    uint32_t want[11][2];
    for (uint32_t k = 0; k <= 10; k++)
        want[k][0] = k ? 2 * (10 - k) + 1 : 20, want[k][1] = k;
    expect_steps(g, 20, 11, (const uint32_t(*)[2])want);
    assert_int_equal(cdg_goal_levels(g, 20), 11);
    /* rule 150's: cut after level 63 */
    uint32_t n;
    const cdg_step *st = cdg_goal_steps(g, 300, &n);
    assert_int_equal(n, CDG_MAX_STEPS);
    assert_int_equal(st[n - 1].level, CDG_MAX_STEPS - 1);
    assert_int_equal(st[n - 1].edge, 2 * (150 - (CDG_MAX_STEPS - 1)) + 1);
    assert_int_equal(cdg_goal_levels(g, 300), CDG_MAX_STEPS);
    for (uint32_t goal = 0; goal < cdg_n_goals(g); goal++) {
        cdg_goal_steps(g, goal, &n);
        assert_true(n <= CDG_MAX_STEPS);
    }
    cdg_free(g);
    fx_release(&db);
}

static void test_malformed(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_B(1, 7), FX_R};
    fx_add_func(&db, "bad", bl, 2);
    ctg_err e = {{0}};
    assert_null(cdg_build(&db, &e));
    assert_non_null(strstr(e.msg, "out of range"));
    fx_release(&db);
}

/* Allocation failures at every point are reported cleanly. */
static void test_oom(void **state)
{
    (void)state;
    progdb db = {0};
    fx_block bl[] = {FX_J(1), FX_B(2, 5), FX_B(3, 4), FX_J(4), FX_J(1), FX_R};
    fx_add_func(&db, "f", bl, 6);
    fx_add_error(&db, 0, 3);
    for (long k = 0; k < 200; k++) {
        ctg_err e = {{0}};
        mem_fail_after(k);
        cdg_t *g = cdg_build(&db, &e);
        mem_fail_reset();
        if (g) {
            cdg_free(g);
            break;
        }
        assert_true(err_is_set(&e));
    }
    fx_release(&db);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_if_else),        cmocka_unit_test(test_nested_if),
        cmocka_unit_test(test_loop),           cmocka_unit_test(test_switch),
        cmocka_unit_test(test_infinite_loop),  cmocka_unit_test(test_errors_and_functions),
        cmocka_unit_test(test_malformed),      cmocka_unit_test(test_oom),
        cmocka_unit_test(test_long_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
