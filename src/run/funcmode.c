/*
 * funcmode.c - function mode glue between the command line, the driver
 * generator and the regression-test writer (see funcmode.h).
 */
#include "funcmode.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../report/utest.h"

bool fmode_prepare(const ctg_options *o, fmode *m, ctg_err *e)
{
    memset(m, 0, sizeof *m);
    const char *lib = o->positional.items[0];
    m->sig = drv_parse(lib, o->build.function, o->build.cflags.items, o->build.cflags.n,
                       o->build.depth, e);
    if (!m->sig)
        return false;
    m->driver = drv_write_cached(m->sig, o->build.cache_dir, e);
    if (!m->driver)
        return false;
    m->n_sources = o->positional.n + 1;
    m->sources = ctg_calloc((size_t)m->n_sources + 1, sizeof *m->sources);
    if (!m->sources)
        return err_set(e, "%s: out of memory", lib);
    for (int i = 0; i < o->positional.n; i++)
        m->sources[i] = o->positional.items[i];
    m->sources[o->positional.n] = m->driver;
    return true;
}

/* out_dir/<prefix><function><suffix> (ctg_free). */
static char *out_file(const ctg_options *o, const char *prefix, const char *suffix)
{
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%s%s%s", prefix, o->build.function, suffix);
    char *name = sbuf_take(&b);
    char *p = name ? fs_join(o->out.out_dir, name) : NULL;
    ctg_free(name);
    return p;
}

bool fmode_finish(const ctg_options *o, fmode *m, ctg_err *e)
{
    char *drv = out_file(o, "driver_", ".c"), *tests = out_file(o, "tests_", ".c");
    char *suite = fs_join(o->out.out_dir, "test-suite");
    bool ok = drv && tests && suite;
    if (!ok)
        err_set(e, "%s: out of memory", o->out.out_dir);
    ok = ok && fs_copy(m->driver, drv, e);
    utest_opts uo = {
        .sig = m->sig,
        .suite_dir = suite,
        .out_path = tests,
        .sources = o->positional.items,
        .n_sources = o->positional.n,
        .cflags = o->build.cflags.items,
        .n_cflags = o->build.cflags.n,
        .arch_bits = o->build.arch_bits,
    };
    utest_result r;
    ok = ok && utest_write(&uo, &r, e);
    if (ok && !o->ui.quiet) {
        printf("  driver            %s\n", drv);
        printf("  regression tests  %s: %u test%s", tests, r.tests, r.tests == 1 ? "" : "s");
        if (r.crashing)
            printf(" (%u crashing, disabled)", r.crashing);
        if (r.verified)
            printf("; gcc -Wall -Werror: %u passed, %u failed\n", r.passed, r.failed);
        else
            printf("; does not build with gcc -Wall -Werror (see the file)\n");
    }
    ctg_free(drv);
    ctg_free(tests);
    ctg_free(suite);
    return ok;
}

void fmode_release(fmode *m)
{
    drv_free(m->sig);
    ctg_free(m->driver);
    ctg_free(m->sources);
    memset(m, 0, sizeof *m);
}

/* True for a file name driver_*.c. */
static bool is_driver_name(const char *path)
{
    const char *b = strrchr(path, '/');
    b = b ? b + 1 : path;
    size_t n = strlen(b);
    return !strncmp(b, "driver_", 7) && n > 9 && !strcmp(b + n - 2, ".c");
}

/* The first driver_*.c in dir (ctg_free), or NULL. */
static char *find_driver(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *found = NULL;
    for (struct dirent *de; !found && (de = readdir(d));)
        if (is_driver_name(de->d_name))
            found = fs_join(dir, de->d_name);
    closedir(d);
    return found;
}

const char **fmode_replay_sources(const char *out_dir, const char *const *src, int n, int *n_out,
                                  char **driver)
{
    *driver = NULL;
    bool given = false;
    for (int i = 0; i < n; i++)
        given |= is_driver_name(src[i]);
    if (!given)
        *driver = find_driver(out_dir);
    const char **all = ctg_calloc((size_t)n + 2, sizeof *all);
    if (!all) {
        ctg_free(*driver);
        *driver = NULL;
        return NULL;
    }
    for (int i = 0; i < n; i++)
        all[i] = src[i];
    *n_out = n;
    if (*driver)
        all[(*n_out)++] = *driver;
    return all;
}
