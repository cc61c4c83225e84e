/* prove_dead.c - reach_error() and a helper that only a branch no input can
 * take calls (x > 10 and x < 5): an analyser proves both unreachable. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
static int helper(int v)
{
    if (v == 3)
        return 1;
    return v > 7 ? 2 : 0;
}
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x > 10) {
        if (x < 5) {
            reach_error();
            return helper(x);
        }
        return 1;
    }
    return 0;
}
