/*
 * cc_last.c - the cfds / param orders of the concolic search (cc_search.h)
 * over a stack of tests, the last path on top (seed 004, algorithm 1):
 * scopes last, tree and level; and scope mix, which hands over between
 * generational search (cc_search.c) and the last-path dive.
 */
#include "cc_int.h"

#include <math.h>
#include <string.h>

#include "../../base/mem.h"

/* cfds / param: n becomes the last path (top of the stack). */
bool cc_push_path(cc_search *s, cc_node *n, ctg_err *e)
{
    bool oom = false;
    if (!cc_begin_expansion(s, n, &oom)) { /* a path expanded before */
        cc_node_free(s, n);
        return oom ? err_set(e, "concolic: out of memory") : true;
    }
    if (ctg_grow((void **)&s->stack, &s->cap_stack, s->n_stack + 1, sizeof *s->stack) != 0) {
        cc_node_free(s, n);
        return err_set(e, "concolic: out of memory");
    }
    n->refs = 1;
    s->stack[s->n_stack++] = n;
    return true;
}

/* cfds / param, scope tree / level: the kept path (index into the stack)
 * that the next negation comes from: the last one, whose best entry
 * scores `top` now, unless an older path's best untried entry scored
 * higher when that path was last scored.  Ties: tree, the latest such
 * path; level, the oldest of all, and a path no pick has scored yet (the
 * seeds, pushed together) comes first, as BFS expands the seeds first. */
static size_t tree_pick(const cc_search *s, double top)
{
    bool level = cc_scope_now(s) == CC_SCOPE_LEVEL;
    size_t last = s->n_stack - 1, pick = last;
    double bs = top;
    for (size_t i = last; i-- > 0;) {
        const cc_node *n = s->stack[i];
        if (level && !n->tried) {
            bs = INFINITY;
            pick = i;
        } else if (n->scored && (n->best > bs || (level && n->best == bs))) {
            bs = n->best;
            pick = i;
        }
    }
    return pick;
}

/* Takes path i out of the stack (it has nothing left to negate). */
static void stack_remove(cc_search *s, size_t i)
{
    cc_node *n = s->stack[i];
    memmove(s->stack + i, s->stack + i + 1, (s->n_stack - i - 1) * sizeof *s->stack);
    s->n_stack--;
    cc_node_unref(s, n);
}

/* n's best untried entry (best_entry) with n's path constraint in memory
 * (run again if it was dropped); -1 when none is left or the re-run took
 * another path, -2 with e set on failure.  With scope level the entries
 * before n's bound are not n's: the older path n shares them with negates
 * them (a path that adds none leaves at once, as BFS queues nothing for
 * it, and keeps no constraint in memory). */
static int64_t scored_best(cc_search *s, cc_node *n, double *score, ctg_err *e)
{
    bool usable;
    if (!cc_materialize(s, n, &usable, e))
        return -2;
    if (!usable)
        return -1;
    if (!cc_alloc_tried(n, cc_scope_now(s) == CC_SCOPE_LEVEL))
        return err_set(e, "concolic: out of memory"), -2;
    return cc_best_entry(&s->cfg.heur, n, cc_scope_now(s) == CC_SCOPE_LEVEL, score);
}

/* cfds / param: negates the best entry of the last path that is left (of
 * the path tree_pick chooses, with scope tree or level); a path with
 * nothing left leaves the stack.  After cfg.restart runs in a row without
 * a new edge the oldest kept path goes on top first, as CREST restarts
 * from its initial input; the next stall takes the next oldest. */
cc_status cc_last_step(cc_search *s, ctg_err *e)
{
    uint64_t runs0 = s->st.runs;
    if (s->cfg.restart && s->stall >= s->cfg.restart && s->n_stack > 1) {
        cc_node *old = s->stack[0]; /* the oldest path goes on top */
        memmove(s->stack, s->stack + 1, (s->n_stack - 1) * sizeof *s->stack);
        s->stack[s->n_stack - 1] = old;
        s->stall = 0;
        s->st.restarts++;
    }
    while (s->n_stack) {
        if (s->st.runs != runs0) /* a re-run was this step's work */
            return CC_MORE;
        size_t at = s->n_stack - 1;
        double sc;
        int64_t j = scored_best(s, s->stack[at], &sc, e);
        if (j == -2)
            return CC_FAIL;
        if (s->st.runs != runs0)
            return CC_MORE;
        if (j >= 0 && (cc_scope_now(s) == CC_SCOPE_TREE || cc_scope_now(s) == CC_SCOPE_LEVEL)) {
            size_t p = tree_pick(s, sc);
            if (p != at) { /* an older path scored higher: scored afresh, it is the one */
                s->stack[at]->best = sc; /* the last path's best stays untried */
                s->stack[at]->scored = true;
                at = p;
                j = scored_best(s, s->stack[at], &sc, e);
                if (j == -2)
                    return CC_FAIL;
                /* after a re-run its entry j is negated in this step still:
                 * by the next, the last path may have pushed its constraint
                 * out of memory again */
                if (s->st.runs != runs0 && j < 0)
                    return stack_remove(s, at), CC_MORE;
            }
        }
        if (j < 0) {
            stack_remove(s, at);
            continue;
        }
        cc_node *n = s->stack[at];
        n->tried[j] = 1;
        neg_result r = cc_negate_enqueue(s, n, (uint32_t)j, e);
        if (r == NEG_FAIL)
            return CC_FAIL;
        /* scope level: a path whose last entry this was leaves now, as BFS
         * frees a test with its last negation (an exhausted path never wins
         * a pick, and would hold its constraint in memory) */
        if (cc_scope_now(s) == CC_SCOPE_LEVEL && !n->scored)
            stack_remove(s, at);
        if (r == NEG_DONE)
            return CC_MORE;
    }
    return CC_DONE;
}

#define MIX_STALL 10 /* scope mix with restart 0: an arm's fruitless runs */

/* scope mix: the other arm takes over; the last-path arm takes the best
 * test of the generational work list (not expanded yet) as its last path,
 * so that it dives from the best of what generational search found. */
static bool mix_switch(cc_search *s, ctg_err *e)
{
    s->arm = !s->arm;
    s->arm_stall = 0;
    if (s->arm != MIX_LAST)
        return true;
    s->stall = 0; /* generational search's stall is not the last path's */
    cc_node *n = cc_heap_pop(&s->heap);
    bool usable;
    if (!n)
        return true;
    if (!cc_materialize(s, n, &usable, e)) {
        cc_node_unref(s, n);
        return false;
    }
    if (!usable) { /* its path is needed, and the re-run took another */
        cc_node_unref(s, n);
        return true;
    }
    n->refs = 0;
    return cc_push_path(s, n, e);
}

/* scope mix: one step of the arm at work; after cfg.restart runs of it in
 * a row without a new edge (MIX_STALL without a restart) the other arm
 * takes over, and an arm with nothing left hands over at once.  The
 * last-path arm's own restart (the oldest path on top) gives way to the
 * hand-over: each time it takes over, its stall starts at 0. */
cc_status cc_mix_step(cc_search *s, ctg_err *e)
{
    uint64_t stall = s->cfg.restart ? s->cfg.restart : MIX_STALL;
    if (s->arm_stall >= stall) {
        s->st.handovers++;
        if (!mix_switch(s, e))
            return CC_FAIL;
    }
    for (int tries = 0; tries < 2; tries++) {
        uint64_t runs0 = s->st.runs, edges0 = s->st.edges;
        cc_status r = s->arm == MIX_GEN ? cc_gen_step(s, e) : cc_last_step(s, e);
        if (r == CC_MORE) {
            uint64_t runs = s->st.runs - runs0;
            if (s->arm == MIX_LAST)
                s->st.last_runs += runs;
            s->arm_stall = s->st.edges != edges0 ? 0 : s->arm_stall + runs;
            return r;
        }
        if (r == CC_FAIL || !mix_switch(s, e))
            return CC_FAIL;
    }
    return CC_DONE;
}
