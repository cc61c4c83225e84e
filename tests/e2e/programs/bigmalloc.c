/* Asks for 100 GB and writes to it. */
#include <stdlib.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    (void)__VERIFIER_nondet_int();
    char *p = malloc(100ul << 30);
    memset(p, 1, 100ul << 30);
    return p[12345];
}
