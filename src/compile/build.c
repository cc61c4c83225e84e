/*
 * build.c - from C sources to the instrumented binaries (see build.h):
 * clang invocations, linking of the bitcode, the passes of src/instrument,
 * and the cache lookup around it all (build_cache.c).
 */
#include "build.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Linker.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/ccflags.h"
#include "../base/fsutil.h"
#include "../base/host.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../instrument/instrument.h"
#include "../runtime/rt_protocol.h"
#include "build_cache.h"
#include "build_int.h"
#include "build_emit.h"

void bld_arg(argv_t *a, const char *s)
{
    if (ctg_grow((void **)&a->v, &a->cap, a->n + 2, sizeof *a->v) != 0) {
        a->oom = true;
        return;
    }
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
}

/* ==== the runtime ========================================================== */

/* True when dir holds the 64-bit runtime archive. */
static bool has_runtime(const char *dir)
{
    char *p = fs_join(dir, "libctg_rt64.a");
    bool ok = p && fs_exists(p);
    ctg_free(p);
    return ok;
}

const char *build_runtime_dir(void)
{
    static char dir[4096];
    if (dir[0])
        return dir;
    const char *env = getenv("CTESTGEN_RUNTIME_DIR");
    char *exe = fs_exe_dir();
    if (env && *env)
        snprintf(dir, sizeof dir, "%s", env);
    else if (exe) {
        snprintf(dir, sizeof dir, "%s/rt", exe);
        char up[4096], inst[4096];
        snprintf(up, sizeof up, "%s/../rt", exe);
        snprintf(inst, sizeof inst, "%s/../lib/ctestgen/rt", exe); /* cmake --install */
        if (!has_runtime(dir) && has_runtime(up))
            snprintf(dir, sizeof dir, "%s", up);
        else if (!has_runtime(dir) && has_runtime(inst))
            snprintf(dir, sizeof dir, "%s", inst);
    } else
        snprintf(dir, sizeof dir, "rt");
    ctg_free(exe);
    return dir;
}

/* ==== running clang ========================================================= */

/* Number of errors clang reported in its diagnostics text: the count of its
 * "N errors generated." summary, else the number of "error: " lines. */
static int count_errors(const char *text)
{
    static const char *const tails[] = {" errors generated.", " error generated."};
    for (int k = 0; k < 2; k++) {
        const char *q = strstr(text, tails[k]);
        if (!q)
            continue;
        const char *start = q;
        while (start > text && start[-1] >= '0' && start[-1] <= '9')
            start--;
        if (start < q)
            return atoi(start);
    }
    int n = 0;
    for (const char *q = text; (q = strstr(q, "error: ")); q++)
        n++;
    return n;
}

/* Runs a tool, echoing its command line when verbose and capturing its
 * stderr into err; false with e set when it cannot be started. */
bool bld_run_tool(const bctx *B, argv_t *a, sbuf *err, proc_result *r)
{
    if (a->oom)
        return err_set(B->e, "out of memory while building");
    if (B->o->verbose) {
        char *line = proc_cmdline(a->v);
        fprintf(stderr, "+ %s\n", line ? line : a->v[0]);
        ctg_free(line);
    }
    proc_opts po = {.err = err};
    return proc_run(a->v, &po, r, B->e);
}


/* Compiles source i to bitcode in the entry directory. */
bool bld_compile(bctx *B, int i)
{
    const build_opts *o = B->o;
    char *abs = fs_realpath(o->sources[i], B->e);
    if (!abs)
        return false;
    argv_t a = {0};
    bld_arg(&a, CTG_CLANG);
    for (const char *const *f = build_clang_flags(); *f; f++)
        bld_arg(&a, *f);
    const char *pre[] = {o->arch_bits == 32 ? "-m32" : "-m64", "-MD", "-MF", B->dep_files[i],
                         "-MT", "x"};
    for (size_t k = 0; k < sizeof pre / sizeof *pre; k++)
        bld_arg(&a, pre[k]);
    if (!o->verbose)
        bld_arg(&a, "-w");
    /* signed overflow wraps as at gcc -O0; the sanitizer build checks it */
    sbuf san = SBUF_INIT;
    if (B->san) {
        /* the front end's checks (UBSan) and marks (ASan's attributes),
         * without clang's passes: AddressSanitizer's pass would run at
         * once, and its branches would be numbered; it runs at the end
         * (EMIT_ASAN) */
        sbuf_printf(&san, "-fsanitize=%s", B->san);
        bld_arg(&a, sbuf_str(&san)), bld_arg(&a, "-fno-sanitize-recover=all");
        bld_arg(&a, "-Xclang"), bld_arg(&a, "-disable-llvm-passes");
        /* use-after-scope needs scope cleanups (a switch of its own, which
         * would part the ids from prog.cov's) */
        if (strstr(B->san, "address"))
            bld_arg(&a, "-fno-sanitize-address-use-after-scope");
    } else
        bld_arg(&a, "-fwrapv");
    for (int k = 0; k < o->n_cflags; k++)
        if (ccf_for_compile(o->cflags[k]))
            bld_arg(&a, o->cflags[k]);
    bld_arg(&a, "-o"), bld_arg(&a, B->bc_files[i]), bld_arg(&a, abs);
    sbuf err = SBUF_INIT;
    proc_result r;
    bool ok = bld_run_tool(B, &a, &err, &r);
    fwrite(sbuf_str(&err), 1, err.len, stderr);
    if (ok && !(r.exited && r.code == 0)) {
        int n = count_errors(sbuf_str(&err));
        if (!r.exited)
            err_set(B->e, "%s: clang-14 crashed (signal %d); simplify the file or report the crash",
                    o->sources[i], r.signal);
        else
            err_set(B->e, "%s: does not compile (clang-14 reported %d error%s above); fix %s or "
                          "pass -I/-D flags", o->sources[i], n, n == 1 ? "" : "s",
                    n == 1 ? "it" : "them");
        ok = false;
    }
    sbuf_release(&err);
    sbuf_release(&san);
    ctg_free(a.v);
    ctg_free(abs);
    return ok;
}

/* ==== linking the bitcode =================================================== */

/* Collects error diagnostics of the LLVM context (linker errors). */
static void diag_handler(LLVMDiagnosticInfoRef di, void *ctx)
{
    if (LLVMGetDiagInfoSeverity(di) != LLVMDSError)
        return;
    char *msg = LLVMGetDiagInfoDescription(di);
    sbuf *b = ctx;
    if (b->len)
        sbuf_puts(b, "; ");
    sbuf_puts(b, msg);
    LLVMDisposeMessage(msg);
}

/* Reads one bitcode file into the build's context. */
LLVMModuleRef bld_read_bitcode(bctx *B, const char *path)
{
    LLVMMemoryBufferRef buf;
    char *msg = NULL;
    LLVMModuleRef m = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        err_set(B->e, "%s: cannot read bitcode (%s)", path, msg ? msg : "?");
        LLVMDisposeMessage(msg);
        return NULL;
    }
    if (LLVMParseBitcodeInContext2(B->ctx, buf, &m))
        err_set(B->e, "%s: clang-14 wrote unreadable bitcode; please report this", path);
    LLVMDisposeMemoryBuffer(buf);
    return m;
}

/* Links the bitcode of every source into B->mod, named after source 0. */
bool bld_link_modules(bctx *B)
{
    const build_opts *o = B->o;
    sbuf diag = SBUF_INIT;
    LLVMContextSetDiagnosticHandler(B->ctx, diag_handler, &diag);
    bool ok = (B->mod = bld_read_bitcode(B, B->bc_files[0])) != NULL;
    for (int i = 1; ok && i < o->n_sources; i++) {
        LLVMModuleRef m = bld_read_bitcode(B, B->bc_files[i]);
        if (!m || LLVMLinkModules2(B->mod, m)) {
            ok = false;
            if (m)
                err_set(B->e, "%s: cannot be linked with %s (%s); remove the duplicate definitions",
                        o->sources[i], o->sources[0], sbuf_str(&diag));
        }
    }
    LLVMContextSetDiagnosticHandler(B->ctx, NULL, NULL);
    sbuf_release(&diag);
    if (ok)
        LLVMSetModuleIdentifier(B->mod, o->sources[0], strlen(o->sources[0]));
    return ok;
}

/* ==== the passes ============================================================= */

/* Path of a file in the entry directory (ctg_free). */
char *bld_in_dir(const bctx *B, const char *name) { return fs_join(B->dir, name); }

/* Writes module m as bitcode to dir/name. */
static bool write_bc(bctx *B, LLVMModuleRef m, const char *name)
{
    char *p = bld_in_dir(B, name);
    bool ok = p && LLVMWriteBitcodeToFile(m, p) == 0;
    if (!ok)
        err_sys(B->e, "%s: cannot write bitcode (disk full?)", p ? p : name);
    ctg_free(p);
    return ok;
}

/* Checks an instrumented module; a failure is a bug of ours. */
static bool bld_verify(bctx *B, LLVMModuleRef m)
{
    char *msg = NULL;
    if (!LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        LLVMDisposeMessage(msg);
        return true;
    }
    char *nl = msg ? strchr(msg, '\n') : NULL;
    if (nl)
        *nl = '\0';
    err_set(B->e, "%s: the instrumenter produced invalid IR (%s); please report this",
            B->o->sources[0], msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return false;
}

/* db -> progdb.json in the entry. */
static bool save_db(bctx *B)
{
    char *p = bld_in_dir(B, "progdb.json");
    bool ok = p ? progdb_save(B->db, p, B->e) : err_set(B->e, "out of memory");
    ctg_free(p);
    return ok;
}

/* prepare + number -> prog.bc and progdb.json. */
static bool number_program(bctx *B)
{
    int harness = 0;
    if (!inst_prepare(B->mod, &harness, B->e))
        return false;
    if (!(B->db = progdb_new()))
        return err_set(B->e, "out of memory");
    if (!inst_number(B->mod, B->db, B->e))
        return false;
    if (harness == CTG_HARNESS_LIBFUZZER) /* else inst_number's: testcomp or stdin */
        B->db->harness = harness;
    /* a child writes prog.bc and progdb.json while the passes and code
     * generation go on (for a generated state machine they took a fifth of
     * the passes' time, half of it freeing the JSON tree); inst_number
     * leaves the module as inst_prepare made it.  db_saved waits for the
     * child and reports its error.  The child yields to the code
     * generators, which the link waits for (on two CPUs it took a third
     * of the CPU from them; the build waits for it only at its end). */
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0)
        return write_bc(B, B->mod, "prog.bc") && save_db(B);
    fflush(NULL);
    B->db_writer = fork();
    if (B->db_writer == 0) {
        close(fds[0]);
        (void)setpriority(PRIO_PROCESS, 0, 10); /* nice 10; if refused, as it was */
        ctg_err e = {{0}};
        bool ok = write_bc(&(bctx){.o = B->o, .dir = B->dir, .e = &e}, B->mod, "prog.bc");
        char *p = ok ? bld_in_dir(B, "progdb.json") : NULL;
        ok = ok && (p ? progdb_save(B->db, p, &e) : err_set(&e, "out of memory"));
        if (!ok && write(fds[1], e.msg, strlen(e.msg)) < 0)
            _exit(2);
        _exit(ok ? 0 : 1);
    }
    close(fds[1]);
    if (B->db_writer < 0) {
        B->db_writer = 0;
        close(fds[0]);
        return write_bc(B, B->mod, "prog.bc") && save_db(B);
    }
    B->db_pipe = fds[0];
    return true;
}

/* Waits for the child writing prog.bc and progdb.json; its error, if any,
 * becomes the build's. */
static bool db_saved(bctx *B)
{
    if (!B->db_writer)
        return true;
    int st = 0;
    pid_t pid = B->db_writer;
    B->db_writer = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    char msg[sizeof B->e->msg];
    ssize_t n = read(B->db_pipe, msg, sizeof msg - 1);
    close(B->db_pipe);
    B->db_pipe = -1;
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
        return true;
    msg[n > 0 ? n : 0] = 0;
    if (n > 0)
        return err_set(B->e, "%s", msg);
    return err_set(B->e, "%s/progdb.json: not written (its writer died, signal %d); run the "
                         "build again", B->dir, WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}

/* Instructions of the module's largest function; all of them in *total. */
static unsigned largest_function(LLVMModuleRef m, unsigned long long *total)
{
    unsigned best = 0;
    *total = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        unsigned n = inst_fn_size(f, UINT_MAX);
        best = n > best ? n : best;
        *total += n;
    }
    return best;
}

/* A block and its place in its function's layout. */
typedef struct block_at {
    LLVMBasicBlockRef b;
    size_t at;
} block_at;

static int block_cmp(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t)((const block_at *)x)->b, b = (uintptr_t)((const block_at *)y)->b;
    return (a > b) - (a < b);
}

/* True when f may hold a loop: a branch to a block at or before its own in
 * the layout (every cycle has one; true also when memory runs out). */
static bool may_loop(LLVMValueRef f)
{
    size_t n = LLVMCountBasicBlocks(f), i = 0;
    block_at *v = ctg_calloc(n ? n : 1, sizeof *v);
    if (!v)
        return true;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b && i < n; b = LLVMGetNextBasicBlock(b))
        v[i].b = b, v[i].at = i, i++;
    qsort(v, n, sizeof *v, block_cmp);
    bool loop = false;
    i = 0;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b && !loop; b = LLVMGetNextBasicBlock(b), i++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
        unsigned ns = t ? LLVMGetNumSuccessors(t) : 0;
        for (unsigned k = 0; k < ns && !loop; k++) {
            block_at key = {LLVMGetSuccessor(t, k), 0}, *hit = bsearch(&key, v, n, sizeof *v, block_cmp);
            loop = !hit || hit->at <= i;
        }
    }
    ctg_free(v);
    return loop;
}

/* In a program run by a fork per input (no LLVMFuzzerTestOneInput), marks
 * optnone (and noinline, which optnone requires) the functions over
 * BUILD_O2_FUNCTION instructions and, in a module over BUILD_O2_MODULE,
 * every function without a loop (total: the module's instructions): -O2
 * leaves them as they are and the code generator takes its fast path on
 * them.  The number marked. */
static unsigned spare_large(LLVMModuleRef m, unsigned long long total)
{
    LLVMValueRef lf = LLVMGetNamedFunction(m, "LLVMFuzzerTestOneInput");
    if (lf && !LLVMIsDeclaration(lf))
        return 0;
    LLVMContextRef ctx = LLVMGetModuleContext(m);
    unsigned on = LLVMGetEnumAttributeKindForName("optnone", 7),
             ni = LLVMGetEnumAttributeKindForName("noinline", 8),
             ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12), n = 0;
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
        LLVMAttributeIndex fn = LLVMAttributeFunctionIndex;
        if (LLVMIsDeclaration(f) || LLVMGetEnumAttributeAtIndex(f, fn, ai) ||
            (inst_fn_size(f, BUILD_O2_FUNCTION + 1) <= BUILD_O2_FUNCTION &&
             (total <= BUILD_O2_MODULE || may_loop(f))))
            continue;
        LLVMAddAttributeAtIndex(f, fn, LLVMCreateEnumAttribute(ctx, on, 0));
        LLVMAddAttributeAtIndex(f, fn, LLVMCreateEnumAttribute(ctx, ni, 0));
        n++;
    }
    return n;
}

/* Readies an instrumented module for code generation: drops its debug
 * information (the binaries report sites by our ids, and crashes by return
 * address; prog.bc keeps the lines) and returns the -O level to build it at
 * (at -O2, the functions spare_large marks are not optimised, and the
 * guarded hook calls of the others go to the hooks' preserve_most forms:
 * inst_hooks_fast_guards). */
int bld_codegen_level(LLVMModuleRef m, unsigned *largest, unsigned *spared, bool keep_debug)
{
    if (!keep_debug)
        LLVMStripModuleDebugInfo(m);
    inst_keep_faults(m);
    unsigned long long total;
    *largest = largest_function(m, &total);
    if (*largest > BUILD_HUGE_FUNCTION)
        return 0;
    *spared = spare_large(m, total);
    inst_hooks_fast_guards(m);
    return 2;
}


/* Instrumented module m -> g: STEM.K.o by LLVM's code generator in
 * children, at -O2 (clang's pipeline) one object, at -O0 one or two, while
 * this process verifies m.  The verification counts into *passes, the
 * generation beyond it into *codegen. */
bool bld_generate(bctx *B, LLVMModuleRef m, const char *stem, int level, gen_files *g,
                     double *passes, double *codegen)
{
    double t0 = fs_now();
    char *paths[EMIT_MAX_PARTS];
    bool ok = true;
    for (int k = 0; k < EMIT_MAX_PARTS; k++) {
        snprintf(g->name[k], sizeof g->name[k], "%s.%d.o", stem, k);
        ok = (paths[k] = bld_in_dir(B, g->name[k])) != NULL && ok;
    }
    emit_job job = {0};
    if (ok)
        emit_start(&job, m, level, paths, B->e);
    ok = ok ? bld_verify(B, m) : err_set(B->e, "out of memory");
    double t1 = fs_now();
    *passes += t1 - t0;
    ok = (job.n && emit_finish(&job, !ok, m, paths, B->o->sources[0], B->e)) && ok;
    g->n = job.n;
    *codegen += fs_now() - t1;
    for (int k = 0; k < EMIT_MAX_PARTS; k++)
        ctg_free(paths[k]);
    return ok;
}

/* inst_cov on B->mod itself (the last pass of a build: cloning a huge
 * module cost a fifth of the passes), then generate. */
static bool instrument_cov(bctx *B, gen_files *g)
{
    double t0 = fs_now();
    LLVMModuleRef m = B->mod;
    bool ok = inst_cov(m, B->db, &B->st, B->e);
    if (ok)
        B->r->stage.cov_opt = bld_codegen_level(m, &B->r->stage.cov_largest, &B->r->stage.cov_spared,
                                                  false);
    B->r->stage.passes += fs_now() - t0;
    ok = ok && bld_generate(B, m, "prog.cov", B->r->stage.cov_opt, g, &B->r->stage.passes,
                        &B->r->stage.cov_codegen);
    B->mod = NULL;
    LLVMDisposeModule(m);
    return ok;
}

/* inst_sym, then inst_cov, on a clone, then generate (the symbolic binary
 * also counts coverage, with the same ids). */
static bool instrument_sym(bctx *B, gen_files *g)
{
    double t0 = fs_now();
    LLVMModuleRef m = LLVMCloneModule(B->mod);
    inst_sym_stats ss;
    inst_stats cs;
    bool ok = inst_sym(m, B->db, &ss, B->e) && inst_cov(m, B->db, &cs, B->e);
    if (ok)
        B->r->stage.sym_opt = bld_codegen_level(m, &B->r->stage.sym_largest, &B->r->stage.sym_spared,
                                                  false);
    B->r->stage.sym_passes = fs_now() - t0;
    ok = ok && bld_generate(B, m, "prog.sym", B->r->stage.sym_opt, g, &B->r->stage.sym_passes,
                        &B->r->stage.sym_codegen);
    LLVMDisposeModule(m);
    return ok;
}

/* gcc links g's objects + [extra archive] + runtime -> <out> in the entry
 * (gcc's driver starts in half the time of clang's: a tenth of a small
 * program's build), with gold when the host has it; its time added to
 * *secs.  The objects are removed. */
bool bld_link_binary(bctx *B, const gen_files *g, const char *out_name, const char *extra,
                        double *secs)
{
    const build_opts *o = B->o;
    double t0 = fs_now();
    char *in[EMIT_MAX_PARTS] = {NULL}, *out = bld_in_dir(B, out_name);
    bool named = out != NULL;
    argv_t a = {0};
    sbuf san = SBUF_INIT;
    bld_arg(&a, B->san ? CTG_CLANG : CTG_LINKER), bld_arg(&a, o->arch_bits == 32 ? "-m32" : "-m64");
    if (B->san) { /* clang's driver links the sanitizers' runtimes */
        sbuf_printf(&san, "-fsanitize=%s", B->san);
        bld_arg(&a, sbuf_str(&san));
    }
#ifdef CTG_LINK_GOLD
    bld_arg(&a, "-fuse-ld=gold"); /* half of ld.bfd's time on a small program */
#endif
    for (int k = 0; k < g->n; k++) {
        named = (in[k] = bld_in_dir(B, g->name[k])) != NULL && named;
        bld_arg(&a, in[k] ? in[k] : "");
    }
    if (extra)
        bld_arg(&a, extra);
    bld_arg(&a, B->rt_archive);
    for (int k = 0; k < o->n_cflags; k++)
        if (ccf_for_link(o->cflags[k]))
            bld_arg(&a, o->cflags[k]);
    bld_arg(&a, "-lm"), bld_arg(&a, "-o"), bld_arg(&a, out);
    sbuf err = SBUF_INIT;
    proc_result r;
    bool ok = named && bld_run_tool(B, &a, &err, &r);
    if (ok && !(r.exited && r.code == 0)) {
        fwrite(sbuf_str(&err), 1, err.len, stderr);
        ok = err_set(B->e, "%s: does not link (see the linker messages above); pass every source "
                           "file of the program and its -l flags", o->sources[0]);
    }
    for (int k = 0; k < g->n; k++) {
        if (in[k])
            unlink(in[k]);
        ctg_free(in[k]);
    }
    sbuf_release(&err);
    sbuf_release(&san);
    ctg_free(a.v), ctg_free(out);
    *secs += fs_now() - t0;
    return ok;
}

/* Names the per-source intermediate files. */
bool bld_name_files(bctx *B)
{
    int n = B->o->n_sources;
    B->bc_files = ctg_calloc((size_t)n, sizeof *B->bc_files);
    B->dep_files = ctg_calloc((size_t)n, sizeof *B->dep_files);
    if (!B->bc_files || !B->dep_files)
        return err_set(B->e, "out of memory");
    for (int i = 0; i < n; i++) {
        char name[64];
        snprintf(name, sizeof name, "src%d.bc", i);
        B->bc_files[i] = bld_in_dir(B, name);
        snprintf(name, sizeof name, "src%d.d", i);
        B->dep_files[i] = bld_in_dir(B, name);
        if (!B->bc_files[i] || !B->dep_files[i])
            return err_set(B->e, "out of memory");
    }
    return true;
}

/* Removes the intermediate files of a finished build. */
void bld_remove_intermediates(bctx *B)
{
    for (int i = 0; i < B->o->n_sources; i++) {
        if (B->bc_files && B->bc_files[i])
            unlink(B->bc_files[i]);
        if (B->dep_files && B->dep_files[i])
            unlink(B->dep_files[i]);
    }
}

/* The whole build into B->dir. */
static bool build_fresh(bctx *B)
{
    if (!bld_name_files(B))
        return false;
    double t0 = fs_now();
    for (int i = 0; i < B->o->n_sources; i++)
        if (!bld_compile(B, i))
            return false;
    B->r->stage.compile = fs_now() - t0;
    B->ctx = LLVMContextCreate();
    t0 = fs_now();
    bool ok = bld_link_modules(B) && number_program(B);
    B->r->stage.passes = fs_now() - t0;
    /* the symbolic pass works on a clone, so it goes first: inst_cov
     * instruments the module itself */
    gen_files cov = {0}, sym = {0};
    return ok && (!B->o->want_sym || instrument_sym(B, &sym)) && instrument_cov(B, &cov) &&
           bld_link_binary(B, &cov, "prog.cov", NULL, &B->r->stage.cov_codegen) &&
           (!B->o->want_sym || bld_link_binary(B, &sym, "prog.sym", B->sym_archive,
                                           &B->r->stage.sym_codegen)) &&
           db_saved(B) && bcache_save_deps(B->dir, B->dep_files, B->o->n_sources, B->e);
}

void bld_release(bctx *B)
{
    if (B->db_writer) { /* a build that failed before waiting for it */
        kill(B->db_writer, SIGKILL);
        waitpid(B->db_writer, NULL, 0);
        close(B->db_pipe);
    }
    for (int i = 0; i < B->o->n_sources; i++) {
        if (B->bc_files)
            ctg_free(B->bc_files[i]);
        if (B->dep_files)
            ctg_free(B->dep_files[i]);
    }
    ctg_free(B->bc_files);
    ctg_free(B->dep_files);
    if (B->mod)
        LLVMDisposeModule(B->mod);
    if (B->ctx)
        LLVMContextDispose(B->ctx);
}

/* ==== entry points ============================================================ */

/* True for the names clang compiles to bitcode here: C (.c, .i) and LLVM
 * (.bc, .ll).  Anything else (a .txt, an object) would reach the linker. */
static bool is_source_name(const char *path)
{
    static const char *const ext[] = {".c", ".i", ".bc", ".ll", NULL};
    size_t n = strlen(path);
    for (int i = 0; ext[i]; i++) {
        size_t k = strlen(ext[i]);
        if (n > k && !strcmp(path + n - k, ext[i]))
            return true;
    }
    return false;
}

/* Checks the options and that every source exists. */
static bool check_opts(const build_opts *o, ctg_err *e)
{
    if (o->n_sources < 1 || !o->sources)
        return err_set(e, "no source file given; name the C file to test");
    if (o->arch_bits != 32 && o->arch_bits != 64)
        return err_set(e, "--arch %d: unsupported; use 32 or 64", o->arch_bits);
    if (o->arch_bits == 32 && !host_exec32(build_runtime_dir(), e))
        return false;
    for (int i = 0; i < o->n_sources; i++) {
        if (!fs_exists(o->sources[i]))
            return err_set(e, "%s: no such file", o->sources[i]);
        if (fs_is_dir(o->sources[i]) || access(o->sources[i], R_OK) != 0)
            return err_set(e, "%s: not a readable file", o->sources[i]);
        if (!is_source_name(o->sources[i]))
            return err_set(e, "%s: not a C source file (expected a name ending in .c, .i, .bc or "
                              ".ll); name the program's C files",
                           o->sources[i]);
    }
    return true;
}

/* Path of runtime archive `kind` (rt, sym) for the build's architecture
 * (ctg_free). */
static char *runtime_archive(const build_opts *o, const char *kind, bool required, ctg_err *e)
{
    char name[32];
    snprintf(name, sizeof name, "libctg_%s%d.a", kind, o->arch_bits);
    char *p = fs_join(build_runtime_dir(), name);
    if (!p) {
        err_set(e, "out of memory while locating the runtime");
        return NULL;
    }
    if (fs_exists(p))
        return p;
    if (!required)
        ;
    else if (o->arch_bits == 32)
        err_set(e, "%s: not found; 32-bit builds need gcc-multilib (install it and rebuild "
                   "ctestgen)", p);
    else
        err_set(e, "%s: not found; build ctestgen with cmake or set CTESTGEN_RUNTIME_DIR", p);
    ctg_free(p);
    return NULL;
}

/* Fills r from a finished entry directory (takes dir and db). */
static bool fill_result(build_result *r, char *dir, progdb *db, ctg_err *e)
{
    r->dir = dir;
    r->cov_bin = fs_join(dir, "prog.cov");
    r->db_path = fs_join(dir, "progdb.json");
    r->bitcode = fs_join(dir, "prog.bc");
    if (!r->cov_bin || !r->db_path || !r->bitcode)
        return err_set(e, "out of memory");
    char *sym = fs_join(dir, "prog.sym");
    if (sym && fs_exists(sym))
        r->sym_bin = sym;
    else
        ctg_free(sym);
    if (!db && !(db = progdb_load(r->db_path, e)))
        return false;
    r->db = db;
    r->warnings = db->n_inline_asm + db->stdin_mixed;
    if (r->warnings) {
        sbuf w = SBUF_INIT;
        if (db->n_inline_asm)
            sbuf_printf(&w, "%u inline assembly statement%s left uninstrumented (the branches "
                            "inside are not counted)",
                        db->n_inline_asm, db->n_inline_asm == 1 ? "" : "s");
        if (db->stdin_mixed)
            sbuf_printf(&w, "%sthe program reads stdin and calls __VERIFIER_nondet_*: its input "
                            "is the nondet values, stdin stays empty (make it one or the other)",
                        db->n_inline_asm ? "; " : "");
        r->warning = sbuf_take(&w);
    }
    return true;
}

/* Builds into a fresh temporary entry next to `final` and publishes it
 * (replacing a valid entry there when `replace`). */
static bool build_entry(const build_opts *o, const char *rt, const char *sym, const char *final,
                        const sbuf *material, bool replace, build_result *r, ctg_err *e)
{
    sbuf at = SBUF_INIT;
    sbuf_printf(&at, "%s.tmp.", final);
    char *tmp = sbuf_ok(&at) ? fs_mkdtemp_at(at.data, "a build directory", e) : NULL;
    sbuf_release(&at);
    if (!tmp)
        return err_set(e, "out of memory");
    bctx B = {.o = o, .dir = tmp, .rt_archive = rt, .sym_archive = sym, .e = e, .r = r};
    char *key_txt = bld_in_dir(&B, "key.txt");
    bool ok = key_txt && fs_write_atomic(key_txt, material->data, material->len, e) &&
              build_fresh(&B);
    ctg_free(key_txt);
    bld_remove_intermediates(&B);
    char *dir = ok ? bcache_publish(tmp, final, replace, e) : NULL;
    if (!dir)
        fs_rm_rf(tmp, NULL);
    ok = dir && fill_result(r, dir, B.db, e); /* r owns dir from here on */
    if (ok)
        B.db = NULL;
    progdb_free(B.db);
    bld_release(&B);
    ctg_free(tmp);
    return ok || err_set(e, "out of memory while building");
}

typedef enum cache_state { CACHE_MISS, CACHE_HIT, CACHE_BROKEN } cache_state;

/* Fills r from the cache entry `final` when it is valid (CACHE_HIT).  An
 * entry that cannot be loaded is CACHE_BROKEN (r released): the rebuild
 * replaces it. */
static cache_state use_cached(const char *final, build_result *r)
{
    if (!bcache_valid(final))
        return CACHE_MISS;
    ctg_err ignored = {{0}};
    char *dir = ctg_strdup(final);
    if (!dir)
        return CACHE_BROKEN;
    if (fill_result(r, dir, NULL, &ignored)) { /* r owns dir */
        r->cached = true;
        return CACHE_HIT;
    }
    build_result_release(r);
    return CACHE_BROKEN;
}

char *bld_entry_tmp(const build_result *r, const char *what, ctg_err *e)
{
    sbuf at = SBUF_INIT;
    sbuf_printf(&at, "%s/%s.tmp.", r->dir, what);
    char *tmp = sbuf_ok(&at) ? fs_mkdtemp_at(at.data, "a build directory", e) : NULL;
    if (!sbuf_ok(&at))
        err_set(e, "out of memory");
    sbuf_release(&at);
    return tmp;
}

/* Adds prog.sym to a cached entry built without it: built from the entry's
 * prog.bc in a private directory, then moved into place (concurrent
 * builders each publish a complete binary). */
static bool add_sym(const build_opts *o, const char *rt, const char *sym, build_result *r,
                    ctg_err *e)
{
    char *tmp = bld_entry_tmp(r, "sym", e);
    if (!tmp)
        return false;
    bctx B = {.o = o, .dir = tmp, .rt_archive = rt, .sym_archive = sym, .e = e, .db = r->db};
    B.ctx = LLVMContextCreate();
    B.r = r;
    gen_files g = {0};
    bool ok = (B.mod = bld_read_bitcode(&B, r->bitcode)) && instrument_sym(&B, &g) &&
              bld_link_binary(&B, &g, "prog.sym", sym, &r->stage.sym_codegen);
    char *from = bld_in_dir(&B, "prog.sym"), *to = fs_join(r->dir, "prog.sym");
    if (ok && (!from || !to || rename(from, to) != 0))
        ok = err_sys(e, "%s: cannot move prog.sym into the cache", r->dir);
    if (ok)
        r->sym_bin = to;
    else
        ctg_free(to);
    ctg_free(from);
    fs_rm_rf(tmp, NULL);
    B.db = NULL; /* owned by r */
    bld_release(&B);
    ctg_free(tmp);
    return ok;
}

/* The options with arch_bits following a -m32/-m64 among the flags (the
 * last one wins, as in clang) and 0 taken as 64. */
static build_opts effective_opts(const build_opts *o)
{
    build_opts c = *o;
    if (!c.arch_bits)
        c.arch_bits = 64;
    for (int i = 0; i < c.n_cflags; i++)
        if (!strcmp(c.cflags[i], "-m32") || !strcmp(c.cflags[i], "-m64"))
            c.arch_bits = c.cflags[i][2] == '3' ? 32 : 64;
    return c;
}

bool build_program(const build_opts *opts, build_result *r, ctg_err *e)
{
    memset(r, 0, sizeof *r);
    build_opts eff = effective_opts(opts), *o = &eff;
    if (!check_opts(o, e))
        return false;
    char *rt = runtime_archive(o, "rt", true, e), *sym = NULL;
    if (rt) { /* part of every key, so prog.cov and prog.sym share one entry */
        sym = runtime_archive(o, "sym", o->want_sym, e);
        if (err_is_set(e)) {
            ctg_free(rt);
            return false;
        }
    }
    char *root = rt ? bcache_root(o, e) : NULL, *final = NULL;
    char key[BCACHE_HEX];
    sbuf material = SBUF_INIT;
    bool ok = root && fs_mkdir_p(root, e) && bcache_key(o, rt, sym, &material, key, e);
    if (ok && !(final = fs_join(root, key)))
        ok = err_set(e, "out of memory");
    cache_state cs = ok && !o->no_cache ? use_cached(final, r) : CACHE_MISS;
    if (ok && cs != CACHE_HIT) {
        bcache_sweep(root, key);
        ok = build_entry(o, rt, sym, final, &material, o->no_cache || cs == CACHE_BROKEN, r, e);
    }
    if (ok && o->want_sym && !r->sym_bin)
        ok = add_sym(o, rt, sym, r, e);
    if (ok && o->sanitize && o->sanitize[0])
        ok = build_add_san(o, rt, r, e);
    ctg_free(final), ctg_free(root), ctg_free(rt), ctg_free(sym);
    sbuf_release(&material);
    if (!ok)
        build_result_release(r);
    else
        r->opts = opts;
    return ok;
}

void build_result_release(build_result *r)
{
    if (!r)
        return;
    build_sym_cancel(r);
    ctg_free(r->dir);
    ctg_free(r->cov_bin);
    ctg_free(r->sym_bin);
    ctg_free(r->san_bin);
    ctg_free(r->db_path);
    ctg_free(r->bitcode);
    ctg_free(r->warning);
    progdb_free(r->db);
    memset(r, 0, sizeof *r);
}
