/*
 * suite_zip.c - test-suite.zip, the archive Test-Comp collects (libzip).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <zip.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "suite.h"

/* Adds the file at path as test-suite/<its base name>. */
static bool add_entry(zip_t *z, const char *path, const char *zpath, ctg_err *e)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    char name[512];
    snprintf(name, sizeof name, "test-suite/%s", base);
    zip_source_t *src = zip_source_file(z, path, 0, 0);
    if (!src || zip_file_add(z, name, src, ZIP_FL_OVERWRITE | ZIP_FL_ENC_UTF_8) < 0) {
        if (src)
            zip_source_free(src);
        return err_set(e, "%s: cannot add %s: %s", zpath, path, zip_strerror(z));
    }
    return true;
}

bool suite_write_zip(const char *out_dir, ctg_err *e)
{
    sbuf dir = SBUF_INIT, tmp = SBUF_INIT, zpath = SBUF_INIT;
    sbuf_printf(&dir, "%s/test-suite", out_dir);
    sbuf_printf(&zpath, "%s/test-suite.zip", out_dir);
    sbuf_printf(&tmp, "%s/.test-suite.zip.tmp", out_dir);
    char **cases = NULL;
    size_t n = 0;
    bool ok = sbuf_ok(&dir) && sbuf_ok(&tmp) && sbuf_ok(&zpath);
    if (!ok)
        err_set(e, "%s: out of memory", out_dir);
    else
        ok = suite_list_testcases(dir.data, &cases, &n, e);
    zip_t *z = NULL;
    if (ok) {
        unlink(tmp.data);
        int zerr = 0;
        z = zip_open(tmp.data, ZIP_CREATE | ZIP_TRUNCATE, &zerr);
        if (!z) {
            zip_error_t ze;
            zip_error_init_with_code(&ze, zerr);
            ok = err_set(e, "%s: cannot create: %s; free space or fix permissions", tmp.data,
                         zip_error_strerror(&ze));
            zip_error_fini(&ze);
        }
    }
    char *md = ok ? fs_join(dir.data, "metadata.xml") : NULL;
    ok = ok && md && add_entry(z, md, zpath.data, e);
    for (size_t i = 0; ok && i < n; i++)
        ok = add_entry(z, cases[i], zpath.data, e);
    if (z && ok && zip_close(z) != 0) {
        ok = err_set(e, "%s: cannot write: %s; free space and run again", zpath.data,
                     zip_strerror(z));
        zip_discard(z);
    } else if (z && !ok) {
        zip_discard(z);
    }
    if (ok && rename(tmp.data, zpath.data) != 0)
        ok = err_sys(e, "%s: cannot write", zpath.data);
    if (!ok && tmp.data)
        unlink(tmp.data);
    ctg_free(md);
    suite_free_list(cases, n);
    sbuf_release(&dir), sbuf_release(&tmp), sbuf_release(&zpath);
    return ok;
}
