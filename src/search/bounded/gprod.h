/*
 * gprod.h - the grammar producer of seed 002: enumerates the sentential forms
 * of a grammar through a priority queue that yields short expansions first,
 * with a seen-set so no form is produced twice, and hands out the complete
 * (terminal-only) strings, optionally through a filter predicate (filtered
 * grammar-based testing: rejected strings do not count).
 *
 * Two orders:
 *   GPROD_BEST (default)  the "best priority" heuristic: the priority of a form
 *       is its terminal bytes plus, for each nonterminal, the length of its
 *       shortest expansion (grammar.h min_len); ties prefer forms with fewer
 *       nonterminals (terminals first), then byte order.  The leftmost
 *       nonterminal is expanded.  The priority never decreases along an
 *       expansion, so complete strings come out in order of length, and
 *       max_len prunes exactly the strings longer than max_len.
 *   GPROD_SEED  a faithful port of the seed's Python producer: forms are
 *       strings with nonterminals written $NAME, priority = len(form), ties
 *       broken by string order (Python's tuple order), every symbol instance
 *       is expanded with the seed's apply(), including its way of locating
 *       instance i >= 2 (an offset relative to the previous one, so it may
 *       rewrite an earlier symbol).  The seed's listings depend on that, and
 *       this order reproduces them exactly.  Names must be letters only and
 *       terminals may not contain '$' (the seed's $[A-Za-z]* symbols).
 */
#ifndef CTG_GPROD_H
#define CTG_GPROD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../base/err.h"
#include "grammar.h"

typedef enum gprod_order { GPROD_BEST = 0, GPROD_SEED = 1 } gprod_order;

typedef struct gprod_opts {
    gprod_order order;
    size_t max_len;   /* GPROD_BEST: skip strings longer than this (0: no limit)      */
    size_t max_forms; /* distinct forms kept in the seen-set at most (0: no limit);
                         when reached, no new forms are queued (stats.truncated)      */
} gprod_opts;

typedef struct gprod_stats {
    uint64_t forms;     /* sentential forms taken from the queue                   */
    uint64_t strings;   /* complete strings handed out (accepted by the filter)    */
    uint64_t rejected;  /* complete strings the filter rejected                    */
    uint64_t queued;    /* distinct forms ever queued                              */
    size_t queue_len;   /* forms waiting now                                       */
    bool truncated;     /* max_forms stopped the enumeration from being exhaustive */
} gprod_stats;

/* Returns true to accept the complete string s (len bytes). */
typedef bool (*gprod_filter)(void *user, const uint8_t *s, size_t len);

typedef struct gprod gprod;

/* A producer for g (which must outlive it).  NULL with e set when the
 * grammar does not fit the order (GPROD_SEED restrictions) or on oom. */
gprod *gprod_new(const grammar *g, const gprod_opts *o, ctg_err *e);
void gprod_free(gprod *p);

void gprod_set_filter(gprod *p, gprod_filter f, void *user);

/* The next sentential form in production order, rendered with nonterminals
 * as $NAME (GPROD_SEED) or <name> (GPROD_BEST); *complete tells whether it
 * is a terminal string.  *s stays valid until the next call.  Returns false
 * when the enumeration is exhausted or memory ran out (gprod_failed). */
bool gprod_next_form(gprod *p, const uint8_t **s, size_t *len, bool *complete);

/* The next complete string the filter accepts (see gprod_next_form). */
bool gprod_next(gprod *p, const uint8_t **s, size_t *len);

/* True when the producer stopped because memory ran out. */
bool gprod_failed(const gprod *p);
const gprod_stats *gprod_get_stats(const gprod *p);

#endif
