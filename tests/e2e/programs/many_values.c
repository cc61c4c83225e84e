/* many_values.c - consumes 100,000 values before it decides anything: a
 * test of it must hold every value (no cap cuts it) and replay as it ran. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void)
{
    long sum = 0;
    for (int i = 0; i < 100000; i++)
        sum += __VERIFIER_nondet_int() & 1;
    if (sum > 50000)
        return 1;
    if (sum == 0)
        return 2;
    return 0;
}
