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
#include <sys/types.h>
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

#endif
