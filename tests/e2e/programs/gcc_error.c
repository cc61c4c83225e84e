/* gcc_error.c - the error is reached in the engine's clang build by every
 * x == 5, in gcc's (the validator's build) only when y > 100 as well: the
 * class of a program whose path to the error reads an uninitialised local
 * (sv-benchmarks s3_srvr.blast.07: `if (num1 > 0)` on a local never
 * written, where gcc -O0 reads what earlier calls left on the stack and
 * clang's optimiser picks a side).  An error test with y <= 100 scores
 * nothing in Test-Comp: the search must go on to one that reaches the
 * error under gcc too. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    int y = __VERIFIER_nondet_int();
#ifdef __clang__
    int engine = 1;
#else
    int engine = 0;
#endif
    if (x == 5 && (engine || y > 100))
        reach_error();
    return 0;
}
