/*
 * engine_jobs.c - the engine's side of `run --jobs N` (cli/jobs.c starts
 * the processes).  Every worker is an ordinary run in OUT/.jobs/wK; every
 * --sync-s seconds it runs the inputs its siblings kept since its last look
 * (their corpus/id-NNNNN files, numbered from 0 and written whole), so what
 * one finds, the others' strategies build on (through ctx_kept).  The merge
 * is a run without a strategy: it runs every worker's tests and crash files
 * on prog.cov into OUT, which keeps each test that adds coverage once and
 * each crash signature once, and takes the workers' counters.
 *
 * The exchange goes through the output directory, as AFL++'s -M/-S do:
 * a worker's findings are on disk the moment it keeps them, so a worker
 * that dies loses nothing it reported, and nothing has to outlive it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "engine_int.h"

char *engine_worker_path(const char *dir, int k, const char *sub, const char *name)
{
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%s/w%d", dir, k);
    if (sub && *sub)
        sbuf_printf(&b, "/%s", sub);
    if (name && *name)
        sbuf_printf(&b, "/%s", name);
    return sbuf_take(&b);
}

/* Runs one input file through ctx_exec; false when the search must stop. */
static bool run_file(search_ctx *c, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    ctg_err e = {{0}};
    if (!fs_read(path, &data, &len, &e))
        return true; /* gone or unreadable: skipped */
    bool ok = ctx_exec(c, (const uint8_t *)data, len, 0, NULL);
    ctg_free(data);
    return ok;
}

static void (*sync_hook)(void *);
static void *sync_arg;

void engine_set_sync_hook(void (*hook)(void *arg), void *arg)
{
    sync_hook = hook;
    sync_arg = arg;
}

void eng_sync(search_ctx *c)
{
    const ctg_options *o = c->opts;
    int n = o->exec.jobs;
    if (!o->search.sync_dir || n < 2 || ctx_elapsed(c) < c->sync.next_sync)
        return;
    c->sync.next_sync = ctx_elapsed(c) + o->search.sync_s;
    if (sync_hook)
        sync_hook(sync_arg);
    if (!c->sync.sync_next && !(c->sync.sync_next = ctg_calloc((size_t)n, sizeof *c->sync.sync_next)))
        return;
    for (int j = 0; j < n; j++) {
        if (j == o->search.worker)
            continue;
        for (;;) {
            char name[32];
            snprintf(name, sizeof name, "id-%05u", c->sync.sync_next[j]);
            char *p = engine_worker_path(o->search.sync_dir, j, "corpus", name);
            bool there = p && fs_exists(p);
            bool go_on = there && run_file(c, p);
            ctg_free(p);
            if (!there)
                break;
            c->sync.sync_next[j]++;
            stats_add(c->out.stats, "jobs.imported", 1);
            if (!go_on)
                return;
        }
    }
}

/* Runs every file of worker j's sub directory whose name starts with one
 * of the prefixes (NULL: any name without a dot). */
static void merge_dir(search_ctx *c, int j, const char *sub, const char *prefix)
{
    char *dir = engine_worker_path(c->opts->search.merge_dir, j, sub, NULL), **paths = NULL;
    size_t n = 0;
    ctg_err e = {{0}};
    if (dir && fs_is_dir(dir) && fs_list_files(dir, &paths, &n, &e)) {
        for (size_t i = 0; i < n; i++) {
            const char *base = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
            if ((prefix && strncmp(base, prefix, strlen(prefix))) || strchr(base, '.'))
                continue;
            run_file(c, paths[i]);
        }
    }
    for (size_t i = 0; i < n; i++)
        ctg_free(paths[i]);
    ctg_free(paths);
    ctg_free(dir);
}

/* A counter of worker j, as jobs.wJ.NAME of the run. */
typedef struct worker_stat {
    search_ctx *c;
    int j;
} worker_stat;

static void put_worker_stat(void *user, const char *name, double value)
{
    const worker_stat *ws = user;
    if (!(value > 0))
        return;
    char key[160];
    snprintf(key, sizeof key, "jobs.w%d.%s", ws->j, name);
    stats_set(ws->c->out.stats, key, value);
}

/* Adds worker j's counters to the run's: its executions and runs by kind
 * (the merge's own runs are jobs.merge_execs), and jobs.wJ.* of its own. */
static void take_counters(search_ctx *c, int j, uint64_t *execs)
{
    char *path = engine_worker_path(c->opts->search.merge_dir, j, "stats.json", NULL);
    ctg_err e = {{0}};
    stats_t *w = path ? stats_load(path, &e) : NULL;
    ctg_free(path);
    char name[96];
    snprintf(name, sizeof name, "jobs.w%d.ok", j);
    stats_set(c->out.stats, name, w != NULL);
    if (!w)
        return;
    static const char *const mine[] = {"execs", "edges.covered", "errors.reached", "tests", "crashes",
                                       "jobs.imported", NULL};
    for (int k = 0; mine[k]; k++) {
        const char *m = strncmp(mine[k], "jobs.", 5) ? mine[k] : mine[k] + 5;
        snprintf(name, sizeof name, "jobs.w%d.%s", j, m);
        stats_set(c->out.stats, name, stats_get(w, mine[k]));
    }
    /* what each member of its portfolio ran (auto: the concolic member
     * runs in worker 0 only, see auto.c) */
    worker_stat ws = {c, j};
    stats_each(w, "auto.", put_worker_stat, &ws);
    /* when prog.sym, built in the background, reached the worker */
    snprintf(name, sizeof name, "jobs.w%d.sym_ready_s", j);
    if (stats_get(w, "build.sym_ready_s") > 0)
        stats_set(c->out.stats, name, stats_get(w, "build.sym_ready_s"));
    const char *why = stats_get_info(w, "build.sym_error");
    if (why && *why)
        stats_set_info(c->out.stats, "build.sym_error", why);
    *execs += (uint64_t)stats_get(w, "execs");
    for (int k = 0; k < EXEC__COUNT; k++)
        c->kinds[k] += (uint64_t)stats_get(w, eng_runs_counter(name, sizeof name, k));
    stats_free(w);
}

void eng_merge(search_ctx *c)
{
    int n = c->opts->exec.jobs;
    uint64_t workers = 0;
    for (int j = 0; j < n; j++)
        merge_dir(c, j, "corpus", "id-");
    for (int j = 0; j < n; j++)
        merge_dir(c, j, "crashes", NULL);
    stats_set(c->out.stats, "jobs", n);
    stats_set(c->out.stats, "jobs.merge_execs", (double)c->execs);
    for (int k = 0; k < EXEC__COUNT; k++)
        c->kinds[k] = 0;
    for (int j = 0; j < n; j++)
        take_counters(c, j, &workers);
    c->execs = workers;
    c->stop_reason = "every job ended";
    char *w0 = engine_worker_path(c->opts->search.merge_dir, 0, "stats.json", NULL);
    if (w0)
        eng_prove_import(c, w0); /* worker 0 ran the prover */
    ctg_free(w0);
}
