/*
 * triangle_fn.c - seed 001's triangle classifier as a library function, for
 * function mode: 11 conditions, 22 condition goals.
 *
 *   ctestgen run examples/triangle_fn.c --function triangle --strategy mio \
 *       --int-range 1000000 --max-execs 20000 -o out
 *   ctestgen replay out examples/triangle_fn.c
 *   gcc -Wall -Werror out/tests_triangle.c examples/triangle_fn.c && ./a.out
 *
 * --int-range 1000000 keeps every value in [-1000000, 1000000] (the seed's
 * MAX = 1000000): the sums a + b cannot overflow, which would be undefined
 * behaviour and make results depend on the compiler.
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
