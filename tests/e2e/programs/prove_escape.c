/* prove_escape.c - reach_error() is only called through a function
 * pointer: no direct call site, but reachable. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }
static void ok(void) {}
int main(void)
{
    void (*f)(void) = __VERIFIER_nondet_int() == 7 ? reach_error : ok;
    f();
    return 0;
}
