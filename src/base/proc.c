/*
 * proc.c - spawning helper programs (see proc.h).
 */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../runtime/rt_procscan.h"
#include "fsutil.h"
#include "mem.h"

#define CAPTURE_CAP (4u << 20) /* bytes kept of each captured stream */

extern char **environ;

/* Child side: wire descriptors, limits and environment, then exec. */
static void child_exec(char *const argv[], const proc_opts *o, int outw, int errw, int errpipe)
{
    setpgid(0, 0);
    int in = open(o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
    int null = open("/dev/null", O_WRONLY);
    if (in < 0 || null < 0)
        goto fail;
    dup2(in, 0);
    dup2(outw >= 0 ? outw : null, 1);
    dup2(errw >= 0 ? errw : null, 2);
    if (o->cwd && chdir(o->cwd) != 0)
        goto fail;
    if (o->mem_limit_mb > 0) {
        struct rlimit rl = {(rlim_t)o->mem_limit_mb << 20, (rlim_t)o->mem_limit_mb << 20};
        setrlimit(RLIMIT_AS, &rl);
    }
    if (o->max_procs > 0) {
        struct rlimit rl = {(rlim_t)o->max_procs, (rlim_t)o->max_procs};
        setrlimit(RLIMIT_NPROC, &rl);
    }
    if (o->contain || o->contain_group)
        prctl(PR_SET_PDEATHSIG, SIGKILL); /* dies with ctestgen */
    for (char *const *p = o->env_add; p && *p; p++)
        putenv(*p);
    /* a path runs as it is: execvp would hand a file the kernel cannot
     * execute (ENOEXEC: a 32-bit program on a kernel without IA-32
     * emulation) to /bin/sh, which exits 126, and the cause would be lost */
    if (strchr(argv[0], '/'))
        execv(argv[0], argv);
    else
        execvp(argv[0], argv);
fail:;
    int err = errno;
    ssize_t w = write(errpipe, &err, sizeof err);
    (void)w;
    _exit(127);
}

/* Appends what is readable on fd to b (up to the cap); false at EOF. */
static bool drain(int fd, sbuf *b)
{
    char buf[65536];
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && (errno == EINTR || errno == EAGAIN))
        return true;
    if (n <= 0)
        return false;
    if (b && b->len < CAPTURE_CAP)
        sbuf_append(b, buf, (size_t)n);
    return true;
}

/* Pumps the two capture pipes until both close or the deadline passes. */
static bool pump(int fdo, int fde, const proc_opts *o, double deadline)
{
    int fds[2] = {fdo, fde};
    while (fds[0] >= 0 || fds[1] >= 0) {
        struct pollfd p[2];
        int np = 0, map[2];
        for (int i = 0; i < 2; i++)
            if (fds[i] >= 0) {
                p[np].fd = fds[i];
                p[np].events = POLLIN;
                map[np++] = i;
            }
        int wait_ms = -1;
        if (deadline > 0) {
            double left = deadline - fs_now();
            if (left <= 0)
                return false;
            wait_ms = (int)(left * 1000) + 1;
        }
        int rc = poll(p, (nfds_t)np, wait_ms);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc < 0)
            return true;
        for (int k = 0; k < np; k++) {
            if (!p[k].revents)
                continue;
            int i = map[k];
            if (!drain(fds[i], i == 0 ? o->out : o->err)) {
                close(fds[i]);
                fds[i] = -1;
            }
        }
    }
    return true;
}

/* Waits for pid, killing its process group at the deadline. */
static int wait_child(pid_t pid, double deadline, bool *timed_out)
{
    int status = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, deadline > 0 ? WNOHANG : 0);
        if (w == pid)
            return status;
        if (w < 0 && errno != EINTR)
            return status;
        if (deadline > 0 && fs_now() > deadline && !*timed_out) {
            *timed_out = true;
            kill(-pid, SIGKILL);
            kill(pid, SIGKILL);
            deadline = 0;
        }
        if (deadline > 0) {
            struct timespec ts = {0, 2000000};
            nanosleep(&ts, NULL);
        }
    }
}

static pid_t spared; /* proc_spare */

void proc_spare(int pid) { spared = (pid_t)pid; }

/* Kills process group pgid and everything it left behind: as a subreaper,
 * this process inherits the orphans (even those in other groups or
 * sessions), which are killed and reaped until none is left but the
 * spared child (proc_spare). */
static void kill_leftovers(pid_t pgid)
{
    kill(-pgid, SIGKILL);
    ctg_reap_children(&spared);
}

bool proc_run(char *const argv[], const proc_opts *o, proc_result *r, ctg_err *e)
{
    static const proc_opts none;
    if (!o)
        o = &none;
    if (o->contain)
        prctl(PR_SET_CHILD_SUBREAPER, 1);
    int po[2] = {-1, -1}, pe[2] = {-1, -1}, perr[2];
    if ((o->out && pipe2(po, O_CLOEXEC)) || (o->err && pipe2(pe, O_CLOEXEC)) ||
        pipe2(perr, O_CLOEXEC))
        return err_sys(e, "%s: cannot create pipe", argv[0]);
    pid_t pid = fork();
    if (pid < 0)
        return err_sys(e, "%s: cannot fork", argv[0]);
    if (pid == 0)
        child_exec(argv, o, po[1], pe[1], perr[1]);
    if (po[1] >= 0)
        close(po[1]);
    if (pe[1] >= 0)
        close(pe[1]);
    close(perr[1]);
    double deadline = o->timeout_s > 0 ? fs_now() + o->timeout_s : 0;
    memset(r, 0, sizeof *r);
    if (!pump(po[0], pe[0], o, deadline)) {
        r->timed_out = true;
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
    }
    if (po[0] >= 0)
        close(po[0]);
    if (pe[0] >= 0)
        close(pe[0]);
    int status = wait_child(pid, r->timed_out ? 0 : deadline, &r->timed_out);
    int child_errno = 0;
    ssize_t n = read(perr[0], &child_errno, sizeof child_errno);
    close(perr[0]);
    if (n == (ssize_t)sizeof child_errno) {
        errno = child_errno;
        return err_sys(e, "%s: cannot run (is it installed? run 'make deps')", argv[0]);
    }
    if (o->contain)
        kill_leftovers(pid);
    else if (o->contain_group)
        kill(-pid, SIGKILL);
    r->exited = WIFEXITED(status);
    r->code = r->exited ? WEXITSTATUS(status) : 0;
    r->signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    return true;
}

char *proc_cmdline(char *const argv[])
{
    sbuf b = SBUF_INIT;
    for (int i = 0; argv[i]; i++) {
        if (i)
            sbuf_putc(&b, ' ');
        const char *a = argv[i];
        if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == strlen(a)) {
            sbuf_puts(&b, a);
            continue;
        }
        sbuf_putc(&b, '\'');
        for (; *a; a++) {
            if (*a == '\'')
                sbuf_puts(&b, "'\\''");
            else
                sbuf_putc(&b, *a);
        }
        sbuf_putc(&b, '\'');
    }
    return sbuf_take(&b);
}
