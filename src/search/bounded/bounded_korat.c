/*
 * bounded_korat.c - Korat mode of the `bounded` strategy (seed 002, Korat
 * for C; file format in docs/korat-format.md).
 *
 * Before the build (prepare) the finitisation is parsed and the harness is
 * generated into <out>/bounded/: korat_harness.c #includes the program and
 * becomes the program that is built and tested; its test main reads the
 * candidate vector as nondet values, assumes repOk and calls the function
 * under test.  At init the same file is compiled again with
 * -DCTG_KORAT_HELPER and clang's -fsanitize-coverage=trace-loads into the
 * repOk helper, which runs repOk on a candidate and reports the fields it
 * read in order (the field ordering).  Each step evaluates one candidate
 * (korat.h does the increment / backtrack / symmetry breaking) or runs the
 * function under test on a valid structure, once per combination of its
 * scalar arguments from the small-scope domains.
 */
#include <stdio.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "bounded_int.h"
#include "kharness.h"

/* Loads the finitisation and settles the function under test. */
static kspec *load_spec(const ctg_options *o, ctg_err *e)
{
    const char *path = opt_get_str(o, "korat");
    kspec *k = kspec_load(path, e);
    if (!k)
        return NULL;
    const char *fn = o->build.function;
    if (fn && k->function && strcmp(fn, k->function)) {
        err_set(e, "--function %s: %s:%d names the function %s; give one of them", fn, path,
                k->line_function, k->function);
    } else if (fn && !kspec_default_function(k, fn)) {
        err_set(e, "out of memory");
    } else if (!k->function) {
        err_set(e, "%s: no function under test; add 'function NAME(args)' or pass --function NAME",
                path);
    } else {
        return k;
    }
    kspec_free(k);
    return NULL;
}

/* Refuses to write into the output directory of an earlier run (the engine
 * would refuse it after the build). */
static bool out_dir_free(const ctg_options *o, ctg_err *e)
{
    char *stats = fs_join(o->out.out_dir, "stats.json");
    bool earlier = stats && fs_exists(stats);
    ctg_free(stats);
    if (earlier && !o->out.force)
        return err_set(e, "%s: holds an earlier run; pass --force to replace it or choose another "
                          "-o DIR", o->out.out_dir);
    return true;
}

bool bnd_korat_prepare(const ctg_options *o, char ***sources, int *n, ctg_err *e)
{
    kspec *k = load_spec(o, e);
    if (!k || !out_dir_free(o, e)) {
        kspec_free(k);
        return false;
    }
    korat *kk = korat_new(k->fin, e); /* validates the finitisation */
    char *prog = kk ? fs_realpath(o->positional.items[0], e) : NULL;
    korat_free(kk);
    sbuf h = SBUF_INIT, g = SBUF_INIT;
    bool ok = prog != NULL;
    if (ok) {
        kharness_korat(&h, k, prog, o->exec.timeout_ms);
        kharness_glue(&g, k);
        ok = bnd_write(o, "korat_harness.c", &h, e) && bnd_write(o, "korat_glue.c", &g, e);
    }
    char **s = ok ? ctg_calloc((size_t)o->positional.n + 1, sizeof *s) : NULL;
    if (ok && s && (s[0] = bnd_path(o, "korat_harness.c")) && (s[1] = bnd_path(o, "korat_glue.c"))) {
        *n = 2;
        for (int i = 1; i < o->positional.n && ok; i++)
            ok = (s[(*n)++] = ctg_strdup(o->positional.items[i])) != NULL;
    } else if (ok) {
        ok = false;
    }
    if (!ok && !err_is_set(e))
        err_set(e, "out of memory");
    if (!ok && s) {
        for (int i = 0; i <= o->positional.n; i++)
            ctg_free(s[i]);
        ctg_free(s);
        s = NULL;
    }
    *sources = s;
    sbuf_release(&h);
    sbuf_release(&g);
    ctg_free(prog);
    kspec_free(k);
    return ok;
}

/* Compiles the repOk helper from the generated harness. */
static bool build_helper(bounded *b, const ctg_options *o, ctg_err *e)
{
    sbuf stubs = SBUF_INIT;
    kharness_stubs(&stubs);
    char *h = bnd_path(o, "korat_harness.c"), *st = bnd_path(o, "stubs.c");
    char *bin = bnd_path(o, "korat_helper");
    const char **srcs = ctg_calloc((size_t)o->positional.n + 1, sizeof *srcs);
    bool ok = h && st && bin && srcs;
    if (!ok)
        err_set(e, "out of memory");
    if (ok && !fs_exists(h))
        ok = err_set(e, "%s: missing; run `ctestgen run` again", h);
    ok = ok && bnd_write(o, "stubs.c", &stubs, e);
    if (ok) {
        static const char *const extra[] = {
            "-DCTG_KORAT_HELPER", "-fsanitize-coverage=inline-8bit-counters,trace-loads"};
        srcs[0] = h;
        srcs[1] = st;
        for (int i = 1; i < o->positional.n; i++)
            srcs[i + 1] = o->positional.items[i];
        ok = bnd_compile_helper(o, b->arch, srcs, o->positional.n + 1, extra, 2, bin, e) &&
             (b->kor.rep = bhelper_start(bin, e)) != NULL;
    }
    sbuf_release(&stubs);
    ctg_free(h), ctg_free(st), ctg_free(bin), ctg_free(srcs);
    return ok;
}

bool bnd_korat_init(bounded *b, search_ctx *ctx, ctg_err *e)
{
    const ctg_options *o = ctx_opts(ctx);
    if (!(b->kor.ks = load_spec(o, e)) || !(b->kor.k = korat_new(b->kor.ks->fin, e)))
        return false;
    b->kor.n_slots = korat_n_slots(b->kor.k);
    b->kor.wide = kharness_wide(b->kor.ks);
    b->kor.cand = ctg_calloc(b->kor.n_slots, sizeof *b->kor.cand);
    b->kor.ans = ctg_calloc(b->kor.n_slots + 2, sizeof *b->kor.ans);
    b->kor.order = ctg_calloc(b->kor.n_slots, sizeof *b->kor.order);
    if (!b->kor.cand || !b->kor.ans || !b->kor.order)
        return err_set(e, "out of memory");
    return build_helper(b, o, e);
}

/* Runs repOk on the current candidate through the helper.  Returns the
 * verdict (0, 1, 2 = crashed) and fills b->kor.order; -1 when the helper fails. */
static int evaluate(bounded *b, search_ctx *ctx, size_t *n_order)
{
    const uint32_t *v = korat_vector(b->kor.k);
    double timeout = ctx_opts(ctx)->exec.timeout_ms / 1000.0 + 5;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!bhelper_call(b->kor.rep, v, b->kor.n_slots * sizeof *v, b->kor.ans, 2 * sizeof *b->kor.ans, timeout))
            continue;
        uint32_t n = b->kor.ans[1];
        if (n > b->kor.n_slots ||
            !bhelper_read_more(b->kor.rep, b->kor.ans + 2, n * sizeof *b->kor.ans, timeout))
            continue;
        for (uint32_t i = 0; i < n; i++)
            b->kor.order[i] = b->kor.ans[2 + i] < b->kor.n_slots ? b->kor.ans[2 + i] : 0;
        *n_order = n;
        return (int)b->kor.ans[0];
    }
    b->kor.helper_failures++;
    return -1;
}

/* One run of the function under test on the structure in b->kor.cand with the
 * next combination of its scalar arguments. */
static bool fut_step(bounded *b, search_ctx *ctx)
{
    const scope_val *p;
    size_t k;
    if (!scope_next(b->kor.args, &p, &k)) {
        scope_free(b->kor.args);
        b->kor.args = NULL;
        b->kor.in_fut = false;
        return !b->kor.korat_done;
    }
    sbuf_reset(&b->in);
    for (size_t i = 0; i < b->kor.n_slots; i++) {
        uint16_t x = (uint16_t)b->kor.cand[i];
        sbuf_append(&b->in, &x, b->kor.wide ? 2 : 1); /* little endian */
    }
    bnd_encode_prefix(b, p, k);
    bnd_pad(b, b->max_values - k + 1);
    ctx_run r;
    if (!sbuf_ok(&b->in) || !ctx_exec(ctx, (const uint8_t *)b->in.data, b->in.len, 0, &r))
        return false;
    b->kor.fut_runs++;
    bool truncated;
    size_t m = bnd_run_types(b, ctx, &r, b->kor.n_slots, &truncated);
    return scope_report(b->kor.args, b->types, m, truncated);
}

bool bnd_korat_step(bounded *b, search_ctx *ctx)
{
    if (b->kor.in_fut)
        return fut_step(b, ctx);
    if (b->kor.korat_done)
        return false;
    size_t n = 0;
    int verdict = evaluate(b, ctx, &n);
    if (verdict < 0) {
        ctx_log(ctx, "bounded: the repOk helper keeps failing; stopping Korat");
        return false;
    }
    bool valid = verdict == 1;
    b->kor.crashed_repok += verdict == 2;
    if (valid) {
        ctg_err e = {{0}};
        memcpy(b->kor.cand, korat_vector(b->kor.k), b->kor.n_slots * sizeof *b->kor.cand);
        if (!(b->kor.args = scope_new(&b->dom, b->max_values, &e)))
            return false;
        b->kor.in_fut = true;
        b->kor.structures++;
    }
    b->kor.korat_done = !korat_advance(b->kor.k, b->kor.order, n, valid);
    return b->kor.in_fut || !b->kor.korat_done;
}

void bnd_korat_finish(bounded *b, search_ctx *ctx)
{
    if (ctx && b->kor.k) {
        const ctg_options *o = ctx_opts(ctx);
        const korat_stats *st = korat_get_stats(b->kor.k);
        ctx_log(ctx, "bounded: korat: %llu candidates, %llu valid non-isomorphic structures, "
                     "%llu runs of %s%s",
                (unsigned long long)st->candidates, (unsigned long long)b->kor.structures,
                (unsigned long long)b->kor.fut_runs, b->kor.ks->function,
                b->kor.korat_done && !b->kor.in_fut ? "; the space is exhausted" : "");
        if (b->kor.crashed_repok)
            ctx_log(ctx, "bounded: %s crashed or hung on %llu candidates (taken as invalid)",
                    b->kor.ks->repok, (unsigned long long)b->kor.crashed_repok);
        ctx_log(ctx, "bounded: replay with: ctestgen replay %s %s/bounded/korat_harness.c "
                     "%s/bounded/korat_glue.c", o->out.out_dir, o->out.out_dir, o->out.out_dir);
        ctx_stat_set(ctx, "bounded.korat.candidates", (double)st->candidates);
        ctx_stat_set(ctx, "bounded.korat.structures", (double)b->kor.structures);
        ctx_stat_set(ctx, "bounded.korat.runs", (double)b->kor.fut_runs);
    }
    bhelper_stop(b->kor.rep);
    scope_free(b->kor.args);
    korat_free(b->kor.k);
    kspec_free(b->kor.ks);
    ctg_free(b->kor.cand);
    ctg_free(b->kor.ans);
    ctg_free(b->kor.order);
    memset(&b->kor, 0, sizeof b->kor);
}
