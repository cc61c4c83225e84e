/*
 * test_scope.c - small-scope enumeration (src/search/bounded/scope.c) against
 * in-process "programs" that read typed values from the prefix (zeros
 * beyond it), like a Test-Comp harness reads __VERIFIER_nondet_*.
 *
 * Checks: domains and their spec parser; the triangle classifier over 0..4
 * runs each of the 125 inputs once, in order of size; programs that stop
 * early are never extended, and the runs are exactly the distinct consumed
 * sequences a brute force over all inputs finds (executions == distinct
 * prefixes); domains without 0; truncation; nondeterministic programs.
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
#include "search/bounded/scope.h"

/* ==== a reader: the program's view of its input ================================= */

typedef struct reader {
    const scope_domains *d;
    const scope_val *prefix;
    size_t k;
    uint16_t *types;
    size_t n, max;
    bool truncated;
    int64_t vals[16]; /* values consumed */
} reader;

static int64_t decode(const scope_domains *d, scope_val v)
{
    uint8_t b[8] = {0};
    scope_dom_encode(d, (enum ctg_type)v.type, v.idx, b);
    size_t sz = scope_type_size((enum ctg_type)v.type, d->arch_bits);
    uint64_t raw = 0;
    for (size_t i = 0; i < sz; i++)
        raw |= (uint64_t)b[i] << (8 * i);
    bool sgn = v.type == CTG_T_INT || v.type == CTG_T_CHAR || v.type == CTG_T_SHORT ||
               v.type == CTG_T_LONG || v.type == CTG_T_LONGLONG;
    if (sgn && sz < 8 && (raw >> (8 * sz - 1)) & 1)
        raw |= ~(((uint64_t)1 << (8 * sz)) - 1);
    return (int64_t)raw;
}

/* __VERIFIER_nondet_T(): the prefix value, then zeros. */
static int64_t get(reader *r, enum ctg_type t)
{
    if (r->n >= r->max) {
        r->truncated = true;
        return 0;
    }
    int64_t v = r->n < r->k ? decode(r->d, r->prefix[r->n]) : 0;
    if (r->n < 16)
        r->vals[r->n] = v;
    r->types[r->n++] = (uint16_t)t;
    return v;
}

typedef int (*program)(reader *r);

typedef struct harness {
    const scope_domains *d;
    program prog;
    /* log of runs: consumed sequences as text, sizes, outcomes */
    char seqs[4096][64];
    size_t n_runs;
    int outcomes[16];
} harness;

static void seq_text(const reader *r, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < r->n && i < 16; i++)
        len += (size_t)snprintf(out + len, cap - len, "%lld,", (long long)r->vals[i]);
}

static size_t run_cb(void *user, const scope_val *prefix, size_t k, uint16_t *types,
                     size_t max_values, bool *truncated)
{
    harness *h = user;
    reader r = {.d = h->d, .prefix = prefix, .k = k, .types = types, .max = max_values};
    int out = h->prog(&r);
    assert_true(h->n_runs < 4096);
    seq_text(&r, h->seqs[h->n_runs++], 64);
    h->outcomes[out & 15]++;
    *truncated = r.truncated;
    return r.n;
}

static scope_domains doms(const char *spec)
{
    scope_domains d;
    assert_true(scope_dom_defaults(&d, 64));
    ctg_err e = {{0}};
    if (spec && !scope_dom_parse(&d, spec, &e))
        fail_msg("%s", e.msg);
    return d;
}

static int cmp_seq(const void *a, const void *b) { return strcmp(a, b); }

/* All runs consumed pairwise different sequences. */
static void assert_distinct(harness *h)
{
    qsort(h->seqs, h->n_runs, sizeof h->seqs[0], cmp_seq);
    for (size_t i = 1; i < h->n_runs; i++)
        if (strcmp(h->seqs[i - 1], h->seqs[i]) == 0)
            fail_msg("prefix run twice: %s", h->seqs[i]);
}

/* ==== domains ===================================================================== */

static void test_domains(void **state)
{
    (void)state;
    scope_domains d = doms(NULL);
    char buf[256];
    scope_dom_describe(&d, CTG_T_INT, buf, sizeof buf);
    assert_string_equal(buf, "0,1,-1,2,-2,3,-3");
    scope_dom_describe(&d, CTG_T_UINT, buf, sizeof buf);
    assert_string_equal(buf, "0,1,2,3,4,5,6");
    scope_dom_describe(&d, CTG_T_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "0,97,48,32,10,43,37");
    scope_dom_describe(&d, CTG_T_DOUBLE, buf, sizeof buf);
    assert_string_equal(buf, "0,1,-1,0.5,2");
    assert_true(d.d[CTG_T_BOOL].n == 2 && d.d[CTG_T_POINTER].n == 1);
    ctg_err e = {{0}};
    assert_true(scope_dom_parse(&d, "0..4", &e)); /* all integer types, not chars */
    scope_dom_describe(&d, CTG_T_LONG, buf, sizeof buf);
    assert_string_equal(buf, "0,1,2,3,4");
    assert_int_equal(d.d[CTG_T_CHAR].n, 7);
    assert_true(scope_dom_parse(&d, "uint=-2..2, 9", &e)); /* negatives do not fit */
    scope_dom_describe(&d, CTG_T_UINT, buf, sizeof buf);
    assert_string_equal(buf, "0,1,2,9");
    assert_true(scope_dom_parse(&d, "char='x', '\\n', 0, 'x'", &e));
    scope_dom_describe(&d, CTG_T_CHAR, buf, sizeof buf);
    assert_string_equal(buf, "0,120,10");
    assert_true(scope_dom_parse(&d, "short=5..7", &e));
    assert_false(d.d[CTG_T_SHORT].zero_first);
    assert_true(scope_dom_parse(&d, "float=0.25,-3", &e));
    scope_dom_describe(&d, CTG_T_FLOAT, buf, sizeof buf);
    assert_string_equal(buf, "0.25,-3");
    static const char *const bad[][2] = {
        {"foo=1", "unknown type 'foo'"},
        {"int=1..", "a range is lo..hi"},
        {"int=x", "expected a number"},
        {"bool=5", "no value fits the type"},
        {"int=1 2", "expected ',' between values"},
        {"int=1.5", "no value fits the type"},
        {"int=0..100000", "range too large"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err_clear(&e);
        assert_false(scope_dom_parse(&d, bad[i][0], &e));
        if (!strstr(e.msg, bad[i][1]))
            fail_msg("%s: got '%s'", bad[i][0], e.msg);
    }
    scope_dom_release(&d);
}

/* ==== triangle over 0..4 ============================================================== */

static int triangle(reader *r)
{
    int64_t a = get(r, CTG_T_INT), b = get(r, CTG_T_INT), c = get(r, CTG_T_INT);
    if (a <= 0 || b <= 0 || c <= 0)
        return 4;
    if (a + b <= c || a + c <= b || b + c <= a)
        return 4;
    if (a == b && b == c)
        return 1;
    if (a == b || b == c || a == c)
        return 2;
    return 3;
}

static void test_triangle(void **state)
{
    (void)state;
    scope_domains d = doms("int=0..4");
    ctg_err e = {{0}};
    scope *s = scope_new(&d, 16, &e);
    static harness h;
    memset(&h, 0, sizeof h);
    h.d = &d;
    h.prog = triangle;
    /* drive by hand to check the order of sizes */
    const scope_val *p;
    size_t k;
    uint16_t types[16];
    uint64_t last_size = 0;
    while (scope_next(s, &p, &k)) {
        uint64_t size = 0;
        for (size_t i = 0; i < k; i++)
            size += p[i].idx; /* ranks of 0..4 are the values */
        assert_true(size >= last_size);
        last_size = size;
        bool tr = false;
        size_t m = run_cb(&h, p, k, types, 16, &tr);
        assert_true(scope_report(s, types, m, tr));
    }
    assert_int_equal(h.n_runs, 125);
    assert_int_equal(scope_get_stats(s)->runs, 125);
    for (int o = 1; o <= 4; o++)
        assert_true(h.outcomes[o] > 0);
    assert_distinct(&h);
    scope_free(s);
    scope_dom_release(&d);
}

/* ==== programs that stop early: compare with a brute force =========================== */

static int early(reader *r)
{
    int64_t a = get(r, CTG_T_INT);
    if (a <= 0)
        return 0;
    int64_t c = get(r, CTG_T_CHAR);
    if (c == 'a')
        return 1;
    if (a == 2) {
        int64_t b = get(r, CTG_T_BOOL);
        return b ? 2 : 3;
    }
    if (get(r, CTG_T_UINT) > 1)
        return 4 + (get(r, CTG_T_INT) < 0);
    return 6;
}

/* Distinct consumed sequences over every input with values from the domains
 * (depth-first over all full inputs of up to 4 values). */
static size_t brute_force(const scope_domains *d, program prog, char (*out)[64])
{
    size_t n = 0;
    uint32_t idx[4] = {0};
    for (;;) {
        /* first pass: find the types this input makes the program read */
        scope_val pv[4];
        uint16_t types[4];
        reader r = {.d = d, .prefix = pv, .k = 0, .types = types, .max = 4};
        for (size_t i = 0; i < 4; i++) {
            /* the type at position i is known once the program reached it */
            r.n = 0;
            r.k = i;
            prog(&r);
            if (r.n <= i)
                break;
            pv[i] = (scope_val){types[i], idx[i] % (uint32_t)d->d[types[i]].n};
        }
        r.n = 0;
        r.k = 4;
        prog(&r);
        char t[64];
        seq_text(&r, t, sizeof t);
        bool dup = false;
        for (size_t i = 0; i < n && !dup; i++)
            dup = strcmp(out[i], t) == 0;
        if (!dup)
            strcpy(out[n++], t);
        /* odometer: index i % n covers every value of a domain of n values
         * when i runs over a multiple of n (28: the sizes here are 2, 4, 7) */
        size_t i = 0;
        for (; i < 4 && ++idx[i] == 28; i++)
            idx[i] = 0;
        if (i == 4)
            break;
    }
    return n;
}

static void test_early_stop_matches_brute_force(void **state)
{
    (void)state;
    scope_domains d = doms("int=-1..2");
    ctg_err e = {{0}};
    scope *s = scope_new(&d, 16, &e);
    static harness h;
    memset(&h, 0, sizeof h);
    h.d = &d;
    h.prog = early;
    long runs = scope_explore(s, run_cb, &h, 0);
    static char bf[4096][64];
    size_t n_bf = brute_force(&d, early, bf);
    assert_int_equal(runs, (long)n_bf);
    assert_int_equal(h.n_runs, n_bf);
    assert_distinct(&h);
    qsort(bf, n_bf, sizeof bf[0], cmp_seq);
    for (size_t i = 0; i < n_bf; i++)
        assert_string_equal(bf[i], h.seqs[i]);
    /* a <= 0 (2 values) ends at once; never extended */
    assert_int_equal(h.outcomes[0], 2);
    scope_free(s);
    scope_dom_release(&d);
}

/* ==== domains without 0 ====================================================================== */

static int two_ints(reader *r)
{
    int64_t a = get(r, CTG_T_INT), b = get(r, CTG_T_INT);
    return a >= 1 && b >= 1 ? 1 : 0; /* 1: both in domain */
}

static void test_domain_without_zero(void **state)
{
    (void)state;
    scope_domains d = doms("int=1..3");
    ctg_err e = {{0}};
    scope *s = scope_new(&d, 16, &e);
    static harness h;
    memset(&h, 0, sizeof h);
    h.d = &d;
    h.prog = two_ints;
    assert_int_equal(scope_explore(s, run_cb, &h, 0), 1 + 3 + 9);
    assert_int_equal(h.outcomes[1], 9); /* every in-domain input once */
    assert_distinct(&h);
    scope_free(s);
    scope_dom_release(&d);
}

/* ==== truncation, budgets, nondeterminism ======================================================= */

static int until_zero(reader *r)
{
    while (get(r, CTG_T_INT) != 0 && !r->truncated)
        ;
    return 0;
}

static void test_truncation(void **state)
{
    (void)state;
    scope_domains d = doms("int=-1..1");
    ctg_err e = {{0}};
    scope *s = scope_new(&d, 4, &e);
    static harness h;
    memset(&h, 0, sizeof h);
    h.d = &d;
    h.prog = until_zero;
    assert_int_equal(scope_explore(s, run_cb, &h, 0), 1 + 2 + 4 + 8 + 16);
    assert_int_equal(scope_get_stats(s)->truncated, 16);
    assert_int_equal(scope_get_stats(s)->max_depth, 4);
    assert_distinct(&h);
    scope_free(s);
    /* a budget stops early and the enumeration stays consistent */
    s = scope_new(&d, 4, &e);
    memset(&h, 0, sizeof h);
    h.d = &d;
    h.prog = until_zero;
    assert_int_equal(scope_explore(s, run_cb, &h, 10), 10);
    assert_true(scope_get_stats(s)->pending > 0);
    scope_free(s);
    scope_dom_release(&d);
}

static int flip;

static int nondeterministic(reader *r)
{
    flip ^= 1;
    get(r, flip ? CTG_T_INT : CTG_T_CHAR);
    get(r, CTG_T_INT);
    return 0;
}

static void test_nondeterminism(void **state)
{
    (void)state;
    scope_domains d = doms(NULL);
    ctg_err e = {{0}};
    scope *s = scope_new(&d, 8, &e);
    static harness h;
    memset(&h, 0, sizeof h);
    h.d = &d;
    h.prog = nondeterministic;
    long runs = scope_explore(s, run_cb, &h, 0);
    assert_true(runs > 1);
    assert_true(scope_get_stats(s)->diverged > 0);
    scope_free(s);
    scope_dom_release(&d);
}

/* What bench/dogfood's fuzzing of the .fin parser found (ASan, UBSan):
 * a float in an integer list was reported from the freed list, and a range
 * from INT64_MIN overflowed when its width was taken. */
static void test_dogfood_findings(void **state)
{
    (void)state;
    int64_t *v = NULL;
    size_t n = 0;
    ctg_err e = {{0}};
    assert_false(scope_parse_ints("node.k", "1.", &v, &n, &e));
    assert_non_null(strstr(e.msg, "node.k: 1 is not an integer"));
    e.msg[0] = 0;
    assert_false(scope_parse_ints("node.y", "-9223372036854775808..3", &v, &n, &e));
    assert_non_null(strstr(e.msg, "range too large"));
    assert_true(scope_parse_ints("node.y", "-2..1", &v, &n, &e));
    assert_int_equal(n, 4);
    assert_int_equal(v[0], -2);
    free(v);
}

static void test_oom(void **state)
{
    (void)state;
    scope_domains d = doms("int=0..4");
    static harness h;
    for (long n = 0; n < 40; n++) {
        memset(&h, 0, sizeof h);
        h.d = &d;
        h.prog = triangle;
        ctg_err e = {{0}};
        mem_fail_after(n);
        scope *s = scope_new(&d, 16, &e);
        long runs = s ? scope_explore(s, run_cb, &h, 0) : -1;
        mem_fail_reset();
        assert_true(runs == -1 || runs == 125);
        if (s && runs == -1)
            assert_true(scope_failed(s));
        scope_free(s);
    }
    scope_dom_release(&d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_domains),
        cmocka_unit_test(test_triangle),
        cmocka_unit_test(test_early_stop_matches_brute_force),
        cmocka_unit_test(test_domain_without_zero),
        cmocka_unit_test(test_truncation),
        cmocka_unit_test(test_nondeterminism),
        cmocka_unit_test(test_dogfood_findings),
        cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
