/*
 * hash.c - SHA-256 through OpenSSL's EVP digest interface (see hash.h).
 */
#include "hash.h"

#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <unistd.h>

#include "mem.h"

struct hash_ctx {
    EVP_MD_CTX *md;
};

hash_ctx *hash_new(void)
{
    hash_ctx *h = ctg_malloc(sizeof *h);
    if (!h)
        return NULL;
    h->md = EVP_MD_CTX_new();
    if (!h->md || EVP_DigestInit_ex(h->md, EVP_sha256(), NULL) != 1) {
        hash_free(h);
        return NULL;
    }
    return h;
}

bool hash_update(hash_ctx *h, const void *data, size_t len)
{
    return EVP_DigestUpdate(h->md, data, len) == 1;
}

bool hash_final(hash_ctx *h, char hex[HASH_HEX_LEN + 1])
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_DigestFinal_ex(h->md, md, &n) != 1 || n * 2 != HASH_HEX_LEN)
        return false;
    static const char digits[] = "0123456789abcdef";
    for (unsigned i = 0; i < n; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[HASH_HEX_LEN] = '\0';
    return true;
}

void hash_free(hash_ctx *h)
{
    if (!h)
        return;
    EVP_MD_CTX_free(h->md);
    ctg_free(h);
}

bool hash_buffer(const void *data, size_t len, char hex[HASH_HEX_LEN + 1])
{
    hash_ctx *h = hash_new();
    bool ok = h && hash_update(h, data, len) && hash_final(h, hex);
    hash_free(h);
    return ok;
}

bool hash_file(const char *path, char hex[HASH_HEX_LEN + 1], ctg_err *e)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_sys(e, "%s: cannot open", path);
    hash_ctx *h = hash_new();
    bool ok = h != NULL;
    char buf[65536];
    for (ssize_t n; ok && (n = read(fd, buf, sizeof buf)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            err_sys(e, "%s: cannot read", path);
            ok = false;
            break;
        }
        ok = hash_update(h, buf, (size_t)n);
    }
    close(fd);
    ok = ok && hash_final(h, hex);
    hash_free(h);
    if (!ok)
        err_set(e, "%s: cannot compute SHA-256 (libcrypto failed)", path);
    return ok;
}
