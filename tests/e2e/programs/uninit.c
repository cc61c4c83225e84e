/* uninit.c - tests an uninitialised local, as CIL-generated Test-Comp
 * programs do (sv-benchmarks s3_srvr: assume_abort_if_not(ag_Z != 0) on a
 * variable never written).  gcc -O0 reads 0 there on a fresh stack; an
 * engine build that read something else would explore paths the replay
 * never takes. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
static void assume_abort_if_not(int c) { if (!c) abort(); }
static int spoil(int a) { volatile int junk[16]; for (int i = 0; i < 16; i++) junk[i] = a + i; return junk[3]; }
static int body(void)
{
    int flag; /* never written */
    assume_abort_if_not(flag == 0);
    int x = __VERIFIER_nondet_int(), n = 0;
    if (x > 10) n++;
    if (x > 100) n++;
    if (x > 1000) n++;
    if (x < -5) n++;
    if (x % 7 == 3) n++;
    return n;
}
int main(void)
{
    spoil(0x5a5a);
    return body();
}
