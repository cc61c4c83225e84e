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
#include <stdio.h>
#include <string.h>
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
