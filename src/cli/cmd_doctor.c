/*
 * cmd_doctor.c - `ctestgen doctor`: what this host can do.  One line per
 * capability ("exec32    no: WHY") and per tool ctestgen uses, with the
 * version the tool reports and what it is for, or, when it is missing, the
 * feature that goes with it and how to get it.  Exit 1 when something every
 * run needs is missing.
 */
#include <stdio.h>
#include <string.h>
#include <llvm/Config/llvm-config.h>
#include <z3.h>

#include "../base/fsutil.h"
#include "../base/host.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/sbuf.h"
#include "../compile/build.h"
#include "commands.h"

/* "yes" or "no: WHY" for one capability line. */
static void doctor_line(const char *what, bool ok, const char *why)
{
    printf("%-9s %s%s%s\n", what, ok ? "yes" : "no", ok ? "" : ": ", ok ? "" : why);
}

/* A tool ctestgen runs: how to ask its version, what it is for. */
typedef struct tool {
    const char *cmd, *flag;
    bool required;     /* every run needs it                              */
    const char *use;   /* what ctestgen does with it                      */
    const char *fix;   /* how to get it (a Debian package)               */
} tool;

static const tool tools[] = {
    {CTG_CLANG, "--version", true, "compiles the program to LLVM bitcode", "apt-get install clang-14"},
    {CTG_LINKER, "--version", true, "links the binaries; gcc -O0 --coverage replay", "apt-get install gcc"},
    {"gcov", "--version", true, "the replay's branch coverage (Test-Comp's)", "apt-get install gcc"},
    {CTG_LLVM_BINDIR "/llvm-symbolizer", "--version", false, "crash triage: file:line of a crash",
     "apt-get install llvm-14"},
    {"objcopy", "--version", false, "ctestgen-cc: compile records in objects", "apt-get install binutils"},
    {"lcov", "--version", false, "replay --lcov", "apt-get install lcov"},
    {"gcovr", "--version", false, "replay --cobertura", "apt-get install gcovr"},
    {"cc", "--version", false, "ctestgen-cc's real compiler (or $CTESTGEN_CC)", "apt-get install gcc"},
};

/* The first line of what `cmd flag` prints, into buf; false when the tool
 * cannot be run. */
static bool tool_version(const tool *t, char *buf, size_t cap)
{
    char *argv[] = {(char *)t->cmd, (char *)t->flag, NULL};
    sbuf out = SBUF_INIT;
    proc_opts po = {.out = &out, .err = &out, .timeout_s = 10};
    proc_result r;
    ctg_err e = {{0}};
    bool ok = proc_run(argv, &po, &r, &e) && r.exited && r.code == 0;
    const char *s = sbuf_str(&out), *v = strstr(s, "version"); /* LLVM's tools: line 3 */
    if (v && strcspn(s, "0123456789") > (size_t)(strchr(s, '\n') ? strchr(s, '\n') - s : 0))
        for (s = v; s > sbuf_str(&out) && s[-1] != '\n'; s--)
            ;
    while (*s == '\n' || *s == ' ')
        s++;
    snprintf(buf, cap, "%.*s", (int)strcspn(s, "\n"), s);
    sbuf_release(&out);
    return ok;
}

/* One line per tool; false when a required one is missing. */
static bool doctor_tools(void)
{
    bool ok = true;
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++) {
        const tool *t = &tools[i];
        char v[160], name[32];
        const char *base = strrchr(t->cmd, '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : t->cmd);
        if (tool_version(t, v, sizeof v))
            printf("%-15s yes: %s (%s)\n", name, v, t->use);
        else
            printf("%-15s no: %s%s; %s\n", name, t->required ? "needed: " : "", t->use, t->fix);
        ok = ok && (!t->required || tool_version(t, v, sizeof v));
    }
    unsigned ma, mi, bu, re;
    Z3_get_version(&ma, &mi, &bu, &re);
    printf("%-15s yes: %u.%u.%u (concolic execution's solver, linked in)\n", "z3", ma, mi, bu);
    printf("%-15s yes: %s (the passes and code generation, linked in)\n", "llvm",
           LLVM_VERSION_STRING);
    return ok;
}

/* The runtime archives: 64-bit needed, 32-bit for ILP32 programs. */
static bool doctor_runtimes(const char *dir)
{
    bool ok = true;
    for (int bits = 64; bits >= 32; bits -= 32) {
        char name[32], what[16];
        snprintf(name, sizeof name, "libctg_rt%d.a", bits);
        snprintf(what, sizeof what, "runtime%d", bits);
        char *p = fs_join(dir, name);
        bool have = p && fs_exists(p);
        doctor_line(what, have, bits == 64 ? "not found; build ctestgen with cmake"
                                           : "not built; install gcc-multilib and rebuild");
        ok = ok && (have || bits == 32);
        ctg_free(p);
    }
    return ok;
}

int cmd_doctor(const ctg_options *o, ctg_err *e)
{
    (void)o;
    const char *dir = build_runtime_dir();
    bool ok = doctor_runtimes(dir);
    ctg_err why = {{0}};
    doctor_line("exec32", host_exec32(build_runtime_dir(), &why), why.msg);
#ifdef CTG_HAVE_MPI
    doctor_line("mpi", true, "");
#else
    doctor_line("mpi", false, "built without MPI (install libopenmpi-dev and rebuild for --mpi)");
#endif
    bool tools_ok = doctor_tools();
    if (!ok)
        err_set(e, "%s: no 64-bit runtime; build ctestgen with cmake or set CTESTGEN_RUNTIME_DIR",
                dir);
    else if (!tools_ok)
        err_set(e, "a tool every run needs is missing (see 'needed:' above); install it");
    return ok && tools_ok ? EXIT_OK : EXIT_ERR;
}
