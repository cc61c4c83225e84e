/*
 * test_gprod.c - the grammar producer (src/search/bounded/gprod.c).
 *
 * The seed order must reproduce seed 002's listings of the binary-tree
 * grammar exactly (the lists below are copied from the seed's slides, with
 * the text-extraction damage repaired: "X" is x, "STREE" is $TREE, and
 * "(x(xx))" is (x (x x))).  The best order must yield complete strings by
 * length without duplicates; the seed's HTML grammar must yield valid
 * documents (libxml2's HTML and XML parsers report no error); a filter must
 * reject strings before they count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libxml/HTMLparser.h>
#include <libxml/parser.h>

#include "base/mem.h"
#include "search/bounded/gprod.h"

/* Seed 002, "python GrammarProducer.py", the first productions. */
static const char *const seed_first[] = {
    "$START", "$TREE", "$LEAF", "x", "($TREE $TREE)", "($LEAF $TREE)", "(x $TREE)",
    "(x $LEAF)", "(x x)", "($LEAF $LEAF)", "($LEAF x)", "($TREE $LEAF)", "($TREE x)",
    "(($TREE $TREE) x)", "(($LEAF $TREE) x)", "((x $TREE) x)", "((x $LEAF) x)", "((x x) x)",
    "(($LEAF $LEAF) x)",
};

/* Seed 002, the later excerpt of the same listing (consecutive). */
static const char *const seed_later[] = {
    "(x (x ((x $LEAF) x)))",        "(x (x ((x x) x)))",          "(x (x (($LEAF $LEAF) x)))",
    "(x (x (($LEAF x) x)))",        "(x (x (($TREE $LEAF) x)))",  "(x (x (($TREE x) x)))",
    "(x (x (x ($TREE $TREE))))",    "(x (x (x ($LEAF $TREE))))",  "(x (x (x (x $TREE))))",
    "(x (x (x (x $LEAF))))",        "(x (x (x (x x))))",          "(x (x (x ($LEAF $LEAF))))",
    "(x (x (x ($LEAF x))))",        "(x (x (x ($TREE $LEAF))))",  "(x (x (x ($TREE x))))",
    "($LEAF ($LEAF ($TREE $TREE)))", "($LEAF ($LEAF ($LEAF $TREE)))",
    "($LEAF ($LEAF ($LEAF $LEAF)))", "($LEAF (($TREE $TREE) $TREE))",
    "($LEAF (($LEAF $TREE) $TREE))",
};

/* Seed 002, "Unicamente Terminales": the first complete trees. */
static const char *const seed_trees[] = {
    "x",
    "(x x)",
    "((x x) x)",
    "(x (x x))",
    "((x x) (x x))",
    "(((x x) x) x)",
    "((x (x x)) x)",
    "(x ((x x) x))",
    "(x (x (x x)))",
    "((x x) (x (x x)))",
    "(((x x) (x x)) x)",
    "(((x x) x) (x x))",
    "((((x x) x) x) x)",
    "(((x (x x)) x) x)",
    "((x (x x)) (x x))",
    "((x ((x x) x)) x)",
    "((x (x (x x))) x)",
    "((x x) ((x x) x))",
    "(x ((x x) (x x)))",
    "(x (((x x) x) x))",
    "(x ((x (x x)) x))",
    "(x (x ((x x) x)))",
    "(x (x (x (x x))))",
};

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

static grammar *load_example(const char *name)
{
    const char *src = getenv("CTG_SOURCE_DIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/examples/grammars/%s", src ? src : "..", name);
    ctg_err e = {{0}};
    grammar *g = gram_load(path, &e);
    if (!g)
        fail_msg("%s", e.msg);
    return g;
}

static gprod *producer(const grammar *g, gprod_order order, size_t max_len)
{
    gprod_opts o = {order, max_len, 0};
    ctg_err e = {{0}};
    gprod *p = gprod_new(g, &o, &e);
    if (!p)
        fail_msg("%s", e.msg);
    return p;
}

static bool str_is(const uint8_t *s, size_t n, const char *want)
{
    return n == strlen(want) && memcmp(s, want, n) == 0;
}

static void test_seed_order_forms(void **state)
{
    (void)state;
    grammar *g = load_example("bintree.bnf");
    gprod *p = producer(g, GPROD_SEED, 0);
    const uint8_t *s;
    size_t n, i = 0, later = 0;
    bool complete, in_later = false;
    while (later < N_OF(seed_later) && i < 5000 && gprod_next_form(p, &s, &n, &complete)) {
        if (i < N_OF(seed_first) && !str_is(s, n, seed_first[i]))
            fail_msg("form %zu: got '%.*s', want '%s'", i, (int)n, s, seed_first[i]);
        if (!in_later && str_is(s, n, seed_later[0]))
            in_later = true;
        if (in_later) {
            if (!str_is(s, n, seed_later[later]))
                fail_msg("form %zu: got '%.*s', want '%s'", i, (int)n, s, seed_later[later]);
            later++;
        }
        assert_true(complete == (memchr(s, '$', n) == NULL));
        i++;
    }
    assert_int_equal(later, N_OF(seed_later));
    gprod_free(p);
    gram_free(g);
}

static void test_seed_order_trees(void **state)
{
    (void)state;
    grammar *g = load_example("bintree.bnf");
    gprod *p = producer(g, GPROD_SEED, 0);
    const uint8_t *s;
    size_t n;
    for (size_t i = 0; i < N_OF(seed_trees); i++) {
        assert_true(gprod_next(p, &s, &n));
        if (!str_is(s, n, seed_trees[i]))
            fail_msg("tree %zu: got '%.*s', want '%s'", i, (int)n, s, seed_trees[i]);
    }
    assert_int_equal(gprod_get_stats(p)->strings, N_OF(seed_trees));
    gprod_free(p);
    gram_free(g);
}

/* Best order: complete strings by nondecreasing length, no duplicates, the
 * Catalan number of trees per leaf count, exhaustive below max_len. */
static void test_best_order_trees(void **state)
{
    (void)state;
    grammar *g = load_example("bintree.bnf");
    gprod *p = producer(g, GPROD_BEST, 17); /* trees with up to 5 leaves */
    const uint8_t *s;
    size_t n, last = 0, count[6] = {0}, total = 0;
    char seen[64][24];
    while (gprod_next(p, &s, &n)) {
        assert_true(n >= last);
        last = n;
        assert_true(total < 64 && n < 24);
        memcpy(seen[total], s, n);
        seen[total][n] = 0;
        for (size_t j = 0; j < total; j++)
            assert_string_not_equal(seen[j], seen[total]);
        total++;
        count[(n + 3) / 4]++; /* a tree with k leaves has 4k - 3 characters */
    }
    assert_false(gprod_failed(p));
    assert_int_equal(count[1], 1);
    assert_int_equal(count[2], 1);
    assert_int_equal(count[3], 2);
    assert_int_equal(count[4], 5);
    assert_int_equal(count[5], 14);
    /* the same 23 trees as the seed's listing */
    assert_int_equal(total, N_OF(seed_trees));
    for (size_t i = 0; i < N_OF(seed_trees); i++) {
        bool found = false;
        for (size_t j = 0; j < total; j++)
            found |= strcmp(seen[j], seed_trees[i]) == 0;
        assert_true(found);
    }
    gprod_free(p);
    gram_free(g);
}

static int xml_errors;

static void count_error(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
    xml_errors++;
}

/* True when libxml2's HTML parser and its XML parser both accept doc. */
static bool valid_html(const uint8_t *doc, size_t n)
{
    xml_errors = 0;
    xmlSetGenericErrorFunc(NULL, count_error);
    htmlDocPtr h = htmlReadMemory((const char *)doc, (int)n, "gen.html", NULL, HTML_PARSE_NONET);
    xmlDocPtr x = xmlReadMemory((const char *)doc, (int)n, "gen.xml", NULL, XML_PARSE_NONET);
    bool ok = h && x && xml_errors == 0;
    if (ok) {
        xmlNodePtr root = xmlDocGetRootElement(x);
        ok = root && strcmp((const char *)root->name, "HTML") == 0 && x->intSubset &&
             strcmp((const char *)x->intSubset->ExternalID, "-//W3C//DTD HTML 4.01//EN") == 0;
    }
    xmlFreeDoc(h);
    xmlFreeDoc(x);
    xmlSetGenericErrorFunc(NULL, NULL);
    return ok;
}

static void html_check(gprod_order order, size_t n_docs)
{
    grammar *g = load_example("html.bnf");
    gprod *p = producer(g, order, 0);
    const uint8_t *s;
    size_t n, last = 0;
    for (size_t i = 0; i < n_docs; i++) {
        assert_true(gprod_next(p, &s, &n));
        assert_true(gprod_get_stats(p)->forms < 20 * n_docs);
        if (!valid_html(s, n))
            fail_msg("document %zu is not valid:\n%.*s", i, (int)n, s);
        if (order == GPROD_BEST)
            assert_true(n >= last);
        last = n;
    }
    gprod_free(p);
    gram_free(g);
}

static void test_html_documents_are_valid(void **state)
{
    (void)state;
    assert_false(valid_html((const uint8_t *)"<HTML><BODY></HTML>", 19)); /* the check can fail */
    /* Only the best priority: with the seed's plain len(term) priority every
     * form shorter than the doctype's expansion comes first, so no complete
     * document appears within gigabytes (why the seed asks for a better one). */
    html_check(GPROD_BEST, 300);
}

/* Filtered grammar-based testing (seed 002): labelled trees filtered to
 * binary search trees over {1,2,3}: C(3,n) * Catalan(n) per size. */
static bool in_order_increasing(void *user, const uint8_t *s, size_t n)
{
    (void)user;
    int last = 0;
    for (size_t i = 0; i < n; i++)
        if (s[i] >= '1' && s[i] <= '3') {
            if (s[i] - '0' <= last)
                return false;
            last = s[i] - '0';
        }
    return true;
}

static void test_filter(void **state)
{
    (void)state;
    const char *text = "<T> ::= \".\" | \"(\" <T> <K> <T> \")\"\n<K> ::= [1-3]\n";
    ctg_err e = {{0}};
    grammar *g = gram_parse(text, strlen(text), "bst.bnf", &e);
    assert_non_null(g);
    gprod *p = producer(g, GPROD_BEST, 13); /* n nodes: 4n + 1 characters */
    gprod_set_filter(p, in_order_increasing, NULL);
    const uint8_t *s;
    size_t n, per_size[4] = {0};
    while (gprod_next(p, &s, &n)) {
        assert_true(in_order_increasing(NULL, s, n));
        per_size[(n - 1) / 4]++;
    }
    assert_int_equal(per_size[0], 1);
    assert_int_equal(per_size[1], 3);
    assert_int_equal(per_size[2], 6);
    assert_int_equal(per_size[3], 5);
    const gprod_stats *st = gprod_get_stats(p);
    assert_int_equal(st->strings, 15);
    assert_int_equal(st->rejected, 1 + 3 + 18 + 135 - 15);
    gprod_free(p);
    gram_free(g);
}

static void test_seed_order_restrictions(void **state)
{
    (void)state;
    const char *bad[] = {"<a_b> ::= \"x\"\n", "<a> ::= \"$x\"\n", "<a> ::= [ab]\n"};
    for (size_t i = 0; i < N_OF(bad); i++) {
        ctg_err e = {{0}};
        grammar *g = gram_parse(bad[i], strlen(bad[i]), "g.bnf", &e);
        assert_non_null(g);
        gprod_opts o = {GPROD_SEED, 0, 0};
        assert_null(gprod_new(g, &o, &e));
        assert_non_null(strstr(e.msg, "best order"));
        gram_free(g);
    }
}

/* Bytes 0xFF and NUL survive the best order's encoding; max_forms truncates. */
static void test_binary_terminals_and_cap(void **state)
{
    (void)state;
    const char *text = "<s> ::= \"\\xff\" <s> | \"\\0\"\n";
    ctg_err e = {{0}};
    grammar *g = gram_parse(text, strlen(text), "b.bnf", &e);
    assert_non_null(g);
    gprod_opts o = {GPROD_BEST, 0, 5};
    gprod *p = gprod_new(g, &o, &e);
    const uint8_t *s;
    size_t n;
    assert_true(gprod_next(p, &s, &n));
    assert_int_equal(n, 1);
    assert_int_equal(s[0], 0);
    assert_true(gprod_next(p, &s, &n));
    assert_int_equal(n, 2);
    assert_memory_equal(s, "\xff\0", 2);
    while (gprod_next(p, &s, &n))
        ;
    assert_true(gprod_get_stats(p)->truncated);
    assert_false(gprod_failed(p));
    gprod_free(p);
    gram_free(g);
}

static void test_oom(void **state)
{
    (void)state;
    grammar *g = load_example("bintree.bnf");
    for (long k = 0; k < 400; k += 7) {
        for (int order = 0; order < 2; order++) {
            ctg_err e = {{0}};
            gprod_opts o = {(gprod_order)order, 0, 0};
            mem_fail_after(k);
            gprod *p = gprod_new(g, &o, &e);
            const uint8_t *s;
            size_t n;
            while (p && gprod_next(p, &s, &n) && gprod_get_stats(p)->strings < 30)
                ;
            mem_fail_reset();
            if (!p)
                assert_non_null(strstr(e.msg, "out of memory"));
            gprod_free(p);
        }
    }
    gram_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_order_forms),
        cmocka_unit_test(test_seed_order_trees),
        cmocka_unit_test(test_best_order_trees),
        cmocka_unit_test(test_html_documents_are_valid),
        cmocka_unit_test(test_filter),
        cmocka_unit_test(test_seed_order_restrictions),
        cmocka_unit_test(test_binary_terminals_and_cap),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
