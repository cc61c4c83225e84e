/*
 * fsutil.c - file helpers (see fsutil.h).
 */
#include "fsutil.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mem.h"
#include "sbuf.h"

bool fs_read(const char *path, char **data, size_t *len, ctg_err *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_sys(e, "%s: cannot open", path);
    sbuf b = SBUF_INIT;
    char tmp[65536];
    for (;;) {
        ssize_t n = read(fd, tmp, sizeof tmp);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err_sys(e, "%s: cannot read", path);
            close(fd);
            sbuf_release(&b);
            return false;
        }
        if (n == 0)
            break;
        sbuf_append(&b, tmp, (size_t)n);
    }
    close(fd);
    size_t l = b.len;
    char *d = sbuf_take(&b);
    if (!d)
        return err_set(e, "%s: out of memory while reading", path);
    *data = d;
    if (len)
        *len = l;
    return true;
}

/* Writes all of buf to fd; false on error. */
static bool write_all(int fd, const void *buf, size_t len)
{
    const char *p = buf;
    while (len) {
        ssize_t n = write(fd, p, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        p += n;
        len -= (size_t)n;
    }
    return true;
}

/* Fault injection for the tests of a full disk where no small file system
 * can be mounted: with CTESTGEN_FAULT_WRITES_AFTER=N in the environment,
 * every fs_write_atomic after the first N fails as on a full disk. */
static bool injected_write_fault(void)
{
    static long left = -2; /* -2: not read yet, -1: no injection */
    if (left == -2) {
        const char *v = getenv("CTESTGEN_FAULT_WRITES_AFTER");
        left = v && *v ? strtol(v, NULL, 10) : -1;
    }
    if (left < 0)
        return false;
    if (left == 0)
        return true;
    left--;
    return false;
}

bool fs_write_atomic(const char *path, const void *data, size_t len, ctg_err *e)
{
    if (injected_write_fault()) {
        errno = ENOSPC;
        return err_sys(e, "%s: cannot write (disk full?)", path);
    }
    sbuf tmp = SBUF_INIT;
    sbuf_printf(&tmp, "%s.tmp.%ld", path, (long)getpid());
    if (!sbuf_ok(&tmp))
        return err_set(e, "%s: out of memory", path);
    int fd = open(tmp.data, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        err_sys(e, "%s: cannot create", tmp.data);
        sbuf_release(&tmp);
        return false;
    }
    bool ok = write_all(fd, data, len);
    if (!ok)
        err_sys(e, "%s: cannot write (disk full?)", path);
    if (close(fd) != 0 && ok)
        ok = err_sys(e, "%s: cannot write (disk full?)", path);
    if (ok && rename(tmp.data, path) != 0)
        ok = err_sys(e, "%s: cannot rename into place", path);
    if (!ok)
        unlink(tmp.data);
    sbuf_release(&tmp);
    return ok;
}

bool fs_mkdir_p(const char *path, ctg_err *e)
{
    char *p = ctg_strdup(path);
    if (!p)
        return err_set(e, "%s: out of memory", path);
    size_t n = strlen(p);
    for (size_t i = 1; i <= n; i++) {
        if (p[i] != '/' && p[i] != '\0')
            continue;
        char c = p[i];
        p[i] = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST) {
            err_sys(e, "%s: cannot create directory", p);
            ctg_free(p);
            return false;
        }
        p[i] = c;
    }
    ctg_free(p);
    if (!fs_is_dir(path))
        return err_set(e, "%s: exists and is not a directory; choose another path", path);
    return true;
}

static int cmp_path(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool fs_list_files(const char *dir, char ***paths, size_t *n, ctg_err *e)
{
    *paths = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return err_sys(e, "%s: cannot read the directory", dir);
    size_t cap = 0;
    bool ok = true;
    for (struct dirent *de; ok && (de = readdir(d));) {
        if (de->d_name[0] == '.')
            continue;
        char *p = fs_join(dir, de->d_name);
        struct stat st;
        if (!p) {
            ok = err_set(e, "%s: out of memory", dir);
        } else if (stat(p, &st) != 0) {
            ok = err_sys(e, "%s: cannot read the file (a dangling link?)", p);
        } else if (S_ISREG(st.st_mode)) {
            ok = ctg_grow((void **)paths, &cap, *n + 1, sizeof **paths) == 0 ||
                 err_set(e, "%s: out of memory", dir);
            if (ok) {
                (*paths)[(*n)++] = p;
                p = NULL;
            }
        }
        ctg_free(p);
    }
    closedir(d);
    if (ok && *n > 1)
        qsort(*paths, *n, sizeof **paths, cmp_path);
    return ok;
}

bool fs_rm_rf(const char *path, ctg_err *e)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? true : err_sys(e, "%s: cannot stat", path);
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return err_sys(e, "%s: cannot open directory", path);
        struct dirent *de;
        bool ok = true;
        while (ok && (de = readdir(d))) {
            if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
                continue;
            char *sub = fs_join(path, de->d_name);
            ok = sub ? fs_rm_rf(sub, e) : err_set(e, "%s: out of memory", path);
            ctg_free(sub);
        }
        closedir(d);
        if (ok && rmdir(path) != 0)
            ok = err_sys(e, "%s: cannot remove", path);
        return ok;
    }
    if (unlink(path) != 0)
        return err_sys(e, "%s: cannot remove", path);
    return true;
}

bool fs_exists(const char *path) { return access(path, F_OK) == 0; }

bool fs_is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

char *fs_join(const char *a, const char *b)
{
    sbuf s = SBUF_INIT;
    size_t la = strlen(a);
    sbuf_puts(&s, a);
    if (la && a[la - 1] != '/')
        sbuf_putc(&s, '/');
    sbuf_puts(&s, b);
    return sbuf_take(&s);
}

char *fs_realpath(const char *path, ctg_err *e)
{
    char *r = realpath(path, NULL);
    if (!r) {
        err_sys(e, "%s: cannot resolve path", path);
        return NULL;
    }
    char *d = ctg_strdup(r);
    free(r);
    if (!d)
        err_set(e, "%s: out of memory", path);
    return d;
}

char *fs_exe_dir(void)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    return ctg_strdup(buf);
}

bool fs_copy(const char *from, const char *to, ctg_err *e)
{
    char *data;
    size_t len;
    if (!fs_read(from, &data, &len, e))
        return false;
    bool ok = fs_write_atomic(to, data, len, e);
    ctg_free(data);
    struct stat st;
    if (ok && stat(from, &st) == 0)
        chmod(to, st.st_mode & 07777);
    return ok;
}

char *fs_mkdtemp_at(const char *path_prefix, const char *what_for, ctg_err *e)
{
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%sXXXXXX", path_prefix);
    char *dir = sbuf_take(&b);
    if (!dir) {
        err_set(e, "out of memory while creating %s", what_for);
        return NULL;
    }
    if (!mkdtemp(dir)) {
        err_sys(e, "%s: cannot create %s", dir, what_for);
        ctg_free(dir);
        return NULL;
    }
    return dir;
}

char *fs_mkdtemp(const char *prefix, const char *what_for, ctg_err *e)
{
    const char *tmp = getenv("TMPDIR");
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%s/%s", tmp && *tmp ? tmp : "/tmp", prefix);
    char *at = sbuf_take(&b);
    char *dir = at ? fs_mkdtemp_at(at, what_for, e) : NULL;
    if (!at)
        err_set(e, "out of memory while creating %s", what_for);
    ctg_free(at);
    return dir;
}

double fs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
