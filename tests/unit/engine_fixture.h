/*
 * engine_fixture.h - runs the engine (src/search/engine.c) as `ctestgen
 * run` does, without the command line: options parsed from an argument
 * list, the program built 64-bit into the test's own cache, engine_run on
 * an output directory of a temporary directory.  For the unit tests of the
 * engine and of the strategies' glue to it (sbst_engine.c).
 */
#ifndef CTG_ENGINE_FIXTURE_H
#define CTG_ENGINE_FIXTURE_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "compile/build.h"
#include "opt/options.h"
#include "report/stats.h"
#include "search/engine.h"
#include "search/strategy.h"

static char efx_dir[512]; /* the test's temporary directory */

static inline bool efx_setup(void)
{
    ctg_err e = {{0}};
    char *d = fs_mkdtemp("ctg-test-engine-", "a test directory", &e);
    if (!d)
        return false;
    snprintf(efx_dir, sizeof efx_dir, "%s", d);
    ctg_free(d);
    strategy_register_options();
    return true;
}

static inline void efx_teardown(void) { fs_rm_rf(efx_dir, NULL); }

/* The two as cmocka group fixtures. */
static inline int efx_group_setup(void **state)
{
    (void)state;
    return efx_setup() ? 0 : -1;
}

static inline int efx_group_teardown(void **state)
{
    (void)state;
    efx_teardown();
    return 0;
}

/* efx_dir/name as a new string (ctg_free). */
static inline char *efx_path(const char *name) { return fs_join(efx_dir, name); }

/* Writes text to efx_dir/name; returns the path (ctg_free). */
static inline char *efx_write(const char *name, const char *text)
{
    char *p = efx_path(name);
    ctg_err e = {{0}};
    if (p && !fs_write_atomic(p, text, strlen(text), &e)) {
        ctg_free(p);
        return NULL;
    }
    return p;
}

/* `ctestgen run ARGS...` (NULL-terminated, "run" implied) up to the
 * summary: parse, build, engine_run.  False with e set as engine_run (or
 * the parse or the build) fails. */
static inline bool efx_run(engine_summary *s, ctg_err *e, ...)
{
    char *argv[64];
    int argc = 0;
    argv[argc++] = "ctestgen";
    argv[argc++] = "run";
    va_list ap;
    va_start(ap, e);
    for (char *a; (a = va_arg(ap, char *)) && argc < 62;)
        argv[argc++] = a;
    va_end(ap);
    argv[argc] = NULL;
    ctg_options o;
    options_defaults(&o);
    memset(s, 0, sizeof *s);
    if (!options_parse(&o, argc, argv, e)) {
        options_release(&o);
        return false;
    }
    char *cache = efx_path("cache");
    const strategy *st = strategy_find(o.search.strategy);
    build_opts bo = {.sources = (const char *const *)o.positional.items,
                     .n_sources = o.positional.n,
                     .arch_bits = 64,
                     .cache_dir = cache,
                     .want_sym = st && (st->needs_sym || st->wants_sym)};
    build_result br;
    bool ok = build_program(&bo, &br, e);
    if (ok) {
        ok = engine_run(&o, o.positional.items[0], &br, s, e);
        build_result_release(&br);
    }
    ctg_free(cache);
    options_release(&o);
    return ok;
}

/* Files in efx_dir/sub whose names start with prefix (-1: no directory). */
static inline int efx_count(const char *sub, const char *prefix)
{
    char *d = efx_path(sub);
    char **files = NULL;
    size_t n = 0;
    ctg_err e = {{0}};
    int count = -1;
    if (d && fs_is_dir(d) && fs_list_files(d, &files, &n, &e)) {
        count = 0;
        for (size_t i = 0; i < n; i++) {
            const char *b = strrchr(files[i], '/') ? strrchr(files[i], '/') + 1 : files[i];
            count += !strncmp(b, prefix, strlen(prefix));
            ctg_free(files[i]);
        }
        ctg_free(files);
    }
    ctg_free(d);
    return count;
}

/* Counter name of efx_dir/out/stats.json (0 when never set, -1 without
 * a readable stats.json). */
static inline double efx_stat(const char *out, const char *name)
{
    char *p = efx_path(out);
    char *sp = p ? fs_join(p, "stats.json") : NULL;
    ctg_err e = {{0}};
    stats_t *st = sp ? stats_load(sp, &e) : NULL;
    double v = -1;
    if (st)
        v = stats_get(st, name);
    stats_free(st);
    ctg_free(sp), ctg_free(p);
    return v;
}

#endif
