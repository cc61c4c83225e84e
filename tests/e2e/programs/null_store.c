/* A null store the optimiser would delete (t0124): gcc -O0 faults on it,
 * so the engine must too. */
extern int __VERIFIER_nondet_int(void);

int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x == 42) {
        int *p = 0;
        *p = 1; /* the null store */
    }
    return 0;
}
