/*
 * bounded_grammar.c - grammar mode of the `bounded` strategy (seed 002,
 * grammar-based testing and filtered grammar-based testing).
 *
 * Strings come from the producer (gprod.h) shortest first.  A libFuzzer
 * target receives the string as its bytes; a Test-Comp harness receives it
 * as a sequence of chars followed by a NUL (one __VERIFIER_nondet_char per
 * character).  With --filter FUNC, a helper program built from the program's
 * own source (kharness.h) calls FUNC on each string in a forked child; only
 * accepted strings are executed, rejected ones do not count as executions.
 */
#include <stdio.h>
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "bounded_int.h"
#include "kharness.h"

/* Builds and starts the --filter helper. */
static bool start_filter(bounded *b, search_ctx *ctx, const char *func, ctg_err *e)
{
    const ctg_options *o = ctx_opts(ctx);
    char *prog = fs_realpath(o->positional.items[0], e);
    if (!prog)
        return false;
    sbuf main_c = SBUF_INIT, stubs_c = SBUF_INIT;
    kharness_filter(&main_c, prog, func, o->exec.timeout_ms);
    kharness_stubs(&stubs_c);
    ctg_free(prog);
    char *src = bnd_path(o, "filter.c"), *stubs = bnd_path(o, "stubs.c");
    char *bin = bnd_path(o, "filter");
    bool ok = src && stubs && bin && bnd_write(o, "filter.c", &main_c, e) &&
              bnd_write(o, "stubs.c", &stubs_c, e);
    if (ok) {
        int n = o->positional.n + 1;
        const char **srcs = ctg_calloc((size_t)n, sizeof *srcs);
        ok = srcs != NULL;
        if (ok) {
            srcs[0] = src;
            srcs[1] = stubs;
            for (int i = 1; i < o->positional.n; i++)
                srcs[i + 1] = o->positional.items[i];
            ok = bnd_compile_helper(o, b->arch, srcs, n, NULL, 0, bin, e);
        } else {
            err_set(e, "out of memory");
        }
        ctg_free(srcs);
    }
    if (ok)
        ok = (b->gram.filter = bhelper_start(bin, e)) != NULL;
    sbuf_release(&main_c);
    sbuf_release(&stubs_c);
    ctg_free(src), ctg_free(stubs), ctg_free(bin);
    return ok;
}

bool bnd_grammar_init(bounded *b, search_ctx *ctx, ctg_err *e)
{
    const ctg_options *o = ctx_opts(ctx);
    const char *order = opt_get_str(o, "grammar-order");
    long max_len = opt_get_long(o, "grammar-max-len"), max_forms = opt_get_long(o, "grammar-max-forms");
    gprod_opts po = {GPROD_BEST, 0, 0};
    if (!strcmp(order, "seed"))
        po.order = GPROD_SEED;
    else if (strcmp(order, "best"))
        return err_set(e, "--grammar-order: '%s' is not best or seed", order);
    if (max_len < 0 || max_len > (long)CTG_MAX_INPUT - 1)
        return err_set(e, "--grammar-max-len: must be between 0 and %u", CTG_MAX_INPUT - 1);
    if (max_forms < 0)
        return err_set(e, "--grammar-max-forms: must not be negative");
    po.max_len = (size_t)max_len;
    po.max_forms = (size_t)max_forms;
    if (!(b->gram.g = gram_load(opt_get_str(o, "grammar"), e)) || !(b->gram.gp = gprod_new(b->gram.g, &po, e)))
        return false;
    const char *filter = opt_get_str(o, "filter");
    return !filter || start_filter(b, ctx, filter, e);
}

/* Asks the filter helper; a helper failure rejects the string. */
static bool filter_accepts(bounded *b, const uint8_t *s, size_t len, double timeout_s)
{
    uint32_t n = (uint32_t)len;
    sbuf req = SBUF_INIT;
    sbuf_append(&req, &n, sizeof n);
    sbuf_append(&req, s, len);
    uint8_t ans = 0;
    bool ok = sbuf_ok(&req) && bhelper_call(b->gram.filter, req.data, req.len, &ans, 1, timeout_s);
    sbuf_release(&req);
    if (!ok)
        b->gram.filter_failures++;
    return ok && ans == 1;
}

bool bnd_grammar_step(bounded *b, search_ctx *ctx)
{
    const uint8_t *s;
    size_t len;
    if (!gprod_next(b->gram.gp, &s, &len))
        return false;
    if (b->gram.filter &&
        !filter_accepts(b, s, len, ctx_opts(ctx)->exec.timeout_ms / 1000.0 + 5)) {
        b->gram.rejected++;
        return true;
    }
    if (len + 1 > CTG_MAX_INPUT)
        return true; /* cannot be fed */
    sbuf_reset(&b->in);
    sbuf_append(&b->in, s, len);
    if (!b->fuzz)
        sbuf_putc(&b->in, 0); /* the terminating NUL is read as a char too */
    if (!sbuf_ok(&b->in))
        return false;
    if (!ctx_exec(ctx, (const uint8_t *)b->in.data, b->in.len, 0, NULL))
        return false;
    b->gram.strings_run++;
    return true;
}

void bnd_grammar_finish(bounded *b, search_ctx *ctx)
{
    if (ctx && b->gram.gp) {
        const gprod_stats *st = gprod_get_stats(b->gram.gp);
        uint64_t run = b->gram.strings_run;
        ctx_log(ctx, "bounded: grammar: %llu strings executed, %llu rejected by the filter, "
                     "%llu sentential forms expanded%s",
                (unsigned long long)run, (unsigned long long)b->gram.rejected,
                (unsigned long long)st->forms,
                b->gram.gp && !st->queue_len && !st->truncated ? "; the language is exhausted"
                                                               : "");
        if (st->truncated)
            ctx_log(ctx, "bounded: --grammar-max-forms reached: the enumeration is not exhaustive");
        if (b->gram.filter_failures)
            ctx_log(ctx, "bounded: the filter helper failed %llu times (those strings were "
                         "rejected)", (unsigned long long)b->gram.filter_failures);
        ctx_stat_set(ctx, "bounded.strings", (double)run);
        ctx_stat_set(ctx, "bounded.rejected", (double)b->gram.rejected);
        ctx_stat_set(ctx, "bounded.forms", (double)st->forms);
    }
    bhelper_stop(b->gram.filter);
    gprod_free(b->gram.gp);
    gram_free(b->gram.g);
    memset(&b->gram, 0, sizeof b->gram);
}
