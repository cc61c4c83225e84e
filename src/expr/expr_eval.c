/*
 * expr_eval.c - walks over expression DAGs without recursion (path
 * constraints of long loops nest thousands deep): collecting the reachable
 * nodes in topological order, evaluating them under an assignment of the
 * variables, and listing the variables they depend on.
 */
#include "expr_int.h"

#include <stdlib.h>
#include <string.h>

#include "../base/mem.h"

static int by_id(const void *x, const void *y)
{
    const expr *a = *(expr *const *)x, *b = *(expr *const *)y;
    return (a->id > b->id) - (a->id < b->id);
}

/* Lists this long or longer are sorted by a radix sort of the ids (11 bits
 * a pass, as many passes as the largest id needs); shorter ones, and any
 * whose scratch array cannot be had, by qsort.  Ids are distinct, so both
 * give the same order. */
#define COLLECT_RADIX_MIN 2048
#define RADIX_BITS 11
#define RADIX_MASK ((1u << RADIX_BITS) - 1)

static void sort_by_id(expr **list, size_t n)
{
    expr **tmp = n >= COLLECT_RADIX_MIN ? ctg_malloc(n * sizeof *tmp) : NULL;
    if (!tmp) {
        qsort(list, n, sizeof *list, by_id);
        return;
    }
    uint32_t max = 0;
    for (size_t i = 0; i < n; i++)
        if (list[i]->id > max)
            max = list[i]->id;
    size_t count[RADIX_MASK + 1];
    expr **from = list, **to = tmp;
    for (unsigned shift = 0; shift < 32 && (shift == 0 || (max >> shift) != 0);
         shift += RADIX_BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(from[i]->id >> shift) & RADIX_MASK]++;
        size_t at = 0;
        for (size_t d = 0; d <= RADIX_MASK; d++) {
            size_t k = count[d];
            count[d] = at;
            at += k;
        }
        for (size_t i = 0; i < n; i++)
            to[count[(from[i]->id >> shift) & RADIX_MASK]++] = from[i];
        expr **swap = from;
        from = to;
        to = swap;
    }
    if (from != list)
        memcpy(list, from, n * sizeof *list);
    ctg_free(tmp);
}

bool expr_collect(expr_ctx *c, expr *const *roots, size_t n, expr ***out, size_t *n_out)
{
    *out = NULL;
    *n_out = 0;
    uint32_t ep = expr_ctx_epoch(c);
    expr **stack = NULL, **list = NULL;
    size_t sn = 0, scap = 0, ln = 0, lcap = 0;
    for (size_t i = 0; i < n; i++) {
        if (!roots[i] || roots[i]->mark == ep)
            continue;
        if (ctg_grow((void **)&stack, &scap, sn + 1, sizeof *stack))
            goto oom;
        roots[i]->mark = ep;
        stack[sn++] = roots[i];
        while (sn) {
            expr *e = stack[--sn];
            if (ctg_grow((void **)&list, &lcap, ln + 1, sizeof *list) ||
                ctg_grow((void **)&stack, &scap, sn + 3, sizeof *stack))
                goto oom;
            list[ln++] = e;
            for (unsigned k = 0; k < expr_nargs((expr_op)e->op); k++)
                if (e->args[k]->mark != ep) {
                    e->args[k]->mark = ep;
                    stack[sn++] = e->args[k];
                }
        }
    }
    ctg_free(stack);
    if (ln > 1)
        sort_by_id(list, ln);
    *out = list;
    *n_out = ln;
    return true;
oom:
    ctg_free(stack);
    ctg_free(list);
    return false;
}

static expr_u128 env_named(const expr_env *env, uint32_t id)
{
    for (size_t i = 0; i < env->n_named; i++)
        if (env->named_ids[i] == id)
            return env->named_vals[i];
    return 0;
}

/* select over a chain of stores / ites ending in a constant array; operand
 * values are already computed (they precede the select in id order). */
static expr_u128 eval_select(const expr *e)
{
    expr_u128 idx = e->args[1]->ev;
    const expr *cur = e->args[0];
    for (;;) {
        if (cur->op == EXPR_STORE) {
            if (cur->args[1]->ev == idx)
                return cur->args[2]->ev;
            cur = cur->args[0];
        } else if (cur->op == EXPR_ITE) {
            cur = cur->args[0]->ev ? cur->args[1] : cur->args[2];
        } else {
            return cur->val; /* EXPR_ARR_CONST */
        }
    }
}

static void eval_node(expr *e, const expr_env *env)
{
    switch (e->op) {
    case EXPR_CONST: e->ev = e->val; return;
    case EXPR_INPUT: e->ev = e->aux < env->n_bytes ? env->bytes[e->aux] : 0; return;
    case EXPR_VAR: e->ev = env_named(env, e->aux) & expr_mask(e->width); return;
    case EXPR_SELECT: e->ev = eval_select(e); return;
    default: break;
    }
    if (e->width == 0) { /* arrays have no value of their own */
        e->ev = 0;
        return;
    }
    unsigned aw[3] = {0, 0, 0};
    expr_u128 v[3] = {0, 0, 0};
    for (unsigned k = 0; k < expr_nargs((expr_op)e->op); k++) {
        aw[k] = e->args[k]->width;
        v[k] = e->args[k]->ev;
    }
    e->ev = expr_apply((expr_op)e->op, e->width, e->aux, aw, v);
}

bool expr_eval(expr_ctx *c, expr *const *roots, size_t n, const expr_env *env, expr_u128 *vals)
{
    expr **list;
    size_t ln;
    if (!expr_collect(c, roots, n, &list, &ln))
        return false;
    for (size_t i = 0; i < ln; i++)
        eval_node(list[i], env);
    for (size_t i = 0; i < n; i++)
        vals[i] = roots[i] ? roots[i]->ev : 0;
    ctg_free(list);
    return true;
}

static int by_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

bool expr_vars(expr_ctx *c, expr *const *roots, size_t n, uint32_t **keys, size_t *n_keys)
{
    expr **list;
    size_t ln, nk = 0;
    *keys = NULL;
    *n_keys = 0;
    if (!expr_collect(c, roots, n, &list, &ln))
        return false;
    uint32_t *k = ctg_malloc((ln ? ln : 1) * sizeof *k);
    if (!k) {
        ctg_free(list);
        return false;
    }
    for (size_t i = 0; i < ln; i++) {
        if (list[i]->op == EXPR_INPUT)
            k[nk++] = list[i]->aux;
        else if (list[i]->op == EXPR_VAR)
            k[nk++] = EXPR_VKEY_NAMED | list[i]->aux;
    }
    ctg_free(list);
    qsort(k, nk, sizeof *k, by_u32);
    *keys = k;
    *n_keys = nk;
    return true;
}
