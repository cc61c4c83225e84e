/*
 * test_hash.c - src/base/hash.h: SHA-256 of a buffer against the FIPS
 * 180-2 example ("abc"), incremental hashing equals one-shot hashing, and
 * the 64-bit mixers the path hashes and the expression interner share pinned
 * to MurmurHash3's fmix64 values (a change would reorder hash tables and
 * change which paths count as seen).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/hash.h"

static void test_sha256_abc(void **state)
{
    (void)state;
    char hex[HASH_HEX_LEN + 1];
    assert_true(hash_buffer("abc", 3, hex));
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_incremental(void **state)
{
    (void)state;
    char one[HASH_HEX_LEN + 1], inc[HASH_HEX_LEN + 1];
    assert_true(hash_buffer("hello, world", 12, one));
    hash_ctx *h = hash_new();
    assert_non_null(h);
    assert_true(hash_update(h, "hello", 5));
    assert_true(hash_update(h, ", world", 7));
    assert_true(hash_final(h, inc));
    hash_free(h);
    assert_string_equal(one, inc);
}

static void test_mix64(void **state)
{
    (void)state;
    assert_int_equal(hash_mix64(0), 0);
    assert_true(hash_mix64(1) == 0xb456bcfc34c2cb2cULL);
    assert_true(hash_mix64(0x9e3779b97f4a7c15ULL) == 0x9ca066f1a4ab2eeaULL);
    assert_true(hash_combine64(0, 0) == 0x9ca066f1a4ab2eeaULL);
    assert_true(hash_combine64(1, 2) == 0xf9122d6051144cc9ULL);
    assert_true(hash_combine64(1, 2) != hash_combine64(2, 1)); /* order matters */
}

/* FNV-1a 64 against the reference values of its authors' test suite; one
 * call over a buffer equals calls over its parts. */
static void test_fnv1a64(void **state)
{
    (void)state;
    assert_true(hash_fnv1a64(HASH_FNV64_INIT, "", 0) == 0xcbf29ce484222325ULL);
    assert_true(hash_fnv1a64(HASH_FNV64_INIT, "a", 1) == 0xaf63dc4c8601ec8cULL);
    assert_true(hash_fnv1a64(HASH_FNV64_INIT, "foobar", 6) == 0x85944171f73967e8ULL);
    assert_true(hash_fnv1a64(hash_fnv1a64(HASH_FNV64_INIT, "foo", 3), "bar", 3) ==
                0x85944171f73967e8ULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_abc),
        cmocka_unit_test(test_incremental),
        cmocka_unit_test(test_mix64),
        cmocka_unit_test(test_fnv1a64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
