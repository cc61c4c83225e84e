/*
 * kv.c - a small parser of "key=value" strings: character classes in a
 * loop, a fixed prefix, and a numeric value whose range matters.
 */
int parse_kv(const char *s);

int parse_kv(const char *s)
{
    int i = 0, value = 0, digits = 0;
    if (s[0] != 'i' || s[1] != 'd' || s[2] != '=')
        return -1;
    for (i = 3; s[i]; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            value = value * 10 + (s[i] - '0');
            digits++;
        } else if (s[i] == ';') {
            break;
        } else {
            return -2;
        }
        if (digits > 6)
            return -3;
    }
    if (digits == 0)
        return -4;
    return value > 500 ? 2 : 1;
}
