/*
 * test_ctype.c - the one table of C value types (src/base/ctype.h): every
 * row pinned (Test-Comp name, nondet suffix, declaration, sizes on ILP32 and
 * LP64, signedness), the sizes agree with this host's C types, names parse
 * back, and the modules that used to keep their own copies (tcase, scope,
 * kspec) answer from it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/ctype.h"
#include "search/bounded/kspec.h"
#include "search/bounded/scope.h"
#include "search/sbst/tcase.h"

static const struct row {
    enum ctg_type t;
    const char *name, *suffix, *decl;
    unsigned s32, s64;
    bool sgn, flt;
} rows[] = {
    {CTG_T_BOOL, "_Bool", "bool", "_Bool", 1, 1, false, false},
    {CTG_T_CHAR, "char", "char", "char", 1, 1, true, false},
    {CTG_T_UCHAR, "unsigned char", "uchar", "unsigned char", 1, 1, false, false},
    {CTG_T_SHORT, "short", "short", "short", 2, 2, true, false},
    {CTG_T_USHORT, "unsigned short", "ushort", "unsigned short", 2, 2, false, false},
    {CTG_T_INT, "int", "int", "int", 4, 4, true, false},
    {CTG_T_UINT, "unsigned int", "uint", "unsigned int", 4, 4, false, false},
    {CTG_T_LONG, "long", "long", "long", 4, 8, true, false},
    {CTG_T_ULONG, "unsigned long", "ulong", "unsigned long", 4, 8, false, false},
    {CTG_T_LONGLONG, "long long", "longlong", "long long", 8, 8, true, false},
    {CTG_T_ULONGLONG, "unsigned long long", "ulonglong", "unsigned long long", 8, 8, false, false},
    {CTG_T_FLOAT, "float", "float", "float", 4, 4, true, true},
    {CTG_T_DOUBLE, "double", "double", "double", 8, 8, true, true},
    {CTG_T_POINTER, "void *", "pointer", "void *", 4, 8, false, false},
    {CTG_T_SIZE_T, "size_t", "size_t", "unsigned long", 4, 8, false, false},
    {CTG_T_BYTES, "unsigned char", "bytes", "unsigned char", 1, 1, false, false},
};
#define N_ROWS (sizeof rows / sizeof rows[0])

static void test_every_row(void **state)
{
    (void)state;
    assert_int_equal(N_ROWS, CTG_T__COUNT);
    for (size_t i = 0; i < N_ROWS; i++) {
        const struct row *r = &rows[i];
        const ctg_type_info *t = ctg_type_info_of(r->t);
        assert_non_null(t);
        assert_string_equal(t->name, r->name);
        assert_string_equal(ctg_type_name(r->t), r->name);
        assert_string_equal(ctg_type_suffix(r->t), r->suffix);
        assert_string_equal(ctg_type_decl(r->t), r->decl);
        assert_int_equal(ctg_type_size(r->t, 32), r->s32);
        assert_int_equal(ctg_type_size(r->t, 64), r->s64);
        assert_int_equal(ctg_type_is_signed(r->t), r->sgn);
        assert_int_equal(ctg_type_is_float(r->t), r->flt);
    }
    assert_null(ctg_type_info_of(CTG_T__COUNT));
    assert_int_equal(ctg_type_size(CTG_T__COUNT, 64), 0);
    assert_string_equal(ctg_type_name(CTG_T__COUNT), "?");
}

/* This host is LP64: the 64-bit column is its C types. */
static void test_host_sizes(void **state)
{
    (void)state;
    assert_int_equal(ctg_type_size(CTG_T_BOOL, 64), sizeof(_Bool));
    assert_int_equal(ctg_type_size(CTG_T_SHORT, 64), sizeof(short));
    assert_int_equal(ctg_type_size(CTG_T_INT, 64), sizeof(int));
    assert_int_equal(ctg_type_size(CTG_T_LONG, 64), sizeof(long));
    assert_int_equal(ctg_type_size(CTG_T_LONGLONG, 64), sizeof(long long));
    assert_int_equal(ctg_type_size(CTG_T_FLOAT, 64), sizeof(float));
    assert_int_equal(ctg_type_size(CTG_T_DOUBLE, 64), sizeof(double));
    assert_int_equal(ctg_type_size(CTG_T_POINTER, 64), sizeof(void *));
    assert_int_equal(ctg_type_size(CTG_T_SIZE_T, 64), sizeof(size_t));
    assert_int_equal(sizeof(unsigned long), sizeof(size_t)); /* size_t's decl */
}

static void test_names_parse_back(void **state)
{
    (void)state;
    enum ctg_type t;
    for (size_t i = 0; i < N_ROWS; i++) {
        if (rows[i].t == CTG_T_BYTES)
            continue;
        assert_true(ctg_type_from_name(rows[i].name, &t));
        assert_int_equal(t, rows[i].t);
        assert_true(ctg_type_from_name(rows[i].suffix, &t));
        assert_int_equal(t, rows[i].t);
    }
    assert_true(ctg_type_from_name("unsigned char", &t)); /* a value, not bytes */
    assert_int_equal(t, CTG_T_UCHAR);
    assert_true(ctg_type_from_name("u8", &t));
    assert_int_equal(t, CTG_T_UCHAR);
    assert_true(ctg_type_from_name("long int", &t));
    assert_int_equal(t, CTG_T_LONG);
    assert_false(ctg_type_from_name("quad", &t));
}

/* The modules that had copies agree with the table, BYTES included. */
static void test_users_agree(void **state)
{
    (void)state;
    for (size_t i = 0; i < N_ROWS; i++)
        for (int a = 32; a <= 64; a += 32) {
            assert_int_equal(tc_width(rows[i].t, a), ctg_type_size(rows[i].t, a));
            assert_int_equal(scope_type_size(rows[i].t, a), ctg_type_size(rows[i].t, a));
        }
    assert_string_equal(kspec_ctype(CTG_T_SIZE_T), "unsigned long");
    assert_string_equal(kspec_nondet(CTG_T_SIZE_T), "size_t");
    assert_string_equal(kspec_ctype(CTG_T_UCHAR), "unsigned char");
    assert_string_equal(kspec_nondet(CTG_T_ULONGLONG), "ulonglong");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_row),
        cmocka_unit_test(test_host_sizes),
        cmocka_unit_test(test_names_parse_back),
        cmocka_unit_test(test_users_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
