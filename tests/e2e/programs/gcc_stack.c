/* gcc_stack.c - tests a local that is never written, after a call that
 * fills the same stack slots with non-zero values: gcc -O0 reads those, so
 * every replay returns at once, while the engine's build reads 0 and
 * covers the branches after it.  The replay check's warning must name the
 * line and the variable. */
extern int __VERIFIER_nondet_int(void);
static int spoil(int a)
{
    volatile int u = a, v = a + 1, w = a + 2, z = a + 3;
    return u + v + w + z;
}
static int body(void)
{
    int flag, n = 0; /* flag: never written */
    if (flag != 0)
        return 0;
    int x = __VERIFIER_nondet_int();
    if (x > 10) n++;
    if (x > 100) n++;
    if (x > 1000) n++;
    if (x < -5) n++;
    if (x % 7 == 3) n++;
    return n;
}
int main(void)
{
    spoil(0x5a5a);
    return body();
}
