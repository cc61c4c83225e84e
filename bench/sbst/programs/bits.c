/*
 * bits.c - bit patterns of an unsigned value: masks, a population count in
 * a loop and a switch on the low bits.
 */
int bits(unsigned x);

int bits(unsigned x)
{
    int pop = 0, r = 0;
    for (unsigned v = x; v; v >>= 1)
        pop += v & 1u;
    if (pop == 3)
        r |= 1;
    if ((x & 0xF0u) == 0xA0u)
        r |= 2;
    switch (x % 8u) {
    case 0:
        r |= 4;
        break;
    case 5:
        r |= 8;
        break;
    case 7:
        r |= 16;
        break;
    default:
        break;
    }
    return r;
}
