/*
 * bhelper.c - compiling and driving the helper programs of the `bounded`
 * strategy (see bhelper.h).  The co-process talks over an AF_UNIX socket
 * pair so that a helper that dies cannot kill ctestgen with SIGPIPE
 * (send with MSG_NOSIGNAL), and every read waits with poll() and a timeout.
 */
#include "bhelper.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/proc.h"
#include "../../base/sbuf.h"

bool bhelper_compile(const char *const *sources, int n_sources, const char *const *flags,
                     int n_flags, const char *out, bool verbose, ctg_err *e)
{
    size_t n = (size_t)(n_sources + n_flags) + 8;
    char **argv = ctg_calloc(n, sizeof *argv);
    if (!argv)
        return err_set(e, "out of memory");
    int k = 0;
    argv[k++] = (char *)CTG_CLANG;
    argv[k++] = (char *)"-O0";
    argv[k++] = (char *)"-w";
    for (int i = 0; i < n_flags; i++)
        argv[k++] = (char *)flags[i];
    for (int i = 0; i < n_sources; i++)
        argv[k++] = (char *)sources[i];
    argv[k++] = (char *)"-o";
    argv[k++] = (char *)out;
    if (verbose) {
        char *line = proc_cmdline(argv);
        fprintf(stderr, "+ %s\n", line ? line : CTG_CLANG);
        ctg_free(line);
    }
    sbuf err = SBUF_INIT;
    proc_opts po = {.err = &err, .timeout_s = 300};
    proc_result r;
    bool ok = proc_run(argv, &po, &r, e);
    if (ok && !(r.exited && r.code == 0)) {
        fwrite(sbuf_str(&err), 1, err.len, stderr);
        ok = err_set(e, "%s: the helper program does not compile (clang-14 messages above); "
                        "check the names in the finitisation or --filter",
                     sources[0]);
    }
    sbuf_release(&err);
    ctg_free(argv);
    return ok;
}

struct bhelper {
    char *path;
    pid_t pid;
    int fd;
    unsigned restarts;
};

/* Forks and execs the helper with the socket's other end as stdin/stdout. */
static bool spawn(bhelper *h, ctg_err *e)
{
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
        return err_sys(e, "%s: socketpair", h->path);
    pid_t pid = fork();
    if (pid < 0) {
        close(sv[0]), close(sv[1]);
        return err_sys(e, "%s: fork", h->path);
    }
    if (pid == 0) {
        int null = open("/dev/null", O_WRONLY);
        dup2(sv[1], 0);
        dup2(sv[1], 1);
        if (null >= 0)
            dup2(null, 2);
        setpgid(0, 0);
        execl(h->path, h->path, (char *)NULL);
        _exit(127);
    }
    close(sv[1]);
    h->pid = pid;
    h->fd = sv[0];
    return true;
}

static void kill_helper(bhelper *h)
{
    if (h->fd >= 0)
        close(h->fd);
    if (h->pid > 0) {
        kill(-h->pid, SIGKILL);
        kill(h->pid, SIGKILL);
        while (waitpid(h->pid, NULL, 0) < 0 && errno == EINTR)
            ;
    }
    h->fd = -1;
    h->pid = 0;
}

bhelper *bhelper_start(const char *path, ctg_err *e)
{
    bhelper *h = ctg_calloc(1, sizeof *h);
    if (!h || !(h->path = ctg_strdup(path))) {
        ctg_free(h);
        err_set(e, "out of memory");
        return NULL;
    }
    h->fd = -1;
    if (!spawn(h, e)) {
        bhelper_stop(h);
        return NULL;
    }
    return h;
}

static bool send_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n > 0) {
        ssize_t k = send(fd, c, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k, n -= (size_t)k;
    }
    return true;
}

static bool recv_all(int fd, void *p, size_t n, double timeout_s)
{
    char *c = p;
    double end = fs_now() + timeout_s;
    while (n > 0) {
        double left = end - fs_now();
        struct pollfd pf = {fd, POLLIN, 0};
        int r = left > 0 ? poll(&pf, 1, (int)(left * 1000) + 1) : 0;
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return false;
        ssize_t k = recv(fd, c, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return false;
        c += k, n -= (size_t)k;
    }
    return true;
}

/* Replaces a dead or hung helper by a fresh one. */
static void restart(bhelper *h)
{
    ctg_err ignore = {{0}};
    kill_helper(h);
    h->restarts++;
    spawn(h, &ignore);
}

bool bhelper_call(bhelper *h, const void *req, size_t n, void *ans, size_t n_ans,
                  double timeout_s)
{
    if (h->fd < 0)
        restart(h);
    if (h->fd >= 0 && send_all(h->fd, req, n) && recv_all(h->fd, ans, n_ans, timeout_s))
        return true;
    restart(h);
    return false;
}

bool bhelper_read_more(bhelper *h, void *ans, size_t n, double timeout_s)
{
    if (h->fd >= 0 && recv_all(h->fd, ans, n, timeout_s))
        return true;
    restart(h);
    return false;
}

unsigned bhelper_restarts(const bhelper *h) { return h->restarts; }

void bhelper_stop(bhelper *h)
{
    if (!h)
        return;
    kill_helper(h);
    ctg_free(h->path);
    ctg_free(h);
}
