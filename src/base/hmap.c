/*
 * hmap.c - open addressing over 64-bit keys (hmap.h).
 */
#include "hmap.h"

#include <string.h>

#include "mem.h"

#define HMAP_MIN_CAP 16

static bool used(const hmap *m, size_t i) { return m->used[i >> 6] >> (i & 63) & 1; }

/* The first slot to probe for key: the top bits of a multiplicative hash. */
static size_t home(const hmap *m, uint64_t key)
{
    unsigned bits = (unsigned)__builtin_ctzll((unsigned long long)m->cap);
    return (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - bits));
}

/* Puts an entry in the first free slot of key's probe sequence (there is
 * one: the table is at most half full). */
static void place(hmap *m, uint64_t key, uint64_t val)
{
    size_t i = home(m, key);
    while (used(m, i))
        i = (i + 1) & (m->cap - 1);
    m->used[i >> 6] |= 1ull << (i & 63);
    m->keys[i] = key;
    if (m->vals)
        m->vals[i] = val;
    m->n++;
}

/* Room for one more entry; false (the table unchanged) when out of memory. */
static bool reserve(hmap *m)
{
    if ((m->n + 1) * 2 <= m->cap)
        return true;
    hmap t = {.set = m->set, .cap = m->cap ? m->cap * 2 : HMAP_MIN_CAP};
    t.keys = ctg_calloc(t.cap, sizeof *t.keys);
    t.used = ctg_calloc((t.cap + 63) / 64, sizeof *t.used);
    t.vals = m->set ? NULL : ctg_calloc(t.cap, sizeof *t.vals);
    if (!t.keys || !t.used || (!m->set && !t.vals)) {
        hmap_release(&t);
        return false;
    }
    for (size_t i = 0; i < m->cap; i++)
        if (used(m, i))
            place(&t, m->keys[i], m->vals ? m->vals[i] : 0);
    hmap_release(m);
    *m = t;
    return true;
}

/* The slot holding key, or the cap when absent. */
static size_t find(const hmap *m, uint64_t key)
{
    if (!m->cap)
        return 0;
    for (size_t i = home(m, key); used(m, i); i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key)
            return i;
    return m->cap;
}

bool hmap_add(hmap *m, uint64_t key, bool *added)
{
    *added = false;
    if (find(m, key) < m->cap)
        return true;
    if (!reserve(m))
        return false;
    place(m, key, 0);
    *added = true;
    return true;
}

bool hmap_put(hmap *m, uint64_t key, uint64_t val)
{
    size_t i = find(m, key);
    if (i < m->cap) {
        if (m->vals)
            m->vals[i] = val;
        return true;
    }
    if (!reserve(m))
        return false;
    place(m, key, val);
    return true;
}

bool hmap_push(hmap *m, uint64_t key, uint64_t val)
{
    if (!reserve(m))
        return false;
    place(m, key, val);
    return true;
}

bool hmap_get(const hmap *m, uint64_t key, uint64_t *val)
{
    size_t i = find(m, key);
    if (i >= m->cap)
        return false;
    if (val)
        *val = m->vals ? m->vals[i] : 0;
    return true;
}

bool hmap_next(const hmap *m, uint64_t key, size_t *cursor, uint64_t *val)
{
    if (!m->cap || *cursor == SIZE_MAX)
        return false;
    size_t i = *cursor ? *cursor - 1 : home(m, key);
    for (; used(m, i); i = (i + 1) & (m->cap - 1))
        if (m->keys[i] == key) {
            *cursor = ((i + 1) & (m->cap - 1)) + 1;
            if (val)
                *val = m->vals ? m->vals[i] : 0;
            return true;
        }
    *cursor = SIZE_MAX;
    return false;
}

size_t hmap_count(const hmap *m) { return m->n; }

bool hmap_each(const hmap *m, size_t *cursor, uint64_t *key, uint64_t *val)
{
    for (size_t i = *cursor; i < m->cap; i++)
        if (used(m, i)) {
            *cursor = i + 1;
            if (key)
                *key = m->keys[i];
            if (val)
                *val = m->vals ? m->vals[i] : 0;
            return true;
        }
    *cursor = m->cap;
    return false;
}

void hmap_clear(hmap *m)
{
    if (m->used)
        memset(m->used, 0, (m->cap + 63) / 64 * sizeof *m->used);
    m->n = 0;
}

void hmap_release(hmap *m)
{
    ctg_free(m->keys);
    ctg_free(m->vals);
    ctg_free(m->used);
    bool set = m->set;
    memset(m, 0, sizeof *m);
    m->set = set;
}
