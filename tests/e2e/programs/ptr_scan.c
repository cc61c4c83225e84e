/* ptr_scan.c - a stdin program whose branches compare pointers computed
 * from input values: the path conditions hold the buffer's address (q <
 * end with q = buf + a length read from the input), so the solver sees
 * it; t0110 checks that runs stay reproducible anyway. */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    unsigned char *buf = malloc(256);
    if (!buf)
        return 1;
    size_t n = fread(buf, 1, 256, stdin);
    const unsigned char *p = buf, *end = buf + n;
    int fields = 0, total = 0;
    while (p < end && fields < 6) { /* length-prefixed records */
        const unsigned char *q = p + 1 + *p;
        if (q > end)
            break;
        if (q == end)
            puts("last record fills the input");
        if (*p > 3 && p[1] == 'k' && p[2] == (unsigned char)(p[3] + 1))
            total += 2;
        fields++;
        total += *p;
        p = q;
    }
    if (fields >= 3 && total > 40)
        puts("three records");
    if (fields == 5 && p == end)
        puts("five records, exact");
    free(buf);
    return 0;
}
