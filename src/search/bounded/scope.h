/*
 * scope.h - small-scope exhaustive enumeration of input values (seed 002,
 * bounded exhaustive testing): every combination of values from small
 * per-type domains, in order of total size, for as many values as the
 * program asks for, without running equivalent prefixes twice.
 *
 * Domains.  Each input type has a list of values; a value's rank is its
 * position in the list.  0 always comes first when the domain contains it,
 * because 0 is what a run gets for values beyond its input.  The size of an
 * input is the sum of the ranks of its values (0 for a zero), so inputs of
 * small magnitude run first.
 *
 * The tree of prefixes.  A run of prefix p (values v0..vk-1) is executed with
 * zeros after p; it reports the types of all m values it consumed.  That one
 * run is the run of every input that starts with p followed by m-k zeros: the
 * program cannot tell them apart.  Its children are the prefixes that change
 * one of those zeros: p, 0, ..., 0, v at position i (k <= i < m, v != 0).  So
 * every distinct sequence of consumed values is run exactly once (executions
 * == distinct prefixes explored), and a run that ends early is never extended.
 * When the zero at position j is outside the domain of its type, the run
 * explores only positions k..j, with every domain value at j.  Children are
 * generated lazily in order of size from a priority queue.
 *
 * The caller drives it: scope_next gives the prefix to run (types and domain
 * indices), scope_report hands back what the run consumed.  scope_explore
 * does both with a callback (unit tests, in-process programs).
 */
#ifndef CTG_SCOPE_H
#define CTG_SCOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"
#include "../../runtime/rt_protocol.h"

/* ---- domains ------------------------------------------------------------- */

typedef struct scope_dom {
    uint64_t *vals; /* raw little-endian bits of each value (floats: IEEE bits) */
    size_t n;
    bool zero_first;
} scope_dom;

typedef struct scope_domains {
    scope_dom d[CTG_T__COUNT];
    int arch_bits;
} scope_domains;

/* Sets the default domains: -3..3 for signed integers, 0..6 for unsigned
 * ones, the characters NUL 'a' '0' ' ' '\n' '+' '%' for char and unsigned
 * char, 0 1 for _Bool, 0 1 -1 0.5 2 for floats, NULL for pointers.
 * Returns false on oom. */
bool scope_dom_defaults(scope_domains *d, int arch_bits);
/* Applies one --domain spec "[TYPE=]VALUES": TYPE is a type name (int, uint,
 * char, long, size_t, ...) or a group (signed, unsigned, integers, chars,
 * floats); without TYPE= the spec applies to all integer types but chars and
 * _Bool.  VALUES is a comma-separated list of numbers, ranges lo..hi
 * (listed in magnitude order 0, 1, -1, 2, ...) and characters ('a', '\n',
 * '\0').  Values a type cannot hold are dropped for it.  False with e set on
 * a malformed spec or when a domain would be empty. */
bool scope_dom_parse(scope_domains *d, const char *spec, ctg_err *e);
void scope_dom_release(scope_domains *d);
/* Parses a list of integers in the VALUES syntax above, ranges ascending
 * (finitisation files).  *vals is new (ctg_free).  `where` prefixes errors
 * ("bst.fin:4"). */
bool scope_parse_ints(const char *where, const char *text, int64_t **vals, size_t *n, ctg_err *e);
/* Bytes of a value of type t. */
size_t scope_type_size(enum ctg_type t, int arch_bits);
/* Writes the value of domain index idx of type t (little endian). */
void scope_dom_encode(const scope_domains *d, enum ctg_type t, uint32_t idx, uint8_t *out);
/* Human-readable domain of t ("-3..3" style is not reconstructed: the list). */
void scope_dom_describe(const scope_domains *d, enum ctg_type t, char *out, size_t cap);

/* ---- enumeration ----------------------------------------------------------- */

typedef struct scope_val {
    uint16_t type; /* enum ctg_type */
    uint32_t idx;  /* index in the type's domain */
} scope_val;

typedef struct scope_stats {
    uint64_t runs;        /* prefixes handed out and reported          */
    uint64_t values;      /* values consumed over all runs             */
    uint64_t truncated;   /* runs that asked for more than max_values  */
    uint64_t diverged;    /* runs whose prefix types did not match (nondeterminism) */
    uint64_t max_size;    /* size of the last prefix handed out        */
    size_t max_depth;     /* most values one run consumed              */
    size_t pending;       /* generators waiting in the queue           */
} scope_stats;

typedef struct scope scope;

/* An enumerator over the domains d (copied).  Values beyond max_values per
 * run are not enumerated.  NULL on oom (e set). */
scope *scope_new(const scope_domains *d, size_t max_values, ctg_err *e);
void scope_free(scope *s);

/* The next prefix to run (valid until the next call), in order of size.
 * Returns false when every prefix was run (or on oom: scope_failed). */
bool scope_next(scope *s, const scope_val **prefix, size_t *k);
/* What the run of the last prefix consumed: the types of its m values (the
 * first k are the prefix) and whether it asked for more values than it could
 * be given (then positions >= m are not explored).  Returns false on oom. */
bool scope_report(scope *s, const uint16_t *types, size_t m, bool truncated);
bool scope_failed(const scope *s);
const scope_stats *scope_get_stats(const scope *s);

/* In-process driver: run(prefix) must fill types (up to max_values) and
 * return how many values the run consumed; *truncated as in scope_report. */
typedef size_t (*scope_run_fn)(void *user, const scope_val *prefix, size_t k, uint16_t *types,
                               size_t max_values, bool *truncated);
/* Runs every prefix (at most max_runs, 0: all).  Returns the number of runs,
 * or -1 on oom. */
long scope_explore(scope *s, scope_run_fn run, void *user, uint64_t max_runs);

#endif
