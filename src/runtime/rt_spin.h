/*
 * rt_spin.h - a receive on a control channel that spins before it sleeps.
 * Header-only and libc-only, like rt_procscan.h: the executor (waiting for
 * a run's status) and the persistent child of the runtime (waiting for the
 * next command) share it.
 *
 * A message between ctestgen and the program under test costs a sleep and
 * a wake-up on each side; on this project's 2-core VMs a batch's round
 * trip cost about 60 us in the scheduler, a quarter of a libFuzzer target's
 * wall time.  When the process may run on two CPUs or more, the receiver
 * first polls the channel without blocking for up to CTG_SPIN_US, so a
 * reply that comes within that time is taken on the CPU it waits on.  A
 * process pinned to one CPU (run --jobs pins each worker and its program
 * to one) never spins: it would only take the CPU from the peer it waits
 * for.
 */
#ifndef CTG_RT_SPIN_H
#define CTG_RT_SPIN_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <sys/socket.h>
#include <time.h>

#define CTG_SPIN_US 100u /* polling before a receive sleeps */

/* Whether this process may run on more than one CPU (then spinning can
 * overlap with its peer). */
static inline int ctg_spin_allowed(void)
{
    cpu_set_t s;
    CPU_ZERO(&s);
    return sched_getaffinity(0, sizeof s, &s) == 0 && CPU_COUNT(&s) >= 2;
}

static inline unsigned long long ctg_spin_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000ull + (unsigned long long)ts.tv_nsec / 1000u;
}

/* Polls socket fd for up to spin_us microseconds for n bytes into buf,
 * without blocking.  Returns how many arrived (n, or fewer when the time
 * ran out, the peer closed the channel or an error occurred: the caller's
 * blocking receive then takes the rest and sees the end or the error). */
static inline size_t ctg_spin_recv(int fd, void *buf, size_t n, unsigned spin_us)
{
    char *p = buf;
    size_t done = 0;
    unsigned long long until = 0;
    for (unsigned k = 0; done < n; k++) {
        ssize_t r = recv(fd, p + done, n - done, MSG_DONTWAIT);
        if (r > 0) {
            done += (size_t)r;
            continue;
        }
        if (r == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
            break;
        if ((k & 15u) == 0) { /* the clock every 16 polls */
            unsigned long long t = ctg_spin_now_us();
            if (!until)
                until = t + spin_us;
            else if (t >= until)
                break;
        }
    }
    return done;
}

#endif
