/*
 * exitfn.c - exit handlers must run after main returns (the runtime ends
 * runs without exit() only when there are none).  The first input byte:
 *   0  atexit handler counting edge 1, main returns 4
 *   1  atexit handler reaching error site 1
 *   2  on_exit handler counting edge 2 (and seeing status 5), main returns 5
 *   3  no handler, main returns 6
 */
#include <stdlib.h>

#include "prog.h"

PROG_COUNTS(4, 0, 2);

int on_exit(void (*fn)(int, void *), void *arg);

static void count(void) { __ctg_cov_ptr[1]++; }
static void error(void) { __ctg_error(1); }
static void count_status(int status, void *arg)
{
    (void)arg;
    if (status == 5)
        __ctg_cov_ptr[2]++;
}

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    __ctg_cov_ptr[0]++;
    switch (__VERIFIER_nondet_uchar()) {
    case 0: atexit(count); return 4;
    case 1: atexit(error); return 0;
    case 2: on_exit(count_status, NULL); return 5;
    default: return 6;
    }
}
