/*
 * bounded.c - the `bounded` strategy (seed 002, bounded exhaustive testing):
 * its options, the choice of mode, and the small-scope mode.
 *
 *   --mode scalar (default)  every combination of small per-type domains in
 *                            order of size (scope.h); libFuzzer targets get
 *                            every byte string over the char domain up to
 *                            --scope-max-len bytes, shortest first;
 *   --grammar FILE           the strings of a grammar, shortest first
 *                            (bounded_grammar.c);
 *   --korat FILE             Korat structures fed to a function under test
 *                            (bounded_korat.c).
 *
 * The step function does one execution (or one repOk evaluation), so the
 * engine's budgets stop the enumeration anywhere; when the space is
 * exhausted the step returns false and the run ends.
 */
#include <stdio.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/hash.h"
#include "../../base/mem.h"
#include "../../base/target.h"
#include "../strategy.h"
#include "bounded_int.h"

static const opt_desc bounded_options[] = {
    {"mode", 0, OPT_STR, OPT_KV, "scalar|grammar|korat", "scalar",
     "what to enumerate (--grammar and --korat choose their mode)"},
    {"domain", 0, OPT_STR, OPT_KV, "[TYPE=]VALUES", NULL,
     "small-scope values of a type, e.g. int=0..4, chars='a','b',0 (repeatable; no TYPE: "
     "all integer types)"},
    {"scope-max-values", 0, OPT_INT, OPT_KV, "N", "64",
     "small scope: values per run that are enumerated"},
    {"scope-max-len", 0, OPT_INT, OPT_KV, "N", "4",
     "small scope, libFuzzer targets: longest input in bytes"},
    {"grammar", 0, OPT_STR, OPT_KV, "FILE", NULL,
     "feed the strings of this BNF grammar, shortest first (docs/grammar-format.md)"},
    {"grammar-order", 0, OPT_STR, OPT_KV, "best|seed", "best",
     "best priority, or the seed's plain length order"},
    {"grammar-max-len", 0, OPT_INT, OPT_KV, "N", "0",
     "grammar: longest string in bytes (0: no limit)"},
    {"grammar-max-forms", 0, OPT_INT, OPT_KV, "N", "1000000",
     "grammar: forms kept in the seen-set at most"},
    {"filter", 0, OPT_STR, OPT_KV, "FUNC", NULL,
     "grammar: run only strings that FUNC(const char *) of the program accepts"},
    {"korat", 0, OPT_STR, OPT_KV, "FILE", NULL,
     "Korat over the finitisation FILE (docs/korat-format.md)"},
    {0},
};

/* ==== shared helpers ================================================================ */

char *bnd_path(const ctg_options *o, const char *name)
{
    char *dir = fs_join(o->out.out_dir, "bounded");
    char *p = dir ? fs_join(dir, name) : NULL;
    ctg_free(dir);
    return p;
}

bool bnd_write(const ctg_options *o, const char *name, const sbuf *text, ctg_err *e)
{
    char *dir = fs_join(o->out.out_dir, "bounded"), *p = bnd_path(o, name);
    bool ok = dir && p && sbuf_ok(text);
    if (!ok)
        err_set(e, "out of memory");
    ok = ok && fs_mkdir_p(dir, e) && fs_write_atomic(p, sbuf_str(text), text->len, e);
    ctg_free(dir);
    ctg_free(p);
    return ok;
}

bool bnd_compile_helper(const ctg_options *o, int arch, const char *const *srcs, int n,
                        const char *const *extra, int n_extra, const char *out, ctg_err *e)
{
    int nf = o->build.cflags.n + n_extra + 1;
    const char **flags = ctg_calloc((size_t)nf, sizeof *flags);
    if (!flags)
        return err_set(e, "out of memory");
    int k = 0;
    flags[k++] = arch == 32 ? "-m32" : "-m64";
    for (int i = 0; i < o->build.cflags.n; i++)
        flags[k++] = o->build.cflags.items[i];
    for (int i = 0; i < n_extra; i++)
        flags[k++] = extra[i];
    bool ok = bhelper_compile(srcs, n, flags, k, out, o->ui.verbose, e);
    ctg_free(flags);
    return ok;
}

void bnd_encode_prefix(bounded *b, const scope_val *p, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        uint8_t v[8];
        enum ctg_type t = (enum ctg_type)p[i].type;
        scope_dom_encode(&b->dom, t, p[i].idx, v);
        sbuf_append(&b->in, v, scope_type_size(t, b->arch));
    }
}

void bnd_pad(bounded *b, size_t values)
{
    static const uint8_t zeros[64];
    size_t n = values * 8;
    if (b->in.len + n > CTG_MAX_INPUT)
        n = b->in.len < CTG_MAX_INPUT ? CTG_MAX_INPUT - b->in.len : 0;
    for (; n > 0; n -= n < sizeof zeros ? n : sizeof zeros)
        sbuf_append(&b->in, zeros, n < sizeof zeros ? n : sizeof zeros);
}

size_t bnd_run_types(bounded *b, search_ctx *ctx, const ctx_run *r, size_t skip, bool *truncated)
{
    size_t n;
    const ctg_value_rec *v = exec_values(ctx_executor(ctx), &n);
    *truncated = (r->r.status & (CTG_ST_RAN_OUT | CTG_ST_LOG_FULL)) != 0;
    size_t m = n > skip ? n - skip : 0;
    if (m > b->max_values) {
        m = b->max_values;
        *truncated = true;
    }
    for (size_t i = 0; i < m; i++)
        b->types[i] = v[skip + i].type;
    return m;
}

/* Notes a distinct consumed sequence (out of memory: not noted; the
 * count is a statistic only). */
static void seen_add(bounded *b, uint64_t h)
{
    bool added;
    (void)hmap_add(&b->seen, h, &added);
}

/* Hash of the values the last run consumed (bytes and types). */
static uint64_t consumed_hash(search_ctx *ctx)
{
    const exec_t *x = ctx_executor(ctx);
    size_t len, n;
    const uint8_t *in = exec_input(x, &len);
    size_t used = exec_consumed(x);
    const ctg_value_rec *v = exec_values(x, &n);
    uint64_t h = hash_fnv1a64(HASH_FNV64_INIT, in, used < len ? used : len);
    for (size_t i = 0; i < n; i++)
        h = hash_combine64(h, v[i].type + 256u * v[i].size);
    return h;
}

/* ==== small scope ==================================================================== */

/* Applies the default domains and every --domain given, in order. */
static bool load_domains(const ctg_options *o, int arch, scope_domains *d, ctg_err *e)
{
    if (!scope_dom_defaults(d, arch))
        return err_set(e, "out of memory");
    for (int i = 0; i < o->kv.n; i++)
        if (!strncmp(o->kv.items[i], "domain=", 7) && !scope_dom_parse(d, o->kv.items[i] + 7, e))
            return false;
    return true;
}

static bool scalar_init(bounded *b, search_ctx *ctx, ctg_err *e)
{
    const ctg_options *o = ctx_opts(ctx);
    long maxlen = opt_get_long(o, "scope-max-len");
    if (b->fuzz) {
        if (maxlen < 0 || maxlen > 64)
            return err_set(e, "--scope-max-len: must be between 0 and 64");
        b->scal.max_blen = (size_t)maxlen;
        b->scal.bidx = ctg_calloc(b->scal.max_blen + 1, sizeof *b->scal.bidx);
        return b->scal.bidx || err_set(e, "out of memory");
    }
    b->scal.sc = scope_new(&b->dom, b->max_values, e);
    return b->scal.sc != NULL;
}

/* One run of the next prefix of a Test-Comp harness. */
static bool scalar_step(bounded *b, search_ctx *ctx)
{
    const scope_val *p;
    size_t k;
    if (!scope_next(b->scal.sc, &p, &k))
        return false;
    sbuf_reset(&b->in);
    bnd_encode_prefix(b, p, k);
    bnd_pad(b, b->max_values - k + 1);
    ctx_run r;
    if (!sbuf_ok(&b->in) || !ctx_exec(ctx, (const uint8_t *)b->in.data, b->in.len, 0, &r))
        return false;
    bool truncated;
    size_t m = bnd_run_types(b, ctx, &r, 0, &truncated);
    seen_add(b, consumed_hash(ctx));
    return scope_report(b->scal.sc, b->types, m, truncated);
}

/* One run of the next byte string of a libFuzzer target. */
static bool bytes_step(bounded *b, search_ctx *ctx)
{
    const scope_dom *d = &b->dom.d[CTG_T_UCHAR];
    if (b->scal.bdone || d->n == 0)
        return false;
    sbuf_reset(&b->in);
    for (size_t i = 0; i < b->scal.blen; i++)
        sbuf_putc(&b->in, (char)d->vals[b->scal.bidx[i]]);
    if (!sbuf_ok(&b->in) || !ctx_exec(ctx, (const uint8_t *)sbuf_str(&b->in), b->scal.blen, 0, NULL))
        return false;
    seen_add(b, consumed_hash(ctx));
    size_t i = b->scal.blen;
    while (i > 0 && ++b->scal.bidx[i - 1] == d->n)
        b->scal.bidx[--i] = 0;
    if (i == 0 && ++b->scal.blen > b->scal.max_blen)
        b->scal.bdone = true;
    return true;
}

static void scalar_finish(bounded *b, search_ctx *ctx)
{
    uint64_t execs = b->scal.sc ? scope_get_stats(b->scal.sc)->runs : hmap_count(&b->seen);
    if (b->scal.sc) {
        const scope_stats *st = scope_get_stats(b->scal.sc);
        ctx_log(ctx, "bounded: small scope: %llu executions, %zu distinct value prefixes "
                     "explored; largest size %llu, up to %zu values per run%s",
                (unsigned long long)execs, hmap_count(&b->seen), (unsigned long long)st->max_size,
                st->max_depth, st->pending ? "" : "; every prefix explored");
        if (st->truncated)
            ctx_log(ctx, "bounded: %llu runs asked for more than %zu values "
                         "(--scope-max-values); later values were not enumerated",
                    (unsigned long long)st->truncated, b->max_values);
        if (st->diverged)
            ctx_log(ctx, "bounded: %llu runs read other types than their prefix: the program "
                         "is not deterministic", (unsigned long long)st->diverged);
        ctx_stat_set(ctx, "bounded.largest_size", (double)st->max_size);
    } else {
        ctx_log(ctx, "bounded: small scope: %zu byte strings of up to %zu bytes%s",
                hmap_count(&b->seen), b->scal.max_blen, b->scal.bdone ? "; all of them" : "");
    }
    ctx_stat_set(ctx, "bounded.executions", (double)execs);
    ctx_stat_set(ctx, "bounded.distinct_prefixes", (double)hmap_count(&b->seen));
}

/* ==== mode, init, dispatch ============================================================== */

static bool resolve_mode(const ctg_options *o, bnd_mode *m, ctg_err *e)
{
    bool g = opt_given(o, "grammar"), k = opt_given(o, "korat");
    if (g && k)
        return err_set(e, "--grammar and --korat exclude each other; give one");
    *m = g ? BND_GRAMMAR : k ? BND_KORAT : BND_SCALAR;
    if (!opt_given(o, "mode"))
        return true;
    const char *s = opt_get_str(o, "mode");
    static const char *const names[] = {"scalar", "grammar", "korat"};
    for (int i = 0; i < 3; i++)
        if (!strcmp(s, names[i])) {
            if ((i == BND_GRAMMAR && !g) || (i == BND_KORAT && !k) || (i == BND_SCALAR && (g || k)))
                return err_set(e, "--mode %s: %s", s,
                               i == BND_GRAMMAR ? "needs --grammar FILE"
                               : i == BND_KORAT ? "needs --korat FILE"
                                                : "conflicts with --grammar/--korat");
            *m = (bnd_mode)i;
            return true;
        }
    return err_set(e, "--mode: unknown mode '%s' (scalar, grammar or korat)", s);
}

/* Checks the options before the build, so mistakes are reported at once;
 * Korat mode generates its harness here. */
static bool bounded_prepare(const ctg_options *o, char ***sources, int *n, ctg_err *e)
{
    bnd_mode m;
    if (!resolve_mode(o, &m, e))
        return false;
    scope_domains d;
    bool ok = load_domains(o, o->build.arch_bits, &d, e);
    scope_dom_release(&d);
    if (ok && m == BND_GRAMMAR) {
        grammar *g = gram_load(opt_get_str(o, "grammar"), e);
        ok = g != NULL;
        gram_free(g);
    }
    if (ok && m == BND_KORAT)
        ok = bnd_korat_prepare(o, sources, n, e);
    return ok;
}

static void bounded_finish(void *state, search_ctx *ctx);

static void *bounded_init(search_ctx *ctx, ctg_err *e)
{
    const ctg_options *o = ctx_opts(ctx);
    bounded *b = ctg_calloc(1, sizeof *b);
    if (!b) {
        err_set(e, "out of memory");
        return NULL;
    }
    b->arch = ctx_arch_bits(ctx);
    b->seen = (hmap)HMAP_SET;
    b->fuzz = target_of_harness(ctx_db(ctx)->harness)->bytes;
    long mv = opt_get_long(o, "scope-max-values");
    bool ok = resolve_mode(o, &b->mode, e) && load_domains(o, b->arch, &b->dom, e);
    if (ok && (mv < 1 || mv > 4096))
        ok = err_set(e, "--scope-max-values: must be between 1 and 4096");
    b->max_values = (size_t)mv;
    if (ok && !(b->types = ctg_calloc(b->max_values + 1, sizeof *b->types)))
        ok = err_set(e, "out of memory");
    if (ok && b->mode == BND_SCALAR)
        ok = scalar_init(b, ctx, e);
    else if (ok && b->mode == BND_GRAMMAR)
        ok = bnd_grammar_init(b, ctx, e);
    else if (ok)
        ok = bnd_korat_init(b, ctx, e);
    if (!ok) {
        bounded_finish(b, NULL);
        return NULL;
    }
    return b;
}

static bool bounded_step(void *state, search_ctx *ctx)
{
    bounded *b = state;
    switch (b->mode) {
    case BND_SCALAR:
        return b->fuzz ? bytes_step(b, ctx) : scalar_step(b, ctx);
    case BND_GRAMMAR:
        return bnd_grammar_step(b, ctx);
    default:
        return bnd_korat_step(b, ctx);
    }
}

/* Reports (when ctx is set) and releases everything. */
static void bounded_finish(void *state, search_ctx *ctx)
{
    bounded *b = state;
    if (ctx && b->mode == BND_SCALAR)
        scalar_finish(b, ctx);
    if (b->mode == BND_GRAMMAR)
        bnd_grammar_finish(b, ctx);
    if (b->mode == BND_KORAT)
        bnd_korat_finish(b, ctx);
    scope_free(b->scal.sc);
    scope_dom_release(&b->dom);
    sbuf_release(&b->in);
    ctg_free(b->types);
    ctg_free(b->scal.bidx);
    hmap_release(&b->seen);
    ctg_free(b);
}

const strategy strategy_bounded = {
    .name = "bounded",
    .summary = "bounded exhaustive: small domains by size, grammar strings, Korat structures",
    .options = bounded_options,
    .init = bounded_init,
    .step = bounded_step,
    .finish = bounded_finish,
    .prepare = bounded_prepare,
};
