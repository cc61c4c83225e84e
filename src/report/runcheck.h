/*
 * runcheck.h - the replay check at the end of `ctestgen run` (issue 19):
 * the suite just written is replayed with gcc --coverage exactly as
 * `ctestgen replay` does (replay.h: values read as TestCov reads them, a
 * test that runs out of values stops there, one still running after the
 * per-test limit is killed and credited nothing), so the summary can print
 * what the validator will credit beside what the engine counted.
 *
 * A test that runs past the limit under gcc is taken out of test-suite/: its
 * file moves to crashes/replay-timeout-NNNNN.xml with a one-line
 * crashes/replay-timeout-NNNNN.txt, so the suite holds no test the
 * validator would kill (it credited nothing of it anyway).
 *
 * The figures go to stats.json (counters replay.*), and when gcov's share
 * is clearly below the engine's (more than RUNCHECK_GAP points) or a test
 * claims an error its replay does not reach, one warning names the first
 * test that diverged and how.
 */
#ifndef CTG_RUNCHECK_H
#define CTG_RUNCHECK_H

#include <stdbool.h>

#include "../base/err.h"
#include "../exec/exec.h"
#include "replay.h"

/* Percentage points by which gcov's figure may trail the engine's before
 * the check warns (the two count slightly different things: LLVM's
 * conditional-branch edges after clang's front end, gcc's branch arcs). */
#define RUNCHECK_GAP 5.0

typedef struct runcheck_opts {
    replay_opts replay;         /* as `ctestgen replay` would be given  */
    double engine_pct;          /* the engine's covered edges, percent */
    const exec_kind *kinds;     /* how each test ended in the engine, in
                                   file-name order; NULL: unknown (then a
                                   crash or hang under gcc counts as the
                                   divergence)                          */
    size_t n_kinds;
} runcheck_opts;

typedef struct runcheck_result {
    unsigned tests;             /* replayed                            */
    unsigned branches, branches_covered; /* gcov's, of the program's
                                   files (not a generated driver's) */
    unsigned generated;         /* generated files left out of them   */
    unsigned removed;           /* timed out, moved to crashes/        */
    unsigned crashed, ran_out;  /* outcomes under gcc                  */
    bool error_reached;
    char warning[1280];         /* "" or one line                      */
} runcheck_result;

/* Replays, moves timed-out tests out of the suite, records the figures in
 * stats.json.  False with e set when the replay itself fails (gcc cannot
 * build the program, gcov fails); the suite is then left as it was.  keep
 * (may be NULL) receives the replay on success, for other work on the same
 * suite (export_c); the caller releases it. */
bool runcheck(const runcheck_opts *o, runcheck_result *r, replay_result *keep, ctg_err *e);

#endif
