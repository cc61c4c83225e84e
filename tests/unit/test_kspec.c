/*
 * test_kspec.c - Korat finitisation files (src/search/bounded/kspec.c) and the
 * harness generated from them (kharness.c): parsed structure, --function
 * defaults, one-line errors naming the line, and a harness whose test main
 * has no branch.
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
#include "search/bounded/kspec.h"
#include "search/bounded/kharness.h"

static const char bst[] = "# bst\n"
                          "struct node 3   # objects\n"
                          "field node.left -> node\n"
                          "field node.right -> node\n"
                          "field node.key = 1..3, 7\n"
                          "type List 1\n"
                          "field List.head -> node\n"
                          "repok repOk(node *root, List *l)\n"
                          "function f(root, int key, l, char c)\n";

static void test_parse(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    kspec *k = kspec_parse(bst, "bst.fin", &e);
    if (!k)
        fail_msg("%s", e.msg);
    const korat_fin *f = k->fin;
    assert_int_equal(f->n_classes, 2);
    assert_string_equal(k->ctype[0], "struct node");
    assert_string_equal(k->ctype[1], "List");
    assert_int_equal(f->classes[0].n_objs, 3);
    assert_int_equal(f->classes[0].n_fields, 3);
    assert_int_equal(f->classes[0].fields[0].kind, KF_PTR);
    assert_int_equal(f->classes[0].fields[0].target, 0);
    const korat_field *key = &f->classes[0].fields[2];
    assert_int_equal(key->kind, KF_VAL);
    assert_int_equal(key->n_vals, 4);
    assert_true(key->vals[0] == 1 && key->vals[2] == 3 && key->vals[3] == 7);
    assert_int_equal(f->n_roots, 2);
    assert_int_equal(f->roots[1].target, 1);
    assert_string_equal(k->repok, "repOk");
    assert_string_equal(k->function, "f");
    assert_int_equal(k->n_fargs, 4);
    assert_int_equal(k->fargs[0].root, 0);
    assert_int_equal(k->fargs[1].root, -1);
    assert_int_equal(k->fargs[1].type, CTG_T_INT);
    assert_int_equal(k->fargs[2].root, 1);
    assert_int_equal(k->fargs[3].type, CTG_T_CHAR);
    assert_true(kspec_default_function(k, "g")); /* a function line wins */
    assert_string_equal(k->function, "f");
    kspec_free(k);
}

static void test_default_function(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    kspec *k = kspec_parse("struct n 2\nfield n.next -> n\nrepok ok(n *a, n *b)\n", "x.fin", &e);
    assert_non_null(k);
    assert_null(k->function);
    assert_true(kspec_default_function(k, "g"));
    assert_string_equal(k->function, "g");
    assert_int_equal(k->n_fargs, 2);
    assert_int_equal(k->fargs[1].root, 1);
    assert_string_equal(k->fargs[1].name, "b");
    kspec_free(k);
}

static void test_errors(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"struct node\n", "x.fin:1: expected the number of objects"},
        {"struct node 3\nfield node.left => node\n", "x.fin:2: expected '-> STRUCT'"},
        {"field node.left -> node\n", "x.fin:1: unknown struct 'node'"},
        {"struct node 3\nstruct node 2\n", "x.fin:2: struct node is declared twice"},
        {"struct n 1\nfield n.k = 1\nfield n.k = 2\n", "x.fin:3: field n.k is declared twice"},
        {"struct n 1\nfield n.k = 3..1\n", "x.fin:2: a range is lo..hi"},
        {"struct n 1\nrepok ok(n *a\n", "x.fin:2: expected ',' or ')'"},
        {"struct n 1\nrepok ok(n *a)\nfunction f(b)\n", "x.fin:3: 'b' is neither an argument"},
        {"struct n 1\nfunction f()\n", "x.fin:2: 'function' must come after 'repok'"},
        {"struct n 1\nfield n.next -> n\n", "x.fin: no 'repok NAME(STRUCT *arg)' line"},
        {"strukt n 1\n", "x.fin:1: unknown declaration 'strukt'"},
        {"struct n 1 2\n", "x.fin:1: expected the end of the line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ctg_err e = {{0}};
        kspec *k = kspec_parse(cases[i][0], "x.fin", &e);
        if (k || strncmp(e.msg, cases[i][1], strlen(cases[i][1])) != 0)
            fail_msg("case %zu: got '%s', want '%s...'", i, e.msg, cases[i][1]);
        assert_null(strchr(e.msg, '\n'));
    }
}

static void test_oom(void **state)
{
    (void)state;
    for (long n = 0; n < 80; n++) {
        ctg_err e = {{0}};
        mem_fail_after(n);
        kspec *k = kspec_parse(bst, "bst.fin", &e);
        mem_fail_reset();
        if (!k)
            assert_non_null(strstr(e.msg, "out of memory"));
        kspec_free(k);
    }
}

/* The generated test main (between "int main" and the helper) has no
 * conditional, so the harness adds no branch to the program. */
static void test_harness_is_branch_free(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    kspec *k = kspec_parse(bst, "bst.fin", &e);
    assert_non_null(k);
    sbuf h = SBUF_INIT, g = SBUF_INIT;
    kharness_korat(&h, k, "/tmp/prog \"q\".c", 1000);
    kharness_glue(&g, k);
    const char *s = sbuf_str(&h);
    assert_non_null(strstr(s, "#include \"/tmp/prog \\\"q\\\".c\""));
    const char *start = strstr(s, "static void ctg_k_build"), *end = strstr(s, "#ifdef CTG_KORAT_HELPER");
    assert_true(start && end && start < end);
    for (const char *p = start; p < end; p++)
        assert_false(!strncmp(p, "if (", 4) || !strncmp(p, "for (", 5) || !strncmp(p, "while (", 7) ||
                     *p == '?' || !strncmp(p, "&&", 2) || !strncmp(p, "||", 2));
    /* 1 + 3*3 + 1 slots read, repOk assumed, scalar arguments read in order */
    size_t reads = 0;
    for (const char *p = s; (p = strstr(p, "= __ctg_korat_slot();")); p++)
        reads++;
    assert_int_equal(reads, 2 + 3 * 3 + 1);
    assert_non_null(strstr(s, "__ctg_korat_assume(repOk(ctg_k_r0, ctg_k_r1) != 0);"));
    assert_non_null(strstr(s, "f(ctg_k_r0, ctg_a1, ctg_k_r1, ctg_a3);"));
    assert_non_null(strstr(sbuf_str(&g), "__VERIFIER_nondet_uchar"));
    assert_non_null(strstr(sbuf_str(&g), "char __ctg_korat_nondet_char(void)"));
    assert_false(kharness_wide(k));
    sbuf_release(&h);
    sbuf_release(&g);
    kspec_free(k);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),  cmocka_unit_test(test_default_function),
        cmocka_unit_test(test_errors), cmocka_unit_test(test_oom),
        cmocka_unit_test(test_harness_is_branch_free),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
