/* dogfood.h - what the harnesses of ctestgen's own parsers share: the
 * input as a NUL-terminated copy, or as a file for the loaders that read
 * one.  A harness returns 0 whatever the parser answers: a parse error is
 * a normal outcome, only a crash or a sanitizer report is a finding. */
#ifndef CTG_DOGFOOD_H
#define CTG_DOGFOOD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A NUL-terminated copy of the input (free it). */
static inline char *df_text(const uint8_t *d, size_t n)
{
    char *t = malloc(n + 1);
    if (t) {
        memcpy(t, d, n);
        t[n] = 0;
    }
    return t;
}

/* The input written to a file of its own (suffix: its name's end, for the
 * loaders that look at it); the path, static, or NULL. */
static inline const char *df_file(const uint8_t *d, size_t n, const char *suffix)
{
    static char path[128];
    snprintf(path, sizeof path, "/tmp/ctg-dogfood-%d%s", (int)getpid(), suffix);
    FILE *f = fopen(path, "wb");
    if (!f)
        return NULL;
    size_t w = fwrite(d, 1, n, f);
    fclose(f);
    return w == n ? path : NULL;
}
#endif
