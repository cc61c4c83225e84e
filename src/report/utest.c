/*
 * utest.c - writes out/tests_<function>.c (see utest.h): decodes every kept
 * test with the driver's rules into C statements, builds a probe that runs
 * one test per process and prints what it observed, then writes the tests
 * with those observations as assertions and checks that the file compiles
 * with -Wall -Werror and passes.
 */
#include "utest.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/proc.h"
#include "../base/sbuf.h"
#include "../suite/suite.h"
#include "../suite/test.h"
/* ctg_tmpl_*: the fixed C of the generated files, src/report/tmpl/ */
#include "tmpl/utest_check.h"
#include "tmpl/utest_probe.h"
#include "tmpl/utest_str.h"

/* ==== values =========================================================== */

/* Cursor over a test's values, read the way the driver reads them. */
typedef struct vcur {
    const test_t *t;
    size_t i;
    int arch;
} vcur;

/* The next value as `vt` (little-endian bits); 0 once the test ran out. */
static uint64_t next_bits(vcur *c, int vt)
{
    if (!c->t || c->i >= c->t->n_vals)
        return 0;
    const ctg_value_rec *r = &c->t->vals[c->i++];
    size_t w = ctg_type_size((enum ctg_type)vt, c->arch), have = test_value_size(c->t, c->i - 1);
    uint64_t x = 0;
    for (size_t k = 0; k < w && k < have && r->offset + k < c->t->len; k++)
        x |= (uint64_t)c->t->data[r->offset + k] << (8 * k);
    if (vt == CTG_T_BOOL)
        x &= 1;
    return x;
}

/* Sign-extended value of `bits` bits. */
static int64_t sext(uint64_t x, size_t bytes)
{
    if (bytes >= 8)
        return (int64_t)x;
    uint64_t sign = 1ull << (8 * bytes - 1);
    x &= (sign << 1) - 1;
    return (int64_t)((x ^ sign) - sign);
}

/* A C literal for a double (exact), NAN / INFINITY included. */
static void lit_double(sbuf *b, double d, bool is_float)
{
    if (isnan(d)) {
        sbuf_puts(b, "NAN");
        return;
    }
    if (isinf(d)) {
        sbuf_puts(b, d < 0 ? "-INFINITY" : "INFINITY");
        return;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%.17g", d);
    if (strtod(buf, NULL) != d || (d == 0 && signbit(d)))
        snprintf(buf, sizeof buf, "%a", d);
    else if (!strpbrk(buf, ".en"))
        strcat(buf, ".0");
    sbuf_printf(b, "%s%s", buf, is_float ? "F" : "");
}

/* A C literal of type vt for the value bits. */
static void lit_value(sbuf *b, int vt, uint64_t bits, int arch)
{
    size_t w = ctg_type_size((enum ctg_type)vt, arch);
    if (vt == CTG_T_FLOAT) {
        float f;
        uint32_t u = (uint32_t)bits;
        memcpy(&f, &u, 4);
        lit_double(b, f, true);
    } else if (vt == CTG_T_DOUBLE) {
        double d;
        memcpy(&d, &bits, 8);
        lit_double(b, d, false);
    } else if (vt == CTG_T_BOOL) {
        sbuf_puts(b, bits ? "1" : "0");
    } else if (ctg_type_is_signed((enum ctg_type)vt)) {
        int64_t v = sext(bits, w);
        if (v == INT64_MIN)
            sbuf_puts(b, "(-9223372036854775807LL - 1)");
        else if (v >= -2147483647 && v <= 2147483647)
            sbuf_printf(b, "%lld", (long long)v);
        else
            sbuf_printf(b, "%lldLL", (long long)v);
    } else {
        uint64_t v = w >= 8 ? bits : bits & ((1ull << (8 * w)) - 1);
        sbuf_printf(b, "%lluU%s", (unsigned long long)v, v > 0xffffffffull ? "LL" : "");
    }
}

/* Appends s[0..n) as a C string literal (octal escapes, never ambiguous). */
static void lit_string(sbuf *b, const char *s, size_t n)
{
    sbuf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\' || c == '?')
            sbuf_printf(b, "\\%c", c);
        else if (c >= 32 && c < 127)
            sbuf_putc(b, (char)c);
        else
            sbuf_printf(b, "\\%03o", c);
    }
    sbuf_putc(b, '"');
}

/* Reads a string of at most max chars (ends at NUL) into buf. */
static size_t read_chars(vcur *c, size_t max, char *buf)
{
    size_t n = 0;
    while (n < max) {
        char ch = (char)next_bits(c, CTG_T_CHAR);
        if (!ch)
            break;
        buf[n++] = ch;
    }
    buf[n] = 0;
    return n;
}

/* ==== decoding a test into statements =================================== */

typedef struct gen {
    const drv_sig *s;
    vcur c;
    sbuf *b;
    int tmp; /* counter of helper variables */
} gen;

static void fill_record(gen *g, int rec, const char *lv, bool ptr, int depth);

/* Reads a scalar or enum value (t->elem) and appends its literal. */
static void scalar_lit(gen *g, const drv_type *t, sbuf *b)
{
    if (t->elem == DRV_ENUM) {
        const drv_enum *en = &g->s->en[t->en];
        uint64_t u = next_bits(&g->c, CTG_T_UCHAR);
        sbuf_printf(b, "(%s)%lld", en->spell, (long long)en->vals[u % (uint64_t)en->n]);
    } else {
        lit_value(b, t->vt, next_bits(&g->c, t->vt), g->c.arch);
    }
}

/* One element of type t->elem (scalar, enum, struct) into lvalue lv. */
static void elem_stmt(gen *g, const drv_type *t, const char *lv, int depth)
{
    if (t->elem == DRV_SCALAR || t->elem == DRV_ENUM) {
        sbuf_printf(g->b, "    %s = ", lv);
        scalar_lit(g, t, g->b);
        sbuf_puts(g->b, ";\n");
    } else if (t->elem == DRV_STRUCT) {
        fill_record(g, t->rec, lv, false, depth);
    }
}

/* A struct pointer at `depth`: "NULL" or a new helper variable filled with
 * the next values.  Writes the expression to expr. */
static void struct_ptr(gen *g, int rec, int depth, char *expr, size_t cap)
{
    if (depth >= g->s->depth || next_bits(&g->c, CTG_T_UCHAR) % 4 == 0) {
        snprintf(expr, cap, "NULL");
        return;
    }
    int k = g->tmp++;
    snprintf(expr, cap, "ctg_%d", k);
    sbuf_printf(g->b, "    %s *ctg_%d = calloc(1, sizeof *ctg_%d);\n", g->s->rec[rec].spell, k, k);
    char lv[64];
    snprintf(lv, sizeof lv, "ctg_%d", k);
    fill_record(g, rec, lv, true, depth);
}

/* A field (or a by-value struct's field) of type t into lv. */
static void field_stmt(gen *g, const drv_type *t, const char *lv, int depth)
{
    char buf[DRV_STR_BUF], expr[64];
    switch (t->kind) {
    case DRV_SCALAR:
    case DRV_ENUM: {
        drv_type e = *t;
        e.elem = t->kind;
        elem_stmt(g, &e, lv, depth);
        break;
    }
    case DRV_STRING: {
        size_t n = read_chars(&g->c, DRV_STR_MAX, buf);
        sbuf_printf(g->b, "    %s = (void *)ctg_str(", lv);
        lit_string(g->b, buf, n);
        sbuf_puts(g->b, ");\n");
        break;
    }
    case DRV_PTR: {
        int k = g->tmp++;
        char elv[32];
        snprintf(elv, sizeof elv, "*ctg_%d", k);
        sbuf_printf(g->b, "    %s *ctg_%d = calloc(1, sizeof *ctg_%d);\n", t->elem_spell, k, k);
        elem_stmt(g, t, elv, depth);
        sbuf_printf(g->b, "    %s = ctg_%d;\n", lv, k);
        break;
    }
    case DRV_STRUCT_PTR:
        struct_ptr(g, t->rec, depth + 1, expr, sizeof expr);
        sbuf_printf(g->b, "    %s = %s;\n", lv, expr);
        break;
    case DRV_STRUCT:
        fill_record(g, t->rec, lv, false, depth);
        break;
    case DRV_FIXED:
        if (t->elem == DRV_SCALAR && (t->vt == CTG_T_CHAR || t->vt == CTG_T_UCHAR)) {
            size_t max = t->count - 1 < DRV_STR_MAX ? t->count - 1 : DRV_STR_MAX;
            size_t n = read_chars(&g->c, max, buf);
            if (n) {
                sbuf_printf(g->b, "    memcpy(%s, ", lv);
                lit_string(g->b, buf, n);
                sbuf_printf(g->b, ", %zu);\n", n);
            }
        } else {
            for (uint32_t i = 0; i < t->count; i++) {
                char elv[600];
                snprintf(elv, sizeof elv, "%s[%u]", lv, i);
                elem_stmt(g, t, elv, depth);
            }
        }
        break;
    default:
        break;
    }
}

/* The fields of a struct (lv is a pointer when ptr) in declaration order. */
static void fill_record(gen *g, int rec, const char *lv, bool ptr, int depth)
{
    const drv_record *r = &g->s->rec[rec];
    for (int k = 0; k < r->n; k++) {
        if (!r->f[k].name[0])
            continue;
        char flv[512];
        snprintf(flv, sizeof flv, "%s%s%s", lv, ptr ? "->" : ".", r->f[k].name);
        field_stmt(g, &r->f[k].t, flv, depth);
    }
}

/* Declares parameter i with the test's values. */
static void param_stmt(gen *g, int i)
{
    const drv_param *p = &g->s->p[i];
    const drv_type *t = &p->t;
    char buf[DRV_STR_BUF], expr[64];
    switch (t->kind) {
    case DRV_SCALAR:
    case DRV_ENUM: {
        drv_type e = *t;
        e.elem = t->kind;
        sbuf_printf(g->b, "    %s %s = ", t->spell, p->name);
        scalar_lit(g, &e, g->b);
        sbuf_puts(g->b, ";\n");
        break;
    }
    case DRV_STRING: {
        size_t n = read_chars(&g->c, DRV_STR_MAX, buf);
        sbuf_printf(g->b, "    char %s[%d] = ", p->name, DRV_STR_BUF);
        lit_string(g->b, buf, n);
        sbuf_puts(g->b, ";\n");
        break;
    }
    case DRV_ARRAY: {
        size_t len = next_bits(&g->c, CTG_T_UCHAR) % (DRV_ARR_MAX + 1);
        sbuf_printf(g->b, "    size_t %s_len = %zu;\n    %s %s[%d];\n", p->name, len,
                    t->elem_spell, p->name, DRV_ARR_MAX + 1);
        sbuf_printf(g->b, "    memset(%s, 0, sizeof %s);\n", p->name, p->name);
        for (size_t k = 0; k < len; k++) {
            char elv[600];
            snprintf(elv, sizeof elv, "%s[%zu]", p->name, k);
            elem_stmt(g, t, elv, 0);
        }
        break;
    }
    case DRV_PTR:
        sbuf_printf(g->b, "    %s %s_v = ", t->elem_spell, p->name);
        scalar_lit(g, t, g->b);
        sbuf_puts(g->b, ";\n");
        break;
    case DRV_STRUCT_PTR:
        struct_ptr(g, t->rec, 0, expr, sizeof expr);
        sbuf_printf(g->b, "    %s %s = %s;\n", t->spell, p->name, expr);
        break;
    case DRV_STRUCT:
        sbuf_printf(g->b, "    %s %s;\n    memset(&%s, 0, sizeof %s);\n", t->elem_spell, p->name,
                    p->name, p->name);
        fill_record(g, t->rec, p->name, false, 0);
        break;
    case DRV_NULL:
        if (!t->is_ptr)
            sbuf_printf(g->b, "    %s %s;\n    memset(&%s, 0, sizeof %s);\n", t->spell, p->name,
                        p->name, p->name);
        break;
    default:
        break;
    }
}

/* The call, with the result in ctg_ret when there is one to observe. */
static void call_stmt(gen *g)
{
    const drv_sig *s = g->s;
    if (s->ret != DRV_RET_NONE)
        sbuf_printf(g->b, "    %s ctg_ret = %s(", s->ret_spell, s->func);
    else
        sbuf_printf(g->b, "    %s%s(", strcmp(s->ret_spell, "void") ? "(void)" : "", s->func);
    for (int i = 0; i < s->n; i++) {
        const drv_param *p = &s->p[i];
        sbuf_puts(g->b, i ? ", " : "");
        switch (p->t.kind) {
        case DRV_STRING:
        case DRV_ARRAY: sbuf_printf(g->b, "(%s)%s", p->t.spell, p->name); break;
        case DRV_PTR: sbuf_printf(g->b, "&%s_v", p->name); break;
        case DRV_LENGTH:
            sbuf_printf(g->b, "(%s)%s_len", p->t.spell, s->p[p->pair].name);
            break;
        case DRV_NULL: sbuf_puts(g->b, p->t.is_ptr ? "0" : p->name); break;
        default: sbuf_puts(g->b, p->name); break;
        }
    }
    sbuf_puts(g->b, ");\n");
}

/* ==== observations ====================================================== */

typedef struct obs {
    char *ret;      /* "i -5", "u 3", "f 0x1p+0", "p 1", or NULL */
    char **out;     /* per parameter: hex of the buffer, or NULL */
    bool crashed;
    int status;     /* signal or exit code */
} obs;

/* Probe lines printing ctg_ret and the output buffers. */
static void probe_stmts(const drv_sig *s, sbuf *b)
{
    switch (s->ret) {
    case DRV_RET_INT: sbuf_puts(b, "    printf(\"ret i %lld\\n\", (long long)ctg_ret);\n"); break;
    case DRV_RET_UINT:
        sbuf_puts(b, "    printf(\"ret u %llu\\n\", (unsigned long long)ctg_ret);\n");
        break;
    case DRV_RET_FLOAT: sbuf_puts(b, "    printf(\"ret f %a\\n\", (double)ctg_ret);\n"); break;
    case DRV_RET_PTR: sbuf_puts(b, "    printf(\"ret p %d\\n\", ctg_ret != NULL);\n"); break;
    default: break;
    }
    for (int i = 0; i < s->n; i++)
        if (s->p[i].t.kind == DRV_STRING && s->p[i].t.out)
            sbuf_printf(b, "    ctg_hex(%d, (const char *)%s);\n", i, s->p[i].name);
}

/* Assertions for what the probe observed. */
static void check_stmts(const drv_sig *s, const obs *o, sbuf *b)
{
    if (o->ret) {
        char kind = o->ret[0];
        const char *v = o->ret + 2;
        if (kind == 'i')
            sbuf_printf(b, "    CTG_CHECK((long long)ctg_ret == %sLL);\n",
                        !strcmp(v, "-9223372036854775808") ? "(-9223372036854775807LL - 1)" : v);
        else if (kind == 'u')
            sbuf_printf(b, "    CTG_CHECK((unsigned long long)ctg_ret == %sULL);\n", v);
        else if (kind == 'p')
            sbuf_printf(b, "    CTG_CHECK(ctg_ret %s NULL);\n", v[0] == '1' ? "!=" : "==");
        else if (kind == 'f' && isnan(strtod(v, NULL)))
            sbuf_puts(b, "    CTG_CHECK(ctg_ret != ctg_ret); /* NaN */\n");
        else if (kind == 'f') {
            sbuf_puts(b, "    CTG_CHECK(ctg_ret == ");
            lit_double(b, strtod(v, NULL), false);
            sbuf_puts(b, ");\n");
        }
    }
    for (int i = 0; i < s->n && o->out; i++) {
        if (!o->out[i])
            continue;
        char txt[DRV_STR_BUF];
        size_t n = 0;
        for (const char *h = o->out[i]; h[0] && h[1] && n + 1 < sizeof txt; h += 2) {
            unsigned x;
            sscanf(h, "%2x", &x);
            txt[n++] = (char)x;
        }
        sbuf_printf(b, "    CTG_CHECK(memcmp(%s, ", s->p[i].name);
        lit_string(b, txt, n);
        sbuf_printf(b, ", %zu) == 0);\n", n + 1);
    }
}

/* ==== the files ========================================================= */

/* Everything before the tests. */
static void file_head(const drv_sig *s, bool probe, sbuf *b)
{
    sbuf_printf(b, "/*\n * Regression tests of %s() generated by ctestgen --function %s:\n"
                   " * each test calls it with the values of one kept test and checks what\n"
                   " * ctestgen observed.  Build with the program:\n"
                   " *     gcc -Wall -Werror tests_%s.c %s -lm && ./a.out\n"
                   " * Tests that crashed are compiled only with -DCTG_RUN_CRASHING.\n */\n",
                s->func, s->func, s->func, s->source);
    sbuf_puts(b, "#include <math.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n");
    sbuf_printf(b, "%s\n", s->preamble);
    sbuf_printf(b, "#define CTG_STR_BUF %d\n", DRV_STR_BUF);
    sbuf_puts(b, ctg_tmpl_utest_str);
    sbuf_puts(b, probe ? ctg_tmpl_utest_probe : ctg_tmpl_utest_check);
}

/* Decodes test k into the body of test_k (without observations). */
static char *test_body(const drv_sig *s, const test_t *t, int arch)
{
    sbuf b = SBUF_INIT;
    gen g = {s, {t, 0, arch}, &b, 0};
    for (int i = 0; i < s->n; i++)
        param_stmt(&g, i);
    call_stmt(&g);
    return sbuf_take(&b);
}

/* The probe program or the final file from the decoded bodies. */
static char *make_file(const utest_opts *o, char **names, char **bodies, const obs *ob, size_t n,
                       bool probe)
{
    sbuf b = SBUF_INIT;
    file_head(o->sig, probe, &b);
    for (size_t k = 0; k < n; k++) {
        if (!bodies[k])
            continue;
        bool crash = !probe && ob[k].crashed;
        if (crash)
            sbuf_printf(&b, "#ifdef CTG_RUN_CRASHING /* crashed when ctestgen ran it (%s %d) */\n",
                        ob[k].status > 0 ? "signal" : "exit", abs(ob[k].status));
        sbuf_printf(&b, "/* %s */\nstatic void test_%zu(void)\n{\n%s", names[k], k + 1, bodies[k]);
        if (probe)
            probe_stmts(o->sig, &b);
        else if (!crash)
            check_stmts(o->sig, &ob[k], &b);
        else if (o->sig->ret != DRV_RET_NONE)
            sbuf_puts(&b, "    (void)ctg_ret;\n");
        sbuf_puts(&b, "}\n");
        sbuf_puts(&b, crash ? "#endif\n\n" : "\n");
    }
    if (probe) {
        sbuf_puts(&b, "int main(int argc, char **argv)\n{\n    int k = argc > 1 ? atoi(argv[1]) : 0;\n"
                      "    setvbuf(stdout, NULL, _IONBF, 0);\n    switch (k) {\n");
        for (size_t k = 0; k < n; k++)
            if (bodies[k])
                sbuf_printf(&b, "    case %zu: test_%zu(); break;\n", k + 1, k + 1);
        sbuf_puts(&b, "    default: return 2;\n    }\n    return 0;\n}\n");
    } else {
        sbuf_puts(&b, "int main(void)\n{\n");
        for (size_t k = 0; k < n; k++) {
            if (!bodies[k])
                continue;
            if (ob[k].crashed)
                sbuf_printf(&b, "#ifdef CTG_RUN_CRASHING\n    ctg_run(test_%zu);\n#endif\n", k + 1);
            else
                sbuf_printf(&b, "    ctg_run(test_%zu);\n", k + 1);
        }
        sbuf_puts(&b, "    printf(\"%d passed, %d failed\\n\", ctg_passed, ctg_failed);\n"
                      "    return ctg_failed != 0;\n}\n");
    }
    return sbuf_take(&b);
}

/* ==== probe and verification ============================================ */

/* Runs a compiler: argv = cc, flags..., -o out, files..., sources..., -lm. */
static bool compile(const utest_opts *o, const char *file, const char *exe, bool strict,
                    sbuf *diag, ctg_err *e)
{
    const char **argv = ctg_calloc((size_t)(o->n_cflags + o->n_sources) + 16, sizeof *argv);
    if (!argv)
        return err_set(e, "%s: out of memory", o->out_path);
    int k = 0;
    argv[k++] = o->cc ? o->cc : "gcc";
    argv[k++] = "-std=gnu11";
    argv[k++] = o->arch_bits == 32 ? "-m32" : "-m64";
    if (strict) {
        argv[k++] = "-Wall";
        argv[k++] = "-Werror";
    } else {
        argv[k++] = "-w";
    }
    for (int i = 0; i < o->n_cflags; i++)
        argv[k++] = o->cflags[i];
    argv[k++] = "-o";
    argv[k++] = exe;
    argv[k++] = file;
    for (int i = 0; i < o->n_sources; i++)
        argv[k++] = o->sources[i];
    argv[k++] = "-lm";
    proc_opts po = {.err = diag, .timeout_s = 120};
    proc_result pr;
    bool ok = proc_run((char *const *)argv, &po, &pr, e);
    ctg_free(argv);
    return ok && pr.exited && pr.code == 0;
}

/* Runs probe test k and parses its observations into ob. */
static bool probe_one(const utest_opts *o, const char *exe, size_t k, obs *ob, ctg_err *e)
{
    char num[32];
    snprintf(num, sizeof num, "%zu", k + 1);
    char *argv[] = {(char *)exe, num, NULL};
    sbuf out = SBUF_INIT;
    proc_opts po = {.out = &out, .timeout_s = o->timeout_s > 0 ? o->timeout_s : 5};
    proc_result pr;
    if (!proc_run(argv, &po, &pr, e)) {
        sbuf_release(&out);
        return false;
    }
    ob->crashed = !pr.exited || pr.code != 0 || pr.timed_out;
    ob->status = pr.exited ? -pr.code : pr.signal;
    ob->out = ctg_calloc((size_t)o->sig->n + 1, sizeof *ob->out);
    for (char *l = out.data; l && *l && ob->out;) {
        char *nl = strchr(l, '\n');
        if (nl)
            *nl = 0;
        int param;
        if (!strncmp(l, "ret ", 4) && strlen(l) > 6) {
            ctg_free(ob->ret);
            ob->ret = ctg_strdup(l + 4);
        } else if (sscanf(l, "out %d", &param) == 1 && param >= 0 && param < o->sig->n) {
            const char *h = strchr(l + 4, ' ');
            ctg_free(ob->out[param]);
            ob->out[param] = ctg_strdup(h ? h + 1 : "");
        }
        l = nl ? nl + 1 : NULL;
    }
    sbuf_release(&out);
    return true;
}

/* Runs the final file; parses "N passed, M failed". */
static void verify(const char *exe, utest_result *r)
{
    char *argv[] = {(char *)exe, NULL};
    sbuf out = SBUF_INIT;
    proc_opts po = {.out = &out, .timeout_s = 60};
    proc_result pr;
    ctg_err e = {{0}};
    unsigned p = 0, f = 0;
    if (proc_run(argv, &po, &pr, &e) && pr.exited && out.data &&
        sscanf(out.data, "%u passed, %u failed", &p, &f) == 2) {
        r->verified = true;
        r->passed = p;
        r->failed = f;
    }
    sbuf_release(&out);
}

static void obs_release(obs *o, int n)
{
    ctg_free(o->ret);
    for (int i = 0; o->out && i < n; i++)
        ctg_free(o->out[i]);
    ctg_free(o->out);
}

/* Reads and decodes every testcase of the suite. */
static bool decode_all(const utest_opts *o, char ***names, char ***bodies, size_t *n, ctg_err *e)
{
    if (!suite_list_testcases(o->suite_dir, names, n, e))
        return false;
    *bodies = ctg_calloc(*n + 1, sizeof **bodies);
    if (!*bodies)
        return err_set(e, "%s: out of memory", o->out_path);
    for (size_t k = 0; k < *n; k++) {
        test_t *t = NULL;
        bool cov_err;
        if (!suite_read_testcase((*names)[k], o->arch_bits, CTG_T_INT, &t, &cov_err, e))
            return false;
        (*bodies)[k] = test_body(o->sig, t, o->arch_bits);
        test_free(t);
        if (!(*bodies)[k])
            return err_set(e, "%s: out of memory", o->out_path);
        const char *base = strrchr((*names)[k], '/');
        char *nm = ctg_strdup(base ? base + 1 : (*names)[k]);
        if (nm) {
            ctg_free((*names)[k]);
            (*names)[k] = nm;
        }
    }
    return true;
}

/* Writes `text` to dir/name and returns the path (ctg_free). */
static char *write_in(const char *dir, const char *name, const char *text, ctg_err *e)
{
    char *p = fs_join(dir, name);
    if (!p || !fs_write_atomic(p, text, strlen(text), e)) {
        ctg_free(p);
        return NULL;
    }
    return p;
}

bool utest_write(const utest_opts *o, utest_result *r, ctg_err *e)
{
    memset(r, 0, sizeof *r);
    char **names = NULL, **bodies = NULL, *probe = NULL, *final = NULL;
    char *pfile = NULL, *pexe = NULL, *ffile = NULL, *fexe = NULL;
    size_t n = 0;
    obs *ob = NULL;
    char *dir = fs_mkdtemp("ctestgen-utest-", "a directory for the regression test's probe", e);
    bool ok = dir != NULL;
    ok = ok && decode_all(o, &names, &bodies, &n, e);
    ob = ok ? ctg_calloc(n + 1, sizeof *ob) : NULL;
    ok = ok && ob && (probe = make_file(o, names, bodies, ob, n, true)) != NULL;
    ok = ok && (pfile = write_in(dir, "probe.c", probe, e)) && (pexe = fs_join(dir, "probe"));
    sbuf diag = SBUF_INIT;
    if (ok && !compile(o, pfile, pexe, false, &diag, e))
        ok = err_set(e, "%s: the regression-test probe does not compile with gcc: %.200s",
                     o->out_path, diag.data ? diag.data : "");
    sbuf_release(&diag);
    for (size_t k = 0; ok && k < n; k++)
        ok = probe_one(o, pexe, k, &ob[k], e);
    ok = ok && (final = make_file(o, names, bodies, ob, n, false)) != NULL;
    ok = ok && fs_write_atomic(o->out_path, final, strlen(final), e);
    if (ok) {
        r->tests = (unsigned)n;
        for (size_t k = 0; k < n; k++)
            r->crashing += ob[k].crashed;
        sbuf d2 = SBUF_INIT;
        ctg_err e2 = {{0}};
        if ((ffile = write_in(dir, "tests.c", final, &e2)) && (fexe = fs_join(dir, "tests")) &&
            compile(o, ffile, fexe, true, &d2, &e2))
            verify(fexe, r);
        sbuf_release(&d2);
    }
    for (size_t k = 0; ob && k < n; k++)
        obs_release(&ob[k], o->sig->n);
    for (size_t k = 0; bodies && k < n; k++)
        ctg_free(bodies[k]);
    suite_free_list(names, n);
    ctg_free(bodies);
    ctg_free(ob);
    ctg_free(probe);
    ctg_free(final);
    ctg_free(pfile);
    ctg_free(pexe);
    ctg_free(ffile);
    ctg_free(fexe);
    if (dir)
        fs_rm_rf(dir, NULL);
    ctg_free(dir);
    return ok;
}
