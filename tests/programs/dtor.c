/*
 * dtor.c - a destructor must run after main returns: it counts edge 1.
 */
#include "prog.h"

PROG_COUNTS(2, 0, 0);

__attribute__((destructor)) static void done(void) { __ctg_cov_ptr[1]++; }

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    __ctg_cov_ptr[0]++;
    return 3;
}
