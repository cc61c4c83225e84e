/*
 * dist.c - exercises every distance hook with operands from the input:
 *   bits (uint), a, b (ulonglong)     __ctg_cmp for the 10 integer
 *                                     predicates: edges 2k, 2k+1, site k
 *   x, y (double)                     __ctg_fcmp for predicates 0..15:
 *                                     edges 20+2k, 21+2k, site 10
 *   c (bool)                          __ctg_br: edges 52, 53
 *   v (int)                           __ctg_switch on {-5, 0, 7, 1000}:
 *                                     edges 60..64
 *   s (uchar length, chars)           __ctg_strcmp(s, "hello") == 0: 70, 71
 *                                     __ctg_strncmp(s, "help", 3) == 0: 72, 73
 *                                     __ctg_memcmp(s, "hello", 5) != 0: 74, 75
 *                                     __ctg_strcmp(s, "hello") < 0: 76, 77
 *                                     (string sites 12..15)
 *   bits, a, b again                  __ctg_cmp with CTG_CMP_COUNT (the
 *                                     hook counts the edge, as in a lean
 *                                     function): edges 80 + 2k, 81 + 2k
 *   c again                           __ctg_br with CTG_BR_COUNT: 100, 101
 *   a again                           __ctg_cmpc32 and __ctg_cmpc, a == 9
 *                                     counted by row 0 / 1 of the table:
 *                                     edges 102, 103 / 104, 105
 * Coverage of each other cmp branch is counted as the instrumenter would.
 */
#include <string.h>

#include "prog.h"

PROG_COUNTS(106, 16, 0);

/* What the pass defines for a lean function's compare with a constant. */
const ctg_cmpc __ctg_cmpc_tab[] = {{9, 102, 32, 32 | CTG_CMP_COUNT, 100},
                                   {9, 104, 32, 64 | CTG_CMP_COUNT, 100}};
void __ctg_cmpc(uint32_t k, uint64_t a);
void __ctg_cmpc32(uint32_t k, uint32_t a);

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    unsigned bits = __VERIFIER_nondet_uint();
    unsigned long long a = __VERIFIER_nondet_ulonglong(), b = __VERIFIER_nondet_ulonglong();
    for (uint32_t k = 0; k < 10; k++)
        __ctg_cmp(2 * k, 32 + k, a, b, bits, k);
    double x = __VERIFIER_nondet_double(), y = __VERIFIER_nondet_double();
    for (uint32_t k = 0; k < 16; k++)
        __ctg_fcmp(20 + 2 * k, k, x, y, 10);
    _Bool c = __VERIFIER_nondet_bool();
    __ctg_br(52, c);
    __ctg_cov_ptr[c ? 52 : 53]++;
    static const uint64_t cases[4] = {(uint64_t)-5 & 0xffffffffu, 0, 7, 1000};
    int v = __VERIFIER_nondet_int();
    __ctg_switch(60, (uint32_t)v, 4, cases, 32);
    char s[256];
    unsigned n = __VERIFIER_nondet_uchar();
    for (unsigned i = 0; i < n && i < 255; i++)
        s[i] = __VERIFIER_nondet_char();
    s[n < 255 ? n : 255] = 0;
    int r = __ctg_strcmp(12, s, "hello");
    __ctg_cmp_str(70, 32, r, 0, 12);
    __ctg_cov_ptr[r == 0 ? 70 : 71]++;
    r = __ctg_strncmp(13, s, "help", 3);
    __ctg_cmp_str(72, 32, r, 0, 13);
    r = __ctg_memcmp(14, s, "hello", 5);
    __ctg_cmp_str(74, 33, r, 0, 14);
    r = __ctg_strcmp(15, s, "hello");
    __ctg_cmp_str(76, 40, r, 0, 15);
    for (uint32_t k = 0; k < 10; k++)
        __ctg_cmp(80 + 2 * k, 32 + k, a, b, bits | CTG_CMP_COUNT, 100); /* no site */
    __ctg_br(100, (uint32_t)c | CTG_BR_COUNT);
    __ctg_cmpc32(0, (uint32_t)a);
    __ctg_cmpc(1, a);
    return 0;
}
