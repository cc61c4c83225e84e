/*
 * sym_int.h - state and helpers shared by the files of the symbolic runtime
 * (sym_core.c: trace, expressions, decisions, inputs; sym_mem.c: shadow
 * memory and symbolic pointers; sym_libc.c: models of string functions).
 * Internal to the runtime: the pass sees rt_symabi.h only.
 *
 * The runtime hash-conses nothing and simplifies next to nothing: it appends
 * nodes to the trace region (rt_symtrace.h) and lets the tool's expression
 * layer fold them.  A shadow is a node index + 1; 0 is "concrete".  When the
 * node array is full every further value is concretised (CTG_STF_NODES_FULL)
 * and memory stays bounded by the capacities the executor chose.
 */
#ifndef CTG_SYM_INT_H
#define CTG_SYM_INT_H

#include <stddef.h>
#include <stdint.h>

#include "rt_state.h"
#include "rt_symabi.h"
#include "rt_symtrace.h"

/* Flags per node, kept privately next to the trace. */
#define SYM_NF_LEN 0x01u /* depends on the symbolic input length */

typedef struct sym_state {
    void *region;          /* the trace region (shared with the executor)   */
    ctg_symtrace_hdr *hdr;
    ctg_symnode *nodes;
    uint8_t *nflags;       /* hdr->cap_nodes flags, SYM_NF_*                 */
    uint32_t cap_nodes;    /* capacity as mapped (the header is not trusted) */
    uint32_t vpos;         /* input offset of the next value past the end    */
    uint32_t seen;         /* value-log entries already made symbolic        */
    uint32_t last_ptr;     /* last shadow concretised with a PTR entry ...   */
    uint64_t last_ptr_val; /* ... and its value                              */
    int off;               /* threads started: everything stays concrete     */
} sym_state;

extern sym_state sym_g __asm__("__ctg_sym_g");
extern uint32_t __ctg_sym_live;

/* ---- nodes (sym_core.c) ---------------------------------------------------- */

/* Width of the node behind shadow s (s != 0 and valid). */
static inline unsigned sym_width(uint32_t s) { return sym_g.nodes[s - 1].width; }
static inline unsigned sym_op(uint32_t s) { return sym_g.nodes[s - 1].op; }

/* True when s is 0 or a node written in this run with width w. */
static inline int sym_ok(uint32_t s, unsigned w)
{
    return s == 0 ||
           (!sym_g.off && s <= sym_g.hdr->n_nodes && s <= sym_g.cap_nodes && sym_width(s) == w);
}

/* Appends a node with `n` operand shadows (each non-zero), propagating the
 * node flags; 0 when an operand is 0 or the array is full. */
uint32_t sym_mk(uint8_t op, unsigned w, uint32_t aux, unsigned n, uint32_t a, uint32_t b,
                uint32_t c) __asm__("__ctg_sym_mk");
/* A constant of w bits (1..64). */
uint32_t sym_const(unsigned w, uint64_t v) __asm__("__ctg_sym_const");
/* s when symbolic, else the constant v of w bits. */
static inline uint32_t sym_val(uint32_t s, uint64_t v, unsigned w)
{
    return s ? s : sym_const(w, v);
}
/* Bits [lo + w - 1, lo] of s (s itself when that is all of it). */
uint32_t sym_extract(uint32_t s, unsigned lo, unsigned w) __asm__("__ctg_sym_extract");
/* s zero-extended to w bits (s itself when already w bits). */
uint32_t sym_zext(uint32_t s, unsigned w) __asm__("__ctg_sym_zext");
/* hi ++ lo; 0 when either is 0. */
uint32_t sym_concat(uint32_t hi, uint32_t lo) __asm__("__ctg_sym_concat");
/* The 64-bit address expression of a pointer shadow (zext on 32 bits). */
uint32_t sym_addr64(uint32_t sp) __asm__("__ctg_sym_addr64");
/* INPUT node of input byte `off`. */
uint32_t sym_input_byte(uint32_t off) __asm__("__ctg_sym_input_byte");

/* Sets CTG_STF_* bits in the trace header. */
void sym_note(uint32_t flags) __asm__("__ctg_sym_note");
/* Pushes a path-constraint entry for the width-1 node s (skips constants). */
void sym_push(uint32_t s, uint32_t site, uint8_t kind, uint32_t arg, int taken)
    __asm__("__ctg_sym_push");
/* Concretises the symbolic value s to v with a PTR entry (s == v). */
void sym_concretize(uint32_t s, uint64_t v) __asm__("__ctg_sym_concretize");
/* True under --sym-arrays=theory. */
static inline int sym_theory(void) { return (rt_g.flags & CTG_FL_SYM_ARRAYS) != 0; }

/* ---- shadow memory (sym_mem.c) ---------------------------------------------- */

/* Shadow of the byte at a, materialised as an 8-bit node; 0 when concrete. */
uint32_t sym_mem_byte(uintptr_t a) __asm__("__ctg_sym_mem_byte");
/* True when the byte at a has a symbolic shadow (no node is created). */
int sym_mem_sym(uintptr_t a) __asm__("__ctg_sym_mem_sym");
/* Copies the shadow of n bytes (memmove semantics). */
void sym_mem_copy(uintptr_t d, uintptr_t s, uint64_t n) __asm__("__ctg_sym_mem_copy");
/* Makes n bytes concrete. */
void sym_mem_clear(uintptr_t a, uint64_t n) __asm__("__ctg_sym_mem_clear");
/* Makes data[0..n) the input bytes off.. (lazily: nodes are made on load). */
void sym_mem_input(uintptr_t a, uint64_t n, uint32_t off) __asm__("__ctg_sym_mem_input");
/* Remembers [lo, lo + size) as the object the address s points into. */
void sym_mem_bounds(uint32_t s, uint64_t lo, uint64_t size) __asm__("__ctg_sym_mem_bounds");

/* ---- the entry points of rt_symabi.h --------------------------------------- */

uint32_t __ctg_sym_bin(uint32_t op, uint32_t sa, uint32_t sb, uint64_t a, uint64_t b, uint32_t w);
uint32_t __ctg_sym_icmp(uint32_t pred, uint32_t sa, uint32_t sb, uint64_t a, uint64_t b,
                        uint32_t w);
uint32_t __ctg_sym_fcmp(uint32_t pred, uint32_t sa, uint32_t sb, uint64_t a, uint64_t b,
                        uint32_t w);
uint32_t __ctg_sym_cast(uint32_t op, uint32_t s, uint32_t from_w, uint32_t to_w);
uint32_t __ctg_sym_ite(uint32_t sc, uint32_t st, uint32_t sf, uint32_t c, uint64_t t, uint64_t f,
                       uint32_t w);
uint32_t __ctg_sym_gep_idx(uint32_t acc, uint32_t s, uint64_t idx, uint32_t idx_w,
                           uint64_t stride);
uint32_t __ctg_sym_gep_end(uint32_t acc, uint32_t sbase, uint64_t base, uint64_t result,
                           uint64_t acc_val, uint64_t obj_lo, uint64_t obj_size);
uint32_t __ctg_sym_load(const void *p, uint32_t size, uint32_t sp, uint32_t w);
void __ctg_sym_store(void *p, uint32_t size, uint32_t s, uint32_t sp, uint64_t v);
void __ctg_sym_memcpy(void *d, const void *s, uint64_t n, uint32_t sn);
void __ctg_sym_memset(void *d, uint32_t sv, uint64_t n, uint32_t sn);
void __ctg_sym_clear(void *p, uint64_t n);
void __ctg_sym_branch(uint32_t s, uint32_t taken, uint32_t site);
void __ctg_sym_switch(uint32_t s, uint64_t v, uint32_t site, uint32_t n, const uint64_t *cases,
                      uint32_t w);
void __ctg_sym_assume(uint32_t s, uint64_t v, uint32_t w);
void __ctg_sym_lost(uint32_t s);
void __ctg_sym_threads(void);
uint32_t __ctg_sym_nondet(uint32_t w);
uint32_t __ctg_sym_fuzz_input(const void *data, uint64_t size, uint32_t w);
uint32_t __ctg_sym_strcmp(const char *a, const char *b, uint32_t w);
uint32_t __ctg_sym_strncmp(const char *a, const char *b, uint64_t n, uint32_t sn, uint32_t w);
uint32_t __ctg_sym_memcmp(const void *a, const void *b, uint64_t n, uint32_t sn, uint32_t w);
uint32_t __ctg_sym_strlen(const char *s, uint32_t w);
uint32_t __ctg_sym_strchr(const char *s, uint32_t c, uint32_t sc);
void __ctg_sym_strcpy(char *d, const char *s, uint64_t n);
void __ctg_sym_strcat(char *d, const char *s);
uint32_t __ctg_sym_stdin_char(uint64_t ret);
void __ctg_sym_stdin_buf(void *buf, uint64_t ret, uint64_t size, uint32_t kind);
int __ctg_sym_scanf(const char *fmt, ...);
struct _IO_FILE;
int __ctg_sym_fscanf(struct _IO_FILE *f, const char *fmt, ...);

#endif /* CTG_SYM_INT_H */
