/*
 * engine.c - runs a strategy: owns the executor, the archive, the suite on
 * disk, the budgets and the progress line (see engine.h).
 *
 * Strategies call ctx_exec for every run; the engine keeps the tests that add
 * coverage (test-suite/ + corpus/), records crashes, timeouts and errors
 * (crashes/, one file per signature, crashes.h), and stops the run when a
 * budget is spent, every goal is covered (unless --keep-going) or, with
 * --stop-on-error, an error is hit.
 *
 * A new crash is minimised (--crash-min-execs runs) right before the next
 * run on the same executor, so that the maps of the run that found it stay
 * readable until then, and, for what is left, when the strategy has
 * finished.  Minimisation runs go straight to exec_run: they count toward
 * --max-execs and the run counters of stats.json, respect --time, and never
 * add tests to the suite or coverage to the archive.  Beyond one crash's
 * worth (--crash-min-execs), they take at most MIN_SHARE of all runs: a
 * Test-Comp task whose assume() calls abort() at a hundred call sites has a
 * hundred abort signatures, and minimising each spent 99 % of a concolic
 * run's executions (aim-100-3-4-sat-4: 24,152 of 24,408 in 10 s); a crash
 * found past the share keeps the input it was found with (and any smaller
 * one found later).
 */
#include "engine_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/hash.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../base/target.h"
#include "../compile/build.h"
#include "../report/stats.h"
#include "../suite/suite.h"
#include "crashes.h"
#include "strategy.h"

#define PROGRESS_PERIOD_S 0.25
#define STATS_PERIOD_S 5.0
#define STATS_MAX_SAMPLES 512


/* ---- budgets ------------------------------------------------------------- */

double ctx_elapsed(const search_ctx *c) { return fs_now() - c->t0; }
uint64_t ctx_execs(const search_ctx *c) { return c->execs; }
bool ctx_failed(const search_ctx *c) { return c->failed; }

/* The budget that is spent (or the executor failure), NULL while none. */
static const char *budget_spent(const search_ctx *c)
{
    const ctg_options *o = c->opts;
    if (c->failed)
        return "executor failure";
    if (o->search.max_execs && c->execs >= o->search.max_execs)
        return "execution budget spent";
    if (o->search.time_s > 0 && ctx_elapsed(c) >= o->search.time_s)
        return "time budget spent";
    return NULL;
}

/* Checks every stop condition; records the first reason met. */
static bool check_stop(search_ctx *c)
{
    const ctg_options *o = c->opts;
    if (c->prv.draining) /* the bounded checker's inputs at the end */
        return interrupt_requested();
    if (c->stop)
        return true;
    eng_prove_poll(c);
    const char *why = interrupt_requested() ? "interrupted" : budget_spent(c);
    if (!why && o->search.stop_on_bug && crashes_count(c->out.crashes) > suite_n_error_records(c->out.suite))
        why = "a bug found (--stop-on-bug)";
    else if (!why && o->search.stop_on_error && eng_errors_done(c) > 0)
        why = o->search.property && !strcmp(o->search.property, PROP_ERROR_CALL)
                  ? "error reached (coverage-error-call; --keep-going searches on)"
                  : "error reached (--stop-on-error)";
    else if (!why && !o->search.keep_going && !c->build->san_bin && /* sanitizers: bugs
                                                   beyond the branches, to the budget */
             archive_n_edges(c->archive) > 0 &&
             archive_covered_edges(c->archive) == archive_n_edges(c->archive) &&
             eng_errors_done(c) == archive_n_errors(c->archive))
        why = "every goal covered";
    else if (!why)
        why = eng_prove_stop(c);
    if (why) {
        c->stop = true;
        c->stop_reason = why;
    }
    return c->stop;
}

bool ctx_budget_left(const search_ctx *c) { return !check_stop((search_ctx *)c); }

/* ---- progress -------------------------------------------------------------- */

/* Draws the one-line progress display on a terminal (stderr). */
static void progress(search_ctx *c, bool force)
{
    if (!c->tty || c->opts->ui.quiet)
        return;
    double now = fs_now();
    if (!force && now - c->last_progress < PROGRESS_PERIOD_S)
        return;
    c->last_progress = now;
    double el = ctx_elapsed(c);
    const ctg_options *o = c->opts;
    char left[48] = ""; /* what is left of the budget: seconds, or executions */
    if (o->search.time_s > 0)
        snprintf(left, sizeof left, "  %.0fs left", el < o->search.time_s ? o->search.time_s - el : 0);
    else if (o->search.max_execs)
        snprintf(left, sizeof left, "  %llu execs left",
                 (unsigned long long)(c->execs < o->search.max_execs ? o->search.max_execs - c->execs
                                                                      : 0));
    fprintf(stderr, "\r\033[K[ctestgen] %6.1fs%s  %llu execs (%.0f/s)  edges %u/%u  tests %u  "
                    "errors %u  crashes %u",
            el, left, (unsigned long long)c->execs, el > 0 ? (double)c->execs / el : 0.0,
            archive_covered_edges(c->archive), archive_n_edges(c->archive),
            suite_n_tests(c->out.suite), archive_reached_errors(c->archive),
            suite_n_crashes(c->out.suite) - suite_n_error_records(c->out.suite));
    c->progress_drawn = true;
}

void ctx_log(search_ctx *c, const char *fmt, ...)
{
    if (c->opts->ui.quiet)
        return;
    if (c->progress_drawn)
        fputs("\r\033[K", stderr);
    va_list ap;
    va_start(ap, fmt);
    fputs("ctestgen: ", stderr);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (c->progress_drawn)
        progress(c, true);
}

/* A file of the output could not be written (e says which and why).  The
 * first failure prints one line and, unless --on-write-error continue,
 * stops the search; later ones are only counted. */
static void write_failure(search_ctx *c, const ctg_err *e, bool a_test)
{
    c->out.unwritten += a_test;
    if (c->out.write_failed)
        return;
    c->out.write_failed = true;
    c->out.write_err = *e;
    bool go_on = c->opts->out.write_continue;
    ctx_log(c, "%s; %s", e->msg,
            go_on ? "searching on without writing (--on-write-error continue)"
                  : "stopping the search (what is on disk is kept)");
    if (!go_on && !c->stop) {
        c->stop = true;
        c->stop_reason = "the output could not be written (disk full?)";
    }
}

static void set_counters(search_ctx *c);

/* Samples coverage for stats.json and rewrites it now and then. */
static void sample_stats(search_ctx *c, bool force)
{
    double el = ctx_elapsed(c);
    stats_sample x = {el, c->execs, archive_covered_edges(c->archive),
                      archive_reached_errors(c->archive), suite_n_tests(c->out.suite)};
    stats_record(c->out.stats, &x);
    if (force || fs_now() - c->last_stats >= STATS_PERIOD_S) {
        c->last_stats = fs_now();
        ctg_err e = {{0}};
        set_counters(c);
        if ((!c->out.write_failed || force) && !stats_write(c->out.stats, c->out.stats_path, &e))
            write_failure(c, &e, false);
    }
}

/* ---- runs ------------------------------------------------------------------ */

/* Crash-site namespace of an executor (crashes.h): 1 for prog.sym, 2 for
 * the sanitizer's second executor. */
static unsigned crash_ns(const search_ctx *c, const exec_t *x)
{
    return x == c->xs ? 1u : x && x == c->san.x ? 2u : 0u;
}

/* Records the last run of x in crashes/ when it is a crash (crashes.h). */
void eng_record_crash(search_ctx *c, const exec_t *x, const exec_result *r)
{
    ctg_err e = {{0}};
    if (c->out.write_failed && c->opts->out.write_continue)
        return; /* nothing more is written */
    if (!crashes_record(c->out.crashes, x, r, crash_ns(c, x), c->execs, ctx_elapsed(c), &e))
        write_failure(c, &e, true);
}

typedef struct min_arg {
    search_ctx *c;
    exec_t *x;
} min_arg;

#define MIN_SHARE 0.2

/* crash_runner.run: one minimisation run, counted and within the budgets
 * and MIN_SHARE, outside the archive and the suite. */
static bool min_run(void *arg, const uint8_t *in, size_t len, exec_result *r)
{
    min_arg *a = arg;
    search_ctx *c = a->c;
    if (budget_spent(c))
        return false;
    if (c->min_execs >= c->opts->search.crash_min_execs + MIN_SHARE * (double)c->execs) {
        c->min_capped++;
        return false;
    }
    if (!exec_run(a->x, in, len, 0, 0, r, &c->err)) {
        c->failed = true;
        return false;
    }
    c->execs++;
    c->min_execs++;
    c->kinds[r->kind]++;
    progress(c, false);
    return true;
}

/* Minimises the crashes waiting for executor x. */
void eng_minimise_crashes(search_ctx *c, exec_t *x)
{
    if (!x || !crashes_pending(c->out.crashes, crash_ns(c, x)))
        return;
    unsigned ns = crash_ns(c, x);
    min_arg a = {c, x};
    crash_runner rn = {x, min_run, &a};
    ctg_err e = {{0}};
    if (!crashes_minimise(c->out.crashes, ns, &rn, &e))
        write_failure(c, &e, true);
}

/* Whether in lies in x's input area (which a run on x overwrites). */
static bool in_area(const exec_t *x, const uint8_t *in, size_t len)
{
    size_t area;
    uintptr_t a = (uintptr_t)exec_input(x, &area), p = (uintptr_t)in;
    return in && len && p >= a && p - a < CTG_MAX_INPUT;
}

/* Minimises the crashes waiting for x before a run of *in.  When *in lies
 * in x's input area, which those runs overwrite, it is first copied to
 * *copy (the caller frees it) and *in points there.  False when out of
 * memory. */
static bool minimise_before_run(search_ctx *c, exec_t *x, const uint8_t **in, size_t len,
                                uint8_t **copy)
{
    if (!crashes_pending(c->out.crashes, crash_ns(c, x)))
        return true;
    if (in_area(x, *in, len)) {
        if (!(*copy = ctg_malloc(len))) {
            ctx_log(c, "out of memory before a run");
            return false;
        }
        *in = memcpy(*copy, *in, len);
    }
    eng_minimise_crashes(c, x);
    return true;
}

/* Writes the last run as a test of the suite.  False when it is not on
 * disk (out of memory, or the write failed: write_failure). */
static bool keep_test(search_ctx *c, const exec_t *x, const exec_result *r)
{
    if (c->out.write_failed) {
        c->out.unwritten++;
        return false;
    }
    test_t *t = test_from_exec(x, r);
    if (!t) {
        ctx_log(c, "out of memory while saving a test");
        return false;
    }
    t->found_at_exec = c->execs;
    t->found_at_s = ctx_elapsed(c);
    t->id = suite_next_test_id(c->out.suite);
    ctg_err e = {{0}};
    bool ok = suite_add(c->out.suite, t, &e);
    if (!ok)
        write_failure(c, &e, true);
    /* cut at an internal cap: the input area (CTG_MAX_INPUT; the run ended
     * there as "ran out", so the test replays as it ran) or, in theory, the
     * value log (the test then holds fewer values than the run took) */
    if (ok && (r->status & (CTG_ST_INPUT_FULL | CTG_ST_LOG_FULL)))
        stats_add(c->out.stats, "tests.cut_at_cap", 1);
    if (ok && c->n_kept == 0) /* seconds from the start of the run, build included */
        stats_set(c->out.stats, "tests.first_s", t->found_at_s);
    if (ok && r->kind == EXEC_ERROR)
        eng_errcheck_test(c, t, r);
    if (ok && ctg_grow((void **)&c->kept, &c->cap_kept, c->n_kept + 1, sizeof *c->kept) == 0)
        c->kept[c->n_kept++] = t;
    else
        test_free(t);
    return ok;
}

size_t ctx_n_kept(const search_ctx *c) { return c->n_kept; }
const test_t *ctx_kept(const search_ctx *c, size_t i) { return i < c->n_kept ? c->kept[i] : NULL; }

/* A run that ran out of input without an extension flag went on with
 * zeros, but its test would hold only the values it read: the replay, which
 * stops where a test's values run out (TestCov), would not take the path
 * counted here.  So before such a run is kept it runs once more with the
 * zeros appended to the input (CTG_FL_EXTEND_ZERO): the same path, and the
 * test holds every value it read.  The re-run is counted in stats.json
 * (runs.ran_out_reruns), not in the budget; RAN_OUT stays set in r for the
 * strategy.  False when the run is not to be kept (the re-run took another
 * path: a nondeterministic program) or the executor failed (c->failed). */
static bool settle_ran_out(search_ctx *c, exec_t *x, const uint8_t *in, size_t len,
                           uint32_t flags, exec_result *r)
{
    if (!(r->status & CTG_ST_RAN_OUT) || (r->status & CTG_ST_INPUT_FULL) ||
        (flags & CTG_FL_EXTEND_ANY))
        return true;
    exec_result r2;
    if (!exec_run(x, in, len, flags | CTG_FL_EXTEND_ZERO, 0, &r2, &c->err)) {
        c->failed = true;
        return false;
    }
    stats_add(c->out.stats, "runs.ran_out_reruns", 1);
    if (r2.kind != r->kind)
        return false;
    r2.status |= CTG_ST_RAN_OUT;
    *r = r2;
    return true;
}

/* Records a crash of the last run of x.  A crash or abort of prog.sym is
 * run again on prog.cov (one more execution) and recorded with prog.cov's
 * crash site, so a crash both binaries find is one file, not two (their
 * addresses differ); without budget, or when prog.cov does not crash the
 * same way, it is recorded as prog.sym found it. */
static void record_crash_via_cov(search_ctx *c, exec_t *x, const exec_result *r)
{
    if (x != c->xs || (r->kind != EXEC_CRASH && r->kind != EXEC_ABORT) || r->stack_overflow ||
        budget_spent(c)) {
        eng_record_crash(c, x, r);
        return;
    }
    /* the input of x's run, copied: prog.cov's crashes may be minimised
     * first, and x's maps stay as they are */
    size_t area, used = exec_consumed(x);
    uint8_t *copy = ctg_malloc(used + 1);
    exec_result r2;
    bool same = copy != NULL;
    if (same) {
        memcpy(copy, exec_input(x, &area), used);
        eng_minimise_crashes(c, c->x);
        same = !budget_spent(c);
    }
    if (same && !eng_timed_run(c, c->x, copy, used, 0, &r2))
        same = false, c->failed = true;
    ctg_free(copy);
    if (same) {
        c->execs++;
        c->kinds[r2.kind]++;
        same = r2.kind == r->kind && r2.signal == r->signal;
    }
    if (same)
        eng_record_crash(c, c->x, &r2);
    else if (!c->failed)
        eng_record_crash(c, x, r);
}

/* The engine's bookkeeping after a run of in on x that gave out->r:
 * counters, hang and crash records, the archive and the suite. */
static void after_run(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                      ctx_run *out)
{
    c->execs++;
    c->kinds[out->r.kind]++;
    if (out->r.status & CTG_ST_EXT_LIMIT)
        stats_add(c->out.stats, "runs.extend_limit", 1);
    /* a run that timed out is a hang record (crashes/), never a test:
     * TestCov kills it and credits none of its coverage */
    if (out->r.kind == EXEC_TIMEOUT) {
        record_crash_via_cov(c, x, &out->r);
    } else if (out->r.kind != EXEC_ASSUME) {
        /* the archive holds what the suite on disk covers: a test that
         * cannot be written adds nothing (unless --on-write-error continue,
         * where the summary says how many tests are missing) */
        /* an error test the check did not confirm yet: another try */
        if ((archive_would_add(c->archive, exec_cov(x), &out->r) ||
             eng_errcheck_wanted(c, &out->r)) &&
            settle_ran_out(c, x, in, len, flags, &out->r)) {
            out->kept = keep_test(c, x, &out->r);
            if (out->kept || c->opts->out.write_continue)
                out->new_goals = archive_update(c->archive, exec_cov(x), &out->r);
        }
        record_crash_via_cov(c, x, &out->r);
    }
    eng_san_after(c, x, &out->r, out->kept);
    if (out->new_goals)
        sample_stats(c, false);
    progress(c, false);
}

/* After a run of in on prog.sym that gave *r: eng_probe_sym, and when that
 * raised prog.sym's bound, the run again with it (the first one counted as
 * an execution and forgotten), so the strategy sees the values the
 * program reads.  False when an executor failed. */
static bool sym_learn(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags,
                      exec_result *r)
{
    if (!(r->status & CTG_ST_EXT_LIMIT) || in_area(c->x, in, len) || in_area(c->xs, in, len) ||
        check_stop(c))
        return true;
    uint32_t was = c->lim.sym_limit;
    eng_minimise_crashes(c, c->x);
    if (!eng_probe_sym(c, in, len, flags, r))
        return false;
    if (c->lim.sym_limit <= was || check_stop(c) || !eng_execs_left(c, 2))
        return true;
    c->execs++;
    c->kinds[r->kind]++;
    return eng_timed_run(c, c->xs, in, len, flags, r);
}

bool eng_run_on(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                   ctx_run *out)
{
    ctx_run local;
    if (!out)
        out = &local;
    memset(out, 0, sizeof *out);
    if (check_stop(c))
        return false;
    uint8_t *copy = NULL;
    if (!minimise_before_run(c, x, &in, len, &copy) || !eng_bmc_before_run(c, x) || check_stop(c)) {
        ctg_free(copy);
        return false;
    }
    if (!eng_probe_extension(c, x, in, len, flags) || !eng_timed_run(c, x, in, len, flags, &out->r) ||
        (x == c->xs && !sym_learn(c, in, len, flags, &out->r))) {
        ctg_free(copy);
        c->failed = true;
        return false;
    }
    eng_note_run(c, x, &out->r);
    after_run(c, x, in, len, flags, out);
    ctg_free(copy);
    return !c->failed;
}

/* The known map of a batch: the strategy's bucket bits of every edge the
 * archive holds, nothing for the others (a run that covers one is news to
 * the engine whatever the strategy knows); of the features (after the
 * edges and the spare counter, rt_protocol.h), the strategy's bits, all
 * when it keeps none. */
static bool batch_known(search_ctx *c, const uint8_t *seen)
{
    uint32_t n = c->db->n_edges;
    size_t len = (size_t)ctg_cov_len(n, c->db->n_cmp);
    if (!c->bat.known && !(c->bat.known = ctg_malloc(len)))
        return false;
    for (uint32_t j = 0; j < n; j++)
        c->bat.known[j] = archive_edge_covered(c->archive, j) ? (seen ? seen[j] : 0xff) : 0;
    for (size_t j = n; j < len; j++)
        c->bat.known[j] = seen ? seen[j] : 0xff;
    c->bat.known[n] = 0xff; /* the spare counter is never news */
    return true;
}

void ctx_set_overlap(search_ctx *c, void (*fn)(void *), void *arg)
{
    c->bat.overlap = fn;
    c->bat.overlap_arg = arg;
}

void ctx_set_watch(search_ctx *c, const uint32_t *sites, uint32_t n, const uint8_t *log)
{
    exec_set_watch(c->x, sites, n, log);
}

uint32_t ctx_batch_broken(const search_ctx *c, uint32_t i, const ctg_cmp_rec **recs)
{
    *recs = NULL;
    return c->bat.batch_sent ? exec_batch_broken(c->x, i, recs) : UINT32_MAX;
}

/* The strategy's overlap work, once per ctx_exec_batch (ctx_set_overlap). */
static void run_overlap(void *arg)
{
    search_ctx *c = arg;
    if (c->bat.overlap && !c->bat.overlap_done) {
        c->bat.overlap_done = true;
        c->bat.overlap(c->bat.overlap_arg);
    }
}

uint32_t ctx_exec_batch(search_ctx *c, const uint8_t *const *in, const size_t *len, uint32_t n,
                        uint32_t flags, const uint8_t *seen, ctx_run *out)
{
    memset(out, 0, sizeof *out);
    out->stopped = true;
    c->bat.batch_sent = false;
    if (!n)
        return 0;
    exec_t *x = c->x;
    c->bat.overlap_done = false;
    if (!exec_can_batch(x) || (flags & (CTG_FL_DIST | CTG_FL_CMPLOG | CTG_FL_EXTEND_ANY)) ||
        crashes_pending(c->out.crashes, crash_ns(c, x)) || n == 1 || !batch_known(c, seen)) {
        run_overlap(c);
        if (!ctx_exec(c, in[0], len[0], flags, out))
            return 0;
        out->stopped = true;
        return 1;
    }
    if (check_stop(c))
        return 0;
    uint64_t max = c->opts->search.max_execs;
    if (max && max - c->execs < n)
        n = (uint32_t)(max - c->execs);
    exec_batch b;
    exec_set_overlap(x, run_overlap, c);
    bool ran = exec_run_batch(x, in, len, n, c->bat.known, flags, &b, &out->r, &c->err);
    exec_set_overlap(x, NULL, NULL);
    c->bat.batch_sent = ran;
    run_overlap(c); /* when the batch was not sent */
    if (!ran) {
        c->failed = true;
        return 0;
    }
    uint32_t plain = b.ran - (b.stopped ? 1u : 0u);
    c->bat.batches++;
    c->bat.batched += b.ran;
    c->execs += plain;
    c->kinds[EXEC_NORMAL] += plain;
    if (plain) {
        exec_result slowest = {.kind = EXEC_NORMAL, .usecs = b.plain_max_us};
        eng_calibrate(c, x, &slowest);
        eng_san_batch(c, in, len, plain);
    }
    out->stopped = b.stopped;
    if (!b.stopped) {
        progress(c, false);
        return b.ran;
    }
    uint32_t k = b.ran - 1;
    if (!eng_settle_timeout(c, x, in[k], len[k], flags, 0, &out->r)) {
        c->failed = true;
        return 0;
    }
    after_run(c, x, in[k], len[k], flags, out);
    return c->failed ? 0 : b.ran;
}

bool ctx_exec(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags, ctx_run *out)
{
    return eng_run_on(c, c->x, in, len, flags, out);
}

exec_config eng_run_config(const search_ctx *c, const char *binary, bool sanitizer)
{
    const ctg_options *o = c->opts;
    exec_config xc = {
        .binary = binary,
        .n_edges = c->db->n_edges,
        .n_cmp = c->db->n_cmp,
        .timeout_ms = o->exec.timeout_ms,
        .mem_limit_mb = o->exec.mem_mb,
        .work_dir = c->out.scratch,
        .run_flags = strcmp(o->exec.malloc_fail, "null") ? 0 : CTG_FL_MALLOC_NULL,
        .args = o->exec.prog_args.items,
        .n_args = o->exec.prog_args.n,
        .sanitizer = sanitizer,
    };
    if (o->exec.timeout_auto && xc.timeout_ms > ENG_TMO_START_MS)
        xc.timeout_ms = ENG_TMO_START_MS;
    return xc;
}

void ctx_summary_line(search_ctx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    sbuf_vprintf(&c->out.notes, fmt, ap);
    va_end(ap);
    sbuf_putc(&c->out.notes, '\n');
}

const exec_t *ctx_executor(const search_ctx *c) { return c->x; }
rng *ctx_rng(search_ctx *c) { return &c->rng; }
const progdb *ctx_db(const search_ctx *c) { return c->db; }
const ctg_options *ctx_opts(const search_ctx *c) { return c->opts; }
const archive_t *ctx_archive(const search_ctx *c) { return c->archive; }
int ctx_arch_bits(const search_ctx *c) { return c->db->arch_bits; }

void ctx_stat_info(search_ctx *c, const char *name, const char *value)
{
    stats_set_info(c->out.stats, name, value);
}

void ctx_stat_set(search_ctx *c, const char *name, double value)
{
    stats_set(c->out.stats, name, value);
}

/* ---- set-up ------------------------------------------------------------------ */

/* Creates the output directory, refusing to clobber an earlier run unless
 * --force.  Nothing is deleted before the build has succeeded. */
static bool prepare_out_dir(const ctg_options *o, ctg_err *e)
{
    const char *dir = o->out.out_dir;
    char *marker = fs_join(dir, "stats.json");
    char *suite = fs_join(dir, "test-suite");
    bool earlier = marker && suite && (fs_exists(marker) || fs_exists(suite));
    bool have_stats = marker && fs_exists(marker);
    ctg_free(marker);
    ctg_free(suite);
    if (o->out.resume)
        return have_stats || err_set(e, "%s: no earlier run to resume (no stats.json); run "
                                        "without --resume", dir);
    if (earlier && !o->out.force)
        return err_set(e, "%s: holds an earlier run; pass --force to replace it or choose "
                          "another -o DIR",
                       dir);
    if (earlier) {
        static const char *const parts[] = {"test-suite", "corpus", "crashes", "stats.json",
                                            SUITE_REGRESSION_FILE, "bin", "build.json", NULL};
        for (int i = 0; parts[i]; i++) {
            char *p = fs_join(dir, parts[i]);
            bool ok = p && fs_rm_rf(p, e);
            ctg_free(p);
            if (!ok)
                return false;
        }
    }
    return fs_mkdir_p(dir, e);
}

/* Opens the suite with the Test-Comp metadata of this run. */
static suite_t *open_suite(const ctg_options *o, const char *program_file, const progdb *db,
                           ctg_err *e)
{
    char hash[65];
    if (!hash_file(program_file, hash, e))
        return NULL;
    suite_meta m = {
        .program_file = program_file,
        .program_hash = hash,
        .entry = o->build.function ? o->build.function : "main",
        .arch_bits = db->arch_bits,
        .specification = o->search.property && !strcmp(o->search.property, PROP_ERROR_CALL)
                             ? SUITE_SPEC_ERROR_CALL
                             : SUITE_SPEC_BRANCHES,
        .producer = "ctestgen " CTG_VERSION,
        .keep_existing = o->out.resume,
        .args = o->exec.prog_args.items,
        .n_args = o->exec.prog_args.n,
        .raw_tests = target_of_harness((uint32_t)db->harness)->raw_tests,
    };
    return suite_open(o->out.out_dir, &m, e);
}

/* Builds the context: executor, archives, suite, stats. */
static bool ctx_init(search_ctx *c, const ctg_options *o, const char *program_file,
                     build_result *b, ctg_err *e)
{
    memset(c, 0, sizeof *c);
    c->opts = o;
    c->build = b;
    c->db = b->db;
    c->cov_bin = b->cov_bin;
    c->sym_bin = b->sym_bin;
    rng_seed(&c->rng, o->search.seed);
    c->tty = isatty(2);
    if (!prepare_out_dir(o, e))
        return false;
    /* the runs' working directory: what the program writes to relative
     * paths stays there, and goes with it at the end */
    c->out.scratch = fs_join(o->out.out_dir, ".work");
    if (!c->out.scratch)
        return err_set(e, "out of memory while setting up the search");
    if (!fs_rm_rf(c->out.scratch, e) || !fs_mkdir_p(c->out.scratch, e))
        return false;
    /* --sanitize-mode all: prog.san runs every input in prog.cov's place */
    c->san.main = b->san_bin && b->san_aligned && !strcmp(o->exec.san_mode, "all");
    exec_config xc = eng_run_config(c, c->san.main ? b->san_bin : b->cov_bin, c->san.main);
    c->x = exec_new(&xc, e);
    if (!c->x)
        return false;
    eng_extension_start(c, (uint32_t)o->exec.extend_limit);
    c->archive = archive_new(b->db->n_edges, b->db->n_errors);
    c->out.stats = stats_new(STATS_MAX_SAMPLES);
    c->out.stats_path = fs_join(o->out.out_dir, "stats.json");
    if (!c->archive || !c->out.stats || !c->out.stats_path)
        return err_set(e, "out of memory while setting up the search");
    c->out.suite = open_suite(o, program_file, b->db, e);
    if (!c->out.suite)
        return false;
    c->out.crashes = crashes_new(c->out.suite, c->san.main ? b->san_bin : b->cov_bin,
                             o->search.crash_min_execs);
    if (!c->out.crashes)
        return err_set(e, "out of memory while setting up the search");
    eng_errcheck_start(c);
    eng_triage_start(c);
    eng_prove_start(c);
    return eng_san_start(c, e);
}

static void ctx_release(search_ctx *c)
{
    exec_free(c->x); /* the servers run in the scratch directory */
    exec_free(c->xs);
    eng_san_free(c);
    ctg_free(c->tri.dbg_bin);
    c->x = c->xs = NULL;
    if (c->out.scratch)
        fs_rm_rf(c->out.scratch, NULL);
    ctg_free(c->out.scratch);
    sbuf_release(&c->out.notes);
    archive_free(c->archive);
    crashes_free(c->out.crashes);
    suite_close(c->out.suite);
    stats_free(c->out.stats);
    ctg_free(c->out.stats_path);
    for (size_t i = 0; i < c->n_kept; i++)
        test_free(c->kept[i]);
    ctg_free(c->kept);
    ctg_free(c->bat.known);
    eng_errcheck_free(c);
    eng_prove_free(c);
    ctg_free(c->flips);
}

const char *eng_runs_counter(char *buf, size_t size, int k)
{
    snprintf(buf, size, "runs.%s", exec_kind_name((exec_kind)k));
    return buf;
}

/* Fills the summary and the final counters of stats.json. */
static void summarize(search_ctx *c, engine_summary *s)
{
    memset(s, 0, sizeof *s);
    s->execs = c->execs;
    s->secs = ctx_elapsed(c);
    s->edges_covered = archive_covered_edges(c->archive);
    s->n_edges = archive_n_edges(c->archive);
    s->errors_reached = archive_reached_errors(c->archive);
    s->n_errors = archive_n_errors(c->archive);
    s->edges_unreachable = c->prv.n_edges;
    s->errors_unreachable = c->prv.n_errors;
    s->errors_checked = c->echk.tries != NULL;
    s->errors_confirmed = c->echk.n_confirmed;
    s->error_tests_failed = c->echk.failed;
    s->tests = suite_n_tests(c->out.suite);
    s->crashes = suite_n_crashes(c->out.suite) - suite_n_error_records(c->out.suite);
    s->error_records = suite_n_error_records(c->out.suite);
    memcpy(s->kinds, c->kinds, sizeof s->kinds);
    s->stop_reason = c->stop_reason ? c->stop_reason : "strategy finished";
    s->write_failed = c->out.write_failed;
    s->unwritten = c->out.unwritten;
    snprintf(s->write_error, sizeof s->write_error, "%s", c->out.write_err.msg);
    double cut = stats_get(c->out.stats, "tests.cut_at_cap");
    if (cut > 0)
        ctx_summary_line(c, "  cut at a cap      %.0f test%s took all %u bytes of input a run "
                            "holds; each ends there (\"ran out\") in its replay too",
                         cut, cut == 1 ? "" : "s", (unsigned)CTG_MAX_INPUT);
    if (c->bat.batches) { /* whether the program or ctestgen holds a batched run back */
        double overlap_s, wait_s;
        exec_batch_times(c->x, &overlap_s, &wait_s);
        double out_s = s->secs - overlap_s - wait_s;
        ctx_summary_line(c, "  batches           %llu of %.1f inputs: ctestgen worked %.2fs while they "
                            "ran, then waited %.2fs for the program; %.2fs outside them",
                         (unsigned long long)c->bat.batches, (double)c->bat.batched / (double)c->bat.batches,
                         overlap_s, wait_s, out_s > 0 ? out_s : 0.0);
    }
    snprintf(s->notes, sizeof s->notes, "%s", sbuf_str(&c->out.notes));
    sbuf bugs = SBUF_INIT;
    eng_bug_lines(c, &bugs);
    snprintf(s->bugs, sizeof s->bugs, "%s", sbuf_str(&bugs));
    s->n_bugs = (unsigned)stats_n_bugs(c->out.stats);
    s->same_bug = (unsigned)crashes_aliases(c->out.crashes);
    sbuf_release(&bugs);
    s->test_kinds = c->n_kept ? ctg_calloc(c->n_kept, sizeof *s->test_kinds) : NULL;
    for (size_t i = 0; s->test_kinds && i < c->n_kept; i++)
        s->test_kinds[i] = c->kept[i]->kind;
    s->n_test_kinds = s->test_kinds ? c->n_kept : 0;
    set_counters(c);
}

void engine_summary_release(engine_summary *s)
{
    ctg_free(s->test_kinds);
    s->test_kinds = NULL;
    s->n_test_kinds = 0;
}

/* The counters of stats.json, as they stand (every rewrite has them, so an
 * interrupted run can be resumed from its last stats.json). */
static void set_counters(search_ctx *c)
{
    stats_set(c->out.stats, "execs", (double)c->execs);
    stats_set(c->out.stats, "seconds", ctx_elapsed(c));
    eng_san_counters(c);
    stats_set(c->out.stats, "edges.total", archive_n_edges(c->archive));
    stats_set(c->out.stats, "edges.covered", archive_covered_edges(c->archive));
    stats_set(c->out.stats, "errors.total", archive_n_errors(c->archive));
    stats_set(c->out.stats, "errors.reached", archive_reached_errors(c->archive));
    if (c->echk.tries) {
        stats_set(c->out.stats, "errors.confirmed", c->echk.n_confirmed);
        stats_set(c->out.stats, "errors.check_failed", c->echk.failed);
        stats_set(c->out.stats, "errors.check_s", c->echk.secs);
    }
    stats_set(c->out.stats, "tests", suite_n_tests(c->out.suite));
    stats_set(c->out.stats, "crashes", suite_n_crashes(c->out.suite) - suite_n_error_records(c->out.suite));
    stats_set(c->out.stats, "crashes.error_records", suite_n_error_records(c->out.suite));
    stats_set(c->out.stats, "crashes.min_execs", (double)c->min_execs);
    stats_set(c->out.stats, "crashes.min_capped", (double)c->min_capped);
    stats_set(c->out.stats, "executor.restarts", (double)exec_restarts(c->x));
    stats_set(c->out.stats, "executor.batches", (double)c->bat.batches);
    stats_set(c->out.stats, "executor.batched_runs", (double)c->bat.batched);
    double overlap_s, wait_s;
    exec_batch_times(c->x, &overlap_s, &wait_s);
    stats_set(c->out.stats, "executor.batch_overlap_s", overlap_s);
    stats_set(c->out.stats, "executor.batch_wait_s", wait_s);
    stats_set(c->out.stats, "executor.timeout_ms", (double)exec_timeout(c->x));
    stats_set(c->out.stats, "executor.timeout_rechecks", (double)(c->lim.cal[0].rechecks + c->lim.cal[1].rechecks));
    stats_set(c->out.stats, "executor.timeout_recovered", (double)(c->lim.cal[0].recovered + c->lim.cal[1].recovered));
    for (int k = 0; k < EXEC__COUNT; k++) {
        char name[64];
        stats_set(c->out.stats, eng_runs_counter(name, sizeof name, k), (double)c->kinds[k]);
    }
}

/* stats.json info: how a test reaches the program (its kind's input,
 * target.h) and the program's arguments, which `ctestgen replay` needs
 * again. */
/* info "opt.NAME": every strategy option in effect (compare --by opt.NAME). */
static void record_option(void *user, const char *name, const char *value)
{
    char key[96];
    snprintf(key, sizeof key, "opt.%s", name);
    stats_set_info(((search_ctx *)user)->out.stats, key, value);
}

static void record_input_kind(search_ctx *c, const ctg_options *o)
{
    const char *const *args = (const char *const *)o->exec.prog_args.items;
    const target_kind *k = target_resolve((uint32_t)c->db->harness, args, o->exec.prog_args.n,
                                          o->build.function != NULL);
    sbuf a = SBUF_INIT;
    for (int i = 0; i < o->exec.prog_args.n; i++)
        sbuf_printf(&a, "%s%s", i ? " " : "", args[i]);
    stats_set_info(c->out.stats, "input", k->input);
    stats_set_info(c->out.stats, "arch", c->db->arch_bits == 32 ? "32" : "64");
    char budget[96] = "none";
    if (o->search.time_s > 0 && o->search.max_execs)
        snprintf(budget, sizeof budget, "%g s or %llu executions", o->search.time_s,
                 (unsigned long long)o->search.max_execs);
    else if (o->search.time_s > 0)
        snprintf(budget, sizeof budget, "%g s", o->search.time_s);
    else if (o->search.max_execs)
        snprintf(budget, sizeof budget, "%llu executions", (unsigned long long)o->search.max_execs);
    stats_set_info(c->out.stats, "budget", budget);
    if (o->exec.prog_args.n && sbuf_ok(&a))
        stats_set_info(c->out.stats, "args", a.data);
    sbuf_release(&a);
}

/* A run that kept no test (every run crashed before its first branch, or
 * covered nothing) still leaves one: the empty test.  An empty suite scores
 * nothing, while a test is replayed as far as it goes - under gcc a crash
 * can come later than in the engine (a huge stack array is touched only
 * when written), and TestCov credits what ran before it. */
static void keep_one_test(search_ctx *c)
{
    /* with no run at all, only when the build used up --time: the user
     * still gets a suite that replays */
    double budget = c->opts->search.time_s;
    bool no_time = budget > 0 && ctx_elapsed(c) >= budget;
    if (suite_n_tests(c->out.suite) > 0 || (c->execs == 0 && !no_time) || c->out.write_failed)
        return;
    test_t *t = test_new(NULL, 0, NULL, 0);
    if (!t)
        return;
    t->found_at_exec = c->execs;
    t->found_at_s = ctx_elapsed(c);
    ctg_err e = {{0}};
    if (suite_add(c->out.suite, t, &e))
        stats_set(c->out.stats, "tests.empty_kept", 1);
    else
        write_failure(c, &e, true);
    test_free(t);
}

/* The build's wall time and what each stage of it took (0: from the
 * cache), for stats.json: where a newcomer's first run spends its budget. */
static void record_build_stages(search_ctx *c, const build_result *b)
{
    stats_set(c->out.stats, "build.seconds", b->secs);
    stats_set(c->out.stats, "build.compile_s", b->stage.compile);
    stats_set(c->out.stats, "build.passes_s", b->stage.passes);
    stats_set(c->out.stats, "build.cov_codegen_s", b->stage.cov_codegen);
    stats_set(c->out.stats, "build.san_s", b->stage.san);
}

bool engine_run(const ctg_options *o, const char *program_file, build_result *b,
                engine_summary *s, ctg_err *e)
{
    const char *name = o->search.strategy;
    const strategy *st = strategy_find(name);
    if (!st)
        return err_set(e, "--strategy: unknown strategy '%s'; see --help", name);
    search_ctx *c = ctg_calloc(1, sizeof *c);
    if (!c)
        return err_set(e, "out of memory");
    bool ok = ctx_init(c, o, program_file, b, e);
    void *state = NULL;
    bool resumed = true; /* false: the earlier stats.json must stay as it is */
    if (ok) {
        c->t0 = fs_now() - b->secs; /* --time counts the build */
        record_build_stages(c, b);
        if (b->sym_error[0])
            stats_set_info(c->out.stats, "build.sym_error", b->sym_error);
        if (o->out.resume)
            ok = resumed = eng_resume_run(c, e);
        stats_set_info(c->out.stats, "strategy", st->name);
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", (unsigned long long)o->search.seed);
        stats_set_info(c->out.stats, "seed", seed);
        stats_set_info(c->out.stats, "program", program_file);
        if (o->out.label)
            stats_set_info(c->out.stats, "label", o->out.label);
        record_input_kind(c, o);
        opt_each_kv(o, record_option, c);
        if (ok)
            sample_stats(c, true); /* a valid stats.json from the start */
        if (o->search.merge_dir) /* run --jobs: the workers' results, no search */
            eng_merge(c);
        else {
            state = ok ? st->init(c, e) : NULL;
            ok = state != NULL;
        }
    }
    while (state && ok && !check_stop(c) && (eng_sync(c), st->step(state, c)))
        ;
    if (state)
        st->finish(state, c);
    /* not needed any more: an interrupted run stops it, a finished one lets
     * it finish into the cache at the lowest priority (the replay first) */
    if (interrupt_requested())
        build_sym_cancel(b);
    else
        build_sym_detach(b);
    if (ok && c->out.crashes) { /* what the strategy left to minimise */
        eng_minimise_crashes(c, c->x);
        eng_minimise_crashes(c, c->xs);
    }
    if (ok && c->out.suite)
        keep_one_test(c);
    if (c->failed)
        ok = err_set(e, "%s", c->err.msg);
    if (c->out.suite) {
        eng_prove_finish(c);
        summarize(c, s);
        if (resumed)
            sample_stats(c, true);
        if (c->progress_drawn)
            fputs("\r\033[K", stderr);
    }
    ctg_free(c->sync.sync_next);
    ctx_release(c);
    ctg_free(c);
    return ok;
}
