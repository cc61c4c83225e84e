/*
 * rt_guard.h - the runtime's shared regions between guard pages.
 *
 * The input area, the value log, the maps and the symbolic trace live in
 * the address space of the program under test.  A buggy program that
 * writes past the end of an array that malloc placed in a mapping of its
 * own (a large calloc) runs into whatever mapping comes next, and that may
 * be one of ours: sv-benchmarks tree_del_rec_incorrect wrote over the
 * value log that way, and ctestgen read a log of 16 million values.  With
 * a PROT_NONE page on either side such a write faults, as it would at the
 * end of most mappings in a plain run, and our regions stay whole.
 */
#ifndef CTG_RT_GUARD_H
#define CTG_RT_GUARD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

/* mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0) between two guard
 * pages; a plain mapping when the guards cannot be had.  MAP_FAILED on
 * failure.  (munmap of the result leaves the two guard pages mapped.) */
static inline void *ctg_map_guarded(size_t size, int flags, int fd)
{
    size_t pg = (size_t)sysconf(_SC_PAGESIZE);
    size_t len = (size + pg - 1) / pg * pg;
    uint8_t *base = mmap(NULL, len + 2 * pg, PROT_NONE,
                         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == MAP_FAILED)
        return mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
    void *m = mmap(base + pg, size, PROT_READ | PROT_WRITE, flags | MAP_FIXED, fd, 0);
    if (m == MAP_FAILED) {
        munmap(base, len + 2 * pg);
        return mmap(NULL, size, PROT_READ | PROT_WRITE, flags, fd, 0);
    }
    return m;
}

#endif
