/*
 * expr_fixture.h - helpers shared by test_expr.c, test_solver.c and
 * test_solver_bounds.c: one expression context per test (setup and
 * teardown for cmocka) and short constructors over it.
 */
#ifndef CTG_EXPR_FIXTURE_H
#define CTG_EXPR_FIXTURE_H

#include <stdint.h>

#include "expr/expr.h"

static expr_ctx *C;

static inline int setup(void **st)
{
    (void)st;
    C = expr_ctx_new();
    return C ? 0 : -1;
}

static inline int teardown(void **st)
{
    (void)st;
    expr_ctx_free(C);
    return 0;
}

static inline expr *k(unsigned w, uint64_t v) { return expr_const(C, w, v); }
static inline expr *in(uint32_t i) { return expr_input(C, i); }
static inline expr *bin(expr_op op, expr *a, expr *b) { return expr_binop(C, op, a, b); }

/* Little-endian integer of `bytes` input bytes from byte `at`. */
static inline expr *intn(uint32_t at, unsigned bytes)
{
    expr *e = in(at);
    for (unsigned i = 1; i < bytes; i++)
        e = bin(EXPR_CONCAT, in(at + i), e);
    return e;
}

#endif
