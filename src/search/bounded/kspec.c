/*
 * kspec.c - parser of Korat finitisation files (see kspec.h and
 * docs/korat-format.md).  Line based: every line is one declaration, `#`
 * starts a comment; errors name file:line and what was expected.
 */
#include "kspec.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../base/ctype.h"
#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/sbuf.h"
#include "scope.h"

/* ==== scalar argument types =========================================================== */

/* Whether t is a scalar a spec may give an argument (a value type other
 * than a pointer or libFuzzer's bytes); names and C facts: base/ctype.h. */
static bool known_scalar(enum ctg_type t)
{
    return (unsigned)t < CTG_T__COUNT && t != CTG_T_POINTER && t != CTG_T_BYTES;
}

const char *kspec_ctype(enum ctg_type t) { return known_scalar(t) ? ctg_type_decl(t) : "int"; }

const char *kspec_nondet(enum ctg_type t) { return known_scalar(t) ? ctg_type_suffix(t) : "int"; }

/* ==== line scanner ================================================================== */

typedef struct lscan {
    const char *s; /* the line (NUL-terminated copy without the comment) */
    const char *fname;
    int line;
    ctg_err *e;
} lscan;

static void ls_ws(lscan *l)
{
    while (*l->s == ' ' || *l->s == '\t' || *l->s == '\r')
        l->s++;
}

static bool ls_fail(lscan *l, const char *what)
{
    return err_set(l->e, "%s:%d: expected %s", l->fname, l->line, what);
}

/* Reads an identifier into buf (cap bytes); false with e set naming what. */
static bool ls_ident(lscan *l, char *buf, size_t cap, const char *what)
{
    ls_ws(l);
    size_t n = 0;
    while ((isalnum((unsigned char)l->s[n]) || l->s[n] == '_') && n + 1 < cap)
        n++;
    if (n == 0 || isdigit((unsigned char)l->s[0]))
        return ls_fail(l, what);
    memcpy(buf, l->s, n);
    buf[n] = 0;
    l->s += n;
    return true;
}

/* Consumes the punctuation p if present. */
static bool ls_accept(lscan *l, const char *p)
{
    ls_ws(l);
    size_t n = strlen(p);
    if (strncmp(l->s, p, n) != 0)
        return false;
    l->s += n;
    return true;
}

static bool ls_expect(lscan *l, const char *p, const char *what)
{
    return ls_accept(l, p) || ls_fail(l, what);
}

static bool ls_end(lscan *l)
{
    ls_ws(l);
    return *l->s == 0 || ls_fail(l, "the end of the line");
}

/* ==== declarations ================================================================== */

typedef struct kparse {
    kspec *k;
    lscan l;
    char **root_names;
} kparse;

static bool oom(kparse *p) { return err_set(p->l.e, "%s: out of memory", p->l.fname); }

/* struct NAME COUNT  |  type NAME COUNT */
static bool d_struct(kparse *p, bool is_typedef)
{
    char name[128];
    if (!ls_ident(&p->l, name, sizeof name, "a struct name after 'struct'/'type'"))
        return false;
    ls_ws(&p->l);
    char *end;
    long n = strtol(p->l.s, &end, 10);
    if (end == p->l.s || n < 0 || n > 64)
        return ls_fail(&p->l, "the number of objects (0..64) after the struct name");
    p->l.s = end;
    if (!ls_end(&p->l))
        return false;
    korat_fin *f = p->k->fin;
    if (korat_fin_find_class(f, name) >= 0)
        return err_set(p->l.e, "%s:%d: struct %s is declared twice", p->l.fname, p->l.line, name);
    char **ct = ctg_realloc(p->k->ctype, (f->n_classes + 1) * sizeof *ct);
    if (!ct)
        return oom(p);
    p->k->ctype = ct;
    ct[f->n_classes] = NULL;
    int c = korat_fin_add_class(f, name, (int)n);
    if (c < 0)
        return oom(p);
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, is_typedef ? "%s" : "struct %s", name);
    return (ct[c] = sbuf_take(&b)) != NULL || oom(p);
}

/* Class index named at the scanner, with a message naming the line. */
static int class_ref(kparse *p, const char *what)
{
    char name[128];
    if (!ls_ident(&p->l, name, sizeof name, what))
        return -1;
    int c = korat_fin_find_class(p->k->fin, name);
    if (c < 0)
        err_set(p->l.e, "%s:%d: unknown struct '%s'; declare it first with 'struct %s N'",
                p->l.fname, p->l.line, name, name);
    return c;
}

/* field NAME.FIELD -> CLASS  |  field NAME.FIELD = VALUES */
static bool d_field(kparse *p)
{
    int c = class_ref(p, "'STRUCT.FIELD' after 'field'");
    char fname[128];
    if (c < 0 || !ls_expect(&p->l, ".", "'.' between the struct and the field name") ||
        !ls_ident(&p->l, fname, sizeof fname, "a field name after '.'"))
        return false;
    korat_class *kc = &p->k->fin->classes[c];
    for (size_t i = 0; i < kc->n_fields; i++)
        if (!strcmp(kc->fields[i].name, fname))
            return err_set(p->l.e, "%s:%d: field %s.%s is declared twice", p->l.fname, p->l.line,
                           kc->name, fname);
    if (ls_accept(&p->l, "->")) {
        int t = class_ref(p, "a struct name after '->'");
        if (t < 0 || !ls_end(&p->l))
            return false;
        return korat_fin_add_ptr(p->k->fin, c, fname, t) || oom(p);
    }
    ls_ws(&p->l);
    if (!strncmp(p->l.s, "=>", 2) ||
        !ls_expect(&p->l, "=", "'-> STRUCT' (a pointer field) or '= VALUES' (a scalar field)"))
        return ls_fail(&p->l, "'-> STRUCT' (a pointer field) or '= VALUES' (a scalar field)");
    char where[300];
    snprintf(where, sizeof where, "%s:%d", p->l.fname, p->l.line);
    int64_t *vals;
    size_t n;
    if (!scope_parse_ints(where, p->l.s, &vals, &n, p->l.e))
        return false;
    bool ok = korat_fin_add_vals(p->k->fin, c, fname, vals, n) || oom(p);
    ctg_free(vals);
    return ok;
}

/* repok NAME(STRUCT *ARG, ...) */
static bool d_repok(kparse *p)
{
    char name[128];
    if (p->k->repok)
        return err_set(p->l.e, "%s:%d: a second 'repok' line; give one predicate", p->l.fname,
                       p->l.line);
    if (!ls_ident(&p->l, name, sizeof name, "the predicate's name after 'repok'") ||
        !ls_expect(&p->l, "(", "'(' after the predicate's name"))
        return false;
    if (!(p->k->repok = ctg_strdup(name)))
        return oom(p);
    korat_fin *f = p->k->fin;
    while (!ls_accept(&p->l, ")")) {
        if (f->n_roots && !ls_expect(&p->l, ",", "',' or ')' in the argument list"))
            return false;
        int c = class_ref(p, "an argument 'STRUCT *name'");
        char arg[128];
        if (c < 0)
            return false;
        ls_accept(&p->l, "*");
        if (!ls_ident(&p->l, arg, sizeof arg, "the argument's name"))
            return false;
        char **rn = ctg_realloc(p->root_names, (f->n_roots + 1) * sizeof *rn);
        if (!rn)
            return oom(p);
        p->root_names = rn;
        if (!(rn[f->n_roots] = ctg_strdup(arg)))
            return oom(p);
        if (!korat_fin_add_ptr(f, KORAT_ROOT, arg, c)) {
            ctg_free(rn[f->n_roots]);
            return oom(p);
        }
    }
    return ls_end(&p->l);
}

/* One argument of `function`: a repOk argument name or `TYPE NAME`. */
static bool function_arg(kparse *p, kspec_arg *a)
{
    char w1[128], w2[128];
    if (!ls_ident(&p->l, w1, sizeof w1, "an argument: a repok argument or 'TYPE name'"))
        return false;
    a->root = -1;
    for (size_t r = 0; r < p->k->fin->n_roots; r++)
        if (!strcmp(p->root_names[r], w1))
            a->root = (int)r;
    if (a->root >= 0)
        return (a->name = ctg_strdup(w1)) != NULL || oom(p);
    enum ctg_type t;
    if (!ctg_type_from_name(w1, &t) || !known_scalar(t))
        return err_set(p->l.e, "%s:%d: '%s' is neither an argument of repok nor a type (int, "
                               "uint, char, long, double, ...)", p->l.fname, p->l.line, w1);
    if (!ls_ident(&p->l, w2, sizeof w2, "the argument's name after its type"))
        return false;
    a->type = t;
    return (a->name = ctg_strdup(w2)) != NULL || oom(p);
}

/* function NAME(ARG, ...) */
static bool d_function(kparse *p)
{
    char name[128];
    kspec *k = p->k;
    if (!k->repok)
        return err_set(p->l.e, "%s:%d: 'function' must come after 'repok'", p->l.fname, p->l.line);
    if (k->function)
        return err_set(p->l.e, "%s:%d: a second 'function' line", p->l.fname, p->l.line);
    if (!ls_ident(&p->l, name, sizeof name, "the function's name after 'function'") ||
        !ls_expect(&p->l, "(", "'(' after the function's name"))
        return false;
    if (!(k->function = ctg_strdup(name)))
        return oom(p);
    k->line_function = p->l.line;
    while (!ls_accept(&p->l, ")")) {
        if (k->n_fargs && !ls_expect(&p->l, ",", "',' or ')' in the argument list"))
            return false;
        kspec_arg *a = ctg_realloc(k->fargs, (k->n_fargs + 1) * sizeof *a);
        if (!a)
            return oom(p);
        k->fargs = a;
        memset(&a[k->n_fargs], 0, sizeof *a);
        if (!function_arg(p, &a[k->n_fargs++]))
            return false;
    }
    return ls_end(&p->l);
}

/* Parses one line (comment already cut). */
static bool parse_line(kparse *p)
{
    char kw[32];
    ls_ws(&p->l);
    if (*p->l.s == 0)
        return true;
    if (!ls_ident(&p->l, kw, sizeof kw, "'struct', 'type', 'field', 'repok' or 'function'"))
        return false;
    if (!strcmp(kw, "struct") || !strcmp(kw, "type"))
        return d_struct(p, kw[0] == 't');
    if (!strcmp(kw, "field"))
        return d_field(p);
    if (!strcmp(kw, "repok"))
        return d_repok(p);
    if (!strcmp(kw, "function"))
        return d_function(p);
    return err_set(p->l.e, "%s:%d: unknown declaration '%s'; expected 'struct', 'type', "
                           "'field', 'repok' or 'function'", p->l.fname, p->l.line, kw);
}

kspec *kspec_parse(const char *text, const char *fname, ctg_err *e)
{
    kparse p = {.l = {.fname = fname ? fname : "<finitisation>", .e = e}};
    kspec *k = p.k = ctg_calloc(1, sizeof *k);
    bool ok = k && (k->fin = korat_fin_new()) != NULL;
    if (!ok)
        err_set(e, "%s: out of memory", p.l.fname);
    for (const char *s = text; ok && *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        char *line = ctg_strndup(s, n);
        p.l.line++;
        if (!line) {
            ok = oom(&p);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = 0;
        p.l.s = line;
        ok = parse_line(&p);
        ctg_free(line);
        s += n + (nl != NULL);
    }
    if (ok && !k->repok)
        ok = err_set(e, "%s: no 'repok NAME(STRUCT *arg)' line: name the predicate", p.l.fname);
    for (size_t r = 0; k && k->fin && r < k->fin->n_roots; r++)
        ctg_free(p.root_names[r]);
    ctg_free(p.root_names);
    if (!ok) {
        kspec_free(k);
        return NULL;
    }
    return k;
}

kspec *kspec_load(const char *path, ctg_err *e)
{
    char *text;
    size_t len;
    if (!fs_read(path, &text, &len, e))
        return NULL;
    kspec *k = kspec_parse(text, path, e);
    ctg_free(text);
    return k;
}

void kspec_free(kspec *k)
{
    if (!k)
        return;
    for (size_t c = 0; k->fin && c < k->fin->n_classes; c++)
        ctg_free(k->ctype ? k->ctype[c] : NULL);
    ctg_free(k->ctype);
    for (size_t i = 0; i < k->n_fargs; i++)
        ctg_free(k->fargs[i].name);
    ctg_free(k->fargs);
    ctg_free(k->repok);
    ctg_free(k->function);
    korat_fin_free(k->fin);
    ctg_free(k);
}

bool kspec_default_function(kspec *k, const char *name)
{
    if (k->function)
        return true;
    if (!(k->function = ctg_strdup(name)))
        return false;
    k->fargs = ctg_calloc(k->fin->n_roots ? k->fin->n_roots : 1, sizeof *k->fargs);
    if (!k->fargs)
        return false;
    for (size_t r = 0; r < k->fin->n_roots; r++) {
        k->fargs[r].root = (int)r;
        if (!(k->fargs[r].name = ctg_strdup(k->fin->roots[r].name)))
            return false;
        k->n_fargs++;
    }
    return true;
}
