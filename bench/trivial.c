/*
 * trivial.c - the trivial target of bench/throughput, built two ways from
 * this one file so both fuzzers execute the same code:
 *   - for ctestgen (default): a stand-in for an instrumented program, linked
 *     with the runtime; it counts its edges in __ctg_cov_ptr itself and
 *     reads its input with __VERIFIER_nondet_uchar;
 *   - for AFL++ (-DTRIVIAL_AFL, compiled by afl-clang-fast): main reads the
 *     same bytes from stdin; AFL's pass adds the coverage.
 * The work per run: 8 input bytes, a few comparisons, nothing else.
 */
#include <stdint.h>

#ifdef TRIVIAL_AFL
#include <unistd.h>
static unsigned char buf[8];
static unsigned pos, len;
static unsigned char next_byte(void) { return pos < len ? buf[pos++] : 0; }
#define EDGE(i) ((void)0)
#else
#include "../tests/programs/prog.h"
PROG_COUNTS(16, 0, 0);
static unsigned char next_byte(void) { return __VERIFIER_nondet_uchar(); }
#define EDGE(i) (__ctg_cov_ptr[(i)]++)
#endif

/* Branches on the first bytes like a magic-number check. */
static int target(void)
{
    unsigned char a = next_byte(), b = next_byte(), c = next_byte(), d = next_byte();
    int r = 0;
    if (a == 'C') {
        EDGE(0);
        if (b == 'T') {
            EDGE(2);
            if (c == 'G') {
                EDGE(4);
                r = d == '!' ? 3 : 2;
            } else {
                EDGE(5);
            }
        } else {
            EDGE(3);
        }
    } else {
        EDGE(1);
        r = a > 128 ? 1 : 0;
    }
    return r == 3 ? 1 : 0;
}

#ifdef TRIVIAL_AFL
int main(void)
{
    ssize_t n = read(0, buf, sizeof buf);
    len = n > 0 ? (unsigned)n : 0u;
    return target();
}
#else
int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    return target();
}
#endif
