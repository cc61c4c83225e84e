/* read100.c - reads 100 values in 0..1 (anything else aborts, as
 * Test-Comp's assume() does), then decides on their sum.  Zeros pass every
 * check, but only a run that reads all 100 values gets to the decision:
 * prog.sym's runs, which stop 256 bytes (64 values) past their test on
 * programs not known to end, must learn that this one does. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
extern void reach_error(void);

int main(void)
{
    int sum = 0;
    for (int i = 0; i < 100; i++) {
        int x = __VERIFIER_nondet_int();
        if (x < 0 || x > 1)
            abort();
        sum += x;
    }
    if (sum == 3)
        reach_error();
    return 0;
}
