/* alg9_index.c - algorithm 9 of seed 003 with symbolic indices: x[i] = a,
 * then x[j] read back.  Under --sym-arrays=theory the read is
 * (select (store x i a) j), so the solver can move i, j and a together;
 * the concretising model fixes i and j to their values in the run. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);

int main(void)
{
    int x[4] = {1, 2, 3, 4};
    unsigned int i = __VERIFIER_nondet_uint();
    unsigned int j = __VERIFIER_nondet_uint();
    int a = __VERIFIER_nondet_int();
    if (i >= 4 || j >= 4)
        return 3;
    x[i] = a;
    if (x[j] == 7)
        return 0; /* needs i == j and a == 7 */
    if (x[3] == 4)
        return 1;
    return 2; /* needs i == 3 and a != 4 */
}
