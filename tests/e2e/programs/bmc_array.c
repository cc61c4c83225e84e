/* bmc_array.c - t0129: memory beyond scalar globals is not modelled: the
 * checker claims nothing and writes no test. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void)
{
    int a[4];
    for (int i = 0; i < 4; i++)
        a[i] = __VERIFIER_nondet_int();
    if (a[1] == 2 * a[3] + 1 && a[0] > 1000000)
        reach_error();
    return 0;
}
