/*
 * compare.c - repeated runs side by side (see compare.h): seed 003 section
 * 5's metrics per group, Mann-Whitney U and Vargha-Delaney A12 per pair.
 */
#include "compare.h"

#include <dirent.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "stats.h"

/* ==== statistics ============================================================ */

double cmp_a12(const double *a, size_t na, const double *b, size_t nb)
{
    if (!na || !nb)
        return 0.5;
    double wins = 0;
    for (size_t i = 0; i < na; i++)
        for (size_t j = 0; j < nb; j++)
            wins += a[i] > b[j] ? 1.0 : a[i] == b[j] ? 0.5 : 0.0;
    return wins / ((double)na * (double)nb);
}

double cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
    /* U1 counts the pairs a wins (ties half): the same as R1 - na(na+1)/2 */
    double m = (double)na, n = (double)nb, N = m + n;
    *u = cmp_a12(a, na, b, nb) * m * n;
    if (!na || !nb)
        return 1.0;
    /* tie correction: sum of t^3 - t over groups of equal values */
    double *all = ctg_malloc((na + nb) * sizeof *all), ties = 0;
    if (!all)
        return 1.0;
    memcpy(all, a, na * sizeof *a);
    memcpy(all + na, b, nb * sizeof *b);
    for (size_t i = 0; i < na + nb; i++) {
        double t = 0;
        bool first = true;
        for (size_t j = 0; j < na + nb; j++) {
            if (all[j] == all[i]) {
                t++;
                if (j < i)
                    first = false;
            }
        }
        if (first)
            ties += t * t * t - t;
    }
    ctg_free(all);
    double var = m * n / 12.0 * ((N + 1.0) - ties / (N * (N - 1.0)));
    if (var <= 0)
        return 1.0;
    double d = fabs(*u - m * n / 2.0) - 0.5;
    if (d < 0)
        d = 0;
    return erfc(d / sqrt(var) / sqrt(2.0));
}

/* ==== runs ==================================================================== */

typedef struct run {
    char *dir;
    char *group;
    stats_t *st;
} run;

typedef struct runs {
    run *v;
    size_t n, cap;
} runs;

/* Adds the run in dir (its stats.json). */
static bool add_run(runs *R, const char *dir, const char *by, ctg_err *e)
{
    char *path = fs_join(dir, "stats.json");
    if (!path)
        return err_set(e, "out of memory");
    stats_t *st = stats_load(path, e);
    ctg_free(path);
    if (!st)
        return false;
    /* KEY or KEY+KEY...: the values joined by '/' */
    sbuf gname = SBUF_INIT;
    for (const char *k = by; *k;) {
        size_t n = strcspn(k, "+");
        char key[64];
        snprintf(key, sizeof key, "%.*s", (int)(n < 63 ? n : 63), k);
        const char *g = stats_get_info(st, key);
        sbuf_printf(&gname, "%s%s", gname.len ? "/" : "", g ? g : "?");
        k += n + (k[n] == '+');
    }
    if (!sbuf_ok(&gname) || ctg_grow((void **)&R->v, &R->cap, R->n + 1, sizeof *R->v) != 0) {
        sbuf_release(&gname);
        stats_free(st);
        return err_set(e, "out of memory");
    }
    R->v[R->n].dir = ctg_strdup(dir);
    R->v[R->n].group = sbuf_take(&gname);
    R->v[R->n].st = st;
    R->n++;
    return R->v[R->n - 1].dir && R->v[R->n - 1].group ? true : err_set(e, "out of memory");
}

/* A run directory, or a directory whose subdirectories are runs. */
static bool add_dir(runs *R, const char *dir, const char *by, ctg_err *e)
{
    char *path = fs_join(dir, "stats.json");
    bool direct = path && fs_exists(path);
    ctg_free(path);
    if (direct)
        return add_run(R, dir, by, e);
    if (!fs_is_dir(dir))
        return err_set(e, "%s: no such directory; name run directories (holding stats.json) "
                          "or a directory of them", dir);
    DIR *d = opendir(dir);
    if (!d)
        return err_sys(e, "%s: cannot read", dir);
    char **subs = NULL;
    size_t n = 0, cap = 0;
    bool ok = true;
    for (struct dirent *de; ok && (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char *sub = fs_join(dir, de->d_name), *sp = sub ? fs_join(sub, "stats.json") : NULL;
        if (sp && fs_exists(sp) && ctg_grow((void **)&subs, &cap, n + 1, sizeof *subs) == 0) {
            subs[n++] = sub;
            sub = NULL;
        }
        ctg_free(sub);
        ctg_free(sp);
    }
    closedir(d);
    if (!n)
        ok = err_set(e, "%s: no stats.json in it or its subdirectories; name the output "
                        "directories of 'ctestgen run'", dir);
    /* name order, so the report does not depend on the file system */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(subs[j - 1], subs[j]) > 0; j--) {
            char *t = subs[j];
            subs[j] = subs[j - 1];
            subs[j - 1] = t;
        }
    for (size_t i = 0; ok && i < n; i++)
        ok = add_run(R, subs[i], by, e);
    for (size_t i = 0; i < n; i++)
        ctg_free(subs[i]);
    ctg_free(subs);
    return ok;
}

static void runs_release(runs *R)
{
    for (size_t i = 0; i < R->n; i++) {
        ctg_free(R->v[i].dir);
        ctg_free(R->v[i].group);
        stats_free(R->v[i].st);
    }
    ctg_free(R->v);
}

/* ==== report ===================================================================== */

/* The metrics of the report: counter name and heading. */
static const struct {
    const char *counter, *head;
} metrics[] = {
    {"edges.covered", "coverage"},          {"errors.reached", "errors"},
    {"execs", "execs"},                     {"concolic.paths", "paths"},
    {"concolic.pc_avg", "pc avg"},          {"solver.cache_hit_rate", "cache hit"},
    {"concolic.solver_secs", "solver s"},   {"solver.sat", "sat"},
    {"solver.unsat", "unsat"},              {"solver.timeout", "timeout"},
};
#define N_METRICS (sizeof metrics / sizeof *metrics)

typedef struct group {
    const char *name;
    double *cov; /* final coverage of each run */
    size_t n;
    double mean[N_METRICS], sd[N_METRICS];
} group;

static void mean_sd(const runs *R, const char *name, const char *counter, double *mean, double *sd)
{
    double s = 0, s2 = 0, n = 0;
    for (size_t i = 0; i < R->n; i++)
        if (!strcmp(R->v[i].group, name)) {
            double v = stats_get(R->v[i].st, counter);
            s += v, s2 += v * v, n++;
        }
    *mean = n ? s / n : 0;
    *sd = n > 1 ? sqrt(fmax(0, (s2 - s * s / n) / (n - 1))) : 0;
}

/* The groups in order of first appearance. */
static group *make_groups(const runs *R, size_t *ng)
{
    group *g = ctg_calloc(R->n + 1, sizeof *g);
    *ng = 0;
    for (size_t i = 0; g && i < R->n; i++) {
        size_t k = 0;
        while (k < *ng && strcmp(g[k].name, R->v[i].group))
            k++;
        if (k == *ng) {
            g[k].name = R->v[i].group;
            g[k].cov = ctg_calloc(R->n, sizeof *g[k].cov);
            if (!g[k].cov)
                return g; /* caller checks cov */
            (*ng)++;
        }
        g[k].cov[g[k].n++] = stats_get(R->v[i].st, "edges.covered");
    }
    for (size_t k = 0; g && k < *ng; k++)
        for (size_t m = 0; m < N_METRICS; m++)
            mean_sd(R, g[k].name, metrics[m].counter, &g[k].mean[m], &g[k].sd[m]);
    return g;
}

static void table(sbuf *b, const char *by, const group *g, size_t ng)
{
    sbuf_printf(b, "%-16s %4s", by, "runs");
    for (size_t m = 0; m < N_METRICS; m++)
        sbuf_printf(b, " %17s", metrics[m].head);
    sbuf_putc(b, '\n');
    for (size_t k = 0; k < ng; k++) {
        sbuf_printf(b, "%-16s %4zu", g[k].name, g[k].n);
        for (size_t m = 0; m < N_METRICS; m++) {
            char cell[64];
            snprintf(cell, sizeof cell, "%.4g+-%.2g", g[k].mean[m], g[k].sd[m]);
            sbuf_printf(b, " %17s", cell);
        }
        sbuf_putc(b, '\n');
    }
    sbuf_printf(b, "\nfinal coverage, pairwise (A12: chance that A covers more than B):\n");
    sbuf_printf(b, "%-16s %-16s %8s %8s %8s\n", "A", "B", "A12", "U", "p");
    for (size_t i = 0; i < ng; i++)
        for (size_t j = i + 1; j < ng; j++) {
            double u, p = cmp_mann_whitney(g[i].cov, g[i].n, g[j].cov, g[j].n, &u);
            sbuf_printf(b, "%-16s %-16s %8.3f %8.1f %8.4f\n", g[i].name, g[j].name,
                        cmp_a12(g[i].cov, g[i].n, g[j].cov, g[j].n), u, p);
        }
}

static void json_report(sbuf *b, const char *by, const group *g, size_t ng)
{
    json_object *root = json_object_new_object(), *gs = json_object_new_array(),
                *ps = json_object_new_array();
    json_object_object_add(root, "by", json_object_new_string(by));
    for (size_t k = 0; k < ng; k++) {
        json_object *o = json_object_new_object(), *ms = json_object_new_object();
        json_object_object_add(o, "name", json_object_new_string(g[k].name));
        json_object_object_add(o, "runs", json_object_new_int((int)g[k].n));
        for (size_t m = 0; m < N_METRICS; m++) {
            json_object *v = json_object_new_object();
            json_object_object_add(v, "mean", json_object_new_double(g[k].mean[m]));
            json_object_object_add(v, "sd", json_object_new_double(g[k].sd[m]));
            json_object_object_add(ms, metrics[m].counter, v);
        }
        json_object_object_add(o, "metrics", ms);
        json_object_array_add(gs, o);
    }
    for (size_t i = 0; i < ng; i++)
        for (size_t j = i + 1; j < ng; j++) {
            double u, p = cmp_mann_whitney(g[i].cov, g[i].n, g[j].cov, g[j].n, &u);
            json_object *o = json_object_new_object();
            json_object_object_add(o, "a", json_object_new_string(g[i].name));
            json_object_object_add(o, "b", json_object_new_string(g[j].name));
            json_object_object_add(o, "a12", json_object_new_double(
                                                 cmp_a12(g[i].cov, g[i].n, g[j].cov, g[j].n)));
            json_object_object_add(o, "u", json_object_new_double(u));
            json_object_object_add(o, "p", json_object_new_double(p));
            json_object_array_add(ps, o);
        }
    json_object_object_add(root, "groups", gs);
    json_object_object_add(root, "pairs", ps);
    sbuf_puts(b, json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY));
    sbuf_putc(b, '\n');
    json_object_put(root);
}

bool compare_runs(const compare_opts *o, sbuf *out, ctg_err *e)
{
    runs R = {0};
    const char *by = o->by && *o->by ? o->by : "strategy";
    bool ok = o->n_dirs > 0 || err_set(e, "compare: no run directory given; usage: ctestgen "
                                          "compare RUN_DIR... [--by KEY] [--json]");
    for (int i = 0; ok && i < o->n_dirs; i++)
        ok = add_dir(&R, o->dirs[i], by, e);
    size_t ng = 0;
    group *g = ok ? make_groups(&R, &ng) : NULL;
    for (size_t k = 0; ok && k < ng; k++)
        ok = g[k].cov != NULL;
    if (ok && !g)
        ok = err_set(e, "compare: out of memory");
    if (ok && o->json)
        json_report(out, by, g, ng);
    else if (ok)
        table(out, by, g, ng);
    for (size_t k = 0; g && k <= ng; k++)
        ctg_free(g[k].cov);
    ctg_free(g);
    runs_release(&R);
    return ok;
}
