/*
 * test_suite.c - unit tests of src/suite: value text form (every type, both
 * architectures, extremes, nan/inf, wrapping, malformed text), the archive,
 * the Test-Comp writer (validated against tests/dtd) and reader (with its
 * one-line errors), crash files and numbering.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libxml/parser.h>
#include <libxml/valid.h>

#include "base/fsutil.h"
#include "base/hash.h"
#include "base/mem.h"
#include "suite/archive.h"
#include "suite/suite.h"
#include "suite/test.h"

#include <cmocka.h>
#undef test_free /* cmocka's allocation-checking macro; ours is a function */

/* ==== helpers ============================================================ */

static char tmp_root[256];

static int make_tmp(void **state)
{
    (void)state;
    snprintf(tmp_root, sizeof tmp_root, "/tmp/ctg-test-suite-XXXXXX");
    return mkdtemp(tmp_root) ? 0 : -1;
}

static int drop_tmp(void **state)
{
    (void)state;
    return fs_rm_rf(tmp_root, NULL) ? 0 : -1;
}

static char *tmp_path(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmp_root, name);
    return buf;
}

static void write_file(const char *path, const char *text)
{
    assert_true(fs_write_atomic(path, text, strlen(text), NULL));
}

/* Formats bytes, parses the text back and checks the bytes are equal. */
static void round_trip(enum ctg_type t, const void *bytes, size_t size)
{
    char text[64];
    uint8_t back[8] = {0};
    ctg_err e = {{0}};
    assert_true(test_value_format(t, bytes, size, text, sizeof text) > 0);
    if (!test_value_parse(t, text, back, size, &e))
        fail_msg("type %s text '%s': %s", ctg_type_name(t), text, e.msg);
    if (memcmp(back, bytes, size) != 0)
        fail_msg("type %s: '%s' did not round-trip", ctg_type_name(t), text);
}

static void check_format(enum ctg_type t, uint64_t v, size_t size, const char *want)
{
    uint8_t b[8];
    for (size_t i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    char text[64];
    test_value_format(t, b, size, text, sizeof text);
    assert_string_equal(text, want);
}

/* Parses text as type t (sized for arch 64) and returns the value read. */
static uint64_t parse_u(enum ctg_type t, const char *text)
{
    uint8_t b[8] = {0};
    ctg_err e = {{0}};
    size_t size = ctg_type_size(t, 64);
    if (!test_value_parse(t, text, b, size, &e))
        fail_msg("'%s' as %s: %s", text, ctg_type_name(t), e.msg);
    uint64_t u = 0;
    for (size_t i = size; i-- > 0;)
        u = (u << 8) | b[i];
    return u;
}

static void expect_parse_error(enum ctg_type t, const char *text, const char *want)
{
    uint8_t b[8];
    ctg_err e = {{0}};
    assert_false(test_value_parse(t, text, b, ctg_type_size(t, 64), &e));
    assert_non_null(strstr(e.msg, want));
    assert_null(strchr(e.msg, '\n'));
}

/* ==== types ============================================================== */

static void test_type_sizes(void **state)
{
    (void)state;
    static const struct {
        enum ctg_type t;
        size_t s32, s64;
    } want[] = {
        {CTG_T_BOOL, 1, 1},     {CTG_T_CHAR, 1, 1},      {CTG_T_UCHAR, 1, 1},
        {CTG_T_SHORT, 2, 2},    {CTG_T_USHORT, 2, 2},    {CTG_T_INT, 4, 4},
        {CTG_T_UINT, 4, 4},     {CTG_T_LONG, 4, 8},      {CTG_T_ULONG, 4, 8},
        {CTG_T_LONGLONG, 8, 8}, {CTG_T_ULONGLONG, 8, 8}, {CTG_T_FLOAT, 4, 4},
        {CTG_T_DOUBLE, 8, 8},   {CTG_T_POINTER, 4, 8},   {CTG_T_SIZE_T, 4, 8},
        {CTG_T_BYTES, 1, 1}, /* one element; the value is as long as it is */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(ctg_type_size(want[i].t, 32), want[i].s32);
        assert_int_equal(ctg_type_size(want[i].t, 64), want[i].s64);
    }
}

static void test_type_names(void **state)
{
    (void)state;
    assert_string_equal(ctg_type_name(CTG_T_BOOL), "_Bool");
    assert_string_equal(ctg_type_name(CTG_T_UCHAR), "unsigned char");
    assert_string_equal(ctg_type_name(CTG_T_ULONGLONG), "unsigned long long");
    assert_string_equal(ctg_type_name(CTG_T_BYTES), "unsigned char");
    for (int t = 0; t < CTG_T__COUNT; t++) {
        if (t == CTG_T_BYTES)
            continue;
        enum ctg_type back;
        assert_true(ctg_type_from_name(ctg_type_name((enum ctg_type)t), &back));
        assert_int_equal(back, t);
        assert_true(ctg_type_from_name(ctg_type_suffix((enum ctg_type)t), &back));
        assert_int_equal(back, t);
    }
    enum ctg_type t;
    assert_true(ctg_type_from_name("uint", &t));
    assert_int_equal(t, CTG_T_UINT);
    assert_true(ctg_type_from_name("unsigned", &t));
    assert_int_equal(t, CTG_T_UINT);
    assert_true(ctg_type_from_name("bool", &t));
    assert_int_equal(t, CTG_T_BOOL);
    assert_false(ctg_type_from_name("struct foo", &t));
    assert_true(ctg_type_is_signed(CTG_T_CHAR));
    assert_false(ctg_type_is_signed(CTG_T_SIZE_T));
    assert_true(ctg_type_is_float(CTG_T_FLOAT));
    assert_false(ctg_type_is_float(CTG_T_LONG));
}

/* ==== value text ========================================================= */

static void test_round_trip_every_type(void **state)
{
    (void)state;
    static const uint64_t pattern[] = {0,
                                       1,
                                       0x7f,
                                       0x80,
                                       0xff,
                                       0x7fff,
                                       0x8000,
                                       0x7fffffff,
                                       0x80000000,
                                       0xffffffff,
                                       0x7fffffffffffffffull,
                                       0x8000000000000000ull,
                                       0xffffffffffffffffull,
                                       0x0123456789abcdefull};
    for (int arch = 32; arch <= 64; arch += 32) {
        for (int t = 0; t < CTG_T__COUNT; t++) {
            if (t == CTG_T_BYTES || t == CTG_T_BOOL || ctg_type_is_float((enum ctg_type)t))
                continue;
            size_t size = ctg_type_size((enum ctg_type)t, arch);
            for (size_t i = 0; i < sizeof pattern / sizeof pattern[0]; i++) {
                uint8_t b[8];
                for (size_t k = 0; k < 8; k++)
                    b[k] = (uint8_t)(pattern[i] >> (8 * k));
                round_trip((enum ctg_type)t, b, size);
            }
        }
    }
    uint8_t zero = 0, one = 1;
    round_trip(CTG_T_BOOL, &zero, 1);
    round_trip(CTG_T_BOOL, &one, 1);
    round_trip(CTG_T_BYTES, &one, 1);
}

static void test_round_trip_floats(void **state)
{
    (void)state;
    static const float fs[] = {0.0f, -0.0f, 0.1f, -1.5f, FLT_MIN, FLT_MAX, -FLT_MAX,
                               1e-45f /* denormal */, 3.14159274f, 16777217.0f};
    static const double ds[] = {0.0, -0.0, 0.1, 1.0 / 3.0, DBL_MIN, DBL_MAX, -DBL_MAX,
                                4.9406564584124654e-324, 2.718281828459045, 1e300};
    for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
        round_trip(CTG_T_FLOAT, &fs[i], 4);
    for (size_t i = 0; i < sizeof ds / sizeof ds[0]; i++)
        round_trip(CTG_T_DOUBLE, &ds[i], 8);
    float finf = INFINITY, fninf = -INFINITY;
    double dinf = INFINITY, dninf = -INFINITY;
    round_trip(CTG_T_FLOAT, &finf, 4);
    round_trip(CTG_T_FLOAT, &fninf, 4);
    round_trip(CTG_T_DOUBLE, &dinf, 8);
    round_trip(CTG_T_DOUBLE, &dninf, 8);
}

static void test_nan_inf_text(void **state)
{
    (void)state;
    char text[64];
    double d = NAN, nd = -NAN, inf = INFINITY, ninf = -INFINITY;
    test_value_format(CTG_T_DOUBLE, (uint8_t *)&d, 8, text, sizeof text);
    assert_string_equal(text, "nan");
    test_value_format(CTG_T_DOUBLE, (uint8_t *)&nd, 8, text, sizeof text);
    assert_string_equal(text, "-nan");
    test_value_format(CTG_T_DOUBLE, (uint8_t *)&inf, 8, text, sizeof text);
    assert_string_equal(text, "inf");
    test_value_format(CTG_T_DOUBLE, (uint8_t *)&ninf, 8, text, sizeof text);
    assert_string_equal(text, "-inf");
    /* TestCov reads them with scanf: check that scanf agrees */
    const char *spell[] = {"nan", "-nan", "inf", "-inf"};
    for (int i = 0; i < 4; i++) {
        double r;
        float f;
        assert_int_equal(sscanf(spell[i], "%lf", &r), 1);
        assert_int_equal(sscanf(spell[i], "%f", &f), 1);
        uint8_t b[8];
        assert_true(test_value_parse(CTG_T_DOUBLE, spell[i], b, 8, NULL));
        double p;
        memcpy(&p, b, 8);
        assert_true(i < 2 ? isnan(p) && isnan(r) : p == r);
        assert_int_equal(!!signbit(p), !!signbit(r));
    }
    float fn = NAN;
    test_value_format(CTG_T_FLOAT, (uint8_t *)&fn, 4, text, sizeof text);
    assert_string_equal(text, "nan");
}

/* The text we write must mean the same value to scanf with TestCov's formats. */
static void test_scanf_agrees(void **state)
{
    (void)state;
    char text[64];
    int i = INT_MIN;
    test_value_format(CTG_T_INT, (uint8_t *)&i, 4, text, sizeof text);
    assert_string_equal(text, "-2147483648");
    int ri;
    assert_int_equal(sscanf(text, "%d", &ri), 1);
    assert_int_equal(ri, INT_MIN);
    signed char c = -128;
    test_value_format(CTG_T_CHAR, (uint8_t *)&c, 1, text, sizeof text);
    assert_string_equal(text, "-128");
    signed char rc;
    assert_int_equal(sscanf(text, "%hhd", &rc), 1);
    assert_int_equal(rc, -128);
    unsigned long long u = ULLONG_MAX, ru;
    test_value_format(CTG_T_ULONGLONG, (uint8_t *)&u, 8, text, sizeof text);
    assert_string_equal(text, "18446744073709551615");
    assert_int_equal(sscanf(text, "%llu", &ru), 1);
    assert_true(ru == ULLONG_MAX);
    long long ll = LLONG_MIN, rll;
    test_value_format(CTG_T_LONGLONG, (uint8_t *)&ll, 8, text, sizeof text);
    assert_string_equal(text, "-9223372036854775808");
    assert_int_equal(sscanf(text, "%lld", &rll), 1);
    assert_true(rll == LLONG_MIN);
    float f = 0.1f, rf;
    test_value_format(CTG_T_FLOAT, (uint8_t *)&f, 4, text, sizeof text);
    assert_int_equal(sscanf(text, "%f", &rf), 1);
    assert_true(memcmp(&f, &rf, 4) == 0);
    double d = 0.1, rd;
    test_value_format(CTG_T_DOUBLE, (uint8_t *)&d, 8, text, sizeof text);
    assert_int_equal(sscanf(text, "%lf", &rd), 1);
    assert_true(memcmp(&d, &rd, 8) == 0);
    /* pointer and size_t of a 32-bit target: 4 bytes, unsigned */
    check_format(CTG_T_POINTER, 0xffffffffu, 4, "4294967295");
    check_format(CTG_T_SIZE_T, 0xffffffffffffffffull, 8, "18446744073709551615");
    check_format(CTG_T_LONG, 0xffffffffu, 4, "-1");
    check_format(CTG_T_LONG, 0xffffffffu, 8, "4294967295");
    check_format(CTG_T_UCHAR, 0xff, 1, "255");
    check_format(CTG_T_CHAR, 'a', 1, "97");
    check_format(CTG_T_BOOL, 1, 1, "1");
    check_format(CTG_T_BOOL, 0x40, 1, "1");
    check_format(CTG_T_BOOL, 0, 1, "0");
    check_format(CTG_T_BYTES, 0xfe, 1, "254");
}

static void test_parse_forms(void **state)
{
    (void)state;
    assert_int_equal(parse_u(CTG_T_UINT, "-1"), 0xffffffffu);
    assert_int_equal(parse_u(CTG_T_UCHAR, "-1"), 255);
    assert_int_equal(parse_u(CTG_T_USHORT, "-2"), 0xfffe);
    assert_true(parse_u(CTG_T_ULONGLONG, "-1") == ULLONG_MAX);
    assert_true(parse_u(CTG_T_SIZE_T, "-1") == ULLONG_MAX);
    assert_int_equal(parse_u(CTG_T_INT, "0x10"), 16);
    assert_int_equal(parse_u(CTG_T_INT, "0xffffffff"), 0xffffffffu);
    assert_int_equal(parse_u(CTG_T_UCHAR, "0XfF"), 255);
    assert_int_equal(parse_u(CTG_T_CHAR, "'a'"), 'a');
    assert_int_equal(parse_u(CTG_T_CHAR, "' '"), ' ');
    assert_int_equal(parse_u(CTG_T_CHAR, "-128"), 0x80);
    assert_int_equal(parse_u(CTG_T_INT, "  42\n"), 42);
    assert_int_equal(parse_u(CTG_T_INT, "+7"), 7);
    assert_int_equal(parse_u(CTG_T_UINT, "5u"), 5);
    assert_int_equal(parse_u(CTG_T_LONG, "10L"), 10);
    assert_int_equal(parse_u(CTG_T_ULONGLONG, "10ULL"), 10);
    assert_int_equal(parse_u(CTG_T_INT, "010"), 10); /* decimal, as %d reads it */
    assert_int_equal(parse_u(CTG_T_BOOL, "2"), 1);
    assert_int_equal(parse_u(CTG_T_BOOL, "0"), 0);
    /* out of range: saturates like scanf's strtol for signed 64-bit */
    assert_true(parse_u(CTG_T_LONGLONG, "99999999999999999999") == (uint64_t)LLONG_MAX);
    uint8_t b[8];
    assert_true(test_value_parse(CTG_T_FLOAT, "1.5f", b, 4, NULL));
    float f;
    memcpy(&f, b, 4);
    assert_true(f == 1.5f);
    assert_true(test_value_parse(CTG_T_DOUBLE, "-2", b, 8, NULL));
    double d;
    memcpy(&d, b, 8);
    assert_true(d == -2.0);
    assert_true(test_value_parse(CTG_T_DOUBLE, "0x1p-2", b, 8, NULL));
    memcpy(&d, b, 8);
    assert_true(d == 0.25);
}

static void test_parse_malformed(void **state)
{
    (void)state;
    expect_parse_error(CTG_T_INT, "abc", "'abc' is not a valid int");
    expect_parse_error(CTG_T_INT, "", "'' is not a valid int");
    expect_parse_error(CTG_T_INT, "1x", "'1x' is not a valid int");
    expect_parse_error(CTG_T_INT, "0x", "'0x' is not a valid int");
    expect_parse_error(CTG_T_INT, "--1", "'--1' is not a valid int");
    expect_parse_error(CTG_T_INT, "1.5", "'1.5' is not a valid int");
    expect_parse_error(CTG_T_INT, "12 13", "'12 13' is not a valid int");
    expect_parse_error(CTG_T_UINT, "5uuuu", "not a valid unsigned int");
    expect_parse_error(CTG_T_CHAR, "'ab'", "or a quoted character");
    expect_parse_error(CTG_T_DOUBLE, "one", "'one' is not a valid double");
    expect_parse_error(CTG_T_FLOAT, "1.0e", "'1.0e' is not a valid float");
    char longtext[300];
    memset(longtext, '1', sizeof longtext - 1);
    longtext[sizeof longtext - 1] = '\0';
    expect_parse_error(CTG_T_INT, longtext, "too long");
    /* sizes a type cannot have */
    char text[16];
    uint8_t b[16] = {0};
    assert_int_equal(test_value_format(CTG_T_FLOAT, b, 2, text, sizeof text), -1);
    assert_int_equal(test_value_format(CTG_T_BYTES, b, 2, text, sizeof text), -1);
    assert_int_equal(test_value_format(CTG_T_INT, b, 9, text, sizeof text), -1);
    assert_false(test_value_parse(CTG_T_INT, "1", b, 0, NULL));
}

/* ==== tests ============================================================== */

static void test_new_and_sizes(void **state)
{
    (void)state;
    uint8_t data[] = {1, 0, 0, 0, 9, 8, 7};
    ctg_value_rec v[] = {{0, CTG_T_INT, 4}, {4, CTG_T_BYTES, 3}};
    test_t *t = test_new(data, sizeof data, v, 2);
    assert_non_null(t);
    assert_int_equal(test_value_size(t, 0), 4);
    assert_int_equal(test_value_size(t, 1), 3);
    test_free(t);
    test_free(NULL);
    mem_fail_after(1);
    assert_null(test_new(data, sizeof data, v, 2));
    mem_fail_reset();
}

/* ==== archive ============================================================ */

static void test_archive(void **state)
{
    (void)state;
    archive_t *a = archive_new(20, 2);
    assert_non_null(a);
    uint8_t cov[20] = {0};
    exec_result r = {0};
    r.kind = EXEC_NORMAL;
    cov[3] = 1;
    cov[17] = 200;
    assert_int_equal(archive_would_add(a, cov, &r), 2);
    assert_int_equal(archive_covered_edges(a), 0);
    assert_int_equal(archive_update(a, cov, &r), 2);
    assert_int_equal(archive_update(a, cov, &r), 0);
    assert_int_equal(archive_would_add(a, cov, &r), 0);
    assert_true(archive_edge_covered(a, 3));
    assert_true(archive_edge_covered(a, 17));
    assert_false(archive_edge_covered(a, 4));
    assert_false(archive_edge_covered(a, 1000));
    assert_int_equal(archive_covered_edges(a), 2);
    assert_true(archive_edge_bits(a)[0] == ((1u << 3) | (1u << 17)));
    /* an error site is a goal of its own */
    r.kind = EXEC_ERROR;
    r.error_site = 1;
    assert_int_equal(archive_would_add(a, cov, &r), 1);
    assert_int_equal(archive_update(a, cov, &r), 1);
    assert_true(archive_error_reached(a, 1));
    assert_false(archive_error_reached(a, 0));
    assert_int_equal(archive_update(a, cov, &r), 0);
    assert_int_equal(archive_reached_errors(a), 1);
    /* an unnumbered site (the runtime's 0xffffffff) is one more goal */
    assert_int_equal(archive_n_errors(a), 2);
    r.error_site = 0xffffffffu;
    assert_false(archive_error_reached(a, 0xffffffffu));
    assert_int_equal(archive_would_add(a, NULL, &r), 1);
    assert_int_equal(archive_update(a, NULL, &r), 1);
    assert_int_equal(archive_would_add(a, NULL, &r), 0);
    assert_int_equal(archive_update(a, NULL, &r), 0);
    assert_true(archive_error_reached(a, 0xffffffffu));
    assert_int_equal(archive_n_errors(a), 3);
    assert_int_equal(archive_reached_errors(a), 2);
    /* a failed assumption counts for nothing */
    memset(cov, 1, sizeof cov);
    r.kind = EXEC_ASSUME;
    assert_int_equal(archive_would_add(a, cov, &r), 0);
    assert_int_equal(archive_update(a, cov, &r), 0);
    r.kind = EXEC_CRASH;
    assert_int_equal(archive_update(a, cov, &r), 18);
    assert_int_equal(archive_covered_edges(a), 20);
    assert_int_equal(archive_n_edges(a), 20);
    archive_free(a);
    archive_free(NULL);
}

/* ==== writer and reader ================================================== */

static const suite_meta meta = {"examples/triangle.c", "ab12", "main", 64, NULL, "ctestgen test", false, NULL, 0, false};

/* A test of three values: int, unsigned char, double. */
static test_t *sample_test(exec_kind kind)
{
    uint8_t data[13];
    int i = -5;
    double d = 0.5;
    memcpy(data, &i, 4);
    data[4] = 200;
    memcpy(data + 5, &d, 8);
    ctg_value_rec v[] = {{0, CTG_T_INT, 4}, {4, CTG_T_UCHAR, 1}, {5, CTG_T_DOUBLE, 8}};
    test_t *t = test_new(data, sizeof data, v, 3);
    t->kind = kind;
    return t;
}

/* Validates a file against the DTDs of tests/dtd with libxml2. */
static void validate_dtd(const char *xml, const char *dtd_name)
{
    char dtd_path[512];
    snprintf(dtd_path, sizeof dtd_path, "%s/tests/dtd/%s", getenv("CTG_SOURCE_DIR"), dtd_name);
    xmlDtdPtr dtd = xmlParseDTD(NULL, BAD_CAST dtd_path);
    assert_non_null(dtd);
    xmlDocPtr doc = xmlReadFile(xml, NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlValidCtxtPtr vc = xmlNewValidCtxt();
    if (!xmlValidateDtd(vc, doc, dtd))
        fail_msg("%s does not validate against %s", xml, dtd_name);
    xmlFreeValidCtxt(vc);
    xmlFreeDoc(doc);
    xmlFreeDtd(dtd);
}

static void test_writer_validates(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    suite_t *s = suite_open(tmp_path("out"), &meta, &e);
    assert_non_null(s);
    test_t *t = sample_test(EXEC_NORMAL), *te = sample_test(EXEC_ERROR);
    assert_true(suite_add(s, t, &e));
    assert_true(suite_add(s, te, &e));
    assert_int_equal(suite_n_tests(s), 2);
    suite_close(s);
    test_free(t);
    test_free(te);
    validate_dtd(tmp_path("out/test-suite/metadata.xml"), "test-metadata-1.1.dtd");
    validate_dtd(tmp_path("out/test-suite/test-00000.xml"), "testcase-1.1.dtd");
    validate_dtd(tmp_path("out/test-suite/test-00001.xml"), "testcase-1.1.dtd");
    /* and xmllint --valid, as users run it */
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "xmllint --noout --valid --nonet --path %s/tests/dtd %s/out/test-suite/*.xml",
             getenv("CTG_SOURCE_DIR"), tmp_root);
    if (system("command -v xmllint >/dev/null 2>&1") == 0)
        assert_int_equal(system(cmd), 0);
    char *text = NULL;
    assert_true(fs_read(tmp_path("out/test-suite/test-00001.xml"), &text, NULL, NULL));
    assert_non_null(strstr(text, "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format "
                                 "testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">"));
    assert_non_null(strstr(text, "<testcase coversError=\"true\">"));
    assert_non_null(strstr(text, "<input type=\"int\">-5</input>"));
    assert_non_null(strstr(text, "<input type=\"unsigned char\">200</input>"));
    assert_non_null(strstr(text, "<input type=\"double\">0.5</input>"));
    ctg_free(text);
    assert_true(fs_read(tmp_path("out/test-suite/test-00000.xml"), &text, NULL, NULL));
    assert_null(strstr(text, "coversError"));
    ctg_free(text);
    assert_true(fs_read(tmp_path("out/test-suite/metadata.xml"), &text, NULL, NULL));
    assert_non_null(strstr(text, "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD "
                                 "test-format test-metadata 1.1//EN\" "
                                 "\"https://sosy-lab.org/test-format/test-metadata-1.1.dtd\">"));
    assert_non_null(strstr(text, "<architecture>64bit</architecture>"));
    assert_non_null(strstr(text, "<programhash>ab12</programhash>"));
    assert_non_null(strstr(text, "<producer>ctestgen test</producer>"));
    ctg_free(text);
    /* the raw corpus holds the bytes */
    size_t len;
    assert_true(fs_read(tmp_path("out/corpus/id-00001"), &text, &len, NULL));
    assert_int_equal(len, 13);
    assert_int_equal((uint8_t)text[4], 200);
    ctg_free(text);
}

static void test_metadata_read_back(void **state)
{
    (void)state;
    suite_meta m32 = meta;
    m32.arch_bits = 32;
    ctg_err e = {{0}};
    suite_t *s = suite_open(tmp_path("m32"), &m32, &e);
    assert_non_null(s);
    suite_close(s);
    suite_metadata md;
    assert_true(suite_read_metadata(tmp_path("m32/test-suite/metadata.xml"), &md, &e));
    assert_int_equal(md.arch_bits, 32);
    assert_string_equal(md.program_file, "examples/triangle.c");
    assert_string_equal(md.program_hash, "ab12");
    assert_string_equal(md.entry, "main");
    assert_non_null(strstr(md.specification, "COVER"));
    assert_int_equal(strlen(md.creation_time), 20); /* 2024-01-02T03:04:05Z */
    assert_int_equal(md.creation_time[10], 'T');
    suite_metadata_release(&md);
}

static void test_reader_round_trip(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    suite_t *s = suite_open(tmp_path("rt"), &meta, &e);
    test_t *t = sample_test(EXEC_ERROR);
    assert_true(suite_add(s, t, &e));
    suite_close(s);
    test_t *back = NULL;
    bool ce = false;
    assert_true(suite_read_testcase(tmp_path("rt/test-suite/test-00000.xml"), 64, CTG_T_INT, &back,
                                    &ce, &e));
    assert_true(ce);
    assert_int_equal(back->kind, EXEC_ERROR);
    assert_int_equal(back->len, t->len);
    assert_memory_equal(back->data, t->data, t->len);
    assert_int_equal(back->n_vals, 3);
    assert_memory_equal(back->vals, t->vals, 3 * sizeof *t->vals);
    test_free(back);
    test_free(t);
    /* type attributes missing: the default type sized for the arch */
    write_file(tmp_path("plain.xml"), "<testcase>\n<input>1</input>\n<input>-1</input>\n</testcase>\n");
    assert_true(suite_read_testcase(tmp_path("plain.xml"), 32, CTG_T_LONG, &back, &ce, &e));
    assert_false(ce);
    assert_int_equal(back->len, 8);
    assert_int_equal(back->vals[1].offset, 4);
    assert_int_equal(back->vals[1].type, CTG_T_LONG);
    assert_int_equal(back->data[4], 0xff);
    test_free(back);
    /* libFuzzer: one byte array */
    write_file(tmp_path("fuzz.xml"), "<testcase><input type=\"unsigned char\">65</input>"
                                     "<input type=\"unsigned char\">66</input><input>'C'</input>"
                                     "</testcase>");
    assert_true(suite_read_testcase(tmp_path("fuzz.xml"), 64, CTG_T_BYTES, &back, NULL, &e));
    assert_int_equal(back->n_vals, 1);
    assert_int_equal(back->vals[0].type, CTG_T_BYTES);
    assert_int_equal(test_value_size(back, 0), 3);
    assert_memory_equal(back->data, "ABC", 3);
    test_free(back);
}

static void test_bytes_written_per_byte(void **state)
{
    (void)state;
    uint8_t data[] = {'h', 'i', 0};
    ctg_value_rec v = {0, CTG_T_BYTES, 3};
    test_t *t = test_new(data, 3, &v, 1);
    ctg_err e = {{0}};
    assert_true(suite_write_testcase(tmp_path("bytes.xml"), t, false, &e));
    validate_dtd(tmp_path("bytes.xml"), "testcase-1.1.dtd");
    suite_testcase tc;
    assert_true(suite_parse_testcase(tmp_path("bytes.xml"), &tc, &e));
    assert_int_equal(tc.n_inputs, 3);
    assert_string_equal(tc.inputs[0].text, "104");
    assert_string_equal(tc.inputs[0].type, "unsigned char");
    assert_string_equal(tc.inputs[2].text, "0");
    suite_testcase_release(&tc);
    test_free(t);
    /* a value outside the data is refused, nothing is written */
    ctg_value_rec bad = {2, CTG_T_INT, 4};
    t = test_new(data, 3, &bad, 1);
    assert_false(suite_write_testcase(tmp_path("bad.xml"), t, false, &e));
    assert_non_null(strstr(e.msg, "outside"));
    assert_false(fs_exists(tmp_path("bad.xml")));
    test_free(t);
}

/* The reader's error for path must be one line, name the file and contain want. */
static void expect_read_error(const char *path, const char *want)
{
    test_t *t = NULL;
    ctg_err e = {{0}};
    assert_false(suite_read_testcase(path, 64, CTG_T_INT, &t, NULL, &e));
    assert_null(t);
    if (!strstr(e.msg, want) || strncmp(e.msg, path, strlen(path)) != 0)
        fail_msg("error for %s: '%s' (want '%s')", path, e.msg, want);
    assert_null(strchr(e.msg, '\n'));
}

static void test_reader_errors(void **state)
{
    (void)state;
    expect_read_error(tmp_path("missing.xml"), "missing.xml: cannot open: No such file");
    write_file(tmp_path("notxml.xml"), "this is not XML\n");
    expect_read_error(tmp_path("notxml.xml"), "notxml.xml:1: not a well-formed XML file");
    write_file(tmp_path("empty.xml"), "");
    expect_read_error(tmp_path("empty.xml"), "empty.xml:1: not a well-formed XML file");
    write_file(tmp_path("broken.xml"), "<testcase>\n<input>1</input>\n<input>2</inpt>\n</testcase>\n");
    expect_read_error(tmp_path("broken.xml"), "broken.xml:3: not a well-formed XML file");
    write_file(tmp_path("root.xml"), "<?xml version=\"1.0\"?>\n\n<test-metadata>\n</test-metadata>\n");
    expect_read_error(tmp_path("root.xml"),
                      "root.xml:3: not a testcase document (root element <test-metadata>)");
    write_file(tmp_path("value.xml"), "<testcase>\n  <input type=\"int\">1</input>\n"
                                      "  <input type=\"int\">12abc</input>\n</testcase>\n");
    expect_read_error(tmp_path("value.xml"),
                      "value.xml:3: input 2: '12abc' is not a valid int");
    write_file(tmp_path("type.xml"), "<testcase>\n<input type=\"struct s\">1</input>\n</testcase>\n");
    expect_read_error(tmp_path("type.xml"), "type.xml:2: unknown input type 'struct s'");
    ctg_err e = {{0}};
    suite_metadata md;
    assert_false(suite_read_metadata(tmp_path("value.xml"), &md, &e));
    assert_non_null(strstr(e.msg, "not a test-metadata document"));
}

static void test_crash_files(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    suite_t *s = suite_open(tmp_path("cr"), &meta, &e);
    test_t *t = sample_test(EXEC_CRASH);
    t->found_at_exec = 42;
    exec_result r = {0};
    r.kind = EXEC_CRASH;
    r.signal = 11;
    write_file(tmp_path("prog.cov"), "#!/bin/sh\n");
    unsigned num = 99;
    suite_crash_info ci = {.repro_binary = tmp_path("prog.cov")};
    assert_true(suite_add_crash(s, t, &r, &ci, &num, &e));
    assert_int_equal(num, 0);
    r.kind = EXEC_ABORT;
    r.signal = 6;
    r.crash_site = 0x1a2b;
    suite_crash_info bug = {tmp_path("prog.cov"), "abort in f at /x/a.c:3",
                            "    #0 in f /x/a.c:3:5\n    #1 in main /x/a.c:9:1"};
    assert_true(suite_add_crash(s, t, &r, &bug, &num, &e));
    assert_int_equal(num, 1);
    r.kind = EXEC_TIMEOUT;
    r.crash_site = 0;
    assert_true(suite_add_crash(s, t, &r, &ci, NULL, &e));
    assert_int_equal(suite_n_crashes(s), 3);
    assert_string_equal(suite_dir(s), tmp_path("cr"));
    suite_close(s);
    assert_true(fs_exists(tmp_path("cr/crashes/crash-00000")));
    assert_true(fs_exists(tmp_path("cr/crashes/abort-00001")));
    assert_true(fs_exists(tmp_path("cr/crashes/timeout-00002")));
    char *text;
    assert_true(fs_read(tmp_path("cr/crashes/crash-00000.txt"), &text, NULL, NULL));
    char want[1024];
    snprintf(want, sizeof want,
             "crash: signal 11 (Segmentation fault); 13 input bytes; found at execution 42 after "
             "0.0 s\n"
             "CTESTGEN_INPUT=%s/cr/crashes/crash-00000 %s/cr/bin/prog.cov\n",
             tmp_root, tmp_root);
    assert_string_equal(text, want); /* the binary is copied into the output */
    assert_true(fs_exists(tmp_path("cr/bin/prog.cov")));
    ctg_free(text);
    assert_true(fs_read(tmp_path("cr/crashes/abort-00001.txt"), &text, NULL, NULL));
    assert_non_null(strstr(text, "abort: signal 6 (Aborted) at site 0x1a2b; 13 input bytes;"));
    assert_non_null(strstr(text, "\nbug: abort in f at /x/a.c:3\nreport:\n      #0 in f /x/a.c:3:5\n"));
    assert_non_null(strstr(text, "reproduce (from any directory):\nCTESTGEN_INPUT="));
    ctg_free(text);
    /* a smaller input of crash 1 replaces it in place */
    test_t *small = test_new((const uint8_t *)"\x07", 1, NULL, 0);
    small->found_at_exec = 50;
    r.kind = EXEC_ABORT;
    r.crash_site = 0x1a2b;
    s = suite_open(tmp_path("cr"), &meta, &e);
    assert_true(suite_replace_crash(s, 1, small, &r, NULL, &e));
    assert_int_equal(suite_n_crashes(s), 3); /* counts the crash files on disk */
    suite_close(s);
    size_t n_raw = 0;
    assert_true(fs_read(tmp_path("cr/crashes/abort-00001"), &text, &n_raw, NULL));
    assert_int_equal(n_raw, 1);
    assert_int_equal(text[0], 7);
    ctg_free(text);
    assert_true(fs_read(tmp_path("cr/crashes/abort-00001.txt"), &text, NULL, NULL));
    assert_non_null(strstr(text, "at site 0x1a2b; 1 input byte; found at execution 50"));
    ctg_free(text);
    test_free(small);
    r.kind = EXEC_TIMEOUT;
    r.crash_site = 0;
    /* reopening continues the numbering, nothing is overwritten */
    s = suite_open(tmp_path("cr"), &meta, &e);
    t->kind = EXEC_NORMAL;
    assert_true(suite_add(s, t, &e));
    assert_true(suite_add_crash(s, t, &r, NULL, NULL, &e));
    suite_close(s);
    assert_true(fs_exists(tmp_path("cr/crashes/timeout-00003")));
    assert_true(fs_exists(tmp_path("cr/test-suite/test-00000.xml")));
    s = suite_open(tmp_path("cr"), &meta, &e);
    assert_true(suite_add(s, t, &e));
    suite_close(s);
    assert_true(fs_exists(tmp_path("cr/test-suite/test-00001.xml")));
    assert_true(fs_exists(tmp_path("cr/corpus/id-00001")));
    char **list;
    size_t n;
    assert_true(suite_list_testcases(tmp_path("cr/test-suite"), &list, &n, &e));
    assert_int_equal(n, 2);
    assert_string_equal(list[0], tmp_path("cr/test-suite/test-00000.xml"));
    suite_free_list(list, n);
    test_free(t);
}

static void test_open_errors(void **state)
{
    (void)state;
    write_file(tmp_path("afile"), "x");
    ctg_err e = {{0}};
    assert_null(suite_open(tmp_path("afile"), &meta, &e));
    assert_non_null(strstr(e.msg, "afile"));
    assert_null(strchr(e.msg, '\n'));
}

static void test_hash(void **state)
{
    (void)state;
    char hex[HASH_HEX_LEN + 1];
    assert_true(hash_buffer("abc", 3, hex));
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    write_file(tmp_path("abc.txt"), "abc");
    assert_true(hash_file(tmp_path("abc.txt"), hex, NULL));
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    ctg_err e = {{0}};
    assert_false(hash_file(tmp_path("nope.txt"), hex, &e));
    assert_non_null(strstr(e.msg, "nope.txt: cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_type_sizes),
        cmocka_unit_test(test_type_names),
        cmocka_unit_test(test_round_trip_every_type),
        cmocka_unit_test(test_round_trip_floats),
        cmocka_unit_test(test_nan_inf_text),
        cmocka_unit_test(test_scanf_agrees),
        cmocka_unit_test(test_parse_forms),
        cmocka_unit_test(test_parse_malformed),
        cmocka_unit_test(test_new_and_sizes),
        cmocka_unit_test(test_archive),
        cmocka_unit_test(test_writer_validates),
        cmocka_unit_test(test_metadata_read_back),
        cmocka_unit_test(test_reader_round_trip),
        cmocka_unit_test(test_bytes_written_per_byte),
        cmocka_unit_test(test_reader_errors),
        cmocka_unit_test(test_crash_files),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_hash),
    };
    return cmocka_run_group_tests(tests, make_tmp, drop_tmp);
}
