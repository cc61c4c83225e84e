/*
 * build.h - from C sources to instrumented binaries (DESIGN.md section 4):
 * clang-14 to bitcode, one linked module, the passes of src/instrument, and
 * clang again to link with the runtime.  Results are cached by a hash of the
 * sources, the flags and ctestgen's own runtime.
 */
#ifndef CTG_BUILD_H
#define CTG_BUILD_H

#include <stdbool.h>

#include "../base/err.h"
#include "../instrument/progdb.h"

typedef struct build_opts {
    const char *const *sources; /* C files; the first one is "the program"   */
    int n_sources;
    const char *const *cflags;  /* -I, -D, ... passed to clang                */
    int n_cflags;
    int arch_bits;              /* 64 (default) or 32                         */
    const char *cache_dir;      /* NULL: $CTESTGEN_CACHE or ~/.cache/ctestgen */
    bool no_cache;              /* rebuild even when cached                   */
    bool want_sym;              /* also build prog.sym (concolic)             */
    bool verbose;               /* echo tool command lines to stderr          */
} build_opts;

typedef struct build_result {
    char *dir;      /* cache directory holding everything below      */
    char *cov_bin;  /* prog.cov                                       */
    char *sym_bin;  /* prog.sym, or NULL                              */
    char *db_path;  /* progdb.json                                    */
    char *bitcode;  /* prepared (uninstrumented) module, prog.bc      */
    progdb *db;
    bool cached;    /* true when nothing had to be rebuilt            */
    unsigned warnings;
} build_result;

/* Builds (or finds in the cache) the binaries.  Compiler diagnostics go to
 * stderr as clang prints them; e gets a one-line summary naming the file. */
bool build_program(const build_opts *o, build_result *r, ctg_err *e);
void build_result_release(build_result *r);

/* Directory with the runtime archives and replay harness sources. */
const char *build_runtime_dir(void);

#endif
