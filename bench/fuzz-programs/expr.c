/*
 * expr.c - an arithmetic expression evaluator as a Test-Comp harness
 * (bench/fuzz).
 *
 * Input: up to 48 characters (__VERIFIER_nondet_char) until a 0.  The
 * text is statements separated by ';': "x=EXPR" assigns one of the 26
 * variables a..z, a bare EXPR is evaluated.  Grammar:
 *   expr   := term (('+' | '-') term)*
 *   term   := unary (('*' | '/' | '%') unary)*
 *   unary  := '-' unary | primary
 *   primary:= number | variable | '(' expr ')'
 * Spaces are skipped; numbers are decimal; arithmetic wraps at 32 bits
 * (computed unsigned) and division by zero is an error.  The error: the
 * last statement is a bare expression whose value is 4242, reached
 * through at least three nested parentheses and using a variable.
 */
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

#define MAX_LEN 48

typedef struct ev {
    char s[MAX_LEN + 1];
    int pos;
    int vars[26];
    int max_nest, nest, used_var, bad;
} ev;

static int expr(ev *e);

static void ws(ev *e)
{
    while (e->s[e->pos] == ' ')
        e->pos++;
}

static int primary(ev *e)
{
    ws(e);
    char c = e->s[e->pos];
    if (c >= '0' && c <= '9') {
        unsigned v = 0;
        while (e->s[e->pos] >= '0' && e->s[e->pos] <= '9')
            v = v * 10u + (unsigned)(e->s[e->pos++] - '0');
        return (int)v;
    }
    if (c >= 'a' && c <= 'z') {
        e->pos++;
        e->used_var = 1;
        return e->vars[c - 'a'];
    }
    if (c == '(') {
        e->pos++;
        if (++e->nest > e->max_nest)
            e->max_nest = e->nest;
        int v = expr(e);
        ws(e);
        if (e->s[e->pos] != ')')
            e->bad = 1;
        else
            e->pos++;
        e->nest--;
        return v;
    }
    e->bad = 1;
    return 0;
}

static int unary(ev *e)
{
    ws(e);
    if (e->s[e->pos] == '-') {
        e->pos++;
        return (int)(0u - (unsigned)unary(e));
    }
    return primary(e);
}

static int term(ev *e)
{
    int v = unary(e);
    for (;;) {
        ws(e);
        char op = e->s[e->pos];
        if (op != '*' && op != '/' && op != '%')
            return v;
        e->pos++;
        int r = unary(e);
        if (op == '*') {
            v = (int)((unsigned)v * (unsigned)r);
        } else if (r == 0 || (v == -2147483647 - 1 && r == -1)) {
            e->bad = 1;
            return 0;
        } else {
            v = op == '/' ? v / r : v % r;
        }
    }
}

static int expr(ev *e)
{
    int v = term(e);
    for (;;) {
        ws(e);
        char op = e->s[e->pos];
        if (op != '+' && op != '-')
            return v;
        e->pos++;
        int r = term(e);
        v = (int)(op == '+' ? (unsigned)v + (unsigned)r : (unsigned)v - (unsigned)r);
    }
}

/* One statement; the value of a bare expression in *val (1), else 0. */
static int statement(ev *e, int *val)
{
    ws(e);
    char c = e->s[e->pos];
    int k = e->pos + 1;
    while (e->s[k] == ' ')
        k++;
    if (c >= 'a' && c <= 'z' && e->s[k] == '=') {
        e->pos = k + 1;
        e->vars[c - 'a'] = expr(e);
        return 0;
    }
    *val = expr(e);
    return 1;
}

int main(void)
{
    static ev e;
    int n = 0;
    while (n < MAX_LEN) {
        char c = __VERIFIER_nondet_char();
        if (c == 0)
            break;
        e.s[n++] = c;
    }
    e.s[n] = 0;
    int val = 0, bare = 0;
    while (!e.bad && e.s[e.pos]) {
        e.max_nest = e.used_var = 0;
        bare = statement(&e, &val);
        ws(&e);
        if (e.s[e.pos] == ';')
            e.pos++;
        else if (e.s[e.pos])
            e.bad = 1;
    }
    if (e.bad)
        return 2;
    if (bare && val == 4242 && e.max_nest >= 3 && e.used_var)
        reach_error();
    return bare ? 1 : 0;
}
