/*
 * rt_protocol.h - the contract between the instrumenter, the runtime linked
 * into the program under test (PUT) and the executor.
 *
 * Everything the three parties must agree on lives here and nowhere else:
 * descriptor numbers, environment variables, the shared-memory layout, the
 * names and signatures of the hooks the instrumenter emits, the value types
 * of the input model and the status bits a run reports.
 *
 * This header is included by the runtime, so it must stay free of any
 * dependency on the rest of ctestgen: C11 and <stdint.h> only.
 *
 * Input model (DESIGN.md section 2): the input of a run is a byte string.
 * Every __VERIFIER_nondet_T() call consumes the next sizeof(T) bytes
 * (little endian, the PUT's own width for T).  When the bytes run out the
 * call returns 0 and the run is flagged CTG_ST_RAN_OUT, unless the executor
 * asked for CTG_FL_EXTEND_RANDOM, in which case the runtime draws a biased
 * random value, appends its bytes to the input area and carries on.  Every
 * consumed value is logged (offset, type) so the executor sees the typed
 * decomposition of the input.  A libFuzzer target consumes the whole input
 * as one CTG_T_BYTES value.
 */
#ifndef CTG_RT_PROTOCOL_H
#define CTG_RT_PROTOCOL_H

#include <stdint.h>

/* ---- processes ----------------------------------------------------------- */

/* Descriptors the executor installs in the fork server before exec. */
#define CTG_FD_CTL 220 /* executor -> fork server: 4-byte command        */
#define CTG_FD_ST 221  /* fork server -> executor: hello, pid, status    */
#define CTG_FD_SHM 222 /* memfd holding the shared memory described below */
/* memfd holding the symbolic trace region (rt_symtrace.h), installed only for
 * prog.sym; its header is initialised by the executor (capacities) and its
 * counts reset before every run.  prog.cov never looks at it. */
#define CTG_FD_TRACE 223

/* Environment: set to "1" by the executor when the descriptors above exist. */
#define CTG_ENV_FORKSRV "CTESTGEN_FORKSRV"
/* Environment: path of a raw input file for a stand-alone run (reproduce). */
#define CTG_ENV_INPUT "CTESTGEN_INPUT"

#define CTG_HELLO_MAGIC 0x43544731u /* "CTG1" */
#define CTG_SHM_MAGIC 0x43544753u   /* "CTGS" */
#define CTG_PROTOCOL_VERSION 7u

/* Fork-server commands (executor -> server). */
#define CTG_CMD_RUN 1u
/* libFuzzer targets in persistent mode only: run the inputs of the batch
 * region (ctg_batch_hdr) one after another in the same child, and stop after
 * the first that is "interesting": its run set a status bit other than
 * CTG_ST_STARTED, or hit an edge in a hit-count bucket (ctg_bucket) that
 * the known map does not hold.  The maps and the input area then hold that
 * run as if it had run alone.  Messages as for CTG_CMD_RUN: one pid, one
 * wait status (0 when the child got through the batch or stopped at an
 * interesting input; a death is the status of the input at `pos`). */
#define CTG_CMD_BATCH 2u

/* Hello message, fork server -> executor, sent once before the first command. */
typedef struct ctg_hello {
    uint32_t magic;     /* CTG_HELLO_MAGIC */
    uint32_t version;   /* CTG_PROTOCOL_VERSION */
    uint32_t n_edges;   /* branch edges compiled into the binary */
    uint32_t n_cmp;     /* comparison sites compiled into the binary */
    uint32_t n_errors;  /* error call sites compiled into the binary */
    uint32_t harness;   /* enum ctg_harness */
} ctg_hello;

/* Per run: the server answers CTG_CMD_RUN with the child's pid (int32), then,
 * when the child has ended, with its raw wait status (int32). */

enum ctg_harness {
    CTG_HARNESS_TESTCOMP = 0, /* main() + __VERIFIER_nondet_*            */
    CTG_HARNESS_LIBFUZZER = 1, /* LLVMFuzzerTestOneInput(data, size)     */
    CTG_HARNESS_STDIN = 2     /* main() reading stdin (scanf, getchar,
                                 fread, read(0, ...)), or a file named by
                                 @@ in its arguments: the test's bytes are
                                 the stream (one CTG_T_BYTES value)      */
};

/* Exit code the runtime uses after reach_error(), so a crash of the PUT's own
 * reach_error (abort) and our early exit look the same to the executor: the
 * status bits below are authoritative, the exit code only a fallback. */
#define CTG_EXIT_ERROR 86
#define CTG_EXIT_OOM 87

/* ---- input value types ---------------------------------------------------- */

/* Types of __VERIFIER_nondet_* values.  The numeric values are part of the
 * protocol (they appear in the value log); append only. */
enum ctg_type {
    CTG_T_BOOL = 0,
    CTG_T_CHAR,
    CTG_T_UCHAR,
    CTG_T_SHORT,
    CTG_T_USHORT,
    CTG_T_INT,
    CTG_T_UINT,
    CTG_T_LONG,
    CTG_T_ULONG,
    CTG_T_LONGLONG,
    CTG_T_ULONGLONG,
    CTG_T_FLOAT,
    CTG_T_DOUBLE,
    CTG_T_POINTER,
    CTG_T_SIZE_T,
    CTG_T_BYTES, /* libFuzzer data: the rest of the input, length = value size */
    CTG_T__COUNT
};

/* Decoding rules the runtime applies (readers of the value log must agree):
 * - CTG_T_BOOL is one byte whose low bit is the value; the runtime rewrites
 *   the consumed byte to 0 or 1, so a logged bool byte is canonical.
 * - CTG_T_FLOAT/DOUBLE are the IEEE-754 bit patterns, little endian.
 * - CTG_T_CHAR is signed, CTG_T_UCHAR unsigned; every integer type is
 *   two's complement of the PUT's own width (long, pointer and size_t have
 *   4 bytes under -m32, 8 under -m64); value sizes are in the log.
 * - The Linux kernel aliases of Test-Comp map onto these types: loff_t and
 *   s64 = LONGLONG, sector_t and u64 = ULONGLONG, u32 = UINT, u16 = USHORT,
 *   u8 = UCHAR, s8 = CHAR, pchar = POINTER, pthread_t = ULONG.
 * - When a value does not fit in the remaining input (and the input is not
 *   extended), the run has run out for good: input_len is cut to input_pos,
 *   so no later, smaller value takes the leftover bytes and the log replays
 *   in call order. */

/* ---- status bits (runtime -> executor) ------------------------------------ */

#define CTG_ST_ERROR 0x01u       /* reach_error / __VERIFIER_error called      */
#define CTG_ST_ASSUME 0x02u      /* __VERIFIER_assume(false): run discarded    */
#define CTG_ST_OOM 0x04u         /* an allocation failed                       */
#define CTG_ST_RAN_OUT 0x08u     /* input exhausted, zeros were returned       */
#define CTG_ST_STARTED 0x10u     /* the harness was entered                    */
#define CTG_ST_STACK_OVF 0x20u   /* SIGSEGV on the guard page of the stack     */
#define CTG_ST_LOG_FULL 0x40u    /* value log overflowed, test not exact       */
#define CTG_ST_INPUT_FULL 0x80u  /* random extension hit the input capacity    */
#define CTG_ST_EXT_LIMIT 0x100u  /* extension hit its bound (extend_max): the
                                    run ended there, as "ran out"           */
#define CTG_ST_SANITIZER 0x200u  /* a sanitizer of prog.san-LIST reported an
                                    error (crash_site: its place) and ended
                                    the run                               */

/* ---- request flags (executor -> runtime) ---------------------------------- */

#define CTG_FL_DIST 0x01u          /* record branch distances                  */
#define CTG_FL_CMPLOG 0x02u        /* record comparison operands               */
#define CTG_FL_EXTEND_RANDOM 0x04u /* extend exhausted input with random values */
#define CTG_FL_SYM_ARRAYS 0x08u    /* prog.sym: symbolic pointers are read and
                                      written through SMT array select/store
                                      (default: concretised with a PTR entry) */
#define CTG_FL_EXTEND_ZERO 0x10u   /* extend exhausted input with zero values
                                      (concolic: a value past the end is 0 and
                                      symbolic, and the test records it)     */
#define CTG_FL_EXTEND_ANY (CTG_FL_EXTEND_RANDOM | CTG_FL_EXTEND_ZERO)
#define CTG_FL_MALLOC_NULL 0x20u   /* a failed malloc/calloc/realloc returns
                                      NULL (errno ENOMEM) to the program
                                      instead of ending the run as OOM       */

/* ---- shared memory -------------------------------------------------------- */

#define CTG_MAX_INPUT (1u << 24)  /* bytes of input a run can consume     */
#define CTG_MAX_VALUES (1u << 24) /* typed values logged per run: one per
                                     input byte, so the log never fills
                                     before the input does (t0113)      */

/* Header at offset 0 of the shared memory.  Fields marked (E) are written by
 * the executor before a run, (R) by the runtime during it. */
typedef struct ctg_shm_hdr {
    uint32_t magic;      /* (E) CTG_SHM_MAGIC                               */
    uint32_t version;    /* (E) CTG_PROTOCOL_VERSION                        */
    uint32_t n_edges;    /* (E) capacity of the edge arrays                 */
    uint32_t n_cmp;      /* (E) capacity of the cmplog array                */
    uint32_t flags;      /* (E) CTG_FL_*                                    */
    uint32_t input_len;  /* (E) bytes of input; (R) grows under EXTEND      */
    uint64_t rng_state;  /* (E) seed for CTG_FL_EXTEND_RANDOM               */
    uint32_t status;     /* (R) CTG_ST_*, cleared by the executor           */
    uint32_t error_site; /* (R) error site id when CTG_ST_ERROR             */
    uint32_t n_values;   /* (R) values consumed                             */
    uint32_t input_pos;  /* (R) bytes consumed                              */
    uint64_t oom_size;   /* (R) size of the failed allocation               */
    uint64_t crash_site; /* (R) where a fatal signal hit, cleared by the
                            executor; 0 = unknown (see below)               */
    uint32_t extend_max; /* (E) bytes CTG_FL_EXTEND_* may add past the given
                            input; 0: up to CTG_MAX_INPUT.  When an extended
                            run needs more it ends there (exit 0, RAN_OUT |
                            EXT_LIMIT), as TestCov ends a test whose values
                            run out: a program reading input in an endless
                            loop ends instead of hanging on zeros */
    uint32_t pad0;
} ctg_shm_hdr;

/* Clears what the runtime reports about a run (the (R) fields), before each
 * run: the executor for a run it sends, the runtime between the inputs of a
 * batch. */
static inline void ctg_hdr_clear_run(ctg_shm_hdr *h)
{
    h->status = 0;
    h->error_site = 0;
    h->n_values = 0;
    h->input_pos = 0;
    h->oom_size = 0;
    h->crash_site = 0;
}

/* crash_site: the runtime's handlers of SIGSEGV, SIGBUS, SIGFPE, SIGILL and
 * SIGABRT hash the first (up to 3) return addresses inside the program's own
 * executable, taken as offsets from its start, so the same crash has the same
 * site in every run, whatever the address-space layout.  Frames of the
 * handler and of libc (signal trampoline, raise, abort, __assert_fail,
 * strlen ...) are skipped.  A stack overflow has CTG_CRASH_SITE_STACK_OVF.
 * 0 when no frame of the executable was found (e.g. a static link, where libc
 * is part of the executable) or the signal was sent by another process. */
#define CTG_CRASH_SITE_STACK_OVF 0x5354414b4f564652ull /* "STAKOVFR" */

#define CTG_SHM_HDR_SIZE 4096u

/* One entry of the value log: which bytes of the input a value came from. */
typedef struct ctg_value_rec {
    uint32_t offset; /* byte offset in the input area */
    uint16_t type;   /* enum ctg_type */
    uint16_t size;   /* bytes (for CTG_T_BYTES: low 16 bits only, see input_len) */
} ctg_value_rec;

/* Operands of one comparison site, last values seen (CTG_FL_CMPLOG).  For a
 * string compare (strcmp/strncmp/memcmp) bits is CTG_CMP_STRING | 8 * m and
 * a, b hold the first m (1..8) compared bytes of each operand, in memory
 * order from the lowest byte (the longer string's length decides m; the
 * shorter one is padded with its NUL and zeros). */
typedef struct ctg_cmp_rec {
    uint64_t a, b;
    uint32_t hits;
    uint32_t bits; /* operand width; 0 = never executed */
} ctg_cmp_rec;

#define CTG_CMP_STRING 0x10000u
/* Added by the instrumenter to the bits argument of __ctg_cmp when the
 * operands are pointers: their values are addresses, which differ from
 * process to process (ASLR), so CMPLOG does not log them (a logged address
 * would become an input-to-state token and make runs irreproducible). */
#define CTG_CMP_PTR 0x20000u
/* Added to the bits argument of __ctg_cmp (and to the cond argument of
 * __ctg_br as CTG_BR_COUNT) in a huge function (INST_LEAN_FUNCTION): the
 * branch has no inline counter there and the hook counts its taken edge,
 * base for true, base + 1 for false, as the inline counter would
 * (saturating).  Ten instructions less per branch make -O0 code generation
 * of generated state machines 2-3x faster. */
#define CTG_CMP_COUNT 0x40000u
#define CTG_BR_COUNT 2u

/* AFL's hit-count bucket bit of an edge counter (0 for 0): 1, 2, 3, 4-7,
 * 8-15, 16-31, 32-127, 128+.  The novelty test of CTG_CMD_BATCH and the
 * fuzzer's use it, so both classify a run alike. */
static inline uint8_t ctg_bucket(uint8_t n)
{
    if (n <= 2)
        return n;
    if (n == 3)
        return 4;
    if (n <= 7)
        return 8;
    if (n <= 15)
        return 16;
    if (n <= 31)
        return 32;
    return n <= 127 ? 64 : 128;
}

/* Persistent mode (libFuzzer targets, rt_main.c): one forked child runs
 * inputs until it has run CTG_PERSIST_MAX, or until a check (every
 * CTG_PERSIST_CHECK inputs) finds it worn: its resident memory grew by
 * more than CTG_PERSIST_GROW_MB, or its lowest free descriptor by more
 * than CTG_PERSIST_GROW_FDS, since its first input (a leak per run). */
#define CTG_PERSIST_MAX 20000u
#define CTG_PERSIST_CHECK 1000u
#define CTG_PERSIST_GROW_MB 64u
#define CTG_PERSIST_GROW_FDS 32u

#define CTG_BATCH_MAX 256u          /* inputs of one batch                  */
#define CTG_BATCH_BYTES (1u << 20)  /* bytes of the inputs of one batch     */
#define CTG_WATCH_MAX 64u           /* watched comparison sites of a batch  */
#define CTG_WATCH_REC 4u            /* broken watched sites kept per input  */

/* Head of the batch region (CTG_CMD_BATCH); the input bytes follow it. */
typedef struct ctg_batch_hdr {
    uint32_t n;        /* (E) inputs, at most CTG_BATCH_MAX                 */
    uint32_t pos;      /* (R) the input running (or the last one run)       */
    uint32_t stop;     /* (R) the interesting input that ended the batch;
                          n when every input ran and none was             */
    uint32_t done;     /* (R) 1 once the child got through the batch (to its
                          end or to `stop`); 0 when it died in input pos  */
    uint64_t start_ns; /* (R) CLOCK_MONOTONIC start of the input at pos     */
    uint64_t last_ns;  /* (R) run time of the input at stop                 */
    uint64_t max_ns;   /* (R) longest run time of the other inputs          */
    uint32_t off[CTG_BATCH_MAX + 2]; /* (E) input i is bytes off[i] ..
                          off[i + 1] of the data after this header (one
                          spare entry: the size is a multiple of 8 under
                          -m32 and -m64 alike)                            */
    /* Watched comparison sites (the fuzzer's repair of derived values):
     * input i with log[i] set runs with CTG_FL_CMPLOG, and the watched
     * sites it executed whose last operands differ are copied, in the
     * order of watch[], to broken[i] (at most CTG_WATCH_REC). */
    uint32_t n_watch;  /* (E) sites in watch[], at most CTG_WATCH_MAX        */
    uint32_t pad0;
    uint32_t watch[CTG_WATCH_MAX];             /* (E) comparison site ids  */
    uint8_t log[CTG_BATCH_MAX];                /* (E) per input: 1 = log    */
    uint8_t n_broken[CTG_BATCH_MAX];           /* (R) per logged input      */
    ctg_cmp_rec broken[CTG_BATCH_MAX][CTG_WATCH_REC]; /* (R)                */
} ctg_batch_hdr;

/* Offsets of the regions; every region is 64-byte aligned. */
typedef struct ctg_shm_layout {
    uint64_t input;  /* uint8_t[CTG_MAX_INPUT]                   */
    uint64_t values; /* ctg_value_rec[CTG_MAX_VALUES]            */
    uint64_t cov;    /* uint8_t[ctg_cov_len]: n_edges hit counters,
                        a spare one, then n_cmp feature counters
                        (CTG_FEAT_AT)                             */
    uint64_t dist;   /* double[n_edges]: 0 = not recorded, else
                        1 + smallest raw branch distance seen     */
    uint64_t cmp;    /* ctg_cmp_rec[n_cmp]                        */
    uint64_t known;  /* uint8_t[ctg_cov_len]: (E) bucket bits that
                        are not news for CTG_CMD_BATCH             */
    uint64_t batch;  /* ctg_batch_hdr, then CTG_BATCH_BYTES       */
    uint64_t size;   /* total bytes                               */
} ctg_shm_layout;

static inline uint64_t ctg_align64(uint64_t x) { return (x + 63u) & ~(uint64_t)63u; }

/* Length of the coverage map: the edges, a spare counter, then one
 * feature counter per comparison site.  A feature is coverage that is not
 * an edge: the fuzzer keeps an input that sets a new one, and nothing
 * else reads them.  Comparison site s's feature (CTG_FEAT_AT) counts the
 * string compares of s whose two operands were both non-empty: a
 * compared string that came from the input, ready for input-to-state
 * (an INI section name before a key line, which adds no edge). */
static inline uint64_t ctg_cov_len(uint32_t n_edges, uint32_t n_cmp)
{
    return (uint64_t)n_edges + 1u + n_cmp;
}
#define CTG_FEAT_AT(n_edges, site) ((uint64_t)(n_edges) + 1u + (site))

/* Layout of the shared memory for a binary with the given counts. */
static inline ctg_shm_layout ctg_shm_layout_for(uint32_t n_edges, uint32_t n_cmp)
{
    ctg_shm_layout l;
    l.input = CTG_SHM_HDR_SIZE;
    l.values = ctg_align64(l.input + CTG_MAX_INPUT);
    l.cov = ctg_align64(l.values + (uint64_t)CTG_MAX_VALUES * sizeof(ctg_value_rec));
    l.dist = ctg_align64(l.cov + ctg_cov_len(n_edges, n_cmp));
    l.cmp = ctg_align64(l.dist + (uint64_t)(n_edges + 1u) * sizeof(double));
    l.known = ctg_align64(l.cmp + (uint64_t)(n_cmp + 1u) * sizeof(ctg_cmp_rec));
    l.batch = ctg_align64(l.known + ctg_cov_len(n_edges, n_cmp));
    l.size = ctg_align64(l.batch + sizeof(ctg_batch_hdr) + CTG_BATCH_BYTES);
    return l;
}

/* ---- hooks emitted by the instrumenter ------------------------------------ */
/*
 * Edge ids: every conditional branch owns consecutive edge ids; for `br i1`
 * the true edge is `base` and the false edge `base + 1`; for `switch` case k
 * (in IR order) is `base + k` and the default edge `base + ncases`.
 *
 * Coverage of `br` is inlined by the instrumenter:
 *     __ctg_cov_ptr[base + (cond ? 0 : 1)] += 1
 * where __ctg_cov_ptr points at the shared map (or a private dummy before the
 * runtime starts).  The other hooks are calls.  The inline increment
 * saturates at 255 (llvm.uadd.sat), so a hit edge never reads 0; the switch
 * hook should count the same way.
 *
 * Comparison sites: cmp_site (__ctg_cmp, __ctg_fcmp) and str_site (the
 * string wrappers, __ctg_cmp_str) share one id space 0 .. __ctg_n_cmp - 1,
 * so the runtime can keep per-site state (cmplog, the last character
 * distance of a string compare) in arrays of __ctg_n_cmp entries.
 */
#define CTG_SYM_COV_PTR "__ctg_cov_ptr"     /* uint8_t *                           */
#define CTG_SYM_N_EDGES "__ctg_n_edges"     /* const uint32_t, defined by the pass */
#define CTG_SYM_N_CMP "__ctg_n_cmp"         /* const uint32_t, defined by the pass */
#define CTG_SYM_N_ERRORS "__ctg_n_errors"   /* const uint32_t, defined by the pass */
#define CTG_SYM_USER_MAIN "__ctg_user_main" /* the PUT's renamed main              */
#define CTG_SYM_RUN_FLAGS "__ctg_rt_g"      /* the runtime's state, which begins
                                               with the run's CTG_FL_* (uint32_t):
                                               the guarded hooks read it      */
#define CTG_SYM_HARNESS "__ctg_harness"     /* const uint32_t enum ctg_harness,
                                               defined by the pass           */

/* void __ctg_cmp(uint32_t base, uint32_t pred, uint64_t a, uint64_t b,
 *                uint32_t bits, uint32_t cmp_site)
 * Integer comparison feeding `br` with edges base, base+1.  pred is the LLVM
 * integer predicate number (LLVMIntEQ = 32 ... LLVMIntSLE = 41); a and b are
 * zero-extended to 64 bits, bits is their width (1..64). */
#define CTG_HOOK_CMP "__ctg_cmp"
/* void __ctg_fcmp(uint32_t base, uint32_t pred, double a, double b, uint32_t cmp_site)
 * pred is the LLVM real predicate number (LLVMRealOEQ = 1 ... LLVMRealUNE = 14). */
#define CTG_HOOK_FCMP "__ctg_fcmp"
/* void __ctg_br_dist(uint32_t base, uint32_t cond)
 * A branch whose condition is not a comparison: distance 1 to the other side. */
#define CTG_HOOK_BR "__ctg_br"
/* void __ctg_switch(uint32_t base, uint64_t v, uint32_t ncases,
 *                   const uint64_t *cases, uint32_t bits)
 * Counts the taken edge and records a distance per case: |v - case| on the
 * sign-extended values; default edge: 0 when no case matches, else 1. */
#define CTG_HOOK_SWITCH "__ctg_switch"
/* void __ctg_error(uint32_t site): called right before a call to reach_error
 * or __VERIFIER_error; records the site and ends the run. */
#define CTG_HOOK_ERROR "__ctg_error"
/* int __ctg_strcmp(uint32_t site, const char *a, const char *b)
 * int __ctg_strncmp(uint32_t site, const char *a, const char *b, size_t n)
 * int __ctg_memcmp(uint32_t site, const void *a, const void *b, size_t n)
 * Replace the libc calls: same result, and remember the character distance of
 * the call (0 when equal) for the comparison that consumes the result. */
#define CTG_HOOK_STRCMP "__ctg_strcmp"
#define CTG_HOOK_STRNCMP "__ctg_strncmp"
#define CTG_HOOK_MEMCMP "__ctg_memcmp"
/* void __ctg_cmp_str(uint32_t base, uint32_t pred, int64_t result, int64_t rhs,
 *                    uint32_t str_site)
 * Comparison of a string-compare result against a constant: equality
 * distances come from the character distance of str_site. */
#define CTG_HOOK_CMP_STR "__ctg_cmp_str"
/* void __ctg_cmp32(uint32_t base, uint32_t pred, uint32_t a, uint32_t b,
 *                  uint32_t bits, uint32_t cmp_site)
 * void __ctg_switch32(uint32_t base, int32_t v, uint32_t ncases,
 *                     const uint64_t *cases, uint32_t bits)
 * void __ctg_cmp_str32(uint32_t base, uint32_t pred, int32_t result,
 *                      int32_t rhs, uint32_t str_site)
 * The three above for operands of at most 32 bits (pointers of a 32-bit
 * target): a and b zero-extended, v, result and rhs sign-extended, as
 * the 64-bit hooks receive them.  i386's fast instruction selector cannot
 * pass an i64, so one 64-bit hook argument sent its whole block to the
 * slow selector when an ILP32 program was compiled at -O0. */
#define CTG_HOOK_CMP32 "__ctg_cmp32"
#define CTG_HOOK_SWITCH32 "__ctg_switch32"
#define CTG_HOOK_CMP_STR32 "__ctg_cmp_str32"
/* On x86-64 a guarded call (made only in runs with CTG_FL_DIST or
 * CTG_FL_CMPLOG) of __ctg_cmp, __ctg_cmp32, __ctg_fcmp, __ctg_br,
 * __ctg_cmp_str or __ctg_cmp_str32 goes to the same name with this suffix:
 * the same hook with the preserve_most calling convention. */
#define CTG_HOOK_PM_SUFFIX "_pm"
/* void __ctg_cmpc(uint32_t k, uint64_t a)
 * void __ctg_cmpc32(uint32_t k, uint32_t a)
 * __ctg_cmp(c->base, c->pred, a, c->b, c->bits, c->site) for c =
 * &__ctg_cmpc_tab[k], a table the pass defines: the counting compare of a
 * lean function (CTG_CMP_COUNT in bits) with a constant right operand, in
 * two arguments instead of six (a generated state machine has thousands:
 * the -O0 code generator's time went with them). */
#define CTG_HOOK_CMPC "__ctg_cmpc"
#define CTG_HOOK_CMPC32 "__ctg_cmpc32"
#define CTG_SYM_CMPC_TAB "__ctg_cmpc_tab"
typedef struct ctg_cmpc {
    uint64_t b;                     /* the constant, zero-extended   */
    uint32_t base, pred, bits, site; /* as __ctg_cmp's arguments     */
} ctg_cmpc;
/* Notes on the hooks as the runtime implements them:
 * - __ctg_cmp on == and != uses the wrap-around distance modulo 2^bits (no
 *   signedness); orderings use the predicate's signedness.
 * - CTG_FL_CMPLOG: __ctg_fcmp logs the operands' double bit patterns with
 *   bits = 64.
 * - __ctg_switch counts like the inlined `br` counters: saturating at 255,
 *   so an edge hit 256 times never reads as "not covered".
 * - String compares: the character distance over the first m compared
 *   positions is 0 when equal, else (m - i) + |a[i] - b[i]| / 256 at the
 *   first difference i; it shrinks with every further matching leading
 *   character.  The runtime keeps it per call site (a small direct-mapped
 *   cache), so __ctg_cmp_str must follow its compare call without another
 *   call of a site with the same number modulo 256 in between. */

/* Replacements the instrumenter redirects calls to, so the PUT cannot escape
 * the executor's control: pid_t __ctg_fork(void) fails with EAGAIN; the
 * allocation wrappers flag CTG_ST_OOM and end the run when the allocator
 * fails. */
#define CTG_HOOK_FORK "__ctg_fork"
#define CTG_HOOK_MALLOC "__ctg_malloc"
#define CTG_HOOK_CALLOC "__ctg_calloc"
#define CTG_HOOK_REALLOC "__ctg_realloc"

#endif /* CTG_RT_PROTOCOL_H */
