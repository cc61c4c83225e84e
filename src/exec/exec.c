/*
 * exec.c - the executor (exec.h): drives the fork server of an instrumented
 * binary through the protocol of rt_protocol.h and classifies each run.
 *
 * Life cycle: exec_new creates the shared memory (a memfd laid out by
 * ctg_shm_layout_for), spawns the server and checks its hello.  exec_run
 * resets what the last run dirtied, writes the input, sends CTG_CMD_RUN,
 * receives the child's pid and wait status in one receive under the per-run
 * timeout (SO_RCVTIMEO + MSG_WAITALL on the status channel, so a run costs
 * two system calls here), kills the child's process group on expiry, and
 * classifies.  A
 * server that died is restarted and the input run again.
 *
 * Classification order: error > assume > oom > timeout/signal/exit.  The
 * runtime's status bits are authoritative; exit codes are only reported.
 */
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../base/fsutil.h"
#include "../base/mem.h"
#include "../runtime/rt_symtrace.h"
#include "../base/sbuf.h"
#include "../base/target.h"
#include "exec_os.h"

extern char **environ;

#define EXEC_HELLO_MS 10000u          /* start-up budget of the fork server   */
#define EXEC_KILL_GRACE_MS 5000u      /* status after SIGKILL must come by then */
#define EXEC_LOG_CAP (1u << 20)       /* stderr bytes per fork server          */
#define EXEC_MAX_RESTARTS_PER_RUN 3

struct exec {
    char *binary;
    char *stderr_log;
    char *work_dir;
    uint32_t run_flags;
    uint32_t n_edges, n_cmp;
    uint32_t timeout_ms;
    uint32_t extend_max; /* header extend_max of every run (0: no bound) */
    uint64_t mem_limit_mb;
    bool sanitizer;      /* exec_config.sanitizer                         */
    char **argv;         /* binary, the program's arguments, NULL (owned) */
    char **envp;

    int shm_fd;
    uint8_t *shm;
    int trace_fd;        /* symbolic trace region (prog.sym), -1: none */
    uint8_t *trace;
    size_t trace_size;
    uint32_t trace_nodes, trace_pc;
    uint32_t sym_from;   /* exec_set_sym_from                          */
    ctg_shm_layout lay;
    ctg_shm_hdr *hdr;

    pid_t srv_pid; /* 0: no server running */
    pid_t child;   /* the last run's child (a persistent one may live on) */
    int ctl_fd, st_fd;
    int log_fd;
    uint32_t harness;

    uint64_t runs, restarts;
    double batch_overlap_us, batch_wait_us; /* exec_batch_times         */
    void (*overlap)(void *); /* exec_set_overlap                        */
    void *overlap_arg;
    const uint32_t *watch;   /* exec_set_watch                          */
    uint32_t n_watch;
    const uint8_t *watch_log;
    uint32_t watched;        /* inputs of the last batch whose broken
                                records are valid (0: none)            */
};

static const char *const kind_names[EXEC__COUNT] = {
    [EXEC_NORMAL] = "normal", [EXEC_ERROR] = "error",     [EXEC_ASSUME] = "assume",
    [EXEC_ABORT] = "abort",   [EXEC_CRASH] = "crash",     [EXEC_TIMEOUT] = "timeout",
    [EXEC_OOM] = "oom",       [EXEC_SANITIZER] = "sanitizer",
};

const char *exec_kind_name(exec_kind k)
{
    return (unsigned)k < EXEC__COUNT ? kind_names[k] : "?";
}

/* ==== set-up ================================================================ */

/* Frees a NULL-terminated string array made by make_env. */
static void free_env(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        ctg_free(env[i]);
    ctg_free(env);
}

/* NAME=OURS:THEIRS for a sanitizer's options variable, owned; mem_mb
 * bounds the heap.  THEIRS: CTESTGEN_NAME, the user's additions (not NAME
 * itself, which may be ctestgen's own: an ASan build of ctestgen). */
static char *san_var(const char *name, const char *ours, uint64_t mem_mb)
{
    char user[64];
    snprintf(user, sizeof user, "CTESTGEN_%s", name);
    const char *theirs = getenv(user);
    sbuf b = SBUF_INIT;
    sbuf_printf(&b, "%s=%s", name, ours);
    if (mem_mb && !strcmp(name, "ASAN_OPTIONS"))
        sbuf_printf(&b, ":malloc_limit_mb=%llu", (unsigned long long)mem_mb);
    if (theirs && *theirs)
        sbuf_printf(&b, ":%s", theirs);
    return sbuf_take(&b);
}

/* Whether environment entry v sets variable name. */
static bool env_is(const char *v, const char *name)
{
    size_t n = strlen(name);
    return !strncmp(v, name, n) && v[n] == '=';
}

/* The server's environment: a copy of ours, minus stale CTESTGEN_FORKSRV
 * and CTESTGEN_INPUT, plus CTESTGEN_FORKSRV=1 and LD_BIND_NOW=1 (each
 * string owned); for a sanitizer binary, its options (exec.h). */
static char **make_env(bool sanitizer, uint64_t mem_mb)
{
    size_t n = 0;
    while (environ && environ[n])
        n++;
    char **env = ctg_calloc(n + 5u, sizeof *env);
    if (!env)
        return NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!env_is(environ[i], CTG_ENV_FORKSRV) && !env_is(environ[i], CTG_ENV_INPUT) &&
            !(sanitizer && (env_is(environ[i], "ASAN_OPTIONS") ||
                            env_is(environ[i], "UBSAN_OPTIONS"))) &&
            !(env[k++] = ctg_strdup(environ[i])))
            goto oom;
    if (sanitizer && (!(env[k++] = san_var("ASAN_OPTIONS", EXEC_ASAN_OPTIONS, mem_mb)) ||
                      !(env[k++] = san_var("UBSAN_OPTIONS", EXEC_UBSAN_OPTIONS, 0))))
        goto oom;
    if (!(env[k++] = ctg_strdup(CTG_ENV_FORKSRV "=1")))
        goto oom;
    /* resolve every symbol once in the server, not lazily in each child */
    if (!getenv("LD_BIND_NOW") && !(env[k] = ctg_strdup("LD_BIND_NOW=1")))
        goto oom;
    return env;
oom:
    free_env(env);
    return NULL;
}

/* Writes the executor's fields of the header that never change. */
static void init_header(exec_t *x)
{
    ctg_shm_hdr *h = x->hdr;
    h->magic = CTG_SHM_MAGIC;
    h->version = CTG_PROTOCOL_VERSION;
    h->n_edges = x->n_edges;
    h->n_cmp = x->n_cmp;
}

/* Closes the channels and kills the server, if any. */
static void server_stop(exec_t *x)
{
    if (x->ctl_fd >= 0)
        close(x->ctl_fd);
    if (x->st_fd >= 0)
        close(x->st_fd);
    x->ctl_fd = x->st_fd = -1;
    exec_os_reap(x->srv_pid);
    x->srv_pid = 0;
    exec_os_kill_group(x->child); /* a persistent child outlives its server */
    x->child = 0;
}

/* Reads and checks the hello of a freshly spawned server. */
static bool check_hello(exec_t *x, ctg_err *e)
{
    ctg_hello h;
    int rc = exec_os_recv(x->st_fd, &h, sizeof h, NULL);
    if (rc < 0)
        return err_set(e, "%s: the fork server did not answer within %u s (does a global "
                          "constructor hang?)", x->binary, EXEC_HELLO_MS / 1000u);
    if (rc == 0)
        return err_set(e, "%s: not built by this ctestgen (no fork-server hello: not "
                          "instrumented, crashed at start-up, or the memory limit of %llu MiB "
                          "is too low); rebuild", x->binary, (unsigned long long)x->mem_limit_mb);
    if (h.magic != CTG_HELLO_MAGIC || h.version != CTG_PROTOCOL_VERSION ||
        h.n_edges != x->n_edges || h.n_cmp != x->n_cmp)
        return err_set(e, "%s: not built by this ctestgen (protocol mismatch); rebuild",
                       x->binary);
    x->harness = h.harness;
    return true;
}

/* Opens the stderr log for a server start and returns the RLIMIT_FSIZE that
 * lets it grow by EXEC_LOG_CAP bytes.  -1 when there is no log. */
static int open_log(exec_t *x, bool first, uint64_t *fsize, ctg_err *e)
{
    *fsize = 0;
    if (!x->stderr_log)
        return -1;
    int fd = open(x->stderr_log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | (first ? O_TRUNC : 0),
                  0644);
    if (fd < 0) {
        err_sys(e, "%s: cannot open the stderr log", x->stderr_log);
        return -2;
    }
    struct stat st;
    *fsize = (fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0u) + EXEC_LOG_CAP;
    return fd;
}

/* Spawns the fork server and waits for its hello. */
static bool server_start(exec_t *x, bool first, ctg_err *e)
{
    int ctl[2], st[2];
    uint64_t fsize;
    int log = open_log(x, first, &fsize, e);
    if (log == -2)
        return false;
    if (!exec_os_channel(ctl, e)) {
        if (log >= 0)
            close(log);
        return false;
    }
    if (!exec_os_channel(st, e)) {
        close(ctl[0]);
        close(ctl[1]);
        if (log >= 0)
            close(log);
        return false;
    }
    /* the limit is the program's: the shared memory it maps comes on top */
    uint64_t as_mb = x->sanitizer ? 0 : x->mem_limit_mb + ((x->lay.size + (1u << 20) - 1) >> 20);
    exec_os_spawn s = {x->binary, x->argv, x->envp, ctl[1], st[1], x->shm_fd, log,
                       as_mb, fsize, x->trace_fd, x->work_dir};
    bool ok = exec_os_spawn_server(&s, &x->srv_pid, e);
    close(ctl[1]);
    close(st[1]);
    if (log >= 0)
        close(log);
    x->ctl_fd = ctl[0];
    x->st_fd = st[0];
    if (ok && !exec_os_set_timeout(x->st_fd, EXEC_HELLO_MS))
        ok = err_sys(e, "executor: cannot set a receive timeout");
    if (ok)
        ok = check_hello(x, e);
    if (ok && !exec_os_set_timeout(x->st_fd, x->timeout_ms))
        ok = err_sys(e, "executor: cannot set a receive timeout");
    if (!ok)
        server_stop(x);
    return ok;
}

/* Creates the symbolic trace region of a prog.sym executor. */
static bool trace_new(exec_t *x, uint32_t nodes, uint32_t pc, ctg_err *e)
{
    x->trace_nodes = nodes;
    x->trace_pc = pc ? pc : 1u;
    x->trace_size = (size_t)ctg_symtrace_size(x->trace_nodes, x->trace_pc);
    if (!exec_os_shm_new(x->trace_size, &x->trace_fd, &x->trace, e))
        return false;
    ctg_symtrace_init(x->trace, x->trace_nodes, x->trace_pc);
    return true;
}

exec_t *exec_new(const exec_config *c, ctg_err *e) { return exec_new_traced(c, 0, 0, e); }

exec_t *exec_new_traced(const exec_config *c, uint32_t trace_nodes, uint32_t trace_pc, ctg_err *e)
{
    if (!c || !c->binary) {
        err_set(e, "executor: no program to run");
        return NULL;
    }
    exec_t *x = ctg_calloc(1, sizeof *x);
    if (!x) {
        err_set(e, "%s: out of memory starting the executor", c->binary);
        return NULL;
    }
    x->shm_fd = x->ctl_fd = x->st_fd = x->trace_fd = -1;
    /* absolute: the server runs in work_dir */
    x->binary = c->work_dir ? fs_realpath(c->binary, NULL) : ctg_strdup(c->binary);
    x->work_dir = c->work_dir ? ctg_strdup(c->work_dir) : NULL;
    x->run_flags = c->run_flags;
    x->stderr_log = c->stderr_log ? ctg_strdup(c->stderr_log) : NULL;
    x->sanitizer = c->sanitizer;
    x->mem_limit_mb = c->mem_limit_mb ? c->mem_limit_mb : 2048u;
    x->envp = make_env(c->sanitizer, x->mem_limit_mb);
    x->n_edges = c->n_edges;
    x->n_cmp = c->n_cmp;
    x->timeout_ms = c->timeout_ms ? c->timeout_ms : 1000u;
    x->mem_limit_mb = c->mem_limit_mb ? c->mem_limit_mb : 2048u;
    x->lay = ctg_shm_layout_for(x->n_edges, x->n_cmp);
    if (!x->binary || !x->envp || (c->stderr_log && !x->stderr_log) ||
        (c->work_dir && !x->work_dir)) {
        err_set(e, "%s: out of memory starting the executor", c->binary);
        exec_free(x);
        return NULL;
    }
    bool args_ok = (x->argv = ctg_calloc((size_t)c->n_args + 2, sizeof *x->argv)) != NULL;
    for (int i = 0; args_ok && i < c->n_args; i++)
        args_ok = (x->argv[i + 1] = ctg_strdup(c->args[i])) != NULL;
    if (!args_ok) {
        err_set(e, "out of memory starting the executor");
        exec_free(x);
        return NULL;
    }
    x->argv[0] = x->binary;
    if (!exec_os_shm_new((size_t)x->lay.size, &x->shm_fd, &x->shm, e)) {
        exec_free(x);
        return NULL;
    }
    x->hdr = (ctg_shm_hdr *)x->shm;
    init_header(x);
    if (trace_nodes && !trace_new(x, trace_nodes, trace_pc, e)) {
        exec_free(x);
        return NULL;
    }
    if (!server_start(x, true, e)) {
        exec_free(x);
        return NULL;
    }
    return x;
}

void exec_free(exec_t *x)
{
    if (!x)
        return;
    server_stop(x);
    exec_os_shm_free(x->shm_fd, x->shm, (size_t)x->lay.size);
    exec_os_shm_free(x->trace_fd, x->trace, x->trace_size);
    free_env(x->envp);
    for (size_t i = 1; x->argv && x->argv[i]; i++)
        ctg_free(x->argv[i]);
    ctg_free(x->argv);
    ctg_free(x->binary);
    ctg_free(x->stderr_log);
    ctg_free(x->work_dir);
    ctg_free(x);
}

/* ==== one run =============================================================== */

/* Resets the shared memory for a run and writes the input. */
static void prepare(exec_t *x, const uint8_t *input, size_t len, uint32_t flags, uint64_t seed)
{
    ctg_shm_hdr *h = x->hdr;
    if (len > CTG_MAX_INPUT)
        len = CTG_MAX_INPUT;
    if (len)
        memcpy(x->shm + x->lay.input, input, len);
    h->flags = flags;
    h->input_len = (uint32_t)len;
    h->rng_state = seed;
    h->extend_max = x->extend_max;
    ctg_hdr_clear_run(h);
    memset(x->shm + x->lay.cov, 0, (size_t)ctg_cov_len(x->n_edges, x->n_cmp));
    if (flags & CTG_FL_DIST)
        memset(x->shm + x->lay.dist, 0, ((size_t)x->n_edges + 1u) * sizeof(double));
    if (flags & CTG_FL_CMPLOG)
        memset(x->shm + x->lay.cmp, 0, ((size_t)x->n_cmp + 1u) * sizeof(ctg_cmp_rec));
    if (x->trace) { /* the whole header: the last run may have scribbled on it */
        ctg_symtrace_init(x->trace, x->trace_nodes, x->trace_pc);
        ((ctg_symtrace_hdr *)x->trace)->input_len = (uint32_t)len;
        ((ctg_symtrace_hdr *)x->trace)->sym_from = x->sym_from;
    }
}

/* Outcomes of run_once. */
enum { RUN_OK, RUN_NO_SERVER, RUN_STUCK, RUN_LOST };

/* Asks the server for one run and collects its wait status.  RUN_NO_SERVER:
 * the server closed its channel before it reported a child; RUN_STUCK: it
 * reported none within the timeout; RUN_LOST: it died while the child ran
 * (the child's group is killed).  The caller restarts it. */
static int run_once(exec_t *x, double t0, int *ws, bool *timed_out)
{
    uint32_t cmd = CTG_CMD_RUN;
    int32_t msg[2]; /* pid, wait status: one receive under the run timeout */
    size_t got = 0, more;
    *timed_out = false;
    if (!exec_os_send(x->ctl_fd, &cmd, sizeof cmd))
        return RUN_NO_SERVER;
    int rc = exec_os_recv(x->st_fd, msg, sizeof msg, &got);
    /* a wait cut short by a signal goes on for the rest of the timeout */
    double left_ms;
    while (rc < 0 && got >= sizeof msg[0] &&
           (left_ms = x->timeout_ms - (exec_os_now_us() - t0) / 1000.0) >= 1.0) {
        exec_os_set_timeout(x->st_fd, (uint32_t)left_ms);
        rc = exec_os_recv(x->st_fd, (char *)msg + got, sizeof msg - got, &more);
        got += more;
        exec_os_set_timeout(x->st_fd, x->timeout_ms);
    }
    if (got < sizeof msg[0]) /* no child: the server is gone or stuck */
        return rc < 0 ? RUN_STUCK : RUN_NO_SERVER;
    /* only a persistent target's child (libFuzzer) can outlive its run */
    x->child = target_of_harness(x->harness)->persistent ? msg[0] : 0;
    if (rc < 0) {
        *timed_out = true;
        exec_os_kill_group(msg[0]);
        exec_os_set_timeout(x->st_fd, EXEC_KILL_GRACE_MS);
        rc = exec_os_recv(x->st_fd, (char *)msg + got, sizeof msg - got, &more);
        exec_os_set_timeout(x->st_fd, x->timeout_ms);
    }
    if (rc != 1) {
        exec_os_kill_group(msg[0]);
        return RUN_LOST;
    }
    *ws = msg[1];
    return RUN_OK;
}

/* Fills r from the status bits and the wait status. */
static void classify(const exec_t *x, int ws, bool timed_out, exec_result *r)
{
    uint32_t st = x->hdr->status;
    r->status = st;
    r->exit_code = WIFEXITED(ws) ? WEXITSTATUS(ws) : 0;
    r->signal = WIFSIGNALED(ws) ? WTERMSIG(ws) : 0;
    r->stack_overflow = (st & CTG_ST_STACK_OVF) != 0;
    r->error_site = 0;
    r->crash_site = x->hdr->crash_site;
    if (st & CTG_ST_ERROR) {
        r->kind = EXEC_ERROR;
        r->error_site = x->hdr->error_site;
    } else if (st & CTG_ST_ASSUME) {
        r->kind = EXEC_ASSUME;
    } else if (st & CTG_ST_OOM) {
        r->kind = EXEC_OOM;
    } else if (st & CTG_ST_SANITIZER) {
        r->kind = EXEC_SANITIZER;
    } else if (WIFSIGNALED(ws)) {
        if (r->signal == SIGKILL && timed_out)
            r->kind = EXEC_TIMEOUT;
        else if (r->signal == SIGABRT)
            r->kind = EXEC_ABORT;
        else
            r->kind = EXEC_CRASH;
    } else {
        r->kind = EXEC_NORMAL;
    }
}

bool exec_run(exec_t *x, const uint8_t *input, size_t len, uint32_t flags, uint64_t rng_seed,
              exec_result *r, ctg_err *e)
{
    int ws = 0, lost = 0;
    bool timed_out = false;
    double t0 = 0;
    for (int attempt = 0;; attempt++) {
        bool fresh = false;
        if (!x->srv_pid) {
            if (attempt > EXEC_MAX_RESTARTS_PER_RUN)
                return err_set(e, "%s: the fork server keeps dying; run the program alone "
                                  "to see why", x->binary);
            if (!server_start(x, false, e))
                return false;
            x->restarts++;
            fresh = true;
        }
        prepare(x, input, len, flags | x->run_flags, rng_seed);
        t0 = exec_os_now_us();
        int rc = run_once(x, t0, &ws, &timed_out);
        if (rc == RUN_OK)
            break;
        server_stop(x);
        /* A server that has just said hello and dies on this command was
         * killed by the run: either after it reported the child (RUN_LOST) or
         * before, when the child ran first and killed it at once (a loaded
         * machine schedules it so).  An old server may have died earlier. */
        if ((rc == RUN_LOST || (fresh && rc == RUN_NO_SERVER)) && ++lost >= 2) {
            /* this input kills the server itself: a crash of the run */
            ws = SIGKILL;
            break;
        }
    }
    r->usecs = exec_os_now_us() - t0;
    classify(x, ws, timed_out, r);
    x->runs++;
    return true;
}

/* ==== batches (CTG_CMD_BATCH) ================================================ */

void exec_set_overlap(exec_t *x, void (*fn)(void *), void *arg)
{
    x->overlap = fn;
    x->overlap_arg = arg;
}

void exec_set_watch(exec_t *x, const uint32_t *sites, uint32_t n, const uint8_t *log)
{
    x->watch = sites;
    x->n_watch = sites && log ? (n > CTG_WATCH_MAX ? CTG_WATCH_MAX : n) : 0;
    x->watch_log = log;
}

bool exec_can_batch(const exec_t *x)
{
    return target_of_harness(x->harness)->persistent && !x->trace;
}

static ctg_batch_hdr *batch_hdr(const exec_t *x) { return (ctg_batch_hdr *)(x->shm + x->lay.batch); }

uint32_t exec_batch_broken(const exec_t *x, uint32_t i, const ctg_cmp_rec **recs)
{
    const ctg_batch_hdr *b = batch_hdr(x);
    *recs = NULL;
    if (i >= x->watched || !b->log[i])
        return UINT32_MAX;
    *recs = b->broken[i];
    return b->n_broken[i] > CTG_WATCH_REC ? CTG_WATCH_REC : b->n_broken[i];
}

/* Writes as many of the inputs as fit into the batch region (at least one)
 * and the known map; returns how many. */
static uint32_t batch_prepare(exec_t *x, const uint8_t *const *in, const size_t *len, uint32_t n,
                              const uint8_t *known, uint32_t flags)
{
    prepare(x, NULL, 0, flags | x->run_flags, 0);
    ctg_batch_hdr *b = batch_hdr(x);
    uint8_t *data = (uint8_t *)(b + 1);
    uint32_t k = 0, at = 0;
    for (; k < n && k < CTG_BATCH_MAX; k++) {
        size_t l = len[k] > CTG_MAX_INPUT ? CTG_MAX_INPUT : len[k];
        if (k && at + l > CTG_BATCH_BYTES)
            break;
        b->off[k] = at;
        if (l)
            memcpy(data + at, in[k], l);
        at += (uint32_t)l;
    }
    b->off[k] = at;
    b->n = k;
    b->n_watch = x->n_watch;
    if (x->n_watch)
        memcpy(b->watch, x->watch, x->n_watch * sizeof *x->watch);
    for (uint32_t i = 0; i < k; i++) {
        b->log[i] = x->n_watch && x->watch_log[i];
        b->n_broken[i] = 0;
    }
    b->pos = b->stop = b->done = 0;
    b->start_ns = 0;
    memcpy(x->shm + x->lay.known, known, (size_t)ctg_cov_len(x->n_edges, x->n_cmp));
    return k;
}

/* Sends CTG_CMD_BATCH (at t0, exec_os_now_us) and waits for the wait
 * status; the per-run timeout counts from the start of the input running
 * (the child writes it). */
static int batch_once(exec_t *x, double t0, int *ws, bool *timed_out)
{
    uint32_t cmd = CTG_CMD_BATCH;
    int32_t pid = 0, st = 0;
    *timed_out = false;
    if (!exec_os_send(x->ctl_fd, &cmd, sizeof cmd))
        return RUN_NO_SERVER;
    if (x->overlap) /* the caller's work while the batch runs */
        x->overlap(x->overlap_arg);
    double t1 = exec_os_now_us();
    x->batch_overlap_us += t1 - t0;
    if (exec_os_recv(x->st_fd, &pid, sizeof pid, NULL) != 1)
        return RUN_NO_SERVER;
    x->child = pid;
    const ctg_batch_hdr *b = batch_hdr(x);
    size_t got = 0, more;
    int rc;
    bool reset = false; /* the receive timeout was changed: set it back */
    while ((rc = exec_os_recv(x->st_fd, (char *)&st + got, sizeof st - got, &more)) < 0) {
        got += more;
        reset = true;
        double start_us = (double)b->start_ns / 1e3;
        double left_ms = x->timeout_ms - (exec_os_now_us() - start_us) / 1000.0;
        if (left_ms >= 1.0) {
            exec_os_set_timeout(x->st_fd, (uint32_t)left_ms);
            continue;
        }
        *timed_out = true;
        exec_os_kill_group(pid);
        exec_os_set_timeout(x->st_fd, EXEC_KILL_GRACE_MS);
        rc = exec_os_recv(x->st_fd, (char *)&st + got, sizeof st - got, &more);
        break;
    }
    if (reset) /* one system call less per batch in the common case */
        exec_os_set_timeout(x->st_fd, x->timeout_ms);
    x->batch_wait_us += exec_os_now_us() - t1;
    if (rc != 1) {
        exec_os_kill_group(pid);
        return RUN_LOST;
    }
    *ws = st;
    return RUN_OK;
}

bool exec_run_batch(exec_t *x, const uint8_t *const *in, const size_t *len, uint32_t n,
                    const uint8_t *known, uint32_t flags, exec_batch *out, exec_result *r,
                    ctg_err *e)
{
    memset(out, 0, sizeof *out);
    x->watched = 0;
    if (!n)
        return true;
    if (!x->srv_pid) {
        if (!server_start(x, false, e))
            return false;
        x->restarts++;
    }
    uint32_t placed = batch_prepare(x, in, len, n, known, flags);
    int ws = 0;
    bool timed_out;
    double t0 = exec_os_now_us();
    int rc = batch_once(x, t0, &ws, &timed_out);
    const ctg_batch_hdr *b = batch_hdr(x);
    uint32_t pos = b->pos < placed ? b->pos : placed - 1;
    out->plain_max_us = (double)b->max_ns / 1e3;
    if (rc != RUN_OK) { /* the server is gone: the input at pos runs alone */
        server_stop(x);
        out->ran = rc == RUN_LOST ? pos : 0;
        x->runs += out->ran;
        out->stopped = true;
        if (!exec_run(x, in[out->ran], len[out->ran], flags, 0, r, e))
            return false;
        out->ran++;
        return true;
    }
    bool died = !b->done || timed_out;
    if (!died) /* a death may leave a record half written */
        x->watched = b->stop >= placed ? placed : b->stop + 1;
    if (!died && b->stop >= placed) {
        out->ran = placed;
        x->runs += placed;
        return true;
    }
    out->ran = (died ? pos : b->stop) + 1;
    out->stopped = true;
    x->runs += out->ran;
    classify(x, ws, timed_out, r);
    double start_us = (double)b->start_ns / 1e3;
    r->usecs = died ? exec_os_now_us() - (start_us > t0 ? start_us : t0) : (double)b->last_ns / 1e3;
    return true;
}

/* ==== maps of the last run ================================================== */

const uint8_t *exec_cov(const exec_t *x) { return x->shm + x->lay.cov; }
const double *exec_dist(const exec_t *x) { return (const double *)(x->shm + x->lay.dist); }
const ctg_cmp_rec *exec_cmp(const exec_t *x) { return (const ctg_cmp_rec *)(x->shm + x->lay.cmp); }

/* The runtime writes the header from inside the program under test, so a
 * wild write there must not send the tool out of bounds: clamp. */
static uint32_t input_len(const exec_t *x)
{
    uint32_t n = x->hdr->input_len;
    return n > CTG_MAX_INPUT ? CTG_MAX_INPUT : n;
}

const uint8_t *exec_input(const exec_t *x, size_t *len)
{
    *len = input_len(x);
    return x->shm + x->lay.input;
}

size_t exec_consumed(const exec_t *x)
{
    uint32_t n = x->hdr->input_pos, max = input_len(x);
    return n > max ? max : n;
}

const ctg_value_rec *exec_values(const exec_t *x, size_t *n)
{
    uint32_t k = x->hdr->n_values;
    *n = k > CTG_MAX_VALUES ? CTG_MAX_VALUES : k;
    return (const ctg_value_rec *)(x->shm + x->lay.values);
}

const void *exec_trace(const exec_t *x, size_t *size)
{
    *size = x->trace ? x->trace_size : 0;
    return x->trace;
}

uint32_t exec_n_edges(const exec_t *x) { return x->n_edges; }
uint32_t exec_n_cmp(const exec_t *x) { return x->n_cmp; }
uint64_t exec_count(const exec_t *x) { return x->runs; }
uint64_t exec_restarts(const exec_t *x) { return x->restarts; }

void exec_batch_times(const exec_t *x, double *overlap_s, double *wait_s)
{
    *overlap_s = x->batch_overlap_us / 1e6;
    *wait_s = x->batch_wait_us / 1e6;
}
uint32_t exec_harness(const exec_t *x) { return x->harness; }

void exec_set_extend_max(exec_t *x, uint32_t bytes) { x->extend_max = bytes; }

void exec_set_sym_from(exec_t *x, uint32_t offset) { x->sym_from = offset; }

void exec_set_timeout(exec_t *x, uint32_t ms)
{
    if (!ms || ms == x->timeout_ms)
        return;
    x->timeout_ms = ms;
    if (x->st_fd >= 0)
        exec_os_set_timeout(x->st_fd, ms);
}

uint32_t exec_timeout(const exec_t *x) { return x->timeout_ms; }
