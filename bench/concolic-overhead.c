/* concolic-overhead.c - compute-heavy work on concrete data, for the
 * overhead of prog.sym when no value it computes with is symbolic
 * (bench/concolic): matrix products, a sieve, hashing and sorting, with
 * calls, loads, stores and branches in the loops.  One input is read at the
 * end, so the program is a harness like any other. */
extern int __VERIFIER_nondet_int(void);

#define N 48
static int a[N][N], b[N][N], c[N][N];
static unsigned char buf[4096];
static int keys[3000];
static char composite[30000];

static unsigned fnv(const unsigned char *p, int n)
{
    unsigned h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void matmul(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            int s = 0;
            for (int k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

static int sieve(int n)
{
    int count = 0;
    for (int i = 2; i < n; i++)
        composite[i] = 0;
    for (int i = 2; i < n; i++) {
        if (composite[i])
            continue;
        count++;
        for (int j = 2 * i; j < n; j += i)
            composite[j] = 1;
    }
    return count;
}

static void insertion_sort(int *v, int n)
{
    for (int i = 1; i < n; i++) {
        int x = v[i], j = i - 1;
        while (j >= 0 && v[j] > x) {
            v[j + 1] = v[j];
            j--;
        }
        v[j + 1] = x;
    }
}

static unsigned work(void)
{
    unsigned h = 0;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i][j] = (i * 7 + j * 3) % 11;
            b[i][j] = (i + 2 * j) % 13;
        }
    for (int r = 0; r < 16; r++) {
        matmul();
        h ^= (unsigned)c[r % N][N - 1 - r % N];
    }
    h += (unsigned)sieve(30000);
    for (int i = 0; i < (int)sizeof buf; i++)
        buf[i] = (unsigned char)(i * 31 + (int)h);
    for (int r = 0; r < 200; r++)
        h ^= fnv(buf, sizeof buf) + (unsigned)r;
    for (int i = 0; i < 3000; i++)
        keys[i] = (int)((unsigned)i * 2654435761u % 100003u);
    insertion_sort(keys, 3000);
    return h + (unsigned)keys[1500];
}

int main(void)
{
    unsigned h = work();
    int k = __VERIFIER_nondet_int();
    return k == (int)h;
}
