/*
 * test_grammar.c - the BNF grammar parser (src/search/bounded/grammar.c):
 * structure of parsed grammars, escapes, classes, shortest-expansion lengths,
 * and one-line errors with file:line:col for malformed files.
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
#include "search/bounded/grammar.h"

static grammar *parse(const char *text, ctg_err *e)
{
    err_clear(e);
    return gram_parse(text, strlen(text), "g.bnf", e);
}

static void test_seed_tree_grammar(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    grammar *g = parse("# trees\n<START> ::= <TREE>\n<TREE> ::= <LEAF>\n"
                       "  | \"(\" <TREE> \" \" <TREE> \")\"  # two subtrees\n<LEAF> ::= \"x\"\n",
                       &e);
    assert_non_null(g);
    assert_int_equal(g->n_nts, 3);
    assert_int_equal(g->start, 0);
    int tree = gram_find(g, "TREE"), leaf = gram_find(g, "LEAF");
    assert_int_equal(tree, 1);
    assert_int_equal(leaf, 2);
    assert_int_equal(g->nts[tree].n_alts, 2);
    const gram_alt *a = &g->nts[tree].alts[1];
    assert_int_equal(a->n, 5);
    assert_int_equal(a->syms[0].nt, -1);
    assert_memory_equal(a->syms[0].text, "(", 1);
    assert_int_equal(a->syms[1].nt, tree);
    assert_int_equal(a->syms[3].nt, tree);
    /* shortest expansions: x */
    assert_int_equal(g->nts[0].min_len, 1);
    assert_int_equal(g->nts[tree].min_len, 1);
    assert_int_equal(g->nts[leaf].min_len, 1);
    gram_free(g);
}

static void test_escapes_and_classes(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    grammar *g = parse("<s> ::= \"a\\n\\t\\\"\\x41\\0\" <d> <d>\n<d> ::= [0-2x\\]]\n", &e);
    assert_non_null(g);
    const gram_sym *y = &g->nts[0].alts[0].syms[0];
    assert_int_equal(y->len, 6);
    assert_memory_equal(y->text, "a\n\t\"A\0", 6);
    /* the class is an anonymous nonterminal with one alternative per byte */
    int d = gram_find(g, "d");
    int cls = g->nts[d].alts[0].syms[0].nt;
    assert_true(g->nts[cls].anonymous);
    assert_int_equal(g->nts[cls].n_alts, 5); /* 0 1 2 ] x in byte order */
    assert_int_equal(g->nts[cls].alts[0].syms[0].text[0], '0');
    assert_int_equal(g->nts[cls].alts[3].syms[0].text[0], ']');
    assert_int_equal(g->nts[cls].alts[4].syms[0].text[0], 'x');
    assert_int_equal(g->nts[0].min_len, 8);
    gram_free(g);
}

static void test_empty_string_and_recursion(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    /* lists: min_len of <l> is 0; duplicate definitions add alternatives */
    grammar *g = parse("<l> ::= \"\"\n<l> ::= \"ab\" <l>\n", &e);
    assert_non_null(g);
    assert_int_equal(g->n_nts, 1);
    assert_int_equal(g->nts[0].n_alts, 2);
    assert_int_equal(g->nts[0].min_len, 0);
    gram_free(g);
}

/* Each malformed grammar gives a one-line message with its position. */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"<a> := \"x\"", "g.bnf:1:5: expected '::='"},
        {"<a> \"x\"", "g.bnf:1:5: expected '::=' after the rule's nonterminal"},
        {"<a> ::= \"x\n", "g.bnf:1:11: unterminated string"},
        {"<a> ::= \"x\" <b>\n", "g.bnf:1:13: <b> is used but never defined"},
        {"<a> ::= <a> \"x\"\n", "g.bnf:1:1: <a> never derives a finite string"},
        {"<a> ::= | \"x\"\n", "g.bnf:1:9: expected a \"string\", <nonterminal> or [class]"},
        {"\n  <a> ::= \"\\q\"", "g.bnf:2:13: unknown escape sequence"},
        {"<a> ::= [z-a]", "g.bnf:1:13: reversed range"},
        {"<a> ::= []", "g.bnf:1:10: empty character class"},
        {"<a> ::= 'x'", "g.bnf:1:9: expected <nonterminal>, \"string\""},
        {"<1a> ::= \"x\"", "g.bnf:1:2: expected a nonterminal name"},
        {"\"x\"", "g.bnf:1:1: expected a rule '<name> ::= ...'"},
        {"# nothing\n", "g.bnf: the grammar has no rules"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ctg_err e = {{0}};
        grammar *g = parse(cases[i].text, &e);
        if (g || strncmp(e.msg, cases[i].msg, strlen(cases[i].msg)) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, e.msg, cases[i].msg);
        assert_null(strchr(e.msg, '\n'));
    }
}

static void test_oom(void **state)
{
    (void)state;
    const char *text = "<s> ::= <t> [a-c] | \"x\"\n<t> ::= \"(\" <s> \")\" | \"y\"\n";
    for (long n = 0; n < 60; n++) {
        ctg_err e = {{0}};
        mem_fail_after(n);
        grammar *g = gram_parse(text, strlen(text), "g.bnf", &e);
        mem_fail_reset();
        if (g)
            gram_free(g);
        else
            assert_non_null(strstr(e.msg, "out of memory"));
    }
}

static void test_load_missing_file(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    assert_null(gram_load("/nonexistent/x.bnf", &e));
    assert_non_null(strstr(e.msg, "/nonexistent/x.bnf"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_seed_tree_grammar),  cmocka_unit_test(test_escapes_and_classes),
        cmocka_unit_test(test_empty_string_and_recursion), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_oom),                cmocka_unit_test(test_load_missing_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
