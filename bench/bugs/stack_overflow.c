/* bench/bugs: a stack buffer overflow.  "NAME" LEN BYTES: the length check
 * lets 17 bytes into a 16-byte buffer on the stack. */
#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char name[16];
    if (n < 6 || memcmp(d, "NAME", 4) != 0)
        return 0;
    size_t len = d[4];
    if (len > sizeof name + 1 || len + 5 > n) /* BUG: should be > sizeof name */
        return 0;
    memcpy(name, d + 5, len);
    return name[0] == 'z';
}
