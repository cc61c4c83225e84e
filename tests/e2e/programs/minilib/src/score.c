#include <math.h>

#include "minilib.h"

double ml_score(const unsigned char *buf, size_t n)
{
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += (double)buf[i] * buf[i];
    return n ? sqrt(sum / (double)n) : 0.0;
}
