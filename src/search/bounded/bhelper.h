/*
 * bhelper.h - helper programs of the `bounded` strategy (the Korat repOk
 * helper, the --filter helper): compiling them with clang-14 next to the
 * program under test, and talking to one as a co-process over a socket pair
 * (request, answer with a timeout; a dead or hung helper is restarted).
 *
 * A helper is not the program under test: its runs are not executions of
 * the search budget and never enter the suite.
 */
#ifndef CTG_BHELPER_H
#define CTG_BHELPER_H

#include <stdbool.h>
#include <stddef.h>

#include "../../base/err.h"

/* Compiles sources into the executable `out` with clang-14 -O0 -w, the
 * given flags (-I/-D/..., -m32) and extra flags.  Compiler messages go to
 * stderr.  False with e set naming the first source when it fails. */
bool bhelper_compile(const char *const *sources, int n_sources, const char *const *flags,
                     int n_flags, const char *out, bool verbose, ctg_err *e);

typedef struct bhelper bhelper;

/* Starts `path` with its stdin and stdout connected to the tool; stderr goes
 * to /dev/null.  NULL with e set when it cannot be started. */
bhelper *bhelper_start(const char *path, ctg_err *e);
/* Sends a request (n bytes) and reads an answer of exactly `n_ans` bytes
 * within timeout_s.  False when the helper died or hung; the helper is then
 * restarted for the next request (bhelper_restarts counts). */
bool bhelper_call(bhelper *h, const void *req, size_t n, void *ans, size_t n_ans,
                  double timeout_s);
/* Reads n more bytes of the last answer (variable-length answers). */
bool bhelper_read_more(bhelper *h, void *ans, size_t n, double timeout_s);
unsigned bhelper_restarts(const bhelper *h);
void bhelper_stop(bhelper *h);

#endif
