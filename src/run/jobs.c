/*
 * jobs.c - `ctestgen run --jobs N`.  The program is built once; N forked
 * workers then run the engine side by side, each in OUT/.jobs/wK, and
 * import each other's tests through those directories (engine_jobs.c).  A
 * worker that dies leaves what it wrote; the others go on.  When all have
 * ended, the merge runs every worker's tests and crashes into OUT: one
 * suite, each crash signature once, the workers' counters in stats.json
 * (jobs.wK.*).  Ctrl-C stops the workers and the merge still runs.
 */
/* _GNU_SOURCE (the build defines it): sched_setaffinity, CPU_* */
#include "jobs.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/interrupt.h"
#include "../base/mem.h"
#include "../base/sbuf.h"
#include "../report/stats.h"

char *jobs_worker_opts(const ctg_options *o, const char *dir, int k, int n, ctg_options *w)
{
    *w = *o;
    char *out = engine_worker_path(dir, k, NULL, NULL);
    uint64_t max = o->search.max_execs;
    w->out.out_dir = out;
    w->out.force = true;
    w->search.seed = o->search.seed + (uint64_t)k * 1000003u;
    w->search.max_execs = max ? max / (uint64_t)n + ((uint64_t)k < max % (uint64_t)n) : 0;
    w->search.sync_dir = dir;
    w->search.worker = k;
    w->exec.jobs = n;
    w->ui.quiet = true;
    return out;
}

bool jobs_merge(const ctg_options *o, const char *program_file, build_result *br,
                const char *dir, int n, double t_start, engine_summary *s, ctg_err *e)
{
    ctg_options m = *o;
    m.search.merge_dir = dir;
    m.exec.jobs = n;
    m.search.keep_going = true; /* every crash file too, after full coverage */
    m.search.crash_min_execs = 0; /* the workers minimised them */
    m.search.max_execs = 0;
    m.search.time_s = 0;
    br->secs = fs_now() - t_start;
    interrupt_hold(true); /* the merge saves what was found */
    bool ok = engine_run(&m, program_file, br, s, e);
    interrupt_hold(false);
    if (ok)
        fs_rm_rf(dir, NULL);
    return ok;
}

/* Pins worker k, and the program it forks, to the k-th CPU it may use,
 * as AFL++ binds each instance to a free core: a worker and its program
 * then share one core's caches instead of being moved between cores.
 * Only when there are at least n such CPUs; with fewer, the scheduler
 * shares them out. */
static void pin_worker(int k, int n)
{
    cpu_set_t allowed, one;
    if (sched_getaffinity(0, sizeof allowed, &allowed) != 0 || CPU_COUNT(&allowed) < n)
        return;
    for (int cpu = 0, seen = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, &allowed) || seen++ != k)
            continue;
        CPU_ZERO(&one);
        CPU_SET(cpu, &one);
        (void)sched_setaffinity(0, sizeof one, &one); /* a refusal only costs speed */
        return;
    }
}

/* A worker process: an ordinary run in dir/wK; never returns. */
static void worker(const ctg_options *o, const char *program_file, build_result *br,
                   const char *dir, int k)
{
    pin_worker(k, o->exec.jobs);
    ctg_options w;
    if (!jobs_worker_opts(o, dir, k, o->exec.jobs, &w))
        _exit(1);
    engine_summary s;
    memset(&s, 0, sizeof s);
    ctg_err e = {{0}};
    bool ok = engine_run(&w, program_file, br, &s, &e);
    if (!ok)
        fprintf(stderr, "ctestgen: job %d: %s\n", k, e.msg);
    fflush(stderr);
    _exit(ok ? 0 : 1);
}

/* The workers' executions and kept tests as their stats.json say now. */
static void sum_progress(const char *dir, int n, double *execs, double *tests)
{
    *execs = *tests = 0;
    for (int k = 0; k < n; k++) {
        char *p = engine_worker_path(dir, k, "stats.json", NULL);
        ctg_err e = {{0}};
        stats_t *st = p && fs_exists(p) ? stats_load(p, &e) : NULL;
        if (st)
            *execs += stats_get(st, "execs"), *tests += stats_get(st, "tests");
        stats_free(st);
        ctg_free(p);
    }
}

/* Waits for the workers; a progress line on a terminal.  A worker that
 * dies is reported; the others go on. */
static void wait_workers(const ctg_options *o, const char *dir, pid_t *pids, int n)
{
    int left = n;
    bool tty = isatty(2) && !o->ui.quiet;
    double next = fs_now() + 1.0;
    while (left > 0) {
        int st;
        pid_t p = waitpid(-1, &st, WNOHANG);
        if (p < 0 && errno != EINTR)
            break;
        for (int k = 0; p > 0 && k < n; k++) {
            if (pids[k] != p)
                continue;
            pids[k] = 0, left--;
            if (WIFSIGNALED(st) && !o->ui.quiet)
                fprintf(stderr, "%sctestgen: job %d ended by signal %d; what it wrote is kept\n",
                        tty ? "\r\033[K" : "", k, WTERMSIG(st));
        }
        if (p > 0)
            continue;
        if (tty && fs_now() >= next) {
            next = fs_now() + 1.0;
            double execs, tests;
            sum_progress(dir, n, &execs, &tests);
            fprintf(stderr, "\r\033[Kctestgen: %d jobs: %.0f executions, %.0f tests kept", left,
                    execs, tests);
        }
        usleep(50000);
    }
    if (tty)
        fputs("\r\033[K", stderr);
}

/* Writes dir/pids: "K PID" a line (to stop one worker by hand, or a test). */
static void write_pids(const char *dir, const pid_t *pids, int n)
{
    sbuf b = SBUF_INIT;
    for (int k = 0; k < n; k++)
        sbuf_printf(&b, "%d %ld\n", k, (long)pids[k]);
    char *p = fs_join(dir, "pids");
    ctg_err e = {{0}};
    if (p && sbuf_ok(&b))
        fs_write_atomic(p, b.data, b.len, &e);
    ctg_free(p);
    sbuf_release(&b);
}

/* Refuses an output directory that holds an earlier run (before the work,
 * not after it) and --resume, which --jobs does not do. */
bool jobs_check_out(const ctg_options *o, ctg_err *e)
{
    if (o->out.resume)
        return err_set(e, "--resume: not with --jobs; resume without --jobs (the merged run "
                          "goes on as one job)");
    char *a = fs_join(o->out.out_dir, "stats.json"), *b = fs_join(o->out.out_dir, "test-suite");
    bool earlier = (a && fs_exists(a)) || (b && fs_exists(b));
    ctg_free(a), ctg_free(b);
    if (earlier && !o->out.force)
        return err_set(e, "%s: holds an earlier run; pass --force to replace it or choose "
                          "another -o DIR", o->out.out_dir);
    return true;
}

bool jobs_run(const ctg_options *o, const char *program_file, build_result *br, double t_start,
              engine_summary *s, ctg_err *e)
{
    int n = o->exec.jobs;
    if (!jobs_check_out(o, e))
        return false;
    char *dir = fs_join(o->out.out_dir, ".jobs");
    if (!dir)
        return err_set(e, "out of memory");
    pid_t *pids = ctg_calloc((size_t)n, sizeof *pids);
    bool ok = pids && fs_rm_rf(dir, e) && fs_mkdir_p(dir, e);
    if (pids && !ok && !err_is_set(e))
        err_set(e, "out of memory");
    fflush(stdout), fflush(stderr);
    for (int k = 0; ok && k < n; k++) {
        pids[k] = fork();
        if (pids[k] == 0)
            worker(o, program_file, br, dir, k);
        if (pids[k] < 0) { /* the ones started go on; the merge takes theirs */
            pids[k] = 0;
            if (k == 0)
                ok = err_sys(e, "cannot start the jobs");
            else if (!o->ui.quiet)
                fprintf(stderr, "ctestgen: only %d of %d jobs started (%s)\n", k, n,
                        strerror(errno));
            break;
        }
    }
    if (ok) {
        write_pids(dir, pids, n);
        wait_workers(o, dir, pids, n);
        ok = jobs_merge(o, program_file, br, dir, n, t_start, s, e);
    }
    ctg_free(pids);
    ctg_free(dir);
    return ok;
}
