/* Dogfood: the grammar parser of --strategy bounded --grammar. */
#include "search/bounded/grammar.h"
#include "dogfood.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    ctg_err e = {{0}};
    grammar *g = gram_parse((const char *)d, n, "fuzz.gram", &e);
    gram_free(g);
    return 0;
}
