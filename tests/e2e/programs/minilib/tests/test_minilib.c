/* The project's own test: `make check`. */
#include <stdio.h>
#include <stdlib.h>

#include "minilib.h"

int main(void)
{
    const unsigned char in[] = {'M', 'L', 0, 3, 'a', 2, 'b'};
    unsigned char *out;
    size_t len;
    if (ml_decode(in, sizeof in, &out, &len) != 0 || len != 5 || out[0] != 'a' || out[4] != 'b') {
        printf("FAIL decode\n");
        return 1;
    }
    free(out);
    printf("minilib: all tests passed\n");
    return 0;
}
