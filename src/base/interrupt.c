/*
 * interrupt.c - the stop request of SIGINT/SIGTERM/SIGHUP (see interrupt.h).
 */
#include "interrupt.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t requested;

/* First signal: ask for a stop.  Second: leave now (async-signal-safe). */
static void on_signal(int sig)
{
    (void)sig;
    if (requested) {
        static const char msg[] = "\nctestgen: interrupted twice: exiting now\n";
        ssize_t w = write(2, msg, sizeof msg - 1);
        (void)w;
        _exit(INTERRUPT_EXIT);
    }
    requested = 1;
}

void interrupt_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
}

bool interrupt_requested(void) { return requested != 0; }

static volatile sig_atomic_t held_back;

bool interrupt_hold(bool hold)
{
    bool was = requested != 0;
    if (hold) {
        held_back = requested;
        requested = 0;
    } else if (held_back) {
        requested = 1;
        held_back = 0;
    }
    return was;
}
