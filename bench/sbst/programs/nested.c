/*
 * nested.c - nested conditions with magic constants and a narrow window:
 * branch distances have to lead the search (random rarely hits x == 4242).
 */
int nested(int x, int y, int z);

int nested(int x, int y, int z)
{
    if (x > 100) {
        if (x == 4242) {
            if (y > 100000 && y < 100010)
                return z == -7 ? 1 : 2;
            return 3;
        }
        if (y == x + 1)
            return 4;
        return 5;
    }
    if (x < -5000 && z > 5000)
        return 6;
    return 0;
}
