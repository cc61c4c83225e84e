/* prove_uninit.c - the error depends on an uninitialised local (any value
 * under gcc -O0) and on a read past an array (undefined behaviour that gcc
 * runs through): no analyser may call it unreachable. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
int main(void)
{
    int junk;
    int a[2] = {1, 2}, b = 7;
    int i = __VERIFIER_nondet_int();
    if (junk == 42)
        reach_error();
    if (i >= 0 && i < 3 && a[i] == 7 + b - b)
        reach_error();
    return 0;
}
