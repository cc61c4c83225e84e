/* chars_tree.c - a Test-Comp harness reading a NUL-terminated string with
 * __VERIFIER_nondet_char and parsing the binary trees of seed 002 (bounded
 * grammar e2e): reach_error on the left comb with four leaves. */
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

static char s[64];
static int pos;

static int tree(void)
{
    if (s[pos] == 'x') {
        pos++;
        return 1;
    }
    if (s[pos] != '(')
        return -1;
    pos++;
    int l = tree();
    if (l < 0 || s[pos] != ' ')
        return -1;
    pos++;
    int r = tree();
    if (r < 0 || s[pos] != ')')
        return -1;
    pos++;
    return l + r;
}

int main(void)
{
    int n = 0;
    while (n < 63 && (s[n] = __VERIFIER_nondet_char()) != 0)
        n++;
    int leaves = tree();
    if (leaves == 4 && pos == n && s[1] == '(' && s[2] == '(')
        reach_error(); /* (((x x) x) x) */
    return 0;
}
