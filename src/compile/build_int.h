/*
 * build_int.h - what the files of src/compile share about a build in
 * progress (internal to src/compile): its context, and the steps build.c
 * runs and build_san.c reuses for the sanitizer binary.
 */
#ifndef CTG_BUILD_INT_H
#define CTG_BUILD_INT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../base/proc.h"
#include "../base/sbuf.h"
#include "../instrument/instrument.h"
#include "build.h"
#include "build_emit.h"

/* One build in progress, in the temporary entry directory `dir`. */
typedef struct bctx {
    const build_opts *o;
    const char *dir;
    const char *rt_archive;
    const char *sym_archive; /* libctg_sym<arch>.a, when prog.sym is wanted */
    const char *san;         /* the sanitizer binary's -fsanitize= list, or NULL */
    char **bc_files, **dep_files; /* per source */
    LLVMContextRef ctx;
    LLVMModuleRef mod;
    progdb *db;
    pid_t db_writer; /* the child writing prog.bc and progdb.json, 0: none */
    int db_pipe;     /* its error message                                 */
    inst_stats st;
    build_result *r; /* its stage times and levels */
    ctg_err *e;
} bctx;

/* A growing argv (NULL-terminated, strings not owned). */
typedef struct argv_t {
    char **v;
    size_t n, cap;
    bool oom;
} argv_t;

/* The files bld_link_binary links, named in the entry directory. */
typedef struct gen_files {
    char name[EMIT_MAX_PARTS][24];
    int n;
} gen_files;

void bld_arg(argv_t *a, const char *s);
/* Runs a tool, its stderr into err; false with e set when it cannot start. */
bool bld_run_tool(const bctx *B, argv_t *a, sbuf *err, proc_result *r);
/* Names the per-source bitcode and dependency files in B->dir. */
bool bld_name_files(bctx *B);
void bld_remove_intermediates(bctx *B);
/* Source i to bitcode (with B->san: its sanitizer checks). */
bool bld_compile(bctx *B, int i);
/* Every source's bitcode linked into B->mod. */
bool bld_link_modules(bctx *B);
LLVMModuleRef bld_read_bitcode(bctx *B, const char *path);
/* Readies m for code generation; the -O level.  keep_debug: its line
 * tables stay (symbolised reports). */
int bld_codegen_level(LLVMModuleRef m, unsigned *largest, unsigned *spared, bool keep_debug);
/* m -> objects STEM.K.o (level as emit_start), verified meanwhile. */
bool bld_generate(bctx *B, LLVMModuleRef m, const char *stem, int level, gen_files *g,
                  double *passes, double *codegen);
/* The objects + extra archive + runtime -> out_name (B->san: clang's
 * driver with the sanitizer runtimes, else gcc). */
bool bld_link_binary(bctx *B, const gen_files *g, const char *out_name, const char *extra,
                     double *secs);
char *bld_in_dir(const bctx *B, const char *name);
/* A private directory WHAT.tmp.XXXXXX in the cache entry of r, where a
 * binary added to it is built before it is moved into place (ctg_free);
 * NULL with e set. */
char *bld_entry_tmp(const build_result *r, const char *what, ctg_err *e);
void bld_release(bctx *B);

/* Adds prog.san-LIST (o->sanitize) to the finished build r: from the
 * cache entry, else built (build_san.c).  False with e set. */
bool build_add_san(const build_opts *o, const char *rt, build_result *r, ctg_err *e);

#endif
