/* bmc_find.c - t0129: the bounded checker's cases on a program it models
 * whole (scalars only, every loop bounded by a constant):
 *   - the error needs two input values in an exact relation: random
 *     inputs miss it, the solver's model is a test that reaches it;
 *   - 2 * x == 7 has no solution in 32-bit arithmetic (even against odd):
 *     every execution ends within the bound, so the branch side and the
 *     error call behind it are proven unreachable. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
static int twice(int v) { return v * 2; }
int main(void)
{
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
    int s = 0;
    for (int i = 0; i < 3; i++)
        s += x;
    if (s - y == 1234567 && (y ^ 0x5a5a) == 0x1234)
        reach_error(); /* reachable: x = (1234567 + y) / 3 */
    if (twice(x) == 7)
        reach_error(); /* unreachable */
    return 0;
}
