/*
 * test_mutate.c - the fuzzer's mutators: input-to-state replacement (wide,
 * narrowed and string operands), the havoc stack's bounds and
 * reproducibility, typed value mutations, splicing, the dictionary and
 * the AFL/libFuzzer dictionary format.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "search/fuzz/fuzz_dict.h"
#include "search/fuzz/mutate.h"

/* A 32-bit operand found in the input is replaced by the other one (or
 * +-1 of it, for orderings). */
static void test_i2s_wide(void **state)
{
    (void)state;
    mut_cmp c = {0x11223344u, 0xdeadbeefu, 32, false, false};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    int hits = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[12] = {9, 9, 9, 0x44, 0x33, 0x22, 0x11, 9, 9, 9, 9, 9};
        if (!mut_i2s(&r, buf, &(size_t){sizeof buf}, sizeof buf, &s))
            continue;
        uint32_t v;
        memcpy(&v, buf + 3, 4);
        assert_true(v >= 0xdeadbeeeu && v <= 0xdeadbef0u);
        assert_int_equal(buf[0], 9);
        assert_int_equal(buf[7], 9);
        hits++;
    }
    assert_true(hits > 10);
}

/* An equality to restore (repair of a checksum) writes the exact value. */
static void test_i2s_exact(void **state)
{
    (void)state;
    mut_cmp c = {0x5a, 0x3c, 32, false, true};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    int hits = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[4] = {1, 2, 0x5a, 3};
        if (mut_i2s(&r, buf, &(size_t){sizeof buf}, sizeof buf, &s)) {
            assert_int_equal(buf[2], 0x3c);
            hits++;
        }
    }
    assert_true(hits > 5);
}

/* Text: the operand written in decimal as a whole number is replaced by
 * the other in decimal; the length follows; digits inside a longer number
 * and the wrong sign are left alone; max bounds the growth. */
static void test_i2s_text(void **state)
{
    (void)state;
    mut_cmp c = {12, 4242, 32, false, true};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    int hits = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[32] = "123 12 x112";
        size_t n = mut_i2s_text(&r, buf, 11, sizeof buf, &s);
        if (!n)
            continue;
        hits++;
        assert_int_equal(n, 13);
        assert_memory_equal(buf, "123 4242 x112", 13);
    }
    assert_true(hits > 5);
    mut_cmp neg = {(uint64_t)-7, 5, 32, false, true}; /* -7 as a 32-bit operand */
    s.cmps = &neg;
    for (uint64_t seed = 1; seed <= 32; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[16] = "a -7 b";
        size_t n = mut_i2s_text(&r, buf, 6, sizeof buf, &s);
        if (n)
            assert_memory_equal(buf, "a 5 b", n);
    }
    rng r;
    rng_seed(&r, 1);
    uint8_t small[6] = "x 12 y";
    s.cmps = &c;
    assert_int_equal(mut_i2s_text(&r, small, 6, 6, &s), 0); /* "4242" does not fit in 6 */
}

/* Hex text: a percent escape whose decoded byte is compared with '+'
 * becomes the escape of '+', in the case it was written in; a value with
 * no hex digits in buf is not replaced. */
static void test_i2s_hex(void **state)
{
    (void)state;
    mut_cmp c = {0x5f, '+', 32, false, true};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    const char *in[] = {"data=a%5Fb", "data=a%5fb"}, *out[] = {"data=a%2Bb", "data=a%2bb"};
    for (int k = 0; k < 2; k++) {
        int hits = 0;
        for (uint64_t seed = 1; seed <= 64; seed++) {
            rng r;
            rng_seed(&r, seed);
            uint8_t buf[32];
            memcpy(buf, in[k], 10);
            size_t n = mut_i2s_text(&r, buf, 10, sizeof buf, &s);
            if (!n)
                continue;
            hits++;
            assert_int_equal(n, 10);
            assert_memory_equal(buf, out[k], 10);
        }
        assert_true(hits > 5);
    }
    for (uint64_t seed = 1; seed <= 64; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[16] = "data=a_b";
        assert_int_equal(mut_i2s_text(&r, buf, 8, sizeof buf, &s), 0);
    }
}

/* A char widened to 32 bits before the compare is still found as a byte. */
static void test_i2s_narrow(void **state)
{
    (void)state;
    mut_cmp c = {'a', 'H', 32, false, false};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    int hits = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[4] = {'x', 'y', 'a', 0};
        if (mut_i2s(&r, buf, &(size_t){sizeof buf}, sizeof buf, &s)) {
            assert_true(buf[2] >= 'H' - 1 && buf[2] <= 'H' + 1);
            hits++;
        }
    }
    assert_true(hits > 5);
}

/* A string operand padded with zeros (the shorter string of a compare) is
 * looked for without its padding, and the other one takes its place, the
 * tail moved: "[x]" becomes "[server]" for strcmp(section, "server"). */
static void test_i2s_string_lengths(void **state)
{
    (void)state;
    uint64_t a = 0, b = 0;
    memcpy(&a, "x", 1);
    memcpy(&b, "server", 6);
    mut_cmp c = {a, b, 48, true, true};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    int grew = 0, shrank = 0;
    for (uint64_t seed = 1; seed <= 64; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[16] = "[x]\nk=1";
        size_t len = 8;
        if (!mut_i2s(&r, buf, &len, sizeof buf, &s))
            continue;
        if (len == 13) {
            assert_memory_equal(buf, "[server]\nk=1", 13);
            grew++;
        } else {
            assert_int_equal(len, 8); /* "server" is not in the input: never shrinks */
        }
        uint8_t back[16] = "[server]";
        size_t bl = 8;
        if (mut_i2s(&r, back, &bl, sizeof back, &s) && bl == 3) {
            assert_memory_equal(back, "[x]", 3);
            shrank++;
        }
    }
    assert_true(grew > 5);
    assert_true(shrank > 5);
    /* no room for "server": nothing changes */
    rng r;
    rng_seed(&r, 1);
    uint8_t small[4] = "[x]";
    size_t sl = 3;
    for (int i = 0; i < 32; i++)
        assert_false(mut_i2s(&r, small, &sl, sizeof small, &s));
    assert_int_equal(sl, 3);
    assert_memory_equal(small, "[x]", 3);
}

/* String operands are replaced byte for byte, never +-1 or swapped. */
static void test_i2s_string(void **state)
{
    (void)state;
    uint64_t a = 0, b = 0;
    memcpy(&a, "abcd", 4);
    memcpy(&b, "true", 4);
    mut_cmp c = {a, b, 32, true, false};
    mut_src s = {.cmps = &c, .n_cmps = 1};
    int hits = 0;
    for (uint64_t seed = 1; seed <= 32; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[8] = {'{', 'a', 'b', 'c', 'd', '}', 0, 0};
        if (mut_i2s(&r, buf, &(size_t){sizeof buf}, sizeof buf, &s)) {
            assert_memory_equal(buf, "{true}", 6);
            hits++;
        }
    }
    assert_true(hits > 5);
}

/* Havoc keeps within max, never empties a non-empty input, and is a
 * function of the seed. */
static void test_havoc_bounds(void **state)
{
    (void)state;
    mut_dict *d = mut_dict_new(8);
    mut_dict_add(d, (const uint8_t *)"KEYWORD", 7);
    mut_src s = {.dict = d};
    for (uint64_t seed = 1; seed <= 500; seed++) {
        uint8_t a[16], b[16];
        memcpy(a, "0123456789", 10);
        memcpy(b, a, 10);
        rng r1, r2;
        rng_seed(&r1, seed);
        rng_seed(&r2, seed);
        size_t la = mut_havoc(&r1, a, 10, sizeof a, &s, 16);
        size_t lb = mut_havoc(&r2, b, 10, sizeof b, &s, 16);
        assert_true(la >= 1 && la <= sizeof a);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
    }
    mut_dict_free(d);
}

/* Havoc copies parts of another input (s->other) in: with one, some
 * mutants hold three of its bytes in a row; without, none does. */
static void test_havoc_other_part(void **state)
{
    (void)state;
    static const uint8_t other[] = "QRSTUVWX";
    for (int with = 0; with < 2; with++) {
        mut_src s = {.other = with ? other : NULL, .other_len = with ? 8 : 0};
        int hits = 0;
        for (uint64_t seed = 1; seed <= 400; seed++) {
            rng r;
            rng_seed(&r, seed);
            uint8_t buf[64] = {0};
            size_t len = mut_havoc(&r, buf, 16, sizeof buf, &s, 4);
            for (size_t i = 0; i + 3 <= len; i++)
                if (buf[i] >= 'Q' && buf[i] <= 'V' && buf[i + 1] == buf[i] + 1 &&
                    buf[i + 2] == buf[i] + 2) {
                    hits++;
                    break;
                }
        }
        if (with)
            assert_true(hits > 10);
        else
            assert_int_equal(hits, 0);
    }
}

/* Typed mutation of a Test-Comp input: with only value operators in play
 * (a stack of one, many draws) the int value changes and bytes outside
 * the values stay; a bool stays 0 or 1. */
static void test_havoc_typed(void **state)
{
    (void)state;
    ctg_value_rec vals[2] = {{0, CTG_T_INT, 4}, {4, CTG_T_BOOL, 1}};
    mut_src s = {.vals = vals, .n_vals = 2};
    int changed = 0;
    for (uint64_t seed = 1; seed <= 300; seed++) {
        rng r;
        rng_seed(&r, seed);
        uint8_t buf[8] = {5, 0, 0, 0, 1, 0, 0, 0};
        size_t len = mut_havoc(&r, buf, 5, sizeof buf, &s, 1);
        if (len == 5) {
            int32_t v;
            memcpy(&v, buf, 4);
            changed += v != 5;
        }
    }
    assert_true(changed > 100);
}

/* Splicing keeps a prefix of the input and continues with the other. */
static void test_splice(void **state)
{
    (void)state;
    const uint8_t other[] = "ABCDEFGHIJ";
    mut_src s = {.splice = other, .splice_len = 10};
    rng r;
    rng_seed(&r, 3);
    uint8_t buf[16];
    memcpy(buf, "abcdefghij", 10);
    size_t len = mut_splice(&r, buf, 10, sizeof buf, &s);
    assert_int_equal(len, 10);
    size_t cut = 0;
    while (cut < len && buf[cut] >= 'a')
        cut++;
    assert_true(cut >= 1 && cut < 10);
    assert_memory_equal(buf + cut, other + cut, 10 - cut);
}

/* Duplicates are refused; a full dictionary replaces learned tokens in
 * turn and keeps the fixed ones. */
static void test_dict(void **state)
{
    (void)state;
    mut_dict *d = mut_dict_new(3);
    assert_true(mut_dict_add(d, (const uint8_t *)"user", 4));
    mut_dict_fix(d);
    assert_false(mut_dict_add(d, (const uint8_t *)"user", 4));
    assert_true(mut_dict_add(d, (const uint8_t *)"a", 1));
    assert_true(mut_dict_add(d, (const uint8_t *)"b", 1));
    assert_true(mut_dict_add(d, (const uint8_t *)"c", 1)); /* replaces "a" */
    assert_int_equal(mut_dict_size(d), 3);
    size_t n;
    assert_memory_equal(mut_dict_get(d, 0, &n), "user", 4);
    assert_memory_equal(mut_dict_get(d, 1, &n), "c", 1);
    assert_memory_equal(mut_dict_get(d, 2, &n), "b", 1);
    assert_false(mut_dict_add(d, (const uint8_t *)"", 0));
    mut_dict_free(d);
}

/* The AFL/libFuzzer dictionary format, and its errors with line numbers. */
static void test_dict_file(void **state)
{
    (void)state;
    mut_dict *d = mut_dict_new(16);
    ctg_err e = {{0}};
    assert_true(fuzz_dict_parse(d, "x.dict",
                                "# comment\n\nkw1=\"true\"\n  \"n\\x75ll\"\nq@1 = \"a\\\"b\"\n", &e));
    assert_int_equal(mut_dict_size(d), 3);
    size_t n;
    const uint8_t *t = mut_dict_get(d, 1, &n);
    assert_int_equal(n, 4);
    assert_memory_equal(t, "null", 4);
    t = mut_dict_get(d, 2, &n);
    assert_memory_equal(t, "a\"b", 3);
    assert_false(fuzz_dict_parse(d, "x.dict", "\"ok\"\nbad line\n", &e));
    assert_string_equal(e.msg, "x.dict:2: expected name=\"token\" or \"token\"");
    ctg_err e2 = {{0}};
    assert_false(fuzz_dict_parse(d, "y.dict", "\"open\n", &e2));
    assert_string_equal(e2.msg, "y.dict:1: missing closing quote");
    ctg_err e3 = {{0}};
    assert_false(fuzz_dict_load(d, "/nonexistent/z.dict", &e3));
    assert_non_null(strstr(e3.msg, "/nonexistent/z.dict"));
    mut_dict_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_i2s_wide),   cmocka_unit_test(test_i2s_narrow),
        cmocka_unit_test(test_i2s_string), cmocka_unit_test(test_i2s_string_lengths), cmocka_unit_test(test_havoc_bounds),
        cmocka_unit_test(test_i2s_exact),  cmocka_unit_test(test_i2s_text),
        cmocka_unit_test(test_i2s_hex),
        cmocka_unit_test(test_havoc_other_part),
        cmocka_unit_test(test_havoc_typed), cmocka_unit_test(test_splice),
        cmocka_unit_test(test_dict),       cmocka_unit_test(test_dict_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
