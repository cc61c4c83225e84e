/*
 * host_skip.h - unit tests that need a capability of the host skip, with the
 * reason printed, when it is absent (never fail for it).
 */
#ifndef CTG_HOST_SKIP_H
#define CTG_HOST_SKIP_H

#include "base/host.h"

/* Skips the current cmocka test unless 32-bit programs run here
 * (host_exec32; CTESTGEN_NO_EXEC32=1 pretends they do not). */
#define SKIP_UNLESS_EXEC32()                                                                       \
    do {                                                                                           \
        ctg_err why_ = {{0}};                                                                      \
        if (!host_exec32(NULL, &why_)) {                                                                 \
            print_message("skipped: %s\n", why_.msg);                                              \
            skip();                                                                                \
        }                                                                                          \
    } while (0)

#endif
