/*
 * scribble.c - reads two ints, then writes into the executor's shared
 * memory as a buggy program with a wild pointer could: it finds the region
 * in /proc/self/maps and raises the value log's count past the records
 * the runtime wrote (which stay zero: no type, no size).  test_from_exec
 * must keep the two sound values only.
 */
#include <string.h>

#include "prog.h"

PROG_COUNTS(4, 0, 0);

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
    FILE *f = fopen("/proc/self/maps", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        unsigned long lo;
        if (strstr(line, "ctestgen-shm") && sscanf(line, "%lx-", &lo) == 1) {
            ctg_shm_hdr *h = (ctg_shm_hdr *)lo;
            h->n_values += 5;
            break;
        }
    }
    if (f)
        fclose(f);
    return a + b > 0;
}
