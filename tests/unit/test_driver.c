/*
 * test_driver.c - function signatures read with libclang and the drivers
 * generated from them: parameter kinds, array/length pairs, records and
 * enums, copied declarations, the errors for unusable functions, and a
 * generated driver that compiles with gcc -Wall -Werror and reads its values
 * in the documented order (checked by running it on a scripted value list).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/fsutil.h"
#include "base/mem.h"
#include "base/sbuf.h"
#include "compile/driver.h"
#include "runtime/rt_protocol.h"

static const char lib_src[] =
    "#include <stddef.h>\n"
    "#define NAMELEN 6\n"
    "typedef enum color { RED = 1, GREEN = 5, BLUE } color;\n"
    "struct node { int key; char name[NAMELEN]; struct node *next; color c; };\n"
    "typedef struct { int x, y; } point;\n"
    "int sum(const int *a, size_t n);\n"
    "int sum(const int *a, size_t n) { int s = 0; for (size_t i = 0; i < n; i++) s += a[i]; return s; }\n"
    "int walk(const struct node *t, point p, color k, const char *s, char *out, double *w);\n"
    "int walk(const struct node *t, point p, color k, const char *s, char *out, double *w)\n"
    "{ (void)s; (void)out; return (t ? t->key : 0) + p.x + (int)k + (int)*w; }\n"
    "void cb(void (*f)(void), void *u);\n"
    "void cb(void (*f)(void), void *u) { (void)f; (void)u; }\n"
    "static int hidden(int x) { return x; }\n"
    "int uses_hidden(int x);\n"
    "int uses_hidden(int x) { return hidden(x); }\n";

static char dir[] = "/tmp/ctg-test-driver-XXXXXX";
static char lib[128];

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir))
        return -1;
    snprintf(lib, sizeof lib, "%s/lib.c", dir);
    ctg_err e = {{0}};
    return fs_write_atomic(lib, lib_src, strlen(lib_src), &e) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    fs_rm_rf(dir, NULL);
    return 0;
}

static drv_sig *parse(const char *func)
{
    ctg_err e = {{0}};
    drv_sig *s = drv_parse(lib, func, NULL, 0, 2, &e);
    if (!s)
        fail_msg("drv_parse %s: %s", func, e.msg);
    return s;
}

/* A pointer followed by a length-named integer is an array. */
static void test_array_pair(void **state)
{
    (void)state;
    drv_sig *s = parse("sum");
    assert_int_equal(s->n, 2);
    assert_int_equal(s->p[0].t.kind, DRV_ARRAY);
    assert_int_equal(s->p[0].t.vt, CTG_T_INT);
    assert_int_equal(s->p[1].t.kind, DRV_LENGTH);
    assert_int_equal(s->p[0].pair, 1);
    assert_int_equal(s->ret, DRV_RET_INT);
    assert_non_null(strstr(s->preamble, "int sum(const int *, size_t);"));
    drv_free(s);
}

/* Structs, typedefs, enums, strings, output buffers, scalar pointers. */
static void test_kinds(void **state)
{
    (void)state;
    drv_sig *s = parse("walk");
    assert_int_equal(s->n, 6);
    assert_int_equal(s->p[0].t.kind, DRV_STRUCT_PTR);
    assert_int_equal(s->p[1].t.kind, DRV_STRUCT);
    assert_int_equal(s->p[2].t.kind, DRV_ENUM);
    assert_int_equal(s->p[3].t.kind, DRV_STRING);
    assert_false(s->p[3].t.out);
    assert_int_equal(s->p[4].t.kind, DRV_STRING);
    assert_true(s->p[4].t.out);
    assert_int_equal(s->p[5].t.kind, DRV_PTR);
    assert_int_equal(s->p[5].t.vt, CTG_T_DOUBLE);
    assert_int_equal(s->n_en, 1);
    assert_int_equal(s->en[0].n, 3);
    assert_int_equal(s->en[0].vals[1], 5);
    assert_int_equal(s->n_rec, 2);
    const drv_record *node = &s->rec[s->p[0].t.rec];
    assert_int_equal(node->n, 4);
    assert_int_equal(node->f[1].t.kind, DRV_FIXED);
    assert_int_equal(node->f[1].t.count, 6);
    assert_int_equal(node->f[2].t.kind, DRV_STRUCT_PTR);
    /* declarations copied once, the typedef with its enum */
    assert_non_null(strstr(s->preamble, "typedef enum color {"));
    assert_non_null(strstr(s->preamble, "typedef struct { int x, y; } point;"));
    assert_non_null(strstr(s->preamble, "#define NAMELEN 6"));
    assert_null(strstr(strstr(s->preamble, "struct node {") + 1, "struct node {"));
    drv_free(s);
}

/* Function pointers and void * are passed as NULL. */
static void test_null_kinds(void **state)
{
    (void)state;
    drv_sig *s = parse("cb");
    assert_int_equal(s->p[0].t.kind, DRV_NULL);
    assert_true(s->p[0].t.is_ptr);
    assert_int_equal(s->p[1].t.kind, DRV_NULL);
    assert_int_equal(s->ret, DRV_RET_NONE);
    sbuf b = SBUF_INIT;
    drv_emit_driver(s, &b);
    assert_non_null(strstr(sbuf_str(&b), "cb(0, 0);"));
    sbuf_release(&b);
    drv_free(s);
}

/* Unusable functions get a one-line error naming the problem. */
static void test_errors(void **state)
{
    (void)state;
    ctg_err e = {{0}};
    assert_null(drv_parse(lib, "nosuch", NULL, 0, 2, &e));
    assert_non_null(strstr(e.msg, "no function 'nosuch'"));
    err_clear(&e);
    assert_null(drv_parse(lib, "hidden", NULL, 0, 2, &e));
    assert_non_null(strstr(e.msg, "is static"));
    err_clear(&e);
    char bad[160];
    snprintf(bad, sizeof bad, "%s/bad.c", dir);
    assert_true(fs_write_atomic(bad, "int f(int x) { return x +; }\n", 29, &e));
    assert_null(drv_parse(bad, "f", NULL, 0, 2, &e));
    assert_non_null(strstr(e.msg, "does not parse"));
    assert_null(strchr(e.msg, '\n'));
}

/* The driver compiles strictly and reads values in the documented order:
 * a scripted nondet provider feeds list, a struct node chain and the rest,
 * and the program prints what walk() received. */
static void test_driver_runs(void **state)
{
    (void)state;
    drv_sig *s = parse("walk");
    char drv[160], script[160], exe[160], cmd[640];
    snprintf(drv, sizeof drv, "%s/driver.c", dir);
    snprintf(script, sizeof script, "%s/script.c", dir);
    snprintf(exe, sizeof exe, "%s/drv", dir);
    ctg_err e = {{0}};
    assert_true(drv_write_driver(s, drv, &e));
    /* values: node present(1), key 7, name "ab\0", next present(2): key 9,
     * name "\0", (depth 2: next NULL, no read), color idx 1, outer color 0;
     * point 3 4; k idx 2; s "x\0"; out "\0"; w 2.5 */
    static const char prov[] =
        "#include <stdio.h>\n"
        "static long long v[] = {1, 7, 'a', 'b', 0, 2, 9, 0, 1, 0, 3, 4, 2, 'x', 0, 0};\n"
        "static int i;\n"
        "static long long next(void) { return i < (int)(sizeof v / sizeof *v) ? v[i++] : -1; }\n"
        "unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)next(); }\n"
        "char __VERIFIER_nondet_char(void) { return (char)next(); }\n"
        "int __VERIFIER_nondet_int(void) { return (int)next(); }\n"
        "double __VERIFIER_nondet_double(void) { return 2.5; }\n"
        "_Bool __VERIFIER_nondet_bool(void) { return 0; }\n"
        "short __VERIFIER_nondet_short(void) { return 0; }\n"
        "unsigned short __VERIFIER_nondet_ushort(void) { return 0; }\n"
        "unsigned int __VERIFIER_nondet_uint(void) { return 0; }\n"
        "long __VERIFIER_nondet_long(void) { return 0; }\n"
        "unsigned long __VERIFIER_nondet_ulong(void) { return 0; }\n"
        "long long __VERIFIER_nondet_longlong(void) { return 0; }\n"
        "unsigned long long __VERIFIER_nondet_ulonglong(void) { return 0; }\n"
        "float __VERIFIER_nondet_float(void) { return 0; }\n"
        "__attribute__((destructor)) static void done(void) { printf(\"consumed %d\\n\", i); }\n";
    assert_true(fs_write_atomic(script, prov, strlen(prov), &e));
    snprintf(cmd, sizeof cmd, "gcc -Wall -Werror -o %s %s %s %s", exe, drv, lib, script);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s > %s/out.txt", exe, dir);
    assert_int_equal(system(cmd), 0);
    char out[160], *text = NULL;
    size_t len;
    snprintf(out, sizeof out, "%s/out.txt", dir);
    assert_true(fs_read(out, &text, &len, &e));
    assert_string_equal(text, "consumed 16\n");
    ctg_free(text);
    drv_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_array_pair), cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_null_kinds), cmocka_unit_test(test_errors),
        cmocka_unit_test(test_driver_runs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
