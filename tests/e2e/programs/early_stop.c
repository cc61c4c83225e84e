/* early_stop.c - runs that stop before reading all values (bounded e2e):
 * a <= 0 ends at once, so its b and c are never enumerated. */
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
int main(void)
{
    int a = __VERIFIER_nondet_int();
    if (a <= 0)
        return 0;
    char c = __VERIFIER_nondet_char();
    if (c == 'a')
        return 1;
    int b = __VERIFIER_nondet_int();
    return b > a ? 2 : 3;
}
