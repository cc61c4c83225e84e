/* abort_first.c - every run aborts before its first branch: no run covers
 * anything, and the suite still gets one (empty) test. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    abort();
    return __VERIFIER_nondet_int() > 0;
}
