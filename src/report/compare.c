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

/* Doubled mid-ranks of pooled values v[0 .. n) into r (integers: 2 x rank). */
static void doubled_ranks(const double *v, size_t n, long *r)
{
    for (size_t i = 0; i < n; i++) {
        long below = 0, equal = 0;
        for (size_t j = 0; j < n; j++) {
            below += v[j] < v[i];
            equal += v[j] == v[i];
        }
        r[i] = 2 * below + equal + 1; /* 2 x (below + (equal + 1) / 2) */
    }
}

/* The exact two-sided p of rank sum w2 (doubled) of the first na of the
 * pooled values, under every way of choosing na of them (the permutation
 * distribution, ties at their mid-ranks): P(|W - E W| >= |w2 - E W|). */
static double exact_p(const long *r, size_t na, size_t n, long w2)
{
    long max = 0;
    for (size_t i = 0; i < n; i++)
        max += r[i];
    double *f = ctg_calloc((na + 1) * (size_t)(max + 1), sizeof *f);
    if (!f)
        return -1;
    f[0] = 1; /* f[k * (max + 1) + s]: ways to choose k values of doubled sum s */
    for (size_t i = 0; i < n; i++)
        for (size_t k = (i + 1 < na ? i + 1 : na); k >= 1; k--)
            for (long t = max; t >= r[i]; t--)
                f[k * (size_t)(max + 1) + (size_t)t] += f[(k - 1) * (size_t)(max + 1) + (size_t)(t - r[i])];
    long e2 = (long)na * (long)(n + 1); /* 2 x E W */
    double hit = 0, all = 0;
    for (long t = 0; t <= max; t++) {
        double c = f[na * (size_t)(max + 1) + (size_t)t];
        all += c;
        if (labs(t - e2) >= labs(w2 - e2))
            hit += c;
    }
    ctg_free(f);
    return all > 0 ? fmin(1.0, hit / all) : 1.0;
}

/* The normal approximation with continuity and tie correction. */
static double normal_p(const long *r, size_t na, size_t nb, double u)
{
    double m = (double)na, n = (double)nb, N = m + n, ties = 0;
    for (size_t i = 0; i < na + nb; i++) { /* sum of t^3 - t over groups of equal ranks */
        double t = 0;
        bool first = true;
        for (size_t j = 0; j < na + nb; j++)
            if (r[j] == r[i]) {
                t++;
                first &= j >= i;
            }
        if (first)
            ties += t * t * t - t;
    }
    double var = m * n / 12.0 * ((N + 1.0) - ties / (N * (N - 1.0)));
    if (var <= 0)
        return 1.0;
    double d = fabs(u - m * n / 2.0) - 0.5;
    return erfc((d < 0 ? 0 : d) / sqrt(var) / sqrt(2.0));
}

double cmp_mann_whitney(const double *a, size_t na, const double *b, size_t nb, double *u)
{
    /* U1 counts the pairs a wins (ties half): the same as R1 - na(na+1)/2 */
    *u = cmp_a12(a, na, b, nb) * (double)na * (double)nb;
    if (!na || !nb)
        return 1.0;
    double *all = ctg_malloc((na + nb) * sizeof *all);
    long *r = ctg_malloc((na + nb) * sizeof *r);
    double p = 1.0;
    if (all && r) {
        memcpy(all, a, na * sizeof *a);
        memcpy(all + na, b, nb * sizeof *b);
        doubled_ranks(all, na + nb, r);
        long w2 = 0;
        for (size_t i = 0; i < na; i++)
            w2 += r[i];
        p = na + nb <= CMP_EXACT_MAX ? exact_p(r, na, na + nb, w2) : -1;
        if (p < 0)
            p = normal_p(r, na, nb, *u);
    }
    ctg_free(all);
    ctg_free(r);
    return p;
}

const char *cmp_a12_label(double a12)
{
    double a = a12 >= 0.5 ? a12 : 1.0 - a12; /* the thresholds hold both ways */
    return a < 0.56 ? "negligible" : a < 0.64 ? "small" : a < 0.71 ? "medium" : "large";
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
    size_t *run; /* the runs' indices in R */
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
            g[k].run = ctg_calloc(R->n, sizeof *g[k].run);
            if (!g[k].cov || !g[k].run)
                return g; /* caller checks cov and run */
            (*ng)++;
        }
        g[k].run[g[k].n] = i;
        g[k].cov[g[k].n++] = stats_get(R->v[i].st, "edges.covered");
    }
    for (size_t k = 0; g && k < *ng; k++)
        for (size_t m = 0; m < N_METRICS; m++)
            mean_sd(R, g[k].name, metrics[m].counter, &g[k].mean[m], &g[k].sd[m]);
    return g;
}

/* ==== every counter, pair by pair ============================================ */

typedef struct names {
    char **v;
    size_t n, cap;
} names;

static void add_name(void *user, const char *name, double value)
{
    (void)value;
    names *N = user;
    for (size_t i = 0; i < N->n; i++)
        if (!strcmp(N->v[i], name))
            return;
    char *d = ctg_strdup(name);
    if (d && ctg_grow((void **)&N->v, &N->cap, N->n + 1, sizeof *N->v) == 0)
        N->v[N->n++] = d;
    else
        ctg_free(d);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The counters of every run, in name order (free with names_release). */
static names all_names(const runs *R)
{
    names N = {0};
    for (size_t i = 0; i < R->n; i++)
        stats_each(R->v[i].st, "", add_name, &N);
    if (N.n)
        qsort(N.v, N.n, sizeof *N.v, cmp_str);
    return N;
}

static void names_release(names *N)
{
    for (size_t i = 0; i < N->n; i++)
        ctg_free(N->v[i]);
    ctg_free(N->v);
}

typedef struct pair_stat {
    double mean_a, mean_b, u, p, a12;
} pair_stat;

/* Counter `name` of groups a and b: means, U, p and A12 (a missing counter
 * counts 0); false on oom. */
static bool pair_metric(const runs *R, const group *a, const group *b, const char *name,
                        pair_stat *ps)
{
    double *va = ctg_calloc(a->n + 1, sizeof *va), *vb = ctg_calloc(b->n + 1, sizeof *vb);
    bool ok = va && vb;
    double sa = 0, sb = 0;
    for (size_t i = 0; ok && i < a->n; i++)
        sa += va[i] = stats_get(R->v[a->run[i]].st, name);
    for (size_t i = 0; ok && i < b->n; i++)
        sb += vb[i] = stats_get(R->v[b->run[i]].st, name);
    if (ok) {
        ps->mean_a = a->n ? sa / (double)a->n : 0;
        ps->mean_b = b->n ? sb / (double)b->n : 0;
        ps->p = cmp_mann_whitney(va, a->n, vb, b->n, &ps->u);
        ps->a12 = cmp_a12(va, a->n, vb, b->n);
    }
    ctg_free(va);
    ctg_free(vb);
    return ok;
}

/* Every counter of every pair of groups: one line each. */
static void pair_lines(sbuf *b, const runs *R, const group *g, size_t ng)
{
    names N = all_names(R);
    sbuf_printf(b, "\nevery counter, pairwise (Mann-Whitney U, exact p up to %d runs; A12: "
                   "chance that A's value is larger than B's):\n", CMP_EXACT_MAX);
    for (size_t i = 0; i < ng; i++)
        for (size_t j = i + 1; j < ng; j++) {
            sbuf_printf(b, "%s (A) vs %s (B)\n", g[i].name, g[j].name);
            sbuf_printf(b, "  %-36s %12s %12s %8s %8s %6s  %s\n", "counter", "mean A", "mean B",
                        "U", "p", "A12", "effect");
            for (size_t k = 0; k < N.n; k++) {
                pair_stat ps;
                if (!pair_metric(R, &g[i], &g[j], N.v[k], &ps))
                    break;
                sbuf_printf(b, "  %-36s %12.5g %12.5g %8.1f %8.4f %6.3f  %s\n", N.v[k],
                            ps.mean_a, ps.mean_b, ps.u, ps.p, ps.a12, cmp_a12_label(ps.a12));
            }
        }
    names_release(&N);
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

/* Every counter of pair (a, b) as {"counter": {"mean_a", "mean_b", "u",
 * "p", "a12", "effect"}}. */
static json_object *pair_json(const runs *R, const names *N, const group *a, const group *b)
{
    json_object *o = json_object_new_object();
    for (size_t k = 0; o && k < N->n; k++) {
        pair_stat ps;
        json_object *m = json_object_new_object();
        if (!m || !pair_metric(R, a, b, N->v[k], &ps)) {
            json_object_put(m);
            break;
        }
        json_object_object_add(m, "mean_a", json_object_new_double(ps.mean_a));
        json_object_object_add(m, "mean_b", json_object_new_double(ps.mean_b));
        json_object_object_add(m, "u", json_object_new_double(ps.u));
        json_object_object_add(m, "p", json_object_new_double(ps.p));
        json_object_object_add(m, "a12", json_object_new_double(ps.a12));
        json_object_object_add(m, "effect", json_object_new_string(cmp_a12_label(ps.a12)));
        json_object_object_add(o, N->v[k], m);
    }
    return o;
}

static void json_report(sbuf *b, const runs *R, const char *by, const group *g, size_t ng)
{
    names N = all_names(R);
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
            json_object_object_add(o, "counters", pair_json(R, &N, &g[i], &g[j]));
            json_object_array_add(ps, o);
        }
    names_release(&N);
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
    for (size_t k = 0; ok && k < ng; k++)
        ok = g[k].run != NULL || err_set(e, "compare: out of memory");
    if (ok && o->json)
        json_report(out, &R, by, g, ng);
    else if (ok) {
        table(out, by, g, ng);
        pair_lines(out, &R, g, ng);
    }
    for (size_t k = 0; g && k <= ng; k++) {
        ctg_free(g[k].cov);
        ctg_free(g[k].run);
    }
    ctg_free(g);
    runs_release(&R);
    return ok;
}
