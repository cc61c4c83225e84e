/*
 * inst_loops.c - the call-free inner loops of a function (see inst_loops.h).
 *
 * Dominators by the iterative algorithm of Cooper, Harvey and Kennedy ("A
 * simple, fast dominance algorithm") over the blocks in reverse postorder;
 * a back edge t -> h is one whose target dominates its source, and the
 * natural loop of header h is h with every block that reaches one of its
 * back edges' sources without passing h.  LLVM's C API has no loop
 * analysis, hence this.
 */
#include "inst_loops.h"

#include <string.h>

#include "../base/mem.h"

#define NONE UINT32_MAX

/* Successors and predecessors of the blocks, by layout index, packed:
 * block b's are at[b] .. at[b + 1] of the list. */
typedef struct graph {
    uint32_t n;
    uint32_t *succ_at, *succ;
    uint32_t *pred_at, *pred;
    uint32_t *rpo;   /* blocks in reverse postorder (the reachable ones) */
    uint32_t n_rpo;
    uint32_t *order; /* per block: its place in rpo, NONE: unreachable */
    uint32_t *idom;  /* per block: immediate dominator, NONE: unreachable */
} graph;

static void graph_release(graph *g)
{
    ctg_free(g->succ_at), ctg_free(g->succ), ctg_free(g->pred_at), ctg_free(g->pred);
    ctg_free(g->rpo), ctg_free(g->order), ctg_free(g->idom);
}

static uint32_t n_succ(LLVMBasicBlockRef bb)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    return t ? LLVMGetNumSuccessors(t) : 0;
}

static bool graph_edges(const inst_fn *f, graph *g)
{
    uint32_t n = g->n;
    size_t ne = 0;
    for (uint32_t b = 0; b < n; b++)
        ne += n_succ(f->blocks[b]);
    g->succ_at = ctg_calloc((size_t)n + 1, sizeof *g->succ_at);
    g->pred_at = ctg_calloc((size_t)n + 2, sizeof *g->pred_at);
    g->succ = ctg_malloc((ne ? ne : 1) * sizeof *g->succ);
    g->pred = ctg_malloc((ne ? ne : 1) * sizeof *g->pred);
    if (!g->succ_at || !g->pred_at || !g->succ || !g->pred)
        return false;
    uint32_t k = 0;
    for (uint32_t b = 0; b < n; b++) {
        g->succ_at[b] = k;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(f->blocks[b]);
        for (uint32_t i = 0, m = n_succ(f->blocks[b]); i < m; i++) {
            int32_t s = inst_block_index(f, LLVMGetSuccessor(t, i));
            if (s >= 0) {
                g->succ[k++] = (uint32_t)s;
                g->pred_at[s + 2]++;
            }
        }
    }
    g->succ_at[n] = k;
    for (uint32_t b = 0; b < n; b++) /* pred_at[b + 1]: start of b's */
        g->pred_at[b + 2] += g->pred_at[b + 1];
    for (uint32_t b = 0; b < n; b++)
        for (uint32_t i = g->succ_at[b]; i < g->succ_at[b + 1]; i++)
            g->pred[g->pred_at[g->succ[i] + 1]++] = b;
    return true;
}

/* Reverse postorder from the entry (block 0), by a depth-first walk with
 * an explicit stack. */
static bool graph_rpo(graph *g)
{
    uint32_t n = g->n;
    g->rpo = ctg_malloc((size_t)n * sizeof *g->rpo);
    g->order = ctg_malloc((size_t)n * sizeof *g->order);
    uint32_t *stack = ctg_malloc((size_t)n * sizeof *stack), *next = ctg_calloc(n, sizeof *next);
    bool ok = g->rpo && g->order && stack && next;
    if (ok) {
        for (uint32_t b = 0; b < n; b++)
            g->order[b] = NONE;
        uint32_t sp = 0, post = n;
        stack[sp++] = 0;
        g->order[0] = 0; /* visited; renumbered below */
        while (sp) {
            uint32_t b = stack[sp - 1];
            if (g->succ_at[b] + next[b] < g->succ_at[b + 1]) {
                uint32_t s = g->succ[g->succ_at[b] + next[b]++];
                if (g->order[s] == NONE) {
                    g->order[s] = 0;
                    stack[sp++] = s;
                }
                continue;
            }
            g->rpo[--post] = b;
            sp--;
        }
        g->n_rpo = n - post;
        memmove(g->rpo, g->rpo + post, (size_t)g->n_rpo * sizeof *g->rpo);
        for (uint32_t i = 0; i < g->n_rpo; i++)
            g->order[g->rpo[i]] = i;
    }
    ctg_free(stack), ctg_free(next);
    return ok;
}

static uint32_t intersect(const graph *g, uint32_t a, uint32_t b)
{
    while (a != b) {
        while (g->order[a] > g->order[b])
            a = g->idom[a];
        while (g->order[b] > g->order[a])
            b = g->idom[b];
    }
    return a;
}

static bool graph_idom(graph *g)
{
    g->idom = ctg_malloc((size_t)g->n * sizeof *g->idom);
    if (!g->idom)
        return false;
    for (uint32_t b = 0; b < g->n; b++)
        g->idom[b] = NONE;
    g->idom[0] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (uint32_t i = 1; i < g->n_rpo; i++) {
            uint32_t b = g->rpo[i], d = NONE;
            for (uint32_t k = g->pred_at[b]; k < g->pred_at[b + 1]; k++) {
                uint32_t p = g->pred[k];
                if (g->idom[p] != NONE)
                    d = d == NONE ? p : intersect(g, p, d);
            }
            if (d != g->idom[b]) {
                g->idom[b] = d;
                changed = true;
            }
        }
    }
    return true;
}

static bool dominates(const graph *g, uint32_t h, uint32_t b)
{
    for (;;) {
        if (b == h)
            return true;
        if (b == 0 || g->idom[b] == NONE)
            return false;
        b = g->idom[b];
    }
}

/* Whether block bb may be part of a loop that counts in registers: it
 * ends in a br and calls nothing but intrinsics. */
static bool plain_block(LLVMBasicBlockRef bb)
{
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || LLVMGetInstructionOpcode(t) != LLVMBr)
        return false;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        LLVMOpcode op = LLVMGetInstructionOpcode(i);
        if (op == LLVMInvoke || op == LLVMCallBr)
            return false;
        if (op != LLVMCall)
            continue;
        LLVMValueRef callee = LLVMGetCalledValue(i);
        if (!callee || !LLVMIsAFunction(callee) || !LLVMGetIntrinsicID(callee))
            return false;
    }
    return true;
}

/* The natural loop of header h into mark (stamp h + 1; worklist scratch
 * in work): false when it holds another header or a block that is not
 * plain. */
static bool inner_loop(const inst_fn *f, const graph *g, const bool *header, uint32_t h,
                       uint32_t *mark, uint32_t *work)
{
    uint32_t stamp = h + 1, n = 0;
    mark[h] = stamp;
    for (uint32_t k = g->pred_at[h]; k < g->pred_at[h + 1]; k++) {
        uint32_t t = g->pred[k];
        if (g->order[t] != NONE && dominates(g, h, t) && mark[t] != stamp) {
            mark[t] = stamp;
            work[n++] = t;
        }
    }
    bool ok = plain_block(f->blocks[h]);
    while (n) {
        uint32_t b = work[--n];
        ok = ok && !header[b] && plain_block(f->blocks[b]);
        for (uint32_t k = g->pred_at[b]; k < g->pred_at[b + 1]; k++) {
            uint32_t p = g->pred[k];
            if (g->order[p] != NONE && mark[p] != stamp) {
                mark[p] = stamp;
                work[n++] = p;
            }
        }
    }
    return ok;
}

bool inst_loops_find(const inst_fn *f, inst_loops *L)
{
    memset(L, 0, sizeof *L);
    graph g = {.n = f->n_blocks};
    if (!g.n)
        return true;
    uint32_t *mark = ctg_calloc(g.n, sizeof *mark), *work = ctg_malloc((size_t)g.n * sizeof *work);
    bool *header = ctg_calloc(g.n, sizeof *header);
    L->loop = ctg_calloc(g.n, sizeof *L->loop);
    bool ok = mark && work && header && L->loop && graph_edges(f, &g) && graph_rpo(&g) &&
              graph_idom(&g);
    if (ok) {
        L->n_blocks = g.n;
        for (uint32_t b = 0; b < g.n; b++)
            for (uint32_t k = g.succ_at[b]; g.order[b] != NONE && k < g.succ_at[b + 1]; k++)
                if (dominates(&g, g.succ[k], b))
                    header[g.succ[k]] = true;
        for (uint32_t h = 0; h < g.n; h++) {
            if (!header[h] || !inner_loop(f, &g, header, h, mark, work))
                continue;
            L->n_loops++;
            for (uint32_t b = 0; b < g.n; b++)
                if (mark[b] == h + 1)
                    L->loop[b] = L->n_loops;
        }
    } else {
        inst_loops_release(L);
    }
    graph_release(&g);
    ctg_free(mark), ctg_free(work), ctg_free(header);
    return ok;
}

void inst_loops_release(inst_loops *L)
{
    ctg_free(L->loop);
    memset(L, 0, sizeof *L);
}

uint32_t inst_loops_exits(const inst_fn *f, const inst_loops *L, uint32_t k, uint32_t *out)
{
    uint32_t n = 0;
    for (uint32_t b = 0; b < L->n_blocks; b++) {
        if (L->loop[b] != k)
            continue;
        LLVMValueRef t = LLVMGetBasicBlockTerminator(f->blocks[b]);
        for (uint32_t i = 0, m = n_succ(f->blocks[b]); i < m; i++) {
            int32_t s = inst_block_index(f, LLVMGetSuccessor(t, i));
            if (s < 0 || L->loop[s] == k)
                continue;
            bool seen = false;
            for (uint32_t j = 0; j < n && !seen; j++)
                seen = out[j] == (uint32_t)s;
            if (!seen)
                out[n++] = (uint32_t)s;
        }
    }
    return n;
}
