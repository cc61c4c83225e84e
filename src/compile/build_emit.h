/*
 * build_emit.h - LLVM's -O0 code generator run by ctestgen itself, for the
 * modules with a huge function (build.c, BUILD_HUGE_FUNCTION): object files
 * straight from the instrumented module, without the bitcode file and the
 * clang process that would read it back.  The generator runs in child
 * processes, so that the build verifies the module meanwhile, and a crash
 * of the generator is reported, not suffered.  With two CPUs or more, a
 * module whose functions split evenly is generated as two objects at once,
 * each child keeping the definitions of its part (the generated state
 * machines of Test-Comp have several huge functions).  At -O2, the
 * functions build.c marked optnone are generated apart, at -O0: the -O2
 * code generator's register allocator and machine passes would go through
 * them too.  A definition one part uses and the other holds becomes
 * visible (a local one gets a hidden global name); the rest stays as it
 * was, so -O2 still sees its own part's locals.
 */
#ifndef CTG_BUILD_EMIT_H
#define CTG_BUILD_EMIT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../base/err.h"

#define EMIT_MAX_PARTS 2

/* Added to a level: AddressSanitizer's pass runs after the optimiser (as in
 * clang), on the functions that carry sanitize_address; such a module is
 * emitted whole. */
#define EMIT_ASAN 0x100

typedef struct emit_job {
    int n;                      /* objects: paths[0 .. n-1]                */
    pid_t pid[EMIT_MAX_PARTS];  /* their children; 0: done in this process */
    bool ok;                    /* the result when done in this process    */
    int level;                  /* 0: -O0; else clang's -O2 pipeline first */
} emit_job;

/* Writes the object file of m (its own target triple, PIC) to path in this
 * process: at level 0 straight (-O0), else after clang's -O2 pipeline, with
 * -O2 code generation.  False with e set. */
bool emit_object(LLVMModuleRef m, const char *path, int level, ctg_err *e);

/* Starts writing m's objects (at level, as emit_object) to paths[0 ..
 * j->n - 1] in children (in this process when fork fails).  At level 0
 * a module whose functions split evenly is written as two objects; at
 * level 2 one with optnone functions and others as two, the optnone part
 * at -O0.  Splitting gives the local symbols that both parts use hidden
 * global names; m must not change otherwise until emit_finish. */
void emit_start(emit_job *j, LLVMModuleRef m, int level, char *const paths[EMIT_MAX_PARTS],
                ctg_err *e);

/* Waits for the job; with cancel, stops it and returns false.  A split
 * whose part failed is generated again as one object (j->n becomes 1).  A
 * child that failed is run again here to learn why (e); one that crashed
 * is named in e.  `what` names the program in messages. */
bool emit_finish(emit_job *j, bool cancel, LLVMModuleRef m, char *const paths[EMIT_MAX_PARTS],
                 const char *what, ctg_err *e);

#endif
