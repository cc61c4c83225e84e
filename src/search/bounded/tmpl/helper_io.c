/*
 * helper_io.c - whole reads and writes of a helper's pipe, retried on
 * EINTR (src/search/bounded/kharness.c writes it into the Korat and the
 * filter helper, before their own code).  Returns 0 at end of file or
 * on an error.
 */
#include <errno.h>
#include <unistd.h>

static int ctg_io(int fd, void *p, size_t n, int wr)
{
    char *c = (char *)p;
    while (n > 0) {
        ssize_t k = wr ? write(fd, c, n) : read(fd, c, n);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return 0;
        c += k, n -= (size_t)k;
    }
    return 1;
}

