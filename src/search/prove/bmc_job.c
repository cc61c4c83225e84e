/*
 * bmc_job.c - the bounded checker beside the search: a child process
 * (nice 10, a CPU limit) runs bmc_check and writes its result file; the
 * engine polls for it.  Reading the file back is here too.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../base/fsutil.h"
#include "../../base/interrupt.h"
#include "../../base/mem.h"
#include "bmc.h"

#define BMC_CPU_SLACK_S 5.0 /* the hard CPU limit: the soft one plus this */
#define BMC_WALL_FACTOR 2.0 /* a wait gives up after this times cpu_s ... */
#define BMC_WALL_SLACK_S 10.0 /* ... plus this (a child that sleeps)      */

struct bmc_job {
    pid_t pid;
    double t0, wall_s; /* its start; how long a wait may take       */
    uint32_t n_goals;
    bool ended;
    char *path;
    bmc_result r;
    char why[200];
};

/* One "goal ID ANSWER HEX-" line into r. */
static bool read_goal(const char *line, bmc_result *r)
{
    unsigned g;
    char ans[16];
    int at = 0;
    if (sscanf(line, "goal %u %15s %n", &g, ans, &at) != 2 || g >= r->n_goals)
        return false;
    bmc_goal *d = &r->goals[g];
    d->answer = !strcmp(ans, "sat") ? BMC_SAT : !strcmp(ans, "unsat") ? BMC_UNSAT : BMC_UNKNOWN;
    const char *hex = line + at;
    size_t n = strcspn(hex, "-\n") / 2;
    r->unsat += d->answer == BMC_UNSAT;
    r->unknown += d->answer == BMC_UNKNOWN;
    if (d->answer != BMC_SAT)
        return true;
    d->bytes = ctg_calloc(n + 1, 1);
    if (!d->bytes)
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned v;
        if (sscanf(hex + 2 * i, "%2x", &v) != 1)
            return false;
        d->bytes[i] = (uint8_t)v;
    }
    d->n_bytes = n;
    r->sat++;
    return true;
}

bool bmc_result_read(const char *path, uint32_t n_goals, bmc_result *r, ctg_err *e)
{
    char *data = NULL;
    size_t len = 0;
    memset(r, 0, sizeof *r);
    if (!fs_read(path, &data, &len, e))
        return false;
    r->n_goals = n_goals;
    r->goals = ctg_calloc(n_goals + 1, sizeof *r->goals);
    int ok = 0, ex = 0;
    bool good = r->goals != NULL;
    for (char *line = data; good && line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (!strncmp(line, "goal ", 5))
            good = read_goal(line, r);
        else if (!strncmp(line, "why ", 4) && strncmp(line, "why -", 5))
            snprintf(r->why, sizeof r->why, "%.*s", (int)strcspn(line + 4, "\n"), line + 4);
        else
            sscanf(line, "ok %d", &ok), sscanf(line, "steps %u", &r->steps),
                sscanf(line, "exhaustive %d", &ex), sscanf(line, "secs %lf", &r->secs);
    }
    r->ok = ok && good;
    r->exhaustive = ex;
    ctg_free(data);
    if (!good)
        err_set(e, "%s: unreadable result of the bounded checker", path);
    return good;
}

/* The child: the check, the file, the exit. */
static void child(const bmc_input *in, const char *path)
{
    if (nice(10) < 0) { /* best effort */
    }
    if (in->cpu_s > 0) {
        rlim_t s = (rlim_t)(in->cpu_s + BMC_CPU_SLACK_S);
        setrlimit(RLIMIT_CPU, &(struct rlimit){s, s + 1});
    }
    bmc_result r;
    ctg_err e = {{0}};
    bmc_input own = *in;
    own.result_path = path;
    bool ok = bmc_check(&own, &r, &e);
    if (!ok)
        snprintf(r.why, sizeof r.why, "%.180s", e.msg);
    ok = bmc_result_write(&r, path, &e);
    _exit(ok ? 0 : 1);
}

bmc_job *bmc_start(const bmc_input *in, ctg_err *e)
{
    bmc_job *j = ctg_calloc(1, sizeof *j);
    if (!j || !(j->path = fs_join(in->dir, "bmc.result"))) {
        ctg_free(j);
        return err_set(e, "out of memory"), NULL;
    }
    j->n_goals = in->n_edges + in->n_errors;
    j->t0 = fs_now();
    j->wall_s = in->cpu_s > 0 ? in->cpu_s * BMC_WALL_FACTOR + BMC_WALL_SLACK_S : 1e12;
    unlink(j->path);
    fflush(NULL);
    j->pid = fork();
    if (j->pid == 0)
        child(in, j->path);
    if (j->pid < 0) {
        err_set(e, "cannot start the bounded checker (fork failed)");
        bmc_free(j);
        return NULL;
    }
    return j;
}

bool bmc_poll(bmc_job *j, bool wait)
{
    if (j->ended)
        return true;
    int st = 0;
    pid_t p;
    while ((p = waitpid(j->pid, &st, WNOHANG)) == 0 && wait && !interrupt_requested()) {
        if (fs_now() - j->t0 > j->wall_s) { /* it sleeps: stop it */
            kill(j->pid, SIGKILL);
            waitpid(j->pid, NULL, 0);
            j->pid = 0;
            j->ended = true;
            snprintf(j->why, sizeof j->why, "the bounded checker took too long");
            return true;
        }
        usleep(20000);
    }
    if (p == 0)
        return false;
    j->ended = true;
    j->pid = 0;
    ctg_err e = {{0}};
    bool cpu = p > 0 && WIFSIGNALED(st) && (WTERMSIG(st) == SIGXCPU || WTERMSIG(st) == SIGKILL);
    if (cpu && bmc_result_read(j->path, j->n_goals, &j->r, &e)) /* its last checkpoint */
        return true;
    if (p < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
        snprintf(j->why, sizeof j->why, "the bounded checker %s",
                 cpu ? "ran out of CPU time" : "failed");
    else if (!bmc_result_read(j->path, j->n_goals, &j->r, &e))
        snprintf(j->why, sizeof j->why, "%.180s", e.msg);
    return true;
}

const bmc_result *bmc_job_result(const bmc_job *j, const char **why)
{
    *why = j->why[0] ? j->why : j->r.why;
    return j->ended && !j->why[0] ? &j->r : NULL;
}

void bmc_free(bmc_job *j)
{
    if (!j)
        return;
    if (j->pid > 0) {
        kill(j->pid, SIGKILL);
        waitpid(j->pid, NULL, 0);
    }
    bmc_result_release(&j->r);
    ctg_free(j->path);
    ctg_free(j);
}
