/*
 * mem.c - allocation with failure injection for tests (see mem.h).
 */
#include "mem.h"

#include <stdlib.h>
#include <string.h>

static long fail_countdown = -1;

/* True when failure injection says this allocation must fail. */
static int should_fail(void)
{
    if (fail_countdown < 0)
        return 0;
    if (fail_countdown == 0)
        return 1;
    fail_countdown--;
    return 0;
}

void mem_fail_after(long n) { fail_countdown = n; }
void mem_fail_reset(void) { fail_countdown = -1; }

void *ctg_malloc(size_t n)
{
    return should_fail() ? NULL : malloc(n ? n : 1);
}

void *ctg_calloc(size_t count, size_t size)
{
    return should_fail() ? NULL : calloc(count ? count : 1, size ? size : 1);
}

void *ctg_realloc(void *p, size_t n)
{
    return should_fail() ? NULL : realloc(p, n ? n : 1);
}

int ctg_grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : 8;
    while (ncap < need) {
        if (ncap > ((size_t)-1) / 2 / elem)
            return -1;
        ncap *= 2;
    }
    void *np = ctg_realloc(*p, ncap * elem);
    if (!np)
        return -1;
    *p = np;
    *cap = ncap;
    return 0;
}

char *ctg_strdup(const char *s)
{
    return s ? ctg_strndup(s, strlen(s)) : NULL;
}

char *ctg_strndup(const char *s, size_t n)
{
    char *d = ctg_malloc(n + 1);
    if (!d)
        return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

void ctg_free(void *p) { free(p); }
