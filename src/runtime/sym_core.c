/*
 * sym_core.c - the core of the symbolic runtime linked into prog.sym
 * (SymCC's execution model, see rt_symabi.h): the trace region, node
 * construction, the expression builders the pass calls, the decisions that
 * make the path constraint, and the symbolic inputs.
 *
 * The trace region is the memfd the executor installs on CTG_FD_TRACE,
 * mapped once in the fork server by a constructor, so every child writes
 * into the same shared pages; the executor resets the counts before a run.
 * Without it (prog.sym run by hand) a private region is used.
 *
 * Every builder validates its operands (widths, indices) before appending a
 * node: a trace the tool cannot read would lose the whole run, so anything
 * unexpected is concretised instead and flagged CTG_STF_CONCRETIZED.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_guard.h"
#include "sym_int.h"

sym_state sym_g;
uint32_t __ctg_sym_live;
uint32_t __ctg_sym_args[CTG_SYM_MAX_ARGS];
void *__ctg_sym_arg_fn;
uint32_t __ctg_sym_ret;
void *__ctg_sym_ret_fn;

/* ==== the trace region ====================================================== */

/* Private, zeroed memory for the runtime's own tables; NULL on failure. */
static void *sym_map(size_t n)
{
    void *m = ctg_map_guarded(n, MAP_PRIVATE | MAP_ANONYMOUS, -1);
    return m == MAP_FAILED ? NULL : m;
}

/* Maps the executor's trace region; 0 when there is none or it is bad. */
static int sym_attach(void)
{
    const char *fs = getenv(CTG_ENV_FORKSRV);
    struct stat st;
    if (!fs || strcmp(fs, "1") != 0 || fstat(CTG_FD_TRACE, &st) != 0 ||
        (uint64_t)st.st_size < CTG_SYMTRACE_HDR_SIZE)
        return 0;
    void *m = ctg_map_guarded((size_t)st.st_size, MAP_SHARED, CTG_FD_TRACE);
    if (m == MAP_FAILED)
        return 0;
    close(CTG_FD_TRACE);
    ctg_symtrace_hdr *h = m;
    if (h->magic != CTG_SYMTRACE_MAGIC || h->version != CTG_SYMTRACE_VERSION ||
        ctg_symtrace_size(h->cap_nodes, h->cap_pc) > (uint64_t)st.st_size) {
        munmap(m, (size_t)st.st_size);
        return 0;
    }
    sym_g.region = m;
    return 1;
}

/* Runs before main (after the runtime's early init): maps the trace region
 * and the node flags.  Without any region every shadow stays 0. */
__attribute__((constructor(102))) static void sym_init(void)
{
    if (!sym_attach()) {
        uint64_t n = ctg_symtrace_size(CTG_SYM_STANDALONE_NODES, CTG_SYM_STANDALONE_PC);
        void *m = sym_map((size_t)n);
        if (!m)
            return;
        ctg_symtrace_init(m, CTG_SYM_STANDALONE_NODES, CTG_SYM_STANDALONE_PC);
        sym_g.region = m;
    }
    sym_g.hdr = sym_g.region;
    sym_g.nodes = ctg_symtrace_nodes(sym_g.region);
    sym_g.nflags = sym_map(sym_g.hdr->cap_nodes ? sym_g.hdr->cap_nodes : 1u);
    sym_g.cap_nodes = sym_g.nflags ? sym_g.hdr->cap_nodes : 0;
}

void sym_note(uint32_t flags)
{
    if (sym_g.hdr)
        sym_g.hdr->flags |= flags;
}

/* ==== nodes ================================================================== */

uint32_t sym_mk(uint8_t op, unsigned w, uint32_t aux, unsigned n, uint32_t a, uint32_t b,
                uint32_t c)
{
    uint32_t ops[3] = {a, b, c};
    uint8_t fl = 0;
    if (sym_g.off)
        return 0;
    if (!sym_g.cap_nodes || sym_g.hdr->n_nodes >= sym_g.cap_nodes) {
        sym_note(CTG_STF_NODES_FULL);
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        if (ops[i] == 0 || ops[i] > sym_g.hdr->n_nodes)
            return 0;
        fl |= sym_g.nflags[ops[i] - 1];
    }
    for (unsigned i = n; i < 3; i++)
        ops[i] = 1; /* unused operands are written as node 0 */
    uint32_t k = ctg_symtrace_node(sym_g.region, op, (uint8_t)w, aux, ops[0] - 1, ops[1] - 1,
                                   ops[2] - 1, 0);
    if (k == CTG_SYM_NONE)
        return 0;
    sym_g.nflags[k] = fl;
    return k + 1;
}

/* Mask of the low w bits (w 1..64). */
static inline uint64_t sym_mask(unsigned w) { return w >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << w) - 1); }

uint32_t sym_const(unsigned w, uint64_t v)
{
    if (w < 1 || w > 64 || sym_g.off) {
        sym_note(CTG_STF_CONCRETIZED);
        return 0;
    }
    if (!sym_g.cap_nodes || sym_g.hdr->n_nodes >= sym_g.cap_nodes) {
        sym_note(CTG_STF_NODES_FULL);
        return 0;
    }
    uint32_t k = ctg_symtrace_const(sym_g.region, (uint8_t)w, v & sym_mask(w), 0);
    if (k == CTG_SYM_NONE)
        return 0;
    sym_g.nflags[k] = 0;
    return k + 1;
}

uint32_t sym_extract(uint32_t s, unsigned lo, unsigned w)
{
    if (!s)
        return 0;
    if (lo == 0 && w == sym_width(s))
        return s;
    return sym_mk(CTG_SOP_EXTRACT, w, lo, 1, s, 0, 0);
}

uint32_t sym_zext(uint32_t s, unsigned w)
{
    if (!s || sym_width(s) == w)
        return s;
    return sym_mk(CTG_SOP_ZEXT, w, 0, 1, s, 0, 0);
}

uint32_t sym_concat(uint32_t hi, uint32_t lo)
{
    if (!hi || !lo)
        return 0;
    return sym_mk(CTG_SOP_CONCAT, sym_width(hi) + sym_width(lo), 0, 2, hi, lo, 0);
}

uint32_t sym_addr64(uint32_t sp) { return sym_zext(sp, 64); }

/* Bytes before hdr->sym_from stay concrete (the executor's window on the
 * end of a long input); a byte the full node array cannot hold is the
 * trace's lost_at, where the tool may open a window next time. */
uint32_t sym_input_byte(uint32_t off)
{
    ctg_symtrace_hdr *h = sym_g.hdr;
    if (!h || off < h->sym_from)
        return 0;
    uint32_t k = sym_mk(CTG_SOP_INPUT, 8, off, 0, 0, 0, 0);
    if (k && off >= h->read_end)
        h->read_end = off + 1;
    if (!k && (h->flags & CTG_STF_NODES_FULL) && off < h->lost_at)
        h->lost_at = off;
    return k;
}

/* ==== the path constraint ====================================================== */

void sym_push(uint32_t s, uint32_t site, uint8_t kind, uint32_t arg, int taken)
{
    if (!s || sym_g.off || sym_width(s) != 1 || sym_op(s) == CTG_SOP_CONST)
        return;
    ctg_symtrace_push(sym_g.region, s - 1, site, kind, arg, taken);
}

void sym_concretize(uint32_t s, uint64_t v)
{
    if (!s || (s == sym_g.last_ptr && v == sym_g.last_ptr_val))
        return;
    unsigned w = sym_width(s);
    sym_push(sym_mk(CTG_SOP_ICMP, 1, 32 /* eq */, 2, s, sym_const(w, v), 0), CTG_SYM_NONE,
             CTG_SPC_PTR, 0, 1);
    sym_g.last_ptr = s;
    sym_g.last_ptr_val = v;
}

void __ctg_sym_lost(uint32_t s)
{
    if (s)
        sym_note(CTG_STF_CONCRETIZED);
}

void __ctg_sym_threads(void)
{
    sym_note(CTG_STF_CONCRETIZED);
    sym_g.off = 1;
    __ctg_sym_live = 0; /* loads and stores take their fast paths again */
}

/* Concretises (returns 0 and flags) a value the runtime cannot build. */
static uint32_t sym_unsupported(void)
{
    sym_note(CTG_STF_CONCRETIZED);
    return 0;
}

/* ==== expression builders ========================================================= */

static int sym_fp_width(unsigned w) { return w == 32 || w == 64; }

uint32_t __ctg_sym_bin(uint32_t op, uint32_t sa, uint32_t sb, uint64_t a, uint64_t b, uint32_t w)
{
    int fp = op >= CTG_SOP_FADD && op <= CTG_SOP_FDIV;
    int in = op >= CTG_SOP_ADD && op <= CTG_SOP_XOR;
    if ((!fp && !in) || (fp && !sym_fp_width(w)) || w < 1 || w > 64 || !sym_ok(sa, w) ||
        !sym_ok(sb, w))
        return sym_unsupported();
    if (!sa && !sb)
        return 0;
    return sym_mk((uint8_t)op, w, 0, 2, sym_val(sa, a, w), sym_val(sb, b, w), 0);
}

uint32_t __ctg_sym_icmp(uint32_t pred, uint32_t sa, uint32_t sb, uint64_t a, uint64_t b,
                        uint32_t w)
{
    if (pred < 32 || pred > 41 || w < 1 || w > 64 || !sym_ok(sa, w) || !sym_ok(sb, w))
        return sym_unsupported();
    if (!sa && !sb)
        return 0;
    return sym_mk(CTG_SOP_ICMP, 1, pred, 2, sym_val(sa, a, w), sym_val(sb, b, w), 0);
}

uint32_t __ctg_sym_fcmp(uint32_t pred, uint32_t sa, uint32_t sb, uint64_t a, uint64_t b,
                        uint32_t w)
{
    if (pred > 15 || !sym_fp_width(w) || !sym_ok(sa, w) || !sym_ok(sb, w))
        return sym_unsupported();
    if (!sa && !sb)
        return 0;
    return sym_mk(CTG_SOP_FCMP, 1, pred, 2, sym_val(sa, a, w), sym_val(sb, b, w), 0);
}

/* True when a cast op from `from` to `to` bits is well formed. */
static int sym_cast_ok(uint32_t op, unsigned from, unsigned to)
{
    if (from < 1 || from > 64 || to < 1 || to > 64)
        return 0;
    switch (op) {
    case CTG_SOP_ZEXT:
    case CTG_SOP_SEXT: return to >= from;
    case CTG_SOP_TRUNC: return to <= from;
    case CTG_SOP_FNEG: return to == from && sym_fp_width(to);
    case CTG_SOP_FPEXT: return from == 32 && to == 64;
    case CTG_SOP_FPTRUNC: return from == 64 && to == 32;
    case CTG_SOP_SITOFP:
    case CTG_SOP_UITOFP: return sym_fp_width(to);
    case CTG_SOP_FPTOSI:
    case CTG_SOP_FPTOUI: return sym_fp_width(from);
    default: return 0;
    }
}

uint32_t __ctg_sym_cast(uint32_t op, uint32_t s, uint32_t from_w, uint32_t to_w)
{
    if (!sym_cast_ok(op, from_w, to_w) || !sym_ok(s, from_w))
        return sym_unsupported();
    if (!s)
        return 0;
    if ((op == CTG_SOP_ZEXT || op == CTG_SOP_SEXT || op == CTG_SOP_TRUNC) && from_w == to_w)
        return s;
    return sym_mk((uint8_t)op, to_w, 0, 1, s, 0, 0);
}

uint32_t __ctg_sym_ite(uint32_t sc, uint32_t st, uint32_t sf, uint32_t c, uint64_t t, uint64_t f,
                       uint32_t w)
{
    if (w < 1 || w > 64 || !sym_ok(sc, 1) || !sym_ok(st, w) || !sym_ok(sf, w))
        return sym_unsupported();
    if (!sc)
        return c ? st : sf;
    return sym_mk(CTG_SOP_ITE, w, 0, 3, sc, sym_val(st, t, w), sym_val(sf, f, w));
}

/* Pointer width of this binary in bits. */
static unsigned sym_ptr_bits(void) { return (unsigned)(sizeof(void *) * 8u); }

uint32_t __ctg_sym_gep_idx(uint32_t acc, uint32_t s, uint64_t idx, uint32_t idx_w,
                           uint64_t stride)
{
    unsigned pw = sym_ptr_bits();
    (void)idx;
    if (!s)
        return acc;
    if (idx_w < 1 || idx_w > 64 || !sym_ok(s, idx_w) || !sym_ok(acc, pw))
        return sym_unsupported();
    uint32_t x = idx_w < pw ? sym_mk(CTG_SOP_SEXT, pw, 0, 1, s, 0, 0)
                 : idx_w > pw ? sym_mk(CTG_SOP_TRUNC, pw, 0, 1, s, 0, 0)
                              : s;
    if (stride != 1)
        x = sym_mk(CTG_SOP_MUL, pw, 0, 2, x, sym_const(pw, stride), 0);
    return acc ? sym_mk(CTG_SOP_ADD, pw, 0, 2, acc, x, 0) : x;
}

uint32_t __ctg_sym_gep_end(uint32_t acc, uint32_t sbase, uint64_t base, uint64_t result,
                           uint64_t acc_val, uint64_t obj_lo, uint64_t obj_size)
{
    unsigned pw = sym_ptr_bits();
    if (!sym_ok(acc, pw) || !sym_ok(sbase, pw))
        return sym_unsupported();
    if (!acc && !sbase)
        return 0;
    uint32_t r = sym_val(sbase, base, pw);
    if (acc)
        r = sym_mk(CTG_SOP_ADD, pw, 0, 2, r, acc, 0);
    uint64_t rest = (result - base - acc_val) & sym_mask(pw);
    if (rest)
        r = sym_mk(CTG_SOP_ADD, pw, 0, 2, r, sym_const(pw, rest), 0);
    if (r && obj_size)
        sym_mem_bounds(r, obj_lo, obj_size);
    return r;
}

/* ==== decisions ====================================================================== */

void __ctg_sym_branch(uint32_t s, uint32_t taken, uint32_t site)
{
    if (!sym_ok(s, 1) || !s)
        return;
    uint8_t kind = (sym_g.nflags[s - 1] & SYM_NF_LEN) ? CTG_SPC_LENGTH : CTG_SPC_BRANCH;
    sym_push(s, site, kind, 0, taken != 0);
}

void __ctg_sym_switch(uint32_t s, uint64_t v, uint32_t site, uint32_t n, const uint64_t *cases,
                      uint32_t w)
{
    if (!s || w < 1 || w > 64 || !sym_ok(s, w))
        return;
    uint64_t m = sym_mask(w);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t c = sym_mk(CTG_SOP_ICMP, 1, 32 /* eq */, 2, s, sym_const(w, cases[k]), 0);
        if (!c)
            return;
        sym_push(c, site, CTG_SPC_SWITCH, k, (v & m) == (cases[k] & m));
    }
}

void __ctg_sym_assume(uint32_t s, uint64_t v, uint32_t w)
{
    if (!s || !v || w < 1 || w > 64 || !sym_ok(s, w))
        return;
    uint32_t c = w == 1 ? s : sym_mk(CTG_SOP_ICMP, 1, 33 /* ne */, 2, s, sym_const(w, 0), 0);
    sym_push(c, CTG_SYM_NONE, CTG_SPC_ASSUME, 0, 1);
}

/* ==== inputs ============================================================================ */

/* The value-log record of a value just consumed, if the log grew since the
 * last call; NULL when the input ran out (no record). */
static const ctg_value_rec *sym_new_record(void)
{
    uint32_t n = rt_g.hdr->n_values;
    if (n > CTG_MAX_VALUES)
        n = CTG_MAX_VALUES;
    if (!rt_g.values || n <= sym_g.seen)
        return NULL;
    sym_g.seen = n;
    return &rt_g.values[n - 1];
}

/* The little-endian concatenation of input bytes off .. off + size - 1. */
static uint32_t sym_input_value(uint32_t off, uint32_t size)
{
    uint32_t e = sym_input_byte(off);
    for (uint32_t i = 1; i < size; i++)
        e = sym_concat(sym_input_byte(off + i), e);
    return e;
}

uint32_t __ctg_sym_nondet(uint32_t w)
{
    const ctg_value_rec *r = sym_new_record();
    uint32_t off, size;
    if (r) {
        off = r->offset;
        size = r->size;
    } else { /* ran out: a fresh variable past the end, concrete value 0 */
        off = sym_g.vpos;
        size = (w + 7u) / 8u;
    }
    sym_g.vpos = off + size;
    if (w < 1 || w > 64 || size < 1 || size > 8 || w > 8u * size)
        return sym_unsupported();
    return sym_extract(sym_input_value(off, size), 0, w);
}

uint32_t __ctg_sym_fuzz_input(const void *data, uint64_t size, uint32_t w)
{
    const ctg_value_rec *r = sym_new_record();
    uint32_t off = r && r->type == CTG_T_BYTES ? r->offset : sym_g.vpos;
    if (size > CTG_MAX_INPUT)
        size = CTG_MAX_INPUT;
    sym_mem_input((uintptr_t)data, size, off);
    sym_g.vpos = off + (uint32_t)size;
    if (w < 1 || w > 64)
        return sym_unsupported();
    uint32_t len = sym_mk(CTG_SOP_VAR, w, CTG_SYMVAR_LEN, 0, 0, 0, 0);
    if (len)
        sym_g.nflags[len - 1] |= SYM_NF_LEN;
    return len;
}
