/* calc.c - a recursive-descent calculator over an input string of digits,
 * + - * and parentheses; the error needs a well-formed expression of at
 * least 5 characters whose value is 42. */
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

static char s[13];
static int pos, bad;

static int expr(void);

static int atom(void)
{
    char c = s[pos];
    if (c >= '0' && c <= '9') {
        pos++;
        return c - '0';
    }
    if (c == '(') {
        pos++;
        int v = expr();
        if (s[pos] != ')')
            bad = 1;
        else
            pos++;
        return v;
    }
    bad = 1;
    return 0;
}

static int term(void)
{
    int v = atom();
    while (!bad && s[pos] == '*') {
        pos++;
        v *= atom();
    }
    return v;
}

static int expr(void)
{
    int v = term();
    while (!bad && (s[pos] == '+' || s[pos] == '-')) {
        char op = s[pos++];
        int w = term();
        v = op == '+' ? v + w : v - w;
    }
    return v;
}

int main(void)
{
    int n;
    for (n = 0; n < 12; n++) {
        s[n] = __VERIFIER_nondet_char();
        if (!s[n])
            break;
    }
    s[n] = 0;
    int v = expr();
    if (bad || s[pos])
        return 1;
    if (v == 42 && n >= 5)
        reach_error();
    return 0;
}
