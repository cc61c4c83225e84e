/*
 * llvm_fixture.h - helpers shared by test_instrument.c and test_bmc.c: a
 * scratch directory per test (setup and teardown for cmocka), C text
 * compiled to a module as build_program does, and a module prepared and
 * numbered as prog.bc is.
 */
#ifndef CTG_LLVM_FIXTURE_H
#define CTG_LLVM_FIXTURE_H

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fsutil.h"
#include "base/proc.h"
#include "instrument/instrument.h"

static char tmpdir[256];

static inline int setup(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/ctg-inst-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static inline int teardown(void **state)
{
    (void)state;
    return fs_rm_rf(tmpdir, NULL) ? 0 : -1;
}

/* Compiles C text (file name `name`) as build_program does and parses the
 * bitcode into a module of ctx. */
static inline LLVMModuleRef compile(LLVMContextRef ctx, const char *name, const char *text, int bits)
{
    char src[512], bc[512];
    snprintf(src, sizeof src, "%s/%s", tmpdir, name);
    snprintf(bc, sizeof bc, "%s/%s.bc", tmpdir, name);
    ctg_err e = {{0}};
    assert_true(fs_write_atomic(src, text, strlen(text), &e));
    char *argv[] = {CTG_CLANG, "-c", "-emit-llvm", "-g", "-O0", "-Xclang", "-disable-O0-optnone",
                    bits == 32 ? "-m32" : "-m64", "-w", "-o", bc, src, NULL};
    proc_result r;
    sbuf err = SBUF_INIT;
    proc_opts po = {.err = &err};
    assert_true(proc_run(argv, &po, &r, &e));
    if (!r.exited || r.code != 0)
        fail_msg("clang failed: %s", sbuf_str(&err));
    sbuf_release(&err);
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    assert_false(LLVMCreateMemoryBufferWithContentsOfFile(bc, &buf, &msg));
    LLVMModuleRef m = NULL;
    assert_false(LLVMParseBitcodeInContext2(ctx, buf, &m));
    LLVMDisposeMemoryBuffer(buf);
    LLVMSetModuleIdentifier(m, name, strlen(name));
    return m;
}

/* Prepares and numbers a module; returns the db. */
static inline progdb *number(LLVMModuleRef m, int *harness)
{
    ctg_err e = {{0}};
    if (!inst_prepare(m, harness, &e))
        fail_msg("inst_prepare: %s", e.msg);
    progdb *db = progdb_new();
    if (!inst_number(m, db, &e))
        fail_msg("inst_number: %s", e.msg);
    return db;
}

#endif
