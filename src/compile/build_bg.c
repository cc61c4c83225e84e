/*
 * build_bg.c - prog.sym built in a child process while a search starts on
 * prog.cov (see build_sym_background in build.h): the child runs
 * build_program with want_sym in its own process group and reports a
 * failure through a pipe; a cancel kills the group and removes add_sym's
 * temporary directory; a detach lets it finish into the cache.
 */
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/sbuf.h"
#include "build.h"

/* Points stdin, stdout and stderr at /dev/null: the background build says
 * what went wrong through its pipe, and once detached (build_sym_detach)
 * it must not keep the caller's output pipes open. */
static void quiet_stdio(void)
{
    int fd = open("/dev/null", O_RDWR);
    for (int k = 0; fd >= 0 && k < 3; k++)
        (void)dup2(fd, k);
    if (fd > 2)
        close(fd);
}

bool build_sym_background(const build_opts *o, build_result *r, ctg_err *e)
{
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return err_sys(e, "cannot start the background build of prog.sym");
    fflush(stdout), fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        close(fds[0]), close(fds[1]);
        return err_sys(e, "cannot start the background build of prog.sym");
    }
    if (pid == 0) { /* its own process group: build_sym_cancel stops clang too */
        setpgid(0, 0);
        close(fds[0]);
        quiet_stdio(); /* detached, it must not hold the caller's pipes */
        build_opts with = *o;
        with.want_sym = true;
        with.no_cache = false; /* prog.cov was just built: reuse it */
        build_result r2;
        ctg_err e2 = {{0}};
        bool ok = build_program(&with, &r2, &e2);
        if (!ok && write(fds[1], e2.msg, strlen(e2.msg)) < 0)
            ok = false;
        _exit(ok ? 0 : 1);
    }
    setpgid(pid, pid); /* also here: no window where a cancel misses clang */
    close(fds[1]);
    r->sym_owner = (int)getpid();
    r->sym_pid = pid;
    r->sym_fd = fds[0];
    return true;
}

/* Whether the builder pid, which is not (or no longer) our child, has
 * ended: a --jobs worker watches its parent's builder this way (the parent
 * reaps it, so it does not linger as a zombie). */
static bool builder_ended(pid_t pid) { return kill(pid, 0) != 0 && errno == ESRCH; }

int build_sym_poll(build_result *r, bool block, char *why, size_t why_len)
{
    if (why_len)
        why[0] = '\0';
    if (r->sym_bin)
        return 1;
    if (r->sym_pid <= 0)
        return -1;
    int st = 0;
    pid_t w = waitpid(r->sym_pid, &st, block ? 0 : WNOHANG);
    bool foreign = w < 0 && errno == ECHILD; /* a worker's, or reaped by the jobs loop */
    while (foreign && block && !builder_ended(r->sym_pid))
        usleep(20000);
    if (w == 0 || (foreign && !builder_ended(r->sym_pid)))
        return 0;
    r->sym_pid = 0;
    ssize_t n = why_len ? read(r->sym_fd, why, why_len - 1) : 0;
    if (n > 0)
        why[n] = '\0';
    close(r->sym_fd);
    r->sym_fd = -1;
    char *p = fs_join(r->dir, "prog.sym"); /* published by a rename: complete when there */
    if ((foreign || (w > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)) && p && fs_exists(p)) {
        r->sym_bin = p;
        return 1;
    }
    ctg_free(p);
    if (why_len && !why[0])
        snprintf(why, why_len, "the build of prog.sym ended abnormally (status %d)", st);
    return -1;
}

void build_sym_detach(build_result *r)
{
    if (r->sym_pid <= 0 || r->sym_owner != (int)getpid()) {
        build_sym_cancel(r);
        return;
    }
    /* the replay and the outputs come first; the build finishes when the
     * machine has time, and publishes prog.sym by a rename as ever */
    (void)setpriority(PRIO_PGRP, (id_t)r->sym_pid, 19);
    proc_spare(r->sym_pid); /* the replay's clean-up kills our other children */
    r->sym_pid = 0;
    close(r->sym_fd);
    r->sym_fd = -1;
}

void build_sym_cancel(build_result *r)
{
    if (r->sym_pid <= 0)
        return;
    bool owner = r->sym_owner == (int)getpid();
    if (owner) {
        kill(-r->sym_pid, SIGKILL);
        waitpid(r->sym_pid, NULL, 0);
    }
    r->sym_pid = 0;
    close(r->sym_fd);
    r->sym_fd = -1;
    if (!owner) /* a --jobs worker: the build is its parent's to stop */
        return;
    sbuf pat = SBUF_INIT; /* add_sym's temporary directory */
    sbuf_printf(&pat, "%s/sym.tmp.*", r->dir);
    glob_t g;
    if (sbuf_ok(&pat) && glob(pat.data, 0, NULL, &g) == 0) {
        for (size_t i = 0; i < g.gl_pathc; i++)
            fs_rm_rf(g.gl_pathv[i], NULL);
        globfree(&g);
    }
    sbuf_release(&pat);
}

