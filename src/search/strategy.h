/*
 * strategy.h - the interface every search strategy implements (DESIGN.md
 * section 7).  A strategy is a table of function pointers plus its own
 * options table; strategies.c lists them all (one line each).
 *
 * The engine calls init once, then step until the budget is spent, all goals
 * are covered, or step returns false (nothing left to try); then finish.
 * Strategies execute tests only through search_ctx (engine.h), which keeps
 * the archive, the suite on disk, the statistics and the budgets.
 */
#ifndef CTG_STRATEGY_H
#define CTG_STRATEGY_H

#include <stdbool.h>
#include <stdint.h>

#include "../base/err.h"
#include "../opt/options.h"

typedef struct search_ctx search_ctx;

typedef struct strategy {
    const char *name;
    const char *summary;          /* one line for --help                  */
    const opt_desc *options;      /* terminated by {0}; may be NULL       */
    /* Returns the strategy state, or NULL with e set. */
    void *(*init)(search_ctx *ctx, ctg_err *e);
    /* Does a bounded amount of work (a handful of executions at most, so
     * budgets are honoured closely).  Returns false when exhausted. */
    bool (*step)(void *state, search_ctx *ctx);
    /* Releases the state (may run nothing). */
    void (*finish)(void *state, search_ctx *ctx);
    /* Optional (NULL: none).  A count that grows when the strategy gains
     * ground without covering a goal (fuzz: a new seed; concolic: a new
     * path; mio: a better test for an uncovered goal): `auto` rewards its
     * growth a little in a slice where the member covered nothing. */
    uint64_t (*progress)(const void *state);
    /* Optional (NULL: none).  Called by `run` before the build: may replace
     * the sources to build, e.g. by a generated harness that #includes the
     * program (Korat).  When it sets *sources (a new array of new strings,
     * the caller ctg_frees each and the array after the run), the strategy's
     * harness handles --function itself.  False with e set on failure. */
    bool (*prepare)(const ctg_options *o, char ***sources, int *n_sources, ctg_err *e);
    /* Optional (NULL: none).  Called by `run` before the build: checks the
     * values of the strategy's options, so that a bad one is a usage error
     * before any work.  False with e set. */
    bool (*check)(const ctg_options *o, ctg_err *e);
    /* The strategy runs prog.sym (ctx_exec_sym): the command line builds it. */
    bool needs_sym;
    /* Like needs_sym, but optional: prog.sym is built when the symbolic pass
     * can handle the program, else the strategy runs without it (`auto`). */
    bool wants_sym;
} strategy;

/* NULL-terminated list of all strategies. */
extern const strategy *const ctg_strategies[];
const strategy *strategy_find(const char *name);
/* Registers every strategy's option table with the options module
 * (options_set_groups); call before parsing. */
void strategy_register_options(void);

#endif
