/*
 * stats.h - run statistics: coverage over time and named counters, written
 * to <out>/stats.json (json-c, atomically) during and at the end of a run,
 * and read back by `ctestgen report` and `ctestgen compare`.
 *
 * Samples: (time, executions, covered edges, errors reached, tests kept),
 * at most max_samples of them.  When more arrive the series is thinned
 * (every other sample dropped, the minimal time gap doubled), so a long run
 * keeps an evenly spread curve; the latest sample is always kept exactly.
 *
 * Counters are set by name ("solver.queries", "exec.restarts", ...) by any
 * strategy; info entries are strings ("program", "strategy", "seed").
 *
 * stats.json:
 *   { "format": "ctestgen-stats-1",
 *     "info":     { "<name>": "<string>", ... },
 *     "final":    { "time_s": 1.5, "execs": 1000, "edges": 20, "errors": 1, "tests": 7 },
 *     "counters": { "<name>": <number>, ... },
 *     "samples":  [ { "t": 0.0, "execs": 0, "edges": 0, "errors": 0, "tests": 0 }, ... ] }
 * Counters holding whole numbers are written as JSON integers.
 */
#ifndef CTG_STATS_H
#define CTG_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/err.h"

typedef struct stats_sample {
    double t;        /* seconds since the start of the run */
    uint64_t execs;  /* executions so far                  */
    uint32_t edges;  /* branch edges covered               */
    uint32_t errors; /* error sites reached                */
    uint32_t tests;  /* tests kept in the suite            */
} stats_sample;

typedef struct stats stats_t;

/* max_samples: bound of the series (0: 512; at least 4).  NULL on oom. */
stats_t *stats_new(unsigned max_samples);
void stats_free(stats_t *s);

/* Records the state of the run at time x->t (times must not decrease).
 * Cheap enough to call after every kept test. */
void stats_record(stats_t *s, const stats_sample *x);
size_t stats_n_samples(const stats_t *s);
const stats_sample *stats_samples(const stats_t *s);
/* The latest sample (all zero before the first). */
stats_sample stats_last(const stats_t *s);

/* Named counters; false on oom.  Names are copied. */
bool stats_set(stats_t *s, const char *name, double value);
bool stats_add(stats_t *s, const char *name, double delta);
/* Value of a counter; 0 when it was never set. */
double stats_get(const stats_t *s, const char *name);
/* Calls fn for every counter whose name starts with prefix, in the order
 * they were first set. */
void stats_each(const stats_t *s, const char *prefix,
                void (*fn)(void *user, const char *name, double value), void *user);
/* Named strings ("strategy": "random"); false on oom. */
bool stats_set_info(stats_t *s, const char *name, const char *value);
/* NULL when never set. */
const char *stats_get_info(const stats_t *s, const char *name);

/* The arguments of info "args" (the program's arguments, joined by spaces
 * as the engine records them), one at a time: from *p, the next one's
 * start (*arg) and length (*len), *p moved past it; false at the end. */
bool stats_next_arg(const char **p, const char **arg, size_t *len);

/* The bugs of the run, one per crash file that triage named (crash
 * triage): "bugs": [{"file": "crashes/crash-00001", "kind": "segv",
 * "where": "f at /abs/a.c:3"}, ...].  Strings are copied. */
typedef struct stats_bug {
    char *file, *kind, *where;
} stats_bug;
/* Replaces the list with v[0 .. n); false on oom. */
bool stats_set_bugs(stats_t *s, const stats_bug *v, size_t n);
size_t stats_n_bugs(const stats_t *s);
const stats_bug *stats_bugs(const stats_t *s);

/* final.goals: every goal's status (engine_prove.c builds the array: one
 * object per branch edge and error site, with kind, file, line, status and,
 * for an unreachable one, method and bound), and final.unreachable, the
 * goals proven unreachable.  Takes goals (a json-c array; NULL: none). */
struct json_object;
void stats_set_goals(stats_t *s, struct json_object *goals, unsigned unreachable);
/* final.goals, or NULL when the run recorded none. */
const struct json_object *stats_goals(const stats_t *s);

/* Writes stats.json to path atomically; false with e set. */
bool stats_write(const stats_t *s, const char *path, ctg_err *e);
/* Reads a stats.json written by stats_write; NULL with e set naming the
 * file when it is missing or not a ctestgen stats file. */
stats_t *stats_load(const char *path, ctg_err *e);

#endif
