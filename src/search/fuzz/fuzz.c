/*
 * fuzz.c - the `fuzz` strategy: greybox fuzzing whose seed scheduling is
 * AlphaFuzz's Monte Carlo tree search (seed 000, mcts.h), or, with
 * --schedule queue, a plain AFL-like round-robin queue over the same
 * mutators, so the effect of the schedule can be measured.
 *
 * One round: select a seed (mcts_select or the next in the queue); run it
 * once with comparison logging to learn the operands its comparisons saw
 * (input-to-state candidates and dictionary tokens); then a batch of
 * mutants (havoc stack, typed value mutations, splicing, input-to-state;
 * mutate.h).  A mutant whose run reaches a new edge or a new hit-count
 * bucket of an edge (AFL's buckets 1, 2, 3, 4-7, 8-15, 16-31, 32-127,
 * 128+) becomes a child of the seed; finding one extends the batch.  After
 * the batch the seed and its ancestors are visited (backpropagation).
 *
 * Inputs are byte strings as everywhere (DESIGN.md section 2).  A Test-Comp
 * harness is mutated both as bytes and value by value (the value log of the
 * run that made the input tells each value's type and place); a value asked
 * for beyond the end of a mutant is 0 (CTG_FL_EXTEND_ZERO), or now and then
 * a fresh random value (CTG_FL_EXTEND_RANDOM), so inputs grow typed.  A node
 * keeps the bytes its run consumed.  A libFuzzer target gets raw bytes.
 *
 * Seeds: the files of -i DIR (an AFL++ or libFuzzer corpus), an empty
 * input, and --fuzz-seeds random ones; under `auto` also every test another
 * strategy kept, as soon as it was kept.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/hash.h"
#include "../../base/mem.h"
#include "../../base/target.h"
#include "../engine.h"
#include "../strategy.h"
#include "fuzz_dict.h"
#include "mcts.h"
#include "fuzz_int.h"
#include "mutate.h"

static const opt_desc fuzz_options[] = {
    {"schedule", 0, OPT_STR, OPT_KV, "KIND", "mcts",
     "fuzz: seed scheduling: mcts (AlphaFuzz's tree search) | queue (AFL-like round robin)"},
    {"fuzz-batch", 0, OPT_INT, OPT_KV, "N", "64",
     "fuzz: mutants per selected seed (extended by N for each find, up to 4N); "
     "on a libFuzzer target (its mutants run in batches) 32 at first, "
     "growing to 256 (a 16th of the executions so far)"},
    {"mcts-c", 0, OPT_DOUBLE, OPT_KV, "C", "0.1",
     "fuzz: exploration constant of the UCT seed score"},
    {"mcts-policy", 0, OPT_STR, OPT_KV, "P", "sized",
     "fuzz: MCTS selection: sized (visits per subtree node, the leaf of the walk) | stay "
     "(sized, and an inner node competes with its children as a leaf of its own) | seed "
     "(seed 000 as written)"},
    {"mcts-rare", 0, OPT_STR, OPT_KV, "R", "frontier",
     "fuzz: MCTS rare branches: frontier (the edges on a branch with a side no input covers; "
     "the seed's when none) | seed (the edges with the smallest hit count, seed 000)"},
    {"mcts-as-seed", 0, OPT_FLAG, OPT_KV, NULL, NULL,
     "fuzz: the tree search exactly as seed 000 writes it: --schedule mcts, --mcts-policy seed "
     "(visits per node, the raw count of rare branches against C) and --mcts-rare seed "
     "(docs/strategies.md lists what the defaults change and why)"},
    {"max-len", 0, OPT_INT, OPT_KV, "BYTES", "4096", "fuzz: longest input a mutant may have"},
    {"dict", 0, OPT_STR, OPT_KV, "FILE", NULL,
     "fuzz: AFL/libFuzzer dictionary file (lines name=\"token\" or \"token\", \\xNN escapes)"},
    {"fuzz-seeds", 0, OPT_INT, OPT_KV, "N", "2",
     "fuzz: random inputs among the initial seeds (Test-Comp harnesses)"},
    {"fuzz-trim", 0, OPT_STR, OPT_KV, "ON", "off",
     "fuzz: on: trim each new seed of a byte-input target as AFL does (remove chunks while "
     "the coverage stays); helps line-based text formats, costs some binary ones "
     "(docs/fuzzing-speed.md)"},
    {0},
};


/* ==== coverage novelty ===================================================== */

/* Collects the edges of the last run into F->trace and, unless the run
 * failed an assumption (its coverage does not count, as for the engine),
 * merges their buckets and those of the features into the virgin map;
 * returns the number of edges, with *fresh set when some edge, feature or
 * bucket was never seen before (a feature is not a trace entry: the tree
 * and the seeds' traces hold edges). */
size_t fz_scan_run(fuzz *F, const uint8_t *cov, const exec_result *r, bool *fresh)
{
    uint8_t keep = r->kind == EXEC_ASSUME ? 0 : 0xff;
    size_t k = 0;
    bool news = false;
    uint32_t i = 0;
    for (; i + 8 <= F->n_edges; i += 8) {
        uint64_t w;
        memcpy(&w, cov + i, 8);
        if (!w)
            continue;
        for (uint32_t j = i; j < i + 8; j++)
            if (cov[j]) {
                uint8_t b = ctg_bucket(cov[j]);
                news |= !(F->virgin[j] & b);
                F->virgin[j] |= b & keep;
                F->trace[k++] = j;
            }
    }
    for (; i < F->n_edges; i++)
        if (cov[i]) {
            uint8_t b = ctg_bucket(cov[i]);
            news |= !(F->virgin[i] & b);
            F->virgin[i] |= b & keep;
            F->trace[k++] = i;
        }
    for (i = F->n_edges + 1u; i < F->cov_len; i++)
        if (cov[i]) {
            uint8_t b = ctg_bucket(cov[i]);
            news |= !(F->virgin[i] & b);
            F->virgin[i] |= b & keep;
        }
    *fresh = news && keep;
    return k;
}

/* ==== seeds ================================================================== */

/* Adds the last run's consumed input as a seed under parent (NULL: the
 * root).  False on oom. */
static bool add_seed(fuzz *F, mcts_node *parent, size_t n_trace)
{
    const exec_t *x = ctx_executor(F->ctx);
    size_t all, n_vals;
    const uint8_t *in = exec_input(x, &all);
    size_t len = F->bytes ? all : exec_consumed(x);
    const ctg_value_rec *vals = exec_values(x, &n_vals);
    if (ctg_grow((void **)&F->seeds, &F->cap_seeds, F->n_seeds + 1, sizeof *F->seeds) != 0)
        return false;
    fz_seed s = {0};
    s.data = ctg_malloc(len ? len : 1);
    s.vals = F->bytes ? NULL : ctg_malloc((n_vals ? n_vals : 1) * sizeof *s.vals);
    if (!s.data || (!F->bytes && !s.vals))
        goto oom;
    memcpy(s.data, in, len);
    s.len = len;
    if (!F->bytes) {
        memcpy(s.vals, vals, n_vals * sizeof *vals);
        s.n_vals = n_vals;
    }
    s.node = mcts_add_child(F->tree, parent ? parent : mcts_root(F->tree), F->trace, n_trace,
                            (uint32_t)F->n_seeds);
    if (!s.node)
        goto oom;
    F->seeds[F->n_seeds++] = s;
    return true;
oom:
    ctg_free(s.data);
    ctg_free(s.vals);
    return false;
}

/* Flags of a run of the program (random extension now and then). */
uint32_t fz_run_flags(fuzz *F, bool may_extend)
{
    if (F->bytes)
        return 0;
    if (may_extend && rng_chance(ctx_rng(F->ctx), FUZZ_EXTEND_P))
        return CTG_FL_EXTEND_RANDOM;
    return CTG_FL_EXTEND_ZERO;
}

/* True for results whose input may become a seed. */
bool fz_seedable(exec_kind k)
{
    return k == EXEC_NORMAL;
}

/* ctx_exec for the fuzzer: a test the run kept is ours, so import_kept
 * must not run it again.  False when no run happened. */
bool fz_fuzz_exec(fuzz *F, const uint8_t *data, size_t len, uint32_t flags, ctx_run *r)
{
    if (!ctx_exec(F->ctx, data, len, flags, r))
        return false;
    if (r->kept)
        F->imported++;
    return true;
}

/* Runs data as an initial seed (a child of the root, whatever it covers
 * or however it ends, as seed 000 adds every initial input: even one that
 * fails an assumption is where mutants that pass it start from).  False
 * when no run happened. */
static bool run_initial(fuzz *F, const uint8_t *data, size_t len, uint32_t flags)
{
    ctx_run r;
    if (!fz_fuzz_exec(F, data, len, flags, &r))
        return false;
    bool fresh;
    size_t n = fz_scan_run(F, exec_cov(ctx_executor(F->ctx)), &r.r, &fresh);
    if (!add_seed(F, NULL, n))
        ctx_log(F->ctx, "fuzz: out of memory, an initial input was dropped");
    return true;
}

/* Runs the files of -i DIR (name order, at most FUZZ_MAX_CORPUS) as
 * initial seeds.  A directory or file that cannot be read is an error. */
static bool corpus_seeds(fuzz *F, const char *dir, ctg_err *e)
{
    char **paths;
    size_t n;
    ctg_err le = {{0}};
    if (!fs_list_files(dir, &paths, &n, &le))
        return err_set(e, "%s (the input directory, -i)", le.msg);
    for (size_t i = 0; i < n && i < FUZZ_MAX_CORPUS && !err_is_set(&le); i++) {
        char *data = NULL;
        size_t len = 0;
        if (fs_read(paths[i], &data, &len, &le))
            run_initial(F, (const uint8_t *)data, len < F->max_len ? len : F->max_len,
                        fz_run_flags(F, false));
        ctg_free(data);
    }
    for (size_t i = 0; i < n; i++)
        ctg_free(paths[i]);
    ctg_free(paths);
    return !err_is_set(&le) || err_set(e, "%s (a file of the input directory, -i)", le.msg);
}

/* Tests other strategies kept since the last call become initial seeds. */
static void import_kept(fuzz *F)
{
    size_t n = ctx_n_kept(F->ctx);
    while (F->imported < n) {
        const test_t *t = ctx_kept(F->ctx, F->imported++);
        if (!run_initial(F, t->data, t->len < F->max_len ? t->len : F->max_len,
                         fz_run_flags(F, false)))
            return;
    }
}

/* ==== the round =============================================================== */

/* A comparison record as a mutation source: integers rounded up to 8, 16,
 * 32 or 64 bits, strings at their own width (1..8 bytes).  bits 0 when the
 * record has no usable width. */
mut_cmp fz_cmp_of(const ctg_cmp_rec *c, bool exact)
{
    bool str = (c->bits & CTG_CMP_STRING) != 0;
    unsigned w = c->bits & 0xffffu;
    unsigned bits = w < 8 || w > 64 ? 0 : str ? w : w <= 8 ? 8 : w <= 16 ? 16 : w <= 32 ? 32 : 64;
    return (mut_cmp){c->a, c->b, bits, str, exact};
}

/* Whether comparison site i compares two computed values (no constant
 * operand), as a checksum check does: only those are worth a repair.  A
 * comparison with a constant is input-to-state's (mut_i2s puts the
 * constant in); repairing it as well cost a comparison-logging run and a
 * re-run outside the batches for a tenth of all fruitless mutants: on
 * json half of all wall time, for 4 finds in 20,000 tries. */
static bool derived(const fuzz *F, uint32_t i)
{
    const progdb *db = ctx_db(F->ctx);
    return i < db->n_cmp && !db->cmps[i].konst;
}

/* Runs the current seed with comparison logging: its operand pairs become
 * input-to-state candidates and dictionary tokens. */
static bool cmplog_seed(fuzz *F, fz_seed *s)
{
    s->cmplog_done = true;
    ctx_run r;
    if (!fz_fuzz_exec(F, s->data, s->len, CTG_FL_CMPLOG | fz_run_flags(F, false), &r))
        return false;
    const exec_t *x = ctx_executor(F->ctx);
    const ctg_cmp_rec *c = exec_cmp(x);
    uint32_t n = exec_n_cmp(x);
    s->cmps = ctg_malloc(FUZZ_MAX_CMPS * sizeof *s->cmps);
    s->eq = ctg_malloc(FUZZ_MAX_EQ * sizeof *s->eq);
    if (!s->cmps || !s->eq)
        return true;
    for (uint32_t i = 0; i < n && s->n_cmps < FUZZ_MAX_CMPS; i++) {
        mut_cmp m = fz_cmp_of(&c[i], false);
        bool str = m.str;
        unsigned bits = m.bits;
        if (c[i].hits && c[i].a == c[i].b && bits && s->n_eq < FUZZ_MAX_EQ && derived(F, i))
            s->eq[s->n_eq++] = i;
        if (!c[i].hits || c[i].a == c[i].b || bits == 0)
            continue;
        s->cmps[s->n_cmps++] = m;
        /* strings and operands that are no small number make useful tokens */
        for (int k = 0; k < 2; k++) {
            uint64_t v = k ? c[i].b : c[i].a;
            if (str || (bits >= 16 && v > 0xff && v != (uint64_t)-1)) {
                uint8_t tok[8];
                unsigned len = bits / 8;
                for (unsigned j = 0; j < len; j++)
                    tok[j] = (uint8_t)(v >> (8 * j));
                while (str && len > 1 && tok[len - 1] == 0) /* the shorter string's NULs */
                    len--;
                mut_dict_add(F->dict, tok, len);
            }
        }
    }
    return true;
}

/* The case values of the program's switch statements (edge labels "case
 * N" in the program database) as dictionary tokens of the smallest width
 * that holds them: parsers switch over input characters, and a switch
 * logs no comparison operands. */
static void switch_tokens(fuzz *F)
{
    const progdb *db = ctx_db(F->ctx);
    for (uint32_t i = 0; i < db->n_edges; i++) {
        const char *l = db->edges[i].label;
        long long v;
        if (!l || sscanf(l, "case %lld", &v) != 1)
            continue;
        unsigned w = v >= -128 && v <= 255 ? 1 : v >= -32768 && v <= 65535 ? 2
                   : v >= INT32_MIN && v <= (long long)UINT32_MAX ? 4 : 8;
        uint8_t tok[8];
        for (unsigned j = 0; j < w; j++)
            tok[j] = (uint8_t)((unsigned long long)v >> (8 * j));
        mut_dict_add(F->dict, tok, w);
    }
}

/* The constant operands of the program's string compares (pdb_cmp.token,
 * found at build time, as AFL++'s autodictionary) as dictionary tokens:
 * a run's comparison log holds only a string's first 8 bytes, so
 * "root shell" would never be written whole. */
static void string_tokens(fuzz *F)
{
    const progdb *db = ctx_db(F->ctx);
    for (uint32_t i = 0; i < db->n_cmp; i++) {
        const char *h = db->cmps[i].token;
        uint8_t tok[MUT_TOKEN_MAX];
        size_t n = 0;
        unsigned v;
        while (h && n < MUT_TOKEN_MAX && sscanf(h + 2 * n, "%2x", &v) == 1)
            tok[n++] = (uint8_t)v;
        if (n)
            mut_dict_add(F->dict, tok, n);
    }
}

/* Mutants of a round: F->batch, or while the rounds grow, a 16th of the
 * executions so far, at least FUZZ_FIRST_ROUND. */
static long round_len(const fuzz *F)
{
    if (!F->grow)
        return F->batch;
    uint64_t r = ctx_execs(F->ctx) / 16;
    return r < FUZZ_FIRST_ROUND ? FUZZ_FIRST_ROUND : r > (uint64_t)F->batch ? F->batch : (long)r;
}

/* Chooses the next seed and starts its batch.  False when no run is
 * possible any more. */
static bool start_round(fuzz *F)
{
    import_kept(F);
    if (F->n_seeds == 0) /* every initial input was lost to memory: try a fresh one */
        run_initial(F, NULL, 0, F->bytes ? 0 : CTG_FL_EXTEND_RANDOM);
    if (F->n_seeds == 0)
        return false;
    if (F->mcts) {
        mcts_node *best = mcts_select(F->tree);
        F->cur = best ? mcts_payload(best) : 0;
    } else {
        F->cur = F->queue_pos++ % F->n_seeds;
    }
    F->selections++;
    F->left = round_len(F);
    F->extended = 0;
    fz_seed *s = &F->seeds[F->cur];
    return s->cmplog_done || cmplog_seed(F, s);
}

/* Builds a mutant of seed s in F->buf; returns its length. */
size_t fz_make_mutant(fuzz *F, const fz_seed *s, bool *i2s_only)
{
    rng *r = ctx_rng(F->ctx);
    size_t len = s->len < F->max_len ? s->len : F->max_len;
    memcpy(F->buf, s->data, len);
    mut_src src = {s->vals, s->n_vals, F->dict, s->cmps, s->n_cmps, NULL, 0, NULL, 0};
    *i2s_only = false;
    if (s->n_cmps && rng_chance(r, FUZZ_I2S_P)) {
        /* binary first, or (half of the time) the operands written as text */
        size_t n = rng_chance(r, 0.5) ? mut_i2s_text(r, F->buf, len, F->max_len, &src) : 0;
        if (n || mut_i2s(r, F->buf, &len, F->max_len, &src)) {
            *i2s_only = true;
            return n ? n : len;
        }
    }
    if (F->n_seeds > 1 && F->bytes) { /* byte inputs (libFuzzer, stdin, @@) */
        /* a part of another seed for havoc's op_other_part; not for typed
         * Test-Comp values, whose layout it breaks (bmp at 20,000
         * executions: 83.9 -> 71.2 % with it) */
        const fz_seed *o = &F->seeds[rng_below(r, F->n_seeds)];
        src.other = o->data;
        src.other_len = o->len;
    }
    if (F->n_seeds > 1 && rng_chance(r, FUZZ_SPLICE_P)) {
        const fz_seed *o = &F->seeds[rng_below(r, F->n_seeds)];
        src.splice = o->data;
        src.splice_len = o->len;
        len = mut_splice(r, F->buf, len, F->max_len, &src);
        src.vals = NULL; /* the layout changed */
        src.n_vals = 0;
    }
    unsigned stack = 1u << rng_below(r, 5);
    return mut_havoc(r, F->buf, len, F->max_len, &src, stack);
}

/* Hash of the last run's coverage: each edge hit with its AFL bucket. */
static uint64_t cov_hash(const fuzz *F)
{
    const uint8_t *cov = exec_cov(ctx_executor(F->ctx));
    uint64_t h = 0;
    for (uint32_t i = 0; i < F->n_edges; i++)
        if (cov[i])
            h = hash_combine64(h, (uint64_t)i << 8 | ctg_bucket(cov[i]));
    return h;
}

/* AFL's trim of a new seed of a byte-input target, before it enters the
 * tree: chunks of len/16 down to len/1024 bytes (at least FUZZ_TRIM_MIN)
 * are removed in turn while the coverage (edges and buckets) stays what
 * the input had.  Short seeds are what mutations and splices of a parser
 * build on; a seed that kept the junk of its ancestors is not.  When
 * something was removed, the trimmed input runs last, so add_seed takes
 * it.  False when no run happened (budget spent). */
static bool trim_seed(fuzz *F)
{
    const exec_t *x = ctx_executor(F->ctx);
    size_t len;
    const uint8_t *in = exec_input(x, &len);
    if (!F->trim || !F->bytes || len < 2 * FUZZ_TRIM_MIN || len > F->max_len)
        return true;
    memcpy(F->tbuf, in, len);
    uint64_t want = cov_hash(F);
    size_t p2 = 1, orig = len;
    while (p2 < len)
        p2 <<= 1;
    size_t stop = p2 / 1024 > FUZZ_TRIM_MIN ? p2 / 1024 : FUZZ_TRIM_MIN;
    bool last_is_kept = true; /* the executor's last run is tbuf[0..len) */
    ctx_run r;
    for (size_t rm = p2 / 16 > stop ? p2 / 16 : stop; rm >= stop && len > rm; rm /= 2) {
        for (size_t pos = 0; pos + rm <= len && len > rm;) {
            memcpy(F->buf, F->tbuf, pos);
            memcpy(F->buf + pos, F->tbuf + pos + rm, len - pos - rm);
            if (!fz_fuzz_exec(F, F->buf, len - rm, 0, &r))
                return false;
            F->trim_runs++;
            if (r.r.kind == EXEC_NORMAL && cov_hash(F) == want) {
                len -= rm;
                memcpy(F->tbuf, F->buf, len);
                last_is_kept = true;
            } else {
                last_is_kept = false;
                pos += rm;
            }
        }
    }
    if (len < orig) {
        F->trims++;
        F->trimmed_bytes += orig - len;
    }
    return last_is_kept || fz_fuzz_exec(F, F->tbuf, len, 0, &r);
}

/* Makes the last run's input a seed under the current one (trimmed
 * first); extends the batch. */
void fz_found(fuzz *F, size_t n_trace, bool i2s)
{
    mcts_node *parent = F->seeds[F->cur].node; /* add_seed may move F->seeds */
    if (!trim_seed(F) || !add_seed(F, parent, n_trace))
        return;
    F->finds++;
    F->i2s_finds += i2s;
    long len = round_len(F);
    if (F->extended < 3 * len) { /* a productive seed gets more mutants */
        F->left += len;
        F->extended += len;
    }
}

/* Runs one mutant of the current seed.  False when no run happened. */
static bool run_mutant(fuzz *F)
{
    fz_seed *s = &F->seeds[F->cur];
    bool i2s;
    size_t len = fz_make_mutant(F, s, &i2s);
    ctx_run r;
    if (!fz_fuzz_exec(F, F->buf, len, fz_run_flags(F, true), &r))
        return false;
    F->left--;
    bool fresh;
    size_t n = fz_scan_run(F, exec_cov(ctx_executor(F->ctx)), &r.r, &fresh);
    if (fresh && fz_seedable(r.r.kind))
        fz_found(F, n, i2s);
    else if (!fresh && s->n_eq && r.r.kind == EXEC_NORMAL &&
             rng_chance(ctx_rng(F->ctx), i2s ? FUZZ_REPAIR_I2S_P : FUZZ_REPAIR_P)) {
        const exec_t *x = ctx_executor(F->ctx);
        size_t all;
        const uint8_t *in = exec_input(x, &all);
        return fz_repair(F, in, F->bytes ? all : exec_consumed(x));
    }
    return true;
}

static void end_round(fuzz *F)
{
    for (int k = 0; k < 2; k++) /* mutants of this seed not run yet go */
        F->ahead[k].n = F->ahead[k].at = 0;
    if (F->cur != NO_SEED && F->cur < F->n_seeds)
        mcts_visit(F->tree, F->seeds[F->cur].node);
    F->cur = NO_SEED;
}

/* ==== the strategy ================================================================ */

static void fuzz_free(fuzz *F)
{
    if (!F)
        return;
    for (size_t i = 0; i < F->n_seeds; i++) {
        ctg_free(F->seeds[i].data);
        ctg_free(F->seeds[i].vals);
        ctg_free(F->seeds[i].cmps);
        ctg_free(F->seeds[i].eq);
    }
    ctg_free(F->seeds);
    mcts_free(F->tree);
    ctg_free(F->virgin);
    ctg_free(F->trace);
    mut_dict_free(F->dict);
    ctg_free(F->buf);
    ctg_free(F->tbuf);
    ctg_free(F->ahead[0].buf);
    ctg_free(F->ahead[1].buf);
    ctg_free(F->rep.buf);
    ctg_free(F->rep.work);
    ctg_free(F);
}

/* Gives the tree the branches of db's edges (mcts_set_frontier).  False on
 * out of memory. */
static bool set_frontier(mcts_tree *t, const progdb *db)
{
    size_t n = db->n_edges ? db->n_edges : 1;
    uint32_t *first = ctg_malloc(n * sizeof *first), *count = ctg_malloc(n * sizeof *count);
    bool ok = first && count;
    for (uint32_t i = 0; ok && i < db->n_edges; i++) {
        const pdb_branch *b = &db->branches[db->edges[i].branch];
        first[i] = b->first_edge;
        count[i] = b->n_edges;
    }
    ok = ok && mcts_set_frontier(t, first, count);
    ctg_free(first);
    ctg_free(count);
    return ok;
}

/* Reads and checks the options; false with e set. */
static bool read_options(fuzz *F, const ctg_options *o, ctg_err *e)
{
    const char *sched = opt_get_str(o, "schedule");
    if (strcmp(sched, "mcts") != 0 && strcmp(sched, "queue") != 0)
        return err_set(e, "--schedule: unknown schedule '%s'; use mcts or queue", sched);
    F->mcts = strcmp(sched, "mcts") == 0;
    static const char *const policies[] = {[MCTS_SEED] = "seed", [MCTS_SIZED] = "sized",
                                           [MCTS_STAY] = "stay"};
    const char *pol = opt_get_str(o, "mcts-policy");
    size_t k = 0;
    while (k < sizeof policies / sizeof *policies && strcmp(pol, policies[k]) != 0)
        k++;
    if (k == sizeof policies / sizeof *policies)
        return err_set(e, "--mcts-policy: unknown policy '%s'; use sized, stay or seed", pol);
    F->policy = (mcts_policy)k;
    const char *rare = opt_get_str(o, "mcts-rare");
    if (strcmp(rare, "frontier") != 0 && strcmp(rare, "seed") != 0)
        return err_set(e, "--mcts-rare: unknown rule '%s'; use frontier or seed", rare);
    F->frontier = strcmp(rare, "frontier") == 0;
    if (opt_get_flag(o, "mcts-as-seed")) { /* seed 000 as written, whatever else is given */
        if (!F->mcts)
            return err_set(e, "--mcts-as-seed: the seed's tree search needs --schedule mcts");
        F->policy = MCTS_SEED;
        F->frontier = false;
    }
    F->batch = opt_get_long(o, "fuzz-batch");
    long max_len = opt_get_long(o, "max-len");
    F->n_random = opt_get_long(o, "fuzz-seeds");
    if (F->batch < 1)
        return err_set(e, "--fuzz-batch: must be at least 1");
    if (max_len < 1 || max_len > (long)CTG_MAX_INPUT)
        return err_set(e, "--max-len: must be between 1 and %u", CTG_MAX_INPUT);
    if (F->n_random < 0)
        return err_set(e, "--fuzz-seeds: must not be negative");
    F->max_len = (size_t)max_len;
    const char *trim = opt_get_str(o, "fuzz-trim");
    if (strcmp(trim, "on") != 0 && strcmp(trim, "off") != 0)
        return err_set(e, "--fuzz-trim: unknown value '%s'; use on or off", trim);
    F->trim = strcmp(trim, "on") == 0;
    return true;
}

/* strategy.check: the options, read into a scratch state. */
static bool fuzz_check(const ctg_options *o, ctg_err *e)
{
    fuzz F;
    memset(&F, 0, sizeof F);
    return read_options(&F, o, e);
}

static void *fuzz_init(search_ctx *ctx, ctg_err *e)
{
    fuzz *F = ctg_calloc(1, sizeof *F);
    if (!F) {
        err_set(e, "out of memory");
        return NULL;
    }
    const ctg_options *o = ctx_opts(ctx);
    F->ctx = ctx;
    F->cur = NO_SEED;
    F->n_edges = ctx_db(ctx)->n_edges;
    F->bytes = target_of_harness(ctx_db(ctx)->harness)->bytes; /* libFuzzer, stdin, @@ */
    if (!read_options(F, o, e))
        goto fail;
    F->tree = mcts_new(F->n_edges, opt_get_double(o, "mcts-c"));
    if (F->tree)
        mcts_set_policy(F->tree, F->policy);
    F->cov_len = (uint32_t)ctg_cov_len(F->n_edges, ctx_db(ctx)->n_cmp);
    F->virgin = ctg_calloc((size_t)F->cov_len + 8, 1);
    F->trace = ctg_malloc(((size_t)F->n_edges + 1) * sizeof *F->trace);
    F->dict = mut_dict_new(FUZZ_DICT_CAP);
    F->buf = ctg_malloc(F->max_len);
    F->tbuf = ctg_malloc(F->max_len);
    if (F->bytes && exec_can_batch(ctx_executor(ctx))) {
        size_t cap = FUZZ_AHEAD * F->max_len;
        F->pend_cap = cap < CTG_BATCH_BYTES ? cap : CTG_BATCH_BYTES;
        F->ahead[0].buf = ctg_malloc(F->pend_cap);
        F->ahead[1].buf = ctg_malloc(F->pend_cap);
        F->rep.buf = ctg_malloc(F->pend_cap);
        F->rep.work = ctg_malloc(F->max_len);
        if (!opt_given(o, "fuzz-batch"))
            F->batch = FUZZ_BATCHED_ROUND, F->grow = true;
    }
    if (!F->tree || (F->frontier && !set_frontier(F->tree, ctx_db(ctx))) || !F->virgin ||
        !F->trace || !F->dict || !F->buf || !F->tbuf ||
        (F->pend_cap &&
         (!F->ahead[0].buf || !F->ahead[1].buf || !F->rep.buf || !F->rep.work))) {
        err_set(e, "out of memory");
        goto fail;
    }
    const char *dict = opt_get_str(o, "dict");
    if (dict && !fuzz_dict_load(F->dict, dict, e))
        goto fail;
    switch_tokens(F);
    string_tokens(F);
    mut_dict_fix(F->dict); /* the user's, the switches' and the strings' tokens stay;
                              learned ones rotate */
    if (o->search.input_dir && !corpus_seeds(F, o->search.input_dir, e))
        goto fail;
    run_initial(F, NULL, 0, fz_run_flags(F, false));
    for (long k = 0; !F->bytes && k < F->n_random; k++)
        run_initial(F, NULL, 0, CTG_FL_EXTEND_RANDOM);
    return F;
fail:
    fuzz_free(F);
    return NULL;
}

static bool fuzz_step(void *state, search_ctx *ctx)
{
    fuzz *F = state;
    (void)ctx;
    if (F->cur == NO_SEED && !start_round(F))
        return ctx_budget_left(F->ctx) && F->n_seeds > 0;
    for (int k = 0; k < FUZZ_STEP_RUNS && F->left > 0; k++)
        if (!(F->pend_cap ? fz_run_ahead(F) : run_mutant(F)))
            return false;
    if (F->left <= 0)
        end_round(F);
    return true;
}

static void fuzz_finish(void *state, search_ctx *ctx)
{
    fuzz *F = state;
    ctx_stat_set(ctx, "fuzz.nodes", (double)F->n_seeds);
    ctx_stat_set(ctx, "fuzz.depth", mcts_max_depth(F->tree));
    ctx_stat_set(ctx, "fuzz.selections", (double)F->selections);
    ctx_stat_set(ctx, "fuzz.finds", (double)F->finds);
    ctx_stat_set(ctx, "fuzz.i2s_finds", (double)F->i2s_finds);
    ctx_stat_set(ctx, "fuzz.repairs", (double)F->repairs);
    ctx_stat_set(ctx, "fuzz.repair_tries", (double)F->repair_tries);
    ctx_stat_set(ctx, "fuzz.repair_in_batch", (double)F->repair_in_batch);
    ctx_stat_set(ctx, "fuzz.trims", (double)F->trims);
    ctx_stat_set(ctx, "fuzz.trim_runs", (double)F->trim_runs);
    ctx_stat_set(ctx, "fuzz.trimmed_bytes", (double)F->trimmed_bytes);
    ctx_stat_set(ctx, "fuzz.dict", (double)mut_dict_size(F->dict));
    ctx_summary_line(ctx,
                     "fuzz: schedule %s, %zu inputs in the tree (depth %u), %llu seeds selected, "
                     "%llu finds (%llu by input-to-state, %llu of them repairs), dictionary %zu tokens",
                     F->mcts ? "mcts" : "queue", F->n_seeds, mcts_max_depth(F->tree),
                     (unsigned long long)F->selections, (unsigned long long)F->finds,
                     (unsigned long long)F->i2s_finds, (unsigned long long)F->repairs,
                     mut_dict_size(F->dict));
    fuzz_free(F);
}

/* Seeds found (strategy.progress): new coverage counts included. */
static uint64_t fuzz_progress(const void *state)
{
    return ((const fuzz *)state)->finds;
}

const strategy strategy_fuzz = {
    .name = "fuzz",
    .progress = fuzz_progress,
    .summary = "greybox fuzzing, AlphaFuzz MCTS seed scheduling (or an AFL-like queue)",
    .options = fuzz_options,
    .init = fuzz_init,
    .check = fuzz_check,
    .step = fuzz_step,
    .finish = fuzz_finish,
};
