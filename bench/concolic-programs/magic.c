/* magic.c - a magic word, then a linear equation over two more inputs. */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

int main(void)
{
    unsigned int magic = __VERIFIER_nondet_uint();
    int a = __VERIFIER_nondet_int(), b = __VERIFIER_nondet_int();
    if (magic != 0xcafef00du)
        return 1;
    if (a < 0 || b < 0)
        return 2;
    if (7 * a - 3 * b == 100 && a + b > 1000)
        reach_error();
    return 0;
}
