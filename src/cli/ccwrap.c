/*
 * ccwrap.c - ctestgen-cc, the compiler wrapper for a project's own build:
 *     CC=ctestgen-cc ./configure && make      make CC=ctestgen-cc
 *     cmake -DCMAKE_C_COMPILER=ctestgen-cc ...
 *
 * It runs the real compiler ($CTESTGEN_CC, else cc: what the project
 * gets without the wrapper; clang-14 for a link or compile that asks for
 * libFuzzer, -fsanitize=fuzzer, which gcc lacks) with the arguments as
 * given, so the project builds what it always builds and its own tests
 * still run.  Then, for each C file it compiled, it compiles the
 * file once more to the engine's bitcode (build_clang_flags) beside the
 * object (.NAME.o.ctg.bc) and writes a compile record (src/compile/ccrec.h)
 * into the object's section .ctestgen (objcopy).  The linker concatenates
 * the sections of what it links and `ar` keeps them, so the executable or
 * library says which files and flags made it; a final link also records
 * its -l/-L flags.  `ctestgen run ./the-binary` (or a harness plus the
 * project's archive) reads them back (src/cli/project.c).
 *
 * Recording never fails the build: a file that does not compile to bitcode
 * gets a one-line warning, and the project's build goes on.
 */
#include "ccwrap.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/ccflags.h"
#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/sbuf.h"
#include "../compile/build.h"
#include "../compile/ccrec.h"

/* Flags whose value is the next argument (it is not a source). */
static bool takes_value(const char *a)
{
    static const char *const v[] = {"-o", "-MF", "-MT", "-MQ", "-x", "-include", "-isystem",
                                    "-iquote", "-idirafter", "-Xlinker", "-Xclang",
                                    "-Xpreprocessor", "-Xassembler", "-arch", "-target",
                                    "--param", "-T", "-e", "-u", "-z", "-I", "-D", "-U",
                                    "-L", "-l", NULL};
    for (int i = 0; v[i]; i++)
        if (!strcmp(a, v[i]))
            return true;
    return false;
}

/* What one invocation does. */
typedef struct ccjob {
    int argc;
    char **argv;      /* the arguments after argv[0]                     */
    const char *out;  /* -o, or NULL                                    */
    bool compile;     /* -c                                             */
    bool other;       /* -E, -S, -M, --version ...: nothing to record    */
    const char **src; /* the C files                                    */
    int n_src;
    int arch;         /* 32 with -m32                                   */
} ccjob;

/* Whether a is a C file name. */
static bool c_name(const char *a)
{
    size_t n = strlen(a);
    return a[0] != '-' && n > 2 && (!strcmp(a + n - 2, ".c") || !strcmp(a + n - 2, ".i"));
}

/* Reads the arguments into j. */
static bool parse_job(int argc, char **argv, ccjob *j)
{
    memset(j, 0, sizeof *j);
    j->argc = argc - 1;
    j->argv = argv + 1;
    j->arch = 64;
    if (!(j->src = ctg_calloc((size_t)argc, sizeof *j->src)))
        return false;
    for (int i = 0; i < j->argc; i++) {
        const char *a = j->argv[i];
        if (!strcmp(a, "-c"))
            j->compile = true;
        else if (!strcmp(a, "-E") || !strcmp(a, "-S") || !strcmp(a, "-M") || !strcmp(a, "-MM") ||
                 !strncmp(a, "--version", 9) || !strncmp(a, "-dump", 5) ||
                 !strncmp(a, "-print-", 7) || !strcmp(a, "-v") || !strcmp(a, "-###"))
            j->other = true;
        else if (!strcmp(a, "-m32"))
            j->arch = 32;
        else if (!strcmp(a, "-o") && i + 1 < j->argc)
            j->out = j->argv[i + 1];
        else if (!strncmp(a, "-o", 2) && a[2])
            j->out = a + 2;
        if (takes_value(a) && i + 1 < j->argc)
            i++;
        else if (c_name(a))
            j->src[j->n_src++] = a;
    }
    return true;
}

/* Whether the arguments ask for libFuzzer (-fsanitize=fuzzer...), which
 * only clang has. */
static bool wants_libfuzzer(const ccjob *j)
{
    for (int i = 0; i < j->argc; i++)
        if (!strncmp(j->argv[i], "-fsanitize=", 11) && strstr(j->argv[i], "fuzzer"))
            return true;
    return false;
}

/* Runs the real compiler with the arguments; its exit code (127: cannot
 * be started). */
static int run_real(const ccjob *j)
{
    const char *real = getenv("CTESTGEN_CC");
    if (!real || !*real) /* what the project gets without the wrapper; clang
                            for libFuzzer's -fsanitize=fuzzer */
        real = wants_libfuzzer(j) ? CTG_CLANG : "cc";
    char **argv = ctg_calloc((size_t)j->argc + 2, sizeof *argv);
    if (!argv)
        return 1;
    argv[0] = (char *)real;
    memcpy(argv + 1, j->argv, (size_t)j->argc * sizeof *argv);
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(real, argv);
        fprintf(stderr, "ctestgen-cc: %s: cannot run it (%s); set CTESTGEN_CC to the compiler\n",
                real, strerror(errno));
        _exit(127);
    }
    ctg_free(argv);
    int st = 0;
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (pid < 0)
        return 127;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A path made absolute against the working directory (ctg_free). */
static char *absolute(const char *p)
{
    if (p[0] == '/')
        return ctg_strdup(p);
    char *cwd = fs_realpath(".", NULL);
    char *r = cwd ? fs_join(cwd, p) : ctg_strdup(p);
    ctg_free(cwd);
    return r;
}

/* Adds compile flag a (with its value v, or NULL) to r, a path it names
 * made absolute: -I DIR and -D X as one argument, -include FILE as two. */
static bool add_compile_flag(ccrec *r, const char *a, const char *v)
{
    int pre;
    char *p = ccf_takes_path(a, &pre) && (v || pre) ? absolute(v ? v : a + pre) : NULL;
    sbuf b = SBUF_INIT;
    bool ok;
    if (strlen(a) == 2 && v) { /* -I DIR, -D X */
        sbuf_printf(&b, "%s%s", a, p ? p : v);
        ok = sbuf_ok(&b) && ccrec_add_flag(&r->flags, &r->n_flags, b.data, NULL);
    } else if (v)
        ok = ccrec_add_flag(&r->flags, &r->n_flags, a, p ? p : v);
    else if (p) { /* -IDIR */
        sbuf_printf(&b, "%.*s%s", pre, a, p);
        ok = sbuf_ok(&b) && ccrec_add_flag(&r->flags, &r->n_flags, b.data, NULL);
    } else
        ok = ccrec_add_flag(&r->flags, &r->n_flags, a, NULL);
    sbuf_release(&b);
    ctg_free(p);
    return ok;
}

/* The compile flags of the job (ccflags.h), paths absolute, into r. */
static bool job_flags(const ccjob *j, ccrec *r)
{
    bool ok = true;
    for (int i = 0; ok && i < j->argc; i++) {
        int n;
        const char *a = j->argv[i], *next = i + 1 < j->argc ? j->argv[i + 1] : NULL;
        ccf_kind k = ccf_classify(a, next, &n);
        if (k == CCF_COMPILE || k == CCF_BOTH)
            ok = add_compile_flag(r, a, n == 2 ? next : NULL);
        i += n - 1;
    }
    return ok;
}

/* The object a compile of src makes (ctg_free): -o when one source, else
 * its base name with .o in the working directory. */
static char *object_of(const ccjob *j, const char *src)
{
    if (j->out && j->n_src == 1)
        return ctg_strdup(j->out);
    const char *base = strrchr(src, '/');
    base = base ? base + 1 : src;
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%.*s.o", (int)(strlen(base) - 2), base);
    return sbuf_take(&b);
}

/* .NAME.ctg.bc beside file (ctg_free). */
static char *bitcode_beside(const char *file, const char *tag)
{
    char *abs = absolute(file);
    if (!abs)
        return NULL;
    char *slash = strrchr(abs, '/');
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%.*s/.%s%s%s.ctg.bc", (int)(slash - abs), abs, slash + 1, tag ? "." : "",
                tag ? tag : "");
    ctg_free(abs);
    return sbuf_take(&b);
}

/* Compiles src to the engine's bitcode at bc with r's flags. */
static bool make_bitcode(const ccjob *j, const char *src, const char *bc, const ccrec *r)
{
    const char *const *fixed = build_clang_flags();
    int nf = 0;
    while (fixed[nf])
        nf++;
    char **argv = ctg_calloc((size_t)(nf + r->n_flags) + 8, sizeof *argv);
    if (!argv)
        return false;
    int n = 0;
    argv[n++] = CTG_CLANG;
    for (int i = 0; i < nf; i++)
        argv[n++] = (char *)fixed[i];
    argv[n++] = j->arch == 32 ? "-m32" : "-m64";
    argv[n++] = "-w";
    for (int i = 0; i < r->n_flags; i++)
        argv[n++] = r->flags[i];
    argv[n++] = (char *)src, argv[n++] = "-o", argv[n++] = (char *)bc;
    proc_opts po = {0};
    proc_result pr;
    ctg_err e = {{0}};
    bool ok = proc_run(argv, &po, &pr, &e) && pr.exited && pr.code == 0;
    ctg_free(argv);
    return ok;
}

/* The record of src (compiled to bitcode beside `beside`) appended to out. */
static bool record_source(const ccjob *j, const char *src, const char *beside, const char *tag,
                          sbuf *out)
{
    ccrec r = {0};
    r.arch_bits = j->arch;
    r.src = absolute(src);
    r.bc = bitcode_beside(beside, tag);
    bool ok = r.src && r.bc && job_flags(j, &r);
    if (ok && !make_bitcode(j, src, r.bc, &r)) {
        fprintf(stderr, "ctestgen-cc: warning: %s: clang-14 cannot compile it to bitcode; ctestgen "
                        "will compile it from the source\n", src);
        ctg_free(r.bc);
        r.bc = NULL;
    }
    ok = ok && ccrec_line(&r, out);
    ctg_free(r.src);
    ctg_free(r.bc);
    for (int i = 0; i < r.n_flags; i++)
        ctg_free(r.flags[i]);
    ctg_free(r.flags);
    return ok;
}

/* Replaces the .ctestgen section of object or executable file with text
 * (objcopy).  False when objcopy fails. */
static bool set_section(const char *file, const sbuf *text)
{
    char *tmp = NULL;
    sbuf t = SBUF_INIT;
    sbuf_printf(&t, "%s.ctgrec.XXXXXX", file);
    tmp = sbuf_take(&t);
    int fd = tmp ? mkstemp(tmp) : -1;
    bool ok = fd >= 0 && write(fd, text->data, text->len) == (ssize_t)text->len;
    if (fd >= 0)
        close(fd);
    sbuf arg = SBUF_INIT;
    sbuf_printf(&arg, "%s=%s", CCREC_SECTION, tmp ? tmp : "");
    char *argv[] = {"objcopy", "--remove-section", CCREC_SECTION, "--add-section", arg.data,
                    "--set-section-flags", CCREC_SECTION "=readonly", (char *)file, NULL};
    proc_opts po = {0};
    proc_result pr;
    ctg_err e = {{0}};
    ok = ok && sbuf_ok(&arg) && proc_run(argv, &po, &pr, &e) && pr.exited && pr.code == 0;
    if (tmp)
        unlink(tmp);
    ctg_free(tmp);
    sbuf_release(&arg);
    return ok;
}

/* The .ctestgen section of file, appended to out (none: nothing). */
static void get_section(const char *file, sbuf *out)
{
    ccrecs rs = {0};
    ctg_err e = {{0}};
    if (ccrec_read_elf(file, &rs, &e) > 0) {
        for (size_t i = 0; i < rs.n; i++)
            ccrec_line(&rs.v[i], out);
    }
    ccrecs_release(&rs);
}

/* The link flags of the job (-l, -L made absolute, -Wl, -pthread) as a
 * link record appended to out. */
static bool record_link(const ccjob *j, sbuf *out)
{
    char **v = NULL;
    int n = 0;
    bool ok = true;
    for (int i = 0; ok && i < j->argc; i++) {
        int k, pre;
        const char *a = j->argv[i], *next = i + 1 < j->argc ? j->argv[i + 1] : NULL;
        if (!ccf_for_link(a) || ccf_classify(a, next, &k) == CCF_NONE) {
            continue;
        }
        sbuf b = SBUF_INIT;
        char *p = ccf_takes_path(a, &pre) ? absolute(k == 2 ? next : a + pre) : NULL;
        sbuf_printf(&b, "%.2s%s", a, p ? p : k == 2 ? next : a + 2);
        char *one = sbuf_take(&b);
        ok = one && ccrec_add_flag(&v, &n, k == 2 || p ? one : a, NULL);
        ctg_free(one);
        ctg_free(p);
        i += k - 1;
    }
    ok = ok && ccrec_link_line(v, n, out);
    for (int i = 0; i < n; i++)
        ctg_free(v[i]);
    ctg_free(v);
    return ok;
}

/* After a successful compile (-c): each object gets its record. */
static bool record_compile(const ccjob *j)
{
    bool ok = true;
    for (int i = 0; ok && i < j->n_src; i++) {
        char *obj = object_of(j, j->src[i]);
        sbuf rec = SBUF_INIT;
        ok = obj && record_source(j, j->src[i], obj, NULL, &rec) && set_section(obj, &rec);
        sbuf_release(&rec);
        ctg_free(obj);
    }
    return ok;
}

/* After a successful link: the output's records (the linked objects'),
 * those of the C files compiled in this step, and the link flags. */
static bool record_link_step(const ccjob *j)
{
    const char *out = j->out ? j->out : "a.out";
    sbuf rec = SBUF_INIT;
    bool ok = true;
    for (int i = 0; ok && i < j->n_src; i++) { /* first: the harness is named here */
        const char *base = strrchr(j->src[i], '/');
        ok = record_source(j, j->src[i], out, base ? base + 1 : j->src[i], &rec);
    }
    get_section(out, &rec);
    ok = ok && record_link(j, &rec) && set_section(out, &rec);
    sbuf_release(&rec);
    return ok;
}

int ccwrap_main(int argc, char **argv)
{
    ccjob j;
    if (!parse_job(argc, argv, &j)) {
        fprintf(stderr, "ctestgen-cc: out of memory\n");
        return 1;
    }
    int rc = run_real(&j);
    if (rc == 0 && !j.other && (j.compile ? j.n_src > 0 : true)) {
        bool ok = j.compile ? record_compile(&j) : record_link_step(&j);
        if (!ok)
            fprintf(stderr, "ctestgen-cc: warning: %s: the compile records could not be "
                            "written (objcopy failed?); ctestgen run cannot use this build\n",
                    j.compile ? (j.out ? j.out : j.src[0]) : (j.out ? j.out : "a.out"));
    }
    ctg_free(j.src);
    return rc;
}
