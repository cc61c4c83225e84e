/*
 * main.c - entry point of the ctestgen command (placeholder until the
 * command table lands).
 */
#include <stdio.h>

int main(void)
{
    fprintf(stderr, "ctestgen: not built yet\n");
    return 2;
}
