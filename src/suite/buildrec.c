/*
 * buildrec.c - OUT/build.json (see buildrec.h), read and written with
 * json-c.
 */
#include "buildrec.h"

#include <json-c/json.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/ccflags.h"
#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"

#define FORMAT "ctestgen-build-1"

void buildrec_release(buildrec *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->n_sources; i++)
        ctg_free(r->sources[i]);
    for (int i = 0; i < r->n_flags; i++)
        ctg_free(r->flags[i]);
    ctg_free(r->sources);
    ctg_free(r->flags);
    ctg_free(r->sanitize);
    memset(r, 0, sizeof *r);
}

/* path made absolute against the working directory (ctg_free); NULL on oom. */
static char *absolute(const char *path)
{
    if (path[0] == '/')
        return ctg_strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return ctg_strdup(path);
    return fs_join(cwd, path);
}

/* Flag f with the path it names made absolute (ctg_free); prev: the
 * argument before it (a path of "-include FILE" comes second). */
static char *absolute_flag(const char *f, const char *prev)
{
    int pre = 0;
    if (prev && ccf_takes_path(prev, &pre) && pre == 0)
        return absolute(f);
    if (!ccf_takes_path(f, &pre) || pre == 0)
        return ctg_strdup(f);
    char *p = absolute(f + pre);
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%.*s%s", pre, f, p ? p : "");
    ctg_free(p);
    return sbuf_take(&b);
}

bool buildrec_make(buildrec *r, const char *const *sources, int n_sources,
                   const char *const *flags, int n_flags, int arch_bits, const char *sanitize,
                   ctg_err *e)
{
    memset(r, 0, sizeof *r);
    r->arch_bits = arch_bits == 32 ? 32 : 64;
    r->sources = ctg_calloc((size_t)n_sources + 1, sizeof *r->sources);
    r->flags = ctg_calloc((size_t)n_flags + 1, sizeof *r->flags);
    bool ok = r->sources && r->flags && (!sanitize || (r->sanitize = ctg_strdup(sanitize)));
    for (int i = 0; ok && i < n_sources; i++, r->n_sources++)
        ok = (r->sources[i] = fs_realpath(sources[i], e)) != NULL;
    for (int i = 0; ok && i < n_flags; i++, r->n_flags++)
        ok = (r->flags[i] = absolute_flag(flags[i], i ? flags[i - 1] : NULL)) != NULL;
    if (!ok) {
        if (!e->msg[0])
            err_set(e, "out of memory while recording the build");
        buildrec_release(r);
    }
    return ok;
}

/* A JSON array of n strings; NULL on oom. */
static json_object *str_array(char *const *v, int n)
{
    json_object *a = json_object_new_array();
    for (int i = 0; a && i < n; i++)
        if (json_object_array_add(a, json_object_new_string(v[i])) != 0) {
            json_object_put(a);
            return NULL;
        }
    return a;
}

bool buildrec_write(const char *out_dir, const buildrec *r, ctg_err *e)
{
    json_object *o = json_object_new_object();
    bool ok = o && !json_object_object_add(o, "format", json_object_new_string(FORMAT)) &&
              !json_object_object_add(o, "sources", str_array(r->sources, r->n_sources)) &&
              !json_object_object_add(o, "flags", str_array(r->flags, r->n_flags)) &&
              !json_object_object_add(o, "arch", json_object_new_int(r->arch_bits));
    if (ok && r->sanitize)
        ok = !json_object_object_add(o, "sanitize", json_object_new_string(r->sanitize));
    const char *txt = ok ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_NOSLASHESCAPE) : NULL;
    char *path = fs_join(out_dir, BUILDREC_FILE);
    if (!txt || !path)
        ok = err_set(e, "%s/%s: out of memory", out_dir, BUILDREC_FILE);
    else
        ok = fs_write_atomic(path, txt, strlen(txt), e);
    json_object_put(o);
    ctg_free(path);
    return ok;
}

/* Copies the strings of JSON array a into *v (n of them); false on a
 * member that is not a string, or oom. */
static bool read_strings(json_object *a, char ***v, int *n)
{
    if (!a || !json_object_is_type(a, json_type_array))
        return false;
    size_t len = json_object_array_length(a);
    if (!(*v = ctg_calloc(len + 1, sizeof **v)))
        return false;
    for (size_t i = 0; i < len; i++, (*n)++) {
        json_object *s = json_object_array_get_idx(a, i);
        if (!json_object_is_type(s, json_type_string) ||
            !((*v)[i] = ctg_strdup(json_object_get_string(s))))
            return false;
    }
    return true;
}

int buildrec_load(const char *out_dir, buildrec *r, ctg_err *e)
{
    memset(r, 0, sizeof *r);
    char *path = fs_join(out_dir, BUILDREC_FILE);
    if (!path)
        return err_set(e, "out of memory"), -1;
    if (!fs_exists(path)) {
        ctg_free(path);
        return 0;
    }
    json_object *o = json_object_from_file(path), *v = NULL;
    bool ok = o && json_object_object_get_ex(o, "format", &v) &&
              !strcmp(json_object_get_string(v), FORMAT);
    json_object *src = NULL, *fl = NULL, *arch = NULL, *san = NULL;
    ok = ok && json_object_object_get_ex(o, "sources", &src) &&
         json_object_object_get_ex(o, "flags", &fl) && json_object_object_get_ex(o, "arch", &arch);
    ok = ok && read_strings(src, &r->sources, &r->n_sources) &&
         read_strings(fl, &r->flags, &r->n_flags);
    if (ok) {
        r->arch_bits = json_object_get_int(arch) == 32 ? 32 : 64;
        if (json_object_object_get_ex(o, "sanitize", &san))
            ok = (r->sanitize = ctg_strdup(json_object_get_string(san))) != NULL;
    }
    json_object_put(o);
    if (!ok) {
        buildrec_release(r);
        err_set(e, "%s: not a ctestgen build record (damaged?); name the program's files after "
                   "the output directory", path);
    }
    ctg_free(path);
    return ok ? 1 : -1;
}
