/*
 * values.c - consumes one value of every __VERIFIER_nondet_* type and
 * writes them, one per line, to $CTG_TEST_OUT.  A global constructor runs
 * hooks and a nondet call before the runtime has mapped the shared memory
 * (they must neither crash nor consume input).  Built 64- and 32-bit.
 */
#include <string.h>

#include "prog.h"

PROG_COUNTS(100000, 4, 1); /* more edges than the runtime's dummy map */

__attribute__((constructor)) static void early(void)
{
    __ctg_cov_ptr[99999]++;
    __ctg_cov_ptr[0]++;
    static const uint64_t cases[2] = {1, 2};
    __ctg_switch(10, 1, 2, cases, 32);
    __ctg_cmp(0, 32, 1, 2, 32, 0);
    (void)__VERIFIER_nondet_int();
}

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    int b = __VERIFIER_nondet_bool();
    int c = __VERIFIER_nondet_char();
    unsigned uc = __VERIFIER_nondet_uchar();
    int s = __VERIFIER_nondet_short();
    unsigned us = __VERIFIER_nondet_ushort();
    int i = __VERIFIER_nondet_int();
    unsigned u = __VERIFIER_nondet_uint();
    long l = __VERIFIER_nondet_long();
    unsigned long ul = __VERIFIER_nondet_ulong();
    long long ll = __VERIFIER_nondet_longlong();
    unsigned long long ull = __VERIFIER_nondet_ulonglong();
    float f = __VERIFIER_nondet_float();
    double d = __VERIFIER_nondet_double();
    void *p = __VERIFIER_nondet_pointer();
    size_t z = __VERIFIER_nondet_size_t();
    long long lo = __VERIFIER_nondet_loff_t();
    unsigned long long sec = __VERIFIER_nondet_sector_t();
    unsigned u32 = __VERIFIER_nondet_u32();
    unsigned u16 = __VERIFIER_nondet_u16();
    unsigned u8 = __VERIFIER_nondet_u8();
    unsigned un = __VERIFIER_nondet_unsigned();
    prog_out("bool %d\nchar %d\nuchar %u\nshort %d\nushort %u\nint %d\nuint %u\n", b, c, uc, s,
             us, i, u);
    prog_out("long %ld\nulong %lu\nlonglong %lld\nulonglong %llu\n", l, ul, ll, ull);
    prog_out("float %.9g\ndouble %.17g\npointer %p\nsize_t %zu\n", f, d, p, z);
    prog_out("loff_t %lld\nsector_t %llu\nu32 %u\nu16 %u\nu8 %u\nunsigned %u\n", lo, sec, u32,
             u16, u8, un);
    __ctg_cov_ptr[1]++;
    return 7;
}
