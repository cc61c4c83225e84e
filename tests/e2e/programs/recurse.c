/* Recurses without end: the stack overflows. */
extern int __VERIFIER_nondet_int(void);
static int down(volatile int n)
{
    volatile char pad[256];
    pad[0] = (char)n;
    return down(n + 1) + pad[0];
}
int main(void)
{
    int x = __VERIFIER_nondet_int();
    return x == 12345 ? 0 : down(x);
}
