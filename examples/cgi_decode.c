/*
 * cgi_decode.c - seed 001's second program as a Test-Comp harness: decodes a
 * CGI-encoded string ("+" is a space, "%xx" a hex-encoded character).
 *
 * The input is a string of up to 16 nondet chars, ended by the first NUL.
 * An error is reached when the decoded text starts with "Hi!", which needs
 * "Hi%21" (or "Hi!") - three characters in a row plus the escape.
 */
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

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

/* Decodes s into t; returns -1 on an invalid encoding, else the length. */
static int cgi_decode(const char *s, char *t)
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

int main(void)
{
    char s[17], t[17];
    int i;
    for (i = 0; i < 16; i++) {
        s[i] = __VERIFIER_nondet_char();
        if (s[i] == '\0')
            break;
    }
    s[i] = '\0';
    int n = cgi_decode(s, t);
    if (n >= 3 && t[0] == 'H' && t[1] == 'i' && t[2] == '!')
        reach_error();
    return n < 0;
}
