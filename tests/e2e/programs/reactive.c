/* reactive.c - a Test-Comp style reactive program: it reads inputs in an
 * endless loop (eca/rers, pals style) and never ends by itself.  A run ends
 * when its test's values run out (TestCov), not by timing out on zeros. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
    int state = 0;
    while (1) {
        int in = __VERIFIER_nondet_int();
        if (in < 1 || in > 6) continue;
        if (state == 0 && in == 3) state = 1;
        else if (state == 1 && in == 5) state = 2;
        else if (state == 2 && in == 1) state = 3;
        else if (state == 3 && in == 6) state = 4;
        else if (state == 4 && in == 2) reach_error();
        else if (in == 4) state = 0;
    }
}
