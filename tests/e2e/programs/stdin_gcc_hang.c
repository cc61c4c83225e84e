/* stdin_gcc_hang.c - a stdin target that loops forever on some first bytes
 * only in the gcc build the replay uses (as gcc_hang.c for nondet values):
 * its kept tests that hang there must leave the corpus. */
#include <stdio.h>
int main(void)
{
    int c = getchar();
#ifndef __clang__
    if (c > 'm')
        for (;;) ;
#endif
    if (c > 'm') return 1;
    if (c > 'a') return 2;
    return 0;
}
