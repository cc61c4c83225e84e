/*
 * rt_symtrace.h - the symbolic trace of one concolic run: how the symbolic
 * runtime inside the program under test (prog.sym) hands the expressions it
 * built and the path constraint it collected to the tool, which reads the
 * region back with expr_trace_read (src/expr/expr_trace.h).
 *
 * Dependency-free (C11 + <stdint.h>): it is included by the runtime.  The
 * writer below is header-only so the runtime and the unit tests share it.
 *
 * Region layout (all offsets relative to the start of the region, which the
 * executor places in shared memory; see ctg_symtrace_size):
 *
 *   [0, 64)                 ctg_symtrace_hdr
 *   [64, ...)               ctg_symnode nodes[cap_nodes]
 *   [pc_offset, ...)        ctg_sympc   pc[cap_pc]
 *
 * Nodes form a DAG in topological order: every operand index of node i is
 * smaller than i, so the writer appends a node after its operands and the
 * reader can rebuild the DAG in one forward pass.  A SymCC-style runtime can
 * therefore use (node index + 1) as the shadow value of an SSA value
 * (0 = concrete).
 *
 * Semantics of the operations follow LLVM, with SMT-LIB values where LLVM
 * says "poison" or C says "undefined": division by zero (udiv x 0 = all
 * ones, urem x 0 = x, sdiv x 0 = x<0 ? 1 : -1, srem x 0 = x), shifts by the
 * width or more (shl/lshr -> 0, ashr -> sign fill), sdiv INT_MIN -1 = INT_MIN.
 * Floating-point values are bit-vectors holding the IEEE bits (width 32 =
 * float, 64 = double); arithmetic rounds to nearest even; fptosi/fptoui
 * truncate toward zero and give 0 for NaN and out-of-range values.
 *
 * Path constraint: one entry per decision, in execution order.  The entry
 * asserts `taken ? cond : !cond`.  Kinds:
 *   BRANCH  conditional `br`; site = edge base id (rt_protocol.h): the taken
 *           edge is site + (taken ? 0 : 1).  Negated by the search.
 *   SWITCH  one entry per case of a `switch`, every time, in case order:
 *           cond = (v == case_k), arg = k, taken = (case k was taken); the
 *           edge of case k is site + k.  Negated by the search.
 *   PTR     a symbolic pointer/index concretised: cond = (p == value),
 *           taken = 1.  Kept in queries, never negated.
 *   LENGTH  a decision on a symbolic length (bounds check, size compare);
 *           negated like a branch.
 *   ASSUME  __VERIFIER_assume(cond) held (taken = 1).  Never negated.
 */
#ifndef CTG_RT_SYMTRACE_H
#define CTG_RT_SYMTRACE_H

#include <stdint.h>

#define CTG_SYMTRACE_MAGIC 0x54535443u /* "CTST" */
#define CTG_SYMTRACE_VERSION 1u
#define CTG_SYMTRACE_HDR_SIZE 64u
#define CTG_SYM_NONE 0xffffffffu /* "no node" / "no site" */

/* Named variable ids (CTG_SOP_VAR).  Append only. */
#define CTG_SYMVAR_LEN 0u /* length of the libFuzzer input / of a string argument */

/* Operations.  The numbers are part of the protocol: append only.
 * Columns: operands (a, b, c), width of the result, use of aux/imm. */
enum ctg_sop {
    CTG_SOP_CONST = 0, /* -, w 1..128; value: imm (low 64), a | b << 32 (high 64) */
    CTG_SOP_INPUT,     /* -, w 8; aux = byte index in the test input           */
    CTG_SOP_VAR,       /* -, w 1..64; aux = variable id (CTG_SYMVAR_*)         */
    CTG_SOP_NOT,       /* a; bitwise not (boolean not at w 1)                  */
    CTG_SOP_NEG,       /* a; two's complement negation                         */
    CTG_SOP_ZEXT,      /* a; w > width(a)                                      */
    CTG_SOP_SEXT,      /* a; w > width(a)                                      */
    CTG_SOP_TRUNC,     /* a; w < width(a): low w bits                          */
    CTG_SOP_EXTRACT,   /* a; bits [aux + w - 1, aux] of a                      */
    CTG_SOP_ADD,       /* a b; same width                                      */
    CTG_SOP_SUB,
    CTG_SOP_MUL,
    CTG_SOP_UDIV,
    CTG_SOP_SDIV,
    CTG_SOP_UREM,
    CTG_SOP_SREM,
    CTG_SOP_SHL,
    CTG_SOP_LSHR,
    CTG_SOP_ASHR,
    CTG_SOP_AND, /* also boolean and at w 1 */
    CTG_SOP_OR,  /* also boolean or at w 1  */
    CTG_SOP_XOR,
    CTG_SOP_CONCAT, /* a b; w = width(a) + width(b), a is the high part    */
    CTG_SOP_ICMP,   /* a b; w 1; aux = LLVM integer predicate (32 eq .. 41 sle) */
    CTG_SOP_ITE,    /* a b c; a has w 1; b, c have width w                  */
    CTG_SOP_FADD,   /* a b; w 32 | 64                                       */
    CTG_SOP_FSUB,
    CTG_SOP_FMUL,
    CTG_SOP_FDIV,
    CTG_SOP_FNEG,   /* a                                                    */
    CTG_SOP_FCMP,   /* a b; w 1; aux = LLVM real predicate (0 false .. 15 true) */
    CTG_SOP_FPEXT,  /* a (w 32); w 64                                       */
    CTG_SOP_FPTRUNC,/* a (w 64); w 32                                       */
    CTG_SOP_SITOFP, /* a (integer); w 32 | 64                               */
    CTG_SOP_UITOFP,
    CTG_SOP_FPTOSI, /* a (32 | 64); w integer width                         */
    CTG_SOP_FPTOUI,
    CTG_SOP_ARR_CONST, /* -, w 0 (byte array, 64-bit index); aux = every cell */
    CTG_SOP_STORE,     /* a (array) b (w 64 index) c (w 8 value); w 0        */
    CTG_SOP_SELECT,    /* a (array) b (w 64 index); w 8                      */
    CTG_SOP__COUNT
};

/* Kinds of path-constraint entries (see the file comment). */
enum ctg_spc_kind {
    CTG_SPC_BRANCH = 0,
    CTG_SPC_SWITCH = 1,
    CTG_SPC_PTR = 2,
    CTG_SPC_LENGTH = 3,
    CTG_SPC_ASSUME = 4,
    CTG_SPC__COUNT
};

/* Flags the runtime sets in hdr.flags. */
#define CTG_STF_NODES_FULL 0x01u  /* node array full: later values concretised   */
#define CTG_STF_PC_FULL 0x02u     /* path constraint truncated                    */
#define CTG_STF_CONCRETIZED 0x04u /* an unsupported operation was concretised     */

typedef struct ctg_symtrace_hdr {
    uint32_t magic;     /* CTG_SYMTRACE_MAGIC                                */
    uint32_t version;   /* CTG_SYMTRACE_VERSION                              */
    uint32_t cap_nodes; /* capacity of the node array (set by the executor)  */
    uint32_t cap_pc;    /* capacity of the pc array (set by the executor)    */
    uint32_t n_nodes;   /* nodes written by the runtime                      */
    uint32_t n_pc;      /* pc entries written by the runtime                 */
    uint32_t flags;     /* CTG_STF_*                                         */
    uint32_t input_len; /* input bytes the run had (informative)             */
    uint32_t sym_from;  /* input bytes before this offset stay concrete: a
                           window on the end of a long input (set by the
                           executor after ctg_symtrace_init)                 */
    uint32_t lost_at;   /* the first input offset whose symbolic value or
                           decisions the trace lost (nodes or pc full);
                           CTG_SYM_NONE: none                                */
    uint32_t read_end;  /* one past the highest input offset made symbolic   */
} ctg_symtrace_hdr;

typedef struct ctg_symnode {
    uint8_t op;       /* enum ctg_sop                                       */
    uint8_t width;    /* result width in bits; 0 for arrays                 */
    uint16_t reserved;
    uint32_t aux;     /* per op, see enum ctg_sop                           */
    uint32_t a, b, c; /* operand node indices (< own index)                 */
    uint32_t reserved2;
    uint64_t imm;     /* CONST: low 64 bits of the value                    */
} ctg_symnode;        /* 32 bytes */

typedef struct ctg_sympc {
    uint32_t node; /* condition: a node of width 1                         */
    uint32_t site; /* edge base id of the branch/switch, or CTG_SYM_NONE    */
    uint32_t arg;  /* SWITCH: case index k; 0 otherwise                     */
    uint8_t kind;  /* enum ctg_spc_kind                                     */
    uint8_t taken; /* 1: cond was true in this run                          */
    uint16_t reserved;
} ctg_sympc;       /* 16 bytes */

static inline uint64_t ctg_symtrace_pc_offset(uint32_t cap_nodes)
{
    uint64_t end = CTG_SYMTRACE_HDR_SIZE + (uint64_t)cap_nodes * sizeof(ctg_symnode);
    return (end + 63u) & ~(uint64_t)63u;
}

/* Bytes a region with these capacities occupies. */
static inline uint64_t ctg_symtrace_size(uint32_t cap_nodes, uint32_t cap_pc)
{
    return ctg_symtrace_pc_offset(cap_nodes) + (uint64_t)cap_pc * sizeof(ctg_sympc);
}

/* ---- writer (runtime side and tests) ----------------------------------- */

/* Prepares an empty trace in `region` (ctg_symtrace_size bytes). */
static inline void ctg_symtrace_init(void *region, uint32_t cap_nodes, uint32_t cap_pc)
{
    ctg_symtrace_hdr *h = (ctg_symtrace_hdr *)region;
    h->magic = CTG_SYMTRACE_MAGIC;
    h->version = CTG_SYMTRACE_VERSION;
    h->cap_nodes = cap_nodes;
    h->cap_pc = cap_pc;
    h->n_nodes = 0;
    h->n_pc = 0;
    h->flags = 0;
    h->input_len = 0;
    h->sym_from = 0;
    h->lost_at = CTG_SYM_NONE;
    h->read_end = 0;
}

static inline ctg_symnode *ctg_symtrace_nodes(void *region)
{
    return (ctg_symnode *)((uint8_t *)region + CTG_SYMTRACE_HDR_SIZE);
}

static inline ctg_sympc *ctg_symtrace_pcs(void *region)
{
    ctg_symtrace_hdr *h = (ctg_symtrace_hdr *)region;
    return (ctg_sympc *)((uint8_t *)region + ctg_symtrace_pc_offset(h->cap_nodes));
}

/* Appends a node (unused operands: 0); returns its index, or CTG_SYM_NONE
 * (and sets CTG_STF_NODES_FULL) when the array is full. */
static inline uint32_t ctg_symtrace_node(void *region, uint8_t op, uint8_t width, uint32_t aux,
                                         uint32_t a, uint32_t b, uint32_t c, uint64_t imm)
{
    ctg_symtrace_hdr *h = (ctg_symtrace_hdr *)region;
    if (h->n_nodes >= h->cap_nodes) {
        h->flags |= CTG_STF_NODES_FULL;
        return CTG_SYM_NONE;
    }
    ctg_symnode *n = &ctg_symtrace_nodes(region)[h->n_nodes];
    n->op = op;
    n->width = width;
    n->reserved = 0;
    n->aux = aux;
    n->a = a;
    n->b = b;
    n->c = c;
    n->reserved2 = 0;
    n->imm = imm;
    return h->n_nodes++;
}

/* Appends a constant of `width` bits (hi: bits 64..127). */
static inline uint32_t ctg_symtrace_const(void *region, uint8_t width, uint64_t lo, uint64_t hi)
{
    return ctg_symtrace_node(region, CTG_SOP_CONST, width, 0, (uint32_t)hi,
                             (uint32_t)(hi >> 32), 0, lo);
}

/* Appends a path-constraint entry; returns 0, or -1 (and sets
 * CTG_STF_PC_FULL) when the array is full. */
static inline int ctg_symtrace_push(void *region, uint32_t node, uint32_t site, uint8_t kind,
                                    uint32_t arg, int taken)
{
    ctg_symtrace_hdr *h = (ctg_symtrace_hdr *)region;
    if (h->n_pc >= h->cap_pc || node == CTG_SYM_NONE) {
        h->flags |= CTG_STF_PC_FULL;
        if (h->read_end < h->lost_at) /* decisions on what was read are lost */
            h->lost_at = h->read_end;
        return -1;
    }
    ctg_sympc *p = &ctg_symtrace_pcs(region)[h->n_pc++];
    p->node = node;
    p->site = site;
    p->arg = arg;
    p->kind = kind;
    p->taken = taken ? 1u : 0u;
    p->reserved = 0;
    return 0;
}

#endif /* CTG_RT_SYMTRACE_H */
