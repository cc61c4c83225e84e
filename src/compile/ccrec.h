/*
 * ccrec.h - compile records: which C files a project's build compiled, with
 * which flags, and what its final link added.  They come from two places:
 *
 *   - the compiler wrapper ctestgen-cc (src/cli/ccwrap.c) writes one JSON
 *     line per translation unit into a section ".ctestgen" of each object
 *     it compiles, and one "link" line into the executable it links;
 *     the linker concatenates the sections and `ar` keeps them, so an
 *     executable, an object or a static library says what it was built
 *     from (read with libelf);
 *   - a compilation database, compile_commands.json (CMake's
 *     CMAKE_EXPORT_COMPILE_COMMANDS, bear), read with json-c.
 *
 *   {"src": "/abs/decode.c", "bc": "/abs/.decode.o.ctg.bc",
 *    "flags": ["-I/abs/include", "-DX=1"], "arch": 64}
 *   {"link": ["-lm", "-L/abs/lib"]}
 *
 * Paths in flags are absolute (made so against the compiler's directory).
 */
#ifndef CTG_CCREC_H
#define CTG_CCREC_H

#include <stdbool.h>
#include <stddef.h>

#include "../base/err.h"
#include "../base/sbuf.h"

#define CCREC_SECTION ".ctestgen"

typedef struct ccrec {
    char *src;    /* the C file (absolute)                        */
    char *bc;     /* its bitcode beside the object, or NULL        */
    char **flags; /* compiler flags (ccflags.h CCF_COMPILE, CCF_BOTH) */
    int n_flags;
    int arch_bits; /* 32, 64, or 0 when not said                  */
    char *obj;    /* the object a database entry makes, or NULL    */
} ccrec;

typedef struct ccrecs {
    ccrec *v;
    size_t n, cap;
    char **link; /* link flags of the final link (-l, -L, -Wl,) */
    int n_link;
} ccrecs;

/* One record as its JSON line (with the newline) appended to out; false
 * on oom. */
bool ccrec_line(const ccrec *r, sbuf *out);
/* The link line {"link": [...]} appended to out; false on oom. */
bool ccrec_link_line(char *const *flags, int n, sbuf *out);

/* Adds the records of JSON lines text to rs (a record of a source already
 * there is not added twice).  False with e set (what names the file) when
 * a line is not a record. */
bool ccrec_parse(const char *text, size_t len, const char *what, ccrecs *rs, ctg_err *e);

/* The records of an ELF file: an executable or shared library, an object,
 * or a static library (its members).  0: the file holds none (not built
 * with ctestgen-cc); 1: read; -1: unreadable (e set). */
int ccrec_read_elf(const char *path, ccrecs *rs, ctg_err *e);

/* Whether path is an ELF file or an `ar` archive (by its first bytes). */
bool ccrec_is_binary(const char *path);

/* The records of compile_commands.json at path: every entry that compiles
 * a C file, its flags as ccflags.h classifies them, paths made absolute
 * against the entry's directory.  False with e set naming the file and
 * the problem. */
bool ccrec_read_db(const char *path, ccrecs *rs, ctg_err *e);

void ccrecs_release(ccrecs *rs);

/* Whether the ELF object at path defines (a global function) main or
 * LLVMFuzzerTestOneInput: 1 yes, 0 no, -1 it cannot be read. */
int ccrec_defines_entry(const char *path);

/* Adds flag f (copied), followed by its value val when not NULL (-include
 * FILE), to *v unless that flag (pair) is there already; false on oom. */
bool ccrec_add_flag(char ***v, int *n, const char *f, const char *val);

#endif
