/* Reads stdin to its end (it must be closed, not a terminal that blocks). */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int x = __VERIFIER_nondet_int(), n = 0;
    while (getchar() != EOF)
        n++;
    return x > 0 ? n : 0;
}
