/*
 * engine_resume.c - `--resume`: the earlier run of the output directory
 * read back into the search context (counters and coverage over time from
 * stats.json, the archive and the kept tests from corpus/, the crash
 * signatures from crashes/).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "engine_int.h"

/* Runs every file of dir/sub named PREFIX-NNNNN (no extension) on prog.cov,
 * outside the budget, and hands each result to take. */
static bool rerun_dir(search_ctx *c, const char *sub, const char *prefix,
                      bool (*take)(search_ctx *, const exec_result *, const char *, size_t),
                      ctg_err *e)
{
    char *dir = fs_join(c->opts->out.out_dir, sub), **paths = NULL;
    size_t n = 0;
    bool ok = dir && (!fs_is_dir(dir) || fs_list_files(dir, &paths, &n, e));
    for (size_t i = 0; ok && i < n; i++) {
        const char *base = strrchr(paths[i], '/') ? strrchr(paths[i], '/') + 1 : paths[i];
        if (strncmp(base, prefix, strlen(prefix)) || strchr(base, '.'))
            continue;
        char *data = NULL;
        size_t len = 0;
        exec_result r;
        ok = fs_read(paths[i], &data, &len, e) &&
             exec_run(c->x, (const uint8_t *)data, len, 0, 0, &r, e) && take(c, &r, base, len);
        ctg_free(data);
    }
    for (size_t i = 0; i < n; i++)
        ctg_free(paths[i]);
    ctg_free(paths);
    ctg_free(dir);
    return ok || err_set(e, "%s: cannot resume: %s", c->opts->out.out_dir,
                         err_is_set(e) ? e->msg : "out of memory");
}

/* A test of the earlier run: its coverage joins the archive and it joins
 * the kept tests (not written again). */
static bool take_test(search_ctx *c, const exec_result *r, const char *name, size_t len)
{
    (void)name, (void)len;
    stats_add(c->out.stats, "resume.tests", 1);
    if (r->kind == EXEC_ASSUME || r->kind == EXEC_TIMEOUT)
        return true;
    archive_update(c->archive, exec_cov(c->x), r);
    test_t *t = test_from_exec(c->x, r);
    if (!t || ctg_grow((void **)&c->kept, &c->cap_kept, c->n_kept + 1, sizeof *c->kept) != 0) {
        test_free(t);
        return false;
    }
    c->kept[c->n_kept++] = t;
    return true;
}

/* A crash file of the earlier run: its signature is known from now on. */
static bool take_crash(search_ctx *c, const exec_result *r, const char *name, size_t len)
{
    const char *dash = strrchr(name, '-');
    stats_add(c->out.stats, "resume.crashes", 1);
    if (r->kind == EXEC_ERROR)
        archive_update(c->archive, NULL, r);
    return !dash || crashes_adopt(c->out.crashes, r, 0, (unsigned)strtoul(dash + 1, NULL, 10), len);
}

/* Reads the earlier run of the output directory back: counters and
 * coverage over time from stats.json, the archive and the kept tests from
 * corpus/, the crash signatures from crashes/.  The budgets count on from
 * the earlier run's executions and seconds; the random seed moves on so the
 * search does not repeat itself. */
bool eng_resume_run(search_ctx *c, ctg_err *e)
{
    ctg_err le = {{0}};
    stats_t *old = stats_load(c->out.stats_path, &le);
    if (!old)
        return err_set(e, "cannot resume: %s", le.msg);
    for (size_t i = 0; i < stats_n_samples(old); i++)
        stats_record(c->out.stats, &stats_samples(old)[i]);
    c->execs = (uint64_t)stats_get(old, "execs");
    c->min_execs = (uint64_t)stats_get(old, "crashes.min_execs");
    for (int k = 0; k < EXEC__COUNT; k++) {
        char name[64];
        c->kinds[k] = (uint64_t)stats_get(old, eng_runs_counter(name, sizeof name, k));
    }
    double secs = stats_get(old, "seconds");
    stats_set(c->out.stats, "resumes", stats_get(old, "resumes") + 1);
    stats_free(old);
    bool ok = rerun_dir(c, "corpus", "id-", take_test, e) &&
              rerun_dir(c, "crashes", "", take_crash, e);
    rng_seed(&c->rng, c->opts->search.seed ^ (c->execs * 0x9E3779B97F4A7C15ull));
    c->t0 = fs_now() - secs;
    return ok;
}
