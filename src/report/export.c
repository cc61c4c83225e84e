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
#include "../suite/suite.h"
#include "stats.h"

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

/* The nondet functions, assume and the error stubs (weak: the program's
 * own definitions win). */
static const char *const harness =
    "static const char *const *ctg_cur; /* the running test's values */\n"
    "static size_t ctg_pos;\n\n"
    "/* The next value's text; the test ends (exit 0) when none is left, as in TestCov. */\n"
    "static const char *ctg_next(void)\n{\n"
    "    if (!ctg_cur || !ctg_cur[ctg_pos])\n        exit(0);\n"
    "    const char *s = ctg_cur[ctg_pos++];\n"
    "    return s[0] == '\\'' && s[1] ? s + 1 : s; /* a quoted character */\n}\n\n"
    "static long long ctg_i(void)\n{\n    const char *s = ctg_next();\n"
    "    return s[0] && s[1] == '\\'' ? (unsigned char)s[0] : strtoll(s, NULL, 0);\n}\n"
    "static unsigned long long ctg_u(void) { return strtoull(ctg_next(), NULL, 0); }\n"
    "static double ctg_d(void) { return strtod(ctg_next(), NULL); }\n\n"
    "#define CTG_WEAK __attribute__((weak))\n"
    "CTG_WEAK _Bool __VERIFIER_nondet_bool(void) { return ctg_i() != 0; }\n"
    "CTG_WEAK char __VERIFIER_nondet_char(void) { return (char)ctg_i(); }\n"
    "CTG_WEAK unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)ctg_u(); }\n"
    "CTG_WEAK short __VERIFIER_nondet_short(void) { return (short)ctg_i(); }\n"
    "CTG_WEAK unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)ctg_u(); }\n"
    "CTG_WEAK int __VERIFIER_nondet_int(void) { return (int)ctg_i(); }\n"
    "CTG_WEAK unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)ctg_u(); }\n"
    "CTG_WEAK long __VERIFIER_nondet_long(void) { return (long)ctg_i(); }\n"
    "CTG_WEAK unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)ctg_u(); }\n"
    "CTG_WEAK long long __VERIFIER_nondet_longlong(void) { return ctg_i(); }\n"
    "CTG_WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return ctg_u(); }\n"
    "CTG_WEAK float __VERIFIER_nondet_float(void) { return (float)ctg_d(); }\n"
    "CTG_WEAK double __VERIFIER_nondet_double(void) { return ctg_d(); }\n"
    "CTG_WEAK void *__VERIFIER_nondet_pointer(void) { return (void *)(size_t)ctg_u(); }\n"
    "CTG_WEAK size_t __VERIFIER_nondet_size_t(void) { return (size_t)ctg_u(); }\n"
    "CTG_WEAK void __VERIFIER_assume(int c)\n{\n    if (!c)\n        exit(0);\n}\n"
    "CTG_WEAK void reach_error(void) { exit(CTG_ERROR_EXIT); }\n"
    "CTG_WEAK void __VERIFIER_error(void) { exit(CTG_ERROR_EXIT); }\n\n";

/* The program's arguments: a child runs the program again with them, "@@"
 * naming the test's bytes as a file (as in the run). */
static const char *const exec_helper =
    "/* Whether an argument is \"@@\": the test's bytes are a file, not stdin. */\n"
    "static int ctg_file_arg(void)\n{\n"
    "    for (size_t k = 0; ctg_args[k]; k++)\n"
    "        if (!strcmp(ctg_args[k], \"@@\"))\n            return 1;\n    return 0;\n}\n\n"
    "/* Runs this program again with the run's arguments (\"@@\" becomes the\n"
    " * test's file); the constructor of the new image lets main run. */\n"
    "static void ctg_exec_with_args(FILE *in)\n{\n"
    "    static char path[64];\n"
    "    const char *argv[sizeof ctg_args / sizeof ctg_args[0] + 1];\n"
    "    snprintf(path, sizeof path, \"/proc/self/fd/%d\", in ? fileno(in) : -1);\n"
    "    argv[0] = \"prog\";\n"
    "    for (size_t k = 0; ctg_args[k]; k++)\n"
    "        argv[k + 1] = strcmp(ctg_args[k], \"@@\") ? ctg_args[k] : path;\n"
    "    argv[sizeof ctg_args / sizeof ctg_args[0]] = NULL;\n"
    "    setenv(\"CTG_REGRESSION_CHILD\", \"1\", 1);\n"
    "    execv(\"/proc/self/exe\", (char *const *)argv);\n"
    "    _exit(127);\n}\n\n";

/* The runner: every test in a child (which goes on into the program's
 * main), its end compared with the expected one. */
static const char *const runner =
    "/* Runs before main: each test in a child that returns into main with its\n"
    " * values; this process only waits and compares, then exits. */\n"
    "__attribute__((constructor)) static void ctg_run_tests(void)\n{\n"
    "    if (getenv(\"CTG_REGRESSION_CHILD\"))\n        return; /* a test run again with its arguments */\n"
    "    int passed = 0, failed = 0;\n"
    "    for (size_t i = 0; i < sizeof ctg_tests / sizeof ctg_tests[0]; i++) {\n"
    "        fflush(NULL);\n        pid_t p = fork();\n"
    "        if (p < 0) {\n            perror(\"fork\");\n            exit(2);\n        }\n"
    "        if (p == 0) {\n"
    "            int null = open(\"/dev/null\", O_RDWR);\n"
    "            if (null >= 0)\n                dup2(null, 0), dup2(null, 1), dup2(null, 2);\n"
    "            FILE *in = ctg_tests[i].bytes ? tmpfile() : NULL; /* a byte test's stdin or file */\n"
    "            if (in && fwrite(ctg_tests[i].bytes, 1, ctg_tests[i].len, in) == ctg_tests[i].len &&\n"
    "                fflush(in) == 0 && lseek(fileno(in), 0, SEEK_SET) == 0 && !ctg_file_arg())\n"
    "                dup2(fileno(in), 0);\n"
    "            ctg_cur = ctg_tests[i].values;\n            ctg_pos = 0;\n"
    "            alarm(CTG_TIMEOUT_S); /* a hang fails the test */\n"
    "            if (ctg_args[0])\n                ctg_exec_with_args(in);\n"
    "            return; /* into the program's main */\n        }\n"
    "        int ws = 0;\n        while (waitpid(p, &ws, 0) < 0)\n            ;\n"
    "        int want = ctg_tests[i].code, ok;\n        const char *what;\n"
    "        switch (ctg_tests[i].end) {\n"
    "        case CTG_EXIT:\n            ok = WIFEXITED(ws) && WEXITSTATUS(ws) == want;\n"
    "            what = \"exit code\";\n            break;\n"
    "        case CTG_SIGNAL:\n            ok = WIFSIGNALED(ws) && WTERMSIG(ws) == want;\n"
    "            what = \"signal\";\n            break;\n"
    "        default: /* the error: reach_error aborts, or the stub exits */\n"
    "            ok = (WIFEXITED(ws) && WEXITSTATUS(ws) == CTG_ERROR_EXIT) ||\n"
    "                 (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);\n"
    "            what = \"the error\";\n            break;\n        }\n"
    "        if (ok) {\n            passed++;\n            continue;\n        }\n"
    "        failed++;\n"
    "        printf(\"FAIL %s: expected %s %d, \", ctg_tests[i].name, what, want);\n"
    "        if (WIFSIGNALED(ws))\n            printf(\"got signal %d\\n\", WTERMSIG(ws));\n"
    "        else\n            printf(\"got exit code %d\\n\", WEXITSTATUS(ws));\n    }\n"
    "    printf(\"%d passed, %d failed\\n\", passed, failed);\n"
    "    exit(failed ? 1 : 0);\n}\n";

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
        sbuf_printf(b, "static const unsigned char ctg_b%u[] = {", k);
        for (size_t i = 0; i < len; i++)
            sbuf_printf(b, "%u, ", (unsigned char)data[i]);
        sbuf_puts(b, "0};\n");
        sbuf_printf(t, "    {\"%s\", NULL, ctg_b%u, %zu, %s, %d},\n", name, k, len, how, code);
        ctg_free(data);
        return true;
    }
    suite_testcase tc = {0};
    if (!suite_parse_testcase(path, &tc, &te))
        return false;
    if (bytes) { /* a suite written before stdin targets had none: a value per byte */
        sbuf_printf(b, "static const unsigned char ctg_b%u[] = {", k);
        for (size_t i = 0; i < tc.n_inputs; i++)
            sbuf_printf(b, "%lu, ", strtoul(tc.inputs[i].text, NULL, 0) & 0xffu);
        sbuf_puts(b, "0};\n");
        sbuf_printf(t, "    {\"%s\", NULL, ctg_b%u, %zu, %s, %d},\n", name, k, tc.n_inputs, how, code);
        suite_testcase_release(&tc);
        return true;
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

/* ctg_args: the program's arguments the run recorded (args, may be NULL),
 * split at spaces as replay splits them. */
static void put_args(sbuf *b, const char *args)
{
    sbuf_puts(b, "static const char *const ctg_args[] = {");
    for (const char *p = args; p && *p;) {
        size_t len = strcspn(p, " ");
        if (len) {
            char *one = ctg_strndup(p, len);
            if (one)
                c_string(b, one);
            ctg_free(one);
            sbuf_puts(b, ", ");
        }
        p += len + (p[len] == ' ');
    }
    sbuf_puts(b, "NULL};\n");
}

bool export_c(const replay_opts *ro, const char *path, unsigned *n_tests, int *arch_bits,
              ctg_err *e)
{
    if (n_tests)
        *n_tests = 0;
    char *sp = fs_join(ro->out_dir, "stats.json");
    ctg_err se = {{0}};
    stats_t *st = sp && fs_exists(sp) ? stats_load(sp, &se) : NULL;
    ctg_free(sp);
    const char *input = st ? stats_get_info(st, "input") : NULL;
    /* values, or bytes of stdin or of the file "@@" names */
    bool bytes = input && (!strcmp(input, "stdin") || !strcmp(input, "file"));
    if (input && strcmp(input, "values") && !bytes) {
        err_set(e, "%s: a %s target's tests are bytes, not values: replay its corpus "
                   "(ctestgen replay --corpus %s/corpus PROG.c) instead of exporting it",
                ro->out_dir, input, ro->out_dir);
        stats_free(st);
        return false;
    }
    char *args = bytes && st && stats_get_info(st, "args") ? ctg_strdup(stats_get_info(st, "args"))
                                                          : NULL;
    stats_free(st);
    replay_result rr;
    if (!replay_suite(ro, &rr, e)) {
        ctg_free(args);
        return false;
    }
    bytes = bytes || rr.raw;
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "/*\n * Regression tests generated by `ctestgen export` from %s/%s\n"
                    " * (%s): build and run them with the program,\n"
                    " *     cc THIS_FILE PROG.c && ./a.out%s\n"
                    " * Each test runs in a child process whose %s;\n"
                    " * how the child ends is compared with what gcc's replay saw "
                    "at export time.\n */\n",
                ro->out_dir, rr.raw ? "corpus" : "test-suite",
                ro->n_sources > 0 ? ro->sources[0] : "?",
                rr.arch_bits == 32 ? "   (with -m32: the suite is ILP32)" : "",
                bytes ? (args && strstr(args, "@@") ? "file named by @@ holds its bytes"
                                                   : "stdin holds its bytes")
                      : "__VERIFIER_nondet_* calls read its values");
    sbuf_puts(&b, prologue);
    sbuf_printf(&b, "#define CTG_ERROR_EXIT %d /* the error stubs' exit code */\n"
                    "#define CTG_TIMEOUT_S 10\n"
                    "enum { CTG_EXIT, CTG_SIGNAL, CTG_ERROR };\n\n",
                CTG_EXPORT_ERROR_EXIT);
    put_args(&b, args);
    sbuf t = SBUF_INIT; /* the test table, after the value arrays */
    unsigned kept = 0;
    char *dir = rr.raw ? NULL : fs_join(ro->out_dir, "test-suite");
    for (size_t i = 0; i < rr.n_tests; i++) {
        const replay_test *rt = &rr.tests[i];
        const char *name = rt->name;
        char *xml = dir ? fs_join(dir, name) : NULL;
        int code, end = expected(rt, &code);
        if (end == END_SKIP || (!rr.raw && !xml) ||
            !put_test(&b, &t, ro, bytes, xml, name, kept, end, code))
            sbuf_printf(&b, "/* %s: not exported (%s) */\n", name,
                        end == END_SKIP ? replay_outcome_name(rt->outcome) : "unreadable");
        else
            kept++;
        ctg_free(xml);
    }
    bool ok = kept > 0 || err_set(e, "%s: no test to export (the suite is empty or every test "
                                     "timed out)", ro->out_dir);
    if (ok) {
        sbuf_puts(&b, "\nstatic const struct {\n    const char *name;\n"
                      "    const char *const *values; /* __VERIFIER_nondet_* values, or */\n"
                      "    const unsigned char *bytes; /* stdin's or the file's bytes */\n"
                      "    size_t len;\n    int end, code;\n} ctg_tests[] = {\n");
        sbuf_puts(&b, t.data ? t.data : "");
        sbuf_puts(&b, "};\n\n");
        sbuf_puts(&b, harness);
        sbuf_puts(&b, exec_helper);
        sbuf_puts(&b, runner);
        ok = sbuf_ok(&b) && sbuf_ok(&t) ? fs_write_atomic(path, b.data, b.len, e)
                                        : err_set(e, "out of memory");
        if (!ok && !strstr(e->msg, "out of memory")) {
            ctg_err we = *e;
            e->msg[0] = '\0';
            err_set(e, "%s; choose a writable path for --c", we.msg);
        }
    }
    if (ok && n_tests)
        *n_tests = kept;
    if (ok && arch_bits)
        *arch_bits = rr.arch_bits;
    sbuf_release(&t);
    sbuf_release(&b);
    ctg_free(dir);
    ctg_free(args);
    replay_result_release(&rr);
    return ok;
}
