/* bench/bugs: signed overflow (undefined behaviour, UBSan).  "MUL" and
 * two 16-bit factors: their product times 1000 overflows an int when it is
 * above 2,147,483. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 7 || d[0] != 'M' || d[1] != 'U' || d[2] != 'L')
        return 0;
    int a = d[3] | d[4] << 8, b = d[5] | d[6] << 8;
    if (a < 100 || b < 100)
        return 0;
    int scaled = a * b * 1000; /* BUG: signed overflow */
    return scaled > 7;
}
