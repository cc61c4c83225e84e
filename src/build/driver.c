/*
 * driver.c - writes the Test-Comp driver of a function (see driver.h for
 * how each kind of argument is read): nondet declarations, the copied
 * preamble, helpers per struct type (ctg_fill_N fills one, ctg_new_N
 * allocates one or returns NULL) and main().
 *
 * Allocations are not checked: under ctestgen the runtime ends a run whose
 * allocation fails (CTG_ST_OOM), and a check would be a branch no test can
 * cover, keeping every search from finishing early.
 */
#include "driver.h"

#include <stdio.h>
#include <string.h>

#include "../base/fsutil.h"
#include "build_cache.h"
#include "../base/mem.h"
#include "../runtime/rt_protocol.h"

/* Suffix of __VERIFIER_nondet_<suffix> for a value type. */
static const char *nondet(int vt)
{
    switch (vt) {
    case CTG_T_BOOL: return "bool";
    case CTG_T_CHAR: return "char";
    case CTG_T_UCHAR: return "uchar";
    case CTG_T_SHORT: return "short";
    case CTG_T_USHORT: return "ushort";
    case CTG_T_INT: return "int";
    case CTG_T_UINT: return "uint";
    case CTG_T_LONG: return "long";
    case CTG_T_ULONG: return "ulong";
    case CTG_T_LONGLONG: return "longlong";
    case CTG_T_ULONGLONG: return "ulonglong";
    case CTG_T_FLOAT: return "float";
    default: return "double";
    }
}

/* Writes `ind` levels of indentation. */
static void indent(sbuf *b, int ind)
{
    for (int i = 0; i < ind; i++)
        sbuf_puts(b, "    ");
}

/* What the emitters need: the signature and which struct helpers are used.
 * Depth is unrolled at generation time: ctg_fill_R_D fills struct R at
 * depth D, ctg_new_R_D allocates one (or returns NULL); at the depth limit
 * the pointer is NULL without a helper, so the driver has no branch a test
 * cannot take. */
typedef struct ectx {
    const drv_sig *s;
    uint8_t *fill, *nw; /* [rec * (depth + 1) + d]: 1 used, 2 emitted */
} ectx;

static int slot(const ectx *x, int rec, int d) { return rec * (x->s->depth + 1) + d; }

/* One element (arrays, pointers, fixed arrays) into lvalue lv. */
static void read_elem(sbuf *b, ectx *x, const drv_type *t, const char *lv, int ind, int depth)
{
    const drv_sig *s = x->s;
    indent(b, ind);
    if (t->elem == DRV_SCALAR) {
        sbuf_printf(b, "%s = __VERIFIER_nondet_%s();\n", lv, nondet(t->vt));
    } else if (t->elem == DRV_ENUM) {
        sbuf_printf(b, "%s = (%s)ctg_enum_%d[__VERIFIER_nondet_uchar() %% %d];\n", lv,
                    s->en[t->en].spell, t->en, s->en[t->en].n);
    } else if (t->elem == DRV_STRUCT) {
        x->fill[slot(x, t->rec, depth)] |= 1;
        sbuf_printf(b, "ctg_fill_%d_%d(&%s);\n", t->rec, depth, lv);
    } else {
        sbuf_puts(b, ";\n");
    }
}

/* The expression of a new struct R pointer at depth d ("NULL" at the limit). */
static void new_expr(ectx *x, int rec, int d, char *out, size_t cap)
{
    if (d >= x->s->depth) {
        snprintf(out, cap, "NULL");
        return;
    }
    x->nw[slot(x, rec, d)] |= 1;
    snprintf(out, cap, "ctg_new_%d_%d()", rec, d);
}

/* A struct field at `depth`: reads its value into lv (fields start zeroed). */
static void read_field(sbuf *b, ectx *x, const drv_type *t, const char *lv, int ind, int depth)
{
    char expr[64];
    switch (t->kind) {
    case DRV_SCALAR:
    case DRV_ENUM: {
        drv_type e = *t;
        e.elem = t->kind;
        read_elem(b, x, &e, lv, ind, depth);
        break;
    }
    case DRV_STRING:
        indent(b, ind);
        sbuf_printf(b, "%s = (void *)ctg_new_string();\n", lv);
        break;
    case DRV_PTR:
        indent(b, ind);
        sbuf_printf(b, "{\n");
        indent(b, ind + 1);
        sbuf_printf(b, "%s *ctg_p = malloc(sizeof *ctg_p);\n", t->elem_spell);
        read_elem(b, x, t, "*ctg_p", ind + 1, depth);
        indent(b, ind + 1);
        sbuf_printf(b, "%s = ctg_p;\n", lv);
        indent(b, ind);
        sbuf_printf(b, "}\n");
        break;
    case DRV_STRUCT_PTR:
        new_expr(x, t->rec, depth + 1, expr, sizeof expr);
        if (strcmp(expr, "NULL")) { /* fields start NULL */
            indent(b, ind);
            sbuf_printf(b, "%s = %s;\n", lv, expr);
        }
        break;
    case DRV_STRUCT: {
        drv_type e = *t;
        e.elem = DRV_STRUCT;
        read_elem(b, x, &e, lv, ind, depth);
        break;
    }
    case DRV_FIXED:
        if (t->elem == DRV_SCALAR && (t->vt == CTG_T_CHAR || t->vt == CTG_T_UCHAR)) {
            uint32_t max = t->count - 1 < DRV_STR_MAX ? t->count - 1 : DRV_STR_MAX;
            indent(b, ind);
            sbuf_printf(b, "ctg_read_chars((char *)%s, %u);\n", lv, max);
        } else {
            char elv[300];
            snprintf(elv, sizeof elv, "%s[ctg_i%d]", lv, ind);
            indent(b, ind);
            sbuf_printf(b, "for (size_t ctg_i%d = 0; ctg_i%d < %u; ctg_i%d++)\n", ind, ind,
                        t->count, ind);
            read_elem(b, x, t, elv, ind + 1, depth);
        }
        break;
    default:
        break;
    }
}

/* Declarations every driver starts with. */
static void emit_head(const drv_sig *s, sbuf *b)
{
    sbuf_printf(b, "/*\n * Test-Comp driver of %s() generated by ctestgen --function %s.\n"
                   " * Every argument is read with __VERIFIER_nondet_*; see src/build/driver.h\n"
                   " * of ctestgen for the rules.  Struct pointers are filled up to depth %d.\n"
                   " */\n",
                s->func, s->func, s->depth);
    sbuf_puts(b, "#include <stddef.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    static const int vts[] = {CTG_T_BOOL,  CTG_T_CHAR,     CTG_T_UCHAR,     CTG_T_SHORT,
                              CTG_T_USHORT, CTG_T_INT,     CTG_T_UINT,      CTG_T_LONG,
                              CTG_T_ULONG, CTG_T_LONGLONG, CTG_T_ULONGLONG, CTG_T_FLOAT,
                              CTG_T_DOUBLE};
    static const char *const ctype[] = {"_Bool", "char", "unsigned char", "short",
                                        "unsigned short", "int", "unsigned int", "long",
                                        "unsigned long", "long long", "unsigned long long",
                                        "float", "double"};
    for (size_t i = 0; i < sizeof vts / sizeof *vts; i++)
        sbuf_printf(b, "extern %s __VERIFIER_nondet_%s(void);\n", ctype[i], nondet(vts[i]));
    sbuf_printf(b, "\n%s\n", s->preamble);
}

/* Enum tables and the string readers. */
static void emit_helpers(const drv_sig *s, sbuf *b)
{
    for (int i = 0; i < s->n_en; i++) {
        sbuf_printf(b, "static const long long ctg_enum_%d[] = {", i);
        for (int k = 0; k < s->en[i].n; k++)
            sbuf_printf(b, "%s%lldLL", k ? ", " : "", (long long)s->en[i].vals[k]);
        sbuf_puts(b, "};\n");
    }
    sbuf_printf(b,
                "\n/* Up to max chars, ending at the first NUL; buf[max] must exist. */\n"
                "__attribute__((unused)) static void ctg_read_chars(char *buf, size_t max)\n{\n"
                "    size_t n = 0;\n    while (n < max) {\n"
                "        char c = __VERIFIER_nondet_char();\n        if (!c)\n            break;\n"
                "        buf[n++] = c;\n    }\n    buf[n] = 0;\n}\n\n"
                "__attribute__((unused)) static char *ctg_new_string(void)\n{\n"
                "    char *s = calloc(%d, 1);\n"
                "    ctg_read_chars(s, %d);\n    return s;\n}\n",
                DRV_STR_BUF, DRV_STR_MAX);
}

/* Emits every struct helper marked as used (they may mark more) into b;
 * prototypes of all of them go to protos. */
static void emit_struct_helpers(ectx *x, sbuf *protos, sbuf *b)
{
    const drv_sig *s = x->s;
    int n = s->n_rec * (s->depth + 1);
    for (bool more = true; more;) {
        more = false;
        for (int i = 0; i < n; i++) {
            int r = i / (s->depth + 1), d = i % (s->depth + 1);
            const drv_record *rec = &s->rec[r];
            if (x->nw[i] == 1) {
                x->nw[i] = 2;
                x->fill[i] |= 1;
                more = true;
                sbuf_printf(protos, "static %s *ctg_new_%d_%d(void);\n", rec->spell, r, d);
                sbuf_printf(b, "\nstatic %s *ctg_new_%d_%d(void)\n{\n"
                               "    if (__VERIFIER_nondet_uchar() %% 4 == 0)\n        return NULL;\n"
                               "    %s *p = calloc(1, sizeof *p);\n"
                               "    ctg_fill_%d_%d(p);\n    return p;\n}\n",
                            rec->spell, r, d, rec->spell, r, d);
            }
            if (x->fill[i] == 1) {
                x->fill[i] = 2;
                more = true;
                sbuf_printf(protos, "static void ctg_fill_%d_%d(%s *p);\n", r, d, rec->spell);
                sbuf_printf(b, "\nstatic void ctg_fill_%d_%d(%s *p)\n{\n", r, d, rec->spell);
                for (int k = 0; k < rec->n; k++) {
                    if (!rec->f[k].name[0])
                        continue;
                    char lv[256];
                    snprintf(lv, sizeof lv, "p->%s", rec->f[k].name);
                    read_field(b, x, &rec->f[k].t, lv, 1, d);
                }
                sbuf_printf(b, "    (void)p;\n}\n");
            }
        }
    }
}

/* Declares and reads parameter i in main(). */
static void emit_param(ectx *x, int i, sbuf *b)
{
    const drv_sig *s = x->s;
    const drv_param *p = &s->p[i];
    const drv_type *t = &p->t;
    const char *n = p->name;
    char lv[256];
    switch (t->kind) {
    case DRV_SCALAR:
    case DRV_ENUM: {
        char *u = drv_unqualify(t->spell);
        sbuf_printf(b, "    %s %s;\n", u ? u : t->spell, n);
        ctg_free(u);
        read_field(b, x, t, n, 1, 0);
        break;
    }
    case DRV_STRING:
        sbuf_printf(b, "    static char %s[%d];\n    ctg_read_chars(%s, %d);\n", n, DRV_STR_BUF, n,
                    DRV_STR_MAX);
        break;
    case DRV_ARRAY:
        sbuf_printf(b, "    size_t %s_len = (size_t)(__VERIFIER_nondet_uchar() %% %d);\n", n,
                    DRV_ARR_MAX + 1);
        sbuf_printf(b, "    static %s %s[%d];\n", t->elem_spell, n, DRV_ARR_MAX + 1);
        sbuf_printf(b, "    for (size_t ctg_i = 0; ctg_i < %s_len; ctg_i++)\n", n);
        snprintf(lv, sizeof lv, "%s[ctg_i]", n);
        read_elem(b, x, t, lv, 2, 0);
        break;
    case DRV_PTR:
        sbuf_printf(b, "    %s %s_v;\n", t->elem_spell, n);
        snprintf(lv, sizeof lv, "%s_v", n);
        read_elem(b, x, t, lv, 1, 0);
        break;
    case DRV_STRUCT_PTR:
        new_expr(x, t->rec, 0, lv, sizeof lv);
        sbuf_printf(b, "    %s %s = %s;\n", t->spell, n, lv);
        break;
    case DRV_STRUCT: {
        sbuf_printf(b, "    %s %s;\n    memset(&%s, 0, sizeof %s);\n", t->elem_spell, n, n, n);
        drv_type e = *t;
        e.elem = DRV_STRUCT;
        read_elem(b, x, &e, n, 1, 0);
        break;
    }
    case DRV_NULL: /* pointers are passed as 0 directly */
        if (!t->is_ptr)
            sbuf_printf(b, "    %s %s;\n    memset(&%s, 0, sizeof %s);\n", t->spell, n, n, n);
        break;
    default: /* DRV_LENGTH: passes its array's length */
        break;
    }
}

/* The argument expression of parameter i in the call. */
static void emit_arg(const drv_sig *s, int i, sbuf *b)
{
    const drv_param *p = &s->p[i];
    switch (p->t.kind) {
    case DRV_STRING:
    case DRV_ARRAY:
        sbuf_printf(b, "(%s)%s", p->t.spell, p->name);
        break;
    case DRV_PTR:
        sbuf_printf(b, "&%s_v", p->name);
        break;
    case DRV_LENGTH:
        sbuf_printf(b, "(%s)%s_len", p->t.spell, s->p[p->pair].name);
        break;
    case DRV_NULL:
        sbuf_puts(b, p->t.is_ptr ? "0" : p->name);
        break;
    default:
        sbuf_puts(b, p->name);
        break;
    }
}

void drv_emit_driver(const drv_sig *s, sbuf *b)
{
    size_t n = (size_t)s->n_rec * (size_t)(s->depth + 1) + 1;
    ectx x = {s, ctg_calloc(n, 1), ctg_calloc(n, 1)};
    if (!x.fill || !x.nw) {
        b->oom = true;
        ctg_free(x.fill);
        ctg_free(x.nw);
        return;
    }
    sbuf body = SBUF_INIT, protos = SBUF_INIT, helpers = SBUF_INIT;
    sbuf_puts(&body, "\nint main(void)\n{\n");
    for (int i = 0; i < s->n; i++)
        emit_param(&x, i, &body);
    sbuf_printf(&body, "    %s%s(", s->ret == DRV_RET_NONE ? "" : "(void)", s->func);
    for (int i = 0; i < s->n; i++) {
        if (i)
            sbuf_puts(&body, ", ");
        emit_arg(s, i, &body);
    }
    sbuf_puts(&body, ");\n    return 0;\n}\n");
    emit_struct_helpers(&x, &protos, &helpers);
    emit_head(s, b);
    emit_helpers(s, b);
    if (protos.len)
        sbuf_printf(b, "\n%s", sbuf_str(&protos));
    sbuf_puts(b, sbuf_str(&helpers));
    sbuf_puts(b, sbuf_str(&body));
    b->oom |= !sbuf_ok(&body) || !sbuf_ok(&protos) || !sbuf_ok(&helpers);
    sbuf_release(&body);
    sbuf_release(&protos);
    sbuf_release(&helpers);
    ctg_free(x.fill);
    ctg_free(x.nw);
}

bool drv_write_driver(const drv_sig *s, const char *path, ctg_err *e)
{
    sbuf b = SBUF_INIT;
    drv_emit_driver(s, &b);
    if (!sbuf_ok(&b)) {
        sbuf_release(&b);
        return err_set(e, "%s: out of memory while writing the driver", path);
    }
    bool ok = fs_write_atomic(path, b.data, b.len, e);
    sbuf_release(&b);
    return ok;
}

char *drv_write_cached(const drv_sig *s, const char *cache_dir, ctg_err *e)
{
    build_opts bo = {.cache_dir = cache_dir};
    char *root = bcache_root(&bo, e);
    sbuf text = SBUF_INIT, rel = SBUF_INIT;
    drv_emit_driver(s, &text);
    char *path = NULL, *dir = NULL;
    if (root && sbuf_ok(&text)) {
        char hex[BCACHE_HEX];
        bcache_sha256(text.data, text.len, hex);
        hex[24] = 0;
        sbuf_printf(&rel, "drivers/%s", hex);
        dir = fs_join(root, sbuf_str(&rel));
        sbuf_reset(&rel);
        sbuf_printf(&rel, "driver_%s.c", s->func);
        path = dir ? fs_join(dir, sbuf_str(&rel)) : NULL;
        if (!dir || !path || !sbuf_ok(&rel))
            err_set(e, "%s: out of memory while writing the driver", s->source);
        else if (!fs_mkdir_p(dir, e) || !fs_write_atomic(path, text.data, text.len, e)) {
            ctg_free(path);
            path = NULL;
        }
    } else if (root) {
        err_set(e, "%s: out of memory while writing the driver", s->source);
    }
    if (!path && !err_is_set(e))
        err_set(e, "%s: cannot write the driver", s->source);
    ctg_free(root);
    ctg_free(dir);
    sbuf_release(&text);
    sbuf_release(&rel);
    return path;
}
