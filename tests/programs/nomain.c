/*
 * nomain.c - defines neither __ctg_user_main nor LLVMFuzzerTestOneInput:
 * the runtime must refuse to start (and the executor report it).
 */
#include "prog.h"

PROG_COUNTS(1, 0, 0);

int helper(void);
int helper(void) { return 1; }
