/* alg9.c - seed 003, algorithm 9 in C: x[2] == 3 on an array of symbolic
 * length, then x[1] = a and x[1] == 4, the select/store example of the
 * array theory (select (store x0 1 a0) 1) = 4. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

static int example(int *x, unsigned int n, int a)
{
    if (n <= 2)
        return -1; /* IndexOutOfBoundsException */
    if (x[2] == 3) {
        x[1] = a;
        if (x[1] == 4)
            return 0;
        return 2;
    }
    return 1;
}

int main(void)
{
    int x[8];
    unsigned int n = __VERIFIER_nondet_uint();
    if (n > 8)
        return 3;
    for (unsigned int i = 0; i < n; i++)
        x[i] = __VERIFIER_nondet_int();
    int a = __VERIFIER_nondet_int();
    return example(x, n, a);
}
