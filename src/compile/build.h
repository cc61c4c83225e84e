/*
 * build.h - from C sources to instrumented binaries (DESIGN.md section 4):
 * clang-14 to bitcode, one linked module, the passes of src/instrument, and
 * clang again to link with the runtime.  Results are cached by a hash of the
 * sources, the flags and ctestgen's own runtime.
 */
#ifndef CTG_BUILD_H
#define CTG_BUILD_H

#include <stdbool.h>
#include <stddef.h>

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
    const char *sanitize;       /* also build prog.san-LIST with these clang
                                   sanitizers (build_sanitize_list's form:
                                   "address,undefined"), NULL or "": none */
    bool verbose;               /* echo tool command lines to stderr          */
} build_opts;

typedef struct build_result {
    char *dir;      /* cache directory holding everything below      */
    const struct build_opts *opts; /* the options it was built with (the
                                      caller's, not owned), for the binaries
                                      built later (prog.dbg)              */
    char *cov_bin;  /* prog.cov                                       */
    char *sym_bin;  /* prog.sym, or NULL                              */
    char *san_bin;  /* prog.san-LIST (build_opts.sanitize), or NULL   */
    bool san_aligned; /* its edge ids are prog.cov's: it can run every
                         input in prog.cov's place (build_extra.c)      */
    unsigned san_n_edges, san_n_cmp; /* its own counts (its maps)       */
    char *db_path;  /* progdb.json                                    */
    char *bitcode;  /* prepared (uninstrumented) module, prog.bc      */
    progdb *db;
    bool cached;    /* true when nothing had to be rebuilt            */
    unsigned warnings;
    char *warning;  /* one line summarising the warnings, or NULL     */
    /* what this call built (zero for what came from the cache): seconds
     * per stage and the optimisation level of each binary's code generation */
    struct {
        double compile;     /* clang -c -emit-llvm of every source           */
        double passes;      /* linking the bitcode, numbering, coverage pass  */
        double cov_codegen; /* -O? pipeline, code generation, gcc link    */
        double sym_passes;  /* symbolic pass                                   */
        double sym_codegen; /* the same for prog.sym                      */
        double san;         /* prog.san, all of it (0: cached or none)    */
        int cov_opt, sym_opt; /* 2, or 0 for a module with a huge function    */
        unsigned cov_largest, sym_largest; /* instructions of its largest function */
        unsigned cov_spared, sym_spared;   /* functions left unoptimised at -O2 */
    } stage;
    double secs;    /* wall time of the build as the run saw it (--time counts it) */
    int sym_pid;    /* > 0: prog.sym is being built by this child process */
    int sym_fd;     /* its error message comes through this pipe          */
    int sym_owner;  /* the process that started it (--jobs workers share
                       it through fork: they watch it, only this one stops
                       it)                                                */
    char sym_error[1024]; /* why prog.sym could not be built, or ""    */
} build_result;

/* Instructions in a function above which its module's code generation runs
 * at -O0: -O2's time grows faster than linearly in a function's size.
 * Measured on Test-Comp programs: Problem13 (largest function 40,000 after
 * instrumentation) 5.8 s at -O2, 1.2 s at -O0, its prog.sym 45 s at -O2;
 * Dubois-060 (5,700, prog.sym 16,400) 0.69 s and 4.8 s at -O2, 0.11 s and
 * 0.54 s at -O0.  Our fuzz targets' largest functions stay under 1,000. */
#define BUILD_HUGE_FUNCTION 4000u

/* Instructions in a function above which, in a program run by a fork per
 * input, it is built without optimisation inside an -O2 module: such a
 * program's rate is bound by the fork, and -O2's time is not (inlining
 * 200 calls of assume() into a 3,300-instruction main took 0.6 s of
 * aim-100-2-0-sat-1's 0.7 s build). */
#define BUILD_O2_FUNCTION 1000u

/* Instructions in such a program above which only its functions with a
 * loop are optimised (a loop is where a run's time goes): the ntdrivers
 * tasks (50-130 KB, hundreds of small functions) spent 0.15 s in -O2,
 * three times clang -O0 -c. */
#define BUILD_O2_MODULE 1000u

/* The flags (NULL-terminated) of every compile of a C file to the engine's
 * bitcode, besides -m32/-m64, the program's own and -fwrapv (the
 * sanitizer build checks signed overflow instead): ctestgen-cc makes its
 * bitcode with them too. */
const char *const *build_clang_flags(void);

/* The sanitizer list of --sanitize / -fsanitize= in the form the build
 * takes (norm, cap bytes): the parts ctestgen supports, "fuzzer" dropped
 * (ctestgen is the fuzzer); "" when nothing is left.  False with e set
 * naming an unsupported part (memory, thread, ...). */
bool build_sanitize_list(const char *given, char *norm, size_t cap, ctg_err *e);

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

/* Starts building prog.sym for the finished build r (same options) in a
 * child process, so that a search can start on prog.cov at once. */
bool build_sym_background(const build_opts *o, build_result *r, ctg_err *e);

/* Whether the background build of prog.sym ended: 1 with r->sym_bin set,
 * 0 while it runs (block: waits for it), -1 when it failed (its one-line
 * reason in why) or none was started. */
int build_sym_poll(build_result *r, bool block, char *why, size_t why_len);

/* prog.dbg, prog.cov with its line tables, for the finished build r (o:
 * its options), from the cache entry or built now (build_extra.c): the
 * path (ctg_free), or NULL with e set. */
char *build_debug_twin(const build_result *r, const build_opts *o, ctg_err *e);

/* Stops a background build that still runs; its files are removed. */
void build_sym_cancel(build_result *r);
/* Lets a background build that still runs finish on its own, at the lowest
 * priority, into the cache (the next run of the program finds prog.sym
 * there; a short budget would otherwise throw the work away every time);
 * in a process that did not start it, as build_sym_cancel. */
void build_sym_detach(build_result *r);
void build_result_release(build_result *r);

/* Directory with the runtime archives and replay harness sources:
 * $CTESTGEN_RUNTIME_DIR, else <dir of the executable>/rt, else
 * <dir of the executable>/../rt (tests run from build/tests), else
 * <dir of the executable>/../lib/ctestgen/rt (an install: make install). */
const char *build_runtime_dir(void);

#endif
