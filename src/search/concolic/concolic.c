/*
 * concolic.c - the `concolic` strategy: glue between the search of
 * cc_search.h (generational / dfs / bfs / random-branch, seed 003 chapter 3)
 * and the engine.  Each run executes prog.sym through ctx_exec_sym - one
 * execution gives the coverage the engine keeps tests for and the path
 * constraint the runtime wrote to the trace region - and hands the search
 * the constraint, the covered edges and the input length.
 *
 * The search starts from an all-zero input, a printable one, the files of
 * -i DIR and --random-seeds random ones (the runtime draws the values, as
 * for the random strategy); when everything is explored it adds another
 * random seed while the budget lasts.
 *
 * Inputs are byte strings as everywhere (DESIGN.md section 2): a value the
 * run asks for beyond the end is 0 and symbolic at the offset it would have
 * had, so a solution extends the test.  For a libFuzzer target the length is
 * the named variable CTG_SYMVAR_LEN; the run pads or cuts the input to the
 * length a solution asks for.
 *
 * Before the search sees a path constraint, entries whose condition does not
 * evaluate to the branch actually taken under the run's input are dropped
 * (a library function the pass cannot see changed memory behind the shadow;
 * keeping them would send the solver after paths that do not exist).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/target.h"
#include "../../runtime/rt_symtrace.h"
#include "../engine.h"
#include "../strategy.h"
#include "cc_heur.h"
#include "cc_search.h"

#define CONCOLIC_PC_CAP (1u << 16)
#define CONCOLIC_TEXT_SEED 64 /* bytes of the printable seed */
#define CONCOLIC_MAX_CORPUS 256 /* files of -i DIR used as seeds */

static const opt_desc concolic_options[] = {
    {"search", 0, OPT_STR, OPT_KV, "ORDER", "generational",
     "concolic: generational|dfs|bfs|random-branch|cfds|cgs|param (seed 004); the auto "
     "portfolio's concolic member: param unless given"},
    {"weights", 0, OPT_STR, OPT_KV, "NAME|FILE", NULL,
     "concolic --search param: feature weights, built in (learned: seed 004's algorithm 2 "
     "on bench/paradyse's training set; cfds-mix: cfds_rank alone with scope mix, set by "
     "hand, the auto portfolio's) or a file ('NAME WEIGHT' lines, as 'ctestgen learn' "
     "writes them); default: learned. learn: the vector evaluated first (default: learned; "
     "'none': a pure sample)"},
    {"samples", 0, OPT_INT, OPT_KV, "N", "16",
     "learn: weight vectors sampled per round (find)"},
    {"top", 0, OPT_INT, OPT_KV, "K", "4", "learn: best samples re-evaluated per round (check)"},
    {"checks", 0, OPT_INT, OPT_KV, "N", "3", "learn: seeds each of them is re-evaluated on"},
    {"rounds", 0, OPT_INT, OPT_KV, "N", "8", "learn: rounds at most (it stops on convergence)"},
    {"learn-as-seed", 0, OPT_FLAG, OPT_KV, NULL, NULL,
     "learn: seed 004's algorithm 2 as written: each of the top samples re-evaluated over 10 "
     "trials (--checks 10), and it stops only when a round's best average is lower than the "
     "best before (an equal one replaces it and goes on); --rounds stays a cap, 1000 unless "
     "given"},
    {"features", 0, OPT_STR, OPT_KV, "SET", "all",
     "learn: the features the weights are drawn for: all (the paper's 40 and cfds_rank, "
     "feature 41) | paper (the paper's 40: cfds_rank held at 0)"},
    {"each", 0, OPT_FLAG, OPT_KV, NULL, NULL,
     "learn: every PROG.c is a program of its own; an evaluation runs each and scores the mean "
     "of their branch coverage in percent (weights for several programs)"},
    {"search-scope", 0, OPT_STR, OPT_KV, "SCOPE", "auto",
     "concolic --search cfds|param: last (the paper: the last path's branches) | tree (every "
     "kept path's best branch competes, older ones with the score they had when last scored) "
     "| gen (param only: generational search - every branch from the bound of the test being "
     "expanded, children ordered by new edges - in the order of the weights, which also break "
     "ties between children) | level (as tree, ties to the oldest path and its shallowest "
     "branch: with 0 weights, BFS) | mix (param only: gen and last in one run, the one at "
     "work handing over after --search-restart runs without a new edge) | auto (param: the "
     "scope of its weights: a built-in vector's, a file's 'scope' line, last for a "
     "file without one; cfds: "
     "last; learn: learned with the weights, from last, tree, gen, level and mix)"},
    {"search-restart", 0, OPT_STR, OPT_KV, "N", "auto",
     "concolic --search cfds|param: after N runs in a row without a new edge, the oldest "
     "kept path becomes the last one, as CREST's CFDS restarts (0: never; scope gen never "
     "restarts; scope mix hands over to the other arm instead, after 10 with 0; auto: 30 for "
     "cfds, CREST's; for param the weights file's restart line, or a built-in vector's with "
     "the scope it ships with, else 10; learn: learned with the weights, from 0, 5, 10 and "
     "30)"},
    {"cgs-k", 0, OPT_INT, OPT_KV, "K", "1",
     "concolic --search cgs: decisions before a branch that make its context at the start"},
    {"sym-arrays", 0, OPT_STR, OPT_KV, "MODEL", "concretize",
     "concolic: symbolic pointers: concretize (pointer == value, lazy cells) | theory (SMT "
     "arrays, select/store)"},
    {"solver-timeout", 0, OPT_INT, OPT_KV, "MS", "5000",
     "concolic: per-query solver timeout (unknown/timeout: the query is skipped)"},
    {"no-normalize", 0, OPT_FLAG, OPT_KV, NULL, NULL, "concolic: no constraint normalisation"},
    {"no-slice", 0, OPT_FLAG, OPT_KV, NULL, NULL,
     "concolic: no irrelevant-constraint elimination"},
    {"no-subsume", 0, OPT_FLAG, OPT_KV, NULL, NULL,
     "concolic: keep every bound of a term (no bound subsumption)"},
    {"no-query-cache", 0, OPT_FLAG, OPT_KV, NULL, NULL, "concolic: no query cache"},
    {"no-cex-cache", 0, OPT_FLAG, OPT_KV, NULL, NULL, "concolic: no counter-example cache"},
    {"no-fp-relax", 0, OPT_FLAG, OPT_KV, NULL, NULL,
     "concolic: no real relaxation of float queries in front of Z3's IEEE arithmetic"},
    {"random-seeds", 0, OPT_INT, OPT_KV, "N", "1",
     "concolic: random inputs the search starts from besides an all-zero and a printable "
     "one; another is added whenever everything was explored (0: stop then)"},
    {"sym-max-nodes", 0, OPT_INT, OPT_KV, "N", "262144",
     "concolic: expression nodes per run; beyond, values are concretised"},
    {0},
};

typedef struct concolic {
    search_ctx *ctx;
    cc_search *cc;
    cc_heur *heur;       /* cfds / param                                   */
    const char *weights; /* param's: a built-in vector's name or a file    */
    uint32_t flags;      /* CTG_FL_* of every run                          */
    bool sized;          /* the length is the named variable LEN           */
    bool stopped;        /* the engine refused a run (budget, failure)     */
    long random_seeds;   /* --random-seeds                                 */
    uint64_t restarts;   /* random seeds added after the search ran dry    */
    uint8_t *buf;        /* the input of a run                             */
    size_t cap_buf;
    uint32_t *edges;     /* covered edges of the last run                  */
    size_t cap_edges;
    uint64_t inconsistent, bad_traces, full_traces, concretized;
    uint64_t windowed;   /* runs again with a window on their input's end  */
    expr **roots;        /* scratch of the consistency check                */
    expr_u128 *vals;
    size_t cap_roots;
} concolic;

/* ==== one run ================================================================= */

/* The input of a run into S->buf: the bytes, padded with zeros or cut to
 * the length a libFuzzer test asks for.  Returns its length, or SIZE_MAX on
 * oom. */
static size_t assemble(concolic *S, const cc_input *in)
{
    size_t len = in->len;
    for (size_t i = 0; S->sized && i < in->n_named; i++)
        if (in->named_ids[i] == CTG_SYMVAR_LEN)
            len = in->named_vals[i] > CTG_MAX_INPUT ? CTG_MAX_INPUT : (size_t)in->named_vals[i];
    if (ctg_grow((void **)&S->buf, &S->cap_buf, len + 1, 1) != 0)
        return SIZE_MAX;
    size_t n = in->len < len ? in->len : len;
    if (n)
        memcpy(S->buf, in->bytes, n);
    memset(S->buf + n, 0, len - n);
    return len;
}

/* The distinct edges covered by the last run into out. */
static bool collect_edges(concolic *S, const exec_t *x, cc_run_out *out)
{
    uint32_t n = exec_n_edges(x);
    const uint8_t *cov = exec_cov(x);
    size_t k = 0;
    if (ctg_grow((void **)&S->edges, &S->cap_edges, (size_t)n + 1, sizeof *S->edges) != 0)
        return false;
    for (uint32_t i = 0; i < n; i++)
        if (cov[i])
            S->edges[k++] = i;
    out->edges = S->edges;
    out->n_edges = k;
    return true;
}

/* Drops the entries of pc whose condition does not evaluate to the taken
 * side under the run's input (see the file comment).  False on oom. */
static bool drop_inconsistent(concolic *S, expr_ctx *ctx, const exec_t *x, size_t len,
                              expr_pc *pc)
{
    if (!pc->n)
        return true;
    if (ctg_grow((void **)&S->roots, &S->cap_roots, pc->n, sizeof *S->roots) != 0 ||
        !(S->vals = ctg_realloc(S->vals, S->cap_roots * sizeof *S->vals)))
        return false;
    for (size_t i = 0; i < pc->n; i++)
        S->roots[i] = pc->v[i].cond;
    size_t n_in;
    const uint8_t *bytes = exec_input(x, &n_in);
    uint32_t id = CTG_SYMVAR_LEN;
    uint64_t lv = len;
    expr_env env = {bytes, n_in, &id, &lv, 1};
    if (!expr_eval(ctx, S->roots, pc->n, &env, S->vals))
        return false;
    size_t w = 0;
    for (size_t i = 0; i < pc->n; i++) {
        bool inexact = (pc->v[i].cond->flags & EXPR_F_INEXACT) != 0;
        if (!inexact && ((S->vals[i] & 1u) != 0) != pc->v[i].taken) {
            S->inconsistent++;
            continue;
        }
        pc->v[w++] = pc->v[i];
    }
    pc->n = w;
    return true;
}

/* Reads the path constraint of the last run into out->pc (empty when the
 * trace is unreadable). */
static bool read_trace(concolic *S, expr_ctx *ctx, const exec_t *x, size_t len, cc_run_out *out)
{
    size_t size;
    const void *t = exec_trace(x, &size);
    ctg_err te = {{0}};
    if (!t || !expr_trace_read(ctx, t, size, &out->pc, &te)) {
        if (expr_ctx_status(ctx) == EXPR_ENOMEM)
            return false;
        if (!S->bad_traces++)
            ctx_log(S->ctx, "%s", te.msg);
        out->pc.n = 0;
        return true;
    }
    S->full_traces += (out->pc.flags & (CTG_STF_NODES_FULL | CTG_STF_PC_FULL)) != 0;
    S->concretized += (out->pc.flags & CTG_STF_CONCRETIZED) != 0;
    return drop_inconsistent(S, ctx, x, len, &out->pc);
}

/* Where a window on the input's end starts for a run that lost part of
 * its trace (the node or decision array ran full) and read on past the
 * loss: half as many bytes as the trace held, ending where the run
 * stopped reading.  0: the run lost nothing it read. */
static uint32_t window_from(const exec_t *x)
{
    size_t size;
    const ctg_symtrace_hdr *h = exec_trace(x, &size);
    if (!h || size < sizeof *h || h->lost_at == CTG_SYM_NONE)
        return 0;
    size_t used = exec_consumed(x);
    uint32_t held = h->lost_at / 2;
    if (used <= h->lost_at || !held)
        return 0;
    return used - held > UINT32_MAX ? UINT32_MAX : (uint32_t)(used - held);
}

/* One run of S->buf on prog.sym, its path constraint read into out. */
static bool run_traced(concolic *S, size_t len, expr_ctx *ctx, cc_run_out *out, ctx_run *r,
                       ctg_err *e)
{
    if (!ctx_exec_sym(S->ctx, S->buf, len, S->flags, r)) {
        S->stopped = true;
        return err_set(e, "concolic: no run (budget spent or executor failure)");
    }
    if (!read_trace(S, ctx, ctx_sym_executor(S->ctx), len, out))
        return err_set(e, "concolic: out of memory while reading a path constraint");
    return true;
}

/* cc_run_fn: one execution of prog.sym.  A run whose trace ran full before
 * its last reads runs again with only the input's end symbolic: on a
 * program that reads 100,000 values and decides on the last, the decision
 * is in the path constraint (the values before it are the run's). */
static bool run_one(void *user, const cc_input *in, expr_ctx *ctx, cc_run_out *out, ctg_err *e)
{
    concolic *S = user;
    size_t len = assemble(S, in);
    if (len == SIZE_MAX)
        return err_set(e, "concolic: out of memory for an input");
    ctx_run r;
    if (!run_traced(S, len, ctx, out, &r, e))
        return false;
    uint32_t from = window_from(ctx_sym_executor(S->ctx));
    if (from) {
        expr_pc_release(&out->pc);
        ctx_sym_window(S->ctx, from);
        bool ok = run_traced(S, len, ctx, out, &r, e);
        ctx_sym_window(S->ctx, 0);
        S->windowed++;
        if (!ok)
            return false;
    }
    if (!collect_edges(S, ctx_sym_executor(S->ctx), out))
        return err_set(e, "concolic: out of memory while reading a path constraint");
    out->n_named = 0;
    if (S->sized) {
        out->named_ids[0] = CTG_SYMVAR_LEN;
        out->named_vals[0] = len;
        out->n_named = 1;
    }
    out->error = r.r.kind == EXEC_ERROR;
    return true;
}

/* ==== the strategy ================================================================ */

/* The auto portfolio's concolic member without --search: it searches with
 * param and the built-in vector that measured best inside auto (cfds-mix):
 * against generational search inside auto (docs/concolic.md, "In auto") it
 * beats it on 4 of 26 programs and loses none (10 seeds), and on the
 * Test-Comp dev set covers more on 10 tasks, less on 2, the same on 87
 * (one run each). */
static bool auto_member(const ctg_options *o)
{
    return !opt_given(o, "search") && o->search.strategy && !strcmp(o->search.strategy, "auto");
}

/* Solver and search settings from the options; false with e set on a bad
 * value. */
static bool configure(const ctg_options *o, cc_config *cfg, uint32_t *flags, ctg_err *e)
{
    cc_config_default(cfg);
    cfg->seed = o->search.seed;
    const char *order = auto_member(o) ? "param" : opt_get_str(o, "search");
    if (!cc_order_parse(order, &cfg->order))
        return err_set(e, "--search: unknown order '%s'; use generational, dfs, bfs, "
                          "random-branch, cfds, cgs or param", order);
    long k = opt_get_long(o, "cgs-k");
    if (k < 1 || k > 64)
        return err_set(e, "--cgs-k: %ld is out of range; give 1 .. 64", k);
    cfg->cgs_k = (uint32_t)k;
    if (!cc_restart_option(opt_get_str(o, "search-restart"), cfg->order, &cfg->restart, e))
        return false;
    cc_scope scope; /* checked here; make_heuristic, which knows the weights, decides */
    if (!cc_scope_option(opt_get_str(o, "search-scope"), &scope, e))
        return false;
    const char *arrays = opt_get_str(o, "sym-arrays");
    if (strcmp(arrays, "concretize") && strcmp(arrays, "theory"))
        return err_set(e, "--sym-arrays: unknown model '%s'; use concretize or theory", arrays);
    *flags = CTG_FL_EXTEND_ZERO | (strcmp(arrays, "theory") ? 0u : CTG_FL_SYM_ARRAYS);
    long t = opt_get_long(o, "solver-timeout");
    if (t < 0)
        return err_set(e, "--solver-timeout: %ld is negative; give milliseconds (0: none)", t);
    cfg->solver.timeout_ms = (uint32_t)t;
    cfg->solver.normalize = !opt_get_flag(o, "no-normalize");
    cfg->solver.slice = !opt_get_flag(o, "no-slice");
    cfg->solver.subsume = !opt_get_flag(o, "no-subsume");
    cfg->solver.query_cache = !opt_get_flag(o, "no-query-cache");
    cfg->solver.cex_cache = !opt_get_flag(o, "no-cex-cache");
    cfg->solver.fp_relax = !opt_get_flag(o, "no-fp-relax");
    return true;
}

static void concolic_finish(void *state, search_ctx *ctx);

/* cc_config.asked: the solver's answer for a path into the other side of
 * a two-way branch, for the explanation of goals not reached. */
static void note_asked(void *user, const expr_pc_entry *en, solver_result r)
{
    if (en->kind != CTG_SPC_BRANCH || en->site == CTG_SYM_NONE)
        return;
    ctx_note_flip(user, en->site + (en->taken ? 1u : 0u),
                  r == SOLVER_SAT ? CTX_FLIP_SAT : r == SOLVER_UNSAT ? CTX_FLIP_UNSAT
                                                                     : CTX_FLIP_UNKNOWN);
}

/* info "weights_values": the weights in use, "feature=weight" by feature,
 * separated by ", " (a weight of 0 too). */
static void record_weights(search_ctx *ctx, const double w[CC_N_FEATURES])
{
    sbuf b = SBUF_INIT;
    for (unsigned i = 0; i < CC_N_FEATURES; i++)
        sbuf_printf(&b, "%s%s=%.6g", i ? ", " : "", cc_feature_name(i), w[i]);
    if (sbuf_ok(&b))
        ctx_stat_info(ctx, "weights_values", sbuf_str(&b));
    sbuf_release(&b);
}

/* The weights of --search cfds / param: a built-in vector (*b) or a
 * --weights file, into w, with the scope and restart it names (UNSET, -1:
 * none).  False with e set on a bad --weights. */
static bool pick_weights(const ctg_options *o, cc_order order, double w[CC_N_FEATURES],
                         const cc_builtin **b, cc_scope *learned, long *restart, ctg_err *e)
{
    const char *file = opt_get_str(o, "weights");
    if (file && order != CC_PARAM)
        return err_set(e, "--weights: only --search param reads weights");
    *learned = CC_SCOPE_UNSET, *restart = -1;
    *b = file ? cc_builtin_find(file) : cc_builtin_default(auto_member(o));
    if (!*b && !fs_exists(file))
        return err_set(e, "--weights %s: no such file and no built-in vector of that name; give "
                          "a weights file (ctestgen learn writes one) or one of %s",
                       file, cc_builtin_names());
    if (!*b)
        return cc_weights_load(file, w, learned, restart, e);
    memcpy(w, (*b)->w, sizeof(double) * CC_N_FEATURES);
    *learned = (*b)->scope;
    return true;
}

/* cfg's scope and restart: --search-scope, else the weights' own (param),
 * and --search-restart auto: as the weights say.  False with e set when
 * the scope is param's alone. */
static bool pick_scope(const ctg_options *o, cc_config *cfg, const cc_builtin *b,
                       cc_scope learned, long restart, ctg_err *e)
{
    /* --search-restart auto (configure gave the order's default): param
     * restarts as its weights were learned to */
    bool restart_auto = !strcmp(opt_get_str(o, "search-restart"), "auto");
    if (cfg->order == CC_PARAM && restart >= 0 && restart_auto)
        cfg->restart = (uint32_t)restart;
    /* --search-scope (checked by configure), else (auto) the weights' own */
    cc_scope given = cc_scope_parse(opt_get_str(o, "search-scope"));
    cc_scope scope = given != CC_SCOPE_UNSET ? given
                     : cfg->order == CC_PARAM && learned != CC_SCOPE_UNSET ? learned
                                                                        : CC_SCOPE_LAST;
    if ((scope == CC_SCOPE_GEN || scope == CC_SCOPE_MIX) && cfg->order != CC_PARAM)
        return err_set(e, "--search-scope %s: only --search param has it; use last, tree or "
                          "level", cc_scope_name(scope));
    /* a built-in vector restarts as it ships, with the scope it ships with */
    if (cfg->order == CC_PARAM && b && scope == b->scope && restart_auto)
        cfg->restart = b->restart;
    cfg->scope = scope;
    cfg->restart = cc_scope_restart(scope, cfg->restart);
    return true;
}

/* Whether the order ranks by weights (and has a scope and a restart). */
static bool weighed(cc_order order) { return order == CC_CFDS || order == CC_PARAM; }

/* The weights (*b: the built-in vector, or NULL for a file) and, for a
 * weighed order, cfg's scope and restart.  False with e set. */
static bool pick_search(const ctg_options *o, cc_config *cfg, double w[CC_N_FEATURES],
                        const cc_builtin **b, ctg_err *e)
{
    cc_scope learned;
    long restart;
    if (!pick_weights(o, cfg->order, w, b, &learned, &restart, e))
        return false;
    return !weighed(cfg->order) || pick_scope(o, cfg, *b, learned, restart, e);
}

/* strategy.check: the options, as init reads them, before the build. */
static bool concolic_check(const ctg_options *o, ctg_err *e)
{
    cc_config cfg;
    uint32_t flags;
    double w[CC_N_FEATURES];
    const cc_builtin *b;
    return configure(o, &cfg, &flags, e) && pick_search(o, &cfg, w, &b, e);
}

/* The heuristic of --search cfds / param (with --weights or a built-in
 * vector) into cfg->heur.  False with e set on a bad weights file. */
static bool make_heuristic(concolic *S, cc_config *cfg, ctg_err *e)
{
    const ctg_options *o = ctx_opts(S->ctx);
    double w[CC_N_FEATURES];
    const cc_builtin *b;
    if (!pick_search(o, cfg, w, &b, e))
        return false;
    if (!weighed(cfg->order))
        return true;
    if (!(S->heur = cc_heur_new(ctx_db(S->ctx), cfg->order, w, e)))
        return false;
    S->weights = b ? b->name : opt_get_str(o, "weights");
    if (cfg->order == CC_PARAM)
        record_weights(S->ctx, w);
    cc_heur_set_seed(S->heur, cfg->seed);
    cfg->heur = cc_heur_hooks(S->heur);
    return true;
}

/* Queues a seed of printable characters (no NUL): with the all-zero seed,
 * whose strings all end at once, the search starts from both ends. */
static bool add_text_seed(concolic *S, ctg_err *e)
{
    uint8_t text[CONCOLIC_TEXT_SEED];
    rng *r = ctx_rng(S->ctx);
    for (size_t i = 0; i < sizeof text; i++)
        text[i] = (uint8_t)(0x21u + rng_below(r, 0x5eu));
    cc_input in = {text, sizeof text, NULL, NULL, 0};
    return cc_add_seed(S->cc, &in, e);
}

/* On a stdin target, queues a seed of signed five-digit numbers: a program
 * that reads numbers with scanf gets its values from it, and the runtime's
 * scanf model can then solve for any value of -99999..99999 (leading zeros
 * and the sign are free; the digit count of a run is fixed).  Ten digits
 * would reach any int, but Z3 then times out on the weighted digit sums
 * (measured: 5 s timeouts against 0.1 s a query for five). */
static bool add_number_seed(concolic *S, ctg_err *e)
{
    static const char numbers[] = "+00000 +00000 +00000 +00000 +00000 +00000\n";
    if (!target_of_harness(ctx_db(S->ctx)->harness)->text)
        return true;
    cc_input in = {(const uint8_t *)numbers, sizeof numbers - 1, NULL, NULL, 0};
    return cc_add_seed(S->cc, &in, e);
}

/* Queues the files of -i DIR (in name order, at most CONCOLIC_MAX_CORPUS)
 * as seeds.  A directory or file that cannot be read is an error. */
static bool add_corpus_seeds(concolic *S, const char *dir, ctg_err *e)
{
    char **paths;
    size_t n;
    ctg_err le = {{0}};
    if (!fs_list_files(dir, &paths, &n, &le))
        return err_set(e, "%s (the input directory, -i)", le.msg);
    bool ok = true;
    for (size_t i = 0; i < n && i < CONCOLIC_MAX_CORPUS && ok; i++) {
        char *data = NULL;
        size_t len = 0;
        if (!fs_read(paths[i], &data, &len, &le)) {
            ok = err_set(e, "%s (a file of the input directory, -i)", le.msg);
        } else {
            cc_input in = {(const uint8_t *)data, len, NULL, NULL, 0};
            ok = cc_add_seed(S->cc, &in, e);
        }
        ctg_free(data);
    }
    for (size_t i = 0; i < n; i++)
        ctg_free(paths[i]);
    ctg_free(paths);
    return ok;
}

/* Runs a random input (the runtime draws every value, as the random
 * strategy does) and queues what it consumed as a seed of the search. */
static bool add_random_seed(concolic *S, ctg_err *e)
{
    ctx_run r;
    uint32_t fl = CTG_FL_EXTEND_RANDOM | (S->flags & CTG_FL_SYM_ARRAYS);
    if (!ctx_exec_sym(S->ctx, NULL, 0, fl, &r)) {
        S->stopped = true;
        return err_set(e, "concolic: no run (budget spent or executor failure)");
    }
    const exec_t *x = ctx_sym_executor(S->ctx);
    size_t len;
    const uint8_t *bytes = exec_input(x, &len);
    cc_input in = {bytes, exec_consumed(x), NULL, NULL, 0};
    uint8_t *copy = ctg_malloc(in.len + 1); /* the next run reuses the area */
    if (!copy)
        return err_set(e, "concolic: out of memory");
    memcpy(copy, bytes, in.len);
    in.bytes = copy;
    bool ok = cc_add_seed(S->cc, &in, e);
    ctg_free(copy);
    return ok;
}

static void *concolic_init(search_ctx *ctx, ctg_err *e)
{
    concolic *S = ctg_calloc(1, sizeof *S);
    if (!S) {
        err_set(e, "out of memory");
        return NULL;
    }
    S->ctx = ctx;
    S->sized = target_of_harness(ctx_db(ctx)->harness)->sized;
    cc_config cfg;
    long nodes = opt_get_long(ctx_opts(ctx), "sym-max-nodes");
    if (nodes < 16 || nodes > (1L << 24)) {
        err_set(e, "--sym-max-nodes: %ld is out of range; give 16 .. 16777216", nodes);
        concolic_finish(S, ctx);
        return NULL;
    }
    const char *corpus = ctx_opts(ctx)->search.input_dir;
    if (corpus && !fs_is_dir(corpus)) {
        err_set(e, "%s: not a directory; -i names a directory of raw input files", corpus);
        concolic_finish(S, ctx);
        return NULL;
    }
    S->random_seeds = opt_get_long(ctx_opts(ctx), "random-seeds");
    cc_input empty = {NULL, 0, NULL, NULL, 0};
    bool ok = configure(ctx_opts(ctx), &cfg, &S->flags, e) && make_heuristic(S, &cfg, e);
    cfg.asked = note_asked;
    cfg.asked_user = ctx;
    if (ok) {
        ctx_stat_info(ctx, "search", cc_order_name(cfg.order));
        ctx_stat_info(ctx, "weights", cfg.order != CC_PARAM ? "-" : S->weights);
        bool heur = weighed(cfg.order); /* scope and restart */
        ctx_stat_info(ctx, "scope", heur ? cc_scope_name(cfg.scope) : "-");
        char rs[16];
        snprintf(rs, sizeof rs, "%u", (unsigned)cfg.restart);
        ctx_stat_info(ctx, "restart", heur ? rs : "-");
    }
    ok = ok &&
              ctx_sym_start(ctx, (uint32_t)nodes, CONCOLIC_PC_CAP, e) &&
              (S->cc = cc_new(&cfg, run_one, S, e)) && cc_add_seed(S->cc, &empty, e) &&
              add_text_seed(S, e) && add_number_seed(S, e);
    if (ok && corpus)
        ok = add_corpus_seeds(S, corpus, e);
    for (long k = 0; ok && k < S->random_seeds; k++)
        ok = add_random_seed(S, e);
    if (!ok) {
        if (S->stopped) /* the budget was spent before the first run */
            return S;
        concolic_finish(S, ctx);
        return NULL;
    }
    return S;
}

/* One search step: at most one query and one run. */
static bool concolic_step(void *state, search_ctx *ctx)
{
    concolic *S = state;
    if (!S->cc || S->stopped)
        return false;
    ctg_err e = {{0}};
    cc_status st = cc_step(S->cc, &e);
    if (st == CC_DONE && S->random_seeds > 0) { /* explored: start again elsewhere */
        S->restarts++;
        st = add_random_seed(S, &e) ? CC_MORE : CC_FAIL;
    }
    if (st == CC_FAIL && !S->stopped)
        ctx_log(ctx, "%s", e.msg);
    return st == CC_MORE && !S->stopped;
}

/* Distinct paths explored (strategy.progress). */
static uint64_t concolic_progress(const void *state)
{
    const concolic *S = state;
    return S->cc ? cc_get_stats(S->cc)->paths : 0;
}

/* cc_stats_visit callback: the counter into stats.json. */
static void put_stat(void *user, const char *name, double value)
{
    ctx_stat_set(user, name, value);
}

/* Statistics into stats.json and the summary (seed 003 section 5). */
static void report(concolic *S, search_ctx *ctx)
{
    cc_stats_visit(S->cc, put_stat, ctx);
    ctx_stat_set(ctx, "concolic.inconsistent_dropped", (double)S->inconsistent);
    ctx_stat_set(ctx, "concolic.unreadable_traces", (double)S->bad_traces);
    ctx_stat_set(ctx, "concolic.truncated_traces", (double)S->full_traces);
    ctx_stat_set(ctx, "concolic.windowed_runs", (double)S->windowed);
    ctx_stat_set(ctx, "concolic.concretized_runs", (double)S->concretized);
    ctx_stat_set(ctx, "concolic.restarts", (double)S->restarts);
    const cc_stats *c = cc_get_stats(S->cc);
    const solver_stats *v = cc_solver_stats(S->cc);
    uint64_t first = c->runs - c->reruns;
    uint64_t hits = v->qcache_hits + v->cex_unsat_subset + v->cex_superset + v->cex_subset_model;
    ctx_summary_line(ctx, "  concolic          %llu paths, %llu runs (%llu divergent), "
                          "path conditions %llu/%.1f/%llu (min/avg/max)",
                     (unsigned long long)c->paths, (unsigned long long)c->runs,
                     (unsigned long long)c->divergences, (unsigned long long)c->pc_min,
                     first ? (double)c->pc_sum / (double)first : 0.0,
                     (unsigned long long)c->pc_max);
    char large[48] = ""; /* only when some query was too large to ask */
    if (v->too_large)
        snprintf(large, sizeof large, ", %llu too large", (unsigned long long)v->too_large);
    ctx_summary_line(ctx, "  solver            %llu queries: %llu sat, %llu unsat, %llu timeout, "
                          "%llu error%s; cache hit rate %.0f%% of %llu lookups",
                     (unsigned long long)c->queries, (unsigned long long)v->res_sat,
                     (unsigned long long)v->res_unsat, (unsigned long long)v->timeout,
                     (unsigned long long)v->error, large,
                     v->cache_lookups ? 100.0 * (double)hits / (double)v->cache_lookups : 0.0,
                     (unsigned long long)v->cache_lookups);
    ctx_summary_line(ctx, "  time              solver %.2fs, concolic execution %.2fs",
                     c->solver_secs, c->exec_secs);
}

static void concolic_finish(void *state, search_ctx *ctx)
{
    concolic *S = state;
    if (!S)
        return;
    if (S->cc)
        report(S, ctx);
    cc_free(S->cc);
    cc_heur_free(S->heur);
    ctg_free(S->buf);
    ctg_free(S->edges);
    ctg_free(S->roots);
    ctg_free(S->vals);
    ctg_free(S);
}

const strategy strategy_concolic = {
    .name = "concolic",
    .progress = concolic_progress,
    .summary = "compiled symbolic execution (prog.sym) + Z3: SAGE generational search, dfs, "
               "bfs, random-branch, cfds, cgs, param (ParaDySE's learned heuristic); floating point is symbolic (Z3 FP theory), long double, "
               "vectors and aggregates are concretised (noted in stats.json)",
    .options = concolic_options,
    .init = concolic_init,
    .check = concolic_check,
    .step = concolic_step,
    .finish = concolic_finish,
    .needs_sym = true,
};
