/*
 * err.c - error reports (see err.h).
 */
#include "err.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Formats into e->msg unless e already holds a message; true if it did. */
static bool err_vset(ctg_err *e, const char *fmt, va_list ap)
{
    if (!e || e->msg[0])
        return false;
    vsnprintf(e->msg, sizeof e->msg, fmt, ap);
    return true;
}

bool err_set(ctg_err *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    err_vset(e, fmt, ap);
    va_end(ap);
    return false;
}

bool err_sys(ctg_err *e, const char *fmt, ...)
{
    int saved = errno;
    va_list ap;
    va_start(ap, fmt);
    bool set = err_vset(e, fmt, ap);
    va_end(ap);
    if (set) {
        size_t n = strlen(e->msg);
        snprintf(e->msg + n, sizeof e->msg - n, ": %s", strerror(saved));
    }
    return false;
}

void err_clear(ctg_err *e)
{
    if (e)
        e->msg[0] = '\0';
}

bool err_is_set(const ctg_err *e) { return e && e->msg[0]; }
