/*
 * magic.c - nested conditions on magic values as a Test-Comp harness
 * (bench/fuzz).
 *
 * Inputs: a key (__VERIFIER_nondet_uint) chooses one of four handlers by
 * its top byte; each reads more values (__VERIFIER_nondet_int,
 * __VERIFIER_nondet_char, __VERIFIER_nondet_uint) and compares them with
 * constants and with each other.  The error sits at the bottom of the
 * 0xCA handler: key 0xCAFEBABE, an int in (100, 200), the character 'Z',
 * an int equal to 3 * the first minus 7, and a word whose xor with the key
 * is 0x12345678.  The other handlers give a fuzzer plenty of shallower
 * branches to cover on the way.
 */
extern unsigned int __VERIFIER_nondet_uint(void);
extern int __VERIFIER_nondet_int(void);
extern char __VERIFIER_nondet_char(void);
extern void abort(void);
void reach_error(void) { abort(); }

static int handler_ca(unsigned key)
{
    if (key != 0xCAFEBABEu)
        return 10;
    int a = __VERIFIER_nondet_int();
    if (a <= 100 || a >= 200)
        return 11;
    char c = __VERIFIER_nondet_char();
    if (c != 'Z')
        return c == 'z' ? 12 : 13;
    int b = __VERIFIER_nondet_int();
    if (b != a * 3 - 7)
        return b > a ? 14 : 15;
    unsigned m = __VERIFIER_nondet_uint();
    if ((m ^ key) == 0x12345678u)
        reach_error();
    return 16;
}

static int handler_de(unsigned key)
{
    int n = __VERIFIER_nondet_int();
    if ((key & 0xffff) == 0xad00 + (unsigned)(n & 0xff))
        return n < 0 ? 20 : 21;
    if (n % 7 == 3)
        return 22;
    return 23;
}

static int handler_0f(void)
{
    int total = 0;
    for (int i = 0; i < 4; i++) {
        char c = __VERIFIER_nondet_char();
        if (c >= 'a' && c <= 'z')
            total += 1;
        else if (c >= '0' && c <= '9')
            total += 10;
        else if (c == 0)
            break;
    }
    return total == 22 ? 30 : total > 30 ? 31 : 32;
}

int main(void)
{
    unsigned key = __VERIFIER_nondet_uint();
    switch (key >> 24) {
    case 0xCA:
        return handler_ca(key);
    case 0xDE:
        return handler_de(key);
    case 0x0F:
        return handler_0f();
    case 0x00:
        if (key == 0)
            return 40;
        return key < 256 ? 41 : 42;
    default:
        return (key & 1) ? 50 : 51;
    }
}
