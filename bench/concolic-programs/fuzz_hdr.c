/* fuzz_hdr.c - a libFuzzer target parsing a small header: magic "CTG1",
 * a version, a 16-bit payload length (at most 64) that must fit the input, an xor
 * checksum of the payload; the error is a valid packet whose payload
 * starts with "BUG".  The input length is symbolic. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 8 || memcmp(data, "CTG1", 4) != 0)
        return 0;
    if (data[4] != 1 && data[4] != 2)
        return 0;
    size_t len = (size_t)data[5] | (size_t)data[6] << 8;
    if (len > 64 || len > size - 8)
        return 0; /* at most 64 payload bytes, all in the input */
    uint8_t x = 0;
    for (size_t i = 0; i < len; i++)
        x ^= data[8 + i];
    if (x != data[7])
        return 0;
    if (len >= 3 && data[8] == 'B' && data[9] == 'U' && data[10] == 'G')
        abort();
    return 1;
}
