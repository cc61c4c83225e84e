/* deadbeef.c - the error needs x == 0xdeadbeef and 3*y + 5*z == 1234 with
 * y > 100: random testing never gets there, concolic execution in a handful
 * of runs (issue 5). */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    unsigned int x = __VERIFIER_nondet_uint();
    int y = __VERIFIER_nondet_int();
    int z = __VERIFIER_nondet_int();
    if (x != 0xdeadbeefu)
        return 0;
    if (y > 100 && 3 * y + 5 * z == 1234)
        reach_error();
    return 1;
}
