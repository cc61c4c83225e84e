/*
 * cdg.h - control dependence and approach levels over the CFGs of the
 * program database (seed 001; McMinn's approach level, Ferrante et al.'s
 * control dependence).
 *
 * For every function: the post-dominator tree (with a virtual exit node that
 * every returning block, and every block that cannot reach a return, flows
 * into) and the control-dependence graph: block X is control dependent on the
 * branch edge A->S when X post-dominates S but does not strictly
 * post-dominate A.  Only edges with an id (conditional branches and switch
 * cases) carry control dependences: they are what the runtime measures.
 *
 * Goals are numbered like the archive's: edge e is goal e, error site s is
 * goal n_edges + s.  For each goal the module stores its approach layers:
 * layer k lists the branch edges k control-dependence steps above the goal.
 * For an edge goal, layer 0 is the edge itself and layer 1 the edges its
 * branch block depends on; for an error goal, layer 0 is the edges the error
 * block depends on.  The fitness of a run for a goal (fitness.h) is
 * k + d/(d+1) for the smallest layer k that holds a branch the run executed,
 * d being the branch distance of that layer's edge towards the goal.
 *
 * Everything is computed once (cdg_build) and stored flat, so evaluating a
 * run walks a few short arrays per goal.
 */
#ifndef CTG_CDG_H
#define CTG_CDG_H

#include <stdbool.h>
#include <stdint.h>

#include "../../base/err.h"
#include "../../instrument/progdb.h"

/* Entries of one goal's approach layers at most (whole levels; the first
 * is always kept).  In a generated state machine every rule is control
 * dependent on the one before it (`if (...) { ...; return; }` in a row),
 * so the layers of all goals grew with the square of a function's size:
 * 12 GB and 50 s before the first run on a 4 MB program.  A goal whose
 * run reached none of its kept layers is at the level past them
 * (fit_unreached): the gradient stops some 15 rules up a RERS chain. */
#define CDG_MAX_STEPS 64u

typedef struct cdg cdg_t;

/* One entry of a goal's approach layers. */
typedef struct cdg_step {
    uint32_t edge;  /* branch edge id                     */
    uint32_t level; /* control-dependence steps from goal */
} cdg_step;

/* Analyses every function of db.  The db must outlive the result.  Returns
 * NULL with e set on a malformed CFG (a successor or branch out of range) or
 * when out of memory. */
cdg_t *cdg_build(const progdb *db, ctg_err *e);
void cdg_free(cdg_t *g);

uint32_t cdg_n_goals(const cdg_t *g);
uint32_t cdg_n_edges(const cdg_t *g);
/* Function that holds a goal (edge: its branch's function; error: its site's). */
uint32_t cdg_goal_func(const cdg_t *g, uint32_t goal);

/* Immediate post-dominator of a block; -1 for the virtual exit. */
int32_t cdg_ipdom(const cdg_t *g, uint32_t func, uint32_t block);
/* Branch edges a block is control dependent on (sorted by id). */
const uint32_t *cdg_block_deps(const cdg_t *g, uint32_t func, uint32_t block, uint32_t *n);

/* Approach layers of a goal, sorted by level then edge. */
const cdg_step *cdg_goal_steps(const cdg_t *g, uint32_t goal, uint32_t *n);
/* Number of layers of a goal (highest level + 1; 0 when it has none).  A run
 * that executes none of them gets level cdg_goal_levels() ("function not
 * reached"), one worse than any level inside the function. */
uint32_t cdg_goal_levels(const cdg_t *g, uint32_t goal);

/* Goals that run whenever their function runs: DynaMOSA's initial targets.
 * An edge goal whose branch block depends on nothing but its own branch (a
 * loop header depends on its own back edge), an error site whose block
 * depends on nothing. */
bool cdg_goal_is_root(const cdg_t *g, uint32_t goal);
/* Goals directly control dependent on an edge (DynaMOSA: the targets that
 * become active when the edge is covered).  Sorted goal ids. */
const uint32_t *cdg_edge_children(const cdg_t *g, uint32_t edge, uint32_t *n);

#endif
