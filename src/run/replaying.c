/*
 * replaying.c - how a run's suite is replayed (run.h, session.h): the
 * replay options of a run's options, and the sources the suite replays
 * with.  The error check during the search (session.c), the outputs after
 * it (outputs.c) and the commands on an output directory (cli/) all start
 * here, so a replay sees the program the same way wherever it is asked for.
 */
#include "session.h"

#include "../base/mem.h"
#include "funcmode.h"

double run_pct(double part, double total) { return total > 0 ? 100.0 * part / total : 0.0; }

replay_opts run_replay_opts(const ctg_options *o, const char *out_dir,
                            const char *const *sources, int n_sources)
{
    replay_opts ro = {
        .out_dir = out_dir,
        .sources = sources,
        .n_sources = n_sources,
        .cflags = o->build.cflags.items,
        .n_cflags = o->build.cflags.n,
        .arch_bits = 0,
        .timeout_s = o->replay.timeout_s,
        .mem_limit_mb = (long)o->exec.mem_mb,
        .lcov_file = o->replay.lcov,
        .cobertura_file = o->replay.cobertura,
        .args = o->exec.prog_args.items,
        .n_args = o->exec.prog_args.n,
    };
    return ro;
}

const char **run_sources(const run_session *S, int *n_src, char **driver)
{
    const ctg_options *o = S->o;
    *driver = NULL;
    *n_src = S->n_gen;
    if (S->gen) { /* a copy, so that every caller frees what it gets */
        const char **v = ctg_calloc((size_t)S->n_gen + 1, sizeof *v);
        for (int i = 0; v && i < S->n_gen; i++)
            v[i] = S->gen[i];
        return v;
    }
    return fmode_replay_sources(o->out.out_dir, o->positional.items, o->positional.n, n_src,
                                driver);
}
