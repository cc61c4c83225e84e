/*
 * batch.c - a libFuzzer target for batched runs (CTG_CMD_BATCH): edge 0
 * counts every run, edge 1 a first byte 'a', edge 2 a first byte 'b',
 * edge 3 every byte 'c' (so hit-count buckets differ with the number of
 * c's); a first byte 'C' segfaults, 'H' hangs.  Comparison site 0
 * compares the second byte with 'k', site 1 the length with 3 (for the
 * watched sites of a batch); after a first byte '=', site 2 compares the
 * rest (up to 15 bytes) with "key" by strcmp (its feature: a non-empty
 * rest).
 */
#include <stdlib.h>
#include <string.h>

#include "prog.h"

PROG_COUNTS(4, 3, 0);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    __ctg_cov_ptr[0]++;
    __ctg_cmp(0, 32 /* eq */, size >= 2 ? data[1] : 0, 'k', 8, 0);
    __ctg_cmp(0, 32, size, 3, 32, 1);
    if (size && data[0] == 'a')
        __ctg_cov_ptr[1]++;
    if (size && data[0] == 'b')
        __ctg_cov_ptr[2]++;
    for (size_t i = 0; i < size; i++)
        if (data[i] == 'c')
            __ctg_cov_ptr[3]++;
    if (size && data[0] == '=') {
        char word[16] = {0};
        memcpy(word, data + 1, size - 1 < 15 ? size - 1 : 15);
        (void)__ctg_strcmp(2, word, "key");
    }
    if (size && data[0] == 'C')
        *(volatile int *)(uintptr_t)8 = 1;
    if (size && data[0] == 'H')
        for (;;)
            ;
    return 0;
}
