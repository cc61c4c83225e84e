/* table.c - a lookup table indexed by input (symbolic index), written to at
 * an input index too: the difference between --sym-arrays=concretize and
 * theory. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    int t[16];
    for (int i = 0; i < 16; i++)
        t[i] = i * i;
    unsigned a = __VERIFIER_nondet_uint() & 15, b = __VERIFIER_nondet_uint() & 15;
    int v = __VERIFIER_nondet_int();
    if (t[a] == 49)
        return 1; /* a == 7 */
    t[b] = v;
    if (t[a] == 1000 && a != 3)
        reach_error(); /* needs b == a, v == 1000 */
    if (t[9] != 81)
        return 2; /* needs b == 9, v != 81 */
    return 0;
}
