__attribute__((unused)) static char *ctg_str(const char *s)
{
    char *p = calloc(CTG_STR_BUF, 1);
    if (p)
        strcpy(p, s);
    return p;
}

