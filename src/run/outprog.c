/*
 * outprog.c - the program of an output directory (see outprog.h).
 */
#include "outprog.h"

#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../report/stats.h"
#include "funcmode.h"

/* The program stats.json of out_dir names (ctg_free), or NULL. */
static char *stats_program(const char *out_dir)
{
    char *sp = fs_join(out_dir, "stats.json");
    ctg_err ignored = {{0}};
    stats_t *st = sp && fs_exists(sp) ? stats_load(sp, &ignored) : NULL;
    const char *prog = st ? stats_get_info(st, "program") : NULL;
    char *copy = prog ? ctg_strdup(prog) : NULL;
    stats_free(st);
    ctg_free(sp);
    return copy;
}

/* Sets p's sources from the list given, plus a driver from out_dir. */
static bool with_driver(outprog *p, const char *out_dir, const char *const *src, int n,
                        ctg_err *e)
{
    p->sources = fmode_replay_sources(out_dir, src, n, &p->n_sources, &p->driver);
    return p->sources || err_set(e, "out of memory");
}

bool outprog_find(const ctg_options *o, const char *out_dir, int first, outprog *p, bool *usage,
                  ctg_err *e)
{
    memset(p, 0, sizeof *p);
    *usage = false;
    int given = o->positional.n - first;
    p->flags = o->build.cflags.items;
    p->n_flags = o->build.cflags.n;
    p->arch_bits = o->build.arch_bits;
    if (given > 0)
        return with_driver(p, out_dir, o->positional.items + first, given, e);
    int got = buildrec_load(out_dir, &p->rec, e);
    if (got < 0)
        return false;
    if (got > 0) {
        p->recorded = true;
        if (p->n_flags == 0) { /* flags on the command line win */
            p->flags = (const char *const *)p->rec.flags;
            p->n_flags = p->rec.n_flags;
        }
        if (!p->arch_bits)
            p->arch_bits = p->rec.arch_bits;
        return with_driver(p, out_dir, (const char *const *)p->rec.sources, p->rec.n_sources, e);
    }
    if (!(p->stats_prog = stats_program(out_dir))) {
        *usage = true;
        return err_set(e, "%s: no %s or stats.json naming the program; name its files after "
                          "the directory", out_dir, BUILDREC_FILE);
    }
    const char *one = p->stats_prog;
    return with_driver(p, out_dir, &one, 1, e);
}

void outprog_release(outprog *p)
{
    if (!p)
        return;
    ctg_free(p->sources);
    ctg_free(p->driver);
    ctg_free(p->stats_prog);
    buildrec_release(&p->rec);
    memset(p, 0, sizeof *p);
}

void outprog_print_cc(FILE *f, const char *file, const char *const *sources, int n_sources,
                      const char *const *flags, int n_flags, int arch_bits)
{
    char **argv = ctg_calloc((size_t)(n_sources + n_flags) + 5, sizeof *argv);
    char *abs = fs_realpath(file, NULL);
    if (!argv) {
        fprintf(f, "cc %s %s", file, n_sources ? sources[0] : "");
        ctg_free(abs);
        return;
    }
    int n = 0;
    argv[n++] = "cc";
    if (arch_bits == 32)
        argv[n++] = "-m32";
    argv[n++] = abs ? abs : (char *)file;
    for (int i = 0; i < n_sources; i++)
        argv[n++] = (char *)sources[i];
    bool lm = false;
    for (int i = 0; i < n_flags; i++) {
        argv[n++] = (char *)flags[i];
        lm = lm || !strcmp(flags[i], "-lm");
    }
    if (!lm) /* ctestgen's own links have it (a compilation database has no link flags) */
        argv[n++] = "-lm";
    char *line = proc_cmdline(argv);
    fputs(line ? line : file, f);
    ctg_free(line);
    ctg_free(argv);
    ctg_free(abs);
}
