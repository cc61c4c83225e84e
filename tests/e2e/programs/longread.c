/* Reads 400,000 values (1.6 MB, more than the 1 MiB a probe starts with),
 * then decides on all of them: a test only covers the decision when it
 * holds every value (TestCov stops a test whose values run out). */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void)
{
    long odd = 0;
    for (int i = 0; i < 400000; i++)
        odd += __VERIFIER_nondet_int() & 1;
    if (odd > 1000)
        reach_error();
    return 0;
}
