/*
 * test_cc_search.c - unit tests of the concolic search on synthetic programs
 * modelled in C: a program is a function from input bytes to a path
 * constraint (conditions built as expressions, taken-ness evaluated on the
 * input) and covered edges.  Checks: the error of `x == 0xdeadbeef` plus a
 * linear equation is reached within 10 runs by generational search; the
 * exact dfs and bfs orders on a tiny tree; every order explores each path
 * once; param's scope (last path, tree or gen) on a hand-scored tree;
 * divergence detection and shouldSkip; symbolic lengths; re-running
 * dropped path constraints; allocation failure.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/mem.h"
#include "search/concolic/cc_heur.h"
#include "search/concolic/cc_search.h"

/* ---- a tiny harness for synthetic programs ----------------------------------- */

typedef struct prog prog;
typedef void (*prog_fn)(prog *p);

struct prog {
    prog_fn body;
    /* per run */
    expr_ctx *c;
    cc_run_out *out;
    uint8_t bytes[64];
    size_t len;
    uint32_t edges[64];
    bool error;
    /* across runs */
    int runs;
    int first_error_run; /* 0: not yet */
    char paths[64][16];  /* taken-strings of the runs, in order */
    char cur[16];
    int nondet;          /* for the re-run mismatch test */
    bool oom;            /* the model itself ran out of memory */
};

static const uint32_t len_id = CTG_SYMVAR_LEN;
static uint64_t len_val;

/* The values of the run: input bytes and the length variable. */
static expr_env env_of(prog *p)
{
    len_val = p->len;
    return (expr_env){p->bytes, p->len, &len_id, &len_val, 1};
}

/* Little-endian 32-bit input value at byte `at`. */
static expr *u32(prog *p, uint32_t at)
{
    expr *e = expr_input(p->c, at);
    for (uint32_t i = 1; i < 4; i++)
        e = expr_binop(p->c, EXPR_CONCAT, expr_input(p->c, at + i), e);
    return e;
}

static expr *k32(prog *p, uint32_t v) { return expr_const(p->c, 32, v); }

/* A conditional branch at `site` (edges 2*site, 2*site+1): taken-ness is the
 * value of cond on the input. */
static bool branch(prog *p, uint32_t site, expr *cond, uint8_t kind)
{
    expr_env env = env_of(p);
    expr_u128 v = 0;
    if (!cond || !expr_eval(p->c, &cond, 1, &env, &v)) { /* only under mem_fail_after */
        p->oom = true;
        return false;
    }
    bool taken = v != 0;
    if (!expr_is_const(cond) && !expr_pc_push(&p->out->pc, cond, taken, site * 2, kind, 0))
        p->oom = true;
    p->edges[p->out->n_edges++] = site * 2 + (taken ? 0 : 1);
    size_t l = strlen(p->cur);
    if (l < sizeof p->cur - 1)
        p->cur[l] = taken ? 'T' : 'F';
    return taken;
}

static bool run_prog(void *user, const cc_input *in, expr_ctx *ctx, cc_run_out *out, ctg_err *e)
{
    prog *p = user;
    memset(p->bytes, 0, sizeof p->bytes);
    p->len = in->len < sizeof p->bytes ? in->len : sizeof p->bytes;
    memcpy(p->bytes, in->bytes, p->len);
    for (size_t i = 0; i < in->n_named; i++) /* named variable 0 = wanted length */
        if (in->named_ids[i] == CTG_SYMVAR_LEN)
            p->len = in->named_vals[i] < sizeof p->bytes ? (size_t)in->named_vals[i] : sizeof p->bytes;
    p->c = ctx;
    p->out = out;
    p->error = false;
    p->oom = false;
    memset(p->cur, 0, sizeof p->cur);
    out->edges = p->edges;
    p->body(p);
    if (p->oom)
        return err_set(e, "program model: out of memory");
    out->error = p->error;
    out->named_ids[0] = CTG_SYMVAR_LEN;
    out->named_vals[0] = p->len;
    out->n_named = 1;
    if (p->runs < 64)
        memcpy(p->paths[p->runs], p->cur, sizeof p->cur);
    p->runs++;
    if (p->error && !p->first_error_run)
        p->first_error_run = p->runs;
    return true;
}

/* A search with cfg on p, from the all-zero seed. */
static cc_search *start_cfg(prog *p, const cc_config *cfg)
{
    ctg_err e = {{0}};
    cc_search *s = cc_new(cfg, run_prog, p, &e);
    assert_non_null(s);
    uint8_t zeros[16] = {0};
    cc_input in = {zeros, sizeof zeros, NULL, NULL, 0};
    assert_true(cc_add_seed(s, &in, &e));
    return s;
}

static cc_search *start(prog *p, cc_order order, uint32_t max_retained)
{
    cc_config cfg;
    cc_config_default(&cfg);
    cfg.order = order;
    cfg.max_retained = max_retained;
    return start_cfg(p, &cfg);
}

/* Steps until done or `max_runs` runs; returns the last status. */
static cc_status drive(cc_search *s, prog *p, int max_runs)
{
    ctg_err e = {{0}};
    cc_status st = CC_MORE;
    for (int i = 0; i < 1000 && st == CC_MORE && p->runs < max_runs; i++)
        st = cc_step(s, &e);
    assert_int_not_equal(st, CC_FAIL);
    return st;
}

/* ---- programs --------------------------------------------------------------------- */

/* if (x == 0xdeadbeef) if (a + 2*b == 7 && a > 1000) error(); */
static void p_deadbeef(prog *p)
{
    expr *x = u32(p, 0), *a = u32(p, 4), *b = u32(p, 8);
    if (!branch(p, 0, expr_binop(p->c, EXPR_EQ, x, k32(p, 0xdeadbeef)), CTG_SPC_BRANCH))
        return;
    expr *lin = expr_binop(p->c, EXPR_ADD, a, expr_binop(p->c, EXPR_MUL, b, k32(p, 2)));
    if (!branch(p, 1, expr_binop(p->c, EXPR_EQ, lin, k32(p, 7)), CTG_SPC_BRANCH))
        return;
    if (branch(p, 2, expr_binop(p->c, EXPR_ULT, k32(p, 1000), a), CTG_SPC_BRANCH))
        p->error = true;
}

/* Three independent branches on bytes 0, 1, 2: eight paths. */
static void p_tree(prog *p)
{
    for (uint32_t i = 0; i < 3; i++)
        branch(p, i, expr_binop(p->c, EXPR_EQ, expr_input(p->c, i), expr_const(p->c, 8, i + 1)),
               CTG_SPC_BRANCH);
}

/* Seed 003 algorithm 2: if (x == hash(y)) { if (y == 16) error(); }, where
 * hash is not symbolic (its value enters the constraint as a constant). */
static uint8_t hash8(uint8_t y) { return (uint8_t)(y * 37 + 11); }

static void p_divergent(prog *p)
{
    expr *x = expr_input(p->c, 0), *y = expr_input(p->c, 1);
    uint8_t h = hash8(p->bytes[1]);
    if (!branch(p, 0, expr_binop(p->c, EXPR_EQ, x, expr_const(p->c, 8, h)), CTG_SPC_BRANCH))
        return;
    if (branch(p, 1, expr_binop(p->c, EXPR_EQ, y, expr_const(p->c, 8, 16)), CTG_SPC_BRANCH))
        p->error = true;
}

/* Seed 003 algorithm 8 with a symbolic length: if (len > 2 && x[2] == 3) error(). */
static void p_length(prog *p)
{
    expr *len = expr_var(p->c, CTG_SYMVAR_LEN, 32);
    if (!branch(p, 0, expr_binop(p->c, EXPR_ULT, k32(p, 2), len), CTG_SPC_LENGTH))
        return;
    if (branch(p, 1, expr_binop(p->c, EXPR_EQ, expr_input(p->c, 2), expr_const(p->c, 8, 3)),
               CTG_SPC_BRANCH))
        p->error = true;
}

/* The first branch flips on every run: re-runs take other paths. */
static void p_flaky(prog *p)
{
    p->nondet ^= 1;
    branch(p, 0, expr_binop(p->c, EXPR_EQ, expr_input(p->c, 0), expr_const(p->c, 8, p->nondet)),
           CTG_SPC_BRANCH);
    branch(p, 1, expr_binop(p->c, EXPR_EQ, expr_input(p->c, 1), expr_const(p->c, 8, 5)),
           CTG_SPC_BRANCH);
}

/* ---- tests ---------------------------------------------------------------------------- */

static void test_deadbeef_generational(void **st)
{
    (void)st;
    prog p = {.body = p_deadbeef};
    cc_search *s = start(&p, CC_GENERATIONAL, 64);
    drive(s, &p, 10);
    assert_true(p.first_error_run > 0);
    assert_true(p.first_error_run <= 10);
    const cc_stats *cs = cc_get_stats(s);
    assert_int_equal(cs->errors, 1);
    assert_int_equal(cs->divergences, 0);
    assert_int_equal(cs->pc_min, 1);
    assert_int_equal(cs->pc_max, 3);
    /* run on to exhaustion: every path once */
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    assert_int_equal(cs->paths, (uint64_t)p.runs);
    assert_int_equal(cs->runs, (uint64_t)p.runs);
    cc_free(s);
}

static void test_deadbeef_all_orders(void **st)
{
    (void)st;
    for (cc_order o = CC_GENERATIONAL; o <= CC_RANDOM_BRANCH; o++) {
        prog p = {.body = p_deadbeef};
        cc_search *s = start(&p, o, 64);
        assert_int_equal(drive(s, &p, 100), CC_DONE);
        assert_true(p.first_error_run > 0 && p.first_error_run <= 10);
        assert_int_equal(cc_get_stats(s)->paths, 4); /* F, TF, TTF, TTT */
        assert_int_equal(p.runs, 4);
        cc_free(s);
    }
    cc_order o;
    assert_true(cc_order_parse("random-branch", &o) && o == CC_RANDOM_BRANCH);
    assert_false(cc_order_parse("best-first", &o));
    assert_string_equal(cc_order_name(CC_DFS), "dfs");
}

static void expect_order(cc_order o, const char *const want[8])
{
    prog p = {.body = p_tree};
    cc_search *s = start(&p, o, 64);
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    assert_int_equal(p.runs, 8);
    for (int i = 0; i < 8; i++)
        if (want && strcmp(p.paths[i], want[i]))
            fail_msg("%s: run %d took %s, expected %s", cc_order_name(o), i, p.paths[i], want[i]);
    const cc_stats *cs = cc_get_stats(s);
    assert_int_equal(cs->paths, 8);
    assert_int_equal(cs->children, 7);
    assert_int_equal(cs->queries, 7); /* no query for a known target */
    assert_int_equal(cs->sat, 7);
    cc_free(s);
}

static void test_tree_orders(void **st)
{
    (void)st;
    static const char *const dfs[8] = {"FFF", "FFT", "FTF", "FTT", "TFF", "TFT", "TTF", "TTT"};
    static const char *const bfs[8] = {"FFF", "TFF", "FTF", "FFT", "TTF", "TFT", "FTT", "TTT"};
    expect_order(CC_DFS, dfs);
    expect_order(CC_BFS, bfs);
    expect_order(CC_GENERATIONAL, bfs); /* every child scores 1 then 0: FIFO */
    expect_order(CC_RANDOM_BRANCH, NULL);
}

/* Scores of p_tree's entries: site 0 10, site 2 5, site 1 1, all 100
 * lower on a path whose first branch was taken. */
static double tree_score(void *user, const expr_pc *pc, uint32_t j)
{
    (void)user;
    uint32_t site = pc->v[j].site / 2;
    return (pc->v[0].taken ? -100.0 : 0.0) + (site == 0 ? 10.0 : site == 2 ? 5.0 : 1.0);
}

/* param's scope: the last path only (the paper) dives into the subtree of
 * its first negation; with scope tree the first path's next entry (5)
 * beats the new path's best (-90), so FFT runs third.  Both explore each
 * of the eight paths once. */
/* A param configuration with this scope and score hook. */
static cc_config param_config(cc_scope scope, double (*score)(void *, const expr_pc *, uint32_t))
{
    cc_config cfg;
    cc_config_default(&cfg);
    cfg.order = CC_PARAM;
    cfg.scope = scope;
    cfg.heur.score = score;
    return cfg;
}

/* param on p with tree_score in that scope, from the all-zero seed. */
static cc_search *start_param(prog *p, cc_scope scope)
{
    cc_config cfg = param_config(scope, tree_score);
    return start_cfg(p, &cfg);
}

static void test_param_scope(void **st)
{
    (void)st;
    for (int tree = 0; tree < 2; tree++) {
        prog p = {.body = p_tree};
        cc_search *s = start_param(&p, tree ? CC_SCOPE_TREE : CC_SCOPE_LAST);
        assert_int_equal(drive(s, &p, 100), CC_DONE);
        assert_int_equal(p.runs, 8);
        assert_int_equal(cc_get_stats(s)->paths, 8);
        assert_string_equal(p.paths[0], "FFF");
        assert_string_equal(p.paths[1], "TFF");
        assert_string_equal(p.paths[2], tree ? "FFT" : "TFT");
        cc_free(s);
    }
}

static double zero_score(void *user, const expr_pc *pc, uint32_t j)
{
    (void)user, (void)pc, (void)j;
    return 0.0;
}

/* With every score equal, scope last is DFS and scope level BFS (the
 * order of test_tree_orders): what the all-zero weights stand for in
 * learn's start vectors. */
static void test_param_zero_scores(void **st)
{
    (void)st;
    /* depth first: each subtree done before the next; a child keeps
     * the later decisions of the path it came from (FTT, not FTF, third) */
    static const char *const dfs[8] = {"FFF", "FFT", "FTT", "FTF", "TTF", "TTT", "TFT", "TFF"};
    static const char *const bfs[8] = {"FFF", "TFF", "FTF", "FFT", "TTF", "TFT", "FTT", "TTT"};
    /* 0: last; 1: level; 2: level with one constraint in memory (an older
     * path is run again when it is picked, and still negates its entry) */
    for (int v = 0; v < 3; v++) {
        prog p = {.body = p_tree};
        cc_config cfg = param_config(v ? CC_SCOPE_LEVEL : CC_SCOPE_LAST, zero_score);
        if (v == 2)
            cfg.max_retained = 1;
        cc_search *s = start_cfg(&p, &cfg);
        assert_int_equal(drive(s, &p, 100), CC_DONE);
        const cc_stats *cs = cc_get_stats(s);
        assert_int_equal(cs->paths, 8);
        const char *const *want = v ? bfs : dfs;
        const char *first[8]; /* the paths in the order they were first run */
        int n = 0;
        for (int r = 0; r < p.runs && r < 64; r++) {
            bool again = false;
            for (int k = 0; k < n; k++)
                again |= !strcmp(first[k], p.paths[r]);
            if (!again && n < 8)
                first[n++] = p.paths[r];
        }
        assert_int_equal(n, 8);
        for (int i = 0; i < 8; i++)
            if (strcmp(first[i], want[i]))
                fail_msg("scope %s: path %d is %s, expected %s", v ? "level" : "last", i,
                         first[i], want[i]);
        if (v == 2)
            assert_true(cs->reruns > 0);
        cc_free(s);
    }
}

/* Two seeds pushed together: scope level with 0 scores expands them
 * first, oldest first, and runs the paths --search bfs runs, in its order
 * (before, a seed no pick had scored never competed, and the last seed's
 * subtree went first). */
static void test_param_level_seeds(void **st)
{
    (void)st;
    prog p[2] = {{.body = p_tree}, {.body = p_tree}};
    for (int v = 0; v < 2; v++) {
        cc_config cfg;
        cc_config_default(&cfg);
        cfg.order = v ? CC_PARAM : CC_BFS;
        cfg.scope = CC_SCOPE_LEVEL;
        cfg.heur.score = v ? zero_score : NULL;
        cc_search *s = start_cfg(&p[v], &cfg);
        uint8_t second[16] = {0};
        second[1] = 2; /* FTF: another path than the first seed's */
        cc_input in = {second, sizeof second, NULL, NULL, 0};
        ctg_err e = {{0}};
        assert_true(cc_add_seed(s, &in, &e));
        assert_int_equal(drive(s, &p[v], 100), CC_DONE);
        cc_free(s);
    }
    assert_int_equal(p[1].runs, p[0].runs);
    for (int i = 0; i < p[0].runs && i < 64; i++)
        if (strcmp(p[1].paths[i], p[0].paths[i]))
            fail_msg("level: run %d took %s, bfs %s", i, p[1].paths[i], p[0].paths[i]);
}

/* param with scope gen on p_tree: generational search in which an
 * expansion negates its entries best first (the root: site 0, then 2,
 * then 1) and children with the same count of new edges run in the order
 * of their flipped entry's score (FTT, 5, before TFT, -95, and TTF, -99);
 * plain generational runs the same eight paths in path order. */
static void test_param_scope_gen(void **st)
{
    (void)st;
    static const char *const want[8] = {"FFF", "TFF", "FFT", "FTF", "TFT", "TTF", "FTT", "TTT"};
    prog p = {.body = p_tree};
    cc_search *s = start_param(&p, CC_SCOPE_GEN);
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    assert_int_equal(p.runs, 8);
    for (int i = 0; i < 8; i++)
        if (strcmp(p.paths[i], want[i]))
            fail_msg("scope gen: run %d took %s, expected %s", i, p.paths[i], want[i]);
    const cc_stats *cs = cc_get_stats(s);
    assert_int_equal(cs->expanded, 8);
    assert_int_equal(cs->skipped_seen, 7); /* as generational: bounds kept */
    cc_free(s);
}

/* param with scope mix on p_tree, handing over after every fruitless run
 * (restart 1): generational search with the scores runs FFF, TFF, FFT,
 * FTF (each a new edge), then TFF's TFT (none): the last-path arm takes
 * the work list's best, FFT (new edges 1, its entry's score 5), whose
 * entries all lead to known paths, hands back at once, and generational
 * search runs TTF (none); the last-path arm takes FTF and runs its best
 * entry's child, FTT - a run of its own - then generational search runs
 * TTT.  Every path once, four hand-overs after a stall.  Scope gen alone
 * makes none and no run of the last-path arm. */
static void test_param_scope_mix(void **st)
{
    (void)st;
    static const char *const want[8] = {"FFF", "TFF", "FFT", "FTF", "TFT", "TTF", "FTT", "TTT"};
    for (int mix = 0; mix < 2; mix++) {
        prog p = {.body = p_tree};
        cc_config cfg = param_config(mix ? CC_SCOPE_MIX : CC_SCOPE_GEN, tree_score);
        cfg.restart = 1;
        cc_search *s = start_cfg(&p, &cfg);
        assert_int_equal(drive(s, &p, 100), CC_DONE);
        assert_int_equal(p.runs, 8);
        for (int i = 0; i < 8; i++)
            if (strcmp(p.paths[i], want[i]))
                fail_msg("scope %s: run %d took %s, expected %s", mix ? "mix" : "gen", i,
                         p.paths[i], want[i]);
        const cc_stats *cs = cc_get_stats(s);
        assert_int_equal(cs->paths, 8);
        assert_int_equal(cs->handovers, mix ? 4 : 0);
        assert_int_equal(cs->last_runs, mix ? 1 : 0);
        cc_free(s);
    }
    /* the name */
    assert_int_equal(cc_scope_parse("mix"), CC_SCOPE_MIX);
    assert_string_equal(cc_scope_name(CC_SCOPE_MIX), "mix");
}

static void test_generational_bound_and_skip(void **st)
{
    (void)st;
    prog p = {.body = p_tree};
    cc_search *s = start(&p, CC_GENERATIONAL, 64);
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    const cc_stats *cs = cc_get_stats(s);
    /* children re-negating their own position j (bound = j) meet the
     * parent's path: TFF@0, FTF@1, FFT@2, TTF@1, TFT@2, FTT@2, TTT@2 */
    assert_int_equal(cs->skipped_seen, 7);
    assert_int_equal(cs->expanded, 8);
    assert_int_equal(cs->edges, 6);
    cc_free(s);
}

static void test_divergence(void **st)
{
    (void)st;
    prog p = {.body = p_divergent};
    cc_search *s = start(&p, CC_GENERATIONAL, 64);
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    const cc_stats *cs = cc_get_stats(s);
    /* run 1: F; run 2: x = hash(0) -> TF; run 3: y = 16 keeps x = hash(0)
     * but hash(16) != hash(0): the path is F again, not the expected TT */
    assert_string_equal(p.paths[2], "F");
    assert_int_equal(cs->divergences, 1);
    /* shouldSkip: the divergent path F is the seed's, already expanded */
    assert_int_equal(cs->skipped_diverged, 1);
    assert_int_equal(p.first_error_run, 0);
    cc_free(s);
}

static void test_symbolic_length(void **st)
{
    (void)st;
    prog p = {.body = p_length};
    cc_config cfg;
    cc_config_default(&cfg);
    ctg_err e = {{0}};
    cc_search *s = cc_new(&cfg, run_prog, &p, &e);
    assert_non_null(s);
    cc_input empty = {(const uint8_t *)"", 0, NULL, NULL, 0};
    assert_true(cc_add_seed(s, &empty, &e));
    drive(s, &p, 10);
    assert_int_equal(p.first_error_run, 3);
    assert_string_equal(p.paths[1], "TF"); /* the length was negated */
    cc_free(s);
}

static void test_rerun_dropped_constraints(void **st)
{
    (void)st;
    prog p = {.body = p_tree};
    cc_search *s = start(&p, CC_DFS, 1);
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    const cc_stats *cs = cc_get_stats(s);
    assert_int_equal(cs->paths, 8);
    assert_true(cs->reruns > 0);
    assert_int_equal(cs->runs, 8 + cs->reruns);
    assert_int_equal(cs->rerun_mismatch, 0);
    cc_free(s);
    /* two seeds, no constraint kept: the first seed is run again when
     * expanded and, the program being flaky, takes another path */
    prog q = {.body = p_flaky};
    s = start(&q, CC_GENERATIONAL, 0);
    uint8_t other[4] = {9, 9, 9, 9};
    cc_input in = {other, 4, NULL, NULL, 0};
    ctg_err e = {{0}};
    assert_true(cc_add_seed(s, &in, &e));
    assert_int_not_equal(drive(s, &q, 100), CC_FAIL);
    assert_true(cc_get_stats(s)->rerun_mismatch > 0);
    cc_free(s);
}

static void test_bounds(void **st)
{
    (void)st;
    for (cc_order o = CC_GENERATIONAL; o <= CC_RANDOM_BRANCH; o++) {
        prog p = {.body = p_tree};
        cc_config cfg;
        cc_config_default(&cfg);
        cfg.order = o;
        cfg.max_work = 2;
        ctg_err e = {{0}};
        cc_search *s = cc_new(&cfg, run_prog, &p, &e);
        uint8_t zeros[4] = {0};
        cc_input in = {zeros, 4, NULL, NULL, 0};
        assert_true(cc_add_seed(s, &in, &e));
        assert_int_equal(drive(s, &p, 100), CC_DONE);
        const cc_stats *cs = cc_get_stats(s);
        assert_true(cs->dropped > 0);
        /* dropped tests are not expanded: generational still runs the
         * children it dropped, the other orders lose whole subtrees */
        if (o == CC_GENERATIONAL)
            assert_true(cs->expanded < 8);
        else
            assert_true(cs->paths < 8);
        cc_free(s);
    }
    /* a tiny memory of seen prefixes: the parent-path rule and the
     * expanded-path check still run every path exactly once */
    prog p = {.body = p_tree};
    cc_config cfg;
    cc_config_default(&cfg);
    cfg.max_seen = 2;
    ctg_err e = {{0}};
    cc_search *s = cc_new(&cfg, run_prog, &p, &e);
    uint8_t zeros[4] = {0};
    cc_input in = {zeros, 4, NULL, NULL, 0};
    assert_true(cc_add_seed(s, &in, &e));
    assert_int_equal(drive(s, &p, 100), CC_DONE);
    assert_int_equal(cc_get_stats(s)->paths, 8);
    assert_int_equal(cc_get_stats(s)->runs, 8);
    cc_free(s);
}

static void visit(void *user, const char *name, double value)
{
    int *n = user;
    (*n)++;
    if (!strcmp(name, "concolic.paths"))
        assert_true(value == 4.0);
    if (!strcmp(name, "concolic.pc_avg"))
        assert_true(value > 1.0 && value < 3.0);
}

static void test_stats(void **st)
{
    (void)st;
    prog p = {.body = p_deadbeef};
    cc_search *s = start(&p, CC_GENERATIONAL, 64);
    drive(s, &p, 100);
    int n = 0;
    cc_stats_visit(s, visit, &n);
    assert_true(n > 20);
    const solver_stats *ss = cc_solver_stats(s);
    assert_int_equal(ss->queries, cc_get_stats(s)->queries);
    assert_true(cc_get_stats(s)->exec_secs >= 0 && cc_get_stats(s)->solver_secs > 0);
    cc_free(s);
    cc_free(NULL);
}

/* ---- the whole pipeline: a "runtime" writes a trace, the run reads it ------------- */

static uint64_t trace_region[2048];

/* Shadow of a little-endian 32-bit input value, as a runtime would build it. */
static uint32_t shadow_u32(uint32_t at)
{
    uint32_t v = ctg_symtrace_node(trace_region, CTG_SOP_INPUT, 8, at, 0, 0, 0, 0);
    for (uint32_t i = 1; i < 4; i++) {
        uint32_t b = ctg_symtrace_node(trace_region, CTG_SOP_INPUT, 8, at + i, 0, 0, 0, 0);
        v = ctg_symtrace_node(trace_region, CTG_SOP_CONCAT, (uint8_t)(8 * (i + 1)), 0, b, v, 0, 0);
    }
    return v;
}

static uint32_t le32(const cc_input *in, size_t at)
{
    uint32_t v = 0;
    for (size_t i = 0; i < 4; i++)
        v |= (uint32_t)(at + i < in->len ? in->bytes[at + i] : 0) << (8 * i);
    return v;
}

/* if (x == 0xdeadbeef) { if (a + 2*b == 7) error(); } traced like prog.sym. */
static bool run_traced(void *user, const cc_input *in, expr_ctx *ctx, cc_run_out *out, ctg_err *e)
{
    prog *p = user;
    static uint32_t edges[4];
    void *r = trace_region;
    ctg_symtrace_init(r, 64, 8);
    assert_true(ctg_symtrace_size(64, 8) <= sizeof trace_region);
    uint32_t x = le32(in, 0), a = le32(in, 4), b = le32(in, 8);
    uint32_t sx = shadow_u32(0), k = ctg_symtrace_const(r, 32, 0xdeadbeef, 0);
    uint32_t c0 = ctg_symtrace_node(r, CTG_SOP_ICMP, 1, 32, sx, k, 0, 0);
    bool t0 = x == 0xdeadbeef;
    ctg_symtrace_push(r, c0, 0, CTG_SPC_BRANCH, 0, t0);
    out->n_edges = 0;
    edges[out->n_edges++] = t0 ? 0 : 1;
    if (t0) {
        uint32_t sa = shadow_u32(4), sb = shadow_u32(8), two = ctg_symtrace_const(r, 32, 2, 0);
        uint32_t m = ctg_symtrace_node(r, CTG_SOP_MUL, 32, 0, sb, two, 0, 0);
        uint32_t sum = ctg_symtrace_node(r, CTG_SOP_ADD, 32, 0, sa, m, 0, 0);
        uint32_t seven = ctg_symtrace_const(r, 32, 7, 0);
        uint32_t c1 = ctg_symtrace_node(r, CTG_SOP_ICMP, 1, 32, sum, seven, 0, 0);
        bool t1 = a + 2 * b == 7;
        ctg_symtrace_push(r, c1, 2, CTG_SPC_BRANCH, 0, t1);
        edges[out->n_edges++] = t1 ? 2 : 3;
        out->error = t1;
    }
    out->edges = edges;
    p->runs++;
    if (out->error && !p->first_error_run)
        p->first_error_run = p->runs;
    return expr_trace_read(ctx, r, sizeof trace_region, &out->pc, e);
}

static void test_trace_pipeline(void **st)
{
    (void)st;
    prog p = {0};
    cc_config cfg;
    cc_config_default(&cfg);
    ctg_err e = {{0}};
    cc_search *s = cc_new(&cfg, run_traced, &p, &e);
    uint8_t zeros[12] = {0};
    cc_input in = {zeros, sizeof zeros, NULL, NULL, 0};
    assert_true(cc_add_seed(s, &in, &e));
    cc_status stt = CC_MORE;
    while (stt == CC_MORE && p.runs < 10)
        stt = cc_step(s, &e);
    assert_int_not_equal(stt, CC_FAIL);
    assert_int_equal(p.first_error_run, 3);
    cc_free(s);
}

static bool failing_run(void *user, const cc_input *in, expr_ctx *ctx, cc_run_out *out, ctg_err *e)
{
    prog *p = user;
    if (p->runs == 2)
        return err_set(e, "executor: fork server died");
    return run_prog(user, in, ctx, out, e);
}

static void test_run_failure(void **st)
{
    (void)st;
    prog p = {.body = p_tree};
    cc_config cfg;
    cc_config_default(&cfg);
    ctg_err e = {{0}};
    cc_search *s = cc_new(&cfg, failing_run, &p, &e);
    uint8_t zeros[4] = {0};
    cc_input in = {zeros, 4, NULL, NULL, 0};
    assert_true(cc_add_seed(s, &in, &e));
    cc_status stt = CC_MORE;
    for (int i = 0; i < 20 && stt == CC_MORE; i++)
        stt = cc_step(s, &e);
    assert_int_equal(stt, CC_FAIL);
    assert_non_null(strstr(e.msg, "fork server"));
    cc_free(s);
}

static void test_alloc_failure(void **st)
{
    (void)st;
    /* generational search, and param with scope mix handing over after
     * every fruitless run (a hand-over moves a test between the arms) */
    for (int mix = 0; mix < 2; mix++) {
        int failed = 0, complete = 0;
        for (long n = 0; n < 400; n += 3) {
            prog p = {.body = p_deadbeef};
            mem_fail_after(n);
            cc_config cfg;
            cc_config_default(&cfg);
            if (mix) {
                cfg = param_config(CC_SCOPE_MIX, tree_score);
                cfg.restart = 1;
            }
            ctg_err e = {{0}};
            cc_search *s = cc_new(&cfg, run_prog, &p, &e);
            uint8_t zeros[16] = {0};
            cc_input in = {zeros, sizeof zeros, NULL, NULL, 0};
            cc_status stt = CC_FAIL;
            if (s && cc_add_seed(s, &in, &e))
                for (stt = CC_MORE; stt == CC_MORE;)
                    stt = cc_step(s, &e);
            mem_fail_reset();
            if (stt == CC_FAIL) {
                assert_true(e.msg[0] != 0);
                failed++;
            } else {
                assert_int_equal(stt, CC_DONE);
                complete++;
            }
            cc_free(s);
        }
        assert_true(failed > 10);
        assert_true(complete > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deadbeef_generational),
        cmocka_unit_test(test_deadbeef_all_orders),
        cmocka_unit_test(test_tree_orders),
        cmocka_unit_test(test_param_scope),
        cmocka_unit_test(test_param_scope_gen),
        cmocka_unit_test(test_param_scope_mix),
        cmocka_unit_test(test_param_zero_scores),
        cmocka_unit_test(test_param_level_seeds),
        cmocka_unit_test(test_generational_bound_and_skip),
        cmocka_unit_test(test_divergence),
        cmocka_unit_test(test_symbolic_length),
        cmocka_unit_test(test_rerun_dropped_constraints),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_stats),
        cmocka_unit_test(test_trace_pipeline),
        cmocka_unit_test(test_run_failure),
        cmocka_unit_test(test_alloc_failure),
    };
    if (getenv("CMOCKA_FILTER"))
        cmocka_set_test_filter(getenv("CMOCKA_FILTER"));
    return cmocka_run_group_tests(tests, NULL, NULL);
}
