#include <stdlib.h>
#include <string.h>

#include "minilib.h"

int ml_decode(const unsigned char *in, size_t n, unsigned char **out, size_t *out_len)
{
    if (n < 3 || in[0] != 'M' || in[1] != 'L')
        return -1;
    unsigned flags = in[2];
    size_t total = 0;
    for (size_t i = 3; i + 1 < n; i += 2)
        total += in[i];
    if (total == 0 || total > 4096)
        return -1;
    unsigned char *buf = malloc(total);
    if (!buf)
        return -1;
    size_t w = 0;
    for (size_t i = 3; i + 1 < n; i += 2) {
        memset(buf + w, in[i + 1], in[i]);
        w += in[i];
    }
    if (flags & ML_FLAG_CHECK) {
        unsigned sum = 0;
        for (size_t i = 0; i <= w; i++) /* BUG: reads one byte past the buffer */
            sum += buf[i];
        if ((sum & 0xff) != in[2] >> 1) {
            free(buf);
            return -1;
        }
    }
    *out = buf;
    *out_len = w;
    return 0;
}
