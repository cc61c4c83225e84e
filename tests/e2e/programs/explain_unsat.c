/* explain_unsat.c - t0128: the inner branch contradicts the outer one, so
 * concolic asks the solver for a path into it and hears unsat. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x > 10) {
        if (x < 5) /* never: x > 10 */
            reach_error();
    }
    return 0;
}
