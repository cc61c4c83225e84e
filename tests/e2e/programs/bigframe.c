/* bigframe.c - a 9 MB local array (array-multidimensional's max-2-u
 * style).  In the engine's build every run faults before its first branch;
 * under gcc -O0 the fault comes inside the fill loop, after its conditions
 * ran.  So the run keeps the empty test, and its replay covers those. */
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int i, j, m = 1000, n = 1500;
    int A[n][n];
    int max = 0;
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            A[i][j] = __VERIFIER_nondet_int();
    for (i = 0; i < m; i++)
        for (j = 0; j < n; j++)
            if (A[i][j] > max)
                max = A[i][j];
    return max > 10;
}
