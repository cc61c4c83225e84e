/* bench/bugs: a null store.  A lookup of a register name that is not known
 * yields no slot, and the value is stored through it anyway.  The store is
 * undefined behaviour, so an optimised build may drop it; gcc -O0 faults. */
#include <stdint.h>
#include <stddef.h>

static int regs[4];

static int *slot(uint8_t name)
{
    return name >= 'a' && name <= 'd' ? &regs[name - 'a'] : NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    if (n < 4 || d[0] != 'S' || d[1] != 'E' || d[2] != 'T')
        return 0;
    int *p = slot(d[3]);
    *p = n > 4 ? d[4] : 0; /* BUG: p is NULL for an unknown register */
    return regs[0];
}
