/*
 * expr.c - the expression context: an arena of nodes freed as a whole and
 * the hash-consing table that makes structurally equal nodes one pointer
 * (see expr.h).  Simplifying constructors live in expr_build.c.
 */
#include "expr_int.h"

#include <string.h>

#include "../base/hash.h"
#include "../base/mem.h"

#define CHUNK_NODES 512u

typedef struct chunk {
    struct chunk *next;
    size_t used;
    expr nodes[CHUNK_NODES];
} chunk;

struct expr_ctx {
    chunk *chunks;
    size_t bytes;
    expr **tab; /* buckets, chained through expr.next */
    size_t tab_cap;
    size_t n_nodes;
    uint32_t epoch;
    uint64_t serial;
    bool oom;
    expr_status last;
    uint32_t *var_ids; /* widths of named variables */
    uint8_t *var_w;
    size_t n_vars, cap_vars, cap_var_w;
};

/* ---- operator table ----------------------------------------------------- */

#define FPX (EXPR_F_FP | EXPR_F_INEXACT)

/* Name, operand count and the flags an op adds by itself (operand flags
 * are or-ed in when a node is made). */
static const struct {
    const char *name;
    uint8_t nargs;
    uint16_t flags;
} op_info[EXPR__COUNT] = {
    [EXPR_CONST] = {"const", 0, 0},
    [EXPR_INPUT] = {"in", 0, EXPR_F_VARS},
    [EXPR_VAR] = {"var", 0, EXPR_F_VARS},
    [EXPR_NOT] = {"bvnot", 1, 0},
    [EXPR_NEG] = {"bvneg", 1, 0},
    [EXPR_ZEXT] = {"zero_extend", 1, 0},
    [EXPR_SEXT] = {"sign_extend", 1, 0},
    [EXPR_EXTRACT] = {"extract", 1, 0},
    [EXPR_ADD] = {"bvadd", 2, 0},
    [EXPR_SUB] = {"bvsub", 2, 0},
    [EXPR_MUL] = {"bvmul", 2, 0},
    [EXPR_UDIV] = {"bvudiv", 2, 0},
    [EXPR_SDIV] = {"bvsdiv", 2, 0},
    [EXPR_UREM] = {"bvurem", 2, 0},
    [EXPR_SREM] = {"bvsrem", 2, 0},
    [EXPR_SHL] = {"bvshl", 2, 0},
    [EXPR_LSHR] = {"bvlshr", 2, 0},
    [EXPR_ASHR] = {"bvashr", 2, 0},
    [EXPR_AND] = {"bvand", 2, 0},
    [EXPR_OR] = {"bvor", 2, 0},
    [EXPR_XOR] = {"bvxor", 2, 0},
    [EXPR_CONCAT] = {"concat", 2, 0},
    [EXPR_EQ] = {"=", 2, 0},
    [EXPR_NE] = {"distinct", 2, 0},
    [EXPR_ULT] = {"bvult", 2, 0},
    [EXPR_ULE] = {"bvule", 2, 0},
    [EXPR_SLT] = {"bvslt", 2, 0},
    [EXPR_SLE] = {"bvsle", 2, 0},
    [EXPR_ITE] = {"ite", 3, 0},
    [EXPR_FADD] = {"fp.add", 2, FPX},
    [EXPR_FSUB] = {"fp.sub", 2, FPX},
    [EXPR_FMUL] = {"fp.mul", 2, FPX},
    [EXPR_FDIV] = {"fp.div", 2, FPX},
    [EXPR_FNEG] = {"fp.neg", 1, EXPR_F_FP},
    [EXPR_FCMP] = {"fcmp", 2, EXPR_F_FP},
    [EXPR_FPEXT] = {"fpext", 1, FPX},
    [EXPR_FPTRUNC] = {"fptrunc", 1, FPX},
    [EXPR_SITOFP] = {"sitofp", 1, EXPR_F_FP},
    [EXPR_UITOFP] = {"uitofp", 1, EXPR_F_FP},
    [EXPR_FPTOSI] = {"fptosi", 1, EXPR_F_FP},
    [EXPR_FPTOUI] = {"fptoui", 1, EXPR_F_FP},
    [EXPR_ARR_CONST] = {"const-array", 0, EXPR_F_ARRAY},
    [EXPR_STORE] = {"store", 3, EXPR_F_ARRAY},
    [EXPR_SELECT] = {"select", 2, EXPR_F_ARRAY},
};

unsigned expr_nargs(expr_op op) { return op < EXPR__COUNT ? op_info[op].nargs : 0; }

const char *expr_op_name(expr_op op) { return op < EXPR__COUNT ? op_info[op].name : "?"; }

/* ---- context ------------------------------------------------------------ */

expr_ctx *expr_ctx_new(void)
{
    static uint64_t serials;
    expr_ctx *c = ctg_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->serial = ++serials;
    c->tab_cap = 1024;
    c->tab = ctg_calloc(c->tab_cap, sizeof *c->tab);
    if (!c->tab) {
        ctg_free(c);
        return NULL;
    }
    c->bytes = sizeof *c + c->tab_cap * sizeof *c->tab;
    return c;
}

void expr_ctx_free(expr_ctx *c)
{
    if (!c)
        return;
    for (chunk *k = c->chunks, *n; k; k = n) {
        n = k->next;
        ctg_free(k);
    }
    ctg_free(c->tab);
    ctg_free(c->var_ids);
    ctg_free(c->var_w);
    ctg_free(c);
}

expr_status expr_ctx_status(const expr_ctx *c) { return c->oom ? EXPR_ENOMEM : c->last; }
size_t expr_ctx_nodes(const expr_ctx *c) { return c->n_nodes; }
uint64_t expr_ctx_serial(const expr_ctx *c) { return c->serial; }
size_t expr_ctx_bytes(const expr_ctx *c) { return c->bytes; }
bool expr_ctx_dead(const expr_ctx *c) { return c->oom; }

expr *expr_inval(expr_ctx *c)
{
    c->last = EXPR_EINVAL;
    return NULL;
}

uint32_t expr_ctx_epoch(expr_ctx *c)
{
    if (++c->epoch == 0) { /* wrapped: clear every mark */
        for (chunk *k = c->chunks; k; k = k->next)
            for (size_t i = 0; i < k->used; i++)
                k->nodes[i].mark = 0;
        c->epoch = 1;
    }
    return c->epoch;
}

bool expr_ctx_var_width(expr_ctx *c, uint32_t id, unsigned width)
{
    for (size_t i = 0; i < c->n_vars; i++)
        if (c->var_ids[i] == id) {
            if (c->var_w[i] == width)
                return true;
            c->last = EXPR_EINVAL;
            return false;
        }
    if (ctg_grow((void **)&c->var_ids, &c->cap_vars, c->n_vars + 1, sizeof *c->var_ids) ||
        ctg_grow((void **)&c->var_w, &c->cap_var_w, c->n_vars + 1, 1)) {
        c->oom = true;
        return false;
    }
    c->var_ids[c->n_vars] = id;
    c->var_w[c->n_vars++] = (uint8_t)width;
    return true;
}

/* ---- hashing and interning ---------------------------------------------- */

static uint64_t hcombine(uint64_t h, uint64_t v)
{
    return hash_combine64(h, v);
}

/* Structural hash of a key: depends only on the structure, never on
 * addresses or ids, so it is stable across contexts and runs. */
static uint64_t key_hash(const expr_key *k)
{
    uint64_t h = hash_mix64(((uint64_t)k->op << 8 | k->width) ^ ((uint64_t)k->aux << 32));
    h = hcombine(h, (uint64_t)k->val);
    h = hcombine(h, (uint64_t)(k->val >> 64));
    for (int i = 0; i < 3; i++)
        if (k->a[i])
            h = hcombine(h, k->a[i]->hash);
    return h;
}

static bool key_eq(const expr *e, const expr_key *k, uint64_t h)
{
    return e->hash == h && e->op == k->op && e->width == k->width && e->aux == k->aux &&
           e->val == k->val && e->args[0] == k->a[0] && e->args[1] == k->a[1] &&
           e->args[2] == k->a[2];
}

/* Doubles the bucket array; on failure keeps the old one (chains grow). */
static void tab_grow(expr_ctx *c)
{
    size_t ncap = c->tab_cap * 2;
    expr **nt = ctg_calloc(ncap, sizeof *nt);
    if (!nt)
        return;
    for (size_t i = 0; i < c->tab_cap; i++)
        for (expr *e = c->tab[i], *n; e; e = n) {
            n = e->next;
            size_t b = e->hash & (ncap - 1);
            e->next = nt[b];
            nt[b] = e;
        }
    ctg_free(c->tab);
    c->bytes += (ncap - c->tab_cap) * sizeof *nt;
    c->tab = nt;
    c->tab_cap = ncap;
}

static expr *node_alloc(expr_ctx *c)
{
    if (!c->chunks || c->chunks->used == CHUNK_NODES) {
        chunk *k = ctg_malloc(sizeof *k);
        if (!k) {
            c->oom = true;
            return NULL;
        }
        k->next = c->chunks;
        k->used = 0;
        c->chunks = k;
        c->bytes += sizeof *k;
    }
    return &c->chunks->nodes[c->chunks->used++];
}

expr *expr_intern(expr_ctx *c, const expr_key *k)
{
    if (c->oom)
        return NULL;
    uint64_t h = key_hash(k);
    size_t b = h & (c->tab_cap - 1);
    for (expr *e = c->tab[b]; e; e = e->next)
        if (key_eq(e, k, h))
            return e;
    if (c->n_nodes >= UINT32_MAX - 1) {
        c->oom = true;
        return NULL;
    }
    expr *e = node_alloc(c);
    if (!e)
        return NULL;
    memset(e, 0, sizeof *e);
    e->op = k->op;
    e->width = k->width;
    e->aux = k->aux;
    e->val = k->val;
    e->hash = h;
    e->id = (uint32_t)c->n_nodes++;
    e->flags = op_info[k->op].flags;
    for (int i = 0; i < 3; i++) {
        e->args[i] = k->a[i];
        if (k->a[i])
            e->flags |= k->a[i]->flags;
    }
    e->next = c->tab[b];
    c->tab[b] = e;
    if (c->n_nodes > c->tab_cap)
        tab_grow(c);
    return e;
}
