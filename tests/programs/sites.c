/*
 * sites.c - crash sites (rt_protocol.h, crash_site): the first input byte
 * picks a fatal signal at one of several places; the second byte is a count
 * of loop rounds before it, each consuming one more byte (0 once the input
 * has run out), so inputs of many lengths reach the same site.  Every crash
 * function is noinline so that each is a frame of its own.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "prog.h"

PROG_COUNTS(4, 0, 0);

enum {
    S_EXIT, S_SEGV_A, S_SEGV_B, S_ASSERT, S_FPE, S_ILL, S_BUS, S_STRLEN, S_ABORT, S_RAISE,
    S_RECURSE, S_OWN_HANDLER, S_SEGV_A2, S_HANG_UNLESS, S_FPE_BAD_FP
};

static volatile int sink;
static volatile int zero;
static char *volatile null_str;

__attribute__((noinline)) static void crash_a(int n) { *(volatile int *)(uintptr_t)(16 + zero) = n; }
__attribute__((noinline)) static void crash_b(int n) { *(volatile int *)(uintptr_t)(32 + zero) = n; }
__attribute__((noinline)) static void fail_assert(int n) { assert(n == 12345); }
__attribute__((noinline)) static void divide(int n) { sink = n / zero; }
__attribute__((noinline)) static void trap(void) { __builtin_trap(); }
__attribute__((noinline)) static size_t length(void) { return strlen(null_str); }

/* Reads a page of an empty file mapping: SIGBUS. */
__attribute__((noinline)) static void bus(void)
{
    int fd = memfd_create("sites", 0);
    volatile char *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        _exit(7);
    sink = p[0];
}

__attribute__((noinline)) static int recurse(int n)
{
    volatile char pad[256];
    pad[n & 255] = (char)n;
    if (n == -1)
        return 0;
    return recurse(n + 1) + pad[(n + 1) & 255];
}

static void own_handler(int sig)
{
    (void)sig;
    _exit(42);
}

/* Divides by zero with a frame pointer of 0x10: the crash handler's
 * unwinder faults on the caller's frame, whose frame address is
 * frame-pointer based (it has a VLA). */
__attribute__((noinline)) static void divide_bad_fp(void)
{
#if defined(__x86_64__)
    __asm__ volatile("mov $0x10, %%rbp\n\txor %%ecx, %%ecx\n\txor %%edx, %%edx\n\t"
                     "mov $1, %%eax\n\tidiv %%ecx" ::: "rax", "rcx", "rdx", "memory");
#elif defined(__i386__)
    __asm__ volatile("mov $0x10, %%ebp\n\txor %%ecx, %%ecx\n\txor %%edx, %%edx\n\t"
                     "mov $1, %%eax\n\tidiv %%ecx" ::: "eax", "ecx", "edx", "memory");
#endif
    sink = 1 / zero;
}

__attribute__((noinline)) static int with_vla(unsigned n)
{
    volatile char buf[n + 1];
    buf[0] = 1;
    divide_bad_fp();
    return buf[0];
}

/* Calls crash_a from a second call site: another crash site. */
__attribute__((noinline)) static void via_other(int n) { crash_a(n + 1); }

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    unsigned sel = __VERIFIER_nondet_uchar();
    unsigned rounds = __VERIFIER_nondet_uchar();
    __ctg_cov_ptr[0]++;
    for (unsigned i = 0; i < rounds; i++)
        sink += (int)i + __VERIFIER_nondet_uchar();
    switch (sel) {
    case S_SEGV_A: crash_a(1); break;
    case S_SEGV_B: crash_b(2); break;
    case S_ASSERT: fail_assert((int)rounds); break;
    case S_FPE: divide(3); break;
    case S_ILL: trap(); break;
    case S_BUS: bus(); break;
    case S_STRLEN: sink = (int)length(); break;
    case S_ABORT: abort();
    case S_RAISE: raise(SIGSEGV); break;
    case S_RECURSE: return recurse(0);
    case S_OWN_HANDLER:
        signal(SIGSEGV, own_handler);
        crash_a(4);
        break;
    case S_SEGV_A2: via_other(5); break;
    case S_FPE_BAD_FP: return with_vla(rounds);
    case S_HANG_UNLESS: /* crashes when the byte after the rounds is set, else hangs */
        if (!__VERIFIER_nondet_uchar())
            for (;;)
                sink++;
        crash_b(6);
        break;
    default: break;
    }
    return 0;
}
