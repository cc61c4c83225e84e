/*
 * sym_libc.c - models of the libc string functions for the symbolic
 * runtime, so that comparisons of input strings stay symbolic: strcmp,
 * strncmp, memcmp/bcmp and strlen get a result expression, strchr a pointer
 * expression, strcpy/strncpy and strcat copy the shadow of the bytes they
 * copy.
 *
 * A compare reads position i of both strings while both bytes are known to
 * exist: up to the concrete terminator, and beyond it while the byte's
 * shadow is symbolic (memory the program wrote), at most SYM_STR_MAX
 * positions.  From the last position backwards the result is
 *     r_i = a_i != b_i ? a_i - b_i : (a_i == 0 ? 0 : r_{i+1})
 * with positions whose bytes are both concrete folded here, so only the
 * symbolic part reaches the trace.  After the n-th position of a bounded
 * compare (strncmp, memcmp) the result is 0; beyond the last position known
 * to exist it is taken as 1 ("differs later"): the concrete run never gets
 * there, so the approximation only costs completeness.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sym_int.h"

#define SYM_STR_MAX 128u /* positions a model looks at */

/* One position of a compare: the 8-bit shadows (0: concrete) and values. */
typedef struct sym_pos {
    uint32_t sa, sb;
    uint8_t a, b;
} sym_pos;

/* True when byte i of a string whose concrete terminator is at `len` is
 * known to exist. */
static int sym_known(const char *s, size_t len, size_t i)
{
    return i <= len || sym_mem_sym((uintptr_t)(s + i));
}

/* Collects positions of a string compare of a and b (at most `max`) into
 * pos; returns how many, or 0 when every byte read is concrete.  *all is
 * set when the compare looked at all `max` positions. */
static size_t sym_str_positions(const char *a, const char *b, size_t max, int strings,
                                sym_pos *pos, int *all)
{
    size_t la = strings ? strnlen(a, max) : max, lb = strings ? strnlen(b, max) : max, n = 0;
    int any = 0;
    *all = 0;
    for (size_t i = 0; i < max; i++) {
        if (strings && (!sym_known(a, la, i) || !sym_known(b, lb, i)))
            break;
        sym_pos *p = &pos[n++];
        p->sa = sym_mem_byte((uintptr_t)(a + i));
        p->sb = sym_mem_byte((uintptr_t)(b + i));
        p->a = (uint8_t)a[i];
        p->b = (uint8_t)b[i];
        any |= p->sa || p->sb;
        if (strings && ((!p->sa && !p->a) || (!p->sb && !p->b)))
            break; /* a concrete terminator: nothing after it matters */
        *all = i + 1 == max;
    }
    return any ? n : 0;
}

/* a_i - b_i as a w-bit value. */
static uint32_t sym_diff(const sym_pos *p, unsigned w)
{
    uint32_t x = sym_zext(sym_val(p->sa, p->a, 8), w), y = sym_zext(sym_val(p->sb, p->b, 8), w);
    return sym_mk(CTG_SOP_SUB, w, 0, 2, x, y, 0);
}

/* The result expression of a compare over pos[0..n) (see the file
 * comment); strings: stop at a common NUL. */
static uint32_t sym_compare(const sym_pos *pos, size_t n, int strings, unsigned w, uint64_t tail)
{
    uint32_t r = sym_const(w, tail);
    for (size_t i = n; r && i-- > 0;) {
        const sym_pos *p = &pos[i];
        if (!p->sa && !p->sb) { /* fold a concrete position */
            if (p->a != p->b)
                r = sym_const(w, (uint64_t)(int64_t)((int)p->a - (int)p->b));
            else if (strings && p->a == 0)
                r = sym_const(w, 0);
            continue;
        }
        uint32_t va = sym_val(p->sa, p->a, 8), vb = sym_val(p->sb, p->b, 8);
        uint32_t ne = sym_mk(CTG_SOP_ICMP, 1, 33 /* ne */, 2, va, vb, 0);
        if (strings) {
            uint32_t end = sym_mk(CTG_SOP_ICMP, 1, 32 /* eq */, 2, va, sym_const(8, 0), 0);
            r = sym_mk(CTG_SOP_ITE, w, 0, 3, end, sym_const(w, 0), r);
        }
        r = sym_mk(CTG_SOP_ITE, w, 0, 3, ne, sym_diff(p, w), r);
    }
    return r;
}

/* Shared body of the compare models. */
static uint32_t sym_cmp_model(const void *a, const void *b, uint64_t n, uint32_t sn, int strings,
                              uint32_t w)
{
    if (sn && sym_ok(sn, (unsigned)(sizeof(void *) * 8u)))
        sym_concretize(sn, n);
    if (!__ctg_sym_live || w < 1 || w > 64 || !a || !b)
        return 0;
    sym_pos pos[SYM_STR_MAX];
    int all;
    size_t max = n < SYM_STR_MAX ? (size_t)n : SYM_STR_MAX;
    size_t k = sym_str_positions(a, b, max, strings, pos, &all);
    if (!k)
        return 0;
    /* past the n-th position of a bounded compare the operands are equal;
     * past the last position known to exist they are taken to differ */
    return sym_compare(pos, k, strings, w, all && max == n ? 0u : 1u);
}

uint32_t __ctg_sym_strcmp(const char *a, const char *b, uint32_t w)
{
    return sym_cmp_model(a, b, UINT64_MAX, 0, 1, w);
}

uint32_t __ctg_sym_strncmp(const char *a, const char *b, uint64_t n, uint32_t sn, uint32_t w)
{
    return sym_cmp_model(a, b, n, sn, 1, w);
}

uint32_t __ctg_sym_memcmp(const void *a, const void *b, uint64_t n, uint32_t sn, uint32_t w)
{
    return sym_cmp_model(a, b, n, sn, 0, w);
}

uint32_t __ctg_sym_strlen(const char *s, uint32_t w)
{
    if (!__ctg_sym_live || w < 1 || w > 64 || !s)
        return 0;
    size_t len = strlen(s), last = len;
    while (last + 1 < len + SYM_STR_MAX && sym_mem_sym((uintptr_t)(s + last + 1)))
        last++; /* symbolic bytes past the terminator may become characters */
    uint32_t r = 0;
    int any = 0;
    for (size_t i = last + 1; i-- > 0;) {
        uint32_t b = sym_mem_byte((uintptr_t)(s + i));
        if (!b) {
            if (!s[i] || i == last)
                r = sym_const(w, s[i] ? i + 1 : i); /* a concrete end */
            continue;
        }
        any = 1;
        if (!r)
            r = sym_const(w, i + 1);
        uint32_t z = sym_mk(CTG_SOP_ICMP, 1, 32 /* eq */, 2, b, sym_const(8, 0), 0);
        r = sym_mk(CTG_SOP_ITE, w, 0, 3, z, sym_const(w, i), r);
        if (!r)
            return 0;
    }
    return any ? r : 0;
}

uint32_t __ctg_sym_strchr(const char *s, uint32_t c, uint32_t sc)
{
    unsigned pw = (unsigned)(sizeof(void *) * 8u);
    if (!__ctg_sym_live || !s || !sym_ok(sc, 8))
        return 0;
    size_t len = strlen(s), last = len;
    while (last + 1 < len + SYM_STR_MAX && sym_mem_sym((uintptr_t)(s + last + 1)))
        last++;
    int any = sc != 0;
    for (size_t i = 0; i <= last && !any; i++)
        any = sym_mem_sym((uintptr_t)(s + i));
    if (!any)
        return 0;
    uint32_t vc = sym_val(sc, c & 0xffu, 8), zero = sym_const(8, 0);
    uint32_t r = sym_const(pw, 0); /* past the last known byte: not found */
    for (size_t i = last + 1; r && i-- > 0;) {
        uint32_t b = sym_val(sym_mem_byte((uintptr_t)(s + i)), (uint8_t)s[i], 8);
        uint32_t hit = sym_mk(CTG_SOP_ICMP, 1, 32 /* eq */, 2, b, vc, 0);
        uint32_t end = sym_mk(CTG_SOP_ICMP, 1, 32 /* eq */, 2, b, zero, 0);
        r = sym_mk(CTG_SOP_ITE, pw, 0, 3, end, sym_const(pw, 0), r);
        r = sym_mk(CTG_SOP_ITE, pw, 0, 3, hit, sym_const(pw, (uint64_t)(uintptr_t)(s + i)), r);
    }
    return r;
}

void __ctg_sym_strcpy(char *d, const char *s, uint64_t n)
{
    if (!__ctg_sym_live || !d || !s)
        return;
    uint64_t len = strnlen(s, n > SIZE_MAX ? SIZE_MAX : (size_t)n);
    uint64_t c = len < n ? len + 1 : n; /* with the terminator when it fits */
    sym_mem_copy((uintptr_t)d, (uintptr_t)s, c);
    if (n != UINT64_MAX && c < n)
        sym_mem_clear((uintptr_t)d + c, n - c); /* strncpy pads with zeros */
}

void __ctg_sym_strcat(char *d, const char *s)
{
    if (!__ctg_sym_live || !d || !s)
        return;
    sym_mem_copy((uintptr_t)d + strlen(d), (uintptr_t)s, strlen(s) + 1);
}

/* ==== stdin (stdin targets: rt_feed_input made the input fd 0) ============== */

/* Input offset of stream byte 0: that of the run's CTG_T_BYTES value. */
static uint32_t sym_stdin_base(void)
{
    uint32_t n = rt_g.hdr->n_values;
    for (uint32_t i = 0; rt_g.values && i < n && i < CTG_MAX_VALUES; i++)
        if (rt_g.values[i].type == CTG_T_BYTES)
            return rt_g.values[i].offset;
    return 0;
}

uint32_t __ctg_sym_stdin_char(uint64_t ret)
{
    long pos = ftell(stdin);
    if ((int32_t)ret < 0 || pos <= 0 || sym_g.off)
        return 0; /* EOF stays concrete */
    uint32_t b = sym_input_byte(sym_stdin_base() + (uint32_t)pos - 1u);
    return b ? sym_zext(b, 32) : 0;
}

void __ctg_sym_stdin_buf(void *buf, uint64_t ret, uint64_t size, uint32_t kind)
{
    uint64_t n;
    long pos;
    if (kind == CTG_SYM_STDIN_FGETS) {
        if (!ret)
            return;
        n = strlen(buf);
        pos = ftell(stdin);
    } else if (kind == CTG_SYM_STDIN_FREAD) {
        n = ret * size;
        pos = ftell(stdin);
    } else {
        if ((int64_t)ret <= 0)
            return;
        n = ret;
        pos = (long)lseek(0, 0, SEEK_CUR);
    }
    if (sym_g.off || pos < 0 || (uint64_t)pos < n || n > CTG_MAX_INPUT)
        return;
    sym_mem_input((uintptr_t)buf, n, sym_stdin_base() + (uint32_t)((uint64_t)pos - n));
}

/* ==== scanf on stdin ======================================================== */

/* An ASSUME entry: the condition c (w 1) held and must hold. */
static void sym_require(uint32_t c) { sym_push(c, CTG_SYM_NONE, CTG_SPC_ASSUME, 0, 1); }

/* 1-bit expression: input byte x compares with k by LLVM predicate pred. */
static uint32_t sym_byte_cmp(uint32_t x, unsigned pred, unsigned k)
{
    return sym_mk(CTG_SOP_ICMP, 1, pred, 2, x, sym_const(8, k), 0);
}

/* The value of the decimal digits at input offsets off..off+n-1 (each
 * required to stay a digit), in w bits; with a sign byte at input offset
 * sign (required to stay '+' or '-'), negated when it is '-'. */
static uint32_t sym_decimal(uint32_t off, size_t n, int has_sign, uint32_t sign, unsigned w)
{
    /* in 64 bits, required to fit w - 1 bits: a sum that cannot wrap is one
     * the solver handles well (wrapping digit sums make it time out), and a
     * value that does not fit is undefined for scanf anyway */
    uint32_t acc = sym_const(64, 0), ten = sym_const(64, 10), zero = sym_const(64, '0');
    for (size_t k = 0; acc && k < n && k < 18; k++) {
        uint32_t x = sym_input_byte(off + (uint32_t)k);
        sym_require(sym_byte_cmp(x, 35 /* uge */, '0'));
        sym_require(sym_byte_cmp(x, 37 /* ule */, '9'));
        uint32_t d = sym_mk(CTG_SOP_SUB, 64, 0, 2, sym_zext(x, 64), zero, 0);
        acc = sym_mk(CTG_SOP_ADD, 64, 0, 2, sym_mk(CTG_SOP_MUL, 64, 0, 2, acc, ten, 0), d, 0);
    }
    if (!acc || n > 18)
        return 0;
    uint64_t max = w >= 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (w - 1)) - 1;
    sym_require(sym_mk(CTG_SOP_ICMP, 1, 37 /* ule */, 2, acc, sym_const(64, max), 0));
    uint32_t v = w < 64 ? sym_mk(CTG_SOP_TRUNC, w, 0, 1, acc, 0, 0) : acc;
    if (!has_sign || !v)
        return v;
    uint32_t x = sym_input_byte(sign), minus = sym_byte_cmp(x, 32 /* eq */, '-');
    sym_require(sym_mk(CTG_SOP_OR, 1, 0, 2, minus, sym_byte_cmp(x, 32, '+'), 0));
    return sym_mk(CTG_SOP_ITE, w, 0, 3, minus, sym_mk(CTG_SOP_NEG, w, 0, 1, v, 0, 0), v);
}

/* Bits of an integer conversion with length modifier `len` ("", "h",
 * "hh", "l", "ll", "j", "z", "t"). */
static unsigned sym_int_bits(const char *len)
{
    if (!strcmp(len, "hh"))
        return 8;
    if (!strcmp(len, "h"))
        return 16;
    if (!strcmp(len, "l") || !strcmp(len, "z") || !strcmp(len, "t"))
        return (unsigned)(sizeof(long) * 8);
    if (!strcmp(len, "ll") || !strcmp(len, "j"))
        return 64;
    return 32;
}

/* Walks the format over the bytes in[0..n) that scanf consumed (stream
 * offsets pos..pos+n; `total` bytes in the stream) and gives the converted
 * values their expressions: %d %i %u (decimal) become the value of their
 * digits, %c and %s their bytes.  Stops at the first conversion it does not
 * model (those values stay concrete) or after `convs` conversions. */
static void sym_scanf_model(const char *f, const uint8_t *in, size_t n, uint32_t base, long total,
                            int convs, va_list ap)
{
    size_t i = 0;
    for (int done = 0; *f && done < convs;) {
        if (isspace((unsigned char)*f)) {
            while (i < n && isspace(in[i]))
                i++;
            f++;
            continue;
        }
        if (*f != '%' || f[1] == '%') {
            i++, f += *f == '%' ? 2 : 1;
            continue;
        }
        f++;
        int skip = *f == '*';
        f += skip;
        size_t width = 0;
        while (isdigit((unsigned char)*f))
            width = width * 10 + (size_t)(*f++ - '0');
        char len[3] = {0};
        for (int k = 0; k < 2 && strchr("hljzt", *f); k++)
            len[k] = *f++;
        char c = *f++;
        if (c == 'd' || c == 'u' || c == 'i') {
            while (i < n && isspace(in[i]))
                i++;
            size_t start = i;
            int has_sign = i < n && (in[i] == '-' || in[i] == '+');
            i += (size_t)has_sign;
            size_t d0 = i;
            while (i < n && isdigit(in[i]) && (!width || i - start < width))
                i++;
            if (i == d0 || (c == 'i' && in[d0] == '0'))
                return; /* no digits, or %i's octal / hex: not modelled */
            /* the digits end where they do: the next byte stays a non-digit */
            if ((!width || i - start < width) && (long)i < total) {
                uint32_t nx = sym_input_byte(base + (uint32_t)i);
                sym_require(sym_mk(CTG_SOP_OR, 1, 0, 2, sym_byte_cmp(nx, 36 /* ult */, '0'),
                                   sym_byte_cmp(nx, 34 /* ugt */, '9'), 0));
            }
            if (!skip) {
                unsigned w = sym_int_bits(len);
                void *p = va_arg(ap, void *);
                uint64_t v = 0;
                memcpy(&v, p, w / 8); /* little-endian: the low bytes */
                __ctg_sym_store(p, w / 8,
                                sym_decimal(base + (uint32_t)d0, i - d0, has_sign,
                                            base + (uint32_t)start, w),
                                0, v);
                done++;
            }
        } else if (c == 'c' || c == 's') {
            size_t k = i, m = width ? width : (c == 'c' ? 1 : n);
            if (c == 's')
                while (i < n && isspace(in[i]))
                    i++, k++;
            while (i < n && i - k < m && (c == 'c' || !isspace(in[i])))
                i++;
            if (!skip) {
                sym_mem_input((uintptr_t)va_arg(ap, void *), i - k, base + (uint32_t)k);
                done++;
            }
        } else
            return;
    }
}

/* After a scanf that read stream bytes pos0..pos1 of stdin. */
static void sym_scanf_after(const char *fmt, int r, long pos0, va_list ap)
{
    long pos1 = ftell(stdin);
    struct stat st;
    if (r <= 0 || pos0 < 0 || pos1 <= pos0 || sym_g.off || fstat(0, &st) != 0 ||
        pos1 - pos0 > (long)SYM_STR_MAX * 8)
        return;
    uint8_t buf[SYM_STR_MAX * 8];
    size_t n = (size_t)(pos1 - pos0);
    if (pread(0, buf, n, pos0) != (ssize_t)n)
        return;
    sym_scanf_model(fmt, buf, n, sym_stdin_base() + (uint32_t)pos0, (long)st.st_size - pos0, r,
                    ap);
}

int __ctg_sym_scanf(const char *fmt, ...)
{
    long pos0 = ftell(stdin);
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int r = vscanf(fmt, ap);
    va_end(ap);
    sym_scanf_after(fmt, r, pos0, aq);
    va_end(aq);
    return r;
}

int __ctg_sym_fscanf(FILE *f, const char *fmt, ...)
{
    long pos0 = f == stdin ? ftell(stdin) : -1;
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    int r = vfscanf(f, fmt, ap);
    va_end(ap);
    if (f == stdin)
        sym_scanf_after(fmt, r, pos0, aq);
    va_end(aq);
    return r;
}
