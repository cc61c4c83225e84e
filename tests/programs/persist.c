/*
 * persist.c - a libFuzzer target for persistent mode: its first byte says
 * what the run does ('C' segfault, 'A' abort, 'H' hang, 'X' exit(7), 'E'
 * reach the error, 'F' leak a descriptor, 'M' leak a touched MiB,
 * anything else return); edge 0 counts every run, edge 1 a run that is
 * not the first of its process, edge 2 the CTG_PERSIST_MAX-th run of a
 * process (which is then replaced).
 */
#include <fcntl.h>
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
    if (runs >= CTG_PERSIST_MAX)
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
    case 'F':
        if (open("/dev/null", O_RDONLY) < 0)
            abort();
        break;
    case 'M': {
        char *leak = malloc(1u << 20);
        if (!leak)
            abort();
        memset(leak, 1, 1u << 20);
        __asm__ volatile("" : : "r"(leak) : "memory"); /* kept from the optimiser */
        break;
    }
    default:
        break;
    }
    return 0;
}
