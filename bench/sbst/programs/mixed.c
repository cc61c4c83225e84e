/*
 * mixed.c - floats and integers together: a float threshold, a scaled
 * integer comparison and an interval.
 */
int mixed(float f, int k);

int mixed(float f, int k)
{
    if (f > 1000.5f) {
        if (k * 2 == 300)
            return 1;
        return 2;
    }
    if (f < -0.25f && f > -0.75f)
        return 3;
    if ((double)k == (double)f * 4.0)
        return 4;
    return 0;
}
