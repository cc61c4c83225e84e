/*
 * sbst_engine.c - the search-based strategies behind strategy.h: `wts`,
 * `mosa`, `dynamosa` and `mio` (seed 001).  This file is the only one of
 * src/search/sbst that knows the engine: it implements sbst_env on top of
 * ctx_exec (distances on, exhausted inputs extended with random values),
 * reads each strategy's options (the seed's defaults) and drives the
 * algorithm modules step by step.
 */
#include <string.h>

#include "../../base/mem.h"
#include "../engine.h"
#include "../strategy.h"
#include "mio.h"
#include "mosa.h"
#include "sbst.h"
#include "wts.h"

/* ==== options ========================================================== */

#define SBST_SEED_MAX_VALUES 10 /* seed 001's string_length */

/* Options of the test representation, shared by the four strategies. */
#define TC_OPTIONS                                                                                 \
    {"int-range", 0, OPT_DOUBLE, OPT_KV, "R", "0",                                               \
     "integers stay in [-R, R] (seed MAX, e.g. 1000000); 0: whole type, log-uniform"},            \
    {"sigma", 0, OPT_DOUBLE, OPT_KV, "X", "0.01", "Gaussian step, relative to the domain"},      \
    {"fixed-steps", 0, OPT_FLAG, OPT_KV, NULL, NULL,                                             \
     "always step by sigma (seed) instead of log-scaled step sizes"},                            \
    {"p-reset", 0, OPT_DOUBLE, OPT_KV, "P", "0.1", "random value instead of a Gaussian step"},   \
    {"p-special", 0, OPT_DOUBLE, OPT_KV, "P", "0.05", "boundary value when drawing at random"},  \
    {"p-delete", 0, OPT_DOUBLE, OPT_KV, "P", "0.333", "mutation deletes values (variable inputs)"}, \
    {"p-change", 0, OPT_DOUBLE, OPT_KV, "P", "0.333", "mutation changes values"},                \
    {"p-insert", 0, OPT_DOUBLE, OPT_KV, "P", "0.333", "mutation inserts values"},                \
    {"insert-alpha", 0, OPT_DOUBLE, OPT_KV, "A", "0.1", "insert another value with A^k"},         \
    {"max-values", 0, OPT_INT, OPT_KV, "N", "64", "values a mutation may grow a test to"},      \
    {"p-copy", 0, OPT_DOUBLE, OPT_KV, "P", "0.05", "a changed value copies another one"},       \
    {"p-tied", 0, OPT_DOUBLE, OPT_KV, "P", "0.5", "a step also moves the values equal to it"},  \
    {"p-pool", 0, OPT_DOUBLE, OPT_KV, "P", "0.2",                                               \
     "a value is a constant the program compared with (0: no pool)"},                            \
    {"sbst-as-seed", 0, OPT_FLAG, OPT_KV, NULL, NULL,                                           \
     "seed 001 as written: --fixed-steps, every mutation deletes, changes and inserts "          \
     "(--p-delete/--p-change/--p-insert 1), tests of 10 values at most, no copies, tied "       \
     "steps or constant pool; MIO without local search, mutating only tests that improved an "  \
     "archive (docs/SBST.md lists the departures)"}

#define MOSA_OPTIONS                                                                               \
    {"population", 0, OPT_INT, OPT_KV, "N", "50", "population size"},                            \
    {"p-xover", 0, OPT_DOUBLE, OPT_KV, "P", "0.7", "crossover probability"},                     \
    {"crossover", 0, OPT_STR, OPT_KV, "KIND", "auto",                                             \
     "test crossover: single, relative, variable, auto (single for fixed-arity inputs)"}

static const opt_desc mio_options[] = {
    {"p-sample", 0, OPT_DOUBLE, OPT_KV, "P", "0.5", "probability of a new random test"},
    {"p-sample-focused", 0, OPT_DOUBLE, OPT_KV, "P", "0", "... in the focused phase"},
    {"archive-size", 0, OPT_INT, OPT_KV, "N", "10", "tests per goal"},
    {"archive-size-focused", 0, OPT_INT, OPT_KV, "N", "1", "... in the focused phase"},
    {"mutations", 0, OPT_INT, OPT_KV, "N", "1", "mutations of a sampled test"},
    {"mutations-focused", 0, OPT_INT, OPT_KV, "N", "10", "... in the focused phase"},
    {"focus-at", 0, OPT_DOUBLE, OPT_KV, "F", "0.5", "budget fraction where the focused phase starts"},
    {"avm", 0, OPT_DOUBLE, OPT_KV, "P", "0.5",
     "focused phase: a sampled goal gets a local search (alternating variable method) instead "
     "of mutations (0: never)"},
    {"avm-evals", 0, OPT_INT, OPT_KV, "N", "500", "runs of one local search at most"},
    TC_OPTIONS,
    {0},
};

/* The test options (TC_OPTIONS) are declared once, in mio's table: strategy
 * options are looked up by name in every table, so mosa, dynamosa and wts
 * read them too, and --help lists them once. */
static const opt_desc mosa_options[] = {MOSA_OPTIONS, {0}};
static const opt_desc dynamosa_options[] = {MOSA_OPTIONS, {0}};

static const opt_desc wts_options[] = {
    {"population", 0, OPT_INT, OPT_KV, "N", "50", "population size"},
    {"p-xover", 0, OPT_DOUBLE, OPT_KV, "P", "0.7", "crossover probability"},
    {"tournament", 0, OPT_INT, OPT_KV, "N", "4", "tournament size"},
    {"elite", 0, OPT_INT, OPT_KV, "N", "2", "suites kept by elitism"},
    {"max-tests", 0, OPT_INT, OPT_KV, "N", "30", "tests of a random suite; bound of the mutation"},
    {"suite-alpha", 0, OPT_DOUBLE, OPT_KV, "A", "0.333", "add another random test with A^k"},
    {"suite-crossover", 0, OPT_STR, OPT_KV, "KIND", "relative", "relative or variable"},
    {"selection", 0, OPT_STR, OPT_KV, "KIND", "length", "tournament: length (length-aware) or plain"},
    {"elitism", 0, OPT_STR, OPT_KV, "KIND", "length", "length (length-aware) or plain"},
    {"suite-mutation", 0, OPT_STR, OPT_KV, "KIND", "bounded", "bounded or set (seed's mutate_set)"},
    {0},
};

/* Test-representation parameters from the options. */
static void tc_params_from(search_ctx *ctx, tc_params *p)
{
    const ctg_options *o = ctx_opts(ctx);
    tc_params_default(p);
    p->arch_bits = ctx_arch_bits(ctx);
    p->range = opt_get_double(o, "int-range");
    p->sigma = opt_get_double(o, "sigma");
    p->log_steps = !opt_get_flag(o, "fixed-steps");
    p->p_reset = opt_get_double(o, "p-reset");
    p->p_special = opt_get_double(o, "p-special");
    p->p_delete = opt_get_double(o, "p-delete");
    p->p_change = opt_get_double(o, "p-change");
    p->p_insert = opt_get_double(o, "p-insert");
    p->alpha = opt_get_double(o, "insert-alpha");
    long m = opt_get_long(o, "max-values");
    p->max_len = m < 1 ? 1 : (uint32_t)m;
    p->p_copy = opt_get_double(o, "p-copy");
    p->p_tied = opt_get_double(o, "p-tied");
    p->p_pool = opt_get_double(o, "p-pool");
    if (opt_get_flag(o, "sbst-as-seed")) { /* seed 001's operators, whatever else is given */
        p->log_steps = false;
        p->p_delete = p->p_change = p->p_insert = 1.0;
        p->max_len = SBST_SEED_MAX_VALUES;
        p->p_copy = p->p_tied = p->p_pool = 0.0;
    }
}

/* Index of `v` in the NULL-terminated list, -1 (with e set) if absent. */
static int pick(const char *opt, const char *v, const char *const *names, ctg_err *e)
{
    for (int i = 0; names[i]; i++)
        if (v && !strcmp(v, names[i]))
            return i;
    err_set(e, "--%s: unknown value '%s'; see --help", opt, v ? v : "");
    return -1;
}

/* ==== the environment ================================================== */

typedef enum algo { ALGO_MIO, ALGO_MOSA, ALGO_DYNAMOSA, ALGO_WTS } algo;

typedef struct sbst_state {
    search_ctx *ctx;
    bool pool; /* record comparison operands for the constant pool */
    algo kind;
    sbst_t *s;
    void *alg;
} sbst_state;

/* sbst_env.dropped: a goal the engine's prover ruled out. */
static bool env_dropped(void *ud, uint32_t goal)
{
    return ctx_goal_unreachable(((sbst_state *)ud)->ctx, goal);
}

/* sbst_env.run: one execution with distances and random extension. */
static bool env_run(void *ud, const uint8_t *in, size_t len, sbst_obs *o)
{
    sbst_state *st = ud;
    ctx_run r;
    uint32_t fl = CTG_FL_DIST | CTG_FL_EXTEND_RANDOM | (st->pool ? CTG_FL_CMPLOG : 0);
    if (!ctx_exec(st->ctx, in, len, fl, &r))
        return false;
    const exec_t *x = ctx_executor(st->ctx);
    memset(o, 0, sizeof *o);
    o->cov = exec_cov(x);
    o->dist = exec_dist(x);
    o->error = r.r.kind == EXEC_ERROR;
    o->error_site = r.r.error_site;
    o->discard = r.r.kind == EXEC_ASSUME;
    o->input = exec_input(x, &o->input_len);
    o->vals = exec_values(x, &o->n_vals);
    if (st->pool) {
        o->cmp = exec_cmp(x);
        o->n_cmp = exec_n_cmp(x);
    }
    return true;
}

/* sbst_env.progress: the larger of the execution and time fractions. */
static double env_progress(void *ud)
{
    sbst_state *st = ud;
    const ctg_options *o = ctx_opts(st->ctx);
    double p = 0;
    if (o->search.max_execs)
        p = (double)ctx_execs(st->ctx) / (double)o->search.max_execs;
    if (o->search.time_s > 0) {
        double t = ctx_elapsed(st->ctx) / o->search.time_s;
        p = t > p ? t : p;
    }
    return p;
}

/* ==== lifecycle ======================================================== */

/* The parameters of an algorithm, read from the options and checked. */
typedef union algo_params {
    mio_params mio;
    wts_params wts;
    mosa_params mosa;
} algo_params;

static bool read_mio(const ctg_options *o, mio_params *p, ctg_err *e)
{
    mio_params_default(p);
    p->p_sample_first = opt_get_double(o, "p-sample");
    p->p_sample_focused = opt_get_double(o, "p-sample-focused");
    p->archive_first = (int)opt_get_long(o, "archive-size");
    p->archive_focused = (int)opt_get_long(o, "archive-size-focused");
    p->mutations_first = (int)opt_get_long(o, "mutations");
    p->mutations_focused = (int)opt_get_long(o, "mutations-focused");
    p->F = opt_get_double(o, "focus-at");
    p->p_avm = opt_get_double(o, "avm");
    long ae = opt_get_long(o, "avm-evals");
    if (p->p_avm < 0 || p->p_avm > 1 || ae < 1 || ae > 100000000)
        return err_set(e, "--avm must be in 0 .. 1 and --avm-evals in 1 .. 100000000 (given %g "
                          "and %ld)", p->p_avm, ae);
    p->avm_evals = (unsigned)ae;
    if (opt_get_flag(o, "sbst-as-seed")) {
        p->p_avm = 0;
        p->seed_current = true;
    }
    return true;
}

static bool read_wts(const ctg_options *o, wts_params *p, ctg_err *e)
{
    static const char *const cross[] = {"relative", "variable", NULL};
    static const char *const lp[] = {"length", "plain", NULL};
    static const char *const mut[] = {"bounded", "set", NULL};
    wts_params_default(p);
    p->pop = (int)opt_get_long(o, "population");
    p->p_xover = opt_get_double(o, "p-xover");
    p->tournament = (int)opt_get_long(o, "tournament");
    p->elite = (int)opt_get_long(o, "elite");
    p->max_tests = (int)opt_get_long(o, "max-tests");
    p->alpha = opt_get_double(o, "suite-alpha");
    int c = pick("suite-crossover", opt_get_str(o, "suite-crossover"), cross, e);
    int s = c < 0 ? -1 : pick("selection", opt_get_str(o, "selection"), lp, e);
    int l = s < 0 ? -1 : pick("elitism", opt_get_str(o, "elitism"), lp, e);
    int m = l < 0 ? -1 : pick("suite-mutation", opt_get_str(o, "suite-mutation"), mut, e);
    if (m < 0)
        return false;
    p->cross = c == 0 ? TC_CROSS_RELATIVE : TC_CROSS_VARIABLE;
    p->len_select = s == 0;
    p->len_elite = l == 0;
    p->bounded = m == 0;
    return true;
}

static bool read_mosa(const ctg_options *o, bool dynamic, mosa_params *p, ctg_err *e)
{
    static const char *const cross[] = {"single", "relative", "variable", "auto", NULL};
    static const int kinds[] = {TC_CROSS_SINGLE, TC_CROSS_RELATIVE, TC_CROSS_VARIABLE, -1};
    mosa_params_default(p);
    p->pop = (int)opt_get_long(o, "population");
    p->p_xover = opt_get_double(o, "p-xover");
    int c = pick("crossover", opt_get_str(o, "crossover"), cross, e);
    if (c < 0)
        return false;
    p->cross = kinds[c];
    p->dynamic = dynamic;
    return true;
}

static bool read_params(algo kind, const ctg_options *o, algo_params *p, ctg_err *e)
{
    switch (kind) {
    case ALGO_MIO: return read_mio(o, &p->mio, e);
    case ALGO_WTS: return read_wts(o, &p->wts, e);
    default: return read_mosa(o, kind == ALGO_DYNAMOSA, &p->mosa, e);
    }
}

static void *algo_new(sbst_state *st, ctg_err *e)
{
    algo_params p;
    if (!read_params(st->kind, ctx_opts(st->ctx), &p, e))
        return NULL;
    switch (st->kind) {
    case ALGO_MIO: return mio_new(st->s, &p.mio, e);
    case ALGO_WTS: return wts_new(st->s, &p.wts, e);
    default: return mosa_new(st->s, &p.mosa, e);
    }
}

/* strategy.check of each algorithm: its parameters, read and dropped. */
static bool check_kind(algo kind, const ctg_options *o, ctg_err *e)
{
    algo_params p;
    return read_params(kind, o, &p, e);
}
static bool mio_check(const ctg_options *o, ctg_err *e) { return check_kind(ALGO_MIO, o, e); }
static bool mosa_check(const ctg_options *o, ctg_err *e) { return check_kind(ALGO_MOSA, o, e); }
static bool wts_check(const ctg_options *o, ctg_err *e) { return check_kind(ALGO_WTS, o, e); }

static void algo_free(sbst_state *st)
{
    if (!st->alg)
        return;
    switch (st->kind) {
    case ALGO_MIO: mio_free(st->alg); break;
    case ALGO_WTS: wts_free(st->alg); break;
    default: mosa_free(st->alg); break;
    }
    st->alg = NULL;
}

static void sbst_finish(void *state, search_ctx *ctx);

/* Common init: the sbst core over the engine, then the algorithm. */
static void *sbst_init(search_ctx *ctx, algo kind, ctg_err *e)
{
    sbst_state *st = ctg_calloc(1, sizeof *st);
    if (!st) {
        err_set(e, "out of memory");
        return NULL;
    }
    st->ctx = ctx;
    st->kind = kind;
    tc_params tp;
    tc_params_from(ctx, &tp);
    st->pool = tp.p_pool > 0;
    sbst_env env = {st, env_run, env_progress, ctx_db(ctx), rng_next(ctx_rng(ctx)), env_dropped};
    st->s = sbst_new(&env, &tp, kind == ALGO_WTS ? SBST_TRACE : SBST_DENSE, e);
    if (st->s)
        st->alg = algo_new(st, e);
    if (!st->alg) {
        sbst_finish(st, ctx);
        return NULL;
    }
    return st;
}

static void *mio_init(search_ctx *ctx, ctg_err *e) { return sbst_init(ctx, ALGO_MIO, e); }
static void *mosa_init(search_ctx *ctx, ctg_err *e) { return sbst_init(ctx, ALGO_MOSA, e); }
static void *dynamosa_init(search_ctx *ctx, ctg_err *e) { return sbst_init(ctx, ALGO_DYNAMOSA, e); }
static void *wts_init(search_ctx *ctx, ctg_err *e) { return sbst_init(ctx, ALGO_WTS, e); }

static bool sbst_step(void *state, search_ctx *ctx)
{
    (void)ctx;
    sbst_state *st = state;
    switch (st->kind) {
    case ALGO_MIO: return mio_step(st->alg);
    case ALGO_WTS: return wts_step(st->alg);
    default: return mosa_step(st->alg);
    }
}

/* --verbose: the goals no run covered, with their source locations. */
static void log_uncovered(sbst_state *st, search_ctx *ctx)
{
    const progdb *db = ctx_db(ctx);
    for (uint32_t g = 0; g < sbst_n_goals(st->s); g++) {
        if (sbst_goal_covered(st->s, g))
            continue;
        if (g < db->n_edges) {
            const pdb_branch *b = &db->branches[db->edges[g].branch];
            ctx_log(ctx, "uncovered: %s (%s:%d, %s, edge %s)", progdb_edge_name(db, g),
                    b->loc.file, b->loc.line, b->cond, db->edges[g].label);
        } else {
            const pdb_error *er = &db->errors[g - db->n_edges];
            ctx_log(ctx, "uncovered: error site %u (%s:%d)", g - db->n_edges, er->loc.file,
                    er->loc.line);
        }
    }
}

/* Statistics for stats.json, then the release. */
static void sbst_finish(void *state, search_ctx *ctx)
{
    sbst_state *st = state;
    if (!st)
        return;
    if (st->alg) {
        ctx_stat_set(ctx, "sbst.goals", sbst_n_goals(st->s));
        ctx_stat_set(ctx, "sbst.goals_covered", sbst_n_covered(st->s));
        ctx_stat_set(ctx, "sbst.pool", sbst_pool_size(st->s));
        if (st->kind == ALGO_WTS) {
            ctx_stat_set(ctx, "wts.generations", (double)wts_generations(st->alg));
            ctx_stat_set(ctx, "wts.mean_suite_len", wts_mean_len(st->alg));
            ctx_stat_set(ctx, "wts.best_fitness", wts_best_fitness(st->alg));
            ctx_stat_set(ctx, "wts.best_suite_len", wts_best_len(st->alg));
        } else if (st->kind != ALGO_MIO) {
            ctx_stat_set(ctx, "mosa.generations", (double)mosa_generations(st->alg));
        } else {
            ctx_stat_set(ctx, "mio.p_sample", mio_p_sample(st->alg));
            ctx_stat_set(ctx, "mio.archive_size", mio_archive_size(st->alg));
            avm_stats a = mio_avm_stats(st->alg);
            ctx_stat_set(ctx, "mio.avm_episodes", (double)a.episodes);
            ctx_stat_set(ctx, "mio.avm_runs", (double)a.evals);
            ctx_stat_set(ctx, "mio.avm_improved", (double)a.improved);
            ctx_stat_set(ctx, "mio.avm_covered", (double)a.covered);
        }
    }
    if (st->s && ctx_opts(ctx)->ui.verbose)
        log_uncovered(st, ctx);
    algo_free(st);
    sbst_free(st->s);
    ctg_free(st);
}

/* MIO's new best tests (strategy.progress). */
static uint64_t mio_progress(const void *state)
{
    const sbst_state *st = state;
    return st->alg ? mio_bests(st->alg) : 0;
}

const strategy strategy_mio = {
    .name = "mio",
    .progress = mio_progress,
    .summary = "MIO: per-goal archives, feedback-directed sampling, focused phase (seed 001);\n"
               "               its test options (--int-range ... --p-pool) apply to mosa, dynamosa, wts",
    .options = mio_options,
    .init = mio_init,
    .check = mio_check,
    .step = sbst_step,
    .finish = sbst_finish,
};

const strategy strategy_mosa = {
    .name = "mosa",
    .summary = "MOSA: many-objective GA with preference sorting and an archive (seed 001)",
    .options = mosa_options,
    .init = mosa_init,
    .check = mosa_check,
    .step = sbst_step,
    .finish = sbst_finish,
};

const strategy strategy_dynamosa = {
    .name = "dynamosa",
    .summary = "DynaMOSA: MOSA optimising goals as their control dependences are covered",
    .options = dynamosa_options,
    .init = dynamosa_init,
    .check = mosa_check,
    .step = sbst_step,
    .finish = sbst_finish,
};

const strategy strategy_wts = {
    .name = "wts",
    .summary = "whole test suite GA with bloat control (seed 001)",
    .options = wts_options,
    .init = wts_init,
    .check = wts_check,
    .step = sbst_step,
    .finish = sbst_finish,
};
