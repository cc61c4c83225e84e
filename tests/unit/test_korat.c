/*
 * test_korat.c - Korat's search (src/search/bounded/korat.c) with repOk
 * predicates written in C against the accessor API.
 *
 * For binary trees, binary search trees over {1,2,3}, doubly linked lists
 * and sorted lists with at most 3 nodes, the valid structures Korat yields
 * must (a) have the known counts per size (Catalan numbers 1,1,2,5 for trees),
 * (b) be pairwise non-isomorphic (their canonical forms differ), and (c) be
 * every valid structure up to isomorphism: a brute force over the whole
 * candidate space finds the same set of canonical forms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/mem.h"
#include "search/bounded/korat.h"

typedef struct collect {
    korat_repok ok;
    int size_class; /* class whose reachable objects count as the size */
    char **forms; /* canonical forms (malloc) */
    size_t n, cap;
    size_t per_size[8];
} collect;

/* ==== canonical form: objects numbered in order of discovery ================== */

/* Appends the canonical form of the current candidate of k to out: roots,
 * then every object reachable from them, breadth first, fields in order,
 * pointers written as discovery numbers.  Returns the number of reachable
 * objects of class `cls`. */
static size_t canonical(const korat *k, const korat_fin *f, int cls, char *out, size_t cap)
{
    const uint32_t *vec = korat_vector(k);
    int qc[64], qo[64], n = 0; /* discovered objects: class, index */
    size_t len = 0, count = 0;
    size_t n_slots = korat_n_slots(k);
    /* discovery number of (class c, object o): index in q, or -1 */
#define FIND(c, o, r)                                                                             \
    do {                                                                                          \
        r = -1;                                                                                   \
        for (int i_ = 0; i_ < n; i_++)                                                            \
            if (qc[i_] == (c) && qo[i_] == (o))                                                   \
                r = i_;                                                                           \
        if (r < 0) {                                                                              \
            qc[n] = (c), qo[n] = (o), r = n++;                                                    \
        }                                                                                         \
    } while (0)
    for (size_t r = 0; r < f->n_roots; r++) {
        const korat_field *fl = &f->roots[r];
        size_t s = korat_slot_index(k, KORAT_ROOT, 0, (int)r);
        int id = -1;
        if (fl->kind == KF_PTR && vec[s])
            FIND(fl->target, (int)vec[s] - 1, id);
        if (fl->kind == KF_PTR)
            len += (size_t)snprintf(out + len, cap - len, "r%d ", id);
        else
            len += (size_t)snprintf(out + len, cap - len, "v%lld ", (long long)fl->vals[vec[s]]);
    }
    for (int q = 0; q < n; q++) {
        const korat_class *c = &f->classes[qc[q]];
        count += qc[q] == cls;
        len += (size_t)snprintf(out + len, cap - len, "| %s:", c->name);
        for (size_t fi = 0; fi < c->n_fields; fi++) {
            const korat_field *fl = &c->fields[fi];
            size_t s = korat_slot_index(k, qc[q], qo[q], (int)fi);
            assert_true(s < n_slots);
            int id = -1;
            if (fl->kind == KF_PTR && vec[s])
                FIND(fl->target, (int)vec[s] - 1, id);
            if (fl->kind == KF_PTR)
                len += (size_t)snprintf(out + len, cap - len, " %d", id);
            else
                len += (size_t)snprintf(out + len, cap - len, " =%lld", (long long)fl->vals[vec[s]]);
        }
    }
#undef FIND
    assert_true(len < cap);
    return count;
}

static const korat_fin *g_fin; /* finitisation of the running test */

static void collect_one(const korat *k, void *user)
{
    collect *c = user;
    char buf[1024];
    size_t size = canonical(k, g_fin, c->size_class, buf, sizeof buf);
    assert_true(size < 8);
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 256;
        c->forms = realloc(c->forms, c->cap * sizeof *c->forms);
    }
    c->forms[c->n++] = strdup(buf);
    c->per_size[size]++;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_release(collect *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->forms[i]);
    free(c->forms);
    c->n = c->cap = 0;
}

/* Every candidate of the whole space (mixed radix), valid ones collected and
 * deduplicated by canonical form. */
static void brute_force(korat *k, const korat_fin *f, collect *c)
{
    size_t n = korat_n_slots(k);
    uint32_t *vec = calloc(n, sizeof *vec);
    for (;;) {
        korat_set_vector(k, vec);
        if (korat_check(k, c->ok, NULL, NULL, NULL) == 1)
            collect_one(k, c);
        size_t i = 0;
        for (; i < n; i++) {
            const korat_field *fl = korat_field_of(k, i);
            uint32_t dom = fl->kind == KF_PTR ? (uint32_t)f->classes[fl->target].n_objs + 1
                                              : (uint32_t)fl->n_vals;
            if (++vec[i] < dom)
                break;
            vec[i] = 0;
        }
        if (i == n)
            break;
    }
    free(vec);
    qsort(c->forms, c->n, sizeof *c->forms, cmp_str);
    size_t w = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (w && strcmp(c->forms[w - 1], c->forms[i]) == 0)
            free(c->forms[i]);
        else
            c->forms[w++] = c->forms[i];
    }
    c->n = w;
    memset(c->per_size, 0, sizeof c->per_size);
}

/* Runs Korat, checks the counts per size, non-isomorphism and equality with
 * the brute force. */
static void check_structures(const korat_fin *f, korat_repok ok, int size_class,
                             const size_t *want, size_t n_want)
{
    ctg_err e = {{0}};
    korat *k = korat_new(f, &e);
    if (!k)
        fail_msg("%s", e.msg);
    g_fin = f;
    collect kc = {.ok = ok, .size_class = size_class};
    long found = korat_run(k, ok, collect_one, &kc, 0);
    assert_int_equal(found, (long)kc.n);
    size_t total = 0;
    for (size_t i = 0; i < n_want; i++) {
        if (kc.per_size[i] != want[i])
            fail_msg("size %zu: %zu structures, want %zu", i, kc.per_size[i], want[i]);
        total += want[i];
    }
    assert_int_equal(kc.n, total);
    /* no two isomorphic */
    qsort(kc.forms, kc.n, sizeof *kc.forms, cmp_str);
    for (size_t i = 1; i < kc.n; i++)
        if (strcmp(kc.forms[i - 1], kc.forms[i]) == 0)
            fail_msg("isomorphic structures yielded twice: %s", kc.forms[i]);
    /* every valid structure up to isomorphism */
    collect bf = {.ok = ok, .size_class = size_class};
    brute_force(k, f, &bf);
    assert_int_equal(bf.n, kc.n);
    for (size_t i = 0; i < kc.n; i++)
        assert_string_equal(bf.forms[i], kc.forms[i]);
    /* Korat tests far fewer candidates than the space holds */
    assert_true(korat_get_stats(k)->candidates < 2000);
    assert_int_equal(korat_get_stats(k)->valid, kc.n);
    collect_release(&kc);
    collect_release(&bf);
    korat_free(k);
}

/* ==== binary trees (the seed's BinTree.repOK) ===================================== */

enum { LEFT, RIGHT, KEY };

/* Breadth-first walk from the root; false when a node is reached twice.
 * Stores the reachable nodes in nodes[] when not NULL. */
static bool is_tree(korat_view *v, korat_ref root, korat_ref *nodes, int *n_nodes)
{
    bool visited[64] = {false};
    korat_ref queue[64];
    int head = 0, tail = 0;
    if (root)
        queue[tail++] = root;
    while (head < tail) {
        korat_ref cur = queue[head++];
        if (visited[cur])
            return false;
        visited[cur] = true;
        korat_ref l = korat_view_ptr(v, cur, LEFT), r = korat_view_ptr(v, cur, RIGHT);
        if (l)
            queue[tail++] = l;
        if (r)
            queue[tail++] = r;
    }
    if (nodes)
        memcpy(nodes, queue, (size_t)tail * sizeof *queue);
    if (n_nodes)
        *n_nodes = tail;
    return true;
}

static bool bintree_ok(korat_view *v, void *user)
{
    (void)user;
    return is_tree(v, korat_view_root_ptr(v, 0), NULL, NULL);
}

static void test_binary_trees(void **state)
{
    (void)state;
    korat_fin *f = korat_fin_new();
    int node = korat_fin_add_class(f, "node", 3);
    assert_true(korat_fin_add_ptr(f, node, "left", node) && korat_fin_add_ptr(f, node, "right", node));
    assert_true(korat_fin_add_ptr(f, KORAT_ROOT, "root", node));
    static const size_t catalan[] = {1, 1, 2, 5};
    check_structures(f, bintree_ok, node, catalan, 4);
    korat_fin_free(f);
}

/* The seed's walk-through: the first candidate read root only; the root
 * becomes N0, whose left and right are read next. */
static void test_field_ordering_walkthrough(void **state)
{
    (void)state;
    korat_fin *f = korat_fin_new();
    int node = korat_fin_add_class(f, "node", 3);
    korat_fin_add_ptr(f, node, "left", node);
    korat_fin_add_ptr(f, node, "right", node);
    korat_fin_add_ptr(f, KORAT_ROOT, "root", node);
    ctg_err e = {{0}};
    korat *k = korat_new(f, &e);
    size_t order[16], n;
    assert_int_equal(korat_check(k, bintree_ok, NULL, order, &n), 1);
    assert_int_equal(n, 1);
    assert_int_equal(order[0], 0); /* T0.root */
    assert_true(korat_advance(k, order, n, true));
    assert_int_equal(korat_vector(k)[0], 1); /* root = N0 */
    assert_int_equal(korat_check(k, bintree_ok, NULL, order, &n), 1);
    assert_int_equal(n, 3); /* root, N0.left, N0.right */
    assert_int_equal(order[1], korat_slot_index(k, node, 0, LEFT));
    assert_int_equal(order[2], korat_slot_index(k, node, 0, RIGHT));
    /* inc N0.right: NULL -> N0 (symmetry breaking allows N0, N1; not N2) */
    assert_true(korat_advance(k, order, n, true));
    assert_int_equal(korat_vector(k)[korat_slot_index(k, node, 0, RIGHT)], 1);
    assert_int_equal(korat_check(k, bintree_ok, NULL, order, &n), 0); /* cycle */
    assert_true(korat_advance(k, order, n, false));
    assert_int_equal(korat_vector(k)[korat_slot_index(k, node, 0, RIGHT)], 2); /* N1 */
    korat_free(k);
    korat_fin_free(f);
}

/* ==== binary search trees over {1,2,3} ============================================== */

static bool in_order(korat_view *v, korat_ref n, int64_t *last)
{
    if (!n)
        return true;
    if (!in_order(v, korat_view_ptr(v, n, LEFT), last))
        return false;
    int64_t key = kv_val(v, n, KEY);
    if (key <= *last)
        return false;
    *last = key;
    return in_order(v, korat_view_ptr(v, n, RIGHT), last);
}

static bool bst_ok(korat_view *v, void *user)
{
    (void)user;
    korat_ref root = korat_view_root_ptr(v, 0);
    int64_t last = 0;
    return is_tree(v, root, NULL, NULL) && in_order(v, root, &last);
}

static void test_binary_search_trees(void **state)
{
    (void)state;
    korat_fin *f = korat_fin_new();
    int node = korat_fin_add_class(f, "node", 3);
    korat_fin_add_ptr(f, node, "left", node);
    korat_fin_add_ptr(f, node, "right", node);
    korat_fin_add_range(f, node, "key", 1, 3);
    korat_fin_add_ptr(f, KORAT_ROOT, "root", node);
    static const size_t want[] = {1, 3, 6, 5}; /* C(3,n) * Catalan(n) */
    check_structures(f, bst_ok, node, want, 4);
    korat_fin_free(f);
}

/* ==== doubly linked lists ============================================================= */

enum { HEAD };
enum { NEXT, PREV, VAL };

static bool dlist_ok(korat_view *v, void *user)
{
    (void)user;
    korat_ref list = korat_view_root_ptr(v, 0);
    if (!list)
        return false;
    korat_ref cur = korat_view_ptr(v, list, HEAD);
    if (!cur)
        return true;
    if (korat_view_ptr(v, cur, PREV))
        return false;
    bool visited[64] = {false};
    for (;;) {
        visited[cur] = true;
        kv_val(v, cur, VAL);
        korat_ref nx = korat_view_ptr(v, cur, NEXT);
        if (!nx)
            return true;
        if (visited[nx] || korat_view_ptr(v, nx, PREV) != cur)
            return false;
        cur = nx;
    }
}

static void test_doubly_linked_lists(void **state)
{
    (void)state;
    korat_fin *f = korat_fin_new();
    int list = korat_fin_add_class(f, "list", 1);
    int node = korat_fin_add_class(f, "node", 3);
    korat_fin_add_ptr(f, list, "head", node);
    korat_fin_add_ptr(f, node, "next", node);
    korat_fin_add_ptr(f, node, "prev", node);
    korat_fin_add_range(f, node, "val", 0, 1);
    korat_fin_add_ptr(f, KORAT_ROOT, "list", list);
    static const size_t want[] = {1, 2, 4, 8}; /* one shape per length, 2^n values */
    check_structures(f, dlist_ok, node, want, 4);
    korat_fin_free(f);
}

/* ==== sorted singly linked lists ======================================================== */

enum { SNEXT, SKEY };

static bool sorted_ok(korat_view *v, void *user)
{
    (void)user;
    bool visited[64] = {false};
    int64_t last = INT64_MIN;
    for (korat_ref cur = korat_view_root_ptr(v, 0); cur; cur = korat_view_ptr(v, cur, SNEXT)) {
        if (visited[cur])
            return false;
        visited[cur] = true;
        int64_t key = kv_val(v, cur, SKEY);
        if (key < last)
            return false;
        last = key;
    }
    return true;
}

static void test_sorted_lists(void **state)
{
    (void)state;
    korat_fin *f = korat_fin_new();
    int node = korat_fin_add_class(f, "node", 3);
    korat_fin_add_ptr(f, node, "next", node);
    int64_t keys[] = {1, 2, 3};
    korat_fin_add_vals(f, node, "key", keys, 3);
    korat_fin_add_ptr(f, KORAT_ROOT, "head", node);
    static const size_t want[] = {1, 3, 6, 10}; /* multisets of n keys */
    check_structures(f, sorted_ok, node, want, 4);
    korat_fin_free(f);
}

/* ==== errors ============================================================================ */

static void test_bad_finitisations(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    korat_fin *f = korat_fin_new();
    assert_null(korat_new(f, &e));
    assert_non_null(strstr(e.msg, "nothing to enumerate"));
    int node = korat_fin_add_class(f, "node", 2);
    korat_fin_add_vals(f, node, "key", NULL, 0);
    err_clear(&e);
    assert_null(korat_new(f, &e));
    assert_non_null(strstr(e.msg, "node.key has an empty domain"));
    korat_fin_free(f);
    f = korat_fin_new();
    korat_fin_add_ptr(f, KORAT_ROOT, "root", 3);
    err_clear(&e);
    assert_null(korat_new(f, &e));
    assert_non_null(strstr(e.msg, "argument.root points to an undeclared struct"));
    korat_fin_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_binary_trees),        cmocka_unit_test(test_field_ordering_walkthrough),
        cmocka_unit_test(test_binary_search_trees), cmocka_unit_test(test_doubly_linked_lists),
        cmocka_unit_test(test_sorted_lists),        cmocka_unit_test(test_bad_finitisations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
