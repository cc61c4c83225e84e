/*
 * kharness.h - C code the `bounded` strategy generates around the program
 * under test:
 *
 *   - the Korat harness (one file, two roles chosen by a macro):
 *       default            a Test-Comp main for prog.cov: reads one domain
 *                          index per candidate slot (__VERIFIER_nondet_uchar
 *                          or _ushort), builds the objects, assumes repOk,
 *                          reads the function's scalar arguments and calls
 *                          the function under test;
 *       CTG_KORAT_HELPER   the repOk helper: a loop that reads candidate
 *                          vectors on stdin, runs repOk in a forked child
 *                          with every load traced (clang's
 *                          -fsanitize-coverage=trace-loads), maps load
 *                          addresses to slots and writes the verdict and the
 *                          field ordering on stdout;
 *   - the filter helper: runs a predicate `FUNC(const char *)` of the
 *     program on each string read from stdin (--filter, grammar mode);
 *   - weak stubs of the Test-Comp functions for the helpers, which are not
 *     linked with the runtime.
 *
 * The program's first source is #included (main renamed), so static
 * functions and the struct definitions are visible.
 *
 * Helper protocols (native byte order, uint32 words):
 *   Korat:  in  n_slots words (domain indices);
 *           out verdict (0 invalid, 1 valid, 2 crashed or timed out),
 *               n, then n slot numbers in first-read order.
 *   filter: in  length, then the bytes;  out one byte: 1 accept, 0 reject.
 */
#ifndef CTG_KHARNESS_H
#define CTG_KHARNESS_H

#include <stdbool.h>

#include "../../base/sbuf.h"
#include "kspec.h"

/* Korat harness for spec k around the program file `program` (absolute
 * path); timeout_ms bounds one repOk run in the helper. */
void kharness_korat(sbuf *out, const kspec *k, const char *program, unsigned timeout_ms);
/* korat_glue.c, compiled with the harness into prog.cov: wrappers of the
 * __VERIFIER_ functions the test main needs (in their own translation unit,
 * so their prototypes cannot clash with the program's). */
void kharness_glue(sbuf *out, const kspec *k);
/* True when a slot value needs more than a byte (then _ushort is used). */
bool kharness_wide(const kspec *k);
/* Filter helper calling func(const char *) of the program. */
void kharness_filter(sbuf *out, const char *program, const char *func, unsigned timeout_ms);
/* Weak definitions of __VERIFIER_* and reach_error for helper binaries. */
void kharness_stubs(sbuf *out);

#endif
