/* bigvla.c - a variable-length array far larger than the stack, filled
 * from input (array-multidimensional style).  The run faults at the first
 * call after the array is made (the call pushes below the stack's end), in
 * the engine as in the gcc build; the loop condition before it is covered.
 * Zero-initialising the array at its definition would fault before that. */
extern int __VERIFIER_nondet_int(void);
int main(void)
{
    int n = 4000000; /* 16 MB */
    int a[n];
    int pos = 0;
    for (int i = 0; i < n; i++) {
        a[i] = __VERIFIER_nondet_int();
        if (a[i] > 0)
            pos++;
    }
    return pos > 10 ? a[0] : a[n - 1];
}
