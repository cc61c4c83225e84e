/* bmc_bound.c - t0129: a loop bounded by an input: no execution of at most
 * the checker's bound reaches the error (s stays even), but longer ones
 * exist, so it is reported as not reached within the bound, never as
 * unreachable. */
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);
int main(void)
{
    unsigned n = __VERIFIER_nondet_uint(), s = 0;
    for (unsigned i = 0; i < n; i++)
        s += 2;
    if (s % 2 == 1)
        reach_error();
    return 0;
}
