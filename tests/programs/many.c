/*
 * many.c - consumes many values: n = nondet_uint (at most 2^25), then n
 * nondet_uchar values; exits with the number of non-zero values modulo 256.
 * Exercises the limits of the value log and of the input area.
 */
#include "prog.h"

PROG_COUNTS(1, 0, 0);

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    unsigned n = __VERIFIER_nondet_uint();
    unsigned nz = 0;
    for (unsigned i = 0; i < n && i < (1u << 25); i++)
        nz += __VERIFIER_nondet_uchar() != 0;
    return (int)(nz & 255u);
}
