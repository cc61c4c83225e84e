/* gcc_abort.c - every run aborts at once in the gcc build (as a program
 * reading an uninitialised local may), never in the engine's clang build:
 * the replay check must say that its figure is far below the engine's. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
#ifndef __clang__
    volatile int zero = 0;
    if (zero == 0)
        abort();
#endif
    int x = __VERIFIER_nondet_int();
    if (x > 10) return 1;
    if (x > 100) return 2;
    if (x < -5) return 3;
    if (x == 3) return 4;
    return 0;
}
