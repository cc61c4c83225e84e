/* Two crash sites, each reached by many inputs: n (a byte) values x are
 * read; after the loop, the program writes through a null pointer in
 * store_a when some x was 99 (mod 256), else in store_b when some x was -99
 * (mod 256).  Random inputs that crash hold many values and cover more or
 * fewer of the branches on the way; the smallest input of either crash is 5
 * bytes: n = 1 and one x (values past the end of an input read as 0). */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);

static int *volatile nowhere;

__attribute__((noinline)) static void store_a(int v) { nowhere[0] = v; }
__attribute__((noinline)) static void store_b(int v) { nowhere[1] = v; }

int main(void)
{
    unsigned char n = __VERIFIER_nondet_uchar();
    int hit_a = 0, hit_b = 0, kinds = 0;
    for (unsigned i = 0; i < n; i++) {
        int x = __VERIFIER_nondet_int();
        if (x < 0)
            kinds |= 1;
        else if (x > 1000000)
            kinds |= 2;
        else if (x > 1000)
            kinds |= 4;
        else if (x & 1)
            kinds |= 8;
        if (x % 256 == 99)
            hit_a = 1;
        if (x % 256 == -99)
            hit_b = 1;
    }
    if (n < 16)
        kinds |= 16;
    else if (n < 64)
        kinds |= 32;
    else if (n < 128)
        kinds |= 64;
    if (hit_a)
        store_a(kinds);
    if (hit_b)
        store_b(kinds);
    return 0;
}
