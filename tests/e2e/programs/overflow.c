/* overflow.c - writes far past the end of an array that malloc placed in
 * a mapping of its own (as sv-benchmarks tree_del_rec_incorrect does).
 * The write runs into whatever is mapped next; that must never be the
 * runtime's input area, value log or maps (guard pages: the run crashes,
 * as it would at the end of most mappings).  Before the guards, the
 * program overwrote the log header: a fake "error" run, a test of 16
 * million values, and a search stopped as if the disk were full. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int n = __VERIFIER_nondet_int();
    int *a = calloc(1 << 18, sizeof(int)); /* 1 MiB: a mapping of its own */
    if (!a || n <= 0)
        return 0;
    for (long i = 0; i < (1L << 22); i++) /* 16 MiB: far past its end */
        a[i] = 0x41414141;
    return 1;
}
