/* easy_error.c - an error the first runs reach, with more branches after
 * it: a Cover-Error run stops there, a Cover-Branches run goes on. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x != 12345)
        reach_error();
    int y = __VERIFIER_nondet_int();
    if (y > 10) return 1;
    if (y > 1000) return 2;
    if (y < -77) return 3;
    return 0;
}
