/*
 * afl_testcomp.c - runs a Test-Comp harness under AFL++ (bench/fuzz).
 *
 * Linked with a program compiled by afl-clang-fast (this file itself is
 * compiled without instrumentation).  It implements every
 * __VERIFIER_nondet_* of ctestgen's runtime (src/runtime/rt_nondet.c,
 * types of src/runtime/rt_protocol.h) over the bytes of stdin, decoded as
 * the runtime decodes them, so a file of AFL's queue means to the program
 * what the same file means to ctestgen and to `ctestgen replay --corpus`:
 *   - each call takes the next sizeof(T) bytes, little endian, natural
 *     widths (long, pointers and size_t: 8 bytes on x86-64);
 *   - _Bool is the low bit of one byte;
 *   - once a value does not fit in what is left, it and every later value
 *     are 0 (the run goes on).
 * __VERIFIER_assume(c) ends the run normally (exit 0) when c is false;
 * __VERIFIER_error() and a reach_error() the program only declares abort(),
 * so AFL records the run as a crash.  A reach_error() the program defines
 * itself (calling abort() or __assert_fail(), as examples/ do) wins over
 * the weak one here and crashes the same way.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define WEAK __attribute__((weak))
#define MAX_INPUT (1u << 20) /* CTG_MAX_INPUT */

static unsigned char *buf;
static size_t len, pos;
static int loaded;

/* Reads stdin once, at the first value asked for. */
static void load(void)
{
    loaded = 1;
    buf = malloc(MAX_INPUT);
    if (!buf)
        abort();
    ssize_t n;
    while (len < MAX_INPUT && (n = read(0, buf + len, MAX_INPUT - len)) > 0)
        len += (size_t)n;
}

/* The next size bytes into dst; zeros for good once a value does not fit. */
static void take(void *dst, size_t size)
{
    if (!loaded)
        load();
    if (size > len - pos) {
        memset(dst, 0, size);
        len = pos;
        return;
    }
    memcpy(dst, buf + pos, size);
    pos += size;
}

#define NONDET(name, T)                                                                            \
    WEAK T __VERIFIER_nondet_##name(void);                                                         \
    WEAK T __VERIFIER_nondet_##name(void)                                                          \
    {                                                                                              \
        T v;                                                                                       \
        take(&v, sizeof v);                                                                        \
        return v;                                                                                  \
    }

NONDET(char, char)
NONDET(uchar, unsigned char)
NONDET(short, short)
NONDET(ushort, unsigned short)
NONDET(int, int)
NONDET(uint, unsigned int)
NONDET(unsigned, unsigned int)
NONDET(unsigned_int, unsigned int)
NONDET(long, long)
NONDET(ulong, unsigned long)
NONDET(longlong, long long)
NONDET(ulonglong, unsigned long long)
NONDET(float, float)
NONDET(double, double)
NONDET(pointer, void *)
NONDET(pchar, char *)
NONDET(size_t, size_t)
NONDET(loff_t, long long)
NONDET(sector_t, unsigned long long)
NONDET(u64, unsigned long long)
NONDET(u32, unsigned int)
NONDET(u16, unsigned short)
NONDET(u8, unsigned char)
NONDET(s64, long long)
NONDET(s32, int)
NONDET(s16, short)
NONDET(s8, signed char)
NONDET(pthread_t, unsigned long)

WEAK _Bool __VERIFIER_nondet_bool(void);
WEAK _Bool __VERIFIER_nondet_bool(void)
{
    unsigned char b;
    take(&b, 1);
    return b & 1u;
}

WEAK void __VERIFIER_assume(int cond);
WEAK void __VERIFIER_assume(int cond)
{
    if (!cond)
        exit(0);
}

WEAK void __VERIFIER_atomic_begin(void);
WEAK void __VERIFIER_atomic_begin(void) {}
WEAK void __VERIFIER_atomic_end(void);
WEAK void __VERIFIER_atomic_end(void) {}

WEAK void __VERIFIER_error(void);
WEAK void __VERIFIER_error(void) { abort(); }

WEAK void reach_error(void);
WEAK void reach_error(void) { abort(); }
