/* numbers and a word read with scanf; the crash needs a linear relation
 * between the numbers and one keyword (issue 60's stdin program) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    int a, b, c;
    char w[16];
    if (scanf("%d %d %d %15s", &a, &b, &c, w) != 4)
        return 1;
    if (a < 0 || b < 0)
        return 2;
    if (a > 1000)
        puts("big a");
    if (strcmp(w, "launch") == 0) {
        if (3 * a + 7 * b - c == 12345 && c % 2 == 1) {
            int *p = NULL;
            *p = 1; /* the crash */
        }
        puts("launch");
    }
    return 0;
}
