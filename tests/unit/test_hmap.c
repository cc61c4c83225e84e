/*
 * test_hmap.c - src/base/hmap.h, the one hash table: a set against a sorted
 * reference over many keys (0 and colliding keys included) and through
 * growth; a map's put and get; an index's entries under one key; clear,
 * release and reuse; every operation under the allocation-failure hook
 * either succeeds or leaves the table as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/hmap.h"
#include "base/mem.h"

/* keys that differ only in their high bits, and 0 */
static uint64_t key_of(unsigned i) { return i % 3 == 0 ? (uint64_t)i << 40 : (uint64_t)i * 7919u; }

static void test_set(void **state)
{
    (void)state;
    hmap s = HMAP_SET;
    bool added;
    for (unsigned i = 0; i < 5000; i++) {
        assert_true(hmap_add(&s, key_of(i), &added));
        assert_true(added);
    }
    assert_int_equal(hmap_count(&s), 5000);
    for (unsigned i = 0; i < 5000; i++) { /* again: none is new */
        assert_true(hmap_add(&s, key_of(i), &added));
        assert_false(added);
        assert_true(hmap_get(&s, key_of(i), NULL));
    }
    assert_int_equal(hmap_count(&s), 5000);
    assert_true(hmap_get(&s, 0, NULL)); /* key_of(0) */
    assert_false(hmap_get(&s, 1, NULL));
    assert_false(hmap_get(&s, (uint64_t)5000 << 40, NULL));
    size_t cur = 0, seen = 0;
    uint64_t k, sum = 0, want = 0;
    while (hmap_each(&s, &cur, &k, NULL))
        seen++, sum += k;
    for (unsigned i = 0; i < 5000; i++)
        want += key_of(i);
    assert_int_equal(seen, 5000);
    assert_true(sum == want);
    hmap_release(&s);
    assert_int_equal(hmap_count(&s), 0);
    assert_false(hmap_get(&s, 0, NULL));
}

static void test_map(void **state)
{
    (void)state;
    hmap m = HMAP_MAP;
    uint64_t v = 0;
    assert_false(hmap_get(&m, 42, &v)); /* empty, never allocated */
    for (uint64_t i = 0; i < 1000; i++)
        assert_true(hmap_put(&m, i * 16, i + 100)); /* pointer-like: low bits 0 */
    assert_true(hmap_put(&m, 32, 7)); /* replace */
    assert_int_equal(hmap_count(&m), 1000);
    assert_true(hmap_get(&m, 32, &v));
    assert_int_equal(v, 7);
    assert_true(hmap_get(&m, 0, &v));
    assert_int_equal(v, 100);
    assert_true(hmap_get(&m, 999 * 16, &v));
    assert_int_equal(v, 1099);
    bool added;
    assert_true(hmap_add(&m, 48, &added)); /* present: value kept */
    assert_false(added);
    assert_true(hmap_get(&m, 48, &v));
    assert_int_equal(v, 103);
    hmap_clear(&m);
    assert_int_equal(hmap_count(&m), 0);
    assert_false(hmap_get(&m, 48, &v));
    assert_true(hmap_put(&m, 48, 1)); /* usable after clear */
    assert_true(hmap_get(&m, 48, &v));
    assert_int_equal(v, 1);
    hmap_release(&m);
}

static void test_index(void **state)
{
    (void)state;
    hmap x = HMAP_MAP;
    /* three entries under 5 among others, pushed through growth */
    for (uint64_t i = 0; i < 300; i++) {
        assert_true(hmap_push(&x, i, i));
        if (i % 100 == 0)
            assert_true(hmap_push(&x, 5, 1000 + i));
    }
    uint64_t v, got = 0;
    size_t cur = 0, n = 0;
    while (hmap_next(&x, 5, &cur, &v))
        got += v, n++;
    assert_int_equal(n, 4);
    assert_true(got == 5 + 1000 + 1100 + 1200);
    assert_false(hmap_next(&x, 5, &cur, &v)); /* stays at its end */
    cur = 0;
    assert_false(hmap_next(&x, 777, &cur, &v));
    hmap_release(&x);
    cur = 0;
    assert_false(hmap_next(&x, 5, &cur, &v)); /* empty */
}

/* Under failing allocations an operation either succeeds or leaves the
 * table as it was; with memory back, the table is complete. */
static void test_alloc_failure(void **state)
{
    (void)state;
    for (long fail = 0; fail < 12; fail++) {
        hmap m = HMAP_MAP;
        unsigned done = 0;
        mem_fail_after(fail);
        for (unsigned i = 0; i < 200; i++) {
            if (!hmap_put(&m, key_of(i), i))
                break;
            done++;
        }
        assert_int_equal(hmap_count(&m), done);
        for (unsigned i = 0; i < done; i++) {
            uint64_t v;
            assert_true(hmap_get(&m, key_of(i), &v));
            assert_int_equal(v, i);
        }
        mem_fail_reset();
        for (unsigned i = done; i < 200; i++)
            assert_true(hmap_put(&m, key_of(i), i));
        assert_int_equal(hmap_count(&m), 200);
        hmap_release(&m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_set),
        cmocka_unit_test(test_map),
        cmocka_unit_test(test_index),
        cmocka_unit_test(test_alloc_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
