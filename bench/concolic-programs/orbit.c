/* orbit.c - non-linear floating-point conditions that Z3's IEEE
 * arithmetic does not decide within its timeout (issue 18, part 3): a
 * body's period from Kepler's third law, T^2 = a^3 (years, AU), must be
 * within 1e-6 of a target, and then its energy within a band.  The solver
 * chain's real relaxation answers them (layer 6, solver_fp.c). */
extern double __VERIFIER_nondet_double(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    double a = __VERIFIER_nondet_double(); /* semi-major axis, AU */
    double t = __VERIFIER_nondet_double(); /* period, years       */
    if (!(a > 0.1 && a < 50.0 && t > 0.0 && t < 400.0))
        return 1;
    double k = t * t / (a * a * a);
    if (k < 1.0 - 1e-6 || k > 1.0 + 1e-6)
        return 2; /* not a body of our sun */
    if (t < 11.0)
        return 3; /* an inner planet */
    double e = -1.0 / (2.0 * a);
    if (e > -0.095 && e < -0.094)
        reach_error(); /* a = 5.3 .. 5.32: not Jupiter, nearly */
    return 0;
}
