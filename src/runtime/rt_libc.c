/*
 * rt_libc.c - replacements the instrumenter redirects libc calls to, so the
 * program under test cannot escape the executor's control:
 *   __ctg_fork                   fails with EAGAIN (no fork bombs, no
 *                                children outliving the run);
 *   __ctg_malloc/calloc/realloc  flag CTG_ST_OOM with the size and end the
 *                                run when the allocator fails under the
 *                                executor's address-space limit, or, with
 *                                CTG_FL_MALLOC_NULL, return NULL as libc
 *                                does (the program's NULL checks run).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/types.h>

#include "rt_state.h"

pid_t __ctg_fork(void);
pid_t __ctg_fork(void)
{
    errno = EAGAIN;
    return -1;
}

/* Reports a failed allocation of n bytes and ends the run, unless the
 * executor asked for NULL (CTG_FL_MALLOC_NULL): then returns. */
static void rt_oom(uint64_t n)
{
    if (rt_g.hdr->flags & CTG_FL_MALLOC_NULL) {
        errno = ENOMEM;
        return;
    }
    rt_g.hdr->oom_size = n;
    rt_status(CTG_ST_OOM);
    rt_end_run(CTG_EXIT_OOM);
}

void *__ctg_malloc(size_t n);
void *__ctg_malloc(size_t n)
{
    void *p = malloc(n);
    if (!p && n)
        rt_oom(n);
    return p;
}

void *__ctg_calloc(size_t count, size_t size);
void *__ctg_calloc(size_t count, size_t size)
{
    void *p = calloc(count, size);
    if (!p && count && size) {
        uint64_t n = (uint64_t)count * (uint64_t)size;
        if ((uint64_t)size != 0 && n / (uint64_t)size != (uint64_t)count)
            n = UINT64_MAX;
        rt_oom(n);
    }
    return p;
}

void *__ctg_realloc(void *old, size_t n);
void *__ctg_realloc(void *old, size_t n)
{
    void *p = realloc(old, n);
    if (!p && n)
        rt_oom(n);
    return p;
}
