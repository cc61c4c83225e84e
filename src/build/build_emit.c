/*
 * build_emit.c - an object file from a module by LLVM's code generator in
 * this process or a child (see build_emit.h).
 */
#include "build_emit.h"

#include <errno.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/mem.h"

bool emit_object(LLVMModuleRef m, const char *path, ctg_err *e)
{
    static bool ready;
    if (!ready) {
        if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter())
            return err_set(e, "LLVM has no code generator for this host; reinstall llvm-14");
        ready = true;
    }
    const char *triple = LLVMGetTarget(m);
    LLVMTargetRef t;
    char *msg = NULL;
    if (LLVMGetTargetFromTriple(triple, &t, &msg)) {
        err_set(e, "%s: no LLVM target for '%s' (%s); reinstall llvm-14", path, triple,
                msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return false;
    }
    /* the CPU and its features come from each function's attributes, as
     * clang wrote them; PIC for the PIE that clang links by default */
    LLVMTargetMachineRef tm = LLVMCreateTargetMachine(t, triple, "", "", LLVMCodeGenLevelNone,
                                                      LLVMRelocPIC, LLVMCodeModelDefault);
    if (!tm)
        return err_set(e, "%s: LLVM cannot make a code generator for '%s'", path, triple);
    char *p = ctg_strdup(path);
    bool ok = p && !LLVMTargetMachineEmitToFile(tm, m, p, LLVMObjectFile, &msg);
    if (!ok)
        err_set(e, "%s: cannot write the object file (%s); check the disk", path,
                msg ? msg : "out of memory");
    LLVMDisposeMessage(msg);
    ctg_free(p);
    LLVMDisposeTargetMachine(tm);
    return ok;
}

void emit_start(emit_job *j, LLVMModuleRef m, const char *path, ctg_err *e)
{
    fflush(NULL);
    j->pid = fork();
    if (j->pid == 0) {
        ctg_err ignored = {{0}};
        _exit(emit_object(m, path, &ignored) ? 0 : 1);
    }
    if (j->pid < 0) {
        j->pid = 0;
        j->ok = emit_object(m, path, e);
    }
}

bool emit_finish(emit_job *j, bool cancel, LLVMModuleRef m, const char *path, const char *what,
                 ctg_err *e)
{
    pid_t pid = j->pid;
    j->pid = 0;
    if (!pid)
        return j->ok && !cancel;
    if (cancel)
        kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (cancel)
        return false;
    if (WIFEXITED(st))
        return WEXITSTATUS(st) == 0 || emit_object(m, path, e); /* again, for the reason */
    return err_set(e, "%s: LLVM's code generator crashed (signal %d) on the instrumented "
                      "program; please report this", what, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
