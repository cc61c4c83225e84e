/*
 * utest.h - regression tests in C for function mode (issue 3 part 3, as
 * EvoSuite writes JUnit tests): out/tests_<function>.c holds one test per
 * kept test of the suite that calls the function with the values the test
 * holds (decoded with the driver's rules, driver.h) and asserts what was
 * observed: the return value (integers and floats exactly, pointers as
 * NULL / not NULL) and the contents of non-const char * buffers after the
 * call.
 *
 * Observations come from a probe: the same tests, compiled with gcc against
 * the program, each run in its own process.  A test whose probe crashes,
 * aborts or times out is kept in the file under #ifdef CTG_RUN_CRASHING.
 * The file #includes nothing of ctestgen; it is compiled together with the
 * program (`gcc -Wall -Werror tests_f.c lib.c`) and prints
 * "N passed, M failed".
 */
#ifndef CTG_UTEST_H
#define CTG_UTEST_H

#include <stdbool.h>

#include "../base/err.h"
#include "../compile/driver.h"

typedef struct utest_opts {
    const drv_sig *sig;
    const char *suite_dir;      /* out/test-suite                          */
    const char *out_path;       /* out/tests_<function>.c                  */
    const char *const *sources; /* the program's C files (lib.c ...)      */
    int n_sources;
    const char *const *cflags;
    int n_cflags;
    int arch_bits;
    double timeout_s;           /* per probe run; 0: 5 s                   */
    const char *cc;             /* NULL: "gcc"                             */
} utest_opts;

typedef struct utest_result {
    unsigned tests;     /* tests written                               */
    unsigned crashing;  /* of which crash (disabled by default)        */
    unsigned passed, failed; /* running the written file               */
    bool verified;      /* the file compiled with -Wall -Werror and ran */
} utest_result;

/* Writes out_path.  False with e set when the suite cannot be read or the
 * probe does not build; a written file that does not pass is reported in
 * r (verified false, or failed > 0), not as an error. */
bool utest_write(const utest_opts *o, utest_result *r, ctg_err *e);

#endif
