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
             (b->rep = bhelper_start(bin, e)) != NULL;
    }
    sbuf_release(&stubs);
    ctg_free(h), ctg_free(st), ctg_free(bin), ctg_free(srcs);
    return ok;
}

bool bnd_korat_init(bounded *b, search_ctx *ctx, ctg_err *e)
{
    const ctg_options *o = ctx_opts(ctx);
    if (!(b->ks = load_spec(o, e)) || !(b->k = korat_new(b->ks->fin, e)))
        return false;
    b->n_slots = korat_n_slots(b->k);
    b->wide = kharness_wide(b->ks);
    b->cand = ctg_calloc(b->n_slots, sizeof *b->cand);
    b->ans = ctg_calloc(b->n_slots + 2, sizeof *b->ans);
    b->order = ctg_calloc(b->n_slots, sizeof *b->order);
    if (!b->cand || !b->ans || !b->order)
        return err_set(e, "out of memory");
    return build_helper(b, o, e);
}

/* Runs repOk on the current candidate through the helper.  Returns the
 * verdict (0, 1, 2 = crashed) and fills b->order; -1 when the helper fails. */
static int evaluate(bounded *b, search_ctx *ctx, size_t *n_order)
{
    const uint32_t *v = korat_vector(b->k);
    double timeout = ctx_opts(ctx)->exec.timeout_ms / 1000.0 + 5;
    for (int attempt = 0; attempt < 2; attempt++) {
        if (!bhelper_call(b->rep, v, b->n_slots * sizeof *v, b->ans, 2 * sizeof *b->ans, timeout))
            continue;
        uint32_t n = b->ans[1];
        if (n > b->n_slots ||
            !bhelper_read_more(b->rep, b->ans + 2, n * sizeof *b->ans, timeout))
            continue;
        for (uint32_t i = 0; i < n; i++)
            b->order[i] = b->ans[2 + i] < b->n_slots ? b->ans[2 + i] : 0;
        *n_order = n;
        return (int)b->ans[0];
    }
    b->helper_failures++;
    return -1;
}

/* One run of the function under test on the structure in b->cand with the
 * next combination of its scalar arguments. */
static bool fut_step(bounded *b, search_ctx *ctx)
{
    const scope_val *p;
    size_t k;
    if (!scope_next(b->args, &p, &k)) {
        scope_free(b->args);
        b->args = NULL;
        b->in_fut = false;
        return !b->korat_done;
    }
    sbuf_reset(&b->in);
    for (size_t i = 0; i < b->n_slots; i++) {
        uint16_t x = (uint16_t)b->cand[i];
        sbuf_append(&b->in, &x, b->wide ? 2 : 1); /* little endian */
    }
    bnd_encode_prefix(b, p, k);
    bnd_pad(b, b->max_values - k + 1);
    ctx_run r;
    if (!sbuf_ok(&b->in) || !ctx_exec(ctx, (const uint8_t *)b->in.data, b->in.len, 0, &r))
        return false;
    b->fut_runs++;
    bool truncated;
    size_t m = bnd_run_types(b, ctx, &r, b->n_slots, &truncated);
    return scope_report(b->args, b->types, m, truncated);
}

bool bnd_korat_step(bounded *b, search_ctx *ctx)
{
    if (b->in_fut)
        return fut_step(b, ctx);
    if (b->korat_done)
        return false;
    size_t n = 0;
    int verdict = evaluate(b, ctx, &n);
    if (verdict < 0) {
        ctx_log(ctx, "bounded: the repOk helper keeps failing; stopping Korat");
        return false;
    }
    bool valid = verdict == 1;
    b->crashed_repok += verdict == 2;
    if (valid) {
        ctg_err e = {{0}};
        memcpy(b->cand, korat_vector(b->k), b->n_slots * sizeof *b->cand);
        if (!(b->args = scope_new(&b->dom, b->max_values, &e)))
            return false;
        b->in_fut = true;
        b->structures++;
    }
    b->korat_done = !korat_advance(b->k, b->order, n, valid);
    return b->in_fut || !b->korat_done;
}

void bnd_korat_finish(bounded *b, search_ctx *ctx)
{
    if (ctx && b->k) {
        const ctg_options *o = ctx_opts(ctx);
        const korat_stats *st = korat_get_stats(b->k);
        ctx_log(ctx, "bounded: korat: %llu candidates, %llu valid non-isomorphic structures, "
                     "%llu runs of %s%s",
                (unsigned long long)st->candidates, (unsigned long long)b->structures,
                (unsigned long long)b->fut_runs, b->ks->function,
                b->korat_done && !b->in_fut ? "; the space is exhausted" : "");
        if (b->crashed_repok)
            ctx_log(ctx, "bounded: %s crashed or hung on %llu candidates (taken as invalid)",
                    b->ks->repok, (unsigned long long)b->crashed_repok);
        ctx_log(ctx, "bounded: replay with: ctestgen replay %s %s/bounded/korat_harness.c "
                     "%s/bounded/korat_glue.c", o->out.out_dir, o->out.out_dir, o->out.out_dir);
        ctx_stat_set(ctx, "bounded.korat.candidates", (double)st->candidates);
        ctx_stat_set(ctx, "bounded.korat.structures", (double)b->structures);
        ctx_stat_set(ctx, "bounded.korat.runs", (double)b->fut_runs);
    }
    bhelper_stop(b->rep);
    scope_free(b->args);
    korat_free(b->k);
    kspec_free(b->ks);
    ctg_free(b->cand);
    ctg_free(b->ans);
    ctg_free(b->order);
    b->rep = NULL;
    b->args = NULL;
    b->k = NULL;
    b->ks = NULL;
    b->cand = b->ans = NULL;
    b->order = NULL;
}
