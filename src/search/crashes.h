/*
 * crashes.h - the crashes of a run (crashes/ of the output directory): one
 * file per crash signature, holding the smallest input seen for it, and
 * minimised when the signature is first found.
 *
 * A signature is what makes two crashes the same:
 *   error       (kind, error site)
 *   timeout/oom the kind alone
 *   crash/abort (kind, signal, crash site of the runtime, rt_protocol.h);
 *               a stack overflow: (kind, signal, stack-overflow flag)
 * Crash sites are addresses of one binary, so those of prog.sym (namespace 1)
 * are never compared with those of prog.cov (namespace 0): a crash found by
 * both gets two files.
 *
 * Crash triage (exec/triage.h), when the caller sets it: a new signature's
 * input is run once more to learn its kind, place and top frames; when
 * those are a bug already recorded (the same place reached through another
 * binary or another last frame), the signature becomes another name of it
 * and no file is written.  So crashes/ holds one file per bug.
 *
 * Minimisation (afl-tmin's block deletion, then whole values of the value
 * log) runs the input on the executor of its namespace without extension
 * (flags 0) and keeps a removal when the run has the same signature and
 * consumed strictly fewer bytes.  It is deferred (crashes_minimise) so the
 * maps of the run that found the crash stay readable; its runs are only
 * counted by the caller's runner, never added to the test suite.
 */
#ifndef CTG_CRASHES_H
#define CTG_CRASHES_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/err.h"
#include "../exec/exec.h"
#include "../exec/triage.h"
#include "../suite/suite.h"

typedef struct crash_sig {
    exec_kind kind;
    int signal;
    uint64_t site; /* error site, crash site, CTG_CRASH_SITE_STACK_OVF or 0 */
    unsigned ns;   /* namespace of a crash site, else 0                     */
} crash_sig;

/* True for the results that go to crashes/. */
bool crash_is_kind(exec_kind k);
/* The signature of result r of a run in namespace ns. */
crash_sig crash_signature(const exec_result *r, unsigned ns);
bool crash_sig_equal(const crash_sig *a, const crash_sig *b);

typedef struct crashes crashes_t;

/* A crash table writing to suite s (not owned); the .txt files name
 * repro_binary in their reproduce command (copied).  min_execs bounds the
 * runs of each minimisation (0: no minimisation).  NULL on oom. */
crashes_t *crashes_new(suite_t *s, const char *repro_binary, uint64_t min_execs);
void crashes_free(crashes_t *cs);
/* The binary whose crashes of namespace ns (0 .. 3) reproduce (copied;
 * default: crashes_new's).  False on oom. */
bool crashes_set_binary(crashes_t *cs, unsigned ns, const char *binary);
/* The triage of new signatures: fn(arg, ns, r, t, out) fills out (false:
 * nothing learnt; out left empty). */
typedef bool (*crash_triage_fn)(void *arg, unsigned ns, const exec_result *r, const test_t *t,
                                triage_info *out);
void crashes_set_triage(crashes_t *cs, crash_triage_fn fn, void *arg);

/* Bug i of crashes_count's: its crash file number and kind, and the one
 * line triage made of it ("heap-buffer-overflow in f at a.c:3", *bug_kind
 * its first word), or NULL when it was not triaged. */
const char *crashes_bug(const crashes_t *cs, size_t i, unsigned *num, exec_kind *kind,
                        const char **bug_kind);
/* Signatures that triage found to be a bug already recorded. */
size_t crashes_aliases(const crashes_t *cs);

/* Records the last run of x (result r, namespace ns) when it is a crash: a
 * new signature is written to crashes/ and queued for minimisation (unless a
 * timeout: each try would cost a whole timeout); a known signature is
 * rewritten in place when this input is strictly smaller (consumed bytes).
 * found_exec/found_s say when it was found.  False with e set when a file
 * cannot be written or memory runs out (the search goes on). */
bool crashes_record(crashes_t *cs, const exec_t *x, const exec_result *r, unsigned ns,
                    uint64_t found_exec, double found_s, ctg_err *e);

/* Registers crash file number num of an earlier run (resume): its input,
 * run again, had result r (namespace ns) and len bytes.  A signature already
 * known is ignored.  False on oom. */
bool crashes_adopt(crashes_t *cs, const exec_result *r, unsigned ns, unsigned num, size_t len);
/* Distinct signatures recorded so far. */
size_t crashes_count(const crashes_t *cs);
/* True when crashes of namespace ns wait for minimisation. */
bool crashes_pending(const crashes_t *cs, unsigned ns);

/* How minimisation runs an input: on executor x, flags 0.  run returns
 * false when no run may be made (budget spent, executor failed). */
typedef struct crash_runner {
    exec_t *x;
    bool (*run)(void *arg, const uint8_t *in, size_t len, exec_result *r);
    void *arg;
} crash_runner;

/* Minimises every queued crash of namespace ns (at most min_execs runs
 * each), rewriting its files when the input shrank.  A crash whose
 * minimisation was cut short (runner refused) keeps what it reached and
 * leaves the queue.  False with e set when a file cannot be written or
 * memory runs out. */
bool crashes_minimise(crashes_t *cs, unsigned ns, const crash_runner *rn, ctg_err *e);

#endif
