/*
 * export.h - `ctestgen export OUT --c FILE`: a Test-Comp suite as one C file
 * of regression tests, built and run with the program itself:
 *     cc FILE prog.c && ./a.out        ->  "N passed, M failed"
 * The file defines the __VERIFIER_nondet_* functions (weak), which read the
 * current test's values as TestCov's harness does (strtoll / strtoull /
 * strtod of the testcase's text; the run ends with exit 0 when they run
 * out), and a constructor that runs every test in a child process (the
 * program's own main runs there) and compares how it ended with what gcc's
 * replay saw when the suite was exported: the exit code, the fatal signal,
 * or the error (the program's reach_error aborting, or the weak stub's exit
 * code CTG_EXPORT_ERROR_EXIT when it only declares it).
 * A stdin or "@@" target's tests are its corpus files: each child's stdin,
 * or the file "@@" names when the child runs the program again with the
 * arguments the run recorded; `ctestgen run` writes OUT/regression.c so.
 */
#ifndef CTG_EXPORT_H
#define CTG_EXPORT_H

#include <stdbool.h>

#include "../base/err.h"
#include "replay.h"

#define CTG_EXPORT_ERROR_EXIT 107

/* Replays ro->out_dir's suite for the outcomes (unless replayed, a replay
 * of that suite done already, e.g. by the run's check) and writes the C file to
 * path; *n_tests and *arch_bits (may be NULL) get how many tests it holds
 * and the suite's data model (32: compile it with -m32).  False with e
 * set: no suite, a replay failure, a libFuzzer target's corpus (raw
 * inputs: replay --corpus), an unwritable path. */
bool export_c(const replay_opts *ro, const replay_result *replayed, const char *path,
              unsigned *n_tests, int *arch_bits, ctg_err *e);

#endif
