/*
 * fpnear.c - floating point conditions met only near an irrational point
 * (issue 18's hard constraints): a square within 1e-9 of a constant, a
 * product pinned to a value while another condition holds, a cubic's root.
 * A Gaussian mutation needs luck for every digit; the alternating variable
 * method (MIO's focused phase) closes in digit by digit.
 */
int fp_near(double x, double y);

int fp_near(double x, double y)
{
    double s = x * x - 2.0;
    if (s < 0)
        s = -s;
    int r = 0;
    if (s < 1e-9)
        r |= 1; /* x = +-sqrt(2) */
    double p = x * y - 1.5;
    if (p < 0)
        p = -p;
    if (y > 3.0 && p < 1e-12)
        r |= 2; /* x = 1.5 / y */
    double c = y * y * y - 3.0 * y - 1.0;
    if (c > -1e-10 && c < 1e-10)
        r |= 4; /* a root of y^3 - 3y - 1 */
    return r;
}
