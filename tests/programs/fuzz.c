/*
 * fuzz.c - a libFuzzer target: LLVMFuzzerInitialize runs once (in the fork
 * server), LLVMFuzzerTestOneInput writes the size and the first bytes of
 * its data to $CTG_TEST_OUT and counts edge 1 when the data starts "FU".
 */
#include <string.h>

#include "prog.h"

PROG_COUNTS(4, 0, 0);

static int initialized;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    initialized++;
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    __ctg_cov_ptr[0]++;
    if (size >= 2 && data[0] == 'F' && data[1] == 'U')
        __ctg_cov_ptr[1]++;
    char head[9] = {0};
    memcpy(head, data, size < 8 ? size : 8);
    for (int i = 0; i < 8; i++)
        if (head[i] && (head[i] < 0x20 || head[i] > 0x7e))
            head[i] = '?';
    prog_out("init=%d size=%zu head=%s\n", initialized, size, head);
    return 0;
}
