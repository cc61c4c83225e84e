/*
 * ccflags.h - what a compiler or linker flag means to ctestgen: the one
 * home of that knowledge for the command line (`ctestgen run prog.c -lm
 * -O2`), the builds (which flags reach clang, which the final link), the
 * gcc replay, and the compiler wrapper ctestgen-cc (which records them).
 */
#ifndef CTG_CCFLAGS_H
#define CTG_CCFLAGS_H

#include <stdbool.h>

typedef enum ccf_kind {
    CCF_NONE = 0, /* not a compiler flag (ctestgen's own option, a file)     */
    CCF_COMPILE,  /* reaches the compiler: -I -D -U -include -isystem -std=
                     -f... -m... (not -m32/-m64)                            */
    CCF_LINK,     /* reaches the final link only: -l -L -Wl, -static       */
    CCF_BOTH,     /* both: -pthread                                         */
    CCF_ARCH,     /* -m32 / -m64: the word size (--arch)                    */
    CCF_SANITIZE, /* -fsanitize=LIST: ctestgen's --sanitize                 */
    CCF_IGNORE    /* meaningless for an instrumented build: -O*, -W*, -g*,
                     --coverage, -fprofile-*, -c, -pipe ...                */
} ccf_kind;

/* The kind of argument a, with next the argument after it (NULL at the
 * end).  *n_args: the arguments the flag takes, 1 or 2 (-I DIR). */
ccf_kind ccf_classify(const char *a, const char *next, int *n_args);

/* Why an ignored flag is ignored, one short phrase ("the engine picks its
 * own optimisation levels"). */
const char *ccf_ignore_reason(const char *a);

/* Whether flag f (one argument: "-lm", "-L/x", "-I/x", "-DX") goes to the
 * compiler, and whether it goes to the final link.  Both for -pthread. */
bool ccf_for_compile(const char *f);
bool ccf_for_link(const char *f);

/* Whether flag f names a path (after its prefix or as its second
 * argument): -I, -L, -include, -isystem, -iquote, --sysroot=.  *prefix_len:
 * the length of the prefix before the path (0 when the path is the next
 * argument). */
bool ccf_takes_path(const char *f, int *prefix_len);

#endif
