/*
 * expr.h - symbolic expressions of the concolic engine: a hash-consed DAG of
 * bit-vector terms (widths 1..128), floating-point operations over IEEE bit
 * patterns, and byte arrays (select/store) for --sym-arrays=theory.
 *
 * All nodes of one execution live in one expr_ctx (an arena plus the
 * hash-consing table) and are freed together by expr_ctx_free.  Structurally
 * equal nodes of one context are the same pointer.  Every constructor
 * simplifies: constant operands are folded, algebraic identities applied
 * (x+0, x*1, x^x, zext/trunc chains, comparisons of constants, concat of
 * adjacent extracts of one variable, ...) and commutative operands put in a
 * canonical order, so equal constraints of different executions get the
 * same structural hash (expr.hash), which the solver caches use as keys.
 *
 * Rules of struct expr (visible so walks are cheap): nodes are immutable for
 * users (the trailing scratch fields belong to the walkers in expr_eval.c);
 * args[i] is NULL beyond expr_nargs(op); width is the result width, 0 for
 * arrays; a width-1 term doubles as a boolean.
 *
 * Errors: a constructor returns NULL when an argument is NULL (so errors
 * propagate through nested calls), when the context is out of memory (the
 * context stays failed: expr_ctx_status) or on invalid widths/operands
 * (EXPR_EINVAL, not sticky).  Callers check the final result once.
 *
 * Semantics are those of LLVM with SMT-LIB values where LLVM has poison and
 * C has undefined behaviour (see rt_symtrace.h): folding and expr_eval agree
 * with Z3 on every node not flagged EXPR_F_INEXACT.
 */
#ifndef CTG_EXPR_H
#define CTG_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/sbuf.h"

__extension__ typedef unsigned __int128 expr_u128;

typedef enum expr_op {
    EXPR_CONST = 0, /* val                                                  */
    EXPR_INPUT,     /* byte aux of the test input, width 8                  */
    EXPR_VAR,       /* named extra variable aux (e.g. the input length)     */
    EXPR_NOT,       /* unary, same width                                    */
    EXPR_NEG,
    EXPR_ZEXT,      /* a -> width                                           */
    EXPR_SEXT,
    EXPR_EXTRACT,   /* bits [aux + width - 1, aux] of a                     */
    EXPR_ADD,       /* binary, same width                                   */
    EXPR_SUB,
    EXPR_MUL,
    EXPR_UDIV,
    EXPR_SDIV,
    EXPR_UREM,
    EXPR_SREM,
    EXPR_SHL,
    EXPR_LSHR,
    EXPR_ASHR,
    EXPR_AND,
    EXPR_OR,
    EXPR_XOR,
    EXPR_CONCAT,    /* a high, b low                                        */
    EXPR_EQ,        /* comparisons: width 1                                 */
    EXPR_NE,
    EXPR_ULT,
    EXPR_ULE,
    EXPR_SLT,
    EXPR_SLE,
    EXPR_ITE,       /* a ? b : c                                            */
    EXPR_FADD,      /* floating point over IEEE bits, width 32 | 64         */
    EXPR_FSUB,
    EXPR_FMUL,
    EXPR_FDIV,
    EXPR_FNEG,
    EXPR_FCMP,      /* aux = LLVM real predicate 0..15, width 1             */
    EXPR_FPEXT,     /* 32 -> 64                                             */
    EXPR_FPTRUNC,   /* 64 -> 32                                             */
    EXPR_SITOFP,    /* integer -> 32 | 64                                   */
    EXPR_UITOFP,
    EXPR_FPTOSI,    /* 32 | 64 -> integer width, toward zero                */
    EXPR_FPTOUI,
    EXPR_ARR_CONST, /* byte array, every cell = val                         */
    EXPR_STORE,     /* array a, index b (64), value c (8) -> array          */
    EXPR_SELECT,    /* array a, index b (64) -> 8                           */
    EXPR__COUNT
} expr_op;

/* Flags, propagated from operands to results. */
#define EXPR_F_VARS 0x01u    /* depends on an input byte or a named variable  */
#define EXPR_F_FP 0x02u      /* contains a floating-point operation           */
#define EXPR_F_ARRAY 0x04u   /* contains an array operation                   */
#define EXPR_F_INEXACT 0x08u /* expr_eval may differ from the solver (the bits of
                                a NaN made by fp arithmetic): never trust eval alone */

/* Variable keys: input byte i is i; named variable id is EXPR_VKEY_NAMED | id. */
#define EXPR_VKEY_NAMED 0x80000000u
#define EXPR_MAX_INPUT 0x7fffffffu

typedef struct expr expr;
struct expr {
    uint8_t op;       /* expr_op                                            */
    uint8_t width;    /* 1..128; 0 for arrays                               */
    uint16_t flags;   /* EXPR_F_*                                           */
    uint32_t aux;     /* INPUT: byte index; VAR: id; EXTRACT: low bit; FCMP: predicate */
    uint32_t id;      /* creation order in the context (operands < node)    */
    uint32_t mark;    /* scratch: walk epoch                                */
    uint32_t slot;    /* scratch: index of the node in a caller's walk      */
    uint64_t hash;    /* structural hash, equal across contexts             */
    expr_u128 val;    /* CONST value (masked to width); ARR_CONST cell      */
    expr *args[3];
    expr *next;       /* hash-consing chain                                 */
    expr_u128 ev;     /* scratch: value during expr_eval                    */
};

typedef struct expr_ctx expr_ctx;

typedef enum expr_status { EXPR_OK = 0, EXPR_ENOMEM, EXPR_EINVAL } expr_status;

/* ---- context ------------------------------------------------------------ */

/* New empty context; NULL when out of memory. */
expr_ctx *expr_ctx_new(void);
/* Frees the context and every node in it; accepts NULL. */
void expr_ctx_free(expr_ctx *c);
/* EXPR_ENOMEM once an allocation failed (sticky); else the status of the
 * last failed constructor call (EXPR_EINVAL) or EXPR_OK. */
expr_status expr_ctx_status(const expr_ctx *c);
size_t expr_ctx_nodes(const expr_ctx *c);
/* A number no other context of this process had: caches keyed by node
 * pointers check it to notice a new context at a reused address. */
uint64_t expr_ctx_serial(const expr_ctx *c);
size_t expr_ctx_bytes(const expr_ctx *c);

/* Number of operands of op (0..3). */
unsigned expr_nargs(expr_op op);
const char *expr_op_name(expr_op op);

/* ---- constructors (all simplify; NULL on error, see the file comment) --- */

expr *expr_const(expr_ctx *c, unsigned width, expr_u128 v);
expr *expr_bool(expr_ctx *c, bool b);
expr *expr_input(expr_ctx *c, uint32_t byte_index);
/* A named extra variable; one id has one width per context. */
expr *expr_var(expr_ctx *c, uint32_t id, unsigned width);
/* NOT, NEG, FNEG. */
expr *expr_unop(expr_ctx *c, expr_op op, expr *a);
/* ADD..XOR, CONCAT, EQ..SLE, FADD..FDIV. */
expr *expr_binop(expr_ctx *c, expr_op op, expr *a, expr *b);
/* ZEXT, SEXT, FPEXT, FPTRUNC, SITOFP, UITOFP, FPTOSI, FPTOUI to `width`;
 * ZEXT/SEXT to the same width return a. */
expr *expr_cast(expr_ctx *c, expr_op op, expr *a, unsigned width);
/* Bits [lo + width - 1, lo] of a. */
expr *expr_extract(expr_ctx *c, expr *a, unsigned lo, unsigned width);
expr *expr_trunc(expr_ctx *c, expr *a, unsigned width);
expr *expr_ite(expr_ctx *c, expr *cond, expr *a, expr *b);
/* LLVM integer predicate 32 (eq) .. 41 (sle); ugt/uge/sgt/sge swap operands. */
expr *expr_icmp(expr_ctx *c, unsigned llvm_pred, expr *a, expr *b);
/* LLVM real predicate 0 (false) .. 15 (true). */
expr *expr_fcmp(expr_ctx *c, unsigned llvm_pred, expr *a, expr *b);
expr *expr_arr_const(expr_ctx *c, uint8_t cell);
expr *expr_store(expr_ctx *c, expr *arr, expr *index, expr *value);
expr *expr_select(expr_ctx *c, expr *arr, expr *index);
/* Boolean helpers on width-1 terms. */
expr *expr_not(expr_ctx *c, expr *a);
expr *expr_and(expr_ctx *c, expr *a, expr *b);
expr *expr_or(expr_ctx *c, expr *a, expr *b);

static inline bool expr_is_const(const expr *e) { return e && e->op == EXPR_CONST; }
static inline bool expr_is_true(const expr *e)
{
    return expr_is_const(e) && e->width == 1 && e->val;
}
static inline bool expr_is_false(const expr *e)
{
    return expr_is_const(e) && e->width == 1 && !e->val;
}
static inline expr_u128 expr_mask(unsigned width)
{
    return width >= 128 ? ~(expr_u128)0 : (((expr_u128)1 << width) - 1);
}

/* ---- values (expr_fold.c) ------------------------------------------------ */

/* Applies a non-array op to constant operand values (masked to their
 * widths); the result is masked to `width`. */
expr_u128 expr_apply(expr_op op, unsigned width, uint32_t aux, const unsigned *arg_widths,
                     const expr_u128 *args);
/* Sign-extends the low `width` bits of v to 128 bits. */
__extension__ __int128 expr_sext128(expr_u128 v, unsigned width);

/* ---- walks, evaluation, variables (expr_eval.c) -------------------------- */

/* Values of the variables for expr_eval: input bytes beyond n_bytes and
 * named variables not listed are 0. */
typedef struct expr_env {
    const uint8_t *bytes;
    size_t n_bytes;
    const uint32_t *named_ids;
    const uint64_t *named_vals;
    size_t n_named;
} expr_env;

/* Collects every node reachable from roots[0..n) into *out (ctg_malloc'd,
 * sorted by id, i.e. operands first).  False when out of memory. */
bool expr_collect(expr_ctx *c, expr *const *roots, size_t n, expr ***out, size_t *n_out);
/* Evaluates roots[0..n) under env into vals[0..n) (arrays: 0).  False when
 * out of memory. */
bool expr_eval(expr_ctx *c, expr *const *roots, size_t n, const expr_env *env, expr_u128 *vals);
/* Sorted, distinct variable keys (EXPR_VKEY_*) of roots into *keys
 * (ctg_malloc'd).  False when out of memory. */
bool expr_vars(expr_ctx *c, expr *const *roots, size_t n, uint32_t **keys, size_t *n_keys);

/* ---- printing (expr_print.c) --------------------------------------------- */

/* Appends an SMT-LIB-like rendering of e (in3 = input byte 3, v0 = named
 * variable 0), shared subterms printed again, cut with "..." after
 * max_chars characters (0: no limit).  Out of memory is recorded in out. */
void expr_print(const expr *e, sbuf *out, size_t max_chars);

#endif /* CTG_EXPR_H */
