/* fuzz_magic.c - a libFuzzer target whose abort needs a 32-bit magic, a
 * string keyword and a 16-bit value in a row: input-to-state replacement
 * and the dictionary get there, blind mutation hardly does. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 12)
        return 0;
    uint32_t m;
    memcpy(&m, d, 4);
    if (m != 0xfeedfaceu)
        return 0;
    if (memcmp(d + 4, "key=", 4) != 0)
        return 0;
    uint16_t v;
    memcpy(&v, d + 8, 2);
    if (v == 0x1337)
        abort();
    return 0;
}
