/*
 * engine_sym.c - prog.sym in the engine: its executor with a trace region
 * (ctx_sym_start), its runs with the engine's bookkeeping (ctx_exec_sym),
 * the window on a long input's end (ctx_sym_window), and the background
 * build it may still wait for (ctx_sym_pending).
 */
#include "engine_int.h"

#include <stdio.h>
#include <string.h>

#include "../compile/build.h"
#include "../report/stats.h"

bool ctx_sym_start(search_ctx *c, uint32_t trace_nodes, uint32_t trace_pc, ctg_err *e)
{
    if (c->xs)
        return true;
    if (!c->sym_bin)
        return err_set(e, "this strategy needs prog.sym, but the program was built without it; "
                          "please report this");
    exec_config xc = eng_run_config(c, c->sym_bin, false);
    c->xs = exec_new_traced(&xc, trace_nodes, trace_pc, e);
    if (c->xs)
        eng_sym_start(c);
    return c->xs != NULL;
}

void ctx_sym_window(search_ctx *c, uint32_t from)
{
    if (c->xs)
        exec_set_sym_from(c->xs, from);
}

bool ctx_exec_sym(search_ctx *c, const uint8_t *in, size_t len, uint32_t flags, ctx_run *out)
{
    if (!c->xs) {
        if (out)
            memset(out, 0, sizeof *out);
        return false;
    }
    return eng_run_on(c, c->xs, in, len, flags, out);
}

const exec_t *ctx_sym_executor(const search_ctx *c) { return c->xs; }

bool ctx_sym_pending(search_ctx *c)
{
    if (c->sym_bin || !c->build || c->build->sym_pid <= 0)
        return false;
    char why[512];
    int st = build_sym_poll(c->build, false, why, sizeof why);
    if (st == 0)
        return true;
    if (st > 0) {
        c->sym_bin = c->build->sym_bin;
        stats_set(c->out.stats, "build.sym_ready_s", ctx_elapsed(c));
        if (c->opts->ui.verbose)
            ctx_log(c, "prog.sym is built (%.1fs): concolic execution can start", ctx_elapsed(c));
    } else {
        /* in stats.json whatever -q says: a run without concolic execution
         * must say why */
        snprintf(c->build->sym_error, sizeof c->build->sym_error, "%s",
                 why[0] ? why : "the build of prog.sym failed");
        stats_set_info(c->out.stats, "build.sym_error", c->build->sym_error);
        if (!c->opts->ui.quiet)
            fprintf(stderr, "ctestgen: concolic execution disabled for this program: %s\n",
                    c->build->sym_error);
    }
    return false;
}
