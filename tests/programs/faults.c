/*
 * faults.c - the fault classes of issue 2 behind a selector: the first input
 * byte picks what the run does.  Every run first counts edge 0; edge 1 + sel
 * marks that the selected behaviour started.
 */
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "prog.h"

PROG_COUNTS(64, 0, 2);

enum {
    F_EXIT3, F_SEGV, F_ABORT, F_LOOP, F_RECURSE, F_MALLOC_100G, F_FORK_LOOP, F_STDOUT_1G,
    F_STDIN, F_ERROR, F_ASSUME, F_KILL_SERVER, F_STDERR_1G, F_PPID, F_VERIFIER_ERROR,
    F_CALLOC_HUGE, F_NULL_WRITE
};

static volatile int sink;

/* Recurses without end; the frame is large enough to defeat tail calls. */
static int recurse(int n)
{
    volatile char pad[256];
    pad[n & 255] = (char)n;
    if (n == -1) /* never: keeps the compiler from calling this infinite */
        return 0;
    return recurse(n + 1) + pad[(n + 1) & 255];
}

/* Writes 1 GB to fd in 64 KiB blocks, ignoring errors (capped files). */
static void flood(int fd)
{
    static char buf[1 << 16];
    memset(buf, 'x', sizeof buf);
    for (int i = 0; i < (1 << 14); i++)
        if (write(fd, buf, sizeof buf) < 0)
            sink++;
}

int __ctg_user_main(int argc, char **argv, char **envp)
{
    (void)argc, (void)argv, (void)envp;
    unsigned sel = __VERIFIER_nondet_uchar();
    __ctg_cov_ptr[0]++;
    if (sel < 63)
        __ctg_cov_ptr[1 + sel]++;
    switch (sel) {
    case F_EXIT3: return 3;
    case F_SEGV: *(volatile int *)(uintptr_t)16 = 1; return 0;
    case F_ABORT: abort();
    case F_LOOP: for (;;) sink++;
    case F_RECURSE: return recurse(0);
    case F_MALLOC_100G: {
        unsigned long long big = 100ull << 30; /* 100 GB, or all of a 32-bit space */
        char *p = __ctg_malloc(big > SIZE_MAX ? SIZE_MAX - 4096u : (size_t)big);
        p[0] = 1;
        return 0;
    }
    case F_FORK_LOOP: {
        int failed = 0;
        for (int i = 0; i < 1000; i++)
            if (__ctg_fork() < 0)
                failed++;
        return failed == 1000 ? 5 : 6;
    }
    case F_STDOUT_1G: flood(1); return 0;
    case F_STDIN: {
        char c;
        ssize_t r = read(0, &c, 1);
        return r == 0 ? 4 : 9;
    }
    case F_ERROR: __ctg_error(1); return 0;
    case F_ASSUME: __VERIFIER_assume(0); return 0;
    case F_KILL_SERVER: kill(getppid(), SIGKILL); pause(); return 0;
    case F_STDERR_1G: flood(2); return 0;
    case F_PPID: prog_out("%ld\n", (long)getppid()); return 0;
    case F_VERIFIER_ERROR: __VERIFIER_error(); return 0;
    case F_CALLOC_HUGE: return __ctg_calloc((size_t)-1 / 2, 4) != NULL;
    case F_NULL_WRITE: *(volatile int *)0 = 0; return 0;
    default: return 100;
    }
}
