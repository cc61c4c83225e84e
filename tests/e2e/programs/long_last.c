/* reads 100,000 values; the last one decides the error */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

int main(void)
{
    int last = 0;
    for (int i = 0; i < 100000; i++)
        last = __VERIFIER_nondet_int();
    if (last == 4711)
        reach_error();
    return 0;
}
