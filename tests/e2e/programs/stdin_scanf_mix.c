/* stdin_scanf_mix.c - scanf of a negative int, a char and a word guarding
 * an error: concolic execution solves through the runtime's scanf model */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern void reach_error(void);
void reach_error(void) { abort(); }
int main(void)
{
    int n;
    char c, word[16];
    if (scanf("%d %c %15s", &n, &c, word) != 3)
        return 1;
    if (n == -321 && c == 'q' && strcmp(word, "go") == 0)
        reach_error();
    return 0;
}
