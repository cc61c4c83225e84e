/*
 * bmc_step.c - the bounded checker's steps: a state moves along an edge
 * (the successor's phis take their values), states meeting at one block
 * with the same input read are merged, and each goal collects the path
 * conditions that reach it.
 */
#include <string.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "bmc_int.h"

void bmc_reach(bmc *B, uint32_t goal, expr *g)
{
    if (goal >= B->n_goals || !g || expr_is_false(g))
        return;
    B->reach[goal] = B->reach[goal] ? expr_or(B->x, B->reach[goal], g) : g;
    if (!B->reach[goal])
        bmc_fail(B, "%s", "out of memory");
}

/* Merges t (values v, guard g) into e: where they differ, the value is
 * t's when g holds (the paths of e and t are disjoint: one input takes
 * one path). */
static void merge(bmc *B, bstate *e, expr *const *v, expr *g)
{
    for (uint32_t i = 0; i < B->n_slots; i++) {
        if (e->v[i] == v[i] || !v[i])
            continue;
        e->v[i] = e->v[i] ? expr_ite(B->x, g, v[i], e->v[i]) : v[i];
    }
    e->guard = expr_or(B->x, e->guard, g);
    if (!e->guard)
        bmc_fail(B, "%s", "out of memory");
}

/* Adds s to the next step (its values copied), or merges it there. */
bool bmc_add_state(bmc *B, const bstate *s)
{
    bstates *N = &B->nxt;
    uint64_t key = (uint64_t)s->block << 32 | s->pos, at;
    if (hmap_get(&N->at, key, &at)) {
        merge(B, &N->s[at], s->v, s->guard);
        return !B->failed;
    }
    if (ctg_grow((void **)&N->s, &N->cap, N->n + 1, sizeof *N->s) ||
        !hmap_put(&N->at, key, N->n))
        return bmc_fail(B, "%s", "out of memory");
    bstate *d = &N->s[N->n];
    *d = *s;
    d->v = ctg_malloc((B->n_slots + 1) * sizeof *d->v);
    if (!d->v)
        return bmc_fail(B, "%s", "out of memory");
    memcpy(d->v, s->v, B->n_slots * sizeof *d->v);
    N->n++;
    return true;
}

/* The value of phi for an arrival from block `from` in state s. */
static expr *incoming(bmc *B, const bstate *s, LLVMValueRef phi, LLVMBasicBlockRef from)
{
    for (unsigned i = 0; i < LLVMCountIncoming(phi); i++)
        if (LLVMGetIncomingBlock(phi, i) == from)
            return bmc_val(B, s, LLVMGetIncomingValue(phi, i));
    bmc_fail(B, "%s", "cannot model a phi without a value for its predecessor");
    return NULL;
}

/* The state s moves to block `to` under guard g. */
void bmc_goto(bmc *B, const bstate *s, LLVMBasicBlockRef to, expr *g)
{
    uint64_t t;
    if (B->failed || !g || expr_is_false(g))
        return;
    if (!hmap_get(&B->bidx, (uint64_t)(uintptr_t)to, &t)) {
        bmc_fail(B, "%s", "a branch out of main");
        return;
    }
    expr **v = ctg_malloc((B->n_slots + 1) * sizeof *v);
    if (!v) {
        bmc_fail(B, "%s", "out of memory");
        return;
    }
    memcpy(v, s->v, B->n_slots * sizeof *v);
    LLVMBasicBlockRef from = B->blocks[s->block];
    for (LLVMValueRef I = LLVMGetFirstInstruction(to); I && LLVMIsAPHINode(I);
         I = LLVMGetNextInstruction(I)) {
        uint64_t slot;
        if (LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMIntegerTypeKind ||
            LLVMGetIntTypeWidth(LLVMTypeOf(I)) > 64 ||
            !hmap_get(&B->slot, (uint64_t)(uintptr_t)I, &slot)) {
            bmc_fail(B, "%s", "cannot model a phi that is not an integer");
            break;
        }
        v[slot] = incoming(B, s, I, from); /* every phi reads s: all at once */
    }
    bstate n = {.guard = g, .v = v, .block = (uint32_t)t, .pos = s->pos};
    if (!B->failed)
        bmc_add_state(B, &n);
    ctg_free(v);
}

void bmc_states_release(bstates *S)
{
    for (size_t i = 0; i < S->n; i++)
        ctg_free(S->s[i].v);
    ctg_free(S->s);
    hmap_release(&S->at);
    memset(S, 0, sizeof *S);
}

/* Moves the next step's states to the current one. */
static void advance(bmc *B)
{
    bmc_states_release(&B->cur);
    B->cur = B->nxt;
    memset(&B->nxt, 0, sizeof B->nxt);
}

bool bmc_unroll(bmc *B, unsigned max_steps, size_t max_nodes, double deadline, unsigned *steps)
{
    *steps = 0;
    advance(B);
    while (B->cur.n && *steps < max_steps && !B->failed) {
        for (size_t i = 0; i < B->cur.n && !B->failed; i++)
            bmc_run_state(B, &B->cur.s[i]);
        advance(B);
        ++*steps;
        if (expr_ctx_nodes(B->x) > max_nodes || fs_now() > deadline)
            break;
    }
    return !B->cur.n;
}
