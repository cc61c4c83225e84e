/* Writes 1 GB to stdout. */
#include <stdio.h>
#include <string.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    static char buf[1 << 16];
    memset(buf, 'x', sizeof buf);
    (void)__VERIFIER_nondet_int();
    for (int i = 0; i < (1 << 14); i++)
        fwrite(buf, 1, sizeof buf, stdout);
    return 0;
}
