/* bench/bugs: a heap over-read of one byte.  A record "HR" LEN MODE DATA;
 * in checksum mode ('C') the sum runs one byte past the copy of the data.
 * Invisible without AddressSanitizer (a read past a small block). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 5 || d[0] != 'H' || d[1] != 'R')
        return 0;
    size_t len = d[2];
    if (len == 0 || len + 4 > n)
        return 0;
    uint8_t *b = malloc(len);
    if (!b)
        return 0;
    memcpy(b, d + 4, len);
    unsigned sum = 0;
    if (d[3] == 'C')
        for (size_t i = 0; i <= len; i++) /* BUG: i == len reads past b */
            sum += b[i];
    free(b);
    return sum == 0x1234;
}
