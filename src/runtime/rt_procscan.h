/*
 * rt_procscan.h - the children of a process, read from /proc.  Header-only
 * and libc-only, like rt_symtrace.h, so the fork server of the runtime (a
 * subreaper that kills what a run left behind) and the tool's proc.c (the
 * same for replayed tests) share it.
 */
#ifndef CTG_RT_PROCSCAN_H
#define CTG_RT_PROCSCAN_H

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Pids of the processes whose parent is `parent`, at most max of them, into
 * out; their number (0 when /proc cannot be read). */
static inline size_t ctg_proc_children(pid_t parent, pid_t *out, size_t max)
{
    DIR *d = opendir("/proc");
    if (!d)
        return 0;
    size_t n = 0;
    for (struct dirent *de; n < max && (de = readdir(d));) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9')
            continue;
        char path[300], buf[512];
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t k = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (k <= 0)
            continue;
        buf[k] = '\0';
        const char *rp = strrchr(buf, ')'); /* the name may hold spaces */
        int ppid;
        if (rp && sscanf(rp + 1, " %*c %d", &ppid) == 1 && ppid == parent)
            out[n++] = (pid_t)atoi(de->d_name);
    }
    closedir(d);
    return n;
}

/* Reaps every child of this process, killing (with their groups) those
 * still alive: for a subreaper, everything a finished child left behind.
 * One waitpid when there is none; /proc is read only while some live.
 * *spare (when spare is not NULL and *spare > 0) is a child left alone,
 * and set to 0 once it has ended and been reaped here. */
static inline void ctg_reap_children(pid_t *spare)
{
    pid_t none = 0, *sp = spare ? spare : &none;
    for (int round = 0; round < 1000; round++) {
        pid_t w;
        while ((w = waitpid(-1, NULL, WNOHANG)) > 0)
            if (w == *sp)
                *sp = 0;
        if (w < 0)
            return; /* ECHILD: nothing left */
        pid_t kids[256];
        size_t n = ctg_proc_children(getpid(), kids, 256), left = 0;
        for (size_t i = 0; i < n; i++) {
            if (kids[i] == *sp)
                continue;
            left++;
            kill(-kids[i], SIGKILL);
            kill(kids[i], SIGKILL);
        }
        if (*sp > 0 && !left)
            return; /* only the spared child lives */
        struct timespec ts = {0, 1000000};
        nanosleep(&ts, NULL);
    }
}

#endif
