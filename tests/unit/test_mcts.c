/*
 * test_mcts.c - the AlphaFuzz seed tree (seed 000) against hand-computed
 * values: rare branches, tree traces (multiset union), the UCT score with
 * the seed's raw SV (its count of rare branches, not normalised, against
 * c), the tie rule, the parent competing with its children, and
 * backpropagation of visits; the sized policies' normalised SV.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "search/fuzz/mcts.h"

#define EPS 1e-6

/* rare({A, B, B, C}) = {A, C}: the seed's own example (A=0, B=1, C=2). */
static void test_rare_seed_example(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(8, 0.5);
    assert_non_null(t);
    uint32_t a[] = {0}, b[] = {1}, c[] = {2};
    assert_non_null(mcts_add_child(t, mcts_root(t), a, 1, 0));
    assert_non_null(mcts_add_child(t, mcts_root(t), b, 1, 1));
    assert_non_null(mcts_add_child(t, mcts_root(t), b, 1, 2));
    assert_non_null(mcts_add_child(t, mcts_root(t), c, 1, 3));
    uint32_t out[8];
    size_t n = mcts_rare(mcts_root(t), out);
    assert_int_equal(n, 2);
    assert_int_equal(out[0], 0);
    assert_int_equal(out[1], 2);
    assert_int_equal(mcts_tree_count(mcts_root(t), 1), 2);
    mcts_free(t);
}

/* Tree traces are multiset unions up to the root; node traces are sets;
 * ids beyond the edge count and duplicates are ignored. */
static void test_traces(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(10, 0.5);
    uint32_t ta[] = {2, 0, 1, 1, 99}, tc[] = {1, 4};
    mcts_node *a = mcts_add_child(t, mcts_root(t), ta, 5, 7);
    mcts_node *c = mcts_add_child(t, a, tc, 2, 8);
    size_t n;
    const uint32_t *nt = mcts_node_trace(a, &n);
    assert_int_equal(n, 3);
    assert_int_equal(nt[0], 0);
    assert_int_equal(nt[2], 2);
    assert_int_equal(mcts_tree_count(a, 1), 2); /* its own and C's */
    assert_int_equal(mcts_tree_count(a, 4), 1);
    assert_int_equal(mcts_tree_count(c, 1), 1);
    assert_int_equal(mcts_tree_count(c, 0), 0);
    assert_int_equal(mcts_tree_count(mcts_root(t), 1), 2);
    assert_int_equal(mcts_tree_size(mcts_root(t)), 4);
    assert_int_equal(mcts_payload(c), 8);
    assert_ptr_equal(mcts_parent(c), a);
    assert_int_equal(mcts_depth(c), 2);
    assert_int_equal(mcts_max_depth(t), 2);
    assert_int_equal(mcts_n_nodes(t), 3);
    mcts_free(t);
}

/* Two seeds A {0,1,2} and B {0,3}; c = 0.5; the seed's policy (raw SV).
 *   root tree {0:2, 1:1, 2:1, 3:1}, rare = {1,2,3}; SV_A = 2, SV_B = 1.
 *   1st selection: both unvisited (+inf), tie -> the first: A.
 *   2nd: A = 2/1 + 0.5 sqrt(ln 1 / 1) = 2; B = +inf -> B.
 *   3rd: root N = 2: A = 2 + 0.5 sqrt(ln 2) = 2.416277,
 *        B = 1 + 0.5 sqrt(ln 2) = 1.416277 -> A. */
static void test_score_and_ties(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(10, 0.5);
    uint32_t ta[] = {0, 1, 2}, tb[] = {0, 3};
    mcts_node *a = mcts_add_child(t, mcts_root(t), ta, 3, 0);
    mcts_node *b = mcts_add_child(t, mcts_root(t), tb, 2, 1);
    assert_true(isinf(mcts_score(t, a)) && mcts_score(t, a) > 0);
    assert_true(isinf(mcts_score(t, mcts_root(t))) && mcts_score(t, mcts_root(t)) < 0);
    assert_ptr_equal(mcts_select(t), a);
    mcts_visit(t, a);
    assert_float_equal(mcts_score(t, a), 2.0, EPS);
    assert_ptr_equal(mcts_select(t), b);
    mcts_visit(t, b);
    assert_int_equal(mcts_visits(mcts_root(t)), 2);
    assert_float_equal(mcts_score(t, a), 2.0 + 0.5 * sqrt(log(2.0)), EPS);
    assert_float_equal(mcts_score(t, b), 1.0 + 0.5 * sqrt(log(2.0)), EPS);
    assert_ptr_equal(mcts_select(t), a);
    mcts_free(t);
}

/* The same two seeds under the sized policy: SV normalised among the
 * siblings (A 1, B 0), each child a subtree of size 1, the root's visits
 * per node 2/3, so the exploration term is c sqrt(ln 1.0001). */
static void test_sized_normalises(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(10, 0.5);
    mcts_set_policy(t, MCTS_SIZED);
    uint32_t ta[] = {0, 1, 2}, tb[] = {0, 3};
    mcts_node *a = mcts_add_child(t, mcts_root(t), ta, 3, 0);
    mcts_node *b = mcts_add_child(t, mcts_root(t), tb, 2, 1);
    mcts_visit(t, a);
    mcts_visit(t, b);
    double explore = 0.5 * sqrt(log(1.0001));
    assert_float_equal(mcts_score(t, a), 1.0 + explore, EPS);
    assert_float_equal(mcts_score(t, b), explore, EPS);
    mcts_free(t);
}

/* Equal SV among siblings (max = min): every sibling gets 1 when the
 * value is positive, 0 when it is 0; equal scores go to the first. */
static void test_equal_sv_guard(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(10, 0.5);
    uint32_t ta[] = {0, 1}, tb[] = {0, 2}, tc[] = {5};
    mcts_node *a = mcts_add_child(t, mcts_root(t), ta, 2, 0);
    mcts_node *b = mcts_add_child(t, mcts_root(t), tb, 2, 1);
    /* root tree {0:2, 1:1, 2:1}: rare {1,2}; SV_A = SV_B = 1 -> both 1 */
    mcts_visit(t, a);
    mcts_visit(t, b);
    assert_float_equal(mcts_score(t, a), 1.0 + 0.5 * sqrt(log(2.0)), EPS);
    assert_float_equal(mcts_score(t, b), mcts_score(t, a), EPS);
    assert_ptr_equal(mcts_select(t), a); /* tie: the first */
    /* a single child: max = min, positive -> 1 */
    mcts_node *c = mcts_add_child(t, a, tc, 1, 2);
    mcts_visit(t, c);
    /* A's tree {0:1, 1:1, 5:1}: all rare; SV_C = 1 -> 1 (single sibling) */
    assert_float_equal(mcts_score(t, c), 1.0 + 0.5 * sqrt(log(2.0)), EPS);
    mcts_free(t);
}

/* One seed A {0,1}; its child C {0} has no rare branch of A's tree.
 *   After A is visited twice and C once: root N = 3, A n = 3, C n = 1.
 *   root tree {0:2, 1:1}: rare {1}, SV_A = 1 -> 1:
 *     A = 1/3 + 0.5 sqrt(ln 3 / 3) = 0.635907
 *   A's tree {0:2, 1:1}: rare {1}, SV_C = 0 -> 0:
 *     C = 0 + 0.5 sqrt(ln 3 / 1) = 0.524074
 *   Selection walks to the leaf C but returns A: the parent competes. */
static void test_parent_competes(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(4, 0.5);
    uint32_t ta[] = {0, 1}, tc[] = {0};
    mcts_node *a = mcts_add_child(t, mcts_root(t), ta, 2, 0);
    assert_ptr_equal(mcts_select(t), a);
    mcts_visit(t, a);
    mcts_node *c = mcts_add_child(t, a, tc, 1, 1);
    mcts_visit(t, a);
    assert_ptr_equal(mcts_select(t), c); /* unvisited: +inf */
    mcts_visit(t, c);
    assert_int_equal(mcts_visits(mcts_root(t)), 3);
    assert_int_equal(mcts_visits(a), 3);
    assert_int_equal(mcts_visits(c), 1);
    assert_float_equal(mcts_score(t, a), 1.0 / 3 + 0.5 * sqrt(log(3.0) / 3), EPS);
    assert_float_equal(mcts_score(t, c), 0.5 * sqrt(log(3.0)), EPS);
    assert_ptr_equal(mcts_select(t), a);
    mcts_free(t);
}

/* Backpropagation: N grows by one for the node and every ancestor only. */
static void test_backprop(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(4, 1.0);
    uint32_t e[] = {0};
    mcts_node *a = mcts_add_child(t, mcts_root(t), e, 1, 0);
    mcts_node *b = mcts_add_child(t, mcts_root(t), e, 1, 1);
    mcts_node *c = mcts_add_child(t, a, e, 1, 2);
    mcts_node *d = mcts_add_child(t, c, e, 1, 3);
    mcts_visit(t, d);
    mcts_visit(t, c);
    assert_int_equal(mcts_visits(d), 1);
    assert_int_equal(mcts_visits(c), 2);
    assert_int_equal(mcts_visits(a), 2);
    assert_int_equal(mcts_visits(b), 0);
    assert_int_equal(mcts_visits(mcts_root(t)), 2);
    assert_int_equal(mcts_tree_count(a, 0), 3); /* a, c, d */
    assert_int_equal(mcts_tree_count(mcts_root(t), 0), 4);
    mcts_free(t);
}

/* The tree of the policy tests: root kids A (trace ta) and B, A's leaves
 * A1 and A2 (B, A1, A2: trace {0}), visited A1, A2, B, A, B; n[] gets A,
 * B, A1. */
static mcts_tree *ab_tree(mcts_policy pol, uint32_t ta, mcts_node *n[3])
{
    uint32_t e0[] = {0}, ea[] = {ta};
    mcts_tree *t = mcts_new(4, 0.5);
    mcts_set_policy(t, pol);
    mcts_node *a = mcts_add_child(t, mcts_root(t), ea, 1, 0);
    mcts_node *b = mcts_add_child(t, mcts_root(t), e0, 1, 1);
    mcts_node *a1 = mcts_add_child(t, a, e0, 1, 2);
    mcts_node *a2 = mcts_add_child(t, a, e0, 1, 3);
    mcts_visit(t, a1);
    mcts_visit(t, a2);
    mcts_visit(t, b);
    mcts_visit(t, a);
    mcts_visit(t, b);
    n[0] = a;
    n[1] = b;
    n[2] = a1;
    return t;
}

/* The sized policy: visits count per node of a subtree, and selection
 * returns the leaf the walk ends at.  Root kids A (with leaves A1, A2) and
 * B, every trace {0} (so every SV is 1); visits A1, A2, B, A, B:
 *   seed:  A = 1/3 + 0.5 sqrt(ln 5 / 3) = 0.707, B = 1/2 + 0.5 sqrt(ln 5 / 2)
 *          = 0.950: B (a leaf's few visits beat a subtree's many);
 *   sized: A = 1/(3/3) + 0.5 sqrt(ln(5/4) / 1) = 1.236, B = 1/(2/1) + ... =
 *          0.667: into A, whose leaves tie, so A1 (not A itself). */
static void test_sized_policy(void **state)
{
    (void)state;
    for (int pol = 0; pol < 2; pol++) {
        mcts_node *n[3];
        mcts_tree *t = ab_tree(pol ? MCTS_SIZED : MCTS_SEED, 0, n);
        if (!pol) {
            assert_float_equal(mcts_score(t, n[0]), 1.0 / 3 + 0.5 * sqrt(log(5.0) / 3), EPS);
            assert_ptr_equal(mcts_select(t), n[1]);
        } else {
            assert_float_equal(mcts_score(t, n[0]), 1.0 + 0.5 * sqrt(log(5.0 / 4)), EPS);
            assert_float_equal(mcts_score(t, n[1]), 0.5 + 0.5 * sqrt(log(5.0 / 4) / 2), EPS);
            assert_ptr_equal(mcts_select(t), n[2]);
        }
        mcts_free(t);
    }
}

/* The stay policy: an inner node competes with its children as a leaf of
 * its own.  Root kids A (trace {1}, with leaves A1, A2 of trace {0}) and B
 * (trace {0}); visits A1, A2, B, A, B.  At the root the rare edge is 1, so
 * the walk goes into A under both policies; in A the rare edge is again 1,
 * which A's own trace has and its leaves lack: stay returns A itself
 * (score 1 + c sqrt(ln 1.0001) against c sqrt(ln 1.0001) for A1), sized
 * returns A1. */
static void test_stay_policy(void **state)
{
    (void)state;
    for (int pol = 0; pol < 2; pol++) {
        mcts_node *n[3];
        mcts_tree *t = ab_tree(pol ? MCTS_STAY : MCTS_SIZED, 1, n);
        assert_ptr_equal(mcts_select(t), pol ? n[0] : n[2]);
        /* after forty more selections of A itself, the visits send the walk elsewhere */
        if (pol) {
            for (int i = 0; i < 40; i++)
                mcts_visit(t, n[0]);
            assert_ptr_not_equal(mcts_select(t), n[0]);
        }
        mcts_free(t);
    }
}

/* The frontier rule.  Branches {0,1}, {2,3}, {4,5}; seeds A {0,4}, B {1,4},
 * C {1,2,4}, each visited once; c = 0.5, the seed's policy.
 *   root tree {0:1, 1:2, 2:1, 4:3}; 3 and 5 are covered by no node.
 *   seed rule: rare = {0, 2} (count 1): SV A 1, B 0, C 1 (raw, the seed's
 *     policy); A and C tie at 1 + 0.5 sqrt(ln 3), the first wins: A.
 *   frontier rule: rare = {2, 4} (their branches have the uncovered 3 and 5):
 *     SV A 1, B 1, C 2: C at 2 + 0.5 sqrt(ln 3).
 * Once a child D of C covers 3 and 5 no branch has an uncovered side and the
 * rule falls back to the seed's: both rules score A alike. */
static void test_frontier_rule(void **state)
{
    (void)state;
    const uint32_t first[] = {0, 0, 2, 2, 4, 4}, n[] = {2, 2, 2, 2, 2, 2};
    for (int rule = 0; rule < 2; rule++) {
        mcts_tree *t = mcts_new(6, 0.5);
        uint32_t ta[] = {0, 4}, tb[] = {1, 4}, tc[] = {1, 2, 4}, td[] = {3, 5};
        mcts_node *a = mcts_add_child(t, mcts_root(t), ta, 2, 0);
        mcts_node *b = mcts_add_child(t, mcts_root(t), tb, 2, 1);
        /* set between two seeds: it takes in what the tree covers already */
        if (rule)
            assert_true(mcts_set_frontier(t, first, n));
        mcts_node *c = mcts_add_child(t, mcts_root(t), tc, 3, 2);
        mcts_visit(t, a);
        mcts_visit(t, b);
        mcts_visit(t, c);
        double base = 0.5 * sqrt(log(3.0));
        assert_float_equal(mcts_score(t, a), 1.0 + base, EPS);
        assert_float_equal(mcts_score(t, b), (rule ? 1.0 : 0.0) + base, EPS);
        assert_float_equal(mcts_score(t, c), (rule ? 2.0 : 1.0) + base, EPS);
        assert_ptr_equal(mcts_select(t), rule ? c : a);
        assert_non_null(mcts_add_child(t, c, td, 2, 3));
        /* rare {0, 2, 3, 5}: SV A 1, B 0, C 3: A 1 (normalised it would be 1/3) */
        assert_float_equal(mcts_score(t, a), 1.0 + base, EPS);
        mcts_free(t);
    }
}

/* An empty tree selects nothing. */
static void test_empty(void **state)
{
    (void)state;
    mcts_tree *t = mcts_new(4, 1.0);
    assert_null(mcts_select(t));
    mcts_free(t);
    mcts_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rare_seed_example),
        cmocka_unit_test(test_traces),
        cmocka_unit_test(test_score_and_ties),
        cmocka_unit_test(test_sized_normalises),
        cmocka_unit_test(test_equal_sv_guard),
        cmocka_unit_test(test_parent_competes),
        cmocka_unit_test(test_backprop),
        cmocka_unit_test(test_sized_policy),
        cmocka_unit_test(test_stay_policy),
        cmocka_unit_test(test_frontier_rule),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
