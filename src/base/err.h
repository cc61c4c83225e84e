/*
 * err.h - error reports of library modules.
 *
 * Library modules never exit: they return a status and fill the caller's
 * ctg_err with one line naming what failed, where, and how to fix it
 * ("prog.c: does not compile (see the compiler messages above); fix the
 * errors or pass -I/-D flags").  Only src/cli prints it and exits.
 */
#ifndef CTG_ERR_H
#define CTG_ERR_H

#include <stdbool.h>

typedef struct ctg_err {
    char msg[1024];
} ctg_err;

/* Sets the message (printf format) unless one is set already, so the first,
 * most precise report wins.  Returns false for `return err_set(...)`.
 * e may be NULL. */
bool err_set(ctg_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Like err_set, and appends ": strerror(errno)". */
bool err_sys(ctg_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void err_clear(ctg_err *e);
bool err_is_set(const ctg_err *e);

#endif
