/*
 * build_cache.c - keys, dependency validation and atomic publication of
 * cached builds (see build_cache.h).
 */
#include "build_cache.h"

#include "../base/hash.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <link.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/mem.h"

/* ==== hashing ============================================================== */

/* ==== root and key ========================================================== */

char *bcache_root(const build_opts *o, ctg_err *e)
{
    const char *env = getenv("CTESTGEN_CACHE"), *home = getenv("HOME");
    char *root = NULL;
    if (o->cache_dir && *o->cache_dir)
        root = ctg_strdup(o->cache_dir);
    else if (env && *env)
        root = ctg_strdup(env);
    else if (home && *home)
        root = fs_join(home, ".cache/ctestgen");
    else {
        err_set(e, "no cache directory: HOME is not set; set CTESTGEN_CACHE");
        return NULL;
    }
    if (!root)
        err_set(e, "out of memory while locating the build cache");
    return root;
}

/* dl_iterate_phdr's callback: the GNU build-id note of the first object
 * (the executable) in hex, into data; stops after that object. */
static int exe_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    char *out = data;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
        const char *end = p + ph->p_memsz;
        while ((size_t)(end - p) >= sizeof(ElfW(Nhdr))) {
            const ElfW(Nhdr) *n = (const void *)p;
            const char *name = p + sizeof *n;
            const unsigned char *desc =
                (const unsigned char *)name + ((n->n_namesz + 3) & ~(ElfW(Word))3);
            const char *next = (const char *)desc + ((n->n_descsz + 3) & ~(ElfW(Word))3);
            if (next > end)
                break;
            if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
                n->n_descsz > 0 && 2 * n->n_descsz + 4 < BCACHE_HEX) {
                char *o = out + sprintf(out, "id:");
                for (ElfW(Word) k = 0; k < n->n_descsz; k++)
                    o += sprintf(o, "%02x", desc[k]);
                return 1;
            }
            p = next;
        }
    }
    return 1;
}

/* What identifies the running executable, computed once: its build-id
 * (the linker's hash of its contents), else the sha256 of the file (""
 * when unreadable).  Hashing the file took 100 ms for a binary with LLVM
 * linked in, most of a small program's build. */
static const char *exe_hash(void)
{
    static char hash[BCACHE_HEX];
    static bool done;
    if (!done) {
        dl_iterate_phdr(exe_build_id, hash);
        if (!hash[0] && !hash_file("/proc/self/exe", hash, NULL))
            hash[0] = '\0';
        done = true;
    }
    return hash;
}

/* True when a flag names a path that depends on the working directory. */
static bool relative_path_flag(const char *const *flags, int n, int i)
{
    static const char *const opts[] = {"-I", "-iquote", "-isystem", "-idirafter", "-include"};
    for (size_t k = 0; k < sizeof opts / sizeof *opts; k++) {
        size_t l = strlen(opts[k]);
        if (strncmp(flags[i], opts[k], l) != 0)
            continue;
        const char *p = flags[i][l] ? flags[i] + l : (i + 1 < n ? flags[i + 1] : "/");
        return p[0] != '/';
    }
    return false;
}

bool bcache_key(const build_opts *o, const char *rt_archive, const char *sym_archive, sbuf *m,
                char key[BCACHE_HEX], ctg_err *e)
{
    char h[BCACHE_HEX];
    sbuf_printf(m, "ctestgen %s\nexe %s\narch %d\n", CTG_VERSION, exe_hash(), o->arch_bits);
    bool rel = false;
    for (int i = 0; i < o->n_cflags; i++) {
        sbuf_printf(m, "flag %s\n", o->cflags[i]);
        rel = rel || relative_path_flag(o->cflags, o->n_cflags, i);
    }
    if (rel) {
        char cwd[4096];
        sbuf_printf(m, "cwd %s\n", getcwd(cwd, sizeof cwd) ? cwd : "?");
    }
    for (int i = 0; i < o->n_sources; i++) {
        char *abs = fs_realpath(o->sources[i], e);
        if (!abs || !hash_file(abs, h, e)) {
            ctg_free(abs);
            return false;
        }
        sbuf_printf(m, "source %s %s\n", abs, h);
        ctg_free(abs);
    }
    if (!hash_file(rt_archive, h, e))
        return false;
    sbuf_printf(m, "runtime %s\n", h);
    if (sym_archive && fs_exists(sym_archive)) {
        if (!hash_file(sym_archive, h, e))
            return false;
        sbuf_printf(m, "symruntime %s\n", h);
    }
    if (!sbuf_ok(m))
        return err_set(e, "out of memory while hashing the build");
    return hash_buffer(m->data, m->len, key) || err_set(e, "libcrypto failed to hash the build");
}

/* ==== dependencies ========================================================== */

/* Reads the next file name of a make dependency list at *p (handles "\ ",
 * "$$" and line continuations) into b; false at the end. */
static bool next_dep(const char **p, sbuf *b)
{
    const char *s = *p;
    sbuf_reset(b);
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' ||
           (s[0] == '\\' && (s[1] == '\n' || s[1] == '\r')))
        s += s[0] == '\\' ? 2 : 1;
    if (!*s)
        return false;
    while (*s && *s != ' ' && *s != '\t' && *s != '\n' && *s != '\r') {
        if (s[0] == '\\' && s[1] == ' ')
            s++;
        else if (s[0] == '$' && s[1] == '$')
            s++;
        else if (s[0] == '\\' && (s[1] == '\n' || s[1] == '\r'))
            break;
        sbuf_putc(b, *s++);
    }
    *p = s;
    return true;
}

/* Adds every dependency of one .d file (target "x:") to arr. */
static bool add_deps(json_object *arr, const char *dfile, ctg_err *e)
{
    char *text, hash[BCACHE_HEX];
    if (!fs_read(dfile, &text, NULL, e))
        return false;
    const char *p = strchr(text, ':');
    p = p ? p + 1 : text + strlen(text);
    sbuf name = SBUF_INIT;
    bool ok = true;
    while (ok && next_dep(&p, &name)) {
        char *abs = fs_realpath(sbuf_str(&name), e);
        ok = abs && hash_file(abs, hash, e);
        if (ok) {
            json_object *d = json_object_new_object();
            json_object_object_add(d, "path", json_object_new_string(abs));
            json_object_object_add(d, "sha256", json_object_new_string(hash));
            json_object_array_add(arr, d);
        }
        ctg_free(abs);
    }
    sbuf_release(&name);
    ctg_free(text);
    return ok;
}

bool bcache_save_deps(const char *dir, char *const *dep_files, int n, ctg_err *e)
{
    json_object *arr = json_object_new_array();
    bool ok = arr != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = add_deps(arr, dep_files[i], e);
    char *path = fs_join(dir, "deps.json");
    if (ok && path) {
        size_t len = 0;
        const char *s = json_object_to_json_string_length(arr, JSON_C_TO_STRING_PRETTY |
                                                                   JSON_C_TO_STRING_NOSLASHESCAPE,
                                                          &len);
        ok = s ? fs_write_atomic(path, s, len, e) : err_set(e, "%s: out of memory", dir);
    } else if (ok) {
        ok = err_set(e, "%s: out of memory", dir);
    }
    ctg_free(path);
    json_object_put(arr);
    return ok;
}

/* True when every file listed in dir/deps.json still has its hash. */
static bool deps_unchanged(const char *dir)
{
    char *path = fs_join(dir, "deps.json");
    json_object *arr = path ? json_object_from_file(path) : NULL;
    ctg_free(path);
    bool ok = arr && json_object_is_type(arr, json_type_array);
    for (size_t i = 0; ok && i < json_object_array_length(arr); i++) {
        json_object *d = json_object_array_get_idx(arr, i), *p, *h;
        char hash[BCACHE_HEX];
        ok = json_object_object_get_ex(d, "path", &p) &&
             json_object_object_get_ex(d, "sha256", &h) &&
             hash_file(json_object_get_string(p), hash, NULL) &&
             strcmp(hash, json_object_get_string(h)) == 0;
    }
    json_object_put(arr);
    return ok;
}

bool bcache_valid(const char *dir)
{
    static const char *const files[] = {"prog.cov", "prog.bc", "progdb.json", "deps.json"};
    if (!fs_is_dir(dir))
        return false;
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char *p = fs_join(dir, files[i]);
        bool there = p && fs_exists(p);
        ctg_free(p);
        if (!there)
            return false;
    }
    return deps_unchanged(dir);
}

/* ==== publication =========================================================== */

void bcache_sweep(const char *root, const char *key)
{
    DIR *d = opendir(root);
    if (!d)
        return;
    size_t kl = strlen(key);
    struct dirent *de;
    while ((de = readdir(d))) {
        const char *n = de->d_name;
        if (strncmp(n, key, kl) != 0 ||
            (strncmp(n + kl, ".tmp.", 5) != 0 && strncmp(n + kl, ".old.", 5) != 0))
            continue;
        char *p = fs_join(root, n);
        struct stat st;
        if (p && stat(p, &st) == 0 && st.st_mtime + 3600 < time(NULL))
            fs_rm_rf(p, NULL);
        ctg_free(p);
    }
    closedir(d);
}

char *bcache_publish(const char *tmp, const char *final, bool replace, ctg_err *e)
{
    for (int attempt = 0; attempt < 4; attempt++) {
        if (rename(tmp, final) == 0)
            return ctg_strdup(final);
        if (errno != ENOTEMPTY && errno != EEXIST) {
            err_sys(e, "%s: cannot move the build into the cache", final);
            return NULL;
        }
        if (!replace && bcache_valid(final)) { /* a concurrent build won */
            fs_rm_rf(tmp, NULL);
            return ctg_strdup(final);
        }
        sbuf old = SBUF_INIT; /* a stale entry: move it aside, then retry */
        sbuf_printf(&old, "%s.old.%ld.%d", final, (long)getpid(), attempt);
        if (sbuf_ok(&old) && rename(final, old.data) == 0)
            fs_rm_rf(old.data, NULL);
        sbuf_release(&old);
    }
    return ctg_strdup(tmp); /* the cache keeps changing under us: use the build as is */
}
