/* bench/bugs: a bug behind a checksum.  A packet "PK" LEN SUM16 PAYLOAD is
 * accepted only when the 16-bit sum of its payload matches; a type-7
 * packet then copies its payload into a buffer one byte too small. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 6 || d[0] != 'P' || d[1] != 'K')
        return 0;
    size_t len = d[2];
    if (len < 2 || len + 5 > n)
        return 0;
    unsigned want = d[3] | d[4] << 8, sum = 0;
    for (size_t i = 0; i < len; i++)
        sum = (sum + d[5 + i] * (unsigned)(i + 1)) & 0xffff;
    if (sum != want)
        return 0;
    if (d[5] != 7)
        return 1;
    uint8_t *body = malloc(len - 1);
    if (!body)
        return 0;
    memcpy(body, d + 5, len); /* BUG: one byte more than body holds */
    int r = body[1];
    free(body);
    return r;
}
