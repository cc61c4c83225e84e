/*
 * test.c - tests as typed value sequences (see test.h): construction, the
 * value types of the input model and their sizes per architecture, and the
 * text form of values in the Test-Comp test format.
 *
 * The text form follows what TestCov's harness reads: every value is one
 * line parsed by scanf with the format of its type ("%d", "%hhu", "%lf",
 * ...), with 0x-prefixed hex and a quoted character for char accepted, and
 * up to three C literal suffixes (u, l, f) tolerated.  _Bool is read as an
 * int and converted, pointer as unsigned long.
 */
#include "test.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"

/* ==== tests ============================================================== */

test_t *test_new(const uint8_t *data, size_t len, const ctg_value_rec *vals, size_t n_vals)
{
    test_t *t = ctg_calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->data = ctg_malloc(len);
    t->vals = ctg_malloc(n_vals * sizeof *vals);
    if (!t->data || !t->vals) {
        test_free(t);
        return NULL;
    }
    if (len)
        memcpy(t->data, data, len);
    if (n_vals)
        memcpy(t->vals, vals, n_vals * sizeof *vals);
    t->len = len;
    t->n_vals = n_vals;
    return t;
}

void test_free(test_t *t)
{
    if (!t)
        return;
    ctg_free(t->data);
    ctg_free(t->vals);
    ctg_free(t);
}

size_t test_value_size(const test_t *t, size_t i)
{
    const ctg_value_rec *v = &t->vals[i];
    if (v->type == CTG_T_BYTES)
        return v->offset <= t->len ? t->len - v->offset : 0;
    return v->size;
}

/* ==== text form of values ================================================ */

/* Little-endian bytes to an unsigned 64-bit number (size <= 8). */
static uint64_t load_le(const uint8_t *b, size_t size)
{
    uint64_t u = 0;
    for (size_t i = size; i-- > 0;)
        u = (u << 8) | b[i];
    return u;
}

static void store_le(uint64_t u, uint8_t *b, size_t size)
{
    for (size_t i = 0; i < size; i++, u >>= 8)
        b[i] = (uint8_t)u;
}

/* Sign-extends the low size*8 bits of u. */
static int64_t sign_extend(uint64_t u, size_t size)
{
    if (size >= 8)
        return (int64_t)u;
    unsigned bits = (unsigned)size * 8;
    uint64_t m = (uint64_t)1 << (bits - 1);
    u &= (m << 1) - 1;
    return (int64_t)((u ^ m) - m);
}

/* nan/inf as glibc's printf spells them and scanf("%lf") reads them back;
 * other values with enough digits to round-trip (9 for float, 17 for double). */
static int format_float(double d, int digits, char *out, size_t cap)
{
    if (isnan(d))
        return snprintf(out, cap, "%s", signbit(d) ? "-nan" : "nan");
    if (isinf(d))
        return snprintf(out, cap, "%s", d < 0 ? "-inf" : "inf");
    return snprintf(out, cap, "%.*g", digits, d);
}

int test_value_format(enum ctg_type t, const uint8_t *bytes, size_t size, char *out, size_t cap)
{
    if ((unsigned)t >= CTG_T__COUNT || size == 0 || size > 8 ||
        (t == CTG_T_BYTES && size != 1)) {
        if (cap)
            out[0] = '\0';
        return -1;
    }
    if (ctg_type_is_float(t)) {
        if (size == 4) {
            float f;
            memcpy(&f, bytes, 4);
            return format_float(f, 9, out, cap);
        }
        if (size == 8) {
            double d;
            memcpy(&d, bytes, 8);
            return format_float(d, 17, out, cap);
        }
        if (cap)
            out[0] = '\0';
        return -1;
    }
    uint64_t u = load_le(bytes, size);
    if (t == CTG_T_BOOL)
        return snprintf(out, cap, "%d", u != 0);
    if (ctg_type_is_signed(t))
        return snprintf(out, cap, "%" PRId64, sign_extend(u, size));
    return snprintf(out, cap, "%" PRIu64, u);
}

/* True when s (after the number) holds at most three literal suffix letters,
 * the leftovers TestCov's harness tolerates. */
static bool only_suffixes(const char *s)
{
    size_t n = strspn(s, "uUlLfF");
    return n <= 3 && s[n] == '\0';
}

/* Parses an integer as scanf would for the given signedness: decimal, or hex
 * after 0x; out-of-range values saturate like strtoll/strtoull, negative
 * values wrap for unsigned types.  False on text that is not a number. */
static bool parse_int(const char *s, bool is_signed, uint64_t *u)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    int base = (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) ? 16 : 10;
    if (!isxdigit((unsigned char)p[base == 16 ? 2 : 0]) ||
        (base == 10 && !isdigit((unsigned char)*p)))
        return false;
    char *end;
    errno = 0;
    if (is_signed && base == 10)
        *u = (uint64_t)strtoll(s, &end, 10);
    else
        *u = strtoull(s, &end, base);
    return end != s && only_suffixes(end);
}

/* Parses a floating-point literal as strtod does (nan, inf, hex floats). */
static bool parse_float(const char *s, size_t size, uint8_t *bytes)
{
    char *end;
    if (size == 4) {
        float f = strtof(s, &end);
        memcpy(bytes, &f, 4);
    } else {
        double d = strtod(s, &end);
        memcpy(bytes, &d, 8);
    }
    return end != s && only_suffixes(end);
}

/* A quoted character ('a') as TestCov reads it for char: the quotes are
 * dropped and the character taken as is. */
static bool parse_quoted(const char *s, uint64_t *u)
{
    size_t n = strlen(s);
    if (n != 3 || s[0] != '\'' || s[2] != '\'')
        return false;
    *u = (unsigned char)s[1];
    return true;
}

/* Copies text without surrounding white space into buf; false when it does
 * not fit. */
static bool trim_copy(const char *text, char *buf, size_t cap)
{
    while (isspace((unsigned char)*text))
        text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1]))
        n--;
    if (n >= cap)
        return false;
    memcpy(buf, text, n);
    buf[n] = '\0';
    return true;
}

bool test_value_parse(enum ctg_type t, const char *text, uint8_t *bytes, size_t size, ctg_err *e)
{
    char buf[128];
    const char *tn = ctg_type_name(t);
    if ((unsigned)t >= CTG_T__COUNT || size == 0 || size > 8)
        return err_set(e, "cannot store a %s value in %zu bytes", tn, size);
    if (!trim_copy(text, buf, sizeof buf))
        return err_set(e, "value of %zu characters is too long for a %s", strlen(text), tn);
    if (ctg_type_is_float(t)) {
        if ((size == 4 || size == 8) && parse_float(buf, size, bytes))
            return true;
        return err_set(e, "'%s' is not a valid %s (expected a decimal number, nan or inf)", buf, tn);
    }
    uint64_t u;
    bool is_char = t == CTG_T_CHAR || t == CTG_T_UCHAR || t == CTG_T_BYTES;
    bool ok = (is_char && parse_quoted(buf, &u)) ||
              parse_int(buf, ctg_type_is_signed(t) || t == CTG_T_BOOL, &u);
    if (!ok)
        return err_set(e, "'%s' is not a valid %s (expected a decimal or 0x number%s)", buf, tn,
                       is_char ? " or a quoted character" : "");
    if (t == CTG_T_BOOL) /* TestCov: (_Bool) of an int read with %d */
        u = (uint32_t)u != 0;
    store_le(u, bytes, size);
    return true;
}
