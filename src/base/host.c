/*
 * host.c - probes of the host's capabilities (see host.h).
 */
#include "host.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fsutil.h"
#include "mem.h"
#include "proc.h"

#ifndef CTG_CLANG
#define CTG_CLANG "clang-14"
#endif

static const char probe_src[] = "int main(void) { return sizeof(void *) == 4 ? 0 : 1; }\n";

/* Runs the 32-bit probe bin; false with why set. */
static bool run_probe(char *bin, ctg_err *why)
{
    char *run[] = {bin, NULL};
    ctg_err ex = {{0}};
    proc_result r;
    if (!proc_run(run, &(proc_opts){.timeout_s = 10}, &r, &ex)) {
        int code = errno;
        return err_set(why, "this kernel cannot execute 32-bit programs (%s); enable IA-32 "
                            "emulation (boot with ia32_emulation=on) or run as 64-bit "
                            "(without --arch 32 / -m32)",
                       code ? strerror(code) : ex.msg);
    }
    if (!(r.exited && r.code == 0))
        return err_set(why, "a 32-bit test program did not run correctly on this host; "
                            "run as 64-bit (without --arch 32 / -m32)");
    return true;
}

/* Compiles and runs the probe in dir; false with why set. */
static bool probe_in(const char *dir, ctg_err *why)
{
    char *src = fs_join(dir, "probe.c"), *bin = fs_join(dir, "probe");
    bool ok = src && bin && fs_write_atomic(src, probe_src, sizeof probe_src - 1, why);
    proc_result r;
    if (ok) {
        char *cc[] = {CTG_CLANG, "-m32", src, "-o", bin, NULL};
        ok = proc_run(cc, &(proc_opts){.timeout_s = 60}, &r, why);
        if (ok && !(r.exited && r.code == 0))
            ok = err_set(why, "32-bit programs cannot be built here: no 32-bit C library; "
                              "install gcc-multilib, or run without --arch 32");
    }
    ok = ok && run_probe(bin, why);
    ctg_free(src);
    ctg_free(bin);
    return ok;
}

bool host_exec32(const char *rt_dir, ctg_err *why)
{
    static int known = -1; /* -1: not probed, 0: no, 1: yes */
    static ctg_err reason;
    const char *no = getenv(HOST_NO_EXEC32_ENV);
    if (no && *no && strcmp(no, "0") != 0)
        return err_set(why, "this host cannot execute 32-bit programs (%s=%s pretends so); "
                            "enable IA-32 emulation (ia32_emulation=on) or run as 64-bit",
                       HOST_NO_EXEC32_ENV, no);
    char *pre = known < 0 && rt_dir ? fs_join(rt_dir, "probe32") : NULL;
    if (pre && access(pre, X_OK) == 0)
        known = run_probe(pre, &reason) ? 1 : 0;
    ctg_free(pre);
    if (known < 0) {
        char *dir = fs_mkdtemp("ctestgen-probe.", "a directory for the 32-bit probe", &reason);
        known = dir && probe_in(dir, &reason) ? 1 : 0;
        if (dir)
            fs_rm_rf(dir, NULL);
        ctg_free(dir);
    }
    if (known == 0)
        err_set(why, "%s", reason.msg);
    return known == 1;
}
