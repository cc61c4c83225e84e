/*
 * rt_exit.c - ending a fork-server run quickly when nothing of the program
 * under test would run at exit.
 *
 * Returning from main runs exit(): the program's atexit/on_exit handlers and
 * destructors (they may cover code and reach errors, so they must run), but
 * also glibc's stdio cleanup and the dynamic linker's fini walk, which in a
 * freshly forked child cost about half of its page faults.  So the runtime
 * notices whether the program registers exit handlers (it defines atexit
 * and on_exit itself, forwarding to libc) or has destructors (entries of
 * .fini_array beyond crtbegin's one), and only when it has neither ends the
 * run with _exit.  stdout is /dev/null and stderr unbuffered under the
 * executor, so no output is lost.  Reproduce mode always uses exit().
 */
#include <dlfcn.h>
#include <stdlib.h>
#include <unistd.h>

#include "rt_state.h"

static int rt_exit_handlers; /* the program registered an exit handler */

/* glibc's atexit is this very call (libc_nonshared.a). */
extern int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

/* Interposes atexit: notes the handler, then registers it as libc would. */
int atexit(void (*fn)(void))
{
    rt_exit_handlers = 1;
    return __cxa_atexit((void (*)(void *))(void *)fn, NULL, NULL);
}

/* Interposes on_exit: notes the handler, then calls libc's. */
int on_exit(void (*fn)(int, void *), void *arg)
{
    typedef int (*on_exit_fn)(void (*)(int, void *), void *);
    rt_exit_handlers = 1;
    on_exit_fn real = (on_exit_fn)dlsym(RTLD_NEXT, "on_exit");
    return real ? real(fn, arg) : -1;
}

/* Linker-defined bounds of the executable's destructor table. */
extern void (*__fini_array_start[])(void) __attribute__((weak, visibility("hidden")));
extern void (*__fini_array_end[])(void) __attribute__((weak, visibility("hidden")));

_Noreturn void rt_return_from_main(int code)
{
    long dtors = __fini_array_start ? (long)(__fini_array_end - __fini_array_start) : 0;
    if (!rt_g.standalone && !rt_exit_handlers && dtors <= 1)
        _exit(code); /* 1: crtbegin's __do_global_dtors_aux */
    exit(code);
}
