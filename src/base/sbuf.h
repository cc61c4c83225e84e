/*
 * sbuf.h - growable byte/string buffer (always NUL-terminated).
 *
 * An sbuf that ran out of memory remembers it (oom flag): further appends are
 * ignored and the owner checks sbuf_ok() once at the end, like Redis' sds
 * callers check a single result.
 */
#ifndef CTG_SBUF_H
#define CTG_SBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct sbuf {
    char *data;
    size_t len, cap;
    bool oom;
} sbuf;

#define SBUF_INIT {NULL, 0, 0, false}

void sbuf_append(sbuf *b, const void *p, size_t n);
void sbuf_puts(sbuf *b, const char *s);
void sbuf_putc(sbuf *b, char c);
void sbuf_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sbuf_vprintf(sbuf *b, const char *fmt, va_list ap);
void sbuf_reset(sbuf *b);
bool sbuf_ok(const sbuf *b);
/* Hands the buffer to the caller (free with ctg_free); b is reset. NULL on oom. */
char *sbuf_take(sbuf *b);
void sbuf_release(sbuf *b);
/* String view; never NULL. */
const char *sbuf_str(const sbuf *b);

#endif
