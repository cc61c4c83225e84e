/*
 * ccrec.c - compile records of ctestgen-cc and compile_commands.json (see
 * ccrec.h).  ELF sections are read with libelf (archives too: its
 * elf_begin walks their members), JSON with json-c, the "command" strings
 * of a compilation database split with wordexp(3).
 */
#include "ccrec.h"

#include <fcntl.h>
#include <gelf.h>
#include <json-c/json.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wordexp.h>

#include "../base/ccflags.h"
#include "../base/fsutil.h"
#include "../base/mem.h"

/* ==== records ================================================================ */

static void rec_release(ccrec *r)
{
    ctg_free(r->obj);
    ctg_free(r->src);
    ctg_free(r->bc);
    for (int i = 0; i < r->n_flags; i++)
        ctg_free(r->flags[i]);
    ctg_free(r->flags);
}

void ccrecs_release(ccrecs *rs)
{
    if (!rs)
        return;
    for (size_t i = 0; i < rs->n; i++)
        rec_release(&rs->v[i]);
    ctg_free(rs->v);
    for (int i = 0; i < rs->n_link; i++)
        ctg_free(rs->link[i]);
    ctg_free(rs->link);
    memset(rs, 0, sizeof *rs);
}

bool ccrec_add_flag(char ***v, int *n, const char *f, const char *val)
{
    for (int i = 0; i < *n; i++) /* a flag with a value is a pair */
        if (!strcmp((*v)[i], f) && (!val || (i + 1 < *n && !strcmp((*v)[i + 1], val))))
            return true;
    char **g = ctg_realloc(*v, ((size_t)*n + 3) * sizeof **v);
    if (!g)
        return false;
    *v = g;
    if (!(g[*n] = ctg_strdup(f)))
        return false;
    g[++*n] = NULL;
    if (val) {
        if (!(g[*n] = ctg_strdup(val)))
            return false;
        g[++*n] = NULL;
    }
    return true;
}

/* Whether flag f of a record list takes the entry after it as its value
 * (-include FILE, -isystem DIR: the forms ccflags.h splits). */
static bool pair_flag(const char *f)
{
    int n;
    return ccf_classify(f, "x", &n) != CCF_NONE && n == 2;
}

/* A JSON array of strings; NULL on oom. */
static json_object *strings(char *const *v, int n)
{
    json_object *a = json_object_new_array();
    for (int i = 0; a && i < n; i++)
        json_object_array_add(a, json_object_new_string(v[i]));
    return a;
}

/* Appends o as one line to out and frees it. */
static bool put_line(json_object *o, sbuf *out)
{
    const char *t = o ? json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN |
                                                               JSON_C_TO_STRING_NOSLASHESCAPE)
                      : NULL;
    if (t)
        sbuf_printf(out, "%s\n", t);
    json_object_put(o);
    return t && sbuf_ok(out);
}

bool ccrec_line(const ccrec *r, sbuf *out)
{
    json_object *o = json_object_new_object();
    if (!o)
        return false;
    json_object_object_add(o, "src", json_object_new_string(r->src));
    if (r->bc)
        json_object_object_add(o, "bc", json_object_new_string(r->bc));
    json_object_object_add(o, "flags", strings(r->flags, r->n_flags));
    if (r->arch_bits)
        json_object_object_add(o, "arch", json_object_new_int(r->arch_bits));
    return put_line(o, out);
}

bool ccrec_link_line(char *const *flags, int n, sbuf *out)
{
    json_object *o = json_object_new_object();
    if (!o)
        return false;
    json_object_object_add(o, "link", strings(flags, n));
    return put_line(o, out);
}

/* Appends the strings of JSON array a to *v (no duplicates, a flag and
 * its value as a pair); false on a member that is not a string, or oom. */
static bool add_strings(json_object *a, char ***v, int *n)
{
    if (!a || !json_object_is_type(a, json_type_array))
        return false;
    size_t len = json_object_array_length(a);
    for (size_t i = 0; i < len; i++) {
        json_object *s = json_object_array_get_idx(a, i);
        if (!json_object_is_type(s, json_type_string))
            return false;
        const char *f = json_object_get_string(s), *val = NULL;
        if (pair_flag(f) && i + 1 < len)
            val = json_object_get_string(json_object_array_get_idx(a, ++i));
        if (!ccrec_add_flag(v, n, f, val))
            return false;
    }
    return true;
}

/* Adds a record unless its source is there already (takes r's contents). */
static bool add_rec(ccrecs *rs, ccrec *r)
{
    for (size_t i = 0; i < rs->n; i++)
        if (!strcmp(rs->v[i].src, r->src)) {
            rec_release(r);
            return true;
        }
    if (ctg_grow((void **)&rs->v, &rs->cap, rs->n + 1, sizeof *rs->v) != 0) {
        rec_release(r);
        return false;
    }
    rs->v[rs->n++] = *r;
    return true;
}

/* One parsed line into rs. */
static bool parse_object(json_object *o, ccrecs *rs)
{
    json_object *v;
    if (json_object_object_get_ex(o, "link", &v))
        return add_strings(v, &rs->link, &rs->n_link);
    ccrec r = {0};
    bool ok = json_object_object_get_ex(o, "src", &v) && json_object_is_type(v, json_type_string) &&
              (r.src = ctg_strdup(json_object_get_string(v))) != NULL;
    if (ok && json_object_object_get_ex(o, "bc", &v))
        ok = json_object_is_type(v, json_type_string) &&
             (r.bc = ctg_strdup(json_object_get_string(v))) != NULL;
    if (ok && json_object_object_get_ex(o, "flags", &v))
        ok = add_strings(v, &r.flags, &r.n_flags);
    if (ok && json_object_object_get_ex(o, "arch", &v))
        r.arch_bits = json_object_get_int(v);
    if (!ok) {
        rec_release(&r);
        return false;
    }
    return add_rec(rs, &r);
}

bool ccrec_parse(const char *text, size_t len, const char *what, ccrecs *rs, ctg_err *e)
{
    size_t at = 0;
    int line = 0;
    while (at < len) {
        size_t n = 0;
        while (at + n < len && text[at + n] != '\n' && text[at + n] != '\0')
            n++;
        line++;
        if (n > 0) {
            json_tokener *tok = json_tokener_new();
            json_object *o = tok ? json_tokener_parse_ex(tok, text + at, (int)n) : NULL;
            json_tokener_free(tok);
            bool ok = o && json_object_is_type(o, json_type_object) && parse_object(o, rs);
            json_object_put(o);
            if (!ok)
                return err_set(e, "%s: compile record %d is damaged; build the project again "
                                  "with ctestgen-cc", what, line);
        }
        at += n + 1;
    }
    return true;
}

/* ==== ELF files ================================================================ */

bool ccrec_is_binary(const char *path)
{
    unsigned char m[8] = {0};
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, m, sizeof m);
    close(fd);
    return (n >= 4 && !memcmp(m, "\177ELF", 4)) || (n >= 8 && !memcmp(m, "!<arch>\n", 8));
}

/* The .ctestgen section of one ELF object into rs; 1 read, 0 none. */
static int read_object(Elf *elf, const char *what, ccrecs *rs, ctg_err *e)
{
    size_t shstrndx;
    if (elf_kind(elf) != ELF_K_ELF || elf_getshdrstrndx(elf, &shstrndx) != 0)
        return 0;
    int found = 0;
    for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
        GElf_Shdr sh;
        const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
        if (!name || strcmp(name, CCREC_SECTION))
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (d && d->d_buf && !ccrec_parse(d->d_buf, d->d_size, what, rs, e))
            return -1;
        found = 1;
    }
    return found;
}

int ccrec_read_elf(const char *path, ccrecs *rs, ctg_err *e)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return err_set(e, "libelf is not usable (%s)", elf_errmsg(-1)), -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return err_sys(e, "%s: cannot open", path), -1;
    Elf *top = elf_begin(fd, ELF_C_READ, NULL);
    int found = 0;
    if (!top) {
        err_set(e, "%s: not an ELF file or archive (%s)", path, elf_errmsg(-1));
        found = -1;
    } else if (elf_kind(top) == ELF_K_AR) { /* every member */
        Elf_Cmd cmd = ELF_C_READ;
        for (Elf *m; found >= 0 && (m = elf_begin(fd, cmd, top)) != NULL;) {
            int r = read_object(m, path, rs, e);
            found = r < 0 ? -1 : found | r;
            cmd = elf_next(m);
            elf_end(m);
        }
    } else
        found = read_object(top, path, rs, e);
    elf_end(top);
    close(fd);
    return found;
}

/* Whether symbol table scn of elf defines main or LLVMFuzzerTestOneInput. */
static bool symtab_defines_entry(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
    for (size_t i = 0; d && i < n; i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym) || sym.st_shndx == SHN_UNDEF ||
            GELF_ST_TYPE(sym.st_info) != STT_FUNC || GELF_ST_BIND(sym.st_info) == STB_LOCAL)
            continue;
        const char *name = elf_strptr(elf, sh->sh_link, sym.st_name);
        if (name && (!strcmp(name, "main") || !strcmp(name, "LLVMFuzzerTestOneInput")))
            return true;
    }
    return false;
}

int ccrec_defines_entry(const char *path)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return -1;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    Elf *elf = elf_begin(fd, ELF_C_READ, NULL);
    int found = elf && elf_kind(elf) == ELF_K_ELF ? 0 : -1;
    for (Elf_Scn *scn = NULL; found == 0 && elf && (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB &&
            symtab_defines_entry(elf, scn, &sh))
            found = 1;
    }
    if (elf)
        elf_end(elf);
    close(fd);
    return found;
}

/* ==== compile_commands.json ====================================================== */

/* path made absolute against dir (ctg_free). */
static char *against(const char *dir, const char *path)
{
    return path[0] == '/' || !dir ? ctg_strdup(path) : fs_join(dir, path);
}

/* The compile flags of one command (argv[1 ..]) into r, paths absolute
 * against dir; skips the source, -c, -o and what ccflags.h ignores. */
static bool entry_flags(char *const *argv, int argc, const char *dir, ccrec *r)
{
    bool ok = true;
    for (int i = 1; ok && i < argc; i++) {
        int n, pre;
        if (!strcmp(argv[i], "-o") && i + 1 < argc && !r->obj)
            ok = (r->obj = against(dir, argv[i + 1])) != NULL;
        if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "-MF") || !strcmp(argv[i], "-MT") ||
            !strcmp(argv[i], "-MQ") || !strcmp(argv[i], "-x")) {
            i++;
            continue;
        }
        ccf_kind k = ccf_classify(argv[i], i + 1 < argc ? argv[i + 1] : NULL, &n);
        if (k != CCF_COMPILE && k != CCF_BOTH && k != CCF_ARCH) {
            i += n - 1;
            continue;
        }
        if (k == CCF_ARCH) {
            r->arch_bits = argv[i][2] == '3' ? 32 : 64;
            continue;
        }
        const char *f = argv[i], *v = n == 2 ? argv[++i] : NULL;
        char *path = NULL, *joined = NULL;
        if (ccf_takes_path(f, &pre) && (v || pre)) /* -Ipath, -I path, -include file */
            path = against(dir, v ? v : f + pre);
        if (strlen(f) == 2 && (v || path)) { /* -I DIR, -D X: one argument */
            sbuf b = SBUF_INIT;
            sbuf_printf(&b, "%.2s%s", f, path ? path : v);
            joined = sbuf_take(&b);
            ok = joined && ccrec_add_flag(&r->flags, &r->n_flags, joined, NULL);
        } else if (v)
            ok = ccrec_add_flag(&r->flags, &r->n_flags, f, path ? path : v);
        else if (path) {
            sbuf b = SBUF_INIT;
            sbuf_printf(&b, "%.*s%s", pre, f, path);
            joined = sbuf_take(&b);
            ok = joined && ccrec_add_flag(&r->flags, &r->n_flags, joined, NULL);
        } else
            ok = ccrec_add_flag(&r->flags, &r->n_flags, f, NULL);
        ctg_free(path);
        ctg_free(joined);
    }
    return ok;
}

/* argv of an entry: "arguments", else "command" split as a shell would
 * (wordexp, no command substitution).  *w holds what wordexp made. */
static bool entry_argv(json_object *en, char ***argv, int *argc, wordexp_t *w, bool *used_w)
{
    json_object *v;
    *used_w = false;
    if (json_object_object_get_ex(en, "arguments", &v) && json_object_is_type(v, json_type_array)) {
        size_t n = json_object_array_length(v);
        if (!(*argv = ctg_calloc(n + 1, sizeof **argv)))
            return false;
        for (size_t i = 0; i < n; i++)
            (*argv)[i] = (char *)json_object_get_string(json_object_array_get_idx(v, i));
        *argc = (int)n;
        return n > 0;
    }
    if (!json_object_object_get_ex(en, "command", &v) ||
        wordexp(json_object_get_string(v), w, WRDE_NOCMD) != 0)
        return false;
    *used_w = true;
    *argv = w->we_wordv;
    *argc = (int)w->we_wordc;
    return *argc > 0;
}

/* Whether name is a C file (.c, .i). */
static bool c_file(const char *name)
{
    size_t n = strlen(name);
    return n > 2 && (!strcmp(name + n - 2, ".c") || !strcmp(name + n - 2, ".i"));
}

/* One entry of the database into rs; false with e set. */
static bool db_entry(json_object *en, const char *path, size_t idx, ccrecs *rs, ctg_err *e)
{
    json_object *d, *f;
    if (!json_object_object_get_ex(en, "directory", &d) || !json_object_object_get_ex(en, "file", &f))
        return err_set(e, "%s: entry %zu has no \"directory\" or \"file\"; regenerate the "
                          "database (cmake -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear)", path, idx);
    const char *dir = json_object_get_string(d), *file = json_object_get_string(f);
    if (!c_file(file))
        return true; /* C++, assembly: not ours */
    char **argv = NULL;
    int argc = 0;
    wordexp_t w;
    bool used_w;
    if (!entry_argv(en, &argv, &argc, &w, &used_w)) {
        if (!used_w)
            ctg_free(argv);
        return err_set(e, "%s: entry %zu (%s) has no \"arguments\" or \"command\" that can be "
                          "read; regenerate the database", path, idx, file);
    }
    ccrec r = {0};
    bool ok = (r.src = against(dir, file)) != NULL && entry_flags(argv, argc, dir, &r);
    if (used_w)
        wordfree(&w);
    else
        ctg_free(argv);
    if (!ok) {
        rec_release(&r);
        return err_set(e, "%s: out of memory", path);
    }
    return add_rec(rs, &r) || err_set(e, "%s: out of memory", path);
}

bool ccrec_read_db(const char *path, ccrecs *rs, ctg_err *e)
{
    if (!fs_exists(path))
        return err_set(e, "%s: no such file; generate it (cmake -B build "
                          "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make)", path);
    json_object *root = json_object_from_file(path);
    if (!root || !json_object_is_type(root, json_type_array)) {
        json_object_put(root);
        return err_set(e, "%s: not a compilation database (a JSON array of entries); "
                          "regenerate it", path);
    }
    bool ok = true;
    for (size_t i = 0; ok && i < json_object_array_length(root); i++)
        ok = db_entry(json_object_array_get_idx(root, i), path, i, rs, e);
    json_object_put(root);
    return ok;
}
