/* shortcircuit.c - conditions of || and && whose value is used rather than
 * branched on: clang makes only the first of each a branch, gcc --coverage
 * counts both.  One run, (0, 0), takes x >= 0 both ways and y >= 0 false
 * only, so the suite is not complete until y >= 0 has been true (and
 * check(a && b)'s b both ways). */
extern int __VERIFIER_nondet_int(void);
static int check(int ok) { return ok ? 1 : 0; }
int main(void)
{
    int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int(), n = 0;
    while (x >= 0 || y >= 0) {
        int old = x;
        x = y - 1;
        y = old - 1;
        n++;
    }
    return check(n > 2 && x < -3);
}
