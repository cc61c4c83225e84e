/*
 * sbuf.c - growable string buffer (see sbuf.h).
 */
#include "sbuf.h"

#include <stdio.h>
#include <string.h>

#include "mem.h"

/* Makes room for n more bytes plus the terminator; sets oom on failure. */
static bool reserve(sbuf *b, size_t n)
{
    if (b->oom)
        return false;
    if (ctg_grow((void **)&b->data, &b->cap, b->len + n + 1, 1) != 0) {
        b->oom = true;
        return false;
    }
    return true;
}

void sbuf_append(sbuf *b, const void *p, size_t n)
{
    if (!reserve(b, n))
        return;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void sbuf_puts(sbuf *b, const char *s) { sbuf_append(b, s, strlen(s)); }
void sbuf_putc(sbuf *b, char c) { sbuf_append(b, &c, 1); }

void sbuf_vprintf(sbuf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0 || !reserve(b, (size_t)n))
        return;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void sbuf_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

void sbuf_reset(sbuf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

bool sbuf_ok(const sbuf *b) { return !b->oom; }

char *sbuf_take(sbuf *b)
{
    char *d = b->oom ? NULL : b->data;
    if (!d && !b->oom)
        d = ctg_strdup("");
    if (b->oom)
        ctg_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = false;
    return d;
}

void sbuf_release(sbuf *b)
{
    ctg_free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->oom = false;
}

const char *sbuf_str(const sbuf *b) { return b->data ? b->data : ""; }
