/*
 * auto.c - the `auto` strategy (DESIGN.md section 7): a portfolio that runs
 * several strategies side by side on one archive and gives the budget to the
 * one that pays.
 *
 * Scheduling is a UCB1 bandit over the member strategies.  With an
 * execution budget (--max-execs) the budget is handed out in slices of
 * --auto-slice executions and a slice's reward is the number of goals it
 * covered first per execution, so that a run with --seed and --max-execs
 * is reproducible.  With a time budget only, slices last --auto-slice-s
 * seconds (auto: a 100th of --time, between 0.05 and 0.25) and the reward
 * is the goals per second of the slice, relative to the best rate seen so
 * far: a member whose executions are slow (concolic,
 * SBST) gets wall time, not executions, and pays by what it brings per
 * second.  On a byte-input target (libFuzzer, stdin, @@) the fuzzer runs
 * alone until it stalls, as hybrid fuzzers start their solver: its batched
 * executions are the cheapest.  A stall is measured in time with a time
 * budget (--auto-stall-s: seconds since the fuzzer's last find; auto: 5 %
 * of the budget, at least 1 s), in executions with --max-execs
 * (--auto-stall, so that the run is reproducible): 50,000 executions are
 * 43 s at the 1,158 per second of a stdin program, longer than most
 * budgets, and a fraction of a second on a fast libFuzzer target.
 * Each held member has one early slice after the fuzzer's first, and a
 * member whose early slice covers something is let in at once: a checksum
 * the solver answers in one query should not wait for the fuzzer to stall
 * (under ASan, --sanitize, the fuzzer's executions cost more and the stall
 * comes seconds later).
 * The members let in then back off as hybrid fuzzers back off their
 * solver: after k slices in a row that found nothing, a member waits 2^k
 * slices (at most 2^AUTO_BACKOFF_MAX) before it can be chosen again, and a
 * find resets k.  (With UCB1 alone, once every member's rewards were near
 * zero the exploration term shared the time evenly: on json the fuzzer got
 * a third of it, concolic a third for no find.)  A member whose step()
 * reports it is exhausted leaves the portfolio.
 * Members share the engine's archive and suite, and can import each
 * other's tests through ctx_kept().  In a run of several workers (--jobs,
 * --mpi) the concolic member runs in worker 0 only unless --auto-arms is
 * given: a portfolio in space as well as in time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/mem.h"
#include "../base/target.h"
#include "engine.h"
#include "strategy.h"

#define MAX_ARMS 8
#define AUTO_BACKOFF_MAX 10 /* a fruitless member waits at most 2^10 slices */
#define AUTO_PROGRESS 0.25  /* reward of a slice that covered nothing but
                               gained ground (strategy.progress grew), as a
                               share of the smallest reward a find earned
                               so far: below every slice that found a goal
                               (on pals_lcr and Problem13 a flat 0.25 took
                               the fuzzer's finding slices), and between
                               members that find nothing, the one that
                               still learns gets about 70 % of the slices,
                               not an even share */

typedef struct arm {
    const strategy *st;
    void *state;
    bool alive;
    bool held;         /* waits for the fuzzer to stall                */
    bool looked;       /* held, it had its one early slice             */
    bool waiting;      /* waits for prog.sym (built in the background) */
    uint64_t slices;
    double reward_sum; /* sum of per-slice rewards */
    uint64_t execs;    /* executions of its slices                      */
    uint64_t goals;    /* goals its slices covered first               */
    bool backs_off;    /* held for the fuzzer once: backs off (below)  */
    unsigned fruitless;/* its slices in a row that found nothing        */
    uint64_t next;     /* backing off: not chosen before this slice     */
    uint64_t progressed; /* its slices rewarded for progress alone       */
} arm;

typedef struct auto_state {
    arm arms[MAX_ARMS];
    int n_arms;
    uint64_t total_slices;
    uint64_t slice_execs;
    double c;          /* UCB exploration constant                     */
    bool per_second;   /* slices in seconds, rewards per second (no
                          execution budget)                             */
    double slice_s;    /* --auto-slice-s                               */
    double best_rate;  /* highest goals per second of a slice so far   */
    double least_find; /* smallest reward of a slice with a find (1: none) */
    uint64_t stall;    /* --auto-stall                                 */
    double stall_s;    /* --auto-stall-s (with per_second)             */
    int fuzz_arm;      /* the fuzzer's arm while others are held, or -1 */
    uint64_t fuzz_idle;/* its executions since its last new goal       */
    double fuzz_found; /* ctx_elapsed at its last new goal (or start)  */
} auto_state;

static const opt_desc auto_options[] = {
    {"auto-arms", 0, OPT_STR, OPT_KV, "LIST", "fuzz,mio,concolic",
     "strategies the portfolio runs (those not built in are skipped)"},
    {"auto-slice", 0, OPT_U64, OPT_KV, "N", "500",
     "executions per scheduling slice (with --max-execs)"},
    {"auto-slice-s", 0, OPT_STR, OPT_KV, "SECS", "auto",
     "seconds per scheduling slice with a time budget only (auto: --time / 100, "
     "between 0.05 and 0.25)"},
    {"auto-c", 0, OPT_DOUBLE, OPT_KV, "C", "0.5", "UCB exploration constant"},
    {"auto-stall", 0, OPT_U64, OPT_KV, "N", "50000",
     "byte-input targets, with --max-execs: the other members start once the fuzzer "
     "ran N executions without a new goal (0: from the start)"},
    {"auto-stall-s", 0, OPT_STR, OPT_KV, "SECS", "auto",
     "byte-input targets, with a time budget: the other members start once the fuzzer "
     "found nothing for SECS seconds (auto: 5% of --time, at least 1; 0: from the start)"},
    {0},
};

/* Adds the named member if it exists and starts. */
static void add_arm(auto_state *s, search_ctx *ctx, const char *name)
{
    const strategy *st = strategy_find(name);
    if (!st || !strcmp(name, "auto") || s->n_arms == MAX_ARMS || st->prepare)
        return;
    if (st->needs_sym && ctx_sym_pending(ctx)) { /* starts when prog.sym is ready */
        s->arms[s->n_arms++] = (arm){.st = st, .alive = true, .waiting = true};
        return;
    }
    ctg_err e = {{0}};
    void *state = st->init(ctx, &e);
    if (!state) {
        ctx_log(ctx, "auto: %s left out: %s", name, e.msg);
        return;
    }
    s->arms[s->n_arms++] = (arm){.st = st, .state = state, .alive = true};
}

/* Starts the members that waited for prog.sym once it is built (or drops
 * them when its build failed). */
static void wake_waiting(auto_state *s, search_ctx *ctx)
{
    for (int i = 0; i < s->n_arms; i++) {
        arm *a = &s->arms[i];
        if (!a->waiting || ctx_sym_pending(ctx))
            continue;
        a->waiting = false;
        ctg_err e = {{0}};
        if (!(a->state = a->st->init(ctx, &e))) {
            a->alive = false;
            ctx_log(ctx, "auto: %s left out: %s", a->st->name, e.msg);
        }
    }
}

/* On a libFuzzer target with a fuzz member, holds the others back. */
static void hold_slow_members(auto_state *s, search_ctx *ctx)
{
    s->fuzz_arm = -1;
    if (!target_of_harness(ctx_db(ctx)->harness)->bytes ||
        (s->per_second ? !(s->stall_s > 0) : !s->stall))
        return;
    for (int i = 0; i < s->n_arms; i++)
        if (!strcmp(s->arms[i].st->name, "fuzz"))
            s->fuzz_arm = i;
    for (int i = 0; s->fuzz_arm >= 0 && i < s->n_arms; i++)
        s->arms[i].held = s->arms[i].backs_off = i != s->fuzz_arm;
}

/* Lets the held members in once the fuzzer stalled (or left). */
static void release_held(auto_state *s, search_ctx *ctx)
{
    bool stalled = s->per_second ? ctx_elapsed(ctx) - s->fuzz_found >= s->stall_s
                                 : s->fuzz_idle >= s->stall;
    if (s->fuzz_arm < 0 || (s->arms[s->fuzz_arm].alive && !stalled) || !ctx_budget_left(ctx))
        return;
    for (int i = 0; i < s->n_arms; i++)
        s->arms[i].held = false;
    ctx_stat_set(ctx, "auto.released_at", (double)ctx_execs(ctx));
    s->fuzz_arm = -1;
}

/* A portfolio in space (run --jobs / --mpi): by default the concolic
 * member runs in worker 0 only.  The others run the members that execute,
 * and what the solver finds reaches them through the exchange: N solvers
 * would repeat much the same search N times, each idling its program's
 * core while it solves. */
static bool arm_here(const ctg_options *o, const char *name)
{
    return strcmp(name, "concolic") || !o->search.sync_dir || o->search.worker == 0 ||
           opt_given(o, "auto-arms");
}

/* A number of seconds option NAME (>= 0, or > 0 when !zero_ok), or auto:
 * share of --time, between lo and hi. */
static bool seconds_option(const ctg_options *o, const char *name, double share, double lo,
                           double hi, bool zero_ok, double *secs, ctg_err *e)
{
    const char *v = opt_get_str(o, name);
    if (!strcmp(v, "auto")) {
        double t = share * (double)o->search.time_s;
        *secs = t < lo ? lo : t > hi ? hi : t;
        return true;
    }
    char *end = NULL;
    *secs = strtod(v, &end);
    if (end == v || *end || !(zero_ok ? *secs >= 0 : *secs > 0))
        return err_set(e, "--%s: '%s' is not a %snumber of seconds; give one, as --%s 2, or "
                          "auto", name, v, zero_ok ? "" : "positive ", name);
    return true;
}

/* strategy.check: auto's own options and every other strategy's (a
 * member, or one --auto-arms adds, reads them). */
static bool auto_check(const ctg_options *o, ctg_err *e)
{
    double secs;
    if (!seconds_option(o, "auto-stall-s", 0.05, 1.0, INFINITY, true, &secs, e) ||
        !seconds_option(o, "auto-slice-s", 0.01, 0.05, 0.25, false, &secs, e))
        return false;
    for (const strategy *const *st = ctg_strategies; *st; st++)
        if (strcmp((*st)->name, "auto") && (*st)->check && !(*st)->check(o, e))
            return false;
    return true;
}

static void *auto_init(search_ctx *ctx, ctg_err *e)
{
    auto_state *s = ctg_calloc(1, sizeof *s);
    if (!s) {
        err_set(e, "out of memory");
        return NULL;
    }
    const ctg_options *o = ctx_opts(ctx);
    s->slice_execs = (uint64_t)opt_get_long(o, "auto-slice");
    if (s->slice_execs == 0)
        s->slice_execs = 1;
    s->c = opt_get_double(o, "auto-c");
    s->least_find = 1.0;
    s->stall = (uint64_t)opt_get_long(o, "auto-stall");
    s->per_second = !o->search.max_execs && o->search.time_s > 0;
    /* slices of a short run are short: a bandit needs slices to learn, and
     * 5 s in slices of 0.25 s gave each member's early slices a third of
     * the time (crcpkt, seeds 1-3: 61 56 54 edges; in 0.05 s 61 64 63) */
    if (!seconds_option(o, "auto-stall-s", 0.05, 1.0, INFINITY, true, &s->stall_s, e) ||
        !seconds_option(o, "auto-slice-s", 0.01, 0.05, 0.25, false, &s->slice_s, e)) {
        ctg_free(s);
        return NULL;
    }
    char list[256];
    snprintf(list, sizeof list, "%s", opt_get_str(o, "auto-arms"));
    for (char *save = NULL, *tok = strtok_r(list, ", ", &save); tok;
         tok = strtok_r(NULL, ", ", &save))
        if (arm_here(o, tok))
            add_arm(s, ctx, tok);
    if (s->n_arms == 0)
        add_arm(s, ctx, "random");
    if (s->n_arms == 0) {
        err_set(e, "--auto-arms: none of '%s' is available", opt_get_str(o, "auto-arms"));
        ctg_free(s);
        return NULL;
    }
    hold_slow_members(s, ctx);
    return s;
}

/* UCB1 choice among live arms; untried arms first, in list order.  An arm
 * backing off waits for its slice, unless no other arm can run: then the
 * one whose wait ends first. */
static int choose(const auto_state *s)
{
    int best = -1, soonest = -1;
    double best_score = -1.0;
    int fuzz = s->fuzz_arm;
    for (int i = 0; fuzz >= 0 && s->arms[fuzz].slices > 0 && i < s->n_arms; i++)
        if (s->arms[i].alive && s->arms[i].held && !s->arms[i].looked && !s->arms[i].waiting)
            return i; /* its early slice */
    for (int i = 0; i < s->n_arms; i++) {
        const arm *a = &s->arms[i];
        if (!a->alive || a->held || a->waiting)
            continue;
        if (a->backs_off && s->total_slices < a->next) {
            if (soonest < 0 || a->next < s->arms[soonest].next)
                soonest = i;
            continue;
        }
        if (a->slices == 0)
            return i;
        double mean = a->reward_sum / (double)a->slices;
        double score = mean + s->c * sqrt(log((double)s->total_slices) / (double)a->slices);
        if (score > best_score) {
            best_score = score;
            best = i;
        }
    }
    return best >= 0 ? best : soonest;
}

/* After a slice of a that found `got` goals: its next allowed slice. */
static void back_off(const auto_state *s, arm *a, uint32_t got)
{
    if (!a->backs_off)
        return;
    a->fruitless = got ? 0 : a->fruitless < AUTO_BACKOFF_MAX ? a->fruitless + 1 : AUTO_BACKOFF_MAX;
    a->next = s->total_slices + ((uint64_t)1 << a->fruitless);
}

/* Goals covered so far (edges + errors). */
static uint32_t goals(const search_ctx *ctx)
{
    const archive_t *a = ctx_archive(ctx);
    return archive_covered_edges(a) + archive_reached_errors(a);
}

/* Runs one slice of the chosen member. */
static bool auto_step(void *state, search_ctx *ctx)
{
    auto_state *s = state;
    wake_waiting(s, ctx);
    int i = choose(s);
    if (i < 0) {
        for (int k = 0; k < s->n_arms; k++)
            if (s->arms[k].waiting) { /* nothing else to run: wait for prog.sym */
                usleep(20000);
                return true;
            }
        return false;
    }
    arm *a = &s->arms[i];
    uint64_t e0 = ctx_execs(ctx);
    uint32_t g0 = goals(ctx);
    uint64_t p0 = a->st->progress ? a->st->progress(a->state) : 0;
    double t0 = ctx_elapsed(ctx);
    int idle_steps = 0;
    while (ctx_budget_left(ctx) && (s->per_second ? ctx_elapsed(ctx) - t0 < s->slice_s
                                                  : ctx_execs(ctx) - e0 < s->slice_execs)) {
        uint64_t before = ctx_execs(ctx);
        if (!a->st->step(a->state, ctx)) {
            a->alive = false;
            break;
        }
        /* a member that works without executing (solving) still yields */
        if (ctx_execs(ctx) == before && ++idle_steps > 64)
            break;
    }
    uint64_t spent = ctx_execs(ctx) - e0;
    uint32_t got = goals(ctx) - g0;
    double reward = (double)got / (double)(spent ? spent : 1) * 100.0;
    if (s->per_second) {
        double secs = ctx_elapsed(ctx) - t0, rate = got / (secs > 1e-3 ? secs : 1e-3);
        s->best_rate = rate > s->best_rate ? rate : s->best_rate;
        reward = s->best_rate > 0 ? rate / s->best_rate : 0.0;
    }
    if (got) {
        double r = reward > 1.0 ? 1.0 : reward;
        s->least_find = r < s->least_find ? r : s->least_find;
    } else if (a->alive && a->st->progress && a->st->progress(a->state) > p0) {
        reward = AUTO_PROGRESS * s->least_find;
        a->progressed++;
    }
    if (a->held && !a->looked) { /* the early slice: in at once when it found */
        a->looked = true;
        a->held = got == 0;
    }
    a->slices++;
    a->reward_sum += reward > 1.0 ? 1.0 : reward;
    s->total_slices++;
    back_off(s, a, got);
    if (i == s->fuzz_arm) {
        s->fuzz_idle = got ? 0 : s->fuzz_idle + spent;
        s->fuzz_found = got ? ctx_elapsed(ctx) : s->fuzz_found;
        release_held(s, ctx);
    }
    a->execs += spent;
    a->goals += got;
    char name[64];
    snprintf(name, sizeof name, "auto.slices.%s", a->st->name);
    ctx_stat_set(ctx, name, (double)a->slices);
    snprintf(name, sizeof name, "auto.execs.%s", a->st->name);
    ctx_stat_set(ctx, name, (double)a->execs);
    snprintf(name, sizeof name, "auto.goals.%s", a->st->name);
    ctx_stat_set(ctx, name, (double)a->goals);
    snprintf(name, sizeof name, "auto.progress.%s", a->st->name);
    ctx_stat_set(ctx, name, (double)a->progressed);
    return true;
}

static void auto_finish(void *state, search_ctx *ctx)
{
    auto_state *s = state;
    for (int i = 0; i < s->n_arms; i++)
        if (s->arms[i].state)
            s->arms[i].st->finish(s->arms[i].state, ctx);
    ctg_free(s);
}

const strategy strategy_auto = {
    .name = "auto",
    .summary = "portfolio: runs the strategies side by side, gives the budget to the one that pays",
    .options = auto_options,
    .init = auto_init,
    .check = auto_check,
    .step = auto_step,
    .finish = auto_finish,
    .wants_sym = true,
};
