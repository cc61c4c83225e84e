/* dates.c - date validation with a month table indexed by an input value
 * (a symbolic index: --sym-arrays matters) and the leap-year rules; the
 * error is 29 February of a year divisible by 400. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int main(void)
{
    int y = __VERIFIER_nondet_int(), m = __VERIFIER_nondet_int(), d = __VERIFIER_nondet_int();
    if (y < 1 || y > 9999 || m < 1 || m > 12 || d < 1)
        return 1;
    int max = days[m - 1] + (m == 2 && leap(y));
    if (d > max)
        return 2;
    if (d == 29 && m == 2 && y % 400 == 0)
        reach_error();
    if (d == max)
        return 3; /* last day of the month */
    return 0;
}
