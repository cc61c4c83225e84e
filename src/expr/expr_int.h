/*
 * expr_int.h - internals shared by the files of src/expr: the interning
 * primitive every constructor ends in, the context's error state and walk
 * epochs.  Not for use outside src/expr.
 */
#ifndef CTG_EXPR_INT_H
#define CTG_EXPR_INT_H

#include "expr.h"

/* A node to intern: everything that makes up its identity. */
typedef struct expr_key {
    uint8_t op;
    uint8_t width;
    uint32_t aux;
    expr_u128 val;
    expr *a[3];
} expr_key;

/* Returns the unique node equal to k (creating it, no simplification), or
 * NULL when out of memory (the context is then failed). */
expr *expr_intern(expr_ctx *c, const expr_key *k);
/* Records an invalid-argument failure and returns NULL. */
expr *expr_inval(expr_ctx *c);
/* True when the context cannot build nodes any more. */
bool expr_ctx_dead(const expr_ctx *c);
/* A fresh epoch for expr.mark (walk visited marks). */
uint32_t expr_ctx_epoch(expr_ctx *c);
/* Checks/records the width of named variable id; false on a mismatch or
 * out of memory (status set). */
bool expr_ctx_var_width(expr_ctx *c, uint32_t id, unsigned width);

/* True for floating-point widths (32, 64). */
static inline bool expr_fp_width(unsigned w) { return w == 32 || w == 64; }

#endif
