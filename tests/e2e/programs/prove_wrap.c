/* prove_wrap.c - the error needs signed addition to wrap, as it does under
 * gcc -O0 (-fwrapv here): no analyser may call it unreachable. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x > 0) {
        int y = x + 2147483647;
        if (y < 0)
            reach_error();
    }
    return 0;
}
