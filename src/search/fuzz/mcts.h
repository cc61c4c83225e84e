/*
 * mcts.h - the AlphaFuzz seed tree (seed 000): a tree of inputs whose seed
 * scheduling is a Monte Carlo tree search.
 *
 * The root is the parent of the initial inputs, with an empty input and an
 * empty trace.  Every other node stands for one input and holds
 *   - its node trace: the set of branch edges its run covered;
 *   - its tree trace: the multiset union (edge -> hit count) of the node
 *     traces in its subtree, its own included;
 *   - N: how often it or one of its descendants was selected as the seed.
 *
 * One round of the search (seed 000, "Pseudocode"):
 *   best = mcts_select(t)            tree policy: UCT from the root
 *   for each interesting mutant of best:
 *       mcts_add_child(t, best, trace)   (merges the trace into the tree
 *                                         traces of best and its ancestors)
 *   mcts_visit(t, best)              N += 1 for best and its ancestors
 * Merging each child's trace when it is added instead of once after the
 * batch gives the same traces at the next selection: nothing reads them in
 * between.
 *
 * The score of a node i with parent p (the root scores -infinity):
 *   SV_i     = |set(i.tree_trace) ∩ rare(p.tree_trace)|, where rare(T) are
 *              the edges of T with the smallest hit count
 *              (rare({A, B, B, C}) = {A, C});
 *   sv_i     = SV_i normalised among the siblings to [0, 1]:
 *              (SV_i - min) / (max - min); when max == min every sibling
 *              gets 1 if max > 0, else 0;
 *   score(i) = sv_i / n_i + c * sqrt(ln N_p / n_i), +infinity for n_i = 0.
 * The seed's slides count the rare branches in the child's tree trace, its
 * pseudo-code in the node trace; for a leaf both are the same, and the tree
 * trace credits a subtree with the rare branches its descendants found, so
 * we use the tree trace.
 *
 * Selection walks from the root to a leaf, each time to the child with the
 * highest score (ties: the first child), and returns the node with the
 * highest score on that path (ties: the one nearer the root): the parent
 * competes with its children, so selection can stop at an inner node.
 *
 * That is the seed's policy (MCTS_SEED, `--mcts-policy seed`).  Measured
 * against a plain round-robin queue with the same mutators it lost (bench/fuzz
 * --ablation 20000 10: mean A12 0.35 over the ten programs, 0.10 on ini,
 * 0.13 on tlv, 0.18 on bmp).  The cause is the shape of the tree: every
 * find becomes a child of its seed, so the tree is deep and unbalanced, and
 * UCT, which shares visits among siblings, gives a sibling with a subtree of
 * a hundred inputs no more than a leaf beside it; the inputs deep in a big
 * subtree starve, where the queue gives every input the same share.  The
 * default, MCTS_SIZED, keeps the seed's tree, traces, rare-branch value and
 * UCT formula, with two changes:
 *   - visits are counted per node of the subtree: n_i / size_i for the
 *     child and N_p / size_p for the parent (size: nodes in the subtree,
 *     itself included), so a subtree's share grows with the inputs in it;
 *   - selection returns the leaf the walk ends at (inner nodes were chosen
 *     when they were leaves, and their children carry their traces on).
 * Same budget and mutators: mean A12 0.65 over the ten, 0.87 on bmp and
 * crcpkt, at least 0.5 on each but expr (0.45: 89.0 % against 89.1 %);
 * at commit 20f6d65 (other mutators' random draws changed) mean 0.63,
 * expr 0.335, magic 0.47, the rest 0.52-0.88.
 *
 * MCTS_STAY (`--mcts-policy stay`) puts back the seed's rule that a parent
 * competes with its children, in the sized form: at an inner node the walk
 * may stop at the node itself, scored as a leaf of its own (its SV: the
 * rare branches of its tree trace that its own node trace has; its visits:
 * the selections of the node itself; size 1).  Sized never mutates a seed
 * again once it has a child.  With --mcts-c 2 it is the only variant
 * measured that does not lose expr (0.535), but it covers less on bmp
 * (65.0 % against sized's 83.9 %) and loses lzdec (0.415): mean 0.61, so
 * sized stays the default (docs/fuzzing-speed.md has both rows).
 *
 * Rare branches, the frontier rule (mcts_set_frontier, `--mcts-rare
 * frontier`, the default of the fuzz strategy): rare(T) are the edges of T
 * on a branch with a side that no node of the tree covers; when T has
 * none, the seed's rare(T).  An uncovered side has the smallest hit count
 * of all, 0, but no trace holds it, so the seed's rule cannot credit it;
 * this rule credits the subtrees that reach its branch.  The seed's rule
 * keeps crediting a subtree for an edge that is rare but covered, so the
 * walk returns to it round after round when its rounds find nothing (expr:
 * a leaf "4242" selected 13 times in one run); an edge stops being rare
 * under the frontier rule as soon as the other sides of its branch are
 * covered.  Same budget and mutators, against the queue (bench/fuzz
 * --ablation 20000 10): mean A12 0.721 -> 0.789, at least 0.63 on every
 * program; expr at 20 seeds 0.340 -> 0.729 (docs/fuzzing-speed.md,
 * seventeenth round).  `--mcts-rare seed` keeps the seed's rule.
 */
#ifndef CTG_MCTS_H
#define CTG_MCTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct mcts_tree mcts_tree;
typedef struct mcts_node mcts_node;

typedef enum mcts_policy {
    MCTS_SEED = 0, /* seed 000 as written (the default of mcts_new)        */
    MCTS_SIZED,    /* visits per subtree node, selection of the leaf       */
    MCTS_STAY      /* sized, and an inner node competes with its children
                      as a leaf of its own (its own selections, size 1)   */
} mcts_policy;

/* A tree over edge ids 0 .. n_edges - 1 with exploration constant c.
 * NULL on out of memory. */
mcts_tree *mcts_new(uint32_t n_edges, double c);
void mcts_free(mcts_tree *t);

/* Chooses the selection policy (before the first selection). */
void mcts_set_policy(mcts_tree *t, mcts_policy p);
/* Turns on the frontier rule for rare branches (see the top of this
 * file): edge e belongs to a branch whose edges are first[e] .. first[e] +
 * n[e] - 1 (both arrays of n_edges entries, copied).  False on out of
 * memory (the rule stays as it was). */
bool mcts_set_frontier(mcts_tree *t, const uint32_t *first, const uint32_t *n);

mcts_node *mcts_root(const mcts_tree *t);
/* Nodes in creation order; node 0 is the root. */
size_t mcts_n_nodes(const mcts_tree *t);
mcts_node *mcts_node_at(const mcts_tree *t, size_t i);

/* Adds a child of parent (the root for an initial input) whose node trace
 * is the set of the n edges in `trace` (any order, duplicates and ids >=
 * n_edges ignored); payload is the caller's handle of its input.  The trace
 * is added to the tree traces of the child, the parent and every ancestor.
 * NULL on out of memory (the tree is unchanged). */
mcts_node *mcts_add_child(mcts_tree *t, mcts_node *parent, const uint32_t *trace, size_t n,
                          uint32_t payload);

/* The node to mutate next (see the top of this file); NULL when the root
 * has no children. */
mcts_node *mcts_select(mcts_tree *t);
/* Backpropagation: N += 1 for node and each of its ancestors. */
void mcts_visit(mcts_tree *t, mcts_node *node);

/* The score of a node as selection computes it (-INFINITY for the root). */
double mcts_score(mcts_tree *t, const mcts_node *node);
/* The rare branches of a node's tree trace (edges with the smallest hit
 * count), ascending, into out (room for n_edges); returns how many. */
size_t mcts_rare(const mcts_node *node, uint32_t *out);

/* Accessors. */
uint32_t mcts_payload(const mcts_node *node);
mcts_node *mcts_parent(const mcts_node *node);
uint64_t mcts_visits(const mcts_node *node);
size_t mcts_n_children(const mcts_node *node);
mcts_node *mcts_child(const mcts_node *node, size_t i);
unsigned mcts_depth(const mcts_node *node);
/* Node trace: sorted edge ids. */
const uint32_t *mcts_node_trace(const mcts_node *node, size_t *n);
/* Hit count of edge e in the node's tree trace (0 when absent). */
uint32_t mcts_tree_count(const mcts_node *node, uint32_t e);
/* Number of distinct edges in the node's tree trace. */
size_t mcts_tree_size(const mcts_node *node);
/* Deepest node so far. */
unsigned mcts_max_depth(const mcts_tree *t);

#endif
