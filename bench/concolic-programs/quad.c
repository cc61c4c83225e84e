/* quad.c - floating point: the roots of a x^2 + b x + c; the error needs
 * two distinct real roots, both between 1 and 2. */
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
extern double sqrt(double);
void reach_error(void) { abort(); }

int main(void)
{
    double a = __VERIFIER_nondet_double();
    double b = __VERIFIER_nondet_double();
    double c = __VERIFIER_nondet_double();
    if (!(a > 0.5 && a < 10.0 && b > -100.0 && b < 100.0 && c > -100.0 && c < 100.0))
        return 1;
    double disc = b * b - 4.0 * a * c;
    if (disc < 0.0)
        return 2; /* complex */
    if (disc == 0.0)
        return 3; /* one root */
    double r = sqrt(disc);
    double x1 = (-b - r) / (2.0 * a), x2 = (-b + r) / (2.0 * a);
    if (x1 > 1.0 && x2 < 2.0)
        reach_error();
    return 0;
}
