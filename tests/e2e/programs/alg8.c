/* alg8.c - seed 003, algorithm 8 (arrayLengthExample) in C: an int array of
 * symbolic length n.  Java's implicit bounds check of x[2] is the explicit
 * branch n <= 2, so the solver must grow the length before it can reach
 * x[2] == 3 (the seed's first iterations). */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

static int array_length_example(const int *x, unsigned int n)
{
    if (n <= 2)
        return -1; /* IndexOutOfBoundsException */
    if (x[2] == 3)
        return 0;
    return 1;
}

int main(void)
{
    int x[8];
    unsigned int n = __VERIFIER_nondet_uint();
    if (n > 8)
        return 2;
    for (unsigned int i = 0; i < n; i++)
        x[i] = __VERIFIER_nondet_int();
    return array_length_example(x, n);
}
