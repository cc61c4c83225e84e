/*
 * hmap.h - the one hash table of ctestgen: open addressing over 64-bit keys,
 * with 64-bit values or none (a set).
 *
 * Every table of the tool is one of these (issue 13): sets of path and
 * state hashes (concolic, bounded), pointer-to-value maps (the symbolic
 * pass) and indexes whose keys are hashes of something larger - strings,
 * queries, grammar forms.  An index may hold several entries under one key
 * (hmap_push): the caller walks them with hmap_next and compares what its
 * values name, so a collision of two hashes costs a comparison, never a
 * wrong answer.
 *
 * Linear probing, a power-of-two capacity, at most half full; the position
 * of a key is a multiplicative hash of it, so keys need not be well mixed
 * (pointers are not).  Key 0 is as good as any other.  Memory comes from
 * ctg_calloc: an operation that needs more and cannot get it returns false
 * and leaves the table as it was.  No removal of single entries (no table
 * needs it); hmap_clear empties one.
 *
 *   hmap seen = HMAP_SET;          hmap index = HMAP_MAP;
 *   bool added;                    hmap_put(&index, key, value);
 *   hmap_add(&seen, h, &added);    uint64_t v; if (hmap_get(&index, key, &v)) ...
 *   hmap_release(&seen);
 */
#ifndef CTG_HMAP_H
#define CTG_HMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hmap {
    uint64_t *keys;  /* stored keys; a slot is in use when its bit in used is */
    uint64_t *vals;  /* NULL for a set                                        */
    uint64_t *used;  /* one bit a slot                                       */
    size_t n, cap;   /* entries, slots (0 or a power of two)                 */
    bool set;        /* keeps no values (HMAP_SET)                           */
} hmap;

/* A zero-initialised hmap is an empty map. */
#define HMAP_MAP {NULL, NULL, NULL, 0, 0, false}
#define HMAP_SET {NULL, NULL, NULL, 0, 0, true}

/* Adds key unless present (its value, in a map, then stays); *added says
 * which.  False when out of memory (nothing added). */
bool hmap_add(hmap *m, uint64_t key, bool *added);
/* Sets key's value, adding key when absent.  False when out of memory. */
bool hmap_put(hmap *m, uint64_t key, uint64_t val);
/* Adds an entry under key even when key has some (an index of hashes).
 * False when out of memory. */
bool hmap_push(hmap *m, uint64_t key, uint64_t val);
/* Whether key is present; its (first) value into *val when val is not NULL. */
bool hmap_get(const hmap *m, uint64_t key, uint64_t *val);
/* The entries under key one by one: *cursor = 0 before the first call;
 * true with the next one's value in *val, false after the last. */
bool hmap_next(const hmap *m, uint64_t key, size_t *cursor, uint64_t *val);
/* Entries. */
size_t hmap_count(const hmap *m);
/* Every entry in slot order: *cursor = 0 before the first call; true with
 * its key (and value, in a map) until the last. */
bool hmap_each(const hmap *m, size_t *cursor, uint64_t *key, uint64_t *val);
/* Empties the table, keeping its memory. */
void hmap_clear(hmap *m);
/* Frees the memory; the table is empty and usable again. */
void hmap_release(hmap *m);

#endif
