/*
 * export_runner.c - the end of every file `ctestgen export` and `ctestgen
 * run` (regression.c of a stdin or @@ target) write (src/report/export.c):
 * the __VERIFIER_nondet_* functions, the error stubs and the runner.  Not
 * compiled on its own: the generated file defines before it
 *   CTG_ERROR_EXIT, CTG_TIMEOUT_S, CTG_EXIT / CTG_SIGNAL / CTG_ERROR,
 *   ctg_args[]  (the program's arguments, NULL-terminated; "@@" = the test's file),
 *   ctg_tests[] (name, values or bytes and their length, the expected end),
 *   and for a libFuzzer target CTG_LIBFUZZER: each test's bytes go to
 *   LLVMFuzzerTestOneInput, and this file brings the main the target lacks.
 */
static const char *const *ctg_cur; /* the running test's values */
static size_t ctg_pos;

/* The next value's text; the test ends (exit 0) when none is left, as in TestCov. */
static const char *ctg_next(void)
{
    if (!ctg_cur || !ctg_cur[ctg_pos])
        exit(0);
    const char *s = ctg_cur[ctg_pos++];
    return s[0] == '\'' && s[1] ? s + 1 : s; /* a quoted character */
}

static long long ctg_i(void)
{
    const char *s = ctg_next();
    return s[0] && s[1] == '\'' ? (unsigned char)s[0] : strtoll(s, NULL, 0);
}
static unsigned long long ctg_u(void) { return strtoull(ctg_next(), NULL, 0); }
static double ctg_d(void) { return strtod(ctg_next(), NULL); }

#define CTG_WEAK __attribute__((weak))
CTG_WEAK _Bool __VERIFIER_nondet_bool(void) { return ctg_i() != 0; }
CTG_WEAK char __VERIFIER_nondet_char(void) { return (char)ctg_i(); }
CTG_WEAK unsigned char __VERIFIER_nondet_uchar(void) { return (unsigned char)ctg_u(); }
CTG_WEAK short __VERIFIER_nondet_short(void) { return (short)ctg_i(); }
CTG_WEAK unsigned short __VERIFIER_nondet_ushort(void) { return (unsigned short)ctg_u(); }
CTG_WEAK int __VERIFIER_nondet_int(void) { return (int)ctg_i(); }
CTG_WEAK unsigned int __VERIFIER_nondet_uint(void) { return (unsigned int)ctg_u(); }
CTG_WEAK long __VERIFIER_nondet_long(void) { return (long)ctg_i(); }
CTG_WEAK unsigned long __VERIFIER_nondet_ulong(void) { return (unsigned long)ctg_u(); }
CTG_WEAK long long __VERIFIER_nondet_longlong(void) { return ctg_i(); }
CTG_WEAK unsigned long long __VERIFIER_nondet_ulonglong(void) { return ctg_u(); }
CTG_WEAK float __VERIFIER_nondet_float(void) { return (float)ctg_d(); }
CTG_WEAK double __VERIFIER_nondet_double(void) { return ctg_d(); }
CTG_WEAK void *__VERIFIER_nondet_pointer(void) { return (void *)(size_t)ctg_u(); }
CTG_WEAK size_t __VERIFIER_nondet_size_t(void) { return (size_t)ctg_u(); }
CTG_WEAK void __VERIFIER_assume(int c)
{
    if (!c)
        exit(0);
}
CTG_WEAK void reach_error(void) { exit(CTG_ERROR_EXIT); }
CTG_WEAK void __VERIFIER_error(void) { exit(CTG_ERROR_EXIT); }

/* Whether an argument is "@@": the test's bytes are a file, not stdin. */
static int ctg_file_arg(void)
{
    for (size_t k = 0; ctg_args[k]; k++)
        if (!strcmp(ctg_args[k], "@@"))
            return 1;
    return 0;
}

/* Runs this program again with the run's arguments ("@@" becomes the
 * test's file); the constructor of the new image lets main run. */
static void ctg_exec_with_args(FILE *in)
{
    static char path[64];
    const char *argv[sizeof ctg_args / sizeof ctg_args[0] + 1];
    snprintf(path, sizeof path, "/proc/self/fd/%d", in ? fileno(in) : -1);
    argv[0] = "prog";
    for (size_t k = 0; ctg_args[k]; k++)
        argv[k + 1] = strcmp(ctg_args[k], "@@") ? ctg_args[k] : path;
    argv[sizeof ctg_args / sizeof ctg_args[0]] = NULL;
    setenv("CTG_REGRESSION_CHILD", "1", 1);
    execv("/proc/self/exe", (char *const *)argv);
    _exit(127);
}

/* Runs before main: each test in a child that returns into main with its
 * values; this process only waits and compares, then exits. */
__attribute__((constructor)) static void ctg_run_tests(void)
{
    if (getenv("CTG_REGRESSION_CHILD"))
        return; /* a test run again with its arguments */
    int passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof ctg_tests / sizeof ctg_tests[0]; i++) {
        fflush(NULL);
        pid_t p = fork();
        if (p < 0) {
            perror("fork");
            exit(2);
        }
        if (p == 0) {
            int null = open("/dev/null", O_RDWR);
            if (null >= 0)
                dup2(null, 0), dup2(null, 1), dup2(null, 2);
            FILE *in = ctg_tests[i].bytes ? tmpfile() : NULL; /* a byte test's stdin or file */
            if (in && fwrite(ctg_tests[i].bytes, 1, ctg_tests[i].len, in) == ctg_tests[i].len &&
                fflush(in) == 0 && lseek(fileno(in), 0, SEEK_SET) == 0 && !ctg_file_arg())
                dup2(fileno(in), 0);
            ctg_cur = ctg_tests[i].values;
            ctg_pos = 0;
            alarm(CTG_TIMEOUT_S); /* a hang fails the test */
#ifdef CTG_LIBFUZZER
            { /* a copy of its own, as libFuzzer hands the data */
                unsigned char *copy = malloc(ctg_tests[i].len ? ctg_tests[i].len : 1);
                if (!copy)
                    _exit(2);
                memcpy(copy, ctg_tests[i].bytes, ctg_tests[i].len);
                LLVMFuzzerTestOneInput(copy, ctg_tests[i].len);
                free(copy);
                exit(0);
            }
#endif
            if (ctg_args[0])
                ctg_exec_with_args(in);
            return; /* into the program's main */
        }
        int ws = 0;
        while (waitpid(p, &ws, 0) < 0)
            ;
        int want = ctg_tests[i].code, ok;
        const char *what;
        switch (ctg_tests[i].end) {
        case CTG_EXIT:
            ok = WIFEXITED(ws) && WEXITSTATUS(ws) == want;
            what = "exit code";
            break;
        case CTG_SIGNAL:
            ok = WIFSIGNALED(ws) && WTERMSIG(ws) == want;
            what = "signal";
            break;
        default: /* the error: reach_error aborts, or the stub exits */
            ok = (WIFEXITED(ws) && WEXITSTATUS(ws) == CTG_ERROR_EXIT) ||
                 (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGABRT);
            what = "the error";
            break;
        }
        if (ok) {
            passed++;
            continue;
        }
        failed++;
        printf("FAIL %s: expected %s %d, ", ctg_tests[i].name, what, want);
        if (WIFSIGNALED(ws))
            printf("got signal %d\n", WTERMSIG(ws));
        else
            printf("got exit code %d\n", WEXITSTATUS(ws));
    }
    printf("%d passed, %d failed\n", passed, failed);
    exit(failed ? 1 : 0);
}

#ifdef CTG_LIBFUZZER
/* The constructor above runs the tests and exits: this main is the one a
 * libFuzzer target lacks. */
int main(void) { return 0; }
#endif
