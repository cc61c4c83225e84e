/*
 * exec_os.c - the executor's Linux calls (see exec_os.h).
 */
#include "exec_os.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../runtime/rt_protocol.h"
#include "../runtime/rt_spin.h"

bool exec_os_shm_new(size_t size, int *fd, uint8_t **map, ctg_err *e)
{
    int f = memfd_create("ctestgen-shm", MFD_CLOEXEC);
    if (f < 0)
        return err_sys(e, "executor: cannot create the shared memory (memfd_create)");
    if (ftruncate(f, (off_t)size) != 0) {
        close(f);
        return err_sys(e, "executor: cannot size the shared memory to %zu bytes", size);
    }
    void *m = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, f, 0);
    if (m == MAP_FAILED) {
        close(f);
        return err_sys(e, "executor: cannot map %zu bytes of shared memory", size);
    }
    *fd = f;
    *map = m;
    return true;
}

void exec_os_shm_free(int fd, uint8_t *map, size_t size)
{
    if (map)
        munmap(map, size);
    if (fd >= 0)
        close(fd);
}

bool exec_os_channel(int fds[2], ctg_err *e)
{
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
        return err_sys(e, "executor: cannot create a control channel (socketpair)");
    return true;
}

/* Moves fd to a descriptor >= 300 so the dup2 calls below cannot clobber
 * one source with another (async-signal-safe; child side). */
static int high_fd(int fd)
{
    return fd < 0 ? -1 : fcntl(fd, F_DUPFD, 300);
}

/* Child side of exec_os_spawn_server: install descriptors, limits and
 * signal dispositions, then exec.  Only async-signal-safe calls. */
static void spawn_child(const exec_os_spawn *s, int errw)
{
    int ctl = high_fd(s->ctl_fd), st = high_fd(s->st_fd), shm = high_fd(s->shm_fd);
    int err = s->stderr_fd >= 0 ? high_fd(s->stderr_fd) : -1;
    int trace = s->trace_fd >= 0 ? high_fd(s->trace_fd) : -1;
    int ew = high_fd(errw);
    int null = open("/dev/null", O_RDWR);
    if (ctl < 0 || st < 0 || shm < 0 || ew < 0 || null < 0 || (s->trace_fd >= 0 && trace < 0))
        goto fail;
    fcntl(ew, F_SETFD, FD_CLOEXEC);
    if (dup2(ctl, CTG_FD_CTL) < 0 || dup2(st, CTG_FD_ST) < 0 || dup2(shm, CTG_FD_SHM) < 0 ||
        dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(err >= 0 ? err : null, 2) < 0 ||
        (trace >= 0 && dup2(trace, CTG_FD_TRACE) < 0))
        goto fail;
    /* close everything else but the error pipe */
    unsigned keep = trace >= 0 ? CTG_FD_TRACE : CTG_FD_SHM;
    close_range(3, CTG_FD_CTL - 1, 0);
    close_range(keep + 1u, (unsigned)ew - 1u, 0);
    close_range((unsigned)ew + 1u, ~0u, 0);
    struct rlimit rl = {0, 0};
    setrlimit(RLIMIT_CORE, &rl);
    /* an unlimited stack would let endless recursion eat the whole memory
     * limit (a slow timeout) instead of overflowing (a quick SIGSEGV) */
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur == RLIM_INFINITY) {
        rl.rlim_cur = (rlim_t)8 << 20;
        setrlimit(RLIMIT_STACK, &rl);
    }
    if (s->mem_limit_mb) {
        rl.rlim_cur = rl.rlim_max = (rlim_t)(s->mem_limit_mb << 20);
        setrlimit(RLIMIT_AS, &rl);
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    if (s->fsize_limit) {
        rl.rlim_cur = rl.rlim_max = (rlim_t)s->fsize_limit;
        setrlimit(RLIMIT_FSIZE, &rl);
        sa.sa_handler = SIG_IGN; /* writes beyond the cap fail with EFBIG */
        sigaction(SIGXFSZ, &sa, NULL);
    }
    static const int dfl[] = {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD, SIGALRM};
    sa.sa_handler = SIG_DFL;
    for (size_t i = 0; i < sizeof dfl / sizeof dfl[0]; i++)
        sigaction(dfl[i], &sa, NULL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    if (s->work_dir && chdir(s->work_dir) != 0)
        goto fail;
    setpgid(0, 0); /* terminal signals go to the tool, not the server */
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* and it dies with the tool */
    /* the same addresses in every session: a path condition can hold an
     * address (a pointer compared with another), and with the layout
     * randomised the solver saw other constants, returned other models and
     * a fixed seed gave another suite (json, --search-scope tree) */
    int pers = personality(0xffffffff);
    if (pers != -1)
        personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    execve(s->binary, s->argv, s->envp);
fail:;
    int code = errno;
    if (write(ew >= 0 ? ew : errw, &code, sizeof code) < 0)
        code = 0;
    _exit(127);
}

bool exec_os_spawn_server(const exec_os_spawn *s, pid_t *pid, ctg_err *e)
{
    int ep[2];
    if (pipe2(ep, O_CLOEXEC) != 0)
        return err_sys(e, "executor: cannot create a pipe");
    pid_t p = fork();
    if (p < 0) {
        close(ep[0]);
        close(ep[1]);
        return err_sys(e, "%s: cannot start the program (fork)", s->binary);
    }
    if (p == 0)
        spawn_child(s, ep[1]);
    close(ep[1]);
    int code = 0;
    ssize_t r;
    do
        r = read(ep[0], &code, sizeof code);
    while (r < 0 && errno == EINTR);
    close(ep[0]);
    if (r == (ssize_t)sizeof code) {
        exec_os_reap(p);
        errno = code;
        return err_sys(e, "%s: cannot execute the program", s->binary);
    }
    *pid = p;
    return true;
}

bool exec_os_set_timeout(int fd, uint32_t ms)
{
    struct timeval tv = {(time_t)(ms / 1000u), (suseconds_t)((ms % 1000u) * 1000u)};
    return setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) == 0;
}

bool exec_os_send(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n > 0) {
        ssize_t w = send(fd, p, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return false;
        p += w;
        n -= (size_t)w;
    }
    return true;
}

int exec_os_recv(int fd, void *buf, size_t n, size_t *got)
{
    static int spin = -1; /* decided at the first receive (rt_spin.h) */
    char *p = buf;
    size_t done = 0;
    int rc = 1;
    if (spin < 0)
        spin = ctg_spin_allowed();
    if (spin)
        done = ctg_spin_recv(fd, p, n, CTG_SPIN_US);
    while (done < n) {
        /* MSG_WAITALL: one system call for a pid and status sent apart.  It
         * returns short only when the timeout expires or a signal arrives:
         * both end this call (the caller knows which by the clock). */
        ssize_t r = recv(fd, p + done, n - done, MSG_WAITALL);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            rc = -1;
            break;
        }
        if (r <= 0) {
            rc = 0;
            break;
        }
        done += (size_t)r;
        if (done < n) {
            rc = -1;
            break;
        }
    }
    if (got)
        *got = done;
    return rc;
}

void exec_os_kill_group(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
}

void exec_os_reap(pid_t pid)
{
    if (pid <= 0)
        return;
    kill(pid, SIGKILL);
    while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
        ;
}

double exec_os_now_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}
