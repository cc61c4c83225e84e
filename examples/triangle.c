/*
 * triangle.c - the triangle classifier of seed 001 as a Test-Comp harness.
 *
 * Three int inputs; 11 conditions (22 condition goals).  An error is reached
 * for an equilateral triangle with sides over 1000, which random testing
 * almost never finds: the search must first make a == b, then b == c.
 *
 *   ctestgen run examples/triangle.c --max-execs 20000 -o out
 */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

static int triangle(int a, int b, int c)
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

int main(void)
{
    int a = __VERIFIER_nondet_int();
    int b = __VERIFIER_nondet_int();
    int c = __VERIFIER_nondet_int();
    if (a > 1000000 || b > 1000000 || c > 1000000)
        return 0; /* keep a + b from overflowing */
    int kind = triangle(a, b, c);
    if (kind == 1 && a > 1000)
        reach_error();
    return kind;
}
