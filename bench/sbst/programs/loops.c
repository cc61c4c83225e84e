/*
 * loops.c - loops over an array paired with its length: sums, maxima and
 * a sortedness check; the interesting cases need several elements.
 */
#include <stddef.h>

int array_stats(const int *a, size_t n);

int array_stats(const int *a, size_t n)
{
    int sum = 0, max = 0, sorted = 1, flags = 0;
    for (size_t i = 0; i < n; i++) {
        sum += a[i] % 1000;
        if (a[i] > max)
            max = a[i];
        if (i > 0 && a[i - 1] > a[i])
            sorted = 0;
    }
    if (n >= 3 && sorted)
        flags |= 1;
    if (sum == 100)
        flags |= 2;
    if (max > 5000 && max < 5100)
        flags |= 4;
    if (n == 5)
        flags |= 8;
    return flags;
}
