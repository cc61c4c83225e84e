/* Forks in a loop: a fork bomb if fork were allowed. */
#include <unistd.h>
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int n = __VERIFIER_nondet_int();
    for (int i = 0; i < 100000; i++)
        if (fork() == 0)
            n++;
    return n & 1;
}
