/*
 * bhelper.c - compiling and driving the helper programs of the `bounded`
 * strategy (see bhelper.h).  The co-process talks over the executor's kind
 * of channel (exec_os: an AF_UNIX socket pair; a helper that dies cannot
 * kill ctestgen with SIGPIPE, and every read has a timeout), and is
 * stopped as the executor stops its server (its process group killed,
 * then reaped).
 */
#include "bhelper.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/proc.h"
#include "../../base/sbuf.h"
#include "../../exec/exec_os.h"

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
    if (!exec_os_channel(sv, e))
        return false;
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
    exec_os_kill_group(h->pid);
    exec_os_reap(h->pid);
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

/* Receives exactly n bytes within timeout_s seconds. */
static bool recv_all(int fd, void *p, size_t n, double timeout_s)
{
    double ms = timeout_s * 1000.0 + 1.0;
    return exec_os_set_timeout(fd, ms > 4e9 ? 4000000000u : (uint32_t)ms) &&
           exec_os_recv(fd, p, n, NULL) == 1;
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
    if (h->fd >= 0 && exec_os_send(h->fd, req, n) && recv_all(h->fd, ans, n_ans, timeout_s))
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
