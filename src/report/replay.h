/*
 * replay.h - `ctestgen replay OUT PROG.c`: independent check of a test suite,
 * and `ctestgen replay --corpus DIR PROG.c`: the same check of raw inputs
 * (an AFL++ queue, a libFuzzer corpus, OUT/corpus).
 *
 * The program is compiled with gcc --coverage -O0 (-m32 for arch 32) and
 * linked with src/runtime/replay_harness.c, which feeds each testcase's
 * inputs to __VERIFIER_nondet_* exactly as TestCov does (or to
 * LLVMFuzzerTestOneInput when the program has no main).  Every testcase of
 * OUT/test-suite/ runs in its own process with a timeout; coverage is
 * flushed even when a run aborts or crashes, but a run that times out is
 * killed without flushing: as under TestCov, it is credited nothing.  gcov (JSON format,
 * parsed with json-c) then gives branch and line coverage per file, and
 * reach_error counts as reached when gcov says the program's reach_error
 * ran or the harness saw reach_error/__VERIFIER_error called.
 *
 * Raw corpus mode (replay_opts.corpus): each regular file of the given
 * directories (dot files and subdirectories skipped), or each file given
 * directly, is one test.  The harness decodes it as ctestgen's runtime does
 * (src/runtime/rt_nondet.c): every __VERIFIER_nondet_T() takes the next
 * sizeof(T) bytes, little endian (bool: the low bit of one byte); once a
 * value does not fit, it and every later value are 0 (noted "ran-out", the
 * run goes on); a libFuzzer target gets the whole file as its data.  So
 * any fuzzer's corpus is measured with the same gcov build as a suite.
 *
 * Nothing of ctestgen's own instrumentation is involved: this is how users
 * and tests check a suite.
 */
#ifndef CTG_REPLAY_H
#define CTG_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/err.h"
#include "../base/sbuf.h"

typedef struct replay_opts {
    const char *out_dir;        /* output directory holding test-suite/          */
    const char *const *corpus;  /* raw mode: files and directories of raw inputs;
                                   when n_corpus > 0, out_dir is not read        */
    int n_corpus;
    const char *const *sources; /* the program's C files                          */
    int n_sources;
    const char *const *cflags;  /* -I/-D/... for gcc; -l/-L/-Wl go to the link   */
    int n_cflags;
    int arch_bits;              /* 32 or 64; 0: from test-suite/metadata.xml
                                   (raw mode: 64)                                */
    double timeout_s;           /* per test; 0: 3 s (TestCov's); a test still
                                   running then is killed and credited nothing */
    long mem_limit_mb;          /* per test address-space limit; 0: 4096         */
    const char *work_dir;       /* build/run directory; NULL: a temporary one,
                                   removed afterwards                            */
    const char *runtime_dir;    /* holds replay_harness.c; NULL:
                                   build_runtime_dir() ($CTESTGEN_RUNTIME_DIR,
                                   else <dir of the executable>/rt)              */
    const char *cc;             /* NULL: "gcc"                                   */
    const char *gcov;           /* NULL: "gcov"                                  */
    const char *lcov_file;      /* also an lcov tracefile there (lcov), or NULL  */
    const char *cobertura_file; /* also Cobertura XML there (gcovr), or NULL     */
    bool line_detail;           /* per line counts, branches and the first test
                                   that ran it (gcov after every test)       */
    const char *const *args;    /* the program's arguments ("@@": a file with the
                                   test); none given: those stats.json recorded */
    int n_args;
} replay_opts;

typedef enum replay_outcome {
    REPLAY_NORMAL = 0, /* ran to its end                                   */
    REPLAY_ERROR,      /* reach_error / __VERIFIER_error called            */
    REPLAY_ASSUME,     /* __VERIFIER_assume failed                         */
    REPLAY_RAN_OUT,    /* asked for more values than the testcase holds    */
    REPLAY_CRASH,      /* killed by a signal (abort, segfault, ...)        */
    REPLAY_TIMEOUT,    /* still running after the timeout                  */
    REPLAY_BAD_INPUT,  /* a value the harness could not parse              */
    REPLAY__COUNT
} replay_outcome;

/* "normal", "error", "assume", "ran-out", "crash", "timeout", "bad-input". */
const char *replay_outcome_name(replay_outcome o);

typedef struct replay_test {
    char *name;             /* file name, e.g. "test-00003.xml"; raw mode:
                               the path as listed ("DIR/id-00003")        */
    bool covers_error;      /* what the testcase file claims              */
    replay_outcome outcome;
    int signal;             /* REPLAY_CRASH / REPLAY_TIMEOUT              */
    int exit_code;          /* REPLAY_NORMAL                              */
    bool reached_error;     /* the run called reach_error/__VERIFIER_error */
} replay_test;

/* One source line as gcov saw it (replay_opts.line_detail). */
typedef struct replay_line {
    bool code;              /* gcov counts it (else: no code)             */
    unsigned long long count;
    unsigned short branches, branches_covered;
    int first_test;         /* index of the first test that ran it, -1   */
} replay_line;

typedef struct replay_file {
    char *path;             /* as gcov names it (absolute)                */
    unsigned branches, branches_covered;
    unsigned lines, lines_covered;
    replay_line *line;      /* line_detail: indexed by line number (1..)  */
    unsigned n_line;        /* entries of line (the highest line + 1)     */
} replay_file;

typedef struct replay_result {
    int arch_bits;
    bool raw;                            /* replayed a raw corpus          */
    replay_test *tests;
    size_t n_tests;
    replay_file *files;
    size_t n_files;
    unsigned branches, branches_covered; /* over all files */
    unsigned lines, lines_covered;
    unsigned long reach_error_calls;     /* gcov call count of reach_error */
    bool reach_error_defined;            /* the program defines reach_error */
    bool error_reached;                  /* by any test (gcov or harness)  */
    unsigned n_outcome[REPLAY__COUNT];   /* tests per outcome              */
    bool program_changed;                /* SHA-256 differs from metadata  */
    char **bad;                          /* one line per testcase file that
                                            could not be read (skipped)    */
    size_t n_bad;
} replay_result;

/* Replays o->out_dir/test-suite (or, in raw mode, the files of o->corpus)
 * against the program and fills r (release with replay_result_release, also
 * after a failure).  A testcase file that cannot be read is skipped and
 * named in r->bad (the others are replayed).  Returns false with a one-line
 * e when the suite cannot be read, a corpus path or one
 * of its files does not exist or cannot be read, the program does not
 * compile or link with gcc, defines neither main nor LLVMFuzzerTestOneInput,
 * or gcov fails.  Crashes and timeouts of tests are results, not failures. */
bool replay_suite(const replay_opts *o, replay_result *r, ctg_err *e);
void replay_result_release(replay_result *r);

/* ---- one test at a time (the check of error tests during a run) ---------- */

struct test;
typedef struct replay_session replay_session;

/* Builds the program with gcc as replay_suite does, to run single tests
 * with replay_one; no suite is read.  From o: sources, cflags, the
 * program's arguments (else those o->out_dir/stats.json recorded, when it
 * exists), arch_bits (0: 64), the limits, work_dir (NULL: a temporary
 * directory, removed by replay_close).  NULL with e set when the program
 * does not build with gcc or the data model cannot run here. */
replay_session *replay_open(const replay_opts *o, ctg_err *e);
/* Writes t as a testcase (coversError as given, the way the suite writes
 * it) and runs it as replay_suite runs a test of the suite: *out gets its
 * outcome (out->name: ctg_free).  False with e set when it cannot run. */
bool replay_one(replay_session *s, const struct test *t, bool covers_error, replay_test *out,
                ctg_err *e);
void replay_close(replay_session *s);

/* Names listed per line of the report before "... and N more". */
#define REPLAY_LIST_MAX 10

/* Appends the human-readable report (several lines) to b:
 *   replay: 15 tests, 64-bit, gcc --coverage
 *   branches: 32/32 (100.00%), lines: 21/21 (100.00%)
 *     /abs/examples/triangle.c: branches 32/32, lines 21/21
 *   reach_error: reached (called 1 time) by test-00010.xml
 *   crashed (1): test-00003.xml (signal 11)
 * In raw mode the first line reads "replay: 120 raw inputs, 64-bit, ...". */
void replay_format(const replay_result *r, sbuf *b);

#endif
