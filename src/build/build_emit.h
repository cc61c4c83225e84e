/*
 * build_emit.h - LLVM's -O0 code generator run by ctestgen itself, for the
 * modules with a huge function (build.c, BUILD_HUGE_FUNCTION): an object
 * file straight from the instrumented module, without the bitcode file and
 * the clang process that would read it back.  The generator runs in a
 * child process, so that the build verifies the module meanwhile on the
 * other core, and a crash of the generator is reported, not suffered.
 */
#ifndef CTG_BUILD_EMIT_H
#define CTG_BUILD_EMIT_H

#include <llvm-c/Core.h>
#include <stdbool.h>
#include <sys/types.h>

#include "../base/err.h"

typedef struct emit_job {
    pid_t pid; /* the child generating the object; 0: done in this process */
    bool ok;   /* the result when done in this process                   */
} emit_job;

/* Writes the object file of m (its own target triple, -O0, PIC) to path in
 * this process.  False with e set. */
bool emit_object(LLVMModuleRef m, const char *path, ctg_err *e);

/* Starts emit_object(m, path) in a child (in this process when fork
 * fails).  m must stay unchanged until emit_finish. */
void emit_start(emit_job *j, LLVMModuleRef m, const char *path, ctg_err *e);

/* Waits for the job; with cancel, stops it and returns false.  A child that
 * failed is run again here to learn why (e); one that crashed is named in
 * e.  `what` names the program in messages. */
bool emit_finish(emit_job *j, bool cancel, LLVMModuleRef m, const char *path, const char *what,
                 ctg_err *e);

#endif
