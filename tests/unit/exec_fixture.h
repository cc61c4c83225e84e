/*
 * exec_fixture.h - helpers shared by test_exec.c and test_runtime.c: where
 * the test programs are (build/tests/programs, see CMakeLists.txt), starting
 * an executor on one, and the $CTG_TEST_OUT file the programs write to.
 */
#ifndef CTG_EXEC_FIXTURE_H
#define CTG_EXEC_FIXTURE_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/err.h"
#include "base/fsutil.h"
#include "base/mem.h"
#include "exec/exec.h"

/* Path of test program `name` (e.g. "faults64") in a static buffer. */
static inline const char *fx_prog(const char *name)
{
    static char buf[4096];
    const char *dir = getenv("CTG_BUILD_DIR");
    snprintf(buf, sizeof buf, "%s/tests/programs/%s", dir ? dir : ".", name);
    return buf;
}

/* The file the test programs write to; set before exec_new so the fork
 * server inherits it. */
static inline const char *fx_out_path(void)
{
    static char buf[64];
    if (!buf[0]) {
        snprintf(buf, sizeof buf, "/tmp/ctg-test-out-%ld.txt", (long)getpid());
        setenv("CTG_TEST_OUT", buf, 1);
    }
    return buf;
}

static inline void fx_out_clear(void) { unlink(fx_out_path()); }

/* Contents of the out file (static buffer, "" when missing). */
static inline const char *fx_out_read(void)
{
    static char buf[65536];
    buf[0] = 0;
    FILE *f = fopen(fx_out_path(), "r");
    if (f) {
        size_t n = fread(buf, 1, sizeof buf - 1, f);
        buf[n] = 0;
        fclose(f);
    }
    return buf;
}

/* Starts an executor on test program `name` or fails the test. */
static inline exec_t *fx_exec(const char *name, uint32_t edges, uint32_t cmps, uint32_t timeout_ms)
{
    fx_out_path();
    exec_config c = {fx_prog(name), edges, cmps, timeout_ms, 0, NULL, NULL, 0, NULL, 0, false};
    ctg_err e = {{0}};
    exec_t *x = exec_new(&c, &e);
    if (!x)
        fail_msg("exec_new(%s): %s", name, e.msg);
    return x;
}

/* Runs one input or fails the test. */
static inline exec_result fx_run(exec_t *x, const void *in, size_t len, uint32_t flags,
                                 uint64_t seed)
{
    exec_result r;
    ctg_err e = {{0}};
    memset(&r, 0, sizeof r);
    if (!exec_run(x, in, len, flags, seed, &r, &e))
        fail_msg("exec_run: %s", e.msg);
    return r;
}

#endif
