/*
 * date.c - calendar validation: leap-year arithmetic (% 4, % 100, % 400)
 * and a switch on the month.
 */
int date_valid(int y, int m, int d);

int date_valid(int y, int m, int d)
{
    int max;
    if (y < 1 || m < 1 || m > 12 || d < 1)
        return 0;
    switch (m) {
    case 2:
        if ((y % 4 == 0 && y % 100 != 0) || y % 400 == 0)
            max = 29;
        else
            max = 28;
        break;
    case 4:
    case 6:
    case 9:
    case 11:
        max = 30;
        break;
    default:
        max = 31;
        break;
    }
    return d <= max;
}
