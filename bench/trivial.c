/*
 * trivial.c - the trivial target of bench/throughput, built from this one
 * file by both tools so they execute the same code:
 *   - ctestgen: a Test-Comp harness (main + __VERIFIER_nondet_uchar),
 *     instrumented and linked with the runtime by `ctestgen build`;
 *   - AFL++ (-DTRIVIAL_AFL, afl-clang-fast): main reads the same bytes from
 *     stdin; AFL's pass adds the coverage.
 * The work per run: 4 input bytes and a few comparisons, nothing else.
 */
#ifdef TRIVIAL_AFL
#include <unistd.h>
static unsigned char buf[8];
static unsigned pos, len;
static unsigned char next_byte(void) { return pos < len ? buf[pos++] : 0; }
#else
extern unsigned char __VERIFIER_nondet_uchar(void);
static unsigned char next_byte(void) { return __VERIFIER_nondet_uchar(); }
#endif

/* Branches on the first bytes like a magic-number check. */
static int target(void)
{
    unsigned char a = next_byte(), b = next_byte(), c = next_byte(), d = next_byte();
    if (a == 'C') {
        if (b == 'T') {
            if (c == 'G')
                return d == '!' ? 3 : 2;
            return 1;
        }
        return 0;
    }
    return a > 128 ? 1 : 0;
}

int main(void)
{
#ifdef TRIVIAL_AFL
    ssize_t n = read(0, buf, sizeof buf);
    len = n > 0 ? (unsigned)n : 0u;
#endif
    return target() == 3;
}
