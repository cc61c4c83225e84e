/*
 * persist.c - a libFuzzer target for persistent mode: its first byte says
 * what the run does ('C' segfault, 'A' abort, 'H' hang, 'X' exit(7), 'E'
 * reach the error, anything else return); edge 0 counts every run, edge 1
 * a run that is not the first of its process, edge 2 the 1000th run of a
 * process (which is then replaced).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "prog.h"

PROG_COUNTS(4, 0, 1);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned runs;
    __ctg_cov_ptr[0]++;
    if (runs++ > 0)
        __ctg_cov_ptr[1]++;
    if (runs >= 1000)
        __ctg_cov_ptr[2]++;
    switch (size ? data[0] : 0) {
    case 'C':
        *(volatile int *)(uintptr_t)8 = 1;
        break;
    case 'A':
        abort();
    case 'H':
        for (;;)
            ;
    case 'X':
        exit(7);
    case 'E':
        __ctg_error(0);
        break;
    default:
        break;
    }
    return 0;
}
