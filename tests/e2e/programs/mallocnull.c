/* Checks malloc for NULL: the NULL branch is covered only when a failed
 * allocation returns NULL (--malloc-fail null) instead of ending the run. */
#include <stdlib.h>
extern unsigned long __VERIFIER_nondet_ulong(void);
int main(void)
{
    unsigned long n = __VERIFIER_nondet_ulong();
    char *p = malloc(n);
    if (!p)
        return 3; /* only with --malloc-fail null */
    if (n > 0)
        p[0] = 1;
    free(p);
    return 0;
}
