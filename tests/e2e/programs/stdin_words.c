/* stdin_words.c - a stdin target (issue 12): commands read with scanf, one getchar */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    char cmd[16];
    int n, total = 0;
    while (scanf("%15s %d", cmd, &n) == 2) {
        if (!strcmp(cmd, "add"))
            total += n;
        else if (!strcmp(cmd, "sub"))
            total -= n;
        else if (!strcmp(cmd, "mul") && n > 1)
            total *= n;
        else
            printf("unknown %s\n", cmd);
        if (total == 42) {
            int c = getchar();
            if (c == '!')
                abort(); /* the bug */
        }
    }
    printf("%d\n", total);
    return 0;
}
