/*
 * rt_symabi.h - the contract between the symbolic pass (src/instrument/
 * inst_sym*.c) and the symbolic runtime (src/runtime/sym_*.c) linked into
 * prog.sym: the names and signatures of the runtime's functions and globals.
 *
 * Shadow values (SymCC's model, our encoding): every SSA value of prog.sym
 * that may be symbolic has an i32 shadow, the index + 1 of its expression
 * node in the trace (rt_symtrace.h), 0 when the value is concrete.  Widths
 * are in bits; concrete operand values travel zero-extended in a uint64_t
 * (floating-point values as their IEEE bits, pointers as integers).  An
 * operand's shadow, when non-zero, has exactly the operand's width.
 *
 * The pass calls most functions through inlined fast-path helpers that skip
 * the call while every shadow operand is 0 (and, for memory, while
 * CTG_SYM_LIVE is 0: no symbolic byte was ever stored).
 *
 * Dependency-free (C11 + <stdint.h>): included by the runtime.
 */
#ifndef CTG_RT_SYMABI_H
#define CTG_RT_SYMABI_H

#include <stdint.h>

/* ---- globals the runtime defines --------------------------------------- */

/* uint32_t: non-zero once a symbolic byte was stored to memory. */
#define CTG_SYM_LIVE "__ctg_sym_live"
/* uint32_t[CTG_SYM_MAX_ARGS]: shadows of the arguments of the next call. */
#define CTG_SYM_ARGS "__ctg_sym_args"
/* void *: the function the argument slots are meant for; the callee reads
 * the slots only when this is itself, and clears it. */
#define CTG_SYM_ARG_FN "__ctg_sym_arg_fn"
/* uint32_t: shadow of the last return value, valid when CTG_SYM_RET_FN
 * names the function the caller called; the caller clears RET_FN after
 * reading, so an uninstrumented callee yields a concrete result. */
#define CTG_SYM_RET "__ctg_sym_ret"
#define CTG_SYM_RET_FN "__ctg_sym_ret_fn"
#define CTG_SYM_MAX_ARGS 64

/* ---- functions ----------------------------------------------------------- */
/* Expression builders; each returns the result's shadow (0: concrete, or the
 * node array was full and the value is concretised).
 *
 * uint32_t __ctg_sym_bin(uint32_t op, uint32_t sa, uint32_t sb, uint64_t a,
 *                        uint64_t b, uint32_t w)
 *     op: CTG_SOP_ADD .. CTG_SOP_XOR, CTG_SOP_FADD .. CTG_SOP_FDIV.
 * uint32_t __ctg_sym_icmp(uint32_t pred, sa, sb, a, b, w)   LLVM 32..41
 * uint32_t __ctg_sym_fcmp(uint32_t pred, sa, sb, a, b, w)   LLVM 0..15
 * uint32_t __ctg_sym_cast(uint32_t op, uint32_t s, uint32_t from_w, uint32_t to_w)
 *     op: CTG_SOP_ZEXT, SEXT, TRUNC, FNEG, FPEXT, FPTRUNC, SITOFP, UITOFP,
 *     FPTOSI, FPTOUI.
 * uint32_t __ctg_sym_ite(uint32_t sc, uint32_t st, uint32_t sf, uint32_t c,
 *                        uint64_t t, uint64_t f, uint32_t w)
 * uint32_t __ctg_sym_gep_idx(uint32_t acc, uint32_t s, uint64_t idx,
 *                            uint32_t idx_w, uint64_t stride)
 *     acc + sext(idx) * stride at pointer width (acc 0: nothing yet).
 * uint32_t __ctg_sym_gep_end(uint32_t acc, uint32_t sbase, uint64_t base,
 *                            uint64_t result, uint64_t acc_val, uint64_t obj_lo,
 *                            uint64_t obj_size)
 *     The address (sbase or base) + acc + (result - base - acc_val).
 *     [obj_lo, obj_lo + obj_size) is the array the symbolic index selects in
 *     (obj_size 0: unknown), the bounds --sym-arrays=theory reads within.
 *
 * Memory (p is the concrete address; sp the shadow of the address):
 * uint32_t __ctg_sym_load(const void *p, uint32_t size, uint32_t sp, uint32_t w)
 * void     __ctg_sym_store(void *p, uint32_t size, uint32_t s, uint32_t sp, uint64_t v)
 *          (before the store; v is the stored value for scalars, else 0)
 * void     __ctg_sym_memcpy(void *d, const void *s, uint64_t n, uint32_t sn)  (memmove)
 * void     __ctg_sym_memset(void *d, uint32_t sv, uint64_t n, uint32_t sn)
 * void     __ctg_sym_clear(void *p, uint64_t n)             bytes become concrete
 *
 * Decisions:
 * void __ctg_sym_branch(uint32_t s, uint32_t taken, uint32_t site)
 * void __ctg_sym_switch(uint32_t s, uint64_t v, uint32_t site, uint32_t n,
 *                       const uint64_t *cases, uint32_t w)
 * void __ctg_sym_assume(uint32_t s, uint64_t v, uint32_t w)
 * void __ctg_sym_lost(uint32_t s)   a symbolic value was concretised
 * void __ctg_sym_threads(void)      before pthread_create/thrd_create: the
 *                                   rest of the run is concrete (the runtime
 *                                   is not thread-safe)
 *
 * Inputs:
 * uint32_t __ctg_sym_nondet(uint32_t w)     after a __VERIFIER_nondet_* call
 * uint32_t __ctg_sym_fuzz_input(const void *data, uint64_t size, uint32_t w)
 *     at the entry of LLVMFuzzerTestOneInput: data[] become input bytes;
 *     returns the shadow of size (CTG_SYMVAR_LEN).
 *
 * Models of libc (called after the call):
 * uint32_t __ctg_sym_strcmp(const char *a, const char *b, uint32_t w)
 * uint32_t __ctg_sym_strncmp(const char *a, const char *b, uint64_t n, uint32_t sn, uint32_t w)
 * uint32_t __ctg_sym_memcmp(const void *a, const void *b, uint64_t n, uint32_t sn, uint32_t w)
 * uint32_t __ctg_sym_strlen(const char *s, uint32_t w)
 * uint32_t __ctg_sym_strchr(const char *s, uint32_t c, uint32_t sc)
 *          the shadow of the returned pointer (position of c or NULL)
 * void     __ctg_sym_strcpy(char *d, const char *s, uint64_t n)   (before the
 *          call; copies the shadow of s up to its NUL, at most n bytes)
 * void     __ctg_sym_strcat(char *d, const char *s)               (before)
 */
#define CTG_SYMFN_BIN "__ctg_sym_bin"
#define CTG_SYMFN_ICMP "__ctg_sym_icmp"
#define CTG_SYMFN_FCMP "__ctg_sym_fcmp"
#define CTG_SYMFN_CAST "__ctg_sym_cast"
#define CTG_SYMFN_ITE "__ctg_sym_ite"
#define CTG_SYMFN_GEP_IDX "__ctg_sym_gep_idx"
#define CTG_SYMFN_GEP_END "__ctg_sym_gep_end"
#define CTG_SYMFN_LOAD "__ctg_sym_load"
#define CTG_SYMFN_STORE "__ctg_sym_store"
#define CTG_SYMFN_MEMCPY "__ctg_sym_memcpy"
#define CTG_SYMFN_MEMSET "__ctg_sym_memset"
#define CTG_SYMFN_CLEAR "__ctg_sym_clear"
#define CTG_SYMFN_BRANCH "__ctg_sym_branch"
#define CTG_SYMFN_SWITCH "__ctg_sym_switch"
#define CTG_SYMFN_ASSUME "__ctg_sym_assume"
#define CTG_SYMFN_LOST "__ctg_sym_lost"
#define CTG_SYMFN_THREADS "__ctg_sym_threads"
#define CTG_SYMFN_NONDET "__ctg_sym_nondet"
#define CTG_SYMFN_FUZZ "__ctg_sym_fuzz_input"
#define CTG_SYMFN_STRCMP "__ctg_sym_strcmp"
#define CTG_SYMFN_STRNCMP "__ctg_sym_strncmp"
#define CTG_SYMFN_MEMCMP "__ctg_sym_memcmp"
#define CTG_SYMFN_STRLEN "__ctg_sym_strlen"
#define CTG_SYMFN_STRCHR "__ctg_sym_strchr"
#define CTG_SYMFN_STRCPY "__ctg_sym_strcpy"
#define CTG_SYMFN_STRCAT "__ctg_sym_strcat"
#define CTG_SYMFN_STDIN_CHAR "__ctg_sym_stdin_char"
#define CTG_SYMFN_STDIN_BUF "__ctg_sym_stdin_buf"
#define CTG_SYMFN_SCANF "__ctg_sym_scanf"
#define CTG_SYMFN_FSCANF "__ctg_sym_fscanf"

/* uint32_t __ctg_sym_stdin_char(uint64_t ret): after getchar/fgetc/getc on
 * a stdin target's stdin: the result's expression (the input byte at the
 * stream position before the call, zero-extended; 0 at EOF).
 * void __ctg_sym_stdin_buf(void *buf, uint64_t ret, uint64_t size,
 *                          uint32_t kind): after fread (kind
 * CTG_SYM_STDIN_FREAD, ret * size bytes), fgets (FGETS: ret is the
 * pointer, strlen(buf) bytes unless NULL) or read(0, ...) (READ: ret bytes):
 * the bytes in buf become the input bytes they were read from. */
/* int __ctg_sym_scanf(const char *fmt, ...), int __ctg_sym_fscanf(FILE *f,
 * const char *fmt, ...): scanf and fscanf as called on a stdin target's
 * stdin (the pass renames the callee): they run the real one and give the
 * values it converted from stdin their expressions over the input bytes
 * (%d %i %u: the value of the digits, each required to stay a digit; %c
 * %s: the bytes). */
#define CTG_SYM_STDIN_FREAD 2u
#define CTG_SYM_STDIN_FGETS 3u
#define CTG_SYM_STDIN_READ 4u

/* Prefix of the fast-path helpers the pass defines (internal, inlined). */
#define CTG_SYM_HELPER_PREFIX "__ctg_symh_"

/* Default capacities of the trace region when prog.sym runs stand-alone
 * (no executor: reproduce mode). */
#define CTG_SYM_STANDALONE_NODES (1u << 18)
#define CTG_SYM_STANDALONE_PC (1u << 14)

#endif /* CTG_RT_SYMABI_H */
