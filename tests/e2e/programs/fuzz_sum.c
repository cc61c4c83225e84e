/* fuzz_sum.c - a libFuzzer target whose payload is behind a checksum:
 * byte 3 must be the sum of bytes 0..2 before they are looked at.  A
 * mutant that puts 'A' in byte 0 breaks the sum; the fuzzer's repair
 * (comparison logging of the mutant, the sum written into byte 3) keeps
 * it.  The checksum compare has no constant operand; the others do. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    uint8_t sum = (uint8_t)(data[0] + data[1] + data[2]);
    if (sum != data[3])
        return 0;
    if (data[0] == 'A' && data[1] == 'B' && data[2] == 'C')
        abort();
    return 0;
}
