/*
 * driver_clang.c - reads a function's signature with libclang (the C API of
 * clang-14) into the model of driver.h: parameter kinds, the records and
 * enums they reach, array/length pairs, and the preamble that declares
 * everything a separate file needs to call the function.
 */
#include "driver.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "libclang.h"
#include "../runtime/rt_protocol.h"

typedef struct range {
    unsigned start, end;
} range;

typedef struct pctx {
    drv_sig *s;
    const char *func;
    CXCursor fn;
    bool found, found_def, has_main;
    CXCursor *rec_decl, *en_decl; /* parallel to s->rec / s->en */
    range *marks;                 /* declarations to copy (main-file offsets) */
    size_t n_marks, cap_marks;
    bool oom;
} pctx;

/* libclang's functions (libclang.h), set by drv_parse before any use */
static const ctg_libclang *LC;

/* ==== small helpers ==================================================== */

/* A libclang string as our own copy (ctg_free); "" when empty. */
static char *take(CXString x)
{
    const char *c = LC->clang_getCString(x);
    char *r = ctg_strdup(c ? c : "");
    LC->clang_disposeString(x);
    return r;
}

char *drv_unqualify(const char *spell)
{
    sbuf b = SBUF_INIT;
    const char *p = spell;
    while (*p) {
        bool word_start = p == spell || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
        size_t k = 0;
        if (word_start && (!strncmp(p, "const", 5) || !strncmp(p, "volatile", 8) ||
                           !strncmp(p, "restrict", 8)))
            k = p[0] == 'c' ? 5 : 8;
        if (k && !(isalnum((unsigned char)p[k]) || p[k] == '_')) {
            p += k;
            while (*p == ' ')
                p++;
            continue;
        }
        sbuf_putc(&b, *p++);
    }
    while (b.len && b.data[b.len - 1] == ' ')
        b.data[--b.len] = 0;
    return sbuf_take(&b);
}

/* Offsets of a cursor's extent in the main file; false when elsewhere. */
static bool main_range(CXCursor c, range *r)
{
    CXSourceLocation loc = LC->clang_getCursorLocation(c);
    if (!LC->clang_Location_isFromMainFile(loc))
        return false;
    CXSourceRange ex = LC->clang_getCursorExtent(c);
    LC->clang_getSpellingLocation(LC->clang_getRangeStart(ex), NULL, NULL, NULL, &r->start);
    LC->clang_getSpellingLocation(LC->clang_getRangeEnd(ex), NULL, NULL, NULL, &r->end);
    return r->end > r->start;
}

/* Remembers a declaration of the main file to copy into the preamble. */
static void mark(pctx *p, CXCursor decl)
{
    range r;
    if (LC->clang_Cursor_isNull(decl) || !main_range(decl, &r))
        return;
    for (size_t i = 0; i < p->n_marks; i++)
        if (p->marks[i].start == r.start && p->marks[i].end == r.end)
            return;
    if (ctg_grow((void **)&p->marks, &p->cap_marks, p->n_marks + 1, sizeof *p->marks) < 0) {
        p->oom = true;
        return;
    }
    p->marks[p->n_marks++] = r;
}

/* Marks the typedefs a type is spelled with, down to its canonical type. */
static CXType strip_sugar(pctx *p, CXType t)
{
    for (int guard = 0; guard < 64; guard++) {
        if (t.kind == CXType_Typedef) {
            CXCursor d = LC->clang_getTypeDeclaration(t);
            mark(p, d);
            t = LC->clang_getTypedefDeclUnderlyingType(d);
        } else if (t.kind == CXType_Elaborated) {
            t = LC->clang_Type_getNamedType(t);
        } else {
            break;
        }
    }
    return t;
}

/* enum ctg_type of a canonical scalar type; -1 if not a scalar we read. */
static int scalar_vt(enum CXTypeKind k)
{
    switch (k) {
    case CXType_Bool: return CTG_T_BOOL;
    case CXType_Char_S: case CXType_SChar: return CTG_T_CHAR;
    case CXType_Char_U: case CXType_UChar: return CTG_T_UCHAR;
    case CXType_Short: return CTG_T_SHORT;
    case CXType_UShort: return CTG_T_USHORT;
    case CXType_Int: return CTG_T_INT;
    case CXType_UInt: return CTG_T_UINT;
    case CXType_Long: return CTG_T_LONG;
    case CXType_ULong: return CTG_T_ULONG;
    case CXType_LongLong: return CTG_T_LONGLONG;
    case CXType_ULongLong: return CTG_T_ULONGLONG;
    case CXType_Float: return CTG_T_FLOAT;
    case CXType_Double: case CXType_LongDouble: return CTG_T_DOUBLE;
    default: return -1;
    }
}

static bool is_char_vt(int vt) { return vt == CTG_T_CHAR || vt == CTG_T_UCHAR; }

/* ==== records and enums ================================================ */

static void classify(pctx *p, CXType t, drv_type *out);

/* Child visitor collecting enumerator values. */
static enum CXChildVisitResult enum_const(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    drv_enum *en = data;
    if (LC->clang_getCursorKind(c) != CXCursor_EnumConstantDecl)
        return CXChildVisit_Continue;
    int64_t *v = ctg_realloc(en->vals, (size_t)(en->n + 1) * sizeof *v);
    if (v) {
        en->vals = v;
        en->vals[en->n++] = LC->clang_getEnumConstantDeclValue(c);
    }
    return CXChildVisit_Continue;
}

/* Index of an enum in s->en, added (with its constants) when new. */
static int enum_index(pctx *p, CXType canon, const char *spell)
{
    CXCursor d = LC->clang_getTypeDeclaration(canon);
    drv_sig *s = p->s;
    for (int i = 0; i < s->n_en; i++)
        if (LC->clang_equalCursors(p->en_decl[i], d))
            return i;
    drv_enum *ne = ctg_realloc(s->en, (size_t)(s->n_en + 1) * sizeof *ne);
    CXCursor *nd = ne ? ctg_realloc(p->en_decl, (size_t)(s->n_en + 1) * sizeof *nd) : NULL;
    if (ne)
        s->en = ne;
    if (!nd) {
        p->oom = true;
        return -1;
    }
    p->en_decl = nd;
    int k = s->n_en++;
    memset(&s->en[k], 0, sizeof s->en[k]);
    s->en[k].spell = drv_unqualify(spell);
    p->en_decl[k] = d;
    mark(p, d);
    LC->clang_visitChildren(d, enum_const, &s->en[k]);
    if (s->en[k].n == 0) { /* no enumerators: read as 0 */
        s->en[k].vals = ctg_calloc(1, sizeof *s->en[k].vals);
        s->en[k].n = 1;
        p->oom |= !s->en[k].vals;
    }
    return k;
}

/* Collected field cursors of one record. */
typedef struct field_list {
    CXCursor *c;
    size_t n, cap;
} field_list;

static enum CXVisitorResult field_visit(CXCursor c, CXClientData data)
{
    field_list *l = data;
    if (ctg_grow((void **)&l->c, &l->cap, l->n + 1, sizeof *l->c) == 0)
        l->c[l->n++] = c;
    return CXVisit_Continue;
}

/* Index of a struct in s->rec; new records get their fields classified
 * (after being added, so recursive structs terminate). */
static int record_index(pctx *p, CXType canon, const char *spell)
{
    CXCursor d = LC->clang_getTypeDeclaration(canon);
    drv_sig *s = p->s;
    char *sp = drv_unqualify(spell);
    for (int i = 0; i < s->n_rec; i++)
        if (LC->clang_equalCursors(p->rec_decl[i], d)) {
            if (sp && strchr(s->rec[i].spell, '(') && !strchr(sp, '(')) {
                ctg_free(s->rec[i].spell); /* a usable name for an anonymous struct */
                s->rec[i].spell = sp;
                sp = NULL;
            }
            ctg_free(sp);
            return i;
        }
    drv_record *nr = ctg_realloc(s->rec, (size_t)(s->n_rec + 1) * sizeof *nr);
    CXCursor *nd = nr ? ctg_realloc(p->rec_decl, (size_t)(s->n_rec + 1) * sizeof *nd) : NULL;
    if (nr)
        s->rec = nr;
    if (!nd || !sp) {
        ctg_free(sp);
        p->oom = true;
        return -1;
    }
    p->rec_decl = nd;
    int k = s->n_rec++;
    memset(&s->rec[k], 0, sizeof s->rec[k]);
    s->rec[k].spell = sp;
    p->rec_decl[k] = d;
    mark(p, d);
    field_list fl = {0};
    LC->clang_Type_visitFields(canon, field_visit, &fl);
    drv_field *f = ctg_calloc(fl.n + 1, sizeof *f);
    if (!f)
        p->oom = true;
    for (size_t i = 0; f && i < fl.n; i++) {
        f[i].name = take(LC->clang_getCursorSpelling(fl.c[i]));
        classify(p, LC->clang_getCursorType(fl.c[i]), &f[i].t);
    }
    s->rec[k].f = f;
    s->rec[k].n = f ? (int)fl.n : 0;
    ctg_free(fl.c);
    return k;
}

/* True for a complete struct (not a union, not opaque). */
static bool is_struct(CXType canon)
{
    CXCursor d = LC->clang_getTypeDeclaration(canon);
    return LC->clang_getCursorKind(d) == CXCursor_StructDecl && LC->clang_Type_getSizeOf(canon) > 0;
}

/* ==== types ============================================================ */

/* Element kinds of pointers and arrays. */
static void classify_elem(pctx *p, CXType elem, drv_type *out)
{
    CXType e = strip_sugar(p, elem);
    CXType c = LC->clang_getCanonicalType(e);
    char *es = take(LC->clang_getTypeSpelling(elem));
    out->elem_spell = es ? drv_unqualify(es) : NULL;
    int vt = scalar_vt(c.kind);
    if (vt >= 0) {
        out->elem = DRV_SCALAR;
        out->vt = vt;
    } else if (c.kind == CXType_Enum) {
        out->elem = DRV_ENUM;
        out->vt = CTG_T_UCHAR;
        out->en = enum_index(p, c, es ? es : "int");
    } else if (c.kind == CXType_Record && is_struct(c)) {
        out->elem = DRV_STRUCT;
        out->rec = record_index(p, c, es ? es : "");
    } else {
        out->elem = DRV_NULL;
    }
    ctg_free(es);
}

/* Fills out from a parameter's or field's type. */
static void classify(pctx *p, CXType t, drv_type *out)
{
    memset(out, 0, sizeof *out);
    out->rec = out->en = -1;
    out->kind = DRV_NULL;
    out->spell = take(LC->clang_getTypeSpelling(t));
    CXType st = strip_sugar(p, t);
    CXType c = LC->clang_getCanonicalType(st);
    int vt = scalar_vt(c.kind);
    out->is_ptr = c.kind == CXType_Pointer || c.kind == CXType_IncompleteArray;
    if (vt >= 0) {
        out->kind = DRV_SCALAR;
        out->vt = vt;
    } else if (c.kind == CXType_Enum) {
        out->kind = DRV_ENUM;
        out->vt = CTG_T_UCHAR;
        out->en = enum_index(p, c, out->spell ? out->spell : "int");
    } else if (c.kind == CXType_Record && is_struct(c)) {
        out->kind = DRV_STRUCT;
        out->elem_spell = drv_unqualify(out->spell ? out->spell : "");
        out->rec = record_index(p, c, out->spell ? out->spell : "");
    } else if (c.kind == CXType_Pointer || c.kind == CXType_IncompleteArray) {
        CXType pt = c.kind == CXType_Pointer ? LC->clang_getPointeeType(st)
                                             : LC->clang_getArrayElementType(st);
        classify_elem(p, pt, out);
        bool is_const = LC->clang_isConstQualifiedType(pt) != 0;
        if (out->elem == DRV_SCALAR && is_char_vt(out->vt)) {
            out->kind = DRV_STRING;
            out->out = !is_const;
        } else if (out->elem == DRV_SCALAR || out->elem == DRV_ENUM) {
            out->kind = DRV_PTR;
        } else if (out->elem == DRV_STRUCT) {
            out->kind = DRV_STRUCT_PTR;
        }
        if (c.kind == CXType_IncompleteArray) { /* as a parameter: a pointer */
            ctg_free(out->spell);
            sbuf b = SBUF_INIT;
            sbuf_printf(&b, "%s *", out->elem_spell ? out->elem_spell : "void");
            out->spell = sbuf_take(&b);
        }
    } else if (c.kind == CXType_ConstantArray) {
        classify_elem(p, LC->clang_getArrayElementType(st), out);
        long long n = LC->clang_getArraySize(c);
        if (out->elem != DRV_NULL && n > 0 && n <= 4096) {
            out->kind = DRV_FIXED;
            out->count = (uint32_t)n;
        }
    }
    if (!out->spell)
        p->oom = true;
}

/* ==== parameters ======================================================= */

/* Names a length parameter may have. */
static bool length_name(const char *n)
{
    static const char *const exact[] = {"n", "len", "length", "size", "count", "num", "cnt", "sz",
                                        "nelem", "nmemb", "nitems", "k", NULL};
    for (int i = 0; exact[i]; i++)
        if (!strcmp(n, exact[i]))
            return true;
    return strstr(n, "len") || strstr(n, "size") || strstr(n, "count") || strstr(n, "num") ||
           ((n[0] == 'n') && (n[1] == '_' || isupper((unsigned char)n[1])));
}

static bool integral_scalar(const drv_type *t)
{
    return t->kind == DRV_SCALAR && t->vt != CTG_T_BOOL && t->vt != CTG_T_FLOAT &&
           t->vt != CTG_T_DOUBLE && !is_char_vt(t->vt);
}

/* Pairs pointers with an adjacent length parameter: they become arrays. */
static void pair_arrays(drv_sig *s)
{
    for (int i = 0; i < s->n; i++) {
        drv_type *t = &s->p[i].t;
        if (t->kind != DRV_PTR && t->kind != DRV_STRING && t->kind != DRV_STRUCT_PTR)
            continue;
        for (int d = 1; d >= -1; d -= 2) {
            int j = i + d;
            if (j < 0 || j >= s->n || s->p[j].pair >= 0 || !integral_scalar(&s->p[j].t) ||
                !length_name(s->p[j].name))
                continue;
            t->kind = DRV_ARRAY;
            s->p[j].t.kind = DRV_LENGTH;
            s->p[i].pair = j;
            s->p[j].pair = i;
            break;
        }
    }
}

/* The function's parameters, named "argN" when unnamed. */
static bool read_params(pctx *p)
{
    drv_sig *s = p->s;
    int n = LC->clang_Cursor_getNumArguments(p->fn);
    s->p = ctg_calloc((size_t)(n > 0 ? n : 0) + 1, sizeof *s->p);
    if (!s->p)
        return false;
    for (int i = 0; i < n; i++) {
        CXCursor a = LC->clang_Cursor_getArgument(p->fn, (unsigned)i);
        char *nm = take(LC->clang_getCursorSpelling(a));
        if (nm && (!*nm || !strcmp(nm, s->func))) {
            ctg_free(nm);
            sbuf b = SBUF_INIT;
            sbuf_printf(&b, "arg%d", i);
            nm = sbuf_take(&b);
        }
        s->p[i].name = nm;
        s->p[i].pair = -1;
        s->n = i + 1;
        classify(p, LC->clang_getCursorType(a), &s->p[i].t);
        if (!nm)
            return false;
    }
    pair_arrays(s);
    return !p->oom;
}

/* How the result is observed by the regression tests. */
static void read_result(pctx *p)
{
    CXType t = LC->clang_getCursorResultType(p->fn);
    p->s->ret_spell = take(LC->clang_getTypeSpelling(t));
    CXType c = LC->clang_getCanonicalType(strip_sugar(p, t));
    int vt = scalar_vt(c.kind);
    drv_ret r = DRV_RET_NONE;
    if (vt == CTG_T_FLOAT || vt == CTG_T_DOUBLE)
        r = DRV_RET_FLOAT;
    else if (vt == CTG_T_BOOL || vt == CTG_T_UCHAR || vt == CTG_T_USHORT || vt == CTG_T_UINT ||
             vt == CTG_T_ULONG || vt == CTG_T_ULONGLONG)
        r = DRV_RET_UINT;
    else if (vt >= 0 || c.kind == CXType_Enum)
        r = DRV_RET_INT;
    else if (c.kind == CXType_Pointer)
        r = DRV_RET_PTR;
    p->s->ret = r;
}

/* ==== preamble ========================================================= */

/* Top-level visitor: the function, main, and what to copy. */
static enum CXChildVisitResult top_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    pctx *p = data;
    if (LC->clang_getCursorKind(c) != CXCursor_FunctionDecl)
        return CXChildVisit_Continue;
    char *nm = take(LC->clang_getCursorSpelling(c));
    bool def = LC->clang_isCursorDefinition(c) != 0;
    if (nm && !strcmp(nm, p->func) && (!p->found || (def && !p->found_def))) {
        p->fn = c;
        p->found = true;
        p->found_def = def;
    }
    if (nm && !strcmp(nm, "main") && def &&
        LC->clang_Location_isFromMainFile(LC->clang_getCursorLocation(c)))
        p->has_main = true;
    ctg_free(nm);
    return CXChildVisit_Continue;
}

/* Top-level declarations of the main file that contain a marked range. */
typedef struct copy_ctx {
    pctx *p;
    size_t len;
    range *r;
    size_t n, cap;
} copy_ctx;

static enum CXChildVisitResult copy_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    copy_ctx *k = data;
    range r;
    if (!main_range(c, &r) || r.end > k->len)
        return CXChildVisit_Continue;
    bool want = false;
    for (size_t i = 0; i < k->p->n_marks && !want; i++)
        want = k->p->marks[i].start >= r.start && k->p->marks[i].end <= r.end;
    if (want && ctg_grow((void **)&k->r, &k->cap, k->n + 1, sizeof *k->r) == 0)
        k->r[k->n++] = r;
    return CXChildVisit_Continue;
}

static int range_cmp(const void *a, const void *b)
{
    const range *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->end > y->end ? -1 : x->end < y->end; /* outer first */
}

/* Emits the collected declarations in source order, each once: a range
 * inside another (the struct of a typedef) goes with the outer one. */
static void emit_copies(copy_ctx *k, const char *text, sbuf *out)
{
    if (k->n)
        qsort(k->r, k->n, sizeof *k->r, range_cmp);
    unsigned last_end = 0;
    for (size_t i = 0; i < k->n; i++) {
        if (k->r[i].start < last_end)
            continue;
        sbuf_append(out, text + k->r[i].start, k->r[i].end - k->r[i].start);
        sbuf_puts(out, ";\n");
        last_end = k->r[i].end;
    }
}

/* #include lines and single-line #defines of the source, in order. */
static void copy_directives(const char *text, sbuf *out)
{
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        size_t n = e ? (size_t)(e - l) : strlen(l);
        const char *q = l;
        while (q < l + n && (*q == ' ' || *q == '\t'))
            q++;
        bool inc = !strncmp(q, "#include", 8) || !strncmp(q, "# include", 9);
        bool def = !strncmp(q, "#define", 7) && n > 0 && l[n - 1] != '\\';
        if (inc || def) {
            sbuf_append(out, l, n);
            sbuf_putc(out, '\n');
        }
        l = e ? e + 1 : l + n;
    }
}

/* The prototype: "int f(int a, const char *s)". */
static void prototype(const drv_sig *s, sbuf *out)
{
    sbuf_printf(out, "%s %s(", s->ret_spell, s->func);
    for (int i = 0; i < s->n; i++)
        sbuf_printf(out, "%s%s", i ? ", " : "", s->p[i].t.spell);
    sbuf_printf(out, "%s);\n", s->n ? "" : "void");
}

static bool build_preamble(pctx *p, CXTranslationUnit tu, ctg_err *e)
{
    char *text = NULL;
    size_t len = 0;
    if (!fs_read(p->s->source, &text, &len, e))
        return false;
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "/* from %s */\n", p->s->source);
    copy_directives(text, &b);
    copy_ctx k = {.p = p, .len = len};
    LC->clang_visitChildren(LC->clang_getTranslationUnitCursor(tu), copy_visit, &k);
    emit_copies(&k, text, &b);
    ctg_free(k.r);
    prototype(p->s, &b);
    ctg_free(text);
    p->s->preamble = sbuf_take(&b);
    return p->s->preamble ? true : err_set(e, "%s: out of memory", p->s->source);
}

/* ==== public =========================================================== */

/* Checks the function found; fills e and returns false if unusable. */
static bool check_function(pctx *p, ctg_err *e)
{
    const char *src = p->s->source, *fn = p->func;
    if (!p->found)
        return err_set(e, "%s: no function '%s'; check the name given to --function", src, fn);
    if (!LC->clang_Location_isFromMainFile(LC->clang_getCursorLocation(p->fn)))
        return err_set(e, "%s: '%s' is only declared in a header; pass the file that defines it",
                       src, fn);
    if (LC->clang_Cursor_getStorageClass(p->fn) == CX_SC_Static)
        return err_set(e, "%s: '%s' is static, so a driver in another file cannot call it; "
                          "remove 'static' to test it",
                       src, fn);
    if (LC->clang_isFunctionTypeVariadic(LC->clang_getCursorType(p->fn)))
        return err_set(e, "%s: '%s' is variadic; write a harness with main() instead", src, fn);
    if (p->has_main)
        return err_set(e, "%s: defines main(); --function needs a file without main (or test "
                          "it through its main without --function)",
                       src);
    return true;
}

/* Fails when clang reports errors for the file. */
static bool check_diagnostics(CXTranslationUnit tu, const char *src, ctg_err *e)
{
    unsigned n = LC->clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = LC->clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = LC->clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Error) {
            char *m = take(LC->clang_formatDiagnostic(d, LC->clang_defaultDiagnosticDisplayOptions()));
            LC->clang_disposeDiagnostic(d);
            err_set(e, "%s: does not parse: %s", src, m ? m : "error");
            ctg_free(m);
            return false;
        }
        LC->clang_disposeDiagnostic(d);
    }
    return true;
}

drv_sig *drv_parse(const char *source, const char *func, const char *const *cflags, int n_cflags,
                   int depth, ctg_err *e)
{
    if (!(LC = libclang_load(e)))
        return NULL;
    drv_sig *s = ctg_calloc(1, sizeof *s);
    pctx p = {.s = s, .func = func};
    if (!s || !(s->func = ctg_strdup(func)) || !(s->source = fs_realpath(source, e))) {
        if (!err_is_set(e))
            err_set(e, "%s: out of memory", source);
        drv_free(s);
        return NULL;
    }
    s->depth = depth;
    CXIndex idx = LC->clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    /* whole bodies, so a file that does not compile is reported here */
    enum CXErrorCode ec = LC->clang_parseTranslationUnit2(idx, s->source, cflags, n_cflags, NULL, 0,
                                                      CXTranslationUnit_None, &tu);
    bool ok = ec == CXError_Success && tu;
    if (!ok)
        err_set(e, "%s: libclang could not parse the file (error %d)", source, (int)ec);
    ok = ok && check_diagnostics(tu, source, e);
    if (ok) {
        LC->clang_visitChildren(LC->clang_getTranslationUnitCursor(tu), top_visit, &p);
        ok = check_function(&p, e);
    }
    if (ok) {
        read_result(&p);
        ok = read_params(&p) && s->ret_spell;
        if (!ok)
            err_set(e, "%s: out of memory", source);
    }
    ok = ok && build_preamble(&p, tu, e);
    if (tu)
        LC->clang_disposeTranslationUnit(tu);
    LC->clang_disposeIndex(idx);
    ctg_free(p.rec_decl);
    ctg_free(p.en_decl);
    ctg_free(p.marks);
    if (!ok) {
        drv_free(s);
        return NULL;
    }
    return s;
}

static void type_release(drv_type *t)
{
    ctg_free(t->spell);
    ctg_free(t->elem_spell);
}

void drv_free(drv_sig *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n; i++) {
        ctg_free(s->p[i].name);
        type_release(&s->p[i].t);
    }
    for (int i = 0; i < s->n_rec; i++) {
        for (int k = 0; k < s->rec[i].n; k++) {
            ctg_free(s->rec[i].f[k].name);
            type_release(&s->rec[i].f[k].t);
        }
        ctg_free(s->rec[i].f);
        ctg_free(s->rec[i].spell);
    }
    for (int i = 0; i < s->n_en; i++) {
        ctg_free(s->en[i].spell);
        ctg_free(s->en[i].vals);
    }
    ctg_free(s->p);
    ctg_free(s->rec);
    ctg_free(s->en);
    ctg_free(s->func);
    ctg_free(s->source);
    ctg_free(s->ret_spell);
    ctg_free(s->preamble);
    ctg_free(s);
}
