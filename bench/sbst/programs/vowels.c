/*
 * vowels.c - a switch on the characters of a string, writing a summary
 * into an output buffer.
 */
int vowels(const char *s, char *out);

int vowels(const char *s, char *out)
{
    int counts[5] = {0, 0, 0, 0, 0}, other = 0, n = 0;
    for (; *s; s++) {
        switch (*s) {
        case 'a': counts[0]++; break;
        case 'e': counts[1]++; break;
        case 'i': counts[2]++; break;
        case 'o': counts[3]++; break;
        case 'u': counts[4]++; break;
        default: other++; break;
        }
    }
    for (int i = 0; i < 5; i++)
        if (counts[i] > 1)
            out[n++] = "aeiou"[i];
    out[n] = '\0';
    return other > 3 ? -n : n;
}
