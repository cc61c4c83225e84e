/* stdin_mixed.c - reads stdin and calls __VERIFIER_nondet_int: a warning names the mix */
#include <stdio.h>
extern int __VERIFIER_nondet_int(void);

int main(void)
{
    int a = __VERIFIER_nondet_int(), b = 0;
    if (scanf("%d", &b) == 1 && a == b)
        return 1;
    return a > 10;
}
