/*
 * outprog.h - the program an output directory was made for, as `replay`,
 * `export` and `report` need it: the files named after OUT on the command
 * line (with the command line's flags), else those OUT/build.json
 * recorded (with its flags), else the program stats.json names.  A
 * --function suite's driver (OUT/driver_NAME.c) joins them.
 */
#ifndef CTG_OUTPROG_H
#define CTG_OUTPROG_H

#include <stdbool.h>
#include <stdio.h>

#include "../base/err.h"
#include "../opt/options.h"
#include "../suite/buildrec.h"

typedef struct outprog {
    const char **sources; /* the files to build (the driver included)  */
    int n_sources;
    const char *const *flags;
    int n_flags;
    int arch_bits;        /* 0: unknown (the suite's metadata says)     */
    char *driver;         /* function mode: the driver from OUT, or NULL */
    bool recorded;        /* from OUT/build.json                        */
    buildrec rec;
    char *stats_prog;
} outprog;

/* Finds the program of out_dir; sources given on the command line start at
 * o->positional.items[first].  False with e set when there is none to
 * name (*usage then says the user should name it) or a file is damaged. */
bool outprog_find(const ctg_options *o, const char *out_dir, int first, outprog *p, bool *usage,
                  ctg_err *e);
void outprog_release(outprog *p);

/* Prints the command that builds C file `file` with the program, from any
 * directory: "cc [-m32] FILE SRC... FLAGS" (absolute paths as recorded). */
void outprog_print_cc(FILE *f, const char *file, const char *const *sources, int n_sources,
                      const char *const *flags, int n_flags, int arch_bits);

#endif
