/* Dogfood: the Korat finitisation parser of --korat (.fin files). */
#include "search/bounded/kspec.h"
#include "dogfood.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char *t = df_text(d, n);
    ctg_err e = {{0}};
    kspec *k = t ? kspec_parse(t, "fuzz.fin", &e) : NULL;
    kspec_free(k);
    free(t);
    return 0;
}
