
/* Up to max chars, ending at the first NUL; buf[max] must exist. */
__attribute__((unused)) static void ctg_read_chars(char *buf, size_t max)
{
    size_t n = 0;
    while (n < max) {
        char c = __VERIFIER_nondet_char();
        if (!c)
            break;
        buf[n++] = c;
    }
    buf[n] = 0;
}

__attribute__((unused)) static char *ctg_new_string(void)
{
    char *s = calloc(CTG_STR_BUF, 1);
    ctg_read_chars(s, CTG_STR_MAX);
    return s;
}
