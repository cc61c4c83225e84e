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
    char *warning;  /* one line summarising the warnings, or NULL     */
} build_result;

/* Builds (or finds in the cache) the binaries.  Compiler diagnostics go to
 * stderr as clang prints them; e gets a one-line summary naming the file.
 *
 * Steps: clang-14 -c -emit-llvm -g -O0 -Xclang -disable-O0-optnone per
 * source (the -I/-D/... flags; -l/-L/-Wl, flags go to the final link only),
 * LLVMLinkModules2, inst_prepare + inst_number -> prog.bc (prepared,
 * uninstrumented: later passes start from it) and progdb.json, inst_cov on a
 * clone -> prog.cov.bc, clang-14 -O2 with the runtime archive -> prog.cov.
 * The cache (build_cache.h) is keyed by sources, flags, arch, runtime and
 * ctestgen itself, and validated against the headers clang read.
 * On success release r with build_result_release(); on failure r is left
 * empty (releasing it again is harmless). */
bool build_program(const build_opts *o, build_result *r, ctg_err *e);
void build_result_release(build_result *r);

/* Directory with the runtime archives and replay harness sources:
 * $CTESTGEN_RUNTIME_DIR, else <dir of the executable>/rt, else
 * <dir of the executable>/../rt (tests run from build/tests), else
 * <dir of the executable>/../lib/ctestgen/rt (an install: make install). */
const char *build_runtime_dir(void);

#endif
