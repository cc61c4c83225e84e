static int ctg_passed, ctg_failed, ctg_bad;

#define CTG_CHECK(c)                                                                   \
    do {                                                                               \
        if (!(c)) {                                                                    \
            ctg_bad = 1;                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c);      \
        }                                                                              \
    } while (0)

static void ctg_run(void (*test)(void))
{
    ctg_bad = 0;
    test();
    if (ctg_bad)
        ctg_failed++;
    else
        ctg_passed++;
}

