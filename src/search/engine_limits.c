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
    struct tcal *t = &c->cal[x == c->xs];
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
    struct tcal *t = &c->cal[x == c->xs];
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
        bool none_done = c->cal[x == c->xs].max_us == 0; /* no run has completed yet */
        exec_set_timeout(x, !none_done && was < cap / TMO_RECHECK_X ? was * TMO_RECHECK_X : cap);
        bool ok = exec_run(x, in, len, flags, seed, r, &c->err);
        exec_set_timeout(x, was);
        if (!ok)
            return false;
        c->cal[x == c->xs].recovered += r->kind != EXEC_TIMEOUT;
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
 * reads a million values, then checks them) must not be cut short, so some
 * runs are probes that may draw up to probe_max bytes; when a probe ends on
 * its own past the bound, the bound grows to twice what it consumed.  A
 * probe that runs out at probe_max doubles it (up to the input area,
 * CTG_MAX_INPUT), and probes get rarer as they get longer: one in
 * EXT_PROBE_EVERY runs at EXT_PROBE_START bytes, one in twice as many at
 * twice the size, so on a program that reads without end the probes cost
 * the same share of the runs at any size.  A probe that times out halves
 * probe_max; its timeout is no hang record, as the run was drawing values
 * (a run with the same input and the normal bound ends sooner or hangs
 * too). */
#define EXT_PROBE_EVERY 32
#define EXT_PROBE_START (1u << 20)

/* Sets the bound of this run when it is a probe; true if so.  Only prog.cov
 * probes: prog.sym would trace a million symbolic values. */
bool eng_probe_extension(search_ctx *c, exec_t *x, uint32_t flags)
{
    if (!c->ext_limit || !(flags & CTG_FL_EXTEND_ANY) || c->execs < c->probe_next || x != c->x)
        return false;
    exec_set_extend_max(x, c->probe_max);
    return true;
}

/* After a probe: restores the bound, raised when the program needed more;
 * sizes and schedules the next probe. */
void eng_grow_extension(search_ctx *c, exec_t *x, const exec_result *r)
{
    size_t used = exec_consumed(x);
    uint32_t size = c->probe_max;
    if (r->kind == EXEC_TIMEOUT) { /* not below what every run may draw */
        uint32_t floor = c->ext_limit > EXT_PROBE_START ? c->ext_limit : EXT_PROBE_START;
        c->probe_max = size / 2 > floor ? size / 2 : floor;
        stats_add(c->stats, "runs.probe_timeouts", 1);
    } else if (!(r->status & CTG_ST_RAN_OUT)) {
        if (used > c->ext_limit) {
            uint64_t want = 2 * (uint64_t)used;
            c->ext_limit = want > CTG_MAX_INPUT ? CTG_MAX_INPUT : (uint32_t)want;
            if (c->probe_max < c->ext_limit)
                c->probe_max = c->ext_limit;
            stats_set(c->stats, "exec.extend_limit", c->ext_limit);
        }
    } else if (r->status & (CTG_ST_EXT_LIMIT | CTG_ST_INPUT_FULL)) {
        c->probe_max = size < CTG_MAX_INPUT / 2 ? 2 * size : CTG_MAX_INPUT;
    }
    stats_set(c->stats, "exec.probe_max", c->probe_max);
    c->probe_next = c->execs + 1 + (uint64_t)EXT_PROBE_EVERY * (size / EXT_PROBE_START);
    exec_set_extend_max(x, c->ext_limit);
    if (c->xs)
        exec_set_extend_max(c->xs, c->ext_limit);
}

void eng_extension_start(search_ctx *c, uint32_t limit)
{
    c->ext_limit = limit;
    c->probe_max = limit * 2ull > EXT_PROBE_START ? limit * 2u : EXT_PROBE_START;
    if (c->probe_max > CTG_MAX_INPUT)
        c->probe_max = CTG_MAX_INPUT;
    c->probe_next = EXT_PROBE_EVERY - 1;
    exec_set_extend_max(c->x, c->ext_limit);
}
