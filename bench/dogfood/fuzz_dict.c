/* Dogfood: the AFL++/libFuzzer dictionary parser of the fuzz strategy. */
#include "search/fuzz/fuzz_dict.h"
#include "dogfood.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    char *t = df_text(d, n);
    mut_dict *dict = mut_dict_new(64);
    ctg_err e = {{0}};
    if (t && dict)
        fuzz_dict_parse(dict, "fuzz.dict", t, &e);
    mut_dict_free(dict);
    free(t);
    return 0;
}
