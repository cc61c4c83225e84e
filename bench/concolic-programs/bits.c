/* bits.c - bit manipulation: a loop counting set bits, a rotation and a
 * parity; the error needs exactly 5 bits set and a rotation relation. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) { abort(); }

static unsigned rotl(unsigned v, unsigned k) { return v << k | v >> (32 - k); }

int main(void)
{
    unsigned x = __VERIFIER_nondet_uint(), y = __VERIFIER_nondet_uint();
    int n = 0;
    for (unsigned v = x; v; v &= v - 1)
        n++;
    if (n > 8)
        return 1;
    unsigned p = x ^ (x >> 16);
    p ^= p >> 8;
    p ^= p >> 4;
    p ^= p >> 2;
    p ^= p >> 1;
    if (n == 5 && rotl(x, 3) == y && (p & 1))
        reach_error();
    return (int)(p & 1);
}
