/* stdin_two_ints.c - scanf of two ints guarding an error */
#include <stdio.h>
#include <stdlib.h>
extern void reach_error(void);
void reach_error(void) { abort(); }
int main(void)
{
    int a, b;
    if (scanf("%d %d", &a, &b) != 2)
        return 1;
    if (a == 4242 && b == a + 17)
        reach_error();
    return 0;
}
