/*
 * engine_limits.c - the two limits the engine puts on every run: the
 * per-run timeout (--timeout-ms auto: calibrated on the runs so far, a
 * timeout re-checked at a longer one) and the extension bound (how many
 * values a run may draw past its test, and the probes that raise it).
 */
#include "engine_int.h"

#include "../report/stats.h"

/* --timeout-ms auto (as AFL++): ENG_TMO_START_MS (engine_int.h) until a
 * run completes, then TMO_FACTOR times the slowest run that did not time
 * out, within [TMO_FLOOR_MS (AFL++'s rounding step), the cap].  A run that
 * times out below the cap is run again with TMO_RECHECK_X times the
 * timeout (at most the cap; the cap while no run has completed): the first
 * timeout and then one in TMO_RECHECK_EVERY, so a slow path that is not a
 * hang raises the timeout while genuine hangs cost about 1.1 timeouts each. */
#define TMO_FACTOR 5.0
#define TMO_FLOOR_MS 20u
#define TMO_RECHECK_X 8u
#define TMO_RECHECK_EVERY 64u

/* ---- per-run timeout ---------------------------------------------------------- */

/* Learns from a run that did not time out: the timeout becomes TMO_FACTOR
 * times the slowest such run, within [TMO_FLOOR_MS, cap]. */
void eng_calibrate(search_ctx *c, exec_t *x, const exec_result *r)
{
    struct tcal *t = &c->lim.cal[x == c->xs];
    if (!c->opts->exec.timeout_auto || r->kind == EXEC_TIMEOUT || r->usecs <= t->max_us)
        return;
    t->max_us = r->usecs;
    double ms = TMO_FACTOR * t->max_us / 1000.0 + 1.0;
    uint32_t cap = c->opts->exec.timeout_ms;
    exec_set_timeout(x, ms < TMO_FLOOR_MS ? TMO_FLOOR_MS : ms > cap ? cap : (uint32_t)ms);
}

/* Whether a run that timed out below the cap is run again at the cap. */
static bool recheck_timeout(search_ctx *c, exec_t *x, const exec_result *r)
{
    struct tcal *t = &c->lim.cal[x == c->xs];
    if (r->kind != EXEC_TIMEOUT || !c->opts->exec.timeout_auto ||
        exec_timeout(x) >= c->opts->exec.timeout_ms)
        return false;
    t->timeouts++;
    if ((t->timeouts - 1) % TMO_RECHECK_EVERY != 0)
        return false;
    t->rechecks++;
    return true;
}

/* After a run on x that gave r: a timeout picked by recheck_timeout is run
 * again at the cap (counted as one more execution); then the timeout is
 * calibrated.  False when the executor failed. */
bool eng_settle_timeout(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                        uint64_t seed, exec_result *r)
{
    if (recheck_timeout(c, x, r)) {
        uint32_t was = exec_timeout(x);
        c->execs++;
        c->kinds[EXEC_TIMEOUT]++;
        uint32_t cap = c->opts->exec.timeout_ms;
        bool none_done = c->lim.cal[x == c->xs].max_us == 0; /* no run has completed yet */
        exec_set_timeout(x, !none_done && was < cap / TMO_RECHECK_X ? was * TMO_RECHECK_X : cap);
        bool ok = exec_run(x, in, len, flags, seed, r, &c->err);
        exec_set_timeout(x, was);
        if (!ok)
            return false;
        c->lim.cal[x == c->xs].recovered += r->kind != EXEC_TIMEOUT;
    }
    eng_calibrate(c, x, r);
    return true;
}

/* exec_run with the calibrated timeout (eng_settle_timeout). */
bool eng_timed_run(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags,
                   exec_result *r)
{
    uint64_t seed = rng_next(&c->rng);
    return exec_run(x, in, len, flags, seed, r, &c->err) &&
           eng_settle_timeout(c, x, in, len, flags, seed, r);
}

/* ---- the extension bound ------------------------------------------------------ */
/* Extended runs may draw --extend-limit bytes past their input, then end as
 * "ran out": a program reading input in an endless loop ends instead of
 * timing out.  A program that needs more and then ends by itself (one that
 * reads a million values, then checks them) must not be cut short, so now
 * and then a run is preceded by a probe: the same input, run with the same
 * seed but a bound of probe_max, for measurement only (no test, no hang
 * record, nothing the strategy sees).  When the probe ends on its own past
 * the bound, the bound grows to twice what it consumed, and the run after
 * it, which draws the same values, is no longer cut short.  A probe that
 * runs out at probe_max doubles it (up to the input area, CTG_MAX_INPUT);
 * one that times out (at the cap of --timeout-ms) halves it.  Probes are
 * paid for by the runs that hit the bound, each counted as the bytes it
 * drew plus EXT_RUN_COST (a run's own cost, measured: ~220 us, as much as
 * drawing ~14 KiB of values): the next probe comes when they add up to
 * EXT_PROBE_RATIO times what the last probe drew, so on a program that
 * reads without end the probes cost about 1 / (EXT_PROBE_RATIO + 1) of the
 * time, at any size, and a program whose runs end by themselves is never
 * probed.
 *
 * prog.sym's runs get a bound of their own (sym_bound): every value
 * past the test is a symbolic input whose branches the concolic search may
 * negate, and on an endless reader a long extension makes paths of tens of
 * thousands of branches that bury the few that matter.  It is twice the
 * most any run that ended by itself consumed, at least EXT_SYM_MIN and at
 * most the bound of prog.cov.  A run of prog.sym that hits its bound is
 * followed now and then (the first time, then one in EXT_SYM_PROBE_EVERY)
 * by a run of the same input on prog.cov with prog.cov's bound, for
 * measurement only: a program that reads 100 values and then fails an
 * assumption ends by itself there, and prog.sym's bound grows to hold its
 * values, where concolic alone would never see past the 64th. */
#define EXT_PROBE_RATIO 4u
#define EXT_PROBE_START (1u << 20)
#define EXT_RUN_COST (16u << 10)
#define EXT_SYM_MIN 256u
#define EXT_SYM_PROBE_EVERY 32u

bool eng_execs_left(const search_ctx *c, uint64_t n)
{
    uint64_t max = c->opts->search.max_execs;
    return !max || c->execs + n <= max;
}

/* The seed of the next run, left to be drawn again by it: a measurement
 * run before it draws the same extension values. */
static uint64_t seed_of_next_run(search_ctx *c)
{
    rng again = c->rng;
    uint64_t seed = rng_next(&c->rng);
    c->rng = again;
    return seed;
}

/* The bound of prog.sym's runs, set on c->xs. */
static void sym_bound(search_ctx *c)
{
    uint64_t b = 2 * (uint64_t)c->lim.ended_max;
    if (b < EXT_SYM_MIN)
        b = EXT_SYM_MIN;
    if (b > c->lim.ext_limit)
        b = c->lim.ext_limit;
    c->lim.sym_limit = (uint32_t)b;
    stats_set(c->out.stats, "exec.sym_extend_limit", c->lim.sym_limit);
    if (c->xs)
        exec_set_extend_max(c->xs, c->lim.sym_limit);
}

void eng_sym_start(search_ctx *c) { sym_bound(c); }

/* Learns from a probe that gave r after consuming used bytes. */
static void learn_probe(search_ctx *c, size_t used, const exec_result *r)
{
    uint32_t size = c->lim.probe_max;
    if (r->kind == EXEC_TIMEOUT) { /* not below what every run may draw */
        uint32_t floor = c->lim.ext_limit > EXT_PROBE_START ? c->lim.ext_limit : EXT_PROBE_START;
        c->lim.probe_max = size / 2 > floor ? size / 2 : floor;
        stats_add(c->out.stats, "runs.probe_timeouts", 1);
    } else if (!(r->status & CTG_ST_RAN_OUT)) {
        if (used > c->lim.ext_limit) {
            uint64_t want = 2 * (uint64_t)used;
            c->lim.ext_limit = want > CTG_MAX_INPUT ? CTG_MAX_INPUT : (uint32_t)want;
            if (c->lim.probe_max < c->lim.ext_limit)
                c->lim.probe_max = c->lim.ext_limit;
            stats_set(c->out.stats, "exec.extend_limit", c->lim.ext_limit);
        }
    } else if (r->status & (CTG_ST_EXT_LIMIT | CTG_ST_INPUT_FULL)) {
        c->lim.probe_max = size < CTG_MAX_INPUT / 2 ? 2 * size : CTG_MAX_INPUT;
    }
    stats_set(c->out.stats, "exec.probe_max", c->lim.probe_max);
    stats_add(c->out.stats, "runs.probes", 1);
    c->lim.probe_due = c->lim.ext_drawn + (uint64_t)EXT_PROBE_RATIO * (used > size ? used : size);
}

bool eng_probe_extension(search_ctx *c, exec_t *x, const uint8_t *in, size_t len, uint32_t flags)
{
    if (!c->lim.ext_limit || !(flags & CTG_FL_EXTEND_ANY) || x != c->x ||
        c->lim.ext_drawn < c->lim.probe_due || !eng_execs_left(c, 2))
        return true;
    uint64_t seed = seed_of_next_run(c);
    /* at the cap of --timeout-ms, and not calibrated on: it draws far more
     * than the runs the timeout is for */
    exec_result r;
    uint32_t was = exec_timeout(x);
    exec_set_extend_max(x, c->lim.probe_max);
    exec_set_timeout(x, c->opts->exec.timeout_ms);
    bool ok = exec_run(x, in, len, flags, seed, &r, &c->err);
    exec_set_timeout(x, was);
    if (ok) {
        c->execs++;
        learn_probe(c, exec_consumed(x), &r); /* may raise the bound */
        sym_bound(c);
    }
    exec_set_extend_max(x, c->lim.ext_limit);
    return ok;
}

bool eng_probe_sym(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags,
                   const exec_result *r)
{
    if (!(r->status & CTG_ST_EXT_LIMIT) || c->lim.sym_limit >= c->lim.ext_limit || !c->lim.ext_limit)
        return true;
    if (c->lim.sym_hits++ % EXT_SYM_PROBE_EVERY != 0 || !eng_execs_left(c, 1))
        return true;
    /* prog.cov's own bound may be too short too: a concolic run alone
     * makes no other run of prog.cov that could probe it */
    if (!eng_probe_extension(c, c->x, in, len, flags & CTG_FL_EXTEND_ANY))
        return false;
    if (!eng_execs_left(c, 1))
        return true;
    uint64_t seed = seed_of_next_run(c);
    exec_result pr;
    if (!exec_run(c->x, in, len, flags & CTG_FL_EXTEND_ANY, seed, &pr, &c->err))
        return false;
    c->execs++;
    stats_add(c->out.stats, "runs.sym_probes", 1);
    eng_note_run(c, c->x, &pr);
    return true;
}

void eng_note_run(search_ctx *c, exec_t *x, const exec_result *r)
{
    size_t used = exec_consumed(x);
    if (x == c->x && (r->status & CTG_ST_EXT_LIMIT))
        c->lim.ext_drawn += used + EXT_RUN_COST;
    if (r->kind != EXEC_TIMEOUT && !(r->status & CTG_ST_RAN_OUT) && used > c->lim.ended_max) {
        c->lim.ended_max = used > UINT32_MAX ? UINT32_MAX : (uint32_t)used;
        sym_bound(c);
    }
}

void eng_extension_start(search_ctx *c, uint32_t limit)
{
    c->lim.ext_limit = limit;
    c->lim.probe_max = limit * 2ull > EXT_PROBE_START ? limit * 2u : EXT_PROBE_START;
    if (c->lim.probe_max > CTG_MAX_INPUT)
        c->lim.probe_max = CTG_MAX_INPUT;
    c->lim.probe_due = EXT_PROBE_START;
    exec_set_extend_max(c->x, c->lim.ext_limit);
}
