/* file_hdr.c - a file target: ctestgen run file_hdr.c -- @@ (the test is the file argv[1]) */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    FILE *f = fopen(argv[1], "rb");
    if (!f)
        return 1;
    unsigned char h[8];
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    if (n < 4)
        return 3;
    if (memcmp(h, "IMG1", 4) != 0)
        return 4;
    if (n >= 6 && h[4] == 0x7f && h[5] > 200)
        return 5;
    return 0;
}
