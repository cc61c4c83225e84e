/*
 * cmd_doctor.c - `ctestgen doctor`: what this host can do.
 */
#include <stdio.h>

#include "../base/fsutil.h"
#include "../base/host.h"
#include "../base/mem.h"
#include "../compile/build.h"
#include "commands.h"

/* "yes" or "no: WHY" for one capability line. */
static void doctor_line(const char *what, bool ok, const char *why)
{
    printf("%-9s %s%s%s\n", what, ok ? "yes" : "no", ok ? "" : ": ", ok ? "" : why);
}

int cmd_doctor(const ctg_options *o, ctg_err *e)
{
    (void)o;
    const char *dir = build_runtime_dir();
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
    ctg_err why = {{0}};
    doctor_line("exec32", host_exec32(build_runtime_dir(), &why), why.msg);
#ifdef CTG_HAVE_MPI
    doctor_line("mpi", true, "");
#else
    doctor_line("mpi", false, "built without MPI (install libopenmpi-dev and rebuild for --mpi)");
#endif
    if (!ok)
        err_set(e, "%s: no 64-bit runtime; build ctestgen with cmake or set CTESTGEN_RUNTIME_DIR",
                dir);
    return ok ? 0 : EXIT_ERR;
}

