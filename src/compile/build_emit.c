/*
 * build_emit.c - object files from a module by LLVM's code generator in
 * this process or in children, whole or split in two (see build_emit.h).
 */
#include "build_emit.h"

#include <errno.h>
#include <limits.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/hmap.h"
#include "../base/mem.h"
#include "../instrument/instrument.h"

/* Runs clang's -O2 pipeline over m for tm (vectorisers on, as clang -O2
 * sets them).  False with e set. */
static bool optimise(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *path, int level,
                     ctg_err *e)
{
    LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
    LLVMPassBuilderOptionsSetLoopVectorization(po, 1);
    LLVMPassBuilderOptionsSetSLPVectorization(po, 1);
    const char *pipe = (level & EMIT_ASAN) ? ((level & ~EMIT_ASAN) ? "default<O2>,asan-module"
                                                                  : "asan-module")
                                           : "default<O2>";
    LLVMErrorRef err = LLVMRunPasses(m, pipe, tm, po);
    LLVMDisposePassBuilderOptions(po);
    if (!err)
        return true;
    char *msg = LLVMGetErrorMessage(err);
    err_set(e, "%s: LLVM's -O2 pipeline failed (%s); please report this", path, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
}

bool emit_object(LLVMModuleRef m, const char *path, int level, ctg_err *e)
{
    static bool ready;
    if (!ready) {
        if (LLVMInitializeNativeTarget() || LLVMInitializeNativeAsmPrinter() ||
            LLVMInitializeNativeAsmParser()) /* inline asm */
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
     * clang wrote them; PIC for the PIE that clang links by default.
     * Constructors land in .ctors, which the linker folds into .init_array. */
    LLVMTargetMachineRef tm =
        LLVMCreateTargetMachine(t, triple, "", "",
                                (level & ~EMIT_ASAN) ? LLVMCodeGenLevelDefault : LLVMCodeGenLevelNone,
                                LLVMRelocPIC, LLVMCodeModelDefault);
    if (!tm)
        return err_set(e, "%s: LLVM cannot make a code generator for '%s'", path, triple);
    if (level && !optimise(m, tm, path, level, e)) {
        LLVMDisposeTargetMachine(tm);
        return false;
    }
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

/* ==== splitting ============================================================= */

/* True when constant c holds a blockaddress (the function it names must
 * stay in the same object as the constant). */
static bool has_blockaddress(LLVMValueRef c, int depth)
{
    if (!c || depth > 8)
        return depth > 8;
    if (LLVMIsABlockAddress(c))
        return true;
    if (!LLVMIsAConstantExpr(c) && !LLVMIsAConstantArray(c) && !LLVMIsAConstantStruct(c) &&
        !LLVMIsAConstantVector(c))
        return false;
    int n = LLVMGetNumOperands(c);
    for (int k = 0; k < n; k++)
        if (has_blockaddress(LLVMGetOperand(c, (unsigned)k), depth + 1))
            return true;
    return false;
}

/* Whether m can be split: no aliases, no ifuncs, no blockaddress in a
 * global's initializer. */
static bool splittable(LLVMModuleRef m)
{
    if (LLVMGetFirstGlobalAlias(m) || LLVMGetFirstGlobalIFunc(m))
        return false;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
        if (has_blockaddress(LLVMGetInitializer(g), 0))
            return false;
    return true;
}

/* CPUs this process may run on. */
static int usable_cpus(void)
{
    cpu_set_t s;
    return sched_getaffinity(0, sizeof s, &s) == 0 ? CPU_COUNT(&s) : 1;
}

/* Assigns m's defined functions (in module order) to two parts, largest
 * first to the lighter one; NULL when one part would hold more than 3/4 of
 * the instructions (one function dominates: splitting gains little). */
static unsigned char *plan_parts(LLVMModuleRef m)
{
    size_t n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        n += !LLVMIsDeclaration(f);
    if (n < 2)
        return NULL;
    unsigned *size = ctg_calloc(n, sizeof *size);
    size_t *order = ctg_calloc(n, sizeof *order);
    unsigned char *part = ctg_calloc(n, 1);
    unsigned long long total = 0, load[2] = {0, 0};
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); size && order && part && f;
         f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f)) {
            size[i] = inst_fn_size(f, UINT_MAX), total += size[i], order[i] = i;
            i++;
        }
    for (size_t a = 0; size && order && part && a < n; a++) { /* few functions: selection */
        size_t best = a;
        for (size_t b = a + 1; b < n; b++)
            if (size[order[b]] > size[order[best]])
                best = b;
        size_t t = order[a];
        order[a] = order[best], order[best] = t;
        int k = load[1] < load[0];
        part[order[a]] = (unsigned char)k;
        load[k] += size[order[a]];
    }
    bool even = size && order && part && 4 * (load[0] > load[1] ? load[0] : load[1]) <= 3 * total;
    ctg_free(size), ctg_free(order);
    if (!even)
        ctg_free(part), part = NULL;
    return part;
}

/* The part of defined function f (fparts: function -> part), -1 if none. */
static int fn_part(const hmap *fparts, LLVMValueRef f)
{
    uint64_t v;
    return f && hmap_get(fparts, (uint64_t)(uintptr_t)f, &v) ? (int)v : -1;
}

/* Whether a use of v lies outside part k: in a function of another part,
 * in the initializer of a variable when variables live in another part
 * (vars), or in a constant used so; anything else counts as outside. */
static bool used_outside(LLVMValueRef v, int k, const hmap *fparts, int vars, int depth)
{
    for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
        LLVMValueRef user = LLVMGetUser(u);
        int p;
        if (LLVMIsAInstruction(user))
            p = fn_part(fparts, LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)));
        else if (LLVMIsAGlobalVariable(user))
            p = vars;
        else if (LLVMIsAFunction(user)) /* its personality, prefix or prologue */
            p = fn_part(fparts, user);
        else if (LLVMIsAConstant(user) && !LLVMIsAGlobalValue(user) && depth < 16) {
            if (used_outside(user, k, fparts, vars, depth + 1))
                return true;
            continue;
        } else
            return true;
        if (p != k)
            return true;
    }
    return false;
}

/* Makes visible to the other part every definition of m that the other
 * part uses and that it could not name or that its own part's optimiser
 * could drop: a local (internal, private) one gets a global, hidden name
 * of its own, a linkonce one external linkage.  part: of every defined
 * function in module order; vars: the part that keeps the variables. */
static void promote_shared(LLVMModuleRef m, const unsigned char *part, int vars)
{
    hmap fparts = HMAP_MAP;
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            hmap_put(&fparts, (uint64_t)(uintptr_t)f, part[i++]); /* out of memory: all outside */
    unsigned anon = 0;
    LLVMValueRef first[2] = {LLVMGetFirstFunction(m), LLVMGetFirstGlobal(m)};
    for (int kind = 0; kind < 2; kind++)
        for (LLVMValueRef g = first[kind]; g;
             g = kind ? LLVMGetNextGlobal(g) : LLVMGetNextFunction(g)) {
            LLVMLinkage l = LLVMGetLinkage(g);
            bool local = l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
            if (LLVMIsDeclaration(g) || l == LLVMAppendingLinkage ||
                (!local && l != LLVMLinkOnceAnyLinkage && l != LLVMLinkOnceODRLinkage) ||
                !used_outside(g, kind ? vars : fn_part(&fparts, g), &fparts, vars, 0))
                continue;
            if (!local) {
                LLVMSetLinkage(g, LLVMExternalLinkage);
                continue;
            }
            size_t len;
            const char *name = LLVMGetValueName2(g, &len);
            char buf[512];
            /* '.' cannot occur in a C name: no clash with the program's
             * other symbols, libc's or the runtime's */
            int w = len ? snprintf(buf, sizeof buf, "%.*s.ctg%u", (int)(len < 400 ? len : 400),
                                   name, anon++)
                        : snprintf(buf, sizeof buf, "ctg.anon%u", anon++);
            LLVMSetValueName2(g, buf, (size_t)w);
            LLVMSetLinkage(g, LLVMExternalLinkage);
            LLVMSetVisibility(g, LLVMHiddenVisibility);
        }
    hmap_release(&fparts);
}

/* Replaces definition g (a function or a variable) by a declaration of the
 * same name and type. */
static void to_declaration(LLVMModuleRef m, LLVMValueRef g)
{
    size_t len;
    const char *nm = LLVMGetValueName2(g, &len);
    char *name = ctg_strndup(nm, len);
    if (!name)
        return;
    LLVMSetValueName2(g, "", 0);
    LLVMValueRef d;
    if (LLVMIsAFunction(g)) {
        d = LLVMAddFunction(m, name, LLVMGlobalGetValueType(g));
        LLVMSetFunctionCallConv(d, LLVMGetFunctionCallConv(g));
    } else {
        d = LLVMAddGlobalInAddressSpace(m, LLVMGlobalGetValueType(g), name,
                                        LLVMGetPointerAddressSpace(LLVMTypeOf(g)));
        LLVMSetThreadLocalMode(d, LLVMGetThreadLocalMode(g));
        LLVMSetGlobalConstant(d, LLVMIsGlobalConstant(g));
        LLVMSetAlignment(d, LLVMGetAlignment(g));
    }
    LLVMSetVisibility(d, LLVMGetVisibility(g));
    LLVMReplaceAllUsesWith(g, d);
    if (LLVMIsAFunction(g))
        LLVMDeleteFunction(g);
    else
        LLVMDeleteGlobal(g);
    ctg_free(name);
}

/* In a child: keeps the functions of part k (part vars also keeps every
 * variable), declares the rest. */
static void keep_part(LLVMModuleRef m, const unsigned char *part, int k, int vars)
{
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m), next; f; f = next) {
        next = LLVMGetNextFunction(f);
        if (LLVMIsDeclaration(f))
            continue;
        if (part[i++] != k)
            to_declaration(m, f);
    }
    if (k == vars)
        return;
    for (LLVMValueRef g = LLVMGetFirstGlobal(m), next; g; g = next) {
        next = LLVMGetNextGlobal(g);
        if (LLVMIsDeclaration(g))
            continue;
        if (LLVMGetLinkage(g) == LLVMAppendingLinkage) /* llvm.global_ctors, llvm.used */
            LLVMDeleteGlobal(g);
        else
            to_declaration(m, g);
    }
}

/* ==== jobs ================================================================== */

/* Forks a child writing part k of m (whole when part is NULL; vars: the
 * part that keeps the variables) to path at level. */
static pid_t start_child(LLVMModuleRef m, const unsigned char *part, int k, int vars,
                         const char *path, int level)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (part)
            keep_part(m, part, k, vars);
        ctg_err ignored = {{0}};
        _exit(emit_object(m, path, level, &ignored) ? 0 : 1);
    }
    return pid;
}

/* For an -O2 build whose module has optnone functions (build.c marks the
 * large ones so) and others: part 0 the optnone ones, generated at -O0,
 * part 1 the rest at -O2.  The -O2 code generator would take its slow
 * register allocator and machine passes through the optnone functions
 * too, and they cannot be inlined anyway.  NULL when one part would be
 * empty. */
static unsigned char *plan_optnone(LLVMModuleRef m)
{
    unsigned on = LLVMGetEnumAttributeKindForName("optnone", 7);
    size_t n = 0, spared = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f)) {
            n++;
            spared += LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, on) != NULL;
        }
    if (!spared || spared == n)
        return NULL;
    unsigned char *part = ctg_calloc(n, 1);
    size_t i = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); part && f; f = LLVMGetNextFunction(f))
        if (!LLVMIsDeclaration(f))
            part[i++] = !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, on);
    return part;
}

void emit_start(emit_job *j, LLVMModuleRef m, int level, char *const paths[EMIT_MAX_PARTS],
                ctg_err *e)
{
    memset(j, 0, sizeof *j);
    j->level = level;
    fflush(NULL);
    /* -O0: two even parts on two CPUs; -O2 (which inlines across
     * functions): its optnone functions apart, when it has some */
    int lv[EMIT_MAX_PARTS] = {level, level}, vars = 0;
    unsigned char *part = NULL;
    if (!(level & EMIT_ASAN) && splittable(m)) {
        if (!level)
            part = usable_cpus() >= 2 ? plan_parts(m) : NULL;
        else if ((part = plan_optnone(m)) != NULL)
            lv[0] = 0, vars = 1; /* -O2 sees the initializers of constants */
    }
    if (part) {
        promote_shared(m, part, vars);
        j->pid[0] = start_child(m, part, 0, vars, paths[0], lv[0]);
        j->pid[1] = j->pid[0] > 0 ? start_child(m, part, 1, vars, paths[1], lv[1]) : -1;
        ctg_free(part);
        if (j->pid[0] > 0 && j->pid[1] > 0) {
            j->n = 2;
            return;
        }
        if (j->pid[0] > 0) { /* the second fork failed: whole, below */
            kill(j->pid[0], SIGKILL);
            waitpid(j->pid[0], NULL, 0);
        }
        j->pid[0] = j->pid[1] = 0;
    }
    j->n = 1;
    j->pid[0] = start_child(m, NULL, 0, 0, paths[0], level);
    if (j->pid[0] < 0) {
        j->pid[0] = 0;
        j->ok = emit_object(m, paths[0], level, e);
    }
}

/* Waits for child pid; its status into *st. */
static void reap(pid_t pid, int *st)
{
    while (waitpid(pid, st, 0) < 0 && errno == EINTR)
        ;
}

bool emit_finish(emit_job *j, bool cancel, LLVMModuleRef m, char *const paths[EMIT_MAX_PARTS],
                 const char *what, ctg_err *e)
{
    int st[EMIT_MAX_PARTS] = {0};
    bool children = false, all_ok = true;
    for (int k = 0; k < j->n; k++) {
        if (!j->pid[k])
            continue;
        children = true;
        if (cancel)
            kill(j->pid[k], SIGKILL);
        reap(j->pid[k], &st[k]);
        j->pid[k] = 0;
        all_ok = all_ok && WIFEXITED(st[k]) && WEXITSTATUS(st[k]) == 0;
    }
    if (cancel)
        return false;
    if (!children)
        return j->ok;
    if (all_ok)
        return true;
    if (j->n == 2) { /* a part failed: the whole module as one object */
        j->n = 1;
        pid_t pid = start_child(m, NULL, 0, 0, paths[0], j->level);
        if (pid < 0)
            return emit_object(m, paths[0], j->level, e);
        reap(pid, &st[0]);
        if (WIFEXITED(st[0]) && WEXITSTATUS(st[0]) == 0)
            return true;
    }
    if (WIFEXITED(st[0]))
        return emit_object(m, paths[0], j->level, e); /* again, for the reason */
    return err_set(e, "%s: LLVM's code generator crashed (signal %d) on the instrumented "
                      "program; please report this", what, WIFSIGNALED(st[0]) ? WTERMSIG(st[0]) : 0);
}
