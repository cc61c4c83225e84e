/* hang.c - a program that hangs on two thirds of its inputs (a busy loop
 * and a long sleep) and has an easy error behind them.  Built with
 * -DNO_HANG it is the same program without the hanging branches (the
 * baseline of bench/hang). */
#include <unistd.h>

extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void)
{
    int mode = __VERIFIER_nondet_int();
#ifndef NO_HANG
    if (mode % 3 == 1)
        for (volatile int spin = 1; spin;)
            ;
    if (mode % 3 == 2 || mode % 3 == -2)
        sleep(100);
#endif
    int a = __VERIFIER_nondet_int();
    if (a > 1000 && a < 1100)
        reach_error();
    return mode > 0;
}
