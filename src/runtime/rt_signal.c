/*
 * rt_signal.c - fatal signals of the program under test: telling a stack
 * overflow from other segmentation faults, and where a crash happened.
 *
 * One handler serves SIGSEGV, SIGBUS, SIGFPE, SIGILL and SIGABRT.  It runs on
 * an alternate signal stack (the normal one is exhausted when the program
 * recursed without end) and is installed with SA_RESETHAND, so the signal's
 * default action is back in place when it runs.  It records in the shared
 * header:
 *   - CTG_ST_STACK_OVF when a SIGSEGV's fault address lies near the lower end
 *     of the main thread's stack (its top, __libc_stack_end, minus
 *     RLIMIT_STACK) or, with an unlimited stack, right next to the stack
 *     pointer of a deep stack; the crash site is then the constant
 *     CTG_CRASH_SITE_STACK_OVF (unwinding a million frames is no use);
 *   - otherwise the crash site (rt_protocol.h): a hash of the first up to 3
 *     return addresses inside the executable found by glibc's backtrace(),
 *     after skipping the handler's own frames (inside the executable, the
 *     runtime is linked into it) and then libc's (outside: the signal
 *     trampoline, raise, abort, __assert_fail, strlen ...).
 * Then it raises the signal again: it stays pending until the handler
 * returns and kills the process with the default action, so the executor
 * sees the genuine signal (a hardware fault would also recur when the
 * faulting instruction runs again).  A fault inside the handler (backtrace()
 * reading a smashed stack) ends the process with the original signal.
 *
 * backtrace() loads libgcc_s on its first call (malloc, dlopen): rt_signal_init
 * calls it once before the fork server forks, so no child loads anything in
 * a handler.  A program that installs its own handlers replaces ours.
 *
 * In prog.san-LIST (build_san.c) the sanitizers find errors themselves:
 * AddressSanitizer and UndefinedBehaviorSanitizer print their report and
 * die through their death callbacks, where we set CTG_ST_SANITIZER and a
 * crash site of the report's own: for ASan its kind and the faulting pc,
 * for UBSan its kind and the file, line and column of the check
 * (__ubsan_on_report, which UBSan calls when we define it).  The abort
 * that follows (abort_on_error=1, exec.c) keeps that site.  In other
 * binaries the sanitizer symbols are absent (weak) and nothing changes.
 */
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <ucontext.h>
#include <unistd.h>

#include "rt_state.h"

extern void *__libc_stack_end; /* glibc: top of the main thread's stack */
/* Linker-defined bounds of the executable's code (weak: 0 when the linker
 * does not provide them; the site is then unknown). */
extern char __executable_start[] __attribute__((weak, visibility("hidden")));
extern char _etext[] __attribute__((weak, visibility("hidden")));

#define RT_ALTSTACK_SIZE (64u * 1024u)
#define RT_KIB (uintptr_t)1024u
static uint8_t rt_altstack[RT_ALTSTACK_SIZE] __attribute__((aligned(16)));
static uintptr_t rt_stack_top; /* __libc_stack_end */
static uintptr_t rt_stack_lim; /* RLIMIT_STACK, 0 = unlimited/unknown */
static volatile sig_atomic_t rt_handling; /* signal being handled, 0: none */
static volatile sig_atomic_t rt_san_done; /* a sanitizer set the site     */
static uint64_t rt_ubsan_site;            /* of the last UBSan report, 0  */

/* The sanitizers' interface (compiler-rt), present in prog.san only. */
extern void __sanitizer_set_death_callback(void (*cb)(void)) __attribute__((weak));
extern int __asan_report_present(void) __attribute__((weak));
extern void *__asan_get_report_pc(void) __attribute__((weak));
extern const char *__asan_get_report_description(void) __attribute__((weak));
extern void __ubsan_get_current_report_data(const char **kind, const char **msg,
                                            const char **file, unsigned *line, unsigned *col,
                                            char **addr) __attribute__((weak));
void __ubsan_on_report(void);

#define RT_BT_MAX 64   /* frames taken: handler + libc + 3 of the program */
#define RT_SITE_FRAMES 3

/* The signals whose deaths get a crash site. */
static const int rt_fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};

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

/* True when a code address lies in the executable's own text. */
static int rt_in_exe(uintptr_t a)
{
    uintptr_t lo = (uintptr_t)__executable_start, hi = (uintptr_t)_etext;
    return lo && hi > lo && a >= lo && a < hi;
}

/* The crash site of the current signal (rt_protocol.h), 0 when unknown. */
static uint64_t rt_crash_site(void)
{
    void *bt[RT_BT_MAX];
    int n = backtrace(bt, RT_BT_MAX), i = 0, taken = 0;
    while (i < n && rt_in_exe((uintptr_t)bt[i])) /* this handler */
        i++;
    while (i < n && !rt_in_exe((uintptr_t)bt[i])) /* trampoline, libc */
        i++;
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a over the offsets */
    for (; i < n && taken < RT_SITE_FRAMES && rt_in_exe((uintptr_t)bt[i]); i++, taken++) {
        uint64_t off = (uint64_t)((uintptr_t)bt[i] - (uintptr_t)__executable_start);
        for (int b = 0; b < 8; b++) {
            h ^= (off >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
    if (!taken)
        return 0;
    if (h == 0 || h == CTG_CRASH_SITE_STACK_OVF)
        h ^= 1u;
    return h;
}

/* FNV-1a of string t into h. */
static uint64_t rt_fnv_str(uint64_t h, const char *t)
{
    for (; t && *t; t++) {
        h ^= (unsigned char)*t;
        h *= 0x100000001b3ull;
    }
    return h;
}

static uint64_t rt_fnv_u64(uint64_t h, uint64_t v)
{
    for (int b = 0; b < 8; b++) {
        h ^= (v >> (8 * b)) & 0xffu;
        h *= 0x100000001b3ull;
    }
    return h;
}

/* UBSan calls this for every report (it has a weak default of its own):
 * the site is the check's kind and place. */
void __ubsan_on_report(void)
{
    const char *kind = NULL, *msg = NULL, *file = NULL;
    unsigned line = 0, col = 0;
    char *addr = NULL;
    if (!__ubsan_get_current_report_data)
        return;
    __ubsan_get_current_report_data(&kind, &msg, &file, &line, &col, &addr);
    uint64_t h = rt_fnv_str(0xcbf29ce484222325ull, kind);
    h = rt_fnv_u64(rt_fnv_str(h, file), ((uint64_t)line << 32) | col);
    rt_ubsan_site = h ? h : 1;
}

/* A sanitizer reported an error and is about to end the run. */
static void rt_san_death(void)
{
    uint64_t site = rt_ubsan_site;
    if (!site && __asan_report_present && __asan_report_present()) {
        uintptr_t pc = (uintptr_t)__asan_get_report_pc();
        uint64_t h = rt_fnv_str(0xcbf29ce484222325ull, __asan_get_report_description());
        site = rt_fnv_u64(h, rt_in_exe(pc) ? pc - (uintptr_t)__executable_start : 0);
    }
    if (!site)
        site = rt_crash_site();
    if (site == 0 || site == CTG_CRASH_SITE_STACK_OVF)
        site ^= 1u;
    rt_status(CTG_ST_SANITIZER);
    rt_g.hdr->crash_site = site;
    rt_san_done = 1;
}

/* Reproduce mode (CTESTGEN_INPUT, no fork server): the frames of the
 * crash as offsets in the executable on one stderr line, for ctestgen's
 * triage to symbolise: "ctestgen-frames: SIG 0xOFF 0xOFF ...".  Frames of
 * this handler and of libc are left out, as for the crash site.  Every
 * offset is one past an instruction of its frame (triage looks up OFF - 1):
 * a return address already is, the faulting instruction of a hardware
 * fault (the first frame, straight after the signal frame) gets + 1. */
static void rt_print_frames(int sig, int fault)
{
    void *bt[RT_BT_MAX];
    int n = backtrace(bt, RT_BT_MAX), i = 0, taken = 0;
    while (i < n && rt_in_exe((uintptr_t)bt[i]))
        i++;
    while (i < n && !rt_in_exe((uintptr_t)bt[i]))
        i++;
    char line[40 + 19 * RT_BT_MAX];
    size_t k = 0;
    const char *head = "ctestgen-frames: ";
    while (*head)
        line[k++] = *head++;
    line[k++] = (char)('0' + sig / 10), line[k++] = (char)('0' + sig % 10);
    for (; i < n && taken < 16 && rt_in_exe((uintptr_t)bt[i]); i++, taken++) {
        uint64_t off = (uint64_t)((uintptr_t)bt[i] - (uintptr_t)__executable_start);
        off += fault && taken == 0;
        line[k++] = ' ', line[k++] = '0', line[k++] = 'x';
        int d = 60;
        while (d > 0 && !((off >> d) & 0xfu))
            d -= 4;
        for (; d >= 0; d -= 4)
            line[k++] = "0123456789abcdef"[(off >> d) & 0xfu];
    }
    line[k++] = '\n';
    ssize_t w = write(2, line, k);
    (void)w;
}

/* Ends the process with signal sig and its default action, now. */
static void rt_die(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    sigaction(sig, &sa, NULL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    _exit(128 + sig); /* not reached */
}

static void rt_on_fatal(int sig, siginfo_t *si, void *uc)
{
    int outer = rt_handling;
    if (outer) /* a fault while taking the backtrace */
        rt_die(outer);
    rt_handling = sig;
    /* a signal another process sent says nothing about where we are; a
     * sanitizer's abort keeps the site of its report */
    if (!rt_san_done && (si->si_code > 0 || si->si_pid == getpid())) {
        uint64_t site;
        if (sig == SIGSEGV && si->si_code > 0 &&
            rt_is_stack_ovf((uintptr_t)si->si_addr, rt_fault_sp(uc))) {
            rt_status(CTG_ST_STACK_OVF);
            site = CTG_CRASH_SITE_STACK_OVF;
        } else {
            site = rt_crash_site();
        }
        rt_g.hdr->crash_site = site;
    }
    if (rt_g.standalone && !rt_san_done)
        rt_print_frames(sig, sig != SIGABRT && si->si_code > 0);
    raise(sig); /* pending until we return, then the default action */
}

void rt_signal_init(void)
{
    struct rlimit rl;
    rt_stack_top = (uintptr_t)__libc_stack_end;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
        rt_stack_lim = (uintptr_t)rl.rlim_cur;
    void *warm[4];
    backtrace(warm, 4); /* loads libgcc_s now, not in a child's handler */
    if (__sanitizer_set_death_callback)
        __sanitizer_set_death_callback(rt_san_death);
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = rt_altstack;
    ss.ss_size = sizeof rt_altstack;
    if (sigaltstack(&ss, NULL) != 0)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = rt_on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    for (size_t k = 0; k < sizeof rt_fatal_signals / sizeof rt_fatal_signals[0]; k++)
        sigaction(rt_fatal_signals[k], &sa, NULL);
}
