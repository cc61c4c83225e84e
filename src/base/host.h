/*
 * host.h - what the machine ctestgen runs on can do, probed once.
 *
 * Some kernels cannot execute 32-bit programs (IA-32 emulation off:
 * execve fails with "Exec format error") and some machines lack the 32-bit
 * C library.  --arch 32 checks here before building, and the tests that
 * need 32-bit execution skip with the reason when it is absent.
 */
#ifndef CTG_HOST_H
#define CTG_HOST_H

#include <stdbool.h>

#include "err.h"

/* Environment variable that makes the 32-bit probe fail, so a host that can
 * run 32-bit programs can test the path of one that cannot. */
#define HOST_NO_EXEC32_ENV "CTESTGEN_NO_EXEC32"

/* True when this host can build and execute a 32-bit program, probed once
 * per process: rt_dir's prebuilt `probe32` (the runtime directory; the
 * 32-bit runtime is built beside it) is run when it exists, else a tiny
 * `clang -m32` program is compiled and run (that took a quarter of a
 * second of every --arch 32 build).  rt_dir may be NULL.  False with why
 * set to one line naming the cause and the way out. */
bool host_exec32(const char *rt_dir, ctg_err *why);

#endif
