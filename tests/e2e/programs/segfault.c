/* Segfaults when the first input is 3 (random finds it quickly). */
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int x = __VERIFIER_nondet_int();
    if (x == 3 || x == 1)
        *(volatile int *)0 = x;
    return 0;
}
