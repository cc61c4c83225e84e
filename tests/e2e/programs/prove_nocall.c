/* prove_nocall.c - a Test-Comp program with no error function at all: its
 * error goal is unreachable without any analysis. */
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    while (x > 0)
        x -= 3;
    return x;
}
