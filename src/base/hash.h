/*
 * hash.h - SHA-256 (OpenSSL libcrypto, EVP interface) as lower-case hex:
 * the program hash of the Test-Comp metadata and cache keys.
 */
#ifndef CTG_HASH_H
#define CTG_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "err.h"

#define HASH_HEX_LEN 64 /* hex digits of a SHA-256; buffers need one more */

typedef struct hash_ctx hash_ctx;

/* Incremental hashing: new, update any number of times, final (writes
 * HASH_HEX_LEN digits + NUL into hex), free.  new returns NULL on oom;
 * update/final return false when libcrypto fails. */
hash_ctx *hash_new(void);
bool hash_update(hash_ctx *h, const void *data, size_t len);
bool hash_final(hash_ctx *h, char hex[HASH_HEX_LEN + 1]);
void hash_free(hash_ctx *h);

/* MurmurHash3's 64-bit finaliser: every bit of x reaches every bit of the
 * result (hash tables and path hashes, not security). */
static inline uint64_t hash_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* Hash h extended by value v (boost's hash_combine on 64 bits), mixed. */
static inline uint64_t hash_combine64(uint64_t h, uint64_t v)
{
    return hash_mix64(h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)));
}

/* FNV-1a over n bytes of p, continuing from h (HASH_FNV64_INIT to start):
 * cheap, for keys of hash tables (not security). */
#define HASH_FNV64_INIT 14695981039346656037ull
static inline uint64_t hash_fnv1a64(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ull;
    return h;
}

/* SHA-256 of a buffer; false only when libcrypto fails. */
bool hash_buffer(const void *data, size_t len, char hex[HASH_HEX_LEN + 1]);
/* SHA-256 of a file's contents; false with e set (naming the file) when it
 * cannot be read. */
bool hash_file(const char *path, char hex[HASH_HEX_LEN + 1], ctg_err *e);

#endif
