/*
 * kharness.c - generators of the C files around the program under test (see
 * kharness.h): the Korat harness (test main + repOk helper), its glue, the
 * filter helper and the stubs the helpers link with.
 *
 * The generated test main has no branch and no loop (slot reads are
 * unrolled, indices wrap with %, pointers come from tables), so it adds no
 * coverage goals of its own to the program.
 */
#include "kharness.h"

#include <stdio.h>
#include <string.h>

/* ctg_tmpl_*: the fixed C of the helpers, src/search/bounded/tmpl/ */
#include "tmpl/filter_helper.h"
#include "tmpl/helper_io.h"
#include "tmpl/helper_stubs.h"
#include "tmpl/korat_helper.h"

/* Appends s as a C string literal. */
static void c_string(sbuf *out, const char *s)
{
    sbuf_putc(out, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sbuf_putc(out, '\\');
        sbuf_putc(out, *s);
    }
    sbuf_putc(out, '"');
}

/* #define main ... #include "program" #undef main */
static void include_program(sbuf *out, const char *program, const char *renamed)
{
    sbuf_printf(out, "#define main %s\n#include ", renamed);
    c_string(out, program);
    sbuf_puts(out, "\n#undef main\n\n");
}

/* ==== Korat: objects, domains, build ================================================== */

static int n_objs(const kspec *k, int c) { return k->fin->classes[c].n_objs; }

bool kharness_wide(const kspec *k)
{
    const korat_fin *f = k->fin;
    for (size_t c = 0; c < f->n_classes; c++) {
        if (f->classes[c].n_objs + 1 > 256)
            return true;
        for (size_t i = 0; i < f->classes[c].n_fields; i++)
            if (f->classes[c].fields[i].n_vals > 256)
                return true;
    }
    return false;
}

/* Object arrays, pointer tables (NULL first) and scalar domains. */
static void k_tables(sbuf *out, const kspec *k)
{
    const korat_fin *f = k->fin;
    for (size_t c = 0; c < f->n_classes; c++) {
        int n = n_objs(k, (int)c);
        sbuf_printf(out, "static %s *ctg_k_o%zu[%d];  /* the objects */\n", k->ctype[c], c,
                    n ? n : 1);
        sbuf_printf(out, "static %s *ctg_k_p%zu[%d];  /* NULL, then the objects */\n",
                    k->ctype[c], c, n + 1);
        for (size_t i = 0; i < f->classes[c].n_fields; i++) {
            const korat_field *fl = &f->classes[c].fields[i];
            if (fl->kind != KF_VAL)
                continue;
            sbuf_printf(out, "static const long long ctg_k_d%zu_%zu[%zu] = {", c, i, fl->n_vals);
            for (size_t v = 0; v < fl->n_vals; v++)
                sbuf_printf(out, "%s%lldLL", v ? ", " : "", (long long)fl->vals[v]);
            sbuf_puts(out, "};\n");
        }
    }
    for (size_t r = 0; r < f->n_roots; r++)
        sbuf_printf(out, "static %s *ctg_k_r%zu;  /* argument %s */\n",
                    k->ctype[f->roots[r].target], r, f->roots[r].name);
    sbuf_puts(out, "\n/* Allocates the objects (the function under test may free them). */\n"
                   "static void ctg_k_alloc(void)\n{\n");
    for (size_t c = 0; c < f->n_classes; c++)
        for (int o = 0; o < n_objs(k, (int)c); o++)
            sbuf_printf(out, "    ctg_k_p%zu[%d] = ctg_k_o%zu[%d] = (%s *)calloc(1, sizeof(%s));\n",
                        c, o + 1, c, o, k->ctype[c], k->ctype[c]);
    sbuf_puts(out, "}\n\n");
}

/* ctg_k_build(v): every slot from its domain index (wrapped into range). */
static void k_build(sbuf *out, const kspec *k)
{
    const korat_fin *f = k->fin;
    size_t s = 0;
    sbuf_puts(out, "/* Sets every slot of the candidate vector v. */\n"
                   "static void ctg_k_build(const unsigned *v)\n{\n");
    for (size_t r = 0; r < f->n_roots; r++, s++)
        sbuf_printf(out, "    ctg_k_r%zu = ctg_k_p%d[v[%zu] %% %du];\n", r, f->roots[r].target, s,
                    n_objs(k, f->roots[r].target) + 1);
    for (size_t c = 0; c < f->n_classes; c++) {
        const korat_class *kc = &f->classes[c];
        for (int o = 0; o < kc->n_objs; o++)
            for (size_t i = 0; i < kc->n_fields; i++, s++) {
                const korat_field *fl = &kc->fields[i];
                if (fl->kind == KF_PTR)
                    sbuf_printf(out, "    ctg_k_o%zu[%d]->%s = ctg_k_p%d[v[%zu] %% %du];\n", c, o,
                                fl->name, fl->target, s, n_objs(k, fl->target) + 1);
                else
                    sbuf_printf(out, "    ctg_k_o%zu[%d]->%s = ctg_k_d%zu_%zu[v[%zu] %% %zuu];\n", c,
                                o, fl->name, c, i, s, fl->n_vals);
            }
    }
    sbuf_puts(out, "}\n\n");
}

/* repOk(ctg_k_r0, ...) */
static void k_repok_call(sbuf *out, const kspec *k)
{
    sbuf_printf(out, "%s(", k->repok);
    for (size_t r = 0; r < k->fin->n_roots; r++)
        sbuf_printf(out, "%sctg_k_r%zu", r ? ", " : "", r);
    sbuf_puts(out, ")");
}

static size_t n_slots(const kspec *k)
{
    size_t n = k->fin->n_roots;
    for (size_t c = 0; c < k->fin->n_classes; c++)
        n += (size_t)k->fin->classes[c].n_objs * k->fin->classes[c].n_fields;
    return n;
}

/* ==== Korat: the test main =============================================================== */

static void k_test_main(sbuf *out, const kspec *k)
{
    size_t slots = n_slots(k);
    sbuf_puts(out, "#ifndef CTG_KORAT_HELPER\n"
                   "/* In korat_glue.c, so that no __VERIFIER_ prototype here can clash with "
                   "the program's. */\n"
                   "unsigned __ctg_korat_slot(void);\nvoid __ctg_korat_assume(int);\n");
    for (size_t i = 0; i < k->n_fargs; i++)
        if (k->fargs[i].root < 0)
            sbuf_printf(out, "%s __ctg_korat_nondet_%s(void);\n", kspec_ctype(k->fargs[i].type),
                        kspec_nondet(k->fargs[i].type));
    sbuf_printf(out, "\nint main(void)\n{\n    unsigned v[%zu];\n    ctg_k_alloc();\n",
                slots ? slots : 1);
    for (size_t s = 0; s < slots; s++)
        sbuf_printf(out, "    v[%zu] = __ctg_korat_slot();\n", s);
    sbuf_puts(out, "    ctg_k_build(v);\n    __ctg_korat_assume(");
    k_repok_call(out, k);
    sbuf_puts(out, " != 0);\n");
    for (size_t i = 0; i < k->n_fargs; i++)
        if (k->fargs[i].root < 0)
            sbuf_printf(out, "    %s ctg_a%zu = __ctg_korat_nondet_%s();\n",
                        kspec_ctype(k->fargs[i].type), i, kspec_nondet(k->fargs[i].type));
    sbuf_printf(out, "    %s(", k->function);
    for (size_t i = 0; i < k->n_fargs; i++) {
        if (k->fargs[i].root >= 0)
            sbuf_printf(out, "%sctg_k_r%d", i ? ", " : "", k->fargs[i].root);
        else
            sbuf_printf(out, "%sctg_a%zu", i ? ", " : "", i);
    }
    sbuf_puts(out, ");\n    return 0;\n}\n#endif /* !CTG_KORAT_HELPER */\n\n");
}

/* ==== Korat: the repOk helper ============================================================= */

/* ctg_k_load(addr): maps an address inside an object to its slot. */
static void k_load_map(sbuf *out, const kspec *k)
{
    const korat_fin *f = k->fin;
    size_t base = f->n_roots;
    sbuf_puts(out, "/* Records the slot a traced load reads, if it reads one. */\n"
                   "CTG_K_NOTRACE static void ctg_k_load(const void *p)\n{\n"
                   "    if (!ctg_k_tracing)\n        return;\n"
                   "    uintptr_t a = (uintptr_t)p;\n    size_t off;\n");
    for (size_t c = 0; c < f->n_classes; c++) {
        const korat_class *kc = &f->classes[c];
        sbuf_printf(out, "    for (unsigned o = 0; o < %du; o++) {\n"
                         "        off = (size_t)(a - (uintptr_t)ctg_k_o%zu[o]);\n"
                         "        if (off >= sizeof(%s))\n            continue;\n",
                    kc->n_objs, c, k->ctype[c]);
        for (size_t i = 0; i < kc->n_fields; i++)
            sbuf_printf(out, "        if (off - offsetof(%s, %s) < sizeof(ctg_k_o%zu[0]->%s))\n"
                             "            ctg_k_touch(%zuu + o * %zuu + %zuu);\n",
                        k->ctype[c], kc->fields[i].name, c, kc->fields[i].name, base,
                        kc->n_fields, i);
        sbuf_puts(out, "        return;\n    }\n");
        base += (size_t)kc->n_objs * kc->n_fields;
    }
    sbuf_puts(out, "}\n\n");
}

/* The repOk helper: the template (tmpl/korat_helper.c) with its
 * parameters, then the load map it declares. */
static void k_helper(sbuf *out, const kspec *k, unsigned timeout_ms)
{
    size_t slots = n_slots(k);
    sbuf_printf(out, "#ifdef CTG_KORAT_HELPER\n#define CTG_K_SLOTS %zu\n#define CTG_K_ALARM_S %u\n"
                     "#define CTG_K_TOUCH_ROOTS",
                slots ? slots : 1, timeout_ms / 1000 + 1);
    for (size_t r = 0; r < k->fin->n_roots; r++)
        sbuf_printf(out, " ctg_k_touch(%zuu);", r);
    sbuf_puts(out, "\n#define CTG_K_REPOK ");
    k_repok_call(out, k);
    sbuf_puts(out, "\n");
    sbuf_puts(out, ctg_tmpl_helper_io);
    sbuf_puts(out, ctg_tmpl_korat_helper);
    sbuf_puts(out, "\n");
    k_load_map(out, k);
    sbuf_puts(out, "#endif /* CTG_KORAT_HELPER */\n");
}

void kharness_korat(sbuf *out, const kspec *k, const char *program, unsigned timeout_ms)
{
    sbuf_printf(out, "/*\n * Korat harness generated by ctestgen (bounded strategy, --korat).\n"
                     " * Test main: the candidate vector as %zu nondet values, then %s(...).\n"
                     " * With -DCTG_KORAT_HELPER: the repOk helper (see kharness.h).\n */\n",
                n_slots(k), k->function ? k->function : "?");
    include_program(out, program, "__ctg_korat_user_main");
    sbuf_puts(out, "#include <stdlib.h>\n\n");
    k_tables(out, k);
    k_build(out, k);
    k_test_main(out, k);
    k_helper(out, k, timeout_ms);
}

void kharness_glue(sbuf *out, const kspec *k)
{
    bool wide = kharness_wide(k);
    sbuf_printf(out, "/* Glue of the Korat harness (generated by ctestgen). */\n"
                     "extern unsigned %s __VERIFIER_nondet_%s(void);\n"
                     "extern void __VERIFIER_assume(int);\n"
                     "unsigned __ctg_korat_slot(void) { return __VERIFIER_nondet_%s(); }\n"
                     "void __ctg_korat_assume(int c) { __VERIFIER_assume(c); }\n",
                wide ? "short" : "char", wide ? "ushort" : "uchar", wide ? "ushort" : "uchar");
    for (size_t i = 0; i < k->n_fargs; i++) {
        if (k->fargs[i].root >= 0)
            continue;
        const char *ct = kspec_ctype(k->fargs[i].type), *nd = kspec_nondet(k->fargs[i].type);
        sbuf_printf(out, "extern %s __VERIFIER_nondet_%s(void);\n"
                         "%s __ctg_korat_nondet_%s(void) { return __VERIFIER_nondet_%s(); }\n",
                    ct, nd, ct, nd, nd);
    }
}

/* ==== filter helper and stubs ============================================================ */

void kharness_filter(sbuf *out, const char *program, const char *func, unsigned timeout_ms)
{
    sbuf_printf(out, "/* Filter helper generated by ctestgen (bounded --filter %s). */\n", func);
    include_program(out, program, "__ctg_filter_user_main");
    sbuf_printf(out, "#define CTG_F_FILTER %s\n#define CTG_F_ALARM_S %u\n", func,
                timeout_ms / 1000 + 1);
    sbuf_puts(out, ctg_tmpl_helper_io);
    sbuf_puts(out, ctg_tmpl_filter_helper);
}

void kharness_stubs(sbuf *out) { sbuf_puts(out, ctg_tmpl_helper_stubs); }
