/*
 * prove_eva.c - the prover of prove.h on Frama-C's Eva: the stub file, the
 * command line, the background process and the reading of its log.
 */
#include "prove.h"

#include <ctype.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../base/ctype.h"
#include "../../base/fsutil.h"
#include "../../base/mem.h"
#include "../../base/sbuf.h"

#define PROVE_MAX_ARGS 64
#define PROVE_MAX_UNREACHED 4096
#define PROVE_WALL_FACTOR 2.0  /* wall-time guard: times the CPU limit ... */
#define PROVE_WALL_SLACK_S 10.0 /* ... plus this                          */

/* Eva's precisions, tried in turn while the last proved no error call
 * unreachable and CPU time is left: most programs take well under a
 * second at 1; 4 unrolls loops further and removes some alarms. */
static const int precisions[] = {1, 4};
#define N_STAGES ((int)(sizeof precisions / sizeof *precisions))

struct prove_job {
    prove_input in;   /* the caller's (sources and flags must outlive j)    */
    char *dir;        /* in.dir, owned                                      */
    int stage;        /* index in precisions[] of the analysis running      */
    pid_t pid;        /* > 0 while it runs                                  */
    int status;       /* its wait status; -1 when another waitpid reaped it */
    bool ended;
    double t0, t1;
    double cpu;       /* CPU seconds of the stages that ended             */
    char *log, *stubs;
    bool ok;          /* the log holds a complete, alarm-free analysis     */
    char why[256];
    char **unreached; /* functions no execution reaches                     */
    int n_unreached;
};

/* Functions Eva may model by the prototype alone: they do not come back
 * (modelled as returning: more executions, never fewer). */
static const char *const harmless_unknown[] = {"abort", "exit", "_exit", "__assert_fail",
                                               "__assert", "__VERIFIER_error"};

bool prove_available(void)
{
    const char *path = getenv("PATH");
    char buf[4096];
    for (const char *p = path; p && *p;) {
        const char *end = strchr(p, ':');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        snprintf(buf, sizeof buf, "%.*s/frama-c", (int)n, p);
        if (n && access(buf, X_OK) == 0)
            return true;
        p = end ? end + 1 : NULL;
    }
    return false;
}

/* Whether any source names fn (the stub of a function the program does not
 * use would only add an unused global). */
static bool sources_name(const prove_input *in, char *const *texts, const char *fn)
{
    for (int i = 0; i < in->n_sources; i++)
        if (texts[i] && strstr(texts[i], fn))
            return true;
    return false;
}

/* The stub file: Frama-C's libc declarations (their specifications then
 * apply to the program's own declarations), and for every
 * __VERIFIER_nondet_T the program names, any value of T (a volatile read). */
static bool write_stubs(const prove_input *in, const char *path, ctg_err *e)
{
    char *texts[64] = {0};
    int n = in->n_sources < 64 ? in->n_sources : 64;
    for (int i = 0; i < n; i++)
        if (!fs_read(in->sources[i], &texts[i], NULL, NULL))
            texts[i] = NULL;
    sbuf b = SBUF_INIT;
    sbuf_puts(&b, "/* ctestgen: stubs for Frama-C's Eva (any value of the type) */\n"
                  "#include <stdlib.h>\n#include <string.h>\n#include <assert.h>\n");
    for (int t = 0; t < CTG_T__COUNT; t++) {
        const ctg_type_info *ti = ctg_type_info_of((enum ctg_type)t);
        char fn[64];
        if (!ti || t == CTG_T_BYTES)
            continue;
        snprintf(fn, sizeof fn, "__VERIFIER_nondet_%s", ti->suffix);
        if (!sources_name(in, texts, fn))
            continue;
        bool is_bool = t == CTG_T_BOOL; /* a stored _Bool other than 0 or 1 is an alarm */
        sbuf_printf(&b, "volatile %s __ctg_any_%s;\n%s %s(void) { return __ctg_any_%s%s; }\n",
                    is_bool ? "unsigned char" : ti->decl, ti->suffix, ti->decl, fn, ti->suffix,
                    is_bool ? " != 0" : "");
    }
    if (sources_name(in, texts, "__VERIFIER_assume"))
        sbuf_puts(&b, "void __VERIFIER_assume(int c) { if (!c) abort(); }\n");
    for (int i = 0; i < n; i++)
        ctg_free(texts[i]);
    if (!sbuf_ok(&b)) {
        sbuf_release(&b);
        return err_set(e, "prove: out of memory");
    }
    bool ok = fs_write_atomic(path, b.data, b.len, e);
    sbuf_release(&b);
    return ok;
}

/* Frama-C's command line into argv (strings in *keep, freed by the caller). */
static int build_argv(const prove_input *in, const char *stubs, int precision, char **argv,
                      sbuf *cpp, char *prec, size_t cap)
{
    int k = 0;
    snprintf(prec, cap, "-eva-precision=%d", precision);
    argv[k++] = "frama-c";
    argv[k++] = "-machdep";
    argv[k++] = in->arch_bits == 32 ? "x86_32" : "x86_64";
    argv[k++] = "-eva";
    argv[k++] = "-no-warn-signed-overflow";   /* gcc -fwrapv: it wraps      */
    argv[k++] = "-warn-special-float=none";   /* inf and NaN flow on        */
    argv[k++] = "-eva-initialized-locals";    /* a local holds any value    */
    argv[k++] = prec;
    argv[k++] = "-metrics";
    argv[k++] = "-metrics-eva-cover";
    for (int i = 0; i < in->n_cflags; i++) {
        const char *f = in->cflags[i];
        if (!strncmp(f, "-I", 2) || !strncmp(f, "-D", 2) || !strncmp(f, "-U", 2))
            sbuf_printf(cpp, "%s%s", cpp->len ? " " : "", f);
    }
    if (cpp->len) {
        argv[k++] = "-cpp-extra-args";
        argv[k++] = cpp->data;
    }
    for (int i = 0; i < in->n_sources && k < PROVE_MAX_ARGS - 2; i++)
        argv[k++] = (char *)in->sources[i];
    argv[k++] = (char *)stubs;
    argv[k] = NULL;
    return k;
}

/* The child: its own group, nice 10 when it runs beside the search (not
 * when the run waits for it), a CPU limit, the log as its output. */
static void child(double cpu_s, bool courteous, const char *log, char **argv)
{
    setpgid(0, 0);
    if (courteous && setpriority(PRIO_PROCESS, 0, 10) != 0) {
        /* a lower priority is a courtesy; run anyway */
    }
    rlim_t cpu = cpu_s >= 1 ? (rlim_t)cpu_s : 1;
    struct rlimit rl = {cpu, cpu + 1};
    setrlimit(RLIMIT_CPU, &rl);
    int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644), null = open("/dev/null", O_RDONLY);
    if (fd < 0 || null < 0)
        _exit(126);
    dup2(null, 0);
    dup2(fd, 1);
    dup2(fd, 2);
    execvp(argv[0], argv);
    _exit(127);
}

/* Starts stage j->stage (its log: eva.log, then eva-pN.log); false with e
 * set when it cannot start. */
static bool start_stage(prove_job *j, ctg_err *e)
{
    char *argv[PROVE_MAX_ARGS], prec[32], name[32];
    sbuf cpp = SBUF_INIT;
    int p = precisions[j->stage];
    snprintf(name, sizeof name, j->stage ? "eva-p%d.log" : "eva.log", p);
    ctg_free(j->log);
    if (!(j->log = fs_join(j->in.dir, name)))
        return err_set(e, "prove: out of memory");
    build_argv(&j->in, j->stubs, p, argv, &cpp, prec, sizeof prec);
    double left = j->in.cpu_s - j->cpu;
    fflush(NULL);
    j->pid = fork();
    if (j->pid == 0)
        child(left, j->in.escalate, j->log, argv); /* waited for: no lower priority */
    sbuf_release(&cpp);
    if (j->pid < 0) {
        j->pid = 0;
        return err_sys(e, "prove: cannot start frama-c");
    }
    j->ended = false;
    return true;
}

prove_job *prove_start(const prove_input *in, ctg_err *e)
{
    prove_job *j = ctg_calloc(1, sizeof *j);
    if (!j) {
        err_set(e, "prove: out of memory");
        return NULL;
    }
    j->in = *in;
    j->in.dir = j->dir = ctg_strdup(in->dir);
    if (j->dir)
        fs_rm_rf(j->dir, NULL); /* an earlier run's logs */
    if (!j->dir || !fs_mkdir_p(in->dir, e)) {
        if (!j->dir)
            err_set(e, "prove: out of memory");
        prove_free(j);
        return NULL;
    }
    j->stubs = fs_join(in->dir, "ctestgen_stubs.c");
    j->t0 = fs_now();
    if (!j->stubs || !write_stubs(in, j->stubs, e) || !start_stage(j, e)) {
        prove_free(j);
        return NULL;
    }
    return j;
}

/* ---- reading the log ------------------------------------------------------ */

/* The count before `what` on the line that holds it ("0 alarms generated"),
 * -1 when no line holds it. */
static long count_before(const char *log, const char *what)
{
    const char *p = strstr(log, what);
    if (!p)
        return -1;
    const char *q = p;
    while (q > log && q[-1] == ' ')
        q--;
    while (q > log && isdigit((unsigned char)q[-1]))
        q--;
    return isdigit((unsigned char)*q) ? strtol(q, NULL, 10) : -1;
}

/* Whether every logical property Eva reached was proven ("0 unknown" and
 * "0 invalid" on each row of its evaluation table). */
static bool properties_proven(const char *log)
{
    const char *p = strstr(log, "Evaluation of the logical properties");
    if (!p)
        return true; /* none reached */
    for (int row = 0; row < 8; row++) {
        p = strchr(p, '\n');
        if (!p || !strstr(p, " total"))
            return true;
        long valid, unknown, invalid, total;
        char name[64];
        if (sscanf(p + 1, " %63s %ld valid %ld unknown %ld invalid %ld total", name, &valid,
                   &unknown, &invalid, &total) == 5 &&
            (unknown || invalid))
            return false;
        p++;
    }
    return true;
}

/* The first function called with neither code nor specification that is not
 * harmless (its model by the prototype could leave executions out), into
 * name; false when there is none. */
static bool unknown_function(const char *log, char *name, size_t cap)
{
    static const char key[] = "Neither code nor specification for function ";
    for (const char *p = strstr(log, key); p; p = strstr(p + 1, key)) {
        const char *s = p + sizeof key - 1, *end = strchr(s, ',');
        size_t n = end ? (size_t)(end - s) : 0;
        bool harmless = false;
        for (size_t i = 0; i < sizeof harmless_unknown / sizeof *harmless_unknown; i++)
            harmless |= strlen(harmless_unknown[i]) == n && !strncmp(s, harmless_unknown[i], n);
        if (!harmless) {
            snprintf(name, cap, "%.*s", (int)(n < 150 ? n : 150), s);
            return true;
        }
    }
    return false;
}

/* The reason the log proves nothing, or NULL when it is a complete analysis
 * with no alarm (why: room for the reason). */
static const char *log_void(const char *log, char *why, size_t cap)
{
    char fn[200];
    long alarms = count_before(log, " alarms generated by the analysis");
    if (alarms < 0)
        alarms = count_before(log, " alarm generated by the analysis");
    if (strstr(log, "User Error") || strstr(log, "[kernel] Plug-in") ||
        !strstr(log, "[metrics] Eva coverage statistics"))
        return snprintf(why, cap, "the analysis did not complete (see the log)"), why;
    if (strstr(log, "degenerat"))
        return snprintf(why, cap, "the analysis degenerated"), why;
    if (alarms != 0)
        return snprintf(why, cap, "%ld alarm%s (undefined behaviour not ruled out)", alarms,
                        alarms == 1 ? "" : "s"), why;
    if (!properties_proven(log))
        return snprintf(why, cap, "a library precondition not proven"), why;
    if (unknown_function(log, fn, sizeof fn))
        return snprintf(why, cap, "%.200s has neither code nor specification", fn), why;
    return NULL;
}

/* Frama-C's first "User Error" message (the reason it stopped), in why. */
static const char *user_error(const char *log, char *why, size_t cap)
{
    const char *p = strstr(log, "User Error:");
    if (!p)
        return snprintf(why, cap, "frama-c failed (see the log)"), why;
    p += strlen("User Error:");
    while (*p == ' ' || *p == '\n')
        p++;
    size_t n = strcspn(p, "\n");
    if (n > 160)
        n = 160;
    return snprintf(why, cap, "frama-c stopped: %.*s", (int)n, p), why;
}

/* Adds the names of "Unreached functions (N) = <file>: f; g;" to j. */
static void read_unreached(prove_job *j, const char *log)
{
    const char *p = strstr(log, "Unreached functions (");
    p = p ? strchr(p, '=') : NULL;
    if (!p || (!j->unreached &&
               !(j->unreached = ctg_calloc(PROVE_MAX_UNREACHED, sizeof *j->unreached))))
        return;
    const char *end = strstr(p, "\n[");
    for (p++; *p && (!end || p < end) && j->n_unreached < PROVE_MAX_UNREACHED;) {
        while (*p && (isspace((unsigned char)*p) || *p == ';'))
            p++;
        if (*p == '<') { /* "<file.c>:" names the file of those that follow */
            const char *gt = strstr(p, ">:");
            p = gt ? gt + 2 : p + 1;
            continue;
        }
        size_t n = 0;
        while (isalnum((unsigned char)p[n]) || p[n] == '_')
            n++;
        if (!n)
            break;
        char *name = ctg_malloc(n + 1);
        if (!name)
            return;
        memcpy(name, p, n);
        name[n] = '\0';
        j->unreached[j->n_unreached++] = name;
        p += n;
    }
}

/* Whether an error function is among the unreached. */
static bool error_unreached(const prove_job *j)
{
    for (int i = 0; i < j->n_unreached; i++)
        if (!strcmp(j->unreached[i], "reach_error") || !strcmp(j->unreached[i], "__VERIFIER_error"))
            return true;
    return false;
}

/* The log, once the process ended: what it proved (added to what an
 * earlier stage proved; a failed stage takes nothing away).  Returns
 * whether a further stage may prove more: this one ended by itself, with
 * alarms or without an error function unreached. */
static bool read_log(prove_job *j)
{
    char *log = NULL;
    ctg_err e;
    if (!fs_read(j->log, &log, NULL, &e)) {
        snprintf(j->why, sizeof j->why, "no log: %.200s", e.msg);
        return false;
    }
    bool killed = j->status >= 0 && WIFSIGNALED(j->status);
    bool failed = j->status >= 0 && WIFEXITED(j->status) && WEXITSTATUS(j->status) != 0;
    const char *why = killed   ? "the analysis did not finish within its time (--prove-time)"
                      : failed ? user_error(log, j->why, sizeof j->why)
                               : log_void(log, j->why, sizeof j->why);
    if (why && why != j->why)
        snprintf(j->why, sizeof j->why, "%s", why);
    if (!why) {
        j->ok = true;
        read_unreached(j, log);
    }
    ctg_free(log);
    return !killed && !failed && !error_unreached(j);
}

/* waitpid on the running stage; with wait, until it ends or the wall-time
 * guard (PROVE_WALL_FACTOR times its CPU limit, plus PROVE_WALL_SLACK_S:
 * a process blocked off the CPU would never reach its limit) kills it. */
static pid_t wait_stage(prove_job *j, bool wait, int *st)
{
    double deadline = j->t0 + PROVE_WALL_FACTOR * j->in.cpu_s + PROVE_WALL_SLACK_S;
    for (;;) {
        struct rusage ru;
        pid_t w = wait4(j->pid, st, WNOHANG, &ru);
        if (w > 0) /* its own CPU time, whatever the machine's load */
            j->cpu += (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
                      (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
        if (w != 0 || !wait)
            return w;
        if (fs_now() > deadline) {
            kill(-j->pid, SIGKILL);
            kill(j->pid, SIGKILL);
        }
        struct timespec ts = {0, 20000000};
        nanosleep(&ts, NULL);
    }
}

bool prove_poll(prove_job *j, bool wait)
{
    while (j && !j->ended) {
        int st = 0;
        pid_t w = wait_stage(j, wait, &st);
        if (w == 0)
            return false;
        j->status = w == j->pid ? st : -1; /* -1: reaped by a clean-up elsewhere */
        j->ended = true;
        j->pid = 0;
        j->t1 = fs_now();
        bool more = read_log(j) && j->in.escalate && j->stage + 1 < N_STAGES &&
                    j->cpu + 1 < j->in.cpu_s;
        ctg_err e = {{0}};
        if (more) {
            j->stage++;
            if (!start_stage(j, &e))
                j->ended = true; /* what the earlier stages proved stands */
        }
    }
    return true;
}

bool prove_result(const prove_job *j, const char *const **unreached, int *n, const char **why)
{
    *unreached = (const char *const *)j->unreached;
    *n = j->n_unreached;
    *why = j->ok ? NULL : j->why;
    return j->ok;
}

double prove_seconds(const prove_job *j) { return (j->ended ? j->t1 : fs_now()) - j->t0; }

double prove_cpu_seconds(const prove_job *j) { return j->cpu; }

const char *prove_log(const prove_job *j) { return j->log; }

void prove_free(prove_job *j)
{
    if (!j)
        return;
    if (j->pid > 0) {
        kill(-j->pid, SIGKILL);
        kill(j->pid, SIGKILL);
        waitpid(j->pid, NULL, 0);
    }
    for (int i = 0; i < j->n_unreached; i++)
        ctg_free(j->unreached[i]);
    ctg_free(j->unreached);
    ctg_free(j->log);
    ctg_free(j->stubs);
    ctg_free(j->dir);
    ctg_free(j);
}
