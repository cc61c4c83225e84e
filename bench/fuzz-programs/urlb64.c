/*
 * urlb64.c - a URL query decoder with base64 payloads as a libFuzzer target
 * (bench/fuzz).
 *
 * The input is a query string "k1=v1&k2=v2...": keys and values are
 * percent-decoded ('+' is a space, %XX a byte, a bad escape rejects the
 * pair).  The value of "data" is base64, standard or URL-safe alphabet
 * (not mixed), with '=' padding to a multiple of 4 or none at all; bits
 * left over must be zero.  The value of "mode" selects what the decoded
 * data means.  The error: mode "root shell" and data that decodes to
 * "RUN!" followed by a byte equal to the number of pairs seen so far.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void reach_error(void) { abort(); }

#define CAP 48

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Percent-decodes [b, e) into out (at most CAP - 1 bytes); the length or -1. */
static int pct_decode(const uint8_t *b, const uint8_t *e, uint8_t *out)
{
    int n = 0;
    while (b < e) {
        int c = *b++;
        if (c == '+') {
            c = ' ';
        } else if (c == '%') {
            if (e - b < 2 || hexval(b[0]) < 0 || hexval(b[1]) < 0)
                return -1;
            c = hexval(b[0]) * 16 + hexval(b[1]);
            b += 2;
        }
        if (n >= CAP - 1)
            return -1;
        out[n++] = (uint8_t)c;
    }
    out[n] = 0;
    return n;
}

/* The 6-bit value of a base64 character in the alphabet chosen so far
 * (*alpha: 0 undecided, 1 standard, 2 URL-safe); -1 if not one. */
static int b64val(int c, int *alpha)
{
    if (c >= 'A' && c <= 'Z')
        return c - 'A';
    if (c >= 'a' && c <= 'z')
        return c - 'a' + 26;
    if (c >= '0' && c <= '9')
        return c - '0' + 52;
    int want = (c == '+' || c == '/') ? 1 : (c == '-' || c == '_') ? 2 : 0;
    if (!want || (*alpha && *alpha != want))
        return -1;
    *alpha = want;
    return c == '+' || c == '-' ? 62 : 63;
}

/* Decodes base64 text of n bytes into out; the length or -1. */
static int b64_decode(const uint8_t *in, int n, uint8_t *out)
{
    int alpha = 0, pad = 0, len = 0;
    uint32_t acc = 0;
    int bits = 0;
    while (n > 0 && in[n - 1] == '=') {
        n--;
        pad++;
    }
    if (pad > 2 || (pad && (n + pad) % 4) || n % 4 == 1)
        return -1;
    for (int i = 0; i < n; i++) {
        int v = b64val(in[i], &alpha);
        if (v < 0)
            return -1;
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[len++] = (uint8_t)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (acc != 0)
        return -1; /* non-zero leftover bits */
    return len;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const uint8_t *p = data, *end = data + size;
    uint8_t key[CAP], val[CAP], blob[CAP];
    int blob_len = -1, root = 0, pairs = 0;
    while (p < end) {
        const uint8_t *amp = memchr(p, '&', (size_t)(end - p));
        const uint8_t *pe = amp ? amp : end;
        const uint8_t *eq = memchr(p, '=', (size_t)(pe - p));
        if (eq) {
            int kn = pct_decode(p, eq, key), vn = pct_decode(eq + 1, pe, val);
            if (kn > 0 && vn >= 0) {
                pairs++;
                if (!strcmp((char *)key, "data"))
                    blob_len = b64_decode(val, vn, blob);
                else if (!strcmp((char *)key, "mode"))
                    root = !strcmp((char *)val, "root shell");
            }
        }
        p = amp ? amp + 1 : end;
    }
    if (root && blob_len == 5 && memcmp(blob, "RUN!", 4) == 0 && blob[4] == pairs)
        reach_error();
    return pairs;
}
