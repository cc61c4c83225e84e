/*
 * mem.h - the one allocation module of ctestgen (not of the runtime).
 *
 * Every allocation of the tool goes through these functions so that tests can
 * make allocation fail (mem_fail_after) and check that a module reports the
 * failure instead of crashing.  Functions return NULL on failure like libc;
 * ctg_free(NULL) is a no-op.
 */
#ifndef CTG_MEM_H
#define CTG_MEM_H

#include <stddef.h>

void *ctg_malloc(size_t n);
void *ctg_calloc(size_t count, size_t size);
void *ctg_realloc(void *p, size_t n);
/* Grows *p to hold at least `need` elements of `elem` bytes; *cap is updated.
 * Returns 0, or -1 (and leaves *p and *cap untouched) when out of memory. */
int ctg_grow(void **p, size_t *cap, size_t need, size_t elem);
char *ctg_strdup(const char *s);
char *ctg_strndup(const char *s, size_t n);
void ctg_free(void *p);

/* Test hook: the next `n` allocations succeed, every later one fails, until
 * mem_fail_reset().  n < 0 disables failure injection. */
void mem_fail_after(long n);
void mem_fail_reset(void);

#endif
