/*
 * triage.h - what a crash is: its kind, where it happened (function, file,
 * line), the top frames of its stack (which make it one bug) and the
 * report to read, found by running its input once more outside the fork
 * server, on a binary with line tables, and symbolising the stack.
 *
 * A sanitizer binary prints its own report (symbolised by LLVM's
 * llvm-symbolizer); any other binary's runtime prints the frames of a fatal
 * signal in reproduce mode ("ctestgen-frames: SIG 0xOFF ...", rt_signal.c),
 * which triage symbolises with llvm-symbolizer.  Frames of ctestgen's
 * runtime and of the sanitizers' are left out of the top frames.
 */
#ifndef CTG_TRIAGE_H
#define CTG_TRIAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/err.h"

#define TRIAGE_FRAMES 3 /* frames that make a bug's identity */

typedef struct triage_frame {
    char func[128];
    char file[512]; /* as the line tables name it (absolute for ours) */
    int line, col;  /* 0 when unknown */
} triage_frame;

typedef struct triage_info {
    char kind[64];        /* "heap-buffer-overflow", "signed-integer-overflow",
                             "segv", "fpe", "abort", "stack-overflow", ... */
    triage_frame top[TRIAGE_FRAMES];
    int n_top;            /* program frames found, innermost first */
    uint64_t key;         /* kind and top frames; 0 when nothing was learnt */
    char *report;         /* the sanitizer's report or the symbolised stack
                             (owned), or NULL */
} triage_info;

typedef struct triage_opts {
    const char *binary;       /* with line tables (prog.dbg, prog.san-LIST) */
    bool sanitizer;           /* a sanitizer binary: its report is read     */
    const char *const *args;  /* the program's arguments ("@@" as in runs)  */
    int n_args;
    const char *work_dir;     /* where the input file is written and it runs */
    double timeout_s;
    long mem_limit_mb;        /* not for a sanitizer binary                  */
} triage_opts;

/* Runs in[0 .. len) on o->binary and fills t.  False with e set when the
 * run could not be made (t is then empty); a run that does not crash
 * again leaves t->key 0.  Release t with triage_release. */
bool triage_run(const triage_opts *o, const uint8_t *in, size_t len, triage_info *t, ctg_err *e);
void triage_release(triage_info *t);

/* Parses a report (text) into t (kind, top frames, key); sig: the signal
 * the run died of (0: none).  Exposed for the unit test. */
void triage_parse(const char *text, int sig, triage_info *t);

/* "func at file:line" of t's top frame (or "an unknown place") in buf. */
void triage_where(const triage_info *t, char *buf, size_t cap);

#endif
