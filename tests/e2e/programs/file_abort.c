/* file_abort.c - a file target that aborts on a first byte X: its crash reproduces with the arguments (@@) */
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv)
{
    FILE *f = fopen(argv[1], "rb");
    if (!f) return 1;
    int c = fgetc(f);
    if (c == 'X') abort();
    return 0;
}
