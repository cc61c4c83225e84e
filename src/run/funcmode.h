/*
 * funcmode.h - `ctestgen run lib.c --function NAME` (issue 3 part 3): reads
 * the signature, writes the driver (src/compile/driver.h) into the build
 * cache and builds it with the program; after the search copies it to
 * out/driver_NAME.c and writes the regression tests out/tests_NAME.c
 * (src/report/utest.h).  `ctestgen replay out lib.c` picks the driver up
 * from out/ again.
 */
#ifndef CTG_FUNCMODE_H
#define CTG_FUNCMODE_H

#include <stdbool.h>

#include "../base/err.h"
#include "../compile/driver.h"
#include "../opt/options.h"

typedef struct fmode {
    drv_sig *sig;
    char *driver;          /* driver in the build cache             */
    const char **sources;  /* the program's files + the driver      */
    int n_sources;
} fmode;

/* Parses the function and writes its driver.  False with e set. */
bool fmode_prepare(const ctg_options *o, fmode *m, ctg_err *e);
/* After the search: out/driver_NAME.c and out/tests_NAME.c, with a summary
 * on stdout unless --quiet.  False with e set. */
bool fmode_finish(const ctg_options *o, fmode *m, ctg_err *e);
void fmode_release(fmode *m);

/* The sources of a replay: the given ones plus out_dir/driver_*.c when the
 * suite was made in function mode and no driver is given already.  Returns
 * a new array (ctg_free) and sets *driver to the added path (ctg_free) or
 * NULL; NULL on oom. */
const char **fmode_replay_sources(const char *out_dir, const char *const *src, int n, int *n_out,
                                  char **driver);

#endif
