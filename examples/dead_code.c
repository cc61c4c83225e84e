/* dead_code.c - a settings decoder with code no input can reach and a
 * branch that is hard to hit.  Try:
 *   ctestgen run examples/dead_code.c --strategy fuzz --max-execs 300
 *   ctestgen report ctestgen-out
 * The report marks the legacy decoder and the error call proven
 * unreachable (grey), and names the test that came closest to the magic
 * value it did not find. */
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern void abort(void);
void reach_error(void) { abort(); }

static int legacy_decode(int mode, unsigned v)
{
    if (v & 1u)
        return mode * 2;
    return mode + 7;
}

int main(void)
{
    int mode = __VERIFIER_nondet_int();
    unsigned v = __VERIFIER_nondet_uint();
    if (mode < 0 || mode > 3)
        mode = 3;
    if (mode > 5)
        return legacy_decode(mode, v); /* kept from version 1: mode is clamped above */
    if (mode == 2 && v * 2654435761u == 0xdeadbeefu)
        return 42; /* the magic setting */
    if (mode == 3 && v == 0u && mode != 3)
        reach_error();
    return mode;
}
