/* stdin_key.c - a stdin target read with getchar and fread: concolic execution solves for "KEY42!" */
#include <stdio.h>
#include <string.h>

int main(void)
{
    char buf[8];
    int c = getchar();
    if (c != 'K')
        return 1;
    if (fread(buf, 1, 4, stdin) != 4)
        return 2;
    if (memcmp(buf, "EY42", 4) == 0) {
        if (getchar() == '!')
            return 42;
        return 3;
    }
    return 0;
}
