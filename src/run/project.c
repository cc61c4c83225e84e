/*
 * project.c - the C files and flags of a project's build (see project.h).
 */
#include "project.h"

#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../compile/ccrec.h"

/* Appends s to l (the options own a copy in o->own); false on oom. */
static bool add_owned(ctg_options *o, str_list *l, const char *s)
{
    char *c = ctg_strdup(s);
    size_t cap = (size_t)o->own.cap;
    if (!c || ctg_grow((void **)&o->own.items, &cap, (size_t)o->own.n + 1,
                       sizeof *o->own.items) != 0) {
        ctg_free(c);
        return false;
    }
    o->own.cap = (int)cap;
    o->own.items[o->own.n++] = c;
    size_t lcap = (size_t)l->cap;
    if (ctg_grow((void **)&l->items, &lcap, (size_t)l->n + 1, sizeof *l->items) != 0)
        return false;
    l->cap = (int)lcap;
    l->items[l->n++] = c;
    return true;
}

/* Whether l holds s from index `from` on (as a path: by realpath). */
static bool has_file(const str_list *l, int from, const char *s)
{
    char *a = fs_realpath(s, NULL);
    bool found = false;
    for (int i = from; !found && i < l->n; i++) {
        char *b = fs_realpath(l->items[i], NULL);
        found = a && b ? !strcmp(a, b) : !strcmp(s, l->items[i]);
        ctg_free(b);
    }
    ctg_free(a);
    return found;
}

/* Adds flags v[0 .. n) to o's compiler flags, each (pair) once. */
static bool add_flags(ctg_options *o, char *const *v, int n)
{
    str_list *l = &o->build.cflags;
    for (int i = 0; i < n; i++) {
        bool pair = i + 1 < n && (!strcmp(v[i], "-include") || !strcmp(v[i], "-isystem") ||
                                  !strcmp(v[i], "-iquote") || !strcmp(v[i], "-idirafter"));
        bool have = false;
        for (int k = 0; !have && k < l->n; k++)
            have = !strcmp(l->items[k], v[i]) &&
                   (!pair || (k + 1 < l->n && !strcmp(l->items[k + 1], v[i + 1])));
        if (!have && (!add_owned(o, l, v[i]) || (pair && !add_owned(o, l, v[i + 1]))))
            return false;
        i += pair;
    }
    return true;
}

/* Whether a database entry is to be left out: the files given already
 * hold the program's entry (main or LLVMFuzzerTestOneInput), and the
 * entry's object, built already, defines one (a test program, a tool). */
static bool second_entry(const ctg_options *o, const ccrec *r, int from)
{
    if (!r->obj || o->positional.n <= from || !fs_exists(r->obj) || ccrec_defines_entry(r->obj) != 1)
        return false;
    if (!o->ui.quiet)
        fprintf(stderr, "ctestgen: note: %s left out: it defines main or LLVMFuzzerTestOneInput, "
                        "which %s does\n", r->src, o->positional.items[from]);
    return true;
}

/* The C files of records rs into list out (their bitcode when a file is
 * gone), flags into o; what: where they came from, for messages. */
static bool take_records(ctg_options *o, const ccrecs *rs, str_list *out, int from,
                         const char *what, ctg_err *e)
{
    for (size_t i = 0; i < rs->n; i++) {
        const ccrec *r = &rs->v[i];
        if (second_entry(o, r, from))
            continue;
        const char *file = fs_exists(r->src) ? r->src : r->bc && fs_exists(r->bc) ? r->bc : NULL;
        if (!file)
            return err_set(e, "%s: %s, which it was built from, is gone (and its bitcode "
                              "too); build the project again", what, r->src);
        if (!has_file(out, from, file) && !add_owned(o, out, file))
            return err_set(e, "out of memory");
        if (!add_flags(o, r->flags, r->n_flags))
            return err_set(e, "out of memory");
        if (r->arch_bits && !o->build.arch_bits)
            o->build.arch_bits = r->arch_bits;
    }
    return add_flags(o, rs->link, rs->n_link) || err_set(e, "out of memory");
}

/* Expands positional argument i, an ELF file or archive, into out. */
static bool expand_binary(ctg_options *o, const char *path, str_list *out, int from, ctg_err *e)
{
    ccrecs rs = {0};
    int got = ccrec_read_elf(path, &rs, e);
    if (got == 0)
        err_set(e, "%s: has no compile records (it was not built with ctestgen-cc); build "
                   "the project with CC=ctestgen-cc, or name its C files", path);
    bool ok = got > 0 && take_records(o, &rs, out, from, path, e);
    ccrecs_release(&rs);
    return ok;
}

bool project_apply(ctg_options *o, int first, ctg_err *e)
{
    bool any = o->build.compile_commands != NULL;
    for (int i = first; !any && i < o->positional.n; i++)
        any = fs_exists(o->positional.items[i]) && !fs_is_dir(o->positional.items[i]) &&
              ccrec_is_binary(o->positional.items[i]);
    if (!any)
        return true;
    str_list out = {0};
    bool ok = true;
    for (int i = 0; ok && i < o->positional.n; i++) {
        const char *a = o->positional.items[i];
        if (i >= first && fs_exists(a) && !fs_is_dir(a) && ccrec_is_binary(a))
            ok = expand_binary(o, a, &out, first, e);
        else if (!has_file(&out, first, a) || i < first)
            ok = add_owned(o, &out, a) || err_set(e, "out of memory");
    }
    if (ok && o->build.compile_commands) {
        ccrecs rs = {0};
        ok = ccrec_read_db(o->build.compile_commands, &rs, e) &&
             take_records(o, &rs, &out, first, o->build.compile_commands, e);
        ccrecs_release(&rs);
    }
    if (!ok) {
        ctg_free(out.items);
        return false;
    }
    ctg_free(o->positional.items);
    o->positional = out;
    return true;
}
