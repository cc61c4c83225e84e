/*
 * buildrec.h - OUT/build.json: what a run built, so that `replay`,
 * `export` and `report` need nothing more, from any working directory.
 *
 *   { "format": "ctestgen-build-1",
 *     "sources": ["/abs/prog.c", "/abs/lib.c"],   the program's files
 *     "flags": ["-I/abs/include", "-DX=1", "-lm"],   compiler and link flags
 *     "arch": 64,
 *     "sanitize": "address,undefined" }            (absent: none)
 *
 * Paths are absolute: sources by realpath, and the path of every flag that
 * names one (-I, -L, -include, ...; ccflags.h) against the run's working
 * directory.
 */
#ifndef CTG_BUILDREC_H
#define CTG_BUILDREC_H

#include <stdbool.h>

#include "../base/err.h"

#define BUILDREC_FILE "build.json"

typedef struct buildrec {
    char **sources;
    int n_sources;
    char **flags;
    int n_flags;
    int arch_bits;  /* 32 or 64 */
    char *sanitize; /* NULL: none */
} buildrec;

/* Fills r from what a run was given (copies, paths made absolute).  False
 * with e set when a source cannot be resolved or memory runs out (r is then
 * released). */
bool buildrec_make(buildrec *r, const char *const *sources, int n_sources,
                   const char *const *flags, int n_flags, int arch_bits, const char *sanitize,
                   ctg_err *e);
/* Writes out_dir/build.json atomically.  False with e set. */
bool buildrec_write(const char *out_dir, const buildrec *r, ctg_err *e);
/* Reads out_dir/build.json into r.  0: no such file (r empty); 1: read;
 * -1: unreadable or not a build record (e says which file and why). */
int buildrec_load(const char *out_dir, buildrec *r, ctg_err *e);
/* Frees what r holds; r is empty afterwards (NULL-safe). */
void buildrec_release(buildrec *r);

#endif
