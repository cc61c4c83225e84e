/* Dogfood: the weight files of --search param (ctestgen learn's output). */
#include "search/concolic/cc_heur.h"
#include "dogfood.h"

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
    const char *path = df_file(d, n, ".weights");
    double w[CC_N_FEATURES];
    cc_scope scope;
    long restart;
    ctg_err e = {{0}};
    if (path) {
        cc_weights_load(path, w, &scope, &restart, &e);
        unlink(path);
    }
    return 0;
}
