/* two_mains.c - the shape of Test-Comp's pals_lcr+eca combinations: main
 * runs one of two programs.  main1 is a reactive loop whose paths never
 * run out of branches to negate but soon stop covering anything new; main2
 * hides an error behind three chained values.  The all-zero input takes
 * main2; a random one takes main1. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

static int main1(void)
{
    int s = 0;
    for (;;) {
        int x = __VERIFIER_nondet_int();
        if (x == 1000)
            return s;
        if (x > s)
            s++;
        else
            s--;
    }
}

static int main2(void)
{
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    int c = __VERIFIER_nondet_int();
    if (a == 17)
        if (b == 3 * a)
            if (c == b + 1)
                reach_error();
    return 0;
}

int main(void)
{
    if (__VERIFIER_nondet_int())
        return main1();
    return main2();
}
