/* gcc_hang.c - loops forever on some inputs, and on more of them only in
 * the gcc build the validator replays (a program whose behaviour depends on
 * the compiler, as undefined behaviour does): the engine's clang build
 * keeps tests that the replay would kill. */
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x == 77)
        for (;;) ;
#ifndef __clang__
    if (x > 1000)
        for (;;) ;
#endif
    if (x > 1000) return 1;
    if (x > 10) return 2;
    return 0;
}
