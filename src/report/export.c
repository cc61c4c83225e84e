/*
 * export.c - a Test-Comp suite as C regression tests (see export.h).
 */
#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../base/target.h"
#include "../suite/suite.h"
#include "stats.h"
#include "tmpl/export_runner.h" /* ctg_tmpl_export_runner: src/report/tmpl/export_runner.c */

/* What a test's run must end in. */
enum { END_EXIT, END_SIGNAL, END_ERROR, END_SKIP };

/* A C string literal of s. */
static void c_string(sbuf *b, const char *s)
{
    sbuf_putc(b, '"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            sbuf_printf(b, "\\%c", c);
        else if (c < 32 || c > 126)
            sbuf_printf(b, "\\%03o", c);
        else
            sbuf_putc(b, (char)c);
    }
    sbuf_putc(b, '"');
}

static const char *const prologue =
    "#include <fcntl.h>\n#include <signal.h>\n#include <stdio.h>\n#include <stdlib.h>\n"
    "#include <string.h>\n#include <sys/types.h>\n#include <sys/wait.h>\n#include <unistd.h>\n\n";

/* The expected end of test t of the replay. */
static int expected(const replay_test *t, int *code)
{
    *code = 0;
    switch (t->outcome) {
    case REPLAY_NORMAL: *code = t->exit_code; return END_EXIT;
    case REPLAY_ERROR: return END_ERROR;
    case REPLAY_ASSUME:
    case REPLAY_RAN_OUT: return END_EXIT;
    case REPLAY_CRASH: *code = t->signal; return END_SIGNAL;
    default: return END_SKIP; /* timed out or unreadable: no regression to pin */
    }
}

/* A byte test as ctg_b<k> and its row of the test table. */
static void put_bytes(sbuf *b, sbuf *t, const char *name, unsigned k, const uint8_t *bytes,
                      size_t len, const char *how, int code)
{
    sbuf_printf(b, "static const unsigned char ctg_b%u[] = {", k);
    for (size_t i = 0; i < len; i++)
        sbuf_printf(b, "%u, ", bytes[i]);
    sbuf_puts(b, "0};\n");
    sbuf_printf(t, "    {\"%s\", NULL, ctg_b%u, %zu, %s, %d},\n", name, k, len, how, code);
}

/* The C array of a test's values (a values target: its testcase XML at
 * path) or bytes (a byte-input target: its corpus file; path NULL) as
 * ctg_v<k> / ctg_b<k>, and
 * its row of the test table; false when the test cannot be read (it is
 * then left out with a comment). */
static bool put_test(sbuf *b, sbuf *t, const replay_opts *ro, bool bytes, const char *path,
                     const char *name, unsigned k, int end, int code)
{
    const char *how = end == END_EXIT ? "CTG_EXIT" : end == END_SIGNAL ? "CTG_SIGNAL" : "CTG_ERROR";
    ctg_err te = {{0}};
    if (bytes && !path) {
        char *data = NULL;
        size_t len = 0;
        sbuf fp = SBUF_INIT;
        sbuf_printf(&fp, "%s/corpus/%s", ro->out_dir, name);
        bool ok = sbuf_ok(&fp) && fs_read(fp.data, &data, &len, &te);
        sbuf_release(&fp);
        if (!ok)
            return false;
        put_bytes(b, t, name, k, (const uint8_t *)data, len, how, code);
        ctg_free(data);
        return true;
    }
    suite_testcase tc = {0};
    if (!suite_parse_testcase(path, &tc, &te))
        return false;
    if (bytes) { /* a suite written before stdin targets had none: a value per byte */
        uint8_t *data = ctg_malloc(tc.n_inputs + 1);
        for (size_t i = 0; data && i < tc.n_inputs; i++)
            data[i] = (uint8_t)strtoul(tc.inputs[i].text, NULL, 0);
        bool ok = data != NULL;
        if (ok)
            put_bytes(b, t, name, k, data, tc.n_inputs, how, code);
        ctg_free(data);
        suite_testcase_release(&tc);
        return ok;
    }
    sbuf_printf(b, "static const char *const ctg_v%u[] = {", k);
    for (size_t i = 0; i < tc.n_inputs; i++) {
        c_string(b, tc.inputs[i].text);
        sbuf_puts(b, ", ");
    }
    sbuf_puts(b, "NULL};\n");
    sbuf_printf(t, "    {\"%s\", ctg_v%u, NULL, 0, %s, %d},\n", name, k, how, code);
    suite_testcase_release(&tc);
    return true;
}

/* ctg_args: the program's arguments the run recorded (args, may be NULL). */
static void put_args(sbuf *b, const char *args)
{
    sbuf_puts(b, "static const char *const ctg_args[] = {");
    const char *arg;
    size_t len;
    for (const char *p = args; stats_next_arg(&p, &arg, &len);) {
        char *one = ctg_strndup(arg, len);
        if (one)
            c_string(b, one);
        ctg_free(one);
        sbuf_puts(b, ", ");
    }
    sbuf_puts(b, "NULL};\n");
}

/* What export needs to know of the run that made OUT (its stats.json). */
typedef struct ex_kind {
    const target_kind *k; /* the target's kind (values when not recorded)     */
    bool bytes; /* the tests are bytes: of stdin, a file, or libFuzzer's data */
    char *args; /* the program's arguments the run recorded (owned), or NULL */
} ex_kind;

/* Reads the kind of the run's tests from OUT/stats.json.  False with e
 * set when its tests cannot be exported. */
static bool read_kind(const replay_opts *ro, ex_kind *k, ctg_err *e)
{
    memset(k, 0, sizeof *k);
    char *sp = fs_join(ro->out_dir, "stats.json");
    ctg_err se = {{0}};
    stats_t *st = sp && fs_exists(sp) ? stats_load(sp, &se) : NULL;
    ctg_free(sp);
    const char *input = st ? stats_get_info(st, "input") : NULL;
    k->k = input ? target_by_input(input) : target_by_name("values");
    k->bytes = k->k && k->k->bytes;
    bool ok = k->k != NULL;
    if (!ok)
        err_set(e, "%s: a %s target's tests cannot be exported; replay its corpus "
                   "(ctestgen replay --corpus %s/corpus PROG.c) instead",
                ro->out_dir, input, ro->out_dir);
    const char *args = k->bytes && st ? stats_get_info(st, "args") : NULL;
    if (ok && args)
        k->args = ctg_strdup(args);
    stats_free(st);
    return ok;
}

/* The file's head: what it is, how to build it, the runner's settings. */
static void put_head(sbuf *b, const replay_opts *ro, const replay_result *rr, const ex_kind *k)
{
    sbuf_printf(b, "/*\n * Regression tests generated by `ctestgen export` from %s/%s\n"
                   " * (%s): build and run them with the program,\n"
                   " *     cc THIS_FILE PROG.c && ./a.out%s\n"
                   " * Each test runs in a child process whose %s;\n"
                   " * how the child ends is compared with what gcc's replay saw "
                   "at export time.\n */\n",
                ro->out_dir, rr->raw ? "corpus" : "test-suite",
                ro->n_sources > 0 ? ro->sources[0] : "?",
                rr->arch_bits == 32 ? "   (with -m32: the suite is ILP32)" : "",
                k->bytes && !k->k->bytes ? target_by_name("stdin")->about : k->k->about);
    sbuf_puts(b, prologue);
    if (k->k->runner_main) /* the runner calls the target; the file brings the main it lacks */
        sbuf_puts(b, "#define CTG_LIBFUZZER 1\n"
                     "int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);\n");
    sbuf_printf(b, "#define CTG_ERROR_EXIT %d /* the error stubs' exit code */\n"
                   "#define CTG_TIMEOUT_S 10\n"
                   "enum { CTG_EXIT, CTG_SIGNAL, CTG_ERROR };\n\n",
                CTG_EXPORT_ERROR_EXIT);
    put_args(b, k->args);
}

/* Each test of rr: its data into b, its row into t; the number kept. */
static unsigned put_tests(sbuf *b, sbuf *t, const replay_opts *ro, const replay_result *rr,
                          bool bytes)
{
    unsigned kept = 0;
    char *dir = rr->raw ? NULL : fs_join(ro->out_dir, "test-suite");
    for (size_t i = 0; i < rr->n_tests; i++) {
        const replay_test *rt = &rr->tests[i];
        char *xml = dir ? fs_join(dir, rt->name) : NULL;
        int code, end = expected(rt, &code);
        if (end == END_SKIP || (!rr->raw && !xml) ||
            !put_test(b, t, ro, bytes, xml, rt->name, kept, end, code))
            sbuf_printf(b, "/* %s: not exported (%s) */\n", rt->name,
                        end == END_SKIP ? replay_outcome_name(rt->outcome) : "unreadable");
        else
            kept++;
        ctg_free(xml);
    }
    ctg_free(dir);
    return kept;
}

/* The test table and the runner after the data; writes the file. */
static bool put_tail_and_write(sbuf *b, const sbuf *t, const char *path, ctg_err *e)
{
    sbuf_puts(b, "\nstatic const struct {\n    const char *name;\n"
                 "    const char *const *values; /* __VERIFIER_nondet_* values, or */\n"
                 "    const unsigned char *bytes; /* stdin's or the file's bytes */\n"
                 "    size_t len;\n    int end, code;\n} ctg_tests[] = {\n");
    sbuf_puts(b, t->data ? t->data : "");
    sbuf_puts(b, "};\n\n");
    sbuf_puts(b, ctg_tmpl_export_runner);
    bool ok = sbuf_ok(b) && sbuf_ok(t) ? fs_write_atomic(path, b->data, b->len, e)
                                       : err_set(e, "out of memory");
    if (!ok && !strstr(e->msg, "out of memory")) {
        ctg_err we = *e;
        e->msg[0] = '\0';
        err_set(e, "%s; choose a writable path for --c", we.msg);
    }
    return ok;
}

bool export_c(const replay_opts *ro, const replay_result *replayed, const char *path,
              unsigned *n_tests, int *arch_bits, ctg_err *e)
{
    if (n_tests)
        *n_tests = 0;
    ex_kind k;
    if (!read_kind(ro, &k, e))
        return false;
    replay_result own;
    if (!replayed && !replay_suite(ro, &own, e)) {
        ctg_free(k.args);
        return false;
    }
    const replay_result *rr = replayed ? replayed : &own;
    k.bytes = k.bytes || rr->raw;
    sbuf b = SBUF_INIT, t = SBUF_INIT; /* the file; the test table, after the data */
    put_head(&b, ro, rr, &k);
    unsigned kept = put_tests(&b, &t, ro, rr, k.bytes);
    bool ok = kept > 0 ? put_tail_and_write(&b, &t, path, e)
                       : err_set(e, "%s: no test to export (the suite is empty or every test "
                                    "timed out)", ro->out_dir);
    if (ok && n_tests)
        *n_tests = kept;
    if (ok && arch_bits)
        *arch_bits = rr->arch_bits;
    sbuf_release(&t);
    sbuf_release(&b);
    ctg_free(k.args);
    if (!replayed)
        replay_result_release(&own);
    return ok;
}
