/* fuzz_assume.c - every input the fuzzer starts from fails the assumption
 * (x = 0 or a small random value); the error needs x in (1000, 2000) and
 * y == x + 7.  A fuzzer that dropped such starting points would stop at
 * once. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    int x = __VERIFIER_nondet_int();
    __VERIFIER_assume(x > 1000 && x < 2000);
    int y = __VERIFIER_nondet_int();
    if (y == x + 7)
        reach_error();
    return 0;
}
