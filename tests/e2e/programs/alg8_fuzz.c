/* alg8_fuzz.c - seed 003, algorithm 8 as a libFuzzer target: the array is
 * the input itself and its length the symbolic length variable, so the
 * branch on the length is negated like any other (LENGTH entries). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n = size / sizeof(int32_t);
    if (n <= 2)
        return -1; /* IndexOutOfBoundsException */
    int32_t x2;
    memcpy(&x2, data + 2 * sizeof(int32_t), sizeof x2);
    if (x2 == 3)
        return 0;
    return 1;
}
