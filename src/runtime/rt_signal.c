/*
 * rt_signal.c - telling a stack overflow from other segmentation faults.
 *
 * A SIGSEGV handler runs on an alternate signal stack (the normal one is
 * exhausted when the program recursed without end).  It sets
 * CTG_ST_STACK_OVF when the fault address lies near the lower end of the
 * main thread's stack (its top, __libc_stack_end, minus RLIMIT_STACK) or,
 * with an unlimited stack, right next to the stack pointer of a deep stack.
 * The handler is installed with SA_RESETHAND: on return the faulting
 * instruction runs again and the default action kills the process, so the
 * executor sees the genuine SIGSEGV.
 */
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <ucontext.h>

#include "rt_state.h"

extern void *__libc_stack_end; /* glibc: top of the main thread's stack */

#define RT_ALTSTACK_SIZE (64u * 1024u)
#define RT_KIB (uintptr_t)1024u
static uint8_t rt_altstack[RT_ALTSTACK_SIZE] __attribute__((aligned(16)));
static uintptr_t rt_stack_top; /* __libc_stack_end */
static uintptr_t rt_stack_lim; /* RLIMIT_STACK, 0 = unlimited/unknown */

/* Stack pointer at the fault, or 0 where the architecture is not known. */
static uintptr_t rt_fault_sp(void *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RSP];
#elif defined(__i386__)
    return (uintptr_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_ESP];
#else
    (void)uc;
    return 0;
#endif
}

/* True when a fault at addr (stack pointer sp) is a stack overflow. */
static int rt_is_stack_ovf(uintptr_t addr, uintptr_t sp)
{
    uintptr_t top = rt_stack_top;
    if (!top || addr >= top)
        return 0;
    if (rt_stack_lim && rt_stack_lim < top) {
        /* the real top lies above __libc_stack_end by argv/env: allow slack */
        uintptr_t lo = top - rt_stack_lim;
        if (addr + 1024u * RT_KIB >= lo && addr <= lo + 2048u * RT_KIB)
            return 1;
    }
    return sp && top - sp > 1024u * RT_KIB && addr + 64u * RT_KIB >= sp &&
           addr <= sp + 64u * RT_KIB;
}

static void rt_on_segv(int sig, siginfo_t *si, void *uc)
{
    if (si->si_code <= 0) { /* sent by kill(): keep its meaning */
        raise(sig);         /* delivered with the default action on return */
        return;
    }
    if (rt_is_stack_ovf((uintptr_t)si->si_addr, rt_fault_sp(uc)))
        rt_status(CTG_ST_STACK_OVF);
}

void rt_signal_init(void)
{
    struct rlimit rl;
    rt_stack_top = (uintptr_t)__libc_stack_end;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        rt_stack_lim = (uintptr_t)rl.rlim_cur;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = rt_altstack;
    ss.ss_size = sizeof rt_altstack;
    if (sigaltstack(&ss, NULL) != 0)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = rt_on_segv;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, NULL);
}
