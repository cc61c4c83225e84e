/*
 * stats.c - coverage over time and named counters, stats.json with json-c
 * (see stats.h for the format and the thinning rule).
 */
#include "stats.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"

#define STATS_FORMAT "ctestgen-stats-1"

typedef struct stats_entry {
    char *name;
    double value;
    char *info; /* non-NULL for info entries */
} stats_entry;

struct stats {
    stats_sample *samples;
    size_t n, max;
    double min_gap; /* samples closer than this to the one before the last replace the last */
    stats_entry *entries;
    size_t n_entries, cap_entries;
    stats_bug *bugs;
    size_t n_bugs;
    json_object *goals; /* final.goals (stats_set_goals), or NULL */
    unsigned unreachable;
};

/* Frees the bug list of s. */
static void free_bugs(stats_t *s)
{
    for (size_t i = 0; i < s->n_bugs; i++) {
        ctg_free(s->bugs[i].file);
        ctg_free(s->bugs[i].kind);
        ctg_free(s->bugs[i].where);
    }
    ctg_free(s->bugs);
    s->bugs = NULL;
    s->n_bugs = 0;
}

bool stats_set_bugs(stats_t *s, const stats_bug *v, size_t n)
{
    free_bugs(s);
    if (!n)
        return true;
    if (!(s->bugs = ctg_calloc(n, sizeof *s->bugs)))
        return false;
    for (size_t i = 0; i < n; i++, s->n_bugs++) {
        stats_bug *b = &s->bugs[i];
        b->file = ctg_strdup(v[i].file ? v[i].file : "");
        b->kind = ctg_strdup(v[i].kind ? v[i].kind : "");
        b->where = ctg_strdup(v[i].where ? v[i].where : "");
        if (!b->file || !b->kind || !b->where) {
            s->n_bugs++;
            free_bugs(s);
            return false;
        }
    }
    return true;
}

size_t stats_n_bugs(const stats_t *s) { return s->n_bugs; }
const stats_bug *stats_bugs(const stats_t *s) { return s->bugs; }

/* The "bugs" array of s; NULL on oom. */
static json_object *bugs_json(const stats_t *s)
{
    json_object *a = json_object_new_array();
    for (size_t i = 0; a && i < s->n_bugs; i++) {
        json_object *b = json_object_new_object();
        if (!b || json_object_array_add(a, b) != 0) {
            json_object_put(b);
            json_object_put(a);
            return NULL;
        }
        json_object_object_add(b, "file", json_object_new_string(s->bugs[i].file));
        json_object_object_add(b, "kind", json_object_new_string(s->bugs[i].kind));
        json_object_object_add(b, "where", json_object_new_string(s->bugs[i].where));
    }
    return a;
}

/* Reads a "bugs" array into s; false on oom. */
static bool load_bugs(stats_t *s, json_object *a)
{
    size_t n = json_object_array_length(a);
    stats_bug *v = ctg_calloc(n + 1, sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < n; i++) {
        json_object *b = json_object_array_get_idx(a, i), *x;
        v[i].file = json_object_object_get_ex(b, "file", &x) ? (char *)json_object_get_string(x) : "";
        v[i].kind = json_object_object_get_ex(b, "kind", &x) ? (char *)json_object_get_string(x) : "";
        v[i].where = json_object_object_get_ex(b, "where", &x) ? (char *)json_object_get_string(x) : "";
    }
    bool ok = stats_set_bugs(s, v, n);
    ctg_free(v);
    return ok;
}

stats_t *stats_new(unsigned max_samples)
{
    stats_t *s = ctg_calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->max = max_samples ? (max_samples < 4 ? 4 : max_samples) : 512;
    s->samples = ctg_calloc(s->max, sizeof *s->samples);
    if (!s->samples) {
        ctg_free(s);
        return NULL;
    }
    return s;
}

void stats_free(stats_t *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n_entries; i++) {
        ctg_free(s->entries[i].name);
        ctg_free(s->entries[i].info);
    }
    ctg_free(s->entries);
    ctg_free(s->samples);
    free_bugs(s);
    json_object_put(s->goals);
    ctg_free(s);
}

const json_object *stats_goals(const stats_t *s) { return s->goals; }

void stats_set_goals(stats_t *s, json_object *goals, unsigned unreachable)
{
    json_object_put(s->goals);
    s->goals = goals;
    s->unreachable = unreachable;
}

/* ==== samples ============================================================ */

/* Halves the series: keeps samples 0, 2, 4, ... and the last one, and
 * widens the gap new samples must keep so the series stays even. */
static void thin(stats_t *s)
{
    size_t k = 0;
    for (size_t i = 0; i + 1 < s->n; i += 2)
        s->samples[k++] = s->samples[i];
    s->samples[k++] = s->samples[s->n - 1];
    s->n = k;
    double span = s->samples[s->n - 1].t - s->samples[0].t;
    double gap = span / (double)(s->max / 2);
    s->min_gap = gap > s->min_gap * 2 ? gap : s->min_gap * 2;
}

void stats_record(stats_t *s, const stats_sample *x)
{
    if (s->n >= 2 && x->t - s->samples[s->n - 2].t < s->min_gap) {
        s->samples[s->n - 1] = *x; /* too close: move the latest point */
        return;
    }
    if (s->n == s->max)
        thin(s);
    s->samples[s->n++] = *x;
}

size_t stats_n_samples(const stats_t *s) { return s->n; }
const stats_sample *stats_samples(const stats_t *s) { return s->samples; }

stats_sample stats_last(const stats_t *s)
{
    stats_sample zero = {0};
    return s->n ? s->samples[s->n - 1] : zero;
}

/* ==== counters =========================================================== */

/* The entry called name, created when missing (NULL on oom). */
static stats_entry *entry(stats_t *s, const char *name)
{
    for (size_t i = 0; i < s->n_entries; i++)
        if (!strcmp(s->entries[i].name, name))
            return &s->entries[i];
    if (ctg_grow((void **)&s->entries, &s->cap_entries, s->n_entries + 1, sizeof *s->entries) < 0)
        return NULL;
    stats_entry *en = &s->entries[s->n_entries];
    memset(en, 0, sizeof *en);
    en->name = ctg_strdup(name);
    if (!en->name)
        return NULL;
    s->n_entries++;
    return en;
}

static const stats_entry *find(const stats_t *s, const char *name)
{
    for (size_t i = 0; i < s->n_entries; i++)
        if (!strcmp(s->entries[i].name, name))
            return &s->entries[i];
    return NULL;
}

bool stats_set(stats_t *s, const char *name, double value)
{
    stats_entry *en = entry(s, name);
    if (!en)
        return false;
    ctg_free(en->info);
    en->info = NULL;
    en->value = value;
    return true;
}

bool stats_add(stats_t *s, const char *name, double delta)
{
    return stats_set(s, name, stats_get(s, name) + delta);
}

double stats_get(const stats_t *s, const char *name)
{
    const stats_entry *en = find(s, name);
    return en && !en->info ? en->value : 0;
}

void stats_each(const stats_t *s, const char *prefix,
                void (*fn)(void *user, const char *name, double value), void *user)
{
    size_t len = strlen(prefix);
    for (size_t i = 0; i < s->n_entries; i++)
        if (!s->entries[i].info && !strncmp(s->entries[i].name, prefix, len))
            fn(user, s->entries[i].name, s->entries[i].value);
}

bool stats_set_info(stats_t *s, const char *name, const char *value)
{
    stats_entry *en = entry(s, name);
    char *v = ctg_strdup(value);
    if (!en || !v) {
        ctg_free(v);
        return false;
    }
    ctg_free(en->info);
    en->info = v;
    return true;
}

const char *stats_get_info(const stats_t *s, const char *name)
{
    const stats_entry *en = find(s, name);
    return en ? en->info : NULL;
}

bool stats_next_arg(const char **p, const char **arg, size_t *len)
{
    while (*p && **p == ' ')
        (*p)++;
    if (!*p || !**p)
        return false;
    *arg = *p;
    *len = strcspn(*p, " ");
    *p += *len;
    return true;
}

/* ==== stats.json ========================================================= */

/* A JSON number: an integer when the value is whole, else a double. */
static json_object *number(double v)
{
    if (v == floor(v) && fabs(v) < 9.0e15)
        return json_object_new_int64((int64_t)v);
    return json_object_new_double(v);
}

static json_object *sample_json(const stats_sample *x, const char *time_key)
{
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    json_object_object_add(o, time_key, json_object_new_double(x->t));
    json_object_object_add(o, "execs", json_object_new_int64((int64_t)x->execs));
    json_object_object_add(o, "edges", json_object_new_int64(x->edges));
    json_object_object_add(o, "errors", json_object_new_int64(x->errors));
    json_object_object_add(o, "tests", json_object_new_int64(x->tests));
    return o;
}

/* The whole document; NULL on oom. */
static json_object *stats_json(const stats_t *s)
{
    json_object *root = json_object_new_object(), *info = json_object_new_object(),
                *counters = json_object_new_object(), *samples = json_object_new_array();
    stats_sample last = stats_last(s);
    json_object *final = sample_json(&last, "time_s");
    if (!root || !info || !counters || !samples || !final) {
        json_object_put(root);
        json_object_put(info);
        json_object_put(counters);
        json_object_put(samples);
        json_object_put(final);
        return NULL;
    }
    for (size_t i = 0; i < s->n_entries; i++) {
        const stats_entry *en = &s->entries[i];
        if (en->info)
            json_object_object_add(info, en->name, json_object_new_string(en->info));
        else
            json_object_object_add(counters, en->name, number(en->value));
    }
    for (size_t i = 0; i < s->n; i++)
        json_object_array_add(samples, sample_json(&s->samples[i], "t"));
    json_object_object_add(root, "format", json_object_new_string(STATS_FORMAT));
    json_object_object_add(root, "info", info);
    if (s->goals) {
        json_object_object_add(final, "unreachable", json_object_new_int64(s->unreachable));
        json_object_object_add(final, "goals", json_object_get(s->goals));
    }
    json_object_object_add(root, "final", final);
    json_object_object_add(root, "counters", counters);
    if (s->n_bugs)
        json_object_object_add(root, "bugs", bugs_json(s));
    json_object_object_add(root, "samples", samples);
    return root;
}

bool stats_write(const stats_t *s, const char *path, ctg_err *e)
{
    json_object *root = stats_json(s);
    const char *text = root ? json_object_to_json_string_ext(
                                  root, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE)
                            : NULL;
    bool ok = text ? fs_write_atomic(path, text, strlen(text), e)
                   : err_set(e, "%s: out of memory while writing statistics", path);
    json_object_put(root);
    return ok;
}

/* ==== reading ============================================================ */

static double get_num(json_object *o, const char *key)
{
    json_object *v;
    return json_object_object_get_ex(o, key, &v) ? json_object_get_double(v) : 0;
}

/* Loads counters, info and samples of a parsed document into s. */
static bool load_into(stats_t *s, json_object *root)
{
    json_object *o;
    bool ok = true;
    if (json_object_object_get_ex(root, "info", &o) && json_object_is_type(o, json_type_object)) {
        json_object_object_foreach(o, k, v) ok = ok && stats_set_info(s, k, json_object_get_string(v));
    }
    if (json_object_object_get_ex(root, "counters", &o) && json_object_is_type(o, json_type_object)) {
        json_object_object_foreach(o, k, v) ok = ok && stats_set(s, k, json_object_get_double(v));
    }
    if (json_object_object_get_ex(root, "bugs", &o) && json_object_is_type(o, json_type_array))
        ok = ok && load_bugs(s, o);
    json_object *g;
    if (json_object_object_get_ex(root, "final", &o) && json_object_object_get_ex(o, "goals", &g) &&
        json_object_is_type(g, json_type_array))
        stats_set_goals(s, json_object_get(g), (unsigned)get_num(o, "unreachable"));
    if (json_object_object_get_ex(root, "samples", &o) && json_object_is_type(o, json_type_array)) {
        size_t n = json_object_array_length(o);
        for (size_t i = 0; i < n; i++) {
            json_object *x = json_object_array_get_idx(o, i);
            stats_sample sm = {get_num(x, "t"), (uint64_t)get_num(x, "execs"),
                               (uint32_t)get_num(x, "edges"), (uint32_t)get_num(x, "errors"),
                               (uint32_t)get_num(x, "tests")};
            stats_record(s, &sm);
        }
    }
    return ok;
}

stats_t *stats_load(const char *path, ctg_err *e)
{
    char *text = NULL;
    if (!fs_read(path, &text, NULL, e))
        return NULL;
    json_object *root = json_tokener_parse(text), *fmt;
    ctg_free(text);
    if (!root || !json_object_object_get_ex(root, "format", &fmt) ||
        strcmp(json_object_get_string(fmt), STATS_FORMAT) != 0) {
        json_object_put(root);
        err_set(e, "%s: not a ctestgen stats.json (no \"format\": \"%s\"); pass the output "
                   "directory of a ctestgen run", path, STATS_FORMAT);
        return NULL;
    }
    json_object *samples;
    size_t n = json_object_object_get_ex(root, "samples", &samples)
                   ? json_object_array_length(samples)
                   : 0;
    stats_t *s = stats_new(n > 512 ? (unsigned)n : 0);
    if (!s || !load_into(s, root)) {
        stats_free(s);
        s = NULL;
        err_set(e, "%s: out of memory while reading statistics", path);
    }
    json_object_put(root);
    return s;
}
