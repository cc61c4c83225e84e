/*
 * test_expr_trace.c - the symbolic trace: written with the header-only
 * writer of rt_symtrace.h, read back by expr_trace_read into hash-consed
 * expressions; corrupt traces (hand-made and randomly mutated) must give an
 * error, never a crash; allocation failure while reading is reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/mem.h"
#include "base/rng.h"
#include "expr/expr_trace.h"

#define CAPN 64u
#define CAPP 16u

static uint64_t region_buf[8192];
static void *R = region_buf;
static size_t RSIZE;

/* A trace of: x = int32 from bytes 0..3; branch (x == 0xdeadbeef) not taken;
 * a switch on byte 4 with cases 1 and 2 (case 2 taken); a length check on
 * variable 0 (len > 2, taken); a 128-bit constant compared with zext(x). */
static void write_sample(void)
{
    RSIZE = ctg_symtrace_size(CAPN, CAPP);
    assert_true(RSIZE <= sizeof region_buf);
    memset(R, 0, RSIZE);
    ctg_symtrace_init(R, CAPN, CAPP);
    uint32_t b[5];
    for (uint32_t i = 0; i < 5; i++)
        b[i] = ctg_symtrace_node(R, CTG_SOP_INPUT, 8, i, 0, 0, 0, 0);
    uint32_t c01 = ctg_symtrace_node(R, CTG_SOP_CONCAT, 16, 0, b[1], b[0], 0, 0);
    uint32_t c012 = ctg_symtrace_node(R, CTG_SOP_CONCAT, 24, 0, b[2], c01, 0, 0);
    uint32_t x = ctg_symtrace_node(R, CTG_SOP_CONCAT, 32, 0, b[3], c012, 0, 0);
    uint32_t k = ctg_symtrace_const(R, 32, 0xdeadbeef, 0);
    uint32_t eq = ctg_symtrace_node(R, CTG_SOP_ICMP, 1, 32, x, k, 0, 0);
    assert_int_equal(ctg_symtrace_push(R, eq, 10, CTG_SPC_BRANCH, 0, 0), 0);
    uint32_t k1 = ctg_symtrace_const(R, 8, 1, 0), k2 = ctg_symtrace_const(R, 8, 2, 0);
    uint32_t s1 = ctg_symtrace_node(R, CTG_SOP_ICMP, 1, 32, b[4], k1, 0, 0);
    uint32_t s2 = ctg_symtrace_node(R, CTG_SOP_ICMP, 1, 32, b[4], k2, 0, 0);
    ctg_symtrace_push(R, s1, 20, CTG_SPC_SWITCH, 0, 0);
    ctg_symtrace_push(R, s2, 20, CTG_SPC_SWITCH, 1, 1);
    uint32_t len = ctg_symtrace_node(R, CTG_SOP_VAR, 32, CTG_SYMVAR_LEN, 0, 0, 0, 0);
    uint32_t two = ctg_symtrace_const(R, 32, 2, 0);
    uint32_t gt = ctg_symtrace_node(R, CTG_SOP_ICMP, 1, 34 /* ugt */, len, two, 0, 0);
    ctg_symtrace_push(R, gt, 30, CTG_SPC_LENGTH, 0, 1);
    uint32_t big = ctg_symtrace_const(R, 128, 5, 1);
    uint32_t zx = ctg_symtrace_node(R, CTG_SOP_ZEXT, 128, 0, x, 0, 0, 0);
    uint32_t lt = ctg_symtrace_node(R, CTG_SOP_ICMP, 1, 36 /* ult */, zx, big, 0, 0);
    ctg_symtrace_push(R, lt, CTG_SYM_NONE, CTG_SPC_ASSUME, 0, 1);
}

static void test_read_valid(void **st)
{
    (void)st;
    write_sample();
    expr_ctx *c = expr_ctx_new();
    expr_pc pc = EXPR_PC_INIT;
    ctg_err e = {{0}};
    assert_true(expr_trace_read(c, R, RSIZE, &pc, &e));
    assert_int_equal(pc.n, 5);
    /* the same terms built directly are the same pointers (hash-consing) */
    expr *x = expr_input(c, 0);
    for (uint32_t i = 1; i < 4; i++)
        x = expr_binop(c, EXPR_CONCAT, expr_input(c, i), x);
    assert_ptr_equal(pc.v[0].cond, expr_binop(c, EXPR_EQ, x, expr_const(c, 32, 0xdeadbeef)));
    assert_false(pc.v[0].taken);
    assert_int_equal(pc.v[0].site, 10);
    assert_int_equal(pc.v[0].kind, CTG_SPC_BRANCH);
    assert_int_equal(pc.v[2].arg, 1);
    assert_true(pc.v[2].taken);
    assert_ptr_equal(pc.v[2].cond, expr_binop(c, EXPR_EQ, expr_input(c, 4), expr_const(c, 8, 2)));
    expr *len = expr_var(c, CTG_SYMVAR_LEN, 32);
    assert_ptr_equal(pc.v[3].cond, expr_binop(c, EXPR_ULT, expr_const(c, 32, 2), len));
    assert_int_equal(pc.v[4].kind, CTG_SPC_ASSUME);
    assert_true(expr_is_true(pc.v[4].cond)); /* zext(x) < 2^64 + 5 folds */
    assert_true(expr_pc_negatable(CTG_SPC_LENGTH));
    assert_false(expr_pc_negatable(CTG_SPC_PTR));
    assert_false(expr_pc_negatable(CTG_SPC_ASSUME));
    assert_ptr_equal(expr_pc_asserted(c, &pc.v[0]), expr_not(c, pc.v[0].cond));
    assert_ptr_equal(expr_pc_asserted(c, &pc.v[2]), pc.v[2].cond);
    expr_pc_release(&pc);
    expr_ctx_free(c);
}

static void test_writer_full(void **st)
{
    (void)st;
    uint64_t small[64];
    ctg_symtrace_init(small, 2, 1);
    assert_true(ctg_symtrace_size(2, 1) <= sizeof small);
    assert_int_equal(ctg_symtrace_node(small, CTG_SOP_INPUT, 8, 0, 0, 0, 0, 0), 0);
    assert_int_equal(ctg_symtrace_node(small, CTG_SOP_INPUT, 8, 1, 0, 0, 0, 0), 1);
    assert_int_equal(ctg_symtrace_node(small, CTG_SOP_INPUT, 8, 2, 0, 0, 0, 0), CTG_SYM_NONE);
    assert_int_equal(ctg_symtrace_push(small, 0, 0, CTG_SPC_BRANCH, 0, 1), 0);
    assert_int_equal(ctg_symtrace_push(small, 0, 0, CTG_SPC_BRANCH, 0, 1), -1);
    const ctg_symtrace_hdr *h = (const ctg_symtrace_hdr *)small;
    assert_int_equal(h->flags, CTG_STF_NODES_FULL | CTG_STF_PC_FULL);
}

/* A full decision array marks where the trace lost what was read (the
 * window a long input's next run opens starts after it); a fresh trace
 * lost nothing and keeps every byte symbolic. */
static void test_writer_lost_at(void **st)
{
    (void)st;
    uint64_t small[64];
    ctg_symtrace_init(small, 2, 1);
    ctg_symtrace_hdr *h = (ctg_symtrace_hdr *)small;
    assert_int_equal(h->lost_at, CTG_SYM_NONE);
    assert_int_equal(h->sym_from, 0);
    h->read_end = 40;
    assert_int_equal(ctg_symtrace_push(small, 0, 0, CTG_SPC_BRANCH, 0, 1), 0);
    assert_int_equal(h->lost_at, CTG_SYM_NONE);
    assert_int_equal(ctg_symtrace_push(small, 0, 0, CTG_SPC_BRANCH, 0, 1), -1);
    assert_int_equal(h->lost_at, 40);
    h->read_end = 90; /* a later loss does not move the first */
    assert_int_equal(ctg_symtrace_push(small, 0, 0, CTG_SPC_BRANCH, 0, 1), -1);
    assert_int_equal(h->lost_at, 40);
    h->sym_from = 7;
    ctg_symtrace_init(small, 2, 1); /* every run starts clean */
    assert_int_equal(h->lost_at, CTG_SYM_NONE);
    assert_int_equal(h->sym_from, 0);
    assert_int_equal(h->read_end, 0);
}

/* Reads R and expects failure with a message containing `what`. */
static void expect_corrupt(const char *what, size_t size)
{
    expr_ctx *c = expr_ctx_new();
    expr_pc pc = EXPR_PC_INIT;
    ctg_err e = {{0}};
    assert_false(expr_trace_read(c, R, size, &pc, &e));
    if (!strstr(e.msg, what))
        fail_msg("expected \"%s\" in \"%s\"", what, e.msg);
    assert_null(strchr(e.msg, '\n'));
    expr_pc_release(&pc);
    expr_ctx_free(c);
}

static ctg_symtrace_hdr *hdr(void) { return (ctg_symtrace_hdr *)R; }
static ctg_symnode *node(uint32_t i) { return &ctg_symtrace_nodes(R)[i]; }
static ctg_sympc *pce(uint32_t i) { return &ctg_symtrace_pcs(R)[i]; }

static void test_read_corrupt(void **st)
{
    (void)st;
    write_sample();
    expect_corrupt("too small", 10);
    hdr()->magic ^= 1;
    expect_corrupt("magic", RSIZE);
    write_sample();
    hdr()->version = 99;
    expect_corrupt("version", RSIZE);
    write_sample();
    expect_corrupt("exceed", RSIZE - 1);
    hdr()->n_nodes = CAPN + 1;
    expect_corrupt("exceed", RSIZE);
    write_sample();
    hdr()->cap_nodes = 0xffffffffu;
    expect_corrupt("exceed", RSIZE);
    write_sample();
    node(5)->a = 5; /* self reference */
    expect_corrupt("not an earlier node", RSIZE);
    write_sample();
    node(6)->b = 40; /* forward reference */
    expect_corrupt("not an earlier node", RSIZE);
    write_sample();
    node(3)->op = CTG_SOP__COUNT;
    expect_corrupt("unknown op", RSIZE);
    write_sample();
    node(0)->width = 16; /* input bytes have 8 bits */
    expect_corrupt("invalid operands", RSIZE);
    write_sample();
    node(5)->a = 1;
    node(5)->width = 17; /* concat(in1, in0) has 16 bits */
    expect_corrupt("invalid operands", RSIZE);
    write_sample();
    node(9)->aux = 50; /* icmp predicate */
    expect_corrupt("invalid operands", RSIZE);
    write_sample();
    node(9)->b = 0; /* icmp of 32 and 8 bits */
    expect_corrupt("invalid operands", RSIZE);
    write_sample();
    pce(0)->node = CAPN;
    expect_corrupt("path entry 0", RSIZE);
    write_sample();
    pce(1)->node = 8; /* the 32-bit constant is no condition */
    expect_corrupt("path entry 1", RSIZE);
    write_sample();
    pce(2)->kind = CTG_SPC__COUNT;
    expect_corrupt("path entry 2", RSIZE);
    write_sample();
    pce(3)->taken = 2;
    expect_corrupt("path entry 3", RSIZE);
    write_sample();
    node(8)->op = CTG_SOP_EXTRACT;
    node(8)->a = 7;
    node(8)->aux = 30; /* bits [61, 30] of a 32-bit value */
    expect_corrupt("invalid operands", RSIZE);
    expect_corrupt("too small", 0);
}

/* Random byte mutations of a valid trace: read must never crash. */
static void test_read_mutations(void **st)
{
    (void)st;
    rng r;
    rng_seed(&r, 3);
    int ok = 0, bad = 0;
    for (int it = 0; it < 4000; it++) {
        write_sample();
        int flips = 1 + (int)rng_below(&r, 4);
        for (int f = 0; f < flips; f++) {
            size_t at = rng_below(&r, CTG_SYMTRACE_HDR_SIZE + 20 * sizeof(ctg_symnode));
            if (rng_chance(&r, 0.2))
                at = ctg_symtrace_pc_offset(CAPN) + rng_below(&r, 5 * sizeof(ctg_sympc));
            ((uint8_t *)R)[at] = (uint8_t)rng_next(&r);
        }
        expr_ctx *c = expr_ctx_new();
        expr_pc pc = EXPR_PC_INIT;
        ctg_err e = {{0}};
        if (expr_trace_read(c, R, RSIZE, &pc, &e)) {
            ok++;
            for (size_t i = 0; i < pc.n; i++)
                assert_int_equal(pc.v[i].cond->width, 1);
        } else {
            bad++;
            assert_true(e.msg[0] != 0);
        }
        expr_pc_release(&pc);
        expr_ctx_free(c);
    }
    assert_true(ok > 0 && bad > 0);
}

static void test_read_oom(void **st)
{
    (void)st;
    write_sample();
    int failed = 0;
    for (long n = 0; n < 12; n++) {
        mem_fail_after(n);
        expr_ctx *c = expr_ctx_new();
        expr_pc pc = EXPR_PC_INIT;
        ctg_err e = {{0}};
        if (c && !expr_trace_read(c, R, RSIZE, &pc, &e)) {
            assert_non_null(strstr(e.msg, "out of memory"));
            failed++;
        }
        mem_fail_reset();
        expr_pc_release(&pc);
        expr_ctx_free(c);
    }
    assert_true(failed > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read_valid),     cmocka_unit_test(test_writer_full),
        cmocka_unit_test(test_writer_lost_at),
        cmocka_unit_test(test_read_corrupt),   cmocka_unit_test(test_read_mutations),
        cmocka_unit_test(test_read_oom),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
