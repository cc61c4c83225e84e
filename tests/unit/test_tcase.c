/*
 * test_tcase.c - typed value sequences: serialisation, adoption of a run's
 * value log, integer/float views, random values within the domain, Gaussian
 * steps, the variable-length mutation and the three crossovers.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <math.h>
#include <string.h>

#include "base/mem.h"
#include "search/sbst/tcase.h"

static tc_params params(void)
{
    tc_params p;
    tc_params_default(&p);
    return p;
}

/* Values serialise at their own width, little endian, and adopt back. */
static void test_serialise_adopt(void **state)
{
    (void)state;
    tcase t;
    tc_init(&t);
    tc_val v = {0, CTG_T_INT};
    tc_set_i64(&v, -2, 64);
    assert_true(tc_push(&t, v.type, v.bits));
    assert_true(tc_push(&t, CTG_T_CHAR, 'A'));
    assert_true(tc_push(&t, CTG_T_LONG, 0x0102030405060708ull));
    assert_int_equal(tc_bytes(&t, 64), 4 + 1 + 8);
    assert_int_equal(tc_bytes(&t, 32), 4 + 1 + 4);
    uint8_t buf[32];
    tc_serialise(&t, 64, buf);
    const uint8_t want[] = {0xfe, 0xff, 0xff, 0xff, 'A', 8, 7, 6, 5, 4, 3, 2, 1};
    assert_memory_equal(buf, want, sizeof want);
    /* the run consumed only the first two values */
    ctg_value_rec log[] = {{0, CTG_T_INT, 4}, {4, CTG_T_CHAR, 1}};
    tcase u;
    tc_init(&u);
    assert_true(tc_adopt(&u, buf, 13, log, 2));
    assert_int_equal(u.n, 2);
    assert_int_equal(tc_get_i64(&u.v[0], 64), -2);
    assert_int_equal(u.v[1].type, CTG_T_CHAR);
    /* a log entry beyond the input is refused, u unchanged */
    ctg_value_rec bad[] = {{12, CTG_T_INT, 4}};
    assert_false(tc_adopt(&u, buf, 13, bad, 1));
    assert_int_equal(u.n, 2);
    tc_release(&t);
    tc_release(&u);
}

/* A libFuzzer input becomes one unsigned char per byte. */
static void test_adopt_bytes(void **state)
{
    (void)state;
    const uint8_t in[] = {'a', 'b', 0, 'c'};
    ctg_value_rec log[] = {{0, CTG_T_BYTES, 4}};
    tcase t;
    tc_init(&t);
    assert_true(tc_adopt(&t, in, 4, log, 1));
    assert_int_equal(t.n, 4);
    uint8_t out[4];
    tc_serialise(&t, 64, out);
    assert_memory_equal(out, in, 4);
    tc_release(&t);
}

/* Signed and unsigned views, including the 64-bit extremes. */
static void test_views(void **state)
{
    (void)state;
    tc_val v = {0, CTG_T_UCHAR};
    tc_set_i64(&v, 255, 64);
    assert_int_equal(tc_get_i64(&v, 64), 255);
    v.type = CTG_T_CHAR;
    assert_int_equal(tc_get_i64(&v, 64), -1);
    v = (tc_val){UINT64_MAX, CTG_T_LONGLONG};
    assert_int_equal(tc_get_i64(&v, 64), -1);
    v = (tc_val){0, CTG_T_DOUBLE};
    tc_set_f64(&v, 2.5);
    assert_true(tc_get_f64(&v) == 2.5);
    v = (tc_val){0, CTG_T_FLOAT};
    tc_set_f64(&v, -0.25);
    assert_true(tc_get_f64(&v) == -0.25);
    assert_true(v.bits <= UINT32_MAX);
}

/* Random integers stay inside [-range, range] and their type. */
static void test_random_domain(void **state)
{
    (void)state;
    tc_params p = params();
    p.range = 1000;
    rng r;
    rng_seed(&r, 1);
    for (int i = 0; i < 5000; i++) {
        tc_val v = tc_random_value(CTG_T_INT, &p, &r);
        int64_t x = tc_get_i64(&v, 64);
        assert_true(x >= -1000 && x <= 1000);
        v = tc_random_value(CTG_T_UINT, &p, &r);
        assert_true(tc_get_i64(&v, 64) >= 0 && tc_get_i64(&v, 64) <= 1000);
        v = tc_random_value(CTG_T_CHAR, &p, &r);
        x = tc_get_i64(&v, 64);
        assert_true(x >= -128 && x <= 127);
        v = tc_random_value(CTG_T_BOOL, &p, &r);
        assert_true(v.bits <= 1);
    }
}

/* Whole type (range 0): every magnitude appears; tc_clamp enforces a range. */
static void test_whole_type_and_clamp(void **state)
{
    (void)state;
    tc_params p = params();
    p.range = 0;
    rng r;
    rng_seed(&r, 9);
    int small = 0, big = 0;
    for (int i = 0; i < 4000; i++) {
        tc_val v = tc_random_value(CTG_T_INT, &p, &r);
        int64_t x = tc_get_i64(&v, 64);
        small += x >= -16 && x <= 16;
        big += x > 1000000 || x < -1000000;
    }
    assert_true(small > 200 && big > 800);
    tcase t;
    tc_init(&t);
    assert_true(tc_push(&t, CTG_T_INT, 0x7fffffff));
    assert_true(tc_push(&t, CTG_T_INT, 0x7fffffff));
    assert_true(tc_push(&t, CTG_T_CHAR, 0xff));
    p.range = 1000;
    assert_true(tc_clamp(&t, 1, &p));
    assert_int_equal(tc_get_i64(&t.v[0], 64), 0x7fffffff); /* before `from` */
    assert_int_equal(tc_get_i64(&t.v[1], 64), 1000);
    assert_int_equal(tc_get_i64(&t.v[2], 64), -1); /* chars keep their domain */
    assert_false(tc_clamp(&t, 0, &(tc_params){.range = 0, .arch_bits = 64}));
    tc_release(&t);
}

/* With p_pool values come from the constant pool (within their type). */
static void test_pool(void **state)
{
    (void)state;
    tc_params p = params();
    static const int64_t ip[] = {4242, -7, 300};
    static const double fp[] = {0.5};
    p.ipool = ip;
    p.n_ipool = 3;
    p.fpool = fp;
    p.n_fpool = 1;
    p.p_pool = 1;
    rng r;
    rng_seed(&r, 11);
    for (int i = 0; i < 200; i++) {
        tc_val v = tc_random_value(CTG_T_INT, &p, &r);
        int64_t x = tc_get_i64(&v, 64);
        assert_true(x == 4242 || x == -7 || x == 300);
        v = tc_random_value(CTG_T_DOUBLE, &p, &r);
        assert_true(tc_get_f64(&v) == 0.5);
        /* a char takes -7 (fits) but never 4242 or 300 */
        v = tc_random_value(CTG_T_CHAR, &p, &r);
        x = tc_get_i64(&v, 64);
        assert_true(x == -7 || (x >= 32 && x <= 126) || x == 0 || x == 1 || x == -1 ||
                    x == -128 || x == 127 || x == -127 || x == 126);
        v = (tc_val){0, CTG_T_INT};
        tc_change_value(&v, &p, &r);
        x = tc_get_i64(&v, 64);
        assert_true(x == 4242 || x == -7 || x == 300);
    }
}

/* Gaussian steps change the value, stay in the domain, and with log steps
 * often make small moves (so a == b can be met exactly). */
static void test_steps(void **state)
{
    (void)state;
    tc_params p = params();
    p.p_reset = 0;
    p.range = 1000000;
    rng r;
    rng_seed(&r, 2);
    int small = 0;
    for (int i = 0; i < 2000; i++) {
        tc_val v = {0, CTG_T_INT};
        tc_set_i64(&v, 999999, 64);
        tc_change_value(&v, &p, &r);
        int64_t x = tc_get_i64(&v, 64);
        assert_true(x != 999999 && x <= 1000000 && x >= -1000000);
        small += x >= 999990;
    }
    assert_true(small > 200);
    /* a value outside the domain (a boundary value) moves within its type */
    tc_val v = {0, CTG_T_UINT};
    tc_set_i64(&v, UINT32_MAX, 64);
    tc_change_value(&v, &p, &r);
    assert_true(tc_get_i64(&v, 64) <= UINT32_MAX);
    /* unsigned long long at its top */
    v = (tc_val){UINT64_MAX, CTG_T_ULONGLONG};
    tc_change_value(&v, &p, &r);
    assert_true(v.bits != UINT64_MAX);
}

/* Fixed arity keeps the length; variable length deletes and inserts
 * (typed like the neighbours) within max_len. */
static void test_mutate(void **state)
{
    (void)state;
    tc_params p = params();
    p.max_len = 12;
    rng r;
    rng_seed(&r, 3);
    tcase t, orig;
    tc_init(&t);
    tc_init(&orig);
    uint8_t types[3] = {CTG_T_INT, CTG_T_INT, CTG_T_INT};
    assert_true(tc_random(&t, types, 3, &p, &r));
    for (int i = 0; i < 200; i++) {
        assert_true(tc_copy(&orig, &t));
        assert_true(tc_mutate(&t, &p, false, &r));
        assert_int_equal(t.n, 3);
        assert_false(tc_equal(&orig, &t));
    }
    uint8_t ct[6] = {CTG_T_CHAR, CTG_T_CHAR, CTG_T_CHAR, CTG_T_CHAR, CTG_T_CHAR, CTG_T_CHAR};
    assert_true(tc_random(&t, ct, 6, &p, &r));
    bool grew = false, shrank = false;
    for (int i = 0; i < 500; i++) {
        uint32_t n0 = t.n;
        assert_true(tc_mutate(&t, &p, true, &r));
        assert_true(t.n <= 12 && t.n >= 1);
        grew |= t.n > n0;
        shrank |= t.n < n0;
        for (uint32_t k = 0; k < t.n; k++)
            assert_int_equal(t.v[k].type, CTG_T_CHAR);
    }
    assert_true(grew && shrank);
    tc_release(&t);
    tc_release(&orig);
}

/* Crossover: single keeps lengths of equal parents, relative never makes an
 * offspring longer than the longer parent, variable keeps the total. */
static void test_crossover(void **state)
{
    (void)state;
    tc_params p = params();
    rng r;
    rng_seed(&r, 4);
    tcase a, b, o1, o2;
    tc_init(&a);
    tc_init(&b);
    tc_init(&o1);
    tc_init(&o2);
    uint8_t ty[20];
    memset(ty, CTG_T_INT, sizeof ty);
    for (int i = 0; i < 300; i++) {
        assert_true(tc_random(&a, ty, 1 + (uint32_t)rng_below(&r, 20), &p, &r));
        assert_true(tc_random(&b, ty, 1 + (uint32_t)rng_below(&r, 20), &p, &r));
        uint32_t mx = a.n > b.n ? a.n : b.n;
        assert_true(tc_crossover(&a, &b, TC_CROSS_RELATIVE, &r, &o1, &o2));
        assert_true(o1.n <= mx && o2.n <= mx);
        assert_int_equal(o1.n + o2.n, a.n + b.n);
        assert_true(tc_crossover(&a, &b, TC_CROSS_VARIABLE, &r, &o1, &o2));
        assert_int_equal(o1.n + o2.n, a.n + b.n);
        assert_true(tc_crossover(&a, &a, TC_CROSS_SINGLE, &r, &o1, &o2));
        assert_int_equal(o1.n, a.n);
        assert_true(tc_equal(&o1, &a));
    }
    tc_release(&a);
    tc_release(&b);
    tc_release(&o1);
    tc_release(&o2);
}

/* Out of memory is reported, never a crash. */
static void test_oom(void **state)
{
    (void)state;
    tc_params p = params();
    rng r;
    rng_seed(&r, 5);
    tcase a, o1, o2;
    tc_init(&a);
    tc_init(&o1);
    tc_init(&o2);
    uint8_t ty[4] = {CTG_T_INT, CTG_T_INT, CTG_T_INT, CTG_T_INT};
    assert_true(tc_random(&a, ty, 4, &p, &r));
    mem_fail_after(0);
    assert_false(tc_crossover(&a, &a, TC_CROSS_RELATIVE, &r, &o1, &o2));
    assert_false(tc_push(&o1, CTG_T_INT, 1));
    mem_fail_reset();
    tc_release(&a);
    tc_release(&o1);
    tc_release(&o2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serialise_adopt), cmocka_unit_test(test_adopt_bytes),
        cmocka_unit_test(test_views),           cmocka_unit_test(test_random_domain),
        cmocka_unit_test(test_whole_type_and_clamp), cmocka_unit_test(test_pool),
        cmocka_unit_test(test_steps),           cmocka_unit_test(test_mutate),
        cmocka_unit_test(test_crossover),       cmocka_unit_test(test_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
