/*
 * cgi_decode_fn.c - seed 001's second program as a library function, for
 * function mode: decodes a CGI-encoded string s into t ("+" is a space,
 * "%xx" the character with hex code xx) and returns the decoded length, or
 * -1 for an invalid encoding.
 *
 *   ctestgen run examples/cgi_decode_fn.c --function cgi_decode --strategy mio \
 *       --max-execs 20000 -o out
 *   ctestgen replay out examples/cgi_decode_fn.c
 *
 * The driver reads s as a string of up to 32 characters and gives t a
 * 256-byte buffer; the regression tests check the return value and t.
 */
int cgi_decode(const char *s, char *t);

/* Value of a hex digit, -1 for any other character. */
static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int cgi_decode(const char *s, char *t)
{
    int n = 0;
    while (*s) {
        char c = *s;
        if (c == '+') {
            t[n++] = ' ';
        } else if (c == '%') {
            int hi = hex_value(s[1]);
            int lo = hi < 0 ? -1 : hex_value(s[2]);
            if (hi < 0 || lo < 0)
                return -1;
            t[n++] = (char)(hi * 16 + lo);
            s += 2;
        } else {
            t[n++] = c;
        }
        s++;
    }
    t[n] = '\0';
    return n;
}
