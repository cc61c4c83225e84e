/*
 * quadratic.c - floating point: roots of a x^2 + b x + c, with exact
 * comparisons against zero (the degenerate cases).
 */
int roots(double a, double b, double c);

int roots(double a, double b, double c)
{
    if (a == 0.0) {
        if (b == 0.0)
            return c == 0.0 ? -1 : 0; /* every x / no x */
        return 1;                     /* linear */
    }
    double disc = b * b - 4.0 * a * c;
    if (disc > 0.0)
        return 2;
    if (disc == 0.0)
        return 3; /* one double root */
    return 4;     /* complex */
}
