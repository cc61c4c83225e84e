/*
 * cc_heur.h - the heuristics of seed 004 for the concolic search: CFDS's
 * distance to uncovered branches and ParaDySE's parameterised heuristic,
 * which scores a branch of the last path by the dot product of a weight
 * vector and 40 boolean features of the branch (12 static, 28 dynamic),
 * plus a 41st of ctestgen's own, graded: CFDS's rank of the branch
 * (1 / (1 + CFDS's sort key)), so that CFDS is a point of the weight space.
 * docs/concolic.md maps every feature of the paper to C/LLVM.
 *
 * It implements the hooks of cc_search.h (cc_heur_hooks) from the program
 * database: the CFG of every function, the edge ids and what the runs
 * cover.  Distances are counted in branches passed on a CFG path inside
 * the function, from the target block of an edge to a block whose branch
 * has an uncovered edge (0: the edge itself is uncovered); the database
 * records no call sites, so a function's uncovered code is not reached
 * through its callers (a distance that would need a call is "far").
 */
#ifndef CTG_CC_HEUR_H
#define CTG_CC_HEUR_H

#include <stdbool.h>
#include <stdint.h>

#include "../../base/err.h"
#include "../../instrument/progdb.h"
#include "cc_search.h"

#define CC_N_FEATURES 41 /* the paper's 40 boolean ones and CFDS's rank   */
#define CC_CFDS_RANK 40  /* feature 41: graded, in (0, 1]               */
#define CC_FAR 1000000.0 /* distance when no uncovered edge is reachable */

typedef struct cc_heur cc_heur;

/* A heuristic for order (CC_CFDS or CC_PARAM; any other order only keeps
 * the dynamic state).  weights: CC_N_FEATURES values for CC_PARAM (copied).
 * NULL with e set on oom. */
cc_heur *cc_heur_new(const progdb *db, cc_order order, const double *weights, ctg_err *e);
void cc_heur_free(cc_heur *h);
/* The seed of cfds's shuffle of a path's entries (default 0). */
void cc_heur_set_seed(cc_heur *h, uint64_t seed);
/* The hooks for cc_config.heur (user = h). */
cc_heuristic cc_heur_hooks(cc_heur *h);

/* The feature vector of entry j of pc, as the param score sees it. */
void cc_heur_features(cc_heur *h, const expr_pc *pc, uint32_t j, double out[CC_N_FEATURES]);
/* CFDS distance of negating entry j of pc (CC_FAR when unreachable). */
double cc_heur_distance(cc_heur *h, const expr_pc *pc, uint32_t j);

/* ---- the heuristic's parameters (cc_weights.c) ---- */

/* Short name of feature i (0-based: feature i + 1 of the paper's table). */
const char *cc_feature_name(unsigned i);
/* Index of the feature of that name, -1 when there is none. */
int cc_feature_index(const char *name);

/* A weight vector built into ctestgen: the name --weights takes, the
 * weights, the scope and the restart (with that scope; another scope
 * restarts as param's default) it runs with, and where it comes from. */
typedef struct cc_builtin {
    const char *name;
    const double *w; /* CC_N_FEATURES */
    cc_scope scope;
    uint32_t restart;
    const char *origin;
} cc_builtin;
/* The built-in vector of that name, NULL when there is none. */
const cc_builtin *cc_builtin_find(const char *name);
/* --search param without --weights: the learned vector ("learned"); the
 * auto portfolio's concolic member (auto_member) runs the one that
 * measured best inside the portfolio (docs/concolic.md, "In auto"). */
const cc_builtin *cc_builtin_default(bool auto_member);
/* The names of the built-in vectors, ", "-separated (for messages). */
const char *cc_builtin_names(void);

/* "last" / "tree" / "gen" / "level" (NULL for CC_SCOPE_UNSET) and back
 * (CC_SCOPE_UNSET for anything else). */
const char *cc_scope_name(cc_scope s);
cc_scope cc_scope_parse(const char *name);
/* The value of --search-scope: last, tree, gen or level, CC_SCOPE_UNSET for auto;
 * false with e set on anything else. */
bool cc_scope_option(const char *value, cc_scope *out, ctg_err *e);

/* The value of --search-restart: a number of runs, or auto (the order's
 * default: CC_RESTART_CFDS, else CC_RESTART_PARAM); false with e set on
 * anything else. */
bool cc_restart_option(const char *value, cc_order order, uint32_t *out, ctg_err *e);
/* The restart after a stall a search with that scope makes: 0 with scope
 * gen (generational expansions have no last path to stall on), else
 * restart. */
uint32_t cc_scope_restart(cc_scope scope, uint32_t restart);

/* Weight files: one "NAME WEIGHT" a line (names of cc_feature_name, any
 * order, '#' comments), at most one "scope last|tree|gen|level" line and at most
 * one "restart N" line (the --search-restart the weights were learned
 * with); a missing feature weighs 0.  *scope (may be NULL) is
 * CC_SCOPE_UNSET without a scope line, *restart (may be NULL) -1 without a
 * restart line.  False with e naming the file and line on a bad line or an
 * unknown name. */
bool cc_weights_load(const char *path, double w[CC_N_FEATURES], cc_scope *scope, long *restart,
                     ctg_err *e);
/* Writes w in that format, with a comment line at the top (may be NULL), a
 * scope line unless scope is CC_SCOPE_UNSET and a restart line unless
 * restart < 0. */
bool cc_weights_save(const char *path, const double w[CC_N_FEATURES], const char *comment,
                     cc_scope scope, long restart, ctg_err *e);

#endif
