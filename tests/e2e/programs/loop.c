/* Loops forever unless the input is 0. */
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    volatile int x = __VERIFIER_nondet_int();
    while (x != 0)
        ;
    return 0;
}
