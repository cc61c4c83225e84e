/* long32.c - an error reachable only where long has 32 bits (ILP32, the
 * data model of most Test-Comp tasks): 4294967295 + 1 wraps to 0 there. */
extern unsigned long __VERIFIER_nondet_ulong(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
    unsigned long a = __VERIFIER_nondet_ulong();
    if (a == 4294967295UL && a + 1UL == 0UL)
        reach_error();
    if (a == 7)
        return 1;
    return 0;
}
