/*
 * expr_trace.c - path-constraint lists and the reader of the symbolic trace
 * written by the runtime (rt_symtrace.h).  The trace comes from the program
 * under test, so it is treated as hostile: the header is copied once, every
 * count is checked against the region size, every operand index must name
 * an earlier node, and the widths are checked by the constructors and again
 * against the recorded width.
 */
#include "expr_trace.h"

#include <string.h>

#include "../base/mem.h"
#include "expr_int.h"

#define TRACE_FIX "the runtime wrote a corrupt trace; rebuild prog.sym"

/* ---- path constraints ------------------------------------------------------ */

bool expr_pc_push(expr_pc *pc, expr *cond, bool taken, uint32_t site, uint8_t kind, uint32_t arg)
{
    static uint64_t serials;
    if (!cond || ctg_grow((void **)&pc->v, &pc->cap, pc->n + 1, sizeof *pc->v))
        return false;
    if (!pc->serial)
        pc->serial = ++serials;
    pc->v[pc->n++] = (expr_pc_entry){cond, site, arg, kind, taken};
    return true;
}

void expr_pc_release(expr_pc *pc)
{
    if (!pc)
        return;
    ctg_free(pc->v);
    pc->v = NULL;
    pc->n = pc->cap = 0;
    pc->serial = 0;
}

expr *expr_pc_asserted(expr_ctx *c, const expr_pc_entry *en)
{
    return en->taken ? en->cond : expr_not(c, en->cond);
}

bool expr_pc_negatable(uint8_t kind)
{
    return kind == CTG_SPC_BRANCH || kind == CTG_SPC_SWITCH || kind == CTG_SPC_LENGTH;
}

/* ---- reader ------------------------------------------------------------------ */

enum { K_LEAF, K_UN, K_BIN, K_CAST, K_TRUNC, K_EXTRACT, K_ICMP, K_FCMP, K_ITE, K_ARR };

/* How each trace op is built: category and expr op. */
static const struct {
    uint8_t kind;
    uint8_t op;
} sop_map[CTG_SOP__COUNT] = {
    [CTG_SOP_CONST] = {K_LEAF, EXPR_CONST},     [CTG_SOP_INPUT] = {K_LEAF, EXPR_INPUT},
    [CTG_SOP_VAR] = {K_LEAF, EXPR_VAR},         [CTG_SOP_NOT] = {K_UN, EXPR_NOT},
    [CTG_SOP_NEG] = {K_UN, EXPR_NEG},           [CTG_SOP_ZEXT] = {K_CAST, EXPR_ZEXT},
    [CTG_SOP_SEXT] = {K_CAST, EXPR_SEXT},       [CTG_SOP_TRUNC] = {K_TRUNC, EXPR_EXTRACT},
    [CTG_SOP_EXTRACT] = {K_EXTRACT, EXPR_EXTRACT}, [CTG_SOP_ADD] = {K_BIN, EXPR_ADD},
    [CTG_SOP_SUB] = {K_BIN, EXPR_SUB},          [CTG_SOP_MUL] = {K_BIN, EXPR_MUL},
    [CTG_SOP_UDIV] = {K_BIN, EXPR_UDIV},        [CTG_SOP_SDIV] = {K_BIN, EXPR_SDIV},
    [CTG_SOP_UREM] = {K_BIN, EXPR_UREM},        [CTG_SOP_SREM] = {K_BIN, EXPR_SREM},
    [CTG_SOP_SHL] = {K_BIN, EXPR_SHL},          [CTG_SOP_LSHR] = {K_BIN, EXPR_LSHR},
    [CTG_SOP_ASHR] = {K_BIN, EXPR_ASHR},        [CTG_SOP_AND] = {K_BIN, EXPR_AND},
    [CTG_SOP_OR] = {K_BIN, EXPR_OR},            [CTG_SOP_XOR] = {K_BIN, EXPR_XOR},
    [CTG_SOP_CONCAT] = {K_BIN, EXPR_CONCAT},    [CTG_SOP_ICMP] = {K_ICMP, EXPR_EQ},
    [CTG_SOP_ITE] = {K_ITE, EXPR_ITE},          [CTG_SOP_FADD] = {K_BIN, EXPR_FADD},
    [CTG_SOP_FSUB] = {K_BIN, EXPR_FSUB},        [CTG_SOP_FMUL] = {K_BIN, EXPR_FMUL},
    [CTG_SOP_FDIV] = {K_BIN, EXPR_FDIV},        [CTG_SOP_FNEG] = {K_UN, EXPR_FNEG},
    [CTG_SOP_FCMP] = {K_FCMP, EXPR_FCMP},       [CTG_SOP_FPEXT] = {K_CAST, EXPR_FPEXT},
    [CTG_SOP_FPTRUNC] = {K_CAST, EXPR_FPTRUNC}, [CTG_SOP_SITOFP] = {K_CAST, EXPR_SITOFP},
    [CTG_SOP_UITOFP] = {K_CAST, EXPR_UITOFP},   [CTG_SOP_FPTOSI] = {K_CAST, EXPR_FPTOSI},
    [CTG_SOP_FPTOUI] = {K_CAST, EXPR_FPTOUI},   [CTG_SOP_ARR_CONST] = {K_ARR, EXPR_ARR_CONST},
    [CTG_SOP_STORE] = {K_ARR, EXPR_STORE},      [CTG_SOP_SELECT] = {K_ARR, EXPR_SELECT},
};

static unsigned sop_nargs(unsigned kind, unsigned op)
{
    switch (kind) {
    case K_LEAF: return 0;
    case K_UN:
    case K_CAST:
    case K_TRUNC:
    case K_EXTRACT: return 1;
    case K_ITE: return 3;
    case K_ARR: return op == EXPR_ARR_CONST ? 0 : op == EXPR_STORE ? 3 : 2;
    default: return 2;
    }
}

static expr *build_leaf(expr_ctx *c, const ctg_symnode *n)
{
    switch (sop_map[n->op].op) {
    case EXPR_CONST: {
        expr_u128 hi = (uint64_t)n->a | (uint64_t)n->b << 32;
        return expr_const(c, n->width, hi << 64 | n->imm);
    }
    case EXPR_INPUT: return n->width == 8 ? expr_input(c, n->aux) : expr_inval(c);
    default: return expr_var(c, n->aux, n->width);
    }
}

/* Builds node n whose operands are x[0..2]; NULL when invalid or oom. */
static expr *build(expr_ctx *c, const ctg_symnode *n, expr *const *x)
{
    unsigned kind = sop_map[n->op].kind;
    expr_op op = (expr_op)sop_map[n->op].op;
    switch (kind) {
    case K_LEAF: return build_leaf(c, n);
    case K_UN: return expr_unop(c, op, x[0]);
    case K_BIN: return expr_binop(c, op, x[0], x[1]);
    case K_CAST: return expr_cast(c, op, x[0], n->width);
    case K_TRUNC: return n->width < x[0]->width ? expr_trunc(c, x[0], n->width) : expr_inval(c);
    case K_EXTRACT: return expr_extract(c, x[0], n->aux, n->width);
    case K_ICMP: return expr_icmp(c, n->aux, x[0], x[1]);
    case K_FCMP: return expr_fcmp(c, n->aux, x[0], x[1]);
    case K_ITE: return expr_ite(c, x[0], x[1], x[2]);
    default: break;
    }
    if (op == EXPR_ARR_CONST)
        return n->aux <= 255 ? expr_arr_const(c, (uint8_t)n->aux) : expr_inval(c);
    if (op == EXPR_STORE)
        return expr_store(c, x[0], x[1], x[2]);
    return expr_select(c, x[0], x[1]);
}

static bool read_nodes(expr_ctx *c, const ctg_symnode *nodes, uint32_t nn, expr **map, ctg_err *e)
{
    for (uint32_t i = 0; i < nn; i++) {
        ctg_symnode n;
        memcpy(&n, &nodes[i], sizeof n);
        if (n.op >= CTG_SOP__COUNT)
            return err_set(e, "symbolic trace: node %u has unknown op %u; %s", i, n.op, TRACE_FIX);
        uint32_t ops[3] = {n.a, n.b, n.c};
        expr *x[3] = {NULL, NULL, NULL};
        for (unsigned k = 0; k < sop_nargs(sop_map[n.op].kind, sop_map[n.op].op); k++) {
            if (ops[k] >= i)
                return err_set(e, "symbolic trace: node %u: operand %u is not an earlier node; %s",
                               i, ops[k], TRACE_FIX);
            x[k] = map[ops[k]];
        }
        map[i] = build(c, &n, x);
        if (!map[i] && expr_ctx_status(c) == EXPR_ENOMEM)
            return err_set(e, "symbolic trace: out of memory at node %u of %u", i, nn);
        if (!map[i] || map[i]->width != n.width)
            return err_set(e, "symbolic trace: node %u (op %u, width %u) has invalid operands; %s",
                           i, n.op, n.width, TRACE_FIX);
    }
    return true;
}

static bool read_pc(expr_ctx *c, const ctg_sympc *pcs, uint32_t np, uint32_t nn, expr **map,
                    expr_pc *pc, ctg_err *e)
{
    (void)c;
    for (uint32_t i = 0; i < np; i++) {
        ctg_sympc p;
        memcpy(&p, &pcs[i], sizeof p);
        if (p.node >= nn || map[p.node]->width != 1 || p.kind >= CTG_SPC__COUNT || p.taken > 1)
            return err_set(e, "symbolic trace: path entry %u (node %u, kind %u) is invalid; %s", i,
                           p.node, p.kind, TRACE_FIX);
        if (!expr_pc_push(pc, map[p.node], p.taken, p.site, p.kind, p.arg))
            return err_set(e, "symbolic trace: out of memory at path entry %u", i);
    }
    return true;
}

bool expr_trace_read(expr_ctx *c, const void *region, size_t size, expr_pc *pc, ctg_err *e)
{
    ctg_symtrace_hdr h;
    if (!region || size < CTG_SYMTRACE_HDR_SIZE)
        return err_set(e, "symbolic trace: region of %zu bytes is too small; %s", size, TRACE_FIX);
    memcpy(&h, region, sizeof h);
    if (h.magic != CTG_SYMTRACE_MAGIC || h.version != CTG_SYMTRACE_VERSION)
        return err_set(e, "symbolic trace: bad magic/version (%#x/%u); rebuild prog.sym with this "
                          "ctestgen", h.magic, h.version);
    if (ctg_symtrace_size(h.cap_nodes, h.cap_pc) > size || h.n_nodes > h.cap_nodes ||
        h.n_pc > h.cap_pc)
        return err_set(e,
                       "symbolic trace: counts (%u/%u nodes, %u/%u entries) exceed the region; %s",
                       h.n_nodes, h.cap_nodes, h.n_pc, h.cap_pc, TRACE_FIX);
    const uint8_t *base = region;
    const ctg_symnode *nodes = (const ctg_symnode *)(base + CTG_SYMTRACE_HDR_SIZE);
    const ctg_sympc *pcs = (const ctg_sympc *)(base + ctg_symtrace_pc_offset(h.cap_nodes));
    expr **map = ctg_malloc((h.n_nodes ? h.n_nodes : 1) * sizeof *map);
    if (!map)
        return err_set(e, "symbolic trace: out of memory for %u nodes", h.n_nodes);
    bool ok = read_nodes(c, nodes, h.n_nodes, map, e) &&
              read_pc(c, pcs, h.n_pc, h.n_nodes, map, pc, e);
    ctg_free(map);
    if (ok)
        pc->flags |= h.flags;
    return ok;
}
