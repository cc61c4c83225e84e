/*
 * triangle_fn.c - seed 001's triangle classifier as a library function, for
 * function mode: 11 conditions, 22 condition goals.
 *
 *   ctestgen run examples/triangle_fn.c --function triangle --strategy mio \
 *       --max-execs 20000 -o out
 *   ctestgen replay out examples/triangle_fn.c
 *   gcc -Wall -Werror out/tests_triangle.c examples/triangle_fn.c && ./a.out
 *
 * Integers are drawn from [-1000000, 1000000] (the seed's MAX = 1000000,
 * --int-range of the search-based strategies); add --p-special 0 to keep
 * every value in that range (no boundary values such as INT_MAX).
 */
int triangle(int a, int b, int c);

int triangle(int a, int b, int c)
{
    if (a <= 0 || b <= 0 || c <= 0)
        return 4; /* invalid */
    if (a + b <= c || a + c <= b || b + c <= a)
        return 4; /* invalid */
    if (a == b && b == c)
        return 1; /* equilateral */
    if (a == b || b == c || a == c)
        return 2; /* isosceles */
    return 3;     /* scalene */
}
