/* Signed overflow: undefined behaviour that UBSan reports (t0124); the
 * program runs on without it. */
extern int __VERIFIER_nondet_int(void);

static int scale(int x) { return x * 1000; } /* overflows for |x| > 2147483 */

int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x > 3000000)
        return scale(x) > 0 ? 1 : 2;
    return 0;
}
