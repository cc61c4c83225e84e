/*
 * runcheck.c - the replay check at the end of a run (see runcheck.h).
 */
#include "runcheck.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../compile/libclang.h"
#include "replay.h"
#include "stats.h"

static double pct(unsigned a, unsigned b) { return b ? 100.0 * a / b : 100.0; }

/* Moves test-suite/<name> (test-NNNNN.xml) to crashes/replay-timeout-NNNNN.xml,
 * or a byte-input target's corpus/id-NNNNN to crashes/replay-timeout-NNNNN.in,
 * and writes the one-line description beside it. */
static bool remove_test(const runcheck_opts *o, const char *name, ctg_err *e)
{
    const char *num = strchr(name, '-');
    bool raw = !strncmp(name, "id-", 3);
    const char *where = raw ? "corpus" : "test-suite";
    sbuf from = SBUF_INIT, to = SBUF_INIT, txt = SBUF_INIT, line = SBUF_INIT;
    char *out_abs = fs_realpath(o->replay.out_dir, NULL);
    sbuf_printf(&from, "%s/%s/%s", o->replay.out_dir, where, name);
    sbuf_printf(&to, "%s/crashes/replay-timeout%s%s", o->replay.out_dir, num ? num : name,
                raw ? ".in" : ""); /* .in: not numbered as a crash on --resume */
    sbuf_printf(&txt, "%.*s.txt", (int)(to.len >= 4 ? to.len - 3 - !raw : to.len), sbuf_str(&to));
    sbuf_printf(&line,
                "replay-timeout: %s ran past %g s under gcc --coverage (TestCov kills such a "
                "test and credits none of its coverage), so it left %s/; reproduce: "
                "ctestgen replay %s --replay-timeout 60\n",
                name, o->replay.timeout_s, where, out_abs ? out_abs : o->replay.out_dir);
    ctg_free(out_abs);
    bool ok = sbuf_ok(&from) && sbuf_ok(&to) && sbuf_ok(&txt) && sbuf_ok(&line);
    if (!ok)
        err_set(e, "%s: out of memory", o->replay.out_dir);
    else if (rename(from.data, to.data) != 0)
        ok = err_set(e, "%s: cannot move to %s: %s; free space or fix permissions", from.data,
                     to.data, strerror(errno));
    else
        ok = fs_write_atomic(txt.data, line.data, line.len, e);
    sbuf_release(&from), sbuf_release(&to), sbuf_release(&txt), sbuf_release(&line);
    return ok;
}

/* Whether test t's replay ended otherwise than its engine run (kind k). */
static bool differs(const replay_test *t, exec_kind k)
{
    switch (k) {
    case EXEC_ERROR:
        return !t->reached_error;
    case EXEC_ABORT:
        return !t->reached_error && !(t->outcome == REPLAY_CRASH && t->signal == SIGABRT);
    case EXEC_CRASH:
        return t->outcome != REPLAY_CRASH;
    case EXEC_NORMAL:
        return t->reached_error || (t->outcome != REPLAY_NORMAL && t->outcome != REPLAY_RAN_OUT);
    default: /* out of memory: gcc's build may well have had enough */
        return false;
    }
}

/* Whether o holds the engine's kind of every replayed test. */
static bool kinds_known(const runcheck_opts *o, const replay_result *rr)
{
    return o->kinds && o->n_kinds == rr->n_tests;
}

/* Index of the first test whose replay diverged from what the engine saw,
 * -1 when none.  Without the engine's kinds: the first test that crashed or
 * timed out under gcc, or claims an error it does not reach. */
static long first_divergent(const runcheck_opts *o, const replay_result *rr)
{
    bool known = kinds_known(o, rr);
    for (size_t i = 0; i < rr->n_tests; i++) {
        const replay_test *t = &rr->tests[i];
        if (known ? differs(t, o->kinds[i])
                  : t->outcome == REPLAY_CRASH || t->outcome == REPLAY_TIMEOUT ||
                        (t->covers_error && !t->reached_error))
            return (long)i;
    }
    return -1;
}

/* How test i diverged, as a phrase. */
static void divergence(const runcheck_opts *o, const replay_result *rr, size_t i, char *buf,
                       size_t cap)
{
    const replay_test *t = &rr->tests[i];
    char was[64] = "";
    if (kinds_known(o, rr))
        snprintf(was, sizeof was, " (in the engine: %s)", exec_kind_name(o->kinds[i]));
    if (t->outcome == REPLAY_CRASH)
        snprintf(buf, cap, "%s is killed by signal %d under gcc -O0%s", t->name, t->signal, was);
    else if (t->outcome == REPLAY_TIMEOUT)
        snprintf(buf, cap, "%s runs past %g s under gcc -O0%s", t->name, o->replay.timeout_s, was);
    else if (t->covers_error && !t->reached_error)
        snprintf(buf, cap, "%s claims to reach the error but its replay ends %s", t->name,
                 replay_outcome_name(t->outcome));
    else
        snprintf(buf, cap, "%s ends %s under gcc -O0%s", t->name,
                 t->reached_error ? "in the error" : replay_outcome_name(t->outcome), was);
}

/* gcc's branches of the user's files into *b, *bc: files inside the
 * output directory (function mode's generated driver) are not the
 * program's; the number of such files left out. */
static unsigned program_branches(const runcheck_opts *o, const replay_result *rr, unsigned *b,
                                 unsigned *bc)
{
    char *out = realpath(o->replay.out_dir, NULL);
    size_t n = out ? strlen(out) : 0;
    unsigned left_out = 0;
    *b = *bc = 0;
    for (size_t i = 0; i < rr->n_files; i++) {
        const replay_file *f = &rr->files[i];
        if (out && !strncmp(f->path, out, n) && f->path[n] == '/') {
            left_out++;
            continue;
        }
        *b += f->branches;
        *bc += f->branches_covered;
    }
    free(out);
    return left_out;
}

/* gcc's branch figure of the user's files (program_branches). */
static double program_pct(const runcheck_opts *o, const replay_result *rr)
{
    unsigned b, bc;
    program_branches(o, rr, &b, &bc);
    /* no branch under gcc (code after a noreturn call dropped) is 0 %, not
     * the 100 % of an empty denominator */
    return b ? pct(bc, b) : 0.0;
}

/* The first local that clang says the program may read before writing
 * (-Wuninitialized and its kin), as "FILE:LINE: 'VAR' may be read before
 * it is written (clang -WFLAG)" in buf; false when none or clang cannot
 * tell.  gcc -O0 reads what its stack holds there,
 * the engine's build 0 (-ftrivial-auto-var-init=zero): the likeliest cause
 * of paths that part.  libclang's diagnostics give the flag and place, and
 * the cursor there the variable. */
static bool uninit_read(const runcheck_opts *o, int arch, char *buf, size_t cap)
{
    ctg_err le = {{0}};
    const ctg_libclang *LC = libclang_load(&le);
    const replay_opts *ro = &o->replay;
    const char **argv = ctg_calloc((size_t)ro->n_cflags + 8, sizeof *argv);
    if (!LC || !argv) {
        ctg_free(argv);
        return false;
    }
    int n = 0;
    const char *fixed[] = {arch == 32 ? "-m32" : "-m64", "-Wno-everything", "-Wuninitialized",
                           "-Wsometimes-uninitialized", "-Wconditional-uninitialized"};
    for (size_t k = 0; k < sizeof fixed / sizeof *fixed; k++)
        argv[n++] = fixed[k];
    for (int k = 0; k < ro->n_cflags; k++)
        argv[n++] = ro->cflags[k];
    CXIndex idx = LC->clang_createIndex(0, 0);
    bool found = false;
    for (int s = 0; s < ro->n_sources && !found; s++) {
        CXTranslationUnit tu = NULL;
        if (LC->clang_parseTranslationUnit2(idx, ro->sources[s], argv, n, NULL, 0,
                                            CXTranslationUnit_None, &tu) != CXError_Success)
            continue;
        unsigned nd = LC->clang_getNumDiagnostics(tu);
        for (unsigned i = 0; i < nd && !found; i++) {
            CXDiagnostic d = LC->clang_getDiagnostic(tu, i);
            CXString flag = LC->clang_getDiagnosticOption(d, NULL);
            const char *fl = LC->clang_getCString(flag);
            if (LC->clang_getDiagnosticSeverity(d) == CXDiagnostic_Warning && fl &&
                strstr(fl, "uninitialized")) {
                CXSourceLocation loc = LC->clang_getDiagnosticLocation(d);
                CXFile file;
                unsigned line;
                LC->clang_getSpellingLocation(loc, &file, &line, NULL, NULL);
                /* the warning points at the read: a reference to the variable */
                CXCursor ref = LC->clang_getCursorReferenced(LC->clang_getCursor(tu, loc));
                CXString var = LC->clang_getCursorSpelling(ref), path = LC->clang_getFileName(file);
                const char *vs = LC->clang_getCString(var), *ps = LC->clang_getCString(path);
                if (file && vs && *vs && ps) {
                    snprintf(buf, cap, "%s:%u: '%s' may be read before it is written (clang %s)", ps,
                             line, vs, fl);
                    found = true;
                }
                LC->clang_disposeString(var);
                LC->clang_disposeString(path);
            }
            LC->clang_disposeString(flag);
            LC->clang_disposeDiagnostic(d);
        }
        LC->clang_disposeTranslationUnit(tu);
    }
    LC->clang_disposeIndex(idx);
    ctg_free(argv);
    return found;
}

/* Tests of rr that crashed under gcc. */
static unsigned crashed_tests(const replay_result *rr)
{
    unsigned n = 0;
    for (size_t i = 0; i < rr->n_tests; i++)
        n += rr->tests[i].outcome == REPLAY_CRASH;
    return n;
}

/* Fills the warning when gcov's figure is clearly below the engine's or a
 * test claims an error it does not reach. */
static void make_warning(const runcheck_opts *o, const replay_result *rr, runcheck_result *r)
{
    double g = program_pct(o, rr);
    long i = first_divergent(o, rr);
    bool claim = i >= 0 && rr->tests[i].covers_error && !rr->tests[i].reached_error;
    if (g >= o->engine_pct - RUNCHECK_GAP && !claim) {
        if (i >= 0 && kinds_known(o, rr)) { /* the figures agree, one test does not */
            char how[320];
            char *abs = fs_realpath(o->replay.out_dir, NULL);
            divergence(o, rr, (size_t)i, how, sizeof how);
            snprintf(r->warning, sizeof r->warning, "the search and gcc's replay disagree: %s; "
                     "check with: ctestgen replay %s", how, abs ? abs : o->replay.out_dir);
            ctg_free(abs);
        }
        return;
    }
    char how[320], var[256], why[400] = "";
    char *out_abs = fs_realpath(o->replay.out_dir, NULL);
    bool uninit = uninit_read(o, rr->arch_bits, var, sizeof var);
    if (uninit)
        snprintf(why, sizeof why, "%s, where gcc -O0 reads what its stack holds and the "
                                  "engine 0",
                 var);
    if (i >= 0)
        divergence(o, rr, (size_t)i, how, sizeof how);
    else if (kinds_known(o, rr) && uninit)
        snprintf(how, sizeof how, "every test ends under gcc as in the engine, but paths may "
                                  "part at ");
    else if (kinds_known(o, rr) && crashed_tests(rr))
        snprintf(how, sizeof how, "every test ends under gcc as in the engine, and %u of them "
                                  "crash: gcov loses what a crashed run counted last (the "
                                  "counter of the branch that led to the crash comes after it)",
                 crashed_tests(rr));
    else if (kinds_known(o, rr))
        snprintf(how, sizeof how, "every test ends under gcc as in the engine; the gap is in "
                                  "what is counted (gcc's branches are not LLVM's edges) or in "
                                  "the path taken (an uninitialised local, call arguments that "
                                  "read input evaluated in another order)");
    else
        snprintf(how, sizeof how, "no test crashed or hung under gcc; the program may read "
                                  "uninitialised memory or depend on the compiler");
    snprintf(r->warning, sizeof r->warning,
             "gcc's replay covers %.1f%% of branches where the engine counted %.1f%% of edges: "
             "%s%s%s; check with: ctestgen replay %s",
             g, o->engine_pct, how, uninit && (i >= 0 || !kinds_known(o, rr)) ? "; " : "", why,
             out_abs ? out_abs : o->replay.out_dir);
    ctg_free(out_abs);
}

/* Adds the figures to stats.json (its other content unchanged). */
static bool record_stats(const runcheck_opts *o, const runcheck_result *r, ctg_err *e)
{
    char *path = fs_join(o->replay.out_dir, "stats.json");
    if (!path)
        return err_set(e, "%s: out of memory", o->replay.out_dir);
    ctg_err le = {{0}};
    stats_t *s = stats_load(path, &le);
    bool ok = true;
    if (s) {
        stats_set(s, "replay.tests", r->tests);
        stats_set(s, "replay.branches", r->branches);
        stats_set(s, "replay.branches_covered", r->branches_covered);
        stats_set(s, "replay.removed_timeouts", r->removed);
        stats_set(s, "replay.crashed", r->crashed);
        stats_set(s, "replay.ran_out", r->ran_out);
        stats_set(s, "replay.error_reached", r->error_reached);
        stats_set(s, "replay.diverged", r->warning[0] != '\0');
        ok = stats_write(s, path, e);
        stats_free(s);
    }
    ctg_free(path);
    return ok;
}

bool runcheck(const runcheck_opts *o, runcheck_result *r, replay_result *keep, ctg_err *e)
{
    memset(r, 0, sizeof *r);
    replay_result rr;
    bool ok = replay_suite(&o->replay, &rr, e);
    for (size_t i = 0; ok && i < rr.n_tests; i++)
        if (rr.tests[i].outcome == REPLAY_TIMEOUT) {
            ok = remove_test(o, rr.tests[i].name, e);
            r->removed += ok;
        }
    if (ok) {
        r->tests = (unsigned)rr.n_tests - r->removed;
        r->generated = program_branches(o, &rr, &r->branches, &r->branches_covered);
        r->crashed = rr.n_outcome[REPLAY_CRASH];
        r->ran_out = rr.n_outcome[REPLAY_RAN_OUT];
        r->error_reached = rr.error_reached;
        make_warning(o, &rr, r);
        ok = record_stats(o, r, e);
    }
    if (ok && keep)
        *keep = rr;
    else
        replay_result_release(&rr);
    return ok;
}
